"""What a player is shown names nothing hidden from them (issue 10, section 1), and reads as words.

The property test plays random games of every game in content/, at every player count, and at
every decision renders what the decider is shown (the question, each option, each option's key,
the table) and looks in it for any component the decider cannot see (`interpreter.present.views.can_see`):
its id, its name when no component the decider sees has that name, or its name with its values
when no component the decider sees reads the same.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.core.decisions import Decision
from interpreter.runtime.games import load_compiled
from dsl.translations import player_texts
from interpreter.present.words import Presenter, card_text, describe, entity_name, prompt, shown_to
from interpreter.runtime import Session
from interpreter.present.words import telling
from interpreter.present.table import table_model
from interpreter.present.terminal import option_order, screen, whole_table
from interpreter.present.views import can_see

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())
REVEAL_DISCARD = ROOT / "tests" / "fixtures" / "reveal_discard"
WORD = re.compile(r"[A-Za-z0-9_]+")


_DESCRIBED: dict = {}


def _describe(e, lang: str = "en", state=None) -> str:
    k = (e, e.face_down, lang)  # the object itself: ids repeat across games
    if k not in _DESCRIBED:
        _DESCRIBED[k] = Presenter(state, None, lang).describe(e)
    return _DESCRIBED[k]


def _words(names) -> re.Pattern | None:
    names = sorted(names, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")(?!\w)") if names else None


def leaks(state, viewer, texts: list[str], lang: str = "en") -> list[str]:
    """Every hidden component named in `texts`: by id, by a name no visible component has, or by its
    name and values when no visible component reads the same."""
    hidden, visible = [], []
    for e in state.entities.values():
        (visible if can_see(e, viewer) else hidden).append(e)
    blob = "\n".join(texts)
    words = set(WORD.findall(blob))
    found = [f"id {e.id}" for e in hidden if e.id in words]
    seen_names = {entity_name(e, lang) for e in visible}
    named = [n for n in {entity_name(e, lang) for e in hidden} - seen_names if n in blob]
    if named:
        # what is left once every visible component's name is taken out (`Supply 0` may be shown
        # while a hidden card is called `Supply`)
        rest = _words(seen_names).sub("\0", blob) if seen_names else blob
        found += [f"name {m!r}" for m in set(_words(named).findall(rest))]
    seen_full = {_describe(e, lang, state) for e in visible}
    rest = blob
    for full in sorted(seen_full, key=len, reverse=True):  # `Special Raid Order (bonus 0)` holds `Raid Order (bonus 0)`
        rest = rest.replace(full, "\0")
    for full in {_describe(e, lang, state) for e in hidden} - seen_full:
        if full in rest:
            found.append(f"name and values {full!r}")
    return found


def shown_texts(decision: Decision, state, session=None) -> list[str]:
    """The question, the options and the table, without the printed card texts (which may mention
    other cards by name: `keys_leak` checks them); with a session, also the terminal's screen and whole
    table drawn from the table model (interpreter.present.table), as the decider sees them."""
    shown = shown_to(decision, state)
    texts = [shown.prompt, *shown.options]
    if session is not None:
        model = table_model(session, decision.player)
        pr = Presenter(state, decision.player)
        lines, _ = screen(model, pr, shown, option_order(decision, state), [], "")
        texts += lines + whole_table(model, pr)
    return texts


_TIP = re.compile(r'<span class="tip" role="tooltip"><b>(.*?)</b><br>(.*?)</span>', re.S)
_ATTRS = re.compile(r'\s(?:title|aria-label|alt)="([^"]*)"')
_REF = re.compile(r'\sdata-(?:ref|area)="([^"]*)"')


def markup_words(html_text: str, printed: list | None = None, refs: list | None = None) -> str:
    """What a page's markup says to a reader: its text and the words of its `title`, `aria-label` and `alt`
    attributes (a browser shows them on hover or reads them aloud), without the printed card texts (put in
    `printed`: they may name other cards, and are checked to be texts of components the reader sees) and
    with the ids the markup names put in `refs` (each must be of a component the reader sees)."""
    import html as htmlmod

    def cut(m):
        if printed is not None:
            printed.append(f"{htmlmod.unescape(m.group(1))}: {htmlmod.unescape(m.group(2))}")
        return " "
    html_text = _TIP.sub(cut, html_text)
    if refs is not None:
        refs.extend(htmlmod.unescape(r) for r in _REF.findall(html_text))
    said = " ".join(htmlmod.unescape(a) for a in _ATTRS.findall(html_text))
    return htmlmod.unescape(re.sub(r"<[^>]+>", " ", html_text)) + " " + said


def scene_leaks(session, viewer, lang: str = "en") -> list:
    """The scene drawn for `viewer` (interpreter.present.scene, as interpreter.web.draw writes it: card faces,
    badges, tokens on the board, tracks, titles) names no component hidden from it, prints no text of one, and
    attaches no hidden component's id to anything; and the faces shown beside the pending options (icon and
    colour, as the page draws them for the components those options name) are of components it sees."""
    pytest.importorskip("markupsafe")
    from interpreter.present.options import option_refs
    from interpreter.present.scene import scene
    from interpreter.present.scene_board import static_board
    from interpreter.web import draw
    state = session.state
    model = table_model(session, viewer, lang)
    pr = Presenter(state, viewer, lang)
    d = session.pending
    named = {c for r in option_refs(d, state, viewer) for c in r.components} if d is not None and d.player == viewer else set()
    drawn = scene(model, state, pr, named)
    parts = [draw.zone_html(z, model.texts) for p in [drawn.me, *drawn.others] if p for z in p.zones]
    parts += [draw.option_face(drawn.faces[c]) for c in named if c in drawn.faces]
    parts += [draw.zone_html(z, model.texts, True) for z in drawn.shared] + [draw.track_html(t) for t in drawn.tracks]
    if drawn.board is not None:
        parts.append(draw.board_svg(drawn.board, draw.labels_svg(static_board(state, state.voc.table, pr)), {"board": "board"}))
    printed, refs = [], []
    words = markup_words("".join(parts), printed, refs)
    found = leaks(state, viewer, [words], lang)
    seen = {f"{_describe(e, lang, state)}: {card_text(e, lang)}" for e in state.entities.values() if can_see(e, viewer)}
    found += [f"printed text {t!r}" for t in printed if t not in seen]
    areas = {a.ref for a in model.areas}
    found += [f"id {r!r}" for r in refs if r not in areas and not can_see(state.entities[r], viewer)]
    found += [f"the face of {r!r}" for r in drawn.faces if not can_see(state.entities[r], viewer)]
    return found


def keys_leak(decision: Decision, state, lang: str = "en", session=None) -> list:
    """Printed texts shown (an option's key, the texts the table spells out) not of a component the decider sees."""
    keys = [f"{name}: {text}" for option in shown_to(decision, state).keys for name, text in option]
    if session is not None:
        keys += [f"{name}: {text}" for name, text in table_model(session, decision.player).texts.values()]
    if not keys:
        return []
    seen = {f"{_describe(e, lang, state)}: {card_text(e, lang)}" for e in state.entities.values()
            if can_see(e, decision.player)}
    return [k for k in keys if k not in seen]


# Whole random games of these take 15-35 s each: one game per player count, and their variants in two games
# (every variant in one of them, alternate ones together, so that two variants that replace each other are
# never in the same game); the language alternates, so that each is read at some count and in some variants.
HEAVY = {"agot"}


def configurations():
    """Every player count (two games each; one for a heavy game), and each variant once at the default count."""
    for name in GAMES:
        game = load_compiled(name)
        spec = game.content.manifest["players"]
        heavy = name in HEAVY
        marks = [pytest.mark.slow] if heavy else []  # started first (tests/conftest.py)
        for players in range(spec["min"], spec["max"] + 1):
            yield pytest.param(name, players, (), 1 if heavy else 2, players if heavy else 0, id=f"{name}-{players}p", marks=marks)
        variants = sorted(game.content.manifest.get("variants") or {})
        players = spec.get("default") or spec["min"]
        groups = [tuple(variants[i::2]) for i in range(2)] if heavy else [(v,) for v in variants]
        for i, group in enumerate(g for g in groups if g):
            yield pytest.param(name, players, group, 1, 1 + i if heavy else 1, id=f"{name}-{players}p-{'+'.join(group)}", marks=marks)
    # cards revealed from a hand, and discard piles whose owner sees them all and the others only their top
    for players in (2, 3):
        yield pytest.param(str(REVEAL_DISCARD), players, (), 4, 0, id=f"reveal_discard-{players}p")


@pytest.mark.parametrize("name,players,variants,games,first", list(configurations()))
def test_nothing_shown_to_the_decider_names_a_hidden_component(name, players, variants, games, first):
    """Issue 10, sections 1 and 3: the decider's question, options and table, and every log line as its
    reader reads it (a line told to everyone through a spectator's view, a line told to P through P's),
    name no component hidden from them; in every language of the game."""
    game = load_compiled(name)
    checked = 0
    languages = game.content.vocabulary.languages
    messages = [game.content.translations.message(t) for t in player_texts(game.content.modules)]
    literals = set(_string_literals(game.content.modules))
    for seed in range(games):
        lang = languages[(seed + first) % len(languages)]  # the variants' games are read in another language
        written = {p for m in messages for p in m.pieces(lang) if isinstance(p, str)} | literals
        written = sorted((p for p in written if len(p) > 3), key=len, reverse=True)
        lines: list = []

        def told(to, text):
            found = leaks(session.state, to, [unwritten(text, written)], lang)
            assert not found, f"seed {seed} ({lang}), the line {text!r} told to {'everyone' if to is None else f'P{to + 1}'}: {found}"
            lines.append(text)

        session = Session(game, players, seed, variants, account=telling(told), lang=lang, start=False)
        session.call(game.content.manifest["start"])
        rng = random.Random(seed)
        while session.pending is not None:
            d = session.pending
            state = session.state
            found = leaks(state, d.player, [unwritten(t, written) for t in shown_texts(d, state, session)], lang)
            assert not found, f"seed {seed} ({lang}), {d.source!r} shown to P{d.player + 1}: {found}"
            assert not keys_leak(d, state, lang, session), f"seed {seed}, {d.source!r}: keys {keys_leak(d, state, lang, session)}"
            assert d.source not in shown_to(d, state).prompt or d.question.words is not None
            if checked % 7 == 0:  # the page's scene too (not at every decision: it is the slowest to draw)
                found = scene_leaks(session, d.player, lang)
                assert not found, f"seed {seed} ({lang}), the scene drawn for P{d.player + 1} at {d.source!r}: {found}"
            checked += 1
            session.answer(rng.randrange(len(d.values)))
        assert lines, "the game told nothing"
    assert checked > 0


def unwritten(text: str, written: list) -> str:
    """A text without what the rule text itself writes, which may name a card (`Winter is Coming: ...`,
    an option `Take Supply`): what is left are the values rendered through the view."""
    for piece in written:
        text = text.replace(piece, "\0")
    return text


def _string_literals(modules):
    """Every plain piece of every string of the rule text (`"Raid orders"` returned by a function)."""
    from dsl import ast
    stack = list(modules)
    while stack:
        node = stack.pop()
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, ast.Str):
            yield from (p for p in node.parts if isinstance(p, str))
            stack.extend(p for p in node.parts if not isinstance(p, str))
        elif hasattr(node, "__dict__") and not isinstance(node, (str, int)):
            stack.extend(v for v in vars(node).values() if isinstance(v, (list, tuple)) or hasattr(v, "__dict__"))


