"""Boards with real shapes (issue 30 item 2): the layout format, its checks in `rules validate` (each mistake a
diagnostic at its place), the plane geometry under them, and AGoT's designed map of Westeros: every area a
shape, borders shared so that the areas adjacent in the rules touch on the map."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from dsl.board_geometry import PathError, label_box, label_lines, parse_path
from dsl.board_overlap import Board
from dsl.loader import load_game
from interpreter.runtime.games import load_compiled

ROOT = Path(__file__).resolve().parent.parent
BOARD_MAP = ROOT / "tests" / "bad_content" / "board_map"
MISTAKES = ROOT / "tests" / "bad_content" / "board_layouts"
MARK = re.compile(r'([A-Z][A-Z-]+) "([^"]+)"')
# Borders that are only a river on the board: the areas touch but are not adjacent (../shared/data/agot/board.yaml, notes)
RIVERS = {frozenset(p) for p in (("winterfell", "greywater_watch"), ("riverrun", "the_twins"),
                                 ("riverrun", "the_mountains_of_the_moon"), ("harrenhal", "the_mountains_of_the_moon"),
                                 ("three_towers", "starfall"))}


def _errors(folder: Path) -> list:
    return [d for d in load_game(folder).report.diagnostics if d.severity == "error"]


def _marks(path: Path) -> set:
    """(code, line, col) of each `#! CODE "text"` mark of a file: the caret is on the first `text` of the line."""
    out = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if "#!" in line:
            code_part = line[:line.index("#!")]
            for code, text in MARK.findall(line[line.index("#!"):]):
                out.add((code, n, code_part.index(text) + 1))
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in MISTAKES.glob("*.yaml")))
def test_each_mistake_is_a_diagnostic_at_its_place(tmp_path, name):
    folder = tmp_path / "board_map"
    shutil.copytree(BOARD_MAP, folder)
    target = "layout.yaml" if name.startswith("layout_") else "areas.yaml"
    shutil.copy(MISTAKES / name, folder / target)
    errors = _errors(folder)
    assert {(d.code, d.span.line, d.span.col) for d in errors} == _marks(MISTAKES / name), [d.render() for d in errors]
    for d in errors:
        assert d.span.path.replace("\\", "/").endswith(f"board_map/{target}")
        rendered = d.render()
        lines = rendered.splitlines()
        assert lines[1].lstrip().startswith(f"{d.span.line} |") and "^" in lines[2] and d.hint, rendered
        assert lines[2].index("^") == lines[1].index("|") + 1 + d.span.col, rendered


def test_the_fixture_is_the_example_of_the_docs_and_loads_into_shapes_labels_and_slots():
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    example = docs[docs.index("# board_layout.yaml (its first line"):]
    example = example[example.index("\n") + 1:example.index("```")]
    fixture = (BOARD_MAP / "layout.yaml").read_text(encoding="utf-8")
    assert fixture.endswith(example)
    content = load_game(BOARD_MAP)
    assert not content.report.diagnostics, [d.render() for d in content.report.diagnostics]
    board = content.vocabulary.table.board
    assert set(board["shapes"]) == {"hills", "lake", "plain", "isle", "harbour"}
    assert len(board["shapes"]["plain"]) == 2  # the plain and the hole the isle fills
    assert board["shapes"]["lake"] == [[(300.0, 0.0), (600.0, 0.0), (600.0, 200.0), (300.0, 200.0)]]
    assert board["labels"]["hills"] == board["positions"]["hills"] == (150.0, 80.0)
    assert board["slots"]["hills"] == {"units": (150.0, 130.0), "icons": (60.0, 40.0)}
    assert board["label_lines"]["lake"] == 2 and board["label_size"] == 12.0 and board["size"] == (600.0, 400.0)
    x, y = board["labels"]["plain"]  # no label given: a point well inside, not in the isle
    assert 200 < y < 400 and not (250 <= x <= 350 and 260 <= y <= 340)


def test_declared_one_way_and_self_links_allow_what_they_name(tmp_path):
    folder = tmp_path / "board_map"
    shutil.copytree(BOARD_MAP, folder)
    layout = folder / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace("one_way: [[hills, plain]]", "one_way: []"), encoding="utf-8")
    [error] = _errors(folder)
    assert error.code == "LAYOUT-ADJACENCY" and error.span.path.endswith("areas.yaml") and "one_way: [[hills, plain]]" in error.hint
    shutil.copy(MISTAKES / "areas_self_link.yaml", folder / "areas.yaml")
    layout.write_text(text.replace("self_links: []", "self_links: [isle]"), encoding="utf-8")
    assert not _errors(folder)


def test_a_board_without_a_layout_still_gets_its_adjacency_checked(tmp_path):
    folder = tmp_path / "board_map"
    shutil.copytree(BOARD_MAP, folder)
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(", layout: layout.yaml", ""), encoding="utf-8")
    assert [(d.code, d.span.line) for d in _errors(folder)] == [("LAYOUT-ADJACENCY", 5)]  # hills -> plain, undeclared


def test_a_runaway_layout_is_refused_in_bounded_time(tmp_path):
    import math
    import time
    folder = tmp_path / "board_map"
    shutil.copytree(BOARD_MAP, folder)
    layout = folder / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    spikes = " ".join(f"{150 + (99 if k % 2 else 1) * math.cos(k * math.pi / 1200):.3f} "
                      f"{100 + (99 if k % 2 else 1) * math.sin(k * math.pi / 1200):.3f}" for k in range(2400))
    layout.write_text(text.replace('"M 0 0 L 300 0 L 300 200 L 0 200 Z"', f'"M {spikes} Z"'), encoding="utf-8")
    start = time.perf_counter()
    errors = _errors(folder)
    assert time.perf_counter() - start < 10
    assert [d.code for d in errors] == ["INPUT-LIMIT"] and "too intricate" in errors[0].message
    many = " ".join(f"{k % 300} {k // 300 % 200}" for k in range(50_001))
    layout.write_text(text.replace('"M 0 0 L 300 0 L 300 200 L 0 200 Z"', f'"M {many} Z"'), encoding="utf-8")
    assert any(d.code == "LAYOUT-SHAPE" and "more than 50,000 points" in d.message for d in _errors(folder))


@pytest.mark.parametrize("a, b, overlap", [
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 0), (20, 0), (20, 10), (10, 10)], False),  # a shared border
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 10), (10, 0), (20, 0), (20, 10)][::-1], False),  # drawn the other way
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 2), (20, 2), (20, 7), (10, 7)], False),  # along part of a border
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 10), (20, 10), (20, 20), (10, 20)], False),  # at a corner
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(5, 5), (15, 5), (15, 15), (5, 15)], True),  # borders crossing
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(2, 2), (5, 2), (5, 5), (2, 5)], True),  # one inside the other
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(0, 0), (10, 0), (10, 10), (0, 10)], True),  # the same shape
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(0, 0), (5, 0), (5, 5), (0, 5)], True),  # inside, touching
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(10, 0), (20, 0), (20, 10), (10, 10), (5, 5)], True),  # a corner poking in
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(2, 0), (7, 0), (7, 1), (2, 1)], True),  # along a border, same side
    ([(0, 0), (10, 0), (10, 10), (0, 10)], [(2, -1), (7, -1), (7, 0), (2, 0)], False),  # along a border, outside
])
def test_overlap_is_surface_shared_not_borders_or_corners(a, b, overlap):
    found = Board({"a": [a], "b": [b]}).overlaps()
    assert bool(found) == overlap, found
    assert not Board({"a": [a], "b": [b]}).overlaps(frozenset({frozenset(("a", "b"))}))


def test_a_ring_inside_another_is_a_hole_an_island_may_fill():
    sea = [[(0, 0), (10, 0), (10, 10), (0, 10)], [(3, 3), (7, 3), (7, 7), (3, 7)]]
    assert not Board({"sea": sea, "isle": [[(3, 3), (7, 3), (7, 7), (3, 7)]]}).overlaps()
    assert not Board({"sea": sea, "rock": [[(4, 4), (5, 4), (5, 5), (4, 5)]]}).overlaps()
    assert Board({"sea": sea, "big": [[(2, 2), (8, 2), (8, 8), (2, 8)]]}).overlaps()
    borders = Board({"sea": sea, "isle": [[(3, 3), (7, 3), (7, 7), (3, 7)]]}).shared_borders()
    assert borders == {("isle", "sea"): 16.0}


def test_paths_read_absolute_commands_and_say_where_they_go_wrong():
    assert parse_path("M 0 0 H 10 V 10 Z M 20 20 L 30 20 L 30 30 L 30 30 Z") == [
        [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], [(20.0, 20.0), (30.0, 20.0), (30.0, 30.0)]]
    assert parse_path("M0,0 10,0 10,10z") == [[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]]
    forward = parse_path("M 0 0 Q 5 10 10 0 L 5 -5 Z")[0]
    backward = parse_path("M 10 0 Q 5 10 0 0 L 5 -5 Z")[0]
    assert set(forward[1:8]) == set(backward[1:8])  # a curve flattens to the same points either way
    for text, message, at in (("M 0 0 l 10 0 L 5 5 Z", "relative", 6), ("M 0 0 L 10 0 L 10", "takes 2", 16),
                              ("L 1 2", "before any M", 0), ("M 0 0 L 1 1 % 3", "'%'", 12), ("M 0 0 L 10 0 Z", "three", 13)):
        with pytest.raises(PathError) as err:
            parse_path(text)
        assert message in str(err.value) and err.value.at == at, (text, str(err.value), err.value.at)


def test_labels_are_cut_at_spaces_into_balanced_lines():
    assert label_lines("The Mountains of the Moon", 2) == ["The Mountains", "of the Moon"]
    assert label_lines("Порт Штормового Предела", 3) == ["Порт", "Штормового", "Предела"]
    assert label_lines("Pyke", 3) == ["Pyke"]
    assert label_box((100, 50), "Pyke") == (100 - 14.4, 50 - 7.2, 100 + 14.4, 50 + 7.2)  # 4 x 0.6 x 12 wide, 1.2 x 12 high


# ---------------------------------------------------------------- AGoT's map
@pytest.fixture(scope="module")
def agot():
    game = load_compiled("agot")
    board = game.content.vocabulary.table.board
    areas = {eid: rec.data for eid, rec in game.content.entity_ids.items() if rec.data.get("kind") in ("land", "sea", "port")}
    return board, areas, game.content.report.diagnostics


def test_agot_draws_every_area_as_a_shape_with_its_label_and_slots(agot):
    board, areas, diagnostics = agot
    assert not [d for d in diagnostics if d.code.startswith("LAYOUT")]
    assert set(board["shapes"]) == set(areas) and len(areas) == 58
    for aid, rec in areas.items():
        assert "units" in board["slots"][aid] and "order_slot" in board["slots"][aid], aid
        if rec["kind"] == "land" and (rec.get("castle") or rec.get("supply") or rec.get("crowns")):
            assert "icons" in board["slots"][aid], aid
    islands = {aid for aid in ("pyke", "dragonstone", "the_arbor")}
    assert len(board["shapes"]["pyke"]) == 3  # the island and two islets: the Iron Islands
    holes = {aid: len(rings) for aid, rings in board["shapes"].items() if len(rings) > 1 and aid not in islands}
    assert holes == {"ironmans_bay": 4, "shipbreaker_bay": 2}  # the seas around Pyke (with its port) and Dragonstone
    at = board["labels"]
    assert at["castle_black"][1] < at["winterfell"][1] < at["the_twins"][1] < at["kings_landing"][1] < at["sunspear"][1]
    assert at["pyke"][0] < at["riverrun"][0] < at["the_eyrie"][0] and at["the_arbor"][0] < at["oldtown"][0]


def test_agot_adjacent_areas_share_a_border_and_only_rivers_part_touching_areas(agot):
    board, areas, _ = agot
    borders = {frozenset(pair) for pair, length in Board(board["shapes"]).shared_borders().items() if length >= 4}
    adjacent = {frozenset((a, b)) for a, rec in areas.items() for b in rec["adjacent"]}
    assert len(adjacent) == 143
    assert sorted(tuple(sorted(p)) for p in adjacent - borders) == []
    assert borders - adjacent == RIVERS
    for aid, rec in areas.items():
        if rec["kind"] == "port":
            assert {b for p in borders if aid in p for b in p} - {aid} == {rec["port_land"], rec["port_sea"]}


def test_agot_map_is_what_its_generator_draws():
    from tests.generators import agot_map
    records = agot_map._records()
    kinds = agot_map._kind_of(records)
    chains = agot_map._chains(kinds)
    layout = YAML(typ="safe").load((ROOT / "content" / "agot" / "board_layout.yaml").read_text(encoding="utf-8"))
    assert layout["size"] == list(agot_map.SIZE)
    for aid in kinds:
        assert parse_path(layout["areas"][aid]["shape"]) == agot_map._rings(aid, chains), aid


def test_the_schema_describes_the_layouts():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "schemas" / "board_layout.schema.json").read_text(encoding="utf-8"))
    check = jsonschema.Draft202012Validator(schema)
    yaml = YAML(typ="safe")
    for path in (ROOT / "content" / "agot" / "board_layout.yaml", BOARD_MAP / "layout.yaml",
                 ROOT / "tests" / "fixtures" / "web_game" / "layout.yaml"):
        assert not list(check.iter_errors(yaml.load(path.read_text(encoding="utf-8")))), path
    bad = yaml.load((MISTAKES / "layout_bad_path.yaml").read_text(encoding="utf-8"))
    assert list(check.iter_errors(bad))
