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
    # the settings where neither the caller (`--agent-arg`) nor the game (its manifest's `bots: search:`) gives one
    DEFAULTS = {"simulations": 100, "uct_c": 1.0, "worlds": 4, "horizon": 0, "prior_depth": 2, "widening": 1.0, "puct": 1,
                "opponents": 0, "baseline": 1, "rollout": 0}

    def __init__(self, seat: int, seed: int, **settings):
        _require_openspiel()
        self.seat = seat
        self.seed = seed
        unknown = set(settings) - set(self.DEFAULTS)
        if unknown:
            raise TypeError(f"ISMCTSAgent: no setting {sorted(unknown)}")
        self.given = {k: v for k, v in settings.items() if v is not None}  # the game's own fill the others (attach)
        self._settle({})
        # (the decision they were drawn at, the worlds, what their copies' players were shown: see `_Memo`)
        self.drawn: tuple = (None, [], {})
        self.turn = 0
        self.handed = 0  # worlds handed to the search (see `decide`: a collection every _COLLECT_EVERY)
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(seed % 2 ** 32)
        self.session = None
        self.line = None
        self.bot = None

    def _settle(self, game_settings: dict) -> None:
        found = {**self.DEFAULTS, **game_settings, **self.given}
        self.simulations = int(found["simulations"])
        self.uct_c = float(found["uct_c"])
        # Drawing a world replays the game in it; a decision draws at most `worlds` of them and the
        # simulations past that search copies of those (Session.copy), in turn.
        self.worlds = int(found["worlds"])
        # A rollout is cut after `horizon` decisions and valued by the game's evaluation (ismcts_evaluator).
        self.horizon = int(found["horizon"])
        # 1: those `horizon` decisions are answered as the greedy agent would (one move ahead by the evaluation); 0: at random
        self.rollout = int(found["rollout"])
        self.prior_depth = int(found["prior_depth"])  # how deep options are ranked by the evaluation one move ahead
        self.widening = float(found["widening"])  # a node of n visits has at most widening * sqrt(n + 1) children, where ranked
        # 1: the library's PUCT selection, whose exploration follows the prior (the evaluation one move ahead), so the
        # search starts where the greedy agent would play and leaves it only when deeper play says so; 0: plain UCT
        self.puct = int(found["puct"])
        # 1: the other seats answer in the search as the greedy agent would (the option the evaluation ranks best one
        # move ahead, in the search's world), so only this seat's decisions branch and the budget goes into its own
        # play; 0: every seat is searched alike (max-n: each replies with what is best for it deeper down)
        self.opponents = int(found["opponents"])
        # 1: a leaf's value is taken less its world's value at the root (see `_centred`); 0: as the evaluation gives it
        self.baseline = int(found["baseline"])

    def attach(self, session) -> None:
        """Follow this game (the agent reads the answers given in it, never its state), with the game's own search
        settings (`bots: search:`) where the caller gave none."""
        from open_spiel.python.algorithms import ismcts

        from interpreter.agents.ismcts_evaluator import JudgedRollouts
        from interpreter.agents.line import Line
        from interpreter.agents.openspiel_game import load_game
        state = session.state
        self.session = session
        self._settle(dict(session.game.content.bots.search))
        # the search's actions are the options of each decision (one step per decision, however many words)
        self.game = load_game(str(session.game.content.root), players=state.players, seed=state.seed, variants=state.variants,
                              actions="indices")
        self.line = Line(session.game, state.players, state.seed, state.variants, track=True)
        self.evaluator = JudgedRollouts(self.horizon, self.np_rng, self.prior_depth, rollout=self.rollout)
        self.bot = _keyed(ismcts)(self.game, self.evaluator, self.uct_c, self.simulations, random_state=self.np_rng,
                                  final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                  child_selection_policy=ismcts.ChildSelectionPolicy.PUCT if self.puct
                                  else ismcts.ChildSelectionPolicy.UCT)
        self.bot.widening = self.widening
        if self.opponents:  # near the root (where options are ranked): deeper, every seat is searched as usual
            evaluator = self.evaluator
            self.bot.modelled = lambda state: (state.current_player() != self.seat and
                                               len(state.line.answers) - evaluator.root < evaluator.prior_depth)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        from interpreter.agents.line import sample
        from interpreter.agents.openspiel_game import RulesState
        self.handed += 1
        if self.handed % _COLLECT_EVERY == 0:
            gc.collect(0)
        if self.worlds >= self.simulations:  # a world for every simulation: nothing to keep
            world = sample(state.line, player, self.rng)
            return self._centred(RulesState(state.get_game(), world), world)
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
        return self._centred(RulesState(state.get_game(), world), worlds[i], memo, i)

    def _centred(self, state, world, memo: dict | None = None, i: int = 0):
        """The state a simulation starts from, with the value its world has at the root, by which the search
        lowers every value the simulation brings back (less the fair share): common random numbers. Each
        simulation searches one world, and a world's deal alone moves every option's value alike (a face-down
        component the evaluation counts, dealt high or low): several times the gap between the best options,
        as measured in a 4-player game whose evaluation reads face-down tokens. Unlowered, an option searched
        in a lucky world would look better than one searched in an unlucky one; lowered, only what the option
        changes in its world counts. Where the evaluation reads nothing hidden, every world has the same root
        value and nothing changes."""
        if not self.baseline:
            return state
        from interpreter.agents.judgement import value
        key = ("root value", i)
        if memo is None or key not in memo:
            found = np.array(value(world.session)) - 1.0 / world.players
            if memo is None:
                state.baseline = found
                return state
            memo[key] = found
        state.baseline = memo[key]
        return state

    def decide(self, decision, view) -> int:
        from interpreter.agents.judgement import catch_up
        from interpreter.agents.openspiel_game import RulesState
        catch_up(self, "ismcts")
        if len(decision.values) == 1:
            return 0
        from interpreter.agents.line import NoWorld, Sampling
        state = RulesState(self.game, self.line)
        self.evaluator.root = len(self.line.answers)
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

    import pyspiel

    class KeyedISMCTS(ismcts.ISMCTSBot):
        widening = 0.0  # see check_expand
        modelled = None  # a state -> whether the search answers it by the evaluation one move ahead (see run_simulation)

        def run_simulation(self, state):
            """OpenSpiel's simulation, except that a finished game's returns are lowered as a leaf's value is
            (`baseline`: ismcts_evaluator), and that near the root another seat the agent models (`opponents: 1`)
            does not branch: it answers the option its prior ranks best (the evaluation one move ahead, read once
            per information state and kept in its node), and the simulation goes on to the next decision it searches."""
            if state.is_terminal():
                baseline = getattr(state, "baseline", None)
                return state.returns() if baseline is None else np.array(state.returns()) - baseline
            modelled = self.modelled
            while modelled is not None and not state.is_terminal() and modelled(state):
                node = self.lookup_or_create_node(state)
                if node.total_visits == ismcts.UNEXPANDED_VISIT_COUNT:
                    node.total_visits = 0
                    node.prior_map.update(self._evaluator.ranking(state))
                prior = node.prior_map
                state.apply_action(max(prior, key=prior.__getitem__) if prior else state.legal_actions()[0])
            return super().run_simulation(state)

        def get_state_key(self, state):
            line = getattr(state, "line", None)
            if line is None:
                return super().get_state_key(state)
            player = state.current_player()
            return player, information_key(line, player)

        def check_expand(self, node, legal_actions):
            """The option a visit of `node` expands, or none (then UCT selects among its children). Where the
            evaluator ranked the options (`prior`, near the root), the best-ranked not yet expanded, and a node
            of n visits keeps at most `widening * sqrt(n + 1)` children (progressive widening); elsewhere
            OpenSpiel's own: every option once, in random order."""
            prior = node.prior_map
            if not prior or len(set(prior.values())) == 1:
                return super().check_expand(node, legal_actions)
            children = node.child_info
            if len(children) == len(legal_actions) or \
                    (children and self.widening and len(children) >= self.widening * (node.total_visits + 1) ** 0.5):
                return pyspiel.INVALID_ACTION
            return max((a for a in legal_actions if a not in children), key=prior.__getitem__)

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
