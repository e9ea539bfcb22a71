"""A report that answers a designer's questions (issue 35 item 1): two runs compared figure by figure with
intervals, tests and a one-line verdict; the confounds it can see (a value fixed by seat, a figure that is
part of the score) named and circular figures left out of what wins; a way of winning that never happened
warned about; the caveat that random-play figures are associations; numbers summarized as numbers."""
from __future__ import annotations

import json
import math

import pytest

from cli_run import run
from interpreter.batch.balance import mean_difference, summarize, t_quantile, t_two_sided
from interpreter.batch.findings import compare_runs, confounds, what_wins, warnings
from interpreter.batch.report_findings import findings_html, warning_lines
from tests.tiny_game import tiny_game


# ---------------------------------------------------------------- the statistics themselves
def test_student_t_against_known_values():
    assert t_quantile(10) == pytest.approx(2.228138852, abs=1e-6)
    assert t_quantile(1) == pytest.approx(12.70620474, abs=1e-5)
    assert t_quantile(math.inf) == pytest.approx(1.959963985, abs=1e-9)
    assert t_two_sided(2.0, 5) == pytest.approx(0.1019394, abs=1e-6)
    assert t_two_sided(0.0, 7) == pytest.approx(1.0)
    stats = pytest.importorskip("scipy.stats", reason="scipy checks the t distribution where it is installed")
    for df in (2, 3.5, 17.2, 250):
        for t in (0.3, 1.7, 4.2):
            assert t_two_sided(t, df) == pytest.approx(2 * stats.t.sf(t, df), rel=1e-9)
        assert t_quantile(df) == pytest.approx(stats.t.ppf(0.975, df), rel=1e-9)


def test_welch_difference_written_out():
    a = {"n": 12, "mean": 10.0, "stdev": 2.0}
    b = {"n": 20, "mean": 12.5, "stdev": 3.0}
    found = mean_difference(a, b)
    va, vb = 4 / 12, 9 / 20
    df = (va + vb) ** 2 / (va ** 2 / 11 + vb ** 2 / 19)
    se = math.sqrt(va + vb)
    assert found["effect"] == pytest.approx(2.5)
    assert found["high"] - found["effect"] == pytest.approx(t_quantile(df) * se)
    assert found["p"] == pytest.approx(t_two_sided(2.5 / se, df))
    assert mean_difference({"n": 5, "mean": 10, "stdev": 0.0}, {"n": 5, "mean": 10, "stdev": 0.0})["p"] == 1.0
    assert mean_difference({"n": 1, "mean": 3, "stdev": 0.0}, b)["effect"] is None


# ---------------------------------------------------------------- a run's findings, by hand
def _records(n: int, gold_of_winner: int = 5):
    """Two players; P1 always holds x, P2 always y; the winner (alternating) has more gold and 3 points."""
    out = []
    for i in range(n):
        w = i % 2
        gold = [1 + (i % 3), 1 + ((i + 1) % 3)]
        gold[w] = gold_of_winner
        out.append({"seed": i, "winners": [w], "scores": [3 if s == w else 0 for s in range(2)], "decisions": 10 + i % 4,
                    "per_player": {"side": [["x"], ["y"]], "gold": [[gold[0]], [gold[1]]],
                                   "points": [[3 if s == w else 0] for s in range(2)]},
                    "ending": 1, "error": None})
    return out


