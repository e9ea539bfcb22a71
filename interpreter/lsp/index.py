"""A game's names for an editor: every symbol, where it is declared and every place that names it, across
the rule text (.rules files and `effect:` fields) and the YAML files (manifest, records, catalogues).

Built from one analysis (dsl.loader.load_game with the editor's unsaved texts) plus a tolerant token scan
of every file (interpreter/lsp/scan.py), so that a file that does not parse still declares its names.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dsl.paths import real_path

from dsl import ast
from dsl.loader import GameContent, entity_ids_of
from dsl.types import BUILTINS, CONSTANTS
from dsl.vocabulary import RECORD_FIELDS
from dsl.yaml_records import YamlDoc, load_yaml
from interpreter.lsp.looks_names import looks_names
from interpreter.lsp.scan import SIGNATURE_WORDS, Scan, scan

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Which symbol a bare name in YAML stands for, when several could (first wins).
_YAML_ORDER = ("signature", "zone", "variable", "kind", "value", "attribute", "enum", "cardfn")
_NAMING_KEYS = {("table", "zones"), ("table", "backs")}  # manifest mappings whose keys are names of the game
_PROSE_KEYS = {"name", "text", "source", "variants", "en", "ru", "description"}


@dataclass(frozen=True)
class Place:
    path: Path  # resolved
    line: int  # 0-based
    col: int
    end: int  # the end column, on the same line


@dataclass(frozen=True)
class Edit:
    """A change of a file: the range (0-based lines, columns in code points) and the text that replaces it."""

    path: Path
    line: int
    col: int
    end_line: int
    end_col: int
    text: str


@dataclass
class Symbol:
    kind: str  # signature, cardfn, zone, variable, attribute, kind, enum, value, record, timing, builtin, constant
    name: str
    decls: list = field(default_factory=list)  # list[Place]: where it is declared (card functions: each definition)
    what: str = ""  # procedure / event / function for a signature


@dataclass
class GameIndex:
    root: Path
    content: GameContent
    texts: dict  # resolved path -> the text analysed
    scans: dict  # resolved path -> Scan (rule text files and YAML files alike)
    symbols: dict = field(default_factory=dict)  # (kind, name) -> Symbol
    refs: dict = field(default_factory=dict)  # (kind, name) -> [Place], declarations included
    # (path, 0-based line of a declaration) and (path, word, name) -> {local: type}
    local_types: dict = field(default_factory=dict)
    returns: dict = field(default_factory=dict)  # signature name -> the type it returns, as the checker found it
    params: dict = field(default_factory=dict)  # signature name -> [(name, type)] from the scan when the parser had none
    # (path, 0-based line, column) of a member's name -> "variable" or "attribute", as the checker told a
    # name that is both (KB's `points`: a player's score and a card's printed points) apart
    members: dict = field(default_factory=dict)
    kinds: object = None  # interpreter.lsp.kinds.KindFlow: the kinds each name may hold
    card_kinds: dict = field(default_factory=dict)  # card function -> the kinds of the records that define it
    kind_attributes: dict = field(default_factory=dict)  # kind -> the attributes its records have (or must have)
    files: dict = field(default_factory=dict)  # section (manifest, components, rules, translations) -> [path]
    manifest_doc: YamlDoc | None = None

    @property
    def voc(self):
        return self.content.vocabulary

    def signature(self, name: str):
        checker = self.content.checker
        return checker.signatures.get(name) if checker is not None else None

    def record_of(self, entity_id: str):
        rec = self.content.entity_ids.get(entity_id)
        if rec is None:
            rec = next((r for r in self.content.records if r.id == entity_id), None)
        return rec

    def key_of_bare(self, name: str, order=_YAML_ORDER) -> tuple | None:
        for kind in order:
            if (kind, name) in self.symbols:
                return (kind, name)
        return None


def file_of(display: str) -> Path:
    """The file a diagnostic's or a span's path names (its path in its repository, as dsl shows it: dsl.paths)."""
    return real_path(display)


def game_files(root: Path, manifest: dict) -> dict:
    """The files a manifest lists, by section (components, rules, translations), resolved; patterns expanded."""
    out: dict = {"manifest": [(root / "game.yaml").resolve()]}
    base = root.resolve()
    files = manifest.get("files") if isinstance(manifest.get("files"), dict) else {}
    for section in ("components", "rules", "translations"):
        found = []
        for rel in files.get(section) or []:
            if not isinstance(rel, str) or ".." in Path(rel).parts or Path(rel).is_absolute():
                continue
            try:
                paths = sorted(base.glob(rel))[:1000] if any(c in rel for c in "*?[") else [base / rel]
                found += [p.resolve() for p in paths if p.is_file() and p.resolve().is_relative_to(base)]
            except (OSError, ValueError):
                continue
        out[section] = found
    table = manifest.get("table") if isinstance(manifest.get("table"), dict) else {}
    board = table.get("board") if isinstance(table.get("board"), dict) else {}
    # where the map draws each area (its keys are record ids), and how components look (dsl/looks.py)
    for section, named in (("layout", board.get("layout")), ("looks", manifest.get("looks"))):
        out[section] = []
        if isinstance(named, str) and ".." not in Path(named).parts and not Path(named).is_absolute():
            path = (base / named).resolve()
            if path.is_file() and path.is_relative_to(base):
                out[section] = [path]
    return out


def build_index(root: Path, content: GameContent, texts: dict, previous: GameIndex | None = None) -> GameIndex:
    """Every symbol of an analysed game and every place naming it. `texts`: resolved path -> unsaved text.
    What only the parser and checker know (the types of locals, what functions return) is kept from the
    `previous` index for declarations that do not parse now, so a syntax error mid-edit loses none of it."""
    files = game_files(root, content.manifest)
    every = [p for section in files.values() for p in section]
    read = {}
    for path in every:
        if path in texts:
            read[path] = texts[path]
        else:
            try:
                read[path] = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    ix = GameIndex(root.resolve(), content, read, {p: scan(str(p), t) for p, t in read.items()})
    ix.files = files
    _vocabulary_symbols(ix, files["manifest"][0])
    _rule_symbols(ix, files)
    _record_symbols(ix)
    _types(ix)
    for kind, spec in ix.voc.kinds.items():
        ix.kind_attributes[kind] = {a for a in spec.required if a in ix.voc.attributes}
    for rec in content.records:
        if rec.data.get("kind") in ix.kind_attributes:
            ix.kind_attributes[rec.data["kind"]].update(a for a in rec.data if a in ix.voc.attributes)
    for module in content.modules:
        rec = ix.record_of(module.owner) if module.owner else None
        for decl in module.decls if rec is not None else ():
            if isinstance(decl, ast.Function):
                ix.card_kinds.setdefault(decl.name, set()).add(rec.data.get("kind"))
    if previous is not None:
        ix.kinds = previous.kinds  # until the server works them out again for this analysis (kinds.py)
        for key, types in previous.local_types.items():
            ix.local_types.setdefault(key, types)
        for name, t in previous.returns.items():
            ix.returns.setdefault(name, t)
    for path, s in ix.scans.items():
        for i, t in enumerate(s.tokens):
            if t.kind == "name":
                key = resolve(ix, s, i)
                if key is not None and key[0] != "local":
                    ix.refs.setdefault(key, []).append(Place(path, t.line, t.col, t.col + len(t.text)))
    _yaml_refs(ix, files)
    for key in ix.refs:  # each place once, in file order
        ix.refs[key] = sorted(set(ix.refs[key]), key=lambda p: (str(p.path), p.line, p.col))
    return ix


def _add(ix: GameIndex, kind: str, name: str, place: Place | None, what: str = "") -> Symbol:
    sym = ix.symbols.get((kind, name))
    if sym is None:
        sym = ix.symbols[(kind, name)] = Symbol(kind, name, what=what)
    if place is not None and place not in sym.decls:
        sym.decls.append(place)
        ix.refs.setdefault((kind, name), []).append(place)
    return sym


# ------------------------------------------------------------------ declarations
def key_place(doc: YamlDoc, path: tuple, name: str) -> Place | None:
    """Where the mapping key `name` at `path` is written (positions are kept for values: look back from it)."""
    if path not in doc.positions:
        return None
    p = doc.positions[path]
    lines = doc.lines
    pattern = re.compile(r"(?<![\w-])" + re.escape(str(name)) + r"[ \t]*:")
    for n in range(p.line - 1, max(-1, p.line - 6), -1):
        text = lines[n] if n < len(lines) else ""
        limit = p.col - 1 if n == p.line - 1 else len(text)
        hits = [m for m in pattern.finditer(text) if m.start() < max(limit, 1)]
        if hits:
            m = hits[-1]
            return Place(file_of(doc.path), n, m.start(), m.start() + len(str(name)))
    return value_place(doc, path)


def value_place(doc: YamlDoc, path: tuple) -> Place | None:
    if path not in doc.positions:
        return None
    p = doc.positions[path]
    text = doc.lines[p.line - 1] if 0 < p.line <= len(doc.lines) else ""
    m = re.match(r"[A-Za-z0-9_]+", text[p.col - 1:])
    return Place(file_of(doc.path), p.line - 1, p.col - 1, p.col - 1 + (len(m.group()) if m else 1))


def _manifest_doc(ix: GameIndex, path: Path) -> YamlDoc | None:
    text = ix.texts.get(path)
    if text is None:
        return None
    doc, _ = load_yaml(str(path), text)
    return doc if isinstance(doc.data, dict) else None


def _vocabulary_symbols(ix: GameIndex, manifest: Path) -> None:
    voc = ix.voc
    doc = _manifest_doc(ix, manifest)
    ix.manifest_doc = doc
    at = ("vocabulary",)

    def place(*path):
        return key_place(doc, at + path, path[-1]) if doc is not None else None

    for name in voc.zones:
        _add(ix, "zone", name, place("zones", name))
    for name in voc.variables:
        _add(ix, "variable", name, place("variables", name))
    for name in voc.attributes:
        _add(ix, "attribute", name, place("attributes", name))
    for name in RECORD_FIELDS:
        _add(ix, "attribute", name, None)
    for name in voc.kinds:
        _add(ix, "kind", name, place("kinds", name))
    for enum, values in voc.enums.items():
        if enum == "kind":
            continue
        _add(ix, "enum", enum, place("enums", enum))
        for i, value in enumerate(values):
            _add(ix, "value", value, value_place(doc, at + ("enums", enum, i)) if doc is not None else None)
    for name in voc.card_functions:
        _add(ix, "cardfn", name, place("card_functions", name))
    for i, timing in enumerate(voc.priority.timings):
        _add(ix, "timing", timing, value_place(doc, ("priority", "timings", i)) if doc is not None else None)
    for name in BUILTINS:
        _add(ix, "builtin", name, None)
    for name in CONSTANTS:
        _add(ix, "constant", name, None)


def _rule_symbols(ix: GameIndex, files: dict) -> None:
    """Procedures, events and functions as the scan finds them (a file that does not parse declares them too)."""
    owners = set(files["components"])
    for path, s in ix.scans.items():
        for d in s.decls:
            if d.word not in SIGNATURE_WORDS or d.name is None:
                continue
            t = s.tokens[d.name]
            place = Place(path, t.line, t.col, t.col + len(t.text))
            if path in owners:  # a function in a record's effect is one of its card functions
                if d.word == "function":
                    _add(ix, "cardfn", t.text, place)
                continue
            sym = _add(ix, "signature", t.text, place, d.word)
            sym.what = sym.what or d.word
            ix.params.setdefault(t.text, [(n, ty) for n, (_, ty) in d.params.items()])


def _record_symbols(ix: GameIndex) -> None:
    for rec in ix.content.records:
        _add(ix, "record", rec.id, value_place(rec.doc, rec.path + ("id",)))


def _types(ix: GameIndex) -> None:
    """The type the checker gave each local, by declaration (hover and `x.` completion read them)."""
    voc = ix.voc
    ambiguous = frozenset(n for n, v in voc.variables.items() if v.scope != "game" and n in voc.attributes)
    for module in ix.content.modules:
        for decl in module.decls:
            types: dict = {}
            for p in getattr(decl, "params", None) or []:
                if p.type:
                    types[p.name] = p.type
            _walk_types(decl, types, ix, ambiguous)
            path = file_of(decl.span.path)
            ix.local_types[(path, decl.span.line - 1)] = types
            name = getattr(decl, "name", None) or getattr(decl, "event", None) or getattr(decl, "func", None)
            if name:
                ix.local_types.setdefault((path, _WORDS.get(type(decl), ""), name), types)
    bots = getattr(ix.content, "bots", None)
    if bots is not None and bots.evaluation is not None:  # the manifest's `bots: evaluation:`, checked as rule text
        _walk_types(bots.evaluation, {}, ix, ambiguous)
    checker = ix.content.checker
    for name, sig in (checker.signatures.items() if checker is not None else ()):
        ix.returns[name] = sig.returns


_WORDS = {ast.Procedure: "procedure", ast.Function: "function", ast.EventDecl: "event", ast.Trigger: "when",
          ast.Replacement: "instead", ast.Modifier: "modify"}


def _walk_types(node, types: dict, ix: GameIndex | None = None, ambiguous: frozenset = frozenset()) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and getattr(n, "ref", None) == ("local",):
            t = getattr(n, "type", None)
            if t and (types.get(n.id) in (None, "any")):
                types[n.id] = t
        elif isinstance(n, (ast.Attr, ast.Of)) and n.name in ambiguous and getattr(n, "ref", None):
            span = n.span
            col = span.col - 1 if isinstance(n, ast.Of) else span.end_col - 1 - len(n.name)
            if col >= 0:
                what = "attribute" if n.ref[0] == "attr" else "variable"
                ix.members[(file_of(span.path), span.line - 1, col)] = what
        stack.extend(ast.children(n))


# ------------------------------------------------------------------ what a name token stands for
def resolve(ix: GameIndex, s: Scan, i: int) -> tuple | None:
    """The symbol the name token i of a scanned file stands for: ("zone", "hand"), ("local", decl, "c"), ..."""
    tokens = s.tokens
    t = tokens[i]
    name = t.text
    region = t.region

    def at(j):
        return tokens[j] if 0 <= j < len(tokens) and tokens[j].region == region and tokens[j].nested == t.nested else None

    prev, pprev, nxt = at(i - 1), at(i - 2), at(i + 1)
    p = prev.text if prev is not None else ""
    n = nxt.text if nxt is not None else ""
    sym = ix.symbols
    if p == "@":
        rec = ix.record_of(name)
        return ("record", rec.id) if rec is not None else None
    if p == ".":
        if n == "(":
            return ("cardfn", name) if ("cardfn", name) in sym else None
        return member_key(ix, name, s, t)
    decl = s.decl_of(i)
    if p in SIGNATURE_WORDS or p in ("when", "modify", "until") or (p == "of" and pprev is not None and pprev.text == "instead"):
        if p == "function" and decl is not None and ("cardfn", name) in sym and ("signature", name) not in sym:
            return ("cardfn", name)
        return ("signature", name) if ("signature", name) in sym else None
    if p == "as" and ("timing", name) in sym and _in_header(s, decl, i):
        return ("timing", name)
    if p == ":" and ("enum", name) in sym:
        return ("enum", name)
    if decl is not None and name in decl.locals and (decl.locals[name] <= i or name in decl.params):
        return ("local", decl.first, name)
    if n == "(":
        if ("signature", name) in sym:
            return ("signature", name)
        return ("builtin", name) if name in BUILTINS else None
    if n == "of" and ("zone", name) not in sym:
        return member_key(ix, name, s, t)
    for kind in ("zone", "variable", "kind", "value", "constant", "signature", "enum"):
        if (kind, name) in sym and (kind != "variable" or ix.voc.variables[name].scope == "game" or n == "of"):
            return (kind, name)
    return None


def member_key(ix: GameIndex, name: str, s: Scan | None = None, t=None) -> tuple | None:
    """`x.name` or `name of x`: a player's or a component's variable, or a record's attribute."""
    var = ix.voc.variables.get(name)
    if var is not None and var.scope != "game" and ("attribute", name) in ix.symbols and s is not None and s.path:
        told = ix.members.get((Path(s.path).resolve(), t.line, t.col))  # both: as the checker told them apart
        if told is not None:
            return (told, name)
    if var is not None and var.scope != "game":
        return ("variable", name)
    if ("attribute", name) in ix.symbols:
        return ("attribute", name)
    return None


