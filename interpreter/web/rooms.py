"""Live games: a Room per game holds its Session, its seats (a person or a bot, each with a secret token),
the log lines each reader was told (through that reader's view, in that reader's language) and the
pages listening for changes. Every answer is checked against the pending decision and stored (committed)
before it is applied; bots play their seats on the server right after; undo and a restart rebuild the
Session by replaying the stored decisions from the seed.
"""
from __future__ import annotations

import logging
import random
import secrets
import sqlite3
import threading
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.core.decisions import IllegalDecision
from interpreter.present.words import line
from interpreter.runtime.gamelog import make_log, mismatch
from interpreter.runtime.games import CONTENT_DIRS, known_games, load_compiled, locate
from interpreter.runtime.session import Session
from interpreter.web.store import Damaged, GameRow, Store

BOTS = ("random", "ismcts")
KINDS = ("person",) + BOTS
MAX_LINES = 400  # log lines kept per reader for the page (the downloadable log keeps every decision)
LOG = logging.getLogger("rules.serve")
MAX_PAGES = 64  # pages open on one game at once (each holds a websocket and gets every change)
MAX_ROOMS = 1000  # games in play at once (finished ones are not counted); a server is for tables of friends
BOT_SIMULATIONS = 50  # the ismcts bots' search budget per decision on the server


