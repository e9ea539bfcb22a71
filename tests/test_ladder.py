"""`rules ladder`: agents rated against each other, seats rotated, the same for a seed whatever the workers."""
from __future__ import annotations

import json
from math import comb

import pytest

from interpreter.batch.ladder import comparisons, fit, lineups, ratings
from interpreter.cli import main


def test_lineups_give_every_agent_every_seat_and_every_opponent():
    two = lineups(["a", "b"], 4)
    assert all(sorted(line) == ["a", "a", "b", "b"] for line in two)
    assert all({line[s] for line in two} == {"a", "b"} for s in range(4))
    three = lineups(["a", "b", "c"], 2)
    assert sorted(three) == sorted([("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")])


def test_pairwise_results_and_the_fit():
    records = [{"agents": ["a", "b", "b"], "winners": [0], "error": None},
               {"agents": ["b", "a", "b"], "winners": [0, 1], "error": None},
               {"agents": ["a", "a", "b"], "winners": [2], "error": None}]
    assert comparisons(records) == [("a", "b", 1.0), ("a", "b", 1.0), ("b", "a", 0.5), ("a", "b", 1.0), ("a", "b", 0.0),
                                    ("a", "b", 0.0)]
    strong = fit(["x", "y"], [("x", "y", 1.0)] * 9 + [("x", "y", 0.0)] * 1)
    assert strong["x"] > 0 > strong["y"] and strong["x"] == pytest.approx(-strong["y"])
    # 9.5 : 1.5 with the prior's drawn game: the strengths' ratio is the points' ratio
    assert strong["x"] - strong["y"] == pytest.approx(pytest.importorskip("math").log(9.5 / 1.5), rel=1e-6)
    rows = ratings(["x", "y"], [{"agents": ["x", "y"], "winners": [0], "error": None}] * 6, seed=1)
    assert rows[0]["agent"] == "x" and rows[0]["low"] <= rows[0]["elo"] <= rows[0]["high"]


def test_a_small_ladder_rates_greedy_above_random_the_same_with_one_or_two_workers(capsys):
    games = 8
    out = []
    for workers in ("1", "2"):
        code = main(["ladder", "kings_bounty", "--players", "2", "--agents", "random,greedy", "--games", str(games),
                     "--seed", "40", "--workers", workers, "--json"])
        assert code == 0
        out.append(json.loads(capsys.readouterr().out))
    first, second = out
    for rows in (first["ratings"], second["ratings"]):
        for row in rows:
            assert row.pop("cpu_seconds_per_game") > 0 or row["agent"] == "random"  # timed, so not the same twice
    assert first["ratings"] == second["ratings"]
    best, worst = first["ratings"]
    assert (best["agent"], worst["agent"]) == ("greedy", "random")
    assert best["low"] is not None and best["low"] > worst["high"]
    # greedy against random, seats rotated: by symmetry a coin flip if greedy were no better
    won = round(best["wins"])
    p_value = sum(comb(games, i) for i in range(won, games + 1)) / 2 ** games
    assert p_value < 0.05, f"greedy won {won} of {games} against random (p = {p_value:.3f})"


def test_ladder_usage_errors(capsys):
    assert main(["ladder", "kings_bounty", "--agents", "greedy", "--games", "2"]) == 2
    assert "two different agents" in capsys.readouterr().err
    assert main(["ladder", "kings_bounty", "--agents", "greedy,nobody", "--games", "2"]) == 2
    assert "no agent 'nobody'" in capsys.readouterr().err
    assert main(["ladder", "kings_bounty", "--agents", "greedy,ismcts:simulations=0", "--games", "2"]) == 2
    assert "simulations must be from 1" in capsys.readouterr().err


def test_a_bench_can_deal_each_game_once_per_seat():
    """bench_strength --paired: game i is dealt seed + i // deal_every, so each deal meets every seating."""
    from interpreter.batch.simulation import Batch, run_batch
    batch = Batch("kings_bounty", players=2, games=4, seed=9, lineups=(("greedy", "random"), ("random", "greedy")),
                  deal_every=2)
    records = run_batch(batch, workers=1)
    assert [r["seed"] for r in records] == [9, 9, 10, 10]
    assert [r["agents"] for r in records] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert all(not r["error"] for r in records)


def test_a_bench_run_in_pieces_is_pooled_each_game_once(tmp_path):
    """bench_strength --pool: the games of several --json files summed up, a game in two files counted once, and
    a file of another run refused with a message."""
    import subprocess
    import sys
    from pathlib import Path
    bench = Path(__file__).resolve().parent.parent / "bench" / "bench_strength.py"

    def run(*extra):
        return subprocess.run([sys.executable, str(bench), "kings_bounty", "--players", "2", "--paired", "--agent", "greedy",
                               "--against", "random", *extra], capture_output=True, text=True, timeout=300)

    pieces = []
    for seed in (5, 6):  # seeds 5-6 and 6-7: seed 6's two games are in both files, once in the pool
        piece = tmp_path / f"piece_{seed}.json"
        assert run("--games", "4", "--seed", str(seed), "--json", str(piece)).returncode == 0
        pieces.append(json.loads(piece.read_text()))
    done = run("--pool", *(str(tmp_path / f"piece_{s}.json") for s in (5, 6)), "--json", str(tmp_path / "all.json"))
    assert done.returncode == 0, done.stderr
    pooled = json.loads((tmp_path / "all.json").read_text())
    assert pooled["games"] == 6 and pooled["seeds"] == [5, 7]
    games = {(r["seed"], r["index"] % 2): r for piece in pieces for r in piece["records"]}
    assert pooled["wins"] == sum(1 / len(r["winners"]) for (_, seat), r in games.items() if seat in r["winners"])
    assert pooled["wins"] < pieces[0]["wins"] + pieces[1]["wins"] or not any(  # (unless seed 6 went to random)
        seat in r["winners"] for (seed, seat), r in games.items() if seed == 6)
    again = run("--pool", str(tmp_path / "piece_5.json"), str(tmp_path / "piece_5.json"), "--json", str(tmp_path / "a.json"))
    assert json.loads((tmp_path / "a.json").read_text())["games"] == 4  # the same file twice: its games once
    refused = subprocess.run([sys.executable, str(bench), "btwixt", "--players", "4", "--pool", str(tmp_path / "piece_5.json")],
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode != 0 and "another run" in refused.stderr and "Traceback" not in refused.stderr