def _ygritte_decision():
    """B'Twixt's Ygritte takes a face-down power token from a council that is not yours: the decider
    cannot see the tokens' values, and the labels name them by id (power_3_1)."""
    game = load_compiled("btwixt")
    for seed in range(200):
        session = Session(game, 4, seed)
        rng = random.Random(seed)
        while session.pending is not None:
            d = session.pending
            if "t.kind == token" in d.source and len(d.values) > 1:
                return session, d
            session.answer(rng.randrange(len(d.values)))
    raise AssertionError("no random game reached the token choice")


def test_the_check_catches_labels_that_name_face_down_tokens():
    session, d = _ygritte_decision()
    state = session.state
    assert any(label.startswith("power_") for label in d.labels)  # the stable labels keep their ids
    assert leaks(state, d.player, d.labels)  # so showing labels, as the terminal once did, leaks
    shown = shown_to(d, state)
    assert not leaks(state, d.player, shown_texts(d, state))
    # each token read by where it lies, and each option distinct
    assert all(re.fullmatch(r"face-down token( \d+ of \d+)? in .*council.*", o) for o in shown.options), shown.options
    assert len(set(shown.options)) == len(shown.options)
    assert not any(shown.keys)  # no key: the tokens' texts would tell their values


def test_a_token_its_placer_still_knows_reads_with_its_value():
    session, _ = _ygritte_decision()
    state = session.state
    tokens = [e for e in state.entities.values() if e.kind == "token" and e.face_down]
    assert tokens and all(e.seen_by is None for e in tokens)  # taken from the supply unseen: nobody knows them
    e = tokens[0]
    for p in range(state.players):
        assert "Power token" not in Presenter(state, p).entity(e) and "value" not in Presenter(state, p).entity(e)
    e.seen_by = 2  # a face-down component whoever placed it still knows
    assert Presenter(state, 2).entity(e) == f"Power token (value {e.attrs['value']}, face down)"
    assert Presenter(state, 1).entity(e).startswith("face-down token")


