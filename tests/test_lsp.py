"""`rules lsp` driven as an editor drives it: a real LSP client (pytest-lsp) talks to
`python -m interpreter.cli lsp` over stdio, on copies of King's Bounty and A Game of Thrones in a
temporary folder. One server serves the whole module (starting one costs about a second)."""
from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest.importorskip("pytest_lsp")

import pytest_asyncio  # noqa: E402
from lsprotocol import types as lsp  # noqa: E402
from pytest_lsp import client_capabilities, make_test_lsp_client  # noqa: E402

from dsl.loader import SCHEMA_LINE, load_game  # noqa: E402
from interpreter.lsp.scan import scan  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60  # seconds: a bound for a hung server, not a measure of speed
in_loop = pytest.mark.asyncio(loop_scope="module")  # the async tests share the module's server


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    for game in ("kings_bounty", "agot"):
        shutil.copytree(ROOT / "content" / game, folder / game)
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(games):
    # The server runs in the copies' folder, so the paths it shows (kings_bounty/rules/turn.rules) are the
    # same in every run, and the parse cache serves them.
    c = make_test_lsp_client()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    await c.start_io(sys.executable, "-m", "interpreter.cli", "lsp", cwd=str(games), env=env)
    c.init_result = await c.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=games.as_uri()))
    yield c
    await c.shutdown_session()
    await c.stop()


class Doc:
    """An open document: its uri, its text, and edits sent as the editor sends them."""

    def __init__(self, client, path: Path):
        self.client, self.path, self.uri = client, path, path.as_uri()
        self.text = path.read_text(encoding="utf-8")
        self.version = 1
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=self.uri, language_id="rules", version=1, text=self.text)))

    def change(self, text: str) -> None:
        self.version += 1
        self.text = text
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))

    def close(self) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=self.uri)))

    def at(self, needle: str, shift: int = 0, nth: int = 0) -> lsp.Position:
        index = -1
        for _ in range(nth + 1):
            index = self.text.index(needle, index + 1)
        index += shift
        line = self.text.count("\n", 0, index)
        return lsp.Position(line, index - (self.text.rfind("\n", 0, index) + 1))

    def where(self) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(uri=self.uri)

    async def hover(self, needle, shift=1, nth=0) -> str | None:
        h = await self.client.text_document_hover_async(lsp.HoverParams(self.where(), self.at(needle, shift, nth)))
        return h.contents.value if h is not None else None

    async def definition(self, needle, shift=1, nth=0) -> list:
        found = await self.client.text_document_definition_async(lsp.DefinitionParams(self.where(), self.at(needle, shift, nth)))
        return [(Path(lsp_path(x.uri)).name, x.range.start.line + 1, x.range.start.character + 1) for x in found or []]

    async def references(self, needle, shift=1, nth=0) -> list:
        found = await self.client.text_document_references_async(lsp.ReferenceParams(
            text_document=self.where(), position=self.at(needle, shift, nth),
            context=lsp.ReferenceContext(include_declaration=True)))
        return [(Path(lsp_path(x.uri)).name, x.range.start.line + 1, x.range.start.character + 1) for x in found or []]

    async def complete(self, needle, shift=0, nth=0) -> list:
        got = await self.client.text_document_completion_async(lsp.CompletionParams(self.where(), self.at(needle, shift, nth)))
        items = got.items if isinstance(got, lsp.CompletionList) else got or []
        return [i.label for i in sorted(items, key=lambda i: i.sort_text or i.label)]


def lsp_path(uri: str) -> str:
    from pygls.uris import to_fs_path
    return to_fs_path(uri)


async def diagnostics(client, uri: str, wanted) -> list:
    """The diagnostics the server publishes for `uri` once `wanted(them)` holds."""
    async def wait():
        while not (uri in client.diagnostics and wanted(client.diagnostics[uri])):
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        return client.diagnostics[uri]
    return await asyncio.wait_for(wait(), WAIT)


def published(client, games: Path) -> set:
    return {(Path(lsp_path(uri)).relative_to(games).as_posix(), d.range.start.line + 1, d.range.start.character + 1,
             d.code, d.message) for uri, ds in client.diagnostics.items() for d in ds}


def validated(games: Path, game: str, monkeypatch) -> set:
    """What `rules validate` says of the copy, run in the server's folder so that paths read the same."""
    monkeypatch.chdir(games)
    content = load_game(Path(game))
    return {(Path(d.span.path).as_posix(), d.span.line, d.span.col, d.code, d.message + (f"; {d.hint}" if d.hint else ""))
            for d in content.report.diagnostics}


