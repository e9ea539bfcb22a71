"""The editor's questions answered on the text as it is now (scanned, never parsed) with the names of the
game's last analysis: hover, definition, references, completion, document symbols.

Every function here is plain Python on plain data (no LSP types), so the server is a thin layer over it.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from dsl.types import BUILTINS, CONSTANTS
from dsl.vocabulary import BASE_TYPES, RECORD_FIELDS
from interpreter.lsp.describe import card_function_line, describe, escape, signature_line
from interpreter.lsp.index import GameIndex, Place, resolve
from interpreter.lsp.scan import SIGNATURE_WORDS, Scan, binds, is_yaml

_GRAMMAR = Path(__file__).resolve().parents[2] / "dsl" / "grammar.lark"
_RECORD_ID = re.compile(r"^[ \t]*-?[ \t]*id[ \t]*:[ \t]*['\"]?([A-Za-z0-9_]+)", re.MULTILINE)
_YAML_KEY = re.compile(r"^[ \t]*(?:-[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*\[?([^\n]*)$")


_IMPLICIT = {"this": ("entity", "the component whose effect this is"),
             "you": ("player", "who controls the component now (its holder)")}


@functools.lru_cache(maxsize=1)
def keywords() -> tuple:
    """The language's keywords, read from its grammar (the quoted words of its rules)."""
    try:
        grammar = _GRAMMAR.read_text(encoding="utf-8")
    except OSError:
        return ()
    return tuple(sorted(set(re.findall(r'"([a-z]+)"', grammar))))


@dataclass(frozen=True)
class Item:
    label: str
    kind: str  # keyword, zone, variable, attribute, kind, value, record, signature, cardfn, builtin, local, type, timing
    detail: str = ""
    doc: str = ""
    sort: str = "5"  # the lower, the nearer the top


@dataclass(frozen=True)
class Outline:
    name: str
    kind: str  # procedure, function, event, trigger, record
    line: int
    end_line: int
    col: int
    end_col: int
    children: tuple = ()


# ------------------------------------------------------------------ what is at a position
def symbol_at(ix: GameIndex, s: Scan, path: Path, offset: int) -> tuple | None:
    """(key, token index or None, Place of the name) of the symbol under the cursor."""
    i = s.token_at(offset)
    if i is not None:
        key = resolve(ix, s, i)
        t = s.tokens[i]
        if key is not None:
            return key, i, Place(path, t.line, t.col, t.col + len(t.text))
        return None
    # outside rule text (a YAML value or key): the places the last analysis found there
    line = s.text.count("\n", 0, offset)
    col = offset - (s.text.rfind("\n", 0, offset) + 1)
    for key, places in ix.refs.items():
        for p in places:
            if p.path == path and p.line == line and p.col <= col <= p.end:
                return key, None, p
    return None


def hover(ix: GameIndex, s: Scan, path: Path, offset: int) -> tuple | None:
    """(markdown, Place) for the name under the cursor, or None."""
    found = symbol_at(ix, s, path, offset)
    i = s.token_at(offset)
    if found is None and i is not None and s.tokens[i].text in _IMPLICIT and is_yaml(str(path)):
        t = s.tokens[i]
        kind, what = _IMPLICIT[t.text]
        return f"```rules\n{t.text}: {kind}\n```\n\n{what}", Place(path, t.line, t.col, t.col + len(t.text))
    if found is None:
        return None
    key, i, place = found
    if key[0] == "local":
        decl = s.decl_of(i)
        t, owner = local_type(ix, s, path, decl, key[2]), ""
        if decl is not None and decl.name is not None:
            owner = f"{decl.word} {s.tokens[decl.name].text}"
        return describe(ix, key, t, owner), place
    return describe(ix, key), place


def definition(ix: GameIndex, s: Scan, path: Path, offset: int) -> list:
    found = symbol_at(ix, s, path, offset)
    if found is None:
        return []
    key, i, _ = found
    if key[0] == "local":
        t = s.tokens[s.decl_of(i).locals[key[2]]]
        return [Place(path, t.line, t.col, t.col + len(t.text))]
    sym = ix.symbols.get(key)
    return list(sym.decls) if sym is not None else []


def references(ix: GameIndex, s: Scan, path: Path, offset: int, declarations: bool = True) -> list:
    found = symbol_at(ix, s, path, offset)
    if found is None:
        return []
    key, i, _ = found
    if key[0] == "local":
        decl = s.decl_of(i)
        out = []
        for j in range(decl.first, decl.last):
            t = s.tokens[j]
            if t.kind == "name" and t.text == key[2] and resolve(ix, s, j) == key:
                out.append(Place(path, t.line, t.col, t.col + len(t.text)))
        return out
    places = list(ix.refs.get(key, []))
    if not declarations:
        sym = ix.symbols.get(key)
        places = [p for p in places if sym is None or p not in sym.decls]
    return places


