"""The `rules` command, run in-process through interpreter.cli.main and once as a real subprocess."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from cli_run import run

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "content" / "kings_bounty"


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """One logged game: 3 players, seed 7, the experienced variant."""
    path = tmp_path_factory.mktemp("logs") / "game.json"
    code = main(["play", "kings_bounty", "--players", "3", "--seed", "7", "--variant", "experienced",
                 "--log", str(path), "--quiet"])
    assert code == 0
    return path


def _broken_copy(tmp_path: Path) -> Path:
    root = tmp_path / "kb_broken"
    shutil.copytree(KB, root)
    rules = root / "rules" / "turn.rules"
    rules.write_text(rules.read_text(encoding="utf-8").replace("move top(deck, n) to hand of p",
                                                               "move top(deck, n) to hnad of p"), encoding="utf-8")
    return root


# ---------------------------------------------------------------- validate

def test_validate_ok(capsys):
    code, out, err = run(capsys, "validate", KB)
    assert code == 0
    assert "ok" in out and "kings_bounty" in out


def test_validate_broken_folder(capsys, tmp_path):
    code, out, err = run(capsys, "validate", _broken_copy(tmp_path))
    assert code == 1
    assert "REF-UNDEF" in out
    assert "turn.rules:" in out and "did you mean 'hand'?" in out
    assert "1 error" in err


def test_validate_broken_folder_json(capsys, tmp_path):
    code, out, err = run(capsys, "validate", "--json", _broken_copy(tmp_path))
    assert code == 1
    report = json.loads(out)
    errors = report[0]["errors"]
    assert [e["code"] for e in errors] == ["REF-UNDEF"]
    assert errors[0]["file"].endswith("turn.rules") and errors[0]["line"] > 0 and errors[0]["col"] > 0


def test_validate_file_inside_a_game(capsys):
    code, out, err = run(capsys, "validate", KB / "rules" / "turn.rules")
    assert code == 0


def test_validate_nonexistent_path(capsys, tmp_path):
    code, out, err = run(capsys, "validate", tmp_path / "no_such_game")
    assert code == 2
    assert "USAGE" in err and "no such file or folder" in err


def test_validate_not_a_game(capsys, tmp_path):
    code, out, err = run(capsys, "validate", tmp_path)
    assert code == 2
    assert "not inside a game folder" in err


# ---------------------------------------------------------------- play, replay, explain

def test_play_with_options(capsys, tmp_path):
    log = tmp_path / "log.json"
    code, out, err = run(capsys, "play", "kings_bounty", "--players", "3", "--seed", "7",
                         "--variant", "experienced", "--log", log)
    assert code == 0
    assert "3 players, seed 7, variants for experienced players" in out
    scores = [line for line in out.splitlines() if line.startswith("Final scores:")]
    assert len(scores) == 1 and [part.split()[0] for part in scores[0][len("Final scores: "):].split(", ")] == ["P1", "P2", "P3"]
    assert "Winner: P" in out
    assert "goes first" in out  # the account of the game is printed
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["players"] == 3 and data["seed"] == 7 and data["variants"] == ["experienced"]
    assert data["decisions"] and all(isinstance(i, int) and isinstance(label, str) for i, label in data["decisions"])
    winners = out.split("Winner: ")[1].split()[0]
    assert data["result"]["winners"] == [winners]


def test_play_is_reproducible(capsys):
    _, first, _ = run(capsys, "play", "--players", "2", "--seed", "3", "--quiet")
    _, second, _ = run(capsys, "play", "--players", "2", "--seed", "3", "--quiet")
    _, other, _ = run(capsys, "play", "--players", "2", "--seed", "4", "--quiet")
    assert first == second
    assert first != other


def test_play_bad_player_count(capsys):
    code, out, err = run(capsys, "play", "kings_bounty", "--players", "6")
    assert code == 2
    assert "2 to 5 players" in err


def test_play_unknown_variant(capsys):
    code, out, err = run(capsys, "play", "kings_bounty", "--variant", "experiencd")
    assert code == 2
    assert "did you mean 'experienced'?" in err


def test_replay_ok(capsys, game_log):
    code, out, err = run(capsys, "replay", game_log, "--quiet")
    assert code == 0
    assert out.startswith("OK")


def _tampered(game_log: Path, tmp_path: Path, edit) -> Path:
    data = json.loads(game_log.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_replay_tampered_decision(capsys, game_log, tmp_path):
    def edit(data):
        # the first decision that had more than one option: pick its neighbour index, keep the label
        for entry in data["decisions"]:
            if entry[0] > 0:
                entry[0] -= 1
                return
        raise AssertionError("no decision to tamper with")
    code, out, err = run(capsys, "replay", _tampered(game_log, tmp_path, edit), "--quiet")
    assert code == 1
    assert out.startswith("MISMATCH") and "the log says" in out


def test_replay_tampered_decision_and_label(capsys, game_log, tmp_path):
    """A consistent forgery (another legal option with its own label) is caught by the final state."""
    from interpreter.runtime.games import load_compiled
    from interpreter.runtime import Session
    data = json.loads(game_log.read_text(encoding="utf-8"))
    session = Session(load_compiled("kings_bounty"), data["players"], data["seed"], tuple(data["variants"]))
    n = 0
    while len(session.pending.labels) < 2:
        session.answer(data["decisions"][n][0])
        n += 1
    index = data["decisions"][n][0]
    other = (index + 1) % len(session.pending.labels)
    forged = [other, session.pending.labels[other]]

    def edit(d):
        d["decisions"][n] = forged
    code, out, err = run(capsys, "replay", _tampered(game_log, tmp_path, edit), "--quiet")
    assert code == 1
    assert out.startswith("MISMATCH")


def test_replay_tampered_final_state(capsys, game_log, tmp_path):
    def edit(data):
        data["final_state"] = "0" * len(data["final_state"])
    code, out, err = run(capsys, "replay", _tampered(game_log, tmp_path, edit), "--quiet")
    assert code == 1
    assert "final state differs" in out


def test_replay_truncated_log(capsys, game_log, tmp_path):
    def edit(data):
        data["decisions"].pop()
    code, out, err = run(capsys, "replay", _tampered(game_log, tmp_path, edit), "--quiet")
    assert code == 1


def test_replay_out_of_range_index(capsys, game_log, tmp_path):
    def edit(data):
        data["decisions"][3][0] = 99
    code, out, err = run(capsys, "replay", _tampered(game_log, tmp_path, edit), "--quiet")
    assert code == 1 and out.startswith("MISMATCH")
    assert "decision 4" in out


def test_replay_not_a_log(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json", encoding="utf-8")
    code, out, err = run(capsys, "replay", path)
    assert code == 1
    assert "LOG-READ" in err


def test_explain(capsys, game_log):
    code, out, err = run(capsys, "explain", game_log)
    assert code == 0
    # King's Bounty has no triggered abilities: explain says so rather than printing nothing
    assert "no trigger" in out


def test_explain_json(capsys, game_log):
    code, out, err = run(capsys, "explain", game_log, "--json")
    assert code == 0
    entries = json.loads(out)  # no ability: the draws of chance alone, each as the log writes it
    assert entries and all(e["kind"] == "chance" for e in entries)
    assert [e["log"] for e in entries] == json.loads(Path(game_log).read_text())["chance"]


# ---------------------------------------------------------------- simulate, test, schema, usage

def test_simulate_json(capsys):
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "20", "--json", "--players", "3")
    assert code == 0
    report = json.loads(out)
    for key in ("games", "errors", "wins_by_seat", "mean_decisions", "seconds"):
        assert key in report, key
    assert report["games"] == 20 and report["errors"] == 0
    assert set(report["wins_by_seat"]) == {"P1", "P2", "P3"}
    assert sum(report["wins_by_seat"].values()) == 20
    assert report["mean_decisions"] > 10
    assert report["seconds"] >= 0


def test_simulate_zero_games(capsys):
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "0")
    assert code == 2


def test_unknown_game(capsys):
    code, out, err = run(capsys, "play", "kings_bounti")
    assert code == 2
    assert "no game 'kings_bounti'" in err
    assert "did you mean 'kings_bounty'?" in err


def test_unknown_game_simulate(capsys):
    code, out, err = run(capsys, "simulate", "kingsbounty", "--games", "1")
    assert code == 2
    assert "did you mean 'kings_bounty'?" in err


def test_schema_check(capsys):
    code, out, err = run(capsys, "schema", "kings_bounty", "--check")
    assert code == 0
    assert "up to date" in out


def test_test_command(capsys):
    scenarios = ROOT / "tests" / "scenarios" / "kings_bounty"
    code, out, err = run(capsys, "test", scenarios / "capture_tower_with_archers.yaml",
                         scenarios / "return_cards.yaml")
    assert code == 0
    assert "2 passed, 0 failed" in out


def test_test_command_failure(capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text('name: wrong\ngame: kings_bounty\nsetup: skip\nrun: award_titles()\nexpect:\n  - "len(deck) == 1"\n',
                    encoding="utf-8")
    code, out, err = run(capsys, "test", path)
    assert code == 1
    assert "0 passed, 1 failed" in out and "left side: 0" in out


def test_no_command(capsys):
    code, out, err = run(capsys)
    assert code == 2
    assert "usage" in out.lower()


@pytest.mark.parametrize("command", ["validate", "play", "simulate", "replay", "explain", "test", "schema", "lsp"])
def test_help(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert "usage" in capsys.readouterr().out.lower()


def test_bad_option_is_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "--players", "many"])
    assert exc.value.code == 2


# ---------------------------------------------------------------- the real command

def test_rules_play_subprocess():
    exe = shutil.which("rules")
    cmd = [exe, "play"] if exe else [sys.executable, "-m", "interpreter.cli", "play"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "King's Bounty" in proc.stdout
    scores = [line for line in proc.stdout.splitlines() if line.startswith("Final scores:")]
    assert len(scores) == 1 and scores[0].count(" P") == 4  # the default is 4 players
    assert any(line.startswith("Winner: P") for line in proc.stdout.splitlines())


def test_replay_as_a_player_shows_only_what_they_may_read(tmp_path, capsys):
    """A log told for one player: public lines and the lines addressed to them, nothing else."""
    game = Path(__file__).parent / "fixtures" / "ties_game"
    log = tmp_path / "game.json"
    assert main(["play", str(game), "--players", "2", "--log", str(log), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--as", "P1"]) == 0
    mine = capsys.readouterr().out
    assert "everyone reads this" in mine and "only P1 reads this" in mine
    assert main(["replay", str(log), "--as", "P2"]) == 0
    theirs = capsys.readouterr().out
    assert "everyone reads this" in theirs and "only P1 reads this" not in theirs
    assert main(["replay", str(log), "--as", "P7"]) == 2


def test_explain_shows_arguments_values_and_the_decision(capsys, tmp_path):
    log = tmp_path / "bt.json"
    assert main(["play", "btwixt", "--players", "4", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "explain", log, "--json")
    entries = json.loads(out)
    modifiers = [e for e in entries if e["kind"] == "modifier" and e["event_id"] == "bid_total"]
    assert modifiers, "B'Twixt's influence cards modify bid totals"
    first = modifiers[0]
    assert first["args"][0].startswith("P") and first["decision"] > 0
    assert "before" in first and "after" in first and all("result" in item for item in first["order"])
    # filters: one decision, one event; and the plain text shows the call, the decision and the values
    code, out, err = run(capsys, "explain", log, "--decision", str(first["decision"]), "--event", "bid_total")
    assert code == 0 and out.startswith(f"modifier on bid total ({first['args'][0]}), after decision {first['decision']}: "
                                        f"{first['before']} becomes {first['after']}")
    assert all(line.startswith(("modifier on bid total (", "  ")) for line in out.splitlines())
