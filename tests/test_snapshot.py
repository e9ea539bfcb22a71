"""Copies of a game in progress (`Session.copy`, runtime.snapshot): no replay, each copy plays on alone.

A copy taken at any decision and given the original's remaining answers ends exactly as the original
(state digest and result); given other answers, it diverges without touching the original; a copy of a
copy works the same. Every game of content/ is played, several copies per game.
"""
from __future__ import annotations

import random

import pytest

from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled

GAMES = [("kings_bounty", 4), ("btwixt", 4), ("agot", 3)]


def _random_answers(game, players: int, seed: int) -> list[int]:
    s = Session(game, players, seed)
    rng = random.Random(seed + 1)
    out = []
    while s.pending is not None:
        out.append(rng.randrange(len(s.pending.values)))
        s.answer(out[-1])
    return out


def _play(session, answers) -> None:
    for a in answers:
        session.answer(a)


@pytest.mark.parametrize("name, players", GAMES)
def test_a_copy_at_any_decision_ends_as_the_original(name, players):
    game = load_compiled(name)
    seed = 5
    answers = _random_answers(game, players, seed)
    original = Session(game, players, seed)
    copies = []
    for k, a in enumerate(answers):
        if k % 9 == 4:
            copies.append((k, original.copy()))
        original.answer(a)
    assert original.pending is None and len(copies) > 5
    for k, c in copies:
        _play(c, answers[k:])
        assert c.pending is None, k
        assert c.state.digest() == original.state.digest(), k
        assert c.result.winners == original.result.winners and c.history == original.history


@pytest.mark.parametrize("name, players", GAMES)
def test_a_copy_and_its_original_diverge_independently(name, players):
    game = load_compiled(name)
    seed = 8
    answers = _random_answers(game, players, seed)
    reference = Session(game, players, seed)
    _play(reference, answers)
    original = Session(game, players, seed)
    k = len(answers) // 2
    _play(original, answers[:k])
    copy = original.copy()
    before = original.state.digest()
    # the copy takes other answers (random ones), to its end
    rng = random.Random(3)
    while copy.pending is not None:
        copy.answer(rng.randrange(len(copy.pending.values)))
    assert original.state.digest() == before  # playing the copy left the original as it was
    _play(original, answers[k:])
    assert original.state.digest() == reference.state.digest()
    assert copy.state.digest() != reference.state.digest() or copy.history != reference.history


def test_a_copy_of_a_copy_and_copies_in_secret_waves():
    """AGoT places orders secretly (a suspended wave of several players' parts): copy inside it, twice."""
    game = load_compiled("agot")
    answers = _random_answers(game, 3, 11)
    original = Session(game, 3, 11)
    reference = Session(game, 3, 11)
    _play(reference, answers)
    secret_points = 0
    for k, a in enumerate(answers):
        if original.pending.secret and secret_points < 3:
            secret_points += 1
            c = original.copy()
            c.answer(a)
            cc = c.copy()
            _play(cc, answers[k + 1:])
            _play(c, answers[k + 1:])
            assert cc.state.digest() == c.state.digest()
            assert c.state.digest() == reference.state.digest()
        original.answer(a)
    assert secret_points > 0


def _waiting_in(session) -> list[str]:
    """The functions a session's suspended procedures wait in, outermost first."""
    names, gen = [], session._gen
    while gen is not None:
        names.append(gen.gi_code.co_name)
        gen = gen.gi_yieldfrom
    return names


def test_a_copy_made_while_an_ability_asks_ends_as_the_original():
    """Events run their parts as plain calls and hand a generator (Runtime._triggers) only the abilities
    that ask: a copy taken while one asks is resumed inside that generator, and plays on as the original."""
    game = load_compiled("btwixt")
    checked = 0
    for seed in range(12):
        s = Session(game, 4, seed)
        rng = random.Random(seed)
        while s.pending is not None and not any(n.endswith("_triggers") for n in _waiting_in(s)):
            s.answer(rng.randrange(len(s.pending.values)))
        if s.pending is None:
            continue
        copy = s.copy()
        assert any(n.endswith("_triggers") for n in _waiting_in(copy))
        a, b = random.Random(seed + 1), random.Random(seed + 1)
        while s.pending is not None:
            s.answer(a.randrange(len(s.pending.values)))
            copy.answer(b.randrange(len(copy.pending.values)))
        assert copy.pending is None and copy.labels == s.labels and copy.result.scores == s.result.scores
        checked += 1
    assert checked >= 3
