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
from dsl.diagnostics import Diagnostic, DiagnosticError, Report, Source, Span
from dsl.inputs import read_text
from dsl.limits import MAX_EXPECTATIONS, MAX_RULE_TEXT, deep_recursion
from dsl.parser import parse_expression, parse_module
from dsl.schema_check import load_schema, validate
from dsl.yaml_records import YamlDoc, load_yaml
from interpreter.agents.players import ScriptExhausted
from interpreter.codegen import compile_expression, compile_statements
from interpreter.codegen.library import show
from interpreter.core.decisions import IllegalDecision, player_label
from interpreter.present.words import prompt
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from interpreter.scenarios.chance import ScriptedChance
from interpreter.scenarios.script import ScenarioScript, ScriptMismatch
from dsl.paths import shown_path
from dsl.plurals import plural


@dataclass
class ScenarioOutcome:
    name: str
    path: str
    failures: list = field(default_factory=list)  # human-readable lines
    diagnostics: list = field(default_factory=list)
    game: object = None  # the CompiledGame it ran against, once loaded (rule coverage reads its code)

    @property
    def ok(self) -> bool:
        return not self.failures and not self.diagnostics

    def render(self, seen: set | None = None) -> str:
        """The outcome in words. With `seen` (a run of several scenarios), a diagnostic of the game's own files
        printed for an earlier scenario is not printed again: one line says so instead."""
        head = f"{'PASS' if self.ok else 'FAIL'} {self.path}: {self.name}"
        lines = [head] + [f"  {f}" for f in self.failures]
        again = 0
        for d in self.diagnostics:
            text = d.render()
            if seen is not None and (d.span is None or d.span.path != self.path):  # the game's, not this file's
                if text in seen:
                    again += 1
                    continue
                seen.add(text)
            lines.append(text)
        if again:
            lines.append(f"  (and the game's {again} error{'s' if again > 1 else ''} printed above)")
        return "\n".join(lines)


def run_scenario(path: Path, for_coverage: bool = False) -> ScenarioOutcome:
    """Run one scenario file; `for_coverage`: against the game compiled for rule coverage (scenarios.coverage)."""
    shown = shown_path(path)  # as diagnostics name files: its path in its repository
    outcome = ScenarioOutcome(path.stem, shown)
    try:
        text = read_text(path, shown)
    except DiagnosticError as err:  # too large, not UTF-8, not a file
        outcome.diagnostics = err.diagnostics
        return outcome
    doc, problems = load_yaml(shown, text)
    if not problems and doc.data is None:
        problems = [Diagnostic("CONTENT-MISSING", "the scenario file is empty", Span(shown, 1, 1),
                               "a scenario names at least a game and its expectations")]
    elif not problems:
        problems = _check_schema(doc) or _check_size(doc)
    if problems:
        outcome.diagnostics = problems
        return outcome
    data = doc.data
    outcome.name = data["name"]
    try:
        with deep_recursion():  # the scenario's own rule text is checked and compiled here, not at load
            _run(doc, data, path, outcome, for_coverage)
    except DiagnosticError as err:  # the game or a scenario text cannot be loaded: nothing to check against
        outcome.diagnostics.extend(err.diagnostics)
    return outcome


UNUSED_SHOWN = 10  # scripted decisions never asked that a failure lists; the rest are counted


def _check_schema(doc: YamlDoc) -> list:
    """The scenario schema, but a long list of plain labels under `decisions` is not walked entry by entry
    (jsonschema's oneOf costs some 50 microseconds an entry: a million labels would take minutes): the
    labels are checked to be text here, and only the other entries against the schema of an entry."""
    schema = load_schema("scenario.schema.json")
    entries = doc.data.get("decisions") if isinstance(doc.data, dict) else None
    if not isinstance(entries, list):
        return validate(doc, schema)
    outer = {**schema, "properties": {**schema["properties"], "decisions": {"type": "array"}}}
    others = {str(i): e for i, e in enumerate(entries) if type(e) is not str}
    entry = schema["properties"]["decisions"]["items"]
    apart = {"type": "object", "properties": {"decisions": {"type": "object", "additionalProperties": entry}}}
    return validate(doc, outer) + validate(_Entries(doc, {"decisions": others}), apart)


