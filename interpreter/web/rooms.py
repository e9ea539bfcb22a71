"""Live games: a Room per game holds its Session, its seats (a person or a bot, each with a secret token),
the log lines each reader was told (through that reader's view, in that reader's language) and the
pages listening for changes. Every answer is checked against the pending decision and stored (committed)
before it is acknowledged; bots play their seats afterwards, off the request path (interpreter.web.bots
calls `bot_job` and `bot_step`); undo and a restart rebuild the Session by replaying the stored decisions
from the seed. A log line is kept in the game's language and in each language a page has asked for
(`speak`), so that each page reads the log in its own.
"""
from __future__ import annotations

import logging
import random
import secrets
import sqlite3
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.core.decisions import IllegalDecision
from interpreter.present.words import line
from interpreter.runtime.gamelog import make_log, mismatch
from interpreter.runtime.games import CONTENT_DIRS, known_games, load_compiled, locate
from interpreter.runtime.session import Session
from interpreter.web.chat import Chat, said_text
from interpreter.web.refused import Refused
from interpreter.web.store import Damaged, GameRow, Store

BOTS = ("random", "ismcts")
KINDS = ("person",) + BOTS
MAX_LINES = 400  # log lines kept per reader for the page (the downloadable log keeps every decision)
LOG = logging.getLogger("rules.serve")
MAX_PAGES = 64  # pages open on one game at once (each holds a websocket and gets every change)
MAX_ROOMS = 1000  # games in play at once (finished ones are not counted); a server is for tables of friends
BOT_SIMULATIONS = 50  # the ismcts bots' search budget per decision on the server
MAX_PACE = 10.0  # seconds a bot may be told to wait before each decision


@dataclass
class Seat:
    kind: str  # person | random | ismcts
    token: str
    ever_person: bool = False  # a person has held it: their hidden information stays hidden when a bot plays on


@dataclass
class Line:
    n: int  # decisions answered when it was told
    texts: dict  # language -> the line in it, as this reader reads it
    private: bool  # told to this reader alone
    html: tuple | None = None  # (language, the text in it escaped for a page): interpreter.web.draw.log_html


@dataclass
class BotJob:
    """A bot's decision to make, as the room was when it was asked (`epoch` and `n` tell it changed since)."""
    epoch: int
    n: int
    seat: int
    kind: str
    options: int
    pace: float


def game_ref(name: str) -> str:
    """How a game is named in the store and in downloaded logs: its folder name under content/, else its path."""
    root = locate(name)
    return root.name if any(root.parent == d.resolve() for d in CONTENT_DIRS) else str(root)


