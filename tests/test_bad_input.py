"""Broken content gives clean diagnostics - a stable code, file:line:col, the source line with a caret,
a hint where sensible - and a non-zero exit; never a Python traceback.

Broken games are copies of content/kings_bounty with one file edited (in tmp_path), or the tiny
fixtures in tests/bad_content/.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from dsl.diagnostics import DiagnosticError
from dsl.loader import load_game
from interpreter.cli import main
from interpreter.core.decisions import IllegalDecision
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "content" / "kings_bounty"
BAD = Path(__file__).resolve().parent / "bad_content"


ELF_ARCHERS = "  name: {en: Elf archers, ru: Стрелки эльфов}"  # a line of cards/elves.yaml that tests replace


def broken_kb(tmp_path: Path, rel: str, old: str, new: str) -> Path:
    """A copy of King's Bounty with one edit; returns the game folder."""
    root = tmp_path / "kb"
    if not root.exists():
        shutil.copytree(KB, root)
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"the fixture text is gone from {rel}: {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def line_of(root: Path, rel: str, fragment: str) -> int:
    """1-based line of the first line containing fragment (where the diagnostic must point)."""
    for n, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines(), 1):
        if fragment in line:
            return n
    raise AssertionError(f"{fragment!r} not in {rel}")


def diagnostics(root: Path):
    return load_game(root).report.diagnostics


def validate_cli(capsys, root: Path):
    code = main(["validate", str(root)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def assert_clean(diag, code: str, rel: str, line: int, source_fragment: str):
    """A diagnostic with the stable code, file:line:col, the source line and a caret under it."""
    assert diag.code == code, diag.render()
    assert diag.span is not None, diag.render()
    assert diag.span.path.replace("\\", "/").endswith(rel), diag.span.path
    assert diag.span.line == line, diag.render()
    assert diag.span.col >= 1
    rendered = diag.render()
    lines = rendered.splitlines()
    assert re.match(rf".*{re.escape(rel)}:{line}:{diag.span.col}: error\[{code}\]: ", lines[0]), rendered
    assert source_fragment in lines[1] and lines[1].lstrip().startswith(f"{line} |"), rendered
    caret = lines[2]
    assert "^" in caret
    # the caret sits under the reported column of the quoted line
    assert caret.index("|") == lines[1].index("|")
    assert caret.index("^") == lines[1].index("|") + 1 + diag.span.col, rendered
    return rendered


# ---------------------------------------------------------------- YAML

def test_yaml_syntax_error(tmp_path, capsys):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, "  unit_type: archer\n  strength: 2", "  unit_type: archer\n strength: 2")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["YAML-SYNTAX"]
    rendered = assert_clean(diags[0], "YAML-SYNTAX", rel, line_of(root, rel, " strength: 2"), "strength: 2")
    assert "hint:" in rendered
    code, out = validate_cli(capsys, root)
    assert code == 1 and "error[YAML-SYNTAX]" in out


def test_yaml_duplicate_key(tmp_path):
    rel = "cards/orcs.yaml"
    root = broken_kb(tmp_path, rel, "  unit_type: archer\n", "  unit_type: archer\n  unit_type: warrior\n")
    diags = diagnostics(root)
    assert "YAML-DUPKEY" in [d.code for d in diags]


def test_python_tag_does_not_run(tmp_path, capsys):
    marker = tmp_path / "hacked"
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, ELF_ARCHERS,
                     f'  name: !!python/object/apply:os.system ["echo hacked > {marker}"]')
    diags = diagnostics(root)
    assert diags, "a Python tag must not load silently"
    code, out = validate_cli(capsys, root)
    assert code == 1
    with pytest.raises(DiagnosticError):
        load_compiled(str(root))
    assert not marker.exists(), "the YAML loader executed a command"


def test_python_tag_is_a_yaml_tag_error(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, ELF_ARCHERS, '  name: !!python/object/apply:os.system ["echo hacked"]')
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["YAML-TAG"], [d.render() for d in diags]


def test_python_name_tag_is_rejected(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, ELF_ARCHERS, "  name: !!python/name:os.system ''")
    assert "YAML-TAG" in [d.code for d in diagnostics(root)]


def test_local_tag_is_a_yaml_tag_error(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, ELF_ARCHERS, "  name: !shell rm")
    diags = diagnostics(root)
    tag = [d for d in diags if d.code == "YAML-TAG"]
    assert len(tag) == 1
    rendered = assert_clean(tag[0], "YAML-TAG", rel, line_of(root, rel, "!shell"), "!shell rm")
    assert "hint:" in rendered


# ---------------------------------------------------------------- schemas

