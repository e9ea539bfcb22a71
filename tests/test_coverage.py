"""Rule coverage (`rules test --coverage`): a tiny game whose scenarios run known lines gives exactly the
expected listing; the trace is only on during a coverage run; the command's table, listing and JSON."""
from __future__ import annotations

import json
import re
import sys

from cli_run import run
from interpreter.scenarios.coverage import LineTrace, executable_lines, listing, measure, ranges
from interpreter.scenarios.run import run_scenario
from tiny_game import RECORDS, scenario_file, tiny_game

# Each line says what the scenarios below must make of it: ">" executed, "!" not executed, " " nothing to
# execute. The marks are cut off to write the game, then compared with the listing coverage makes.
RULES = """\
  # a comment, and a declaration: neither is executable
  procedure play():
>     for p in players:
>         move top(pile) to hand of p
>     if len(pile) > 100:
!         log "never"
>     elif len(pile) > 0:
>         take(players[0])
      else:
!         log "the pile is empty"
>     choose by players[0] ask "Which?":
          keep ask "Keep the rest":
>             pass
          drop ask "Drop the rest":
!             move pile to hand of players[1]
!             log "dropped"

  procedure take(p: player):
>     p.points = worth(p) + bonus(
          p)

  # called by take: executed; never called: not
> function worth(p: player) = sum(c.value for c in hand of p)
> function bonus(p: player) = 1
! function unused(p: player) = 3

  event scored(p: player)
"""

EFFECT_RECORDS = RECORDS.replace("""  value: 3
  source: designed
""", """  value: 3
  source: designed
  effect: |
    when take(p) in pile:
        p.points += 10
    when scored(p) in pile:
        p.points += 100
""")

SCENARIO = """
    name: {name}
    game: {game}
    players: 2
    setup: skip
    run: play()
    decisions: [{answer}]
    expect:
      - "{expect}"
"""


def _marked(text: str) -> tuple[str, str]:
    """(the rule text without its marks, the listing it must give)."""
    rules = "\n".join(line[2:] for line in text.splitlines()) + "\n"
    return rules, "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def _file(report, name: str):
    """The file of a game's coverage whose path ends with `name` (diagnostics may name files in several ways)."""
    [found] = [f for f in report.files if f.path.endswith(name)]
    return found


def _game(tmp_path):
    rules, wanted = _marked(RULES)
    root = tiny_game(tmp_path, rules=rules, records=EFFECT_RECORDS)
    return root, wanted


def test_a_tiny_game_gives_exactly_the_expected_listing(tmp_path):
    root, wanted = _game(tmp_path)
    # the pile holds coin, coin, gem: P1 takes a coin, P2 a coin; the gem is left; P1 scores 1 + 1 + 10 (gem's trigger)
    path = scenario_file(tmp_path, SCENARIO.format(name="keep", game=root, answer="keep", expect="players[0].points == 12"))
    outcomes, reports = measure([path], run_scenario)
    assert [o.ok for o in outcomes] == [True], outcomes[0].render()
    [report] = reports
    rules = _file(report, "main.rules")
    assert listing(rules, (root / "main.rules").read_text()) == wanted
    # the gem's effect: its `when take` body ran, its `when scored` body did not (nothing calls scored)
    cards = _file(report, "cards.yaml")
    text = (root / "cards.yaml").read_text().splitlines()
    assert {text[n - 1].strip() for n in cards.executable} == {"p.points += 10", "p.points += 100"}
    assert {text[n - 1].strip() for n in cards.executed} == {"p.points += 10"}
    assert report.executable == 15 + 2 and report.executed == 10 + 1