def _in_header(s: Scan, decl, i: int) -> bool:
    return decl is not None and s.tokens[i].line == s.tokens[decl.first].line


# ------------------------------------------------------------------ names in YAML
def _yaml_refs(ix: GameIndex, files: dict) -> None:
    by_doc: dict = {}
    for rec in ix.content.records:
        by_doc.setdefault(id(rec.doc), (rec.doc, []))[1].append(rec)
    for doc, records in by_doc.values():
        for rec in records:
            _record_refs(ix, doc, rec)
    doc = ix.manifest_doc
    if doc is not None:
        _walk_manifest(ix, doc, doc.data, ())
        if isinstance(doc.data, dict):
            _looks_refs(ix, doc, doc.data.get("looks"), ("looks",))
    for path in files.get("looks", []):
        text = ix.texts.get(path)
        ldoc = load_yaml(str(path), text)[0] if text is not None else None
        if ldoc is not None:
            _looks_refs(ix, ldoc, ldoc.data, ())
    for path in files.get("layout", []):
        text = ix.texts.get(path)
        ldoc = load_yaml(str(path), text)[0] if text is not None else None
        areas = ldoc.data.get("areas") if ldoc is not None and isinstance(ldoc.data, dict) else None
        for area in areas if isinstance(areas, dict) else ():
            rec = ix.record_of(area) if isinstance(area, str) else None
            place = key_place(ldoc, ("areas", area), area) if rec is not None else None
            if place is not None:
                ix.refs.setdefault(("record", rec.id), []).append(place)
    for path in files["translations"]:
        text = ix.texts.get(path)
        if text is None:
            continue
        cdoc, _ = load_yaml(str(path), text)
        words = cdoc.data.get("words") if isinstance(cdoc.data, dict) else None
        for word in words if isinstance(words, dict) else ():
            key = ix.key_of_bare(word, ("zone", "variable", "kind", "value", "attribute", "signature"))
            place = key_place(cdoc, ("words", word), word)
            if key is not None and place is not None:
                ix.refs.setdefault(key, []).append(place)


