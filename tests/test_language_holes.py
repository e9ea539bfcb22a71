"""Pitfalls that a new author met writing a whole game from the docs alone (issue 6, sections 2 and 4).

Each test fails on the engine as it was before the fix: the pitfall was silent at validation and
surfaced (if at all) far away at run time.
"""
from __future__ import annotations

from pathlib import Path

from dsl.loader import load_game
from interpreter.cli import main
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session, new_state
from interpreter.present.words import telling
from tiny_game import tiny_game


def diags(root: Path) -> list:
    return load_game(root).report.diagnostics


def codes(root: Path) -> list[str]:
    return [d.code for d in diags(root)]


def play_lines(root: Path, players: int = 2, procedure: str | None = None) -> list[str]:
    lines: list = []
    game = load_compiled(str(root))
    Session(game, players, 0, account=telling(lambda to, text: lines.append(text)), procedure=procedure)
    return lines


# ---------------------------------------------------------------- locals that hide enum values

def test_a_parameter_named_like_an_enum_value_is_an_error(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            pass

        function strong(raid: entity) = raid.value > 1
        """)
    (d,) = diags(root)
    assert d.code == "DSL-SHADOW" and d.span.line == 4 and "'raid'" in d.message
    assert "enum 'order_type'" in d.message


def test_let_loop_choice_and_query_variables_named_like_enum_values_are_errors(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            let march = 1
            for raid in pile:
                pass
            choose token in pile by players[0]
            log "{count(raid in pile where raid.value > 1)}"
        """)
    found = [(d.code, d.span.line) for d in diags(root)]
    # march (enum value), raid (enum value), token (a kind: kinds are values too), raid in the query
    assert found == [("DSL-SHADOW", 2), ("DSL-SHADOW", 3), ("DSL-SHADOW", 5), ("DSL-SHADOW", 6)]


# ---------------------------------------------------------------- member access needs a type where it is ambiguous

AMBIGUOUS_VOCAB = dict(attributes="house: order_type", variables="house: {scope: player, type: order_type}")


def test_member_of_an_untyped_value_is_an_error_where_the_name_has_two_meanings(tmp_path):
    root = tiny_game(tmp_path, **AMBIGUOUS_VOCAB, rules="""\
        procedure play():
            pass

        function of_house(o) = o.house
        function typed(o: entity) = o.house
        function points_of(o) = o.points
        """)
    (d,) = diags(root)
    assert d.code == "TYPE-AMBIGUOUS" and d.span.line == 4, d.render()
    assert "give the parameter a type" in d.hint


def test_concat_keeps_the_element_type(tmp_path):
    """concat of zones is a list of components, so c.house is the attribute, not the player variable."""
    root = tiny_game(tmp_path, **AMBIGUOUS_VOCAB, records="""\
        - {id: coin, kind: token, value: 1, house: raid, source: designed}
        """, rules="""\
        procedure play():
            move top(pile) to hand of players[1]
            for c in concat([hand of p for p in players]):
                log "{c.house}"
        """)
    assert diags(root) == []
    assert play_lines(root) == ["raid"]


def test_a_procedure_return_type_is_inferred_for_let(tmp_path):
    root = tiny_game(tmp_path, **AMBIGUOUS_VOCAB, records="""\
        - {id: coin, kind: token, value: 1, house: march, source: designed}
        """, rules="""\
        procedure play():
            let c = pick()
            log "{c.house}"

        procedure pick():
            if len(pile) == 0:
                return none
            return top(pile)
        """)
    assert diags(root) == []
    assert play_lines(root) == ["march"]


