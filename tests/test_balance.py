"""interpreter.batch.balance against a direct computation on a small batch, and against known intervals."""
from __future__ import annotations

import math
import statistics

import pytest

from interpreter.batch.balance import difference, proportion, summarize, wilson
from interpreter.batch.simulation import Batch, run_batch

Z = 1.959963984540054


def test_wilson_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10) == (0.0, pytest.approx(Z * Z / (10 + Z * Z)))
    assert wilson(10, 10)[0] == pytest.approx(10 / (10 + Z * Z))
    assert wilson(0, 0) == (0.0, 1.0)


def test_difference_interval_contains_the_effect_and_is_signed():
    a, b = proportion(56, 70), proportion(48, 80)
    d = difference(a, b)
    assert d["effect"] == pytest.approx(56 / 70 - 48 / 80)
    assert d["low"] < d["effect"] < d["high"] and d["significant"]
    same = difference(proportion(5, 10), proportion(5, 10))
    assert same["effect"] == 0 and same["low"] < 0 < same["high"] and not same["significant"]
    assert difference(proportion(0, 0), b)["effect"] is None


def _direct_rate(k, n):
    """Wilson's interval written out from its textbook form, independently of the module."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return p, centre - half, centre + half


@pytest.fixture(scope="module")
def batch():
    records = run_batch(Batch("kings_bounty", players=4, games=30, seed=100), workers=1, with_spec=True)
    return records, summarize(records, 4)


def test_wins_by_seat_match_a_direct_count(batch):
    records, stats = batch
    assert stats["games"] == 30 and stats["errors"] == 0
    for seat in range(4):
        wins = sum(1 for r in records if seat in r["winners"])
        row = stats["wins_by_seat"][seat]
        p, low, high = _direct_rate(wins, 30)
        assert (row["seat"], row["wins"], row["n"]) == (f"P{seat + 1}", wins, 30)
        assert row["rate"] == pytest.approx(p) and row["low"] == pytest.approx(low) and row["high"] == pytest.approx(high)
    assert stats["fair_share"] == 0.25


def test_lengths_and_scores_match_a_direct_computation(batch):
    records, stats = batch
    lengths = [r["decisions"] for r in records]
    assert stats["length"]["mean"] == pytest.approx(statistics.mean(lengths))
    assert stats["length"]["median"] == statistics.median(lengths)
    assert (stats["length"]["min"], stats["length"]["max"]) == (min(lengths), max(lengths))
    assert sum(stats["length"]["counts"].values()) == 30
    assert stats["length"]["counts"][str(lengths[0])] == lengths.count(lengths[0])
    for seat in range(4):
        scores = [r["scores"][seat] for r in records]
        row = stats["scores"]["by_seat"][seat]
        assert row["mean"] == pytest.approx(statistics.mean(scores)) and row["stdev"] == pytest.approx(statistics.stdev(scores))
    assert stats["scores"]["winning"]["mean"] == pytest.approx(statistics.mean(max(r["scores"]) for r in records))


def test_card_rows_match_a_direct_computation(batch):
    records, stats = batch
    cards = {row["card"]: row for row in stats["cards"]}
    every = {c for r in records for seat in r["played"] for c in seat}
    assert set(cards) == every
    for card in sorted(every)[:12]:
        played = [(seat in r["winners"]) for r in records for seat in range(4) if card in r["played"][seat]]
        other = [(seat in r["winners"]) for r in records for seat in range(4) if card not in r["played"][seat]]
        row = cards[card]
        assert row["player_games"] == len(played) and row["share"] == pytest.approx(len(played) / 120)
        p1, low1, high1 = _direct_rate(sum(played), len(played))
        assert (row["with"]["wins"], row["with"]["n"]) == (sum(played), len(played))
        assert row["with"]["low"] == pytest.approx(low1) and row["with"]["high"] == pytest.approx(high1)
        p2 = sum(other) / len(other)
        assert row["without"]["rate"] == pytest.approx(p2)
        assert row["effect"] == pytest.approx(p1 - p2)
    effects = [abs(row["effect"]) for row in stats["cards"]]
    assert effects == sorted(effects, reverse=True)


def test_per_player_values_match_a_direct_computation(batch):
    records, stats = batch
    titles = {row["value"]: row for row in stats["per_player"]["titles"]}
    held = {t for r in records for seat in r["per_player"]["titles"] for t in seat}
    assert set(titles) == held
    for title in held:
        holders = [(r, seat) for r in records for seat in range(4) if title in r["per_player"]["titles"][seat]]
        row = titles[title]
        assert row["player_games"] == len(holders)
        assert row["with"]["wins"] == sum(1 for r, seat in holders if seat in r["winners"])
        assert row["mean_score"] == pytest.approx(statistics.mean(r["scores"][seat] for r, seat in holders))


def test_a_hand_made_batch():
    """Two players; errors are left out; a shared victory is a win for both."""
    records = [
        {"seed": 0, "winners": [0], "scores": [3, 1], "decisions": 10, "played": [["a", "b"], ["b"]], "per_player": {"side": [["x"], ["y"]]}, "error": None},
        {"seed": 1, "winners": [0, 1], "scores": [2, 2], "decisions": 12, "played": [["a"], []], "per_player": {"side": [["y"], ["x"]]}, "error": None},
        {"seed": 2, "winners": [1], "scores": [0, 4], "decisions": 14, "played": [[], ["a"]], "per_player": {"side": [["x"], ["y"]]}, "error": None},
        {"seed": 3, "winners": [], "scores": [], "decisions": 3, "error": "error[RUN-ERROR]: boom"},
    ]
    stats = summarize(records, 2, names={"a": "Card A"}, numbers={"a": {"cost": 2}})
    assert stats["errors"] == 1 and stats["first_errors"] == [{"seed": 3, "error": "error[RUN-ERROR]: boom"}]
    assert [s["wins"] for s in stats["wins_by_seat"]] == [2, 2] and stats["wins_by_seat"][0]["n"] == 3
    assert stats["shared_victories"] == 1 and stats["no_winner"] == 0
    assert stats["length"]["counts"] == {"10": 1, "12": 1, "14": 1}
    a = next(row for row in stats["cards"] if row["card"] == "a")
    # a: played in 3 of 6 player-games, all 3 won; the other 3 player-games won 1
    assert (a["with"]["wins"], a["with"]["n"], a["without"]["wins"], a["without"]["n"]) == (3, 3, 1, 3)
    assert a["effect"] == pytest.approx(2 / 3) and a["name"] == "Card A" and a["attributes"] == {"cost": 2}
    assert [row["card"] for row in stats["cards"]] == ["a", "b"]  # a's effect is the larger
    side = {row["value"]: row for row in stats["per_player"]["side"]}
    assert side["x"]["with"]["wins"] == 2 and side["x"]["mean_score"] == pytest.approx((3 + 2 + 0) / 3)
