"""`rules lsp`: a Language Server Protocol server over stdio (pygls) for a game's .rules and YAML files.

Each game (the folder of the game.yaml above a file) is analysed as `rules validate` analyses it, with the
editor's unsaved texts standing in for the files: its diagnostics are published for every file of the game.
An analysis runs in a worker thread, a moment after the author stops typing; hovers, definitions,
references and completions answer at once from the game's last analysis and a token scan of the text as
it is now, so they keep working while a line does not parse.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from dsl.diagnostics import Diagnostic
from dsl.loader import find_game_root, load_game
from interpreter.lsp import edits, features, signatures, structure
from interpreter.lsp.index import GameIndex, Place, build_index, file_of
from interpreter.lsp.kinds import KindFlow
from interpreter.lsp.scan import Scan, scan

DELAY = 0.3  # seconds without typing before a game is analysed again
_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "zone": lsp.CompletionItemKind.Folder,
    "variable": lsp.CompletionItemKind.Variable, "attribute": lsp.CompletionItemKind.Field,
    "kind": lsp.CompletionItemKind.Class, "value": lsp.CompletionItemKind.EnumMember,
    "record": lsp.CompletionItemKind.Constant, "signature": lsp.CompletionItemKind.Function,
    "cardfn": lsp.CompletionItemKind.Method, "builtin": lsp.CompletionItemKind.Function,
    "local": lsp.CompletionItemKind.Variable, "type": lsp.CompletionItemKind.TypeParameter,
    "timing": lsp.CompletionItemKind.EnumMember, "constant": lsp.CompletionItemKind.Constant,
}
_SYMBOLS = {"procedure": lsp.SymbolKind.Function, "function": lsp.SymbolKind.Function, "event": lsp.SymbolKind.Event,
            "trigger": lsp.SymbolKind.Method, "record": lsp.SymbolKind.Object, "cardfn": lsp.SymbolKind.Method,
            "zone": lsp.SymbolKind.Namespace, "variable": lsp.SymbolKind.Variable, "attribute": lsp.SymbolKind.Field,
            "kind": lsp.SymbolKind.Class, "enum": lsp.SymbolKind.Enum, "value": lsp.SymbolKind.EnumMember,
            "timing": lsp.SymbolKind.EnumMember}


class RequestFailed(JsonRpcException):
    """LSP's RequestFailed: a valid request whose answer is no (a rename to a taken name); the editor shows why."""

    CODE = -32803


@dataclass
class Game:
    """One game's state in the server: its last analysis, and what diagnostics the editor shows for it."""

    root: Path
    index: GameIndex | None = None
    published: set = field(default_factory=set)  # uris that now show diagnostics
    diagnostics: dict = field(default_factory=dict)  # uri -> the dsl Diagnostics published for it (quick fixes read them)
    pending: asyncio.Task | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


NOWHERE = 2 ** 31 - 1  # LSP's largest position: past the end of any document


class RulesProtocol(LanguageServerProtocol):
    """A request whose position is no LSP position (negative, past 2**31-1, not a whole number) asks about a
    place past the end of the document, which the features answer with nothing. pygls would refuse the whole
    message instead, with two stack traces on stderr and no answer at all."""

    def structure_message(self, data):
        params = data.get("params") if "jsonrpc" in data and "id" in data else None
        if isinstance(params, dict) and "position" in params and not _is_position(params["position"]):
            params["position"] = {"line": NOWHERE, "character": NOWHERE}
        return super().structure_message(data)


