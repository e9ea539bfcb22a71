"""Games kept in SQLite (the standard sqlite3 module): each game, its seats and every decision, one row per
answer, INSERTed and committed before the answer is acknowledged. A game is resumed by replaying its
stored decisions from its seed, so a server killed at any moment loses no acknowledged decision and
applies none twice (a decision's number is part of its key: a second insert of the same number fails).
"""
from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from dsl.limits import MAX_INT, MAX_PLAYERS
from dsl.plurals import plural

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


STATUSES = ("playing", "finished", "error")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe makes


class Damaged(Exception):
    """A stored game that cannot be resumed as it is (a row missing, a field that is not what was written)."""


def _check(ok: bool, why: str) -> None:
    if not ok:
        raise Damaged(why)


def _shown(gid) -> str:
    """A stored id as the lobby and the log may show it: as it is when it is one the server makes, else quoted."""
    return gid if isinstance(gid, str) and GAME_ID.fullmatch(gid) else ascii(gid)[:40]


def _whole(value, lo: int, hi: int) -> bool:
    return type(value) is int and lo <= value <= hi


def _json(text, name: str):
    try:
        return json.loads(text) if isinstance(text, str) and len(text) <= 65536 else _not_json(name)
    except (ValueError, RecursionError):
        return _not_json(name)


def _not_json(name: str):
    raise Damaged(f"its {name} are not JSON" if name.endswith("s") else f"its {name} is not JSON")


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

    def load(self) -> tuple[list[GameRow], dict[str, str]]:
        """Every stored game, each checked as it is read: (the games that can be resumed, {id: why} for the
        damaged ones, which are set aside and left as they are). A file that is not a database at all raises
        sqlite3.DatabaseError."""
        with self.lock:
            ids = [gid for (gid,) in self.db.execute("SELECT id FROM games ORDER BY created")]
            orphans = [gid for (gid,) in self.db.execute(
                "SELECT game_id FROM seats WHERE game_id NOT IN (SELECT id FROM games) UNION "
                "SELECT game_id FROM decisions WHERE game_id NOT IN (SELECT id FROM games)")]
        rows, failed = [], {}
        for gid in ids:
            try:
                rows.append(self.game(gid))
            except Damaged as err:
                failed[_shown(gid)] = str(err)
            except sqlite3.DatabaseError as err:  # a damaged page of the file: this game only, if the rest reads
                failed[_shown(gid)] = f"the database cannot read it: {err}"
        for gid in orphans:
            failed[_shown(gid)] = "its seats or decisions are stored, but the game itself is not"
        return rows, failed

    def games(self) -> list[GameRow]:
        return self.load()[0]

    def game(self, gid: str) -> GameRow:
        """One stored game, checked field by field (Damaged says what is wrong)."""
        with self.lock:
            row = self.db.execute("SELECT id, game, players, seed, variants, lang, hotseat, content_hash, status, error, "
                                  "pace, rematch FROM games WHERE id=?", (gid,)).fetchone()
            seats = self.db.execute("SELECT seat, kind, token, ever_person FROM seats WHERE game_id=? ORDER BY seat",
                                    (gid,)).fetchall()
            decisions = self.db.execute("SELECT n, seat, choice, label, bot FROM decisions WHERE game_id=? ORDER BY n",
                                        (gid,)).fetchall()
            chat = self.db.execute("SELECT n, seat, text, at FROM chat WHERE game_id=? ORDER BY n", (gid,)).fetchall()
        if row is None:
            raise Damaged("the game is not stored")
        _, game, players, seed, variants, lang, hot, chash, status, error, pace, rematch = row
        _check(isinstance(gid, str) and GAME_ID.fullmatch(gid) is not None, "its id is not one the server makes")
        _check(isinstance(game, str) and game != "", "the name of its game is not text")
        _check(_whole(players, 1, MAX_PLAYERS), f"its number of players is not 1 to {MAX_PLAYERS}")
        _check(_whole(seed, 0, MAX_INT), "its seed is not a whole number")
        variants = _json(variants, "variants")
        _check(isinstance(variants, list) and all(isinstance(v, str) for v in variants), "its variants are not a list of names")
        _check(isinstance(lang, str) and lang != "", "its language is not text")
        _check(hot in (0, 1), "its hot-seat flag is not 0 or 1")
        _check(isinstance(chash, str), "its content hash is not text")
        _check(status in STATUSES, f"its status is not one of {', '.join(STATUSES)}")
        error = _json(error, "error") if error is not None else None
        _check(error is None or isinstance(error, dict) and all(isinstance(error.get(k), str) for k in ("code", "message")),
               "its error is not a diagnostic")
        _check(type(pace) in (int, float) and 0 <= pace <= 3600, "its bots' pause is not a number of seconds")
        _check(rematch is None or isinstance(rematch, str) and GAME_ID.fullmatch(rematch) is not None,
               "its rematch is not a game's id")
        _check([s for s, *_ in seats] == list(range(players)), f"it has {plural('en', len(seats), ('# seat', '# seats'))} stored for {players} players")
        for seat, kind, token, ever in seats:
            _check(isinstance(kind, str) and isinstance(token, str) and token != "" and ever in (0, 1),
                   f"seat {seat + 1} is not a kind and a secret")
        out = GameRow(gid, game, players, seed, variants, lang, bool(hot), chash, status, error,
                      [(kind, token) for _, kind, token, _ in seats], [bool(ever) for *_, ever in seats],
                      pace=float(pace), rematch=rematch)
        for n, seat, choice, label, bot in decisions:
            _check(n == len(out.decisions), f"decision {len(out.decisions) + 1} is missing" if _whole(n, 0, MAX_INT)
                   else "a decision's number is not a whole number")
            _check(seat is None or _whole(seat, 0, players - 1), f"decision {n + 1} names no seat of the game")
            _check(_whole(choice, 0, MAX_INT) and isinstance(label, str), f"decision {n + 1} is not an option and its label")
            _check(bot in (None, 0, 1), f"decision {n + 1} is neither a person's nor a bot's")
            out.decisions.append((seat, choice, label))
            out.bots.append(None if bot is None else bool(bot))
        for n, seat, text, at in chat:  # the chat is not the game: a message that is not what was written is left out
            if n == len(out.chat) and _whole(seat, 0, players - 1) and isinstance(text, str) and type(at) in (int, float):
                out.chat.append((seat, text, at))
        return out

    def decision_count(self, game_id: str) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM decisions WHERE game_id=?", (game_id,)).fetchone()[0]