class Refused(Exception):
    """A request that cannot be applied, with its HTTP status; the game is left as it was."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Seat:
    kind: str  # person | random | ismcts
    token: str
    agent: object = None  # an ismcts agent following the game
    ever_person: bool = False  # a person has held it: their hidden information stays hidden when a bot plays on


@dataclass
class Line:
    n: int  # decisions answered when it was told
    text: str
    private: bool  # told to this reader alone


def game_ref(name: str) -> str:
    """How a game is named in the store and in downloaded logs: its folder name under content/, else its path."""
    root = locate(name)
    return root.name if any(root.parent == d.resolve() for d in CONTENT_DIRS) else str(root)


class Room:
    def __init__(self, row: GameRow, store: Store):
        self.row = row
        self.store = store
        self.id = row.id
        self.game = load_compiled(row.game)
        ever = row.ever_person or [kind == "person" for kind, _ in row.seats]
        self.seats = [Seat(kind, token, ever_person=e) for (kind, token), e in zip(row.seats, ever)]
        self.lock = threading.RLock()
        self.version = 0  # bumped at every change the pages show
        self.listeners: list = []  # callables told (with no argument) after every change
        self.drawn: dict = {}  # what interpreter.web.pages keeps between views: the static board, what each reader saw
        self.error: dict | None = row.error
        self.status = row.status
        self.saved_status = row.status
        self.unsaved: list = []  # decisions applied, not yet committed: (n, seat, option, label)
        if self.status == "playing" and row.content_hash != self.game.content.content_hash:
            # its decisions may mean something else now: the game stops rather than play on wrongly
            self.status = "error"
            self.error = Diagnostic("RUN-ERROR", "the game's content changed since this game started",
                                    hint="download its log and replay it with --allow-changed-content").to_json()
            store.set_status(self.id, "error", self.error)
            self.saved_status = "error"
        same = row.content_hash == self.game.content.content_hash  # else its labels may read otherwise now
        self._rebuild([c for _, c, _ in row.decisions], [s for s, _, _ in row.decisions],
                      [label for _, _, label in row.decisions] if same else None)
        if self.status == "playing":
            self.advance()

    # ------------------------------------------------------------ building the session
    @property
    def players(self) -> int:
        return self.row.players

    def _rebuild(self, choices: list, deciders: list, labels: list | None = None) -> None:
        """A fresh Session replaying `choices` (the stored decisions), with every reader's lines told again.
        With the stored `labels`, each decision must be the one the game asks (else the store is Damaged)."""
        self.lines: dict = {v: deque(maxlen=MAX_LINES) for v in [*range(self.players), None]}
        self.deciders: list = []
        self.last_of: dict = {}  # seat -> decisions answered before its last decision (what is new for it)
        self.session = Session(self.game, self.players, self.row.seed, tuple(self.row.variants), account=self._tell,
                               start=False, lang=self.row.lang)
        for seat in self.seats:
            seat.agent = None
        try:
            self.session.call(self.game.content.manifest["start"])
            for n, choice in enumerate(choices):
                if labels is not None:
                    problem = mismatch(self.session, n + 1, len(choices), choice, labels[n])
                    if problem is None and deciders[n] != self.decider():
                        problem = f"decision {n + 1} is stored as another seat's than the one the game asks"
                    if problem:
                        raise Damaged(f"its stored decisions are not what the game asks: {problem}")
                pending = self.session.pending
                if pending is None:
                    raise DiagnosticError([Diagnostic("RUN-ERROR", f"the stored game ended before decision {n + 1}")])
                self._answered(deciders[n] if n < len(deciders) else self.decider())
                self.session.answer(choice)
        except (DiagnosticError, IllegalDecision) as err:
            self._fail(err, store=self.status != "error")
            return
        if self.status == "playing" and self.session.pending is None:
            self.status = self.saved_status = "finished"
            self.store.set_status(self.id, "finished")

    def _tell(self, to, text, state, _viewer) -> None:
        n = len(self.session.history) if getattr(self, "session", None) is not None else 0
        for reader in ([to] if to is not None else [*range(self.players), None]):
            if reader in self.lines:
                self.lines[reader].append(Line(n, line(state, text, reader, self.row.lang), to is not None))

    def _answered(self, seat) -> None:
        self.last_of[seat] = len(self.deciders)
        self.deciders.append(seat)

    def _fail(self, err: Exception, store: bool = True) -> None:
        """One game's error ends that game, shown to its seats; the server and the other games go on."""
        if isinstance(err, DiagnosticError):
            d = err.diagnostics[0]
        else:
            d = Diagnostic("RUN-ERROR", str(err))
        self.error = d.to_json()
        self.status = "error"
        LOG.warning("game %s (%s) stopped: %s", self.id, self.row.game, d.render())
        if store:
            self.store.set_status(self.id, "error", self.error)
            self.saved_status = "error"

    # ------------------------------------------------------------ who decides
    def decider(self) -> int | None:
        d = self.session.pending
        if d is None:
            return None
        return d.player if isinstance(d.player, int) and 0 <= d.player < self.players else 0

    def seat_of(self, token) -> int | None:
        if not isinstance(token, str) or not token or not token.isascii():  # a secret is ASCII (token_urlsafe)
            return None
        for i, seat in enumerate(self.seats):
            if secrets.compare_digest(seat.token.encode(), token.encode()):
                return i
        return None

    def persons(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "person"]

    def one_person(self) -> bool:
        """A game of one person and bots, or of one device (hot-seat): nobody else's secrets to keep. A seat a
        person held and handed to a bot still counts: its hand must not show in another's log or undo."""
        return sum(1 for s in self.seats if s.ever_person) <= 1 or self.row.hotseat

    def can_undo(self) -> bool:
        """Undo takes back what only one person (or one device, hot-seat) would miss."""
        return self.one_person() and self._undo_point() is not None

    def _undo_point(self) -> int | None:
        persons = set(self.persons())
        for n in range(len(self.deciders) - 1, -1, -1):
            if self.deciders[n] in persons:
                return n
        return None

    # ------------------------------------------------------------ changes
    def answer(self, token, decision, option) -> None:
        """A person's answer: refused (Refused, the game untouched) unless it is the seat's, to the decision
        pending now, with an option offered."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "this link holds no seat of this game")
            if self.status != "playing" or self.session.pending is None:
                raise Refused(409, "the game is over")
            if type(decision) is not int or decision != len(self.session.history):
                raise Refused(409, "that decision is already answered (or not yet asked)")
            if self.decider() != seat:
                raise Refused(409, "this decision is not yours")
            if self.seats[seat].kind != "person":
                raise Refused(409, "a bot plays this seat now")
            if type(option) is not int or not 0 <= option < len(self.session.pending.values):
                raise Refused(422, "that option is not offered")
            self._apply(seat, option)
            self.advance(notify=False, save=False)
            self._save()
        self.changed()

    def _apply(self, seat: int, option: int) -> None:
        """Apply one answer and keep it for the next _save (which commits before anyone is told)."""
        n = len(self.session.history)
        self.unsaved.append((n, seat, option, self.session.pending.label(option)))
        self._answered(seat)
        try:
            self.session.answer(option)
        except DiagnosticError as err:
            self._fail(err, store=False)
            return
        if self.session.pending is None:
            self.status = "finished"

    def _save(self) -> None:
        """Commit the decisions applied since the last save, and the game's status, in one transaction: before
        an answer is acknowledged and before any page is told. A person's answer and the bots' answers after it
        share one commit (one fsync); a server killed before it acknowledged nothing, and replays the rest."""
        if not self.unsaved and self.status == self.saved_status:
            return
        rows, self.unsaved = self.unsaved, []
        try:
            self.store.save(self.id, rows, self.status, self.error)
        except sqlite3.Error:
            # the store could not take it: back to what it holds, and the request is refused
            try:
                stored = self.store.game(self.id)
            except (Damaged, sqlite3.Error):
                stored = None
            if stored is not None:
                self.status, self.error = stored.status, stored.error
                self._rebuild([c for _, c, _ in stored.decisions], [x for x, _, _ in stored.decisions])
            raise Refused(503, "the games database cannot be written now; try again") from None
        self.saved_status = self.status

    def advance(self, limit: int = 100_000, notify: bool = True, save: bool = True) -> None:
        """Bots answer until a person is asked or the game ends."""
        with self.lock:
            moved = False
            while self.status == "playing" and self.session.pending is not None and limit > 0:
                seat = self.decider()
                if self.seats[seat].kind == "person":
                    break
                self._apply(seat, self._bot_choice(seat))
                moved = True
                limit -= 1
            if save:
                self._save()
        if moved and notify:
            self.changed()

    def _bot_choice(self, seat: int) -> int:
        d = self.session.pending
        n = len(self.session.history)
        if self.seats[seat].kind == "ismcts":
            try:
                if self.seats[seat].agent is None:
                    from interpreter.agents.players import make_agent
                    agent = make_agent("ismcts", seat, self.row.seed, {"simulations": BOT_SIMULATIONS})
                    agent.attach(self.session)
                    self.seats[seat].agent = agent
                return int(self.seats[seat].agent.decide(d, None))
            except DiagnosticError:
                pass  # OpenSpiel missing or the search lost: a random answer rather than a stopped game
        # a random bot's answer depends only on the game's seed and the decision's number, so a restarted
        # server or an undone game gives the same answer in the same place
        return random.Random(f"{self.row.seed}/{n}/{seat}").randrange(len(d.values))

    def undo(self, token) -> None:
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "this link holds no seat of this game")
            if self.seats[seat].kind != "person" or not self.can_undo():
                raise Refused(409, "undo is for a game of one person, or of one device (hot-seat)")
            n = self._undo_point()
            self.store.truncate(self.id, n)
            kept = self.deciders[:n]
            choices = self.session.history[:n]
            self.status = self.saved_status = "playing"
            self.error = None
            self._rebuild(choices, kept)
        self.changed()

    def set_kind(self, token, kind) -> None:
        """A seat handed to a bot, or taken back by its person (with the seat's own link)."""
        if kind not in KINDS:
            raise Refused(422, "a seat is a person, a random bot or an ismcts bot")
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "this link holds no seat of this game")
            self.store.set_seat(self.id, seat, kind)
            self.seats[seat].kind = kind
            self.seats[seat].ever_person |= kind == "person"
            self.seats[seat].agent = None
            self.advance(notify=False)
        self.changed()

    def changed(self) -> None:
        with self.lock:
            self.version += 1
            listeners = list(self.listeners)
        for tell in listeners:
            tell()

    def log(self) -> dict:
        with self.lock:
            log = make_log(self.session, self.row.game)
            if self.error is not None:
                log["error"] = self.error
            elif self.session.pending is not None:
                log["unfinished"] = {"reason": "saved"}  # written mid-game: `rules replay` checks it up to here
            return log


