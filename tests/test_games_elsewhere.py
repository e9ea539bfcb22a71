"""Games kept outside the project's content/ (issue 33 item 6): a log names its game folder, so replay, explain and
resume work from any working directory; `rules serve` validates each game at its start and lists an invalid one
with its diagnostics."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _rules(args, cwd) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "interpreter.cli.main", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def own_project(tmp_path_factory):
    """An author's own project: content/mine (a copy of King's Bounty), played from that folder."""
    base = tmp_path_factory.mktemp("project")
    shutil.copytree(ROOT / "content" / "kings_bounty", base / "content" / "mine")
    log = base / "game.json"
    done = _rules(["play", "mine", "--players", "2", "--seed", "4", "--agents", "random,random", "--quiet", "--log", log], base)
    assert done.returncode == 0, done.stderr
    return base, log


def test_a_log_names_its_game_folder(own_project):
    base, log = own_project
    data = json.loads(log.read_text())
    assert data["game"] == "mine" and data["folder"] == str((base / "content" / "mine").resolve())


def test_replay_explain_and_resume_work_from_anywhere(own_project, tmp_path):
    _, log = own_project
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _rules(["replay", log, "--quiet"], elsewhere)
    assert done.returncode == 0 and "reproduces the logged game exactly" in done.stdout, done.stdout + done.stderr
    done = _rules(["explain", log, "--event", "shuffle"], elsewhere)
    assert done.returncode == 0 and "deck shuffled" in done.stdout, done.stdout + done.stderr
    data = json.loads(log.read_text())  # the same game stopped after 5 decisions, resumed elsewhere
    cut = dict(data, decisions=data["decisions"][:5], unfinished={"reason": "interrupt"}, seats=["random", "random"],
               agent_args={})
    cut.pop("result")
    from interpreter.runtime.gamelog import game_of
    from interpreter.runtime.session import Session
    game = game_of(cut)
    s = Session(game, 2, 4)
    for index, _ in cut["decisions"]:
        s.answer(index)
    cut.update(final_state=s.state.digest(), result={"winners": [], "scores": []})
    (elsewhere / "cut.json").write_text(json.dumps(cut))
    done = _rules(["play", "--resume", "cut.json", "--quiet"], elsewhere)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_folder_whose_content_the_log_names_is_chosen(own_project, tmp_path):
    from interpreter.runtime.gamelog import game_of
    _, log = own_project
    data = json.loads(log.read_text())
    assert game_of(dict(data, game="kings_bounty")).content.root.name == "mine"  # the folder's hash is the log's
    moved = dict(data, folder=str(tmp_path / "gone"))
    with pytest.raises(Exception, match="LOG-GAME"):
        game_of(dict(moved, game="no_such_game"))


def test_serve_lists_an_invalid_game_with_its_diagnostics(tmp_path):
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from interpreter.web.app import make_app
    from tiny_game import tiny_game
    broken = tiny_game(tmp_path, rules="procedure play():\n    move top(pyle) to hand of players[0]\n", name="broken")
    app = make_app(tmp_path / "games.sqlite3", [broken])
    assert [d.code for d in app.state.rooms.invalid["broken"]] == ["REF-UNDEF"]
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:  # a host the server answers as (web.guard)
        html = client.get("/").text
        section = html[html.index('id="game-broken"'):]
        section = section[:section.index("</section>")]
        assert "does not validate" in section and "error[REF-UNDEF]: unknown" in section and "pyle" in section
        assert "<form" not in section  # no game of it can be made
        r = client.post("/new", data={"game": "broken", "players": "2", "lang": "en", "seat0": "random", "seat1": "random"})
        assert r.status_code == 422 and "does not validate" in r.text