# ---------------------------------------------------------------------------------------------- diagnostics
@in_loop
async def test_diagnostics_as_typed_are_those_of_validate(client, games, monkeypatch):
    """An unknown zone typed in a .rules file and a type error typed in a card's effect: the unsaved texts are
    checked with the whole game, and the server says exactly what `rules validate` says of them saved."""
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    titles = Doc(client, games / "kings_bounty/cards/titles.yaml")
    saved_turn, saved_titles = turn.text, titles.text
    turn.change(turn.text.replace("move top(deck, n) to hand of p", "move top(deck, n) to hnd of p", 1))
    titles.change(titles.text.replace("c.kind == castle)", "c.kind == 3)", 1))
    got = await diagnostics(client, turn.uri, lambda ds: any(d.code == "REF-UNDEF" for d in ds))
    await diagnostics(client, titles.uri, lambda ds: any(d.code == "TYPE-MISMATCH" for d in ds))
    [undef] = [d for d in got if d.code == "REF-UNDEF"]
    # the hint on the first line: an editor showing a diagnostic inline shows that line only
    assert undef.message.splitlines() == ["unknown attribute or variable 'hnd'; did you mean 'hand'?"]
    assert turn.text.splitlines()[undef.range.start.line][undef.range.start.character:].startswith("hnd")
    try:
        (games / "kings_bounty/rules/turn.rules").write_text(turn.text, encoding="utf-8")
        (games / "kings_bounty/cards/titles.yaml").write_text(titles.text, encoding="utf-8")
        assert published(client, games) == validated(games, "kings_bounty", monkeypatch)
    finally:
        (games / "kings_bounty/rules/turn.rules").write_text(saved_turn, encoding="utf-8")
        (games / "kings_bounty/cards/titles.yaml").write_text(saved_titles, encoding="utf-8")
    turn.change(saved_turn)
    titles.change(saved_titles)
    assert not await diagnostics(client, turn.uri, lambda ds: not ds)
    await diagnostics(client, titles.uri, lambda ds: not ds)
    turn.close()
    titles.close()


@in_loop
async def test_syntax_error_mid_edit_keeps_hovers_and_completions(client, games):
    """A line that does not parse gets DSL-SYNTAX, and the rest of the file still answers."""
    combat = Doc(client, games / "agot/rules/combat.rules")
    assert "procedure declare_support()" in await combat.hover("procedure declare_support", shift=11)  # analysed
    # an unclosed bracket: reported where it opens, not on a later line where the parser stopped
    saved = combat.text
    unclosed = combat.text.replace("        offer_support(q, attacker, [s])\n", "        offer_support(q, attacker, [s]\n", 1)
    combat.change(unclosed)
    ds = await diagnostics(client, combat.uri, lambda ds: any(d.code == "DSL-SYNTAX" for d in ds))
    [d] = [d for d in ds if d.code == "DSL-SYNTAX"]
    assert (d.range.start.line, d.range.start.character) == (combat.at("offer_support(q, attacker, [s]\n").line,
                                                             combat.at("offer_support(q, attacker, [s]\n", 13).character)
    assert d.message.startswith("this '(' is never closed; close it with ')'")
    combat.change(saved)
    await diagnostics(client, combat.uri, lambda ds: not any(d.code == "DSL-SYNTAX" for d in ds))
    broken = combat.text.replace("    attacker = a\n", "    attacker = a\n    let = 3\n", 1)
    combat.change(broken)
    ds = await diagnostics(client, combat.uri, lambda ds: any(d.code == "DSL-SYNTAX" for d in ds))
    assert [d.range.start.line + 1 for d in ds if d.code == "DSL-SYNTAX"] == [combat.at("let = 3").line + 1]
    # elsewhere in the same file: a procedure declared in it, a local, a zone
    assert "procedure offer_support(q: player, side: player, areas: list[entity])" in \
        await combat.hover("offer_support(q, attacker, mine)")
    assert await combat.definition("offer_support(q, attacker, mine)") == \
        [("combat.rules", combat.at("procedure offer_support").line + 1, 11)]
    local = await combat.hover("len(mine)", shift=5)
    assert local.startswith("```rules\nmine: list[") and "procedure declare_support" in local
    labels = await combat.complete("if variant(\"support_per_house\")")
    assert {"mine", "q", "support_sources", "throne_track", "move", "choose"} <= set(labels)
    assert "attacker" in await combat.complete("    attacker = a\n", shift=4)
    combat.change(combat.text.replace("    let = 3\n", "", 1))
    await diagnostics(client, combat.uri, lambda ds: not any(d.code == "DSL-SYNTAX" for d in ds))
    combat.close()


# ---------------------------------------------------------------------------------------------- hovers
@in_loop
async def test_hovers(client, games):
    titles = Doc(client, games / "kings_bounty/cards/titles.yaml")
    emperor = await titles.hover("id: emperor", shift=5)
    assert "**Emperor** (English (en)): Castles of the most different races" in emperor
    assert "**Император** (Russian (ru)): Замки наибольшего числа разных народов" in emperor
    assert "Declared in `cards/titles.yaml:5`" in emperor
    zone = await titles.hover("domains of p")
    assert zone.startswith("```rules\nzone domains\n```") and "Russian (ru): владения" in zone and "English (en): domains" in zone
    assert "Declared in `game.yaml:" in zone
    race = await titles.hover("race: elves", shift=8)  # an enum value in a record, not in rule text
    assert race.startswith("```rules\nelves: race") and "Russian (ru): эльфы" in race
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    assert (await turn.hover("field_unit(p, u, d)")).startswith("```rules\nprocedure field_unit(p: player, u: entity, d: entity)")
    # the comment above a declaration, in rule text and in the manifest
    assert "Turns from the first player on, to the end of the game and its scoring\\." in await turn.hover("play_turns()")
    combat_doc = Doc(client, games / "agot/rules/combat.rules")
    start = await combat_doc.hover("start_combat(a: player", shift=3)
    assert start.startswith("```rules\nprocedure start_combat(") and "Who fights where \\(scenarios call it" in start
    combat_doc.close()
    assert (await turn.hover("may_field(p, u)")).startswith("```rules\nfunction may_field(p: player, u: entity) -> bool")
    end = Doc(client, games / "kings_bounty/rules/end.rules")
    # `points` is both a player's variable and a card's attribute: each use as the checker reads it
    assert "variable points: number" in await end.hover("q.points", shift=3)
    assert "attribute points: number" in await end.hover("t.points", shift=3)
    combat = Doc(client, games / "agot/rules/combat.rules")
    blade = await combat.hover("@valyrian_steel_blade", shift=3)
    assert "(Russian (ru))" in blade and "(English (en))" in blade
    for d in (titles, turn, combat, end):
        d.close()