def test_shared_zones_read_as_shared_with_a_neighbour():
    game = load_compiled("btwixt")
    state = Session(game, 4, 0).state
    council = state.zone("council", 1)  # P2's council, shared with P3 on P2's left
    assert Presenter(state, 1).zone(council) == "your council with P3 (on your left)"
    assert Presenter(state, 2).zone(council) == "your council with P2 (on your right)"
    assert Presenter(state, 0).zone(council) == "council of P2 and P3"
    assert Presenter(state, 1).zone(state.zone("hand", 1)) == "your hand"
    assert Presenter(state, 0).zone(state.zone("hand", 1)) == "hand of P2"


def test_options_and_prompts_are_words_not_labels_or_rule_text():
    game = load_compiled("kings_bounty")
    session = Session(game, 3, 1)
    d = session.pending
    shown = shown_to(d, session.state)
    assert d.source.startswith("choose by p")  # the rule text is kept for debugging ...
    assert shown.prompt == prompt(d) == "Your turn: play a card, or put cards under the deck"  # ... the player reads words
    assert d.to_json()["source"] == d.source and d.to_json()["options"] == d.labels
    for label, text in zip(d.labels, shown.options):
        assert "_" not in text and not any(w in session.state.entities for w in WORD.findall(text)), text
        if label.startswith("play_domain"):
            assert re.fullmatch(r"Lay down .+ \(strength \d+(, points \d+)?\)", text), text
    assert "Put cards under the deck and draw as many" in shown.options
    # a key gives the full text of the cards an option names
    first = shown.keys[0]
    assert first and all(text for _, text in first)
    assert table_model(session, d.player).texts  # the table spells out the cards the player sees


