"""Writing a balance report: report.json (every statistic of interpreter.batch.balance) and report.html.

The HTML page is self-contained: its plots are PNG images drawn by matplotlib (the `report`
extra) and embedded as base64 data, its style is inline, and it loads nothing from anywhere.
With a comparison (`--compare VARIANT`) every plot and table shows both runs side by side.
"""
from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from dsl.inputs import io_error, write_file
from interpreter.batch.report_findings import caveat_html, comparison_html, findings_html, verdict_html, warnings_html

COLOURS = ["#1f77b4", "#ff7f0e"]  # the first run, the compared run
CARD_ROWS_PLOTTED = 25


def require_matplotlib() -> None:
    """Fail before any game is played when the plots cannot be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise DiagnosticError([Diagnostic("USAGE", "--report needs matplotlib for its plots, which is not installed",
                                          hint='install it with: pip install -e ".[report]"')]) from None


REPORT_FILES = ("report.json", "report.html")


def prepare_folder(folder: Path) -> None:
    """Before any game is played: the folder exists (or is made), and nothing in the way is a symbolic link,
    which in a shared folder another user could aim at the reader's own files."""
    if folder.is_symlink():
        raise DiagnosticError([Diagnostic("USAGE", f"the report folder {folder} is a symbolic link, which is not written through",
                                          hint="name a folder of your own")])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DiagnosticError([io_error("create the report folder", str(folder), err)]) from None
    if not folder.is_dir():
        raise DiagnosticError([Diagnostic("USAGE", f"{folder} is not a folder")])
    for name in REPORT_FILES:
        if (folder / name).is_symlink():
            raise DiagnosticError([Diagnostic("USAGE", f"{folder / name} is a symbolic link, which is not written through",
                                              hint="remove it, or name another folder")])


def write_report(folder: Path, report: dict) -> tuple:
    """Write report.json and report.html into `folder`, each as a new file renamed into place; returns their paths."""
    prepare_folder(folder)
    json_path, html_path = (folder / name for name in REPORT_FILES)
    import matplotlib
    with matplotlib.rc_context({"text.parse_math": False}):  # names from content are text, never TeX ("$\\frac{1}{$")
        page = render_html(report)
    try:
        write_file(json_path, json.dumps(report, ensure_ascii=False, indent=1) + "\n")
        write_file(html_path, page)
    except OSError as err:
        raise DiagnosticError([io_error("write the report in", str(folder), err)]) from None
    return json_path, html_path


# ---------------------------------------------------------------- plots
def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    _pyplot().close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _img(data: str, alt: str) -> str:
    return f'<img class="plot" alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def seat_axis(runs: list) -> tuple:
    """The wins-by-seat axis, scaled to the data: every bar's interval and the fair share inside, a margin
    around them (a 0-1 axis made 27 % against 23 % a few pixels)."""
    points = [runs[0]["stats"]["fair_share"]]
    for run in runs:
        for r in run["stats"]["wins_by_seat"]:
            points += [r["low"], r["high"]] + ([r["rate"]] if r["rate"] is not None else [])
    low, high = min(points), max(points)
    margin = max(0.02, 0.1 * (high - low))
    return max(0.0, low - margin), min(1.0, high + margin)


def plot_seats(runs: list, seats: list | None = None) -> str:
    plt = _pyplot()
    seats = seats or [s["seat"] for s in runs[0]["stats"]["wins_by_seat"]]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(runs)
    low, high = seat_axis(runs)
    for k, run in enumerate(runs):
        rows = run["stats"]["wins_by_seat"]
        xs = [i - 0.4 + width * (k + 0.5) for i in range(len(rows))]
        rates = [r["rate"] or 0 for r in rows]
        errors = [[max(0.0, rate - r["low"]) for rate, r in zip(rates, rows)], [max(0.0, r["high"] - rate) for rate, r in zip(rates, rows)]]
        # bars start at the axis' foot, so that their heights compare; the intervals are drawn whole
        ax.bar(xs, [rate - low for rate in rates], width, bottom=low, yerr=errors, capsize=3, color=COLOURS[k], label=run["label"])
    ax.axhline(runs[0]["stats"]["fair_share"], color="#444444", linestyle="--", linewidth=1, label="1 / players")
    ax.set_xticks(range(len(seats)), seats)
    ax.set_ylabel("share of games won")
    ax.set_ylim(low, high)
    ax.legend(fontsize=8)
    return _img(_png(fig), "wins by seat with 95 % intervals")


