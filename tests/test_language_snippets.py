"""The snippets of docs/language.md are real.

Each mini game under tests/snippets/ loads without a diagnostic, compiles, and plays the
hard cases the docs describe. The docs quote every snippet file they name verbatim (every B'Twixt
one), and the AGoT cases quote excerpts of content/agot/, each checked word for word against the file
it names, so docs and files cannot drift apart. Tests marked xfail(strict=True) document a language gap (see the
reason); they turn into failures as soon as the engine closes it, so that the marker gets removed.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from dsl.loader import SCHEMA_LINE, load_game
from dsl.parser import build_parser
from interpreter.codegen import compile_game
from interpreter.runtime import Session, new_state
from interpreter.present.words import telling
from interpreter.present.views import view

HERE = Path(__file__).resolve().parent
SNIPPETS = HERE / "snippets"
DOCS = HERE.parent / "docs" / "language.md"
GAMES = ["btwixt_mini", "agot_mini"]
ROOT = HERE.parent
SNIPPET_FILES = sorted(p.relative_to(SNIPPETS).as_posix()
                       for p in SNIPPETS.rglob("*") if p.suffix in (".yaml", ".rules"))
# An excerpt of the real game: a fenced block right after a line "From `content/agot/...`:".
EXCERPT = re.compile(r"^From `(content/agot/[^`]+)`:\n\n```[a-z]*\n(.*?)\n```$", re.M | re.S)
FENCE = re.compile(r"^```[a-z]*\n(.*?)\n```$", re.M | re.S)


# ---------------------------------------------------------------------------- helpers
@functools.lru_cache(maxsize=None)
def content(name: str):
    return load_game(SNIPPETS / name)


@functools.lru_cache(maxsize=None)
def compiled(name: str):
    loaded = content(name)
    assert loaded.report.ok, [d.render() for d in loaded.report.diagnostics]
    return compile_game(loaded)


class Table:
    """A table laid out by hand, and procedures run on it with scripted answers."""

    def __init__(self, game: str, players: int, seed: int = 7):
        self.game = compiled(game)
        self.players = players
        self.state = new_state(self.game, players, seed)
        self.logs: list[str] = []

    def e(self, eid: str):
        return self.state.entities[eid]

    def zone(self, name: str, owner=None):
        if isinstance(owner, str):
            owner = self.e(owner)
        return self.state.zone(name, owner)

    def put(self, eid: str, zone: str, owner=None, top: bool = False):
        self.state.place(self.e(eid), self.zone(zone, owner), top)

    def ids(self, zone: str, owner=None) -> list[str]:
        return [x.id for x in self.zone(zone, owner)]

    def pvar(self, name: str) -> list:
        return [pv[name] for pv in self.state.player_vars]

    def run(self, procedure: str, *args, answers=(), trace: bool = False) -> Session:
        session = Session(self.game, self.players, state=self.state, procedure=procedure, args=list(args),
                          trace=trace, account=telling(lambda to, text: self.logs.append(text)))
        for a in answers:
            assert session.pending is not None, f"nothing is asked, but the script still holds {a!r}"
            session.answer(a)
        return session


def sources(session: Session, event: str) -> list[str]:
    """The order in which the resolver ran abilities on `event`, from the trace.

    A trigger entry lists the ability that ran first, then those still waiting; a modifier entry
    lists every modifier, first in priority first."""
    out = []
    for t in session.rt.trace:
        if t["event"] == event:
            out.extend(o["source"] for o in (t["order"][:1] if t["kind"] == "trigger" else t["order"]))
    return out


# ---------------------------------------------------------------------------- the language itself
def test_grammar_builds_strict():
    build_parser(strict=True)


@pytest.mark.parametrize("game", GAMES)
def test_mini_game_loads_without_diagnostics(game):
    loaded = content(game)
    assert [d.render() for d in loaded.report.diagnostics] == []


@pytest.mark.parametrize("game", GAMES)
def test_mini_game_compiles(game):
    assert compiled(game).procs


@pytest.mark.parametrize("rel", SNIPPET_FILES)
def test_docs_quote_snippet_verbatim(rel):
    """Every snippet file the docs name is quoted whole; every B'Twixt one is named (the AGoT cases
    quote content/agot instead, and keep only the mini game's manifest and map)."""
    docs = DOCS.read_text(encoding="utf-8")
    if rel.startswith("btwixt_mini/"):
        assert f"tests/snippets/{rel}" in docs, f"docs/language.md does not name {rel}"
    if f"tests/snippets/{rel}" in docs:
        text = (SNIPPETS / rel).read_text(encoding="utf-8")
        assert text.strip() in docs, f"docs/language.md does not quote {rel} verbatim"


