"""One game as the bot adapters see it: a live engine, its world and the answers given in it.

A game in progress is its world (the seed; for a world sampled by a search, also the draw that deals
the components the searching player has not seen, and a fresh seed for the chance still to come), the
list of answers given so far, and the live engine (a Session) that observations, legal actions and
rewards read. A copy copies the engine (`Session.copy`, without replaying); only a line rebuilt from
its answers (unpickled, or a sampled world) replays them.

Chance lives inside the engine's seeded RNG (every draw goes through the runtime's chance step): given its
world, a line is deterministic. A line may have a `limit` of answers (the adapters' max_game_length): a game
still going then is over, truncated, a draw.

What a player knows of a line is its *record*: every log line told to everyone or to that player,
every answer it gave (its label rendered through the player's view), that another player decided,
and what it sees now (`interpreter.present.observed.observed`, the view with hidden components
named only by where they lie). Nothing else of the state reaches a player.
"""
from __future__ import annotations

import json
import random
import weakref

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen import CompiledGame
from interpreter.core.decisions import IllegalDecision, player_label
from interpreter.core.state import Entity
from interpreter.runtime.session import Session, new_state
from interpreter.runtime.snapshot import NotCopyable
from interpreter.present.observed import observed
from interpreter.present.views import back_of, can_see
from interpreter.present.words import Presenter, prompt
from interpreter.agents.dealer import Dealer, Draw, Sampling, _clock, _reseed  # noqa: F401 - Sampling: for users of this module
from interpreter.agents.record import HIDDEN, asked, named as _named, said, seen_by_each, shown_label, told, visible_ids, worded

# Lines pickled within this process, by token, while they live (see `Line.__getstate__`): a weak cache
# that saves a replay, never a source of truth (the unpickled line checks it is the same game at the same point).
_LIVE: "weakref.WeakValueDictionary[str, Line]" = weakref.WeakValueDictionary()


def _record(name: str) -> property:
    """A part of a line's record, built first if the line is lazy (`Line._words`)."""
    def get(line: "Line"):
        if line._lazy:
            line._words()
        elif not line._recorded:  # set up, and what setup told recorded, when first needed (a line not read yet)
            line.session  # noqa: B018
        return getattr(line, name)
    return property(get)