def histogram_edges(runs: list, dists: list) -> list | None:
    """One set of bin edges for the runs' distributions of whole numbers: one integer per bin, or a whole
    number of integers per bin past balance.MAX_BINS (balance.integer_bins)."""
    from interpreter.batch.balance import integer_bins
    if not all("bin_edges" in d for d in dists):
        return None
    low = min(d["min"] for d in dists)
    high = max(d["max"] for d in dists)
    return integer_bins(low, high, True)["bin_edges"]


def plot_counts(runs: list, key: str, xlabel: str, alt: str, label: str | None = None) -> str | None:
    """A histogram of a distribution's counts (scores, lengths), one outline per run."""
    series, dists = [], []
    for run in runs:
        dist = _dist(run, key, label)
        counts = dist.get("counts") if dist else None
        if counts:
            series.append((run, [float(v) for v in counts], list(counts.values())))
            dists.append(dist)
    if not series:
        return None
    plt = _pyplot()
    edges = histogram_edges(runs, dists)
    if edges is None:
        low = min(min(values) for _, values, _ in series)
        high = max(max(values) for _, values, _ in series)
        edges = 40 if high > low else 1
    fig, ax = plt.subplots(figsize=(7, 3.0))
    for k, (run, values, weights) in enumerate(series):
        total = sum(weights)
        ax.hist(values, bins=edges, weights=[w / total for w in weights],
                color=COLOURS[k], alpha=0.55 if len(series) > 1 else 0.9, label=run["label"])
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _img(_png(fig), alt)


def _dist(run: dict, key: str, label: str | None = None) -> dict | None:
    stats = run["stats"]
    if key == "length":
        return stats["length"]
    if key == "length_by":
        return stats.get("length_by", {}).get(label)
    if key == "per_player_numbers":
        return stats.get("per_player_numbers", {}).get(label, {}).get("all")
    return stats["scores"]["all"]