def test_schema_wrong_type(tmp_path, capsys):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, "  strength: 2\n  copies: 3", "  strength: two\n  copies: 3")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["SCHEMA-TYPE"]
    rendered = assert_clean(diags[0], "SCHEMA-TYPE", rel, line_of(root, rel, "strength: two"), "strength: two")
    assert "integer" in rendered
    code, out = validate_cli(capsys, root)
    assert code == 1 and "error[SCHEMA-TYPE]" in out


def test_schema_unknown_field_did_you_mean(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, "  unit_type: archer\n", "  unit_type: archer\n  strenght: 2\n")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["SCHEMA-EXTRA"]
    rendered = assert_clean(diags[0], "SCHEMA-EXTRA", rel, line_of(root, rel, "strenght"), "strenght: 2")
    assert "unknown field 'strenght'" in rendered
    assert "hint: did you mean 'strength'?" in rendered


def test_schema_missing_required_field(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, f"{ELF_ARCHERS}\n  race: elves\n", f"{ELF_ARCHERS}\n")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["SCHEMA-REQUIRED"]
    rendered = assert_clean(diags[0], "SCHEMA-REQUIRED", rel, line_of(root, rel, "id: elves_archer"), "elves_archer")
    assert "'race'" in rendered


def test_schema_bad_enum(tmp_path):
    rel = "cards/elves.yaml"
    root = broken_kb(tmp_path, rel, "  race: elves\n  unit_type: archer", "  race: elfs\n  unit_type: archer")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["SCHEMA-ENUM"]
    rendered = assert_clean(diags[0], "SCHEMA-ENUM", rel, line_of(root, rel, "race: elfs"), "race: elfs")
    assert "hint: did you mean 'elves'?" in rendered


def test_schema_error_in_manifest(tmp_path, capsys):
    root = broken_kb(tmp_path, "game.yaml", "players: {min: 2, max: 5, default: 4}",
                     "players: {min: 2, max: five, default: 4}")
    diags = diagnostics(root)
    assert "SCHEMA-TYPE" in [d.code for d in diags]
    d = next(d for d in diags if d.code == "SCHEMA-TYPE")
    assert d.span.path.endswith("game.yaml") and d.span.line == line_of(root, "game.yaml", "max: five")
    code, _ = validate_cli(capsys, root)
    assert code == 1


def test_missing_listed_file(tmp_path):
    root = broken_kb(tmp_path, "game.yaml", "    - rules/end.rules", "    - rules/ending.rules")
    diags = diagnostics(root)
    assert "CONTENT-MISSING" in [d.code for d in diags]


# ---------------------------------------------------------------- rule text

def test_unknown_name_did_you_mean(tmp_path, capsys):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "move top(deck, n) to hand of p", "move top(deck, n) to hnad of p")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["REF-UNDEF"]
    rendered = assert_clean(diags[0], "REF-UNDEF", rel, line_of(root, rel, "hnad of p"), "hnad of p")
    assert "'hnad'" in rendered and "hint: did you mean 'hand'?" in rendered
    assert diags[0].span.col == (root / rel).read_text().splitlines()[diags[0].span.line - 1].index("hnad") + 1
    code, out = validate_cli(capsys, root)
    assert code == 1 and "did you mean 'hand'?" in out


def test_unknown_name_in_card_effect(tmp_path):
    rel = "cards/titles.yaml"
    root = broken_kb(tmp_path, rel, "count(c in domains of p where c.kind == obelisk)",
                     "count(c in domians of p where c.kind == obelisk)")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["REF-UNDEF"]
    line = line_of(root, rel, "domians")
    rendered = assert_clean(diags[0], "REF-UNDEF", rel, line, "domians of p")
    # the column points into the YAML file, at the misspelt word inside the effect text
    assert diags[0].span.col == (root / rel).read_text().splitlines()[line - 1].index("domians") + 1
    assert "did you mean 'domains'?" in rendered


def test_unknown_procedure(tmp_path):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "        award_titles()", "        award_title()")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["REF-UNDEF"]
    assert "did you mean 'award_titles'?" in diags[0].render()


def test_type_error_card_plus_number(tmp_path, capsys):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "    move top(deck, n) to hand of p",
                     "    let z = top(deck) + 1\n    move top(deck, n) to hand of p")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["TYPE-MISMATCH"]
    assert_clean(diags[0], "TYPE-MISMATCH", rel, line_of(root, rel, "top(deck) + 1"), "top(deck) + 1")
    code, out = validate_cli(capsys, root)
    assert code == 1 and "error[TYPE-MISMATCH]" in out


def test_type_error_moving_a_number(tmp_path):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "    move top(deck, n) to hand of p", "    move 3 to hand of p")
    diags = diagnostics(root)
    assert [d.code for d in diags] == ["TYPE-MISMATCH"]
    rendered = assert_clean(diags[0], "TYPE-MISMATCH", rel, line_of(root, rel, "move 3 to"), "move 3 to hand of p")
    assert "number" in rendered


