"""Changes the editor makes for the author: a rename across the game's files, the quick fixes of diagnostics
that name their fix, and the layout of `rules fmt` as edits.

Plain Python on plain data, as features.py: an Edit is a range of a file (0-based lines, columns in code
points) and the text that replaces it; the server turns them into LSP edits.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

from dsl.diagnostics import Diagnostic
from dsl.formatter import FormatError, format_text
from dsl.vocabulary import RECORD_FIELDS
from interpreter.lsp.features import keywords, local_type, references, symbol_at
from interpreter.lsp.index import Edit, GameIndex, Place
from interpreter.lsp.messages import catalogue_edits
from interpreter.lsp.scan import Scan, is_yaml

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_QUOTED = re.compile(r"'([A-Za-z_@][A-Za-z0-9_]*)'")
_MEANT = re.compile(r"did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?")
_WHAT = {"signature": "procedure, function or event", "cardfn": "card function", "zone": "zone", "variable": "variable",
         "attribute": "attribute", "kind": "kind", "enum": "enum", "value": "enum value", "record": "record id",
         "timing": "timing class", "local": "local name"}


@dataclass
class Fix:
    title: str
    diagnostic: Diagnostic
    edits: list = field(default_factory=list)
    preferred: bool = False


class Refused(Exception):
    """A rename that cannot be made; the message says why, in words the author reads."""


# ------------------------------------------------------------------ rename
def rename_target(ix: GameIndex, s: Scan, path: Path, offset: int) -> tuple:
    """(key, Place) of the name at the cursor that a rename would change, or Refused saying why not."""
    found = symbol_at(ix, s, path, offset)
    if found is None:
        raise Refused("no name of the game here to rename")
    key, _, place = found
    if key[0] in ("builtin", "constant"):
        raise Refused(f"'{key[-1]}' is built into the language and cannot be renamed")
    if key[0] == "attribute" and key[1] in RECORD_FIELDS:
        raise Refused(f"'{key[1]}' is a field every record has and cannot be renamed")
    sym = ix.symbols.get(key)
    if key[0] != "local" and (sym is None or not sym.decls):
        raise Refused(f"'{key[-1]}' is declared nowhere in this game's files")
    return key, place


def rename(ix: GameIndex, s: Scan, path: Path, offset: int, new: str, texts: dict) -> list:
    """The edits renaming the name at the cursor to `new` in every file of the game that names it.
    `texts`: path -> the text as it is now (the editor's unsaved texts, else the files')."""
    key, place = rename_target(ix, s, path, offset)
    old = key[-1]
    if new == old:
        return []
    _check_new_name(ix, s, key, new, offset)
    catalogues = set(ix.files.get("translations", []))
    if key[0] == "local":
        places = references(ix, s, path, offset)
    else:  # the catalogues' words are renamed below: another symbol may have the same name and keep its words
        places = [p for p in ix.refs.get(key, []) if p.path not in catalogues]
    edits = []
    lines: dict = {}  # path -> its lines, split once
    for p in sorted(set(places), key=lambda p: (str(p.path), p.line, p.col)):
        if p.path not in lines:
            text = _text(ix, texts, p.path)
            lines[p.path] = text.split("\n") if text is not None else None
        edit = _replace_at(p, lines[p.path], old, new, key[0] == "record")
        if edit is not None:
            edits.append(edit)
    if key[0] != "local":
        shared = any((k, old) in ix.symbols for k in _WHAT if (k, old) != key)
        edits += word_edits(ix, texts, old, new, keep=shared)
    return edits + catalogue_edits(ix, texts, edits, old, new)


def _text(ix: GameIndex, texts: dict, path: Path) -> str | None:
    text = texts.get(path)
    return text if text is not None else ix.texts.get(path)


def word_edits(ix: GameIndex, texts: dict, old: str, new: str, keep: bool) -> list:
    """The `words:` entries of the catalogues for `old`: renamed, or (when `old` still names another symbol,
    which reads the same words) copied under the new name."""
    out = []
    for path in ix.files.get("translations", []):
        text = _text(ix, texts, path)
        if text is None:
            continue
        within = False
        entry = re.compile(rf"^([ \t]+){re.escape(old)}([ \t]*:.*)$")
        for n, line in enumerate(text.split("\n")):
            if line.startswith("words") and re.match(r"^words[ \t]*:", line):
                within = True
                continue
            if line[:1].isalpha() or line[:1] == "_":
                within = False
            m = entry.match(line) if within and old in line else None
            if m is None:
                continue
            if keep:
                out.append(Edit(path, n + 1, 0, n + 1, 0, f"{m.group(1)}{new}{m.group(2)}\n"))
            else:
                out.append(Edit(path, n, len(m.group(1)), n, len(m.group(1)) + len(old), new))
    return out


def _check_new_name(ix: GameIndex, s: Scan, key: tuple, new: str, offset: int) -> None:
    what = _WHAT.get(key[0], "name")
    if not _NAME.match(new):
        raise Refused(f"'{new}' is not a name: a name is letters, digits and '_', not starting with a digit")
    if new in keywords() or new in ("true", "false", "none", "this", "you", "_"):
        raise Refused(f"'{new}' is a word of the language and cannot name a {what}")
    if key[0] == "record":
        if ix.record_of(new) is not None:
            raise Refused(f"the record id '{new}' is taken already")
        return
    taken = sorted({k for (k, n) in ix.symbols if n == new and k != "record"})
    if taken:
        raise Refused(f"'{new}' already names a {_WHAT.get(taken[0], taken[0])} of this game: the {what} would be mistaken for it")
    if key[0] == "local":
        decl = s.decl_at(offset)
        if decl is not None and new in decl.locals:
            raise Refused(f"'{new}' is already a local name of this declaration")


def _replace_at(p: Place, lines: list | None, old: str, new: str, record: bool) -> Edit | None:
    """The edit at a place naming `old` (a record's copy `old_2` becomes `new_2`); None when the text there
    is no longer that name (typed over since the last analysis)."""
    if lines is None or not 0 <= p.line < len(lines):
        return None
    line = lines[p.line]
    for col in (p.col, p.col + 1):  # a quoted YAML value starts one column before its name
        word = re.match(r"[A-Za-z0-9_]+", line[col:])
        if word is None:
            continue
        found = word.group()
        if found == old:
            return Edit(p.path, p.line, col, p.line, col + len(old), new)
        if record and found.startswith(old + "_") and found[len(old) + 1:].isdigit():
            return Edit(p.path, p.line, col, p.line, col + len(old), new)
    return None


# ------------------------------------------------------------------ quick fixes
def fixes(ix: GameIndex, s: Scan, path: Path, text: str, diagnostics: list) -> list:
    """The quick fixes of the diagnostics (dsl Diagnostics of this file) whose hint names the change."""
    out = []
    lines = text.split("\n")
    for d in diagnostics:
        if d.span is None:
            continue
        line_no, col = d.span.line - 1, d.span.col - 1
        line = lines[line_no] if 0 <= line_no < len(lines) else ""
        out += _fixes_of(ix, s, path, d, line_no, col, line)
    return out


def _fixes_of(ix: GameIndex, s: Scan, path: Path, d: Diagnostic, n: int, col: int, line: str) -> list:
    hint = d.hint or ""
    message = d.message

    def replace(start: int, end: int, new: str, title: str, preferred: bool = True) -> Fix:
        return Fix(title, d, [Edit(path, n, start, n, end, new)], preferred)

    meant = _MEANT.search(hint) or _MEANT.search(message)
    wrong = _QUOTED.search(message)
    if meant and wrong:
        word = wrong.group(1).lstrip("@")
        at = _word_at(line, word, col)
        if at is not None:
            return [replace(at, at + len(word), meant.group(1), f"Change '{word}' to '{meant.group(1)}'")]
    if message.startswith("'=' gives a value") and line[col:col + 1] == "=":
        return [replace(col, col + 1, "==", "Write '==' to compare")]
    if d.code in ("DSL-UNUSED", "DSL-SELF"):
        name = line[col:d.span.end_col - 1] if d.span.end_col > d.span.col else ""
        if not _NAME.match(name):
            return []
        out = []
        if "write 'this'" in hint:
            out.append(replace(col, col + len(name), "this", f"Write 'this' for '{name}': the ability is about this card only"))
        if "'_'" in hint:
            out.append(replace(col, col + len(name), "_", f"Write '_' for '{name}': it is not read", preferred=not out))
        return out
    zone = re.match(r"'([A-Za-z_]\w*)' is a zone: write '\1 of ([A-Za-z_]\w*)'", hint)
    if zone:
        return _zone_fixes(ix, s, path, d, n, col, line, zone.group(1), zone.group(2))
    whole = re.match(r"the zone '([A-Za-z_]\w*)' belongs to the whole game", message)
    if whole and line[col:].startswith(whole.group(1) + " of ") and d.span.end_col > d.span.col:
        return [replace(col, d.span.end_col - 1, whole.group(1), f"Write just '{whole.group(1)}'")]
    if "choose exactly EXPR" in message:
        m = re.match(r"(\s*choose\s+)", line)
        if m:
            return [replace(m.end(), m.end(), "exactly ", "Write 'choose exactly ...'")]
    if d.code == "DSL-INDENT":
        return _indent_fixes(d, n, line, path)
    if d.code == "DSL-SHADOW":
        suggested = re.search(r"e\.g\. '([A-Za-z_]\w*)'", hint)
        word = wrong.group(1) if wrong else ""
        at = _word_at(line, word, col) if word else None
        if suggested and at is not None:
            try:
                edits = rename(ix, s, path, s.offset(n, at), suggested.group(1), {path: s.text})
            except Refused:
                return []
            return [Fix(f"Rename '{word}' to '{suggested.group(1)}'", d, edits, True)] if edits else []
    return []


def _word_at(line: str, word: str, col: int) -> int | None:
    """The column of `word` as a whole word at or after `col` (a diagnostic's span may start before it)."""
    m = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])").search(line, max(0, col))
    return m.start() if m else None