def plot_effects(runs: list, rows_of, label_of, title: str, alt: str, limit: int | None = None) -> str | None:
    """Horizontal bars: the effect on the win rate (with - without) of each row, with its interval."""
    first = rows_of(runs[0])[:limit] if limit else rows_of(runs[0])
    first = [r for r in first if r["effect"] is not None]
    if not first:
        return None
    keys = [label_of(r) for r in first]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.28 * len(keys) * len(runs)))
    height = 0.8 / len(runs)
    for k, run in enumerate(runs):
        by_key = {label_of(r): r for r in rows_of(run)}
        ys, values, low, high = [], [], [], []
        for i, key in enumerate(keys):
            r = by_key.get(key)
            if r is None or r["effect"] is None:
                continue
            ys.append(i - 0.4 + height * (k + 0.5))
            values.append(r["effect"])
            low.append(max(0.0, r["effect"] - r["low"]))
            high.append(max(0.0, r["high"] - r["effect"]))
        ax.barh(ys, values, height, xerr=[low, high], capsize=2, color=COLOURS[k], label=run["label"])
    ax.axvline(0, color="#444444", linewidth=1)
    ax.set_yticks(range(len(keys)), keys, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(title)
    if len(runs) > 1:
        ax.legend(fontsize=8)
    return _img(_png(fig), alt)


# ---------------------------------------------------------------- the page
STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; color: #222; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: right; }
th { background: #f3f3f3; } td.name { text-align: left; }
.plot { display: block; max-width: 100%; margin: 0.5em 0; }
.note { color: #555; font-size: 0.9em; }
.sig { font-weight: bold; }
.caveat { border-left: 4px solid #999; padding-left: 0.8em; }
.warning { border-left: 4px solid #c60; padding-left: 0.8em; background: #fff6ec; }
.verdict { font-weight: bold; }
"""


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def _ci(row: dict) -> str:
    return f"{_pct(row['rate'])} [{_pct(row['low'])}, {_pct(row['high'])}]" if row["n"] else "–"


def _effect(row: dict) -> str:
    if row["effect"] is None:
        return "–"
    text = f"{100 * row['effect']:+.1f} [{100 * row['low']:+.1f}, {100 * row['high']:+.1f}]"
    return f'<span class="sig">{text}</span>' if row["significant"] else text


def _num(x, digits: int = 1) -> str:
    return "–" if x is None else (f"{x:.{digits}f}" if isinstance(x, float) else str(x))


def _table(head: list, rows: list) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            cells.append(f'<td class="name">{cell}</td>' if i == 0 else f"<td>{cell}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _name(row: dict, key: str) -> str:
    shown = html.escape(str(row[key]))
    if row.get("name") and row["name"] != row[key]:
        shown += f" <span class=\"note\">({html.escape(str(row['name']))})</span>"
    return shown


def _shown(row: dict, key: str) -> str:
    """A row's value by its name in the report's language; one that is part of the score says so."""
    circular = ' <span class="note">(part of the score: circular)</span>' if row.get("circular") else ""
    return html.escape(str(row.get("name") or row[key])) + circular


def _agents(report: dict) -> str:
    agents = report.get("agents") or "random"
    if isinstance(agents, list):
        seats = report.get("seats") or [f"P{i + 1}" for i in range(len(agents))]
        agents = ", ".join(f"{seat} {kind}" for seat, kind in zip(seats, agents))
    settings = report.get("agent_args") or {}
    return agents + (f" ({', '.join(f'{k}={v}' for k, v in settings.items())})" if settings else "")


def _comparisons(runs: list) -> int:
    return max((r["stats"].get("correction", {}).get("comparisons", 0) for r in runs), default=0)


def _attributes(row: dict) -> str:
    return html.escape(", ".join(f"{k} {v}" for k, v in (row.get("attributes") or {}).items()))


def render_html(report: dict) -> str:
    runs = report["runs"]
    esc = html.escape
    parts = [f"<!DOCTYPE html><html lang=\"{esc(report.get('lang') or 'en')}\"><head><meta charset=\"utf-8\"><title>Balance report: {esc(report['name'])}</title>",
             f"<style>{STYLE}</style></head><body>",
             f"<h1>Balance report: {esc(report['name'])}</h1>",
             f"<p>{report['players']} players, {report['games']} games per run (seeds {report['seed']} to "
             f"{report['seed'] + report['games'] - 1}). Agents: {esc(_agents(report))}. Intervals are 95 %: Wilson's for a share, "
             "Newcombe's for a difference of two shares. A difference in bold is significant after Holm's correction "
             f"for the {_comparisons(runs)} comparisons of a run (family-wise error rate 5 %; p-values from the two-proportion "
             "z-test); the intervals themselves are not widened. A card is compared only among the players who could have "
             "played it, a component only within the games that had it in play; a seat's share of wins is tested "
             "against the fair share. Games that stopped on an error are left out.</p>",
             caveat_html(report), warnings_html(report)]
    parts.append(_table(["run", "variants", "games", "errors", "shared victories", "no winner", "mean decisions"],
                        [[esc(r["label"]), esc(", ".join(r["variants"]) or "none"), r["stats"]["games"], r["stats"]["errors"],
                          r["stats"]["shared_victories"], r["stats"]["no_winner"], _num(r["stats"]["length"].get("mean"))]
                         for r in runs]))
    for r in runs:
        for e in r["stats"]["first_errors"]:
            parts.append(f"<pre>{esc(r['label'])}, seed {e['seed']}:\n{esc(e['error'])}</pre>")

    if report.get("ladder"):
        parts.append(_ladder_section(report["ladder"]))
    parts.append(verdict_html(report))
    for r in runs:
        parts.append(findings_html(report, r, _table))
    seats = report.get("seats") or [s["seat"] for s in runs[0]["stats"]["wins_by_seat"]]
    parts.append("<h2>Wins by seat</h2>")
    parts.append(plot_seats(runs, seats))
    fixed = [(label, found) for label, found in (runs[0].get("confounds") or {}).items() if found["fixed_by_seat"]]
    labels = report.get("labels") or {}
    parts.append(_table(["seat"] + [f"{labels.get(label, label)} (always)" for label, _ in fixed] +
                        [f"won ({r['label']})" for r in runs],
                        [[esc(seats[i])] + [esc(", ".join(found["by_seat_names"][i])) for _, found in fixed] +
                         [_ci(r["stats"]["wins_by_seat"][i]) for r in runs]
                         for i, s in enumerate(runs[0]["stats"]["wins_by_seat"])]))

    scores = plot_counts(runs, "scores", "final score", "distribution of final scores")
    if scores:
        parts.append("<h2>Scores</h2>")
        parts.append(scores)
        head = ["seat"] + [f"mean ± sd ({r['label']})" for r in runs]
        rows = []
        for i, s in enumerate(runs[0]["stats"]["scores"]["by_seat"]):
            rows.append([esc(seats[i])] + [_spread(r["stats"]["scores"]["by_seat"][i]) for r in runs])
        rows.append(["winner"] + [_spread(r["stats"]["scores"]["winning"]) for r in runs])
        parts.append(_table(head, rows))

    parts.append("<h2>Game length</h2>")
    parts.append(plot_counts(runs, "length", "decisions per game", "distribution of game lengths") or "")
    parts.append(_table(["run", "mean", "min", "10 %", "median", "90 %", "max"],
                        [[esc(r["label"])] + [_num(r["stats"]["length"].get(k)) for k in ("mean", "min", "p10", "median", "p90", "max")]
                         for r in runs]))

    for label, shown in (report.get("length_labels") or {}).items():
        alike = _one_value(runs, label)
        parts.append(f"<p>Every game lasted {esc(alike)} {esc(shown)}: no plot.</p>" if alike is not None else
                     plot_counts(runs, "length_by", shown, f"distribution of game lengths in {shown}", label) or "")
        parts.append(_table([shown, "mean", "min", "10 %", "median", "90 %", "max"],
                            [[esc(r["label"])] + [_num(r["stats"].get("length_by", {}).get(label, {}).get(k))
                                                  for k in ("mean", "min", "p10", "median", "p90", "max")] for r in runs]))
    if report.get("endings"):
        parts.append("<h2>How the games ended</h2>")
        endings = report["endings"]
        rows = []
        for i, text in [*enumerate(endings), (None, "none of these")]:
            cells = [esc(text)]
            for r in runs:
                found = next((e for e in r["stats"].get("endings", []) if e["ending"] == i), None)
                cells.append(_ci(found) if found else "–")
            if i is not None or any(c != "–" for c in cells[1:]):
                rows.append(cells)
        parts.append(_table(["ended"] + [f"games ({r['label']})" for r in runs], rows))

    for label in runs[0]["stats"]["per_player"]:
        parts.append(_per_player_section(runs, label, (report.get("labels") or {}).get(label, label)))
    for label in runs[0]["stats"].get("per_player_numbers", {}):
        parts.append(_numbers_section(runs, label, (report.get("labels") or {}).get(label, label)))
    if runs[0]["stats"]["cards"]:
        parts.append(_cards_section(runs))
    parts.append(comparison_html(report, _table))
    parts.append("</body></html>\n")
    return "\n".join(p for p in parts if p)


def _one_value(runs: list, label: str) -> str | None:
    """The one value every game of every run had for this length (all AGoT games end after round 10), else None."""
    counts = [r["stats"].get("length_by", {}).get(label, {}).get("counts") or {} for r in runs]
    values = {v for c in counts for v in c}
    return next(iter(values)) if len(values) == 1 else None


def _numbers_section(runs: list, label: str, shown: str) -> str:
    """A per-player value that is a number: its spread, and the winners' mean against the other players'."""
    esc = html.escape
    head = ["run", "mean ± sd", "10 %", "median", "90 %", "winners' mean", "others' mean", "winners − others", "p (Holm)"]
    rows = []
    for r in runs:
        x = r["stats"]["per_player_numbers"].get(label)
        if x is None:
            continue
        text = "–" if x["effect"] is None else f"{x['effect']:+.2f} [{x['low']:+.2f}, {x['high']:+.2f}]"
        rows.append([esc(r["label"]), _spread(x["all"]), _num(x["all"].get("p10")), _num(x["all"].get("median")),
                     _num(x["all"].get("p90")), _num(x["winners"].get("mean"), 2), _num(x["others"].get("mean"), 2),
                     f'<span class="sig">{text}</span>' if x["significant"] else text,
                     _num(x.get("p_adjusted"), 4)])
    circular = runs[0]["stats"]["per_player_numbers"][label].get("circular")
    return "\n".join([f"<h2>Per player: {esc(shown)}</h2>",
                      "<p class=\"note\">A number each player had at the end of the game: its spread over the players, "
                      "and the winners' mean against the other players' (Welch's 95 % interval and t-test)"
                      + (": part of the score, so circular" if circular else "") + ".</p>",
                      plot_counts(runs, "per_player_numbers", shown, f"distribution of {shown}", label) or "",
                      _table(head, rows)])


def _ladder_section(ladder: dict) -> str:
    """`rules ladder --report`: the agents' ratings (interpreter.batch.ladder), strongest first."""
    rows = [[html.escape(r["agent"]), _num(r["elo"], 0), f"[{_num(r['low'], 0)}, {_num(r['high'], 0)}]", r["seats"],
             f"{_pct(r['win_share']['rate'])} [{_pct(r['win_share']['low'])}, {_pct(r['win_share']['high'])}]",
             _pct(r["fair_wins"] / r["seats"]) if r["seats"] else "–", _num(r.get("cpu_seconds_per_game"), 2)]
            for r in ladder["ratings"]]
    return "\n".join([f"<h2>Ladder</h2><p class=\"note\">{html.escape(ladder['method'])}; {ladder['lineups']} seatings in turn. "
                      "The wins by seat and every figure below come from these games, played by the agents rated here.</p>",
                      _table(["agent", "Elo", "95 % interval", "games", "won", "fair share", "CPU s per game"], rows)])


def _union(runs: list, rows_of, key: str) -> list:
    """The first run's rows in its order, then those only a compared run has (a variant's own cards)."""
    rows = list(rows_of(runs[0]))
    seen = {row[key] for row in rows}
    for run in runs[1:]:
        for row in rows_of(run):
            if row[key] not in seen:
                seen.add(row[key])
                rows.append(row)
    return rows


def _spread(d: dict) -> str:
    return "–" if not d.get("n") else f"{d['mean']:.1f} ± {d['stdev']:.1f}"


def _per_player_section(runs: list, label: str, shown: str) -> str:
    esc = html.escape
    rows_of = lambda run: run["stats"]["per_player"].get(label, [])  # noqa: E731
    parts = [f"<h2>Per player: {esc(shown)}</h2>",
             "<p class=\"note\">The players who had each value at the end of the game: how often, their win rate "
             "against the other players' (in the games that had it in play), and their mean score.</p>"]
    plot = plot_effects(runs, rows_of, lambda r: str(r.get("name") or r["value"]), "win rate with it - without it",
                        f"{shown}: effect on winning")
    parts.append(plot or "")
    head = [shown, "attributes"]
    for r in runs:
        head += [f"share ({r['label']})", f"won with ({r['label']})", f"won without ({r['label']})",
                 f"effect, points ({r['label']})", f"mean score ({r['label']})"]
    rows = []
    others = [{row["value"]: row for row in rows_of(r)} for r in runs]
    for row in _union(runs, rows_of, "value"):
        cells = [_shown(row, "value"), _attributes(row)]
        for table in others:
            x = table.get(row["value"])
            cells += ["–"] * 5 if x is None else [_pct(x["share"]), _ci(x["with"]), _ci(x["without"]), _effect(x), _num(x.get("mean_score"))]
        rows.append(cells)
    parts.append(_table(head, rows))
    return "\n".join(parts)


def _cards_section(runs: list) -> str:
    esc = html.escape
    rows_of = lambda run: run["stats"]["cards"]  # noqa: E731
    parts = ["<h2>Cards</h2>",
             "<p class=\"note\">For every card: the share of the players who could have played it who did, and the win "
             "rate of those players against the others who could have (a card of a group, such as a house, only among "
             "the players of that group); sorted by the size of the difference. The plot shows the "
             f"{CARD_ROWS_PLOTTED} largest.</p>"]
    parts.append(plot_effects(runs, rows_of, lambda r: str(r.get("name") or r["card"]), "win rate played - not played",
                              "cards: effect on winning", CARD_ROWS_PLOTTED) or "")
    head = ["card", "compared among", "attributes"]
    for r in runs:
        head += [f"played ({r['label']})", f"won when played ({r['label']})", f"won when not ({r['label']})",
                 f"effect, points ({r['label']})"]
    others = [{row["card"]: row for row in rows_of(r)} for r in runs]
    rows = []
    for row in _union(runs, rows_of, "card"):
        cells = [_shown(row, "card"), esc(str(row.get("stratum_name") or "all players")), _attributes(row)]
        for table in others:
            x = table.get(row["card"])
            cells += ["–"] * 4 if x is None else [_pct(x["share"]), _ci(x["with"]), _ci(x["without"]), _effect(x)]
        rows.append(cells)
    parts.append(_table(head, rows))
    return "\n".join(parts)
