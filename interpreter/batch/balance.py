"""Balance statistics of a batch of game records (interpreter.batch.simulation), computed here and only here.

The unit is the player-game: one player in one game (a game of 4 players is 4 player-games).
A player-game is won when its seat is among the game's winners (a shared victory is a win for
each). Games that stopped on an error are counted as errors and left out of every statistic.

- wins by seat: the share of games each seat won, with a 95 % Wilson score interval;
- scores and lengths (decisions per game): counts of each value, mean, spread and quantiles;
- cards: per card record, the share of player-games in which the player played it (see
  interpreter.batch.game_facts for what "played" means), and the win rate of the player-games that
  played it against those that could have played it and did not: a card of a group (the manifest's
  `playable_by`, a House card of its house) only among the players of that group; the effect is the
  difference of the two, with Newcombe's interval for a difference of proportions (from the two
  Wilson intervals); sorted by the size of the effect, largest first;
- per-player values (a faction, a ruler, the titles held at the end): the same comparison for
  every value, with the holders' mean score; a component is compared only within the games where
  it was in play (it left its starting zone), and a label whose values have no effect in the
  variants played (`matters_in`) is left out;
- a per-player value that is a number (power left, supply) is summarized as numbers: its distribution,
  and the winners' mean against the other players' with Welch's interval and t-test;
- each seat's win share is tested against the fair share (1 / players), with the z-test of one share;
- every comparison of a run is one family: each has a p-value (the two-proportion z-test, or Welch's
  t-test for a number) and Holm's step-down correction keeps the family-wise error rate at 5 %;
  "significant" means significant after that correction (the 95 % intervals themselves are not widened);
- figures the manifest declares part of the score (`part_of_score`: a title's points, an obelisk's) are
  marked `circular`: they say how the score is made, not what wins;
- length in rounds or turns (the manifest's `length`) and how games ended (its `ends`).

What a designer reads out of these (what wins, confounds, warnings, two runs compared) is
interpreter.batch.findings.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter

Z95 = 1.959963984540054  # the normal quantile of 0.975
ALPHA = 0.05  # the family-wise error rate Holm's correction keeps over a report's comparisons


def wilson(successes: int, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion: (low, high); (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def proportion(successes: int, n: int) -> dict:
    low, high = wilson(successes, n)
    return {"wins": successes, "n": n, "rate": successes / n if n else None, "low": low, "high": high}


def difference(a: dict, b: dict) -> dict:
    """a's rate minus b's, with Newcombe's hybrid score interval (his method 10)."""
    if not a["n"] or not b["n"]:
        return {"effect": None, "low": None, "high": None, "significant": False}
    p1, p2 = a["rate"], b["rate"]
    d = p1 - p2
    low = d - math.sqrt((p1 - a["low"]) ** 2 + (b["high"] - p2) ** 2)
    high = d + math.sqrt((a["high"] - p1) ** 2 + (p2 - b["low"]) ** 2)
    return {"effect": d, "low": low, "high": high, "significant": low > 0 or high < 0}


# ---------------------------------------------------------------- Student's t, for differences of means
def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom (the normal's when df is infinite)."""
    if math.isinf(df):
        return math.erfc(abs(t) / math.sqrt(2))
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, two_sided: float = ALPHA) -> float:
    """The t such that P(|T| >= t) = two_sided (1.96 for df infinite), by bisection."""
    if math.isinf(df):
        return Z95
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > two_sided:
        high *= 2
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if t_two_sided(mid, df) > two_sided else (low, mid)
    return (low + high) / 2


def mean_difference(a: dict, b: dict) -> dict:
    """b's mean minus a's (distributions: n, mean, stdev), with Welch's 95 % interval and t-test (p)."""
    if a.get("n", 0) < 2 or b.get("n", 0) < 2:
        return {"effect": None, "low": None, "high": None, "p": None}
    va, vb = a["stdev"] ** 2 / a["n"], b["stdev"] ** 2 / b["n"]
    d = b["mean"] - a["mean"]
    if va + vb == 0:  # both constant: the difference is known exactly
        return {"effect": d, "low": d, "high": d, "p": 1.0 if d == 0 else 0.0}
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va * va / (a["n"] - 1) if va else 0.0) + (vb * vb / (b["n"] - 1) if vb else 0.0))
    q = t_quantile(df)
    return {"effect": d, "low": d - q * se, "high": d + q * se, "p": t_two_sided(d / se, df)}


def share_against(row: dict, expected: float) -> float | None:
    """Two-sided p-value of a share against an expected one (the z-test of one share)."""
    if not row["n"] or not 0 < expected < 1:
        return None
    z = (row["wins"] - row["n"] * expected) / math.sqrt(row["n"] * expected * (1 - expected))
    return math.erfc(abs(z) / math.sqrt(2))


def distribution(values: list) -> dict:
    if not values:
        return {"n": 0, "counts": {}}
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=10, method="inclusive") if len(ordered) > 1 else [ordered[0]] * 9
    return {
        "n": len(ordered),
        "mean": statistics.fmean(ordered),
        "stdev": statistics.stdev(ordered) if len(ordered) > 1 else 0.0,
        "min": ordered[0],
        "p10": q[0],
        "median": statistics.median(ordered),
        "p90": q[8],
        "max": ordered[-1],
        "counts": {str(v): c for v, c in sorted(Counter(ordered).items())},
        **integer_bins(ordered[0], ordered[-1], all(float(v).is_integer() for v in ordered)),
    }


