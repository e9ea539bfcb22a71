"""King's Bounty as content: the cards against the rulebook, random games, determinism,
the hand-written reference game, and scoring recomputed independently from final states.

The random-game batches are sized for a regression check; the soak runs of thousands of games
are `rules simulate` commands (README.md, "Soak runs").

The rulebook is ../shared/rulebooks/kings_bounty.txt (Russian); facts it does not print
(unit and castle strengths) come from ../shared/data/kings_bounty.md.
"""
from __future__ import annotations

import random
import re
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter.core.decisions import IllegalDecision
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.present.words import telling

ROOT = Path(__file__).resolve().parent.parent
CASTLE_RACES = ["elves", "dwarves", "undead", "orcs"]
OBELISK_POINTS = 2  # "каждый приносит 2 победных очка"


# ---------------------------------------------------------------- helpers

def records_by_entity(game):
    """entity id -> record data, as the loader expands `copies`."""
    return {eid: rec.data for eid, rec in game.content.entity_ids.items()}


def rulebook_records(game):
    """The components the rulebook prints (source: rulebook ...): the composition tests check these, so
    that a designed card added to the game breaks no test about the rulebook's own deck."""
    return {eid: r for eid, r in records_by_entity(game).items() if r["source"].startswith("rulebook")}


def play_random(game, players, seed, rng, variants=(), account=None):
    session = Session(game, players, seed, variants, keep_labels=False, account=telling(account))
    while session.pending is not None:
        session.answer(rng.randrange(len(session.pending.values)))
    return session


def zone(state, name, owner=None):
    return state.zone(name, owner)


def title_condition(title: str, domains: list) -> int:
    """The rulebook's condition of each title ("Титулы"), written independently of the content."""
    castles = [d for d in domains if d.kind == "castle"]

    def garrisoned(pred):
        return sum(1 for d in domains if any(pred(g) for g in d.zones.get("garrison", ())))
    a = lambda e, k: e.attrs.get(k)  # noqa: E731
    table = {
        "emperor": lambda: len({a(c, "race") for c in castles}),
        "great_architect": lambda: len(castles),
        "keeper_of_secrets": lambda: sum(1 for d in domains if d.kind == "obelisk"),
        "conqueror": lambda: garrisoned(lambda g: True),
        "king_of_elves": lambda: sum(1 for c in castles if a(c, "race") == "elves"),
        "thane_of_dwarves": lambda: sum(1 for c in castles if a(c, "race") == "dwarves"),
        "orc_chief": lambda: sum(1 for c in castles if a(c, "race") == "orcs"),
        "lord_of_the_dead": lambda: sum(1 for c in castles if a(c, "race") == "undead"),
        "warlord": lambda: garrisoned(lambda g: a(g, "race") == "humans"),
        "prince_of_elves": lambda: garrisoned(lambda g: a(g, "race") == "elves"),
        "prince_of_dwarves": lambda: garrisoned(lambda g: a(g, "race") == "dwarves"),
        "prince_of_orcs": lambda: garrisoned(lambda g: a(g, "race") == "orcs"),
        "prince_of_undead": lambda: garrisoned(lambda g: a(g, "race") == "undead"),
        "marksman": lambda: garrisoned(lambda g: a(g, "unit_type") == "archer"),
        "swordmaster": lambda: garrisoned(lambda g: a(g, "unit_type") == "warrior"),
        "grand_magister": lambda: garrisoned(lambda g: a(g, "unit_type") == "wizard"),
        "tower_builder": lambda: sum(1 for c in castles if a(c, "castle_type") == "tower"),
        "fortress_builder": lambda: sum(1 for c in castles if a(c, "castle_type") == "fortress"),
        "citadel_builder": lambda: sum(1 for c in castles if a(c, "castle_type") == "citadel"),
    }
    return table[title]() if title in table else None


