"""The terminal fits its terminal (issue 35 item 3): a game at a pseudo-terminal of 80x24, 100x30 and 160x50,
in English and in Russian, draws each decision's screen within the terminal's rows and columns, laid out
again when the terminal is resized (SIGWINCH); what happened since the last decision says how many lines it
folded and `log` shows them; `help` lists every command; a question about an area shows its neighbours;
`--agents` names the seats, and the number of players unless `--players` is given."""
from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from cli_run import run
from interpreter.present.terminal import HELP, screen
from interpreter.present.words import Presenter
from tests.test_play_interrupted import at_a_terminal as play_at

ROOT = Path(__file__).resolve().parent.parent
SIZES = [(24, 80), (30, 100), (50, 160)]
HEADING = re.compile(r"^--- (P\d|Игрок \d), (your decision|ваше решение) ---$", re.M)

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def at_a_terminal(args: list[str], inputs: list, size: tuple, limit: float = 90.0) -> str:
    """`rules ARGS` on a pseudo-terminal of `size` (rows, columns) that is its controlling terminal
    (tests.test_play_interrupted.at_a_terminal): the screen."""
    return play_at(args, inputs, limit, size)[1]


def screens(output: str) -> list[list[str]]:
    """Each decision's screen as drawn: from its heading to the line before its prompt."""
    out = []
    for m in HEADING.finditer(output):
        rest = output[m.start():]
        out.append(rest[:rest.index("\n> ")].split("\n") if "\n> " in rest else rest.split("\n"))
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("rows,columns", SIZES)
def test_each_screen_fits_the_terminal(rows, columns, lang):
    out = at_a_terminal(["play", "kings_bounty", "--agents", "human,random,random", "--seed", "5", "--lang", lang],
                        ["help", *["0"] * 7, "\x04"], (rows, columns))
    assert ("3 players" if lang == "en" else "Игроков: 3") in out  # as many players as agents
    drawn = screens(out)
    assert len(drawn) >= 6, out[-3000:]
    for lines in drawn:
        # the blank line above the screen and the prompt below it are on the terminal too
        assert len(lines) + 2 <= rows, (rows, len(lines), "\n".join(lines))
        assert max(len(line) for line in lines) <= columns, max(lines, key=len)
        assert re.match(r"^  \[0\] ", next(line for line in lines if line.startswith("  [")))
    # help: every command on a line of its own, within the columns
    title = "Commands:" if lang == "en" else "Команды:"
    assert out.index("\n> ") < out.index(title)  # typed at the first question
    listed = out[out.index(title):out.index("\n> ", out.index(title))].split("\n")[1:]
    commands = [line for line in listed if re.match(r"^  \S", line)]  # a command's line; one carried on is indented more
    assert len(commands) == len(HELP) and len(set(commands)) == len(commands), listed
    assert all(len(line) <= columns for line in listed) and len(listed) <= len(HELP) * 2, listed
    assert any(w in out for w in ("input ended", "ввод"))


def test_the_screen_is_laid_out_again_when_the_terminal_is_resized():
    out = at_a_terminal(["play", "kings_bounty", "--agents", "human,random,random", "--seed", "5", "--lang", "en"],
                        [("RESIZE", 50, 160), "0", "\x04"], (24, 80))
    drawn = screens(out)
    first, again = drawn[0], drawn[1]

    def question(lines):
        return lines[next(i for i, line in enumerate(lines) if line.startswith("  [0] ")) - 1]
    assert question(first) == question(again)  # the same decision, drawn twice before any answer
    assert len(first) + 2 <= 24 < len(again) + 2 <= 50, (len(first), len(again))
    assert out.index("\n> ") < out.index(again[0], out.index(first[0]) + 1)  # after the first prompt, unanswered


def test_an_area_question_shows_its_neighbours_and_an_area_can_be_asked_about():
    out = at_a_terminal(["play", "agot", "--agents", "human,random,random", "--seed", "4", "--lang", "en"],
                        ["2", "?Winterfell", *["0"] * 12, "\x04"], (30, 100))  # P1 leads House Stark (option 2)
    assert re.search(r"^  Winterfell \(P1[^:]*\): units of Winterfell: .*\n(    next to: .*\n)+", out, re.M), out[:4000]
    asked = [s for s in screens(out) if any(re.match(r"^(Which order do you give to|March from) ", line) for line in s)]
    assert asked, out[-3000:]
    for lines in asked:
        question = next(line for line in lines if re.match(r"^(Which order do you give to|March from) ", line))
        area = re.match(r"^(?:Which order do you give to|March from) (.+?)[?:]", question)[1]
        at = next(i for i, line in enumerate(lines) if line.startswith(area + " ") or line == area)
        assert lines[at + 1].startswith("  next to: "), lines
        assert len(lines) + 2 <= 30 and max(map(len, lines)) <= 100


