"""Issue 32 item 7, where no file of the machine fails on cue: `rules fmt` writing onto a full disk says IO-ERROR,
naming the file it could not write and the system's reason (not the output's, nor a RUN-ERROR), and goes on
with the other files. The other I/O cases (/dev/full, /sys, /proc/self/mem) are in the corpus."""
from __future__ import annotations

import errno
import shutil
from pathlib import Path

from hostile_case import run_rules

BASE = Path(__file__).resolve().parent / "base_game"


def test_fmt_onto_a_full_disk_names_the_file(tmp_path, monkeypatch):
    from interpreter.cli import fmt
    shutil.copytree(BASE, tmp_path / "game")
    rules = tmp_path / "game" / "rules" / "main.rules"
    before = rules.read_text(encoding="utf-8")
    rules.write_text(before.replace("    shuffle pile", "    shuffle   pile"), encoding="utf-8")
    messy = rules.read_text(encoding="utf-8")

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path.parent / ".tmp-of-write_file"))
    monkeypatch.setattr(fmt, "write_file", full)
    code, out = run_rules(("fmt", str(rules)))
    assert code == 1 and f"error[IO-ERROR]: cannot write {rules}: no space left on device" in out, out
    assert "RUN-ERROR" not in out and "standard output" not in out
    assert rules.read_text(encoding="utf-8") == messy
