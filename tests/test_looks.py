"""Looks, boards and tracks (issue 30): how components, the board and tracks look is data (`looks:`, dsl.looks),
checked like the rest of the content; the table model carries tracks, the entity variables the table shows
and the totals of piles, to the page, the terminal and the bots' word observation alike; the scene
(interpreter.present.scene) draws them; options that differ only in which copy they take are one choice; an
option's words stack identical components (issue 33, item 3)."""
from __future__ import annotations

import dataclasses
import random
import shutil
from pathlib import Path

import pytest

from dsl.loader import load_game
from interpreter.present.observed import table_text
from interpreter.present.scene import changes, ink_on, scene, signature
from interpreter.present.scene_board import static_board
from interpreter.present.table import table_model
from interpreter.present.terminal import whole_table
from interpreter.present.words import Presenter, shown_to
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled

ROOT = Path(__file__).resolve().parent.parent
SIX = ROOT / "docs" / "examples" / "six_lands"


@pytest.fixture(scope="module")
def agot():
    return load_compiled("agot")


@pytest.fixture(scope="module")
def six():
    return load_compiled(str(SIX))


def _copy(tmp_path, replace: dict) -> Path:
    folder = tmp_path / "six_lands"
    shutil.copytree(SIX, folder)
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    manifest.write_text(text, encoding="utf-8")
    return folder


def _errors(folder) -> list:
    return [d for d in load_game(folder).report.diagnostics if d.severity == "error"]


def test_the_three_games_declare_their_looks(agot):
    looks = agot.content.vocabulary.table.looks
    assert looks.colour_by == "house"
    assert looks.colours["lannister"] == "#b3202e" and looks.colours["stark"] == "#d9d9d9"  # crimson; grey and white
    assert looks.kinds["unit"].icon.of({"unit_type": "knight"}) == "mounted-knight"
    assert [t.how for t in looks.tracks[:3]] == ["order"] * 3 and looks.greyed[0][0] == "out_of_play"
    btwixt = load_compiled("btwixt").content.vocabulary.table
    assert btwixt.totals == {"bid_pile": "influence"} and {t.variable for t in btwixt.looks.tracks} == {"season", "round"}
    kb = load_compiled("kings_bounty").content.vocabulary.table.looks
    assert kb.kinds["unit"].colour.of({"race": "elves"}) == "#86bd7f"


@pytest.mark.parametrize("replace,code,line,hint", [
    ({"icon: coins}": "icon: coinz}"}, "LOOKS-ICON", 36, "coins"),                      # an icon not vendored
    ({"by: terrain": "by: terain"}, "REF-UNDEF", 34, "terrain"),                          # an unknown attribute
    ({"hills: {fill": "hils: {fill"}, "VOCAB-VALUE", 35, "hills"),                        # not a value of the enum
    ({"each: lands,": "each: round,"}, "LOOKS-VALUE", 39, None),                         # a game variable where a player's is meant
    ({'"#2e86c1"': '"blue"'}, "SCHEMA-PATTERN", 31, None),                                # a colour is #rrggbb
    ({"tracks:\n": "trakcs:\n"}, "SCHEMA-EXTRA", 37, "tracks"),  # the caret on the unknown key
])
def test_a_mistake_in_the_looks_is_a_diagnostic_at_its_place(tmp_path, replace, code, line, hint):
    errors = _errors(_copy(tmp_path, replace))
    assert [d.code for d in errors] == [code], [d.render() for d in errors]
    d = errors[0]
    assert d.span.line == line and d.span.path.endswith("six_lands/game.yaml")
    assert "^" in d.render()
    if hint:
        assert hint in (d.hint or "")


def test_a_looks_file_is_read_from_the_game_folder_and_never_outside_it(tmp_path):
    folder = _copy(tmp_path, {})
    manifest = folder / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    start, end = text.index("looks:\n"), len(text)
    (folder / "looks.yaml").write_text(text[start:end].replace("looks:\n", "").replace("\n  ", "\n")[2:]
                                       .replace("icon: coins", "icon: coinz"), encoding="utf-8")
    manifest.write_text(text[:start] + "looks: looks.yaml\n", encoding="utf-8")
    errors = _errors(folder)
    assert [d.code for d in errors] == ["LOOKS-ICON"] and errors[0].span.path.endswith("six_lands/looks.yaml")
    manifest.write_text(text[:start] + "looks: ../looks.yaml\n", encoding="utf-8")
    assert [d.code for d in _errors(folder)] == ["CONTENT-OUTSIDE"]