# ---------------------------------------------------------------- in this process
def test_what_happened_says_how_many_lines_it_folded_and_log_shows_them():
    from interpreter.agents.players import HumanAgent
    from interpreter.runtime.games import load_compiled
    from interpreter.runtime.session import Session
    session = Session(load_compiled("kings_bounty"), 3, 5, lang="en")
    told = [f"line {i} of what happened" for i in range(40)]
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("log\nlog all\n0\n"), stdout=out)
    human.attach(session)
    for line in told:
        human.hear(line)
    human.decide(session.pending, None)
    text = out.getvalue()
    drawn = screens(text)[0]
    shown = [line.strip() for line in drawn if line.strip().startswith("line ")]
    assert shown and len(shown) < 40 and shown == told[-len(shown):]
    assert f"Since your last decision (earlier lines folded: {40 - len(shown)}; log shows them):" in drawn
    after = text[text.index("\n> ") + 3:]
    assert after.startswith("Since your last decision:\n" + "".join(f"  {line}\n" for line in told))
    # a decision that follows with nothing new: nothing folded, and log says nothing happened
    human.stdin = io.StringIO("log\n0\n")
    out.truncate(0), out.seek(0)
    human.decide(session.pending, None)
    assert "nothing happened since your last decision" in out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_small_screen_keeps_the_heading_what_happened_and_the_question(lang):
    from interpreter.present.table import table_model
    from interpreter.present.terminal import option_order
    from interpreter.present.words import shown_to
    from interpreter.runtime.games import load_compiled
    from interpreter.runtime.session import Session
    session = Session(load_compiled("agot"), 4, 2, lang=lang)
    d = session.pending
    pr = Presenter(session.state, d.player)
    shown = shown_to(d, session.state)
    model = table_model(session, d.player)
    for rows, columns in SIZES:
        lines, _ = screen(model, pr, shown, option_order(d, session.state), [f"event {i}" for i in range(30)],
                          "head", 0, rows, columns)
        assert len(lines) <= rows and max(map(len, lines)) <= columns
        assert lines[0] == "head" and lines[1].startswith(pr.say("since your last decision")[:-1])
        assert "event 29" in "\n".join(lines) and any(line.endswith((":", "?")) and shown.prompt[:30] in line for line in lines)  # no colon after a question mark
        assert lines[-1] == pr.say("screen keys")[:columns] or lines[-1].endswith("…")


# ---------------------------------------------------------------- --agents and --players
def test_agents_name_the_seats_and_the_number_of_players(capsys):
    code, out, err = run(capsys, "play", "kings_bounty", "--agents", "random,random,random", "--quiet")
    assert code == 0 and "3 players" in out
    code, out, err = run(capsys, "play", "kings_bounty", "--agents", "random,random", "--players", 4, "--quiet")
    assert code == 0 and "4 players" in out  # with --players the last agent sits at the seats left
    code, out, err = run(capsys, "play", "kings_bounty", "--agents", "random", "--quiet")
    assert code == 0 and "4 players" in out  # one agent sits at every seat of the game's default
    code, out, err = run(capsys, "play", "kings_bounty", "--agents", "random,random,random", "--players", 2)
    assert code == 2 and "--agents names 3 agents for 2 players" in err
    code, out, err = run(capsys, "play", "kings_bounty", "--agents", ",".join(["random"] * 6))
    assert code == 2 and "--agents names 6 agents: kings_bounty is for 2 to 5 players" in err
    code, out, err = run(capsys, "simulate", "kings_bounty", "--agents", "random,random", "--games", 2, "--workers", 1)
    assert code == 0 and "players: 2" in out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_question_naming_an_area_shows_it_with_its_neighbours_at_every_size(lang):
    import random
    from interpreter.present.table import table_model
    from interpreter.present.terminal import areas_named, option_order
    from interpreter.present.words import shown_to
    from interpreter.runtime.games import load_compiled
    from interpreter.runtime.session import Session
    session = Session(load_compiled("agot"), 3, 4, lang=lang)
    rng = random.Random(4)
    while True:  # on to the first question that names an area (an order to give there)
        d = session.pending
        model = table_model(session, d.player)
        shown = shown_to(d, session.state)
        if areas_named(model, shown.prompt):
            break
        session.answer(rng.randrange(len(d.values)))
    pr = Presenter(session.state, d.player)
    area = next(a for a in model.areas if a.ref == areas_named(model, shown.prompt)[0])
    near = {a.ref: a.name for a in model.areas}
    for rows, columns in SIZES:
        lines, _ = screen(model, pr, shown, option_order(d, session.state), ["something"] * 5, "head", 0, rows, columns)
        at = next(i for i, line in enumerate(lines) if line.startswith(area.name))
        after = [line for line in lines[at + 1:] if line.startswith("  " + pr.say("next to area", area=""))]
        assert after and all(any(line[len("  " + pr.say("next to area", area="")):].startswith(near[n][:20])
                                 for n in area.adjacent) for line in after), lines
        assert len(after) <= len(area.adjacent) and len(lines) <= rows
