"""The constructs AGoT needed: `suppose` (what-if), `whenever` (watched conditions), `break`/`continue`, and game
variables that live `during` one procedure. Each is run in a tiny game and checked on the state it leaves."""
from __future__ import annotations

import pytest

from dsl.diagnostics import DiagnosticError
from dsl.loader import load_game
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling
from tests.tiny_game import tiny_game


def play(root, players: int = 2, answers=()):
    lines: list = []
    session = Session(load_compiled(str(root)), players, 0, account=telling(lambda to, text: lines.append(text)))
    for a in answers:
        session.answer(a)
    return session, lines


def errors(root) -> list:
    return [(d.code, d.message) for d in load_game(root).report.diagnostics if d.severity == "error"]


# ---------------------------------------------------------------- suppose
SUPPOSE = """\
function in_hand(p: player) = len(hand of p)
function value_in_hand(p: player) = sum(c.value for c in hand of p)

procedure play():
    let first_coin = first(c in pile where c.id == "coin_1")
    let gem = first(c in pile where c.id == "gem")
    log "before {[c.id for c in pile]}"
    log "if moved: {suppose move gem to hand of players[0], move first_coin to hand of players[0]: value_in_hand(players[0])}"
    log "nested: {suppose move gem to hand of players[1]: (suppose move first_coin to hand of players[1]: in_hand(players[1]))}"
    log "after {[c.id for c in pile]} {in_hand(players[0])} {in_hand(players[1])}"
    move gem to hand of players[1]
    move gem to pile face down
    log "face down kept: {suppose move gem to hand of players[0]: len(pile)} {face_down(gem)}"
"""


def test_suppose_evaluates_as_if_moved_then_puts_everything_back(tmp_path):
    session, lines = play(tiny_game(tmp_path, rules=SUPPOSE))
    assert lines[0] == "before coin 1, coin 2, gem"
    assert lines[1] == "if moved: 4"  # gem 3 + coin 1, as if both were in P1's hand
    assert lines[2] == "nested: 2"
    assert lines[3] == "after coin 1, coin 2, gem 0 0"  # the same order as before, nothing moved
    assert lines[4] == "face down kept: 2 yes"  # put back face down, still known to P2 alone
    assert session.state.entities["gem"].seen_by == 1


def test_suppose_type_checks_its_moves(tmp_path):
    rules = "function f(p: player) = suppose move 3 to hand of p: 1\nprocedure play():\n    pass\n"
    assert ("TYPE-MISMATCH", "only cards and lists of cards can be moved, not a number") in errors(tiny_game(tmp_path, rules=rules))


# ---------------------------------------------------------------- whenever
WHENEVER = """\
procedure play():
    for p in players:
        add(p, 2)
    add(players[0], 3)
    add(players[1], 1)
    add(players[0], 10)

procedure add(p: player, n: number):
    p.points += n

whenever any(p in players where p.points >= 5):
    log "someone reached 5"
    for p in players where p.points >= 5:
        p.points -= 5
"""


def test_whenever_fires_each_time_its_condition_turns_true(tmp_path):
    session, lines = play(tiny_game(tmp_path, rules=WHENEVER))
    # P1: 2, 5 (fires: 0), 10 (fires again: 5, and the condition holds on: no third firing); P2: 2, 3
    assert lines == ["someone reached 5", "someone reached 5"]
    assert [pv["points"] for pv in session.state.player_vars] == [5, 3]


def test_whenever_can_end_the_game_at_once(tmp_path):
    rules = WHENEVER.replace('    log "someone reached 5"\n', '    win [p in players where p.points >= 5]\n')
    session, lines = play(tiny_game(tmp_path, rules=rules))
    assert session.result.winners == [0]
    assert [pv["points"] for pv in session.state.player_vars] == [5, 2]  # nothing ran after the win


def test_whenever_cannot_ask_for_decisions(tmp_path):
    rules = "procedure play():\n    pass\n\nwhenever true:\n    choose c in pile by players[0]\n"
    assert ("DSL-PLACE", "a 'whenever' body cannot ask for a decision") in errors(tiny_game(tmp_path, rules=rules))
    indirect = ("procedure play():\n    pass\n\nprocedure ask():\n    choose c in pile by players[0]\n\n"
                "whenever true:\n    ask()\n")
    root = tiny_game(tmp_path, rules=indirect, name="indirect")
    with pytest.raises(DiagnosticError) as err:
        load_compiled(str(root))
    assert err.value.diagnostics[0].code == "DSL-PLACE"


# ---------------------------------------------------------------- break and continue
LOOPS = """\
procedure play():
    let seen = []
    for c in pile:
        if c.value > 1:
            break
        seen = seen + [c.id]
    log "{seen}"
    let n = 0
    while true:
        n += 1
        if n % 2 == 0:
            continue
        if n > 6:
            break
        players[0].points += n
    repeat 5:
        players[1].points += 1
        if players[1].points == 3:
            break
"""


