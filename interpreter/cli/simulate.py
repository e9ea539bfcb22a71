"""`rules simulate`: a batch of bot games (interpreter.batch.simulation), its summary, and its balance report.

The summary is the same whatever runs the games (this process, N worker processes, Ray); with
`--report DIR` the balance statistics (interpreter.batch.balance) are written by interpreter.batch.report, and
with `--compare VARIANT` the same seeds are played again with that variant added.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.batch.progress import progress_for
from interpreter.batch.simulation import Batch, default_workers, run_batch


def simulate(args, game, game_ref: str, players: int) -> int:
    if args.games < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--games must be at least 1")])
    if args.workers is not None and args.workers < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--workers must be at least 1")])
    known = game.content.vocabulary.variants
    for v in [*args.variant, *([args.compare] if args.compare else [])]:
        if v not in known:
            raise DiagnosticError([Diagnostic("USAGE", f"{game.content.id} has no variant '{v}'",
                                              hint=did_you_mean(v, known) or f"variants: {', '.join(known) or 'none'}")])
    if args.compare and args.compare in args.variant:
        raise DiagnosticError([Diagnostic("USAGE", f"--compare {args.compare}: that variant is already played by --variant",
                                          hint="compare a variant against the same games without it")])
    if args.compare and not args.report:
        raise DiagnosticError([Diagnostic("USAGE", "--compare needs --report DIR: the comparison is a report")])
    if args.report is not None and not args.report.strip():
        raise DiagnosticError([Diagnostic("USAGE", "--report needs a folder to write the report in, not an empty name")])
    report_dir = Path(args.report) if args.report else None
    if report_dir is not None:
        from interpreter.batch.report import prepare_folder, require_matplotlib
        require_matplotlib()
        prepare_folder(report_dir)
    ray_address = args.ray
    workers = args.workers or (None if ray_address else default_workers(args.games))

    runs = [(_label(args.variant), tuple(args.variant))]
    if args.compare:
        runs.append((_label([*args.variant, args.compare]), (*args.variant, args.compare)))
    progress = progress_for(args.json)
    results = []
    for label, variants in runs:
        batch = Batch(game_ref, players, args.games, args.seed, variants, getattr(args, "agent_kinds", ("random",)),
                      getattr(args, "agent_options", ()))
        start = time.perf_counter()
        progress.start(label if len(runs) > 1 else game.content.id, args.games)
        try:
            records = run_batch(batch, workers, ray_address, with_spec=report_dir is not None, on_records=progress.advance)
        finally:
            progress.stop()
        results.append((label, variants, records, time.perf_counter() - start))

    agents = Batch(game_ref, players, 1, 0, (), getattr(args, "agent_kinds", ("random",))).seat_agents()
    summaries = [_summary(game, players, variants, records, seconds, workers, ray_address, agents)
                 for _, variants, records, seconds in results]
    if report_dir is not None:
        from interpreter.batch.report import write_report
        from interpreter.batch.report_findings import verdict, warning_lines
        report = _report_data(game, players, args, results)
        paths = write_report(report_dir, report)
        if verdict(report):  # the findings a reader of the summary should not miss
            summaries[0]["verdict"] = verdict(report)
        if warning_lines(report):
            summaries[0]["warnings"] = warning_lines(report)
    summary = summaries[0]
    if len(summaries) > 1:
        summary["compare"] = summaries[1]
    if args.json:
        if report_dir is not None:
            summary["report"] = [str(p) for p in paths]
        print(json.dumps(summary, ensure_ascii=False, indent=1))
    else:
        for k, v in summary.items():
            if k not in ("first_errors", "compare", "verdict", "warnings"):
                print(f"{k}: {v}")
        if len(summaries) > 1:
            print(f"with {args.compare}:")
            for k, v in summaries[1].items():
                if k not in ("first_errors", "game", "players", "games"):
                    print(f"  {k}: {v}")
        for line in summary.get("warnings", ()):
            print(f"warning: {line}")
        if summary.get("verdict"):
            print(f"verdict: {summary['verdict']}")
        for s in summaries:
            for e in s["first_errors"]:
                print(f"seed {e['seed']}:\n{e['error']}", file=sys.stderr)
        if report_dir is not None:
            print(f"report: {paths[1]} (and {paths[0].name})")
    return 1 if any(s["errors"] for s in summaries) else 0


def _label(variants) -> str:
    return "variants " + ", ".join(variants) if variants else "no variant"


def _summary(game, players, variants, records, seconds, workers, ray_address, agents) -> dict:
    from interpreter.batch.balance import summarize

    stats = summarize(records, players)
    return {
        "game": game.content.id,
        "players": players,
        "variants": list(variants),
        "agents": agents,
        "games": stats["games"],
        "errors": stats["errors"],
        "wins_by_seat": {row["seat"]: row["wins"] for row in stats["wins_by_seat"]},
        "mean_decisions": round(stats["length"]["mean"], 2) if stats["length"]["n"] else 0,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(records) / seconds, 1) if seconds else None,
        "workers": ("ray " + ray_address) if ray_address else workers,
        "first_errors": stats["first_errors"],
    }


def _write_report(folder: Path, game, players: int, args, results: list, extra: dict | None = None):
    from interpreter.batch.report import write_report
    return write_report(folder, _report_data(game, players, args, results, extra))


def _report_data(game, players: int, args, results: list, extra: dict | None = None) -> dict:
    """Everything report.json holds: each run's statistics and findings, the comparison of two runs;
    `extra` adds to it (a ladder's table, rules ladder --report)."""
    from dsl.translations import text_in
    from interpreter.agents.players import AGENT_KINDS
    from interpreter.batch.balance import summarize
    from interpreter.batch.findings import compare_runs, confounds, warnings, what_wins
    from interpreter.batch.game_facts import describe_records, report_spec
    from interpreter.present.phrases import say

    lang = getattr(args, "report_lang", None) or game.content.vocabulary.languages[0]
    spec = report_spec(game)
    ids = set()
    for _, _, records, _ in results:
        for r in records:
            for seat_cards in r.get("played", ()):
                ids.update(seat_cards)
            for values in r.get("per_player", {}).values():
                for seat_values in values:
                    ids.update(v for v in seat_values if isinstance(v, str))  # numbers need no name
            for seat_values in r.get("strata", ()):
                ids.update(seat_values)
    described = describe_records(game, ids, lang, spec.playable_by[0] if spec.playable_by else None)
    words = game.content.translations
    # values that are not components (a house, an enum value) and the labels read as words of the game
    names = {v: words.word(lang, v) for v in ids | set(described.groups.values()) if v not in described.names}
    names.update(described.names)
    labels = {label: words.word(lang, label) for label, _, _ in spec.per_player}
    matters = dict(spec.matters_in)
    agents = Batch(args.game, players, 1, 0, (), getattr(args, "agent_kinds", ("random",))).seat_agents()
    circular = {"per_player": sorted(spec.score_labels),
                "cards": sorted(rid for rid, kind in described.kinds.items() if kind in spec.score_kinds)}
    runs = []
    for label, variants, records, seconds in results:
        stats = summarize(records, players, names, described.numbers, described.groups,
                          tuple(k for k, vs in matters.items() if not set(vs) & set(variants)), circular)
        found = confounds(records, players, names)
        runs.append({"label": label, "variants": list(variants), "seconds": round(seconds, 3), "stats": stats,
                     "confounds": found, "what_wins": what_wins(stats, found), "warnings": warnings(stats, spec.victories)})
    report = {
        "game": game.content.id,
        "name": text_in(game.content.manifest.get("name", game.content.id), lang),
        "lang": lang,
        "players": players,
        "seats": [say(lang, "player", n=i + 1) for i in range(players)],
        "games": args.games,
        "seed": args.seed,
        "agents": agents,
        "agent_args": dict(getattr(args, "agent_options", ())),
        "labels": labels,
        "length_labels": {label: _local(text, lang) if text else words.word(lang, label) for label, _, text in spec.length},
        "endings": [_local(text, lang) for _, text in spec.ends],
        "victories": list(spec.victories),
        "part_of_score": {"per_player": sorted(spec.score_labels), "kinds": sorted(spec.score_kinds),
                          "kind_names": [words.word(lang, k) for k in sorted(spec.score_kinds)]},
        "skilled_agents": [k for k in AGENT_KINDS if k not in ("random", "human")],
        "runs": runs,
        **(extra or {}),
    }
    if len(runs) > 1:
        report["comparison"] = compare_runs(runs[0]["stats"], runs[1]["stats"])
    return report


def _local(text, lang: str) -> str:
    """A text of the manifest in one language (a map of languages, or one text)."""
    if isinstance(text, dict):
        return str(text.get(lang) or next(iter(text.values()), ""))
    from dsl.translations import text_in
    return text_in(text, lang)
