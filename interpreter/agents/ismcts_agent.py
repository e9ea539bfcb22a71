"""OpenSpiel's information-set MCTS as an agent of `rules play` (the search is OpenSpiel's own).

The agent follows the game it is attached to through its own copy of the game (a `Line`, fed the
same answers); to decide, it hands OpenSpiel's `ISMCTSBot` that game as an OpenSpiel state. The bot
sees the player's information-state string and samples worlds through `line.sample`: never the
full state.
"""
from __future__ import annotations

import gc
import random

import numpy as np

from dsl.diagnostics import Diagnostic, DiagnosticError

# the search collects the youngest generation after this many simulations (about 1 MB of garbage each in a large game)
_COLLECT_EVERY = 16


def _require_openspiel():
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import ismcts, mcts  # noqa: F401
    except ImportError:
        raise DiagnosticError([Diagnostic("USAGE", "the ismcts agent needs OpenSpiel, which is not installed",
                                          hint='install it with: python3 -m pip install -e ".[openspiel]"')]) from None


class ISMCTSAgent:
    def __init__(self, seat: int, seed: int, simulations: int = 100, uct_c: float = 1.0, rollouts: int = 1,
                 worlds: int = 1, horizon: int = 30):
        _require_openspiel()
        self.seat = seat
        self.seed = seed
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        # Drawing a world replays the game in it; a decision draws at most `worlds` of them and the
        # simulations past that search copies of those (Session.copy), in turn.
        self.worlds = worlds
        # A rollout is cut after `horizon` decisions and scored by the game's own score (`_scored`).
        self.horizon = horizon
        # (the decision they were drawn at, the worlds, what their copies' players were shown: see `_Memo`)
        self.drawn: tuple = (None, [], {})
        self.turn = 0
        self.handed = 0  # worlds handed to the search (see `decide`: a collection every _COLLECT_EVERY)
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(seed % 2 ** 32)
        self.session = None
        self.line = None
        self.bot = None

    def attach(self, session) -> None:
        """Follow this game (the agent reads the answers given in it, never its state)."""
        from open_spiel.python.algorithms import ismcts, mcts

        from interpreter.agents.line import Line
        from interpreter.agents.openspiel_game import load_game
        state = session.state
        self.session = session
        # the search's actions are the options of each decision (one step per decision, however many words)
        self.game = load_game(str(session.game.content.root), players=state.players, seed=state.seed, variants=state.variants,
                              actions="indices")
        self.line = Line(session.game, state.players, state.seed, state.variants, track=True)
        evaluator = _rollouts(mcts)(n_rollouts=self.rollouts, random_state=self.np_rng)
        evaluator.horizon = self.horizon
        self.bot = _keyed(ismcts)(self.game, evaluator, self.uct_c, self.simulations, random_state=self.np_rng,
                                  final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        from interpreter.agents.line import sample
        from interpreter.agents.openspiel_game import RulesState
        self.handed += 1
        if self.handed % _COLLECT_EVERY == 0:
            gc.collect(0)
        if self.worlds >= self.simulations:  # a world for every simulation: nothing to keep
            return RulesState(state.get_game(), sample(state.line, player, self.rng))
        key = (len(state.line.answers), player, id(state.line))
        if self.drawn[0] != key:
            self.drawn = (key, [], {})
        worlds, memo = self.drawn[1], self.drawn[2]
        if len(worlds) < self.worlds:
            worlds.append(sample(state.line, player, self.rng))
            i = len(worlds) - 1
        else:
            self.turn += 1
            i = self.turn % len(worlds)
        world = worlds[i].copy()
        world._cache = _Memo(memo, i, world)
        return RulesState(state.get_game(), world)

    def decide(self, decision, view) -> int:
        if self.session is None:
            raise DiagnosticError([Diagnostic("USAGE", "the ismcts agent plays only a game it is attached to")])
        from interpreter.agents.openspiel_game import RulesState
        history = self.session.history
        if self.line.answers != history[:len(self.line.answers)]:
            raise DiagnosticError([Diagnostic("RUN-ERROR", "the ismcts agent lost track of the game")])
        for answer in history[len(self.line.answers):]:
            self.line.apply(answer)
        if len(decision.values) == 1:
            return 0
        from interpreter.agents.line import NoWorld, Sampling
        state = RulesState(self.game, self.line)
        # Every simulation drops a copy of the game, and a copy is cyclic garbage (components and zones point at
        # each other): left to itself, Python's collector promotes the copies still in play and then scans the
        # whole heap again and again (40 % of a large game's search). During the search only the youngest
        # generation is collected, every few simulations (`_resample`): the copies made since, nothing older.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return int(self.bot.step(state))
        except NoWorld:
            # no world could be drawn from what this player knows: a random option, never a peek (counted)
            Sampling.no_world += 1
            return self.rng.randrange(len(decision.values))
        finally:
            if collecting:
                gc.enable()


class _Memo:
    """The cache of a copy of a drawn world (`Line._cache`: the information strings of its players), shared
    by every copy of that world in one decision's search. The engine is deterministic, so a copy of world
    `i` after the same answers is the same game: what its players were shown is read once, not once per
    simulation that passes there (reading a player's view is the search's largest cost in a large game)."""

    def __init__(self, memo: dict, world: int, line):
        # the line's answers, not the line: the line holds this cache, and a cycle would wait for the collector
        self.memo, self.world, self.answers = memo, world, line.answers
        self.start = len(line.answers)  # answers given when the world was drawn
        self.bucket = memo.setdefault((world, ()), dict(line._cache))

    def clear(self) -> None:  # the line took an answer (`Line.apply`): its position in the world moved on
        self.bucket = self.memo.setdefault((self.world, tuple(self.answers[self.start:])), {})

    def __contains__(self, key) -> bool:
        return key in self.bucket

    def __getitem__(self, key):
        return self.bucket[key]

    def __setitem__(self, key, value) -> None:
        self.bucket[key] = value

    def keys(self):
        return self.bucket.keys()


def _keyed(ismcts):
    """OpenSpiel's ISMCTS with cheaper keys for its tree: the player's information state as a tuple of what it
    was told and did (`Line.record`), what it sees (`observed_key`) and its pending decision, where the
    string (`Line.information`) writes the view as JSON. Equal keys exactly when equal strings (up to a
    record part holding a line break), so the tree is the same; the key is kept in the line's cache."""

    class KeyedISMCTS(ismcts.ISMCTSBot):
        def get_state_key(self, state):
            line = getattr(state, "line", None)
            if line is None:
                return super().get_state_key(state)
            player = state.current_player()
            return player, information_key(line, player)

    return KeyedISMCTS


def information_key(line, player: int) -> "_Key":
    """What `player` knows of `line`, as a key: equal exactly when `line.information(player)` is (see `_keyed`)."""
    key = ("key", player)
    cache = line._cache
    if key not in cache:
        from interpreter.present.observed import observed_key
        cache[key] = _Key((tuple(line.record(player)), observed_key(line.session.state, player), line.now(player)))
    return cache[key]


class _Key:
    """A tree key that hashes once (a tuple would hash its whole content at every lookup)."""
    __slots__ = ("parts", "hash")

    def __init__(self, parts: tuple):
        self.parts, self.hash = parts, hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other) -> bool:
        return self is other or (type(other) is _Key and self.hash == other.hash and self.parts == other.parts)