class Room:
    def __init__(self, row: GameRow, store: Store, shared: dict | None = None):
        self.row = row
        self.store = store
        self.id = row.id
        self.game = load_compiled(row.game)
        self.languages = tuple(self.game.content.vocabulary.languages)
        # the languages the log lines are kept in: the game's, and each one a page has asked for (see `speak`)
        self.told = {row.lang}
        ever = row.ever_person or [kind == "person" for kind, _ in row.seats]
        self.seats = [Seat(kind, token, ever_person=e) for (kind, token), e in zip(row.seats, ever)]
        self.lock = threading.RLock()
        self.version = 0  # bumped at every change the pages show
        self.epoch = 0  # bumped when the game is rebuilt or a seat changes hands: a bot's answer asked before is dropped
        self.listeners: list = []  # callables told (with no argument) after every change
        self.rendered: dict = {}  # (viewer, language) -> (version, the view sent to pages): interpreter.web.live
        self.hurried = False  # bots without pace answer next: a page may wait a moment for them (interpreter.web.live)
        self.drawn: dict = {}  # what interpreter.web.pages keeps between views: what each reader saw and was shown
        # what pages draw the same for every game of one content (the static board): the server's, shared by its rooms
        self.shared: dict = {} if shared is None else shared
        self.error: dict | None = row.error
        self.status = row.status
        self.saved_status = row.status
        self.unsaved: list = []  # decisions applied, not yet committed: (n, seat, option, label, bot)
        self.chat = Chat(row.chat)
        if self.status == "playing" and row.content_hash != self.game.content.content_hash:
            # its decisions may mean something else now: the game stops rather than play on wrongly
            self.status = "error"
            self.error = Diagnostic("RUN-ERROR", "the game's content changed since this game started",
                                    hint="download its log and replay it with --allow-changed-content").to_json()
            store.set_status(self.id, "error", self.error)
            self.saved_status = "error"
        same = row.content_hash == self.game.content.content_hash  # else its labels may read otherwise now
        self._rebuild([c for _, c, _ in row.decisions], [s for s, _, _ in row.decisions], row.bots,
                      [label for _, _, label in row.decisions] if same else None)
        # bots do not play here: interpreter.web.bots starts on every game the server resumes

    # ------------------------------------------------------------ building the session
    @property
    def players(self) -> int:
        return self.row.players

    def _rebuild(self, choices: list, deciders: list, bots: list | None = None, labels: list | None = None) -> None:
        """A fresh Session replaying `choices` (the stored decisions, `bots` saying which a bot answered), with every
        reader's lines told again. With the stored `labels`, each decision must be the one the game asks (else the
        store is Damaged)."""
        self.epoch += 1
        self.lines: dict = {v: deque(maxlen=MAX_LINES) for v in [*range(self.players), None]}
        self.deciders: list = []
        self.by_bot: list = []  # by decision: a bot answered it (None: not known, stored before this was kept)
        self.last_of: dict = {}  # seat -> decisions answered before its last decision (what is new for it)
        self.session = Session(self.game, self.players, self.row.seed, tuple(self.row.variants), account=self._tell,
                               start=False, lang=self.row.lang)
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
                self._answered(deciders[n] if n < len(deciders) else self.decider(), bots[n] if bots and n < len(bots) else None)
                self.session.answer(choice)
        except (DiagnosticError, IllegalDecision) as err:
            self._fail(err, store=self.status != "error")
            return
        if self.status == "playing" and self.session.pending is None:
            self.status = self.saved_status = "finished"
            self.store.set_status(self.id, "finished")

    def _tell(self, to, text, state, _viewer) -> None:
        n = len(self.session.history) if getattr(self, "session", None) is not None else 0
        for reader, texts in _worded(self.players, to, text, state, self.told):
            if reader in self.lines:
                self.lines[reader].append(Line(n, texts, to is not None))

    def speak(self, lang: str) -> None:
        """Keep the log in `lang` too (a page in another language than the game's, the first time one asks): the
        lines told so far are told again in it by replaying the game aside, outside the lock, with the few
        decisions answered meanwhile replayed under it; then every new line is told in it as well."""
        while lang in self.languages and lang not in self.told:
            with self.lock:
                epoch, choices = self.epoch, list(self.session.history)
            said: dict = {reader: [] for reader in self.lines}

            def heard(to, text, state, _viewer):
                for reader, texts in _worded(self.players, to, text, state, (lang,)):
                    if reader in said:
                        said[reader].append(texts[lang])
            try:  # a game stopped by an error stops here at the same place: its lines up to it
                aside = Session(self.game, self.players, self.row.seed, tuple(self.row.variants), account=heard,
                                lang=self.row.lang)
                for choice in choices:
                    aside.answer(choice)
            except (DiagnosticError, IllegalDecision):
                aside = None
            with self.lock:
                if self.epoch != epoch:
                    continue  # undone or resumed meanwhile: once more
                try:
                    for choice in self.session.history[len(choices):] if aside is not None else ():
                        aside.answer(choice)
                except (DiagnosticError, IllegalDecision):
                    pass
                for reader, lines in self.lines.items():
                    kept = said[reader][len(said[reader]) - len(lines):] if lines else []
                    for ln, text in zip(lines, kept):
                        ln.texts[lang] = text
                self.told.add(lang)

    def _answered(self, seat, bot) -> None:
        self.last_of[seat] = len(self.deciders)
        self.deciders.append(seat)
        self.by_bot.append(bot)

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

    def bots_only(self) -> bool:
        """No person ever held a seat: nobody watches the bots' pace."""
        return not any(s.ever_person for s in self.seats)

    def can_undo(self) -> bool:
        """Undo takes back what only one person (or one device, hot-seat) would miss; never a game that is over."""
        return self.status != "finished" and self.one_person() and self._undo_point() is not None

    def can_hand_over(self) -> bool:
        return self.status == "playing"

    def _by_person(self, n: int) -> bool:
        bot = self.by_bot[n]
        if bot is None:  # stored before who answered was kept: as the seat is held now
            return self.deciders[n] in set(self.persons())
        return not bot

    def _undo_point(self) -> int | None:
        """Where undo goes back to: the person's last decision, asked again; but when a bot played a person's seat
        after it (the seat handed over), only back to where it was handed over: the bot's first decision there."""
        last = next((n for n in range(len(self.deciders) - 1, -1, -1) if self._by_person(n)), None)
        ever = {i for i, s in enumerate(self.seats) if s.ever_person}
        for n in range((last if last is not None else -1) + 1, len(self.deciders)):
            if self.by_bot[n] and self.deciders[n] in ever:
                return n
        return last

    # ------------------------------------------------------------ changes
    def answer(self, token, decision, option) -> None:
        """A person's answer: refused (Refused, the game untouched) unless it is the seat's, to the decision
        pending now, with an option offered. Committed before it returns; the bots play on afterwards."""
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
            self._apply(seat, option, bot=False)
            self._save()
            self._hurry()
            self.changed()

    def _apply(self, seat: int, option: int, bot: bool) -> None:
        """Apply one answer and keep it for the next _save (which commits before anyone is told)."""
        n = len(self.session.history)
        self.unsaved.append((n, seat, option, self.session.pending.label(option), bot))
        self._answered(seat, bot)
        try:
            self.session.answer(option)
        except DiagnosticError as err:
            self._fail(err, store=False)
            return
        if self.session.pending is None:
            self.status = "finished"

    def _save(self) -> None:
        """Commit the decisions applied since the last save, and the game's status, in one transaction: before
        an answer is acknowledged and before any page is told. A run of bots' answers shares one commit; a
        server killed before it acknowledged nothing, and replays the rest."""
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
                self._rebuild([c for _, c, _ in stored.decisions], [x for x, _, _ in stored.decisions], stored.bots)
            raise Refused(503, "the games database cannot be written now; try again") from None
        self.saved_status = self.status

    # ------------------------------------------------------------ bots (driven by interpreter.web.bots)
    def bot_job(self) -> BotJob | None:
        """The bot's decision pending now, or None when a person is asked or the game is over."""
        with self.lock:
            seat = self.decider()
            if self.status != "playing" or seat is None or self.seats[seat].kind == "person":
                return None
            pace = 0.0 if self.bots_only() else self.row.pace
            return BotJob(self.epoch, len(self.session.history), seat, self.seats[seat].kind,
                          len(self.session.pending.values), pace)

    def bot_step(self, job: BotJob, choice: int | None, budget: float = 0.0) -> bool:
        """Answer `job` (with `choice`, or at random when None) if the game is still where it was asked, then, within
        `budget` seconds, the random bots' decisions after it; all committed together. True when it moved."""
        deadline = time.perf_counter() + budget
        moved = False
        with self.lock:
            while True:
                if job is None or job.epoch != self.epoch or job.n != len(self.session.history):
                    break
                if choice is None or not 0 <= choice < job.options:
                    choice = self.random_choice(job)
                self._apply(job.seat, choice, bot=True)
                moved = True
                job, choice = self.bot_job(), None
                if job is None or job.kind != "random" or job.pace > 0 or time.perf_counter() >= deadline:
                    break
            if moved:
                self._save()
                self._hurry()
                self.changed()
        return moved

    def play_bots(self) -> None:
        """The bots answer until a person is asked or the game ends, here and now (an ISMCTS seat at random): for
        tools and tests; the server plays them in the background, interpreter.web.bots."""
        while (job := self.bot_job()) is not None:
            self.bot_step(job, None)

    def _hurry(self) -> None:
        job = self.bot_job()
        self.hurried = job is not None and job.pace == 0

    def random_choice(self, job: BotJob) -> int:
        # a random bot's answer depends only on the game's seed and the decision's number, so a restarted
        # server or an undone game gives the same answer in the same place
        return random.Random(f"{self.row.seed}/{job.n}/{job.seat}").randrange(job.options)

    def search_request(self, job: BotJob) -> dict:
        """What a worker process needs to answer `job` with a search (interpreter.web.bots.search)."""
        with self.lock:
            return {"game": self.id, "ref": self.row.game, "players": self.players, "seed": self.row.seed,
                    "variants": list(self.row.variants), "history": list(self.session.history[:job.n]),
                    "seat": job.seat, "options": job.options, "simulations": BOT_SIMULATIONS}

    # ------------------------------------------------------------ persons' requests
    def undo(self, token) -> None:
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "this link holds no seat of this game")
            if self.status == "finished":
                raise Refused(409, "the game is over")
            if self.seats[seat].kind != "person" or not self.can_undo():
                raise Refused(409, "undo is for a game of one person, or of one device (hot-seat)")
            n = self._undo_point()
            self.store.truncate(self.id, n)
            kept, bots = self.deciders[:n], self.by_bot[:n]
            choices = self.session.history[:n]
            self.status = self.saved_status = "playing"
            self.error = None
            self._rebuild(choices, kept, bots)
            self.changed()

    def set_kind(self, token, kind) -> None:
        """A seat handed to a bot, or taken back by its person (with the seat's own link); not once the game is over."""
        if kind not in KINDS:
            raise Refused(422, "a seat is a person, a random bot or an ismcts bot")
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "this link holds no seat of this game")
            if self.status != "playing":
                raise Refused(409, "the game is over")
            self.store.set_seat(self.id, seat, kind)
            self.seats[seat].kind = kind
            self.seats[seat].ever_person |= kind == "person"
            self.epoch += 1
            self.changed()

    def say(self, token, text) -> None:
        """A chat message from a seat (spectators read only), stored before anyone reads it."""
        text = said_text(text)
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise Refused(403, "only the seats of this game speak in its chat; spectators read it")
            self.chat.add(seat, text, lambda n, at: self.store.say(self.id, n, seat, text, at))
            self.changed()

    def changed(self) -> None:
        """Every page listening is told (a listener only wakes its page's task: it never blocks)."""
        with self.lock:
            self.version += 1
            for tell in self.listeners:
                tell()

    def log(self) -> dict:
        with self.lock:
            log = make_log(self.session, self.row.game)
            if self.error is not None:
                log["error"] = self.error
            elif self.session.pending is not None:
                log["unfinished"] = {"reason": "saved"}  # written mid-game: `rules replay` checks it up to here
            return log


