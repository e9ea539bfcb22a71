"""What a designer reads out of a run's statistics (interpreter.batch.balance): what goes with winning, the
confounds the report can see, the warnings, and two runs compared figure by figure. Numbers only: the words
are interpreter.batch.report_findings'.

- confounds: a per-player value fixed by seat (each seat had the same house in every game) is one finding
  with the seat, not two; a figure the manifest declares part of the score (`part_of_score`) is circular;
- what wins: the figures that differ from chance after the run's Holm correction (seats against the fair
  share, cards, per-player values and numbers), circular ones left out and named;
- warnings: a way of winning declared in content (`ends: [{victory: true}]`) that no game reached, or that
  is rare beyond doubt (reached in under 5 % of games at the 95 % upper bound);
- comparison of a run with a variant against the run without it (the same seeds): per figure the variant's
  value minus the first run's, with a 95 % interval and a p-value, and Holm's correction over the figures:
  a share by Newcombe's interval and the two-proportion z-test; a mean by Welch's interval and t-test; an
  effect (win rate with - without) by the MOVER interval from the two runs' intervals (Newcombe's recipe
  for a difference of two estimates) and the z-test its width implies.
"""
from __future__ import annotations

import math

from interpreter.batch.balance import ALPHA, Z95, difference, holm, mean_difference, p_value, wilson


# ---------------------------------------------------------------- within a run
def confounds(records: list, players: int, names: dict | None = None) -> dict:
    """label -> {fixed_by_seat, by_seat: each seat's one value (when fixed), by_seat_names, values_by_seat: how
    many values each seat had}: a per-player value that each seat held alone in every game is confounded with
    the seat."""
    ok = [r for r in records if not r.get("error")]
    labels = list(dict.fromkeys(label for r in ok for label in r.get("per_player", {})))
    out = {}
    for label in labels:
        seen = [{tuple(r["per_player"][label][seat]) for r in ok if label in r.get("per_player", {})}
                for seat in range(players)]
        fixed = len(ok) > 1 and all(len(s) == 1 for s in seen) and len({next(iter(s)) for s in seen}) > 1
        by_seat = [list(next(iter(s))) for s in seen] if fixed else None
        out[label] = {"fixed_by_seat": fixed, "values_by_seat": [len(s) for s in seen], "by_seat": by_seat,
                      "by_seat_names": [[str((names or {}).get(v, v)) for v in vs] for vs in by_seat] if fixed else None}
    return out


def what_wins(stats: dict, found: dict, limit: int = 12) -> dict:
    """The figures that go with winning or losing after Holm's correction, largest effect first; a per-player
    value fixed by seat names its seat; circular figures are left out (and named)."""
    fair = stats["fair_share"]
    rows, circular = [], []
    for seat in stats["wins_by_seat"]:
        if seat["significant"]:
            rows.append({"figure": "seat", "key": seat["seat"], "effect": seat["rate"] - fair,
                         "low": seat["low"] - fair, "high": seat["high"] - fair, "p_adjusted": seat["p_adjusted"]})
    for row in stats["cards"]:
        _found(rows, circular, row, "card", row["card"])
    for label, values in stats["per_player"].items():
        fixed = found.get(label, {})
        for row in values:
            item = _found(rows, circular, row, "per_player", row["value"], label)
            if item is not None and fixed.get("fixed_by_seat"):
                item["seat"] = next(f"P{i + 1}" for i, v in enumerate(fixed["by_seat"]) if row["value"] in v)
    for label, summary in stats.get("per_player_numbers", {}).items():
        _found(rows, circular, summary, "number", label, label)
    rows.sort(key=lambda r: -abs(r["effect"]))
    return {"winning": [r for r in rows if r["effect"] > 0][:limit], "losing": [r for r in rows if r["effect"] < 0][:limit],
            "circular": circular}


def _found(rows: list, circular: list, row: dict, figure: str, key, label: str | None = None) -> dict | None:
    if not row.get("significant") or row.get("effect") is None:
        return None
    item = {"figure": figure, "key": key, "name": row.get("name", key), "effect": row["effect"], "low": row["low"],
            "high": row["high"], "p_adjusted": row["p_adjusted"]}
    if label is not None:
        item["label"] = label
    if row.get("circular"):
        circular.append(item)
        return None
    rows.append(item)
    return item


RARE = 0.05  # a way of winning whose 95 % upper bound is below this is warned about as rarely reached


def warnings(stats: dict, victories: tuple) -> list:
    """A way of winning that no game of the run reached, or that is rare beyond doubt (its 95 % upper bound
    under RARE): {kind, ending, games, wins, upper} (upper: the 95 % bound on how often it happens under these
    agents)."""
    out = []
    endings = {e["ending"]: e for e in stats.get("endings", [])}
    n = stats["games"] - stats["errors"]
    for i in victories:
        if not n:
            continue
        if i not in endings:
            out.append({"kind": "victory never reached", "ending": i, "games": n, "wins": 0, "upper": wilson(0, n)[1]})
        elif endings[i]["high"] < RARE:
            out.append({"kind": "victory rarely reached", "ending": i, "games": n, "wins": endings[i]["wins"],
                        "upper": endings[i]["high"]})
    return out