def test_every_icon_the_games_name_is_vendored_with_its_licence():
    from interpreter.present.icons import HERE, icon_set, sprite, used_by_content
    used = used_by_content(ROOT / "content") | used_by_content(SIX.parent)
    assert used and used <= set(icon_set())
    licence = (HERE / "LICENSE.txt").read_text(encoding="utf-8")
    assert "CC BY 3.0" in licence and "Lorc" in licence and "Delapouite" in licence
    drawn = sprite(["barrel", "no-such-icon"])
    assert drawn.count("<symbol") == 1 and 'id="i-barrel"' in drawn


def test_tracks_follow_the_variables_the_rules_keep(agot):
    session = Session(agot, 3, 4, ("houses_fixed",))
    state = session.state
    tracks = {t.name: t for t in table_model(session, 0).tracks}
    assert [s.seats[0] for s in tracks["Iron Throne"].slots] == state.game_vars["throne_track"]
    assert [s.seats[0] for s in tracks["King's Court"].slots] == state.game_vars["kings_court_track"]
    supply = tracks["supply"]
    for p in range(3):
        assert p in supply.slots[state.player_vars[p]["supply_level"]].seats
    assert supply.slots[0].label == "2·2"  # the armies the lowest supply allows, read from the supply track's rows
    wildlings = tracks["wildling threat"]
    assert [s.label for s in wildlings.slots if s.marked] == [str(state.game_vars["wildling_threat"])]
    btwixt = load_compiled("btwixt")
    rounds = next(t for t in table_model(Session(btwixt, 4, 1), 0).tracks if t.name == "round")
    assert [s.label for s in rounds.slots] == ["1", "2", "3", "4", "5"]  # a season has one round more than players
    lines = whole_table(table_model(session, 0), Presenter(state, 0))
    assert any(ln.startswith("Iron Throne: 1 ") for ln in lines)


def test_a_bid_pile_shows_its_total_unless_part_of_it_is_hidden():
    game = load_compiled("btwixt")
    session = Session(game, 3, 2)
    rng = random.Random(2)
    while not any(session.state.player_zones["bid_pile"][p].items for p in range(3)):
        session.answer(rng.randrange(len(session.pending.values)))
    p = next(p for p in range(3) if session.state.player_zones["bid_pile"][p].items)
    pile = session.state.player_zones["bid_pile"][p]
    shown = next(z for pl in table_model(session, 0).players for z in pl.zones if z.zone == "bid_pile" and z.items)
    assert shown.total == sum(e.attrs["influence"] for e in pile.items) > 0
    assert f"(total {shown.total})" in "\n".join(whole_table(table_model(session, 0), Presenter(session.state, 0)))
    pile.items[0].face_down = True  # a part the others cannot see: no total that would tell it
    others = [z for pl in table_model(session, (p + 1) % 3).players for z in pl.zones if z.zone == "bid_pile" and z.items]
    assert all(z.total is None for z in others if z.owner == p)


def test_an_entity_variable_shows_on_its_area_everywhere_a_table_is_drawn(six):
    session = Session(six, 2, 1)
    session.answer(0)
    state = session.state
    model = table_model(session, 1)
    armies = {a.ref: dict(a.values)["armies"] for a in model.areas}
    assert armies == {e.id: str(e.vars["armies"]) for e in state.game_zones["map"].items}
    assert armies["south_fields"] == "2" and armies["high_moor"] == "3"
    assert "High Moor (P1) [armies 3]" in table_text(session, 1)  # the bots' word observation
    drawn = scene(model, state, Presenter(state, 1)).board
    assert {a.ref: a.values for a in drawn.areas}["high_moor"] == [("armies", "3")]


