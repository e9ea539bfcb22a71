"""The same batch of games as interpreter.batch.simulation, as Ray tasks: on a local Ray or on a cluster.

Without an address ("local") a Ray is started on this machine with `workers` CPUs (default: every
core) and stopped at the end. With an address (`auto`, `HOST:6379`, `ray://HOST:10001`) the batch
runs on that cluster: the engine (its two packages and its schemas) and the game's folder are
copied into one folder sent with the tasks as their working directory (Ray's runtime environment),
so the nodes need only Python, Ray and the engine's dependencies.
"""
from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError


def run_on_ray(batch, workers: int | None, address: str, with_spec: bool, on_records=None) -> list:
    try:
        import ray
    except ImportError:
        raise DiagnosticError([Diagnostic("USAGE", "--ray needs Ray, which is not installed",
                                          hint='install it with: pip install -e ".[ray]"')]) from None
    from interpreter.batch.worker import chunks, run_chunk

    started = False
    staging = None
    try:
        if not ray.is_initialized():
            options = dict(logging_level=logging.ERROR, log_to_driver=False, include_dashboard=False)
            try:
                if address == "local":
                    ray.init(num_cpus=workers or os.cpu_count() or 1, **options)
                else:
                    staging = _staging(batch.game)
                    ray.init(address=address, runtime_env={"working_dir": staging}, **options)
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise DiagnosticError([Diagnostic("USAGE", f"cannot start or reach Ray at '{address}': {err}",
                                                  hint="give the head's address (HOST:6379, ray://HOST:10001 or auto), or --ray alone for a local Ray")]) from None
            started = True
        if staging is not None:
            batch = replace(batch, game=GAME_FOLDER)  # a folder of the tasks' working directory
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(num_cpus=1)(run_chunk)
        pending = [task.remote(batch, part, with_spec) for part in chunks(batch.games, workers or cpus)]
        records = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                try:
                    done = ray.get(ref)
                except ray.exceptions.RayError as err:
                    cause = getattr(err, "cause", None) or err
                    text = str(cause).strip().splitlines()[-1] if str(cause).strip() else type(cause).__name__
                    raise DiagnosticError([Diagnostic("RUN-ERROR", f"a Ray task failed: {type(cause).__name__}: {text}",
                                                      hint="the nodes need Python, Ray and the engine's dependencies (lark, PyYAML, jsonschema)")]) from None
                records.extend(done)
                if on_records:
                    on_records(done)
        return records
    finally:
        if started:
            ray.shutdown()
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


GAME_FOLDER = "game"


def _staging(game: str) -> str:
    """A temporary folder holding the engine (dsl/, interpreter/, schemas/) and the game (game/), for a cluster."""
    import dsl
    from interpreter.runtime.games import locate

    root = Path(dsl.__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="rules-ray-"))
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
    for part in ("dsl", "interpreter", "schemas"):
        shutil.copytree(root / part, folder / part, ignore=skip)
    shutil.copytree(locate(game), folder / GAME_FOLDER, ignore=skip)
    return str(folder)