# ---------------------------------------------------------------------------------------------- definitions and references
@in_loop
async def test_definitions_and_references_across_rules_and_yaml(client, games):
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    manifest = (games / "kings_bounty/game.yaml").read_text(encoding="utf-8").splitlines()
    hand_line = next(n for n, line in enumerate(manifest, 1) if line.startswith("    hand:"))
    assert await turn.definition("to hand of p", shift=4) == [("game.yaml", hand_line, 5)]
    refs = await turn.references("to hand of p", shift=4)
    assert {"game.yaml", "ru.yaml", "setup.rules", "turn.rules"} <= {r[0] for r in refs}
    # a procedure declared in one file and called in another
    assert await turn.definition("award_on_play(monster)") == [("titles.rules", 30, 11)]
    assert ("turn.rules", turn.at("award_on_play(hero)").line + 1, 9) in await turn.references("award_on_play(monster)")
    # a kind: declared in the manifest, named by records' `kind:` and in rule text
    kinds = await turn.references("u.kind == unit", shift=11)
    assert {"game.yaml", "undead.yaml", "humans.yaml", "turn.rules"} <= {r[0] for r in kinds}
    # an enum value, from a record of AGoT's, to its declaration and uses
    orders = Doc(client, games / "agot/components/orders.yaml")
    agot = (games / "agot/game.yaml").read_text(encoding="utf-8").splitlines()
    [(name, line, col)] = await orders.definition("order_type: support", shift=13)
    assert name == "game.yaml" and "support" in agot[line - 1] and "enums" not in agot[line - 1]
    uses = await orders.references("order_type: support", shift=13)
    assert ("combat.rules", 27, 86) in uses, [u for u in uses if u[0] != "orders.yaml"]
    assert sum(1 for u in uses if u[0] == "orders.yaml") > 10
    # a record id, from rule text to its record
    combat = Doc(client, games / "agot/rules/combat.rules")
    [(name, line, _)] = await combat.definition("@valyrian_steel_blade", shift=3)
    assert name == "tokens.yaml"
    assert "valyrian_steel_blade" in (games / "agot/components/tokens.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert {"combat.rules", "setup.rules", "tokens.yaml"} <= {r[0] for r in await combat.references("@valyrian_steel_blade", shift=3)}
    # an event: declared in combat.rules, listened to by house cards' effects
    events = await combat.references("event combat_decided", shift=7)
    assert {"combat.rules", "house_cards.yaml"} <= {r[0] for r in events}
    # a local: its binding, then its uses in the same declaration only
    mine = await combat.references("let mine", shift=5)
    assert mine[0] == ("combat.rules", combat.at("let mine").line + 1, 17) and len(mine) == 4
    for d in (turn, orders, combat):
        d.close()


# ---------------------------------------------------------------------------------------------- completion
@in_loop
async def test_completions(client, games):
    setup = Doc(client, games / "kings_bounty/rules/setup.rules")
    # attributes of the kind at hand: `o` is an obelisk here, so strength and points, not a unit's race
    setup.change(setup.text.replace("o.strength == s]", "o.]", 1))
    labels = await setup.complete("o.]", shift=2)
    assert labels[:2] == ["points", "strength"] and "race" not in labels and {"id", "kind", "name"} <= set(labels)
    assert "first_player" not in labels  # a game variable is no attribute
    assert await setup.complete("o.]", shift=2) == labels
    setup.change(setup.text.replace("o.]", "o.st]", 1))
    assert await setup.complete("o.st]", shift=4) == ["strength"]  # a word begun: its first letter; no title's score
    setup.change(setup.text.replace("o.st]", "o.strength == s]", 1))
    titles = Doc(client, games / "kings_bounty/cards/titles.yaml")
    labels = await titles.complete("(c in domains", shift=6)
    assert {"c", "p", "this", "you", "domains", "castle", "elves", "count", "choose"} <= set(labels)
    assert set(await titles.complete("kind: title", shift=6)) == {"unit", "castle", "obelisk", "title"}
    house = Doc(client, games / "agot/components/house_cards.yaml")
    house.change(house.text.replace("    when combat_decided(w, _) if w == you:", "    when ", 1))
    events = await house.complete("    when ", shift=9)
    assert "combat_decided" in events and "combat_over" in events and "move" not in events
    house.change(house.text.replace("    when \n", "    when combat_decided(w, _) if w == you:\n    move @", 1))
    ids = await house.complete("move @", shift=6)
    assert "valyrian_steel_blade" in ids and "eddard_stark" in ids
    for d in (setup, titles, house):
        d.close()


# ---------------------------------------------------------------------------------------------- outline
@in_loop
async def test_document_symbols(client, games):
    combat = Doc(client, games / "agot/rules/combat.rules")
    got = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(combat.where()))
    names = [s.name for s in got]
    assert names[:4] == ["combat_decided", "combat_over", "start_combat", "support_order"]
    assert {s.kind for s in got if s.name == "combat_decided"} == {lsp.SymbolKind.Event}
    titles = Doc(client, games / "kings_bounty/cards/titles.yaml")
    got = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(titles.where()))
    assert got[0].name == "emperor" and [c.name for c in got[0].children] == ["score"]
    combat.close()
    titles.close()