MAX_BINS = 80


def integer_bins(low, high, integers: bool) -> dict:
    """Bins for a histogram of whole numbers: one per integer, or (past MAX_BINS) a whole number of integers
    each, every bin centred on whole numbers so that no two bins share a value and none is left empty by
    the binning itself. Nothing for other numbers."""
    if not integers:
        return {}
    low, high = int(low), int(high)
    width = max(1, math.ceil((high - low + 1) / MAX_BINS))
    count = math.ceil((high - low + 1) / width)
    return {"bin_width": width, "bin_edges": [low - 0.5 + k * width for k in range(count + 1)]}


def summarize(records: list, players: int, names: dict | None = None, numbers: dict | None = None,
              groups: dict | None = None, skip: tuple = (), circular: dict | None = None) -> dict:
    """Every statistic of one batch. `names`/`numbers`: record id (or value) -> display name / numeric attributes;
    `groups`: card record -> the group of players who could play it; `skip`: per-player labels left out (values
    that have no effect in the variants played); `circular`: {"per_player": labels, "cards": record ids} that are
    part of the score (the manifest's `part_of_score`)."""
    names = names or {}
    numbers = numbers or {}
    ok = [r for r in records if not r.get("error")]
    errors = [r for r in records if r.get("error")]
    n = len(ok)
    out = {
        "games": len(records),
        "errors": len(errors),
        "first_errors": [{"seed": r["seed"], "error": r["error"]} for r in errors[:5]],
        "players": players,
        "fair_share": 1 / players,
    }
    seats = []
    for seat in range(players):
        won = sum(1 for r in ok if seat in r["winners"])
        row = {"seat": f"P{seat + 1}", **proportion(won, n)}
        row["p"] = share_against(row, 1 / players)  # against the fair share
        seats.append(row)
    out["wins_by_seat"] = seats
    out["shared_victories"] = sum(1 for r in ok if len(r["winners"]) > 1)
    out["no_winner"] = sum(1 for r in ok if not r["winners"])
    out["length"] = distribution([r["decisions"] for r in ok])
    scored = [r for r in ok if r["scores"] and all(isinstance(s, (int, float)) for s in r["scores"])]
    out["scores"] = {
        "all": distribution([s for r in scored for s in r["scores"]]),
        "by_seat": [{"seat": f"P{seat + 1}", **_brief(distribution([r["scores"][seat] for r in scored]))}
                    for seat in range(players)],
        "winning": distribution([max(r["scores"]) for r in scored]),
    }
    out["cards"] = _cards(ok, players, names, numbers, groups or {}) if any("played" in r for r in ok) else []
    numeric = _numeric_labels(ok, set(skip or ()))
    out["per_player"] = _per_player(ok, players, names, numbers, set(skip or ()) | set(numeric))
    out["per_player_numbers"] = {label: _numbers_of(ok, players, label) for label in numeric}
    circular = circular or {}
    for row in out["cards"]:
        row["circular"] = row["card"] in set(circular.get("cards") or ())
    for label, rows in out["per_player"].items():
        for row in rows:
            row["circular"] = label in set(circular.get("per_player") or ())
    for label, summary in out["per_player_numbers"].items():
        summary["circular"] = label in set(circular.get("per_player") or ())
    comparisons = seats + out["cards"] + [row for rows in out["per_player"].values() for row in rows] + \
        list(out["per_player_numbers"].values())
    out["correction"] = {"method": "Holm", "alpha": ALPHA, "comparisons": holm(comparisons)}
    labels = [label for r in ok for label in r.get("length_by", {})]
    out["length_by"] = {label: distribution([r["length_by"][label] for r in ok if label in r.get("length_by", {})])
                        for label in dict.fromkeys(labels)}
    if any("ending" in r for r in ok):
        ends = Counter(r.get("ending") for r in ok)
        out["endings"] = [{"ending": i, **proportion(k, n)} for i, k in sorted(ends.items(), key=lambda x: (x[0] is None, x[0] or 0))]
    return out


def _brief(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "counts"}


def _player_games(ok: list, players: int):
    """(record, seat, won) for every player-game."""
    for r in ok:
        winners = set(r["winners"])
        for seat in range(players):
            yield r, seat, seat in winners


def p_value(a: dict, b: dict) -> float | None:
    """Two-sided p-value of the difference of two shares (the two-proportion z-test, pooled)."""
    if not a["n"] or not b["n"]:
        return None
    pooled = (a["wins"] + b["wins"]) / (a["n"] + b["n"])
    se = math.sqrt(pooled * (1 - pooled) * (1 / a["n"] + 1 / b["n"]))
    if se == 0:
        return 1.0
    return math.erfc(abs(a["rate"] - b["rate"]) / se / math.sqrt(2))