def _is_position(value) -> bool:
    return isinstance(value, dict) and all(type(value.get(k)) is int and 0 <= value[k] <= NOWHERE for k in ("line", "character"))


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("rules-lsp", "1", protocol_cls=RulesProtocol)
        self.games: dict = {}  # game root -> Game
        self.worker = concurrent.futures.ThreadPoolExecutor(max_workers=1)  # analyses one at a time, in order
        self.scans: dict = {}  # uri -> (version, Scan) of open documents
        self.analyses = 0
        self.sharpening: asyncio.Future | None = None  # the kinds of the last analysis being worked out

    # ------------------------------------------------------------------ documents and games
    def game_of(self, uri: str) -> Game | None:
        path = to_fs_path(uri)
        if path is None:
            return None
        root = find_game_root(Path(path).parent)
        if root is None:
            return None
        root = root.resolve()
        game = self.games.get(root)
        if game is None:
            game = self.games[root] = Game(root)
        return game

    def scan_of(self, uri: str) -> tuple:
        doc = self.workspace.get_text_document(uri)
        cached = self.scans.get(uri)
        if cached is None or cached[0] != doc.version or doc.version is None:
            cached = (doc.version, scan(doc.path, doc.source))
            self.scans[uri] = cached
        return doc, cached[1]

    def unsaved(self, root: Path) -> dict:
        texts = {}
        for uri, doc in list(self.workspace.text_documents.items()):
            path = Path(doc.path).resolve()
            if path.is_relative_to(root):
                texts[path] = doc.source
        return texts

    def schedule(self, game: Game, delay: float) -> None:
        if game.pending is not None and not game.pending.done():
            game.pending.cancel()
        game.done.clear()
        game.pending = asyncio.ensure_future(self._analyse_later(game, delay))

    async def _analyse_later(self, game: Game, delay: float) -> None:
        await asyncio.sleep(delay)  # a change within the delay cancels this wait, and waits anew
        await asyncio.shield(self._analyse(game))  # once begun, an analysis ends and counts (another follows)

    async def _analyse(self, game: Game) -> None:
        loop = asyncio.get_running_loop()
        try:
            texts = self.unsaved(game.root)
            index, diagnostics = await loop.run_in_executor(self.worker, analyse, game.root, texts, game.index)
        except Exception as err:  # noqa: BLE001 - a fault of the server's own is told, and the last analysis kept
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error,
                                                         message=f"rules lsp: the analysis of {game.root} failed: {err!r}"))
        else:
            game.index = index
            self.publish(game, diagnostics)
            # what kinds each name may hold, for completion after `x.`: after the diagnostics, not before them
            self.sharpening = asyncio.ensure_future(self._kinds(index))
            # An analysis leaves about a million objects that live until the next one: out of the collector's
            # sight, a full collection no longer walks them all in the middle of a keystroke's completion
            # (they are freed by reference counting when the next analysis replaces them). Now and then the
            # few kept alive only by cycles are collected after all.
            self.analyses += 1
            if self.analyses % 50 == 0:
                gc.unfreeze()
                gc.collect()
            gc.freeze()
        finally:
            game.done.set()  # whatever happened, requests waiting for an analysis go on

    async def _kinds(self, index: GameIndex) -> None:
        try:
            index.kinds = await asyncio.get_running_loop().run_in_executor(self.worker, KindFlow, index.content)
        except Exception as err:  # noqa: BLE001 - completion then lists every kind's attributes
            self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Warning,
                                                         message=f"rules lsp: kinds not worked out: {err!r}"))

    async def ready(self, uri: str) -> tuple:
        """The document, its scan, its game and the game's last analysis (waiting for the first one)."""
        game = self.game_of(uri)
        if game is None:
            return None, None, None, None
        if game.index is None:
            if game.pending is None:
                self.schedule(game, 0)
            await game.done.wait()
        doc, s = self.scan_of(uri)
        return doc, s, game, game.index

    def publish(self, game: Game, diagnostics: list) -> None:
        by_uri: dict = {}
        kept: dict = {}
        manifest = from_fs_path(str(game.root / "game.yaml"))
        for d in diagnostics:
            path = file_of(d.span.path) if d.span is not None and d.span.path else None
            placed = path is not None and path.is_file()
            uri = from_fs_path(str(path)) if placed else manifest
            by_uri.setdefault(uri, []).append(to_lsp(d, placed))
            if placed:
                kept.setdefault(uri, []).append(d)
        for uri in game.published | set(by_uri):
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=by_uri.get(uri, [])))
        game.published = set(by_uri)
        game.diagnostics = kept

    async def at(self, params, settled: bool = False) -> tuple | None:
        """(the game's analysis, the file's scan, its path, the offset) of a request's position; None when
        the file belongs to no game or the position to no place of it. `settled`: after the analysis of the
        latest edits."""
        doc, s, game, ix = await (self.settled if settled else self.ready)(params.text_document.uri)
        offset = _offset(doc, s, params.position) if ix is not None else None
        if offset is None:  # no game, or (harden's _offset) a position past the document
            return None
        return ix, s, Path(doc.path).resolve(), offset

    async def settled(self, uri: str) -> tuple:
        """As `ready`, after the analysis of the latest edits (a rename must see every name as it is now)."""
        game = self.game_of(uri)
        if game is not None and game.pending is not None and not game.pending.done():
            await game.done.wait()
        return await self.ready(uri)

    def text_now(self, path: Path, ix: GameIndex | None = None) -> str | None:
        """A file's text as the editor has it: its unsaved text when open, else the analysed one, else the disk's."""
        doc = self.workspace.text_documents.get(from_fs_path(str(path)))
        if doc is not None:
            return doc.source
        if ix is not None and path in ix.texts:
            return ix.texts[path]
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def workspace_edit(self, changes: list, ix: GameIndex | None = None) -> lsp.WorkspaceEdit:
        by_uri: dict = {}
        lines: dict = {}
        for e in changes:
            if e.path not in lines:
                lines[e.path] = (self.text_now(e.path, ix) or "").split("\n")
            by_uri.setdefault(from_fs_path(str(e.path)), []).append(text_edit(e, lines[e.path]))
        return lsp.WorkspaceEdit(changes=by_uri)

    async def searched_games(self) -> list:
        """The analysed games for a workspace-wide search; when none is yet, those under the workspace's folders."""
        if not any(g.index is not None for g in self.games.values()):
            roots = [f.uri for f in (self.workspace.folders or {}).values()] or \
                ([from_fs_path(self.workspace.root_path)] if self.workspace.root_path else [])
            for uri in roots:
                for manifest in _manifests_under(Path(to_fs_path(uri) or ".")):
                    game = self.game_of(from_fs_path(str(manifest)))
                    if game is not None and game.index is None:
                        self.schedule(game, 0)
                        await game.done.wait()
        return [g.index for g in self.games.values() if g.index is not None]

    def location(self, place: Place) -> lsp.Location:
        uri = from_fs_path(str(place.path))
        doc = self.workspace.text_documents.get(uri)
        start, end = lsp.Position(place.line, place.col), lsp.Position(place.line, place.end)
        if doc is not None:  # the editor counts columns in UTF-16 units
            start, end = doc.position_to_client_units(start), doc.position_to_client_units(end)
        return lsp.Location(uri=uri, range=lsp.Range(start=start, end=end))


