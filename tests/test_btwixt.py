"""B'Twixt: the card set, what each player may see, and random games in every variant."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from dsl.loader import load_game
from interpreter.runtime.games import load_compiled, locate
from interpreter.runtime.gamelog import make_log, replay
from interpreter.runtime import Session
from interpreter.present.words import telling
from interpreter.present.views import view

GAMES_PER_CASE = 60  # per player count and variant; thousands are a soak run (README.md, "Soak runs")
VARIANTS = [(), ("advanced",), ("draft",), ("council_of_kings",), ("ally_row",), ("quick",)]


@pytest.fixture(scope="module")
def game():
    return load_compiled("btwixt")


def test_content_is_clean():
    content = load_game(locate("btwixt"))
    assert [d.render() for d in content.report.diagnostics] == []


def test_card_counts(game):
    entities = game.content.entity_ids
    by_kind = Counter(rec.data["kind"] for rec in entities.values())
    colors = Counter(rec.data.get("color") for rec in entities.values() if rec.data["kind"] == "influence")
    assert by_kind["ruler"] == 9
    assert by_kind["ally"] == 50
    assert by_kind["token"] == 54
    assert colors["red"] + colors["green"] + colors["purple"] == 62
    assert colors["blue"] == 11
    assert colors["white"] == 36
    per_ruler = Counter(rec.data["belongs_to"] for rec in entities.values() if rec.data.get("color") == "white")
    assert sorted(per_ruler.values()) == [4] * 9
    assert set(per_ruler) == {rec.id for rec in game.content.records if rec.data["kind"] == "ruler"}


def test_every_card_has_text_and_source(game):
    for rec in game.content.records:
        if rec.data["kind"] in ("ally", "influence"):
            assert rec.data.get("text"), rec.id
            assert rec.data.get("source"), rec.id


def play_random(game, players: int, seed: int, variants=(), until=None) -> Session:
    session = Session(game, players, seed, variants, keep_labels=until is None)
    rng = random.Random(seed + 1)
    while session.pending is not None:
        if until is not None and until(session):
            break
        session.answer(rng.randrange(len(session.pending.values)))
    return session


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "basic")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_run_without_error(game, players, variants):
    winners = Counter()
    for seed in range(GAMES_PER_CASE):
        session = play_random(game, players, seed, variants)
        assert session.state.finished
        assert session.result.winners, "every game ends with at least one winner"
        winners.update(session.result.winners)
        scores = session.result.scores
        best = max(scores)
        assert all(scores[w] == best for w in session.result.winners)
    assert len(winners) == players, "every seat wins some games"


def test_hidden_information(game):
    """Hands are hidden from others; token values from everyone, their owner included; piles are public."""
    session = play_random(game, 4, 7, until=lambda s: any(
        e.kind == "token" and e.zone.name == "council" for e in s.state.entities.values()) and
        any(len(z) for z in s.state.player_zones["bid_pile"]))
    state = session.state
    tokens = [e for e in state.entities.values() if e.kind == "token" and e.zone.name == "council"]
    assert tokens and all(t.face_down for t in tokens)
    for seat in range(4):
        seen = view(state, seat)
        visible = set(seen["entities"])
        assert not visible & {t.id for t in tokens}, "no one sees a power token's identity or value"
        for other in range(4):
            hand = {e.id for e in state.player_zones["hand"][other].items}
            if other == seat:
                assert hand <= visible
            else:  # except the cards a Blackmail showed this seat (`show hand of r to you`), until they move
                shown = {e.id for e in state.player_zones["hand"][other].items if e.seen_by == seat}
                assert not (hand - shown) & visible
        for q in range(4):
            assert {e.id for e in state.player_zones["bid_pile"][q].items} <= visible
            councils = {e.id for e in state.player_zones["council"][q].items if e.kind == "ally"}
            assert councils <= visible
        assert not {e.id for e in state.game_zones["influence_deck"].items} & visible


def test_tokens_revealed_at_the_end(game):
    session = play_random(game, 4, 3)
    tokens = [e for e in session.state.entities.values() if e.kind == "token" and e.zone.name == "council"]
    assert tokens and not any(t.face_down for t in tokens)
    assert set(view(session.state, 0)["entities"]) >= {t.id for t in tokens}


def final_scoring_log(game, councils: list[list[str]]) -> tuple[Session, list[str]]:
    """Lay the given components into each seat's council (council of P1 first), score, and keep the log."""
    lines = []
    session = Session(game, len(councils), 1, start=False, account=telling(lambda to, text: lines.append(text)))
    state = session.state
    for seat, ids in enumerate(councils):
        for eid in ids:
            state.place(state.entities[eid], state.zone("council", seat))
    session.call("final_scoring")
    return session, lines