def test_break_and_continue_leave_the_innermost_loop(tmp_path):
    session, lines = play(tiny_game(tmp_path, rules=LOOPS))
    assert lines == ["coin 1, coin 2"]  # records without a name read as their ids in words
    assert [pv["points"] for pv in session.state.player_vars] == [1 + 3 + 5, 3]


def test_break_outside_a_loop_is_an_error(tmp_path):
    rules = "procedure play():\n    break\n    secretly for p in players:\n        repeat 2:\n            continue\n        break\n"
    found = errors(tiny_game(tmp_path, rules=rules))
    assert [c for c, m in found] == ["DSL-PLACE", "DSL-PLACE"]
    assert all("belongs inside a loop" in m for _, m in found)


def test_break_ends_a_menu_loop(tmp_path):
    rules = """\
procedure play():
    let taken = 0
    while true:
        choose by players[0]:
            take(c) for c in pile:
                move c to hand of players[0]
                taken += 1
            done:
                break
    log "took {taken}"
"""
    session, lines = play(tiny_game(tmp_path, rules=rules), answers=["take coin_1", "take gem", "done"])
    assert lines == ["took 2"] and session.finished


# ---------------------------------------------------------------- during
DURING = """\
procedure play():
    fight(players[0])
    log "after: {attacker} {strength}"

procedure fight(p: player):
    log "start: {attacker} {strength}"
    attacker = p
    strength += 3
    if p == players[0]:
        fight(next(p))
    log "end: {attacker} {strength}"
"""


def test_variables_during_a_procedure_start_fresh_and_are_restored(tmp_path):
    root = tiny_game(tmp_path, rules=DURING, variables="""
        attacker: {scope: game, type: player, during: fight}
        strength: {scope: game, type: number, initial: 1, during: fight}
    """)
    session, lines = play(root)
    assert lines == ["start: nobody 1", "start: nobody 1", "end: P2 4", "end: P1 4", "after: nobody 1"]


def test_during_must_name_a_procedure_of_a_game_variable(tmp_path):
    root = tiny_game(tmp_path, variables="""
        a: {scope: game, type: number, during: fihgt}
        b: {scope: player, type: number, during: play}
    """)
    found = errors(root)
    assert ("REF-UNDEF", "'during' names no procedure: 'fihgt'") in found
    assert ("VOCAB-VALUE", "only a game variable can last during a procedure, not a player one") in found


# ---------------------------------------------------------------- place_of, snapshot, modifiers reading themselves
def test_place_of_and_snapshot(tmp_path):
    rules = """\
procedure play():
    let gem = first(c in pile where c.id == "gem")
    let coin = first(c in pile where c.id == "coin_1")
    move gem to hand of players[1]
    move coin to under of gem
    let before = snapshot(pile)
    let live = pile
    let other = first(pile)
    let on_the_table = place_of(other)
    move other to hand of players[0]
    log "{place_of(gem)} {place_of(coin)} {on_the_table} {len(before)} {len(live)}"
"""
    session, lines = play(tiny_game(tmp_path, rules=rules))
    # the gem lies in a player's hand, the coin on the gem; a line told to everyone names the gem as a
    # spectator sees it, by where it lies
    assert lines == ["none hidden component in hand of P2 none 1 0"]


def test_a_modifier_reading_its_own_function_sees_the_unmodified_value(tmp_path):
    rules = """\
function worth(c: entity) = c.value

modify worth(c) if worth(c) > 2: value * 10

procedure play():
    log "{[worth(c) for c in pile]}"
"""
    session, lines = play(tiny_game(tmp_path, rules=rules))
    assert lines == ["1, 1, 30"]


def test_kept_values_of_modified_functions_follow_every_change(tmp_path):
    """Modified functions that draw no random numbers are computed once per state of the game: every kind
    of change (an assignment, a move, an ability that starts or ends) must be seen by the next call."""
    rules = """\
event round_end()

function total(p: player) = sum(c.value for c in hand of p)

modify total(p) if p.points > 0: value + p.points

procedure boost(p: player):
    until round_end:
        modify total(q) if q == p: value * 2

procedure play():
    let a = players[0]
    move first(pile) to hand of a
    log "{total(a)}"
    a.points = 5
    log "{total(a)}"
    move first(pile) to hand of a
    log "{total(a)}"
    boost(a)
    log "{total(a)}"
    round_end()
    log "{total(a)} {total(a)}"
"""
    session, lines = play(tiny_game(tmp_path, rules=rules))
    # with the boost, (2 doubled) + 5: the first declared modifier has the final word (section 10)
    assert lines == ["1", "6", "7", "9", "7 7"]


