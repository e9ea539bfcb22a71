"""How much a drawn world's deal moves the evaluation, against how far apart a decision's best options are.

    python bench/world_noise.py btwixt --players 4 --seed 1000
    python bench/world_noise.py kings_bounty --players 2 --seed 3000

Plays one game of greedy seats. At every third decision of the first seat with more than two options, it
draws --worlds worlds from what that seat knows (line.sample) and values each option one move ahead in each
(judgement.one_ahead). It prints, averaged over those decisions, the standard deviation of one option's value
across worlds and the gap between the best two options within a world. Where the first is the larger, a search
that compares options valued in different worlds compares their worlds' luck: what the ISMCTS agent's
`baseline` setting takes out (README, "Bots").
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents.judgement import catch_up, one_ahead  # noqa: E402
from interpreter.agents.line import sample  # noqa: E402
from interpreter.agents.players import make_agent  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402
from interpreter.runtime.session import Session  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=6)
    args = ap.parse_args()
    game = load_compiled(str(ROOT / "content" / args.game))
    session = Session(game, args.players, args.seed, (), start=False)
    agents = [make_agent("greedy", seat, args.seed) for seat in range(args.players)]
    for agent in agents:
        agent.attach(session)
    session.call(game.content.manifest["start"])
    rng = random.Random(1)
    spread, gaps, turn = [], [], 0
    while session.pending is not None:
        decision = session.pending
        seat = decision.player if decision.player is not None else 0
        if seat == 0 and len(decision.values) > 2 and turn % 3 == 0:
            catch_up(agents[0], "greedy")
            rows = [one_ahead(sample(agents[0].line, 0, rng).session, 0) for _ in range(args.worlds)]
            spread.append(statistics.mean(statistics.pstdev(column) for column in zip(*rows)))
            gaps.append(statistics.mean(sorted(row)[-1] - sorted(row)[-2] for row in rows))
        turn += seat == 0
        session.answer(agents[seat].decide(decision, None))
    print(f"{args.game}, {args.players} players, seed {args.seed}: {len(spread)} decisions, {args.worlds} worlds each")
    print(f"  an option's value across worlds: standard deviation {statistics.mean(spread):.4f} of a chance to win")
    print(f"  the best two options within a world: {statistics.mean(gaps):.4f} apart")


if __name__ == "__main__":
    main()
