"""The same batch of games as interpreter.simulation, as Ray tasks: on a local Ray or on a cluster.

Without an address ("local") a Ray is started on this machine with `workers` CPUs (default: every
core) and stopped at the end. With an address (`auto`, `HOST:6379`, `ray://HOST:10001`) the batch
runs on that cluster: the engine's two packages and the game's folder are sent with the tasks
(Ray's runtime environment), so the nodes need only Python and the engine's dependencies.
"""
from __future__ import annotations

import logging
import os
from dataclasses import replace
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError


def run_on_ray(batch, workers: int | None, address: str, with_spec: bool, on_records=None) -> list:
    try:
        import ray
    except ImportError:
        raise DiagnosticError([Diagnostic("USAGE", "--ray needs Ray, which is not installed",
                                          hint='install it with: pip install -e ".[ray]"')]) from None
    from interpreter.simulation import chunks, run_chunk

    started = False
    if not ray.is_initialized():
        options = dict(logging_level=logging.ERROR, log_to_driver=False, include_dashboard=False)
        try:
            if address == "local":
                ray.init(num_cpus=workers or os.cpu_count() or 1, **options)
            else:
                ray.init(address=address, runtime_env=_shipped(batch), **options)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise DiagnosticError([Diagnostic("USAGE", f"cannot start or reach Ray at '{address}': {err}",
                                              hint="give the head's address (HOST:6379, ray://HOST:10001 or auto), or --ray alone for a local Ray")]) from None
        started = True
    try:
        if address != "local":
            batch = replace(batch, game=".")  # the game's folder is the tasks' working directory
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(run_chunk)
        pending = [task.remote(batch, part, with_spec) for part in chunks(batch.games, workers or cpus)]
        records = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done = ray.get(ref)
                records.extend(done)
                if on_records:
                    on_records(done)
        return records
    finally:
        if started:
            ray.shutdown()


def _shipped(batch) -> dict:
    """The runtime environment that carries the engine and the game to a cluster's nodes."""
    import dsl
    import interpreter
    from interpreter.games import locate

    return {
        "working_dir": str(locate(batch.game)),
        "py_modules": [str(Path(dsl.__file__).parent), str(Path(interpreter.__file__).parent)],
    }
