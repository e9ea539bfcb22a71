"""Batches of random games in this process, in worker processes and on a local Ray: the same records.

Also what a record holds (winners, scores, length, the cards each player played, the manifest's
per-player values), the progress bar, and the command's usage errors.
"""
from __future__ import annotations

import builtins
import io
import json
import random

import pytest

from interpreter.batch.game_facts import report_spec, track_played
from interpreter.runtime.games import known_games, load_compiled
from interpreter.batch.progress import NoProgress, Progress, progress_for
from interpreter.runtime import Session
from interpreter.batch.simulation import Batch, chunks, default_workers, run_batch
from tests.tiny_game import tiny_game
from cli_run import run

KB_BATCH = Batch("kings_bounty", players=3, games=16, seed=5)


@pytest.fixture(scope="module")
def kb_records():
    return run_batch(KB_BATCH, workers=1, with_spec=True)


# ---------------------------------------------------------------- the same results for any number of workers

def test_one_and_two_workers_give_identical_records(kb_records):
    two = run_batch(KB_BATCH, workers=2, with_spec=True)
    assert two == kb_records
    assert [r["index"] for r in two] == list(range(16))
    assert [r["seed"] for r in two] == list(range(5, 21))


def test_a_game_depends_only_on_the_seed_and_its_index(kb_records):
    """Game 3 of a batch starting at seed 5 is game 0 of a batch starting at seed 8."""
    alone = run_batch(Batch("kings_bounty", players=3, games=1, seed=8), workers=1, with_spec=True)[0]
    assert {k: v for k, v in alone.items() if k != "index"} == {k: v for k, v in kb_records[3].items() if k != "index"}


def test_the_ray_path_gives_the_same_records(kb_records):
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]' (.ci/run installs it)")
    records = run_batch(KB_BATCH, workers=2, ray_address="local", with_spec=True)
    assert records == kb_records


def test_chunks_cover_every_game_once():
    for games in (1, 7, 100, 1001):
        for workers in (1, 2, 16):
            parts = chunks(games, workers)
            assert [i for part in parts for i in part] == list(range(games))
            assert max(len(p) for p in parts) <= 50


