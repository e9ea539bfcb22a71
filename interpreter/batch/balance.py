"""Balance statistics of a batch of game records (interpreter.batch.simulation), computed here and only here.

The unit is the player-game: one player in one game (a game of 4 players is 4 player-games).
A player-game is won when its seat is among the game's winners (a shared victory is a win for
each). Games that stopped on an error are counted as errors and left out of every statistic.

- wins by seat: the share of games each seat won, with a 95 % Wilson score interval;
- scores and lengths (decisions per game): counts of each value, mean, spread and quantiles;
- cards: per card record, the share of player-games in which the player played it (see
  interpreter.batch.game_facts for what "played" means), and the win rate of the player-games that
  played it against those that did not; the effect is the difference of the two, with Newcombe's
  interval for a difference of proportions (from the two Wilson intervals); sorted by the size
  of the effect, largest first;
- per-player values (a faction, a ruler, the titles held at the end): the same comparison for
  every value, with the holders' mean score.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter

Z95 = 1.959963984540054  # the normal quantile of 0.975


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
    }


def summarize(records: list, players: int, names: dict | None = None, numbers: dict | None = None) -> dict:
    """Every statistic of one batch. `names`/`numbers`: record id -> display name / numeric attributes."""
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
        seats.append({"seat": f"P{seat + 1}", **proportion(won, n)})
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
    out["cards"] = _cards(ok, players, names, numbers) if any("played" in r for r in ok) else []
    out["per_player"] = _per_player(ok, players, names, numbers)
    return out


def _brief(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "counts"}


def _player_games(ok: list, players: int):
    """(record, seat, won) for every player-game."""
    for r in ok:
        winners = set(r["winners"])
        for seat in range(players):
            yield r, seat, seat in winners


def _compare(groups: dict, total_wins: int, total: int, names: dict, numbers: dict, key: str, scores: dict | None = None) -> list:
    """groups: value -> (player-games holding it, wins among them); one row per value, largest effect first."""
    rows = []
    for value, (held, wins) in groups.items():
        with_it = proportion(wins, held)
        without = proportion(total_wins - wins, total - held)
        row = {key: value, "name": names.get(value, value), "player_games": held, "share": held / total if total else None,
               "share_low": wilson(held, total)[0], "share_high": wilson(held, total)[1],
               "with": with_it, "without": without, **difference(with_it, without)}
        if value in numbers:
            row["attributes"] = numbers[value]
        if scores is not None:
            row["mean_score"] = statistics.fmean(scores[value]) if scores.get(value) else None
        rows.append(row)
    rows.sort(key=lambda row: (-(abs(row["effect"]) if row["effect"] is not None else -1), str(row[key])))
    return rows


def _cards(ok: list, players: int, names: dict, numbers: dict) -> list:
    groups: dict = {}
    total_wins = total = 0
    for r, seat, won in _player_games(ok, players):
        total += 1
        total_wins += won
        for card in set(r.get("played", [[]] * players)[seat]):
            held, wins = groups.get(card, (0, 0))
            groups[card] = (held + 1, wins + won)
    return _compare(groups, total_wins, total, names, numbers, "card")


def _per_player(ok: list, players: int, names: dict, numbers: dict) -> dict:
    labels = []
    for r in ok:
        for label in r.get("per_player", {}):
            if label not in labels:
                labels.append(label)
    out = {}
    for label in labels:
        groups: dict = {}
        scores: dict = {}
        total_wins = total = 0
        for r, seat, won in _player_games(ok, players):
            total += 1
            total_wins += won
            for value in set(r["per_player"][label][seat]):
                held, wins = groups.get(value, (0, 0))
                groups[value] = (held + 1, wins + won)
                if r["scores"] and isinstance(r["scores"][seat], (int, float)):
                    scores.setdefault(value, []).append(r["scores"][seat])
        out[label] = _compare(groups, total_wins, total, names, numbers, "value", scores)
    return out
