"""A real `rules serve` (uvicorn in its own process) killed with SIGKILL mid-game and started again on the same
SQLite file: every acknowledged decision is there, none is applied twice, and the game goes on (issue 18 §3)."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

ROOT = Path(__file__).resolve().parent.parent
WEB_GAME = ROOT / "tests" / "fixtures" / "web_game"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", str(WEB_GAME), "--port", str(port), "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT, text=True)
    first = proc.stdout.readline()
    assert f"listening on http://127.0.0.1:{port}/" in first, first
    for _ in range(200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise AssertionError("the server did not answer")


def test_a_server_killed_mid_game_resumes_every_game_with_nothing_lost_or_doubled(tmp_path):
    db, port = tmp_path / "games.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port)
    try:
        r = httpx.post(f"{base}/new", data={"game": "web_game", "players": "2", "lang": "en", "seed": "5",
                                            "seat0": "person", "seat1": "person"})
        gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
        tokens = re.findall(r'class="seat-link" data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)

        def turn():
            for token in tokens:
                v = httpx.post(f"{base}/api/g/{gid}/view", json={"token": token}).json()
                if v["deciding"]:
                    plain = re.findall(r'data-option="(\d+)"[^>]*>(?:Plain card|North|West|East)', v["html"])
                    return token, v["decision"], int(plain[0])
            raise AssertionError("nobody is asked")

        acknowledged = []
        for _ in range(3):
            token, n, option = turn()
            assert httpx.post(f"{base}/api/g/{gid}/answer", json={"token": token, "decision": n, "option": option}).status_code == 200
            acknowledged.append((token, n, option))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

        proc = start(db, port)
        token, n, option = turn()
        assert n == len(acknowledged)  # nothing lost
        last = acknowledged[-1]
        again = httpx.post(f"{base}/api/g/{gid}/answer", json={"token": last[0], "decision": last[1], "option": last[2]})
        assert again.status_code == 409  # nothing applied twice
        assert httpx.post(f"{base}/api/g/{gid}/answer", json={"token": token, "decision": n, "option": option}).status_code == 200
        assert turn()[1] == n + 1
    finally:
        proc.kill()
        proc.wait(10)
