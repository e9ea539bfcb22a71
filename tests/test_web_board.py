"""Boards (issue 18 §2): a layout file's positions are checked like the rest of the content, what each option
names is found (interpreter.present.options) so a page can attach it to the map, and the SVG board is drawn
from the table model; the web pages' own words exist in every language."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from dsl.loader import load_game
from interpreter.present.options import option_refs
from interpreter.present.phrases import LANGUAGES
from interpreter.present.table import table_model
from interpreter.present.views import can_see
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled

ROOT = Path(__file__).resolve().parent
WEB_GAME = ROOT / "fixtures" / "web_game"


def _copy(tmp_path, layout: str) -> Path:
    folder = tmp_path / "web_game"
    shutil.copytree(WEB_GAME, folder)
    (folder / "layout.yaml").write_text(layout, encoding="utf-8")
    return folder


def test_agot_has_a_position_for_every_area_with_the_north_at_the_top():
    board = load_compiled("agot").content.vocabulary.table.board
    at = board["positions"]
    assert len(at) == 58
    assert at["castle_black"][1] < at["winterfell"][1] < at["kings_landing"][1] < at["sunspear"][1]
    assert at["sunset_sea"][0] < at["lannisport"][0] < at["kings_landing"][0] < at["shipbreaker_bay"][0]
    width, height = board["size"]
    assert all(0 <= x <= width and 0 <= y <= height for x, y in at.values())


def test_a_layout_with_an_unknown_id_or_a_missing_area_is_a_diagnostic_with_its_place(tmp_path):
    folder = _copy(tmp_path, "source: designed\nareas:\n  north: [1, 2]\n  westt: [3, 4]\n  east: [5]\n")
    problems = [d for d in load_game(folder).report.diagnostics if d.severity == "error"]
    by_code = {}
    for d in problems:
        by_code.setdefault(d.code, []).append(d)
    unknown = [d for d in by_code["LAYOUT-AREA"] if "westt" in d.message][0]
    assert unknown.span.line == 4 and "west" in (unknown.hint or "")
    assert any("no position: west" in d.message for d in by_code["LAYOUT-AREA"])
    assert any("position of 'east'" in d.message and d.span.line == 5 for d in by_code["LAYOUT-SHAPE"])
    rendered = unknown.render()
    assert "layout.yaml:4" in rendered and "^" in rendered


def test_a_layout_outside_the_game_folder_is_refused(tmp_path):
    folder = _copy(tmp_path, "source: designed\nareas: {north: [1, 2], west: [3, 4], east: [5, 6]}\n")
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace("layout: layout.yaml", "layout: ../../etc/passwd"))
    codes = [d.code for d in load_game(folder).report.diagnostics]
    assert "CONTENT-OUTSIDE" in codes


def test_march_options_name_the_areas_they_go_to():
    """AGoT: at every march the options name their destination areas (and nothing hidden from the decider)."""
    game = load_compiled("agot")
    session = Session(game, 3, 1)
    rng = random.Random(1)
    marches = 0
    while session.pending is not None and marches < 3:
        d = session.pending
        refs = option_refs(d, session.state)
        assert len(refs) == len(d.values)
        for r in refs:
            for cid in r.components:
                assert can_see(session.state.entities[cid], d.player)
        if "move_group" in " ".join(d.labels):
            marches += 1
            for label, r in zip(d.labels, refs):
                if label.startswith("move_group"):
                    assert label.split()[1] in r.areas, (label, r)
        session.answer(rng.randrange(len(d.values)))
    assert marches == 3


def test_the_board_is_drawn_from_the_table_model():
    """AGoT at 3 players: every area is drawn (the ones out of play greyed, with the reason, never left out), each
    controlled one in its house's colour, what lies there as tokens, the areas an option names chosen."""
    from interpreter.present.scene import scene
    from interpreter.present.scene_board import static_board
    from interpreter.present.words import Presenter
    game = load_compiled("agot")
    session = Session(game, 3, 2, ("houses_fixed",))  # the board after setup: P3 leads Stark
    model = table_model(session, 0)
    state, spec = session.state, game.content.vocabulary.table
    pr = Presenter(state, 0)
    drawn = scene(model, state, pr, chosen={"winterfell"}).board
    static = static_board(state, spec, pr)
    assert len(static.areas) == len(drawn.areas) == 58  # every area of the map, in play or not
    greyed = [a for a in drawn.areas if a.greyed]
    assert 10 < len(greyed) < 30 and drawn.greyed == [greyed[0].greyed] and "out of play" in greyed[0].greyed
    winterfell = next(a for a in drawn.areas if a.ref == "winterfell")
    assert winterfell.chosen and winterfell.controller is not None
    assert winterfell.colour == spec.looks.colours[state.player_vars[winterfell.controller]["house"]]
    assert any(p.card.icon == "mounted-knight" for p in winterfell.pieces)
    assert all(not a.chosen for a in drawn.areas if a.ref != "winterfell")
    kb = load_compiled("kings_bounty")
    kbs = Session(kb, 2, 0)
    assert scene(table_model(kbs, 0), kbs.state, Presenter(kbs.state, 0)).board is None


def test_a_board_without_a_layout_is_drawn_on_a_ring(tmp_path):
    from interpreter.present.scene import scene
    from interpreter.present.scene_board import static_board
    from interpreter.present.words import Presenter
    folder = _copy(tmp_path, "")
    manifest = folder / "game.yaml"
    manifest.write_text(manifest.read_text().replace(", layout: layout.yaml", ""))
    game = load_compiled(str(folder))
    session = Session(game, 2, 0)
    pr = Presenter(session.state, 0)
    static = static_board(session.state, game.content.vocabulary.table, pr)
    assert len({(round(a.circle[0]), round(a.circle[1])) for a in static.areas}) == 3
    drawn = scene(table_model(session, 0), session.state, pr).board
    assert [a.label for a in drawn.areas] == [a.label for a in static.areas]  # both layers put each area in one place


def test_every_web_phrase_is_written_in_every_language():
    from interpreter.present.phrases import PHRASES
    web = {key: texts for key, texts in PHRASES.items() if key.startswith("web ")}
    assert "web lobby" in web
    missing = [(key, lang) for key, texts in web.items() for lang in LANGUAGES if not texts.get(lang)]
    assert not missing


def test_serve_without_the_web_extra_is_a_usage_error_with_the_pip_hint(monkeypatch, capsys):
    import sys
    from interpreter.cli.main import main
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the web extra were not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "error[USAGE]" in err and 'pip install -e ".[web]"' in err and "Traceback" not in err


def test_serve_refuses_a_port_out_of_range(capsys):
    pytest.importorskip("uvicorn")
    from interpreter.cli.main import main
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port 70000" in capsys.readouterr().err


def test_serve_says_when_its_port_is_taken(capsys):
    pytest.importorskip("uvicorn")
    import socket
    from interpreter.cli.main import main
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and "--port" in err