def check_final_state(session, players, variants=()):
    """Everything a finished game must satisfy, recomputed from the final state alone."""
    state = session.state
    assert state.finished and session.result is not None
    assert len(zone(state, "deck")) == 0, "the game ends only once the deck is empty"
    assert len(zone(state, "box")) == 0
    for seat in range(players):
        assert len(zone(state, "hand", seat)) <= 6
        assert len(zone(state, "hidden_titles", seat)) == 0, "hidden titles are revealed at the end"
        for d in zone(state, "domains", seat):
            assert d.kind in ("castle", "obelisk")
            garrison = list(d.zones.get("garrison", ()))
            assert len(garrison) <= 1, "one garrison per domain"
            for g in garrison:
                assert g.attrs["unit_type"] in ("archer", "warrior", "wizard"), "heroes and monsters never stay"
    in_play = list(zone(state, "title_row")) + [t for s in range(players) for t in zone(state, "titles", s)]
    expected_titles = 6 + (players if "experienced" in variants else 0)
    assert len(in_play) == expected_titles
    # every title is where its condition puts it
    last = {"vandal": state.game_vars["last_monster"], "staff_rat": state.game_vars["last_hero"]}
    for t in in_play:
        holder = t.zone.owner if t.zone.name == "titles" else None
        if t.record_id in last:
            assert holder == last[t.record_id], t.id
            continue
        scores = [title_condition(t.record_id, list(zone(state, "domains", s))) for s in range(players)]
        if None in scores:
            continue  # a title the rulebook does not print: its own scenario tests check its condition
        best = max(scores)
        winner = scores.index(best) if best > 0 and scores.count(best) == 1 else None
        assert holder == winner, (t.id, scores)
    # points: titles plus 2 per obelisk; castles score nothing
    points = []
    for s in range(players):
        p = sum(t.attrs["points"] for t in zone(state, "titles", s))
        p += OBELISK_POINTS * sum(1 for d in zone(state, "domains", s) if d.kind == "obelisk")
        points.append(p)
    assert session.result.scores == points
    # the winner: the highest score, ties to the tied player nearest the first player clockwise
    first = state.game_vars["first_player"]
    order = [(first + i) % players for i in range(players)]
    winner = next(s for s in order if points[s] == max(points))
    assert session.result.winners == [winner]


# ---------------------------------------------------------------- the cards against the rulebook

def test_deck_composition(kb):
    recs = rulebook_records(kb)
    kinds = Counter(r["kind"] for r in recs.values())
    assert kinds["unit"] == 48
    assert kinds["castle"] == 24
    assert kinds["obelisk"] == 12
    assert kinds["unit"] + kinds["castle"] + kinds["obelisk"] == 84
    assert kinds["title"] == 21
    assert set(kinds) == {"unit", "castle", "obelisk", "title"}


@pytest.mark.parametrize("race", ["humans", *CASTLE_RACES])
def test_race_composition(kb, race):
    recs = rulebook_records(kb).values()
    units = Counter(r["unit_type"] for r in recs if r["kind"] == "unit" and r.get("race") == race)
    castles = Counter(r["castle_type"] for r in recs if r["kind"] == "castle" and r.get("race") == race)
    if race == "humans":
        # "У людей 4 стрелка, 3 воина, 3 волшебника, 1 герой и 1 чудовище"; "У людей замков нет."
        assert units == {"archer": 4, "warrior": 3, "wizard": 3, "hero": 1, "monster": 1}
        assert castles == {}
    else:
        # "3 стрелка, 2 воина, 2 волшебника, 1 герой и 1 чудовище"; "2 башни, 2 крепости и 2 цитадели"
        assert units == {"archer": 3, "warrior": 2, "wizard": 2, "hero": 1, "monster": 1}
        assert castles == {"tower": 2, "fortress": 2, "citadel": 2}


def test_strengths(kb):
    unit_strength = {"archer": 2, "warrior": 3, "wizard": 4}
    castle_strength = {"tower": 1, "fortress": 2, "citadel": 3}
    for eid, r in rulebook_records(kb).items():
        if r["kind"] == "unit":
            if r["unit_type"] in unit_strength:
                assert r["strength"] == unit_strength[r["unit_type"]], eid
            else:
                assert "strength" not in r, f"{eid}: heroes and monsters have no strength"
        elif r["kind"] == "castle":
            assert r["strength"] == castle_strength[r["castle_type"]], eid


def test_obelisks(kb):
    obelisks = [r for r in rulebook_records(kb).values() if r["kind"] == "obelisk"]
    # "В игре по 4 обелиска с силой 1, 2 и 3... каждый приносит 2 победных очка"
    assert Counter(o["strength"] for o in obelisks) == {1: 4, 2: 4, 3: 4}
    assert all(o["points"] == OBELISK_POINTS for o in obelisks)
    assert all("race" not in o for o in obelisks), "obelisks are neutral"


