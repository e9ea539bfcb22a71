"""`rules simulate --report DIR [--compare VARIANT]`: report.json, and a self-contained report.html
that headless Chromium renders with its plots."""
from __future__ import annotations

import base64
import builtins
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from interpreter.cli import main
from cli_run import run

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
BLUE, ORANGE = (0x1F, 0x77, 0xB4), (0xFF, 0x7F, 0x0E)  # interpreter.report.COLOURS: the run and the compared run


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    pytest.importorskip("matplotlib", reason="matplotlib is not installed: pip install -e '.[report]'")
    folder = tmp_path_factory.mktemp("report") / "kb"
    code = main(["simulate", "kings_bounty", "--games", "16", "--players", "3", "--seed", "3", "--workers", "2",
                 "--report", str(folder), "--compare", "experienced", "--json"])
    assert code == 0
    return folder


def test_the_json_report(report_dir):
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    assert report["game"] == "kings_bounty" and report["players"] == 3 and report["games"] == 16
    assert [r["variants"] for r in report["runs"]] == [[], ["experienced"]]
    for run_ in report["runs"]:
        stats = run_["stats"]
        assert stats["games"] == 16 and stats["errors"] == 0
        assert sum(s["wins"] for s in stats["wins_by_seat"]) >= 16
        assert all(s["low"] <= s["rate"] <= s["high"] for s in stats["wins_by_seat"])
        assert stats["cards"] and stats["per_player"]["titles"]
        assert stats["length"]["n"] == 16 and stats["scores"]["all"]["n"] == 48
    titles = {row["value"]: row for row in report["runs"][0]["stats"]["per_player"]["titles"]}
    assert any(row.get("attributes", {}).get("points") is not None for row in titles.values())
    assert any(row["name"] != row["value"] for row in titles.values())  # the card's own name is shown too


def test_the_comparison_gives_each_figure_its_difference_and_interval(report_dir):
    """Issue 35 item 1: --compare experienced, figure by figure, each with an interval and a test after Holm's."""
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    found = report["comparison"]
    assert found["correction"]["method"] == "Holm" and found["correction"]["comparisons"] == len(found["rows"])
    figures = {r["figure"] for r in found["rows"]}
    assert {"seat", "length", "score", "winning_score", "per_player", "card"} <= figures
    for r in found["rows"]:
        assert r["low"] <= r["difference"] <= r["high"] and 0 <= r["p"] <= r["p_adjusted"] <= 1, r
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert page.count('<p class="verdict">With experienced, ') == 2  # at the top and above the table at the end
    assert "difference [95 %]" in page and "p (Holm)" in page
    # titles are points: their rows are circular, left out of what wins
    assert "titles" in report["part_of_score"]["per_player"]
    assert all(r["figure"] != "per_player" for run_ in report["runs"] for r in run_["what_wins"]["winning"])


def test_the_page_is_self_contained(report_dir):
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:)""", page)
    images = re.findall(r'<img[^>]*src="([^"]*)"', page)
    assert len(images) == 6  # seats, scores, lengths in decisions and in turns, titles, cards
    for src in images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    for heading in ("Wins by seat", "Scores", "Game length", "Per player: titles", "Cards"):
        assert f"<h2>{heading}</h2>" in page
    assert "variants experienced" in page


def _chromium(tmp_path, *args):
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (Debian's package `chromium`; .ci/run installs it)")
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
               f"--user-data-dir={tmp_path / 'profile'}", *args]
    return subprocess.run(command, capture_output=True, timeout=120, text=True)


def test_chromium_renders_the_plots(report_dir, tmp_path):
    Image = pytest.importorskip("PIL.Image", reason="Pillow comes with matplotlib")
    url = (report_dir / "report.html").resolve().as_uri()
    dom = _chromium(tmp_path, "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert dom.stdout.count('src="data:image/png;base64,') == 6 and "Balance report" in dom.stdout

    shot = tmp_path / "report.png"
    result = _chromium(tmp_path, "--hide-scrollbars", "--window-size=1000,2600", f"--screenshot={shot}", url)
    assert result.returncode == 0 and shot.exists(), result.stderr[-2000:]
    numpy = pytest.importorskip("numpy", reason="numpy comes with matplotlib")
    pixels = numpy.asarray(Image.open(shot).convert("RGB"), dtype=int)

    def count(colour):
        return int((abs(pixels - numpy.array(colour)) < 12).all(axis=2).sum())
    blue, orange = count(BLUE), count(ORANGE)
    # the bars of both runs are drawn: thousands of pixels in each run's colour (a missing image shows none)
    assert blue > 3000 and orange > 3000, (blue, orange)


def test_no_matplotlib_is_a_usage_error_before_any_game(capsys, monkeypatch, tmp_path):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", "--report", tmp_path / "r")
    assert code == 2 and "--report needs matplotlib" in err and 'pip install -e ".[report]"' in err
    assert out == ""


def test_a_report_folder_that_is_a_file(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "taken"
    target.write_text("x")
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", "2", "--report", target)
    assert code == 1 and "error[IO-ERROR]: cannot create the report folder" in err and str(target) in err


def test_a_report_without_played_cards_or_per_player_values(tmp_path, capsys):
    """A game whose manifest has no report: field still gets seats, scores and lengths."""
    pytest.importorskip("matplotlib")
    from tests.tiny_game import tiny_game
    root = tiny_game(tmp_path, rules="procedure play():\n    win players[0]\n")
    code, out, err = run(capsys, "simulate", root, "--games", "3", "--report", tmp_path / "r")
    assert code == 0
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "<h2>Wins by seat</h2>" in page and "<h2>Cards</h2>" not in page
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert report["runs"][0]["stats"]["wins_by_seat"][0]["wins"] == 3