def agot_excerpts() -> list[tuple[str, str]]:
    return EXCERPT.findall(DOCS.read_text(encoding="utf-8"))


def test_docs_quote_agot_excerpts_verbatim():
    """Each excerpt named `From content/agot/FILE:` stands word for word in that file."""
    excerpts = agot_excerpts()
    files = {path for path, _ in excerpts}
    # the four cases and the examples of the new constructs: rules, manifest and records
    assert len(excerpts) >= 15 and {"content/agot/rules/march.rules", "content/agot/rules/combat.rules",
                                    "content/agot/game.yaml", "content/agot/components/house_cards.yaml"} <= files
    for path, text in excerpts:
        assert (ROOT / path).is_file(), f"docs/language.md quotes {path}, which does not exist"
        assert text in (ROOT / path).read_text(encoding="utf-8"), \
            f"docs/language.md quotes from {path} a passage that is not in it:\n{text}"


def test_agot_cases_quote_only_named_passages():
    """Every code block of the AGoT cases is a named excerpt of content/agot or a quoted snippet file."""
    docs = DOCS.read_text(encoding="utf-8")
    section = docs[docs.index("### A Game of Thrones: the real game"):docs.index("## 16.")]
    named = {text for _, text in EXCERPT.findall(section)}
    snippets = {(SNIPPETS / r).read_text(encoding="utf-8").strip() for r in SNIPPET_FILES}
    for text in FENCE.findall(section):
        assert text in named or text.strip() in snippets, f"an AGoT case quotes a passage it does not name:\n{text[:200]}"


@pytest.mark.parametrize("rel", [r for r in SNIPPET_FILES if r.endswith(".yaml")])
def test_yaml_files_name_their_schema(rel):
    path = SNIPPETS / rel
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(SCHEMA_LINE)
    assert (path.parent / first[len(SCHEMA_LINE):]).resolve().is_file()


# ---------------------------------------------------------------------------- B'Twixt
def test_btwixt_you_is_whoever_holds_the_card_now():
    """Case 1: P1 plays Backup Plan, P2 takes it with Betrayal; after P3 wins, P2 draws."""
    t = Table("btwixt_mini", 3)
    t.put("hedge_knight_1", "ally_deck", top=True)
    t.put("backup_plan", "hand", 0)
    t.put("betrayal", "hand", 1)
    t.put("lannister_gold", "hand", 2)
    s = t.run("play_round", answers=["bid backup_plan", "bid betrayal", "bid lannister_gold"])
    # Betrayal had one card to take, so it moved Backup Plan without asking. P3 (5) beat P2 (1 + 3).
    assert s.pending.player == 2 and s.pending.labels == ["council of P2", "council of P3"]
    s.answer("council of P3")
    assert s.finished
    assert len(t.ids("hand", 1)) == 2, "Backup Plan lay in front of P2 when the bid was won"
    assert t.ids("hand", 0) == []
    assert t.ids("council", 2) == ["hedge_knight_1"]


def test_btwixt_you_follows_the_card_on_a_laid_out_table():
    t = Table("btwixt_mini", 3)
    t.put("backup_plan", "bid_pile", 1)  # wherever it came from, it lies in front of P2 now
    t.run("bid_won", 2)
    assert t.ids("hand", 1) == ["sellswords_1", "sellswords_2"]
    t.run("bid_won", 1)  # P2 won this time: nothing happens
    assert len(t.ids("hand", 1)) == 2


