"""AGoT: random full games at every player count (with and without Tides of Battle), exact replays, hidden
information, the planning waves. tests/test_agot_westeros.py covers the Westeros phase, wildlings and the Raven."""
from __future__ import annotations

import random

import pytest

from interpreter.runtime.gamelog import make_log, replay
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling
from interpreter.core.state import encode
from interpreter.present.views import can_see, view

GAMES_PER_COUNT = 20  # per player count and variant; soak runs use `rules simulate agot`


@pytest.fixture(scope="module")
def game():
    return load_compiled("agot")


def play_random(game, players: int, seed: int, variants=(), each=None, account=None) -> Session:
    session = Session(game, players, seed, variants, account=telling(account))
    rng = random.Random(seed + 1)
    while session.pending is not None:
        if each is not None:
            each(session)
        session.answer(rng.randrange(len(session.pending.values)))
    return session


@pytest.mark.parametrize("variants", [(), ("tides_of_battle",)], ids=["default", "tides_of_battle"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_run_without_error(game, players, variants):
    rounds = []
    for seed in range(GAMES_PER_COUNT):
        session = play_random(game, players, seed, variants)
        state = session.state
        assert state.finished and len(session.result.winners) == 1
        assert state.game_vars["round"] == 11 or max(pv["castles"] for pv in state.player_vars) >= 7
        rounds.append(state.game_vars["round"])
        # the decks: 30 Westeros cards, 3 drawn in each Westeros phase; 9 wildling cards; 24 Tides cards
        played = state.game_vars["round"] - 1 if state.game_vars["round"] == 11 else state.game_vars["round"]
        cards = [e for e in state.entities.values() if e.kind == "westeros_card"]
        assert len(cards) == 30
        assert sum(1 for e in cards if e.zone.name in ("westeros_discard", "westeros_revealed")) == 3 * (played - 1)
        wildlings = [e for e in state.entities.values() if e.kind == "wildling_card"]
        assert len(wildlings) == 9 and all(e.zone.name in ("wildling_deck", "wildling_revealed") for e in wildlings)
        assert 0 <= state.game_vars["wildling_threat"] <= 12 and state.game_vars["wildling_threat"] % 2 == 0
        for seat in range(players):
            # the 20-token limit: available + on the board + in the pool is always 20
            tokens = [e for e in state.entities.values() if e.kind == "power_token" and e.vars["owner"] == seat]
            assert len(tokens) == 20
        # every unit stands in an area, attacks (marching) or waits in its own house's reserve,
        # and one house holds each area
        for e in state.entities.values():
            if e.kind == "unit" and e.vars["owner"] is not None:
                assert e.zone.name in ("units", "marching") or (e.zone.name == "reserve" and e.zone.owner == e.vars["owner"]), e.id
            if e.kind in ("land", "sea", "port"):
                owners = {u.vars["owner"] for u in e.zones["units"].items} if "units" in e.zones else set()
                assert len(owners) <= 1, e.id
    assert rounds


@pytest.mark.parametrize("variants", [(), ("port_ships_survive", "siege_engines_as_casualties"),
                                      ("tides_of_battle", "tiebreak_ru")],
                         ids=["default", "variants", "tides_tiebreak_ru"])
def test_logged_games_replay_exactly(game, variants):
    for players, seed in ((3, 1), (6, 2)):
        session = play_random(game, players, seed, variants)
        outcome = replay(make_log(session, "agot"))
        assert outcome.matches, outcome.reason


def _check_view(session: Session) -> None:
    state = session.state
    # can_see is what view() shows of each entity (checked against view() itself every 25 decisions)
    full = len(session.history) % 25 == 0
    for seat in range(state.players):
        shown = set(view(state, seat)["entities"]) if full else None
        for e in state.entities.values():
            zone = e.zone
            if zone is None:
                continue
            sees = (e.id in shown) if full else can_see(e, seat)
            if e.face_down and e.seen_by != seat:
                assert not sees, f"P{seat + 1} sees the face-down {e.id}"
            if zone.name == "orders" and zone.owner != seat and e.seen_by != seat:
                assert not sees, f"P{seat + 1} sees {e.id} in {zone.key}"
            if zone.name == "house_hand":
                # open information, except while a combat's cards are chosen: then face down, known to the owner
                assert sees == (not e.face_down or e.seen_by == seat), f"P{seat + 1} and {e.id} in {zone.key}"
            if zone.name in ("order_slot", "in_play") and e.face_down and e.seen_by == seat:
                assert sees, f"P{seat + 1} no longer sees its own {e.id}"
    # public variables must not name a face-down component
    text = repr(encode(state.game_vars)) + repr([encode(v) for v in state.player_vars])
    for e in state.entities.values():
        if e.face_down:
            assert f"'{e.id}'" not in text


@pytest.mark.parametrize("players", [3, 6])
def test_nobody_sees_face_down_orders_or_a_chosen_house_card_but_hands_are_open(game, players):
    checked = {"orders": 0, "cards": 0}

    def each(session):
        state = session.state
        down = [e for e in state.entities.values() if e.face_down]
        checked["orders"] += any(e.kind == "order" for e in down)
        d = session.pending
        if d.secret and all(getattr(v, "kind", None) == "house_card" for v in d.values):
            # a House card is being chosen: no chosen card lies anywhere yet (answers of a wave
            # apply together), so nobody can learn the other side's choice; only a side whose hand
            # held a single card (not asked) has it face down in play already
            checked["cards"] += 1
            for seat, z in enumerate(state.player_zones["in_play"]):
                if len(z):
                    assert seat != d.player and not len(state.zone("house_hand", seat)), z.key
                    assert all(c.face_down and c.seen_by == seat for c in z.items)
            # and both hands lie face down: the card that leaves a hand cannot be read off the others
            assert all(c.face_down and c.seen_by == d.player for c in state.zone("house_hand", d.player).items)
        _check_view(session)

    for seed in range(2):
        play_random(game, players, seed, each=each)
    assert checked["orders"] > 0 and checked["cards"] > 0, "the games reached face-down orders and House card choices"


def test_public_log_names_no_order_before_the_reveal(game):
    lines = []
    play_random(game, 4, 5, account=lambda to, text: lines.append((to, text)))
    names = {"March", "Defense", "Support", "Raid", "Consolidate Power"}
    planning = False
    for to, text in lines:
        if "Planning phase" in text:
            planning = True
        elif " reveals " in text:
            planning = False
        elif planning and to is None:
            assert not any(n in text for n in names), text


def test_orders_are_given_in_one_secret_wave(game):
    session = Session(game, 6, 3, ("houses_fixed",))
    state = session.state
    first_wave = []
    for _ in range(6):
        d = session.pending
        assert d.secret
        first_wave.append(d.player)
        # nothing is laid before everyone has answered
        assert not any(e.kind == "order" and e.zone.name == "order_slot" for e in state.entities.values())
        session.answer(0)
    assert sorted(first_wave) == list(range(6))
    laid = [e for e in state.entities.values() if e.kind == "order" and e.zone.name == "order_slot"]
    assert len(laid) == 6 and all(e.face_down for e in laid)
    assert {e.seen_by for e in laid} == set(range(6))


def test_too_few_orders_are_given_in_turn_order(game):
    session = Session(game, 6, 3, ("houses_fixed",), start=False)
    session.call("setup")
    state = session.state
    greyjoy = 3
    spots = ["seagard", "the_twins", "flints_finger", "riverrun", "the_fingers", "castle_black", "karhold"]
    footmen = [u for u in state.zone("reserve", greyjoy).items if u.attrs["unit_type"] == "footman"]
    for unit, area in zip(footmen, spots):
        state.place(unit, state.zone("units", state.entities[area]))
    session.call("planning")
    asked = []
    while session.pending is not None:
        d = session.pending
        if "keep_the_raven" in d.labels:  # the Messenger Raven, once the orders are revealed
            session.answer("keep_the_raven")
            continue
        assert not d.secret
        if not asked or asked[-1] != d.player:
            asked.append(d.player)
        session.answer(d.labels[-1] if d.player == greyjoy else 0)
    throne = state.game_vars["throne_track"]
    assert asked == [p for p in throne if p in asked], "houses give their orders one after another in turn order"
    greyjoy_areas = [a for a in spots + ["greywater_watch", "pyke", "ironmans_bay", "port_of_pyke"]]
    with_order = [a for a in greyjoy_areas if state.zone("order_slot", state.entities[a]).items]
    assert len(with_order) == 10


def test_a_round_can_be_followed_in_the_log(game):
    lines = []
    for seed in range(6):
        play_random(game, 6, seed, account=lambda to, text: lines.append(text))
        if any("Combat in" in t for t in lines):
            break
    text = "\n".join(lines)
    for needed in ("Planning phase", "has given", " reveals ", "Action phase", "Combat in", "Initial strength",
                   "wins the combat", "consolidates power", "Clean-up"):
        assert needed in text, needed


IMMEDIATE = {"mace_tyrell", "doran_martell", "queen_of_thorns", "aeron_damphair"}


def _biased_game(game, seed: int) -> Session:
    """A random game whose agent plays Tyrion and the 'immediately' cards whenever it can, and uses them."""
    session = Session(game, 6, seed, trace=True)
    rng = random.Random(seed)
    while session.pending is not None:
        d = session.pending
        ids = [getattr(v, "id", None) for v in d.values]
        labels = d.labels
        pick = next((i for i, x in enumerate(ids) if x == "tyrion_lannister"), None)
        if pick is None:
            pick = next((i for i, x in enumerate(ids) if x in IMMEDIATE), None)
        if pick is None:
            pick = next((i for i, x in enumerate(labels) if x in ("cancel_card", "replace_aeron")), None)
        session.answer(pick if pick is not None else rng.randrange(len(d.values)))
    return session


def test_explain_shows_house_card_abilities_in_their_class_order(game, tmp_path, capsys):
    """`rules explain` on a logged combat: Tyrion's cancel runs before the other side's 'immediately' ability."""
    from interpreter.cli import main
    from interpreter.runtime.gamelog import write_log

    for seed in range(200):
        session = _biased_game(game, seed)
        entries = [e for e in session.rt.trace if e["kind"] == "trigger" and e["event"] == "reveal_house_cards"
                   and len(e["order"]) > 1]
        if entries:
            break
    else:
        pytest.fail("no combat with Tyrion against an 'immediately' card in 200 games")
    path = tmp_path / "agot.json"
    write_log(make_log(session, "agot"), path)
    assert main(["explain", str(path)]) == 0
    out = capsys.readouterr().out
    block = out[out.index("trigger on reveal house cards,"):]
    runs, waits = block.splitlines()[1], block.splitlines()[2]
    assert "Tyrion Lannister" in runs and "timing cancel" in runs, block
    names = {game.content.entity_ids[c].data["name"].get("en") for c in IMMEDIATE}
    assert any(n in waits for n in names) and "timing immediately" in waits, block