def test_a_second_scenario_adds_its_lines(tmp_path):
    root, _ = _game(tmp_path)
    keep = scenario_file(tmp_path, SCENARIO.format(name="keep", game=root, answer="keep", expect="players[0].points == 12"))
    drop = scenario_file(tmp_path, SCENARIO.format(name="drop", game=root, answer="drop",
                                                   expect="len(hand of players[1]) == 2"), name="drop.yaml")
    _, [one] = measure([keep], run_scenario)
    _, [both] = measure([keep, drop], run_scenario)
    rules = _file(both, "main.rules")
    text = (root / "main.rules").read_text().splitlines()
    assert [text[n - 1].strip() for n in rules.missing()] == ['log "never"', 'log "the pile is empty"',
                                                              "function unused(p: player) = 3"]
    assert both.executed == one.executed + 2


def test_executable_lines_are_statements_elif_and_function_bodies(tmp_path):
    from dsl.loader import load_game
    root, wanted = _game(tmp_path)
    content = load_game(root)
    [lines] = [v for k, v in executable_lines(content).items() if k.endswith("main.rules")]
    expected = {n for n, line in enumerate(wanted.splitlines(), 1) if line[:1] in (">", "!")}
    assert lines == expected


def test_the_trace_is_off_outside_a_coverage_run(tmp_path):
    before = sys.gettrace()
    with LineTrace():
        assert sys.gettrace() is not before
    assert sys.gettrace() is before


def test_a_game_compiled_for_coverage_inlines_no_function(tmp_path):
    from interpreter.runtime.games import load_compiled
    root, _ = _game(tmp_path)
    plain, covered = load_compiled(str(root)), load_compiled(str(root), for_coverage=True)
    assert plain is not covered and covered.for_coverage and not plain.for_coverage
    # `worth` and `bonus` are inlined into take's line in the game as it is played, called in the one for coverage
    called = re.compile(r"(?<!def )f_worth\(rt")
    assert not called.search(plain.python_source()) and called.search(covered.python_source())


def test_ranges():
    assert ranges([]) == ""
    assert ranges([3, 4, 5, 7, 9, 10]) == "3-5, 7, 9-10"


def test_rules_test_coverage_prints_the_table_and_writes_listings(tmp_path, capsys):
    root, wanted = _game(tmp_path)
    path = scenario_file(tmp_path, SCENARIO.format(name="keep", game=root, answer="keep", expect="players[0].points == 12"))
    out = tmp_path / "listing"
    code, stdout, _ = run(capsys, "test", path, "--coverage", "--listing", out)
    assert code == 0, stdout
    assert "1 passed, 0 failed" in stdout
    [row] = [line for line in stdout.splitlines() if "main.rules " in line]
    # 10 of 15 is 66.67 %: shown rounded down, as coverage tools do
    assert row.split()[1:] == ["15", "5", "66.6%", "6,", "10,", "15-16,", "25"], row
    assert "TOTAL tiny" in stdout
    assert (out / "tiny" / "main.rules,cover").read_text() == wanted


def test_rules_test_coverage_json(tmp_path, capsys):
    root, _ = _game(tmp_path)
    path = scenario_file(tmp_path, SCENARIO.format(name="keep", game=root, answer="keep", expect="players[0].points == 12"))
    code, stdout, _ = run(capsys, "test", path, "--coverage", "--json")
    assert code == 0
    data = json.loads(stdout)
    assert data["passed"] == 1 and data["failed"] == 0
    tiny = data["coverage"]["tiny"]
    assert (tiny["executable"], tiny["executed"]) == (17, 11)
    [rules] = [v for k, v in tiny["files"].items() if k.endswith("main.rules")]
    assert rules["missing"] == [6, 10, 15, 16, 25]


def test_a_failing_scenario_still_reports_coverage_and_exits_1(tmp_path, capsys):
    root, _ = _game(tmp_path)
    path = scenario_file(tmp_path, SCENARIO.format(name="wrong", game=root, answer="keep", expect="players[0].points == 13"))
    code, stdout, _ = run(capsys, "test", path, "--coverage")
    assert code == 1
    assert "0 passed, 1 failed" in stdout and "TOTAL tiny" in stdout

