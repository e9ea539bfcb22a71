"""Game state as data: JSON round trips, digests, and what each player may see."""
from __future__ import annotations

import json
import random

import pytest

from interpreter.runtime import Session
from interpreter.core.state import State, shuffle_items
from interpreter.present.views import view


def records_of(game):
    """entity id -> (record id, attrs), rebuilt from the content (not from the state being restored)."""
    return {eid: (rec.id, rec.data) for eid, rec in game.content.entity_ids.items()}


def round_trip(game, state: State) -> State:
    text = json.dumps(state.to_json(), ensure_ascii=False)
    return State.from_json(game.content.vocabulary, records_of(game), json.loads(text))


def advance(session, n, rng):
    for _ in range(n):
        if session.pending is None:
            return
        session.answer(rng.randrange(len(session.pending.values)))


def snapshots(kb, players, seed, variants=()):
    """States after setup, early, mid-game and at the end of one random game."""
    session = Session(kb, players, seed, variants)
    rng = random.Random(seed)
    yield "after setup", session
    for label, steps in (("early", 7), ("mid-game", 40), ("late", 40), ("end", 10_000)):
        advance(session, steps, rng)
        yield label, session


@pytest.mark.parametrize("players, seed, variants", [(2, 1, ()), (4, 2, ()), (5, 3, ("experienced",))])
def test_json_round_trip(kb, players, seed, variants):
    seen_garrison = False
    for label, session in snapshots(kb, players, seed, variants):
        state = session.state
        data = state.to_json()
        restored = round_trip(kb, state)
        assert restored.to_json() == data, label
        assert restored.digest() == state.digest(), label
        # zones keep their order and entities their place
        for z in state.all_zones():
            twin = restored.zone_by_key(z.key)
            assert [e.id for e in twin.items] == [e.id for e in z.items], (label, z.key)
        assert restored.game_vars == state.game_vars
        assert restored.player_vars == state.player_vars
        assert restored.rng.getstate() == state.rng.getstate(), label
        seen_garrison |= any(e.zones.get("garrison") for e in state.entities.values())
    assert seen_garrison, "the snapshots should include garrisons (entity-scoped zones)"


def test_round_trip_preserves_the_random_generator(kb):
    session = Session(kb, 3, 9)
    advance(session, 20, random.Random(0))
    restored = round_trip(kb, session.state)
    assert [restored.rng.random() for _ in range(5)] == [session.state.rng.random() for _ in range(5)]


def test_round_trip_of_finished_game(kb):
    session = Session(kb, 3, 4)
    advance(session, 10_000, random.Random(4))
    assert session.state.finished
    restored = round_trip(kb, session.state)
    assert restored.finished and restored.winners == session.state.winners
    assert restored.player_vars == session.state.player_vars


def test_restored_state_plays_on_identically(kb):
    """A state restored from JSON behaves like the original: the same turn with the same answers."""
    session = Session(kb, 3, 6)
    advance(session, 25, random.Random(6))
    original = session.state
    restored = round_trip(kb, original)
    for procedure, args in (("turn", [0]), ("turn", [1]), ("setup", [])):  # setup shuffles: uses the generator
        a = Session(kb, 3, state=original, procedure=procedure, args=args)
        b = Session(kb, 3, state=restored, procedure=procedure, args=args)
        rng_a, rng_b = random.Random(1), random.Random(1)
        while a.pending is not None:
            assert a.pending.labels == b.pending.labels
            a.answer(rng_a.randrange(len(a.pending.values)))
            b.answer(rng_b.randrange(len(b.pending.values)))
        assert b.pending is None
        assert restored.digest() == original.digest(), procedure


def test_digest_is_stable_and_sensitive(kb):
    session = Session(kb, 4, 8)
    first = session.state.digest()
    assert session.state.digest() == first, "computing a digest changes nothing"
    assert Session(kb, 4, 8).state.digest() == first, "same seed, same state"
    assert Session(kb, 4, 9).state.digest() != first
    state = session.state
    deck = state.zone("deck")
    card = deck.items[0]
    state.place(card, deck)  # the top card to the bottom: same cards, other order
    assert state.digest() != first
    state.place(card, deck, at_top=True)
    assert state.digest() == first
    state.player_vars[0]["points"] += 1
    assert state.digest() != first


# ---------------------------------------------------------------- what a player sees

def hidden_ids(state, viewer):
    """Ids the viewer must not see: other players' hands and hidden titles, the deck, the title pool, the box."""
    out = set()
    for z in state.all_zones():
        if z.name in ("deck", "title_pool", "box") or (z.name in ("hand", "hidden_titles") and z.owner != viewer):
            out.update(e.id for e in z.items)
    return out


