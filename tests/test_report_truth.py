"""A balance report that does not mislead (issue 22 §3): whole numbers binned one value per bin, cards
compared only among the players who could play them, values without effect in the variants played left
out, a stated multiple-comparison correction, game length in rounds or turns and how games ended, names in
the report's language, and the agents that played."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from cli_run import run
from interpreter.batch.balance import holm, integer_bins
from interpreter.batch.report import histogram_edges, seat_axis

pytest.importorskip("matplotlib")
ROOT = Path(__file__).resolve().parent.parent
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def _report(capsys, tmp_path, *argv) -> dict:
    folder = tmp_path / "r"
    code, out, err = run(capsys, "simulate", *argv, "--workers", 1, "--report", folder)
    assert code == 0, err
    return json.loads((folder / "report.json").read_text(encoding="utf-8")), (folder / "report.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- histograms and axes
def test_integer_bins_hold_one_value_each_or_whole_multiples():
    edges = integer_bins(14, 20, True)["bin_edges"]
    assert edges == [13.5 + k for k in range(8)]  # 14, 15, ..., 20: seven bins of one value
    wide = integer_bins(0, 500, True)
    assert wide["bin_width"] == 7 and len(wide["bin_edges"]) - 1 <= 80
    for low, high in zip(wide["bin_edges"], wide["bin_edges"][1:]):
        inside = [v for v in range(0, 501) if low < v < high]
        assert len(inside) == 7 or high > 500, (low, high)  # a whole number of integers, none on an edge
    assert integer_bins(0.5, 3.2, False) == {}


def test_btwixt_scores_histogram_has_one_value_per_bin(tmp_path, capsys):
    report, _ = _report(capsys, tmp_path, "btwixt", "--games", 6, "--players", 4, "--seed", 2)
    stats = report["runs"][0]["stats"]
    for dist in (stats["scores"]["all"], stats["length"], stats["length_by"]["rounds"]):
        edges = histogram_edges(report["runs"], [dist])
        values = [int(v) for v in dist["counts"]]
        for low, high in zip(edges, edges[1:]):
            inside = [v for v in range(min(values), max(values) + 1) if low < v < high]
            assert len(inside) == max(1, dist["bin_width"]), (low, high, inside)
    scores = stats["scores"]["all"]
    if scores["max"] - scores["min"] < 80:
        assert scores["bin_width"] == 1


def test_the_wins_axis_is_scaled_to_the_data_and_keeps_the_intervals():
    rows = [{"seat": "P1", "wins": 270, "n": 1000, "rate": 0.27, "low": 0.243, "high": 0.298},
            {"seat": "P2", "wins": 230, "n": 1000, "rate": 0.23, "low": 0.205, "high": 0.257}]
    low, high = seat_axis([{"stats": {"wins_by_seat": rows, "fair_share": 0.25}}])
    assert low <= 0.205 and high >= 0.298  # every interval whole
    assert high - low < 0.2  # not 0 to 1: 27 % against 23 % is plain to see


# ---------------------------------------------------------------- comparisons
def test_holm_correction_by_hand():
    rows = [{"p": 0.01}, {"p": 0.04}, {"p": 0.03}, {"p": None}]
    assert holm(rows) == 3
    assert [r["p_adjusted"] for r in rows[:3]] == pytest.approx([0.03, 0.06, 0.06])
    assert [r["significant"] for r in rows] == [True, False, False, False]


def test_an_agot_house_card_is_compared_within_its_house(tmp_path, capsys):
    report, page = _report(capsys, tmp_path, "agot", "--games", 6, "--players", 3, "--seed", 1)
    stats = report["runs"][0]["stats"]
    houses = {"stark", "lannister", "baratheon"}  # who plays with three players
    from interpreter.runtime.games import load_compiled
    records = {r.id: r.data for r in load_compiled("agot").content.records}
    assert stats["cards"]
    for row in stats["cards"]:
        assert row["stratum"] == records[row["card"]]["house"] in houses, row
        assert row["compared_among"] == 6, row  # one player of that house in each of the 6 games, not all 18
    assert stats["correction"]["method"] == "Holm" and stats["correction"]["comparisons"] >= len(stats["cards"])
    assert "Holm" in page and "could have" in page
    # how long the games were in rounds, and how they ended (the manifest's report: length and ends)
    assert set(stats["length_by"]) == {"rounds"} and 1 <= stats["length_by"]["rounds"]["min"] <= 10
    assert sum(e["wins"] for e in stats["endings"]) == 6
    assert report["endings"] == ["by seven castles and strongholds", "after round 10"]
    assert "How the games ended" in page and "after round 10" in page


def test_a_value_without_effect_in_the_variants_played_is_not_listed(tmp_path, capsys):
    """B'Twixt's rulers have no ability: they matter only in the advanced game, where they bring their cards."""
    base, page = _report(capsys, tmp_path, "btwixt", "--games", 3, "--players", 4)
    assert "ruler" not in base["runs"][0]["stats"]["per_player"] and "Per player" not in page
    shutil.rmtree(tmp_path / "r")
    advanced, page = _report(capsys, tmp_path, "btwixt", "--games", 3, "--players", 4, "--variant", "advanced")
    rows = advanced["runs"][0]["stats"]["per_player"]["ruler"]
    assert rows and "Per player: ruler" in page
    # a ruler is compared within the games where it was in play (chosen by someone)
    assert all(r["compared_among"] <= 3 * 4 for r in rows)


def test_labels_are_names_in_the_reports_language(tmp_path, capsys):
    report, page = _report(capsys, tmp_path, "kings_bounty", "--games", 4, "--players", 3, "--lang", "ru")
    stats = report["runs"][0]["stats"]
    assert report["seats"] == ["Игрок 1", "Игрок 2", "Игрок 3"] and '<html lang="ru">' in page
    assert stats["cards"] and all(CYRILLIC.search(r["name"]) for r in stats["cards"]), [r["name"] for r in stats["cards"]]
    titles = stats["per_player"]["titles"]
    assert titles and all(CYRILLIC.search(r["name"]) for r in titles)
    assert CYRILLIC.search(report["labels"]["titles"]) and report["length_labels"] == {"turns": "ходы"}
    assert "Игрок 1" in page and "orc_chief" not in page.split("<table>")[0]
    # the same report in English: the same cards by their English names
    shutil.rmtree(tmp_path / "r")
    english, _ = _report(capsys, tmp_path, "kings_bounty", "--games", 4, "--players", 3, "--lang", "en")
    assert not any(CYRILLIC.search(r["name"]) for r in english["runs"][0]["stats"]["cards"])


def test_a_report_with_an_ismcts_seat_names_its_agents(tmp_path, capsys):
    pytest.importorskip("pyspiel")
    report, page = _report(capsys, tmp_path, "kings_bounty", "--games", 1, "--players", 4,
                           "--agents", "ismcts,random,random,random", "--agent-arg", "simulations=2")
    assert report["agents"] == ["ismcts", "random", "random", "random"] and report["agent_args"] == {"simulations": 2}
    assert "P1 ismcts, P2 random, P3 random, P4 random (simulations=2)" in page
    code, out, err = run(capsys, "simulate", "kings_bounty", "--games", 1, "--agents", "human")
    assert code == 2 and "bot" in err


# ---------------------------------------------------------------- the manifest's report section
def test_report_length_and_ends_are_checked_where_they_are_written(tmp_path, capsys):
    root = tmp_path / "kb"
    shutil.copytree(ROOT / "content" / "kings_bounty", root)
    manifest = root / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("turns: {calls: turn,", "turns: {calls: trun,").replace('- when: "len(deck) == 0"', '- when: "len(deck) + 1"')
    manifest.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "validate", root)
    assert code == 1
    assert "REF-UNDEF" in out and "no procedure 'trun'" in out and "turn" in out
    assert "TYPE-MISMATCH" in out and "yes/no" in out and "game.yaml:" in out
