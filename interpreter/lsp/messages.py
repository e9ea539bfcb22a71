"""A rename that reaches into a text's {interpolations} changes the text, and the text is the key of its
translations (lang/*.yaml `messages:`): the catalogues' entries follow, key and translation alike.

When the old text is still written elsewhere (another `log` with the same words, not renamed), the entry
stays for it and a renamed copy is added below it.
"""
from __future__ import annotations

import bisect
import json
import re

from interpreter.lsp.index import Edit, GameIndex

_KEY = re.compile(r'^([ \t]*)("(?:\\.|[^"\\])*"|\'(?:\'\'|[^\'])*\')[ \t]*:(?=[ \t]|$)')
_INTERPOLATION = re.compile(r"\{[^{}\n]*\}")


def catalogue_edits(ix: GameIndex, texts: dict, rule_edits: list, old: str, new: str) -> list:
    """The edits of the translation catalogues that keep every renamed text translated."""
    changed: dict = {}  # old text -> (new text, whether the renamed name follows a dot)
    touched = set()
    for e in rule_edits:
        s = ix.scans.get(e.path)
        if s is None:
            continue
        at = s.offset(e.line, e.col)
        k = bisect.bisect_right(s.offsets, at) - 1
        while k >= 0 and s.tokens[k].nested:  # a string's {insides} come right after the string
            k -= 1
        if k >= 0:
            t = s.tokens[k]
            if t.kind == "string" and t.offset < at < t.end:
                dotted = at > 0 and s.text[at - 1] == "."
                before = decode(t.text)
                raw = t.text[:at - t.offset] + new + t.text[at - t.offset + len(old):]
                changed.setdefault(before, [decode(raw), dotted])
                if changed[before][1] != dotted:  # one spelling for both: the whole-word rewrite below
                    changed[before][1] = None
                touched.add((e.path, k))
    if not changed:
        return []
    # texts that keep their words (written elsewhere and not renamed there) keep their entries too
    kept = {decode(t.text) for path, s in ix.scans.items() for k, t in enumerate(s.tokens)
            if t.kind == "string" and old in t.text and not t.nested and (path, k) not in touched}
    out = []
    for path in ix.files.get("translations", []):
        text = texts.get(path)
        if text is None:
            text = ix.texts.get(path)
        if text is None:
            continue
        lines = text.split("\n")
        for n, line in enumerate(lines):
            m = _KEY.match(line) if old in line else None  # a key to follow names the old name
            if m is None:
                continue
            key = _yaml_key(m.group(2))
            if key not in changed:
                continue
            last = n
            while last + 1 < len(lines) and lines[last + 1].strip() and \
                    len(lines[last + 1]) - len(lines[last + 1].lstrip()) > len(m.group(1)):
                last += 1  # a translation that goes on below its key
            dotted = changed[key][1]
            renamed = [_rename_inside(lines[i], old, new, dotted) for i in range(n, last + 1)]
            if key in kept:
                out.append(Edit(path, last + 1, 0, last + 1, 0, "".join(r + "\n" for r in renamed)))
            else:
                out += [Edit(path, i, 0, i, len(lines[i]), r) for i, r in zip(range(n, last + 1), renamed) if r != lines[i]]
    return out


def decode(literal: str) -> str:
    """A string token's text as the checker keys it: quotes off, escapes decoded, {placeholders} kept."""
    body = literal[1:-1] if len(literal) >= 2 and literal.endswith('"') else literal[1:]
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), body)


def _yaml_key(written: str) -> str | None:
    if written.startswith('"'):
        try:
            return json.loads(written)
        except ValueError:
            return None
    return written[1:-1].replace("''", "'")


def _rename_inside(line: str, old: str, new: str, dotted: bool | None) -> str:
    """`old` renamed `new` inside a line's {interpolations}, where it is written as the renamed one was
    (after a dot, or not)."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(old)}(?![A-Za-z0-9_])")

    def one(m):
        whole = m.group()
        return word.sub(lambda w: new if dotted is None or (whole[w.start() - 1:w.start()] == ".") == dotted
                        else w.group(), whole)
    return _INTERPOLATION.sub(one, line)