def local_type(ix: GameIndex, s: Scan, path: Path, decl, name: str) -> str | None:
    if decl is None:
        return None
    if name in decl.params and decl.params[name][1]:
        return decl.params[name][1]
    line = s.tokens[decl.first].line
    header = (path, decl.word, s.tokens[decl.name].text) if decl.name is not None else None
    for key in ((path, line), header):
        t = ix.local_types.get(key, {}).get(name)
        if t and t != "any":
            return t
    if decl.word in ("when", "instead", "modify") and decl.name is not None and name in decl.params:
        event = s.tokens[decl.name].text
        sig = ix.signature(event)
        position = list(decl.params).index(name)
        if sig is not None and position < len(sig.params):
            return sig.params[position].type
    return None


# ------------------------------------------------------------------ completion
def completions(ix: GameIndex, s: Scan, path: Path, offset: int) -> list:
    """The names that fit at the cursor; when a word is begun, only those with its first letter (editors
    match the rest fuzzily, but never past the first letter), which keeps the answer small and quick."""
    items = _completions(ix, s, path, offset)
    word = s.token_at(offset)
    if word is not None and s.tokens[word].offset < offset:
        first = s.tokens[word].text[0].lower()
        items = [it for it in items if it.label[:1].lower() == first]
    return items


def _completions(ix: GameIndex, s: Scan, path: Path, offset: int) -> list:
    if s.region_at(offset) is None:
        return _yaml_completions(ix, s, offset) if is_yaml(str(path)) else []
    if s.in_text(offset):
        return []
    word = s.token_at(offset)
    j = word - 1 if word is not None else s.before(offset)
    region = s.region_at(offset)
    tokens = s.tokens

    def text(k):
        return tokens[k].text if 0 <= k < len(tokens) and tokens[k].region == region else ""

    prev, pprev = text(j), text(j - 1)
    decl = s.decl_at(offset)
    if prev == "@":
        return _records(ix)
    if prev == ".":
        return _members(ix, s, path, j - 1, decl)
    if prev in SIGNATURE_WORDS:
        return []  # a new name
    if prev in ("when", "until") or (prev == "of" and pprev == "instead"):
        return _signatures(ix, ("event", "procedure"), "0")
    if prev == "modify":
        return _signatures(ix, ("function",), "0")
    if prev == "as" and decl is not None and tokens[decl.first].line == s.text.count("\n", 0, offset):
        return [Item(t, "timing", "timing class") for t in ix.voc.priority.timings]
    if prev == ":" and j > 0 and tokens[j - 1].kind == "name" and _typed_here(s, j, decl):
        return [Item(t, "type", "type", sort="0") for t in sorted(BASE_TYPES | set(ix.voc.enums))]
    return _everything(ix, s, path, offset, decl)


def _typed_here(s: Scan, colon: int, decl) -> bool:
    """`name: |` in a declaration's parameters or after `let name`."""
    if colon >= 2 and s.tokens[colon - 2].text == "let":
        return True
    return decl is not None and s.tokens[colon].line == s.tokens[decl.first].line and \
        any(s.tokens[k].text == "(" for k in range(decl.first, colon))


def _records(ix: GameIndex) -> list:
    langs = ix.voc.languages
    out = []
    for rec in ix.content.records:
        from dsl.translations import text_in
        name = text_in(rec.data["name"], langs[0]) if rec.data.get("name") is not None else ""
        out.append(Item(rec.id, "record", f"{rec.data.get('kind')}: {name}", escape(text_in(rec.data.get("text") or "", langs[0]))))
    return out


def _signatures(ix: GameIndex, whats: tuple, sort: str) -> list:
    out = []
    for (kind, name), sym in ix.symbols.items():
        if kind == "signature":
            sig = ix.signature(name)
            what = sig.kind if sig is not None else sym.what
            if what in whats:
                out.append(Item(name, "signature", signature_line(ix, name), sort=sort if what == whats[0] else "1"))
    return out


