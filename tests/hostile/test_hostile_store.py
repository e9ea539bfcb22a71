"""Issue 32 item 1: a damaged games database. Each kind of damage is made to one game of a real store (rows
deleted, fields that are not JSON or not of their type, decisions changed, the file truncated, a file that is
no database): that game is set aside with its reason, in the lobby's "failed games" and the server's log, left
as it is in the file, and every other game is served. A file SQLite cannot read at all is a clear error."""
from __future__ import annotations

import logging
import shutil
import sqlite3
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("jinja2")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hostile_case import run_rules  # noqa: E402

from interpreter.web.app import make_app  # noqa: E402
from interpreter.web.rooms import Rooms  # noqa: E402
from interpreter.web.store import Store  # noqa: E402

WEB_GAME = Path(__file__).resolve().parent.parent / "fixtures" / "web_game"
BASE_URL = "http://127.0.0.1:8000"  # a host the server answers as


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> tuple[Path, dict]:
    """A database of three games: one of bots played to its end, one of a bot and a person with the bot's
    first decisions, one of two persons not begun; and their ids."""
    path = tmp_path_factory.mktemp("store") / "games.sqlite3"
    store = Store(path)
    rooms = Rooms(store, [WEB_GAME])
    bots = rooms.create("web_game", 2, ["random", "random"], "en", seed=7)
    mixed = rooms.create("web_game", 2, ["random", "person"], "en", seed=7)
    persons = rooms.create("web_game", 2, ["person", "person"], "en", seed=5)
    for room in (bots, mixed):  # the server's bots play in the background; here, at once
        room.play_bots()
    assert bots.status == "finished" and len(bots.session.history) == 8 and len(mixed.session.history) == 2
    store.close()
    return path, {"bots": bots.id, "mixed": mixed.id, "persons": persons.id}


def rows_of(path: Path, gid: str) -> list:
    with sqlite3.connect(path) as db:
        return [db.execute(f"SELECT * FROM {table} WHERE {key}=? ORDER BY 1, 2", (gid,)).fetchall()
                for table, key in (("games", "id"), ("seats", "game_id"), ("decisions", "game_id"))]


# (name, the game damaged, SQL run on the copy, what the reason says)
DAMAGE = [
    ("decision_deleted_mid_game", "bots", "DELETE FROM decisions WHERE game_id=:g AND n=2", "decision 3 is missing"),
    ("id_not_made_by_the_server", "persons", "UPDATE games SET id=id || char(10) || 'x' WHERE id=:g",
     "the game itself is not"),
    ("game_row_deleted", "mixed", "DELETE FROM games WHERE id=:g", "the game itself is not"),
    ("variants_not_json", "mixed", "UPDATE games SET variants='[\"quick\"' WHERE id=:g", "variants are not JSON"),
    ("variants_nested_deep", "mixed", "UPDATE games SET variants='" + "[" * 5000 + "]" * 5000 + "' WHERE id=:g",
     "variants are not JSON"),
    ("variants_not_names", "mixed", "UPDATE games SET variants='[1, 2]' WHERE id=:g", "variants are not a list"),
    ("error_not_json", "bots", "UPDATE games SET status='error', error='{\"code\": ' WHERE id=:g", "error is not JSON"),
    ("error_not_a_diagnostic", "bots", "UPDATE games SET status='error', error='[1]' WHERE id=:g", "not a diagnostic"),
    ("seat_deleted", "persons", "DELETE FROM seats WHERE game_id=:g AND seat=1", "1 seat stored for 2 players"),
    ("seat_kind_unknown", "persons", "UPDATE seats SET kind='root' WHERE game_id=:g AND seat=0", "neither a person nor a bot"),
    ("seat_token_bytes", "persons", "UPDATE seats SET token=X'00' WHERE game_id=:g AND seat=0", "not a kind and a secret"),
    ("players_not_a_number", "mixed", "UPDATE games SET players='two' WHERE id=:g", "number of players"),
    ("players_beyond_seats", "mixed", "UPDATE games SET players=3 WHERE id=:g", "seats stored for 3 players"),
    ("seed_negative", "bots", "UPDATE games SET seed=-5 WHERE id=:g", "seed"),
    ("seed_text", "bots", "UPDATE games SET seed='²' WHERE id=:g", "seed"),
    ("status_unknown", "persons", "UPDATE games SET status='won' WHERE id=:g", "status"),
    ("hotseat_text", "persons", "UPDATE games SET hotseat='yes' WHERE id=:g", "hot-seat"),
    ("game_outside_content", "persons", "UPDATE games SET game='../../etc' WHERE id=:g", "etc"),
    ("language_unknown", "persons", "UPDATE games SET lang='xx' WHERE id=:g", "written in 'xx'"),
    ("decision_label_changed", "bots", "UPDATE decisions SET label='forged' WHERE game_id=:g AND n=1",
     "the log says 'forged'"),
    ("decision_option_not_offered", "mixed", "UPDATE decisions SET choice=99 WHERE game_id=:g AND n=0", "no option 99"),
    ("decision_option_negative", "mixed", "UPDATE decisions SET choice=-1 WHERE game_id=:g AND n=0", "not an option"),
    ("decision_of_another_seat", "mixed", "UPDATE decisions SET seat=1-seat WHERE game_id=:g AND n=0", "another seat"),
    ("decision_seat_outside", "bots", "UPDATE decisions SET seat=7 WHERE game_id=:g AND n=0", "names no seat"),
    ("decision_after_the_end", "bots", "INSERT INTO decisions (game_id, n, seat, choice, label) "
                                       "SELECT game_id, MAX(n)+1, 0, 0, 'x' FROM decisions WHERE game_id=:g",
     "ended before decision"),
    ("decision_neither_bot_nor_person", "bots", "UPDATE decisions SET bot=7 WHERE game_id=:g AND n=1",
     "neither a person's nor a bot's"),
    ("pace_text", "mixed", "UPDATE games SET pace='fast' WHERE id=:g", "pause is not a number"),
    ("rematch_not_an_id", "bots", "UPDATE games SET rematch=char(10) WHERE id=:g", "rematch is not a game's id"),
]