@dataclass
class _Entries:
    """Some entries of a scenario's `decisions`, keyed by their index as text, read where they stand in the file."""

    doc: YamlDoc
    data: dict

    def span(self, path) -> Span:
        path = tuple(path)
        if len(path) > 1 and path[0] == "decisions":
            path = ("decisions", int(path[1])) + path[2:]
        return self.doc.span(path)


def _check_size(doc: YamlDoc) -> list:
    """A bound in time: each expectation is parsed and compiled on its own (about a millisecond), and rule
    text parses at some 40 KB a second, so a scenario holds at most MAX_EXPECTATIONS expectations and
    MAX_RULE_TEXT characters of rule text in all."""
    data = doc.data
    if len(data["expect"]) > MAX_EXPECTATIONS:
        return [Diagnostic("INPUT-LIMIT", f"{len(data['expect']):,} expectations, more than {MAX_EXPECTATIONS:,}",
                           doc.span(("expect",)), "split them into several scenario files")]
    texts = [data.get("given") or "", data.get("run") or "", *data["expect"]]
    total = sum(len(t) for t in texts if isinstance(t, str))
    if total > MAX_RULE_TEXT:
        return [Diagnostic("INPUT-LIMIT", f"the scenario's rule text has {total:,} characters, more than "
                           f"{MAX_RULE_TEXT // 1024} KiB", doc.span(()), "split it into several scenario files")]
    return []


def _game_ref(data: dict, path: Path) -> str:
    ref = data["game"]
    candidate = (path.parent / ref)
    try:
        return str(candidate) if (candidate / "game.yaml").is_file() else ref
    except OSError:  # a name too long for the system: not a folder here
        return ref


def _run(doc: YamlDoc, data: dict, path: Path, outcome: ScenarioOutcome, for_coverage: bool = False) -> None:
    try:
        game = load_compiled(_game_ref(data, path), for_coverage)
    except DiagnosticError as err:
        if not all(d.code == "USAGE" for d in err.diagnostics):
            raise  # the game's own errors
        raise DiagnosticError([Diagnostic("CONTENT-MISSING", f"no game '{data['game']}' next to this file or under content/",
                                          doc.span(("game",)), err.diagnostics[0].hint)]) from None
    outcome.game = game
    content = game.content
    players = data.get("players", content.manifest["players"].get("default", content.manifest["players"]["min"]))
    session = Session(game, players, data.get("seed", 0), tuple(data.get("variants", [])), start=False, trace=True)
    script = ScenarioScript(data.get("decisions", []))

    def drive(step: str) -> bool:
        while session.pending is not None:
            try:
                label = script.decide(session.pending, None)
            except ScriptExhausted:
                if data.get("expect_pending") and step == "run":
                    return True
                outcome.failures.append(f"{step}: no scripted decision left for {player_label(session.pending.player)}: "
                                        f"{prompt(session.pending)!r}; options: {', '.join(session.pending.labels)}")
                return False
            except ScriptMismatch as err:
                raise DiagnosticError([Diagnostic("DECISION-MISMATCH", str(err), doc.span(err.key))]) from None
            try:
                session.answer(label)
            except IllegalDecision as err:
                raise DiagnosticError([Diagnostic("DECISION-ILLEGAL", str(err), doc.span(script.key))]) from None
        return True

    chance = ScriptedChance(data.get("chance") or [], doc.span)

    ended: list = []  # the step in which a `win` ended the game

    def over(step: str) -> bool:
        if session.state.finished:
            ended.append(step)
        return bool(ended)

    def steps() -> bool:
        if data.get("setup", "run") == "run" and content.manifest.get("setup"):
            session.call(content.manifest["setup"])
            if not drive("setup") or over("setup"):
                return False
        session.state.chance.given = chance  # the draws of `given` and `run` (those of the setup are the seed's)
        if data.get("given"):
            session.begin(_statements(game, doc, ("given",), data["given"])(session.rt))
            if not drive("given") or over("given"):
                return False
        # by default the game after its setup: the start procedure (the engine runs `setup` before it; here the
        # scenario's `setup:` did, or skipped it)
        run = data.get("run") or f"{content.manifest['start']}()"
        session.begin(_statements(game, doc, ("run",), run)(session.rt))
        done = drive("run")
        over("run")
        return done

    # An expected error ends the steps; the expectations are still checked, on the table as the error left it.
    expected = data.get("expect_error")
    try:
        if not steps() and not ended:
            return
    except DiagnosticError as err:
        if not expected or expected not in [d.code for d in err.diagnostics]:
            raise
    else:
        _check_end(session, ended[0] if ended else None, data.get("expect_end"), doc, outcome)
        if expected:
            outcome.failures.append(f"expected the run to stop with {expected}, but it did not")
        if data.get("expect_pending"):
            wanted = data["expect_pending"]
            if session.pending is None or wanted not in session.pending.labels:
                shown = ", ".join(session.pending.labels) if session.pending else "nothing is asked"
                outcome.failures.append(f"expected '{wanted}' among the next decision's options; got: {shown}")
        unused = script.remaining()
        if unused:
            shown = ", ".join(repr(u) for u in unused[:UNUSED_SHOWN])
            more = f", and {len(unused) - UNUSED_SHOWN:,} more" if len(unused) > UNUSED_SHOWN else ""
            outcome.failures.append(f"{plural('en', len(unused), ('# scripted decision was', '# scripted decisions were'))} never asked: {shown}{more}")
        if chance.remaining():
            outcome.failures.append(f"{len(chance.remaining())} chance entr{'y was' if len(chance.remaining()) == 1 else 'ies were'} "
                                    f"never drawn: {', '.join(repr(c) for c in chance.remaining()[:UNUSED_SHOWN])}")
    for i, text in enumerate(data["expect"]):
        _expect(game, doc, ("expect", i), text, session, outcome)


