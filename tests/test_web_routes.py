"""`rules serve` through Starlette's TestClient (issue 18 §1 and §3): seats and their secret links, forged and
stale requests refused with the game untouched, content text escaped, one game's run-time error ending that
game alone, undo, seats handed to bots and back, logs, and games resumed from the SQLite store."""
from __future__ import annotations

import json
import re
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.runtime.gamelog import replay  # noqa: E402
from interpreter.web.app import make_app  # noqa: E402

ROOT = Path(__file__).resolve().parent
WEB_GAME = ROOT / "fixtures" / "web_game"
BASE_URL = "http://127.0.0.1:8000"  # a host the server answers as (interpreter.web.guard)


@pytest.fixture
def server(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", [WEB_GAME])
    with TestClient(app, base_url=BASE_URL) as client:
        yield app, client


def new_game(client, game="web_game", players=2, seats=("person", "person"), lang="en", hotseat=False, seed=""):
    form = {"game": game, "players": str(players), "lang": lang, "seed": str(seed),
            **{f"seat{i}": k for i, k in enumerate(seats)}}
    if hotseat:
        form["hotseat"] = "1"
    r = client.post("/new", data=form)
    assert r.status_code == 200, r.text
    gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
    tokens = re.findall(r'class="seat-link" data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)
    assert len(tokens) == players
    return gid, tokens, r.text


def view(client, gid, token=None, lang="en") -> dict:
    r = client.post(f"/api/g/{gid}/view", json={"token": token, "lang": lang})
    assert r.status_code == 200, r.text
    return r.json()


def answer(client, gid, token, decision, option):
    return client.post(f"/api/g/{gid}/answer", json={"token": token, "decision": decision, "option": option})


def option_of(v: dict, words: str) -> int:
    """The option whose button reads `words` (as escaped in the HTML)."""
    found = re.findall(r'data-option="(\d+)"[^>]*>([^<]*)</button>', v["html"])
    matches = [int(i) for i, text in found if words in text]
    assert matches, f"no option reads {words!r}: {found}"
    return matches[0]


def settle(app, gid, timeout: float = 20.0):
    """Until the game's bots, playing in the background, have nothing left to do."""
    bots, deadline = app.state.bots, time.monotonic() + timeout
    while bots.busy(gid):
        assert time.monotonic() < deadline, "the bots are still playing"
        time.sleep(0.005)


def snapshot(app, gid):
    room = app.state.rooms.get(gid)
    return (list(room.session.history), room.session.state.digest(), app.state.store.decision_count(gid), room.status)


def test_the_lobby_lists_every_game_and_a_folder_given(server):
    _, client = server
    r = client.get("/")
    assert r.status_code == 200
    for name in ("King&#39;s Bounty", "A Game of Thrones", "B&#39;Twixt"):  # escaped as every content text
        assert name in r.text
    assert "Web test &lt;b&gt;game&lt;/b&gt;" in r.text and "<b>game</b>" not in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/?lang=ru").text.count("Начать игру") >= 3


def test_each_seat_has_its_own_unguessable_link_and_no_page_shows_another(server):
    _, client = server
    gid, tokens, links = new_game(client)
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    page = client.get(f"/g/{gid}").text
    assert not any(t in page for t in tokens)
    for seat, token in enumerate(tokens):
        v = view(client, gid, token)
        assert v["seat"] == seat
        assert not any(t in v["html"] for t in tokens)
    spectator = view(client, gid, "not-a-token")
    assert spectator["seat"] is None and spectator["decision"] is None and "data-option" not in spectator["html"]


def test_forged_stale_and_illegal_answers_are_refused_and_change_nothing(server):
    app, client = server
    gid, (p1, p2), _ = new_game(client)
    v = view(client, gid, p1)
    n, legal = v["decision"], option_of(v, "Plain card")
    before = snapshot(app, gid)
    refused = [
        (answer(client, gid, "forged" * 6, n, legal), 403),  # a wrong token
        (answer(client, gid, p2, n, legal), 409),  # another seat's decision
        (answer(client, gid, p1, n, 99), 422),  # an option not offered
        (answer(client, gid, p1, n, "0"), 422),  # an option that is not a number
        (answer(client, gid, p1, n, True), 422),
        (answer(client, gid, p1, n + 1, legal), 409),  # a decision not asked yet
        (client.post(f"/api/g/{gid}/answer", content=b"{not json", headers={"content-type": "application/json"}), 400),
        (client.post(f"/api/g/{gid}/answer", content=b"x" * 20000), 413),  # a body too large
        (answer(client, "no-such-game", p1, n, legal), 404),
        (client.post(f"/api/g/{gid}/answer", json={"token": p1, "decision": n, "option": legal},
                     headers={"origin": "https://elsewhere.example"}), 403),  # a page of another site
    ]
    for response, status in refused:
        assert response.status_code == status, (status, response.text)
        assert "error" in response.json()
        assert snapshot(app, gid) == before
    ok = answer(client, gid, p1, n, legal)
    assert ok.status_code == 200
    after = snapshot(app, gid)
    assert after[2] == before[2] + 1
    again = answer(client, gid, p1, n, legal)  # the same request replayed
    assert again.status_code == 409 and snapshot(app, gid) == after


def test_content_text_is_escaped_in_options_table_keys_and_log(server):
    _, client = server
    gid, (p1, p2), _ = new_game(client)
    v = view(client, gid, p1)
    html = v["html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html and "<img" not in html
    assert answer(client, gid, p1, v["decision"], option_of(v, "&lt;script&gt;")).status_code == 200
    for token in (p1, p2, None):  # the log line naming the card, on every page
        html = view(client, gid, token)["html"]
        assert "takes &lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script" not in html


def test_a_run_time_error_ends_that_game_alone(server, caplog):
    app, client = server
    broken, (b1, _), _ = new_game(client)
    other, (o1, _), _ = new_game(client)
    v = view(client, broken, b1)
    assert answer(client, broken, b1, v["decision"], option_of(v, "Bomb")).status_code == 200
    room = app.state.rooms.get(broken)
    assert room.status == "error" and room.error["code"] == "RUN-ERROR"
    assert "division by zero" in view(client, broken, b1)["html"]
    assert "division by zero" in caplog.text and broken in caplog.text  # and in the server's log
    assert answer(client, broken, b1, v["decision"] + 1, 0).status_code == 409
    w = view(client, other, o1)  # the other game and the server go on
    assert answer(client, other, o1, w["decision"], option_of(w, "Plain card")).status_code == 200
    assert client.get("/").status_code == 200
    log = client.get(f"/g/{broken}/log.json").json()  # the log up to the error replays to it
    assert log["error"]["code"] == "RUN-ERROR"
    assert replay(log).matches


def test_undo_takes_back_the_one_persons_last_decision_and_bots_play_on(server):
    app, client = server
    gid, (p1, _), _ = new_game(client, seats=("person", "random"))
    v = view(client, gid, p1)
    assert answer(client, gid, p1, v["decision"], option_of(v, "Plain card")).status_code == 200
    v = view(client, gid, p1)
    before = snapshot(app, gid)
    assert answer(client, gid, p1, v["decision"], option_of(v, "North")).status_code == 200
    settle(app, gid)
    moved = snapshot(app, gid)
    assert len(moved[0]) > len(before[0]) + 1  # the bot answered after
    assert client.post(f"/api/g/{gid}/undo", json={"token": "nope"}).status_code == 403
    assert client.post(f"/api/g/{gid}/undo", json={"token": p1}).status_code == 200
    assert snapshot(app, gid) == before  # back to the person's last decision, asked again
    assert view(client, gid, p1)["decision"] == len(before[0])
    two, (q1, q2), _ = new_game(client)
    w = view(client, two, q1)
    answer(client, two, q1, w["decision"], option_of(w, "Plain card"))
    assert client.post(f"/api/g/{two}/undo", json={"token": q1}).status_code == 409  # the other person would lose a turn


def test_a_seat_goes_to_a_bot_and_back(server):
    app, client = server
    gid, (p1, p2), _ = new_game(client, seed=1)  # a seed where P1's bot does not take the card that stops the game
    assert client.post(f"/api/g/{gid}/seat", json={"token": p2, "kind": "root"}).status_code == 422
    assert client.post(f"/api/g/{gid}/seat", json={"token": p1, "kind": "random"}).status_code == 200
    settle(app, gid)
    room = app.state.rooms.get(gid)
    assert room.decider() == 1 or room.status != "playing"  # the bot took P1's turn at once
    assert "data-option" not in view(client, gid, p1)["html"]
    # P1's hand stays P1's: with a bot on P1's seat, P2 is still not the game's one person
    assert client.post(f"/api/g/{gid}/log", json={"token": p2}).status_code == 403 or room.status != "playing"
    assert client.post(f"/api/g/{gid}/undo", json={"token": p2}).status_code == 409
    assert client.post(f"/api/g/{gid}/seat", json={"token": p1, "kind": "person"}).status_code == 200
    assert room.seats[0].kind == "person"


def test_logs_are_everyones_when_the_game_ends_and_the_one_persons_before(server):
    app, client = server
    gid, (p1, p2), _ = new_game(client)
    assert client.get(f"/g/{gid}/log.json").status_code == 403
    assert client.post(f"/api/g/{gid}/log", json={"token": p1}).status_code == 403
    solo, (s1, _), _ = new_game(client, seats=("person", "random"))
    v = view(client, solo, s1)
    assert answer(client, solo, s1, v["decision"], option_of(v, "Plain card")).status_code == 200
    r = client.post(f"/api/g/{solo}/log", json={"token": s1})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert not any(t in r.text for t in (p1, p2, s1))
    unfinished = r.json()
    assert unfinished["unfinished"] and replay(unfinished).matches  # `rules replay` checks it up to where it was written
    unfinished["decisions"] = unfinished["decisions"][:-1]
    assert not replay(unfinished).matches
    room = app.state.rooms.get(gid)
    tokens = (p1, p2)
    while room.status == "playing":  # both persons play on: plain cards, the first area
        v = view(client, gid, tokens[room.decider()])
        safe = [int(i) for i, text in re.findall(r'data-option="(\d+)"[^>]*>([^<]*)</button>', v["html"]) if "Bomb" not in text]
        assert answer(client, gid, tokens[room.decider()], v["decision"], safe[0]).status_code == 200
    log = client.get(f"/g/{gid}/log.json").json()
    assert room.status == "finished" and replay(log).matches
    assert log["final_state"] == room.session.state.digest()


def test_games_resume_from_the_store_with_every_decision_and_none_twice(tmp_path):
    db = tmp_path / "games.sqlite3"
    app = make_app(db, [WEB_GAME])
    with TestClient(app, base_url=BASE_URL) as client:
        gid, (p1, _), _ = new_game(client, seats=("person", "person"), seed=7)
        v = view(client, gid, p1)
        answer(client, gid, p1, v["decision"], option_of(v, "Plain card"))
        before = snapshot(app, gid)
        assert app.state.rooms.get(gid).row.seed == 7
    again = make_app(db, [WEB_GAME])
    assert snapshot(again, gid) == before
    with TestClient(again, base_url=BASE_URL) as client:
        v = view(client, gid, p1)
        assert v["decision"] == len(before[0]) and "data-option" in v["html"]


def test_the_websocket_says_which_seats_a_page_holds_and_pushes_each_change(server):
    _, client = server
    gid, (p1, p2), _ = new_game(client)
    with client.websocket_connect(f"ws://127.0.0.1:8000/ws/{gid}") as ws:
        ws.send_text(json.dumps({"tokens": [p1, "forged"], "lang": "en"}))
        assert ws.receive_json() == {"type": "held", "seats": [0, None]}
        assert ws.receive_json()["type"] == "notice"
        first = ws.receive_json()
        assert first["type"] == "view" and first["seat"] == 0 and first["deciding"]
        assert all(isinstance(p, str) for p in first["parts"]) and first["options"]  # the first view comes whole
        answer(client, gid, p1, first["decision"], option_of({"html": "".join(first["parts"])}, "Plain card"))
        pushed = ws.receive_json()
        assert pushed["version"] > first["version"] and pushed["decision"] == first["decision"] + 1  # now: where P1 stands
        # an update carries the parts that changed: the others come as their number in the page's last view
        assert any(isinstance(p, int) for p in pushed["parts"]) and any(isinstance(p, str) for p in pushed["parts"])
        assert len(json.dumps(pushed)) < len(json.dumps(first))
        whole = [first["parts"][p] if isinstance(p, int) else p for p in pushed["parts"]]
        assert "".join(whole) == view(client, gid, p1)["html"]  # the page puts it together again
    with client.websocket_connect(f"ws://127.0.0.1:8000/ws/{gid}") as ws:  # a message over the bound closes the socket
        ws.send_text("x" * 5000)
        assert ws.receive()["type"] == "websocket.close"


def test_a_russian_game_reads_in_russian(server):
    _, client = server
    gid, (p1, _, _, _), _ = new_game(client, "kings_bounty", 4, ("person", "random", "random", "random"), lang="ru")
    html = view(client, gid, p1, "ru")["html"]
    assert "Ваше решение" in html and "Вы играете" in html and "Your decision" not in html


def test_an_answer_the_store_cannot_commit_is_refused_and_the_game_stays_as_stored(server, monkeypatch):
    import sqlite3
    app, client = server
    gid, (p1, _), _ = new_game(client, seats=("person", "random"))
    v = view(client, gid, p1)
    before = snapshot(app, gid)

    def full(*_args):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(app.state.store, "save", full)
    assert answer(client, gid, p1, v["decision"], option_of(v, "Plain card")).status_code == 503
    assert snapshot(app, gid) == before
    monkeypatch.undo()
    assert answer(client, gid, p1, v["decision"], option_of(v, "Plain card")).status_code == 200


def _words_of(html_text: str) -> str:
    """A page's words and the words of its title and aria-label attributes, without the printed card texts
    (checked apart in tests/test_web_browser.py), its log and markup."""
    from tests.test_presentation import markup_words
    return markup_words(re.sub(r'<details id="log" class="log"[^>]*>.*?</details>', " ", html_text, flags=re.S))


def test_a_spectator_and_each_seat_see_nothing_hidden_from_them(server):
    from tests.test_presentation import leaks
    app, client = server
    gid, tokens, _ = new_game(client, "kings_bounty", 4, ("person", "person", "random", "random"), seed=2)
    state = app.state.rooms.get(gid).session.state
    hands = [e for e in state.entities.values() if e.zone is not None and e.zone.name == "hand"]
    assert hands  # there is something to hide
    for seat, token in [(None, None), (0, tokens[0]), (1, tokens[1])]:
        shown = _words_of(view(client, gid, token)["html"])
        assert not leaks(state, seat, [shown]), (seat, leaks(state, seat, [shown]))
    # the check can fail: P1's page names P1's hand, which a spectator must not read
    assert leaks(state, None, [_words_of(view(client, gid, tokens[0])["html"])])


def test_an_ismcts_bot_plays_its_seat_on_the_server(server):
    pytest.importorskip("pyspiel")
    app, client = server
    gid, (p1, _), _ = new_game(client, seats=("person", "ismcts"), seed=3)
    v = view(client, gid, p1)
    assert answer(client, gid, p1, v["decision"], option_of(v, "Plain card")).status_code == 200
    settle(app, gid)
    v = view(client, gid, p1)
    assert answer(client, gid, p1, v["decision"], option_of(v, "North")).status_code == 200
    settle(app, gid)
    room = app.state.rooms.get(gid)
    assert app.state.bots.searchers is not None  # a worker process searched
    assert [n for n, (seat, bot) in enumerate(zip(room.deciders, room.by_bot)) if seat == 1 and bot]  # P2's decisions
    assert room.decider() == 0 or room.status != "playing"
