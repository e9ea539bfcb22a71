"""Issue 32 items 2 to 4: hostile requests to `rules serve`, through Starlette's TestClient.

Item 2: a request naming a host the server does not answer as (DNS rebinding) is refused before any work,
GETs of the lobby and pages included; a POST or a websocket from a page of another site, or of none
(`Origin: null`), is refused and changes nothing. Item 3: the cap counts live games only, and one client
starts at most so many games in a while. Item 4: every malformed body, field, number and frame is a 4xx
with a message, never a 500."""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from hostile_case import run_rules  # noqa: E402

from interpreter.web.app import make_app  # noqa: E402

WEB_GAME = Path(__file__).resolve().parent.parent / "fixtures" / "web_game"
OWN = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"  # TestClient names the host of a websocket by its whole address only
FORM = {"game": "web_game", "players": "2", "lang": "en", "seat0": "person", "seat1": "person"}


def guarded(**kw):
    from interpreter.web.guard import Guard
    return Guard.serving(kw.pop("host", "127.0.0.1"), kw.pop("port", 8000), kw.pop("allow", ()), **kw)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server as `rules serve --allow-host proxy.example` starts it, on 127.0.0.1:8000, with one game."""
    app = make_app(tmp_path_factory.mktemp("web") / "games.sqlite3", [WEB_GAME], guarded(allow=["proxy.example"]))
    with TestClient(app, base_url=OWN) as client:
        r = client.post("/new", data=FORM)
        assert r.status_code == 200, r.text
        gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
        tokens = re.findall(r'class="seat-link" data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)
        yield app, client, gid, tokens


def state(app) -> tuple:
    rooms = app.state.rooms
    return len(rooms.rooms), tuple((r.id, len(r.session.history), r.version) for r in rooms.rooms.values())


# ---------------------------------------------------------------- item 2: hosts
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example:8000", "127.0.0.1:9999",
                                  "localhost:8001", "[::2]:8000", "127.0.0.1:８０００".encode(), "127.0.0.1:+8000", "[::1", "a b",
                                  "user@127.0.0.1:8000", "127.0.0.1:8000/x", ""])
def test_a_host_the_server_does_not_answer_as_is_refused_before_any_work(server, host):
    app, client, gid, tokens = server
    before = state(app)
    for method, path, kw in [("GET", "/", {}), ("GET", f"/g/{gid}", {}), ("GET", f"/g/{gid}/log.json", {}),
                             ("GET", "/static/style.css", {}), ("POST", "/new", {"data": FORM}),
                             ("POST", f"/api/g/{gid}/view", {"json": {"token": tokens[0]}})]:
        r = client.request(method, path, headers={"host": host, "origin": OWN}, **kw)
        assert r.status_code == 403, (method, path, r.status_code)
        assert "error" in r.json() and gid not in r.text and tokens[0] not in r.text
    assert state(app) == before


def test_the_lobby_of_a_default_app_refuses_a_rebinding_host(tmp_path):
    """A page of evil.example whose name now leads to 127.0.0.1 cannot read the lobby's game ids."""
    with TestClient(make_app(tmp_path / "games.sqlite3", [WEB_GAME]), base_url=OWN) as client:
        gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', client.post("/new", data=FORM).text).group(1)
        assert gid in client.get("/").text
        r = client.get("/", headers={"host": "evil.example:8000"})
        assert r.status_code == 403 and gid not in r.text
        assert client.get(f"/g/{gid}", headers={"host": "evil.example"}).status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "[::1]:8000", "proxy.example",
                                  "proxy.example:443"])
def test_the_names_the_server_answers_as(server, host):
    _, client, gid, _ = server
    assert client.get("/", headers={"host": host}).status_code == 200
    assert client.get(f"/g/{gid}", headers={"host": host}).status_code == 200


