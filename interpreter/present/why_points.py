"""Points inside a decision's resolution, for `rules explain LOG --why EXPR --at POINT` and `--steps N`.

After a decision is answered, the game runs on to the next one: a combat is resolved, cards are discarded,
units removed. `--at N` looks at the table after all of that; a point inside it is one *step*, a procedure
(or event) of the rules starting its body:

    --at 339                      after decision 339, where the game asks the next decision
    --at 339:resolve_combat       as the first call of resolve_combat after decision 339 begins
    --at 339:resolve_combat#2     as its second call begins
    --at 339:7                    before step 7 after decision 339 (`--steps 339` lists and numbers them)

At a step the expression may also name the arguments of the procedure starting there (its parameters).
The steps are found on a private compilation of the game whose procedures are wrapped to report each
start: the game that plays (and its cached compilation) is never touched, and a replay reaches the same
point every time (the game is deterministic).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.codegen.source import PROC, mangle

MAX_STEPS_LISTED = 2000
_POINT = re.compile(r"^\s*(\d+)\s*(?::\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)(?:\s*#\s*(\d+))?)\s*)?$")


@dataclass(frozen=True)
class Point:
    decision: int | None  # None: the end of the log
    step: int | None = None  # before the k-th step after the decision
    event: str | None = None  # at the start of this procedure's `occurrence`-th call after the decision
    occurrence: int = 1

    @property
    def inside(self) -> bool:
        return self.step is not None or self.event is not None

    def text(self) -> str:
        if self.decision is None:
            return "the end"
        if self.step is not None:
            return f"{self.decision}:{self.step}"
        if self.event is not None:
            return f"{self.decision}:{self.event}" + (f"#{self.occurrence}" if self.occurrence > 1 else "")
        return str(self.decision)


def parse_point(text: str | None) -> Point:
    """`--at`'s value: N, N:K, N:EVENT or N:EVENT#K (a USAGE error for anything else)."""
    if text is None:
        return Point(None)
    m = _POINT.match(str(text))
    if not m or (m[2] is not None and int(m[2]) < 1) or (m[4] is not None and int(m[4]) < 1):
        raise DiagnosticError([Diagnostic("USAGE", f"--at {str(text)[:60]}: write N, N:STEP, N:EVENT or N:EVENT#K",
                                          hint="N: after decision N; STEP (from 1): before that step of what follows it "
                                               "(--steps N lists them); EVENT: as that procedure starts")])
    return Point(int(m[1]), int(m[2]) if m[2] else None, m[3], int(m[4]) if m[4] else 1)


@dataclass
class Step:
    number: int  # from 1, after the decision
    event: str
    args: list  # the values it was called with
    depth: int  # procedures running around it
    types: list  # its parameters' types, for their words


class Reached(BaseException):
    """The point was reached: the game stops there (a BaseException: the engine never takes it for content's)."""


@dataclass
class Watch:
    """Where a watched game reports each step: fn(name, args, depth), or None (not watching)."""

    on_step: object = None


def watched_game(game) -> tuple:
    """(a private compilation of the game whose every procedure body reports its start, its Watch); made once per
    game and process."""
    if "why steps" not in game.derived:
        from dsl.limits import deep_recursion
        from interpreter.codegen import compile_game
        with deep_recursion():
            copy = compile_game(game.content)
        watch = Watch()
        generated = set(copy.sources)
        for name, proc in copy.procs.items():
            key = mangle(PROC, name)
            body = copy.namespace.get(key)
            if body is not None:
                wrapped = _wrap(watch, name, body, generated)
                copy.namespace[key] = wrapped  # the calls the generated code makes by name
                proc.body = wrapped  # the calls through the runtime's events
        game.derived["why steps"] = (copy, watch)
    return game.derived["why steps"]


def _wrap(watch: Watch, name: str, body, generated: set):
    def started(rt, *args):
        if watch.on_step is not None:
            watch.on_step(name, list(args), _depth(generated))
        return body(rt, *args)
    return started


def _depth(generated: set) -> int:
    """How many procedures of the rules are running around this point (their frames on the stack)."""
    frame, n = sys._getframe(2), 0
    while frame is not None:
        if frame.f_code.co_filename in generated and frame.f_code.co_name.startswith("p_"):
            n += 1
        frame = frame.f_back
    return n