def _zone_fixes(ix: GameIndex, s: Scan, path: Path, d: Diagnostic, n: int, col: int, line: str, zone: str, owner: str) -> list:
    """`hand` alone → `hand of p` for each owner in scope; `p.hand` → `hand of p`."""
    if owner != "OWNER":
        m = re.compile(rf"{re.escape(owner)}\s*\.\s*{re.escape(zone)}(?![A-Za-z0-9_])").search(line, max(0, col - len(owner) - 2))
        if m is None:
            return []
        return [Fix(f"Write '{zone} of {owner}'", d, [Edit(path, n, m.start(), n, m.end(), f"{zone} of {owner}")], True)]
    at = _word_at(line, zone, col)
    z = ix.voc.zones.get(zone)
    if at is None or z is None:
        return []
    offset = s.offset(n, at)
    decl = s.decl_at(offset)
    wanted = z.scope  # player or entity
    owners = []
    if decl is not None:
        for name, k in decl.locals.items():
            if (s.tokens[k].offset < offset or name in decl.params) and local_type(ix, s, path, decl, name) == wanted:
                owners.append(name)
    if is_yaml(str(path)):
        owners.append("you" if wanted == "player" else "this")
    return [Fix(f"Write '{zone} of {o}'", d, [Edit(path, n, at + len(zone), n, at + len(zone), f" of {o}")], i == 0)
            for i, o in enumerate(owners)]