# ---------------------------------------------------------------- two runs
def compare_runs(a: dict, b: dict, seats: list | None = None) -> dict:
    """Every figure the two runs share: b's value minus a's with its interval and p-value, Holm's correction
    over them, the ones that differ first (by adjusted p), then the rest in the report's order."""
    seats = seats or [s["seat"] for s in a["wins_by_seat"]]
    rows = []
    for i, (x, y) in enumerate(zip(a["wins_by_seat"], b["wins_by_seat"])):
        rows.append(_shares("seat", seats[i], x, y))
    for key in ("shared_victories", "no_winner"):
        if a[key] or b[key]:
            rows.append(_shares(key, key, _count(a, a[key]), _count(b, b[key])))
    ends = {e["ending"] for run in (a, b) for e in run.get("endings", [])}
    for i in sorted(ends, key=lambda e: (e is None, e or 0)):
        rows.append(_shares("ending", i, _ending(a, i), _ending(b, i)))
    rows.append(_means("length", "decisions", a["length"], b["length"]))
    for label in a.get("length_by", {}):
        if label in b.get("length_by", {}):
            rows.append(_means("length_by", label, a["length_by"][label], b["length_by"][label]))
    if a["scores"]["all"].get("n") and b["scores"]["all"].get("n"):
        for i, (x, y) in enumerate(zip(a["scores"]["by_seat"], b["scores"]["by_seat"])):
            rows.append(_means("score", seats[i], x, y))
        rows.append(_means("winning_score", "winner", a["scores"]["winning"], b["scores"]["winning"]))
    for label, summary in a.get("per_player_numbers", {}).items():
        other = b.get("per_player_numbers", {}).get(label)
        if other is not None:
            rows.append(_means("number", label, summary["all"], other["all"]))
            rows.append(_effects("number_effect", label, summary, other, label))
    for label, values in a["per_player"].items():
        theirs = {row["value"]: row for row in b["per_player"].get(label, [])}
        for row in values:
            if row["value"] in theirs:
                rows.append(_effects("per_player", row["value"], row, theirs[row["value"]], label))
    theirs = {row["card"]: row for row in b["cards"]}
    for row in a["cards"]:
        if row["card"] in theirs:
            rows.append(_effects("card", row["card"], row, theirs[row["card"]]))
    rows = [r for r in rows if r is not None]
    m = holm(rows)
    differ = sorted((r for r in rows if r["significant"]), key=lambda r: (r["p_adjusted"], -abs(r["difference"] or 0)))
    return {"rows": differ + [r for r in rows if not r["significant"]],
            "correction": {"method": "Holm", "alpha": ALPHA, "comparisons": m},
            "differ": len(differ), "games": (a["games"] - a["errors"], b["games"] - b["errors"]),
            "detectable": _detectable(a, b)}


def _row(kind: str, key, first, second, found: dict, label: str | None = None, name=None) -> dict:
    row = {"figure": kind, "key": key, "first": first, "second": second, "difference": found["effect"],
           "low": found["low"], "high": found["high"], "p": found["p"]}
    if label is not None:
        row["label"] = label
    if name is not None:
        row["name"] = name
    return row


def _shares(kind: str, key, x: dict, y: dict) -> dict:
    return _row(kind, key, x["rate"], y["rate"], {**difference(y, x), "p": p_value(y, x)})


def _means(kind: str, key, x: dict, y: dict) -> dict | None:
    if not x.get("n") or not y.get("n"):
        return None
    return _row(kind, key, x["mean"], y["mean"], mean_difference(x, y))


def _effects(kind: str, key, x: dict, y: dict, label: str | None = None) -> dict | None:
    """The difference of two effects (b's minus a's), by the MOVER interval; p from the z its width implies."""
    if x.get("effect") is None or y.get("effect") is None:
        return None
    d = y["effect"] - x["effect"]
    low = d - math.sqrt((y["effect"] - y["low"]) ** 2 + (x["high"] - x["effect"]) ** 2)
    high = d + math.sqrt((y["high"] - y["effect"]) ** 2 + (x["effect"] - x["low"]) ** 2)
    se = (high - low) / (2 * Z95)
    p = math.erfc(abs(d) / se / math.sqrt(2)) if se > 0 else (1.0 if d == 0 else 0.0)
    return _row(kind, key, x["effect"], y["effect"], {"effect": d, "low": low, "high": high, "p": p}, label,
                y.get("name", x.get("name")))


def _count(stats: dict, k: int) -> dict:
    n = stats["games"] - stats["errors"]
    low, high = wilson(k, n)
    return {"wins": k, "n": n, "rate": k / n if n else None, "low": low, "high": high}


def _ending(stats: dict, i) -> dict:
    found = next((e for e in stats.get("endings", []) if e["ending"] == i), None)
    return found if found is not None else _count(stats, 0)


def _detectable(a: dict, b: dict) -> float | None:
    """About the smallest change of a seat's win share (from the fair share) that these runs would find half
    the time at the 5 % level: 1.96 standard errors of the difference (without the correction)."""
    n1, n2 = a["games"] - a["errors"], b["games"] - b["errors"]
    p = a["fair_share"]
    if not n1 or not n2:
        return None
    return Z95 * math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