def test_without_ask_the_prompt_is_a_plain_sentence():
    from interpreter.core.decisions import Question
    d = Decision(0, Question("which ability resolves first (draw)", None, "abilities"), ["a", "b"], "order")
    assert prompt(d) == "Which ability resolves first?" and "draw" in d.source
    d = Decision(0, Question("choose up to 2 kept in bid_pile of you by you", None, "pick up to 2"), [1, 2, 3], "pick")
    assert prompt(d) == "Choose up to 2, one at a time (done to stop)" and d.source.startswith("choose up to 2")
    d = Decision(0, Question("choose r in players", None, "choose"), [0, 1], players=True)
    assert prompt(d) == "Choose one" and shown_to(d, None).options == ["P1 (you)", "P2"]
    assert d.labels == ["P1", "P2"]


# ---------------------------------------------------------------- the `ask` clause in a tiny game
ASK = """\
procedure play():
    let p = players[0]
    move [c for c in pile] to hand of players[1]
    move first(c in hand of players[1]) to hand of p
    choose x in hand of players[1] by p ask "Which of {players[1]}'s {len(hand of players[1])} cards?"
    choose by p ask "What now?":
        keep(c) for c in hand of p ask "Keep {c} worth {c.value}":
            log "kept {c}"
        give_away(c, q) for c in hand of p, q in players where q != p:
            log "gave {c}"
        at_random:
            log "random"
    choose up to 1 picked in hand of p by p
"""


