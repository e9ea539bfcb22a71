"""The same batch of games as interpreter.batch.simulation, as Ray tasks: on a local Ray or on a cluster.

Without an address ("local") a Ray is started on this machine with `workers` CPUs (default: every
core) and stopped at the end. With an address (`auto`, `HOST:6379`, `ray://HOST:10001`) the batch
runs on that cluster: the engine (its two packages and its schemas) and the game's folder are
copied into one folder sent with the tasks as their working directory (Ray's runtime environment),
so the nodes need only Python, Ray and the engine's dependencies.

Ray retries an unreachable head for ever, so the head's address is tried first with a plain TCP
connection of bounded time, before anything is copied; the address this machine used for it is the
node address given to Ray (which would otherwise find its own by routing towards an outside address).
Symbolic links are never copied: a link in a game folder may point anywhere (`/etc/passwd`).
"""
from __future__ import annotations

import logging
import os
import shutil
import socket
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
                    ray.init(num_cpus=workers or os.cpu_count() or 1, _node_ip_address="127.0.0.1", **options)
                else:
                    own = _reach(address)
                    staging = _staging(batch.game)
                    # a head that answers TCP but is not Ray (or dies now) ends Ray's retries in bounded time
                    os.environ.setdefault("RAY_gcs_rpc_server_reconnect_timeout_s", str(CONNECT_SECONDS * 4))
                    extra = {"_node_ip_address": own} if own and not address.startswith("ray://") else {}
                    ray.init(address=address, runtime_env={"working_dir": staging}, **options, **extra)
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
CONNECT_SECONDS = 5


def _reach(address: str) -> str | None:
    """Connect to the head's HOST:PORT once, within CONNECT_SECONDS; a USAGE error if it cannot be reached.
    Returns this machine's address on that route (None for `auto`, which Ray finds from its own files)."""
    if address == "auto":
        return None
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DiagnosticError([Diagnostic("USAGE", f"--ray '{address[:120]}' is not HOST:PORT",
                                          hint="give the head's address (HOST:6379, ray://HOST:10001 or auto), or --ray alone for a local Ray")])
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS) as conn:
            return conn.getsockname()[0]
    except OSError as err:
        reason = "no answer within %d s" % CONNECT_SECONDS if isinstance(err, TimeoutError) else (err.strerror or str(err))
        raise DiagnosticError([Diagnostic("USAGE", f"cannot reach Ray at '{address[:120]}': {reason}",
                                          hint="start the head with `ray start --head` and give its address, or --ray alone for a local Ray")]) from None


def _staging(game: str) -> str:
    """A temporary folder holding the engine (dsl/, interpreter/, schemas/) and the game (game/), for a cluster."""
    import dsl
    from interpreter.runtime.games import locate

    root = Path(dsl.__file__).resolve().parent.parent
    folder = Path(tempfile.mkdtemp(prefix="rules-ray-"))
    hidden = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")

    def skip(where, names):  # links are left behind, never followed
        return set(hidden(where, names)) | {n for n in names if os.path.islink(os.path.join(where, n))}

    for part in ("dsl", "interpreter", "schemas"):
        shutil.copytree(root / part, folder / part, ignore=skip)
    shutil.copytree(locate(game), folder / GAME_FOLDER, ignore=skip)
    return str(folder)