class Rooms:
    """Every game the server holds, resumed from the store when it starts."""

    def __init__(self, store: Store, folders: list | None = None):
        self.store = store
        self.lock = threading.Lock()
        self.rooms: dict[str, Room] = {}
        self.games: dict[str, str] = {}  # what the lobby lists: key -> game ref
        for name in known_games():
            self.games[name] = name
        for folder in folders or []:
            ref = game_ref(str(folder))
            key = Path(ref).name
            self.games[key if self.games.get(key, ref) == ref else ref] = ref
        # every game validated and compiled now, not at a player's first click; one that does not validate is listed
        # with its diagnostics, and no game of it can be made
        self.invalid: dict[str, list] = {}
        for key, ref in self.games.items():
            try:
                load_compiled(ref)
            except DiagnosticError as err:
                self.invalid[key] = err.diagnostics
        rows, self.failed = store.load()  # failed: stored games that could not be resumed, and why
        for row in rows:
            try:
                if any(kind not in KINDS for kind, _ in row.seats):
                    raise Damaged("a seat is neither a person nor a bot")
                self.rooms[row.id] = Room(row, store)
            except DiagnosticError as err:  # its game's content no longer loads: the others go on
                self.failed[row.id] = err.diagnostics[0].message
            except Damaged as err:
                self.failed[row.id] = str(err)
        for gid, why in self.failed.items():  # set aside, untouched: the file can be mended and the server restarted
            LOG.warning("game %s set aside: %s", gid, why)

    def get(self, gid) -> Room:
        room = self.rooms.get(gid) if isinstance(gid, str) else None
        if room is None:
            raise Refused(404, "no such game")
        return room

    def create(self, key: str, players: int, kinds: list, lang: str, variants=(), seed: int | None = None,
               hotseat: bool = False) -> Room:
        if key not in self.games:
            raise Refused(404, "no such game")
        if key in self.invalid:
            raise Refused(422, f"{key} does not validate: {self.invalid[key][0].message}")
        if sum(1 for room in list(self.rooms.values()) if room.status == "playing") >= MAX_ROOMS:
            raise Refused(503, "the server holds as many games in play as it can")
        ref = self.games[key]
        game = load_compiled(ref)
        content = game.content
        lo, hi = content.manifest["players"]["min"], content.manifest["players"]["max"]
        if type(players) is not int or not lo <= players <= hi:
            raise Refused(422, f"this game is for {lo} to {hi} players")
        if lang not in content.vocabulary.languages:
            raise Refused(422, "the game is not written in that language")
        if any(v not in content.vocabulary.variants for v in variants):
            raise Refused(422, "no such variant")
        kinds = (list(kinds) + ["random"] * players)[:players]
        if any(k not in KINDS for k in kinds):
            raise Refused(422, "a seat is a person, a random bot or an ismcts bot")
        row = GameRow(secrets.token_urlsafe(9), ref, players, secrets.randbelow(2 ** 31) if seed is None else seed,
                      list(variants), lang, hotseat, content.content_hash, "playing", None,
                      [(k, secrets.token_urlsafe(24)) for k in kinds])
        self.store.create(row)
        room = Room(row, self.store)
        with self.lock:
            self.rooms[row.id] = room
        return room
