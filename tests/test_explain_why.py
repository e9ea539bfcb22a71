"""`rules explain`: --why EXPR [--at N] takes a value of the rules apart on a logged table (issue 22 §2),
and the default account says each thing once per decision, in names, numbered as `rules replay` numbers."""
from __future__ import annotations

import json
import random
import re

import pytest

from cli_run import run
from interpreter.runtime.gamelog import make_log, write_log
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from interpreter.present.words import telling


def _logged(tmp_path, game_id: str, players: int, seed: int, pick=None, variants=(), lines=None):
    """A bot game written as a log; `pick(decision, rng)` may choose an option index (else a random one)."""
    game = load_compiled(game_id)
    box: list = []
    account = telling(lambda to, text: lines.append((len(box[0].history), text))) if lines is not None else None
    session = Session(game, players, seed, variants, account=account, start=False)
    box.append(session)
    session.call(game.content.manifest["start"])
    rng = random.Random(seed)
    while session.pending is not None:
        d = session.pending
        choice = pick(d, rng) if pick else None
        session.answer(choice if choice is not None else rng.randrange(len(d.values)))
    path = tmp_path / f"{game_id}.json"
    write_log(make_log(session, game_id), path)
    return path, session


def _titles(session) -> dict:
    return {e.id: e.zone.owner for e in session.state.entities.values() if e.kind == "title" and e.zone is not None}


def test_kings_bounty_title_change_is_explained_by_each_players_score(tmp_path, capsys):
    """The first decision after which a title changes hands: --why shows every player's score for it,
    each with the castles counted; the new holder has the one highest score."""
    path, _ = _logged(tmp_path, "kings_bounty", 4, 3)
    log = json.loads(path.read_text(encoding="utf-8"))
    game = load_compiled("kings_bounty")
    session = Session(game, 4, 3)
    before = _titles(session)
    for n, (index, _) in enumerate(log["decisions"], 1):
        session.answer(index)
        now = _titles(session)
        changed = [t for t in now if now[t] != before[t] and isinstance(now[t], int)]
        if changed:
            break
        before = now
    title = session.state.entities[changed[0]]
    holder = now[title.id]
    code, out, err = run(capsys, "explain", path, "--why", f"[@{title.id}.score(q) for q in players]", "--at", n)
    assert code == 0, err
    lines = out.splitlines()
    name = title.attrs["name"].get("en")
    scores = {}
    for line in lines[1:]:
        m = re.match(rf"  score \(P(\d)\) of {re.escape(name)} = (\d+)", line)
        if m:
            scores[int(m.group(1)) - 1] = int(m.group(2))
    assert sorted(scores) == [0, 1, 2, 3], out
    assert scores[holder] == max(scores.values()) and list(scores.values()).count(scores[holder]) == 1, out
    assert lines[0].endswith(" = " + ", ".join(str(scores[p]) for p in range(4)))
    # each score shows its source: the rule text of the title's condition and what it counted, by name
    mine = next(line for line in lines if line.startswith(f"  score (P{holder + 1})"))
    assert "domains of p" in mine and ("counted: " in mine or scores[holder] == 0), mine
    assert "_" not in mine.split("counted: ")[-1], "components are named, not given by id"
    # the table before that decision: the same expression gives other values (the title was not theirs then)
    code, out_before, _ = run(capsys, "explain", path, "--why", f"[@{title.id}.score(q) for q in players]", "--at", n - 1)
    assert code == 0 and out_before.splitlines()[0] != lines[0]


# the House cards with a modifier: bots play them whenever they can
FAVOURITES = {"catelyn_stark", "ser_kevan_lannister", "stannis_baratheon", "ser_davos_seaworth", "salladhor_saan",
              "victarion_greyjoy", "balon_greyjoy", "theon_greyjoy", "asha_greyjoy", "nymeria_sand"}


def _favourites(d, rng):
    ids = [getattr(v, "id", None) for v in d.values]
    return next((i for i, x in enumerate(ids) if x in FAVOURITES), None)