def test_btwixt_triumph_card_waits_for_the_bid_to_be_won():
    """Case 2b: P1 bribes P3; the Bribe stays in P3's pile until the bid is won, then goes to P3's hand."""
    t = Table("btwixt_mini", 3)
    t.put("hedge_knight_1", "ally_deck", top=True)
    t.put("bribe", "hand", 0)
    t.put("sellswords_1", "hand", 1)
    s = t.run("play_round", answers=["bid bribe"])
    assert s.pending.player == 0 and s.pending.labels == ["P2", "P3"]  # whom to bribe
    s.answer("P3")
    assert s.pending.player == 1  # P2's turn to bid: the bid is not won yet
    assert t.ids("bid_pile", 2) == ["bribe"]
    s.answer("kneel_down")
    # P3 and P1 kneel without being asked (kneeling is all they can do); P3 wins with the Bribe's 3.
    assert s.pending.player == 2
    assert t.ids("hand", 2) == ["bribe"] and t.ids("bid_pile", 2) == []
    s.answer(0)
    assert s.finished


def test_btwixt_during_this_round_ability_applies_in_its_round():
    """Case 2a: Petyr Baelish is revealed; P1 (who has bid) is the first to kneel and draws 2."""
    t = Table("btwixt_mini", 3)
    t.put("petyr_baelish", "ally_deck", top=True)
    t.put("sellswords_1", "bid_pile", 0)
    s = t.run("play_round")  # nobody holds a card: everybody kneels without being asked
    assert t.ids("hand", 0) == ["sellswords_2", "sellswords_3"]
    assert t.ids("hand", 1) == [] and t.ids("hand", 2) == []
    assert s.pending.player == 0  # P1 won the bid and places Petyr
    s.answer(0)
    assert s.finished


def test_btwixt_during_this_round_ability_ends_with_the_round():
    """Case 2a: in round 2 Petyr Baelish's ability is over; play_round is called from play_season."""
    t = Table("btwixt_mini", 3)
    t.put("petyr_baelish", "ally_deck", top=True)
    t.put("sellswords_1", "hand", 0)
    t.run("play_season", answers=[
        "bid sellswords_1", 0,                   # round 1: P1 bids, kneels first, draws 2, wins
        "bid sellswords_2", "kneel_down", 0,     # round 2: P1 bids and kneels first again: no draw now
        "kneel_down", 0,                         # round 3
        "kneel_down", 0,                         # round 4
    ])
    assert t.ids("hand", 0) == ["sellswords_3"]


def test_btwixt_card_over_rulebook_puppet_forces_the_council():
    """Case 3: P2 bid a Puppet; P1 wins and must use the council shared with P2 (no choice left)."""
    t = Table("btwixt_mini", 4)
    t.put("puppet_1", "bid_pile", 1)
    t.put("hedge_knight_1", "current_ally")
    s = t.run("accept_ally", 0, trace=True)
    assert s.finished
    assert t.ids("council", 0) == ["hedge_knight_1"]  # council of P1 = shared by P1 and P2
    assert sources(s, "allowed_councils") == ["puppet_1"]


def test_btwixt_equal_puppets_leave_the_choice_to_the_winner():
    t = Table("btwixt_mini", 4)
    t.put("puppet_1", "bid_pile", 1)
    t.put("puppet_2", "bid_pile", 3)
    t.put("hedge_knight_1", "current_ally")
    s = t.run("accept_ally", 0)
    assert s.pending.player == 0 and s.pending.labels == ["council of P4", "council of P1"]


