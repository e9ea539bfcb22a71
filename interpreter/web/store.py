"""Games kept in SQLite (the standard sqlite3 module): each game, its seats and every decision, one row per
answer, INSERTed and committed before the answer is acknowledged. A game is resumed by replaying its
stored decisions from its seed, so a server killed at any moment loses no acknowledged decision and
applies none twice (a decision's number is part of its key: a second insert of the same number fails).
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,          -- a name under content/ or a path to a game folder
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    variants TEXT NOT NULL,      -- JSON list
    lang TEXT NOT NULL,
    hotseat INTEGER NOT NULL DEFAULT 0,
    content_hash TEXT NOT NULL,
    status TEXT NOT NULL,        -- playing | finished | error
    error TEXT,                  -- JSON diagnostic when status is error
    created REAL NOT NULL,
    pace REAL NOT NULL DEFAULT 0,  -- seconds a bot waits before each of its decisions (0: none)
    rematch TEXT                 -- the id of the game that replays this one (a rematch), once made
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,          -- person | random | ismcts
    token TEXT NOT NULL UNIQUE,
    ever_person INTEGER NOT NULL DEFAULT 0,  -- a person has held it (their secrets are kept even when a bot plays on)
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS decisions (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,          -- 0, 1, 2, ... in the order answered
    seat INTEGER,
    choice INTEGER NOT NULL,
    label TEXT NOT NULL,
    bot INTEGER,                 -- 1: a bot answered it, 0: a person, NULL: stored before this was kept
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,          -- 0, 1, 2, ... in the order said
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,            -- when it was said (seconds since 1970)
    PRIMARY KEY (game_id, n)
);
"""
# columns added since the first version of the schema: a database made before them gets them when opened
ADDED = (("games", "pace", "REAL NOT NULL DEFAULT 0"), ("games", "rematch", "TEXT"), ("decisions", "bot", "INTEGER"))


@dataclass
class GameRow:
    id: str
    game: str
    players: int
    seed: int
    variants: list
    lang: str
    hotseat: bool
    content_hash: str
    status: str
    error: dict | None
    seats: list = field(default_factory=list)  # [(kind, token)] by seat
    ever_person: list = field(default_factory=list)  # by seat: a person has held it
    decisions: list = field(default_factory=list)  # [(seat, choice, label)] in order
    pace: float = 0.0  # seconds a bot waits before each of its decisions
    rematch: str | None = None  # the game made as this one's rematch
    bots: list = field(default_factory=list)  # by decision: True a bot answered it, False a person, None not known
    chat: list = field(default_factory=list)  # [(seat, text, at)] in order


def default_db() -> Path:
    """$XDG_DATA_HOME/tabletop-rules/games.sqlite3, or ~/.local/share/tabletop-rules/games.sqlite3."""
    base = os.environ.get("XDG_DATA_HOME")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "tabletop-rules" / "games.sqlite3"