def _worded(players: int, to, text, state, languages) -> list:
    """A log line as each of its readers reads it (None: a spectator), in each of `languages`, now: the state it
    is told in is gone by the time a page asks."""
    return [(reader, {lang: line(state, text, reader, lang) for lang in languages})
            for reader in ([to] if to is not None else [*range(players), None])]


class Rooms:
    """Every game the server holds, resumed from the store when it starts."""

    def __init__(self, store: Store, folders: list | None = None):
        self.store = store
        self.lock = threading.Lock()
        self.rooms: dict[str, Room] = {}
        self.shared: dict = {}  # Room.shared: drawn once per game content and language, for every room of it
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
                self.rooms[row.id] = Room(row, store, self.shared)
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
               hotseat: bool = False, pace: float = 0.0) -> Room:
        if key not in self.games:
            raise Refused(404, "no such game")
        if key in self.invalid:
            raise Refused(422, f"{key} does not validate: {self.invalid[key][0].message}")
        row = self._row(self.games[key], players, kinds, lang, variants, seed, hotseat, pace)
        self.store.create(row)
        return self._hold(row)

    def _row(self, ref: str, players: int, kinds: list, lang: str, variants, seed, hotseat: bool, pace: float) -> GameRow:
        """A new game's row, checked: refused (Refused) unless the game takes it."""
        if sum(1 for room in list(self.rooms.values()) if room.status == "playing") >= MAX_ROOMS:
            raise Refused(503, "the server holds as many games in play as it can")
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
        if type(pace) not in (int, float) or not 0 <= pace <= MAX_PACE:
            raise Refused(422, f"a bot's pause is 0 to {MAX_PACE:g} seconds")
        return GameRow(secrets.token_urlsafe(9), ref, players, secrets.randbelow(2 ** 31) if seed is None else seed,
                       list(variants), lang, hotseat, content.content_hash, "playing", None,
                       [(k, secrets.token_urlsafe(24)) for k in kinds], pace=float(pace))

    def _hold(self, row: GameRow) -> Room:
        room = Room(row, self.store, self.shared)
        with self.lock:
            self.rooms[row.id] = room
        return room

    def rematch(self, room: Room, token) -> Room:
        """The game again, made once: the same game, seats, variants, language and pace, a new seed; every seat a
        person held is a person's again (with a new secret), every other seat the same bot."""
        with room.lock:
            if room.seat_of(token) is None:
                raise Refused(403, "this link holds no seat of this game")
            if room.row.rematch is not None:
                return self.get(room.row.rematch)
            if room.status == "playing":
                raise Refused(409, "a rematch is for a game that is over")
            kinds = ["person" if s.ever_person else s.kind for s in room.seats]
            row = self._row(room.row.game, room.players, kinds, room.row.lang, room.row.variants, None,
                            room.row.hotseat, room.row.pace)
            self.store.rematch(room.row, row)
            room.row.rematch = row.id
            new = self._hold(row)
            room.changed()
        return new
