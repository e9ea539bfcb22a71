"""`rules serve` as players expect it online (issue 31), through Starlette's TestClient: bots off the request
path (a server-wide cap, a pace per game, none for a game of bots only), undo after a hand-over, chat and
rematch stored with the game, "your games" answering only for the seats asked about, the seats' links page
asked again without secrets, the log in the page's language, and updates that carry only what changed."""
from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.web.app import make_app  # noqa: E402
from tests.test_web_routes import BASE_URL, WEB_GAME, answer, new_game, option_of, settle, view  # noqa: E402


@pytest.fixture
def server(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", [WEB_GAME])
    with TestClient(app, base_url=BASE_URL) as client:
        yield app, client


def form(game="web_game", seats=("person", "random"), pace="", **more):
    return {"game": game, "players": str(len(seats)), "lang": "en", "seed": "3", "pace": pace,
            **{f"seat{i}": k for i, k in enumerate(seats)}, **more}


def gid_of(text: str) -> str:
    return re.search(r'href="/g/([A-Za-z0-9_-]+)\?', text).group(1)


def test_a_game_of_bots_only_is_played_in_the_background_never_in_the_request(server, monkeypatch):
    from interpreter.web.rooms import Room
    app, client = server
    threads, step = set(), Room.bot_step

    def slower(self, *args):  # a step a little slower, as on a busy machine: the game outlasts the request
        threads.add(threading.current_thread().name)
        time.sleep(0.005)
        return step(self, *args)
    monkeypatch.setattr(Room, "bot_step", slower)
    r = client.post("/new", data=form("kings_bounty", ("random",) * 4, pace="5"))  # a pace asked for, ignored here
    gid = gid_of(r.text)
    room = app.state.rooms.get(gid)
    assert r.status_code == 200 and app.state.bots.busy(gid) and room.status == "playing"  # answered at once
    settle(app, gid, 60)
    assert room.status == "finished" and len(room.session.history) > 50
    assert threads and all(name.startswith("bots") for name in threads)  # the bots' own threads, never a request's
    assert all(room.by_bot) and app.state.store.decision_count(gid) == len(room.session.history)


def test_bots_wait_the_games_pace_before_each_decision(server):
    app, client = server
    gid = gid_of(client.post("/new", data=form(pace="0.4")).text)
    p1 = re.findall(r'#([A-Za-z0-9_-]{20,})"', client.get(f"/g/{gid}/links").text)
    room = app.state.rooms.get(gid)
    token = room.seats[0].token
    assert not p1  # the links page asked again by its address holds no secret
    v = view(client, gid, token)
    assert answer(client, gid, token, v["decision"], option_of(v, "Plain card")).status_code == 200
    v = view(client, gid, token)
    n = len(room.session.history)
    sent = time.perf_counter()
    assert answer(client, gid, token, v["decision"], option_of(v, "North")).status_code == 200
    assert len(room.session.history) == n + 1  # the answer alone: the bot has not played yet
    while len(room.session.history) == n + 1:
        time.sleep(0.01)
    assert time.perf_counter() - sent >= 0.4 and room.by_bot[n + 1] and room.deciders[n + 1] == 1


def test_at_most_the_cap_of_bots_decisions_are_worked_on_at_once(tmp_path, monkeypatch):
    from interpreter.web.rooms import Room
    working, most, lock = [0], [0], threading.Lock()
    step = Room.bot_step

    def counted(self, *args):
        with lock:
            working[0] += 1
            most[0] = max(most[0], working[0])
        try:
            time.sleep(0.03)  # long enough for the six games to want a step at once
            return step(self, *args)
        finally:
            with lock:
                working[0] -= 1
    monkeypatch.setattr(Room, "bot_step", counted)
    app = make_app(tmp_path / "games.sqlite3", [WEB_GAME], bot_tasks=2)
    with TestClient(app, base_url=BASE_URL) as client:
        gids = [gid_of(client.post("/new", data=form(seats=("random", "random", "random"), seed=str(i))).text) for i in range(6)]
        for gid in gids:
            settle(app, gid)
        assert all(app.state.rooms.get(g).status != "playing" for g in gids)
    assert most[0] == 2  # six games at once, two at work


def test_undo_after_a_bot_played_a_handed_seat_goes_back_to_where_it_was_handed_over(server):
    app, client = server
    gid = gid_of(client.post("/new", data=form("kings_bounty", ("person", "random", "random", "random"), pace="0.05")).text)
    room = app.state.rooms.get(gid)
    p1 = room.seats[0].token
    for _ in range(2):  # the person answers twice
        settle(app, gid)
        v = view(client, gid, p1)
        assert answer(client, gid, p1, v["decision"], int(re.search(r'data-option="(\d+)"', v["html"]).group(1))).status_code == 200
    settle(app, gid)
    own = len(room.session.history) - 1  # the person's last decision
    while room.by_bot[own]:
        own -= 1
    handed = len(room.session.history)  # P1 is asked: they hand the seat over instead
    assert room.decider() == 0
    assert client.post(f"/api/g/{gid}/seat", json={"token": p1, "kind": "random"}).status_code == 200
    first = None
    while first is None:  # until the bot has answered for P1 (it waits the game's pace before each decision)
        first = next((n for n in range(handed, len(room.deciders)) if room.deciders[n] == 0), None)
        time.sleep(0.01)
    assert client.post(f"/api/g/{gid}/seat", json={"token": p1, "kind": "person"}).status_code == 200
    settle(app, gid)
    assert room.by_bot[first] and first == handed  # P1's bot answered first where it was handed over
    assert client.post(f"/api/g/{gid}/undo", json={"token": p1}).status_code == 200
    assert len(room.session.history) == handed and room.decider() == 0  # back to where it was handed over
    assert client.post(f"/api/g/{gid}/undo", json={"token": p1}).status_code == 200
    assert len(room.session.history) == own  # then the person's own last decision, asked again


def test_chat_is_stored_bounded_and_for_the_seats_to_write(tmp_path):
    db = tmp_path / "games.sqlite3"
    app = make_app(db, [WEB_GAME])
    with TestClient(app, base_url=BASE_URL) as client:
        gid, (p1, p2), _ = new_game(client)
        say = lambda token, text: client.post(f"/api/g/{gid}/chat", json={"token": token, "text": text})  # noqa: E731
        assert say(p1, "<script>alert(1)</script>\nhello").status_code == 200
        assert say(None, "a spectator").status_code == 403
        assert say("forged" * 6, "who").status_code == 403
        assert say(p2, "x" * 501).status_code == 413
        assert say(p2, "   ").status_code == 422
        assert say(p2, {"text": 1}).status_code == 422
        codes = [say(p2, f"spam {i}").status_code for i in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]  # bounded in rate
        with client.websocket_connect(f"ws://127.0.0.1:8000/ws/{gid}") as ws:  # a spectator reads it all
            ws.send_text(json.dumps({"tokens": [], "lang": "en"}))
            messages = [ws.receive_json() for _ in range(3)]
        chat = next(m for m in messages if m["type"] == "chat")
        assert [line["text"] for line in chat["lines"]][:2] == ["<script>alert(1)</script> hello", "spam 0"]
        assert chat["lines"][0]["player"] == "P1" and not any(t in json.dumps(messages) for t in (p1, p2))
    again = make_app(db, [WEB_GAME])  # kept with the game
    assert [s.text for s in again.state.rooms.get(gid).chat.said][0] == "<script>alert(1)</script> hello"


def test_a_rematch_is_the_same_game_again_with_new_seats_and_each_seat_learns_only_its_own(server):
    app, client = server
    gid, (p1, p2, p3), _ = new_game(client, seats=("person", "person", "random"), players=3, seed=9)
    room = app.state.rooms.get(gid)
    assert client.post(f"/api/g/{gid}/rematch", json={"token": p1}).status_code == 409  # in play
    assert client.post(f"/api/g/{gid}/seat", json={"token": p2, "kind": "random"}).status_code == 200
    tokens = (p1, p2, p3)
    while room.status == "playing":
        settle(app, gid)
        if room.status != "playing":
            break
        v = view(client, gid, tokens[room.decider()])
        safe = [int(i) for i, text in re.findall(r'data-option="(\d+)"[^>]*>([^<]*)</button>', v["html"]) if "Bomb" not in text]
        answer(client, gid, tokens[room.decider()], v["decision"], safe[0])
    assert client.post(f"/api/g/{gid}/rematch", json={"token": None}).status_code == 403  # spectators do not
    r = client.post(f"/api/g/{gid}/rematch", json={"token": p3})
    assert r.status_code == 200
    new = app.state.rooms.get(r.json()["game"])
    assert client.post(f"/api/g/{gid}/rematch", json={"token": p1}).json()["game"] == new.id  # made once
    assert (new.row.game, new.row.variants, new.row.lang, new.row.pace) == (room.row.game, room.row.variants, room.row.lang, room.row.pace)
    assert new.row.seed != room.row.seed and app.state.store.games()[-1].id == new.id
    assert [s.kind for s in new.seats] == ["person", "person", "random"]  # P2 held by a person: a person's again
    assert not {s.token for s in new.seats} & set(tokens)
    for seat, token in enumerate([p1, p2, None]):
        with client.websocket_connect(f"ws://127.0.0.1:8000/ws/{gid}") as ws:
            ws.send_text(json.dumps({"tokens": [token] if token else [], "lang": "en"}))
            got = [ws.receive_json() for _ in range(2)]
        shown = next(m for m in got if m["type"] == "view")
        if token is None:
            assert shown["rematch"] == f"/g/{new.id}?lang=en"
        else:
            assert shown["rematch"].endswith("#" + new.seats[seat].token)
        others = [s.token for i, s in enumerate(new.seats) if i != seat]
        assert not any(t in json.dumps(got) for t in others)


def test_your_games_answers_only_for_the_seats_asked_about(server):
    app, client = server
    gid, (p1, p2), _ = new_game(client)
    other, (o1, _), _ = new_game(client)
    asked = [[gid, p2], [gid, "forged" * 6], [other, p1], ["nope", p1], [gid], "x", [other, o1]]
    got = client.post("/api/mine", json={"seats": asked, "lang": "en"}).json()["games"]
    assert [(g["i"], g["game"], g["seat"]) for g in got] == [(0, gid, 1), (6, other, 0)]
    assert got[0]["state"] == "Waiting for P1" and not got[0]["turn"]
    assert got[1]["state"] == "your turn" and got[1]["turn"]
    assert not any(t in json.dumps(got) for t in (p1, p2, o1))
    assert client.post("/api/mine", json={"seats": [[gid, p1]], "lang": "ru"}).json()["games"][0]["state"] == "ваш ход"
    assert client.post("/api/mine", json={"seats": "all"}).json() == {"games": []}


def test_the_log_reads_in_the_pages_language_whatever_the_games(server):
    app, client = server
    gid, (p1, *_), _ = new_game(client, "kings_bounty", 4, ("person", "random", "random", "random"), lang="en", seed=2)
    log = lambda html: re.findall(r"<li[^>]*>(?:<span[^>]*>[^<]*</span> )?([^<]+)</li>", html.split('id="log"')[1])  # noqa: E731
    english, russian = log(view(client, gid, p1, "en")["html"]), log(view(client, gid, p1, "ru")["html"])
    assert english and len(english) == len(russian)
    assert not any(re.search("[а-яА-Я]", x) for x in english) and all(re.search("[а-яА-Я]", x) for x in russian)
    room = app.state.rooms.get(gid)
    told = len(room.lines[0])
    for _ in range(3):  # lines told since a Russian page asked are kept in Russian too
        v = view(client, gid, p1)
        answer(client, gid, p1, v["decision"], int(re.search(r'data-option="(\d+)"', v["html"]).group(1)))
        settle(app, gid)
    english, russian = log(view(client, gid, p1, "en")["html"]), log(view(client, gid, p1, "ru")["html"])
    assert len(room.lines[0]) > told and len(english) == len(russian) == len(room.lines[0])
    assert not any(re.search("[а-яА-Я]", x) for x in english) and all(re.search("[а-яА-Я]", x) for x in russian)


def test_a_database_of_the_first_schema_opens_and_its_games_resume(tmp_path):
    from interpreter.web.store import SCHEMA
    db = tmp_path / "old.sqlite3"
    app = make_app(db, [WEB_GAME])
    with TestClient(app, base_url=BASE_URL) as client:
        gid, (p1, _), _ = new_game(client)
        v = view(client, gid, p1)
        answer(client, gid, p1, v["decision"], option_of(v, "Plain card"))
    app.state.store.close()
    with sqlite3.connect(db) as con:  # back to the tables as the first version wrote them
        for table, keep in (("games", "id, game, players, seed, variants, lang, hotseat, content_hash, status, error, created"),
                            ("decisions", "game_id, n, seat, choice, label")):
            con.execute(f"CREATE TABLE old AS SELECT {keep} FROM {table}")
            con.execute(f"DROP TABLE {table}")
            con.execute(f"ALTER TABLE old RENAME TO {table}")
        con.execute("DROP TABLE chat")
    assert "rematch" in SCHEMA
    again = make_app(db, [WEB_GAME])
    room = again.state.rooms.get(gid)
    assert len(room.session.history) == 1 and room.by_bot == [None] and room.row.pace == 0
    assert room.can_undo() is False  # two persons: as before


def test_a_variants_components_show_only_when_it_is_on(server):
    _, client = server
    shown = {}
    for variants in ([], ["tides_of_battle"]):
        r = client.post("/new", data={**form("agot", ("person", "random", "random")), "variant": variants, "seed": "1"})
        gid = gid_of(r.text)
        token = re.search(r'class="seat-link" data-seat="0" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text).group(1)
        shown[bool(variants)] = "Tides of Battle deck" in view(client, gid, token)["html"]
    assert shown == {False: False, True: True}


def test_a_table_zone_shown_with_a_variant_names_one_of_the_game(tmp_path):
    from dsl.diagnostics import Report
    from dsl.table_spec import read_table_spec

    class Voc:
        zones, variables, kinds, attributes, variants = {"deck": 1}, {}, {}, {}, {"tides": "Tides"}

    class Doc:
        def span(self, path):
            return None
    report = Report()
    spec = read_table_spec({"zones": {"deck": {"owner": "count", "others": "count", "variant": "tide"}}}, Doc(), Voc(), {}, report)
    assert [d.code for d in report.diagnostics] == ["REF-UNDEF"] and "did you mean" in report.diagnostics[0].render().lower()
    assert spec.zones["deck"].variant is None
    ok = read_table_spec({"zones": {"deck": {"owner": "count", "others": "count", "variant": "tides"}}}, Doc(), Voc(), {}, Report())
    assert ok.zones["deck"].variant == "tides" and ok.zones["deck"].owner == "count"