def test_a_layout_with_shapes_draws_filled_shapes_names_and_icons_where_it_says(six):
    """docs/examples/six_lands: the layout's geometry as dsl.board_layout gives it (shapes, labels, slots) is a
    filled path per area in its terrain's style, the name at its label point, the gold at the `icons` slot; the
    same game with a point per land is drawn as small round shapes."""
    session = Session(six, 2, 1)
    state = session.state
    spec = six.content.vocabulary.table
    static = static_board(state, spec, Presenter(state, 0))
    assert all(a.paths and a.circle is None for a in static.areas) and len(static.areas) == 6
    west = next(a for a in static.areas if a.ref == "west_march")
    assert west.paths == ["M 0.0 210.0 L 160.0 210.0 L 200.0 280.0 L 180.0 400.0 L 0.0 400.0 Z"]
    assert west.label == (85, 290) and [i[0] for i in west.icons] == ["coins", "coins"] and west.icons[0][2] == 330
    assert west.fill == "#dfe8b0"  # plains, by the terrain attribute
    lake = next(a for a in static.areas if a.ref == "mirror_lake")
    assert lake.fill == "#8fb5d3" and lake.text == "#0f2a40"
    points = dict(spec.board, shapes={}, positions={a.ref: a.label for a in static.areas})
    schematic = static_board(state, dataclasses.replace(spec, board=points), Presenter(state, 0))
    assert all(a.circle is not None and not a.paths for a in schematic.areas)


def test_identical_copies_are_one_option_with_how_many_are_left(agot):
    session = Session(agot, 3, 1, ("houses_fixed",))  # the first question is the orders, not a House
    d = session.pending
    shown = shown_to(d, session.state)
    assert len(shown.options) == 15 and len(shown.groups) == 11  # the 15 order tokens, 11 different orders
    twice = [(text, members) for text, members in shown.groups if len(members) == 2]
    assert len(twice) == 4 and all("#" not in text for text, _ in twice)
    for text, members in twice:  # the copies differ in nothing but their id
        a, b = (d.values[i].args[0] for i in members)
        assert a.record_id != b.record_id and a.zone is b.zone
        assert {k: v for k, v in a.attrs.items() if k not in ("id", "source")} == \
               {k: v for k, v in b.attrs.items() if k not in ("id", "source")}
    assert len(shown.options) == sum(len(m) for _, m in shown.groups)
    # each option, whichever copy it names, shows that order's face (icon and colour) beside it
    from interpreter.present.options import option_refs
    named = {c for r in option_refs(d, session.state) for c in r.components}
    state = session.state
    drawn = scene(table_model(session, 0), state, Presenter(state, 0), named)
    assert named and all(drawn.faces[c].icon for c in named)


def test_the_terminal_offers_identical_copies_once_too(agot):
    """At the terminal as on the page: one entry per distinct order, with how many; it answers with one of them."""
    import io
    from interpreter.agents.players import HumanAgent
    session = Session(agot, 3, 1, ("houses_fixed",))  # the first question is the orders, not a House
    d = session.pending
    out = io.StringIO()
    person = HumanAgent(io.StringIO("3\n"), out)
    person.attach(session)
    answer = person.decide(d, None)
    screen = out.getvalue()
    assert "Defense Order +1 (bonus 1) ×2" in screen and "#1" not in screen and "[10]" in screen and "[11]" not in screen
    assert d.values[answer].args[0].attrs["order_type"] == "defense" and d.values[answer].args[0].attrs["bonus"] == 1


def test_an_option_naming_an_area_stacks_its_identical_units(agot):
    """Issue 33, item 3: `Oasis Gate [troops: Army ×11]`, not every token spelt out."""
    session = Session(agot, 3, 1, ("houses_fixed",))  # the first question is the orders, not a House
    pr = Presenter(session.state, 0)
    for area in session.state.game_zones["board"].items:
        units = [pr.describe(u) for u in area.zones["units"].items] if "units" in area.zones else []
        twins = {u for u in units if units.count(u) > 1}
        if twins:
            text = pr.entity(area)
            unit = twins.pop()
            assert f"{unit} ×{units.count(unit)}" in text and text.count(unit) == 1, text
            return
    pytest.fail("no area with two identical units at the start")


