"""A game's chat: kept with the game in the store, one line of text a message (never markup: pages show it as
text), bounded in length and in rate per seat; the seats write, spectators read. A chat is public by nature:
every seat and spectator of the game reads whatever is written there (bots read none of it), so the
hidden-information rule is the players' own to keep in it.
"""
from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from interpreter.web.refused import Refused

MAX_CHAT = 500  # characters of a chat message
CHAT_RATE = (5, 10.0)  # at most 5 messages a seat in 10 seconds
MAX_CHAT_LINES = 2000  # messages kept per game; past it the chat is closed


@dataclass
class Said:
    seat: int
    text: str
    at: float  # when (seconds since 1970)


def said_text(text) -> str:
    """A message as it is kept: one line, control characters as spaces, refused when empty or too long."""
    if not isinstance(text, str):
        raise Refused(422, "a chat message is text")
    text = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    if not text:
        raise Refused(422, "the message is empty")
    if len(text) > MAX_CHAT:
        raise Refused(413, f"a chat message is at most {MAX_CHAT} characters")
    return text


class Chat:
    """A game's messages in order, and when each seat last spoke (the rate bound). Its room's lock guards it."""

    def __init__(self, stored: list):
        self.said = [Said(*s) for s in stored]
        self.recent: dict = {}  # seat -> when its last messages were said

    def __len__(self) -> int:
        return len(self.said)

    def add(self, seat: int, text: str, store) -> None:
        """`text` said by `seat`, once `store(n, at)` has committed it."""
        now = time.time()
        recent = [t for t in self.recent.get(seat, []) if now - t < CHAT_RATE[1]]
        if len(recent) >= CHAT_RATE[0]:
            raise Refused(429, "too many messages: wait a few seconds")
        if len(self.said) >= MAX_CHAT_LINES:
            raise Refused(409, "this game's chat is full")
        try:
            store(len(self.said), now)
        except sqlite3.Error:
            raise Refused(503, "the games database cannot be written now; try again") from None
        self.recent[seat] = recent + [now]
        self.said.append(Said(seat, text, now))