def analyse(root: Path, texts: dict, previous: GameIndex | None) -> tuple:
    """Load and check the game as `rules validate` does; index its names. When the manifest itself cannot be
    read (a vocabulary-less game), the previous index is kept, so features go on with the last good names."""
    content = load_game(root, texts)
    diagnostics = list(content.report.diagnostics)
    if previous is not None and not content.vocabulary.zones and not content.vocabulary.kinds and previous.voc.zones:
        return previous, diagnostics
    return build_index(root, content, texts, previous), diagnostics


def to_lsp(d: Diagnostic, placed: bool) -> lsp.Diagnostic:
    if placed:
        line = max(d.span.line - 1, 0)
        start, end = max(d.span.col - 1, 0), max(d.span.end_col - 1, d.span.col)
    else:
        line, start, end = 0, 0, 1
    message = d.message if placed or d.span is None else f"{d.span}: {d.message}"
    if d.hint:  # on the first line: an editor showing diagnostics inline shows that line only
        message += f"; {d.hint}"
    severity = lsp.DiagnosticSeverity.Warning if d.severity == "warning" else lsp.DiagnosticSeverity.Error
    return lsp.Diagnostic(range=lsp.Range(start=lsp.Position(line, start), end=lsp.Position(line, end)),
                          message=message, severity=severity, code=d.code, source="rules")