def holm(rows: list, alpha: float = ALPHA) -> int:
    """Holm's step-down correction over these rows' p-values (a family of comparisons): each row's
    `p_adjusted`, and `significant` when it is below alpha. Returns the number of comparisons."""
    tested = sorted((r for r in rows if r.get("p") is not None), key=lambda r: r["p"])
    m = len(tested)
    running = 0.0
    for i, row in enumerate(tested):
        running = max(running, min(1.0, (m - i) * row["p"]))
        row["p_adjusted"] = running
        row["significant"] = running < alpha
    for row in rows:
        if row.get("p") is None:
            row["p_adjusted"], row["significant"] = None, False
    return m


def _compare(groups: dict, pools: dict, names: dict, numbers: dict, key: str, scores: dict | None = None,
             strata: dict | None = None) -> list:
    """groups: value -> (player-games holding it, wins among them); pools: value -> (player-games it is compared
    among, wins among them): those who could have had it. One row per value, largest effect first."""
    rows = []
    for value, (held, wins) in groups.items():
        total, total_wins = pools[value]
        with_it = proportion(wins, held)
        without = proportion(total_wins - wins, total - held)
        row = {key: value, "name": names.get(value, value), "player_games": held, "compared_among": total,
               "share": held / total if total else None,
               "share_low": wilson(held, total)[0], "share_high": wilson(held, total)[1],
               "with": with_it, "without": without, **difference(with_it, without), "p": p_value(with_it, without)}
        if strata and value in strata:
            row["stratum"] = strata[value]
            row["stratum_name"] = names.get(strata[value], strata[value])
        if value in numbers:
            row["attributes"] = numbers[value]
        if scores is not None:
            row["mean_score"] = statistics.fmean(scores[value]) if scores.get(value) else None
        rows.append(row)
    rows.sort(key=lambda row: (-(abs(row["effect"]) if row["effect"] is not None else -1), str(row[key])))
    return rows


def _cards(ok: list, players: int, names: dict, numbers: dict, groups_of: dict) -> list:
    """Each card against the player-games that could have played it: of its group (`playable_by`) when it has one."""
    groups: dict = {}
    everyone = [0, 0]
    by_stratum: dict = {}
    for r, seat, won in _player_games(ok, players):
        everyone[0] += 1
        everyone[1] += won
        for value in (r.get("strata") or [[]] * players)[seat]:
            pool = by_stratum.setdefault(value, [0, 0])
            pool[0] += 1
            pool[1] += won
        for card in set(r.get("played", [[]] * players)[seat]):
            held, wins = groups.get(card, (0, 0))
            groups[card] = (held + 1, wins + won)
    pools = {card: tuple(by_stratum.get(groups_of[card], (0, 0)) if card in groups_of else everyone) for card in groups}
    return _compare(groups, pools, names, numbers, "card", strata={c: g for c, g in groups_of.items() if c in groups})


def _per_player(ok: list, players: int, names: dict, numbers: dict, skip: set) -> dict:
    """Each value against the player-games of the games where it was in play (a component that never left its
    starting zone, such as a title not dealt, is compared only within the games that had it)."""
    labels = []
    for r in ok:
        for label in r.get("per_player", {}):
            if label not in labels and label not in skip:
                labels.append(label)
    in_play = [set(r.get("in_play") or ()) for r in ok]
    known = set().union(*in_play) if in_play else set()
    out = {}
    for label in labels:
        groups: dict = {}
        scores: dict = {}
        for r, seat, won in _player_games(ok, players):
            for value in set(r["per_player"][label][seat]):
                held, wins = groups.get(value, (0, 0))
                groups[value] = (held + 1, wins + won)
                if r["scores"] and isinstance(r["scores"][seat], (int, float)):
                    scores.setdefault(value, []).append(r["scores"][seat])
        pools = {}
        for value in groups:
            total = wins = 0
            for r, present in zip(ok, in_play):
                if value in known and value not in present:
                    continue  # a component this game did not have
                total += players
                wins += sum(1 for seat in range(players) if seat in r["winners"])
            pools[value] = (total, wins)
        out[label] = _compare(groups, pools, names, numbers, "value", scores)
    return out


def _numeric_labels(ok: list, skip: set) -> list:
    """The per-player labels whose every value is one number (power left, a track's position): summarized as
    numbers rather than a row per value."""
    out = []
    for label in dict.fromkeys(label for r in ok for label in r.get("per_player", {})):
        values = [v for r in ok for v in r["per_player"][label] if v]
        if label not in skip and values and all(len(v) == 1 and _is_number(v[0]) for v in values):
            out.append(label)
    return out


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _numbers_of(ok: list, players: int, label: str) -> dict:
    """A numeric per-player value: its distribution, the winners' and the others', and the winners' mean minus
    the others' with Welch's interval and t-test (p, in the run's family of comparisons)."""
    won, others = [], []
    for r, seat, w in _player_games(ok, players):
        value = r["per_player"][label][seat]
        if value:
            (won if w else others).append(value[0])
    every, winners, rest = distribution(won + others), distribution(won), distribution(others)
    return {"label": label, "all": every, "winners": _brief(winners), "others": _brief(rest),
            **mean_difference(rest, winners)}