def test_wrong_arity(tmp_path):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "            draw(p, 1)\n        play_unit", "            draw(p)\n        play_unit")
    diags = diagnostics(root)
    assert len(diags) == 1 and diags[0].span.line == line_of(root, rel, "draw(p)")


def test_grammar_error(tmp_path, capsys):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "move top(deck, n) to hand of p", "move top(deck, n) to to hand of p")
    diags = diagnostics(root)
    syntax = [d for d in diags if d.code == "DSL-SYNTAX"]
    assert len(syntax) == 1
    rendered = assert_clean(syntax[0], "DSL-SYNTAX", rel, line_of(root, rel, "to to hand"), "to to hand of p")
    assert "hint: expected" in rendered
    code, out = validate_cli(capsys, root)
    assert code == 1 and "error[DSL-SYNTAX]" in out


def test_unexpected_indentation(tmp_path):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "    let p = first_player\n", "    let p = first_player\n        let q = 1\n")
    diags = diagnostics(root)
    indent = [d for d in diags if d.code == "DSL-INDENT"]
    assert len(indent) == 1
    rendered = assert_clean(indent[0], "DSL-INDENT", rel, line_of(root, rel, "let q = 1"), "let q = 1")
    assert "hint:" in rendered


def test_dedent_to_no_block(tmp_path, capsys):
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "    let p = first_player\n", "    let p = first_player\n  let q = 1\n")
    diags = diagnostics(root)
    indent = [d for d in diags if d.code == "DSL-INDENT"]
    assert len(indent) == 1
    assert_clean(indent[0], "DSL-INDENT", rel, line_of(root, rel, "  let q = 1"), "let q = 1")
    code, out = validate_cli(capsys, root)
    assert code == 1 and "error[DSL-INDENT]" in out


# ---------------------------------------------------------------- all errors of a folder in one run

def test_all_errors_reported_in_one_run_tiny_fixture(capsys):
    assert diagnostics(BAD / "tiny") == [], "the fixture's correct twin must be clean"
    diags = diagnostics(BAD / "tiny_three_mistakes")
    codes = sorted(d.code for d in diags)
    assert codes == ["REF-UNDEF", "SCHEMA-TYPE", "TYPE-MISMATCH"], [d.render() for d in diags]
    files = {Path(d.span.path).name for d in diags}
    assert files == {"cards.yaml", "main.rules"}
    code, out = validate_cli(capsys, BAD / "tiny_three_mistakes")
    assert code == 1
    assert out.count("error[") == 3 and "3 errors" in out


def test_all_errors_reported_in_one_run_kb(tmp_path, capsys):
    broken_kb(tmp_path, "cards/elves.yaml", "race: elves\n  unit_type: archer", "race: elfs\n  unit_type: archer")
    broken_kb(tmp_path, "rules/turn.rules", "move top(deck, n) to hand of p", "move top(deck, n) to hnad of p")
    broken_kb(tmp_path, "cards/titles.yaml", "count(c in domains of p where c.kind == obelisk)",
              "count(c in domians of p where c.kind == obelisk)")
    root = broken_kb(tmp_path, "rules/end.rules", "    award_titles()", "    award_titles(3)")
    diags = diagnostics(root)
    assert len(diags) >= 4
    files = {Path(d.span.path).name for d in diags}
    assert {"elves.yaml", "turn.rules", "titles.yaml", "end.rules"} <= files
    assert {"SCHEMA-ENUM", "REF-UNDEF"} <= {d.code for d in diags}
    code, out = validate_cli(capsys, root)
    assert code == 1 and out.count("error[") == len(diags)