# ---------------------------------------------------------------------------------------------- without pygls; schemas
def test_without_pygls_a_usage_error_names_the_extra(monkeypatch, capsys):
    from interpreter.cli.main import main
    monkeypatch.setitem(sys.modules, "pygls", None)  # `import pygls` now fails as if it were not installed
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    monkeypatch.delitem(sys.modules, "interpreter.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert "error[USAGE]" in err and 'pip install "tabletop-rules[lsp]"' in err


@pytest.mark.parametrize("game", ["kings_bounty", "agot", "btwixt"])
def test_every_yaml_file_names_a_schema_that_checks_it(game):
    """The `# yaml-language-server: $schema=` line (what editors validate a YAML file with) names a schema
    that exists and accepts the file; a record with a value outside its enum is refused by it."""
    import jsonschema
    from dsl.yaml_records import load_yaml
    root = ROOT / "content" / game
    for path in sorted(root.rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(SCHEMA_LINE), path
        schema_path = (path.parent / first[len(SCHEMA_LINE):]).resolve()
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        doc, problems = load_yaml(str(path), path.read_text(encoding="utf-8"))
        assert not problems
        jsonschema.validate(doc.data, schema)
        if schema_path.parent.name == "games":
            bad = [dict(doc.data[0], kind="no_such_kind")]
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(bad, schema)


# ---------------------------------------------------------------------------------------------- in-process: any text mid-edit
def test_features_answer_on_a_text_cut_anywhere():
    """Whatever the author has typed so far (the text cut at random places, or with a piece deleted), every
    feature answers without failing, and completion offers names wherever a name may go."""
    import random
    from interpreter.lsp import edits, features, signatures, structure
    from interpreter.lsp.index import build_index
    from interpreter.lsp.kinds import KindFlow
    from interpreter.lsp.scan import scan
    root = (ROOT / "content" / "kings_bounty").resolve()
    ix = build_index(root, load_game(root), {})
    ix.kinds = KindFlow(ix.content)
    for rel in ("rules/turn.rules", "cards/titles.yaml"):
        path = root / rel
        text = path.read_text(encoding="utf-8")
        rng = random.Random(rel)
        for n, cut in enumerate(sorted(rng.sample(range(len(text)), 80))):
            for edited, at in ((text[:cut], cut), (text[:cut] + text[cut + rng.randrange(1, 40):], cut)):
                s = scan(str(path), edited)
                for offset in (at, max(0, at - 1)):
                    items = features.completions(ix, s, path, offset)
                    features.hover(ix, s, path, offset)
                    features.definition(ix, s, path, offset)
                    features.references(ix, s, path, offset)
                    signatures.signature_help(ix, s, path, offset)
                    if s.region_at(offset) is not None and not s.in_text(offset) and s.token_at(offset) is None \
                            and edited[offset - 1:offset] in (" ", "(") \
                            and not re.search(r"\b(procedure|function|event)\s*$", edited[:offset]):  # a new name
                        assert items, (rel, offset, edited[max(0, offset - 40):offset])
                features.outline(ix, s, path)
                structure.folds(s, path)
                if n % 4:
                    continue  # what reads the whole text, at a quarter of the cuts
                structure.semantic_tokens(ix, s, path)
                edits.format_edits(path, edited)
                found = features.symbol_at(ix, s, path, at)
                if found is not None and found[0][0] not in ("builtin", "constant"):
                    try:  # a whole rename, where the cut leaves a name of the game
                        edits.rename(ix, s, path, at, "renamed_here", {path: edited})
                    except edits.Refused:
                        pass


def test_a_manifest_that_does_not_read_keeps_the_last_names():
    """A broken game.yaml mid-edit: its YAML-SYNTAX is reported, and the names of the last good analysis stay."""
    from interpreter.lsp.server import analyse
    root = (ROOT / "content" / "kings_bounty").resolve()
    good, diagnostics = analyse(root, {}, None)
    assert not [d for d in diagnostics if d.severity == "error"] and ("zone", "hand") in good.symbols
    text = (root / "game.yaml").read_text(encoding="utf-8").replace("vocabulary:\n", "vocabulary: [\n", 1)
    kept, diagnostics = analyse(root, {root / "game.yaml": text}, good)
    assert kept is good and [d.code for d in diagnostics] == ["YAML-SYNTAX"]


# ---------------------------------------------------------------------------------------------- editing: rename
def applied(text: str, edits: list) -> str:
    """A text with LSP TextEdits made (positions in UTF-16 units, as the server sends them)."""
    lines = text.split("\n")

    def offset(pos):
        if pos.line >= len(lines):
            return len(text)
        head = lines[pos.line].encode("utf-16-le")[:2 * pos.character].decode("utf-16-le")
        return sum(len(x) + 1 for x in lines[:pos.line]) + len(head)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


def write_edits(games: Path, target: Path, change: lsp.WorkspaceEdit) -> set:
    """The edit made on the copy of the game at `target` (the paths of the server's copy mapped there)."""
    touched = set()
    for uri, edits in change.changes.items():
        rel = Path(lsp_path(uri)).relative_to(games)
        path = target / rel
        path.write_text(applied(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
        touched.add(rel.as_posix())
    return touched


async def renamed(doc: Doc, needle: str, shift: int, new: str) -> lsp.WorkspaceEdit:
    return await doc.client.text_document_rename_async(lsp.RenameParams(
        text_document=doc.where(), position=doc.at(needle, shift), new_name=new))


@in_loop
async def test_rename_across_rules_records_manifest_and_lang(client, games, tmp_path, monkeypatch):
    """Renames of a zone, a procedure, a local, a variable, an attribute that is also a variable's name, a kind,
    an enum value and a record id, each made on a fresh copy of King's Bounty: the game validates as clean as
    before (its catalogues' words and messages followed), and no use of the old name is left."""
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    end = Doc(client, games / "kings_bounty/rules/end.rules")
    titles = Doc(client, games / "kings_bounty/cards/titles.yaml")
    manifest = Doc(client, games / "kings_bounty/game.yaml")
    cases = [
        (turn, "to hand of p", 4, "hand", "palm", {"game.yaml", "lang/ru.yaml", "rules/setup.rules", "rules/turn.rules"}),
        (turn, "award_on_play(monster)", 0, "award_on_play", "grant", {"rules/titles.rules", "rules/turn.rules"}),
        (turn, "procedure turn(p", 15, "p", "who", {"rules/turn.rules", "lang/ru.yaml"}),  # "{p} lays down {c}" too
        (end, "q.points", 2, "points", "score2", {"game.yaml", "lang/ru.yaml", "rules/end.rules"}),
        (manifest, "    points: number", 4, "points", "worth", {"cards/obelisks.yaml", "cards/titles.yaml", "rules/titles.rules"}),
        (turn, "u.kind == unit", 11, "unit", "troop", {"cards/elves.yaml", "cards/undead.yaml", "lang/ru.yaml"}),
        (titles, "race: elves", 6, "elves", "elfs", {"cards/elves.yaml", "game.yaml", "rules/setup.rules"}),
        (titles, "id: emperor", 4, "emperor", "kaiser", {"cards/titles.yaml"}),
    ]
    for doc, needle, shift, old, new, files in cases:  # `p` and `points` name other things as well, kept
        change = await renamed(doc, needle, shift, new)
        copy = tmp_path / new / "kings_bounty"
        shutil.copytree(games / "kings_bounty", copy)
        touched = write_edits(games / "kings_bounty", copy, change)
        assert files <= touched, (old, touched)
        monkeypatch.chdir(copy.parent)
        assert not load_game(Path("kings_bounty")).report.diagnostics, (old, new)
        names = {t.text for p in sorted((copy / "rules").glob("*.rules"))
                 for t in scan(str(p), p.read_text(encoding="utf-8")).tokens if t.kind == "name"}
        assert old in ("p", "points") or old not in names, old
    for d in (turn, end, titles, manifest):
        d.close()


@in_loop
async def test_rename_follows_the_looks_file_and_leaves_icon_names(client, games, tmp_path, monkeypatch):
    """AGoT's looks live in their own file (looks.yaml): renaming the variable a track draws, or a kind, reaches
    it; `icon:` names of the icon set are not the game's names and stay."""
    action, setup = Doc(client, games / "agot/rules/action.rules"), Doc(client, games / "agot/rules/setup.rules")
    for doc, needle, shift, old, new in ((action, "for p in throne_track", 9, "throne_track", "throne_order"),
                                         (setup, "if c.kind == unit", 13, "unit", "warband")):
        change = await renamed(doc, needle, shift, new)
        copy = tmp_path / new / "agot"
        shutil.copytree(games / "agot", copy)
        assert "looks.yaml" in write_edits(games / "agot", copy, change), old
        monkeypatch.chdir(copy.parent)
        assert not load_game(Path("agot")).report.diagnostics, (old, new)
        looks = "\n".join(line.split("#")[0] for line in (copy / "looks.yaml").read_text(encoding="utf-8").splitlines())
        assert not re.search(rf"(?<!icon: )\b{old}\b", looks) and new in looks, old
    action.close()
    setup.close()


@in_loop
async def test_rename_refuses_a_taken_or_invalid_name(client, games):
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    for new, said in (("deck", "already names a zone"), ("2cards", "is not a name"), ("while", "word of the language"),
                      ("this", "word of the language")):
        with pytest.raises(Exception, match=said):
            await renamed(turn, "to hand of p", 4, new)
    with pytest.raises(Exception, match="already a local name"):
        await renamed(turn, "procedure turn(p", 15, "c")
    with pytest.raises(Exception, match="built into the language"):
        await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(turn.where(), turn.at("len(deck)", 1)))
    got = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(turn.where(), turn.at("to hand of p", 4)))
    assert got.start == turn.at("to hand of p", 3) and got.end == turn.at("to hand of p", 7)
    turn.close()


# ---------------------------------------------------------------------------------------------- editing: quick fixes
async def fixes_at(doc: Doc, line: int) -> list:
    got = await doc.client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=doc.where(), range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)),
        context=lsp.CodeActionContext(diagnostics=[])))
    return got or []


