"""What a request must be before the server does any work for it (an ASGI middleware around the routes).

- Its `Host` is a name the server answers as: 127.0.0.1, localhost, [::1], the `--host` it listens on and
  each `--allow-host`, with the server's port. A page of another site that re-points its own name at this
  machine (DNS rebinding) sends its own name, and is refused even a GET of the lobby.
- A POST and a websocket come from a page of this server: their `Origin` is this server's (never `null`).
  Browsers send an Origin with every POST and every websocket; a request without one is from a program
  (curl, a script), which no web page can make, and is let through unless it carries a browser's
  `Sec-Fetch-Site` saying another site sent it.
- A client (an address) starts at most so many games in a window of time.

Numbers read from a request are read by `whole_number` alone: ASCII digits, in a range.
"""
from __future__ import annotations

import ipaddress
import json
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import urlsplit

from dsl.inputs import json_depth

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")  # listening on every address of the machine
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
MAX_DIGITS = 18  # a number of the server's is far shorter; int() of a long string costs quadratic time
MAX_DEPTH = 8  # nesting of a request's JSON: what a page sends is one object of lists of strings


def whole_number(text, lo: int = 0, hi: int = 2 ** 53 - 1) -> int | None:
    """`text` read as a whole number from lo to hi, or None. ASCII digits only: str.isdigit() accepts '²' and
    '١', which int() refuses or reads, and int() accepts ' 7', '+7', '7_0' and '٧'."""
    if not isinstance(text, str) or not 0 < len(text) <= MAX_DIGITS or not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if lo <= value <= hi else None


def read_json(text: str, max_depth: int = MAX_DEPTH):
    """A request's JSON, its nesting measured before it is parsed (json.loads recurses: 16 KB of brackets
    would exhaust Python's stack); ValueError says what is wrong."""
    if json_depth(text, max_depth) > max_depth:
        raise ValueError(f"the request nests deeper than {max_depth} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # e.g. an integer of thousands of digits
        raise ValueError("the request is not JSON") from None


def host_and_port(text: str) -> tuple[str, int | None] | None:
    """A Host header's name (lower case, an IPv6 address without its brackets) and port (None if not given),
    or None when it is not a host."""
    text = text.strip().lower()
    if text.startswith("["):
        name, sep, rest = text[1:].partition("]")
        if not sep or rest and not rest.startswith(":"):
            return None
        port_text = rest[1:] if rest else None
    else:
        name, sep, port_text = text.partition(":")
        if not sep:
            port_text = None
    if not name or any(c in name for c in "/\\@ #?[]") or ":" in name and not _is_address(name):
        return None
    if port_text is None:
        return name, None
    port = whole_number(port_text, 0, 65535)
    return None if port is None else (name, port)


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Guard:
    """The server's checks, as `rules serve` sets them: the names it answers as (lower case, IPv6 without
    brackets), its port (None: any port, for an app not started by `rules serve`), whether it listens on
    every address (then any IP address is one of its own: an address is never a name a page can re-point),
    names allowed with any port (`--allow-host NAME`) and the games one client may start per window."""

    hosts: tuple = LOOPBACK
    port: int | None = None
    any_address: bool = False
    extra: tuple = ()  # (name, port or None) from --allow-host
    games_per_client: int = 20
    window: float = 600.0  # seconds

    @classmethod
    def serving(cls, host: str, port: int, allow: list | tuple = (), **limits) -> "Guard":
        host = host.strip("[]").lower()
        extra = []
        for item in allow:
            parsed = host_and_port(item)
            if parsed is None:
                raise ValueError(item)
            extra.append(parsed)
        return cls(LOOPBACK + ((host,) if host not in LOOPBACK + WILDCARDS else ()), port or None,  # 0: any port
                   host in WILDCARDS, tuple(extra), **limits)

    def host_refused(self, host: str | None) -> str | None:
        """Why a request with this Host header is refused, or None."""
        parsed = host_and_port(host) if host is not None else None
        if parsed is None:
            return "a request without a host this server answers as"
        name, port = parsed
        if (name, port) in self.extra or (name, None) in self.extra:
            return None
        if name in self.hosts or self.any_address and _is_address(name):
            if self.port is None or (port if port is not None else 80) == self.port:
                return None
        return f"this server does not answer as {_clip(host)}: start it with --allow-host NAME to add a name"

    def origin_refused(self, origin: str | None, host: str, fetch_site: str | None) -> str | None:
        """Why a state-changing request (or a websocket) with these headers is refused, or None."""
        if origin is None:
            if fetch_site in (None, "same-origin"):
                return None  # not a browser's, or a browser's own page: no other site sent it
            return "a request from another site"
        try:
            parts = urlsplit(origin)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or parts.netloc.lower() != host.strip().lower() \
                or parts.path or parts.query or parts.fragment:
            return "a request from another site" if origin != "null" else "a request from a page with no origin"
        return None


class GuardMiddleware:
    """Refuses with 403 (a websocket: closed before it is accepted, which the client sees as 403) what
    `Guard` refuses, before any route reads anything."""

    def __init__(self, app, guard: Guard, headers: dict):
        self.app = app
        self.guard = guard
        self.headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            why = self.refused(scope)
            if why is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": ""})
                    return
                body = json.dumps({"error": why}).encode("utf-8")
                await send({"type": "http.response.start", "status": 403, "headers": self.headers + [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)

    def refused(self, scope) -> str | None:
        headers = {}
        for key, value in scope.get("headers") or []:
            name = key.decode("latin-1").lower()
            if name in ("host", "origin", "sec-fetch-site"):
                if name in headers:  # two of one: which one would a proxy have read?
                    return "a request with two " + name + " headers"
                headers[name] = value.decode("latin-1")
        why = self.guard.host_refused(headers.get("host"))
        if why is None and (scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS):
            why = self.guard.origin_refused(headers.get("origin"), headers["host"], headers.get("sec-fetch-site"))
        return why


class CreationLimit:
    """Games started per client (its address) within a sliding window: a page or a script that starts games
    in a loop is refused (429) long before the server's cap on live games is reached. Loopback clients are
    one client, and so is a proxy's: behind one, every player shares its address."""

    def __init__(self, per_client: int, window: float, clock=time.monotonic):
        self.per_client = per_client
        self.window = window
        self.clock = clock
        self.started: dict[str, deque] = {}

    def take(self, client: str) -> float | None:
        """Count one game started by `client` (an address); None if it may, else the seconds until it may again."""
        client = "loopback" if _is_loopback(client) else client
        now = self.clock()
        times = self.started.setdefault(client, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.per_client:
            return times[0] + self.window - now
        times.append(now)
        if len(self.started) > 10_000:  # forget the clients that started nothing lately
            for key in [k for k, v in self.started.items() if not v or v[-1] <= now - self.window]:
                del self.started[key]
        return None

    def give_back(self, client: str) -> None:
        """A game counted by `take` that was not started after all (its form was refused)."""
        times = self.started.get("loopback" if _is_loopback(client) else client)
        if times:
            times.pop()


def _is_loopback(client: str) -> bool:
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return False


def _clip(text: str, width: int = 80) -> str:
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= width else text[:width - 3] + "..."