def _check_end(session: Session, step: str | None, wanted, doc: YamlDoc, outcome: ScenarioOutcome) -> None:
    """A game that ended (a `win` during setup, `given` or `run`) is said, with where and who won, and fails the
    scenario unless `expect_end` expects it; an end expected and not reached fails too."""
    winners = [player_label(w) for w in session.state.winners]
    if step is None:
        if wanted is not None:
            outcome.failures.append(f"{doc.span(('expect_end',))}: expected the game to end, but it did not")
        return
    said = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}" if winners else "nobody wins"
    where = f" at {session.ended_at}" if session.ended_at is not None else ""
    if wanted is None:
        outcome.failures.append(f"the game ended in {step}{where}: {said} (a scenario that expects it says expect_end)")
    elif wanted is not True and sorted(wanted) != sorted(winners):
        outcome.failures.append(f"{doc.span(('expect_end',))}: expected {', '.join(wanted) or 'nobody'} to win; "
                                f"the game ended in {step}{where}: {said}")


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
        outcome.failures.append(f"{doc.span(key)}: cannot evaluate {text.strip()!r}: {_in_words(exc)}")
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


def _in_words(exc: Exception) -> str:
    """Why an expectation could not be evaluated, in the language's words rather than Python's."""
    if isinstance(exc, DiagnosticError):
        return exc.diagnostics[0].message
    text = str(exc)
    if "NoneType" in text or isinstance(exc, (AttributeError, KeyError)):
        return "a value it reads is none (no such component, player or entry)"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, TypeError):
        return "it combines values of kinds that do not go together (a number with a list, a component with a number ...)"
    return text or "it cannot be computed on this table"


def _listing(value, t: str = "any") -> str:
    """A value in a failure message. Components show their ids, so that copies of one card differ."""
    return show(value, t, ids=True)


def find_scenarios(paths: list[Path]) -> list[Path]:
    found = []
    for p in paths:
        if p.is_dir():
            found.extend(sorted(p.rglob("*.yaml")))
        elif p.is_file():
            found.append(p)
    return found