class Store:
    """One connection shared by the server's threads behind a lock, in WAL mode. With synchronous=NORMAL (the
    default) a commit is in the database file's log when it returns: it survives the server being killed at
    any moment (SIGKILL), though a power cut may lose the last moments; synchronous=FULL also waits for the
    disk (an fsync per commit: ~6 ms each here, which caps the server near 150 answers a second)."""

    def __init__(self, path: Path | str, synchronous: str = "NORMAL"):
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(synchronous)
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        for table, column, declared in ADDED:
            if column not in {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}:
                self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declared}")

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def _write(self, statements: list) -> None:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self.db.execute(sql, args)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def create(self, row: GameRow) -> None:
        self._write(self._creating(row))

    @staticmethod
    def _creating(row: GameRow) -> list:
        writes = [("INSERT INTO games (id, game, players, seed, variants, lang, hotseat, content_hash, status, error, "
                   "created, pace) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                   (row.id, row.game, row.players, row.seed, json.dumps(row.variants), row.lang, int(row.hotseat),
                    row.content_hash, row.status, None, time.time(), row.pace))]
        writes += [("INSERT INTO seats VALUES (?,?,?,?,?)", (row.id, seat, kind, token, int(kind == "person")))
                   for seat, (kind, token) in enumerate(row.seats)]
        return writes

    def save(self, game_id: str, rows: list, status: str, error: dict | None) -> None:
        """Decisions [(n, seat, choice, label, bot)] and the game's status, committed together; a decision
        number already stored raises sqlite3.IntegrityError and nothing of it is written."""
        self._write([("INSERT INTO decisions (game_id, n, seat, choice, label, bot) VALUES (?,?,?,?,?,?)",
                      (game_id, *row[:4], int(row[4]))) for row in rows] +
                    [("UPDATE games SET status=?, error=? WHERE id=?",
                      (status, json.dumps(error) if error is not None else None, game_id))])

    def truncate(self, game_id: str, n: int) -> None:
        """Take back decision n and every later one (undo)."""
        self._write([("DELETE FROM decisions WHERE game_id=? AND n>=?", (game_id, n)),
                     ("UPDATE games SET status='playing', error=NULL WHERE id=?", (game_id,))])

    def set_status(self, game_id: str, status: str, error: dict | None = None) -> None:
        self._write([("UPDATE games SET status=?, error=? WHERE id=?",
                      (status, json.dumps(error) if error is not None else None, game_id))])

    def set_seat(self, game_id: str, seat: int, kind: str) -> None:
        self._write([("UPDATE seats SET kind=?, ever_person=MAX(ever_person, ?) WHERE game_id=? AND seat=?",
                      (kind, int(kind == "person"), game_id, seat))])

    def rematch(self, old: GameRow, new: GameRow) -> None:
        """The rematch made and named in the old game, in one transaction: a game has at most one."""
        self._write([*self._creating(new), ("UPDATE games SET rematch=? WHERE id=? AND rematch IS NULL", (new.id, old.id))])

    def say(self, game_id: str, n: int, seat: int, text: str, at: float) -> None:
        """A chat message, committed before it is shown; a number already stored raises sqlite3.IntegrityError."""
        self._write([("INSERT INTO chat VALUES (?,?,?,?,?)", (game_id, n, seat, text, at))])

    def games(self) -> list[GameRow]:
        with self.lock:
            rows = self.db.execute("SELECT id, game, players, seed, variants, lang, hotseat, content_hash, status, error, "
                                   "pace, rematch FROM games ORDER BY created").fetchall()
            seats = self.db.execute("SELECT game_id, seat, kind, token, ever_person FROM seats ORDER BY game_id, seat").fetchall()
            decisions = self.db.execute("SELECT game_id, n, seat, choice, label, bot FROM decisions ORDER BY game_id, n").fetchall()
            chat = self.db.execute("SELECT game_id, n, seat, text, at FROM chat ORDER BY game_id, n").fetchall()
        out = {}
        for gid, game, players, seed, variants, lang, hot, chash, status, error, pace, rematch in rows:
            out[gid] = GameRow(gid, game, players, seed, json.loads(variants), lang, bool(hot), chash, status,
                               json.loads(error) if error else None, pace=float(pace or 0), rematch=rematch)
        for gid, _, kind, token, ever in seats:
            if gid in out:
                out[gid].seats.append((kind, token))
                out[gid].ever_person.append(bool(ever))
        for gid, n, seat, choice, label, bot in decisions:
            if gid in out:
                assert n == len(out[gid].decisions), f"game {gid}: decision {n} stored out of order"
                out[gid].decisions.append((seat, choice, label))
                out[gid].bots.append(None if bot is None else bool(bot))
        for gid, n, seat, text, at in chat:
            if gid in out and n == len(out[gid].chat):
                out[gid].chat.append((seat, text, at))
        return list(out.values())

    def decision_count(self, game_id: str) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM decisions WHERE game_id=?", (game_id,)).fetchone()[0]
