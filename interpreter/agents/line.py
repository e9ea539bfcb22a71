"""One game as the bot adapters see it: a world and the answers given in it, replayed on demand.

The engine's procedures are generators, which Python cannot copy. A game in progress is therefore
its world (the seed; for a world sampled by a search, also an arrangement of the components the
searching player has not seen and a fresh seed for the chance still to come) and the list of answers
given so far. A copy takes over the live engine of the line it copies; whichever of the two is used
again without one replays its answers from the world.

Chance lives inside the engine's seeded RNG: given its world, a line is deterministic.

What a player knows of a line is its *record*: every log line told to everyone or to that player,
every answer it gave (its label rendered through the player's view), that another player decided,
and what it sees now (`interpreter.present.views.view`). Nothing else of the state reaches a player.
"""
from __future__ import annotations

import json
import random

from dsl.diagnostics import DiagnosticError
from interpreter.codegen import CompiledGame
from interpreter.core.decisions import IllegalDecision, player_label
from interpreter.runtime.session import Session, new_state
from interpreter.present.views import can_see, view
from interpreter.present.words import prompt, telling

HIDDEN = "(hidden)"


class Line:
    """A game's world plus its answers; `session` is the live engine, built (replayed) when needed."""

    def __init__(self, game: CompiledGame, players: int, seed: int = 0, variants: tuple = (),
                 arrangement: dict | None = None, track: bool = False):
        self.game = game
        self.players = players
        self.seed = seed
        self.variants = tuple(variants)
        self.arrangement = arrangement  # zone key -> component ids at the start, for a sampled world
        self.reseed: tuple | None = None  # (answers given, new seed): the RNG from that point on
        self.answers: list[int] = []
        self.steps: list[tuple] = []  # per answer: (player, secret, prompt, label as that player saw it)
        self.labels: list[str] = []  # per answer: the chosen option's label in full (for sampling only)
        self.events: list[tuple] = []  # in time order: ("told", to, text) and ("step", answer number)
        # entity ids each player has seen when deciding (kept for the line of a real game only)
        self.seen: list | None = [set() for _ in range(players)] if track else None
        # where each component went when it first moved: (zone key, face down) (real games only)
        self.first: dict | None = {} if track else None
        self._session: Session | None = None
        self._recorded = False  # do `events` already hold what setup and the answers told?
        self._cache: dict = {}

    # ------------------------------------------------------------ the live engine
    @property
    def session(self) -> Session:
        if self._session is None:
            self._session = self._replay()
        return self._session

    def _replay(self) -> Session:
        state = new_state(self.game, self.players, self.seed, self.variants)
        if self.arrangement:
            arrange(state, self.arrangement)
        session = Session(self.game, self.players, self.seed, self.variants, state=state, start=False)
        record = not self._recorded
        session.rt.account = telling(self._hear) if record else None
        if record and self.first is not None:
            _watch_moves(session.rt, self.first)
        session.call(self.game.content.manifest["start"])
        for i, answer in enumerate(self.answers):
            if self.reseed is not None and self.reseed[0] == i:
                state.rng.seed(self.reseed[1])
            session.answer(answer)
        if self.reseed is not None and self.reseed[0] == len(self.answers):
            state.rng.seed(self.reseed[1])
        session.rt.account = telling(self._hear)
        self._recorded = True
        if self.first is not None:
            _watch_moves(session.rt, self.first)
        return session

    def _hear(self, to, text: str) -> None:
        self.events.append(("told", to, text))

    def copy(self) -> "Line":
        """The same game at the same point. The copy takes the live engine; this line replays if used again."""
        new = Line.__new__(Line)
        new.game, new.players, new.seed, new.variants = self.game, self.players, self.seed, self.variants
        new.arrangement, new.reseed = self.arrangement, self.reseed
        new.answers, new.steps, new.events = list(self.answers), list(self.steps), list(self.events)
        new.labels = list(self.labels)
        new.seen = None if self.seen is None else [set(s) for s in self.seen]
        new.first = None if self.first is None else dict(self.first)
        new._recorded = True
        new._cache = dict(self._cache)
        new._session, self._session = self._session, None
        if new._session is not None:
            new._session.rt.account = telling(new._hear)
            if new.first is not None:
                _watch_moves(new._session.rt, new.first)
        return new

    def __deepcopy__(self, memo):
        return self.copy()

    def __getstate__(self):
        """Pickled (OpenSpiel's serialization): the game's folder, the world and the answers; no engine."""
        data = {k: getattr(self, k) for k in ("players", "seed", "variants", "arrangement", "reseed", "answers",
                                                "steps", "labels", "events", "seen", "first")}
        data["game"] = str(self.game.content.root)
        return data

    def __setstate__(self, data):
        from interpreter.runtime.games import load_compiled
        self.__dict__.update(data)
        self.game = load_compiled(data["game"])
        self._session = None
        self._recorded = True
        self._cache = {}

    # ------------------------------------------------------------ playing
    @property
    def decision(self):
        return self.session.pending

    @property
    def finished(self) -> bool:
        return self.session.pending is None

    def to_act(self) -> int:
        """The seat that answers the pending decision (a decision naming nobody falls to the first seat)."""
        d = self.session.pending
        return d.player if d is not None and d.player is not None else 0

    def apply(self, index: int) -> None:
        session = self.session
        d = session.pending
        if d is None:
            raise IllegalDecision(_nothing(), index)
        index = d.index_of(int(index))
        who = self.to_act()
        if self.seen is not None:
            self.seen[who] |= visible_ids(session.state, who)
        label = d.label(index)
        self.steps.append((who, d.secret, prompt(d), shown_label(session.state, label, who)))
        self.labels.append(label)
        self.events.append(("step", len(self.answers)))
        self.answers.append(index)
        self._cache.clear()
        session.answer(index)

    def returns(self) -> list[float]:
        """At the end: the winners share 1, the others get 0; with no winner everyone gets an equal share."""
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
            seen = json.dumps(view(session.state, player), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            d = session.pending
            if d is None:
                winners = [player_label(w) for w in self.session.result.winners] if self.session.result else []
                now = "the game is over; winners: " + (", ".join(winners) or "nobody")
            elif self.to_act() == player:
                labels = [shown_label(session.state, label, player) for label in d.labels]
                now = f"you decide: {prompt(d)}" + (" (secretly)" if d.secret else "") + "\n" + "\n".join(
                    f"[{i}] {label}" for i, label in enumerate(labels))
            else:
                now = f"{player_label(self.to_act())} decides" + (" secretly" if d.secret else "")
            self._cache[key] = f"you are {player_label(player)}\n{seen}\n{now}"
        return self._cache[key]

    def record(self, player: int) -> list[str]:
        """Everything `player` was told and did, in order (without what it sees now)."""
        return [part for part in (self.part(event, player) for event in self.events) if part is not None]

    def part(self, event: tuple, player: int) -> str | None:
        """One event as `player` knows it, or None if it was not told to that player."""
        if event[0] == "told":
            return event[2] if event[1] is None or event[1] == player else None
        who, secret, prompt, label = self.steps[event[1]]
        if who == player:
            return f"you, to '{prompt}': {label}"
        return f"{player_label(who)} decided" + (" secretly" if secret else "")

    def information(self, player: int) -> str:
        key = ("info", player)
        if key not in self._cache:
            self._cache[key] = "\n".join(self.record(player)) + "\n--- now ---\n" + self.observation(player)
        return self._cache[key]


def _watch_moves(rt, first: dict) -> None:
    """Note where each component goes when it first moves."""
    def moved(e, old, zone) -> None:
        if e.id not in first:
            first[e.id] = (zone.key, e.face_down)

    rt.move_watchers.append(moved)


# ---------------------------------------------------------------- rendering through a view
def visible_ids(state, player: int) -> set:
    return {e.id for e in state.entities.values() if can_see(e, player)}


def shown_label(state, label: str, player: int) -> str:
    """A label as `player` may read it: the ids of components it cannot see read '(hidden)'."""
    entities = state.entities
    if not any(token in entities for token in label.split(" ")):
        return label
    return " ".join(HIDDEN if token in entities and not can_see(entities[token], player) else token
                    for token in label.split(" "))


# ---------------------------------------------------------------- sampling a world
def arrange(state, arrangement: dict) -> None:
    for key, ids in arrangement.items():
        zone = state.zone_by_key(key)
        zone.items = [state.entities[i] for i in ids]


def starting_order(line: Line) -> dict:
    state = new_state(line.game, line.players, line.seed, line.variants)
    if line.arrangement:
        arrange(state, line.arrangement)
    return {zone.key: [e.id for e in zone.items] for zone in state.all_zones() if zone.items}


class Sampling:
    """Counts of how sampled worlds were found, for reports and tests."""
    shuffled = 0  # every unseen component shuffled with every other that began in the same place
    by_class = 0  # shuffled within the classes the components were first sorted into
    swapped = 0  # a few pairs of unseen components of one class swapped (late in a game)
    true_world = 0  # no rearrangement fitted: the components as they are (only the future reseeded)

    @classmethod
    def counts(cls) -> dict:
        return {"shuffled": cls.shuffled, "by_class": cls.by_class, "swapped": cls.swapped, "true_world": cls.true_world}

    @classmethod
    def reset(cls) -> None:
        cls.shuffled = cls.by_class = cls.swapped = cls.true_world = 0


def sample(line: Line, player: int, rng: random.Random, attempts: int = 6) -> Line:
    """A line `player` cannot tell from this one: same record, same view, same options.

    The components `player` has not seen are shuffled among the places where they began, the answers
    are given again (another player's answer follows its component by label), the answers other
    players gave secretly in the wave `player` is answering now are drawn afresh, and the RNG is
    reseeded for what is still to come. A candidate whose record differs in anything `player` could
    notice is rejected. First every unseen component may take the place of any other that began in
    the same zone; then only of one the rules first sent to the same hidden zone (a deck built from
    some of a box's cards), a private deal to another player counting as not sorted; then (late in a
    game, where a whole shuffle rarely fits) only a few pairs swap; if nothing fits, the components
    stay where they are and only the future and the open secret answers are new (`Sampling` counts).
    """
    target = line.information(player)
    seen = visible_ids(line.session.state, player)
    if line.seen is not None:
        seen |= line.seen[player]
    secret = _open_secret_answers(line, player)
    base = starting_order(line)
    classes = _classes(line, player, base)
    plan = [(tier, attempt) for tier in ("shuffled", "by_class", "swapped") for attempt in range(attempts)]
    # a search samples the same point many times: start where the last sample of this point was found
    hint = line._cache.get(("sample from", player), 0)
    for k in range(hint, len(plan)):
        tier, attempt = plan[k]
        if tier == "shuffled":
            arrangement, mapping = _shuffle_unseen(base, seen, rng)
        else:
            swaps = None if tier == "by_class" else max(1, 8 >> attempt)
            arrangement, mapping = _shuffle_unseen(base, seen, rng, classes, swaps)
        found = _replay_as(line, player, arrangement, mapping, secret, rng, target)
        if found is not None:
            setattr(Sampling, tier, getattr(Sampling, tier) + 1)
            line._cache[("sample from", player)] = k
            return found
    line._cache[("sample from", player)] = len(plan) - 1  # next time, still one try with a single swap
    Sampling.true_world += 1
    for secret_now in (secret, set()):
        found = _replay_as(line, player, line.arrangement, {}, secret_now, rng, target)
        if found is not None:
            return found
    raise RuntimeError("a line cannot be replayed as itself")  # the engine is deterministic: never


def _classes(line: Line, player: int, base: dict) -> dict:
    """Each component's class: where it began and the hidden zone the rules first sent it to."""
    state = line.session.state
    first = line.first or {}
    out = {}
    for key, ids in base.items():
        for eid in ids:
            went = first.get(eid)
            if went is None or went[1]:
                out[eid] = (key, None)
                continue
            zone = state.zone_by_key(went[0])
            private = zone.visibility == "owner" and zone.owner != player
            out[eid] = (key, None if private else zone.name if zone.visibility == "owner" else went[0])
    return out


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


def _shuffle_unseen(base: dict, seen: set, rng: random.Random, classes: dict | None = None, swaps: int | None = None):
    """A starting arrangement with unseen components moved among their group's places, and where each went."""
    groups: dict = {}
    for key, ids in base.items():
        for i, eid in enumerate(ids):
            if eid not in seen:
                groups.setdefault((key, classes[eid] if classes else None), []).append(i)
    groups = [(key, places) for (key, _), places in groups.items() if len(places) > 1]
    new = {}
    if swaps is None:
        for key, places in groups:
            order = new.setdefault(key, list(base[key]))
            moved = [order[i] for i in places]
            rng.shuffle(moved)
            for i, eid in zip(places, moved):
                order[i] = eid
    elif groups:
        for _ in range(swaps):
            key, places = groups[rng.randrange(len(groups))]
            order = new.setdefault(key, list(base[key]))
            i, j = rng.sample(places, 2)
            order[i], order[j] = order[j], order[i]
    mapping = {}
    for key, order in new.items():
        for old, eid in zip(base[key], order):
            if old != eid:
                mapping[old] = eid
    return {key: order for key, order in new.items() if order != base[key]}, mapping


def _replay_as(line: Line, player: int, arrangement, mapping: dict, secret: set, rng: random.Random, target: str):
    new = Line(line.game, line.players, line.seed, line.variants, arrangement=arrangement)
    wanted = line.record(player)
    told = 0  # parts of the record checked so far
    checked = 0  # events looked at so far
    try:
        session = new.session
        for t, (answer, (who, _, _, _)) in enumerate(zip(line.answers, line.steps)):
            d = session.pending
            if d is None or new.to_act() != who:
                return None
            if t in secret:
                index = rng.randrange(len(d.values))
            elif who == player or not mapping:
                index = answer
            else:
                index = _mapped(d, answer, line.labels[t], mapping)
                if index is None:
                    return None
            new.apply(index)
            for event in new.events[checked:]:
                part = new.part(event, player)
                if part is not None:
                    if told >= len(wanted) or wanted[told] != part:
                        return None
                    told += 1
            checked = len(new.events)
    except (DiagnosticError, IllegalDecision):
        return None
    new.reseed = (len(new.answers), rng.getrandbits(62))
    new.session.state.rng.seed(new.reseed[1])
    new._cache.clear()
    if new.information(player) != target:
        return None
    return new


def _mapped(d, answer: int, label: str, mapping: dict):
    """Another player's answer in a rearranged world: the option naming the components its answer named."""
    moved = " ".join(mapping.get(token, token) for token in label.split(" "))
    if answer < len(d.values) and d.label(answer) == moved:
        return answer
    try:
        return d.labels.index(moved)
    except ValueError:
        return None


def _nothing():
    from interpreter.core.decisions import Decision
    return Decision(-1, "nothing is being asked", [])
