"""The lobby's "your games". Nothing on the server names a person: the browser remembers the seats it opened
(their secret tokens, in its localStorage, by game), and asks here how each stands. The answer is about those
seats only, one entry per (game, token) it was given that is a seat of a game held here; a token that is no
seat of its game gets no answer at all, and no answer names another seat's secret.
"""
from __future__ import annotations

from interpreter.present.phrases import say
from interpreter.web.pages import game_name

MAX_ASKED = 64  # seats one request may ask about


def your_games(rooms, asked, lang: str) -> list[dict]:
    """For each [game id, token] in `asked`: its index in `asked`, the game's name, the seat and how it stands."""
    out = []
    if not isinstance(asked, list):
        return out
    for i, pair in enumerate(asked[:MAX_ASKED]):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            continue
        room = rooms.rooms.get(pair[0])
        seat = room.seat_of(pair[1]) if room is not None else None
        if seat is None:
            continue
        with room.lock:
            state, turn = _standing(room, seat, lang)
            out.append({"i": i, "game": room.id, "name": game_name(room.game, lang), "seat": seat,
                        "player": say(lang, "player", n=seat + 1), "players": room.players, "state": state,
                        "turn": turn, "status": room.status})
    return out


def _standing(room, seat: int, lang: str) -> tuple[str, bool]:
    """How the game stands for `seat`, in words, and whether it is that seat's turn."""
    if room.status == "finished":
        return say(lang, "web finished"), False
    if room.status == "error":
        return say(lang, "web error"), False
    if room.seats[seat].kind != "person":
        return say(lang, "web bot plays"), False
    decider = room.decider()
    mine = decider == seat or (room.row.hotseat and decider is not None and room.seats[decider].kind == "person")
    if mine:
        return say(lang, "web your turn now"), True
    return say(lang, "web waiting for", player=say(lang, "player", n=decider + 1)), False
