"""OpenSpiel's information-set MCTS through the adapter: it beats random play, and `rules play` runs it."""
from __future__ import annotations

from math import comb

import pytest

pytest.importorskip("pyspiel")

from interpreter.agents import play_with_agents  # noqa: E402
from interpreter.cli import main  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402

PLAYERS = 2
# About 10 s a game with 50 simulations per decision (bench/bench_ismcts.py measures more). Since the
# sampled worlds are drawn from what the bot knows (issue 15 §2), 20 simulations win 78 % (31 of 40),
# which 12 games rarely tell from chance at p < 0.01 (it takes 11 wins); 50 win 23 of 24.
GAMES = 12
SIMULATIONS = 50


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the one-sided p-value of k wins in n games."""
    return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_binomial_tail():
    assert binomial_tail(0, 5, 0.3) == pytest.approx(1.0)
    assert binomial_tail(5, 5, 0.5) == pytest.approx(1 / 32)
    assert binomial_tail(2, 3, 0.5) == pytest.approx(0.5)


def test_ismcts_beats_random_play_in_kings_bounty():
    game = load_compiled("kings_bounty")
    # the baseline: how often a random P1 wins (a shared win counts) against a random P2
    baseline_games = 300
    baseline = sum(0 in play_with_agents(game, PLAYERS, ["random", "random"], seed) for seed in range(baseline_games)) / baseline_games
    p0 = max(baseline, 1 / PLAYERS)  # no lower than a fair share
    wins = sum(0 in play_with_agents(game, PLAYERS, ["ismcts", "random"], 1000 + g, {"simulations": SIMULATIONS}) for g in range(GAMES))
    p_value = binomial_tail(wins, GAMES, p0)
    assert p_value < 0.01, f"ISMCTS won {wins} of {GAMES} (random P1 wins {baseline:.0%}): p = {p_value:.3f}"


def test_rules_play_with_an_ismcts_agent(capsys):
    code = main(["play", "kings_bounty", "--players", "2", "--agents", "ismcts,random", "--agent-arg", "simulations=3",
                 "--seed", "5", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "Winner:" in out and "decisions" in out


@pytest.mark.parametrize("arg, message", [
    ("simulations", "write KEY=VALUE"),
    ("budget=3", "no agent takes 'budget'"),
    ("simulations=many", "simulations is a whole number"),
    ("simulations=0", "must be positive"),
    ("uct_c=nan", "must be positive"),
])
def test_bad_agent_args_are_usage_errors(arg, message, capsys):
    code = main(["play", "kings_bounty", "--agents", "ismcts", "--agent-arg", arg, "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_an_unknown_agent_is_a_usage_error(capsys):
    code = main(["play", "kings_bounty", "--agents", "ismcts,alphazero"])
    err = capsys.readouterr().err
    assert code == 2 and "ismcts" in err
