"""Issue 32 item 5: clients that leave are no fault of the server's. A real server (uvicorn in a thread, as
`rules serve` runs it) gets websockets closed before their first message (with a close frame and without),
a page dropped while it is being sent views, and requests whose client hangs up in the middle of the body;
its log (uvicorn's and the server's own, captured at debug level) shows no traceback and no warning, and
one debug line for each client that left."""
from __future__ import annotations

import logging
import re
import socket
import threading
import time
from pathlib import Path

import pytest

uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")

from interpreter.web.app import make_app  # noqa: E402

WEB_GAME = Path(__file__).resolve().parent.parent / "fixtures" / "web_game"
LOGGERS = ("uvicorn", "rules.serve")  # uvicorn.error and uvicorn.access tell theirs to "uvicorn"


class Captured(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    captured = Captured()
    saved = {}
    for name in LOGGERS:
        logger = logging.getLogger(name)
        saved[name] = (logger.level, logger.propagate)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(captured)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = make_app(tmp_path_factory.mktemp("web") / "games.sqlite3", [WEB_GAME])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, log_level="debug",
                                           ws_max_size=16384, lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):
        if server.started:
            break
        time.sleep(0.025)
    base = f"http://127.0.0.1:{port}"
    r = httpx.post(f"{base}/new", data={"game": "web_game", "players": "2", "lang": "en", "seat0": "person", "seat1": "person"},
                   timeout=60)  # a bound for a machine under load, not a measure
    gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
    yield port, gid, captured
    server.should_exit = True
    thread.join(10)
    for name, (level, propagate) in saved.items():
        logging.getLogger(name).setLevel(level)
        logging.getLogger(name).removeHandler(captured)


def raw(port: int, steps: list) -> bytes:
    """On a new connection, for each (data, until): send data and read until `until` comes back (None: wait a
    moment for the server to read what was sent); then hang up without a word (a reset)."""
    got = b""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:  # a bound for a loaded machine
        for data, until in steps:
            s.sendall(data)
            if until is None:
                time.sleep(0.2)
            while until is not None and until not in got:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    return got


def handshake(port: int, gid: str) -> bytes:
    return (f"GET /ws/{gid} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()


def frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (clients mask theirs); payload under 126 bytes."""
    mask = b"\x01\x02\x03\x04"
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def settle(captured: Captured, count: int) -> None:
    for _ in range(400):  # up to 20 s on a loaded machine; at once when every line is there
        if len([r for r in captured.records if r.levelno == logging.DEBUG and "left" in r.getMessage()]) >= count:
            return
        time.sleep(0.05)


def test_clients_that_leave_leave_one_debug_line_each_and_no_traceback(served):
    port, gid, captured = served
    captured.records.clear()
    body = b'{"token": "x", "decision": 0, "option": 0}'
    accepted = (handshake(port, gid), b"\r\n\r\n")
    leaving = [
        [accepted],  # a websocket accepted, then reset before its first message
        [accepted, (frame(0x8, b"\x03\xe8"), None)],  # ... closed properly before its first message
        [accepted, (frame(0x1, b'{"tokens": []}'), b'"view"')],  # a page dropped while it is sent views
        [((f"POST /api/g/{gid}/answer HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
           f"Content-Length: {len(body)}\r\n\r\n").encode() + body[:10], None)],  # hangs up in the middle of the body
        [((f"POST /new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
           "Content-Length: 5000\r\n\r\ngame=web_game&pla").encode(), None)],
    ]
    for steps in leaving:
        answer = raw(port, steps)
        assert steps[0][1] is None or answer.startswith(b"HTTP/1.1 101"), answer[:200]  # (raw waits for the rest)
    settle(captured, len(leaving))
    loud = [r for r in captured.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not loud, "\n".join(f"{r.name} {r.levelname}: {r.getMessage()}" for r in loud)
    left = [r for r in captured.records if r.name == "rules.serve" and r.levelno == logging.DEBUG and "left" in r.getMessage()]
    assert len(left) == len(leaving), [r.getMessage() for r in captured.records]
    assert httpx.get(f"http://127.0.0.1:{port}/g/{gid}", timeout=60).status_code == 200  # and the server goes on