def test_numbers_are_summarized_as_numbers_and_circular_figures_left_out_of_what_wins():
    records = _records(40)
    stats = summarize(records, 2, circular={"per_player": ["points"]})
    assert set(stats["per_player"]) == {"side"}  # one row per value only for what is not a number
    gold = stats["per_player_numbers"]["gold"]
    others = [r["per_player"]["gold"][s][0] for r in records for s in range(2) if s not in r["winners"]]
    assert gold["winners"]["mean"] == 5 and gold["others"]["mean"] == pytest.approx(sum(others) / len(others))
    assert gold["effect"] == pytest.approx(5 - sum(others) / len(others))
    assert gold["significant"] and not gold["circular"]
    assert stats["per_player_numbers"]["points"]["circular"]
    found = confounds(records, 2, {"x": "Ex", "y": "Why"})
    assert found["side"]["fixed_by_seat"] and found["side"]["by_seat"] == [["x"], ["y"]]
    assert found["side"]["by_seat_names"] == [["Ex"], ["Why"]]
    assert not found["gold"]["fixed_by_seat"]
    wins = what_wins(stats, found)
    assert [(r["figure"], r["key"]) for r in wins["winning"]] == [("number", "gold")]
    assert [(r["figure"], r["key"]) for r in wins["circular"]] == [("number", "points")]
    # a value varying by seat is not a confound
    mixed = _records(40)
    for r in mixed[::3]:
        r["per_player"]["side"] = [["y"], ["x"]]
    found = confounds(mixed, 2)
    assert not found["side"]["fixed_by_seat"]
    stats = summarize(mixed, 2)
    page = findings_html({"runs": [{}], "labels": {"side": "house"}}, {"label": "no variant", "confounds": found,
                                                                       "stats": stats}, lambda head, rows: "")
    assert ("Seat and house are not confounded: each seat had 2 different values over the games, so the wins by "
            "seat and the wins by house are two findings.") in page


def test_a_victory_no_game_reached_is_a_warning():
    stats = summarize(_records(30), 2)
    assert warnings(stats, (0,)) == [{"kind": "victory never reached", "ending": 0, "games": 30, "wins": 0,
                                      "upper": pytest.approx(3.8415 / (30 + 3.8415), abs=1e-4)}]
    assert warnings(stats, (1,)) == []


def test_a_victory_reached_in_hardly_any_game_is_a_warning_too():
    records = _records(300)
    records[7]["ending"] = records[100]["ending"] = 0  # 2 of 300 games (AGoT's seven castles under random play)
    found = warnings(summarize(records, 2), (0,))
    assert [(w["kind"], w["wins"], w["games"]) for w in found] == [("victory rarely reached", 2, 300)]
    assert found[0]["upper"] < 0.05
    report = {"runs": [{"label": "no variant", "warnings": found}], "endings": ["by a hundred coins", "otherwise"],
              "game": "g", "players": 2, "agents": ["random", "random"], "skilled_agents": ["greedy"]}
    assert warning_lines(report)[0].startswith("no variant: hardly any game ended by a hundred coins (2 of 300 games; "
                                               "it happens in at most 2.4 % of such games")
    for k in range(12):  # 12 of 300 (4 %): its upper bound passes 5 %, nothing to warn about
        records[k]["ending"] = 0
    assert warnings(summarize(records, 2), (0,)) == []


def test_two_runs_compared_figure_by_figure():
    a = summarize(_records(60), 2)
    b = summarize(_records(60, gold_of_winner=9), 2)
    same = compare_runs(a, summarize(_records(60), 2))
    assert same["differ"] == 0 and all(r["difference"] in (0, None) or r["figure"] != "seat" for r in same["rows"])
    found = compare_runs(a, b)
    rows = {(r["figure"], r["key"]): r for r in found["rows"]}
    gold = rows[("number", "gold")]
    assert gold["difference"] == pytest.approx(b["per_player_numbers"]["gold"]["all"]["mean"] -
                                               a["per_player_numbers"]["gold"]["all"]["mean"])
    assert gold["low"] < gold["difference"] < gold["high"] and gold["significant"]
    assert found["rows"][0]["significant"]  # what differs comes first
    seat = rows[("seat", "P1")]
    assert seat["difference"] == 0 and not seat["significant"] and seat["low"] < 0 < seat["high"]
    assert found["correction"] == {"method": "Holm", "alpha": 0.05, "comparisons": len(found["rows"])}
    effect = rows[("number_effect", "gold")]
    x, y = a["per_player_numbers"]["gold"], b["per_player_numbers"]["gold"]
    assert effect["difference"] == pytest.approx(y["effect"] - x["effect"])
    assert effect["low"] == pytest.approx(effect["difference"] - math.hypot(y["effect"] - y["low"], x["high"] - x["effect"]))


