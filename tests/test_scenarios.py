"""Every scenario file under tests/scenarios/ runs as its own test; the runner itself is tested too."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.scenarios.run import find_scenarios, run_scenario
from tiny_game import KB_SCENARIO, scenario_file

SCENARIO_DIR = Path(__file__).resolve().parent / "scenarios"
SCENARIOS = find_scenarios([SCENARIO_DIR])


def test_there_are_scenarios():
    assert len([p for p in SCENARIOS if "kings_bounty" in p.parts]) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(SCENARIO_DIR)) for p in SCENARIOS])
def test_scenario(path):
    outcome = run_scenario(path)
    assert outcome.ok, "\n" + outcome.render()


@pytest.mark.parametrize("path", [p for p in SCENARIOS if "kings_bounty" in p.parts],
                         ids=lambda p: p.name)
def test_scenario_cites_the_rulebook(path):
    text = path.read_text(encoding="utf-8")
    source = next((line for line in text.splitlines() if line.startswith("source:")), "")
    assert "rulebook" in source and len(source) > 40, f"{path.name} needs a source: quoting the rulebook"


# ---------------------------------------------------------------- the runner must be able to fail

def test_wrong_expectation_fails_with_a_useful_message(tmp_path):
    path = scenario_file(tmp_path, name="wrong.yaml", body=KB_SCENARIO.format(name="deliberately wrong") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "@elves_tower_1 in domains of players[1]"
      - "@elves_tower_1 in domains of players[0]"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    text = outcome.render()
    assert text.startswith("FAIL")
    assert "deliberately wrong" in text
    # the failing expectation is named with file:line:col, the passing one is not
    line = path.read_text().splitlines().index('  - "@elves_tower_1 in domains of players[0]"') + 1
    assert f"{path}:{line}:" in text, text
    assert "@elves_tower_1 in domains of players[0]" in text
    assert len(outcome.failures) == 1
    # a comparison shows both of its sides
    assert "left side" in text and "elves_tower_1" in text


def test_equality_failure_shows_both_sides(tmp_path):
    path = scenario_file(tmp_path, name="wrong_len.yaml", body=KB_SCENARIO.format(name="wrong count") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "len(hand of players[1]) == 5"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert "left side: 1" in outcome.render() and "right side: 5" in outcome.render()


def test_illegal_decision_fails_the_scenario(tmp_path):
    path = scenario_file(tmp_path, name="illegal.yaml", body=KB_SCENARIO.format(name="archers cannot take archers") + """
    decisions:
      - play_unit humans_archer_1 elves_tower_1
    expect:
      - "@elves_tower_1 in domains of players[1]"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    codes = [d.code for d in outcome.diagnostics]
    assert codes == ["DECISION-ILLEGAL"]
    rendered = outcome.render()
    # the legal options are listed so that the author sees what was possible
    assert "play_unit humans_warrior_1 elves_tower_1" in rendered
    assert "- play_unit humans_archer_1 elves_tower_1" in rendered  # the offending line, quoted


def test_missing_decision_fails(tmp_path):
    path = scenario_file(tmp_path, name="short.yaml", body=KB_SCENARIO.format(name="no decision given") + """
    expect:
      - "@elves_tower_1 in domains of players[0]"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert "no scripted decision left" in outcome.render()
    assert "play_unit humans_warrior_1 elves_tower_1" in outcome.render()


def test_unused_decisions_fail(tmp_path):
    path = scenario_file(tmp_path, name="long.yaml", body=KB_SCENARIO.format(name="one decision too many") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
      - return_cards
    expect:
      - "@elves_tower_1 in domains of players[1]"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert "never asked" in outcome.render()


def test_expect_pending_missing_option_fails(tmp_path):
    path = scenario_file(tmp_path, name="pending.yaml", body=KB_SCENARIO.format(name="archer is not offered") + """
    expect_pending: play_unit humans_archer_1 elves_tower_1
    expect:
      - "@elves_tower_1 in domains of players[0]"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert "play_unit humans_archer_1 elves_tower_1" in outcome.render()


def test_schema_error_in_scenario_file(tmp_path):
    path = scenario_file(tmp_path, name="schema.yaml", body="""
    name: misspelt field
    game: kings_bounty
    setup: skip
    expectt:
      - "true"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    codes = {d.code for d in outcome.diagnostics}
    assert "SCHEMA-EXTRA" in codes and "SCHEMA-REQUIRED" in codes
    assert "did you mean 'expect'" in outcome.render()


def test_unknown_name_in_expectation(tmp_path):
    path = scenario_file(tmp_path, name="undef.yaml", body=KB_SCENARIO.format(name="typo") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "len(hnad of players[1]) == 1"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert [d.code for d in outcome.diagnostics] == ["REF-UNDEF"]
    assert "did you mean 'hand'?" in outcome.render()


def test_expect_error_that_never_happens_fails(tmp_path):
    path = scenario_file(tmp_path, name="no_error.yaml", body=KB_SCENARIO.format(name="the warrior is legal") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect_error: DECISION-ILLEGAL
    expect:
      - "@elves_tower_1 in domains of players[1]"
    """)
    assert not run_scenario(path).ok


def test_runtime_error_in_expectation_fails_cleanly(tmp_path):
    path = scenario_file(tmp_path, name="none_attr.yaml", body=KB_SCENARIO.format(name="top of an empty deck") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "top(deck).strength == 1"
    """)
    outcome = run_scenario(path)  # must not raise
    assert not outcome.ok
    assert "top(deck).strength == 1" in outcome.render()


def test_any_with_a_value_uses_the_value(tmp_path):
    path = scenario_file(tmp_path, name="any.yaml", body=KB_SCENARIO.format(name="any of false values") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "not any(g.strength > 3 for g in garrison of @elves_tower_1)"
      - "any(g.strength == 3 for g in garrison of @elves_tower_1)"
      - "not any(c.kind == castle for c in hand of players[1] where c.race == humans)"
      - "not any(false for c in deck)"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


def test_all_with_a_value_uses_the_value(tmp_path):
    path = scenario_file(tmp_path, name="all.yaml", body=KB_SCENARIO.format(name="all human garrisons") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "all(g.race == humans for g in garrison of @elves_tower_1)"
      - "all(c.kind == unit for c in hand of players[1] where c.race == humans)"
      - "all(c.strength > 100 for c in hand of players[1] where c.race == elves)"
      - "not all(g.race == elves for g in garrison of @elves_tower_1)"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()
