"""Bots play off the request path. A person's answer is committed and acknowledged alone; then this module's
task for that game asks the Room for the bot's decision pending (`Room.bot_job`), waits the game's pace (a
pause a person can follow; none in a game of bots only), and answers it (`Room.bot_step`), one decision after
another until a person is asked or the game ends.

- A server-wide cap: at most `tasks` bots' decisions are worked on at once, whatever the number of games (the
  others wait their turn, first come first served); a step of a game without pace answers random bots for at
  most STEP_BUDGET seconds before the next game gets the slot.
- Nothing runs on the event loop: a step runs in a thread of this module's own pool, and an ISMCTS bot's
  search in a worker process (one per slot, a game always on the same one, which keeps the bot following that
  game; the workers run at a lower priority, so that pages and the lobby come first).
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import zlib
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from types import SimpleNamespace

from dsl.diagnostics import DiagnosticError

LOG = logging.getLogger("rules.serve")
STEP_BUDGET = 0.05  # seconds of random bots' answers in one step of a game without pace
FOLLOWED = 32  # games (seat by seat) a search worker keeps following


class Bots:
    def __init__(self, tasks: int | None = None):
        self.cap = max(1, tasks or os.cpu_count() or 1)
        self.threads = ThreadPoolExecutor(self.cap, thread_name_prefix="bots")
        self.searchers: list | None = None  # one single-process pool per slot, made at the first search
        self.loop: asyncio.AbstractEventLoop | None = None
        self.slots: asyncio.Semaphore | None = None
        self.playing: dict[str, asyncio.Task] = {}  # game id -> its bots' task
        self.again: set[str] = set()  # games kicked while their task ran: it looks again before it ends

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.slots = asyncio.Semaphore(self.cap)

    def stop(self) -> None:
        for task in self.playing.values():
            task.cancel()
        self.threads.shutdown(wait=False, cancel_futures=True)
        for pool in self.searchers or []:
            pool.shutdown(wait=False, cancel_futures=True)

    def kick(self, room) -> None:
        """The bots of `room` may have something to do (on the event loop's thread: the handlers call it)."""
        if self.loop is None:
            return
        if room.id in self.playing:
            self.again.add(room.id)
            return
        self.playing[room.id] = self.loop.create_task(self._play(room))

    def busy(self, gid: str) -> bool:
        return gid in self.playing

    async def _run(self, fn, *args):
        return await self.loop.run_in_executor(self.threads, fn, *args)

    async def _play(self, room) -> None:
        try:
            while True:
                self.again.discard(room.id)
                async with self.slots:
                    job = await self._run(room.bot_job)
                if job is None:
                    if room.id in self.again:
                        continue
                    return
                if job.pace:
                    await asyncio.sleep(job.pace)
                async with self.slots:
                    choice = None
                    if job.kind == "ismcts" and job.options > 1:
                        choice = await self._search(room, job)
                    await self._run(room.bot_step, job, choice, 0.0 if job.pace else STEP_BUDGET)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # noqa: BLE001 - one game's bots stop (and say why); the server goes on
            LOG.warning("the bots of game %s stopped: %s", room.id, err)
        finally:
            self.playing.pop(room.id, None)

    async def _search(self, room, job) -> int | None:
        request = await self._run(room.search_request, job)
        if self.searchers is None:
            spawn = multiprocessing.get_context("spawn")  # never fork a process with threads
            self.searchers = [ProcessPoolExecutor(1, mp_context=spawn, initializer=_worker_started)
                              for _ in range(self.cap)]
        pool = self.searchers[zlib.crc32(room.id.encode()) % len(self.searchers)]
        choice, why = await self.loop.run_in_executor(pool, search, request)
        if why is not None:  # OpenSpiel missing or the search lost: a random answer rather than a stopped game
            LOG.warning("game %s: the ismcts bot answers at random: %s", room.id, why)
        return choice


# ---------------------------------------------------------------- in a search worker process
def _worker_started() -> None:
    os.nice(5)  # the server's pages come first


@dataclass
class _Followed:
    """What an ISMCTS agent reads of the game it follows: the game, its setup and the answers given so far."""
    game: object
    state: SimpleNamespace
    history: list = field(default_factory=list)


_following: OrderedDict = OrderedDict()  # (game id, seat) -> (_Followed, agent): this worker process's own


def search(request: dict) -> tuple[int | None, str | None]:
    """An ISMCTS bot's answer to the decision after `request["history"]`, by a search in this worker process:
    (the option, None), or (None, why) when there is no search to make."""
    try:
        return _search(request), None
    except DiagnosticError as err:
        _following.pop((request["game"], request["seat"]), None)
        return None, err.diagnostics[0].message


def _search(request: dict) -> int:
    from interpreter.agents.players import make_agent
    from interpreter.runtime.games import load_compiled
    key = (request["game"], request["seat"])
    held = _following.pop(key, None)
    history = request["history"]
    if held is None or held[0].history != history[:len(held[0].history)]:  # new here, or undone since
        state = SimpleNamespace(players=request["players"], seed=request["seed"], variants=tuple(request["variants"]))
        followed = _Followed(load_compiled(request["ref"]), state)
        agent = make_agent("ismcts", request["seat"], request["seed"], {"simulations": request["simulations"]})
        agent.attach(followed)
        held = (followed, agent)
    _following[key] = held
    while len(_following) > FOLLOWED:
        _following.popitem(last=False)
    followed, agent = held
    followed.history[:] = history
    return int(agent.decide(SimpleNamespace(values=range(request["options"])), None))