RULEBOOK_TITLES = {
    "Император", "Великий зодчий", "Хранитель тайн", "Завоеватель", "Король эльфов", "Тан гномов",
    "Вождь орков", "Владыка мёртвых", "Полководец", "Князь эльфов", "Князь гномов", "Князь орков",
    "Князь нежити", "Меткий стрелок", "Мастер меча", "Великий магистр", "Строитель башен",
    "Строитель крепостей", "Строитель цитаделей", "Вандал", "Штабная крыса",
}


def test_titles(kb):
    titles = {eid: r for eid, r in rulebook_records(kb).items() if r["kind"] == "title"}
    # the Russian names are the rulebook's; there is no English edition (English names designed)
    assert {r["name"].get("ru") for r in titles.values()} == RULEBOOK_TITLES
    for eid, r in titles.items():
        assert isinstance(r["points"], int)
        if r["name"].get("ru") in ("Вандал", "Штабная крыса"):
            assert r["points"] < 0, "эти титулы отнимают победные очки"
        else:
            assert r["points"] > 0
    # titles with a race's big icon leave the game with that race (2- and 3-player games)
    by_race = Counter(r.get("race") for r in titles.values())
    for race in CASTLE_RACES:
        assert by_race[race] == 2, race  # the castle title and the prince title
    assert titles["vandal"]["awarded_when_played"] == "monster"
    assert titles["staff_rat"]["awarded_when_played"] == "hero"


# ---------------------------------------------------------------- English and Russian

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")


def test_every_card_reads_in_english_and_russian(kb):
    """No English edition exists: every card has a designed English name and the rulebook's Russian
    words, and neither language borrows from the other."""
    for eid, r in records_by_entity(kb).items():
        for key in ("name", "text"):
            en, ru = r[key].get("en"), r[key].get("ru")
            assert en and not CYRILLIC.search(en), (eid, key, en)
            assert ru and not LATIN.search(ru), (eid, key, ru)


@pytest.mark.parametrize("lang,foreign", [("en", CYRILLIC), ("ru", LATIN)])
def test_a_whole_game_reads_in_one_language(kb, lang, foreign):
    """Every log line of a game (the experienced variant: hidden titles too), as a spectator and as
    a player reads it, is wholly in the chosen language."""
    for reader in (None, 0):
        lines = []
        session = Session(kb, 4, 3, ("experienced",), keep_labels=False, lang=lang, reader=reader,
                          account=telling(lambda to, text: lines.append(text)))
        rng = random.Random(3)
        while session.pending is not None:
            session.answer(rng.randrange(len(session.pending.values)))
        assert len(lines) > 50
        for text in lines:
            assert not foreign.search(text), text


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_counts_many_seeds(kb, players):
    """Counts come from the records, so that adding a card changes what is expected, not the test."""
    gone = max(0, 4 - players)
    recs = records_by_entity(kb).values()
    per_race = Counter((r.get("race"), r["kind"]) for r in recs)
    cards_total = sum(1 for r in recs if r["kind"] != "title")
    titles_total = sum(1 for r in recs if r["kind"] == "title")
    for seed in range(20):
        session = Session(kb, players, seed, start=False)
        session.call("setup")
        state = session.state
        removed = list(zone(state, "removed"))
        races = {c.attrs["race"] for c in removed if c.kind in ("unit", "castle")}
        assert len(races) == gone and "humans" not in races
        assert sum(1 for c in removed if c.kind == "unit") == sum(per_race[(race, "unit")] for race in races)
        assert sum(1 for c in removed if c.kind == "castle") == sum(per_race[(race, "castle")] for race in races)
        assert Counter(c.attrs["strength"] for c in removed if c.kind == "obelisk") == ({1: gone, 2: gone, 3: gone} if gone else {})
        removed_titles = [t for t in removed if t.kind == "title"]
        assert {t.attrs.get("race") for t in removed_titles} <= races
        assert len(removed_titles) == sum(per_race[(race, "title")] for race in races)
        cards = list(zone(state, "deck")) + [c for s in range(players) for c in zone(state, "hand", s)]
        assert len(cards) == cards_total - sum(1 for c in removed if c.kind != "title")
        assert all(c.attrs.get("race") not in races for c in cards)
        assert all(len(zone(state, "hand", s)) == 6 for s in range(players))
        assert len(zone(state, "title_row")) == 6
        assert len(zone(state, "title_pool")) == titles_total - len(removed_titles) - 6
        first, last = state.game_vars["first_player"], state.game_vars["last_player"]
        assert last == (first - 1) % players, "the player to the first player's right holds the last-player card"


