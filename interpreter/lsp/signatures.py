"""Signature help: the parameters of the call the cursor is in (a procedure, function or event of the game,
a card function, a built-in, or the pattern of an ability), with the parameter being typed marked."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from interpreter.lsp.describe import card_function_line, comment_of, signature_line
from interpreter.lsp.index import GameIndex
from interpreter.lsp.scan import SIGNATURE_WORDS, Scan

# The built-ins' forms, as docs/language.md writes them (section "Built-in functions").
BUILTIN_FORMS = {
    "count": ["count(C)", "count(x in C where P)"],
    "sum": ["sum(C)", "sum(E for x in C where P)"],
    "max": ["max(A, B)", "max(C)", "max(E for x in C where P)", "max(x in C by K)"],
    "min": ["min(A, B)", "min(C)", "min(E for x in C where P)", "min(x in C by K)"],
    "any": ["any(C)", "any(x in C where P)", "any(E for x in C where P)"],
    "all": ["all(C)", "all(x in C where P)", "all(E for x in C where P)"],
    "first": ["first(C)", "first(x in C where P)", "first(E for x in C where P)"],
    "distinct": ["distinct(C)", "distinct(E for x in C)"],
    "rank": ["rank(x in C where P by K descending, K2)"],
    "group": ["group(x in C where P by K)"],
    "reach": ["reach(x in START where PASS by NEXT)"],
    "concat": ["concat(L)"], "len": ["len(C)"],
    "top": ["top(Z)", "top(Z, N)"], "bottom": ["bottom(Z)", "bottom(Z, N)"],
    "random": ["random(C)", "random(C, K)"], "roll": ["roll(N)", "roll(N, SIDES)"],
    "combinations": ["combinations(C, K)"],
    "next": ["next(p)"], "prev": ["prev(p)"], "neighbors": ["neighbors(p)"], "distance": ["distance(p, q)"],
    "players_from": ["players_from(p)"], "holder": ["holder(e)"], "zone_of": ["zone_of(e)"], "is_in": ["is_in(e, Z)"],
    "abs": ["abs(n)"], "seat": ["seat(p)"], "variant": ['variant("name")'], "face_down": ["face_down(e)"],
    "keys": ["keys(m)"], "place_of": ["place_of(e)"], "snapshot": ["snapshot(C)"],
}
_LOOK_BACK = 600  # tokens: a call's bracket further back than this is not looked for


@dataclass(frozen=True)
class Signature:
    label: str
    params: tuple  # (start, end) of each parameter in the label
    doc: str = ""


@dataclass(frozen=True)
class Help:
    signatures: tuple
    active: int  # which signature
    param: int  # which parameter of it


def signature_help(ix: GameIndex, s: Scan, path: Path, offset: int) -> Help | None:
    call = _open_call(s, offset)
    if call is None:
        return None
    name_at, commas, query = call
    tokens = s.tokens
    name = tokens[name_at].text
    before = tokens[name_at - 1].text if name_at > 0 and tokens[name_at - 1].region == tokens[name_at].region else ""
    if before in SIGNATURE_WORDS:
        return None  # a declaration's own parameters are being written
    sigs: list = []
    if before == ".":
        if ("cardfn", name) in ix.symbols:
            sym = ix.symbols[("cardfn", name)]
            sigs.append(_signature(card_function_line(ix, name), comment_of(ix, sym.decls[0]) if sym.decls else ""))
    elif ("signature", name) in ix.symbols:
        sym = ix.symbols[("signature", name)]
        sigs.append(_signature(signature_line(ix, name), comment_of(ix, sym.decls[0]) if sym.decls else ""))
    elif name in BUILTIN_FORMS:
        sigs += [_signature(form) for form in BUILTIN_FORMS[name]]
    if not sigs:
        return None
    active = 0
    for n, sig in enumerate(sigs):  # the first form that takes this many arguments (a query form for `x in`)
        is_query = len(sig.params) == 1 and " in " in sig.label
        if len(sig.params) > commas and is_query == query:
            active = n
            break
    return Help(tuple(sigs), active, min(commas, max(0, len(sigs[active].params) - 1)))


def _open_call(s: Scan, offset: int) -> tuple | None:
    """(index of the called name, commas before the cursor, whether the argument so far reads `x in`) of the
    innermost bracket `name(` open at the offset in its rule text."""
    region = s.region_at(offset)
    if region is None or s.in_text(offset):
        return None
    tokens = s.tokens
    depth = commas = 0
    query = False
    j = s.before(offset)
    nested = j >= 0 and tokens[j].nested
    floor = max(-1, j - _LOOK_BACK)
    while j > floor:
        t = tokens[j]
        if t.region != region or (nested and not t.nested):
            return None  # another rule text, or out of the string's {interpolation}
        if t.nested and not nested:  # a string's insides, seen from outside
            j -= 1
            continue
        if t.text in (")", "]", "}"):
            depth += 1
        elif t.text in ("(", "[", "{"):
            if depth == 0:
                if t.text == "(" and j > 0 and tokens[j - 1].kind == "name" and tokens[j - 1].region == region:
                    return j - 1, commas, query
                return None
            depth -= 1
        elif depth == 0 and t.text == ",":
            commas += 1
        elif depth == 0 and t.text in ("in", "for"):
            query = True
        elif t.first and t.text in ("procedure", "function", "event", "when", "instead", "modify", "whenever"):
            return None
        j -= 1
    return None


def _signature(label: str, doc: str = "") -> Signature:
    """The parameters' places in `name(a: t, b)`: split at the top level's commas."""
    open_at = label.find("(")
    close_at = label.rfind(")")
    params = []
    start, depth = open_at + 1, 0
    for i in range(open_at + 1, close_at + 1):
        ch = label[i]
        if ch in "([":
            depth += 1
        elif ch in ")]" and i < close_at:
            depth -= 1
        if (ch == "," and depth == 0) or i == close_at:
            if label[start:i].strip():
                params.append((start, i))
            start = i + 2 if ch == "," else i
    return Signature(label, tuple(params), doc)
