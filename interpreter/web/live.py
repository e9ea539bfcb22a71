"""A game page's websocket: what the server pushes to a page, and how.

The page's first message names the seats it holds (their secret tokens) and its language. The server
answers `held` (the seat of each token), then pushes:

- `view`: the game as the seat on screen reads it. Its HTML comes in parts (interpreter.web.parts: the
  elements of the seat page's view, templates/view.html, cut where the templates mark it);
  the HTML is the parts put end to end. A part the page already has from this socket comes as its number in
  the page's previous view, so an update carries what changed (a new log line, the status, the areas of the
  board that changed). With it, what the page's own scripts need: whose turn it is, the options offered
  (their numbers), the game's status, which actions the seat may take now (undo, hand-over, rematch) and,
  once a rematch is made, this seat's own link to it (never another seat's).
- `chat`: the chat's messages the page has not had yet.

A view is rendered once per version of the game, reader and language, whatever the number of pages that
show it, and never on the event loop.
"""
from __future__ import annotations

import asyncio

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.present.phrases import LANGUAGES, say
from interpreter.web import pages
from interpreter.web.guard import read_json
from interpreter.web.parts import split
from interpreter.web.rooms import LOG, MAX_PAGES, Refused

MAX_MESSAGE = 4096  # characters of a websocket message: the page sends only its seats' tokens
MAX_TOKENS = 16  # seats one page may hold (a hot-seat device)
MIN_GAP = 0.1  # seconds between two views sent to a page while bots play on (see serve_page)
HURRY = 0.03  # seconds a page's update may wait for bots without pace to answer after it (see serve_page)


def seat_link(room, seat: int | None, lang: str) -> str:
    """The address of a seat's page (None: a spectator's), its secret in the #fragment."""
    base = f"/g/{room.id}?lang={lang}"
    if seat is None:
        return base
    if room.row.hotseat and room.seats[seat].kind == "person":
        return base + "#" + ".".join(s.token for s in room.seats if s.kind == "person")
    return base + "#" + room.seats[seat].token


def rendered(env, rooms, room, viewer: int | None, lang: str) -> dict:
    """The view of `room` for `viewer` in `lang` at its current version: rendered once, then kept."""
    room.speak(lang)  # the log in the page's language: told again in it the first time a page asks (not under the lock)
    with room.lock:
        key = (viewer, lang)
        hit = room.rendered.get(key)
        if hit is not None and hit[0] == room.version:
            return hit[1]
        view = pages.view(env, room, viewer, lang, marked=True)
        view["parts"] = split(view.pop("html"))
        view.update(_extras(rooms, room, viewer, lang))
        room.rendered[key] = (room.version, view)
        return view


def _extras(rooms, room, viewer: int | None, lang: str) -> dict:
    """What the page's scripts need besides the drawing (rooms.Room's rules, read under its lock)."""
    seat = room.seats[viewer] if viewer is not None else None
    person = seat is not None and seat.kind == "person"
    d = room.session.pending
    extras = {
        "status": room.status,
        "name": pages.game_name(room.game, lang),
        "options": list(range(len(d.values))) if d is not None and room.decider() == viewer and person else [],
        "actions": {
            "undo": person and room.can_undo(),
            "to_bot": person and room.can_hand_over(),
            "to_person": seat is not None and not person and room.can_hand_over(),
            "download": room.status != "playing" or (viewer is not None and room.one_person()),
            "rematch": seat is not None and room.status != "playing" and room.row.rematch is None,
        },
        "rematch": None,
    }
    if room.row.rematch is not None and room.row.rematch in rooms.rooms:
        new = rooms.rooms[room.row.rematch]
        extras["rematch"] = seat_link(new, viewer if seat is not None else None, lang)
    return extras


def chat_lines(room, start: int, lang: str) -> list[dict]:
    with room.lock:
        said = room.chat.said[start:]
    return [{"n": start + i, "seat": s.seat, "player": say(lang, "player", n=s.seat + 1), "text": s.text, "at": s.at}
            for i, s in enumerate(said)]


