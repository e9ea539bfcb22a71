"""The table model (interpreter.present.table) and the terminal screen drawn from it (interpreter.present.
terminal): the score shown is the score the final scoring would give now; an AGoT decision fits one
screen; options keep their places; a face-down component shows only what the game says its back shows."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.core.state import State
from interpreter.present.table import score_now, table_model
from interpreter.present.terminal import COLUMNS, ROWS, option_order, screen
from interpreter.present.words import Presenter, shown_to
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled
from tests.tiny_game import tiny_game

# The procedure each game's end runs to settle its scores (the variable it fills is the manifest's `score`).
FINAL = {"kings_bounty": "final_scoring", "agot": "end_of_game", "btwixt": "final_scoring"}


def _final_scores(game, session) -> list:
    """Run the game's final scoring on a copy of the table as it is now; the copy's scores."""
    state = session.state
    copy = State.from_json(game.content.vocabulary, _records_of(session), json.loads(json.dumps(state.to_json())))
    Session(game, state.players, state=copy, procedure=FINAL[game.content.id])
    return [copy.player_vars[p][game.content.manifest["score"]] for p in range(state.players)]


def _records_of(session) -> dict:
    return {eid: (e.record_id, e.attrs) for eid, e in session.state.entities.items()}


@pytest.mark.parametrize("name,players", [("kings_bounty", 2), ("kings_bounty", 5), ("agot", 3), ("agot", 6)])
def test_the_score_shown_is_what_the_final_scoring_would_give_now(name, players):
    game = load_compiled(name)
    for seed in range(2):
        # AGoT's seats take their Houses in the sheets' order: the scoring on a copy needs Houses from the start
        session = Session(game, players, seed, ("houses_fixed",) if name == "agot" else ())
        rng = random.Random(seed)
        step = 0
        while session.pending is not None:
            if step % 37 == 0:  # a sample of the decisions: each check runs the final scoring on a copy
                model = table_model(session, session.pending.player)
                shown = {p.seat: p.score for p in model.players}
                final = _final_scores(game, session)
                assert [shown[p] for p in range(players)] == final, f"seed {seed}, decision {step}"
            session.answer(rng.randrange(len(session.pending.values)))
            step += 1
        assert [score_now(session, p) for p in range(players)] == session.result.scores


def test_a_score_that_hangs_on_hidden_tokens_is_shown_only_at_the_end():
    game = load_compiled("btwixt")
    session = Session(game, 4, 1)
    rng = random.Random(1)
    while session.pending is not None:
        assert all(p.score is None for p in table_model(session, session.pending.player).players)
        session.answer(rng.randrange(len(session.pending.values)))
    assert [p.score for p in sorted(table_model(session, 0).players, key=lambda p: p.seat)] == session.result.scores


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_an_agot_decision_fits_one_screen(players):
    game = load_compiled("agot")
    for seed in range(2):
        session = Session(game, players, seed, ("tides_of_battle",) if seed else ())
        rng = random.Random(seed)
        n = 0
        while session.pending is not None and n < 600:
            d = session.pending
            pr = Presenter(session.state, d.player)
            shown = shown_to(d, session.state)
            order = option_order(d, session.state)
            model = table_model(session, d.player)
            for rows, columns in ((ROWS, COLUMNS), (24, 80), (30, 100), (50, 160)):  # issue 35: the terminal's size
                lines, pages = screen(model, pr, shown, order, ["something happened"] * 9, "head", 0, rows, columns)
                listed = []
                for page in range(pages):  # the first page as drawn, the others with `>`
                    lines, _ = screen(model, pr, shown, order, ["something happened"] * 9, "head", page, rows, columns)
                    assert len(lines) <= rows and max(map(len, lines)) <= columns, (seed, n, rows)
                    assert lines[0] == "head" and shown.prompt[:40] in "\n".join(lines)
                    assert any(line.startswith(pr.say("since your last decision")[:-1]) for line in lines)
                    listed += [line for line in lines if line.startswith("  [")]
                assert len(listed) == len(order) and (pages == 1 or len(order) > rows // 2), (rows, len(order), pages)
            session.answer(rng.randrange(len(d.values)))
            n += 1


@pytest.mark.parametrize("name,players", [("kings_bounty", 3), ("btwixt", 4), ("agot", 4)])
def test_options_keep_their_places_between_decisions(name, players):
    game = load_compiled(name)
    session = Session(game, players, 3)
    rng = random.Random(3)
    last = {}
    while session.pending is not None:
        d = session.pending
        shown = shown_to(d, session.state)
        order = option_order(d, session.state)
        labels = [d.labels[i] for i in order]
        key = (d.player, d.source)
        if key in last and sorted(last[key]) == sorted(labels):
            assert last[key] == labels, f"the same options of '{d.source[:40]}' moved"
        last[key] = labels
        assert sorted(order) == list(range(len(shown.options)))
        session.answer(rng.randrange(len(d.values)))


def _face_down_game(tmp_path, table: str):
    root = tiny_game(tmp_path, zones="table: {scope: game, visibility: public}\n", rules="""
        procedure play():
            move @coin_1 to table face down
            move @gem to table face down
        """)
    with open(root / "game.yaml", "a", encoding="utf-8") as f:
        f.write(table)
    return root


def test_a_face_down_component_shows_its_kind_only_where_its_back_shows_it(tmp_path):
    session = Session(load_compiled(str(_face_down_game(tmp_path / "a", "table:\n  zones: {pile: count}\n"))), 2, 0)
    zones = {z.zone: z for z in table_model(session, 1).game}
    assert [(i.text, i.count) for i in zones["table"].items] == [("hidden component", 2)]
    assert zones["pile"].mode == "count" and zones["pile"].size == 1 and not zones["pile"].items
    session = Session(load_compiled(str(_face_down_game(tmp_path / "b", "table:\n  backs: {token: kind}\n"))), 2, 0)
    zones = {z.zone: z for z in table_model(session, 1).game}
    assert [(i.text, i.count) for i in zones["table"].items] == [("face-down token", 2)]
    assert [(i.text, i.count) for i in zones["pile"].items] == [("Coin (value 1)", 1)]


def test_the_table_section_is_checked(tmp_path):
    from dsl.loader import load_game
    root = _face_down_game(tmp_path / "a", "table:\n  score: nothing_here\n  zones: {nowhere: count}\n"
                                           "  variables: [pointz]\n  backs: {token: colour}\n")
    found = sorted((d.code, d.message) for d in load_game(root).report.diagnostics)
    assert [code for code, _ in found] == ["REF-UNDEF"] * 4, found
    assert any("'pointz'" in m for _, m in found) and any("nothing_here" in m for _, m in found)
    root = _face_down_game(tmp_path / "b", "table:\n  zones: {pile: heap}\n")
    assert [d.code for d in load_game(root).report.diagnostics] == ["SCHEMA-VALUE"]


def _kb_with_a_long_menu():
    """A King's Bounty game at the first decision whose menu offers one unit on several targets."""
    game = load_compiled("kings_bounty")
    for seed in range(1, 60):
        session = Session(game, 4, seed)
        rng = random.Random(seed)
        while session.pending is not None:
            d = session.pending
            units = [v.args[0] for v in d.values if getattr(v, "name", None) == "play_unit"]
            if len(units) > len(set(map(id, units))):
                return session
            session.answer(rng.randrange(len(d.values)))
    raise AssertionError("no seed gave a unit with two targets")