def damaged_copy(stored, tmp_path: Path, sql: str | None, victim: str | None) -> tuple[Path, dict]:
    path, ids = stored
    copy = tmp_path / "games.sqlite3"
    shutil.copy(path, copy)
    if sql:
        with sqlite3.connect(copy) as db:
            db.execute(sql, {"g": ids[victim]})
        db.close()
    return copy, ids


@pytest.mark.parametrize("name, victim, sql, why", DAMAGE, ids=[d[0] for d in DAMAGE])
def test_a_damaged_game_is_set_aside_and_every_other_game_is_served(stored, tmp_path, caplog, name, victim, sql, why):
    copy, ids = damaged_copy(stored, tmp_path, sql, victim)
    before = rows_of(copy, ids[victim])
    with caplog.at_level(logging.WARNING, logger="rules.serve"):
        app = make_app(copy, [WEB_GAME])
    rooms = app.state.rooms
    gid = ids[victim]
    assert gid in rooms.failed and gid not in rooms.rooms, rooms.failed
    assert why in rooms.failed[gid], rooms.failed[gid]
    assert any(gid in r.getMessage() and why in r.getMessage() for r in caplog.records), caplog.text
    for other in set(ids.values()) - {gid}:
        assert other in rooms.rooms and other not in rooms.failed
    with TestClient(app, base_url=BASE_URL) as client:
        lobby = client.get("/")
        assert lobby.status_code == 200 and gid in lobby.text
        assert client.get(f"/g/{gid}").status_code == 404
        for other in set(ids.values()) - {gid}:
            assert client.get(f"/g/{other}").status_code == 200
    assert rows_of(copy, gid) == before  # set aside as it is: the file can be mended and the server started again


def test_a_changed_content_hash_stops_that_game_only_with_its_reason(stored, tmp_path):
    """A game whose content differs from when it started is not replayed as if nothing changed: it is
    shown stopped (its log can still be downloaded and replayed), and the others play on."""
    copy, ids = damaged_copy(stored, tmp_path, "UPDATE games SET content_hash='0000' WHERE id=:g", "persons")
    rooms = make_app(copy, [WEB_GAME]).state.rooms
    assert rooms.get(ids["persons"]).status == "error"
    assert "content changed" in rooms.get(ids["persons"]).error["message"]
    assert rooms.get(ids["mixed"]).status == "playing" and not rooms.failed


def test_the_database_truncated_anywhere_is_served_in_part_or_refused_clearly(stored, tmp_path):
    path, ids = stored
    data = path.read_bytes()
    page = 4096
    sizes = sorted({1, 50, 99, 100, 101, page - 1, page, page + 1, 2 * page, 3 * page, len(data) // 2,
                    len(data) - page, len(data) - 1} & set(range(1, len(data))))
    outcomes = set()
    for size in sizes:
        copy = tmp_path / f"cut{size}.sqlite3"
        copy.write_bytes(data[:size])
        try:
            rooms = make_app(copy, [WEB_GAME]).state.rooms
        except sqlite3.DatabaseError as err:  # `rules serve` says DB-DAMAGED (below), with no traceback
            assert type(err) is sqlite3.DatabaseError, (size, err)
            outcomes.add("refused")
            continue
        assert set(rooms.rooms) <= set(ids.values()) and set(rooms.rooms).isdisjoint(rooms.failed), size
        outcomes.add("served")
    assert "refused" in outcomes


@pytest.mark.parametrize("content", [b"\x00" * 4096, b"SQLite format 2\x00" + b"x" * 200, b"not a database\n" * 300,
                                     b"SQLite format 3\x00" + b"\xff" * 84], ids=["zeros", "format2", "text", "header"])
def test_serve_of_a_file_that_is_not_a_database_is_a_clear_error(tmp_path, content):
    db = tmp_path / "games.sqlite3"
    db.write_bytes(content)
    code, out = run_rules(("serve", "--db", str(db), "--port", "0"), timeout=60)
    assert code == 1, out
    assert "error[DB-DAMAGED]" in out and str(db) in out and "Traceback" not in out, out
    assert db.read_bytes() == content  # not written over