def test_agot_final_strength_shows_units_and_two_modifiers_with_their_sources(tmp_path, capsys):
    """Ser Kevan doubles the attacker's footmen; Balon Greyjoy, the defender's card, brings Kevan's printed
    strength to 0: the attacker's final strength shows both modifiers, whose they are and where they are written."""
    lines: list = []
    path, session = _logged(tmp_path, "agot", 6, 10, _favourites, ("houses_fixed",), lines=lines)
    code, out, err = run(capsys, "explain", path, "--why", "final_strength(attacker)", "--at", 339)
    assert code == 0, err
    text = out.splitlines()
    assert text[0] == "final_strength(attacker) = 6", out
    assert any(line.strip().startswith("units strength (P2) = 6") for line in text), out
    kevan = [line for line in text if "modifier of Ser Kevan Lannister, P2 = 2" in line]
    assert len(kevan) == 2 and all("value * 2: 1 → 2" in line and "house_cards.yaml:" in line for line in kevan), out
    balon = [line for line in text if "modifier of Balon Greyjoy, P4 = 0" in line]
    assert len(balon) == 1 and "1 → 0" in balon[0], out
    assert any(line.strip() == "Ser Kevan Lannister: c.strength = 1" for line in text), out
    # the game itself told the same strength when it settled that combat
    told = [t for n, t in lines if 339 <= n <= 345 and "strength" in t and "units" in t]
    assert told and told[0].startswith("P2: strength 6 (units 6, support 0, order 0, garrison 0, House card 0"), told
    # --json: the same parts, sources and values
    code, out, _ = run(capsys, "explain", path, "--why", "final_strength(attacker)", "--at", 339, "--json")
    data = json.loads(out)
    assert data["decision"] == 339 and data["value"] == "6"

    def walk(p):
        yield p
        for c in p.get("parts", []):
            yield from walk(c)
    mods = [p for p in walk(data) if p["kind"] == "modifier"]
    assert {m["what"] for m in mods} == {"modifier of Ser Kevan Lannister, P2", "modifier of Balon Greyjoy, P4"}


def test_btwixt_bid_total_shows_each_card_and_the_modifier_that_raised_it(tmp_path, capsys):
    log = tmp_path / "bt.json"
    assert run(capsys, "play", "btwixt", "--players", 4, "--seed", 3, "--quiet", "--log", log)[0] == 0
    code, out, err = run(capsys, "explain", log, "--why", "bid_total(P4)", "--at", 30)
    assert code == 0, err
    assert out.splitlines() == [
        "bid_total(P4) = 7",
        "  before modifiers = 5",
        "    influence of (Whispers) = 1  (c.influence)",
        "    influence of (Intimidation #1) = 4  (c.influence)",
        "  modifier of Flattery #2, P3 = 7  (value + 2: 5 → 7)  [content/btwixt/cards/influence.yaml:627:5]",
    ]
    # in Russian: the names and the frame words
    code, out, err = run(capsys, "explain", log, "--why", "bid_total(P4)", "--at", 30, "--lang", "ru")
    assert "модификатор: Лесть №2, Игрок 3 = 7" in out and "Запугивание №1" in out


def test_why_refuses_bad_expressions_and_decisions(tmp_path, capsys):
    log = tmp_path / "bt.json"
    assert run(capsys, "play", "btwixt", "--players", 4, "--seed", 3, "--quiet", "--log", log)[0] == 0
    code, out, err = run(capsys, "explain", log, "--why", "bid_totl(P4)")
    assert code == 1 and "REF-UNDEF" in err and "bid_total" in err and "^" in err
    code, out, err = run(capsys, "explain", log, "--why", "bid_total(P4)", "--at", 100000)
    assert code == 2 and "--at 100000" in err
    code, out, err = run(capsys, "explain", log, "--at", 3)
    assert code == 2 and "--why" in err


def test_explain_says_each_thing_once_per_decision_in_names(tmp_path, capsys):
    log = tmp_path / "bt.json"
    assert run(capsys, "play", "btwixt", "--players", 4, "--seed", 3, "--quiet", "--log", log)[0] == 0
    code, out, _ = run(capsys, "explain", log)
    assert code == 0
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert len(heads) == len(set(heads)), "the same entry twice"
    assert "its condition does not hold" not in out
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", out.replace(".yaml", "")), "ids where names belong"
    code, out, _ = run(capsys, "explain", log, "--json")
    entries = json.loads(out)
    controllers = {item["controller"] for e in entries for item in e["order"]}
    assert controllers and all(c is None or re.fullmatch(r"P\d", c) for c in controllers), controllers
    assert all(e["times"] >= 1 for e in entries)
    # --all keeps the modifiers that did not apply
    code, out_all, _ = run(capsys, "explain", log, "--all")
    assert len(out_all.splitlines()) > len(out.splitlines()) or "does not hold" in out_all


def test_replay_numbers_decisions_as_explain_does(tmp_path, capsys):
    log = tmp_path / "bt.json"
    assert run(capsys, "play", "btwixt", "--players", 4, "--seed", 3, "--quiet", "--log", log)[0] == 0
    code, out, _ = run(capsys, "explain", log, "--json")
    entry = next(e for e in json.loads(out) if e["event_id"] == "played")
    card = entry["args"][0]
    code, out, _ = run(capsys, "replay", log)
    assert code == 0
    text = out.splitlines()
    marks = [i for i, line in enumerate(text) if line == f"decision {entry['decision']} ({entry['args'][1]})"]
    assert len(marks) == 1, entry
    following = text[marks[0] + 1:]
    following = following[:next((i for i, line in enumerate(following) if line.startswith("decision ")), len(following))]
    assert any(f"plays {card}" in line for line in following), (entry, following)


