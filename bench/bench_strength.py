"""How strong a bot is against another: one seat of AGENT, the others AGAINST, the seat rotated game by game.

    python bench/bench_strength.py kings_bounty --players 2 --games 100 --agent ismcts --against greedy
    python bench/bench_strength.py btwixt --players 4 --games 100 --agent ismcts --against greedy --workers 2
    python bench/bench_strength.py agot --players 3 --games 100 --agent ismcts --against greedy --workers 2
    python bench/bench_strength.py agot --players 3 --games 20 --agent ismcts --against ismcts   # how games end
    python bench/bench_strength.py kings_bounty --players 2 --agent greedy --against random --games 200

Game i is seed --seed + i, played by the batch workers (`rules simulate`'s), with AGENT in seat i mod
players; with `--paired` game i is seed --seed + i // players, so that each deal is played once with AGENT in
every seat and a deal that favours a seat favours every agent alike (fewer games for the same interval where
deals decide much, as in King's Bounty). An agent is named as `rules ladder` names one (`ismcts:simulations=50:horizon=4`). Prints AGENT's
win share (a shared win counts its part) with Wilson's 95 % interval against the fair share 1 / players,
and its ratio to it; CPU seconds each agent spends per game, games per CPU-minute for each agent (one seat's
decisions), what a person waits per bot move (mean, 90th percentile and longest decision of more than one
option, CPU time), and how the games ended (the manifest's `report: ends:`); with `--paired`, the deals by how
many of their seatings AGENT won (`deals_by_seatings_won`: in a 2-player game "1.0" is a deal the same seat won
both times, whoever sat there; "2.0" one AGENT won from both seats). `--json FILE` keeps it all, and
holds the games played so far while the run goes on (`"partial": true`). A run too long for one sitting can
be played in pieces (each its own --seed range and --json file; with --paired, whole deals) and then summed up
with `--pool FILE...`, which plays nothing: the games of those files, each (seed, seat) once.

    for s in $(seq 1000 1033); do python bench/bench_strength.py agot --players 3 --games 3 --paired --seed $s --json agot_$s.json; done
    python bench/bench_strength.py agot --players 3 --paired --pool agot_*.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.batch.balance import wilson  # noqa: E402
from interpreter.batch.simulation import Batch, run_batch  # noqa: E402
from interpreter.agents.players import agent_spec  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--agent", default="ismcts")
    ap.add_argument("--against", default="greedy")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--paired", action="store_true",
                    help="deal each game once per seat (game i is seed + i // players): the deal's luck cancels out")
    ap.add_argument("--json", type=Path, help="write every figure (and each game's record) to this file")
    ap.add_argument("--pool", type=Path, nargs="+", metavar="FILE",
                    help="play nothing: sum up the games of these --json files (runs in pieces, the same settings)")
    args = ap.parse_args()
    if args.pool:
        records, wall = pooled(args)
        report(summary(records, args, wall), args)
        return
    for spec in (args.agent, args.against):
        agent_spec(spec)  # a clear error before any game
    players = args.players
    lineups = tuple(tuple(args.agent if s == seat else args.against for s in range(players)) for seat in range(players))
    batch = Batch(args.game, players, args.games, args.seed, tuple(args.variant), lineups=lineups, timed=True,
                  deal_every=players if args.paired else 1)
    start = time.time()
    done: list = []

    def partial(chunk: list) -> None:  # a long run keeps what it has (a bench stopped early still reports)
        done.extend(chunk)
        if args.json:
            args.json.write_text(json.dumps({**summary(sorted(done, key=lambda r: r["index"]), args, time.time() - start),
                                             "partial": True}, indent=1) + "\n")

    records = run_batch(batch, args.workers, with_spec=True, on_records=partial)
    report(summary(records, args, time.time() - start), args)


def report(out: dict, args) -> None:
    print(json.dumps({k: v for k, v in out.items() if k != "records"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


def pooled(args) -> tuple[list, float]:
    """The games of the --pool files, each (seed, seat) once, in that order, and the runs' wall seconds summed;
    a file of another game or other agents stops it with a message (its figures would not be this run's)."""
    found: dict = {}
    wall = 0.0
    for path in args.pool:
        try:
            run = json.loads(path.read_text())
        except (OSError, ValueError) as e:
            sys.exit(f"{path}: not a --json file of this bench ({e})")
        mine = {"game": args.game, "players": args.players, "agent": args.agent, "against": args.against,
                "paired": args.paired}
        other = {k: run.get(k) for k, v in mine.items() if run.get(k) != v} if isinstance(run, dict) else {"file": "?"}
        if other or "records" not in run:
            sys.exit(f"{path}: another run ({other or 'no records'}), not {mine}")
        wall += run.get("wall_seconds", 0.0)
        for r in run["records"]:
            found.setdefault((r["seed"], r["index"] % args.players), r)
    return [found[k] for k in sorted(found)], wall


def summary(records: list, args, wall: float) -> dict:
    players = args.players
    good = [r for r in records if not r["error"]]
    seat_of = [r["index"] % players for r in good]  # the tested agent's seat
    won = sum(1.0 / len(r["winners"]) for r, s in zip(good, seat_of) if s in r["winners"])
    low, high = wilson(won, len(good))
    fair = 1.0 / players
    agents = {}
    for name in dict.fromkeys([args.agent, args.against]):
        seats = [(r, s) for r in good for s in range(players) if r["agents"][s] == name]
        cpu = sum(r["cpu"][s] for r, s in seats)
        waits = sorted(t for r in good for s, t in r["asked"] if r["agents"][s] == name)
        agents[name] = {
            "seat_games": len(seats),
            "cpu_seconds_per_game": round(cpu / len(seats), 3) if seats else None,
            "games_per_cpu_minute": round(60 * len(seats) / cpu, 2) if cpu else None,
            "decisions_per_game": round(len(waits) / len(seats), 1) if seats else None,
            "wait_mean": round(sum(waits) / len(waits), 4) if waits else None,
            "wait_p90": waits[int(0.9 * (len(waits) - 1))] if waits else None,
            "wait_max": waits[-1] if waits else None,
        }
    endings = {}
    for r in good:
        endings[str(r.get("ending"))] = endings.get(str(r.get("ending")), 0) + 1
    # paired: how many of its seatings of one deal the agent won, deal by deal (where the seat decides, whoever
    # sits there wins: a 2-player deal then goes 1 of 2 to each agent, and only the other deals tell them apart)
    deals: dict = {}
    for r, s in zip(good, seat_of):
        deals.setdefault(r["seed"], []).append(1.0 / len(r["winners"]) if s in r["winners"] else 0.0)
    won_in_seatings = {}
    for shares in deals.values():
        if len(shares) == players:
            k = str(round(sum(shares), 2))
            won_in_seatings[k] = won_in_seatings.get(k, 0) + 1
    return {
        "game": args.game, "players": players, "variants": args.variant, "games": len(records), "errors": len(records) - len(good),
        "seeds": [min(r["seed"] for r in records), max(r["seed"] for r in records)], "paired": args.paired, "agent": args.agent, "against": args.against,
        "wins": round(won, 2), "win_share": round(won / len(good), 4) if good else None, "low": round(low, 4), "high": round(high, 4),
        "fair_share": round(fair, 4), "ratio_to_fair": round(won / len(good) / fair, 3) if good else None,
        "ratio_low": round(low / fair, 3), "ratio_high": round(high / fair, 3),
        "agents": agents, "endings": endings,
        "deals_by_seatings_won": dict(sorted(won_in_seatings.items())) if args.paired else None, "workers": args.workers, "wall_seconds": round(wall, 1),
        "first_errors": [r["error"] for r in records if r["error"]][:3],
        "records": records,
    }


if __name__ == "__main__":
    main()
