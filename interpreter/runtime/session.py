"""Running a compiled game: procedures as generators that yield Decisions; a Session drives them.

A Session is the embedding API: it holds the state, the pending decision with its legal
options, and takes answers one at a time (refusing illegal ones without touching the state).
"""
from __future__ import annotations

from dataclasses import dataclass

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.codegen import CompiledGame, GameOver, RunLimit, library
from interpreter.codegen.chance import chance_of, seat_mode
from interpreter.codegen.library import MenuChoice, _what
from interpreter.core.decisions import Decision, IllegalDecision, Question, Told
from interpreter.runtime.failures import _explain
from interpreter.runtime.labels import SETTLED, made, settled_choice
from interpreter.runtime.resolver import Resolver
from interpreter.runtime.snapshot import copy_session
from interpreter.runtime.start import new_state  # noqa: F401 - part of this module's API
from interpreter.core.state import Entity, State, Zone, holder, touch


NOT_HELD = "its condition does not hold"  # a modifier's result in the trace when it did not apply


@dataclass
class Result:
    winners: list
    scores: list
    decisions: int


class Runtime:
    """What generated code sees as `rt`: the state's parts under short names, and the machinery around them.

    It keeps fewer than 30 attributes: past that, CPython 3.11 no longer shares its instance dict's keys, and
    every `rt.x` the generated code reads is slower (B'Twixt +2.5 % instructions a game at 30)."""

    def __init__(self, game: CompiledGame, state: State, account=None, trace: list | None = None):
        self.game = game
        self.state = state
        self.gv = state.game_vars
        self.pv = state.player_vars
        self.gz = state.game_zones
        self.pz = state.player_zones
        self.ents = state.entities
        self.seats = list(range(state.players))
        self.steps = 0  # steps since the last decision (loops, elements, characters), against library.STEP_LIMIT
        self.calls = 0  # calls of functions and procedures since the last decision, against library.CALL_LIMIT
        # Bumped by every change a rule function could see (moves, assignments, abilities coming and going):
        # what the resolver's and the function results' caches are valid for.
        self.version = 0
        self.moves = 0  # moves alone
        self.memo: dict = {}  # function -> {args: (version, value)}, for pure modified functions
        self.move_watchers: list = []  # fn(component, from_zone, to_zone) after each move: for reports and tools
        # fn(components or zones) after a change that is not a move (a component's variable set, a shuffle, a
        # reveal): for incremental readers such as the bots' encoder; generated code tests the list before calling
        self.change_watchers: list = []
        self.decisions = 0  # decisions answered so far, for the trace
        # callable(to_player_or_None, message, state, viewer) or None: the runtime hands over the line as data
        # and whose view it is read through; the words are made above it (interpreter.present.words.telling)
        self.account = account
        self.reader = None  # whose view lines told to everyone are rendered through (None: a spectator's)
        self.trace = trace
        self.cfs = game.card_functions  # (with `cfs.seats`: those of one player, for every seat at once)
        self.procs = game.procs
        self.resolver = Resolver(self)
        self.ability_records = game.ability_records  # after Resolver(), which finds them
        # the resolver's active abilities per (kind, event) of abilities found by where their cards lie: a move of
        # such a card from or to a zone where they work clears that slot (which are active depends on nothing else)
        self.active_cache = self.resolver.active_cache
        self.modifying: set = set()  # functions whose modifiers are being applied now
        self.watched = [False] * len(game.watchers)  # each `whenever` condition at its last check
        self.watching = False
        self.counted: dict | None = None  # procedure name -> calls so far, for reports (game length in rounds)
        self.causes: list = []  # the components whose abilities are running, innermost last: what a line or question is caused by

    # ------------------------------------------------------------ procedures and events
    # A procedure is called as an event: replacements first, then its body, then triggers. `event` runs
    # every part that cannot ask as plain calls, and hands back a generator for the rest only when a part
    # may ask (a body, an ability or a tie between abilities that yields a decision): most events ask
    # nothing, and a generator per call would cost more than the event itself. Generated code calls
    # `(yield from rt.event(...))`: `()` when it is done (with no value), else a generator to delegate to.
    def invoke(self, name: str, args: list):
        """The event as a generator (a session's start, a scenario's step)."""
        return (yield from self.event(name, args))

    def play(self, setup, start):
        """A game: its setup procedure, then its start procedure (two generators of decisions, the second not yet begun)."""
        yield from setup
        return (yield from start)

    def event(self, name: str, args: list):
        proc = self.procs[name]
        res = self.resolver
        if name in res.replacing:  # res.has("replacement", name)
            for cand in res.collect("replacement", name, args):
                key = (id(cand.hook), cand.source)
                if key in res.running:
                    continue
                if cand.hook.yields:
                    return self._replace(name, args, cand)
                res.trace("replacement", name, [cand], args)
                res.running.add(key)
                self.causes.append(cand.source)
                try:
                    cand.hook.body(self, cand.b)
                finally:
                    res.running.discard(key)
                    self.causes.pop()
                res.expire(name)
                return ()
        if proc.body_yields:
            return self._proceed(name, args, proc)
        n = len(args)  # a call with its arguments spelled out is much cheaper than one with *args
        r = proc.body(self, args[0]) if n == 1 else (proc.body(self, args[0], args[1]) if n == 2 else proc.body(self, *args))
        if name in res.triggering:  # res.has("trigger", name)
            return self._finish(name, args, r)
        # no ability follows it: _finish's end, inline (most events)
        if name in res.temp_until:
            res.expire(name)
        if self.game.watchers:
            self.watch()
        return () if r is None else _returning(r)

    def _replace(self, name: str, args: list, cand):
        """A replacement that may ask, instead of the procedure."""
        res = self.resolver
        key = (id(cand.hook), cand.source)
        res.trace("replacement", name, [cand], args)
        res.running.add(key)
        self.causes.append(cand.source)
        try:
            yield from cand.hook.body(self, cand.b)
        finally:
            res.running.discard(key)
            self.causes.pop()
        res.expire(name)
        return None

    def _proceed(self, name: str, args: list, proc):
        """A body that may ask, then the triggers."""
        r = yield from proc.body(self, *args)
        return (yield from self._finish(name, args, r))

    def _finish(self, name: str, args: list, r):
        """The triggers after the body, as plain calls until one may ask (then a generator does the rest)."""
        res = self.resolver
        if name in res.triggering:  # res.has("trigger", name)
            done = None  # the abilities applied, made when a second look needs it
            fired = res.collect("trigger", name, args)
            while fired:
                cand = fired[0]
                if cand.hook.yields or (len(fired) > 1 and len(res.tied(fired)) > 1):  # one alone ties with none
                    return self._triggers(name, args, r, set() if done is None else done, fired)
                if self.trace is not None:
                    res.trace("trigger", name, fired, args)
                self.causes.append(cand.source)
                try:
                    cand.hook.body(self, cand.b)
                finally:
                    self.causes.pop()
                if len(fired) == 1 and res.alone("trigger", name, cand, args):
                    break  # nothing else could apply: looking again would find it alone, done
                if done is None:
                    done = set()
                done.add((id(cand.hook), cand.source))
                fired = [c for c in res.collect("trigger", name, args) if (id(c.hook), c.source) not in done]
        if name in res.temp_until:
            res.expire(name)
        if self.game.watchers:
            self.watch()  # the abilities that followed the procedure may have changed the game too
        return () if r is None else _returning(r)

    def _triggers(self, name: str, args: list, r, done: set, fired):
        """The triggers from one that may ask on: one ability at a time, looking again after each (`fired`
        is what the last look found): an ability whose card was cancelled or moved away no longer fires,
        and one that became active meanwhile takes its turn."""
        res = self.resolver
        while True:
            if fired is None:
                fired = [c for c in res.collect("trigger", name, args) if (id(c.hook), c.source) not in done]
            if not fired:
                break
            cand = fired[0]
            tied = res.tied(fired) if len(fired) > 1 else fired
            if len(tied) > 1:
                pick = yield Decision(cand.controller, Question(f"which ability resolves first ({name})", None, "abilities"),
                                      [c.source for c in tied], "order")
                cand = tied[pick]
            if self.trace is not None:
                res.trace("trigger", name, [cand] + [c for c in fired if c is not cand], args)
            done.add((id(cand.hook), cand.source))
            self.causes.append(cand.source)
            try:
                if cand.hook.yields:
                    yield from cand.hook.body(self, cand.b)
                else:
                    cand.hook.body(self, cand.b)
            finally:
                self.causes.pop()
            if len(fired) == 1 and res.alone("trigger", name, cand, args):
                break  # as in _finish
            fired = None
        res.expire(name)
        if self.game.watchers:
            self.watch()
        return r

    def watch(self) -> None:
        """Check the `whenever` conditions (as a procedure ends): run each body whose condition turned true."""
        if self.watching or not self.game.watchers:
            return
        self.watching = True
        try:
            for i, hook in enumerate(self.game.watchers):
                now = bool(hook.cond(self, {}))
                if now and not self.watched[i]:
                    hook.body(self, {})
                    # as the body left it: a body that set things right is ready to fire again at the next change
                    now = bool(hook.cond(self, {}))
                self.watched[i] = now
        finally:
            self.watching = False

    def invoke_plain(self, name: str, args: list):
        """An event where no decision may come (the compiler knows it cannot ask)."""
        gen = self.event(name, args)
        if type(gen) is tuple:
            return None
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value
        raise RuntimeError(f"'{name}' asked for a decision where none was expected")

    def add_temporary(self, until: str, hooks: list, captured: dict) -> None:
        self.version += 1
        self.resolver.add_temporary(until, hooks, captured)

    def modified(self, name: str, fn, args: tuple):
        return self.apply_modifiers(name, args, fn(self, *args))

    def memoized(self, name: str, fn, args: tuple):
        """A modified function that is pure (no randomness): its value is kept until the game changes, since
        its modifiers make it costly and rules ask it again and again (a ranking, then a log line)."""
        if name in self.modifying or self.trace is not None:
            return self.apply_modifiers(name, args, fn(self, *args))
        memo = self.memo.get(name)
        if memo is None:
            memo = self.memo[name] = {}
        try:
            hit = memo.get(args)
        except TypeError:  # a list among the arguments
            return self.apply_modifiers(name, args, fn(self, *args))
        if hit is not None and hit[0] == self.version:
            return hit[1]
        value = self.resolver.modified(name, args, fn(self, args[0]) if len(args) == 1 else fn(self, *args))
        memo[args] = (self.version, value)
        return value

    def apply_modifiers(self, name: str, args, value):
        # A modifier that reads the function it modifies sees the unmodified value, never itself again.
        if name in self.modifying:
            return value
        if self.trace is None:
            return self.resolver.modified(name, args, value)
        found = self.resolver.collect("modifier", name, args)  # a tuple: collect only reads it
        if not found:
            return value
        return self._modify(name, args, value, found)

    def _modify(self, name: str, args, value, found: list):
        """The modifiers `found` applied to the value, lowest priority first."""
        self.modifying.add(name)
        before = value
        results = [] if self.trace is not None else None  # what each modifier made of the value, for the trace
        try:
            for cand in reversed(found):  # the highest priority applies last, so it has the final word
                b = cand.b  # made for this application alone (Resolver.collect)
                b["value"] = value
                held = cand.hook.cond is None or cand.hook.cond(self, b)
                if held:
                    value = cand.hook.expr(self, b)
                if results is not None:
                    results.append(value if held else NOT_HELD)
            if results is not None:
                self.resolver.trace("modifier", name, found, list(args), (before, value, results[::-1]))
            return value
        finally:
            self.modifying.discard(name)

    def card_function(self, entity, name: str, args: tuple):
        try:
            func = self.game.card_funcs[entity.record_id][name]
        except AttributeError:
            raise RuntimeError(f"'{name}' is asked of {_what(entity)}, which is not a component") from None
        except KeyError:
            raise RuntimeError(f"{entity.id} does not define '{name}'") from None
        value = func.fn(self, entity, *args)
        if name in self.game.modified:
            value = self.apply_modifiers(name, args, value)
        return value

    def log(self, to, text: tuple) -> None:
        """A line of the game's account, told to its listener with the state as it is now and the
        player whose view it is read through (the one it is told to, or the reader)."""
        if self.account is not None:
            if self.causes and self.causes[-1] is not None:
                text = Told(text)
                text.cause = self.causes[-1]
            self.account(to, text, self.state, self.reader if to is None else to)

    # ------------------------------------------------------------ state changes
    def changed(self, *what) -> None:
        """Tell the change watchers that these components or zones changed (None: a variable of the game or of
        a player; callers test the list first)."""
        for watcher in self.change_watchers:
            watcher(what)

    def move(self, what, zone: Zone, at_top: bool, face: str | None) -> None:
        if type(zone) is not Zone:
            raise RuntimeError(f"cannot move anything to {_what(zone)}: it is not a zone")
        if type(what) is Entity:
            items = (what,)
        elif type(what) is Zone and what is not zone and face is None and not at_top \
                and type(what.owner) is not Entity and type(zone.owner) is not Entity:
            self._move_all(what, zone)  # a whole zone at once (a deck made from the box): the same end, in bulk
            return
        else:
            # a copy: moving changes zones' lists
            items = what[:] if type(what) is list else (what.items[:] if type(what) is Zone else list(library.items(what)))
            if at_top:
                items.reverse()  # the first listed ends on top
        nested = type(zone.owner) is Entity
        dest = zone.items
        down = face == "down"
        records = self.ability_records  # empty in a game without abilities found by where their cards lie
        watchers = self.move_watchers
        self.version += 1
        self.moves += 1
        for e in items:
            if type(e) is not Entity:
                raise RuntimeError(f"only components can be moved, not {_what(e)}")
            if nested and _inside(zone, e):
                raise RuntimeError(f"{e.id} cannot move into {library.zone_name(zone)}, which lies on it")
            if down:
                if not e.face_down:
                    e.seen_by = holder(e)
                e.face_down = True
            else:
                e.face_down = False
                e.seen_by = None
            old = e.zone
            if records:
                keys = records.get(e.record_id)
                if keys is not None:
                    old_name = old.name if old is not None else None
                    for slot, where in keys:
                        if old_name in where or zone.name in where:
                            self.active_cache[slot] = None
            if old is not None:
                old.items.remove(e)
                old.stamp += 1  # touch(old), the zone itself inline
                old.memo = None
                if type(old.owner) is Entity:
                    touch(old.owner.zone)
            if at_top:
                dest.insert(0, e)
            else:
                dest.append(e)
            e.zone = zone
            zone.stamp += 1
            zone.memo = None
            if nested:
                touch(zone.owner.zone)
            if watchers:
                for watcher in watchers:
                    watcher(e, old, zone)

    def abilities_moved(self) -> None:
        """Components moved without `move` (a `suppose` put back): no kept active abilities hold."""
        self.active_cache[:] = [None] * len(self.active_cache)  # in place: the resolver holds the same list

    def _move_all(self, src: Zone, zone: Zone) -> None:
        """`move` of everything in `src` (a zone of the game or of a player) to the bottom of `zone` (the same),
        face up: what the loop in `move` does one component at a time, done at once (the move watchers are told
        of each component after). The lists are changed in place, as the loop changes them, for code that
        holds them."""
        moved = src.items
        n = len(moved)
        told = list(moved) if self.move_watchers else ()
        self.version += 1
        self.moves += 1
        if not n:
            return
        records = self.ability_records
        cache = self.active_cache
        for e in moved:
            e.face_down = False
            e.seen_by = None
            e.zone = zone
            keys = records.get(e.record_id)
            if keys is not None:
                for slot, where in keys:
                    if src.name in where or zone.name in where:
                        cache[slot] = None
        zone.items += moved
        del moved[:]
        src.stamp += n  # as n single moves leave them
        zone.stamp += n
        src.memo = zone.memo = None
        for e in told:
            for watcher in self.move_watchers:
                watcher(e, src, zone)


