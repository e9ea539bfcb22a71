"""Numbers as answers (issue 33 item 2): `choose n in LO..HI` is one decision of a number in a range, answered by
value at the terminal, in scenarios and on the page, as an index by bots; cheap however large the range."""
from __future__ import annotations

import io
import re
import warnings

import pytest

from interpreter.agents.players import HumanAgent
from interpreter.core.decisions import IllegalDecision
from interpreter.present.words import shown_to
from interpreter.runtime.session import Session
from interpreter.scenarios.run import run_scenario
from tiny_game import compiled, scenario_file, tiny_game

RULES = """\
procedure play():
    for p in players:
        choose n in 3..limit by p ask "How many armies move in?"
        p.points = n
    choose k in [1, 2, 3] by players[0]
    limit = k
    choose big in 0..limit * 100000 by players[1]
    limit = big
"""
VARIABLES = "limit: {scope: game, type: number, initial: 14}\n"


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tiny_game(tmp_path_factory.mktemp("numbers"), rules=RULES, variables=VARIABLES)
    return root, compiled(root)


def test_a_number_in_a_range_is_one_decision_answered_by_value(game):
    _, g = game
    s = Session(g, 2, seed=0)
    d = s.pending
    assert d.kind == "number" and d.values == range(3, 15) and d.player == 0
    assert d.index_of("5") == 2 and d.index_of(" 14") == 11  # the number itself, never its place
    for wrong in ("2", "15", "1", "five", "1.5"):
        with pytest.raises(IllegalDecision, match="a number from 3 to 14"):
            d.index_of(wrong)
    s.answer("5")
    assert s.state.player_vars[0]["points"] == 5 and s.labels == ["5"]
    s.answer(0)  # an index, as bots answer: the lowest
    assert s.state.player_vars[1]["points"] == 3
    assert s.pending.kind == "choose"  # a list of numbers stays a list


def test_a_large_range_is_never_made_into_a_list(game):
    _, g = game
    s = Session(g, 2, seed=0)
    for answer in ("3", "3", "3"):
        s.answer(answer)
    d = s.pending
    assert d.kind == "number" and type(d.values) is range and len(d.values) == 300001 and d._labels is None
    shown = shown_to(d, s.state)
    assert shown.number == (0, 300000) and len(shown.options) == 300001 and shown.options[-1] == "300000"
    assert shown.to_json() == {"prompt": "Choose a number from 0 to 300000", "number": [0, 300000], "secret": False}
    s.answer("123456")
    assert s.state.game_vars["limit"] == 123456 and d._labels is None


def test_the_terminal_takes_the_number_typed(game):
    _, g = game
    s = Session(g, 2, seed=0)
    out = io.StringIO()
    person = HumanAgent(io.StringIO("2\n5\n"), out)
    person.attach(s)
    s.answer(person.decide(s.pending, None))  # "2" is refused (not in 3..14), then 5
    assert s.state.player_vars[0]["points"] == 5
    screen = out.getvalue()
    assert "How many armies move in? (type a number from 3 to 14):" in screen and "[0]" not in screen
    s.answer("3")
    person = HumanAgent(io.StringIO("2\n"), out := io.StringIO())
    person.attach(s)
    s.answer(person.decide(s.pending, None))  # options 1, 2, 3: "2" is the option 2, not the third
    assert s.state.game_vars["limit"] == 2
    assert "type the number itself" in out.getvalue() and "[2]" not in out.getvalue()


def test_a_scenario_answers_with_the_number(game, tmp_path):
    root, _ = game
    path = scenario_file(tmp_path, f"""
        name: numbers by value
        game: {root}
        setup: skip
        run: play()
        decisions: [12, "4", {{answer: 3, options: [1, 2, 3]}}, 299999]
        expect:
          - "players[0].points == 12"
          - "players[1].points == 4"
          - "limit == 299999"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


def test_the_page_asks_for_a_number(game, tmp_path):
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from interpreter.web.app import make_app
    root, _ = game
    app = make_app(tmp_path / "games.sqlite3", [root])
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:  # a host the server answers as (web.guard)
        r = client.post("/new", data={"game": "tiny", "players": "2", "lang": "en", "seed": "0", "seat0": "person",
                                      "seat1": "person"})
        gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
        tokens = re.findall(r'data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)
        html = client.post(f"/api/g/{gid}/view", json={"token": tokens[0]}).json()["html"]
        assert re.search(r'<form class="number" data-low="3"><input type="number" name="n" required\s+min="3" max="14"', html)
        assert 'data-option=' not in html  # no list of twelve buttons
        r = client.post(f"/api/g/{gid}/answer", json={"token": tokens[0], "decision": 0, "option": 9})
        assert r.status_code == 200
        assert app.state.rooms.get(gid).session.state.player_vars[0]["points"] == 12
        r = client.post(f"/api/g/{gid}/answer", json={"token": tokens[1], "decision": 1, "option": 12})
        assert r.status_code == 422  # past 14: not offered