def test_whenever_that_sets_things_right_fires_again_at_the_next_change(tmp_path):
    """A body that makes its condition false again (keeping a track in step) is ready for the next change,
    even when that change comes before the next check."""
    rules = """\
procedure play():
    add(players[0], 1)
    players[0].points += 1
    add(players[1], 0)
    add(players[1], 0)
    log "track {players[0].track}, points {players[0].points}"

procedure add(p: player, n: number):
    p.points += n

whenever any(p in players where p.track != p.points):
    for p in players:
        p.track = p.points
"""
    session, lines = play(tiny_game(tmp_path, rules=rules, variables="track: {scope: player, type: number, initial: 0}"))
    assert lines == ["track 2, points 2"]


# ---------------------------------------------------------------- show ... to P
def test_show_lets_one_player_look_at_components_until_they_move(tmp_path):
    """`show X to P`: P sees X where it lies (another's hand, the top of a deck), nobody else does, and
    the knowledge ends when X moves; the choice P then makes names what P was shown."""
    from interpreter.present.views import can_see
    from interpreter.present.words import shown_to
    rules = """\
procedure play():
    move [c for c in pile] to hand of players[1]
    show hand of players[1] to players[0]
    choose c in hand of players[1] by players[0] ask "Take which?"
    log to players[0] "you took {c}"
    move c to hand of players[0]
    log to players[0] "left behind: {[x for x in hand of players[1]]}"
"""
    root = tiny_game(tmp_path, rules=rules)
    lines: list = []
    session = Session(load_compiled(str(root)), 3, 0, account=telling(lambda to, text: lines.append((to, text))))
    state = session.state
    shown = shown_to(session.pending, state)
    assert sorted(shown.options) == ["Coin (value 1) #1", "Coin (value 1) #2", "Gem (value 3)"], shown.options
    gem = state.entities["gem"]
    assert can_see(gem, 0) and can_see(gem, 1) and not can_see(gem, 2)
    session.answer(next(i for i, v in enumerate(session.pending.values) if v.id == "coin_1"))
    assert lines[0] == (0, "you took Coin #1")
    assert lines[1] == (0, "left behind: Coin #2, Gem")  # still where P1 looked at them
    assert can_see(state.entities["coin_1"], 0)  # in P1's own hand now


def test_show_needs_components_and_a_player(tmp_path):
    rules = """\
procedure play():
    show 3 to players[0]
    show pile to 2
"""
    found = errors(tiny_game(tmp_path, rules=rules))
    assert ("TYPE-MISMATCH", "'show' needs components, not a number") in found, found
    assert any(code == "TYPE-MISMATCH" and "player" in message for code, message in found), found


# ---------------------------------------------------------------- issue 21 §2: what a deck-builder needs
from interpreter.present.views import can_see, view  # noqa: E402

DECK_ZONES = "table: {scope: player, visibility: public}\ndiscard: {scope: player, visibility: {owner: all, others: top}}"


def run(root, procedure: str, state=None, players: int = 2):
    """Run one procedure of the game (on `state`, or on a fresh table) and return the session."""
    from interpreter.runtime import new_state
    game = load_compiled(str(root))
    lines: list = []
    session = Session(game, players, 0, state=state or new_state(game, players, seed=0), procedure=procedure, args=[],
                      account=telling(lambda to, text: lines.append(text)))
    session.lines = lines
    return session


REVEAL = """\
procedure play():
    move pile to hand of players[0]
procedure reveal_one():
    reveal first(c in hand of players[0] where c.id == "gem")
procedure pass_it():
    move first(c in hand of players[0] where c.id == "gem") to hand of players[1]
procedure back():
    move first(c in hand of players[1] where c.id == "gem") to hand of players[0]
"""


def test_reveal_from_a_hand_shows_the_card_to_everyone_until_it_moves(tmp_path):
    session = run(tiny_game(tmp_path, rules=REVEAL), "play")
    state = session.state
    gem, coin = state.entities["gem"], state.entities["coin_1"]
    assert not can_see(gem, 1) and not can_see(gem, None)
    run(tmp_path / "tiny", "reveal_one", state)
    assert can_see(gem, 1) and can_see(gem, None) and can_see(gem, 0)
    assert not can_see(coin, 1), "only the revealed card"
    assert view(state, 1)["zones"]["hand of P1"] == [None, None, "gem"]
    run(tmp_path / "tiny", "pass_it", state)  # it moved: P2 holds it now, and P1 no longer sees it
    assert can_see(gem, 1) and not can_see(gem, 0) and not can_see(gem, None)
    run(tmp_path / "tiny", "back", state)
    assert not can_see(gem, 1), "back in P1's hand, hidden again"


DISCARD = """\
procedure play():
    move pile to discard of players[0]
procedure bury():
    move first(c in discard of players[0] where c.id == "coin_1") to discard of players[0] at top face down
"""