# ---------------------------------------------------------------- many random games

RANDOM_GAMES = 80  # per player count; thousands are a soak run (README.md)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(kb, players):
    first_players = Counter()
    for seed in range(RANDOM_GAMES):
        rng = random.Random(seed * 31 + players)
        session = play_random(kb, players, seed, rng)
        assert session.error is None
        check_final_state(session, players)
        first_players[session.state.game_vars["first_player"]] += 1
    assert set(first_players) == set(range(players)), "the first player is chosen at random"


@pytest.mark.parametrize("players", [3, 5])
def test_random_games_experienced(kb, players):
    for seed in range(60):
        rng = random.Random(seed)
        session = play_random(kb, players, seed, rng, variants=("experienced",))
        check_final_state(session, players, variants=("experienced",))


# The turn lines the content logs: "P1 lays down x", "P1 garrisons d with u", "P1: u captures/destroys ...",
# "P1 returns 2 card(s) ...", "P1 has no card left and passes".
TURN_LINE = re.compile(r"^P(\d+)(?: lays down | garrisons |: .+ (?:captures|destroys) | returns (\d+) card| has no card)")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_end_of_game_rule(kb, players):
    """'Если из колоды взята последняя карта... Продолжайте делать ходы как обычно... пока не наступит черёд
    последнего игрока. Он делает завершающий ход партии': the game ends after the first turn of the holder of the
    last-player card that starts with an empty deck - also when the deck ran out on another player's turn, and a
    whole round later when it ran out on his own turn."""
    cases = Counter()
    for seed in range(80):
        turns = []
        holder = {}

        def account(to, text):
            m = TURN_LINE.match(text)
            if m:
                deck = len(holder["session"].state.zone("deck")) - int(m.group(2) or 0)
                turns.append((int(m.group(1)) - 1, deck))

        session = Session(kb, players, seed, keep_labels=False, account=telling(account), start=False)
        holder["session"] = session
        session.call("play_game")
        rng = random.Random(seed)
        while session.pending is not None:
            session.answer(rng.randrange(len(session.pending.values)))
        first = session.state.game_vars["first_player"]
        last = session.state.game_vars["last_player"]
        assert [s for s, _ in turns] == [(first + i) % players for i in range(len(turns))], "turns go clockwise"
        empty_from = next((i for i, (_, deck) in enumerate(turns) if deck == 0), None)
        assert empty_from is not None, f"seed {seed}: the game ended with cards left in the deck"
        assert all(deck == 0 for _, deck in turns[empty_from:])
        end = next((i for i, (s, deck) in enumerate(turns) if deck == 0 and s == last), None)
        assert end is not None, f"seed {seed}: the game ended before the last player's turn with an empty deck"
        assert len(turns) == end + 1, f"seed {seed}: the game must end right after turn {end + 1}"
        emptied_by = turns[empty_from - 1][0]
        cases["emptied by the last player" if emptied_by == last else "emptied by another player"] += 1
        if emptied_by == last:
            assert end - empty_from == players - 1, "one more full round"
    assert cases["emptied by another player"] > 0 and cases["emptied by the last player"] > 0, cases


# ---------------------------------------------------------------- determinism and the reference game

def test_determinism(kb):
    for players in (2, 4, 5):
        digests = []
        for _ in range(2):
            session = play_random(kb, players, 42, random.Random(7))
            digests.append((session.state.digest(), session.history, session.result.scores))
        assert digests[0] == digests[1]
    a = play_random(kb, 4, 42, random.Random(7)).state.digest()
    b = play_random(kb, 4, 43, random.Random(7)).state.digest()
    c = play_random(kb, 4, 42, random.Random(8)).state.digest()
    assert len({a, b, c}) == 3, "the digest must depend on the seed and on the answers"


def test_same_answers_by_label_replay_identically(kb):
    session = Session(kb, 3, 5)
    rng = random.Random(1)
    labels = []
    while session.pending is not None:
        i = rng.randrange(len(session.pending.values))
        labels.append(session.pending.labels[i])
        session.answer(i)
    again = Session(kb, 3, 5)
    for label in labels:
        again.answer(label)
    assert again.pending is None
    assert again.state.digest() == session.state.digest()