def test_what_changed_since_the_last_decision_is_found_from_what_the_page_showed(six):
    session = Session(six, 2, 1)
    before = signature(table_model(session, 0))
    session.answer(0)  # P1 adds an army somewhere
    now = signature(table_model(session, 0))
    found = changes(before, now)
    assert len(found["areas"]) == 1 and not found["tracks"]
    assert changes(None, now) is None
    drawn = scene(table_model(session, 0), session.state, Presenter(session.state, 0), changed=found).board
    assert [a.ref for a in drawn.areas if a.changed] == list(found["areas"])


def test_the_docs_quote_the_worked_example_as_it_is():
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    start = docs.index("Its manifest declares the board and what shows:\n\n```yaml\n")
    block = docs[docs.index("```yaml\n", start) + 8:docs.index("```", docs.index("```yaml\n", start) + 8)]
    assert block in (SIX / "game.yaml").read_text(encoding="utf-8")


def test_ink_is_readable_on_its_colour():
    assert ink_on("#262626") == "#ffffff" and ink_on("#d9d9d9") == "#1d1d1d" and ink_on("#b3202e") == "#ffffff"


def test_a_board_drawn_small_draws_its_tokens_larger(agot, six):
    """AGoT's map (1360×1700) is drawn at about 0.4 of its size at a laptop: its tokens are drawn 1.2× (in the
    board's units), while the six lands' small map keeps them as they are."""
    pytest.importorskip("markupsafe")
    from interpreter.web.draw import board_svg
    for game, scale in ((agot, 1.2), (six, 1.0)):
        session = Session(game, 3 if game is agot else 2, 1, ("houses_fixed",) if game is agot else ())
        state = session.state
        board = scene(table_model(session, 0), state, Presenter(state, 0)).board
        assert board.piece == scale
        svg = board_svg(board, "", {"board": "board"})
        assert ('<g transform="scale(1.20)">' in svg) == (scale != 1.0) and ('class="pc' in svg) == (game is agot)


def test_a_house_to_lead_is_offered_with_its_sigil_in_its_colour(agot):
    """The first question of AGoT (houses chosen): each option shows the House's sigil in the House's colour."""
    from interpreter.present.options import option_refs
    session = Session(agot, 3, 1)
    state = session.state
    d = session.pending
    named = [r.components[0] for r in option_refs(d, state)]
    drawn = scene(table_model(session, 0), state, Presenter(state, 0), set(named))
    looks = agot.content.vocabulary.table.looks
    faces = {state.entities[c].attrs["house"]: drawn.faces[c] for c in named}
    assert set(faces) == {"baratheon", "lannister", "stark"}
    assert faces["stark"].icon == "direwolf" and faces["lannister"].colour == looks.colours["lannister"]


def test_an_area_out_of_play_shows_no_force(agot):
    """At 3 players the "~" tokens close their areas: greyed on the board with the reason, and nothing drawn
    on them (no neutral force of strength 0)."""
    session = Session(agot, 3, 4, ("houses_fixed",))
    model = table_model(session, 0)
    greyed = [a for a in model.areas if a.greyed]
    assert {"pyke", "highgarden", "sunspear"} <= {a.ref for a in greyed}
    assert all(not a.zones for a in greyed), [(a.ref, [z.zone for z in a.zones]) for a in greyed if a.zones]
    board = scene(model, session.state, Presenter(session.state, 0)).board
    assert all(not a.pieces for a in board.areas if a.greyed)
    assert any(a.pieces for a in board.areas if a.ref == "kings_landing")  # the forces in play are drawn


def test_a_house_option_reads_as_the_houses_name_without_the_setups_bookkeeping(agot):
    """The house sheets' setup fields (seat, the smallest player count, the tracks' start) are `shown: false`:
    the House choice offers "House Stark (supply 1)", never "seat 2, from player count 3, throne pos 3 …"."""
    session = Session(agot, 3, 4)
    shown = shown_to(session.pending, session.state, session.pending.player, "en")
    assert shown.options and all(o.startswith("House ") for o in shown.options)
    assert not any(w in o for o in shown.options for w in ("seat", "from player", "pos", "court", "throne")), shown.options
