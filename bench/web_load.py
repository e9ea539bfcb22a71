"""Load check of `rules serve` (issues 18 §4 and 31): N concurrent games over 127.0.0.1, each of one scripted
person and bots (paced at zero), against a real server (uvicorn in its own process, its own SQLite file). Each
scripted client holds a websocket like a page does; at each of its decisions it posts an answer and times how
long until the page's update arrives on the socket. Bounded in games, decisions and seconds; prints decisions
per second (every decision the server applied, bots' included, and the persons' alone) and the 50th and 99th
percentile latency from an answer to the page's update. Goal: 50 concurrent games with p99 under 100 ms on a
2-core machine.

Each scripted person takes --think seconds (on average) to answer, as a quick player would; --think 0 answers at
once, which measures how many answers a second the server can take rather than how fast a page updates.

--lobby-bots N starts N games of bots only at once (ISMCTS bots by default, --bot) and, while they play, asks
for the lobby again and again as a person arriving would: its 50th and 99th percentile time (goal: p99 under
100 ms with 20 games of four ISMCTS bots), and how many decisions the bots made meanwhile.

Run:  python bench/web_load.py [--games 50] [--game kings_bounty] [--players 4] [--seconds 60] [--think 2] [--json]
      python bench/web_load.py --lobby-bots 20 [--bot ismcts] [--seconds 30]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: Path, bot_tasks: int | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - the server's output, never a pipe left unread
    more = ["--bot-tasks", str(bot_tasks)] if bot_tasks else []
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port), "--db", str(db),
                             "--games-per-client", "1000000", *more],  # every table of the load check is one client
                            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=ROOT, text=True)
    for _ in range(400):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


async def one_game(client: httpx.AsyncClient, base: str, args, n: int, deadline: float, latencies: list, counts: dict):
    form = {"game": args.game, "players": str(args.players), "lang": "en", "seed": str(args.seed + n), "seat0": "person",
            "pace": "0", **{f"seat{i}": "random" for i in range(1, args.players)}}
    r = await client.post(f"{base}/new", data=form)
    r.raise_for_status()
    gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
    token = re.search(r'class="seat-link" data-seat="0" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text).group(1)
    rng = random.Random(args.seed + n)
    async with websockets.connect(f"ws://{base.split('//')[1]}/ws/{gid}", max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"tokens": [token], "lang": "en"}))
        message = None  # the view on the page now
        while time.monotonic() < deadline and counts["person"] < args.decisions:
            if message is None:
                message = json.loads(await ws.recv())
            if message.get("type") != "view" or not message["deciding"]:
                if message.get("type") == "view" and message["status"] != "playing":
                    break
                message = None
                continue
            option = rng.choice(message["options"])
            if args.think:  # a person reads the page before answering
                await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
            sent = time.perf_counter()
            try:
                reply = await client.post(f"{base}/api/g/{gid}/answer",
                                          json={"token": token, "decision": message["decision"], "option": option})
            except httpx.TransportError:  # a connection the server closed: counted, and this table starts anew
                counts["errors"] += 1
                return gid
            if reply.status_code != 200:
                counts["refused"] += 1
                message = None
                continue
            while True:  # the page's update: the first view after this answer
                update = json.loads(await ws.recv())
                if update.get("type") == "view" and update["version"] > message["version"]:
                    latencies.append(time.perf_counter() - sent)
                    counts["person"] += 1
                    break
            message = update
    counts["games"] += 1
    return gid


async def run(args, base: str) -> dict:
    latencies: list = []
    counts = {"person": 0, "games": 0, "refused": 0, "errors": 0}
    limits = httpx.Limits(max_connections=args.games + 10)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        await client.get(f"{base}/")  # the lobby loads every game once, before the clock starts
        start = time.perf_counter()
        deadline = time.monotonic() + args.seconds
        async def seat(n: int) -> list:
            """One of the N tables: a game after another until time is up."""
            played = []
            await asyncio.sleep(random.Random(n).uniform(0, args.think))  # the tables do not all sit down at once
            while time.monotonic() < deadline and counts["person"] < args.decisions:
                played.append(await one_game(client, base, args, n + 1000 * len(played), deadline, latencies, counts))
            return played
        gids = await asyncio.gather(*(seat(n) for n in range(args.games)))
        elapsed = time.perf_counter() - start
    return {"latencies": latencies, "counts": counts, "elapsed": elapsed, "gids": gids}


async def lobby_under_bots(args, base: str) -> dict:
    """N games of bots only started at once; the lobby asked for again and again while they play."""
    form = {"game": args.game, "players": str(args.players), "lang": "en", **{f"seat{i}": args.bot for i in range(args.players)}}
    async with httpx.AsyncClient(timeout=60) as client:
        await client.get(f"{base}/")  # the lobby loads every game once, before the clock starts
        started = time.perf_counter()
        made = await asyncio.gather(*(client.post(f"{base}/new", data={**form, "seed": str(args.seed + n)})
                                      for n in range(args.lobby_bots)))
        creating = time.perf_counter() - started
        assert all(r.status_code == 200 for r in made), [r.text for r in made if r.status_code != 200][:1]
        latencies = []
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            sent = time.perf_counter()
            r = await client.get(f"{base}/")
            r.raise_for_status()
            latencies.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)
        elapsed = time.perf_counter() - started
    return {"latencies": latencies, "creating": creating, "elapsed": elapsed}


def percentiles(values: list) -> dict:
    lat = sorted(values)
    pct = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    return {"p50": round(pct(0.50), 1), "p90": round(pct(0.90), 1), "p99": round(pct(0.99), 1),
            "mean": round(statistics.mean(lat) * 1000, 1) if lat else None}


def served(args, load) -> tuple[dict, int, int]:
    """`load(args, base)` run against a server of its own: its result (with the processor time the server's own
    process spent meanwhile in out["cpu"], its search workers' not counted), the decisions the server applied
    (bots' included) and the games that finished."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.sqlite3"
        proc = start_server(port, db, args.bot_tasks)
        try:
            before = cpu_of(proc.pid)
            out = asyncio.run(load(args, f"http://127.0.0.1:{port}"))
            out["cpu"] = cpu_of(proc.pid) - before
        finally:
            proc.terminate()
            proc.wait(10)
            log = db.with_suffix(".log").read_text()
            if log.strip():
                print(log[-3000:], file=sys.stderr)
        import sqlite3
        with sqlite3.connect(db) as con:
            applied = con.execute("SELECT COUNT(*) FROM decisions").fetchone()[0]
            finished = con.execute("SELECT COUNT(*) FROM games WHERE status='finished'").fetchone()[0]
    return out, applied, finished


def cpu_of(pid: int) -> float:
    """Seconds of processor time a process has spent (Linux's /proc; nan elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def main_lobby(args) -> None:
    out, applied, finished = served(args, lobby_under_bots)
    report = {"bots_games": args.lobby_bots, "game": args.game, "players": args.players, "bot": args.bot,
              "seconds": round(out["elapsed"], 2), "all_created_in_s": round(out["creating"], 2),
              "bot_decisions": applied, "games_finished": finished, "lobby_requests": len(out["latencies"]),
              "lobby_ms": percentiles(out["latencies"]), "server_cpu_s": round(out["cpu"], 2)}
    tell(args, report, f"{args.lobby_bots} games of {args.players} {args.bot} bots ({args.game}) created at once in "
                       f"{report['all_created_in_s']} s; over {report['seconds']} s the bots made {applied} decisions "
                       f"({finished} games finished) and the lobby answered {len(out['latencies'])} times: "
                       f"p50 {report['lobby_ms']['p50']} ms, p99 {report['lobby_ms']['p99']} ms")


def tell(args, report: dict, line: str) -> None:
    print(json.dumps(report, indent=1) if args.json else line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="concurrent games (at most 200)")
    ap.add_argument("--game", default="kings_bounty")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--decisions", type=int, default=20_000, help="stop after this many persons' decisions in all")
    ap.add_argument("--seconds", type=float, default=60.0, help="stop after this long (at most 600)")
    ap.add_argument("--think", type=float, default=2.0,
                    help="seconds a scripted person takes to answer, on average (0: answer at once, a stress test)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lobby-bots", type=int, default=0, help="games of bots only started at once; the lobby's times measured")
    ap.add_argument("--bot", default="ismcts", choices=("ismcts", "random"), help="the bots of --lobby-bots")
    ap.add_argument("--bot-tasks", type=int, default=None, help="the server's cap on bots' decisions at once (rules serve --bot-tasks)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    args.games = max(1, min(args.games, 200))
    args.seconds = max(1.0, min(args.seconds, 600.0))
    if args.lobby_bots:
        args.lobby_bots = min(args.lobby_bots, 200)
        return main_lobby(args)
    out, applied, _ = served(args, run)
    report = {
        "games": args.games, "game": args.game, "players": args.players, "seconds": round(out["elapsed"], 2),
        "games_finished": out["counts"]["games"], "decisions_applied": applied,
        "decisions_per_second": round(applied / out["elapsed"], 1),
        "person_decisions": out["counts"]["person"],
        "person_decisions_per_second": round(out["counts"]["person"] / out["elapsed"], 1),
        "refused": out["counts"]["refused"], "transport_errors": out["counts"]["errors"],
        "latency_ms": percentiles(out["latencies"]),
        # the server's work per person's answer (with the bots' answers after it): steadier than the times on a
        # machine shared with other work
        "server_cpu_s": round(out["cpu"], 2),
        "server_cpu_ms_per_person_decision": round(1000 * out["cpu"] / max(1, out["counts"]["person"]), 1),
    }
    tell(args, report, f"{args.games} concurrent games of {args.game} ({args.players} players: 1 scripted person answering "
                       f"in ~{args.think:g} s, bots) "
                       f"in {report['seconds']} s: {applied} decisions applied ({report['decisions_per_second']}/s), "
                       f"{report['person_decisions']} by the scripted persons ({report['person_decisions_per_second']}/s); "
                       f"answer -> page update p50 {report['latency_ms']['p50']} ms, p99 {report['latency_ms']['p99']} ms"
                       + (f"; {report['refused']} answers refused" if report["refused"] else "")
                       + (f"; {report['transport_errors']} connections lost" if report["transport_errors"] else ""))


if __name__ == "__main__":
    main()
