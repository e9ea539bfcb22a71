"""AGoT part 2: what the Westeros phase, the wildlings, the Messenger Raven and Tides of Battle keep hidden,
the restrictions at every planning decision, and a log a player can follow round by round.

Random full games (3-6 players, with and without tides_of_battle) and exact replays are in tests/test_agot.py.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.runtime.gamelog import make_log, write_log
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling
from interpreter.present.views import can_see, view

HIDDEN_ZONES = ("westeros_deck_1", "westeros_deck_2", "westeros_deck_3", "wildling_deck", "tides_deck", "tides_discard")
OWNER_ZONES = ("tides_hand", "raven_peek", "orders")
# House cards in hand are open information, but lie face down (each known to its owner) while a combat's
# cards are chosen: content/agot/rules/combat.rules, reveal_house_cards
OPEN_ZONES = ("house_hand",)


@pytest.fixture(scope="module")
def game():
    return load_compiled("agot")


def _restricted(order, restriction) -> bool:
    t, star, bonus = order.attrs["order_type"], order.attrs["star"], order.attrs["bonus"]
    return {"no_defense": t == "defense", "no_march_plus_one": t == "march" and bonus == 1 and star,
            "no_raid": t == "raid", "no_support": t == "support",
            "no_consolidate_power": t == "consolidate_power"}.get(restriction, False)


class Watcher:
    """Checks every decision of a random game: hidden decks, private zones, bids before the reveal, restrictions."""

    def __init__(self):
        self.seen = {"westeros": 0, "wildling": 0, "tides_hand": 0, "peek": 0, "bid_waves": 0, "restricted": 0,
                     "open_hand": 0, "hidden_hand": 0}
        self._wave_power = None
        self._wave_asked: set = set()

    def __call__(self, session: Session) -> None:
        state = session.state
        d = session.pending
        # can_see is what view() shows of each entity; view() itself is checked where a card is private
        private = any(state.zone(z, seat).items for z in ("tides_hand", "raven_peek") for seat in range(state.players))
        views = [set(view(state, seat)["entities"]) for seat in range(state.players)] if private else None
        for e in state.entities.values():
            zone = e.zone
            if zone is None or zone.name not in HIDDEN_ZONES + OWNER_ZONES + OPEN_ZONES:
                continue
            shown = [(e.id in v) for v in views] if views else [can_see(e, seat) for seat in range(state.players)]
            if zone.name in OPEN_ZONES:
                self.seen["open_hand" if not e.face_down else "hidden_hand"] += 1
                for seat, sees in enumerate(shown):
                    assert sees == (not e.face_down or e.seen_by == seat), f"P{seat + 1} and {e.id} in {zone.key}"
            elif zone.name in HIDDEN_ZONES:
                self.seen["westeros" if zone.name.startswith("westeros") else "wildling"] += zone.name != "tides_deck"
                assert not any(shown), f"{e.id} in {zone.key} is seen"
            else:
                for seat, sees in enumerate(shown):
                    # the owner, or one it was shown to (Patchface looks at a House hand: `show ... to you`)
                    owner_sees = seat == zone.owner and not (e.face_down and e.seen_by != seat)
                    assert sees == (owner_sees or e.seen_by == seat), f"P{seat + 1} and {e.id} in {zone.key}"
                if zone.name == "tides_hand":
                    self.seen["tides_hand"] += 1
                if zone.name == "raven_peek":
                    self.seen["peek"] += 1
        # a bid wave: nothing of it is applied before every bid is in (no bid set, no power spent)
        bidding = d.secret and d.values and all(isinstance(v, int) for v in d.values)
        if bidding:
            power = [len(state.zone("power", seat).items) for seat in range(state.players)]
            assert all(pv["bid"] == 0 for pv in state.player_vars), "a bid is known before the reveal"
            if self._wave_power is None or d.player in self._wave_asked:  # a new wave (the next track)
                self._wave_power, self._wave_asked = power, set()
                self.seen["bid_waves"] += 1
            self._wave_asked.add(d.player)
            assert power == self._wave_power, "power was spent before every bid was in"
        else:
            self._wave_power = None
        # a restricted order is never offered, neither in the planning phase nor by the Raven
        restriction = state.game_vars.get("restriction")
        if restriction is not None:
            for label in d.labels:
                words = label.split()
                if words[0] in ("give", "replace"):
                    self.seen["restricted"] += 1
                    assert not _restricted(state.entities[words[-2 if words[0] == "give" else -1]], restriction), label


def play(game, players, seed, variants=(), each=None, account=None, policy=None) -> Session:
    session = Session(game, players, seed, variants, account=telling(account))
    rng = random.Random(seed + 1)
    while session.pending is not None:
        if each is not None:
            each(session)
        pick = policy(session) if policy is not None else None
        session.answer(pick if pick is not None else rng.randrange(len(session.pending.values)))
    return session


def _raven_peeks(session: Session):
    """Answer the Messenger Raven by looking at the wildling deck, whenever it is offered."""
    labels = session.pending.labels
    return "look_at_the_wildling_deck" if "look_at_the_wildling_deck" in labels else None


@pytest.mark.parametrize("players,variants", [(3, ("tides_of_battle",)), (6, ()), (6, ("tides_of_battle",))])
def test_decks_tides_cards_bids_and_the_ravens_peek_stay_hidden(game, players, variants):
    watcher = Watcher()
    for seed in range(3):
        play(game, players, seed, variants, each=watcher, policy=_raven_peeks)
    seen = watcher.seen
    assert seen["westeros"] and seen["wildling"] and seen["peek"] and seen["bid_waves"] and seen["restricted"] \
        and seen["open_hand"] and seen["hidden_hand"], seen
    if variants:
        assert seen["tides_hand"], seen


def test_the_ravens_peek_is_seen_by_its_holder_only(game):
    lines = []
    session = Session(game, 6, 4, ("houses_fixed",), account=telling(lambda to, text: lines.append((to, text))), start=False)
    session.call("setup")
    state = session.state
    top = state.zone("wildling_deck").items[0]
    session.call("use_messenger_raven")
    holder = session.pending.player
    # Lannister heads the King's Court; with no order on the board there is nothing to swap
    assert holder == 1 and session.pending.labels == ["look_at_the_wildling_deck", "keep_the_raven"]
    session.answer("look_at_the_wildling_deck")
    assert session.pending.player == holder and session.pending.labels == ["leave_it_on_top", "put_it_at_the_bottom"]
    for seat in range(6):
        sees = top.id in view(state, seat)["entities"]
        assert sees == (seat == holder), f"P{seat + 1} {'sees' if sees else 'does not see'} the peeked card"
    assert top.id not in view(state, None)["entities"]
    private = [text for to, text in lines if to == holder and str(top.attrs["name"]) in text]
    assert private, "the holder is told which card it is"
    assert not any(str(top.attrs["name"]) in text for to, text in lines if to != holder)
    session.answer("put_it_at_the_bottom")
    assert state.zone("wildling_deck").items[-1] is top
    assert not any(top.id in view(state, seat)["entities"] for seat in range(6))


def test_wildling_bids_are_secret_until_all_are_in(game):
    session = Session(game, 4, 2, ("houses_fixed",), start=False)
    session.call("setup")
    state = session.state
    session.call("wildlings_attack", [8, None])
    asked = []
    for bid in (3, 0, 2, 1):
        d = session.pending
        assert d.secret and list(d.values) == list(range(6))
        assert all(pv["bid"] == 0 for pv in state.player_vars)
        assert all(len(state.zone("power", seat).items) == 5 for seat in range(4))
        asked.append(d.player)
        session.answer(str(bid))
    assert sorted(asked) == [0, 1, 2, 3]
    bids = {seat: b for seat, b in zip(asked, (3, 0, 2, 1))}
    assert [pv["bid"] for pv in state.player_vars] == [bids[s] for s in range(4)]
    assert [len(state.zone("power", s).items) for s in range(4)] == [5 - bids[s] for s in range(4)]


def test_a_six_player_game_can_be_followed_round_by_round(game, tmp_path, capsys):
    """The log tells each Westeros phase, its cards, the bids and the wildling attacks; --as shows private lines."""
    from interpreter.cli import main

    for seed in range(40):
        lines = []
        session = play(game, 6, seed, ("houses_fixed",), account=lambda to, text: lines.append((to, text)), policy=_raven_peeks)
        public = "\n".join(text for to, text in lines if to is None)
        if "The wildlings attack" in public and "Clash of Kings" in public and "Messenger Raven to look" in public:
            break
    else:
        pytest.fail("no game with a Clash of Kings, a wildling attack and a Raven's peek in 40 seeds")
    for needed in ("Westeros phase: round 2", "Westeros deck I: ", "Westeros deck II: ", "Westeros deck III: ",
                   "resolves: ", "bids ", "power for the Night's Watch", "wildling threat", "goes to the bottom of the wildling deck",
                   "=== Round 10 ===", "The game ends after round 10"):
        assert needed in public, needed
    peeker = next(to for to, text in lines if to is not None and text.startswith("The top wildling card is"))
    path = tmp_path / "agot6.json"
    write_log(make_log(session, "agot"), path)
    capsys.readouterr()
    assert main(["replay", str(path), "--as", f"P{peeker + 1}"]) == 0
    own = capsys.readouterr().out
    other = (peeker + 1) % 6
    assert main(["replay", str(path), "--as", f"P{other + 1}"]) == 0
    theirs = capsys.readouterr().out
    assert "(to you) The top wildling card is" in own and "The top wildling card is" not in theirs
    assert own.splitlines()[-1].startswith("OK: ")