async def _frame(ws: WebSocket) -> str | None:
    """The next text frame of a websocket, None for a binary one; WebSocketDisconnect when the page leaves."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text")


async def serve_page(ws: WebSocket, env, rooms) -> None:
    """One page's websocket, for as long as the page is open."""
    try:
        await _serve_page(ws, env, rooms)
    except (WebSocketDisconnect, RuntimeError):  # the page left, or its connection dropped: nothing went wrong here
        LOG.debug("the page of game %s left", ws.path_params.get("gid"))


async def _serve_page(ws: WebSocket, env, rooms) -> None:
    try:
        room = rooms.get(ws.path_params["gid"])
    except Refused:
        await ws.close(code=4404)
        return
    await ws.accept()
    try:
        hello = await asyncio.wait_for(_frame(ws), 30)
    except asyncio.TimeoutError:
        await ws.close(code=4408)
        return
    if hello is None:
        await ws.close(code=1003)  # a binary frame: the page sends text
        return
    if len(hello) > MAX_MESSAGE:
        await ws.close(code=1009)
        return
    try:
        data = read_json(hello)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        await ws.close(code=4400)
        return
    tokens = data.get("tokens") if isinstance(data.get("tokens"), list) else []
    held, seats = [], [room.seat_of(t) for t in tokens[:MAX_TOKENS]]
    for seat in seats:
        if seat is not None and seat not in held:
            held.append(seat)
    lang = data.get("lang") if data.get("lang") in LANGUAGES else room.row.lang
    await ws.send_json({"type": "held", "seats": seats})
    if None in seats:
        await ws.send_json({"type": "notice", "key": "unknown link"})
    changed = asyncio.Event()
    loop = asyncio.get_running_loop()

    def tell():
        loop.call_soon_threadsafe(changed.set)
    with room.lock:
        full = len(room.listeners) >= MAX_PAGES
        if not full:
            room.listeners.append(tell)
    if full:
        await ws.close(code=1013)  # try again later: this game has as many pages open as it serves
        return
    current, sent, had, chatted, last, since = (held[0] if held else None), None, {}, 0, -MIN_GAP, None
    receiving = asyncio.ensure_future(_frame(ws))
    try:
        while True:
            changed.clear()
            decider = room.decider()
            if decider in held:
                current = decider  # hot-seat: the page turns to the seat that decides now
            key, later = (room.version, current), None
            if key != sent:
                # bots playing without pace change the game many times a second: a page gets their moves at
                # most every MIN_GAP, and waits up to HURRY for those about to come (one view for a person's
                # answer and the bots' after it, not one each); but what asks it a question or ends the game,
                # at once
                now = loop.time()
                since = now if since is None else since
                urgent = room.status != "playing" or (decider in held and room.seats[decider].kind == "person")
                later = None if urgent else max(MIN_GAP - (now - last), HURRY - (now - since) if room.hurried else 0)
                if later is None or later <= 0:
                    sent, last, later, since = key, now, None, None
                    view = await run_in_threadpool(rendered, env, rooms, room, current, lang)
                    parts = view["parts"]
                    message = {k: v for k, v in view.items() if k != "parts"}
                    message["parts"] = [had.get(p, p) for p in parts]
                    had = {p: i for i, p in enumerate(parts)}
                    await ws.send_json(message)
            if len(room.chat) > chatted:
                lines = chat_lines(room, chatted, lang)
                chatted += len(lines)
                await ws.send_json({"type": "chat", "lines": lines})
            waiting = asyncio.ensure_future(changed.wait())
            done, _ = await asyncio.wait({receiving, waiting}, timeout=later, return_when=asyncio.FIRST_COMPLETED)
            if receiving in done:
                waiting.cancel()
                message = receiving.result()  # raises WebSocketDisconnect when the page leaves
                if message is None or len(message) > MAX_MESSAGE:
                    await ws.close(code=1003 if message is None else 1009)
                    return
                receiving = asyncio.ensure_future(_frame(ws))
            elif not done:
                waiting.cancel()
    finally:  # the page left (WebSocketDisconnect, told by serve_page) or its socket was closed
        receiving.cancel()
        with room.lock:
            if tell in room.listeners:
                room.listeners.remove(tell)
