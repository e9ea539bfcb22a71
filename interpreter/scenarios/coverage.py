"""Rule coverage: which lines of a game's rule text and card effects its scenarios executed (`rules test --coverage`).

Nothing is added to the generated code and nothing runs when coverage is off. A coverage run plays each game
compiled once more for it (CompiledGame.for_coverage: no rule function inlined into its callers, so that each
runs under its own lines); while scenarios run under `LineTrace`, a trace function (sys.settrace) follows only
the frames of generated rule code (their file names are `<rules ...>`, codegen.declarations) and records the
generated lines that ran. Every generated line carries the span of the rule text it was written for
(codegen.source.Writer, the map run-time errors use), so the generated lines that ran name the rule lines that ran.

An executable line of rule text is the first line of a statement (`let`, `move`, a call, `if`, `for`,
`choose`, ...), of an `elif` condition, and of the expression a function or a modifier computes (its body,
often on the declaration's own line). Not executable: declarations themselves (`procedure`, `event`,
`when`/`instead of` heads with their conditions, `whenever` conditions), a menu option's head (its body's
statements count), `else:` and `otherwise:`, the second and later lines of a statement, comments and blank
lines. A line is executed when any generated line written for it ran.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from dsl import ast
from dsl.plurals import plural

_GENERATED = "<rules "  # the start of every generated module's file name


# ---------------------------------------------------------------- what can run
def executable_lines(content) -> dict:
    """Rule-text path (as spans name it) -> the line numbers that hold something to execute, for every rules
    file and every record's `effect:` (whose lines are the YAML file's)."""
    found: dict = {}
    for module in content.modules:
        for decl in module.decls:
            _declaration(decl, found)
    return found


def _add(found: dict, span) -> None:
    found.setdefault(span.path, set()).add(span.line)


def _declaration(decl, found: dict) -> None:
    if isinstance(decl, (ast.Function, ast.Modifier)):
        _add(found, decl.expr.span)
    elif isinstance(decl, (ast.Procedure, ast.Trigger, ast.Replacement, ast.Watcher)):
        _statements(decl.body, found)


def _statements(stmts: list, found: dict) -> None:
    for s in stmts:
        _add(found, s.span)
        if isinstance(s, ast.If):
            for i, (cond, body) in enumerate(s.branches):
                if i:
                    _add(found, cond.span)
                _statements(body, found)
            _statements(s.other or [], found)
        elif isinstance(s, ast.Menu):
            for option in s.options:
                _statements(option.body, found)
            _statements(s.otherwise or [], found)
        elif isinstance(s, (ast.For, ast.While, ast.Repeat, ast.Secretly)):
            _statements(s.body, found)
        elif isinstance(s, ast.Until):
            for decl in s.decls:
                _declaration(decl, found)


# ---------------------------------------------------------------- what ran
class LineTrace:
    """While entered, records the lines of generated rule code that run: code object -> line numbers."""

    def __init__(self):
        self.hits: dict = {}
        self._previous = None

    def __enter__(self) -> "LineTrace":
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(self._previous)

    def _call(self, frame, event, arg):
        code = frame.f_code
        if not code.co_filename.startswith(_GENERATED) or code.co_name == "<module>":
            return None  # not rule code (a module body runs once, at load: its constants are not statements)
        lines = self.hits.get(code)
        if lines is None:
            lines = self.hits[code] = set()
        add = lines.add

        def line(frame, event, arg):
            if event == "line":
                add(frame.f_lineno)
            return line
        return line


def _codes(game) -> set:
    """Every code object of a compiled game's own module (its functions and what they nest)."""
    todo = [v.__code__ for v in game.namespace.values() if hasattr(v, "__code__")]
    seen: set = set()
    while todo:
        code = todo.pop()
        if code in seen or code.co_filename not in game.sources:
            continue
        seen.add(code)
        todo.extend(c for c in code.co_consts if hasattr(c, "co_filename"))
    return seen


def executed_lines(game, hits: dict) -> dict:
    """Rule-text path -> the lines of it that ran, from a LineTrace's hits in this game's code."""
    out: dict = {}
    for code in _codes(game) & hits.keys():
        spans = game.sources[code.co_filename][1]
        for number in hits[code]:
            span = spans[number - 1] if 0 < number <= len(spans) else None
            if span is not None:
                _add(out, span)
    return out


# ---------------------------------------------------------------- the figures
@dataclass
class FileCoverage:
    path: str  # as spans name it
    executable: set
    executed: set

    @property
    def percent(self) -> float:
        return percent(len(self.executed), len(self.executable))

    def missing(self) -> list:
        return sorted(self.executable - self.executed)


@dataclass
class GameCoverage:
    game: str
    root: str
    files: list = field(default_factory=list)  # list[FileCoverage], in the order of the game's files

    @property
    def executable(self) -> int:
        return sum(len(f.executable) for f in self.files)

    @property
    def executed(self) -> int:
        return sum(len(f.executed) for f in self.files)

    @property
    def percent(self) -> float:
        return percent(self.executed, self.executable)


def percent(done: int, total: int) -> float:
    return 100.0 * done / total if total else 100.0


def game_coverage(game, hits: dict) -> GameCoverage:
    content = game.content
    can = executable_lines(content)
    ran = executed_lines(game, hits)
    files = [FileCoverage(path, lines, ran.get(path, set()) & lines) for path, lines in sorted(can.items())]
    return GameCoverage(content.id, str(content.root), files)