def test_an_inferred_return_type_is_checked(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            let n: number = pick()

        procedure pick():
            return top(pile)
        """)
    (d,) = diags(root)
    assert d.code == "TYPE-MISMATCH" and "declared a number" in d.message


def test_let_declares_a_type(tmp_path):
    root = tiny_game(tmp_path, **AMBIGUOUS_VOCAB, records="""\
        - {id: coin, kind: token, value: 1, house: march, source: designed}
        """, rules="""\
        procedure play():
            let best: entity = none
            for c in pile:
                best = c
            log "{best.house}"
        """)
    assert diags(root) == []
    assert play_lines(root) == ["march"]


def test_let_with_an_unknown_type(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            let best: entiti = none
        """)
    (d,) = diags(root)
    assert d.code == "TYPE-UNKNOWN" and d.hint == "did you mean 'entity'?"


# ---------------------------------------------------------------- attribute defaults

def test_attribute_default_is_read_by_records_without_it(tmp_path):
    root = tiny_game(tmp_path, attributes="castle: {type: number, default: 0}", records="""\
        - {id: land, kind: token, value: 1, castle: 2, source: designed}
        - {id: sea, kind: token, value: 2, source: designed}
        """, rules="""\
        procedure play():
            for a in pile where a.castle > 0:
                log "{a.id} has a castle"
            log "{sum(a.castle for a in pile)}"
        """)
    assert diags(root) == []
    assert play_lines(root) == ["land has a castle", "2"]
    content = load_game(root)
    assert content.entity_ids["sea"].data["castle"] == 0


def test_attribute_default_of_the_wrong_type(tmp_path):
    root = tiny_game(tmp_path, attributes="castle: {type: number, default: yes}")
    (d,) = diags(root)
    assert d.code == "VOCAB-VALUE" and "castle" in d.message


# ---------------------------------------------------------------- entity variables per kind

def test_entity_variables_per_kind_with_initial_values_from_an_attribute(tmp_path):
    root = tiny_game(tmp_path, kinds="marker: {starts_in: pile}", variables="""\
        strength: {scope: entity, type: number, kinds: [token], initial_from: value}
        placed: {scope: entity, type: bool, initial: false}
        """, records="""\
        - {id: coin, kind: token, value: 4, source: designed}
        - {id: flag, kind: marker, source: designed}
        """, rules="""\
        procedure play():
            for t in pile where t.kind == token:
                t.strength += 1
                log "{t.strength}"
        """)
    assert diags(root) == []
    game = load_compiled(str(root))
    state = new_state(game, 2, 0)
    assert state.entities["coin"].vars == {"strength": 4, "placed": False}
    assert state.entities["flag"].vars == {"placed": False}, "a marker has no strength variable"
    assert play_lines(root) == ["5"]


def test_entity_variable_kinds_and_initial_from_are_checked(tmp_path):
    root = tiny_game(tmp_path, variables="""\
        strength: {scope: entity, type: number, kinds: [tokn], initial_from: valu}
        label: {scope: entity, type: text, initial_from: value}
        """)
    found = sorted((d.code, d.message.split("'")[1]) for d in diags(root))
    assert found == [("REF-UNDEF", "tokn"), ("REF-UNDEF", "valu"), ("VOCAB-VALUE", "label")]


# ---------------------------------------------------------------- zones are live, comprehensions are snapshots

