"""King's Bounty: interpreted content against a hand-written Python game, same random policy.

Reports the time to load and validate the content, and random games per second for each
player count, for the interpreter (content/kings_bounty) and bench/reference_kings_bounty.py.
Both play the same games: setup from Random(seed), choices from Random(seed + 1), so the
ratio compares equal work (tests/test_kings_bounty.py checks they agree game for game). Both are played under
the collector policy `rules simulate` plays its games with (interpreter.batch.worker.batch_collector).

Run:  python bench/bench_kings_bounty.py [--games 500] [--players 2 3 4 5] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import reference_kings_bounty as reference  # noqa: E402
from dsl.loader import load_game  # noqa: E402
from interpreter.codegen import compile_game  # noqa: E402
from interpreter.runtime import Session  # noqa: E402
from interpreter.batch.worker import batch_collector  # noqa: E402


def interpreted_game(game, seed: int, players: int) -> list:
    session = Session(game, players, seed, keep_labels=False)
    rng = random.Random(seed + 1)
    while session.pending is not None:
        session.answer(rng.randrange(len(session.pending.values)))
    return session.result.scores


def rate(play, games: int, players: int, seed: int) -> float:
    with batch_collector() as game_over:  # as `rules simulate` plays its games
        start = time.perf_counter()
        for s in range(seed, seed + games):
            play(s, players)
            game_over()
        return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    start = time.perf_counter()
    content = load_game(ROOT / "content" / "kings_bounty")
    load_seconds = time.perf_counter() - start
    assert content.report.ok, [d.render() for d in content.report.diagnostics]
    start = time.perf_counter()
    game = compile_game(content)
    compile_seconds = time.perf_counter() - start

    rows = []
    for n in args.players:
        ours = rate(lambda s, p: interpreted_game(game, s, p), args.games, n, args.seed)
        theirs = rate(reference.play_game, args.games, n, args.seed)
        rows.append({"players": n, "interpreted_games_per_second": round(ours, 1),
                     "reference_games_per_second": round(theirs, 1), "time_ratio": round(theirs / ours, 2)})
    report = {"load_and_validate_seconds": round(load_seconds, 3), "compile_seconds": round(compile_seconds, 3),
              "games_per_count": args.games, "results": rows, "goal_time_ratio": 3.0}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"load + validate content: {load_seconds:.3f} s; compile: {compile_seconds:.3f} s")
    print(f"{'players':>7} {'interpreted/s':>14} {'reference/s':>12} {'time ratio':>11}")
    for r in rows:
        print(f"{r['players']:>7} {r['interpreted_games_per_second']:>14} {r['reference_games_per_second']:>12} {r['time_ratio']:>10}x")


if __name__ == "__main__":
    main()