def test_ask_words_are_rendered_for_the_decider(tmp_path):
    from tests.tiny_game import tiny_game
    root = tiny_game(tmp_path, rules=ASK)
    session = Session(load_compiled(str(root)), 2, 0)
    d = session.pending
    state = session.state
    assert prompt(d) == "Which of P2's 2 cards?" and d.source.startswith("choose x in hand of players[1]")
    shown = shown_to(d, state)
    # P1 cannot see P2's hand: the options are where the cards lie, without names or values
    assert shown.options == ["hidden component 1 of 2 in hand of P2", "hidden component 2 of 2 in hand of P2"]
    assert d.labels[0] in state.entities  # the stable labels are ids, as scripts need
    session.answer(0)
    d = session.pending
    shown = shown_to(d, state)
    assert shown.prompt == "What now?"
    mine = state.zone("hand", 0).items[0]
    assert shown.options == [f"Keep {describe(mine)} worth {mine.attrs['value']}",
                             f"give away: {describe(mine)}, P2", "at random"]
    assert d.labels == [f"keep {mine.id}", f"give_away {mine.id} P2", "at_random"]
    assert shown.keys[0] == []  # the tiny game's cards have no text
    session.answer(0)
    assert session.pending is None or prompt(session.pending).startswith("Choose")


def test_ask_cannot_name_what_is_being_chosen_and_is_still_a_name_elsewhere(tmp_path):
    from dsl.loader import load_game
    from tests.tiny_game import tiny_game
    bad = """\
procedure play():
    choose x in pile by players[0] ask "Take {x}?"
"""
    found = [(d.code, d.message) for d in load_game(tiny_game(tmp_path, rules=bad, name="bad")).report.diagnostics]
    assert any(code == "REF-UNDEF" and "'x'" in message for code, message in found), found
    fine = """\
procedure play():
    let ask = len(pile)
    choose x in pile where x.value <= ask by players[0] ask "Take one of {ask}"
    log "took {x}"
"""
    session = Session(load_compiled(str(tiny_game(tmp_path, rules=fine, name="fine"))), 2, 0)
    assert prompt(session.pending) == "Take one of 3"