def _indent_fixes(d: Diagnostic, n: int, line: str, path: Path) -> list:
    lead = len(line) - len(line.lstrip(" \t"))
    if d.message.startswith("this line is not indented"):
        width = lead + 4
        title = "Indent this line under the line ending with ':'"
    elif d.message == "unexpected indentation":
        width = max(0, lead - 4)
        title = "Take the extra indentation away"
    else:
        return []
    return [Fix(title, d, [Edit(path, n, 0, n, lead, " " * width)], True)]


# ------------------------------------------------------------------ formatting
def format_edits(path: Path, text: str) -> list | None:
    """The edits that give a .rules text the layout of `rules fmt`: the changed lines only, so the cursor and
    the marks elsewhere stay. None when the text cannot be formatted (its indentation matches no block)."""
    if is_yaml(str(path)):
        return None
    try:
        new = format_text(text)
    except FormatError:
        return None
    if new == text:
        return []
    old_lines, new_lines = text.splitlines(keepends=True), new.splitlines(keepends=True)
    end = (text.count("\n"), len(text) - (text.rfind("\n") + 1))  # the end of the text, as a position
    edits = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        start = (a0, 0) if a0 < len(old_lines) else end
        stop = (a1, 0) if a1 < len(old_lines) else end
        edits.append(Edit(path, start[0], start[1], stop[0], stop[1], "".join(new_lines[b0:b1])))
    return edits
