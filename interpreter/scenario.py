"""Scenario tests: a rules example written as data, run against a game's content.

A scenario names a game, players and a seed; runs the game's setup (or starts from an empty
table); arranges the table with `given` statements in the rules language; runs one call with
scripted decisions; then every `expect` expression must be true.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dsl import ast
from dsl.checker import Scope
from dsl.diagnostics import Diagnostic, DiagnosticError, Report, Source
from dsl.parser import parse_expression, parse_module
from dsl.schema_check import load_schema, validate
from dsl.yaml_records import YamlDoc, load_yaml
from interpreter.agents import ScriptedAgent, ScriptExhausted
from interpreter.codegen import compile_expression, compile_statements
from interpreter.decisions import IllegalDecision
from interpreter.games import load_compiled
from interpreter.runtime import Session


@dataclass
class ScenarioOutcome:
    name: str
    path: str
    failures: list = field(default_factory=list)  # human-readable lines
    diagnostics: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.diagnostics

    def render(self) -> str:
        head = f"{'PASS' if self.ok else 'FAIL'} {self.path}: {self.name}"
        lines = [head] + [f"  {f}" for f in self.failures] + [d.render() for d in self.diagnostics]
        return "\n".join(lines)


def run_scenario(path: Path) -> ScenarioOutcome:
    text = path.read_text(encoding="utf-8")
    doc, problems = load_yaml(str(path), text)
    outcome = ScenarioOutcome(path.stem, str(path))
    if not problems and doc.data is not None:
        problems = validate(doc, load_schema("scenario.schema.json"))
    if problems:
        outcome.diagnostics = problems
        return outcome
    data = doc.data
    outcome.name = data["name"]
    try:
        _run(doc, data, path, outcome)
        if data.get("expect_error"):
            outcome.failures.append(f"expected the run to stop with {data['expect_error']}, but it did not")
    except DiagnosticError as err:
        expected = data.get("expect_error")
        codes = [d.code for d in err.diagnostics]
        if expected and expected in codes:
            return outcome
        outcome.diagnostics.extend(err.diagnostics)
    return outcome


def _game_ref(data: dict, path: Path) -> str:
    ref = data["game"]
    candidate = (path.parent / ref)
    return str(candidate) if (candidate / "game.yaml").is_file() else ref


def _run(doc: YamlDoc, data: dict, path: Path, outcome: ScenarioOutcome) -> None:
    game = load_compiled(_game_ref(data, path))
    content = game.content
    players = data.get("players", content.manifest["players"].get("default", content.manifest["players"]["min"]))
    session = Session(game, players, data.get("seed", 0), tuple(data.get("variants", [])), start=False, trace=True)
    script = ScriptedAgent(data.get("decisions", []))

    def drive(step: str) -> bool:
        while session.pending is not None:
            try:
                label = script.decide(session.pending, None)
            except ScriptExhausted:
                if data.get("expect_pending") and step == "run":
                    return True
                outcome.failures.append(f"{step}: no scripted decision left for {session.pending.prompt!r}; "
                                        f"options: {', '.join(session.pending.labels)}")
                return False
            try:
                session.answer(label)
            except IllegalDecision as err:
                where = doc.span(("decisions", script.position - 1))
                raise DiagnosticError([Diagnostic("DECISION-ILLEGAL", str(err), where)]) from None
        return True

    if data.get("setup", "run") == "run" and content.manifest.get("setup"):
        session.call(content.manifest["setup"])
        if not drive("setup"):
            return
    if data.get("given"):
        session.begin(_statements(game, doc, ("given",), data["given"])(session.rt))
        if not drive("given"):
            return
    run = data.get("run") or f"{content.manifest['start']}()"
    session.begin(_statements(game, doc, ("run",), run)(session.rt))
    if not drive("run"):
        return
    if data.get("expect_pending"):
        wanted = data["expect_pending"]
        if session.pending is None or wanted not in session.pending.labels:
            shown = ", ".join(session.pending.labels) if session.pending else "nothing is asked"
            outcome.failures.append(f"expected '{wanted}' among the next decision's options; got: {shown}")
    unused = script.remaining()
    if unused:
        outcome.failures.append(f"{len(unused)} scripted decision(s) were never asked: {unused}")
    for i, text in enumerate(data["expect"]):
        _expect(game, doc, ("expect", i), text, session, outcome)


def _statements(game, doc: YamlDoc, key: tuple, text: str):
    """Compile rule statements from the scenario file: fn(rt) -> a generator of decisions."""
    inner = doc.source_of(key, text)
    body = "\n".join("    " + line for line in text.splitlines())
    source = Source(inner.path, "procedure scenario_step():\n" + body + "\n", inner.file_text,
                    inner.line_offset - 1, inner.col_offset - 4, block=True)
    module = parse_module(source)
    _check(game, module.decls[0].body, None)
    return compile_statements(game, module.decls[0].body)


def _check(game, stmts: list | None, expr) -> str | None:
    content = game.content
    report = Report()
    checker = content.checker
    saved = checker.report
    checker.report = report
    try:
        if stmts is not None:
            checker.check_block(stmts, Scope({}), in_proc=True)
            result = None
        else:
            result = checker.expr(expr, Scope({}))
    finally:
        checker.report = saved
    report.raise_if_errors()
    return result


def _expect(game, doc: YamlDoc, key: tuple, text: str, session: Session, outcome: ScenarioOutcome) -> None:
    node = parse_expression(doc.source_of(key, text))
    _check(game, None, node)
    try:
        value = compile_expression(game, node)(session.rt)
    except Exception as exc:  # an expectation that cannot be evaluated is a failure, not a traceback
        outcome.failures.append(f"{doc.span(key)}: cannot evaluate {text.strip()!r}: {type(exc).__name__}: {exc}")
        return
    if value is True:
        return
    detail = ""
    if isinstance(node, ast.Binary) and node.op in ("==", "!=", "<", "<=", ">", ">=", "in", "notin"):
        left = compile_expression(game, node.left)(session.rt)
        right = compile_expression(game, node.right)(session.rt)
        detail = f" (left side: {_listing(left, node.left.type)}; right side: {_listing(right, node.right.type)})"
    span = doc.span(key)
    outcome.failures.append(f"{span}: expected {text.strip()!r}{detail}")


def _listing(value, t: str) -> str:
    from interpreter.codegen.library import show
    from interpreter.state import Zone
    if isinstance(value, Zone):
        return f"{show(value)} [{show(value.items, 'list[entity]')}]"
    return show(value, t)


def find_scenarios(paths: list[Path]) -> list[Path]:
    found = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.yaml")))
        elif p.is_file():
            found.append(p)
    return found