def _reference():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import reference_kings_bounty
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return reference_kings_bounty


def _without_records(source: str, ids: set) -> str:
    """A component file's text without the top-level records whose id is in `ids`."""
    chunks = re.split(r"(?m)^(?=- )", source)
    return "".join(c for c in chunks if not any(re.match(rf"- id: {re.escape(i)}\s*$", c.splitlines()[0]) for i in ids))


@pytest.fixture(scope="module")
def rulebook_kb(kb, tmp_path_factory):
    """The game as the rulebook prints it, which the hand-written reference plays: cards an author
    designed on top of it (source: designed ...) are left out of a copy, so adding one breaks no agreement."""
    extra = {rec.id for rec in kb.content.records if not rec.data["source"].startswith("rulebook")}
    if not extra:
        return kb
    root = tmp_path_factory.mktemp("rulebook") / "kings_bounty"
    shutil.copytree(ROOT / "content" / "kings_bounty", root)
    for path in root.glob("cards/*.yaml"):
        path.write_text(_without_records(path.read_text(encoding="utf-8"), extra), encoding="utf-8")
    return load_compiled(str(root))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_matches_reference_implementation(rulebook_kb, players):
    ref = _reference()
    for seed in range(50):
        expected = ref.play_game(seed, players)
        session = play_random(rulebook_kb, players, seed, random.Random(seed + 1))
        got = {"scores": session.result.scores, "winner": session.result.winners[0], "decisions": session.result.decisions}
        assert got == expected, f"seed {seed}"


# ---------------------------------------------------------------- rules checked through the Session API

def _arranged(kb, players, moves, **game_vars):
    """A session on an empty table (no setup) with cards moved by id: {entity id: (zone, owner)}."""
    session = Session(kb, players, 0, start=False)
    state = session.state
    for eid, (name, owner) in moves.items():
        target = state.zone(name, state.entities[owner] if isinstance(owner, str) else owner)
        state.place(state.entities[eid], target)
    state.game_vars.update(game_vars)
    return session


@pytest.mark.parametrize("first, tied, winner", [
    (2, (0, 3), 3),   # from P3: P3, P4, P1, P2 - P4 sits nearer than P1
    (2, (1, 2), 2),   # the first player himself is nearest
    (0, (1, 3), 1),
    (3, (0, 2), 0),
])
def test_tie_break_nearest_to_first_player_clockwise(kb, first, tied, winner):
    """'Если у нескольких игроков поровну очков, побеждает тот из них, кто сидит ближе к первому игроку,
    считая от него по часовой стрелке.'"""
    obelisks = iter(["obelisk_1_1", "obelisk_1_2", "obelisk_2_1", "obelisk_2_2"])
    moves = {}
    for seat in tied:
        moves[next(obelisks)] = ("domains", seat)
    session = _arranged(kb, 4, moves, first_player=first, last_player=(first - 1) % 4)
    session.call("final_scoring")
    assert session.pending is None
    assert session.result.scores == [2 if s in tied else 0 for s in range(4)]
    assert session.result.winners == [winner]


def test_return_cards_needs_at_least_one_card(kb):
    """'вернуть ... любое число карт ... (в любом порядке, но не меньше одной карты)'"""
    hand = ["elves_tower_1", "obelisk_1_1", "humans_archer_1"]
    session = _arranged(kb, 2, {c: ("hand", 0) for c in hand})
    session.call("turn", [0])
    assert "return_cards" in session.pending.labels
    assert not any(label.startswith("pass") for label in session.pending.labels), "a turn cannot be skipped"
    session.answer("return_cards")
    assert sorted(session.pending.labels) == sorted(hand), "the first pick has no 'done'"
    before = session.state.digest()
    with pytest.raises(IllegalDecision):
        session.answer("done")
    assert session.state.digest() == before
    session.answer("obelisk_1_1")
    assert "done" in session.pending.labels
    session.answer("done")
    assert session.pending is None
    assert [c.id for c in session.state.zone("hand", 0)] == ["elves_tower_1", "humans_archer_1", "obelisk_1_1"]


def test_player_with_empty_hand_passes(kb):
    session = _arranged(kb, 2, {"obelisk_1_1": ("deck", None)})
    session.call("turn", [1])
    assert session.pending is None
    assert [c.id for c in session.state.zone("deck")] == ["obelisk_1_1"], "a pass draws nothing"