@pytest.mark.parametrize("lang,word", [("en", "after decision"), ("ru", "после решения")])
def test_explain_speaks_the_readers_language(tmp_path, capsys, lang, word):
    log = tmp_path / "bt.json"
    assert run(capsys, "play", "btwixt", "--players", 4, "--seed", 3, "--quiet", "--log", log)[0] == 0
    code, out, _ = run(capsys, "explain", log, "--lang", lang)
    assert code == 0 and word in out


# ---------------------------------------------------------------- inside a decision's resolution (issue 35 item 2)
@pytest.fixture(scope="module")
def agot_combat(tmp_path_factory):
    """An AGoT game with a combat: its log, the decision after which the combat is decided, and the strengths
    the game told then (winner's, loser's)."""
    lines: list = []
    path, session = _logged(tmp_path_factory.mktemp("agot"), "agot", 4, 5, lines=lines)
    won = next((n, t) for n, t in lines if " wins the combat in " in t)
    n = won[0]
    told = {m[1]: int(m[2]) for k, t in lines if k == n for m in [re.match(r"^(P\d): strength (-?\d+) \(units", t)] if m}
    winner = won[1].split(" wins the combat")[0]
    loser = next(p for p in told if p != winner)
    return path, n, told[winner], told[loser], winner, loser


def test_why_at_the_combats_resolution_reads_the_strengths_the_game_told(agot_combat, capsys):
    path, n, strong, weak, winner, loser = agot_combat
    code, out, err = run(capsys, "explain", path, "--why", "final_strength(w)", "--at", f"{n}:combat_decided")
    assert code == 0, err
    lines = out.splitlines()
    assert re.fullmatch(rf"\(after decision {n}, step \d+: combat decided \({winner}, {loser}\)\)", lines[0]), out
    assert lines[1] == f"final_strength(w) = {strong}", out  # the event's own parameters are readable there
    code, out, err = run(capsys, "explain", path, "--why", "final_strength(l)", "--at", f"{n}:combat_decided", "--json")
    data = json.loads(out)
    assert data["decision"] == n and data["value"] == str(weak) and data["at"].endswith(f"combat decided ({winner}, {loser})")
    # the same point by its number among the steps that follow decision n
    code, listing, _ = run(capsys, "explain", path, "--steps", n)
    assert code == 0
    step = next(int(m[1]) for line in listing.splitlines() for m in [re.match(r"^ *step (\d+): combat decided ", line)] if m)
    assert step == data["step"]
    code, out, _ = run(capsys, "explain", path, "--why", "final_strength(P1) + 0", "--at", f"{n}:{step}")
    assert code == 0 and out.splitlines()[0] == lines[0]
    # before the first step of that resolution the combat is not decided yet: nobody has won it
    code, out, _ = run(capsys, "explain", path, "--why", "winner", "--at", f"{n}:1")
    assert code == 0 and not out.splitlines()[1].endswith(f"= {winner}"), out


@pytest.mark.parametrize("at, message, code", [
    ("12:", "write N, N:STEP, N:EVENT or N:EVENT#K", 2),
    ("12:0", "write N, N:STEP, N:EVENT or N:EVENT#K", 2),
    ("3:combat_decidd", "no procedure or event 'combat_decidd'", 2),
    ("3:100000", "steps follow decision 3", 2),
    ("3:combat_decided#40", "'combat_decided' is called 0 times after decision 3", 2),
])
def test_a_point_that_is_not_there_is_a_clear_error(agot_combat, capsys, at, message, code):
    path = agot_combat[0]
    got, out, err = run(capsys, "explain", path, "--why", "round", "--at", at)
    assert got == code and message in err, err


def test_why_names_the_value_that_was_none(agot_combat, capsys):
    path = agot_combat[0]
    code, out, err = run(capsys, "explain", path, "--why", "top(in_play of P2).strength", "--at", 3)
    assert code == 0, err
    assert out.strip() == ("top(in_play of P2).strength = cannot be computed here: top(in_play of P2) is none here "
                           "(no component, player or zone)"), out
    code, out, err = run(capsys, "explain", path, "--why", "top(in_play of P2).strength", "--at", 3, "--lang", "ru")
    assert "top(in_play of P2) здесь не имеет значения" in out, out