def test_listening_on_every_address_answers_as_any_address_but_no_other_name(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", [WEB_GAME], guarded(host="0.0.0.0"))
    with TestClient(app, base_url=OWN) as client:
        assert client.get("/", headers={"host": "192.168.1.20:8000"}).status_code == 200
        assert client.get("/", headers={"host": "[fe80::1]:8000"}).status_code == 200
        assert client.get("/", headers={"host": "192.168.1.20:8001"}).status_code == 403
        assert client.get("/", headers={"host": "evil.example:8000"}).status_code == 403


def test_a_request_with_no_host_or_two_is_refused():
    from interpreter.web.guard import GuardMiddleware
    middleware = GuardMiddleware(None, guarded(), {})
    scope = {"type": "http", "method": "GET", "headers": []}
    assert middleware.refused(scope) is not None
    scope["headers"] = [(b"host", b"127.0.0.1:8000"), (b"host", b"evil.example")]
    assert middleware.refused(scope) is not None
    scope["headers"] = [(b"host", b"127.0.0.1:8000")]
    assert middleware.refused(scope) is None


def test_serve_refuses_an_allowed_host_that_is_not_a_host():
    code, out = run_rules(("serve", "--allow-host", "evil example/x", "--port", "0", "--db", "/nonexistent/x.db"))
    assert code == 2 and "error[USAGE]" in out and "--allow-host" in out, out


# ---------------------------------------------------------------- item 2: origins
CROSS = [{"origin": "null"}, {"origin": "https://elsewhere.example"}, {"origin": "http://127.0.0.1:8000.evil.example"},
         {"origin": "http://127.0.0.1:9000"}, {"origin": "file://"}, {"origin": "http://127.0.0.1:8000/x"},
         {"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"}]


@pytest.mark.parametrize("headers", CROSS, ids=[str(h) for h in CROSS])
def test_a_post_from_another_site_or_none_is_refused_and_changes_nothing(server, headers):
    app, client, gid, tokens = server
    before = state(app)
    view = client.post(f"/api/g/{gid}/view", json={"token": tokens[0]}).json()
    seat = view["seat"] if view["deciding"] else 1
    for path, kw in [("/new", {"data": FORM}), (f"/api/g/{gid}/seat", {"json": {"token": tokens[seat], "kind": "random"}}),
                     (f"/api/g/{gid}/answer", {"json": {"token": tokens[seat], "decision": view["decision"], "option": 0}}),
                     (f"/api/g/{gid}/undo", {"json": {"token": tokens[seat]}}), (f"/api/g/{gid}/view", {"json": {}})]:
        r = client.post(path, headers=headers, **kw)
        assert r.status_code == 403, (path, r.text)
        assert "error" in r.json()
    assert state(app) == before


def test_a_post_from_the_servers_own_page_or_a_program_is_served(server):
    app, client, gid, tokens = server
    for headers in ({"origin": OWN}, {"origin": "http://localhost:8000", "host": "localhost:8000"},
                    {"origin": "https://proxy.example", "host": "proxy.example"}, {"sec-fetch-site": "same-origin"}, {}):
        assert client.post(f"/api/g/{gid}/view", json={"token": tokens[0]}, headers=headers).status_code == 200, headers


@pytest.mark.parametrize("headers", [{"origin": "null"}, {"origin": "https://elsewhere.example"},
                                     {"origin": OWN, "host": "evil.example:8000"}, {"sec-fetch-site": "cross-site"}],
                         ids=["null", "elsewhere", "host", "fetch-site"])
def test_a_websocket_from_another_site_is_refused_before_it_is_accepted(server, headers):
    app, client, gid, tokens = server
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(f"{WS}/ws/{gid}", headers=headers) as ws:
            ws.send_text(json.dumps({"tokens": tokens}))
            ws.receive_json()
    with client.websocket_connect(f"{WS}/ws/{gid}", headers={"origin": OWN}) as ws:
        ws.send_text(json.dumps({"tokens": tokens[:1]}))
        assert ws.receive_json()["type"] == "held"


# ---------------------------------------------------------------- item 3: the cap and the per-client limit
def new_game(client, seats=("person", "person"), **extra):
    return client.post("/new", data={**FORM, "seed": "7", **{f"seat{i}": k for i, k in enumerate(seats)}, **extra})


def test_the_cap_counts_live_games_only_and_finished_games_stay_readable_across_restarts(tmp_path, monkeypatch):
    from interpreter.web import rooms
    monkeypatch.setattr(rooms, "MAX_ROOMS", 2)
    db = tmp_path / "games.sqlite3"
    with TestClient(make_app(db, [WEB_GAME], guarded(games_per_client=100)), base_url=OWN) as client:
        finished = []
        for _ in range(3):  # two bots play to the end at once (seed 7): finished games take no room
            r = new_game(client, ("random", "random"))
            assert r.status_code == 200, r.text
            finished.append(re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1))
        assert new_game(client).status_code == 200 and new_game(client).status_code == 200
        full = new_game(client)
        assert full.status_code == 503 and "in play" in full.json()["error"]
    app = make_app(db, [WEB_GAME], guarded(games_per_client=100))  # the server started again
    with TestClient(app, base_url=OWN) as client:
        for gid in finished:
            assert app.state.rooms.get(gid).status == "finished"
            assert client.get(f"/g/{gid}").status_code == 200
            assert client.get(f"/g/{gid}/log.json").status_code == 200
        assert new_game(client).status_code == 503