def test_replay_as_a_player_tells_their_own_decisions_in_words(tmp_path, capsys):
    from interpreter.cli import main
    log = tmp_path / "bt.json"
    assert main(["play", "btwixt", "--players", "4", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--as", "P2"]) == 0
    out = capsys.readouterr().out
    assert "OK: " in out and "(you) Your bid: play an influence card, or kneel: Play " in out
    assert "your council with P3 (on your left)" in out or "your council with P1 (on your right)" in out
    ids = set(Session(load_compiled("btwixt"), 4, 3).state.entities)
    assert not set(WORD.findall(out)) & ids
    assert "choose " not in out


def test_copies_are_numbered_and_what_lies_on_a_card_is_shown(tmp_path):
    from tests.tiny_game import tiny_game
    rules = """\
procedure play():
    let p = players[0]
    move [c for c in pile] to hand of p
    let gem = first(c in hand of p where c.value == 3)
    move first(c in hand of p where c.value == 1) to under of gem
    choose x in hand of p by p ask "Which?"
"""
    session = Session(load_compiled(str(tiny_game(tmp_path, rules=rules))), 2, 0)
    d = session.pending
    shown = shown_to(d, session.state)
    assert sorted(shown.options) == ["Coin (value 1)", "Gem (value 3) [under: Coin (value 1)]"]
    rules = rules.replace("    move first(c in hand of p where c.value == 1) to under of gem\n", "")
    session = Session(load_compiled(str(tiny_game(tmp_path, rules=rules, name="copies"))), 2, 0)
    shown = shown_to(session.pending, session.state)
    assert sorted(shown.options) == ["Coin (value 1) #1", "Coin (value 1) #2", "Gem (value 3)"]
    assert Presenter(session.state, 1).zone(session.state.zone("hand", 0)) == "hand of P1"


# ---------------------------------------------------------------- AGoT asks its questions in words
def _agot_rule_statements() -> set:
    """The first line of every `choose` statement and menu option in AGoT's rules (not its cards' texts)."""
    lines = set()
    for path in sorted((ROOT / "content" / "agot" / "rules").glob("*.rules")):
        lines |= {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    return lines


@pytest.mark.parametrize("players,variants", [(3, ()), (4, ()), (6, ()), (5, ("tides_of_battle",))])
def test_every_agot_rules_decision_is_a_question_in_words(players, variants):
    """Issue 10, section 4: every decision AGoT's rules put to a player (random games) carries an `ask`,
    and so does each option of its menus: no default sentence, no option name read as words."""
    from interpreter.codegen.library import MenuChoice
    from interpreter.present.phrases import say
    from interpreter.present.words import _ASKED, humanize
    game = load_compiled("agot")
    ours = _agot_rule_statements()
    met: set = set()
    for seed in range(2):
        session = Session(game, players, seed, variants)
        rng = random.Random(seed)
        for _ in range(3000):
            d = session.pending
            if d is None:
                break
            head = d.source.splitlines()[0].strip()
            if head in ours:  # a statement of the rules; cards' own choices are not checked here
                met.add(head)
                shown = shown_to(d, session.state)
                assert d.question.words is not None, f"no ask: {head!r}"
                assert shown.prompt not in {say("en", k) for k in _ASKED.values()} and not shown.prompt.startswith("Choose "), head
                for v, text in zip(d.values, shown.options):
                    if isinstance(v, MenuChoice):
                        assert len(v.option) > 3 and v.option[3] is not None, f"option {v.name} of {head!r} has no ask"
                        assert not text.startswith(humanize(v.name)), (head, text)
            session.answer(rng.randrange(len(d.values)))
    # the frequent ones were met: orders, bids, marches, House cards
    assert len(met) >= 8, sorted(met)


def test_btwixt_allies_looked_at_are_shown_to_their_looker():
    """The Spider's Web, Varys (Wildfire), Leeches...: the ruler who looks at the top allies picks or
    orders them by name (`show ... to you`), while the others still read them as hidden."""
    game = load_compiled("btwixt")
    met = 0
    for seed in range(60):
        session = Session(game, 4, seed, ("advanced",))
        rng = random.Random(seed)
        while session.pending is not None and met < 3:
            d = session.pending
            if "pickable_allies(3)" in d.source or "choose order of seen" in d.source:
                shown = shown_to(d, session.state)
                assert not any("hidden" in o or "face-down" in o for o in shown.options if o != "done: choose no more"), shown.options
                other = shown_to(d, session.state, (d.player + 1) % 4)
                assert other.options != shown.options  # the others do not see them
                met += 1
            session.answer(rng.randrange(len(d.values)))
        if met >= 3:
            break
    assert met >= 3


@pytest.mark.parametrize("players", [2, 3])
def test_revealed_cards_and_top_only_piles_read_as_the_rules_say(players):
    """Issue 21 §2, against an oracle of its own (not `can_see`): in random games of the fixture, every reader
    (each player and a spectator) sees all of their own discard pile and only the top of the others'; in
    another player's hand exactly the cards revealed there (told by the log) that have not moved since."""
    from interpreter.present.views import view
    game = load_compiled(str(REVEAL_DISCARD))
    by_name = {str(e["name"]): e["id"] for e in (r.data for r in game.content.records)}
    for seed in range(6):
        lines: list = []
        session = Session(game, players, seed, account=telling(lambda to, text: lines.append(text)))
        revealed: set = set()
        rng = random.Random(seed)
        while True:
            state = session.state
            for line in lines:
                if " reveals " in line:
                    revealed.add(by_name[line.split(" reveals ")[1].split(":")[0]])
            lines.clear()
            for viewer in [None, *range(players)]:
                zones = view(state, viewer)["zones"]
                for q in range(players):
                    pile = [e.id for e in state.zone("discard", q)]
                    seen = zones.get(f"discard of P{q + 1}")
                    if pile:
                        assert seen == (pile if viewer == q else [pile[0]] + [None] * (len(pile) - 1)), (seed, viewer, q)
                    hand = [e.id for e in state.zone("hand", q)]
                    want = hand if viewer == q else [x if x in revealed else None for x in hand]
                    got = zones.get(f"hand of P{q + 1}")
                    assert got == (want if any(want) else ({"count": len(hand)} if hand else None)), (seed, viewer, q)
            if session.pending is None:
                break
            before = {e.id: e.zone for e in state.entities.values()}
            session.answer(rng.randrange(len(session.pending.labels)))
            revealed -= {e.id for e in state.entities.values() if e.zone is not before[e.id]}  # moved: no longer revealed