def test_default_workers_is_every_core_but_not_more_than_one_per_ten_games(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert default_workers(3) == 1
    assert default_workers(25) == 2
    assert default_workers(10_000) == 8


def test_the_command_says_how_many_workers_and_agrees_with_one(capsys):
    code, out, _ = run(capsys, "simulate", "kings_bounty", "--games", "20", "--players", "3", "--json", "--workers", "2")
    two = json.loads(out)
    code1, out1, _ = run(capsys, "simulate", "kings_bounty", "--games", "20", "--players", "3", "--json", "--workers", "1")
    one = json.loads(out1)
    assert code == code1 == 0
    assert two["workers"] == 2 and one["workers"] == 1
    for key in ("wins_by_seat", "mean_decisions", "errors", "games"):
        assert two[key] == one[key], key


# ---------------------------------------------------------------- what a record holds

def test_a_record_holds_what_the_report_needs(kb_records):
    r = kb_records[0]
    assert set(r) >= {"index", "seed", "players", "winners", "scores", "decisions", "played", "per_player", "error"}
    assert r["error"] is None and r["players"] == 3
    assert len(r["scores"]) == 3 and r["winners"] and r["decisions"] > 10
    assert len(r["played"]) == 3 and all(r["played"])
    assert set(r["per_player"]) == {"titles"} and len(r["per_player"]["titles"]) == 3


def test_played_cards_are_the_cards_chosen_from_the_hand():
    """Checked against the decisions themselves: in King's Bounty a card is played by the option naming it first."""
    game = load_compiled("kings_bounty")
    spec = report_spec(game)
    for seed in range(4):
        session = Session(game, 4, seed, start=False)
        played = track_played(session, spec)
        session.call(game.content.manifest["start"])
        expected = [set() for _ in range(4)]
        rng = random.Random(seed)
        while session.pending is not None:
            d = session.pending
            i = rng.randrange(len(d.values))
            words = d.labels[i].split()
            if words[0] in ("play_domain", "play_unit"):
                expected[d.player].add(session.state.entities[words[1]].record_id)
            session.answer(i)
        assert [set(p) for p in played] == expected
        assert all(len(p) == len(set(p)) for p in played)


REPORTED = """\
procedure play():
    for p in players:
        move top(pile, 2) to hand of p
    for p in players:
        choose c in hand of p by p
        move c to table of p
    move hand of players[0] to discard
    players[1].points = 2
    win players[1]

function on_table(p: player) = top(table of p)
"""

TOKENS = """\
- {id: coin, kind: token, name: Coin, value: 1, copies: 2, source: designed}
- {id: gem, kind: token, name: Gem, value: 3, copies: 2, source: designed}
"""


def reported_game(tmp_path, report: str):
    root = tiny_game(tmp_path, rules=REPORTED, records=TOKENS, zones="table: {scope: player, visibility: public}\n"
                     "discard: {scope: game, visibility: public}")
    with open(root / "game.yaml", "a", encoding="utf-8") as f:
        f.write(report)
    return root


REPORT_SPEC = """report:
  played: {from: [hand], to: [table], kinds: [token]}
  per_player: {card: on_table, points: points, table: table}
"""


def test_played_and_per_player_values_of_a_small_game(tmp_path):
    root = reported_game(tmp_path, REPORT_SPEC)
    records = run_batch(Batch(str(root), players=2, games=12), workers=2, with_spec=True)
    assert records == run_batch(Batch(str(root), players=2, games=12), workers=1, with_spec=True)
    for r in records:
        assert r["error"] is None and r["winners"] == [1] and r["scores"] == [0, 2]
        # each player played the one card now on its table; the card thrown from the hand was not played
        assert [len(p) for p in r["played"]] == [1, 1]
        assert r["played"] == r["per_player"]["card"] == r["per_player"]["table"]
        assert r["per_player"]["points"] == [[0], [2]]  # numbers stay numbers (summarized as numbers)
        assert all(p[0] in ("coin", "gem") for p in r["played"])


@pytest.mark.parametrize("report, message", [
    ("report:\n  per_player: {card: on_tabel}\n", "'on_tabel' is not a function of one player"),
    ("report:\n  played: {from: [hnad], to: [table]}\n", "report: no zone 'hnad'"),
    ("report:\n  played: {from: [discard], to: [table]}\n", "'discard' is not a zone of a player"),
    ("report:\n  played: {from: [hand], to: [table], kinds: [coin]}\n", "report: no kind 'coin'"),
])
def test_a_wrong_report_field_is_a_clear_error(tmp_path, capsys, report, message):
    root = reported_game(tmp_path, report)
    code, out, err = run(capsys, "simulate", root, "--games", "2", "--report", tmp_path / "out")
    assert code == 1
    assert message in err and "game.yaml:" in err
    code, out, err = run(capsys, "validate", root)  # an author sees it at once, at its line
    assert code == 1 and message in out + err


def test_a_misspelt_report_name_gets_a_suggestion(tmp_path, capsys):
    root = reported_game(tmp_path, "report:\n  per_player: {card: on_tabel}\n")
    code, out, err = run(capsys, "simulate", root, "--games", "2", "--report", tmp_path / "out")
    assert "did you mean 'on_table'?" in err


@pytest.mark.parametrize("name", known_games())
def test_every_game_reports_what_it_plays(name):
    """Each game's manifest names what is played and what is reported per player, and they resolve."""
    spec = report_spec(load_compiled(name))
    assert spec.tracks_played and spec.per_player


def test_an_error_in_a_game_is_recorded_with_its_seed(tmp_path):
    root = tiny_game(tmp_path, rules="procedure play():\n    let x = 1 / (len(pile) - len(pile))\n")
    records = run_batch(Batch(str(root), players=2, games=3, seed=10), workers=1)
    assert [r["seed"] for r in records] == [10, 11, 12]
    assert all("division by zero" in r["error"] for r in records)


# ---------------------------------------------------------------- the progress bar

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_no_progress_when_piped_or_under_json():
    assert isinstance(progress_for(False, io.StringIO()), NoProgress)
    assert isinstance(progress_for(True, Terminal()), NoProgress)
    assert isinstance(progress_for(False, Terminal()), Progress)


def _drive(progress: Progress) -> None:
    progress.start("kings_bounty", 4)
    progress.advance([{"error": None}, {"error": "boom"}])
    progress.advance([{"error": None}, {"error": None}])
    progress.stop()


def test_the_bar_shows_games_rate_and_errors():
    pytest.importorskip("rich", reason="rich is not installed: pip install -e '.[progress]'")
    stream = Terminal()
    progress = Progress(stream)
    progress.start("kings_bounty", 4)
    progress.advance([{"error": None}, {"error": "boom"}])
    shown = stream.getvalue()
    progress.stop()
    assert "2/4" in shown and "games/s" in shown and "1 errors" in shown


def test_the_plain_bar_without_rich(monkeypatch):
    real_import = builtins.__import__

    def no_rich(name, *args, **kwargs):
        if name.startswith("rich"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_rich)
    stream = Terminal()
    _drive(Progress(stream))
    shown = stream.getvalue()
    assert "2/4 games" in shown and "1 errors" in shown and "s left" in shown and "4/4 games" in shown


def test_the_command_prints_no_bar_when_stderr_is_not_a_terminal(capsys):
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "3")
    assert code == 0 and err == ""