def replay_to(game, log: dict, point: Point, lang: str, allow_changed: bool, at_step=None):
    """A session of the log's game at `point`. Inside a resolution, `at_step(session, step)` is called at that
    step (on the table as it is at that moment) and its value returned; after a decision, the session itself."""
    n = _check(game, log, point)
    if not point.inside:
        from interpreter.runtime.session import Session
        session = Session(game, log["players"], log["seed"], tuple(log["variants"]), start=False, lang=lang)
        session.call(game.content.manifest["start"])
        for index, _ in log["decisions"][:len(log["decisions"]) if n is None else n]:
            if session.pending is None:
                break
            session.answer(index)
        return session
    found: list = []

    def on_step(session, steps: list) -> None:
        step = steps[-1]
        hit = step.number == point.step if point.step is not None else \
            (step.event == point.event and sum(1 for s in steps if s.event == step.event) == point.occurrence)
        if hit:
            found.append(at_step(session, step))
            raise Reached()

    steps, _ = _resolution(game, log, n, lang, on_step)
    if found:
        return found[0]
    raise DiagnosticError([Diagnostic("USAGE", f"--at {point.text()}: " + (
        f"only {len(steps)} steps follow decision {n}" if point.step is not None else
        f"'{point.event}' is called {sum(1 for s in steps if s.event == point.event)} times after decision {n}"),
        hint=f"rules explain LOG --steps {n} lists them")])


def steps_after(game, log: dict, n: int, lang: str, allow_changed: bool) -> tuple:
    """Every step of the resolution after decision n (0: the game's start, up to the first decision), and the
    session where they ran (its table is where the next decision is asked)."""
    _check(game, log, Point(n, step=1))
    return _resolution(game, log, n, lang, None)


def _check(game, log: dict, point: Point) -> int | None:
    total = len(log["decisions"])
    n = point.decision
    if n is not None and not 0 <= n <= total:
        raise DiagnosticError([Diagnostic("USAGE", f"--at {point.text()}: the log has decisions 1 to {total}",
                                          hint="--at N explains the table after decision N (0: before the first)")])
    if game.content.content_hash != log["content_hash"] and not allow_changed:
        raise DiagnosticError([Diagnostic("LOG-GAME", "the content changed since the log was written",
                                          hint="explain it anyway with --allow-changed-content")])
    if point.event is not None and point.event not in game.procs:
        raise DiagnosticError([Diagnostic("USAGE", f"--at {point.text()}: no procedure or event '{point.event}'",
                                          hint=did_you_mean(point.event, game.procs) or f"--steps {n} lists the steps")])
    return n


def _resolution(game, log: dict, n: int, lang: str, on_step) -> tuple:
    """Replay the log's first n decisions on a watched copy of the game, collecting the steps of what follows
    decision n (up to the next decision or the end); `on_step(session, steps)` may stop it by raising Reached."""
    from interpreter.runtime.session import Session
    watched, watch = watched_game(game)
    session = Session(watched, log["players"], log["seed"], tuple(log["variants"]), start=False, lang=lang)
    steps: list = []
    armed = [n == 0]

    signatures = watched.content.checker.signatures

    def started(name: str, args: list, depth: int) -> None:
        if armed[0]:
            sig = signatures.get(name)
            types = [p.type or "any" for p in sig.params] if sig is not None else []
            steps.append(Step(len(steps) + 1, name, args, depth, (types + ["any"] * len(args))[:len(args)]))
            if on_step is not None:
                on_step(session, steps)

    watch.on_step = started
    try:
        session.call(watched.content.manifest["start"])
        for k, (index, _) in enumerate(log["decisions"][:n]):
            if session.pending is None:
                break
            armed[0] = k == n - 1
            session.answer(index)
    except Reached:
        pass
    finally:
        watch.on_step = None
    return steps, session


def step_names(game, step: Step) -> dict:
    """The parameters of the procedure starting at a step: name -> (type, value), for the expression to read."""
    sig = game.content.checker.signatures.get(step.event)
    params = sig.params if sig is not None else []
    return {p.name: (t, v) for p, t, v in zip(params, step.types, step.args)}


def step_line(pr, step: Step, base: int = 0) -> str:
    """A step in words: its number, the procedure (by its word) and what it was called with, indented by how
    deep it runs below `base`."""
    from interpreter.present.phrases import say
    args = ", ".join(pr.value(a, t) for a, t in zip(step.args, step.types))
    return "  " * max(0, step.depth - base) + say(pr.lang, "why step", n=step.number, event=pr.word(step.event),
                                                  args=f" ({args})" if args else "")
