"""The batch runner's collector policy (interpreter.batch.worker.batch_collector): a finished game, cyclic
garbage, is freed after it; the collector's settings are put back when the batch ends."""
from __future__ import annotations

import gc
import random
import weakref

from interpreter.batch.worker import GAME_THRESHOLD, batch_collector, prepare
from interpreter.runtime import Session


def _played(game):
    session = Session(game, 2, 3)
    rng = random.Random(4)
    while session.pending is not None:
        session.answer(rng.randrange(len(session.pending.values)))
    return weakref.ref(session.state)


def test_a_finished_game_is_freed_after_it_and_the_settings_come_back():
    game, _ = prepare("kings_bounty", False)
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    with batch_collector() as game_over:
        assert gc.get_threshold()[0] == GAME_THRESHOLD
        assert frozen > 0 or gc.get_freeze_count() > 0  # the loaded game is out of the collector's sight
        state = _played(game)
        game_over()
        assert state() is None  # the game and its cycles (component <-> zone) are gone
    assert gc.get_threshold() == threshold and gc.get_freeze_count() == frozen
