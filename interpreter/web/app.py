"""The web server's routes (Starlette): the lobby, a game's page, its websocket (interpreter.web.live), and
the JSON calls a page makes. A seat's secret token travels in the page address's #fragment (never sent in a
request line, so never in an access log or a Referer), then in the websocket's first message and in each
call's JSON body. Bodies and websocket messages are bounded; every refusal is a 4xx with the game untouched.
Hosts and origins are checked before any route runs (interpreter.web.guard). No request plays a bot: the
handlers hand the game to interpreter.web.bots once a change is committed.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from dsl.diagnostics import DiagnosticError
from dsl.limits import MAX_PLAYERS
from dsl.plurals import plural
from interpreter.present.icons import sprite, sprite_version
from interpreter.present.phrases import LANGUAGES
from interpreter.web import pages
from interpreter.web.bots import Bots
from interpreter.web.collector import Collector
from interpreter.web.guard import CreationLimit, Guard, GuardMiddleware, read_json, whole_number
from interpreter.web.live import serve_page
from interpreter.web.mine import your_games
from interpreter.web.rooms import LOG, MAX_PACE, Refused, Rooms
from interpreter.web.store import Store

MAX_BODY = 16 * 1024  # bytes of a request body: a form or an answer is far smaller
HERE = Path(__file__).resolve().parent
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    # same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with a form's POST, which
    # the guard refuses as it refuses any page of no origin. No secret is in a Referer: a seat's is in the #fragment.
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _lang(request) -> str:
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    accept = request.headers.get("accept-language", "")[:2].lower()
    return accept if accept in LANGUAGES else "en"


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=HEADERS)


def _json(data, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status, headers=HEADERS)


async def _body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is not None and whole_number(length) is None:
        raise Refused(400, "the request's length is not a number")
    if length is not None and whole_number(length) > MAX_BODY:
        raise Refused(413, "the request is too large")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise Refused(413, "the request is too large")
            chunks.append(chunk)
    except ClientDisconnect:  # the client hung up before its body ended: nobody is left to answer
        LOG.debug("a client left in the middle of its request to %s", request.url.path)
        raise Refused(400, "the request ended before its body") from None
    return b"".join(chunks)


async def _json_body(request: Request) -> dict:
    try:
        data = read_json((await _body(request)).decode("utf-8"))
    except UnicodeDecodeError:
        raise Refused(400, "the request is not UTF-8 text") from None
    except ValueError as err:
        raise Refused(400, str(err)) from None
    if not isinstance(data, dict):
        raise Refused(400, "the request is not a JSON object")
    return data


def _pace(text: str) -> float:
    """A bot's pause as the lobby's form sends it: seconds in ASCII digits, with at most three decimals."""
    if not text:
        return 0.0
    pace = float(text) if re.fullmatch(r"[0-9]{1,2}(\.[0-9]{1,3})?", text) else None
    if pace is None or not 0 <= pace <= MAX_PACE:
        raise Refused(422, f"a bot's pause is a number of seconds from 0 to {MAX_PACE:g}")
    return pace


def make_app(db: Path | str, folders: list | None = None, guard: Guard | None = None, *,
             bot_tasks: int | None = None, collector: bool = False) -> Starlette:
    """The server's app: its games in the SQLite file `db`, the lobby's games (content/ and `folders`); `guard`
    says which hosts, origins and how many games per client it accepts (by default: loopback names on any
    port); at most `bot_tasks` bots' decisions are worked on at once (by default one per processor); with
    `collector`, the garbage collector runs when interpreter.web.collector says (a server's, not a test's)."""
    guard = guard or Guard()
    store = Store(db)
    rooms = Rooms(store, folders)
    limit = CreationLimit(guard.games_per_client, guard.window)
    bots = Bots(bot_tasks)
    collecting = Collector() if collector else None
    env = pages.environment()

    async def lobby(request: Request):
        return _html(pages.lobby(env, rooms, _lang(request)))

    async def new_game(request: Request):
        client = request.client.host if request.client else ""
        wait = limit.take(client)
        if wait is not None:
            raise Refused(429, f"this address has started {limit.per_client} games in the last {limit.window / 60:.0f} "
                               f"minutes: try again in {plural('en', math.ceil(wait / 60), ('# minute', '# minutes'))}")
        try:
            return await _new_game(request)
        except BaseException:
            limit.give_back(client)
            raise

    async def _new_game(request: Request):
        try:
            form = parse_qs((await _body(request)).decode("utf-8", "replace"), max_num_fields=64)
        except ValueError:  # more fields than max_num_fields
            raise Refused(400, "the form has more fields than a game's form") from None
        one = lambda k, d="": (form.get(k) or [d])[0]  # noqa: E731
        players = whole_number(one("players"), 1, MAX_PLAYERS)
        if players is None:
            raise Refused(422, f"the number of players is not a whole number from 1 to {MAX_PLAYERS}")
        kinds = [one(f"seat{i}", "random") for i in range(players)]
        seed = whole_number(one("seed"), 0, 2 ** 31 - 1) if one("seed") else None
        if one("seed") and seed is None:
            raise Refused(422, "a seed is a whole number below 2147483648, written in the digits 0 to 9")
        room = await run_in_threadpool(rooms.create, one("game"), players, kinds, one("lang", "en"), form.get("variant", []),
                                       seed, one("hotseat") == "1", _pace(one("pace")))
        bots.kick(room)  # the bots play in the background: the seats' links are shown at once
        if collecting is not None:
            collecting.made()
        return _html(pages.links(env, room, room.row.lang))

    async def links_again(request: Request):
        """The seats' links page asked again (Back, a reload): its links come from the address's #fragment."""
        room = rooms.get(request.path_params["gid"])
        return _html(pages.links(env, room, _lang(request), secrets=False))

    async def game_page(request: Request):
        room = rooms.get(request.path_params["gid"])
        asked = request.query_params.get("lang")  # the page's language: asked for, else the game's
        return _html(pages.game_page(env, room, asked if asked in LANGUAGES else room.row.lang))

    async def answer(request: Request):
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        await run_in_threadpool(room.answer, data.get("token"), data.get("decision"), data.get("option"))
        bots.kick(room)
        return _json({"ok": True, "version": room.version})

    async def undo(request: Request):
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        await run_in_threadpool(room.undo, data.get("token"))
        bots.kick(room)
        return _json({"ok": True, "version": room.version})

    async def seat_kind(request: Request):
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        await run_in_threadpool(room.set_kind, data.get("token"), data.get("kind"))
        bots.kick(room)
        return _json({"ok": True, "version": room.version})

    async def chat(request: Request):
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        await run_in_threadpool(room.say, data.get("token"), data.get("text"))
        return _json({"ok": True})

    async def rematch(request: Request):
        """The game again (made once, whoever asks first); each seat's page then shows its own new link."""
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        new = await run_in_threadpool(rooms.rematch, room, data.get("token"))
        bots.kick(new)
        return _json({"ok": True, "game": new.id})

    async def mine(request: Request):
        """The lobby's "your games": the state of the seats whose tokens the browser holds, and of no other."""
        data = await _json_body(request)
        lang = data.get("lang") if data.get("lang") in LANGUAGES else "en"
        return _json({"games": your_games(rooms, data.get("seats"), lang)})

    async def view(request: Request):
        """The live view as JSON, for a page without a websocket (and for tests): a token's seat, else a spectator's."""
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        seat = room.seat_of(data.get("token"))
        lang = data.get("lang") if data.get("lang") in LANGUAGES else room.row.lang
        return _json(await run_in_threadpool(pages.view, env, room, seat, lang))

    def _download(room) -> Response:
        log = room.log()
        name = f"{Path(room.row.game).name}-{room.id}.json"
        return Response(json.dumps(log, ensure_ascii=False, indent=1) + "\n", media_type="application/json",
                        headers={**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'})

    async def public_log(request: Request):
        room = rooms.get(request.path_params["gid"])
        if room.status == "playing":
            raise Refused(403, "the log of a game in play tells what is hidden: it is everyone's when the game ends")
        return _download(room)

    async def seat_log(request: Request):
        """An unfinished game's log, for the one person of a game with bots (or a hot-seat device)."""
        data = await _json_body(request)
        room = rooms.get(request.path_params["gid"])
        if room.status != "playing":
            return _download(room)
        seat = room.seat_of(data.get("token"))
        if seat is None:
            raise Refused(403, "this link holds no seat of this game")
        if not room.one_person():
            raise Refused(403, "the log of a game in play tells what is hidden: it is everyone's when the game ends")
        return _download(room)

    async def socket(ws: WebSocket):
        await serve_page(ws, env, rooms)

    async def icons(request: Request):
        """The vendored icons as one SVG of symbols (interpreter.present.icons), named by their hash: kept for good."""
        if request.path_params["version"] != sprite_version():
            return Response(status_code=404)
        return Response(sprite(), media_type="image/svg+xml",
                        headers={**HEADERS, "Cache-Control": "public, max-age=31536000, immutable"})

    async def refused(request: Request, exc: Refused):
        return _json({"error": exc.message}, exc.status)

    async def failed(request: Request, exc: DiagnosticError):
        return _json({"error": exc.diagnostics[0].message}, 422)

    routes = [
        Route("/", lobby),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/new", new_game, methods=["POST"]),
        Route("/api/mine", mine, methods=["POST"]),
        Route("/g/{gid}", game_page),
        Route("/g/{gid}/links", links_again),
        Route("/g/{gid}/log.json", public_log),
        Route("/api/g/{gid}/answer", answer, methods=["POST"]),
        Route("/api/g/{gid}/undo", undo, methods=["POST"]),
        Route("/api/g/{gid}/seat", seat_kind, methods=["POST"]),
        Route("/api/g/{gid}/view", view, methods=["POST"]),
        Route("/api/g/{gid}/log", seat_log, methods=["POST"]),
        Route("/api/g/{gid}/chat", chat, methods=["POST"]),
        Route("/api/g/{gid}/rematch", rematch, methods=["POST"]),
        WebSocketRoute("/ws/{gid}", socket),
        Route("/icons-{version}.svg", icons),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(_app):
        bots.start(asyncio.get_running_loop())
        for room in list(rooms.rooms.values()):  # the games resumed: their bots play on where they were
            bots.kick(room)
        if collecting is not None:
            collecting.start()
        yield
        if collecting is not None:
            collecting.stop()
        bots.stop()
        store.close()

    app = Starlette(routes=routes, exception_handlers={Refused: refused, DiagnosticError: failed}, lifespan=lifespan,
                    middleware=[Middleware(GuardMiddleware, guard=guard, headers=HEADERS)],
                    max_body_size=4 * MAX_BODY)  # a second bound, below which _body refuses with JSON
    app.state.rooms = rooms
    app.state.store = store
    app.state.bots = bots
    return app
