"""What an editor draws from a file's structure: folding ranges, semantic tokens (what each name is, for
colours), and the game's symbols for a workspace-wide search. Plain Python on plain data, as features.py."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from interpreter.lsp.features import keywords
from interpreter.lsp.index import GameIndex, Place, resolve
from interpreter.lsp.scan import Scan, is_yaml

# ------------------------------------------------------------------ folding
@dataclass(frozen=True)
class Fold:
    start: int  # 0-based lines, both shown: the first stays visible when folded
    end: int
    comment: bool = False


def folds(s: Scan, path: Path) -> list:
    """A fold for every block (a line and the more indented lines under it) and every run of two or more
    comment lines, in rule text only (a YAML file's own structure is the YAML server's)."""
    lines = s.text.split("\n")
    if is_yaml(str(path)):
        spans = [(s.text.count("\n", 0, r.start), s.text.count("\n", 0, r.end)) for r in s.regions]
    else:
        spans = [(0, len(lines) - 1)]
    out: list = []
    for first, last in spans:
        out += _block_folds(lines, first, last) + _comment_folds(lines, first, last)
    return sorted(out, key=lambda f: (f.start, f.end))


def _block_folds(lines: list, first: int, last: int) -> list:
    out = []
    open_blocks: list = []  # (indentation, line) of code lines that may head a block
    last_inner: dict = {}  # head line -> the last line under it

    def close(head: int) -> None:
        end = _last_code(lines, head, last_inner.get(head, head))
        if end > head:
            out.append(Fold(head, end))

    for n in range(first, last + 1):
        text = lines[n]
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            for _, head in open_blocks:
                last_inner[head] = n
            continue
        width = len(text) - len(text.lstrip(" \t"))
        while open_blocks and width <= open_blocks[-1][0]:
            close(open_blocks.pop()[1])
        for _, head in open_blocks:
            last_inner[head] = n
        open_blocks.append((width, n))
    for _, head in open_blocks:
        close(head)
    return out


def _last_code(lines: list, head: int, end: int) -> int:
    """A block's fold ends at its last line of code, not at the comments and blank lines before what follows."""
    n = end
    while n > head and (not lines[n].strip() or lines[n].strip().startswith("#")):
        n -= 1
    return n


def _comment_folds(lines: list, first: int, last: int) -> list:
    out = []
    run = None
    for n in range(first, last + 2):
        is_comment = n <= last and lines[n].strip().startswith("#")
        if is_comment and run is None:
            run = n
        elif not is_comment and run is not None:
            if n - 1 > run:
                out.append(Fold(run, n - 1, comment=True))
            run = None
    return out


# ------------------------------------------------------------------ semantic tokens
TOKEN_TYPES = ["keyword", "function", "event", "method", "namespace", "variable", "property", "class", "enum",
               "enumMember", "parameter", "decorator", "number"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
_TYPE_OF = {"signature": "function", "cardfn": "method", "zone": "namespace", "variable": "variable",
            "attribute": "property", "kind": "class", "enum": "enum", "value": "enumMember", "record": "decorator",
            "timing": "enumMember", "builtin": "function", "constant": "variable"}
_DECLARATION, _READONLY, _LIBRARY = 1, 2, 4


def semantic_tokens(ix: GameIndex | None, s: Scan, path: Path) -> list:
    """The LSP's encoded semantic tokens of a file's rule text: five integers a token (line and column
    relative to the token before, length, type, modifiers), columns in UTF-16 units."""
    words = set(keywords())
    lines = s.text.split("\n")
    found = []
    for i, t in enumerate(s.tokens):
        if t.kind == "number":
            found.append((t.line, t.col, len(t.text), TOKEN_TYPES.index("number"), 0))
            continue
        if t.kind != "name":
            continue
        typed = _token_type(ix, s, i, words) if ix is not None else ("keyword", 0) if t.text in words else None
        if typed is None:
            continue
        kind, modifiers = typed
        col, length = t.col, len(t.text)
        if kind == "decorator" and i > 0 and s.tokens[i - 1].text == "@" and s.tokens[i - 1].end == t.offset:
            col, length = col - 1, length + 1  # `@id` as one token
        found.append((t.line, col, length, TOKEN_TYPES.index(kind), modifiers))
    found.sort()
    data: list = []
    prev_line = prev_col = 0
    for line, col, length, kind, modifiers in found:
        text = lines[line] if line < len(lines) else ""
        start, end = _utf16(text, col), _utf16(text, col + length)
        delta_col = start - prev_col if line == prev_line else start
        data += [line - prev_line, delta_col, end - start, kind, modifiers]
        prev_line, prev_col = line, start
    return data


def _token_type(ix: GameIndex, s: Scan, i: int, words: set) -> tuple | None:
    t = s.tokens[i]
    key = resolve(ix, s, i)
    if key is None:
        return ("keyword", 0) if t.text in words else None
    kind = key[0]
    if kind == "local":
        decl = s.decl_of(i)
        param = decl is not None and t.text in decl.params
        binding = decl is not None and decl.locals.get(t.text) == i
        return ("parameter" if param else "variable", _DECLARATION if binding else 0)
    modifiers = 0
    sym = ix.symbols.get(key)
    if sym is not None and sym.decls:
        place = Place(sym.decls[0].path, t.line, t.col, t.col + len(t.text))
        if place in sym.decls:
            modifiers |= _DECLARATION
    if kind in ("builtin", "constant"):
        modifiers |= _LIBRARY | (_READONLY if kind == "constant" else 0)
    name = _TYPE_OF.get(kind)
    if kind == "signature":
        sig = ix.signature(key[1])
        what = sig.kind if sig is not None else (sym.what if sym is not None else "")
        name = "event" if what == "event" else "function"
    return (name, modifiers) if name is not None else None


def _utf16(text: str, col: int) -> int:
    head = text[:col]
    return len(head) if head.isascii() else len(head.encode("utf-16-le")) // 2


# ------------------------------------------------------------------ workspace symbols
@dataclass(frozen=True)
class Found:
    name: str
    kind: str  # procedure, function, event, cardfn, zone, variable, attribute, kind, enum, value, record, timing
    place: Place
    game: str


def workspace_symbols(indexes: list, query: str, limit: int = 500) -> list:
    """Every declared name of the games whose letters hold the query's in order (case aside); names that
    begin with it first, then those that contain it, then the rest."""
    q = query.lower()
    out = []
    for ix in indexes:
        game = str(ix.content.id)
        for (kind, name), sym in ix.symbols.items():
            if not sym.decls or not _holds(name.lower(), q):
                continue
            what = kind
            if kind == "signature":
                sig = ix.signature(name)
                what = sig.kind if sig is not None else (sym.what or "procedure")
            for place in sym.decls[:1] if kind != "cardfn" else sym.decls:
                out.append(Found(name, what, place, game))
    out.sort(key=lambda f: (not f.name.lower().startswith(q), q not in f.name.lower(), f.name, str(f.place.path), f.place.line))
    return out[:limit]


def _holds(name: str, query: str) -> bool:
    at = 0
    for ch in query:
        at = name.find(ch, at) + 1
        if at == 0:
            return False
    return True