def test_one_client_starts_at_most_so_many_games_and_a_refused_form_does_not_count(tmp_path):
    app = make_app(tmp_path / "games.sqlite3", [WEB_GAME], guarded(games_per_client=2))
    client = TestClient(app, base_url=OWN)  # clients of one app, without its lifespan (which closes the store)
    assert new_game(client, players="9").status_code == 422
    assert new_game(client).status_code == 200 and new_game(client).status_code == 200
    r = new_game(client)
    assert r.status_code == 429 and "try again" in r.json()["error"]
    assert len(app.state.rooms.rooms) == 2
    other = TestClient(app, base_url=OWN, client=("192.0.2.7", 5000))  # another address has its own count
    assert new_game(other).status_code == 200
    loopback = TestClient(app, base_url=OWN, client=("::1", 5000))  # every loopback address is one client
    assert new_game(loopback).status_code == 200 and new_game(loopback).status_code == 200
    assert new_game(TestClient(app, base_url=OWN, client=("127.0.0.2", 5000))).status_code == 429
    app.state.store.close()


def test_the_limit_is_a_window_that_moves():
    from interpreter.web.guard import CreationLimit
    now = [0.0]
    limit = CreationLimit(2, 600, clock=lambda: now[0])
    assert limit.take("10.0.0.1") is None and limit.take("10.0.0.1") is None
    assert limit.take("10.0.0.1") == 600
    now[0] = 599.0
    assert limit.take("10.0.0.1") == 1
    now[0] = 600.0
    assert limit.take("10.0.0.1") is None


# ---------------------------------------------------------------- item 4: malformed bodies, numbers and frames
DEEP = "[" * 8000 + "]" * 8000  # 16 KB: json.loads recurses, and fails past Python's recursion limit
BAD_FORMS = [
    ("players_superscript", {"players": "²"}), ("players_arabic_digit", {"players": "٢"}),
    ("players_5000_digits", {"players": "2" * 5000}), ("players_negative", {"players": "-2"}),
    ("players_spaced", {"players": " 2"}), ("players_underscored", {"players": "0_2"}), ("players_empty", {"players": ""}),
    ("seed_superscript", {"seed": "²"}), ("seed_arabic_digit", {"seed": "٣"}), ("seed_5000_digits", {"seed": "9" * 5000}),
    ("seed_fullwidth", {"seed": "７"}), ("seed_signed", {"seed": "+7"}), ("seed_beyond", {"seed": str(2 ** 31)}),
    ("seed_float", {"seed": "7.0"}),
]


