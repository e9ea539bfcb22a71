"""`rules ladder`: agents rated against each other (interpreter.batch.ladder), in parallel as `rules simulate`
plays its games (worker processes or Ray), the same ratings for a seed whatever the number of workers; with
`--report DIR` the balance report of those games with the ladder's table."""
from __future__ import annotations

import json
import time
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.batch.ladder import lineups, ratings
from interpreter.batch.progress import progress_for
from interpreter.batch.simulation import Batch, default_workers, run_batch


def ladder(args, game, game_ref: str, players: int) -> int:
    from interpreter.agents.players import agent_spec, parse_agent_args
    if args.games < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--games must be at least 1")])
    if args.workers is not None and args.workers < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--workers must be at least 1")])
    names = list(dict.fromkeys(a.strip() for a in args.agents.split(",") if a.strip()))
    if len(names) < 2:
        raise DiagnosticError([Diagnostic("USAGE", f"--agents '{args.agents}': name at least two different agents to rate",
                                          hint="e.g. --agents random,greedy,ismcts (settings of its own: ismcts:simulations=50)")])
    for name in names:
        kind, _ = agent_spec(name)
        if kind == "human":
            raise DiagnosticError([Diagnostic("USAGE", "a ladder rates bots: no human seat")])
    for v in args.variant:
        if v not in game.content.vocabulary.variants:
            raise DiagnosticError([Diagnostic("USAGE", f"{game.content.id} has no variant '{v}'")])
    common = tuple(sorted(parse_agent_args(args.agent_arg).items()))
    report_dir = Path(args.report) if args.report else None
    if report_dir is not None:
        from interpreter.batch.report import prepare_folder, require_matplotlib
        require_matplotlib()
        prepare_folder(report_dir)
    seated = tuple(lineups(names, players))
    batch = Batch(game_ref, players, args.games, args.seed, tuple(args.variant), agent_args=common, lineups=seated, timed=True)
    workers = args.workers or (None if args.ray else default_workers(args.games))
    progress = progress_for(args.json)
    start = time.perf_counter()
    progress.start(game.content.id, args.games)
    try:
        records = run_batch(batch, workers, args.ray, with_spec=report_dir is not None, on_records=progress.advance)
    finally:
        progress.stop()
    seconds = time.perf_counter() - start
    table = ladder_table(names, records, players, args.seed)
    out = {"game": game.content.id, "players": players, "variants": list(args.variant), "games": len(records),
           "errors": sum(1 for r in records if r["error"]), "seed": args.seed, "agent_args": dict(common),
           "seconds": round(seconds, 3), "workers": ("ray " + args.ray) if args.ray else workers, **table}
    if report_dir is not None:
        from interpreter.cli.simulate import _label, _write_report
        args.agent_kinds, args.agent_options = tuple(names), common
        paths = _write_report(report_dir, game, players, args, [(_label(args.variant), tuple(args.variant), records, seconds)],
                              extra={"ladder": table, "agents": f"ladder of {', '.join(names)}, seats rotated"})
        out["report"] = [str(p) for p in paths]
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        print(f"{game.content.id}, {players} players, {out['games']} games (seeds {args.seed} to {args.seed + args.games - 1}), "
              f"seats rotated; {out['errors']} errors; {out['seconds']} s")
        print(f"{'agent':<32} {'Elo':>7}  {'95 % interval':>17}  {'games':>5}  {'won':>13}  {'CPU s/game':>10}")
        for row in table["ratings"]:
            share = row["win_share"]
            print(f"{row['agent']:<32} {row['elo']:>7.0f}  [{row['low']:>6.0f}, {row['high']:>6.0f}]  {row['seats']:>5}  "
                  f"{100 * (share['rate'] or 0):>5.1f} % of {row['fair_wins'] / max(row['seats'], 1) * 100:.0f} %"
                  f"  {row['cpu_seconds_per_game'] if row['cpu_seconds_per_game'] is not None else '-':>10}")
        for r in records:
            if r["error"]:
                print(f"seed {r['seed']}:\n{r['error']}")
                break
        if "report" in out:
            print(f"report: {out['report'][1]} (and {Path(out['report'][0]).name})")
    return 1 if out["errors"] else 0


def ladder_table(names: list, records: list, players: int, seed: int) -> dict:
    """The ladder's part of a report: the ratings and how they were made."""
    return {"ratings": ratings(names, records, seed), "method": "Bradley-Terry on pairwise results (a winner beats each loser, "
            "two winners draw), one drawn game between every two agents as a prior; Elo scale, mean 0; 95 % bootstrap "
            "intervals over the games", "lineups": len(lineups(names, players))}
