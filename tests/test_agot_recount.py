"""The independent recount of AGoT games (bench/agot_recount.py): a small instance of the soak run finds
nothing wrong, and the recount does find what it looks for when the table is wrong."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled

ROOT = Path(__file__).resolve().parents[1]


def _recount_module():
    spec = importlib.util.spec_from_file_location("agot_recount", ROOT / "bench" / "agot_recount.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["agot_recount"] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rc():
    module = _recount_module()
    if not module.DATA.is_dir():
        pytest.skip("../shared/data/agot is not next to the repository")
    return module


@pytest.fixture(scope="module")
def game():
    return load_compiled("agot")


@pytest.mark.parametrize("players,variants", [(3, ()), (4, ("tides_of_battle",)), (6, ("port_ships_survive", "tiebreak_ru"))])
def test_random_games_recount_clean(rc, game, players, variants):
    tally = rc.play(game, rc.Facts.load(), rc.Tally(), players, range(2), variants)
    assert tally.games == 2 and tally.decisions > 400
    assert not tally.faults, tally.examples
    assert tally.winners_agree == 2
    for what in ("unit pool", "ports at most 3 ships", "supply", "House cards", "power tokens", "influence tracks",
                 "orders", "star orders", "victory track"):
        assert tally.checks[what] > 0, what


def _table(game, players=6):
    session = Session(game, players, 0, ("houses_fixed",), start=False)  # setup asks no one which House
    session.call("setup")
    return session.state


def _faults(rc, state, decision_source="choose", labels=("resolve x",)):
    tally = rc.Tally()

    class Pending:
        source = decision_source
    Pending.labels = list(labels)
    rc.Recount(rc.Facts.load(), tally).check(state, Pending(), 0, 0)
    return tally.faults


def test_the_recount_finds_a_fourth_ship_in_a_port_and_a_broken_supply(rc, game):
    state = _table(game)
    assert not _faults(rc, state)
    port = state.entities["port_of_pyke"]
    for i in (3, 4, 5):
        state.place(state.entities[f"greyjoy_ship_{i}"], port.zones["units"])
    faults = _faults(rc, state)
    assert faults["port holds more than 3 ships"] == 1 and faults["supply"] == 1, faults
    # the house is being asked what to disband: supply may be broken then, the port never
    faults = _faults(rc, state, decision_source='choose u ask "Your armies exceed supply"')
    assert "supply" not in faults and faults["port holds more than 3 ships"] == 1


def test_the_recount_finds_lost_cards_orders_without_units_and_a_wrong_winner(rc, game):
    state = _table(game)
    state.place(state.entities["eddard_stark"], state.zone("box"))
    state.place(state.entities["lannister_raid_a"], state.entities["the_twins"].zones["order_slot"])
    faults = _faults(rc, state)
    assert faults["House cards"] == 1 and faults["order without units"] == 1, faults
    tally = rc.Tally()
    state.game_vars["round"] = 11
    state.winners = [5]
    rc.Recount(rc.Facts.load(), tally).winner(state, 0)
    assert tally.faults["winner"] == 1 and tally.winners_agree == 0