@pytest.fixture(scope="module")
def lenient(tmp_path_factory):
    """A server whose errors come back as 500 responses (not raised in the test), with one game of two persons."""
    app = make_app(tmp_path_factory.mktemp("web") / "games.sqlite3", [WEB_GAME], guarded(games_per_client=10_000))
    with TestClient(app, base_url=OWN, raise_server_exceptions=False) as client:
        r = client.post("/new", data=FORM)
        gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
        tokens = re.findall(r'class="seat-link" data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)
        yield app, client, gid, tokens


@pytest.mark.parametrize("name, fields", BAD_FORMS, ids=[b[0] for b in BAD_FORMS])
def test_a_number_in_a_form_is_ascii_digits_in_range_or_a_422(lenient, name, fields):
    app, client, _, _ = lenient
    before = len(app.state.rooms.rooms)
    r = client.post("/new", data={**FORM, **fields})
    assert r.status_code == 422, r.text
    assert r.json()["error"] and len(app.state.rooms.rooms) == before


@pytest.mark.parametrize("body, headers", [
    ("&".join(f"f{i}=1" for i in range(200)), {}),  # more fields than a form has
    ("game=web_game&players=%ff%b2&seed=\udcb2".encode("utf-8", "surrogateescape"), {}),
    ("players=2", {"content-length": "²".encode()}), ("players=2", {"content-length": "9" * 40}),
    ("players=2", {"content-length": "-1"}),
], ids=["fields", "bytes", "length_superscript", "length_huge", "length_negative"])
def test_a_malformed_form_is_a_4xx(lenient, body, headers):
    app, client, _, _ = lenient
    before = len(app.state.rooms.rooms)
    r = client.post("/new", content=body, headers={"content-type": "application/x-www-form-urlencoded", **headers})
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    assert r.text and len(app.state.rooms.rooms) == before  # a length past Starlette's own bound: its 413 in text


BAD_JSON = [("nested_16kb", DEEP), ("nested_in_a_field", '{"token": ' + "[" * 5000 + "]" * 5000 + "}"),
            ("number_5000_digits", '{"decision": ' + "7" * 5000 + "}"), ("nan", "NaN"), ("infinity", '{"option": Infinity}'),
            ("lone_surrogate", '{"token": "\\ud800"}'), ("not_utf8", b'{"token": "\xff"}'), ("list", "[1, 2]"),
            ("token_object", '{"token": {"a": 1}, "decision": 0, "option": 0}'), ("bool_indexes", '{"decision": true, "option": false}'),
            ("float_indexes", '{"decision": 0.0, "option": 1e400}'), ("kind_list", '{"kind": ["person"]}'),
            ("lang_object", '{"lang": {"en": 1}}'), ("empty", "")]


@pytest.mark.parametrize("name, body", BAD_JSON, ids=[b[0] for b in BAD_JSON])
def test_a_malformed_json_body_is_a_4xx_with_the_game_untouched(lenient, name, body):
    app, client, gid, _ = lenient
    before = state(app)
    for call in ("answer", "undo", "seat", "view", "log"):
        r = client.post(f"/api/g/{gid}/{call}", content=body, headers={"content-type": "application/json"})
        if r.status_code == 200:  # an object naming no seat reads what a spectator may read
            assert call == "view" and r.json()["seat"] is None, (call, r.text)
            continue
        assert 400 <= r.status_code < 500, (call, r.status_code, r.text)
        assert r.json()["error"]
    assert state(app) == before


@pytest.mark.parametrize("frames", [[b"\x00binary"], [DEEP[:4000]], ["[" * 2000 + "]" * 2000],
                                    ['{"tokens": []}', b"\xff binary later"], ['{"tokens": []}', "x" * 5000]],
                         ids=["binary_hello", "deep_hello", "deep_hello_closed", "binary_later", "long_later"])
def test_a_malformed_websocket_frame_closes_that_socket_with_a_code(lenient, frames):
    app, client, gid, _ = lenient
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"{WS}/ws/{gid}") as ws:
            for frame in frames:
                ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
            for _ in range(5):
                ws.receive_json()
    assert closed.value.code in (1003, 1007, 1009, 4400), closed.value.code
    with client.websocket_connect(f"{WS}/ws/{gid}") as ws:  # the server goes on
        ws.send_text('{"tokens": []}')
        assert ws.receive_json()["type"] == "held"
