"""What a position is worth to each player, by the game's own evaluation (the manifest's `bots: evaluation:`,
by default the table's score function: dsl.bots_spec), compiled with the game (`CompiledGame.evaluation`).

The bots read it only on a table of their own: a world drawn from what their player knows (line.sample),
or a copy of one. The raw evaluations of the players become chances to win by a softmax with the game's
`scale` (a lead of `scale` points counts as odds of about e to 1), so that a position cut short is valued
on the same footing as a finished game (the winners share 1): the values sum to 1.
"""
from __future__ import annotations

import math

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen import RunLimit
from interpreter.runtime.failures import _explain


def evaluations(session) -> list | None:
    """The game's evaluation of each seat on this table (None: the game declares nothing to value).
    A failure is content's: a RUN-ERROR (or RUN-LIMIT) naming the evaluation, never a traceback."""
    fn = session.game.evaluation
    if fn is None:
        return None
    rt = session.rt
    steps, calls = rt.steps, rt.calls  # the evaluation is no step of the game: its budget is its own
    rt.steps = rt.calls = 0
    try:
        values = [fn(rt, p) for p in range(session.state.players)]
    except DiagnosticError:
        raise
    except Exception as exc:  # noqa: BLE001 - content's failure, told in the rules' words
        code = "RUN-LIMIT" if isinstance(exc, RunLimit) else "RUN-ERROR"
        raise DiagnosticError([Diagnostic(code, f"the bots' evaluation ({session.game.content.bots.text}): {_explain(exc)}",
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


def value(session) -> list[float]:
    """Each seat's chance to win as the evaluation sees this table; at the end, the game's own returns
    (the winners share 1); equal shares when the game declares nothing to value."""
    players = session.state.players
    if session.pending is None:
        return finished(session)
    values = evaluations(session)
    if values is None:
        return [1.0 / players] * players
    return chances(values, session.game.content.bots.scale)


def finished(session) -> list[float]:
    """A finished game's returns, as the adapters give them (line.Line.returns): the winners share 1."""
    players = session.state.players
    result = session.result
    winners = sorted({w for w in (result.winners if result else ()) if isinstance(w, int) and 0 <= w < players})
    if not winners:
        return [1.0 / players] * players
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(players)]


def one_ahead(session, seat: int) -> list[float]:
    """Each option of `session`'s pending decision valued for `seat`: its chance to win by the evaluation once
    that option is answered on a copy (`Session.copy`) of a table of the bot's own (a sampled world, a copy)."""
    out = []
    for index in range(len(session.pending.values)):
        ahead = session.copy()
        ahead.keep_labels = False  # nobody reads this copy's labels nor its lines (a copy has no listener)
        ahead.answer(index)
        out.append(value(ahead)[seat])
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
