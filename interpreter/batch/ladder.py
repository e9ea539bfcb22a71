"""A ladder: agents rated against each other from games in which they sit at the same table, seats rotated.

Game i seats `lineups(agents, players)[i % n]` and is played with seed `seed + i` (the batch's rule), so
the records, and the ratings fitted to them, are the same whatever the number of workers or machines.

Each game is read as the pairwise results of its seats of different agents: a winner beats each loser,
two winners (a shared victory) draw, two losers tell nothing. Ratings are Bradley–Terry strengths fitted by
Hunter's MM algorithm, with one drawn game between every two agents as a prior (so that an agent that
won every comparison still has a finite rating), shown on the Elo scale (400 · log10 of the strength,
the agents' mean at 0). Intervals are 95 % percentile intervals of a bootstrap over the games (the
games resampled with replacement, the ratings fitted again), drawn from the ladder's seed.
"""
from __future__ import annotations

import itertools
import math
import random

from interpreter.batch.balance import wilson

BOOTSTRAP = 400  # resamples of the games for the intervals
ELO = 400 / math.log(10)  # Elo points per unit of log-strength


def lineups(agents: list, players: int) -> list[tuple]:
    """Seatings that give every agent every seat equally often over a cycle, and every agent every other
    as an opponent: with at least as many agents as seats, each combination of `players` of them in each
    of its rotations; with fewer, the agents in turn around the table (A B A B ...), in each rotation."""
    k = len(agents)
    if k >= players:
        bases = [list(c) for c in itertools.combinations(range(k), players)]
    else:
        bases = [[(r + s) % k for s in range(players)] for r in range(k)]
    out = []
    for base in bases:
        for turn in range(players):
            out.append(tuple(agents[base[(s + turn) % players]] for s in range(players)))
    return out


def comparisons(records: list) -> list[tuple]:
    """(agent a, agent b, a's points, games) of each game's pairs of seats of different agents where at
    least one won: 1 to the winner, half each for two winners."""
    out = []
    for r in records:
        if r.get("error") or not r.get("agents"):
            continue
        agents, winners = r["agents"], set(r["winners"])
        for i, j in itertools.combinations(range(len(agents)), 2):
            a, b = agents[i], agents[j]
            if a == b or (i not in winners and j not in winners):
                continue
            out.append((a, b, 1.0 if j not in winners else (0.0 if i not in winners else 0.5)))
    return out


def fit(names: list, results: list, iterations: int = 2000) -> dict:
    """Bradley–Terry strengths (as log-strengths, mean 0) of `names` from (a, b, a's points) results, with a
    drawn game between every two names as a prior (Hunter's MM updates)."""
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for a, b in itertools.combinations(range(k), 2):  # the prior: one drawn game each
        wins[a] += 0.5
        wins[b] += 0.5
        games[a][b] += 1
        games[b][a] += 1
    for a, b, points in results:
        i, j = index[a], index[b]
        wins[i] += points
        wins[j] += 1 - points
        games[i][j] += 1
        games[j][i] += 1
    strength = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            denominator = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i and games[i][j])
            new.append(wins[i] / denominator if denominator else strength[i])
        mean = sum(math.log(s) for s in new) / k
        new = [s / math.exp(mean) for s in new]
        done = max(abs(math.log(x / y)) for x, y in zip(new, strength)) < 1e-9
        strength = new
        if done:
            break
    return {n: math.log(strength[index[n]]) for n in names}


def ratings(names: list, records: list, seed: int = 0, bootstrap: int = BOOTSTRAP) -> list[dict]:
    """A row per agent, strongest first: its Elo rating with a 95 % bootstrap interval, its games, its points
    in the pairwise comparisons, its win share against the fair share (with Wilson's interval)."""
    played = [r for r in records if not r.get("error") and r.get("agents")]
    best = fit(names, comparisons(played))
    rng = random.Random(seed)
    draws = {n: [] for n in names}
    for _ in range(bootstrap if played else 0):
        sample = [played[rng.randrange(len(played))] for _ in played]
        for n, v in fit(names, comparisons(sample)).items():
            draws[n].append(v)
    rows = []
    for n in names:
        seats = [(r, s) for r in played for s, a in enumerate(r["agents"]) if a == n]
        won = sum(1.0 / len(r["winners"]) for r, s in seats if s in r["winners"])
        fair = sum(1.0 / len(r["agents"]) for r, _ in seats)
        points = [(p if a == n else 1 - p) for a, b, p in comparisons(played) if n in (a, b)]
        low, high = _percentiles(draws[n]) if draws[n] else (None, None)
        cpu = [c for r, s in seats for c in [r.get("cpu", [None] * (s + 1))[s]] if c is not None]
        rows.append({
            "agent": n, "elo": round(ELO * best[n], 1),
            "low": None if low is None else round(ELO * low, 1), "high": None if high is None else round(ELO * high, 1),
            "seats": len(seats), "comparisons": len(points), "points": round(sum(points), 1),
            "wins": round(won, 2), "fair_wins": round(fair, 2), "win_share": _share(won, len(seats)),
            "cpu_seconds_per_game": round(sum(cpu) / len(cpu), 3) if cpu else None,
        })
    rows.sort(key=lambda row: -row["elo"])
    return rows


def _share(won: float, n: int) -> dict:
    low, high = wilson(won, n)
    return {"rate": round(won / n, 4) if n else None, "low": round(low, 4), "high": round(high, 4)}


def _percentiles(values: list) -> tuple:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))]  # noqa: E731
    return at(0.025), at(0.975)