def test_btwixt_ally_over_influence_sansa_overrides_puppet():
    """Case 3: Sansa goes where the winner's strongest ally is, although a Puppet says otherwise."""
    t = Table("btwixt_mini", 4)
    t.put("hedge_knight_1", "council", 3)  # P1's only ally, in the council shared with P4
    t.put("puppet_1", "bid_pile", 1)  # P2's Puppet points at the council shared by P1 and P2
    t.put("sansa_stark", "current_ally")
    s = t.run("accept_ally", 0, trace=True)
    assert s.finished
    assert t.ids("council", 3) == ["hedge_knight_1", "sansa_stark"]
    # Priority order (ally first); modifiers apply in reverse, so Sansa's has the last word.
    assert sources(s, "allowed_councils") == ["sansa_stark", "puppet_1"]


def test_btwixt_unique_card_goes_to_the_box_instead_of_the_discard_pile():
    """Case 4: the replacement on discard."""
    t = Table("btwixt_mini", 3)
    t.put("lannister_gold", "bid_pile", 0)
    t.put("sellswords_1", "bid_pile", 0)
    t.put("puppet_1", "bid_pile", 2)
    t.run("clean_up")
    assert t.ids("box") == ["lannister_gold"]
    assert t.ids("discard_pile") == ["sellswords_1", "puppet_1"]


# ---------------------------------------------------------------------------- A Game of Thrones
def agot(players: int = 3, houses=("lannister", "tyrell", "greyjoy"), track=(0, 1, 2)) -> Table:
    t = Table("agot_mini", players)
    for seat, house in enumerate(houses):
        t.state.player_vars[seat]["house"] = house
    t.state.game_vars.update(throne_track=list(track), fiefdoms_track=list(track), kings_court_track=list(track),
                             iron_throne=track[0])
    return t


def test_agot_secret_bids_are_all_asked_before_any_applies():
    """Case 5: three tracks; ties are ordered by the Iron Throne holder (before and after it changes)."""
    t = agot()
    t.state.game_vars["iron_throne"] = 2
    s = t.run("clash_of_kings")
    asked = []
    for amount in ["3", "3", "1"]:
        d = s.pending
        assert d.secret and d.labels == ["0", "1", "2", "3", "4", "5"]
        asked.append(d.player)
        assert t.pvar("bid") == [0, 0, 0] and t.pvar("power") == [5, 5, 5], "an answer applied before all were asked"
        s.answer(amount)
    assert asked == [0, 1, 2]
    # P1 and P2 tied at 3: P3, who holds the Iron Throne, orders them.
    assert s.pending.player == 2 and s.pending.kind == "order" and s.pending.labels == ["P1", "P2"]
    s.answer("P2")
    assert t.state.game_vars["throne_track"] == [1, 0, 2] and t.state.game_vars["iron_throne"] == 1
    assert t.pvar("power") == [2, 2, 4]
    for amount in ["2", "0", "4"]:  # the Fiefdoms: no tie
        s.answer(amount)
    assert t.state.game_vars["fiefdoms_track"] == [2, 0, 1]
    # King's Court: P1 and P3 have no power left, so only P2 is asked (a one-option decision is not asked).
    assert s.pending.player == 1 and s.pending.labels == ["0", "1", "2"]
    s.answer("2")
    # P1 and P3 tied at 0: P2 holds the Iron Throne now and orders them.
    assert s.pending.player == 1 and s.pending.labels == ["P1", "P3"]
    s.answer("P3")
    assert s.finished
    assert t.state.game_vars["kings_court_track"] == [1, 2, 0]
    assert t.logs[:3] == ["P1 bids 3", "P2 bids 3", "P3 bids 1"]


