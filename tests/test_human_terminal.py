"""A person plays King's Bounty at a terminal (a pseudo-terminal): the screen shows words, never rule
text, internal option names or component ids (issue 10, section 4)."""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def play_at_a_terminal(args: list[str], answer, limit: float = 60.0, until: str | None = None) -> str:
    """Run `rules ARGS` on a pseudo-terminal, answering each `> ` with answer(screen so far), until the game ends
    (or, with `until`, until a line of the screen matches that pattern)."""
    main, sub = os.openpty()
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="120")
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from interpreter.cli import main; sys.exit(main())", *args],
                            stdin=sub, stdout=sub, stderr=sub, cwd=ROOT, env=env, close_fds=True)
    os.close(sub)
    screen = b""
    answered = 0
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the other end closed: the game is over
                    break
                if not chunk:
                    break
                screen += chunk
                text = screen.decode("utf-8", "replace")
                if until is not None and re.search(until, text, re.M):
                    break
                if text.count("\n> ") + text.startswith("> ") > answered and text.rstrip(" ").endswith(">"):
                    os.write(main, (answer(text) + "\n").encode())
                    answered += 1
            elif proc.poll() is not None:
                break
        else:
            raise AssertionError(f"{'the game did not end' if until is None else repr(until) + ' not seen'} in time:\n" + screen.decode("utf-8", "replace")[-2000:])
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(main)
    return screen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_human_game_of_kings_bounty_shows_no_rule_text_and_no_id():
    asked = []

    def answer(screen: str) -> str:
        asked.append(screen)
        # now and then ask for the key (the full text of the cards), then always the first option
        return "?" if len(asked) % 7 == 3 else "0"

    screen = play_at_a_terminal(["play", "kings_bounty", "--agents", "human,random", "--players", "3", "--seed", "5",
                                 "--lang", "en"], answer)
    assert "Final scores:" in screen, screen[-2000:]
    assert "--- P1, your decision ---" in screen
    assert "Your turn: play a card, or put cards under the deck" in screen
    assert re.search(r"\[\d+\] Lay down .+ \(strength \d+", screen)
    assert "your hand: " in screen and "hand of P2: " in screen

    game = load_compiled("kings_bounty")
    ids = set(Session(game, 3, 5).state.entities)
    words = set(re.findall(r"[A-Za-z0-9_]+", screen))
    assert not words & ids, sorted(words & ids)[:10]
    # no internal names: option names, zone names and the like are written with underscores
    assert not [w for w in words if "_" in w], sorted(w for w in words if "_" in w)[:10]
    # no rule text: no line of a `choose` statement of the game's rules appears on the screen
    sources = set()
    for path in (ROOT / "content" / "kings_bounty" / "rules").glob("*.rules"):
        sources |= {line.strip().rstrip(":") for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip().startswith("choose")}
    assert sources
    for source in sources:
        assert source.split(" ask ")[0] not in screen, source
    assert not re.search(r"\bchoose (by|at least|up to|order|\w+ in)\b", screen)


@pytest.mark.parametrize("game,players", [("kings_bounty", 3), ("btwixt", 4)])
def test_a_human_game_in_russian_reads_wholly_in_russian(game, players):
    """Issue 10, section 5: the table, the questions, the options, the keys and the account, in Russian."""
    from tests.test_i18n import wrong_language
    asked = []

    def answer(screen: str) -> str:
        asked.append(screen)
        return "?" if len(asked) % 5 == 2 else "0"

    screen = play_at_a_terminal(["play", game, "--agents", "human,random", "--players", str(players), "--seed", "2",
                                 "--lang", "ru"], answer, limit=120)
    assert "Итоговые очки:" in screen, screen[-2000:]
    assert "--- Игрок 1, ваше решение ---" in screen
    lines = [x for x in screen.splitlines()[1:] if x.strip() and x.strip() != ">"]  # the first: the game's name
    wrong = [x for x in lines if wrong_language(x, "ru")]
    assert not wrong, wrong[:10]
    ids = set(Session(load_compiled(game), players, 2).state.entities)
    assert not set(re.findall(r"[A-Za-z0-9_]+", screen)) & ids
