"""A seat's live view in parts (interpreter.web.parts, issue 30/31's quick answers): the parts put end to end are
the page whole, no mark of the cut reaches a page or can come from content, and an update after a move sends
only what changed, the rest by number. Played on one AGoT table of 3 (a person and two random bots), in
process: the view the websocket sends (interpreter.web.live.rendered) against the one the HTTP route gives."""
from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("jinja2")

from interpreter.web import draw, pages  # noqa: E402
from interpreter.web.live import rendered  # noqa: E402
from interpreter.web.parts import CUT, split, whole  # noqa: E402
from interpreter.web.rooms import Line, Rooms  # noqa: E402
from interpreter.web.store import Store  # noqa: E402


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    rooms = Rooms(Store(tmp_path_factory.mktemp("parts") / "games.sqlite3"))
    room = rooms.create("agot", 3, ["person", "random", "random"], "en", seed=7)
    return rooms, room, pages.environment()


def play(room, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        room.play_bots()
        if room.status != "playing":
            return
        room.answer(room.seats[0].token, len(room.session.history), rng.randrange(len(room.session.pending.values)))
    room.play_bots()


def test_the_parts_put_end_to_end_are_the_page_whole_with_no_mark_left(table):
    rooms, room, env = table
    play(room, 6, random.Random(1))
    parts = rendered(env, rooms, room, 0, "en")["parts"]
    html = pages.view(env, room, 0, "en")["html"]
    assert "".join(parts) == html and CUT not in html
    assert all(p and CUT not in p for p in parts)
    # cut where things change on their own: each area's pieces, each card, each log line
    assert len(parts) > 200 and any(p.startswith('<g class="area-pieces"') for p in parts)
    assert any(p.startswith('<li class=') for p in parts) and any(p.startswith('<div class="card') for p in parts)


def test_a_mark_in_content_text_is_escaped_and_never_cuts():
    ln = Line(3, {"en": f"a card named {CUT}<b>x</b>"}, False)
    html = draw.log_html([ln], "en", 1, "new")
    parts = split(html)
    assert len(parts) == 1 and "&lt;!--/--&gt;&lt;b&gt;" in parts[0] and whole(html) == parts[0]
    assert parts[0] == '<li class="new"><span class="newmark">new</span> a card named &lt;!--/--&gt;&lt;b&gt;x&lt;/b&gt;</li>'


def test_an_update_sends_what_changed_and_names_the_rest_by_number(table):
    rooms, room, env = table
    rng = random.Random(2)
    before = rendered(env, rooms, room, 0, "en")["parts"]
    assert rendered(env, rooms, room, 0, "en")["parts"] is before  # the same version: rendered once
    play(room, 1, rng)
    after = rendered(env, rooms, room, 0, "en")["parts"]
    had = set(before)
    new = [p for p in after if p not in had]
    assert new and sum(map(len, new)) < sum(map(len, after)) / 3  # most of the page goes by number
    labels = next(p for p in before if p.startswith('<g class="labels">'))
    assert labels in after  # the board's names, the same in every view, a part of their own
    assert re.search(r'<li class="new[^"]*"><span class="newmark">', "".join(after))  # the lines new since the move


def test_a_table_model_kept_between_moves_is_the_one_made_afresh(tmp_path):
    """The zones kept in a reader's memo (present.table) read as they would read made anew, for each seat and a
    spectator, move after move of a game of bots, after an undo too (a new session: nothing kept holds)."""
    from interpreter.present.table import table_model
    rooms = Rooms(Store(tmp_path / "games.sqlite3"))
    room = rooms.create("agot", 3, ["person", "random", "random"], "en", seed=11)
    memos = {v: {} for v in (0, 1, None)}
    rng, kept = random.Random(3), 0
    for move in range(40):
        for v, memo in memos.items():
            fresh = table_model(room.session, v, "en").to_json()
            again = table_model(room.session, v, "en", memo)
            assert again.to_json() == fresh, (move, v)
        kept += sum(1 for k in memos[0] if k != "session")
        if move == 20:
            room.undo(room.seats[0].token)
        play(room, 1, rng)
    assert kept  # zones were kept, and read alike


def test_a_view_drawn_from_kept_zones_is_the_view_drawn_afresh(tmp_path):
    """What a reader's views keep (its table model's zones, their drawings and HTML: room.drawn's memos) makes
    the page it would make with nothing kept, move after move, while the seat decides and while it waits."""
    rooms = Rooms(Store(tmp_path / "games.sqlite3"))
    room = rooms.create("agot", 3, ["person", "random", "random"], "en", seed=5)
    env, rng = pages.environment(), random.Random(4)
    for move in range(30):
        for viewer in (0, None):
            kept = pages.view(env, room, viewer, "en")["html"]
            memos = room.drawn.pop("memos")
            assert pages.view(env, room, viewer, "en")["html"] == kept, (move, viewer)
            room.drawn["memos"] = memos
        token = room.seats[0].token
        if room.decider() == 0:  # the seat's view after its answer, before the bots play
            room.answer(token, len(room.session.history), rng.randrange(len(room.session.pending.values)))
        else:
            room.play_bots()


def test_the_hint_names_only_what_the_page_draws_for_the_decision(tmp_path):
    """AGoT's House choice names the house sheets, which the table never draws (their faces show beside the
    options): the page says nothing of the board or of cards. A decision naming areas says "on the board"."""
    rooms = Rooms(Store(tmp_path / "games.sqlite3"))
    env = pages.environment()
    room = rooms.create("agot", 3, ["person", "random", "random"], "en", seed=2)
    assert room.decider() == 0 and room.session.pending.label(0).startswith("house_")
    html = pages.view(env, room, 0, "en")["html"]
    assert 'class="hint"' not in html and 'class="oface"' in html  # no hint; the sheets' faces beside the options
    rng, hints = random.Random(6), set()
    for _ in range(40):
        play(room, 1, rng)
        if room.decider() != 0:
            break
        html = pages.view(env, room, 0, "en")["html"]
        hints.update(re.findall(r'<p class="hint">([^<]*)</p>', html))
        if 'class="chosen"' in html:
            assert "Choose on the board" in html
    assert hints and hints <= {"Choose on the board, or from the list.", "Choose a highlighted card, or from the list.",
                               "Choose on the board or a highlighted card, or from the list."}