def test_a_zone_in_a_variable_sees_later_moves_and_a_comprehension_does_not(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            let live = hand of players[0]
            let snapshot = [c in hand of players[0]]
            move top(pile) to hand of players[0]
            log "{len(live)} {len(snapshot)}"
        """)
    assert play_lines(root) == ["1 0"]


# ---------------------------------------------------------------- what a new author met

def test_a_kind_starting_in_a_player_zone_is_rejected(tmp_path):
    root = tiny_game(tmp_path, kinds="card: {starts_in: hand}", records="""\
        - {id: ace, kind: card, source: designed}
        """)
    (d,) = diags(root)
    assert d.code == "VOCAB-VALUE" and "'hand'" in d.message and d.span.path.endswith("game.yaml")


def test_a_kind_starting_in_an_entity_zone_is_rejected(tmp_path):
    root = tiny_game(tmp_path, kinds="card: {starts_in: under}")
    assert codes(root) == ["VOCAB-VALUE"]


def test_initial_values_are_checked_against_the_type(tmp_path):
    root = tiny_game(tmp_path, variables="""\
        gold: {scope: player, type: number, initial: true}
        lucky: {scope: game, type: bool, initial: 1}
        side: {scope: game, type: order_type, initial: siege}
        seats: {scope: game, type: "list[player]", initial: [0, one]}
        leader: {scope: game, type: player, initial: 0}
        """)
    found = sorted((d.code, d.message.split("'")[1]) for d in diags(root))
    assert found == [("VOCAB-VALUE", "gold"), ("VOCAB-VALUE", "lucky"), ("VOCAB-VALUE", "seats"), ("VOCAB-VALUE", "side")]
    rendered = "\n".join(d.render() for d in diags(root))
    assert "initial: true" in rendered, "the diagnostic quotes the offending line"


def test_a_files_pattern_that_matches_nothing_is_an_error(tmp_path):
    root = tiny_game(tmp_path, rules_files="main.rules, rules/*.rule")
    (d,) = diags(root)
    assert d.code == "CONTENT-MISSING" and "rules/*.rule" in d.message and d.severity == "error"


def test_one_syntax_error_is_reported_once_not_echoed_by_every_use(tmp_path):
    root = tiny_game(tmp_path, rules_files="main.rules, broken.rules", rules="""\
        procedure play():
            setup_table()
            deal(2)
            let n = scored(players[0])
        """)
    (root / "broken.rules").write_text(
        "procedure setup_table():\n    shuffle pile\n\n"
        "procedure deal(n: number):\n    repeat n:\n        move top(pile) to hand of players[0\n\n"
        "function scored(p: player) = p.points\n", encoding="utf-8")
    found = [(d.code, Path(d.span.path).name) for d in diags(root)]
    assert found == [("DSL-SYNTAX", "broken.rules")]


def test_a_syntax_error_in_a_card_effect_does_not_echo_its_methods(tmp_path):
    root = tiny_game(tmp_path, records="""\
        - id: coin
          kind: token
          value: 1
          source: designed
          effect: |
            function worth(p: player) = (1 +
        """, rules="""\
        procedure play():
            log "{@coin.worth(players[0])}"
        """)
    assert codes(root) == ["DSL-SYNTAX"]


def test_an_unknown_parameter_type_is_reported_once(tmp_path):
    root = tiny_game(tmp_path, rules="""\
        procedure play():
            score(players[0])
            score(players[1])

        procedure score(p: playr):
            p.points += 1
        """)
    (d,) = diags(root)
    assert d.code == "TYPE-UNKNOWN" and d.hint == "did you mean 'player'?"


def test_an_unknown_attribute_type_is_reported_once(tmp_path):
    root = tiny_game(tmp_path, attributes="rank: nmber", rules="""\
        procedure play():
            log "{sum(c.rank for c in pile)}"
            log "{max(c.rank for c in pile) > 2}"
        """)
    assert codes(root) == ["VOCAB-TYPE"]


INACTIVE_RECORDS = """\
- id: coin
  kind: token
  value: 1
  source: designed
  effect: |
    when play():
        pass
"""


def test_abilities_on_a_kind_without_active_in_are_a_warning(tmp_path, capsys):
    root = tiny_game(tmp_path, records=INACTIVE_RECORDS)
    (d,) = diags(root)
    assert d.code == "DSL-INACTIVE" and d.severity == "warning" and "'token'" in d.message
    assert load_game(root).report.ok, "a warning does not make the game invalid"
    assert main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    assert "warning[DSL-INACTIVE]" in out and "1 warning" in out


def test_no_warning_once_the_kind_is_active_somewhere(tmp_path):
    root = tiny_game(tmp_path, records=INACTIVE_RECORDS, kinds="")
    text = (root / "game.yaml").read_text().replace("token: {starts_in: pile,", "token: {starts_in: pile, active_in: [pile],")
    (root / "game.yaml").write_text(text)
    assert diags(root) == []
