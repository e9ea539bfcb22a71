"""Every game in content/ side by side: start-up times, decisions and games per second.

- cold `rules validate` of all content and import + load + compile of one game, each in a fresh process;
- for each game and player count: random games per second, decisions per second, CPU seconds per game;
- B'Twixt at 4 players against the engine as it was before the compiler to Python source (`--baseline REV`,
  default cd4f46b, the last commit of the closure compiler), run from `git archive` in a subprocess so that both
  are measured in the same run on the same machine.
Games are played as `rules simulate --workers 1` plays them: under the batch runner's collector policy
(interpreter.batch.worker.batch_collector); the baseline batch gets the same policy (copied into BATCH, since the
old engine has no batch runner), so both are measured alike.

Run:  python bench/bench_games.py [--games 100] [--baseline REV | --no-baseline] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.runtime.games import known_games, load_compiled  # noqa: E402
from interpreter.runtime import Session  # noqa: E402
from interpreter.batch.worker import GAME_THRESHOLD, batch_collector  # noqa: E402

PLAYERS = {"kings_bounty": [2, 4, 5], "btwixt": [3, 4, 6], "agot": [3, 4, 6]}
# AGoT's Houses are chosen by default; the benchmark plays them in the sheets' order, as the figures before
# that default did, so that the same seeds play the same games.
VARIANTS = {"agot": ("houses_fixed",)}
BASELINE = "cd4f46b"

# A batch of random games, as a program of its own so that it runs the same on any checkout of the engine.
BATCH = """
import gc, random, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from interpreter.runtime.games import load_compiled
except ImportError:  # the closure engine's layout: interpreter/games.py, interpreter/runtime.py
    from interpreter.games import load_compiled
from interpreter.runtime import Session
game, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
g = load_compiled(game)
gc.freeze()  # the batch runner's collector policy (interpreter.batch.worker.batch_collector), for either engine
gc.set_threshold(int(sys.argv[5]), *gc.get_threshold()[1:])
start = time.process_time()
for seed in range(games):
    s = Session(g, players, seed)
    rng = random.Random(seed + 1)
    while s.pending is not None:
        s.answer(rng.randrange(len(s.pending.values)))
    del s
    gc.collect(0)
print(games / (time.process_time() - start))
"""


def fresh_process_seconds(code: str, repeat: int = 3) -> float:
    """The best of a few runs of `python -c code` in a new process (wall time, imports included)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def random_games(game, players: int, games: int) -> tuple[float, int]:
    """CPU seconds and decisions of `games` random games (seeds 0 on), played as `rules simulate` plays them:
    under the batch runner's collector policy. `bench_bots.py` measures its engine figure with it too."""
    decisions = 0
    with batch_collector() as game_over:
        start = time.process_time()
        for seed in range(games):
            session = Session(game, players, seed, VARIANTS.get(game.content.id, ()))
            rng = random.Random(seed + 1)
            while session.pending is not None:
                session.answer(rng.randrange(len(session.pending.values)))
                decisions += 1
            del session
            game_over()
        return time.process_time() - start, decisions


def play_batch(game, players: int, games: int) -> dict:
    cpu, decisions = random_games(game, players, games)
    return {"players": players, "games": games, "games_per_second": round(games / cpu, 1),
            "decisions_per_second": round(decisions / cpu), "cpu_seconds_per_game": round(cpu / games, 4),
            "decisions_per_game": round(decisions / games, 1)}


def baseline_rate(rev: str, game: str, players: int, games: int) -> tuple[float, float] | None:
    """Games per second of the old engine at `rev` and of this one, measured the same way, one after the other."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True)
        if archive.returncode != 0:
            return None
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        old = float(subprocess.run([sys.executable, "-c", BATCH, tmp, game, str(players), str(games), str(GAME_THRESHOLD)],
                                   cwd=tmp, check=True, capture_output=True, text=True).stdout)
        new = float(subprocess.run([sys.executable, "-c", BATCH, str(ROOT), game, str(players), str(games),
                              str(GAME_THRESHOLD)],
                                   cwd=ROOT, check=True, capture_output=True, text=True).stdout)
        return old, new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--baseline", default=BASELINE, help="git revision of the engine to compare B'Twixt with")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    report: dict = {
        "cold_validate_all_seconds": round(fresh_process_seconds("from interpreter.cli import main; main(['validate'])"), 3),
        "import_load_compile_seconds": {
            g: round(fresh_process_seconds(f"from interpreter.runtime.games import load_compiled; load_compiled({g!r})"), 3)
            for g in known_games()},
        "goals": {"cold_validate_all_seconds": 0.4, "import_load_compile_seconds": 0.3,
                  "btwixt_speedup_over_baseline": 3.0, "agot_cpu_seconds_per_6_player_game": 0.5},
        "games": {},
    }
    for name in known_games():
        game = load_compiled(name)
        report["games"][name] = [play_batch(game, n, args.games) for n in PLAYERS.get(name, [game.content.manifest["players"]["default"]])]
    if not args.no_baseline:
        rates = baseline_rate(args.baseline, "btwixt", 4, args.games)
        if rates is not None:
            old, new = rates
            report["btwixt_4p_against_baseline"] = {"baseline": args.baseline, "baseline_games_per_second": round(old, 1),
                                                   "games_per_second": round(new, 1), "speedup": round(new / old, 2)}
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"cold validate of all content: {report['cold_validate_all_seconds']} s (goal 0.4)")
    for g, sec in report["import_load_compile_seconds"].items():
        print(f"import + load + compile {g}: {sec} s (goal 0.3)")
    print(f"{'game':<14}{'players':>8}{'games/s':>10}{'decisions/s':>13}{'CPU s/game':>12}{'decisions/game':>16}")
    for g, rows in report["games"].items():
        for r in rows:
            print(f"{g:<14}{r['players']:>8}{r['games_per_second']:>10}{r['decisions_per_second']:>13}"
                  f"{r['cpu_seconds_per_game']:>12}{r['decisions_per_game']:>16}")
    b = report.get("btwixt_4p_against_baseline")
    if b:
        print(f"B'Twixt 4 players: {b['games_per_second']} games/s against {b['baseline_games_per_second']} at "
              f"{b['baseline']}: {b['speedup']}x (goal 3x)")


if __name__ == "__main__":
    main()
