"""Issue 32 item 6: `rules play --resume` checks a log's `undone` records with the function `rules replay`
uses (gamelog.check_undone), before it writes anything: a forged undo (another seat's, one that keeps 10^9
decisions, one whose decisions the game never asked) is a clear error, and the log
and its folder are left exactly as they were. A true undo resumes, and the log written on replays."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_case import run_rules
from hostile_runs import unfinished

BASE = Path(__file__).resolve().parent / "base_game"


# Each undo is made of the whole base game's decisions, then the log is cut after its first decision.
FIRST_TWO = lambda decisions: decisions[:2]  # noqa: E731 - (the base game asks P1, then P2, once each)
FORGED = [
    ("another_seats", 0, "P2", FIRST_TWO, "was not P2's to take back"),
    ("keeps_a_billion", 10 ** 9, "P1", FIRST_TWO, "keeps 1000000000 decisions"),
    ("never_asked", 0, "P1", lambda decisions: [[0, "nonsense"], decisions[1]], "undone[0]: decision 1"),
    ("while_not_asked", 0, "P1", lambda decisions: decisions[:1], "P1 was not being asked"),
    ("after_negative", -1, "P1", FIRST_TWO, "undone[0].after"),
]


def resumable(folder: Path, base_log: dict, after: int, by: str, took_back) -> Path:
    """The base game's log, cut after its first decision as an interrupted game leaves it, with one undo."""
    shutil.copytree(BASE, folder / "game")
    log = unfinished(1)({**base_log, "game": str(folder / "game")})
    log = {**log, "seats": ["random", "random"], "undone": [{"after": after, "by": by, "decisions": took_back(base_log["decisions"])}]}
    path = folder / "log.json"
    path.write_text(json.dumps(log, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, after, by, took_back, text", FORGED, ids=[f[0] for f in FORGED])
def test_a_forged_undo_is_refused_and_the_log_is_untouched(tmp_path, base_log, name, after, by, took_back, text):
    path = resumable(tmp_path, base_log, after, by, took_back)
    before = path.read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())
    exit_code, out = run_rules(("play", "--resume", str(path)), "", 30)
    assert exit_code == 1 and "error[LOG-" in out and text in out, out
    assert "Traceback" not in out and "Resumed" not in out
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == files
    replayed, said = run_rules(("replay", str(path), "--quiet"), "", 30)  # what replay says of the same log
    assert replayed == 1 and text in said, said


def test_a_true_undo_resumes_and_its_log_replays(tmp_path):
    """(The base game asks each player once: no undo of it is true.) A game of King's Bounty's bots where P1
    takes back a decision as `undo` does, interrupted a little later, resumes with its undo checked."""
    from interpreter.agents.match import Match
    from interpreter.runtime.games import load_compiled
    from interpreter.runtime.gamelog import write_log
    match = Match(load_compiled("kings_bounty"), 3, 5, (), ["random"] * 3, {}, "en", None, lambda *a: None)
    match.start()
    session = match.session
    while not (len(match.deciders) > 3 and session.pending.player in match.deciders):
        match.deciders.append(session.pending.player)
        session.answer(0)
        session = match.session
    assert match.undo(match.session.pending.player)
    for _ in range(2):
        match.deciders.append(match.session.pending.player)
        match.session.answer(0)
    path = tmp_path / "log.json"
    write_log(match.log("kings_bounty", "interrupt"), path)
    code, out = run_rules(("play", "--resume", str(path), "--quiet"), "", 60)
    assert code == 0 and "Resumed after decision" in out, out
    assert len(json.loads(path.read_text(encoding="utf-8"))["undone"]) == 1
    code, out = run_rules(("replay", str(path), "--quiet"), "", 60)
    assert code == 0 and "1 undo checked" in out, out
