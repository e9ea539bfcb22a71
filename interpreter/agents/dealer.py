"""How a sampled world deals the components its player has not seen (`line.sample`): the draw, the dealing RNG,
and the counts of how worlds were found."""
from __future__ import annotations

import random

from dataclasses import dataclass

from interpreter.core.state import Entity


@dataclass(frozen=True)
class Draw:
    """How a sampled world deals the components its player has not seen (see `Dealer`)."""

    known: dict  # entity id -> the last point (answers given) at which the player saw that component
    backs: dict  # entity id -> what its back shows the player now (a face-down token on the table)
    seed: int  # the dealer's own numbers, apart from the game's


class Dealer(random.Random):
    """The engine's RNG in a sampled world: the game's own numbers, with what the player has not seen dealt anew.

    It draws the same numbers as the game's RNG, so every outcome of chance a player could see (who goes
    first, which races leave, where a component it knows went) comes out as it did. But wherever the
    rules shuffle components or pick some at random, the components the sampling player has not seen
    since are first dealt among their places with the dealer's own numbers: each may land wherever any
    of them could, and nothing of where they truly lie is kept. `stand` follows which component stands
    in the place of which, so that another player's answer naming one follows it.
    """

    def __init__(self, rng: random.Random, draw: Draw):
        super().__init__(0)
        self.setstate(rng.getstate())
        self.draw = draw
        self.deals = random.Random(draw.seed)
        self.now = 0  # answers given when the rules draw (`_clock`): setup draws at 0
        self.dealing = True  # until the point the world was drawn at; the RNG is reseeded there
        self.stand: dict = {}  # id in the game the world was drawn from -> id of the component in its place here
        self.stood: dict = {}  # and back

    def shuffle(self, x) -> None:
        if self.dealing:
            self._deal(x)
        super().shuffle(x)

    def choice(self, seq):
        if self.dealing:
            seq = list(seq)
            self._deal(seq)
        return super().choice(seq)

    def sample(self, population, k, *, counts=None):
        if self.dealing and counts is None:
            population = list(population)
            self._deal(population)
        return super().sample(population, k, counts=counts)

    def _deal(self, seq: list) -> None:
        """Deal the components in `seq` that the player has not seen since among their places (in place).

        A place stays as it is if the player saw what lies there at this point or later; the others are
        dealt among themselves, those whose back the player sees (a face-down token) among those with the
        same back."""
        groups: dict = {}
        known, backs = self.draw.known, self.draw.backs
        for i, x in enumerate(seq):
            if isinstance(x, Entity):
                truth = self.stood.get(x.id, x.id)
                if known.get(truth, -1) < self.now:
                    groups.setdefault(backs.get(truth), []).append(i)
        moves = []
        for places in groups.values():
            if len(places) > 1:
                dealt = [seq[i] for i in places]
                self.deals.shuffle(dealt)
                for i, x in zip(places, dealt):
                    moves.append((self.stood.get(seq[i].id, seq[i].id), x.id))
                    seq[i] = x
        for truth, here in moves:
            self.stand[truth] = here
            self.stood[here] = truth


def _clock(state, answers: int) -> None:
    """Tell a sampled world's dealer how many answers have been given (what the player saw since counts)."""
    if isinstance(state.rng, Dealer):
        state.rng.now = answers


def _reseed(state, seed: int) -> None:
    """The point a world was drawn at: the chance still to come is new, and nothing more needs dealing."""
    state.rng.seed(seed)
    if isinstance(state.rng, Dealer):
        state.rng.dealing = False


class Sampling:
    """Counts of how sampled worlds were found, for reports and tests."""
    dealt = 0  # the unseen components dealt anew, and the world reads exactly as the player's record
    imperfect = 0  # no dealt world fitted the record: one whose past differs where it reads otherwise
    attempts = 0  # worlds dealt and replayed, fitting or not
    no_world = 0  # decisions an agent took without a search, as no world could be drawn (`NoWorld`)

    @classmethod
    def counts(cls) -> dict:
        return {"dealt": cls.dealt, "imperfect": cls.imperfect, "attempts": cls.attempts, "no_world": cls.no_world}

    @classmethod
    def reset(cls) -> None:
        cls.dealt = cls.imperfect = cls.attempts = cls.no_world = 0
