"""OpenSpiel's information-set MCTS through the adapter: it beats random play, and `rules play` runs it."""
from __future__ import annotations

from math import comb

import pytest

pytest.importorskip("pyspiel")

from interpreter.agents import play_with_agents  # noqa: E402
from interpreter.agents.players import make_agent  # noqa: E402
from interpreter.runtime.session import Session  # noqa: E402
from interpreter.cli import main  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402

# ISMCTS as P1 against random bots, one game per seed from 1000 on, with the options of its case (the
# rest the agent's defaults: four drawn worlds a decision, leaves valued by the game's evaluation at once,
# PUCT); the baseline is how often a random P1 wins (a shared win counts) against random bots in the same
# game, no lower than a fair share. bench/bench_ismcts.py measures more games (README, "Bots").
# King's Bounty (2 players): 10 simulations win all 8 of these games (p = 0.004 against a fair share), about
# 2 s a game; the default budget's strength against the greedy bot is measured in bench/bench_strength.py.
# B'Twixt (quick variant, 3 players) tells ISMCTS from random only over some 40 games (the deal decides much of
# it): 6 minutes of one core, so it is measured in bench/, not here (README, "Bots":
# `python bench/bench_strength.py btwixt --players 3 --variant quick --agent ismcts --against random`).
CASES = {
    "kings_bounty": {"players": 2, "games": 8, "options": {"simulations": 10}},
}
BASELINE_GAMES = 300


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p): the one-sided p-value of k wins in n games."""
    return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def test_binomial_tail():
    assert binomial_tail(0, 5, 0.3) == pytest.approx(1.0)
    assert binomial_tail(5, 5, 0.5) == pytest.approx(1 / 32)
    assert binomial_tail(2, 3, 0.5) == pytest.approx(0.5)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_ismcts_beats_random_play(name):
    case = CASES[name]
    game, players, games = load_compiled(name), case["players"], case["games"]
    variants, options = case.get("variants", ()), case["options"]
    randoms = ["random"] * players
    baseline = sum(0 in play_with_agents(game, players, randoms, seed, variants=variants)
                   for seed in range(BASELINE_GAMES)) / BASELINE_GAMES
    p0 = max(baseline, 1 / players)  # no lower than a fair share
    kinds = ["ismcts"] + randoms[1:]
    wins = sum(0 in play_with_agents(game, players, kinds, 1000 + g, options, variants) for g in range(games))
    p_value = binomial_tail(wins, games, p0)
    assert p_value < 0.01, f"{name}: ISMCTS won {wins} of {games} (random P1 wins {baseline:.0%}): p = {p_value:.3f}"


def test_an_ismcts_game_is_the_same_game_again():
    """Given its seed, a game with an ISMCTS seat is deterministic (its search draws from its own seeded RNGs)."""
    game = load_compiled("agot")
    runs = []
    for _ in range(2):
        session = Session(game, 3, 4, start=False)
        agents = [make_agent(kind, seat, 4, {"simulations": 4, "horizon": 10}) for seat, kind in enumerate(["ismcts", "random", "random"])]
        agents[0].attach(session)
        session.call(game.content.manifest["start"])
        while session.pending is not None and len(session.history) < 60:
            d = session.pending
            session.answer(agents[d.player if d.player is not None else 0].decide(d, None))
        runs.append(list(session.history))
    assert runs[0] == runs[1] and len(runs[0]) == 60


def test_rules_play_with_an_ismcts_agent(capsys):
    code = main(["play", "kings_bounty", "--players", "2", "--agents", "ismcts,random", "--agent-arg", "simulations=3",
                 "--seed", "5", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0 and "Winner:" in out and "decisions" in out


@pytest.mark.parametrize("arg, message", [
    ("simulations", "write KEY=VALUE"),
    ("budget=3", "no agent takes 'budget'"),
    ("simulations=many", "simulations is a whole number"),
    ("simulations=0", "must be from 1 to 10000"),
    ("uct_c=nan", "must be from 0 to 100"),
    ("horizon=-1", "must be from 0 to 10000"),
    ("puct=2", "must be from 0 to 1"),
])
def test_bad_agent_args_are_usage_errors(arg, message, capsys):
    code = main(["play", "kings_bounty", "--agents", "ismcts", "--agent-arg", arg, "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err


def test_an_unknown_agent_is_a_usage_error(capsys):
    code = main(["play", "kings_bounty", "--agents", "ismcts,alphazero"])
    err = capsys.readouterr().err
    assert code == 2 and "ismcts" in err


@pytest.mark.parametrize("name, players, steps", [("kings_bounty", 2, 30), ("btwixt", 3, 40), ("agot", 3, 60)])
def test_the_tree_key_tells_apart_exactly_what_the_information_string_does(name, players, steps):
    """The search keys its tree by `information_key` instead of the information string: over copies of one game
    that went on differently for a few decisions, equal keys exactly when equal strings, for every player."""
    import random
    from interpreter.agents.ismcts_agent import information_key
    from interpreter.agents.line import Line
    line = Line(load_compiled(name), players, 11, track=True)
    rng = random.Random(5)
    for _ in range(steps):
        line.apply(rng.randrange(len(line.decision.values)))
    by_string, by_key, pairs = {}, {}, 0
    for branch in range(12):
        copy = line.copy()
        for _ in range(branch % 4):
            if copy.finished:
                break
            # few options drawn, so that branches meet again (the same answers or the same view)
            copy.apply(rng.randrange(min(2, len(copy.decision.values))))
        for p in range(players):
            text, key = copy.information(p), information_key(copy, p)
            assert by_string.setdefault(text, key) == key and by_key.setdefault((p, key), text) == text
            pairs += 1
    assert len(by_string) < pairs  # some branches met: the test compared equal states too


def test_the_search_explores_as_the_evaluation_ranks_by_default():
    """PUCT (the library's) by default: of two children equal so far, the one the evaluation ranks higher is
    searched next, where UCT would toss a coin; `puct=0` gives plain UCT."""
    from open_spiel.python.algorithms import ismcts
    session = Session(load_compiled("kings_bounty"), 2, 3, start=False)
    chosen = {}
    for puct in (1, 0):
        agent = make_agent("ismcts", 0, 3, {"puct": puct})
        agent.attach(session)
        node = ismcts.ISMCTSNode()
        node.total_visits = 10
        node.child_info = {0: ismcts.ChildInfo(5, 2.5, 0.1), 1: ismcts.ChildInfo(5, 2.5, 0.9)}
        chosen[puct] = {agent.bot.select_action(node) for _ in range(40)}
    assert chosen == {1: {1}, 0: {0, 1}}