def _rollouts(mcts):
    """OpenSpiel's random rollouts, played on the state itself: ISMCTS evaluates the state a simulation
    drew and descended to, then drops it, so copying it first is work for nothing."""

    class InPlaceRollouts(mcts.RandomRolloutEvaluator):
        def evaluate(self, state):
            line = getattr(state, "line", None)
            if self.n_rollouts == 1 and self.max_length is None and line is not None and not state.get_game().fixed:
                # straight on the engine: an option drawn uniformly at each decision, as OpenSpiel's rollout
                # draws among the legal actions (the option indices), with nobody listening to the log
                session = line.session
                session.rt.account = None
                session.keep_labels = False  # nobody reads this world's labels: it is dropped after the rollout
                pick = self._random_state.randint
                # Cut at the horizon, also in a game whose score counts what lies face down until the end
                # (`table: score_during_play: false`): this is a drawn world, whose face-down components
                # the search dealt itself, so its score tells nothing of the true game.
                horizon = self.horizon
                played = 0
                try:
                    while session.pending is not None:
                        if horizon is not None and played >= horizon:
                            return np.array(_scored(session, line.players))
                        session.answer(int(pick(len(session.pending.values))))
                        played += 1
                    return np.array(line.returns())
                finally:
                    if line.draw is not None:  # a drawn world, this simulation's own: dropped after this
                        _drop(session)
            if self.n_rollouts == 1:
                clone, state.clone = state.clone, lambda: state  # the state is this simulation's own
                try:
                    return super().evaluate(state)
                finally:
                    state.clone = clone
            return super().evaluate(state)

    InPlaceRollouts.horizon = 10_000
    return InPlaceRollouts


def _scored(session, players: int) -> list[float]:
    """A rollout cut short, valued by where each player stands now: the share of the others whose score
    (the table's `score` function, else the manifest's `score` variable) it beats, a tie counting half
    (two players: 1, 1/2 or 0; more: the leader 1, the last 0, whereas sharing 1 among the leaders would
    value second and last place alike, a noisier estimate). With no numeric score, equal shares. The session
    is a drawn world the search plays in, so its score reveals nothing of the true game."""
    from interpreter.present.table import score_now
    scores = [score_now(session, p) for p in range(players)]
    if any(not isinstance(s, (int, float)) for s in scores):
        name = session.game.content.manifest.get("score")
        scores = [pv.get(name) for pv in session.state.player_vars] if name else []
    if len(scores) != players or any(not isinstance(s, (int, float)) or isinstance(s, bool) for s in scores):
        return [1.0 / players] * players
    if players == 1:
        return [1.0]
    return [(sum(s < mine for s in scores) + 0.5 * (sum(s == mine for s in scores) - 1)) / (players - 1)
            for mine in scores]


def _drop(session) -> None:
    """Unlink a world the search is done with, so that it is freed at once: its components and their zones
    point at each other, as do components whose attributes name others (and the runtime at its resolver), so
    left as it is, every world would wait for the cycle collector, which then walks thousands of objects per
    simulation. Only for a world nobody reads again."""
    for e in session.state.entities.values():
        e.zone = None
        e.zones = None
        e.attrs = None  # a copy's own attributes naming components (the copy shares the others, untouched here)
    session.rt.resolver = None
