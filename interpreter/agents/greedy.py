"""The greedy agent: one move ahead by the game's evaluation, in a world drawn from what its player knows.

It follows the game through its own copy (a `Line` fed the same answers, as the ISMCTS agent does).
To decide, it draws one world its player cannot tell from the game (`line.sample`: the components it
has not seen dealt anew), answers each option on a copy of that world, and takes the option after which
its chance to win by the evaluation (interpreter.agents.judgement) is highest; ties go to its own
seeded RNG. It never reads the game's hidden components: only the drawn world, whose hidden
components the sampler dealt itself.
"""
from __future__ import annotations

import random

from interpreter.agents.judgement import catch_up, one_ahead, unlink


class GreedyAgent:
    ARGS = ("worlds",)  # the `--agent-arg` settings it takes (players.AGENT_ARGS)

    def __init__(self, seat: int, seed: int, worlds: int = 1):
        self.seat = seat
        self.rng = random.Random(seed)
        self.worlds = worlds  # worlds drawn per decision; an option's value is its mean over them
        self.session = None
        self.line = None
        self.sampler = None  # line.sample, or a stand-in (tests: the same world whatever the game's hidden cards)
        self.judge = None  # judgement.Judge: the game's evaluation unless set (tuning another one)

    def attach(self, session) -> None:
        """Follow this game (the agent reads the answers given in it, never its state)."""
        from interpreter.agents.line import Line, sample
        state = session.state
        self.session = session
        self.line = Line(session.game, state.players, state.seed, state.variants, track=True)
        self.sampler = self.sampler or sample

    def decide(self, decision, view) -> int:
        catch_up(self, "greedy")
        n = len(decision.values)
        if n == 1:
            return 0
        from interpreter.agents.line import NoWorld, Sampling
        totals = [0.0] * n
        for _ in range(self.worlds):
            try:
                world = self.sampler(self.line, self.seat, self.rng)
            except NoWorld:  # no world fits what this player knows: a random option, never a peek (counted)
                Sampling.no_world += 1
                return self.rng.randrange(n)
            for i, v in enumerate(self.choose_values(world.session)):
                totals[i] += v
            unlink(world.session)
        best = max(totals)
        return self.rng.choice([i for i, v in enumerate(totals) if v >= best - 1e-12])

    def choose_values(self, session) -> list[float]:
        """Each option's chance to win for this seat, one move ahead on a world of the agent's own."""
        return one_ahead(session, self.seat, self.judge)
