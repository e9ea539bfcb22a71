"""What the hostile tests share: a real log of the base game, which log and resume cases then damage."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_case import run_rules

BASE = Path(__file__).resolve().parent / "base_game"


@pytest.fixture(scope="module")
def base_log(tmp_path_factory) -> dict:
    """A real log of the base game, which log cases then damage."""
    folder = tmp_path_factory.mktemp("base")
    shutil.copytree(BASE, folder / "game")
    code, out = run_rules(("play", str(folder / "game"), "--quiet", "--log", str(folder / "log.json")), "", 30)
    assert code == 0, out
    return json.loads((folder / "log.json").read_text(encoding="utf-8"))