# ---------------------------------------------------------------- usage errors

@pytest.mark.parametrize("argv, message", [
    (["--workers", "0"], "--workers must be at least 1"),
    (["--compare", "experienced"], "--compare needs --report DIR"),
    (["--variant", "experimented"], "did you mean 'experienced'?"),
    (["--compare", "experienced", "--variant", "experienced", "--report", "x"], "already played by --variant"),
])
def test_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", *argv)
    assert code == 2 and message in err


def test_ray_missing_is_a_usage_error(capsys, monkeypatch):
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_ray)
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", "--ray")
    assert code == 2 and "--ray needs Ray" in err and 'pip install -e ".[ray]"' in err


def test_an_unreachable_ray_head_is_a_usage_error_and_nothing_is_copied(capsys, monkeypatch, tmp_path):
    """Ray itself retries a head that does not answer for ever; the address is tried first, before any copy."""
    pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]' (.ci/run installs it)")
    import socket
    import tempfile
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", "--ray", f"127.0.0.1:{port}")
    assert code == 2 and f"cannot reach Ray at '127.0.0.1:{port}'" in err and "Traceback" not in err
    assert not list(tmp_path.glob("rules-ray-*"))
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", "--ray", "nohostport")
    assert code == 2 and "is not HOST:PORT" in err


def test_the_copy_sent_to_a_cluster_leaves_symbolic_links_behind(tmp_path):
    import shutil
    from pathlib import Path
    from interpreter.batch.ray_cluster import GAME_FOLDER, _staging
    from interpreter.runtime.games import locate
    game = tmp_path / "linked_game"
    shutil.copytree(locate("kings_bounty"), game)
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-OUTSIDE-THE-GAME\n")
    (game / "notes.txt").symlink_to(secret)
    (game / "elsewhere").symlink_to(tmp_path, target_is_directory=True)
    staged = Path(_staging(str(game)))
    try:
        copied = staged / GAME_FOLDER
        assert (copied / "game.yaml").is_file()
        assert not (copied / "notes.txt").exists() and not (copied / "elsewhere").exists()
        assert not any("SECRET-OUTSIDE" in p.read_text(errors="replace") for p in staged.rglob("*") if p.is_file())
    finally:
        shutil.rmtree(staged, ignore_errors=True)