def _returning(value):
    """An event's value, as `yield from` hands it over (a generator that asks nothing)."""
    return value
    yield  # noqa: unreachable - makes this a generator


def _inside(zone: Zone, entity: Entity) -> bool:
    """Does `zone` belong to `entity`, or to a component lying (through stacked zones) on it?"""
    owner = zone.owner
    seen = 0
    while isinstance(owner, Entity) and seen < 64:
        if owner is entity:
            return True
        owner = owner.zone.owner if owner.zone is not None else None
        seen += 1
    return False


class Session:
    """One game in progress. `pending` is the decision to answer; `answer` applies one answer.

    By default it starts the game's start procedure; `start=False` leaves it idle so that a
    caller (a scenario) can run steps of its own with `begin`, all on the same state. With `chance="seat"`
    the draws of the rules are decisions of the seat CHANCE, answered like any other (codegen.chance).
    """

    def __init__(self, game: CompiledGame, players: int, seed: int = 0, variants=(), account=None, trace: bool = False,
                 procedure: str | None = None, args: list | None = None, state: State | None = None,
                 keep_labels: bool = True, start: bool = True, lang: str | None = None, reader: int | None = None,
                 chance: str = "seed"):
        content = game.content
        languages = content.vocabulary.languages
        if lang is not None and lang not in languages:
            raise DiagnosticError([Diagnostic("USAGE", f"{content.id} is not written in '{lang}'",
                                              hint=f"its languages: {', '.join(languages)}")])
        lo, hi = content.manifest["players"]["min"], content.manifest["players"]["max"]
        if not lo <= players <= hi:
            raise DiagnosticError([Diagnostic("USAGE", f"{content.id} is for {lo} to {hi} players, not {players}")])
        for v in variants:
            if v not in content.vocabulary.variants:
                raise DiagnosticError([Diagnostic("USAGE", f"{content.id} has no variant '{v}'",
                                                  hint=did_you_mean(v, content.vocabulary.variants) or
                                                  f"variants: {', '.join(content.vocabulary.variants) or 'none'}")])
        self.game = game
        self.keep_labels = keep_labels
        self.state = state if state is not None else new_state(game, players, seed, variants)
        if lang is not None:
            self.state.lang = lang
        chance_of(self.state).seat = seat_mode(chance)
        self.rt = Runtime(game, self.state, account, [] if trace else None)
        self.rt.reader = reader
        self.history: list[int] = []
        self._labels: list[str] = []  # the answers' labels made so far (`labels`)
        # the answers after those: (value, players flag) of each, labelled when read, or a label made at once
        self._unlabelled: list = []
        self.pending: Decision | None = None
        self.result: Result | None = None
        self.error: Diagnostic | None = None
        self.ended_at = None  # where a `win` ended the game (a Span), for those who report it
        self._gen = None
        if start:
            self.call(procedure or content.manifest["start"], args)

    def begin(self, gen) -> None:
        """Run a generator of decisions (a procedure call) to its first decision or its end."""
        self._gen = gen
        self.result = None
        self._advance(None)

    def copy(self) -> "Session":
        """This game at the same point, to be played on independently: the state and the suspended
        procedures are copied (runtime.snapshot), in time proportional to the state, not to the history.
        The copy has no listener (`rt.account`) nor move watchers of its own."""
        return copy_session(self)

    def call(self, name: str, args: list | None = None) -> None:
        """Run a procedure. The manifest's `start` is a game: the engine runs its `setup` first, then `start`."""
        manifest = self.game.content.manifest
        if name == manifest["start"] and manifest.get("setup") and not args:
            self.begin(self.rt.play(self._invoke(manifest["setup"], []), self._invoke(name, [])))
        else:
            self.begin(self._invoke(name, args or []))

    def _invoke(self, name: str, args: list):
        """rt.invoke(name, args); for a procedure whose body may ask and that nothing replaces (a game's start),
        the event's own generator, which runs nothing before it is first advanced: every answer then goes
        through one generator less."""
        rt = self.rt
        proc = self.game.procs.get(name)
        res = rt.resolver
        if proc is not None and proc.body_yields and name not in res.replaced and not res.temp_index:
            return rt._proceed(name, args, proc)
        return rt.invoke(name, args)

    @property
    def finished(self) -> bool:
        return self.pending is None

    def answer(self, choice) -> None:
        """Apply one answer (index, label or unique label prefix). Illegal answers change nothing."""
        pending = self.pending
        if pending is None:
            raise IllegalDecision(Decision(-1, "nothing is being asked", []), choice)
        # an index in range (what bots answer) as index_of takes it, without the call
        index = choice if type(choice) is int and 0 <= choice < len(pending.values) else pending.index_of(choice)
        self.history.append(index)
        self.rt.decisions = len(self.history)
        if self.keep_labels:
            # the answer's label is made when `labels` is read (most games never read them), from the value itself
            # (a decision's list of values may change after the answer); a value whose label could change by then
            # (a map) is labelled now
            value = pending.values[index]
            if pending._labels is None and (type(value) in SETTLED or (type(value) is MenuChoice and settled_choice(value))):
                self._unlabelled.append((value, pending.players))
            else:
                self._unlabelled.append(pending.label(index))  # the label itself, in its place
        try:  # _advance(index), inline: most answers lead to the next decision
            pending = self.pending = self._gen.send(index)
        except BaseException as exc:
            self._stopped(exc)
            return
        if self.rt.causes:
            pending.cause = self.rt.causes[-1]

    @property
    def labels(self) -> list[str]:
        """The labels of the answers so far, in order (what a log records with each index)."""
        if self._unlabelled:
            self._labels += made(self._unlabelled)
            self._unlabelled = []
        return self._labels

    @labels.setter
    def labels(self, labels: list[str]) -> None:
        self._labels = labels
        self._unlabelled = []

    def _advance(self, answer) -> None:
        """Run on to the next decision or the end."""
        try:
            self.pending = self._gen.send(answer) if answer is not None else next(self._gen)
        except BaseException as exc:
            self._stopped(exc)
            return
        if self.rt.causes:
            self.pending.cause = self.rt.causes[-1]

    def _stopped(self, exc: BaseException) -> None:
        """The game's procedures stopped with `exc`: their end, a win, or a content failure (a diagnostic, never a
        traceback); anything else (an interrupt) goes on up."""
        if isinstance(exc, StopIteration):
            winners = None
        elif isinstance(exc, GameOver):
            winners = exc.winners
            self.state.winners = list(winners)
            self.ended_at = self.where(exc)  # the `win` that ended it, in the rule text
        elif isinstance(exc, DiagnosticError) or not isinstance(exc, Exception):
            raise exc
        else:
            self.pending = None
            code = "RUN-LIMIT" if isinstance(exc, RunLimit) else "RUN-ERROR"
            self.error = Diagnostic(code, _explain(exc), self.where(exc))
            raise DiagnosticError([self.error]) from None
        self.pending = None
        if winners is not None:
            self.state.finished = True
            self.state.winners = list(winners)
        score = self.game.content.manifest.get("score")
        scores = [pv.get(score) for pv in self.state.player_vars] if score else []
        self.result = Result(list(self.state.winners), scores, len(self.history))

    def where(self, exc: Exception):
        """The rule text's span of the innermost generated line the error passed through."""
        span = None
        tb = exc.__traceback__
        while tb is not None:
            found = self.game.span_at(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
            if found is not None:
                span = found
            tb = tb.tb_next
        return span