# ---------------------------------------------------------------- through `rules simulate --report`
RULES = """\
procedure play():
    let w = random(players)
    for p in players:
        move top(pile) to hand of p
        p.gold = random([1, 2, 3])
    if variant("rich"):
        w.gold = 9
    else:
        w.gold = 4
    w.points = 3
    win w
"""


def _game(tmp_path):
    root = tiny_game(tmp_path, rules=RULES, variables="gold: {scope: player, type: number, initial: 0}")
    text = (root / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("start: play\n", "start: play\nvariants:\n  rich: {en: the winner is richer}\n")
    text += """report:
  per_player: {hand: hand, gold: gold, points: points}
  part_of_score: {per_player: [points]}
  ends:
    - {when: "len(pile) > 100", text: {en: by a hundred coins}, victory: true}
    - {when: "true", text: {en: after one deal}}
"""
    (root / "game.yaml").write_text(text, encoding="utf-8")
    return root


def test_the_report_names_its_findings(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    root = _game(tmp_path)
    code, out, err = run(capsys, "simulate", root, "--games", 60, "--workers", 1, "--report", tmp_path / "r",
                         "--compare", "rich")
    assert code == 0, err
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    first = report["runs"][0]
    assert [w["kind"] for w in first["warnings"]] == ["victory never reached"]
    assert "warning: no variant: no game ended by a hundred coins (0 of 60 games" in out
    assert "Warning: no variant: no game ended by a hundred coins" in page
    assert "association, not a cause" in page and "random agents" in page
    assert [(r["figure"], r["key"]) for r in first["what_wins"]["winning"]] == [("number", "gold")]
    assert [(r["figure"], r["key"]) for r in first["what_wins"]["circular"]] == [("number", "points")]
    assert "part of the score, so it goes with winning by definition" in page
    assert "<h2>Per player: gold</h2>" in page and "winners&#x27; mean" in page
    # the comparison: the winners' gold is the one thing that changes (both its mean and its effect)
    comparison = report["comparison"]
    differ = {(r["figure"], r["key"]) for r in comparison["rows"] if r["significant"]}
    assert ("number", "gold") in differ and not any(kind == "seat" for kind, _ in differ)
    assert "verdict: With rich, " in out and "mean gold +" in out
    assert '<p class="verdict">With rich, ' in page and "difference [95 %]" in page


def test_seats_and_values_fixed_together_are_named(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    root = tiny_game(tmp_path, rules="procedure play():\n    move @gem to hand of players[0]\n"
                     "    move top(pile) to hand of players[1]\n    win random(players)\n")
    with open(root / "game.yaml", "a", encoding="utf-8") as f:
        f.write("report:\n  per_player: {hand: hand}\n")
    code, out, err = run(capsys, "simulate", root, "--games", 12, "--workers", 1, "--report", tmp_path / "r")
    assert code == 0, err
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "Seat and hand are fixed together (P1 Gem, P2 Coin)" in page
    assert "<th>hand (always)</th>" in page
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert report["runs"][0]["confounds"]["hand"]["fixed_by_seat"]


@pytest.mark.parametrize("part, message", [
    ("part_of_score: {per_player: [titels]}", "report: part_of_score: no per_player label 'titels'"),
    ("part_of_score: {kinds: [tokn]}", "report: part_of_score: no kind 'tokn'"),
])
def test_a_wrong_part_of_score_is_a_clear_error(tmp_path, capsys, part, message):
    root = tiny_game(tmp_path)
    with open(root / "game.yaml", "a", encoding="utf-8") as f:
        f.write(f"report:\n  per_player: {{hand: hand}}\n  {part}\n")
    code, out, err = run(capsys, "validate", root)
    assert code == 1 and message in out + err and "game.yaml:" in out + err
