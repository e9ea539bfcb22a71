"""AGoT components: the generated records equal the generator's output, and every count is the game's."""
from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from dsl.loader import load_game
from interpreter.runtime.games import load_compiled, locate

ROOT = Path(__file__).resolve().parents[1]
GENERATOR = ROOT / "tests" / "generators" / "agot_records.py"
HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]


@pytest.fixture(scope="module")
def game():
    return load_compiled("agot")


def _generator():
    spec = importlib.util.spec_from_file_location("agot_records", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_content_is_clean():
    content = load_game(locate("agot"))
    assert [d.render() for d in content.report.diagnostics] == []


def test_committed_records_equal_the_generators_output():
    gen = _generator()
    if not gen.DATA.is_dir():
        pytest.skip("../shared/data/agot is not next to the repository")
    for name, text in gen.generate().items():
        committed = (gen.OUT / name).read_text(encoding="utf-8")
        assert committed == text, f"content/agot/components/{name} differs: run python3 tests/generators/agot_records.py"


def _records(game):
    return [rec.data for rec in game.content.records]


def test_areas(game):
    areas = [r for r in _records(game) if r["kind"] in ("land", "sea", "port")]
    kinds = Counter(r["kind"] for r in areas)
    assert kinds == {"land": 38, "sea": 12, "port": 8}
    assert Counter(r["castle"] for r in areas if r["kind"] == "land") == {0: 18, 1: 10, 2: 10}
    assert sum(r["supply"] for r in areas if r["kind"] == "land") == 24
    assert sum(r["crowns"] for r in areas if r["kind"] == "land") == 19
    ids = {r["id"]: r for r in areas}
    pairs = {frozenset((r["id"], x)) for r in areas for x in r["adjacent"]}
    assert len(pairs) == 143
    for r in areas:
        for x in r["adjacent"]:
            assert r["id"] in ids[x]["adjacent"], f"{r['id']} - {x} is one-sided"
    for r in areas:
        if r["kind"] == "port":
            assert sorted(r["adjacent"]) == sorted([r["port_land"], r["port_sea"]])
            assert ids[r["port_land"]]["port"] == r["id"]
    assert sorted(r["home_of"] for r in areas if r.get("home_of")) == sorted(HOUSES)


def test_units_orders_tokens_cards(game):
    recs = _records(game)
    for h in HOUSES:
        units = Counter()
        for r in recs:
            if r["kind"] == "unit" and r["house"] == h:
                units[r["unit_type"]] += r.get("copies", 1)
        assert units == {"footman": 10, "knight": 5, "ship": 6, "siege_engine": 2}
        orders = [r for r in recs if r["kind"] == "order" and r["house"] == h]
        assert len(orders) == 15 and sum(r["star"] for r in orders) == 5
        assert Counter(r["order_type"] for r in orders) == {t: 3 for t in
                                                           ("march", "defense", "support", "raid", "consolidate_power")}
        power = [r for r in recs if r["kind"] == "power_token" and r["house"] == h]
        assert sum(r["copies"] for r in power) == 20
        cards = [r for r in recs if r["kind"] == "house_card" and r["house"] == h]
        assert sorted(r["strength"] for r in cards) == [0, 1, 1, 2, 2, 3, 4]
    cards = [r for r in recs if r["kind"] == "house_card"]
    assert len(cards) == 42
    assert sum(1 for r in cards if r.get("effect")) == 24
    assert len([r for r in recs if r["kind"] == "neutral_force"]) == 14
    assert sorted(r["id"] for r in recs if r["kind"] == "dominance") == [
        "iron_throne_token", "messenger_raven", "valyrian_steel_blade"]
    assert len([r for r in recs if r["kind"] == "garrison"]) == 6


def test_every_record_has_a_source_and_cards_have_text(game):
    for r in _records(game):
        assert r.get("source"), r["id"]
        if r["kind"] == "house_card":
            assert r.get("text"), r["id"]


def test_westeros_wildling_and_tides_cards_match_the_shared_data(game):
    """The hand-written Westeros and wildling cards carry the shared data's names, decks, copies and icons."""
    generator = _generator()
    data_dir = generator.DATA
    if not data_dir.is_dir():
        pytest.skip("../shared/data/agot is not next to the repository")
    recs = _records(game)
    decks = generator.load("westeros_cards.yaml")["decks"]
    expected = Counter()
    for n, (deck, cards) in enumerate(decks.items(), 1):
        for c in cards:
            expected[(n, c["name"], c["wildling_icon"])] += c["copies"]
    ours = Counter()
    for r in recs:
        if r["kind"] == "westeros_card":
            ours[(r["deck"], str(r["name"]), r["wildling_icon"])] += r.get("copies", 1)
            assert r.get("effect") or str(r["name"]) == "Last Days of Summer", r["id"]
    assert ours == expected
    assert sum(ours.values()) == 30
    wild = generator.load("wildling_cards.yaml")["cards"]
    assert sorted(r["id"] for r in recs if r["kind"] == "wildling_card") == sorted(c["id"] for c in wild)
    for r in recs:
        if r["kind"] == "wildling_card":
            assert "when wildling_victory(this" in r["effect"] and "when nights_watch_victory(this" in r["effect"], r["id"]
    tides = [r for r in recs if r["kind"] == "tides_card"]
    assert sum(r["copies"] for r in tides) == 24
    assert sum(r["copies"] for r in tides if r["skulls"]) == 2
