"""Running a batch of random games: in this process, in worker processes, or on a Ray cluster.

Game i of a batch is played with seed `seed + i` by random agents seeded from that seed alone, so
its record is the same whichever process or machine plays it, and whatever the number of workers.
Each worker loads and compiles the game once, then plays chunks of game indices; the records come
back as plain dicts (pickled to processes, Ray's object store to a cluster) and are put back in
index order.
"""
from __future__ import annotations

import math
import multiprocessing
import os
from dataclasses import dataclass

from dsl.diagnostics import Diagnostic, DiagnosticError

GAMES_PER_WORKER = 10  # by default, no more workers than one per this many games


@dataclass(frozen=True)
class Batch:
    game: str  # a game name under content/ or a path to a game folder
    players: int
    games: int
    seed: int = 0
    variants: tuple = ()


def default_workers(games: int) -> int:
    """Every core, but no more than one worker per GAMES_PER_WORKER games (a process costs more than a few games)."""
    return max(1, min(os.cpu_count() or 1, games // GAMES_PER_WORKER))


def play_game(game, batch: Batch, index: int, spec=None) -> dict:
    """Play game `index` of the batch; its record for the report (an error is recorded, not raised)."""
    from interpreter.agents import make_agent
    from interpreter.game_facts import per_player_values, track_played
    from interpreter.runtime import Session

    seed = batch.seed + index
    record = {"index": index, "seed": seed, "players": batch.players}
    session = None
    try:
        session = Session(game, batch.players, seed, batch.variants, start=False)  # labels built, as in play
        played = track_played(session, spec) if spec is not None else None
        session.call(game.content.manifest["start"])
        agents = [make_agent("random", seat, seed) for seat in range(batch.players)]
        while session.pending is not None:
            d = session.pending
            session.answer(agents[d.player if d.player is not None else 0].decide(d, None))
        result = session.result
        record.update(winners=list(result.winners), scores=list(result.scores), decisions=len(session.history))
        if spec is not None:
            record["played"] = played
            record["per_player"] = per_player_values(session, spec)
        record["error"] = None
    except DiagnosticError as err:
        record.update(winners=[], scores=[], decisions=len(session.history) if session else 0,
                      error=err.diagnostics[0].render())
    return record


# ---------------------------------------------------------------- one chunk, wherever it runs
_loaded: dict = {}  # (game, with_spec) -> (compiled game, report spec), once per process


def _prepare(game_ref: str, with_spec: bool):
    key = (game_ref, with_spec)
    if key not in _loaded:
        from interpreter.game_facts import report_spec
        from interpreter.games import load_compiled
        game = load_compiled(game_ref)
        _loaded[key] = (game, report_spec(game) if with_spec else None)
    return _loaded[key]


def run_chunk(batch: Batch, indices: list, with_spec: bool) -> list:
    game, spec = _prepare(batch.game, with_spec)
    return [play_game(game, batch, i, spec) for i in indices]


def _run_chunk_args(args):
    return run_chunk(*args)


def chunks(games: int, workers: int) -> list:
    """Index ranges small enough to balance the load and show progress, large enough to cost little to send."""
    size = max(1, min(50, math.ceil(games / (workers * 8))))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


# ---------------------------------------------------------------- the batch
def run_batch(batch: Batch, workers: int | None = None, ray_address: str | None = None, with_spec: bool = False,
              on_records=None) -> list:
    """Every game's record, in index order. `on_records(list)` is called as chunks finish (for progress).

    ray_address: None (no Ray), "local" (start a local Ray with `workers` CPUs) or a cluster address.
    """
    if batch.games < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--games must be at least 1")])
    if workers is not None and workers < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--workers must be at least 1")])
    _prepare(batch.game, with_spec)  # content errors surface here, once, before any worker starts
    if ray_address is not None:
        from interpreter.simulation_ray import run_on_ray
        records = run_on_ray(batch, workers, ray_address, with_spec, on_records)
    else:
        workers = workers or default_workers(batch.games)
        parts = chunks(batch.games, workers)
        if workers == 1 or len(parts) == 1:
            records = []
            for part in parts:
                done = run_chunk(batch, part, with_spec)
                records.extend(done)
                if on_records:
                    on_records(done)
        else:
            records = _run_in_processes(batch, parts, min(workers, len(parts)), with_spec, on_records)
    records.sort(key=lambda r: r["index"])
    return records


def _run_in_processes(batch: Batch, parts: list, workers: int, with_spec: bool, on_records) -> list:
    # fork where there is one: the workers inherit the compiled game instead of compiling it again
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    records = []
    with context.Pool(workers) as pool:  # all the workers start here, before any progress thread
        for done in pool.imap_unordered(_run_chunk_args, [(batch, part, with_spec) for part in parts]):
            records.extend(done)
            if on_records:
                on_records(done)
    return records