def test_broken_game_cannot_be_played(tmp_path, capsys):
    root = broken_kb(tmp_path, "rules/turn.rules", "move top(deck, n) to hand of p", "move top(deck, n) to hnad of p")
    code = main(["play", str(root)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "error[REF-UNDEF]" in err and "Traceback" not in out + err


# ---------------------------------------------------------------- decisions and runtime errors

def test_illegal_decision_changes_nothing(kb):
    session = Session(kb, 3, 11)
    for _ in range(5):
        session.answer(0)
    before = session.state.digest()
    pending = session.pending
    labels = list(pending.labels)
    history = list(session.history)
    for bad in ("play_unit nothing here", "", len(labels), -1, True, 99):
        with pytest.raises(IllegalDecision) as exc:
            session.answer(bad)
        assert "not a legal answer" in str(exc.value)
        assert session.state.digest() == before
        assert session.pending is pending and session.pending.labels == labels
        assert session.history == history
    assert labels[0] in str(exc.value), "the message lists the legal options"
    session.answer(labels[-1])  # the session still works
    assert session.history == history + [len(labels) - 1]


def test_answer_when_nothing_is_asked(kb):
    session = Session(kb, 2, 1, start=False)
    with pytest.raises(IllegalDecision):
        session.answer(0)


CRASH = """procedure crash():
    let titles_in_deck = [c in deck where c.kind == title]
    let t = top(titles_in_deck)
    let s = t.points + 1

"""


def test_runtime_error_has_a_span(tmp_path):
    rel = "rules/end.rules"
    root = broken_kb(tmp_path, rel, "procedure final_scoring():", CRASH + "procedure final_scoring():")
    assert diagnostics(root) == []
    game = load_compiled(str(root))
    with pytest.raises(DiagnosticError) as exc:
        Session(game, 2, 0, procedure="crash")
    (diag,) = exc.value.diagnostics
    assert_clean(diag, "RUN-ERROR", rel, line_of(root, rel, "let s = t.points + 1"), "let s = t.points + 1")


def test_runtime_error_mid_game_is_reported_and_stops(tmp_path):
    """A content bug reached only during play (here: on every hero) is a RUN-ERROR at the offending line."""
    rel = "rules/turn.rules"
    root = broken_kb(tmp_path, rel, "        last_hero = p\n",
                     "        last_hero = p\n        let broken = top([c in deck where c.kind == title]).points + 1\n")
    assert diagnostics(root) == []
    game = load_compiled(str(root))
    import random
    for seed in range(40):
        session = Session(game, 4, seed)
        rng = random.Random(seed)
        try:
            while session.pending is not None:
                session.answer(rng.randrange(len(session.pending.values)))
        except DiagnosticError as err:
            (diag,) = err.diagnostics
            assert_clean(diag, "RUN-ERROR", rel, line_of(root, rel, "let broken"), "let broken")
            assert session.error is diag and session.pending is None
            return
    pytest.fail("no game reached the broken line")


def test_runtime_error_through_the_cli(tmp_path, capsys):
    rel = "rules/setup.rules"
    root = broken_kb(tmp_path, rel, "    shuffle title_pool\n",
                     "    shuffle title_pool\n    let broken = top([c in deck where c.kind == title]).points + 1\n")
    code = main(["play", str(root), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "error[RUN-ERROR]" in err and "setup.rules:" in err and "let broken" in err
    assert "Traceback" not in out + err
    code = main(["simulate", str(root), "--games", "2"])
    out, err = capsys.readouterr()
    assert code == 1 and "errors: 2" in out and "Traceback" not in out + err


LOG_CRASH = """procedure crash():
    let t = top([c in deck where c.kind == title])
    log "{t.points}"

"""


def test_runtime_error_in_log_points_at_the_log_line(tmp_path):
    rel = "rules/end.rules"
    root = broken_kb(tmp_path, rel, "procedure final_scoring():", LOG_CRASH + "procedure final_scoring():")
    game = load_compiled(str(root))
    with pytest.raises(DiagnosticError) as exc:
        Session(game, 2, 0, procedure="crash", account=telling(lambda to, text: None))
    (diag,) = exc.value.diagnostics
    assert diag.code == "RUN-ERROR"
    assert diag.span.line == line_of(root, rel, 'log "{t.points}"'), diag.render()


def test_runtime_error_in_log_does_not_depend_on_the_listener(tmp_path):
    rel = "rules/end.rules"
    root = broken_kb(tmp_path, rel, "procedure final_scoring():", LOG_CRASH + "procedure final_scoring():")
    game = load_compiled(str(root))
    with pytest.raises(DiagnosticError):
        Session(game, 2, 0, procedure="crash", account=telling(lambda to, text: None))
    with pytest.raises(DiagnosticError):
        Session(game, 2, 0, procedure="crash")  # the same error without a listener


@pytest.mark.parametrize("rel,old,new,code", [
    ("cards/obelisks.yaml", "  copies: 4\n", "  copies: four\n", "SCHEMA-TYPE"),
    ("game.yaml", "  enums:\n", "  enums: 7\n  x_enums:\n", "SCHEMA-TYPE"),
    ("game.yaml", "  components:\n", "  components: 3\n  old:\n", "SCHEMA-TYPE"),
    ("game.yaml", "    deck: {scope: game, visibility: hidden}", "    deck: {scope: planet, visibility: hidden}", "SCHEMA-ENUM"),
])
def test_malformed_structure_is_reported_not_crashed(tmp_path, rel, old, new, code):
    """Shapes the loader does not expect stop at their schema error instead of a Python exception."""
    root = broken_kb(tmp_path, rel, old, new)
    assert code in [d.code for d in diagnostics(root)]