def _manifests_under(folder: Path, depth: int = 3) -> list:
    """game.yaml files in a folder and its sub-folders (content/GAME/game.yaml is two below a project)."""
    found, level = [], [folder]
    for _ in range(depth + 1):
        nxt = []
        for d in level:
            if (d / "game.yaml").is_file():
                found.append(d / "game.yaml")
                continue
            try:
                nxt += [c for c in sorted(d.iterdir()) if c.is_dir() and not c.name.startswith(".")][:200]
            except OSError:
                continue
        level = nxt
    return found[:20]


def utf16(line: str, col: int) -> int:
    head = line[:col]
    return len(head) if head.isascii() else len(head.encode("utf-16-le")) // 2


def text_edit(e, lines: list) -> lsp.TextEdit:
    def pos(line, col):
        return lsp.Position(line, utf16(lines[line], col) if line < len(lines) else col)
    return lsp.TextEdit(range=lsp.Range(start=pos(e.line, e.col), end=pos(e.end_line, e.end_col)), new_text=e.text)


def _offset(doc, s: Scan, position: lsp.Position) -> int | None:
    """The offset in the scanned text of an editor's position; None past the document's last line, where
    nothing is (a column past its line's end is the line's end, as LSP says)."""
    lines = doc.lines
    if position.line > len(lines) or position.line == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        return None
    server = doc.position_from_client_units(position)
    return s.offset(server.line, server.character)