@pytest.mark.parametrize("variants", [(), ("experienced",)])
def test_view_hides_hands_and_deck(kb, variants):
    session = Session(kb, 3, 5, variants)
    advance(session, 30, random.Random(5))
    state = session.state
    for viewer in range(3):
        v = view(state, viewer)
        text = json.dumps(v, ensure_ascii=False)
        secret = hidden_ids(state, viewer)
        assert secret, "there must be something hidden to test"
        leaked = [eid for eid in secret if f'"{eid}"' in text]
        assert leaked == [], f"P{viewer + 1} sees {leaked}"
        zones = v["zones"]
        me = f"P{viewer + 1}"
        assert zones[f"hand of {me}"] == [e.id for e in state.zone("hand", viewer)]
        for other in range(3):
            if other != viewer:
                assert zones[f"hand of P{other + 1}"] == {"count": len(state.zone("hand", other))}
        assert zones["deck"] == {"count": len(state.zone("deck"))}
        if variants:
            assert zones[f"hidden_titles of {me}"] == [e.id for e in state.zone("hidden_titles", viewer)]
            other = (viewer + 1) % 3
            assert zones[f"hidden_titles of P{other + 1}"] == {"count": 1}
        # public zones are shown in full: everyone's domains, garrisons, titles, the title row
        for seat in range(3):
            domains = [e.id for e in state.zone("domains", seat)]
            if domains:
                assert zones[f"domains of P{seat + 1}"] == domains
        for e in state.entities.values():
            if e.zones.get("garrison") and e.zone is not None and e.zone.name == "domains":
                assert zones[f"garrison of {e.id}"] == [g.id for g in e.zones["garrison"]]
        if len(state.zone("title_row")):
            assert zones["title_row"] == [t.id for t in state.zone("title_row")]


def test_spectator_sees_only_public_zones(kb):
    session = Session(kb, 2, 3)
    advance(session, 15, random.Random(3))
    state = session.state
    v = view(state, None)
    assert v["viewer"] is None
    text = json.dumps(v)
    for seat in range(2):
        assert v["zones"][f"hand of P{seat + 1}"] == {"count": len(state.zone("hand", seat))}
        for e in state.zone("hand", seat):
            assert f'"{e.id}"' not in text


def test_view_lists_visible_entities_only(kb):
    session = Session(kb, 4, 12)
    advance(session, 20, random.Random(12))
    state = session.state
    v = view(state, 2)
    hidden = hidden_ids(state, 2)
    assert not (set(v["entities"]) & hidden)
    assert {e.id for e in state.zone("hand", 2)} <= set(v["entities"])


def test_face_down_card_is_known_only_to_its_holder(kb):
    """A card turned face down stays known to whoever held it when it was turned down."""
    session = Session(kb, 3, 0, start=False)
    state, rt = session.state, session.rt
    card = state.entities["obelisk_1_1"]
    rt.move(card, state.zone("hand", 1), False, None)
    assert [e is not None for e in view(state, 1)["zones"]["hand of P2"]] == [True]
    rt.move(card, state.zone("discard"), False, "down")  # from P2's hand to a public zone, face down
    assert card.face_down
    assert view(state, 1)["zones"]["discard"] == ["obelisk_1_1"]
    assert view(state, 1)["entities"]["obelisk_1_1"].get("face_down") is True
    for viewer in (0, 2, None):
        v = view(state, viewer)
        assert v["zones"]["discard"] == {"count": 1}
        assert "obelisk_1_1" not in json.dumps(v)
    # it keeps its memory through the JSON round trip
    restored = round_trip(kb, state)
    assert view(restored, 1)["zones"]["discard"] == ["obelisk_1_1"]
    assert view(restored, 0)["zones"]["discard"] == {"count": 1}
    # moving it on face down does not tell anybody new; turning it face up shows it to all
    rt.move(card, state.zone("removed"), False, "down")
    assert view(state, 1)["zones"]["removed"] == ["obelisk_1_1"]
    assert view(state, 0)["zones"]["removed"] == {"count": 1}
    rt.move(card, state.zone("discard"), False, "up")
    for viewer in (0, 1, 2, None):
        assert view(state, viewer)["zones"]["discard"] == ["obelisk_1_1"]


def test_card_turned_down_from_the_deck_is_known_to_nobody(kb):
    session = Session(kb, 2, 0, start=False)
    state, rt = session.state, session.rt
    card = state.entities["obelisk_2_1"]
    rt.move(card, state.zone("deck"), False, None)
    rt.move(card, state.zone("discard"), False, "down")
    for viewer in (0, 1, None):
        assert view(state, viewer)["zones"]["discard"] == {"count": 1}


def test_face_down_among_face_up_cards(kb):
    """A zone mixing open and face-down cards shows null in the hidden card's place, nothing else."""
    session = Session(kb, 2, 0, start=False)
    state, rt = session.state, session.rt
    a, b = state.entities["obelisk_1_1"], state.entities["obelisk_1_2"]
    rt.move(a, state.zone("discard"), False, None)
    rt.move(b, state.zone("hand", 0), False, None)
    rt.move(b, state.zone("discard"), False, "down")
    assert view(state, 1)["zones"]["discard"] == ["obelisk_1_1", None]
    assert view(state, 0)["zones"]["discard"] == ["obelisk_1_1", "obelisk_1_2"]


def test_shuffle_items_draws_as_random_shuffle_does():
    """The inline shuffle of a plain random.Random leaves the list and the generator as Random.shuffle does."""
    for seed in range(6):
        for n in list(range(40)) + [64, 65, 109, 200, 257]:
            mine, theirs = random.Random(seed * 1000 + n), random.Random(seed * 1000 + n)
            a, b = list(range(n)), list(range(n))
            shuffle_items(mine, a)
            theirs.shuffle(b)
            assert a == b and mine.getstate() == theirs.getstate()

    class Own(random.Random):  # a generator of its own kind keeps its own shuffle
        def shuffle(self, x):
            x.reverse()
    items = [1, 2, 3]
    shuffle_items(Own(1), items)
    assert items == [3, 2, 1]
