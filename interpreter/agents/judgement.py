"""What a position is worth to each player, by the game's own evaluation (the manifest's `bots: evaluation:`,
by default the table's score function: dsl.bots_spec), compiled with the game (`CompiledGame.evaluation`).

The bots read it only on a table of their own: a world drawn from what their player knows (line.sample),
or a copy of one. The raw evaluations of the players become chances to win by a softmax with the game's
`scale` (a lead of `scale` points counts as odds of about e to 1), so that a position cut short is valued
on the same footing as a finished game (the winners share 1): the values sum to 1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen import RunLimit
from interpreter.runtime.failures import _explain


@dataclass(frozen=True)
class Judge:
    """An evaluation: fn(rt, seat) -> number, its scale, and its text (for errors)."""
    fn: object
    scale: float
    text: str


def game_judge(game) -> Judge | None:
    """The game's own evaluation (`bots:` in its manifest, else its table's score), None if it has none."""
    if game.evaluation is None:
        return None
    return Judge(game.evaluation, game.content.bots.scale, game.content.bots.text)


def judge_of(game, text: str, scale: float = 1) -> Judge:
    """Another evaluation of the game, written as the manifest's would be (a number for `you`), checked and
    compiled as it is: for tuning an evaluation before it goes into the manifest, or a bot of one's own."""
    from dsl.bots_spec import PLAYER
    from dsl.diagnostics import Report, Source
    from dsl.parser import parse_expression
    from dsl.types import Scope
    from interpreter.codegen import compile_expression
    node = parse_expression(Source("evaluation", text))
    checker = game.content.checker
    saved, checker.report = checker.report, Report()
    try:
        found = checker.expr(node, Scope({PLAYER: "player"}))
        problems = checker.report.diagnostics
    finally:
        checker.report = saved
    if problems or found not in ("number", "any"):
        raise DiagnosticError(problems or [Diagnostic("TYPE-MISMATCH", f"an evaluation is a number, not a {found}")])
    return Judge(compile_expression(game, node, (PLAYER,)), scale, text)


def evaluations(session, judge: Judge | None = None) -> list | None:
    """The evaluation of each seat on this table (the game's unless `judge` says otherwise; None: nothing to
    value). A failure is content's: a RUN-ERROR (or RUN-LIMIT) naming the evaluation, never a traceback."""
    judge = judge or game_judge(session.game)
    if judge is None:
        return None
    fn = judge.fn
    rt = session.rt
    steps, calls = rt.steps, rt.calls  # the evaluation is no step of the game: its budget is its own
    rt.steps = rt.calls = 0
    try:
        values = [fn(rt, p) for p in range(session.state.players)]
    except DiagnosticError:
        raise
    except Exception as exc:  # noqa: BLE001 - content's failure, told in the rules' words
        code = "RUN-LIMIT" if isinstance(exc, RunLimit) else "RUN-ERROR"
        raise DiagnosticError([Diagnostic(code, f"the bots' evaluation ({judge.text}): {_explain(exc)}",
                                          session.where(exc))]) from None
    finally:
        rt.steps, rt.calls = steps, calls
    return [v if type(v) in (int, float) else 0 for v in values]  # none (an empty max) counts as nothing


def chances(values: list, scale: float) -> list[float]:
    """Raw evaluations as chances to win that sum to 1: a softmax of values / scale."""
    top = max(values)
    weights = [math.exp((v - top) / scale) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def value(session, judge: Judge | None = None) -> list[float]:
    """Each seat's chance to win as the evaluation sees this table; at the end, the game's own returns
    (the winners share 1); equal shares when the game declares nothing to value."""
    players = session.state.players
    if session.pending is None:
        return finished(session)
    judge = judge or game_judge(session.game)
    values = evaluations(session, judge)
    if values is None:
        return [1.0 / players] * players
    return chances(values, judge.scale)


def finished(session) -> list[float]:
    """A finished game's returns, as the adapters give them (line.Line.returns): the winners share 1."""
    players = session.state.players
    result = session.result
    winners = sorted({w for w in (result.winners if result else ()) if isinstance(w, int) and 0 <= w < players})
    if not winners:
        return [1.0 / players] * players
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]


def one_ahead(session, seat: int, judge: Judge | None = None) -> list[float]:
    """Each option of `session`'s pending decision valued for `seat`: its chance to win by the evaluation once
    that option is answered on a copy (`Session.copy`) of a table of the bot's own (a sampled world, a copy)."""
    out = []
    for index in range(len(session.pending.values)):
        ahead = session.copy()
        ahead.keep_labels = False  # nobody reads this copy's labels nor its lines (a copy has no listener)
        ahead.answer(index)
        out.append(value(ahead, judge)[seat])
        unlink(ahead)
    return out


def unlink(session) -> None:
    """Unlink a table nobody reads again, so that it is freed at once: its components and their zones point at
    each other, as do components whose attributes name others (and the runtime at its resolver), so left as it
    is, every copy would wait for the cycle collector, which then walks thousands of objects each time."""
    for e in session.state.entities.values():
        e.zone = None
        e.zones = None
        e.attrs = None  # a copy's own attributes naming components (the copy shares the others, untouched here)
    session.rt.resolver = None


def catch_up(agent, name: str) -> None:
    """A search agent's own line (`agent.line`, the game it follows: line.Line) given the answers of the game it
    is attached to (`agent.session`) since it last decided; the agent reads those answers, never that game's state."""
    if agent.session is None:
        raise DiagnosticError([Diagnostic("USAGE", f"the {name} agent plays only a game it is attached to")])
    history, line = agent.session.history, agent.line
    if line.answers != history[:len(line.answers)]:
        raise DiagnosticError([Diagnostic("RUN-ERROR", f"the {name} agent lost track of the game")])
    for answer in history[len(line.answers):]:
        line.apply(answer)
