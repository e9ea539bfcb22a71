"""The report's findings in words (interpreter.batch.findings holds the numbers): the caveat on what random
play measures, the warnings, what goes with winning, the confounds, and the comparison of two runs with its
one-line verdict. Plain text for the command's summary, HTML for report.html (every name escaped)."""
from __future__ import annotations

import html

SHARES = {"seat", "shared_victories", "no_winner", "ending", "per_player", "card", "number_effect"}  # in points


def caveat(report: dict) -> str:
    """What the figures are: associations under the agents that played, never causes."""
    agents = report.get("agents") or ["random"]
    random_only = all(str(a).split(":")[0] == "random" for a in (agents if isinstance(agents, list) else [agents]))
    text = ("Every figure here is an association, not a cause: a card or a value that goes with winning may be held "
            "by players who were already ahead (a title goes to the leader), and a difference between seats or "
            "variants says what happened under these agents, not why.")
    if random_only:
        text += (" These games were played by random agents: they measure the rules under random play, which no "
                 "person plays; skilled agents (--agents) measure them under play that tries to win.")
    return text


def warning_lines(report: dict) -> list:
    out = []
    skilled = [k for k in report.get("skilled_agents") or () if k not in (report.get("agents") or ())]
    for run in report["runs"]:
        for w in run.get("warnings", ()):
            ending = report["endings"][w["ending"]]
            if w["kind"] == "victory never reached":
                line = f"{run['label']}: no game ended {ending} (0 of {w['games']} games; "
            elif w["kind"] == "victory rarely reached":
                line = f"{run['label']}: hardly any game ended {ending} ({w['wins']} of {w['games']} games; "
            else:
                continue
            line += (f"it happens in at most {100 * w['upper']:.1f} % of such games, 95 % bound). The figures "
                     f"describe games {'almost all ' if w['wins'] else ''}decided otherwise.")
            if skilled:
                line += (f" Agents that try to win may reach it ({', '.join(skilled)}): rules simulate {report['game']} "
                         f"--players {report['players']} --agents {skilled[-1]} --report DIR.")
            out.append(line)
    return out


# the words of each kind of compared figure: {seat} a seat's name, {label} a label's, {length} a length's words,
# {ending} how games ended, {name} a value's or card's name
FIGURES = {
    "seat": "wins of {seat}", "shared_victories": "games with a shared victory", "no_winner": "games without a winner",
    "ending": "games ended {ending}", "length": "mean decisions a game", "length_by": "mean {length} a game",
    "score": "mean score of {seat}", "winning_score": "mean winning score", "number": "mean {label}",
    "number_effect": "{label}: winners' mean − others'", "per_player": "{label} {name}: effect on winning",
    "card": "card {name}: effect on winning",
}


def figure_name(row: dict, report: dict) -> str:
    """A compared figure in the report's words."""
    key = row["key"]
    label = row.get("label", key)
    return FIGURES[row["figure"]].format(
        seat=_seat(report, key) if isinstance(key, str) else key,
        label=(report.get("labels") or {}).get(label, label),
        length=(report.get("length_labels") or {}).get(key, key),
        ending=report["endings"][key] if row["figure"] == "ending" and key is not None else "otherwise",
        name=row.get("name") or key)


def _seat(report: dict, key: str) -> str:
    seats = report.get("seats") or []
    i = int(key[1:]) - 1 if key[1:].isdigit() else -1
    return seats[i] if 0 <= i < len(seats) else key


def amount(row: dict, value: str = "difference") -> str:
    """A difference with its interval: shares and effects in percentage points, means as they are."""
    if row[value] is None:
        return "–"
    scale, unit = (100, " points") if row["figure"] in SHARES else (1, "")
    d, low, high = (scale * row[k] for k in (value, "low", "high"))
    return f"{d:+.1f}{unit} [{low:+.1f}, {high:+.1f}]"


def verdict(report: dict) -> str | None:
    """The comparison in one line: what differs (the three clearest, by adjusted p), or how large a change
    would have had to be to be seen."""
    found = report.get("comparison")
    if not found:
        return None
    variant = ", ".join(v for v in report["runs"][1]["variants"] if v not in report["runs"][0]["variants"])
    m, k = found["correction"]["comparisons"], found["differ"]
    frame = f"Holm's correction over {m} figures, family-wise error 5 %"
    if not k:
        games = min(found["games"])
        seen = found.get("detectable")
        return (f"With {variant}, no figure differs from the run without it ({frame}); with {games} games a run, a seat's "
                f"win share would have to move by about {100 * seen:.0f} points to be seen." if seen else
                f"With {variant}, no figure differs from the run without it ({frame}).")
    shown = "; ".join(f"{figure_name(r, report)} {amount(r)}" for r in found["rows"][:min(k, 3)])
    more = f"; and {k - 3} more" if k > 3 else ""
    return f"With {variant}, {k} of {m} figures {'differs' if k == 1 else 'differ'} ({frame}): {shown}{more}."


# ---------------------------------------------------------------- HTML
def caveat_html(report: dict) -> str:
    return f'<p class="caveat">{html.escape(caveat(report))}</p>'


def warnings_html(report: dict) -> str:
    lines = warning_lines(report)
    return "\n".join(f'<p class="warning">Warning: {html.escape(line)}</p>' for line in lines)