def measure(paths: list, run) -> tuple[list, list]:
    """Run each scenario file with `run(path, for_coverage=True) -> outcome` (its `.game` the compiled game it ran
    against, compiled for coverage) under a LineTrace: the outcomes, and the coverage of every game they ran, in the
    order first met."""
    outcomes, games = [], {}
    with LineTrace() as trace:
        for path in paths:
            outcome = run(path, for_coverage=True)
            outcomes.append(outcome)
            if outcome.game is not None:
                games.setdefault(id(outcome.game), outcome.game)
    return outcomes, [game_coverage(g, trace.hits) for g in games.values()]


# ---------------------------------------------------------------- reports
def shown_path(path: str) -> str:
    """A path as the report shows it: relative to the working folder when it lies inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if rel.startswith("..") else rel


def shown_percent(value: float) -> str:
    """One decimal, never rounded up to a whole 100 (as coverage tools show it)."""
    return f"{int(value * 10) / 10:.1f}"


def ranges(lines: list) -> str:
    """12, 14-16, 20: consecutive line numbers joined."""
    out, start, prev = [], None, None
    for n in lines:
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return ", ".join(out)


def table(reports: list) -> str:
    """Per game and file: executable lines, lines not executed, the percentage and the missing lines."""
    rows = []
    for report in reports:
        rows.append((f"{report.game}: rule lines executed by its scenarios", "", "", "", ""))
        for f in report.files:
            rows.append((f"  {shown_path(f.path)}", str(len(f.executable)), str(len(f.executable) - len(f.executed)),
                         shown_percent(f.percent) + "%", ranges(f.missing())))
        rows.append((f"  TOTAL {report.game}", str(report.executable), str(report.executable - report.executed),
                     shown_percent(report.percent) + "%", ""))
    head = ("file", "lines", "missed", "cover", "missing")
    width = [max(len(r[i]) for r in [head, *rows] if r[1] or i == 0) for i in range(4)]
    out = []
    for r in [head, *rows]:
        if not r[1] and r is not head:
            out.append(r[0])
            continue
        out.append(f"{r[0]:<{width[0]}}  {r[1]:>{width[1]}}  {r[2]:>{width[2]}}  {r[3]:>{width[3]}}  {r[4]}".rstrip())
    return "\n".join(out)


MARK_RAN, MARK_MISSED, MARK_NONE = "> ", "! ", "  "


def listing(f: FileCoverage, text: str) -> str:
    """The file annotated as coverage.py's `annotate` does: `> ` executed, `! ` not executed, two spaces for a line
    with nothing to execute."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        mark = MARK_NONE if number not in f.executable else MARK_RAN if number in f.executed else MARK_MISSED
        out.append((mark + line).rstrip())
    return "\n".join(out) + "\n"


def game_file(path: str, root: Path) -> Path | None:
    """The file of the game folder `root` that a span's path names, however diagnostics name files (absolute, from
    the working folder, from the repository or from the game's folder): the one whose path in the game ends it."""
    named = path.replace("\\", "/")
    best = None
    for file in root.rglob("*"):
        rel = file.relative_to(root).as_posix()
        if file.is_file() and (named == str(file) or named == rel or named.endswith("/" + rel)):
            if best is None or len(rel) > len(best.relative_to(root).as_posix()):
                best = file
    return best


def write_listings(reports: list, folder: Path) -> list:
    """One annotated copy of every covered file, as FOLDER/GAME/<its path in the game>,cover; the files written."""
    written = []
    for report in reports:
        root = Path(report.root)
        for f in report.files:
            source = game_file(f.path, root)
            if source is None:  # a span outside the game's folder: nothing to annotate
                continue
            target = folder / report.game / (source.relative_to(root).as_posix() + ",cover")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(listing(f, source.read_text(encoding="utf-8")), encoding="utf-8")
            written.append(target)
    return written


def to_json(reports: list) -> dict:
    return {r.game: {"executable": r.executable, "executed": r.executed, "percent": round(r.percent, 2),
                     "files": {shown_path(f.path): {"executable": sorted(f.executable), "executed": sorted(f.executed),
                                                    "missing": f.missing(), "percent": round(f.percent, 2)}
                               for f in r.files}}
            for r in reports}


def report_run(files: list, run, coverage: bool, listings: Path | None, as_json: bool) -> int:
    """`rules test` with --coverage, --listing or --json: 0 when every scenario passed, else 1."""
    if coverage:
        outcomes, reports = measure(files, run)
    else:
        outcomes, reports = [run(path) for path in files], []
    failed = [o for o in outcomes if not o.ok]
    if as_json:
        out = {"passed": len(outcomes) - len(failed), "failed": len(failed),
               "failures": [{"path": o.path, "name": o.name, "report": o.render()} for o in failed]}
        if coverage:
            out["coverage"] = to_json(reports)
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        for outcome in outcomes:
            print(outcome.render())
        print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
        if coverage:
            print()
            print(table(reports))
    if listings is not None:
        written = write_listings(reports, listings)
        if not as_json:
            print(f"wrote {plural('en', len(written), ('# annotated file', '# annotated files'))} under {listings}")
    return 1 if failed else 0