def test_agot_orders_are_placed_face_down_then_revealed_and_resolved_by_type_in_turn_order():
    """Case 6."""
    t = agot()
    t.put("lannister_footman_1", "units", "lannisport")
    t.put("lannister_ship_1", "units", "the_golden_sound")
    t.put("tyrell_footman_1", "units", "highgarden")
    t.put("greyjoy_ship_1", "units", "sunset_sea")
    for eid in ["raid_order_1", "consolidate_order_1", "support_order_1"]:
        t.put(eid, "orders", 0)
    for eid in ["raid_order_2", "consolidate_order_2"]:
        t.put(eid, "orders", 1)
    for eid in ["raid_order_3", "consolidate_order_3"]:
        t.put(eid, "orders", 2)
    s = t.run("planning")
    for player, order in [(0, "raid_order_1"), (1, "raid_order_2"), (2, "consolidate_order_3")]:
        assert s.pending.player == player and s.pending.secret
        s.answer(order)
    # The first wave is applied: each order lies face down, known only to whoever placed it.
    assert s.pending.player == 0 and s.pending.labels == ["consolidate_order_1", "support_order_1"]
    token = t.e("raid_order_1")
    assert token.face_down and token.seen_by == 0 and t.ids("order_slot", "lannisport") == ["raid_order_1"]
    assert view(t.state, 0)["zones"]["order_slot of lannisport"] == ["raid_order_1"]
    assert view(t.state, 1)["zones"]["order_slot of lannisport"] == {"count": 1}
    s.answer("consolidate_order_1")
    assert s.finished
    assert not any(t.e(o).face_down for o in ["raid_order_1", "raid_order_2", "consolidate_order_1", "consolidate_order_3"])
    # Turn order P2, P3, P1: every raid first, then every consolidation; P3 has no raid and is skipped.
    t.state.game_vars["throne_track"] = [1, 2, 0]
    s = t.run("action_phase")
    assert s.finished
    assert t.logs == [
        "P2 resolves raid in Highgarden",
        "P1 resolves raid in Lannisport",
        "P3 resolves consolidate power in Sunset Sea",
        "P1 resolves consolidate power in The Golden Sound",
    ]


def march_from_lannisport(ships) -> Session:
    """A Lannister footman in Lannisport, ships where told; returns the pending 'where to' decision."""
    t = agot()
    t.put("lannister_footman_1", "units", "lannisport")
    for ship, sea in ships:
        t.put(ship, "units", sea)
    return t.run("march_units", 0, t.e("lannisport"))


def test_agot_march_reaches_a_land_across_two_friendly_seas():
    """Case 7: Lannisport -> The Golden Sound -> Sunset Sea -> Flint's Finger; staying is the last option."""
    s = march_from_lannisport([("lannister_ship_1", "the_golden_sound"), ("lannister_ship_2", "sunset_sea")])
    assert s.pending.player == 0
    assert s.pending.labels == ["searoad_marches", "flints_finger", "lannisport"]
    s.answer("flints_finger")
    assert s.finished and [u.id for u in s.state.zone("units", s.state.entities["flints_finger"])] == ["lannister_footman_1"]


def test_agot_march_does_not_cross_a_sea_held_only_by_an_enemy():
    s = march_from_lannisport([("lannister_ship_1", "the_golden_sound"), ("greyjoy_ship_1", "sunset_sea")])
    assert s.pending.labels == ["searoad_marches", "lannisport"]


def test_agot_march_follows_a_longer_chain():
    s = march_from_lannisport([("lannister_ship_1", "the_golden_sound"), ("lannister_ship_2", "sunset_sea"),
                               ("lannister_ship_3", "west_summer_sea")])
    assert s.pending.labels == ["searoad_marches", "flints_finger", "highgarden", "the_arbor", "lannisport"]


def combat_table(houses, track, hands) -> Table:
    t = agot(houses=houses, track=track)
    for seat, cards in hands.items():
        for card in cards:
            t.put(card, "house_hand", seat)
    return t


