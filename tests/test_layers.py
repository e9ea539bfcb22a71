"""The engine's packages form layers: a lower one never imports a higher one, and no modules import
each other in a circle. Imports are read with `ast`, not by running the code, so an import inside a
function counts as much as one at the top."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module may import its own package and the packages before it, never one after it.
LAYERS = [
    "dsl",                      # text -> parse -> check
    "interpreter.core",         # the plain data every layer shares: the table's state, decisions
    "interpreter.codegen",      # checked AST -> Python source, and the library generated code calls
    "interpreter.runtime",      # sessions, the resolver, logs and replay: what an embedder runs a game with
    "interpreter.present",      # views and the words and tables a person reads
    "interpreter.agents",       # random, scripted, human and search players; OpenSpiel and PettingZoo
    "interpreter.batch",        # many games at once: workers, Ray, balance statistics, the report
    "interpreter.web",          # `rules serve`: the lobby, seat pages, bots on the server, the SQLite store
    "interpreter.lsp",          # the language server for editors (pygls): beside agents and batch, below cli
    "interpreter.scenarios",    # scenario files: arranged tables, scripted decisions, expectations
    "interpreter.cli",          # the `rules` command
]
MAX_LINES = 600


def _modules() -> dict[str, Path]:
    found = {}
    for top in ("dsl", "interpreter"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that `name` imports (a package counts as its __init__)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import mod` imports the module; `from mod import name` imports the module
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _layer(name: str) -> int | None:
    best = None
    for i, layer in enumerate(LAYERS):
        if name == layer or name.startswith(layer + "."):
            best = i
    return best


def _graph():
    known = _modules()
    return known, {name: _imports(name, path, known) for name, path in known.items()}


def test_every_module_has_a_layer():
    known, _ = _graph()
    loose = [name for name in known if name not in ("interpreter",) and _layer(name) is None]
    assert not loose, f"modules outside every layer of LAYERS: {loose}"


def test_no_import_reaches_up():
    _, graph = _graph()
    wrong = [f"{a} imports {b}" for a, deps in graph.items() for b in deps
             if _layer(a) is not None and _layer(b) is not None and _layer(b) > _layer(a)]
    assert not wrong, "a lower layer imports a higher one:\n" + "\n".join(sorted(wrong))


def test_no_import_circle():
    _, graph = _graph()
    # a package's __init__ re-exporting its own modules is not a circle with them
    edges = {a: {b for b in deps if not (a == b.rpartition(".")[0] and a in graph and b in graph)}
             for a, deps in graph.items()}
    circles, state = [], {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_modules_are_small():
    known, _ = _graph()
    big = {name: n for name, path in known.items()
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_the_walk_sees_a_circle_and_an_upward_import(tmp_path, monkeypatch):
    """The checks above can fail: a made-up tree with a circle and an upward import trips both."""
    for rel, text in {"dsl/__init__.py": "", "dsl/a.py": "from dsl import b\nfrom interpreter.cli import x\n",
                      "dsl/b.py": "import dsl.a\n", "interpreter/__init__.py": "",
                      "interpreter/cli/__init__.py": "x = 1\n"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    known, graph = _graph()
    assert graph["dsl.a"] == {"dsl.b", "interpreter.cli"} and graph["dsl.b"] == {"dsl.a"}
    try:
        test_no_import_reaches_up()
    except AssertionError as err:
        assert "dsl.a imports interpreter.cli" in str(err)
    else:
        raise AssertionError("the upward import was not found")
    try:
        test_no_import_circle()
    except AssertionError as err:
        assert "dsl.a -> dsl.b -> dsl.a" in str(err)
    else:
        raise AssertionError("the circle was not found")