def _looks_refs(ix: GameIndex, doc: YamlDoc, data, base: tuple) -> None:
    for n in looks_names(data, base):
        if n.key in ix.symbols:
            place = key_place(doc, n.path, n.key[1]) if n.is_key else value_place(doc, n.path)
            if place is not None:
                ix.refs.setdefault(n.key, []).append(place)


def _record_refs(ix: GameIndex, doc: YamlDoc, rec) -> None:
    voc = ix.voc
    for attr, value in rec.data.items():
        path = rec.path + (attr,)
        if path not in doc.positions:
            continue  # a default filled in by the loader
        if attr not in RECORD_FIELDS:
            place = key_place(doc, path, attr)
            if place is not None:
                ix.refs.setdefault(("attribute", attr), []).append(place)
        t = "kind" if attr == "kind" else voc.attribute_type(attr)
        if t is None:
            continue
        inner = t[5:-1] if t.startswith("list[") else t
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for i, v in items:
            if not isinstance(v, str):
                continue
            key = None
            if inner == "kind":
                key = ("kind", v)
            elif inner == "entity":
                target = ix.record_of(v)
                key = ("record", target.id) if target is not None else None
            elif inner in voc.enums:
                key = ("value", v)
            place = value_place(doc, path + ((i,) if i is not None else ()))
            if key in ix.symbols and place is not None:
                ix.refs.setdefault(key, []).append(place)