def test_a_long_menu_is_asked_in_steps_where_content_says_so():
    """King's Bounty's `table: steps: [play_unit]`: the unit first, then its target; one decision, one answer."""
    from interpreter.present.terminal import option_steps
    session = _kb_with_a_long_menu()
    d, state = session.pending, session.state
    assert "play_unit" in state.voc.table.steps
    shown, order = shown_to(d, state), option_order(d, state)
    steps = option_steps(d, shown, order, state.voc.table.steps)
    assert steps is not None and len(steps) < len(order)
    assert sorted(i for s in steps for i in s.options) == sorted(order)  # each option in exactly one step
    for s in steps:
        firsts = {id(d.values[i].args[0]) if getattr(d.values[i], "name", None) == "play_unit" else i for i in s.options}
        assert len(firsts) == 1, "a step gathers one unit's targets"
        if len(s.options) > 1:
            assert s.text.endswith(f"… ({len(s.options)})") and all(shown.options[i].startswith(s.text[:-len(f" … ({len(s.options)})")])
                                                                  for i in s.options)
    assert option_steps(d, shown, order, frozenset()) is None  # where content does not say so: one flat list


def test_a_person_answers_a_menu_in_steps_and_can_step_back():
    import io
    from interpreter.agents.players import HumanAgent
    from interpreter.present.terminal import option_steps
    session = _kb_with_a_long_menu()
    d, state = session.pending, session.state
    steps = option_steps(d, shown_to(d, state), option_order(d, state), state.voc.table.steps)
    k = next(n for n, s in enumerate(steps) if len(s.options) > 1)
    other = next(n for n, s in enumerate(steps) if n != k)
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO(f"{k}\n-\n{other}\n" + (f"0\n" if len(steps[other].options) > 1 else "")
                                        + f"{k}\n1\n"), stdout=out)
    human.attach(session)
    picked = human.decide(d, None)
    want = steps[other].options[0]
    assert picked == want  # stepping back from the first group, then the other step's first option
    human2 = HumanAgent(stdin=io.StringIO(f"{k}\n1\n"), stdout=io.StringIO())
    human2.attach(session)
    assert human2.decide(d, None) == steps[k].options[1]
    assert "(- goes back to the first step)" in out.getvalue()
