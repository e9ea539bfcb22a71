"""One chunk of a batch, wherever it runs (this process, a worker process, a Ray task): game i of a
batch is played with seed `seed + i` (`seed + i // deal_every` when deals repeat) by agents (random ones by default) seeded from that seed alone, so its record is
the same whichever process or machine plays it."""
from __future__ import annotations

import gc
import math
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass

from dsl.diagnostics import DiagnosticError

GAMES_PER_WORKER = 10  # by default, no more workers than one per this many games
# Net new container objects before the collector runs within a game, while a batch plays: more than a random game
# leaves (AGoT about 21,000, King's Bounty and B'Twixt under 5,000), so such a game runs without a collection, while
# a search agent's dropped copies are still collected every this many objects (memory stays bounded).
GAME_THRESHOLD = 50_000


@dataclass(frozen=True)
class Batch:
    game: str  # a game name under content/ or a path to a game folder
    players: int
    games: int
    seed: int = 0
    variants: tuple = ()
    agents: tuple = ("random",)  # one kind per seat (the last repeats), as `rules play --agents`
    agent_args: tuple = ()  # (key, value) settings of the search agents
    # a ladder's seatings: game i seats lineups[i % len(lineups)] (one agent per seat) instead of `agents`
    lineups: tuple = ()
    timed: bool = False  # record each seat's CPU seconds spent deciding (benches: games per CPU-minute)
    # games dealt alike: game i is dealt seed + i // deal_every (a bench plays each deal once per seat, so that
    # the luck of a deal falls on every agent alike)
    deal_every: int = 1

    def seat_agents(self, index: int = 0) -> list:
        if self.lineups:
            return list(self.lineups[index % len(self.lineups)])
        kinds = list(self.agents) or ["random"]
        return (kinds + [kinds[-1]] * self.players)[:self.players]


def default_workers(games: int) -> int:
    """Every core, but no more than one worker per GAMES_PER_WORKER games (a process costs more than a few games)."""
    return max(1, min(os.cpu_count() or 1, games // GAMES_PER_WORKER))


def play_game(game, batch: Batch, index: int, spec=None) -> dict:
    """Play game `index` of the batch; its record for the report (an error is recorded, not raised)."""
    from interpreter.agents.players import make_agent
    from interpreter.batch.game_facts import count_calls, game_end_facts, per_player_values, track_played
    from interpreter.runtime.session import Session

    seed = batch.seed + index // batch.deal_every
    record = {"index": index, "seed": seed, "players": batch.players}
    session = None
    try:
        session = Session(game, batch.players, seed, batch.variants, start=False)  # labels built, as in play
        played = track_played(session, spec) if spec is not None else None
        if spec is not None:
            count_calls(session, spec)
        kinds = batch.seat_agents(index)
        if batch.lineups:
            record["agents"] = kinds
        agents = [make_agent(kind, seat, seed, dict(batch.agent_args)) for seat, kind in enumerate(kinds)]
        for agent in agents:
            if hasattr(agent, "attach"):  # a search agent follows the game's answers
                agent.attach(session)
        session.call(game.content.manifest["start"])
        if batch.timed:
            record["cpu"], record["asked"] = _timed(session, agents)
        while session.pending is not None:
            d = session.pending
            session.answer(agents[d.player if d.player is not None else 0].decide(d, None))
        result = session.result
        session.labels  # noqa: B018 - the answers' labels made (when read) as play makes them: one that fails, fails here
        record.update(winners=list(result.winners), scores=list(result.scores), decisions=len(session.history))
        if spec is not None:
            record["played"] = played
            record["per_player"] = per_player_values(session, spec)
            record.update(game_end_facts(session, spec))
        record["error"] = None
    except DiagnosticError as err:
        record.update(winners=[], scores=[], decisions=len(session.history) if session else 0,
                      error=err.diagnostics[0].render())
    return record


def _timed(session, agents: list) -> tuple:
    """Play the game to its end timing each seat's decisions: (CPU seconds per seat, [seat, seconds] of each
    decision of more than one option), for benches (games per CPU-minute, what a person waits per bot move)."""
    cpu, asked = [0.0] * len(agents), []
    clock = time.process_time
    while session.pending is not None:
        d = session.pending
        seat = d.player if d.player is not None else 0
        start = clock()
        answer = agents[seat].decide(d, None)
        spent = clock() - start
        cpu[seat] += spent
        if len(d.values) > 1:
            asked.append([seat, round(spent, 4)])
        session.answer(answer)
    return [round(c, 6) for c in cpu], asked


# ---------------------------------------------------------------- one chunk, wherever it runs
_loaded: dict = {}  # (game, with_spec) -> (compiled game, report spec), once per process


def prepare(game_ref: str, with_spec: bool):
    key = (game_ref, with_spec)
    if key not in _loaded:
        from interpreter.batch.game_facts import report_spec
        from interpreter.runtime.games import load_compiled
        game = load_compiled(game_ref)
        _loaded[key] = (game, report_spec(game) if with_spec else None)
    return _loaded[key]


@contextmanager
def batch_collector():
    """The cyclic garbage collector's policy while a batch plays; yields the call to make after each game.

    A finished game is cyclic garbage (a component and the zone it lies in name each other), and CPython's
    default collector would also go over the loaded game's hundreds of thousands of objects again and again.
    So: what is alive now (the compiled game) is frozen out of the collector's sight; within a game the young
    generation waits for GAME_THRESHOLD new objects instead of 700; after each game it is collected, which
    frees that game (one pass over it). The settings are put back at the end (a freeze made by someone else
    is left alone). Records and logs do not depend on it: only when memory is freed.
    """
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(GAME_THRESHOLD, *threshold[1:])
    try:
        yield lambda: gc.collect(0)
    finally:
        gc.set_threshold(*threshold)
        if freeze:
            gc.unfreeze()


def run_chunk(batch: Batch, indices: list, with_spec: bool) -> list:
    game, spec = prepare(batch.game, with_spec)
    records = []
    with batch_collector() as game_over:
        for i in indices:
            records.append(play_game(game, batch, i, spec))
            game_over()
    return records


def run_chunk_args(args):
    return run_chunk(*args)


def chunks(games: int, workers: int) -> list:
    """Index ranges small enough to balance the load and show progress, large enough to cost little to send."""
    size = max(1, min(50, math.ceil(games / (workers * 8))))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]