def test_equal_final_scores_are_explained_in_the_log(game):
    """Rulebook, «Определите победителя»: the log names each ruler's weaker and stronger council and tells
    which tie-break decided. Councils: P1|P2 10, P2|P3 20, P3|P4 5, P4|P1 20; P1 and P2 tie on 10 and 20,
    P1 has 7 allies and P2 6."""
    session, lines = final_scoring_log(game, [
        ["eddard_stark", "ser_barristan", "hodor"],
        ["khal_drogo", "tywin_lannister", "walder_frey", "power_2_1"],
        ["gendry", "davos_seaworth"],
        ["robb_stark", "jaime_lannister", "stannis_baratheon", "mance_rayder"]])
    assert session.result.winners == [0]
    assert ("P1: weaker council 10 (council of P1 and P2), "
            "stronger council 20 (council of P4 and P1), 7 allies") in lines
    assert ("P2: weaker council 10 (council of P1 and P2), "
            "stronger council 20 (council of P2 and P3), 6 allies") in lines
    tie = [line for line in lines if " tie with " in line]
    assert len(tie) == 2, lines
    assert tie[0] == "P1, P2 tie with weaker councils of 10; their stronger councils decide: 20, 20"
    assert tie[1] == "P1, P2 tie with stronger councils of 20 too; their allies in both councils decide: 7, 6"
    assert lines[-1] == "winner: P1 (tie-break: the most allies in both councils)"


def test_equal_councils_and_shared_victory_are_told(game):
    """Three rulers, three councils of power 5 with one ally each: every ruler's councils are equal, every
    tie-break is equal too, and the three share the victory."""
    session, lines = final_scoring_log(game, [["robb_stark"], ["jaime_lannister"], ["stannis_baratheon"]])
    assert session.result.winners == [0, 1, 2]
    assert "P1: both councils 5 (council of P1 and P2; council of P3 and P1), 2 allies" in lines
    assert "P1, P2, P3 have 2 allies each: they share the victory" in lines
    assert lines[-1] == "winners: P1, P2, P3 (equal in every tie-break: a shared victory)"


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "+".join(v) or "basic")
def test_logged_games_replay_exactly(game, variants):
    for seed in (1, 2):
        session = play_random(game, 5, seed, variants)
        outcome = replay(make_log(session, "btwixt"))
        assert outcome.matches, outcome.reason


def test_replay_detects_a_changed_decision(game):
    session = play_random(game, 4, 9)
    log = make_log(session, "btwixt")
    for entry in log["decisions"]:
        if entry[0] > 0:
            entry[0] -= 1
            entry[1] = ""
            break
    outcome = replay(log)
    assert not outcome.matches


def first_pass(session, rng) -> tuple[list, list]:
    """Answer the first wave of draft picks; return the hands before it and the hands after the pass."""
    state = session.state
    n = state.players
    before = [[e.id for e in z.items] for z in state.player_zones["hand"]]
    picks = []
    for _ in range(n):
        d = session.pending
        assert d.secret, "draft picks are secret and simultaneous"
        i = rng.randrange(len(d.values))
        picks.append((d.player, d.values[i].id))
        session.answer(i)
    for seat, card in picks:
        before[seat].remove(card)
    after = [sorted(e.id for e in z.items) for z in state.player_zones["hand"]]
    return [sorted(h) for h in before], after


@pytest.mark.parametrize("players", [4, 5])
def test_draft_alternates_direction_each_season(game, players):
    """Setup drafts to the left; every new season drafts the other way (with 5-6 players: left, then right)."""
    session = Session(game, players, 8, ("draft",), start=False)
    rng = random.Random(3)
    n = players

    def finish():
        while session.pending is not None:
            session.answer(rng.randrange(len(session.pending.values)))

    session.call("setup")
    while not session.pending.secret:  # rulers are chosen first
        session.answer(0)
    kept, received = first_pass(session, rng)
    assert all(received[(q + 1) % n] == kept[q] for q in range(n)), "at setup the cards go to the left"
    finish()
    session.call("next_season")
    kept, received = first_pass(session, rng)
    assert all(received[(q - 1) % n] == kept[q] for q in range(n)), "the next season they go to the right"
    finish()
    assert all(len(z) == 10 for z in session.state.player_zones["hand"])