def _kinds_at_hand(ix: GameIndex, s: Scan, path: Path, obj: int, decl) -> frozenset | None:
    """The kinds of component `obj` may be: `this` in a record's effect; where `x.kind == K` is written, K;
    else what the rule text lets it hold (kinds.py), narrowed to the kinds having every attribute the
    declaration reads on it. None when nothing tells."""
    t = s.tokens[obj]
    name, voc, tk = t.text, ix.voc, s.tokens
    if name == "this":
        ids = [m.group(1) for m in _RECORD_ID.finditer(s.text, 0, t.offset)]
        rec = ix.record_of(ids[-1]) if ids else None
        return frozenset({rec.data.get("kind")}) if rec is not None else None
    flow = ix.kinds
    if decl is None:
        var = voc.variables.get(name)
        return flow.elements(flow.vars.get(name, frozenset())) or None if flow is not None and var is not None else None
    last = min(decl.last, len(tk))
    found = None
    if flow is not None and name in decl.locals:
        found = flow.local(path, tk[decl.first].line, name)
        zone = bound_to_zone(ix, s, decl, name)
        if found is None and zone is not None:
            found = flow.zone(zone)  # a binding typed since the last analysis
    elif flow is not None and name in voc.variables and voc.variables[name].scope == "game":
        found = flow.elements(flow.vars.get(name, frozenset())) or None
    if sum(1 for k in range(decl.first, last) if tk[k].text == name and binds(tk, k, decl.first)) > 1:
        return found  # several names alike (one query's x, another's x): what is read on them tells nothing
    tested = frozenset(tk[k + 4].text for k in range(decl.first, last - 4) if tk[k].text == name and tk[k + 1].text == "."
                       and tk[k + 2].text == "kind" and tk[k + 3].text == "==" and tk[k + 4].text in voc.kinds)
    if found is None and tested:
        found = tested
    read = {tk[k + 2].text for k in range(decl.first, last - 2) if k != obj and tk[k].text == name
            and tk[k + 1].text == "." and tk[k + 2].text in voc.attributes and tk[k + 2].text not in RECORD_FIELDS}
    if read:
        having = frozenset(k for k, attrs in ix.kind_attributes.items() if read <= attrs)
        if having:
            found = having if found is None else (found & having or found)
    return found


_ELEMENT_OF = ("top", "bottom", "first", "random")


def bound_to_zone(ix: GameIndex, s: Scan, decl, name: str) -> str | None:
    """The zone a local is bound to a component of, as its binding reads (`for x in ZONE ...`, `let x =
    top(ZONE ...)`, `let x = first(c in ZONE ...)`): for a binding the last analysis has not seen."""
    tk, zones = s.tokens, ix.voc.zones
    at = decl.locals.get(name)
    if at is None or at + 2 >= len(tk) or tk[at + 1].text not in ("in", "="):
        return None
    k = at + 2
    if tk[k].text in zones:
        return tk[k].text if tk[at + 1].text == "in" else None  # `let x = ZONE` is the zone, not a component
    if tk[k].text in _ELEMENT_OF and k + 2 < len(tk) and tk[k + 1].text == "(":
        if tk[k + 2].text in zones:
            return tk[k + 2].text
        if k + 4 < len(tk) and tk[k + 3].text == "in" and tk[k + 4].text in zones:
            return tk[k + 4].text
    return None


def _members(ix: GameIndex, s: Scan, path: Path, obj: int, decl) -> list:
    """After `x.`: a player's variables, or the attributes, variables and functions of x's kinds (of every
    kind when they cannot be told)."""
    voc = ix.voc
    t = None
    if obj >= 0 and s.tokens[obj].kind == "name":
        name = s.tokens[obj].text
        if name == "this":
            t = "entity"
        elif name == "you":
            t = "player"
        elif decl is not None and name in decl.locals:
            t = local_type(ix, s, path, decl, name)
            if t is None and bound_to_zone(ix, s, decl, name) is not None:
                t = "entity"  # a component of a zone, though the analysis has not seen the binding yet
            elif t is not None and t.startswith("list[") and s.tokens[decl.locals[name]].line == s.tokens[obj].line:
                t = t[5:-1]  # `choose up to 2 x in C where x.a ...`: in its own line, x is each element
        elif name in voc.variables and voc.variables[name].scope == "game":
            t = voc.variables[name].type
        elif name in CONSTANTS:
            t = CONSTANTS[name]
    kinds = _kinds_at_hand(ix, s, path, obj, decl) if obj >= 0 and t in (None, "any", "entity") else None
    if kinds and t in (None, "any"):
        t = "entity"  # it holds components
    out = []
    if t in (None, "any", "player"):
        out += [Item(n, "variable", f"{v.type}, one per player", sort="0")
                for n, v in voc.variables.items() if v.scope == "player"]
    if t not in (None, "any", "entity"):
        return out
    shown = ", ".join(sorted(kinds)) if kinds else ""
    own = set().union(*(ix.kind_attributes.get(k, set()) for k in kinds)) if kinds else set(voc.attributes)
    for n, at in voc.attributes.items():
        if n in own:
            out.append(Item(n, "attribute", f"{at}" + (f" ({shown})" if shown else ""), sort="0" if kinds else "1"))
    out += [Item(n, "attribute", "every record", sort="1") for n in ("id", "kind", "name")]
    for n, v in voc.variables.items():
        if v.scope == "entity" and (not v.kinds or not kinds or set(v.kinds) & kinds):
            out.append(Item(n, "variable", f"{v.type}, one per component", sort="0"))
    for (k, n) in ix.symbols:
        if k == "cardfn" and (not kinds or n not in ix.card_kinds or ix.card_kinds[n] & kinds):
            out.append(Item(n, "cardfn", card_function_line(ix, n), sort="1"))
    return out