class Line:
    """A game's world plus its answers; `session` is the live engine, built (replayed) when needed."""

    def __init__(self, game: CompiledGame, players: int, seed: int = 0, variants: tuple = (),
                 draw: Draw | None = None, track: bool = False, lazy: bool = False, chance: str = "seed"):
        self.game = game
        self.players = players
        self.seed = seed
        self.chance = chance  # "seat": the rules' draws are decisions of the seat CHANCE, answered as the others
        self.variants = tuple(variants)
        self.draw = draw  # a sampled world: how it deals what its player has not seen
        self.reseed: tuple | None = None  # (answers given, new seed): the RNG from that point on
        self.answers: list[int] = []
        # The record (`steps`, `labels`, `events`, `seen`). A `lazy` line (bots reading tensors, which never read
        # it) keeps none of it as it plays: it is built when first read, by replaying the answers (`_words`);
        # the game is deterministic given its answers, so the record is the one an eager line keeps.
        self._lazy = lazy and draw is None
        self._steps: list[tuple] = []  # per answer: (player, secret, prompt, label as that player saw it)
        self._labels: list[str] = []  # per answer: the chosen option's label in full (for sampling only)
        self.taken: list[int] = [0] * players  # per player: decisions it has taken (the information-state tensor)
        self.decided = 0  # sum(taken), read at every step (`finished`)
        self.picked: list[str] = []  # labels the decider picked so far in the pending multi-pick (its own)
        self._events: list[tuple] = []  # in time order: ("told", to, text) and ("step", answer number)
        # per player: entity id -> the last point (answers given) at which it saw the component (real games only)
        self._seen: list | None = [{} for _ in range(players)] if track else None
        # a sampled world: (player, events then, parts): that player's record up to the point the world was
        # drawn at, as it was told in the game the world was drawn from
        self.told: tuple | None = None
        self._session: Session | None = None
        self._template: Line | None = None  # see `from_template`
        self._recorded = False  # do `events` already hold what setup and the answers told?
        self._cache: dict = {}
        self.limit: int | None = None  # the most decisions of the players: a game still going then is over, truncated (a draw)
        self._turn: tuple | None = None  # `turn()`, kept for the decision it was worked out for

    # ------------------------------------------------------------ the record, built when first read if lazy
    steps = _record("_steps")
    labels = _record("_labels")
    events = _record("_events")
    seen = _record("_seen")

    def _words(self) -> None:
        """A lazy line's record: its answers given again to an eager line of the same world (one replay, once);
        from then on the line keeps its record as it plays."""
        twin = Line(self.game, self.players, self.seed, self.variants, track=self._seen is not None, chance=self.chance)
        twin.session  # noqa: B018 - set up (what setup told is recorded), even with no answer to give again
        for answer in self.answers:
            twin.apply(answer)
        self._steps, self._labels, self._events, self._seen = twin._steps, twin._labels, twin._events, twin._seen
        self._lazy = False
        self._recorded = True  # (an engine set up later must not tell setup's lines again)
        if self._session is not None:
            self._session.rt.account = self._account()

    # ------------------------------------------------------------ the live engine
    @property
    def _prompts(self) -> dict:
        """The game's questions already put into words (`record.asked`), shared by every line of the game."""
        return self.game.derived.setdefault("prompts", {})

    @property
    def session(self) -> Session:
        if self._session is None:
            if self._template is not None:  # a copy of a template line, made when first needed
                self._session = self._template.session.copy()
                self._session.rt.account = None if self._lazy else self._account()
                self._template = None
            else:
                self._session = self._replay()
        return self._session

    def from_template(self) -> "Line":
        """A copy of this line that copies its engine only when first used. This line must never be
        played on (an adapter's game as set up, of which every new game is a copy)."""
        if self._session is None or self.answers:
            return self.copy()
        new = Line(self.game, self.players, self.seed, self.variants, self.draw, track=self._seen is not None, lazy=self._lazy,
                   chance=self.chance)
        new._events, new._recorded, new._template = list(self._events), True, self
        new._seen = None if self._seen is None else [dict(x) for x in self._seen]
        return new

    def _replay(self) -> Session:
        """The engine, set up and given the answers again (its labels go unread: the line keeps its own)."""
        state = new_state(self.game, self.players, self.seed, self.variants)
        if self.draw is not None:
            state.rng = Dealer(state.rng, self.draw)
        seat = {"chance": "seat"} if self.chance == "seat" else {}  # (an engine without a chance seat needs none)
        session = Session(self.game, self.players, self.seed, self.variants, state=state, start=False, keep_labels=False, **seat)
        record = not self._recorded and not self._lazy
        session.rt.account = self._account() if record else None
        session.call(self.game.content.manifest["start"])
        for i, answer in enumerate(self.answers):
            if self.reseed is not None and self.reseed[0] == i:
                _reseed(state, self.reseed[1])
            _clock(state, i + 1)
            session.answer(answer)
        if self.reseed is not None and self.reseed[0] == len(self.answers):
            _reseed(state, self.reseed[1])
        session.rt.account = None if self._lazy else self._account()
        self._recorded = True
        return session

    def _account(self):
        """The runtime's listener: each line told is recorded (`record.told`: put into words when read, or
        at once where its words could change) and, in a real game, the components it names are noted as
        seen by those who read them (a card revealed and put back is known). It holds the line's lists, not
        the line: a copy thrown away is then freed at once, not left to the garbage collector."""
        events, answers, seen, players = self._events, self.answers, self._seen, self.players
        names = self.game.derived.setdefault("told names", {})  # stand-ins of components (`record._detach`)

        if seen is None:
            def account(to, text, state, viewer) -> None:
                events.append(("told", to, told(text, state, viewer, names)))
            return account

        def tracked(to, text, state, viewer) -> None:
            events.append(("told", to, told(text, state, viewer, names)))
            now = len(answers)
            for e in _named(text):
                if can_see(e, viewer):
                    for p in (range(players) if to is None else (to,)):
                        seen[p][e.id] = now
        return tracked

    def copy(self) -> "Line":
        """The same game at the same point, with an engine of its own (`Session.copy`: no replay)."""
        new = Line.__new__(Line)
        new.game, new.players, new.seed, new.variants, new.chance = self.game, self.players, self.seed, self.variants, self.chance
        new.draw, new.reseed, new.told, new.limit = self.draw, self.reseed, self.told, self.limit
        new._lazy = self._lazy
        new.answers, new._steps, new._events = list(self.answers), list(self._steps), list(self._events)
        new._labels, new.taken, new.picked = list(self._labels), list(self.taken), list(self.picked)
        new.decided = self.decided
        new._seen = None if self._seen is None else [dict(s) for s in self._seen]
        new._recorded = True
        new._cache = dict(self._cache)
        new._turn = None
        new._template = self._template if self._session is None else None
        new._session = None
        if new._template is None:
            try:
                new._session = self.session.copy()  # this line builds its engine at most once, for all copies
            except NotCopyable:  # a procedure in a shape the copier does not know: the copy replays instead
                new._session = None
        if new._session is not None and not new._lazy:
            new._session.rt.account = new._account()
        return new

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):
        """Pickled (OpenSpiel's serialization): the game's folder, the world and the answers; no engine.

        pyspiel hands a Python state to its observers by pickling it within the process; so that such a
        copy need not replay, the line is also remembered (weakly) under a token: unpickled in the same
        process while this line lives at the same point, the copy copies its engine instead."""
        data = {k: getattr(self, k) for k in ("players", "seed", "variants", "chance", "draw", "reseed", "answers", "limit",
                                                "steps", "labels", "events", "seen", "told", "picked", "taken")}
        data["game"] = str(self.game.content.root)
        data["events"] = worded(self.events, lambda: self.session.state)  # words, not the state they were told in
        token = f"{id(self)}:{len(self.answers)}"
        _LIVE[token] = self
        data["live"] = token
        return data

    def __setstate__(self, data):
        from interpreter.runtime.games import load_compiled
        live = _LIVE.get(data.pop("live", None) or "")
        for k in ("steps", "labels", "events", "seen"):  # the record, kept behind properties
            data["_" + k] = data.pop(k)
        self.__dict__.update(data)
        self.decided = sum(self.taken)
        self._lazy = False
        self.game = load_compiled(data["game"])
        self._session = None
        self._template = None
        self._recorded = True
        self._cache = {}
        self._turn = None
        if live is not None and live.answers == self.answers and live.seed == self.seed \
                and live.draw == self.draw and live.reseed == self.reseed and live.game is self.game:
            self._session = live.session.copy()  # the live line replays at most once, for all its copies
            self._session.rt.account = self._account()

    # ------------------------------------------------------------ playing
    @property
    def decision(self):
        return (self._session or self.session).pending

    @property
    def finished(self) -> bool:
        return (self._session or self.session).pending is None or (self.limit is not None and self.decided >= self.limit)

    @property
    def truncated(self) -> bool:
        """Over at `limit` decisions of the players with the game still going."""
        return self.limit is not None and self.decided >= self.limit and (self._session or self.session).pending is not None

    def turn(self) -> tuple:
        """(the pending decision, who answers it: a seat, -1 for a draw asked of the chance seat, None once the game
        is over or truncated), worked out once per decision: the adapters ask it several times a step."""
        d = (self._session or self.session).pending
        found = self._turn
        if found is not None and found[0] is d and found[2] == self.decided:
            return found
        if d is None or (self.limit is not None and self.decided >= self.limit):
            who = None
        elif d.kind == "chance":
            who = -1
        else:
            who = d.player if d.player is not None else 0
        self._turn = found = (d, who, self.decided)
        return found

    def to_act(self) -> int:
        """The seat that answers the pending decision (a decision naming nobody falls to the first seat; a draw
        asked of the chance seat, `CHANCE`)."""
        d = (self._session or self.session).pending
        return d.player if d is not None and d.player is not None else 0

    @property
    def chance_node(self) -> bool:
        """Is the pending decision a draw asked of the chance seat?"""
        d = (self._session or self.session).pending
        return d is not None and d.kind == "chance"

    def apply(self, index: int) -> None:
        session = self._session or self.session
        d = session.pending
        if d is None:
            raise IllegalDecision(_nothing(), index)
        index = int(index)
        if not 0 <= index < len(d.values):  # (in range, as a rule: the index it is, without the call)
            index = d.index_of(index)  # says why not
        who = 0 if d.player is None else d.player
        answers = self.answers
        if not self._lazy:  # the record: what the decider saw of its answer, and what everyone sees now
            state = session.state
            if self._seen is not None:
                now = len(answers)
                for seen, ids in zip(self._seen, seen_by_each(state, range(self.players))):
                    seen.update(dict.fromkeys(ids, now))
            label = d.label(index)
            if d.kind == "chance":  # a draw: told to nobody (what it shows, the rules tell)
                self._steps.append((who, False, "chance", label))
            else:
                value = d.values[index]
                shown = (label if can_see(value, who) else HIDDEN) if type(value) is Entity else shown_label(state, label, who)
                self._steps.append((who, d.secret, asked(d, self._prompts), shown))
                self._events.append(("step", len(answers)))
            self._labels.append(label)
            if type(state.rng) is not random.Random:
                _clock(state, len(answers) + 1)
        if d.kind != "chance":
            self.taken[who] += 1
            self.decided += 1
        answers.append(index)
        if self._cache:
            self._cache.clear()
        session.answer(index)
        if d.kind == "pick":
            following = session.pending
            label = d.label(index)
            if label != "done" and following is not None and following.kind == "pick" \
                    and following.player == d.player and following.question.source == d.question.source:
                self.picked = self.picked + [label]  # the same multi-pick goes on
                return
        if self.picked:
            self.picked = []

    def returns(self) -> list[float]:
        """At the end: the winners share 1, the others get 0; with no winner (or truncated) everyone gets an equal share."""
        if self.truncated:
            return [1.0 / self.players] * self.players
        result = self.session.result
        if self.session.pending is not None or result is None:
            return [0.0] * self.players
        winners = sorted({w for w in result.winners if isinstance(w, int) and 0 <= w < self.players})
        if not winners:
            return [1.0 / self.players] * self.players
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    # ------------------------------------------------------------ what a player knows
    def observation(self, player: int) -> str:
        """What `player` sees now: its view, and its pending decision's options if it is to answer."""
        key = ("obs", player)
        if key not in self._cache:
            session = self.session
            seen = json.dumps(observed(session.state, player), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            self._cache[key] = f"you are {player_label(player)}\n{seen}\n{self.now(player)}"
        return self._cache[key]

    def now(self, player: int) -> str:
        """The pending decision as `player` knows it: its question and options if it answers, else who does."""
        session = self.session
        d = session.pending
        if d is None:
            winners = [player_label(w) for w in session.result.winners] if session.result else []
            return "the game is over; winners: " + (", ".join(winners) or "nobody")
        if self.to_act() == player:
            labels = [shown_label(session.state, label, player) for label in d.labels]
            so_far = [shown_label(session.state, label, player) for label in self.picked]
            return f"you decide: {prompt(d)}" + (" (secretly)" if d.secret else "") + (
                f"\npicked so far: {', '.join(so_far)}" if so_far else "") + "\n" + "\n".join(
                f"[{i}] {label}" for i, label in enumerate(labels))
        return f"{player_label(self.to_act())} decides" + (" secretly" if d.secret else "")

    def record(self, player: int, start: tuple | None = None, until: int | None = None) -> list[str]:
        """Everything `player` was told and did, in order (without what it sees now).

        Decisions another player makes one after another with nothing told in between read as one
        "P2 decided": how many questions it was asked hangs on what it holds (a question with a single
        option is not asked), which is not for `player` to know. `start`: (n, the record of the first n
        events), known already (a copy's record goes on from its world's); `until`: the first events only."""
        parts, events = [], self.events
        if start is not None:
            parts, events = list(start[1]), events[start[0]:until]
        elif self.told is not None and self.told[0] == player:
            parts, events = list(self.told[2]), events[self.told[1]:until]
        elif until is not None:
            events = events[:until]
        for event in events:
            part = self.part(event, player)
            if part is not None and not (parts and part == parts[-1] and self._theirs(event, player)):
                parts.append(part)
        return parts

    def _theirs(self, event: tuple, player: int) -> bool:
        """Is `event` another player's decision (a part that repeats as one)?"""
        return event[0] == "step" and self.steps[event[1]][0] != player

    def part(self, event: tuple, player: int) -> str | None:
        """One event as `player` knows it, or None if it was not told to that player."""
        if event[0] == "told":
            return said(event[2], self.session.state) if event[1] is None or event[1] == player else None
        who, secret, prompt, label = self.steps[event[1]]
        if who == player:
            return f"you, to '{prompt}': {label}"
        return f"{player_label(who)} decided" + (" secretly" if secret else "")

    def information(self, player: int) -> str:
        key = ("info", player)
        if key not in self._cache:
            self._cache[key] = "\n".join(self.record(player)) + "\n--- now ---\n" + self.observation(player)
        return self._cache[key]


# ---------------------------------------------------------------- sampling a world
def sample(line: Line, player: int, rng: random.Random, attempts: int = 24) -> Line:
    """A line `player` cannot tell from this one: same record, same view, same options.

    The world is the game's own with the components `player` has not seen dealt anew wherever the rules
    shuffled or drew them (`Dealer`); the answers are given again (another player's answer follows the
    component it named), the answers other players gave secretly in the wave `player` is answering now
    are drawn afresh, and the RNG is reseeded for what is still to come. A world in which anything
    `player` was told or sees would read otherwise is rejected and another is dealt: what is left is a
    world drawn from what `player` knows, with nothing of the true one kept.

    If none of `attempts` worlds fits (what `player` was told allows few deals), a world is dealt the
    same way and kept if `player` sees and may answer now exactly what it does here, though some of
    what it was told would have read otherwise; such worlds are counted as imperfect (`Sampling`), and
    the player's record in them is kept as it was told.
    """
    target = line.information(player)
    state = line.session.state
    now = len(line.answers)
    known = dict(line.seen[player]) if line.seen is not None else {}
    visible = visible_ids(state, player)
    known.update(dict.fromkeys(visible, now))
    shows = Presenter(state, player).backs  # what a face-down component's back shows (the game's `table: backs:`)
    backs = {e.id: back for e in state.entities.values() if e.id not in visible
             for back in [back_of(e, player, shows)] if back is not None}
    secret = _open_secret_answers(line, player)
    for strict in (True, False):
        for _ in range(attempts):
            Sampling.attempts += 1
            draw = Draw(known, backs, rng.getrandbits(62))
            found = _replay_as(line, player, draw, secret, rng, target, strict)
            if found is not None:
                if strict:
                    Sampling.dealt += 1
                else:  # (kept where what `player` sees and may answer now is the same)
                    Sampling.imperfect += 1
                return found
    raise NoWorld([Diagnostic(
        "RUN-ERROR", f"no world that {player_label(player)} sees as it is could be dealt in {2 * attempts} attempts",
        hint="the search needs worlds drawn from what its player knows; sample with more attempts")])


class NoWorld(DiagnosticError):
    """No world could be drawn from what the player knows (the true one is never used instead)."""


def _open_secret_answers(line: Line, player: int) -> set:
    """Answers by other players in the secret wave `player` is answering now (not revealed yet)."""
    d = line.session.pending
    if d is None or not d.secret or line.to_act() != player:
        return set()
    out = set()
    for t in range(len(line.steps) - 1, -1, -1):
        who, secret, _, _ = line.steps[t]
        if not secret:
            break
        if who != player:
            out.add(t)
    return out


def _replay_as(line: Line, player: int, draw: Draw, secret: set, rng: random.Random, target: str, strict: bool):
    """`line` replayed in the world `draw` deals, or None if `player` could tell it apart.

    `player`'s own answers are given again. Another player answers with the option naming the
    components standing where those of its true answer stood; where the world asks it something its
    true answers do not fit (a question it was not asked in the true game, having then had a single
    option), it answers at random: `player` knows only what it was told, so the true answer is no
    evidence. Strict: everything `player` was told must read the same, part by part; otherwise (an
    imperfect world) only what `player` sees and may answer now."""
    new = Line(line.game, line.players, line.seed, line.variants, draw=draw, chance=line.chance)
    wanted = line.record(player)
    told, told_by = 0, 0  # parts of the record checked so far (the events of `new` up to `told_by`)

    def reads_the_same() -> bool:
        nonlocal told, told_by
        for event in new.events[told_by:]:
            part = new.part(event, player)
            if part is None or (told and part == wanted[told - 1] and new._theirs(event, player)):
                continue
            if told >= len(wanted) or wanted[told] != part:
                return False
            told += 1
        told_by = len(new.events)
        return True

    answers, steps, n = line.answers, line.steps, len(line.answers)
    last = line.to_act() if not line.finished else None
    t = 0  # the next true answer to follow
    spare = n + 16  # answers at random to questions the true game did not ask: a bound, so a world cannot loop
    try:
        session = new.session
        dealer = session.state.rng
        if strict and not reads_the_same():  # what setup told
            return None
        while True:
            d = session.pending
            if d is None:
                if t < n or last is not None:
                    return None
                break
            who = new.to_act()
            if t == n and who == last:
                break
            if d.kind == "chance":  # a draw asked of the chance seat: the true one, what `player` has not seen dealt anew
                index = _dealt(d, line.labels[t], dealer, len(new.answers)) if t < n and d.kind == "chance" \
                    and steps[t][2] == "chance" else None
                if index is not None:
                    t += 1
                else:
                    spare -= 1
                    if spare < 0:
                        return None
                    index = rng.randrange(len(d.values))
            elif who == player:
                while t < n and steps[t][0] != player:  # questions to others that this world did not ask
                    t += 1
                if t == n:
                    return None
                index, t = answers[t], t + 1
            else:
                index = None
                if t < n and steps[t][0] == who and t in secret:  # the open secret wave: drawn afresh
                    index, t = rng.randrange(len(d.values)), t + 1
                j = t
                while index is None and j < n and steps[j][0] == who:
                    index = _mapped(d, answers[j], line.labels[j], dealer.stand)
                    j += 1
                if index is not None:
                    t = max(t, j)
                else:
                    spare -= 1
                    if spare < 0:
                        return None
                    index = rng.randrange(len(d.values))
            new.apply(index)
            if strict and not reads_the_same():
                return None
    except (DiagnosticError, IllegalDecision):
        return None
    if strict and told != len(wanted):
        return None
    new.reseed = (len(new.answers), rng.getrandbits(62))
    _reseed(new.session.state, new.reseed[1])
    new.told = (player, len(new.events), tuple(wanted))
    new._cache.clear()
    if new.information(player) != target:
        return None
    return new


def _dealt(d, label: str, dealer, now: int):
    """A draw asked of the chance seat in a sampled world (`Line.chance == "seat"`): the option the true game drew,
    but for a component its player has not seen since (`known`), one of the options it has not seen either (with
    the same back), at random: as `Dealer._deal` deals a shuffle or a pick the seed draws, one place at a time."""
    values = d.values
    if not any(type(v) is Entity for v in values):  # a value (a player, a number, a die): as it was drawn
        return d.labels.index(label) if label in d.labels else None
    known, backs, stood = dealer.draw.known, dealer.draw.backs, dealer.stood
    if known.get(label, -1) >= now:  # seen since: the same component, where it truly went
        return next((i for i, v in enumerate(values) if type(v) is Entity and v.id == label), None)
    back = backs.get(label)
    free = [i for i, v in enumerate(values) if type(v) is Entity
            and known.get(stood.get(v.id, v.id), -1) < now and backs.get(stood.get(v.id, v.id)) == back]
    if not free:
        return None
    i = free[dealer.deals.randrange(len(free))]
    here = values[i].id
    dealer.stand[label], dealer.stood[here] = here, label
    return i


def _mapped(d, answer: int, label: str, stand: dict):
    """Another player's answer in a dealt world: the option naming the components standing where its answer's did."""
    moved = " ".join(stand.get(token, token) for token in label.split(" "))
    if answer < len(d.values) and d.label(answer) == moved:
        return answer
    try:
        return d.labels.index(moved)
    except ValueError:
        return None


def _nothing():
    from interpreter.core.decisions import Decision
    return Decision(-1, "nothing is being asked", [])
