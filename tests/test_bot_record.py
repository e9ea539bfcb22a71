"""A line's record is put into words only when read (`agents/record.py`), yet reads exactly as if every line
had been put into words when it was told: in every game, for every seat, along random games, on a copy played
on differently from its original, and once pickled (words only, no state)."""
from __future__ import annotations

import pickle
import random

import pytest

from interpreter.agents.line import Line, shown_label
from interpreter.present.words import prompt, telling
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session

GAMES = [("agot", 3), ("kings_bounty", 4), ("btwixt", 4)]


def _eager(game, players: int, seed: int, answers: list) -> tuple:
    """The record as it was made before: every line told put into words at once, and each answer's prompt
    and label at the moment it is given."""
    told: list = []
    session = Session(game, players, seed, account=telling(lambda to, text: told.append((to, text))))
    events, steps = [("told", to, text) for to, text in told], []
    for i, answer in enumerate(answers):
        told.clear()
        d = session.pending
        who = 0 if d.player is None else d.player
        steps.append((who, d.secret, prompt(d), shown_label(session.state, d.label(answer), who)))
        events.append(("step", i))
        session.answer(answer)
        events.extend(("told", to, text) for to, text in told)
    return events, steps


def _words(line: Line) -> list:
    return [e if e[0] != "told" else ("told", e[1], line.part(e, e[1] if e[1] is not None else 0)) for e in line.events]


def _play(line: Line, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if line.finished:
            return
        line.apply(rng.randrange(len(line.decision.values)))


def _play_both(a: Line, b: Line, rng: random.Random, steps: int) -> None:
    """The same random answers given to two lines of the same game."""
    for _ in range(steps):
        if a.finished:
            return
        index = rng.randrange(len(a.decision.values))
        a.apply(index)
        b.apply(index)


@pytest.mark.parametrize("name,players", GAMES)
def test_the_record_reads_as_if_worded_when_told(name, players):
    game = load_compiled(name)
    line = Line(game, players, 3, track=True)
    _play(line, random.Random(7), 300)
    events, steps = _eager(game, players, 3, line.answers)
    assert line.steps == steps
    assert _words(line) == events
    assert any(e[0] == "told" and type(e[2]) is not str for e in line.events)  # some were indeed kept for later
    copy = pickle.loads(pickle.dumps(line))
    assert all(type(e[2]) is str for e in copy.events if e[0] == "told")
    for p in range(players):
        assert copy.information(p) == line.information(p)


@pytest.mark.parametrize("name,players", GAMES)
def test_a_copy_and_its_original_record_their_own_lines(name, players):
    game = load_compiled(name)
    line = Line(game, players, 5)
    _play(line, random.Random(1), 60)
    copy = line.copy()
    _play(copy, random.Random(2), 60)
    _play(line, random.Random(3), 60)
    for each in (line, copy):
        events, steps = _eager(game, players, 5, each.answers)
        assert each.steps == steps
        assert _words(each) == events


@pytest.mark.parametrize("name,players", GAMES)
def test_a_lazy_line_records_as_an_eager_one(name, players):
    """A lazy line (the bot adapters') keeps no record as it plays; read, it is the eager line's record, and
    from then on it records as it plays (a copy made before the reading stays lazy and reads its own)."""
    game = load_compiled(name)
    lazy, eager = Line(game, players, 4, track=True, lazy=True), Line(game, players, 4, track=True)
    _play_both(lazy, eager, random.Random(5), 40)
    assert lazy._lazy and not lazy._events and not lazy._steps  # nothing kept while playing
    before = lazy.copy()
    _play(before, random.Random(6), 30)
    assert lazy.steps == eager.steps and lazy.labels == eager.labels and lazy.seen == eager.seen
    assert _words(lazy) == _words(eager) and not lazy._lazy
    _play_both(lazy, eager, random.Random(8), 40)
    for p in range(players):
        assert lazy.information(p) == eager.information(p)
    assert lazy.seen == eager.seen and lazy.taken == eager.taken
    again = Line(game, players, 4, track=True)
    for index in before.answers:
        again.apply(index)
    assert before.steps == again.steps and _words(before) == _words(again) and before.seen == again.seen


def test_what_could_read_otherwise_later_is_worded_at_once():
    from interpreter.agents.record import Later, told
    from interpreter.present.views import can_see
    from interpreter.present.words import line as words_now
    line = Line(load_compiled("kings_bounty"), 4, 1)
    _play(line, random.Random(4), 10)
    state = line.session.state
    hidden = next(e for e in state.entities.values() if e.zone is not None and not can_see(e, 0))
    seen = next(e for e in state.entities.values() if e.zone is not None and can_see(e, 0))
    for text in [("P1 sees ", (hidden, "entity")), ("cards: ", ([seen, hidden], "list[entity]")),
                 ("a map ", ({seen: 1}, "any"))]:
        kept = told(text, state, 0, {})
        assert type(kept) is str and kept == words_now(state, text, 0)
    kept = told(("P1 sees ", (seen, "entity")), state, 0, {})
    assert isinstance(kept, Later) and kept.said(state) == words_now(state, ("P1 sees ", (seen, "entity")), 0)
    numbers = [1, 2]
    kept = told(("numbers ", (numbers, "list[number]")), state, 0, {})
    before = words_now(state, ("numbers ", (numbers, "list[number]")), 0)
    numbers.append(3)  # a list variable changed after the line was told
    assert isinstance(kept, Later) and kept.said(state) == before


def test_a_kept_line_holds_no_live_component():
    """A copy shares its original's record: a line kept for later must not hold the table it was told in
    (components, zones), or every copy would keep the tables of all the lines it came from alive."""
    from interpreter.agents.record import Later
    from interpreter.core.state import Entity, Zone
    line = Line(load_compiled("agot"), 3, 2)
    _play(line, random.Random(5), 80)
    kept = [e[2] for e in line.events if e[0] == "told" and isinstance(e[2], Later)]
    assert kept
    for later in kept:
        stack = [v for p in later.text if type(p) is tuple for v in p[:1]] + [later.text.cause if hasattr(later.text, "cause") else None]
        while stack:
            v = stack.pop()
            if isinstance(v, (list, tuple)):
                stack.extend(v)
            elif isinstance(v, Entity):
                assert v.zone is None and not v.vars, v
                assert not any(isinstance(x, (Entity, list)) for x in v.attrs.values()), v
            elif isinstance(v, Zone):
                assert not v.items, v