def _walk_manifest(ix: GameIndex, doc: YamlDoc, value, path: tuple) -> None:
    """Names the manifest uses outside its declarations: starts_in, required, start, score, table, report..."""
    if path[:1] in (("name",), ("source",), ("variants",), ("files",), ("languages",), ("looks",)):  # looks: below
        return
    if isinstance(value, dict):
        for key, inner in value.items():
            sub = path + (key,)
            if path in _NAMING_KEYS and isinstance(key, str):
                k = ix.key_of_bare(key)
                place = key_place(doc, sub, key) if k is not None else None
                if place is not None:
                    ix.refs.setdefault(k, []).append(place)
            if key not in _PROSE_KEYS or len(path) == 0:
                _walk_manifest(ix, doc, inner, sub)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            _walk_manifest(ix, doc, inner, path + (i,))
    elif isinstance(value, str) and _NAME.match(value.removeprefix("list[").removesuffix("]")):
        if path[:2] == ("vocabulary", "enums") or path[:2] == ("priority", "timings"):
            return  # declarations
        name = value.removeprefix("list[").removesuffix("]")
        typed = path[-1] == "type" or (len(path) == 3 and path[:2] == ("vocabulary", "attributes"))
        k = ("enum", name) if typed and ("enum", name) in ix.symbols else ix.key_of_bare(name)
        if path[:2] == ("vocabulary", "attributes") or path[-1:] == ("type",):
            k = ("enum", name) if ("enum", name) in ix.symbols else None
        elif "required" in path or path[-1:] == ("initial_from",):  # a kind's required fields, a variable's source
            k = ("attribute", name) if ("attribute", name) in ix.symbols else None
        place = value_place(doc, path) if k is not None else None
        if place is not None:
            ix.refs.setdefault(k, []).append(place)


def copies(rec) -> int:
    return len(entity_ids_of(rec.data))
