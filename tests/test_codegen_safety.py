"""The compiler writes Python source from the checked AST: content must never choose what Python runs.

These tests read the generated source of every game and check its identifiers, attribute names and
globals, and play a fixture game whose every name is a Python keyword, built-in or dunder.
"""
from __future__ import annotations

import ast as pyast
import io
import re
import tokenize
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.codegen import library
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = str(ROOT / "tests" / "fixtures" / "hostile_names")
GAMES = ["kings_bounty", "btwixt", HOSTILE]

# Generated names: content names behind a fixed prefix, or names the compiler makes up.
GENERATED = re.compile(r"(v|p|f)_[A-Za-z0-9_]+|(t|h|cf|s|u|k|x)_\d+|i\d+_v_[A-Za-z0-9_]+|t_[kbi]|rt|b\Z")
# Attributes the generated code reads: the runtime's and the state's own, never a name from content.
ATTRIBUTES = {"gv", "pv", "gz", "pz", "ents", "seats", "state", "players", "winners", "items", "attrs", "get", "vars",
              "id", "kind", "zones", "record_id", "cfs", "modified", "event", "invoke_plain", "log", "move",
              "add_temporary", "append", "card_function", "join", "watch", "version", "memoized",
              "calls", "steps",  # the budgets counted inline (interpreter/codegen/library.py)
              "change_watchers", "changed",  # a component's variable set, told to incremental readers
              "memo", "stamp",  # card functions kept until a zone changes (interpreter/codegen/zone_pure.py)
              "zone", "owner",  # `holder` of a component lying in a player's zone, read inline
              "account", "counted",  # a log line handed over, a call counted, only when someone listens
              "option", "bound"}  # a menu's MenuChoices, made where the options are found


def generated_tree(game) -> pyast.Module:
    return pyast.parse(game.python_source())


@pytest.mark.parametrize("ref", GAMES)
def test_every_identifier_is_generated_or_a_helper(ref):
    game = load_compiled(ref)
    helpers = set(library.namespace())
    for node in pyast.walk(generated_tree(game)):
        names = []
        if isinstance(node, pyast.Name):
            names.append(node.id)
        elif isinstance(node, pyast.arg):
            names.append(node.arg)
        elif isinstance(node, pyast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, pyast.Attribute):
            assert node.attr in ATTRIBUTES, f"attribute {node.attr!r} read by generated code"
        for name in names:
            assert name in helpers or GENERATED.fullmatch(name), f"identifier {name!r} in generated code"


@pytest.mark.parametrize("ref", GAMES)
def test_generated_code_has_no_builtins_and_only_literal_constants(ref):
    game = load_compiled(ref)
    assert game.namespace["__builtins__"] == {}
    for node in pyast.walk(generated_tree(game)):
        if isinstance(node, pyast.Constant):
            assert node.value is None or isinstance(node.value, (bool, int, str)), node.value
        assert not isinstance(node, (pyast.Import, pyast.ImportFrom, pyast.Global, pyast.Nonlocal, pyast.ClassDef))


def test_generated_source_is_deterministic():
    from dsl.loader import load_game
    from interpreter.codegen import compile_game
    first = compile_game(load_game(ROOT / "content" / "btwixt")).python_source()
    second = compile_game(load_game(ROOT / "content" / "btwixt")).python_source()
    assert first == second


def test_python_keywords_builtins_and_dunders_as_names_play_correctly():
    """Procedures, parameters, variables, enums, zones and records named lambda, class, exec, __import__ ..."""
    game = load_compiled(HOSTILE)
    lines = []
    session = Session(game, 2, 0, account=telling(lambda to, text: lines.append(text)))
    assert session.pending is not None and session.pending.player == 1  # `choose compile ... by players[1]`
    session.answer("lambda")
    assert lines == ["10 0, 1 class mro 1"]
    state = session.state
    assert state.game_vars["__globals__"] == 10  # exec(5, lambda) doubles
    assert [pv["eval"] for pv in state.player_vars] == [10, 111]  # the __init__ trigger added 100 to P2
    assert state.entities["lambda"].vars["__subclasses__"] == 5  # __call__(2) = 2 + exec 3
    assert session.result.winners == [0]


def test_no_content_name_is_a_bare_python_identifier():
    text = load_compiled(HOSTILE).python_source()
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    source = " ".join(t.string for t in tokens if t.type != tokenize.STRING)  # string literals may say anything
    # (lambda and yield are left out: the compiler itself writes those keywords)
    for word in ("class", "import", "exec", "eval", "open", "__import__", "__globals__", "__builtins__",
                 "__call__", "__dict__", "__subclasses__", "getattr", "globals", "print", "compile", "str"):
        # a content name may appear only behind a prefix (v_exec) or inside a string literal ('exec')
        bare = re.search(rf"(?<![A-Za-z0-9_'\"]){re.escape(word)}(?![A-Za-z0-9_'\"])", source)
        assert bare is None, f"{word!r} stands bare in the generated code: ...{source[max(0, bare.start() - 40):bare.end() + 20]}..."


def test_emit_python(capsys):
    assert main(["compile", "kings_bounty", "--emit-python"]) == 0
    out = capsys.readouterr().out
    assert "def p_play_game(rt):" in out and "yield" in out
    compile(out, "<emitted>", "exec")  # it is the whole module, valid Python


def test_python_refusing_the_generated_source_is_a_diagnostic():
    from dsl.diagnostics import DiagnosticError
    from interpreter.codegen.source import Writer, run_source
    w = Writer("<rules test>")
    w.line("def f(rt):")
    w.line("    return " + "(" * 300 + "1" + ")" * 300)  # past CPython's limit of nested parentheses
    with pytest.raises(DiagnosticError) as err:
        run_source(w, {})
    assert err.value.diagnostics[0].code == "DSL-TOO-DEEP"
