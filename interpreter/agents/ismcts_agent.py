"""OpenSpiel's information-set MCTS as an agent of `rules play` (the search is OpenSpiel's own).

The agent follows the game it is attached to through its own copy of the game (a `Line`, fed the
same answers); to decide, it hands OpenSpiel's `ISMCTSBot` that game as an OpenSpiel state. The bot
sees the player's information-state string and samples worlds through `line.sample`: never the
full state.
"""
from __future__ import annotations

import random

import numpy as np

from dsl.diagnostics import Diagnostic, DiagnosticError

def _require_openspiel():
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import ismcts, mcts  # noqa: F401
    except ImportError:
        raise DiagnosticError([Diagnostic("USAGE", "the ismcts agent needs OpenSpiel, which is not installed",
                                          hint='install it with: python3 -m pip install -e ".[openspiel]"')]) from None


class ISMCTSAgent:
    def __init__(self, seat: int, seed: int, simulations: int = 100, uct_c: float = 1.0, rollouts: int = 1,
                 worlds: int = 100):
        _require_openspiel()
        self.seat = seat
        self.seed = seed
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        # Drawing a world replays the game in it; a decision draws at most `worlds` of them and the
        # simulations past that search copies of those (Session.copy), in turn.
        self.worlds = worlds
        self.drawn: tuple = (None, [])  # (the decision they were drawn at, the worlds)
        self.turn = 0
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
        self.bot = ismcts.ISMCTSBot(self.game, evaluator, self.uct_c, self.simulations, random_state=self.np_rng,
                                    final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.bot.set_resampler(self._resample)

    def _resample(self, state, player):
        from interpreter.agents.line import sample
        from interpreter.agents.openspiel_game import RulesState
        if self.worlds >= self.simulations:  # a world for every simulation: nothing to keep
            return RulesState(state.get_game(), sample(state.line, player, self.rng))
        key = (len(state.line.answers), player, id(state.line))
        if self.drawn[0] != key:
            self.drawn = (key, [])
        worlds = self.drawn[1]
        if len(worlds) < self.worlds:
            worlds.append(sample(state.line, player, self.rng))
            return RulesState(state.get_game(), worlds[-1].copy())
        self.turn += 1
        return RulesState(state.get_game(), worlds[self.turn % len(worlds)].copy())

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
        try:
            return int(self.bot.step(state))
        except NoWorld:
            # no world could be drawn from what this player knows: a random option, never a peek (counted)
            Sampling.no_world += 1
            return self.rng.randrange(len(decision.values))


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
                pick = self._random_state.randint
                while session.pending is not None:
                    session.answer(int(pick(len(session.pending.values))))
                return np.array(line.returns())
            if self.n_rollouts == 1:
                clone, state.clone = state.clone, lambda: state  # the state is this simulation's own
                try:
                    return super().evaluate(state)
                finally:
                    state.clone = clone
            return super().evaluate(state)

    return InPlaceRollouts

