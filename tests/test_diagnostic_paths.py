"""Diagnostics name files by their repository path, the same from any working folder, with the caret on the
faulty item (issue 33 item 10)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from dsl.paths import real_path, shown_path

ROOT = Path(__file__).resolve().parent.parent


def _validate(folder, cwd) -> str:
    done = subprocess.run([sys.executable, "-m", "interpreter.cli.main", "validate", str(folder)], cwd=cwd,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, timeout=300)
    return done.stdout + done.stderr


def test_a_game_outside_any_repository_is_named_from_its_folder_wherever_validate_runs(tmp_path):
    game = tmp_path / "games" / "kb"
    shutil.copytree(ROOT / "content" / "kings_bounty", game)
    turn = game / "rules" / "turn.rules"
    turn.write_text(turn.read_text().replace("move top(deck, n) to hand of p", "move top(dek, n) to hand of p"))
    dwarves = game / "cards" / "dwarves.yaml"
    dwarves.write_text(dwarves.read_text().replace("  source:", "  colour: red\n  source:", 1))
    here = _validate(game, game)
    there = _validate(game, ROOT)
    assert here == there, (here, there)
    assert "kb/rules/turn.rules:" in here and "error[REF-UNDEF]: unknown name 'dek'" in here and str(tmp_path) not in here
    # an unknown field: the caret is on its key, not on its value
    lines = here.splitlines()
    at = next(i for i, line in enumerate(lines) if "error[SCHEMA-EXTRA]: unknown field 'colour'" in line)
    assert lines[at].startswith("kb/cards/dwarves.yaml:") and lines[at].split(":")[2] == "3"
    assert lines[at + 1].endswith("colour: red") and lines[at + 2].endswith("|   ^^^^^^")
    assert "kb: 61 records" in here


def test_the_project_s_files_are_named_from_its_top(tmp_path):
    out = _validate(ROOT / "content" / "kings_bounty", tmp_path)
    assert out.startswith("content/kings_bounty: 61 records"), out
    assert shown_path(ROOT / "content" / "agot" / "rules" / "march.rules") == "content/agot/rules/march.rules"


def test_a_shown_path_leads_back_to_its_file(tmp_path, monkeypatch):
    path = ROOT / "content" / "btwixt" / "game.yaml"
    monkeypatch.chdir(tmp_path)
    assert real_path(shown_path(path), near=ROOT / "content" / "btwixt") == path.resolve()
    monkeypatch.chdir(ROOT / "content")
    assert real_path(shown_path(path)) == path.resolve()
