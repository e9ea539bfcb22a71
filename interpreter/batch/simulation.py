"""Running a batch of random games: in this process, in worker processes, or on a Ray cluster.

Game i of a batch is played with seed `seed + i` by random agents seeded from that seed alone, so
its record is the same whichever process or machine plays it, and whatever the number of workers.
Each worker loads and compiles the game once, then plays chunks of game indices; the records come
back as plain dicts (pickled to processes, Ray's object store to a cluster) and are put back in
index order.
"""
from __future__ import annotations

import multiprocessing

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.batch.worker import Batch, prepare, run_chunk_args, chunks, default_workers, run_chunk

__all__ = ["Batch", "chunks", "default_workers", "run_batch"]


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
    prepare(batch.game, with_spec)  # content errors surface here, once, before any worker starts
    if ray_address is not None:
        from interpreter.batch.ray_cluster import run_on_ray
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
        for done in pool.imap_unordered(run_chunk_args, [(batch, part, with_spec) for part in parts]):
            records.extend(done)
            if on_records:
                on_records(done)
    return records