@in_loop
async def test_quick_fixes_make_the_diagnostic_go(client, games):
    """A typo ("did you mean"), a zone without its owner (`hand` → `hand of p`), `=` for `==`, a missing
    `exactly`, a pattern's unused name where `this` is meant: each diagnostic offers its fix, and the texts
    with the fixes made are clean again. (Slips in different files or lines: one analysis each way.)"""
    kb = "kings_bounty/rules/"
    cases = [  # file, the good line, the slip, its code, the fix's title
        (kb + "turn.rules", "move top(deck, n) to hand of p", "move top(deck, n) to hnd of p", "REF-UNDEF", "Change 'hnd' to 'hand'"),
        (kb + "turn.rules", "move c to domains of p", "move c to domains", "REF-UNDEF", "Write 'domains of p'"),
        (kb + "end.rules", "where q.points == best)", "where q.points = best)", "DSL-SYNTAX", "Write '==' to compare"),
        (kb + "setup.rules", "len(gone)) to removed", "len(gone)) to removed\n        choose len(gone) x in box by first_player",
         "DSL-SYNTAX", "Write 'choose exactly ...'"),
        ("agot/components/wildling_cards.yaml", "when wildling_victory(this, _):", "when wildling_victory(c, _):", "DSL-UNUSED",
         "Write 'this' for 'c'"),
    ]
    docs = {rel: Doc(client, games / rel) for rel, *_ in cases}
    saved = {rel: d.text for rel, d in docs.items()}
    texts = dict(saved)
    for rel, good, bad, *_ in cases:
        texts[rel] = texts[rel].replace(good, bad, 1)
    for rel, d in docs.items():
        d.change(texts[rel])
    fixes: dict = {}
    for rel, good, bad, code, title in cases:
        d = docs[rel]
        ds = await diagnostics(client, d.uri, lambda ds: any(x.code == code and bad.split()[-1] in d.text.splitlines()[x.range.start.line]
                                                             for x in ds))
        [line] = {x.range.start.line for x in ds if x.code == code and bad.split()[-1] in d.text.splitlines()[x.range.start.line]}
        actions = await fixes_at(d, line)
        found = [a for a in actions if a.title.startswith(title)]
        assert len(found) == 1, (title, [a.title for a in actions])
        assert found[0].kind == lsp.CodeActionKind.QuickFix and found[0].diagnostics[0].code == code
        fixes.setdefault(rel, []).extend(found[0].edit.changes[d.uri])
    for rel, d in docs.items():
        d.change(applied(d.text, fixes[rel]))
    for rel, d in docs.items():
        await diagnostics(client, d.uri, lambda ds: not [x for x in ds if x.severity == lsp.DiagnosticSeverity.Error
                                                         or x.code == "DSL-UNUSED"])
    assert docs[kb + "turn.rules"].text == saved[kb + "turn.rules"]
    assert "choose exactly len(gone) x in box" in docs[kb + "setup.rules"].text
    for rel, d in docs.items():
        d.change(saved[rel])
        d.close()


