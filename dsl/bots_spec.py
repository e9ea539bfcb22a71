"""What bots judge a position by, declared as data in the manifest's `bots:` section and checked with the
rest of the game (docs/language.md, "Bots' judgement"). Search agents cut their rollouts and order
their moves by it; the greedy agent plays one move ahead by it.

    bots:
      evaluation: "10 * points_now(you) + len(domains of you)"   # a number for the player `you`
      scale: 30            # a lead of this much in the evaluation counts as odds of about e to 1
      search: {simulations: 200}   # the search agent's settings for this game, where none are given

The evaluation is an expression of the rules in which `you` is the player valued. Without one, it is
the table's score function (`table: score:`), else the manifest's `score` variable. It is read on any
table (also in the middle of a game, also in a world a search dealt itself), never by the engine's
rules, and it is compiled with the game (interpreter.codegen).
"""
from __future__ import annotations

from dataclasses import dataclass

from dsl.diagnostics import DiagnosticError, Report, Source
from dsl.types import Scope

PLAYER = "you"  # the name of the player the evaluation values


@dataclass(frozen=True)
class BotsSpec:
    evaluation: object = None  # the checked expression (dsl.ast), None when the game has nothing to value
    text: str | None = None  # as written (or made from the table's score)
    scale: int = 1  # evaluation points worth one unit of the softmax that turns them into chances to win
    declared: bool = False  # written under `bots:` (else the default)
    # `search:` the search agent's settings for this game where its caller gives none ((name, value), sorted;
    # names and ranges checked by the schema): a budget fitted to what a decision of the game costs
    search: tuple = ()


def read_bots_spec(raw, doc, voc, checker, report: Report) -> BotsSpec:
    """The manifest's `bots:` as a BotsSpec, its evaluation parsed and checked where it stands (a number for `you`)."""
    from dsl.parser import parse_expression
    raw = raw if isinstance(raw, dict) else {}
    scale = raw.get("scale", 1)
    scale = scale if isinstance(scale, int) and not isinstance(scale, bool) and scale > 0 else 1  # the schema says so
    search = raw.get("search")
    search = tuple(sorted((k, v) for k, v in search.items() if isinstance(v, (int, float)) and not isinstance(v, bool))) \
        if isinstance(search, dict) else ()
    text = raw.get("evaluation")
    if text is not None:
        try:
            node = parse_expression(doc.source_of(("bots", "evaluation"), text))
        except DiagnosticError as err:
            report.add(err.diagnostics)
            return BotsSpec(None, text, scale, True, search)
        found = checker.expr(node, Scope({PLAYER: "player"}))
        if found not in ("number", "any"):
            report.error("TYPE-MISMATCH", f"bots: the evaluation is a number for the player `{PLAYER}`, not a {found}",
                         doc.span(("bots", "evaluation")),
                         f"for example: bots: {{evaluation: \"score_now({PLAYER})\"}}")
        return BotsSpec(node, text, scale, True, search)
    # the default: the table's score function (checked with the table), else the manifest's score variable
    score = voc.table.score
    variable = voc.variables.get(doc.data.get("score")) if isinstance(doc.data, dict) else None
    if score is not None:
        text = f"{score}({PLAYER})"
    elif variable is not None and variable.scope == "player" and variable.type == "number":
        text = f"{PLAYER}.{variable.name}"
    else:
        return BotsSpec(None, None, scale, False, search)
    node = parse_expression(Source("game.yaml table.score", text))
    saved, checker.report = checker.report, Report()  # names already checked where the manifest gives them
    try:
        checker.expr(node, Scope({PLAYER: "player"}))
    finally:
        checker.report = saved
    return BotsSpec(node, text, scale, False, search)
