"""`rules fmt`: the three games' .rules files are its fixed points; any respacing and reindenting of them is
formatted back to them, parses to the same tree, and formats to itself again; comments are kept."""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from cli_run import run
from dsl.formatter import FormatError, format_text, same_tree

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "content").glob("*/rules/*.rules"))
_PIECE = re.compile(r'[ \t]+|"(?:\\.|[^"\\\n])*"|#.*|\\$|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|==|!=|<=|>=|\+=|-=|.')


def respaced(text: str, seed: str) -> str:
    """The same text as an untidy author might type it: blocks indented by another step (2, 3 or 8 spaces, or
    tabs), lines that go on shifted with them, spaces between tokens taken away or doubled where the tokens
    stay apart, trailing spaces, blank lines at the start and the end."""
    rng = random.Random(seed)
    step = rng.choice(["  ", "   ", "        ", "\t"])
    out = []
    depth, goes_on, delta = 0, False, 0
    for line in text.split("\n"):
        body = line.lstrip(" ")
        lead = len(line) - len(body)
        pieces = [p for p in _PIECE.findall(body) if not p.isspace()]
        if goes_on:  # a line that goes on: shifted as the line it continues
            indent = " " * (lead + delta)
        else:
            indent = step * (lead // 4) + " " * (lead % 4)
            if pieces and not pieces[0].startswith("#"):
                delta = len(indent.expandtabs(4)) - lead
        depth += sum(p in "([{" for p in pieces) - sum(p in ")]}" for p in pieces)
        goes_on = depth > 0 or (bool(pieces) and pieces[-1] == "\\")
        rebuilt = ""
        for piece in pieces:
            if rebuilt:
                gap = rng.choice(["", " ", "  "])
                if piece.startswith(("#", "\\")) or _joins(rebuilt, piece):
                    gap = gap or " "
                rebuilt += gap
            rebuilt += piece
        out.append((indent + rebuilt + rng.choice(["", " ", "\t"])) if rebuilt else rng.choice(["", "  "]))
    return "\n\n" + "\n".join(out) + "\n\n"


def _joins(left: str, right: str) -> bool:
    """Whether `left` and `right` written together would read as other tokens."""
    a, b = left[-1], right[0]
    word = re.compile(r"[A-Za-z0-9_]")
    if word.match(a) and word.match(b):
        return True
    return a + b in ("..", "==", "!=", "<=", ">=", "+=", "-=") or (a == '"' and b == '"')


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_rules_file_is_a_fixed_point(path):
    text = path.read_text(encoding="utf-8")
    assert format_text(text) == text


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_an_untidy_copy_formats_back_to_the_same_text_and_tree(path):
    text = path.read_text(encoding="utf-8")
    untidy = respaced(text, path.name)
    assert untidy != text
    tidy = format_text(untidy)
    assert tidy == text
    assert format_text(tidy) == tidy  # idempotent
    assert same_tree(untidy, tidy, str(path))


def test_layout_rules_and_comments():
    untidy = ("# header\n\n\n\n"
              "procedure  f( p:player ,xs : list [entity] ):\n"
              "  # about the loop\n"
              "  for x in xs where x.v>=-1 and not(x in hand of p):   # trailing\n"
              "      move x to  top(deck)  \n"
              "      let y=[@emperor , -x.v , 0..len(xs)-1] \n"
              "  # after the loop\n"
              "  log \"{ p }  and   {x}\"\n"
              "function g(a: number) = if a>0 then a\\\n"
              "          else -a\n")
    assert format_text(untidy) == (
        "# header\n\n\n"
        "procedure f(p: player, xs: list[entity]):\n"
        "    # about the loop\n"
        "    for x in xs where x.v >= -1 and not (x in hand of p):  # trailing\n"
        "        move x to top(deck)\n"
        "        let y = [@emperor, -x.v, 0..len(xs) - 1]\n"
        "    # after the loop\n"
        "    log \"{ p }  and   {x}\"\n"  # a string as written
        "function g(a: number) = if a > 0 then a \\\n"
        "          else -a\n")


def test_a_line_between_two_blocks_is_refused():
    with pytest.raises(FormatError) as err:
        format_text("procedure f():\n    if true:\n        pass\n  pass\n")
    assert err.value.line == 4


# ---------------------------------------------------------------------------------------------- the command
def test_fmt_check_and_write(tmp_path, capsys):
    game = tmp_path / "kb"
    shutil.copytree(ROOT / "content" / "kings_bounty" / "rules", game)
    assert run(capsys, "fmt", "--check", game)[0] == 0
    turn = game / "turn.rules"
    tidy = turn.read_text(encoding="utf-8")
    turn.write_text(respaced(tidy, "check"), encoding="utf-8")
    code, out, _ = run(capsys, "fmt", "--check", game)
    assert code == 1 and f"{turn}:1: would be reformatted" in out
    assert turn.read_text(encoding="utf-8") != tidy  # --check writes nothing
    code, out, _ = run(capsys, "fmt", turn)
    assert code == 0 and f"{turn}: reformatted" in out
    assert turn.read_text(encoding="utf-8") == tidy
    assert run(capsys, "fmt", "--check", turn)[0] == 0


def test_fmt_leaves_a_file_that_does_not_parse(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text("procedure f():\n    let x = (1 +\n", encoding="utf-8")
    code, _, err = run(capsys, "fmt", bad)
    assert code == 1 and "error[DSL-SYNTAX]" in err and f"{bad}:" in err
    assert bad.read_text(encoding="utf-8") == "procedure f():\n    let x = (1 +\n"
    assert run(capsys, "fmt", tmp_path / "nothing")[0] == 2
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "fmt", tmp_path / "empty")
    assert code == 2 and "no .rules file" in err