def test_a_zone_its_owner_sees_all_of_and_the_others_its_top(tmp_path):
    root = tiny_game(tmp_path, rules=DISCARD, zones=DECK_ZONES)
    state = run(root, "play").state
    assert [e.id for e in state.zone("discard", 0)] == ["coin_1", "coin_2", "gem"]
    assert view(state, 0)["zones"]["discard of P1"] == ["coin_1", "coin_2", "gem"]
    assert view(state, 1)["zones"]["discard of P1"] == ["coin_1", None, None]
    assert view(state, None)["zones"]["discard of P1"] == ["coin_1", None, None]
    assert "coin_2" not in view(state, 1)["entities"] and "gem" not in view(state, 1)["entities"]
    run(root, "bury", state)  # a face-down top shows nobody but its owner, who put it there
    assert view(state, 1)["zones"]["discard of P1"] == {"count": 3}
    assert view(state, 0)["zones"]["discard of P1"] == ["coin_1", "coin_2", "gem"]


def test_zone_visibility_is_checked_by_the_schema(tmp_path):
    root = tiny_game(tmp_path, zones="discard: {scope: player, visibility: {owner: all, others: some}}")
    assert errors(root) == [("SCHEMA-ENUM", "'some' is not one of the allowed values of vocabulary.zones.discard.visibility.others")]


CHOOSE_N = """\
procedure play():
    let p = players[0]
    move pile to hand of p
    choose exactly len(hand of p) - 1 kept in hand of p by p ask "Keep which?"
    move [c in hand of p where c not in kept] to pile
    p.points = len(kept)
"""


def test_choose_exactly_a_computed_number(tmp_path):
    session, _ = play(tiny_game(tmp_path, rules=CHOOSE_N))
    d = session.pending
    assert d.kind == "pick" and "done" not in d.labels and len(d.labels) == 3
    session.answer("gem")
    assert "done" not in session.pending.labels, "exactly two: no stopping after one"
    session.answer(session.pending.labels[0])
    assert session.pending is None and session.state.player_vars[0]["points"] == 2
    assert [e.id for e in session.state.zone("pile")] == ["coin_2"]


def test_choose_exactly_checks_its_number(tmp_path):
    rules = 'procedure play():\n    choose exactly "two" cs in pile by players[0]\n'
    assert ("TYPE-MISMATCH", "expected a number here, found a text") in errors(tiny_game(tmp_path, rules=rules))


WHERE = """\
event attack(p: player)
procedure play():
    move first(c in pile where c.id == "moat") to hand of players[1]
    move first(c in pile where c.id == "guard") to hand of players[1]
    attack(players[1])
    move first(c in hand of players[1] where c.id == "guard") to table of players[1]
    attack(players[1])
"""
WHERE_CARDS = """\
- id: moat
  kind: card
  source: designed
  effect: |
    when attack(p) in hand if p == you:
        log "moat"
- id: guard
  kind: card
  source: designed
  effect: |
    when attack(p) if p == you:
        log "guard"
"""


def test_an_ability_says_where_it_works(tmp_path):
    root = tiny_game(tmp_path, rules=WHERE, records=WHERE_CARDS, zones=DECK_ZONES,
                     kinds="card: {starts_in: pile, active_in: [table]}")
    _, lines = play(root)
    # the moat works from the hand only (its ability says so); the guard where its kind works, on the table
    assert [line.rsplit(": ", 1)[-1] for line in lines] == ["moat", "moat", "guard"]  # lines may name their card first


def test_where_an_ability_works_is_checked(tmp_path):
    records = WHERE_CARDS.replace("in hand if", "in hnad if")
    root = tiny_game(tmp_path, rules=WHERE, records=records, zones=DECK_ZONES, kinds="card: {starts_in: pile}")
    found = [(d.code, d.message, d.hint) for d in load_game(root).report.diagnostics]
    assert ("REF-UNDEF", "unknown zone 'hnad'", "did you mean 'hand'?") in found
    rules = WHERE + "when attack(p) in hand:\n    log \"rules\"\n"
    assert ("DSL-PLACE", "only a card's ability can say in which zones it works") in errors(
        tiny_game(tmp_path, rules=rules, records=WHERE_CARDS, zones=DECK_ZONES, name="rules_text",
                  kinds="card: {starts_in: pile, active_in: [table]}"))
    # an ability that names its zones is not inactive, though its kind has no active_in
    fine = tiny_game(tmp_path, rules=WHERE, records=WHERE_CARDS.split("- id: guard")[0], zones=DECK_ZONES,
                     kinds="card: {starts_in: pile}", name="inactive")
    assert not [d for d in load_game(fine).report.diagnostics if d.code == "DSL-INACTIVE"]
