"""A progress bar on standard error for `rules simulate`: games done, games per second, errors, time left.

Shown only when standard error is a terminal (and not under --json); with `rich` installed
(`pip install -e ".[progress]"`, also part of the ray and report extras) it is rich's bar, else
one plain line rewritten in place. It never runs a thread of its own: it is redrawn as results
come in, so worker processes can be forked at any time.
"""
from __future__ import annotations

import sys
import time


class NoProgress:
    def start(self, title: str, total: int) -> None:
        pass

    def advance(self, records: list) -> None:
        pass

    def stop(self) -> None:
        pass


class Progress:
    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.total = 0
        self.done = 0
        self.errors = 0
        self.began = 0.0
        self.bar = None
        self.task = None

    def start(self, title: str, total: int) -> None:
        self.total, self.done, self.errors, self.began = total, 0, 0, time.perf_counter()
        try:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeRemainingColumn
        except ImportError:
            self.bar = None
            self._plain()
            return
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]} games/s"), TextColumn("{task.fields[errors]} errors"),
                                TimeRemainingColumn(), console=Console(file=self.stream), auto_refresh=False,
                                transient=True)
        self.bar.start()
        self.task = self.bar.add_task(title, total=total, rate="-", errors=0)
        self.bar.refresh()

    def advance(self, records: list) -> None:
        self.done += len(records)
        self.errors += sum(1 for r in records if r.get("error"))
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, rate=self._rate(), errors=self.errors)
            self.bar.refresh()
        else:
            self._plain()

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        else:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def _rate(self) -> str:
        seconds = time.perf_counter() - self.began
        return f"{self.done / seconds:.1f}" if seconds > 0 and self.done else "-"

    def _plain(self) -> None:
        seconds = time.perf_counter() - self.began
        left = ""
        if self.done and seconds > 0:
            left = f", {max(0.0, (self.total - self.done) * seconds / self.done):.0f} s left"
        self.stream.write(f"\r\033[K{self.done}/{self.total} games, {self._rate()} games/s, {self.errors} errors{left}")
        self.stream.flush()


def progress_for(json_output: bool, stream=None):
    stream = stream or sys.stderr
    if json_output or not getattr(stream, "isatty", lambda: False)():
        return NoProgress()
    return Progress(stream)