def verdict_html(report: dict) -> str:
    """The verdict near the top of the page; every figure compared is at the end (comparison_html)."""
    if not report.get("comparison"):
        return ""
    return (f'<h2>The variant against the run without it</h2><p class="verdict">{html.escape(verdict(report))}</p>'
            '<p class="note"><a href="#comparison">Every figure compared</a> is at the end of the page.</p>')


def comparison_html(report: dict, table) -> str:
    found = report.get("comparison")
    if not found:
        return ""
    esc = html.escape
    first, second = (esc(r["label"]) for r in report["runs"][:2])
    parts = ['<h2 id="comparison">Every figure compared</h2>',
             f'<p class="verdict">{esc(verdict(report))}</p>',
             f'<p class="note">For each figure, its value in each run and the difference ({second} − {first}) with its '
             "95 % interval: Newcombe's for a share, Welch's for a mean, and for an effect on winning the interval "
             "of a difference of two estimates built from the runs' own intervals (MOVER). p-values: the "
             "two-proportion z-test, Welch's t-test, the z-test of the difference of effects; adjusted by Holm's "
             f"correction over the {found['correction']['comparisons']} figures. Shares and effects are in percentage points. "
             "The same seeds are played in both runs; the runs are compared as independent samples, which is exact "
             "when the variant makes the games part ways and errs on the safe side (wider intervals) when it leaves "
             "them alike.</p>"]
    rows = []
    for r in found["rows"]:
        mark = (lambda s: f'<span class="sig">{s}</span>') if r["significant"] else (lambda s: s)
        rows.append([esc(figure_name(r, report)), _value(r, "first"), _value(r, "second"), mark(esc(amount(r))),
                     _p(r["p"]), mark(_p(r["p_adjusted"]))])
    parts.append(table(["figure", first, second, "difference [95 %]", "p", "p (Holm)"], rows))
    return "\n".join(parts)


def _value(row: dict, key: str) -> str:
    v = row[key]
    if v is None:
        return "–"
    if row["figure"] in ("seat", "shared_victories", "no_winner", "ending"):
        return f"{100 * v:.1f} %"
    if row["figure"] in SHARES:
        return f"{100 * v:+.1f}"
    return f"{v:.2f}"


def _p(p) -> str:
    return "–" if p is None else ("< 0.0001" if p < 1e-4 else f"{p:.4f}")


def findings_html(report: dict, run: dict, table) -> str:
    """What goes with winning in one run, and the confounds the report can see."""
    esc = html.escape
    wins = run.get("what_wins") or {}
    labels = report.get("labels") or {}
    parts = [f"<h2>What goes with winning ({esc(run['label'])})</h2>" if len(report["runs"]) > 1 else
             "<h2>What goes with winning</h2>",
             '<p class="note">The figures that differ from chance after Holm\'s correction: a seat against the fair '
             "share, and the win rate of the players with a card or a value against the others'. Associations, not "
             "causes (see above).</p>"]
    rows = []
    for side in ("winning", "losing"):
        for item in wins.get(side, ()):
            rows.append([esc(_finding(item, report)), esc(_points(item)), f"{item['p_adjusted']:.4f}"])
    parts.append(table(["goes with " + "winning or losing", "difference [95 %]", "p (Holm)"], rows) if rows else
                 '<p>Nothing differs from chance after the correction.</p>')
    notes = []
    for item in wins.get("circular", ()):
        notes.append(f"{_finding(item, report)} ({_points(item)}) is left out: it is part of the score, so it goes with "
                     "winning by definition.")
    for label, found in (run.get("confounds") or {}).items():
        shown = labels.get(label, label)
        if found["fixed_by_seat"]:
            pairs = ", ".join(f"{_seat(report, f'P{i + 1}')} {', '.join(v) or 'none'}" for i, v in enumerate(found["by_seat_names"]))
            notes.append(f"Seat and {shown} are fixed together ({pairs}): the wins by seat and the wins by {shown} are "
                         "one finding, and neither tells whether the seat or the " + shown + " makes the difference.")
        elif label in (run["stats"].get("per_player") or {}):
            low, high = min(found["values_by_seat"]), max(found["values_by_seat"])
            notes.append(f"Seat and {shown} are not confounded: each seat had "
                         f"{low if low == high else f'between {low} and {high}'} different values over the games, "
                         f"so the wins by seat and the wins by {shown} are two findings.")
    for label in (report.get("part_of_score") or {}).get("per_player", ()):
        notes.append(f"{labels.get(label, label)} is part of the score: its rows below are circular.")
    for kind in (report.get("part_of_score") or {}).get("kind_names", ()):
        notes.append(f"Cards of the kind {kind} are part of the score when played: their rows below are circular.")
    if notes:
        parts.append("<h3>Confounds</h3><ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
    return "\n".join(parts)


def _finding(item: dict, report: dict) -> str:
    labels = report.get("labels") or {}
    if item["figure"] == "seat":
        return f"seat {_seat(report, item['key'])}"
    if item["figure"] == "card":
        return f"card {item['name']}"
    if item["figure"] == "number":
        return f"{labels.get(item['key'], item['key'])} (winners' mean − others')"
    text = f"{labels.get(item['label'], item['label'])} {item['name']}"
    return text + (f" (always seat {_seat(report, item['seat'])})" if item.get("seat") else "")


def _points(item: dict) -> str:
    scale, unit = (1, "") if item["figure"] == "number" else (100, " points")
    return f"{scale * item['effect']:+.1f}{unit} [{scale * item['low']:+.1f}, {scale * item['high']:+.1f}]"