def test_agot_cancel_abilities_resolve_before_the_others():
    """Case 8: Mace Tyrell (P1 attacks, first in turn order) vs Tyrion Lannister ('cancel' class)."""
    t = combat_table(("tyrell", "lannister", "martell"), (0, 1, 2),
                     {0: ["mace_tyrell", "margaery_tyrell"], 1: ["tyrion_lannister", "tywin_lannister"]})
    area = t.e("searoad_marches")
    for unit in ["tyrell_footman_1", "tyrell_knight", "lannister_footman_1", "lannister_footman_2"]:
        t.put(unit, "units", area)
    s = t.run("combat", 0, 1, area, trace=True, answers=["mace_tyrell", "tyrion_lannister"])
    assert s.pending.player == 1 and s.pending.labels == ["cancel_card", "keep_card"]  # Tyrion asks first
    s.answer("keep_card")
    assert s.pending.player == 0  # then Mace Tyrell destroys a footman
    s.answer("lannister_footman_1")
    assert s.finished
    assert sources(s, "reveal_house_cards") == ["tyrion_lannister", "mace_tyrell"]
    assert t.ids("units", area) == ["tyrell_footman_1", "tyrell_knight", "lannister_footman_2"]
    assert t.pvar("combat_strength")[:2] == [1 + 2 + 4, 1 + 1]
    assert t.logs == ["P1 wins the combat"]
    assert t.ids("house_discard", 0) == ["mace_tyrell"] and t.ids("house_discard", 1) == ["tyrion_lannister"]


def test_agot_support_and_after_the_outcome():
    """Case 8: P2 supports itself from Lannisport; Tywin's 'if you win' waits for the outcome."""
    t = combat_table(("tyrell", "lannister", "martell"), (0, 1, 2),
                     {0: ["margaery_tyrell"], 1: ["tywin_lannister"]})
    area = t.e("searoad_marches")
    t.put("tyrell_footman_1", "units", area)
    t.put("lannister_footman_1", "units", area)
    t.put("lannister_knight", "units", "lannisport")
    t.put("support_order_1", "order_slot", "lannisport")
    s = t.run("combat", 0, 1, area)
    # P2 may back itself or stay out, never back its opponent. Each side has one card: nobody is asked.
    assert s.pending.player == 1 and s.pending.labels == ["support P2", "stay_out"]
    s.answer("support P2")
    assert s.finished
    assert t.pvar("combat_strength")[:2] == [1 + 1, 2 + 1 + 4]
    assert t.pvar("power") == [5, 7, 5]


def test_agot_cancelled_house_card_does_not_resolve():
    t = combat_table(("tyrell", "lannister", "martell"), (0, 1, 2),
                     {0: ["mace_tyrell", "margaery_tyrell"], 1: ["tyrion_lannister", "tywin_lannister"]})
    area = t.e("searoad_marches")
    for unit in ["tyrell_footman_1", "tyrell_knight", "lannister_footman_1", "lannister_footman_2"]:
        t.put(unit, "units", area)
    s = t.run("combat", 0, 1, area, answers=["mace_tyrell", "tyrion_lannister", "cancel_card"])
    # P1 had to take Margaery Tyrell instead (the only other card): no footman is destroyed.
    assert s.finished
    assert t.ids("units", area) == ["tyrell_footman_1", "tyrell_knight", "lannister_footman_1", "lannister_footman_2"]


def test_agot_other_abilities_resolve_in_iron_throne_order():
    # Track P1, P3, P2: Doran Martell (P3) resolves before Mace Tyrell (P2); seats say otherwise.
    t = combat_table(("lannister", "tyrell", "martell"), (0, 2, 1),
                     {1: ["mace_tyrell"], 2: ["doran_martell"]})
    area = t.e("searoad_marches")
    t.put("tyrell_footman_1", "units", area)
    t.put("martell_footman", "units", area)
    s = t.run("combat", 1, 2, area, trace=True)
    while s.pending is not None:
        s.answer(0)
    assert sources(s, "reveal_house_cards") == ["doran_martell", "mace_tyrell"]


def test_tied_abilities_are_ordered_by_their_controller():
    """priority.ties: choose — two abilities equal in priority: the controller picks which goes first."""
    from interpreter.codegen import compile_game
    from dsl.loader import ensure_loaded
    game = compile_game(ensure_loaded(Path(__file__).parent / "fixtures" / "ties_game"))
    for first, expected in (("beta", ["beta", "alpha"]), ("alpha", ["alpha", "beta"])):
        s = Session(game, 2, 0)
        d = s.pending
        assert d is not None and d.kind == "order" and sorted(d.labels) == ["alpha", "beta"]
        s.answer(first)
        assert s.finished and s.state.game_vars["trail"] == expected