def _everything(ix: GameIndex, s: Scan, path: Path, offset: int, decl) -> list:
    voc = ix.voc
    out = []
    if decl is not None:
        for name, k in decl.locals.items():
            if s.tokens[k].offset < offset or name in decl.params:
                out.append(Item(name, "local", local_type(ix, s, path, decl, name) or "local", sort="0"))
    if is_yaml(str(path)):
        out += [Item("this", "local", "entity: the component whose effect this is", sort="0"),
                Item("you", "local", "player: who controls it", sort="0")]
    for name, z in voc.zones.items():
        out.append(Item(name, "zone", f"zone, {z.scope}" + (f": {name} of OWNER" if z.scope != "game" else ""), sort="1"))
    for name, v in voc.variables.items():
        if v.scope == "game":
            out.append(Item(name, "variable", f"{v.type}, game variable", sort="1"))
        else:
            out.append(Item(name, "variable", f"{v.type}, one per {v.scope}: {name} of X", sort="3"))
    for name in voc.kinds:
        out.append(Item(name, "kind", "kind", sort="2"))
    for value, enum in voc.enum_of.items():
        if enum != "kind":
            out.append(Item(value, "value", f"value of {enum}", sort="2"))
    for name, t in CONSTANTS.items():
        out.append(Item(name, "constant", t, sort="2"))
    out += _signatures(ix, ("procedure", "function", "event"), "2")
    for name, b in BUILTINS.items():
        out.append(Item(name, "builtin", "built-in", sort="3"))
    for name, at in voc.attributes.items():
        out.append(Item(name, "attribute", f"{at}: {name} of C", sort="4"))
    out += [Item(w, "keyword", "keyword", sort="4") for w in keywords()]
    return out


def _yaml_completions(ix: GameIndex, s: Scan, offset: int) -> list:
    """In a record: the kinds after `kind:`, an enum's values, record ids for an attribute naming components."""
    line_start = s.text.rfind("\n", 0, offset) + 1
    m = _YAML_KEY.match(s.text[line_start:offset])
    if m is None:
        return []
    key = m.group(1)
    voc = ix.voc
    if key == "kind":
        return [Item(k, "kind", "kind", sort="0") for k in voc.kinds]
    t = voc.attribute_type(key) or ""
    inner = t[5:-1] if t.startswith("list[") else t
    if inner in voc.enums:
        return [Item(v, "value", f"value of {inner}", sort="0") for v in voc.enums[inner]]
    if inner == "entity":
        return _records(ix)
    return []


# ------------------------------------------------------------------ outline
def outline(ix: GameIndex | None, s: Scan, path: Path) -> list:
    """Procedures, functions, events and abilities; in a YAML file, grouped under the record they belong to."""
    items = []
    for d in s.decls:
        first, last = s.tokens[d.first], s.tokens[d.last - 1]
        name = s.tokens[d.name].text if d.name is not None else ""
        if d.word in SIGNATURE_WORDS:
            label, kind = name, d.word
        else:
            label, kind = f"{d.word} {name}".strip() if d.word != "instead" else f"instead of {name}", "trigger"
        items.append(Outline(label, kind, first.line, last.line, first.col, last.col + len(last.text)))
    if not is_yaml(str(path)):
        return items
    records = []
    ids = [(s.text.count("\n", 0, m.start(1)), m.group(1)) for m in _RECORD_ID.finditer(s.text)]
    for n, (line, rid) in enumerate(ids):
        end = ids[n + 1][0] - 1 if n + 1 < len(ids) else s.text.count("\n")
        inner = tuple(o for o in items if line <= o.line <= end)
        if inner:
            records.append(Outline(rid, "record", line, max(end, inner[-1].end_line), 0, 0, inner))
    return records

