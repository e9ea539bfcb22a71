"""One hostile input: what to set up, which `rules` command to run, and what a clean answer looks like.

Every case runs in its own folder: `game/` is a copy of `base_game/` with the case's edits, and
`secret.txt` lies next to it, outside the game, holding SECRET. Command lines and text files may say
`{tmp}` (the case folder), `{game}` and `{log}` (a log of the base game, after the case's changes).
`run_rules` runs the command in this process, under a time limit, as the corpus and the fuzz tests do.
"""
from __future__ import annotations

import contextlib
import io
import signal
import sys
import traceback
from dataclasses import dataclass
from typing import Callable

from interpreter.cli import main

SECRET = "HOSTILE-SECRET-7f3a"
SECRET_TEXT = f"{SECRET}: a file outside the game folder; nothing of it may be read or shown\n- id: leaked\n"


@dataclass(frozen=True)
class Case:
    name: str
    cls: int  # the class of issue 7 it belongs to (1-9)
    argv: tuple  # the `rules` command line
    expect: str | None = None  # a diagnostic code the output must show; None: the command must succeed
    exit: int | None = None  # the exact exit code, when it matters (2 for usage errors)
    edits: tuple = ()  # (file, old, new): text replaced in a file of the case folder (old must be there)
    files: tuple = ()  # (file, str | bytes): files written into the case folder
    links: tuple = ()  # (file, target): symbolic links made in the case folder
    log: Callable | None = None  # base log dict -> dict, str or bytes written to {tmp}/log.json
    stdin: str = ""
    shell: str | None = None  # a shell line run in a subprocess; `rules` there is this project's CLI
    env: tuple = ()  # (name, value or None to unset) for a subprocess
    isolate: bool = False  # run in a subprocess under a memory limit
    where: str | None = None  # text the output must contain, e.g. "main.rules:2:9"
    text: str | None = None  # another phrase the output must contain
    timeout: float = 10.0  # seconds
    setup: Callable | None = None  # fn(case_folder) for what files cannot say (FIFOs, sparse files)
    memory_mib: int | None = None  # run in a subprocess whose address space is at most this (default: the corpus's)
    needs: tuple = ()  # modules of an optional extra the command needs (ray, matplotlib): skipped without them

    @property
    def subprocess(self) -> bool:
        return self.isolate or self.shell is not None or bool(self.env) or self.memory_mib is not None


def validate(name: str, cls: int, expect: str | None, **kw) -> Case:
    return Case(name, cls, ("validate", "{game}"), expect, **kw)


def play(name: str, cls: int, expect: str | None, *extra: str, **kw) -> Case:
    return Case(name, cls, ("play", "{game}", *extra), expect, **kw)


def replay(name: str, cls: int, expect: str | None, log: Callable, *extra: str, **kw) -> Case:
    return Case(name, cls, ("replay", "{log}", *extra), expect, log=log, **kw)


def manifest(old: str, new: str) -> tuple:
    return (("game/game.yaml", old, new),)


def rules(text: str) -> tuple:
    """The base game's rules replaced by `text`."""
    return (("game/rules/main.rules", text),)


def play_body(body: str) -> tuple:
    """The base game's rules replaced by one procedure play() with this (indented) body."""
    return rules("procedure play():\n" + "".join(f"    {line}\n" for line in body.splitlines()))


def cards(text: str | bytes) -> tuple:
    return (("game/cards.yaml", text),)


def function(expr: str) -> tuple:
    """The base rules plus a function whose body is `expr`."""
    return (("game/rules/main.rules", "", f"\nfunction hostile() = {expr}\n"),)


def appended(file: str, text: str) -> tuple:
    """An edit that adds text at the end of a file of the case folder."""
    return ((file, "", text),)


class _TimeLimit(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` in the engine swallows it."""


def run_rules(argv: tuple, stdin: str = "", timeout: float = 10.0) -> tuple:
    """`rules ARGV` in this process: (exit code, or "time limit" / "traceback"; stdout and stderr together)."""
    out = io.StringIO()

    def alarm(signum, frame):
        raise _TimeLimit

    previous = signal.signal(signal.SIGALRM, alarm)
    saved_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = main(list(argv))
            except SystemExit as exc:  # argparse's own usage errors
                code = exc.code if isinstance(exc.code, int) else 2
            except _TimeLimit:
                code = "time limit"
            except BaseException:  # what a user would see as a traceback
                traceback.print_exc(file=out)
                code = "traceback"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = saved_stdin
    return code, out.getvalue()