# ---------------------------------------------------------------------------------------------- editing: formatting
@in_loop
async def test_formatting_request_gives_the_rules_fmt_layout(client, games):
    from test_fmt import respaced
    combat = Doc(client, games / "agot/rules/combat.rules")
    tidy = combat.text
    combat.change(respaced(tidy, "lsp"))
    options = lsp.FormattingOptions(tab_size=4, insert_spaces=True)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(combat.where(), options))
    assert edits and applied(combat.text, edits) == tidy
    combat.change(tidy.replace("    attacker = a\n", "    attacker=a \n", 1))  # one untidy line: one edit of it
    [edit] = await client.text_document_formatting_async(lsp.DocumentFormattingParams(combat.where(), options))
    assert edit.new_text == "    attacker = a\n" and edit.range.start.line == combat.at("attacker=a").line
    combat.change(tidy)
    assert not await client.text_document_formatting_async(lsp.DocumentFormattingParams(combat.where(), options))
    combat.close()


# ---------------------------------------------------------------------------------------------- signature help, symbols
@in_loop
async def test_signature_help(client, games):
    combat = Doc(client, games / "agot/rules/combat.rules")
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        combat.where(), combat.at("offer_support(q, attacker, mine)", len("offer_support(q, attacker, "))))
    [sig] = help_.signatures
    assert sig.label == "procedure offer_support(q: player, side: player, areas: list[entity])"
    assert help_.active_parameter == 2 and sig.label[slice(*sig.parameters[2].label)] == "areas: list[entity]"
    assert "another house's support counts only if" in sig.documentation.value  # the comment above it
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        combat.where(), combat.at("len(mine)", 4)))
    assert [s.label for s in help_.signatures] == ["len(C)"]
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        combat.where(), combat.at("first(x in order_slot of s", len("first(x in order_slot of s"))))
    assert help_.signatures[help_.active_signature].label == "first(x in C where P)"
    combat.close()


