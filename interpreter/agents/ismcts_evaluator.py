"""What OpenSpiel's information-set MCTS calls to value a position and to rank its moves, from the game's own
evaluation (interpreter.agents.judgement; the manifest's `bots: evaluation:`). The search is OpenSpiel's.

- `evaluate(state)`: moves from the node the search reached, at most `horizon` of them (0: none), random ones
  or, with `rollout` 1, each the option the player to move ranks best one move ahead (the greedy agent's play),
  then the position's value per player: the finished game's returns, or the evaluation's chances to win, less
  what the simulation's drawn world was worth at the root where the agent set that (`baseline`, ismcts_agent).
- `prior(state)`: near the root (`prior_depth` decisions deep), each option answered on a copy and valued
  for the player to move, as a softmax with `temperature`; deeper, every option alike. The bot expands a
  node's options in the order of this prior and, where it tells them apart, widens progressively
  (`ismcts_agent._keyed`).

The states are the search's own: a world drawn from what the searching player knows, or a copy of one.
"""
from __future__ import annotations

import math

import numpy as np
from open_spiel.python.algorithms import mcts

from interpreter.agents.judgement import one_ahead, unlink, value


class JudgedRollouts(mcts.Evaluator):
    def __init__(self, horizon: int, random_state, prior_depth: int = 1, temperature: float = 0.05, rollout: int = 0):
        self.horizon = horizon
        self.rollout = rollout  # 1: the horizon's moves played by the greedy rule; 0: random
        self.prior_depth = prior_depth
        self.temperature = temperature
        self.root = 0  # answers given at the decision being searched (set by the agent before each search)
        self._random_state = random_state

    def evaluate(self, state):
        """Random moves on the state itself (the search drops it after this: a copy first would be work for
        nothing), up to the horizon, then the value. Also in a game whose score counts what lies face down
        until the end (`table: score_during_play: false`): this is a drawn world, whose face-down components
        the search dealt itself, so its evaluation tells nothing of the true game."""
        line = state.line
        session = line.session
        session.rt.account = None  # nobody listens to this world's log
        session.keep_labels = False  # nor reads its labels
        pick = self._random_state.randint
        players = session.state.players
        try:
            for _ in range(self.horizon):
                if session.pending is None:
                    break
                pending = session.pending
                n = len(pending.values)
                seat = pending.player if pending.player is not None else 0
                if self.rollout and n > 1 and 0 <= seat < players:
                    # the greedy agent's move in this world: a leaf then tells what an option leads to when play goes
                    # on as the other seats would play it (the greedy agent: the opponent the search is measured against)
                    ahead = one_ahead(session, seat)
                    session.answer(ahead.index(max(ahead)))
                else:
                    session.answer(int(pick(n)) if n > 1 else 0)
            found = np.array(value(session))
            baseline = getattr(state, "baseline", None)  # the world's value at the root (ismcts_agent._centred)
            return found if baseline is None else found - baseline
        finally:
            if line.draw is not None:  # a drawn world, this simulation's own: dropped after this
                unlink(session)

    def prior(self, state):
        """(option, probability) for each option of the pending decision (see the module's doc)."""
        line = state.line
        n = len(line.decision.values)
        if n == 1 or len(line.answers) - self.root >= self.prior_depth:
            return [(i, 1.0 / n) for i in range(n)]
        return self.ranking(state)

    def ranking(self, state):
        """(option, probability) for each option of the pending decision, by the evaluation one move ahead for the
        player to move (a softmax with `temperature`), at any depth: the prior near the root, and the answer of a
        seat the search models as greedy (ismcts_agent: `opponents: 1`)."""
        line = state.line
        n = len(line.decision.values)
        if n == 1:
            return [(0, 1.0)]
        values = one_ahead(line.session, line.to_act())
        top = max(values)
        weights = [math.exp((v - top) / self.temperature) for v in values]
        total = sum(weights)
        return [(i, w / total) for i, w in enumerate(weights)]
