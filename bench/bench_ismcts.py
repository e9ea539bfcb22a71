"""OpenSpiel's ISMCTS (through the adapter) against random play (King's Bounty unless --game says otherwise).

    python bench/bench_ismcts.py --players 2 --games 40 --simulations 20
    python bench/bench_ismcts.py --players 4 --games 20 --simulations 50
    python bench/bench_ismcts.py --game btwixt --players 3 --variant quick --games 16 --simulations 50 --agent-arg horizon=20

ISMCTS plays P1 against random agents, one game per seed from --seed on; the baseline is how often a
random P1 wins (a shared win counts) in as many random games as --baseline says. Prints wins, win
rates, the one-sided binomial p-value, seconds per game, and how the sampled worlds were found.
"""
from __future__ import annotations

import argparse
import sys
import time
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents.line import Sampling  # noqa: E402
from interpreter.agents import play_with_agents  # noqa: E402
from interpreter.agents.players import parse_agent_args  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--simulations", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--baseline", type=int, default=2000)
    ap.add_argument("--game", default="kings_bounty")
    ap.add_argument("--agent-arg", action="append", default=[], help="KEY=VALUE, as for rules play")
    ap.add_argument("--variant", action="append", default=[], help="a variant of the game, as for rules play")
    args = ap.parse_args()
    game = load_compiled(args.game)
    options = {"simulations": args.simulations, **parse_agent_args(args.agent_arg)}
    variants = tuple(args.variant)
    base = sum(0 in play_with_agents(game, args.players, ["random"] * args.players, s, variants=variants)
               for s in range(args.baseline)) / args.baseline
    kinds = ["ismcts"] + ["random"] * (args.players - 1)
    wins, start = 0, time.process_time()
    for g in range(args.games):
        wins += 0 in play_with_agents(game, args.players, kinds, args.seed + g, options, variants)
        print(f"  game {g + 1} (seed {args.seed + g}): {wins} wins so far", file=sys.stderr)
    seconds = (time.process_time() - start) / args.games
    p0 = max(base, 1 / args.players)
    p_value = sum(comb(args.games, i) * p0 ** i * (1 - p0) ** (args.games - i) for i in range(wins, args.games + 1))
    print(f"{args.game} {list(variants)}, {args.players} players, ISMCTS ({options}) as P1 against random: "
          f"{wins}/{args.games} wins ({wins / args.games:.0%}); a random P1 wins {base:.1%} of {args.baseline}; "
          f"one-sided binomial p = {p_value:.2g}; {seconds:.1f} s per game; sampled worlds: {Sampling.counts()}")


if __name__ == "__main__":
    main()
