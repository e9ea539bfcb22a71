"""A request the server cannot apply: its HTTP status and why, in words; the game is left as it was."""
from __future__ import annotations


class Refused(Exception):
    """A request that cannot be applied, with its HTTP status; the game is left as it was."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message