@in_loop
async def test_workspace_symbols(client, games):
    got = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="offer_sup"))
    names = [(s.name, s.kind, s.container_name) for s in got]
    assert names[0] == ("offer_support", lsp.SymbolKind.Function, "agot")
    assert Path(lsp_path(got[0].location.uri)).name == "combat.rules"
    blade = {s.name: s.kind for s in await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="vsblade"))}
    assert blade["valyrian_steel_blade"] == lsp.SymbolKind.Object  # a record id, by a few of its letters
    kinds = {s.name: s.kind for s in await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="hand"))}
    assert kinds["hand"] == lsp.SymbolKind.Namespace and kinds["house_hand"] == lsp.SymbolKind.Namespace


# ---------------------------------------------------------------------------------------------- folding, semantic tokens
@in_loop
async def test_folding_ranges(client, games):
    combat = Doc(client, games / "agot/rules/combat.rules")
    got = await client.text_document_folding_range_async(lsp.FoldingRangeParams(combat.where()))
    folds = {(f.start_line, f.end_line, f.kind) for f in got}
    first = combat.at("procedure declare_support").line
    last = combat.at("stays out of the combat in {combat_area} with its support order").line
    assert (first, last, None) in folds  # a procedure, to its last line
    assert (combat.at("for s in support_sources(q):").line, last, None) in folds  # a block inside it
    assert (0, 7, lsp.FoldingRangeKind.Comment) in folds  # the comment heading the file
    house = Doc(client, games / "agot/components/house_cards.yaml")
    got = await client.text_document_folding_range_async(lsp.FoldingRangeParams(house.where()))
    effect = house.at("    when combat_decided(w, _) if w == you:").line
    assert any(f.start_line == effect and f.end_line > effect for f in got)
    assert all(f.start_line >= house.at("effect:").line for f in got)  # only rule text
    combat.close()
    house.close()


@in_loop
async def test_semantic_tokens(client, games):
    turn = Doc(client, games / "kings_bounty/rules/turn.rules")
    got = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(turn.where()))
    legend = client.init_result.capabilities.semantic_tokens_provider.legend  # as the server declared it
    line = turn.at("move top(deck, n) to hand of p").line
    found, at_line, col = {}, 0, 0
    data = got.data
    for k in range(0, len(data), 5):
        at_line += data[k]
        col = data[k + 1] + (col if data[k] == 0 else 0)
        if at_line == line:
            text = turn.text.splitlines()[line][col:col + data[k + 2]]
            mods = {m for b, m in enumerate(legend.token_modifiers) if data[k + 4] >> b & 1}
            found[text] = (legend.token_types[data[k + 3]], mods)
    assert found["move"][0] == found["to"][0] == found["of"][0] == "keyword"
    assert found["top"] == ("function", {"defaultLibrary"})
    assert found["deck"][0] == found["hand"][0] == "namespace"
    assert found["p"][0] == "parameter" and found["n"][0] == "parameter"
    turn.close()


# ---------------------------------------------------------------------------------------------- completion after `x.`
@functools.lru_cache(maxsize=None)  # each game analysed once for the tests below
def _analysed(game: str):
    from interpreter.lsp.index import build_index
    from interpreter.lsp.kinds import KindFlow
    root = (ROOT / "content" / game).resolve()
    ix = build_index(root, load_game(root), {})
    ix.kinds = KindFlow(ix.content)  # as the server works it out after each analysis
    return ix


@pytest.mark.parametrize("game,share", [("kings_bounty", 0.7), ("btwixt", 0.8), ("agot", 0.6)])
def test_member_completion_is_narrowed_but_never_misses_what_the_game_reads(game, share):
    """At every `x.name` and `x.f(...)` of a game's rule text, completion after `x.` offers `name`: narrowing to
    the kinds x may hold never hides what the rules read. And it narrows: no list offers both a player's
    variables and a component's attributes where the checker knows which x is, and on average it offers a
    `share` of every attribute and variable of the game (before: every attribute of every kind)."""
    from interpreter.lsp import features
    ix = _analysed(game)
    voc = ix.voc
    everything = len(voc.attributes) + sum(1 for v in voc.variables.values() if v.scope != "game") + 3
    sizes = []
    for path, s in ix.scans.items():
        tk = s.tokens
        for i in range(len(tk) - 2):
            if tk[i].kind != "name" or tk[i + 1].text != "." or tk[i + 2].kind != "name" or tk[i + 1].end != tk[i + 2].offset:
                continue
            items = features.completions(ix, s, path, tk[i + 2].offset)
            labels = {it.label for it in items}
            assert tk[i + 2].text in labels, (path.name, tk[i].line + 1, tk[i].text, tk[i + 2].text, sorted(labels))
            kinds = {it.kind for it in items}
            players = any(it.kind == "variable" and "one per player" in it.detail for it in items)
            assert not (players and "attribute" in kinds and tk[i].text in ("this", "you")), (path.name, tk[i].line + 1)
            sizes.append(len(items))
    assert sizes and sum(sizes) / len(sizes) < share * everything, (sum(sizes) / len(sizes), everything)


