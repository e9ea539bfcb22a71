"""A person plays a round of A Game of Thrones at a terminal (a pseudo-terminal, 3 players): each march
order is asked as groups of units and their destinations, one question per group that moves together,
destinations marked and combats shown with the strengths known from the board (issue 19, section 3)."""
from __future__ import annotations

import os
import re

import pytest

from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from tests.test_human_terminal import play_at_a_terminal


pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

MOVE = re.compile(r"^Move (?P<group>.+) to (?P<area>.+) \((?P<mark>empty|friendly|enemy power token, no combat)\)"
                  r"(, leaving a power token)?$")
ATTACK = re.compile(r"^Attack (?P<area>.+) \((enemy P\d|neutral force \d+)\) with (?P<group>.+?)(, power token left)?: "
                    r"-?\d+ against \d+; support \+\d+ you, (\+\d+ P\d, )?\+\d+ others$")
GROUP = re.compile(r"^((\d )?(footm[ae]n|knights?|siege engines?|ships?))(, (\d )?(footm[ae]n|knights?|siege engines?|ships?))*$")


def play_a_round(args: list[str], answer, limit: float = 90.0) -> str:
    """Run `rules ARGS` on a pseudo-terminal, answering each `> ` with answer(screen so far), until round 2 starts."""
    return play_at_a_terminal(args, answer, limit, until=r"^(round|раунд) 2 · ")  # the table's line of game values


def units_in(group: str) -> int:
    return sum(int(part.split()[0]) if part[0].isdigit() else 1 for part in group.split(", "))


def last_question(screen: str) -> tuple[str, list[str]]:
    block = screen[max(screen.rfind("--- P1, your decision ---"), screen.rfind("--- Игрок 1, ваше решение ---")):]
    lines = block.splitlines()
    # the question: the last line before the options, with a colon after it unless it ends with `?`
    q = max(i for i, line in enumerate(lines) if line.endswith((":", "?")) and not line.startswith(" "))
    options = [re.sub(r"^  \[\d+\] ", "", line) for line in lines[q + 1:] if re.match(r"^  \[\d+\] ", line)]
    return lines[q].removesuffix(":"), options


def test_a_human_round_gives_each_march_as_groups_one_question_per_group():
    marches: list[tuple[str, list[str], str]] = []  # (origin, options, chosen)

    def answer(screen: str) -> str:
        question, options = last_question(screen)
        m = re.match(r"^March from (.+): which units go where\?$", question)
        if not m:
            return "0"
        # the largest group, wherever it goes (the first such option)
        sizes = []
        for text in options:
            found = MOVE.match(text) or ATTACK.match(text)
            sizes.append(units_in(found["group"]) if found else 0)
        pick = max(range(len(options)), key=lambda i: sizes[i])
        marches.append((m[1], options, options[pick]))
        return str(pick)

    screen = play_a_round(["play", "agot", "--agents", "human,random,random", "--players", "3", "--seed", "4", "--variant", "houses_fixed",
                           "--lang", "en"], answer)
    assert re.search(r"^round 2 · ", screen, re.M), screen[-3000:]
    assert marches, "P1 gave no march in round 1"

    for origin, options, chosen in marches:
        assert "End the march (the others stay)" in options
        for text in options:
            if text.startswith(("Move ", "Attack ")):
                found = MOVE.match(text) or ATTACK.match(text)
                assert found, text
                assert GROUP.match(found["group"]), text
            assert "#" not in text and "strength 4" not in text, text
    # a group of several units leaves in one question: no origin is asked more often than the groups
    # that left it, plus the question ending its march
    questions = {}
    groups = {}
    for origin, _, chosen in marches:
        questions[origin] = questions.get(origin, 0) + 1
        groups[origin] = groups.get(origin, 0) + (not chosen.startswith("End the march"))
    assert all(questions[o] <= groups[o] + 1 for o in questions), (questions, groups)
    big = [chosen for _, _, chosen in marches if (MOVE.match(chosen) or ATTACK.match(chosen))
           and units_in((MOVE.match(chosen) or ATTACK.match(chosen))["group"]) >= 2]
    assert big, [c for _, _, c in marches]
    # the board's own words, not ids
    ids = set(Session(load_compiled("agot"), 3, 4).state.entities)
    words = set(re.findall(r"[A-Za-z0-9_]+", screen))
    assert not words & ids, sorted(words & ids)[:10]


def test_the_same_round_in_russian_reads_the_marches_in_russian():
    asked = []

    def answer(screen: str) -> str:
        question, options = last_question(screen)
        if question.startswith("Поход из области"):
            asked.append(options)
            return str(max(range(len(options)), key=lambda i: len(options[i]) if options[i].startswith("В область") else 0))
        return "0"

    screen = play_a_round(["play", "agot", "--agents", "human,random,random", "--players", "3", "--seed", "4", "--variant", "houses_fixed",
                           "--lang", "ru"], answer)
    assert asked, screen[-3000:]
    texts = [t for options in asked for t in options]
    assert "Завершить поход (остальные отряды остаются на месте)" in texts
    assert any(re.match(r"^В область .+ \((пусто|свои владения)\): ", t) for t in texts), texts
    assert any(re.match(r"^Атака: .+ \(нейтральный лорд \d+\): .+; -?\d+ против \d+; подмога \+\d+ ваша, \+\d+ других$", t)
               for t in texts), texts
    assert not re.search(r"[A-Za-z]{4,}", "\n".join(texts)), texts