def make_server() -> RulesServer:
    server = RulesServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams):
        game = ls.game_of(params.text_document.uri)
        if game is not None:
            ls.schedule(game, 0 if game.index is None else DELAY)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams):
        game = ls.game_of(params.text_document.uri)
        if game is not None:
            ls.schedule(game, DELAY)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams):
        game = ls.game_of(params.text_document.uri)
        if game is not None:
            ls.schedule(game, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams):
        ls.scans.pop(params.text_document.uri, None)
        game = ls.game_of(params.text_document.uri)
        if game is not None:  # its text on disk counts again
            ls.schedule(game, DELAY)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: RulesServer, params: lsp.HoverParams):
        at = await ls.at(params)
        found = features.hover(*at) if at is not None else None
        if found is None:
            return None
        text, place = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                         range=ls.location(place).range)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: RulesServer, params: lsp.DefinitionParams):
        at = await ls.at(params)
        places = features.definition(*at) if at is not None else []
        return [ls.location(p) for p in places] or None

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: RulesServer, params: lsp.ReferenceParams):
        at = await ls.at(params)
        places = features.references(*at, params.context.include_declaration) if at is not None else []
        return [ls.location(p) for p in places] or None

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[".", "@"]))
    async def completion(ls: RulesServer, params: lsp.CompletionParams):
        at = await ls.at(params)
        if at is None:
            return None
        items = features.completions(*at)
        seen, out = set(), []
        for it in items:
            if it.label in seen:
                continue
            seen.add(it.label)
            out.append(lsp.CompletionItem(
                label=it.label, kind=_KINDS.get(it.kind), detail=it.detail or None, sort_text=f"{it.sort}{it.label}",
                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=it.doc) if it.doc else None))
        return lsp.CompletionList(is_incomplete=False, items=out)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def document_symbols(ls: RulesServer, params: lsp.DocumentSymbolParams):
        doc, s, game, ix = await ls.ready(params.text_document.uri)
        if s is None:
            return None
        return [_symbol(o) for o in features.outline(ix, s, Path(doc.path).resolve())]

    @server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: RulesServer, params: lsp.PrepareRenameParams):
        at = await ls.at(params, settled=True)
        if at is None:
            return None
        try:
            _, place = edits.rename_target(*at)
        except edits.Refused as err:
            raise RequestFailed(str(err)) from None
        return ls.location(place).range

    @server.feature(lsp.TEXT_DOCUMENT_RENAME, lsp.RenameOptions(prepare_provider=True))
    async def rename(ls: RulesServer, params: lsp.RenameParams):
        at = await ls.at(params, settled=True)
        if at is None:
            return None
        ix = at[0]
        texts = {path: ls.text_now(path, ix) for path in ix.texts}
        try:
            changes = edits.rename(*at, params.new_name, texts)
        except edits.Refused as err:
            raise RequestFailed(str(err)) from None
        return ls.workspace_edit(changes, ix)

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
    async def code_action(ls: RulesServer, params: lsp.CodeActionParams):
        doc, s, game, ix = await ls.ready(params.text_document.uri)
        if ix is None:
            return None
        first, last = params.range.start.line, params.range.end.line
        wanted = [d for d in game.diagnostics.get(params.text_document.uri, []) if first <= d.span.line - 1 <= last]
        out = []
        for fix in edits.fixes(ix, s, Path(doc.path).resolve(), doc.source, wanted):
            out.append(lsp.CodeAction(title=fix.title, kind=lsp.CodeActionKind.QuickFix, is_preferred=fix.preferred or None,
                                      diagnostics=[to_lsp(fix.diagnostic, True)], edit=ls.workspace_edit(fix.edits, ix)))
        return out or None

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: lsp.DocumentFormattingParams):
        doc = ls.workspace.get_text_document(params.text_document.uri)
        changes = edits.format_edits(Path(doc.path), doc.source)
        if changes is None:
            return None
        lines = doc.source.split("\n")
        return [text_edit(e, lines) for e in changes]

    @server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP, lsp.SignatureHelpOptions(trigger_characters=["(", ","]))
    async def signature_help(ls: RulesServer, params: lsp.SignatureHelpParams):
        at = await ls.at(params)
        found = signatures.signature_help(*at) if at is not None else None
        if found is None:
            return None
        sigs = [lsp.SignatureInformation(
            label=sig.label, parameters=[lsp.ParameterInformation(label=(utf16(sig.label, a), utf16(sig.label, b))) for a, b in sig.params],
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=sig.doc) if sig.doc else None)
            for sig in found.signatures]
        return lsp.SignatureHelp(signatures=sigs, active_signature=found.active, active_parameter=found.param)

    @server.feature(lsp.WORKSPACE_SYMBOL)
    async def workspace_symbol(ls: RulesServer, params: lsp.WorkspaceSymbolParams):
        found = structure.workspace_symbols(await ls.searched_games(), params.query)
        return [lsp.SymbolInformation(name=f.name, kind=_SYMBOLS.get(f.kind, lsp.SymbolKind.Variable), location=ls.location(f.place),
                                      container_name=f.game) for f in found]

    @server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: RulesServer, params: lsp.FoldingRangeParams):
        doc, s = ls.scan_of(params.text_document.uri)
        return [lsp.FoldingRange(start_line=f.start, end_line=f.end, kind=lsp.FoldingRangeKind.Comment if f.comment else None)
                for f in structure.folds(s, Path(doc.path))]

    @server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
                    lsp.SemanticTokensLegend(token_types=structure.TOKEN_TYPES, token_modifiers=structure.TOKEN_MODIFIERS))
    async def semantic_tokens(ls: RulesServer, params: lsp.SemanticTokensParams):
        doc, s, game, ix = await ls.ready(params.text_document.uri)
        if s is None:
            doc, s = ls.scan_of(params.text_document.uri)
        return lsp.SemanticTokens(data=structure.semantic_tokens(ix, s, Path(doc.path).resolve()))

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: RulesServer, params):
        ls.worker.shutdown(wait=False, cancel_futures=True)

    return server


def _symbol(o) -> lsp.DocumentSymbol:
    rng = lsp.Range(start=lsp.Position(o.line, 0), end=lsp.Position(o.end_line + 1, 0))
    sel = lsp.Range(start=lsp.Position(o.line, o.col), end=lsp.Position(o.line, o.col + len(o.name)))
    return lsp.DocumentSymbol(name=o.name, kind=_SYMBOLS.get(o.kind, lsp.SymbolKind.Function), range=rng,
                              selection_range=sel, children=[_symbol(c) for c in o.children] or None)


def run() -> int:
    make_server().start_io()
    # pygls closes standard output when the session ends; what follows (the command's flush) writes nowhere
    sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the rest of the process
    return 0