def test_member_completion_on_a_binding_typed_just_now():
    """AGoT: `x.` on a local the last analysis has not seen (`let x = first(c in in_play of you)` typed in a
    House card's effect): the attributes of House cards, the only kind `in_play` holds, and no player's
    variables (before: 43 items, every attribute of every kind and the players' variables)."""
    from interpreter.lsp import features
    ix = _analysed("agot")
    path = ix.root / "components/house_cards.yaml"
    text = ix.texts[path]
    anchor = "        retreat_chooser = you\n"
    at = text.index(anchor) + len(anchor)
    typed = "        let x = first(c in in_play of you)\n        log \"{x."
    edited = text[:at] + typed + text[at:]
    labels = {it.label for it in features.completions(ix, scan(str(path), edited), path, at + len(typed))}
    assert {"house", "strength", "swords", "fortifications"} <= labels
    assert not labels & {"crowns", "supply", "unit_type", "order_type", "power"}  # other kinds', a player's
    assert len(labels) < 20


# ---------------------------------------------------------------------------------------------- diagnostics' places
@pytest.mark.parametrize("text,line,col,stopped", [
    ("procedure f(p: player):\n    let x = max(1, 2\n    log \"a\"\n", 2, 16, 3),  # the parser stops a line below
    ("procedure f():\n    let x = [1, 2\n\nprocedure g():\n    pass\n", 2, 13, 4),
    ("procedure f():\n    let x = max(1, 2\n", 2, 16, None),  # at the end of the text
    ("procedure f():\n    log \"(\"\n    let x = (1 +\n 2 3)\n", 4, 4, None),  # closed: the parser's own message
])
def test_an_unclosed_bracket_is_reported_where_it_opens(text, line, col, stopped):
    from dsl.diagnostics import DiagnosticError, Source
    from dsl.parser import parse_module
    with pytest.raises(DiagnosticError) as err:
        parse_module(Source("x.rules", text))
    [d] = err.value.diagnostics
    assert (d.span.line, d.span.col) == (line, col)
    if stopped is not None:
        assert d.message == "this '(' is never closed" or d.message == "this '[' is never closed"
        assert f"stopped only at line {stopped}" in d.hint
    elif "never closed" in d.message:
        assert d.hint in ("close it with ')'", "close it with ']'")


def _fixed(path: Path, text: str, fixes: list) -> str:
    """The text with the first fix of each diagnostic made (edits of one file, positions in code points)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    edits, seen = [], set()
    for fix in fixes:
        if id(fix.diagnostic) not in seen:
            seen.add(id(fix.diagnostic))
            edits += [e for e in fix.edits if e.path == path]
    for e in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        text = text[:starts[e.line] + e.col] + e.text + text[starts[e.end_line] + e.end_col:]
    return text


@pytest.mark.parametrize("slips,codes", [
    ({"len(deck) == 0": "len(deck of p) == 0",  # a zone of the whole game given an owner
      "move c to domains of p": "move c to p.domains",  # a zone read as an attribute
      "    move top(deck, n) to hand of p": "    let castle = n\n    move top(deck, castle) to hand of p"},  # hides a kind
     {"DSL-SHADOW", "TYPE-MISMATCH", "REF-UNDEF"}),
    ({"            playing = false\n": "        playing = false\n"}, {"DSL-INDENT"}),  # a block left unindented
    ({"        turn(p)\n": "            turn(p)\n"}, {"DSL-INDENT"}),  # a line indented for no block
])
def test_more_quick_fixes(slips, codes):
    """The fixes the editor test above does not make: a local hiding a kind renamed, `deck of p` for a zone of
    the whole game, `p.domains` for `domains of p`, a line's indentation; each text fixed is clean."""
    from interpreter.lsp import edits
    from interpreter.lsp.index import build_index, file_of
    root = (ROOT / "content" / "kings_bounty").resolve()
    path = root / "rules" / "turn.rules"
    text = path.read_text(encoding="utf-8")
    for good, bad in slips.items():
        text = text.replace(good, bad, 1)
    content = load_game(root, {path: text})
    mine = [d for d in content.report.diagnostics if d.span is not None and file_of(d.span.path) == path]
    assert {d.code for d in mine} == codes, [d.render() for d in mine]
    ix = build_index(root, content, {path: text})
    fixes = edits.fixes(ix, scan(str(path), text), path, text, mine)
    assert {id(f.diagnostic) for f in fixes} == {id(d) for d in mine}  # each has its fix
    fixed = _fixed(path, text, fixes)
    assert not [d for d in load_game(root, {path: fixed}).report.diagnostics if d.severity == "error"]


def test_signature_help_knows_every_built_in():
    from dsl.types import BUILTINS
    from interpreter.lsp.signatures import BUILTIN_FORMS
    assert not set(BUILTINS) - set(BUILTIN_FORMS), "a built-in without its forms in interpreter/lsp/signatures.py"
    for name, forms in BUILTIN_FORMS.items():
        assert all(f.startswith(name + "(") and f.endswith(")") for f in forms), name
