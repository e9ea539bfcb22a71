"""The speed-up of `rules simulate` from 1 worker to 2 (and more) worker processes.

Plays the same batch of random games with each number of workers (interpreter.batch.simulation, as
the command does: processes forked after the game is compiled), checks that the records are
identical, and reports games per second, the speed-up over one worker and the CPU seconds used
(this process and its workers: when the speed-up falls short while the CPU seconds stay the same,
other processes had the cores). The goal is at least
1.8x with 2 workers on 2 cores; measure on a quiet machine (the load average is printed, since
other processes take cores away from the workers).

Run:  python bench/bench_workers.py [--game kings_bounty] [--games 2000] [--players 4] [--workers 1 2] [--report] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.batch.simulation import Batch, run_batch  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kings_bounty")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--report", action="store_true", help="record played cards and per-player values too, as --report does")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    batch = Batch(args.game, args.players, args.games, seed=0)
    run_batch(Batch(args.game, args.players, 1), workers=1, with_spec=args.report)  # compile once, outside the timing
    rows = []
    baseline = None
    for workers in args.workers:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        cpu_before = _cpu()
        start = time.perf_counter()
        records = run_batch(batch, workers=workers, with_spec=args.report)
        seconds = time.perf_counter() - start
        cpu = _cpu() - cpu_before
        if baseline is None:
            baseline = (records, seconds)
        elif records != baseline[0]:
            print(f"MISMATCH: {workers} workers gave other records than {args.workers[0]}", file=sys.stderr)
            return 1
        rows.append({"workers": workers, "seconds": round(seconds, 2), "games_per_second": round(args.games / seconds, 1),
                     "speedup": round(baseline[1] / seconds, 2), "cpu_seconds": round(cpu, 2),
                     "load_before": load})
    result = {"game": args.game, "players": args.players, "games": args.games, "cores": os.cpu_count(),
              "report_records": args.report, "runs": rows}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{args.game}, {args.players} players, {args.games} games, {os.cpu_count()} cores"
              + (", with report records" if args.report else ""))
        for r in rows:
            load = f", load average before {r['load_before']:.2f}" if r["load_before"] is not None else ""
            print(f"  {r['workers']} worker(s): {r['seconds']:7.2f} s  {r['games_per_second']:7.1f} games/s  "
                  f"speed-up {r['speedup']:.2f}x  ({r['cpu_seconds']:.2f} CPU s){load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
