"""When the server's garbage collector runs, so that no page waits for it.

A server of 50 games holds a few hundred thousand objects that live as long as their games (states, log lines,
what each reader's views keep). CPython's collector walks all of them at each full collection, which comes
whenever the old objects grew by a quarter: with 50 AGoT games in play, every ~7 seconds a pause of 200-300 ms
during which no page is answered (bench/web_load.py's slowest answers came in bursts at those moments).

So the server moves what survived into the collector's permanent generation (`gc.freeze`) every `EVERY`
seconds, right after a collection of everything not yet moved, and as soon as a game is made: each collection
then walks only what was made since the last (a few thousand objects, a few ms). Unreachable cycles among moved objects (a game rebuilt by
an undo, a view being drawn at that very moment) are not freed that way; every `WHOLE` seconds the whole heap
is collected once (`gc.unfreeze`, then a collection, then `gc.freeze` again): one pause every few minutes
rather than every few seconds. Only `rules serve` runs it (interpreter.cli): tests and tools keep Python's own
collector as it is.
"""
from __future__ import annotations

import asyncio
import gc
import time

EVERY = 0.5  # seconds between two collections of what was made since the last one (the shorter, the shorter each)
WHOLE = 600.0  # seconds between two collections of the whole heap


class Collector:
    def __init__(self, every: float = EVERY, whole: float = WHOLE):
        self.every, self.whole = every, whole
        self.task: asyncio.Task | None = None
        self.last_whole = time.monotonic()

    def start(self) -> None:
        gc.collect()
        gc.freeze()  # what the server made before its first page (the compiled games, the games resumed)
        self.task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.step()

    def made(self) -> None:
        """A game was just made: what it holds lives as long as it does, so it is moved at once (the next
        collection need not walk it; the whole heap's collects whatever of it was garbage)."""
        gc.freeze()

    def step(self) -> None:
        """One collection of what is not frozen (or, every `whole` seconds, of everything), then freeze what lives."""
        if time.monotonic() - self.last_whole >= self.whole:
            self.last_whole = time.monotonic()
            gc.unfreeze()
        gc.collect()
        gc.freeze()
