"""Rule text read without the parser: where it lies in a file and its tokens.

An editor's features must keep working while the text does not parse (the author is in the middle of a
line), so names are found by a tolerant token scan, not by the grammar. A YAML file is read as its rule
text alone: everything outside the rule-text fields (`effect:`) becomes spaces, newlines kept, so every
token keeps its own line and column in the file.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import NamedTuple

RULE_TEXT_KEYS = ("effect", "evaluation")  # the YAML fields that hold rule text: card effects, the bots' evaluation (dsl/bots_spec.py)
# The words that open a declaration at the left margin of a rule text.
DECL_WORDS = ("procedure", "event", "function", "when", "instead", "modify", "whenever")
SIGNATURE_WORDS = ("procedure", "event", "function")

_FIELD = re.compile(r"^([ \t]*(?:-[ \t]+)*)(" + "|".join(RULE_TEXT_KEYS) + r")[ \t]*:(?=[ \t]|$)[ \t]*(.*)$")
_TOKEN = re.compile(r"""[ \t\f\r]*(?:
    (?P<nl>\n) | (?P<comment>\#[^\n]*) | (?P<string>"(?:\\.|[^"\\\n])*"?)
    | (?P<name>[A-Za-z_][A-Za-z0-9_]*) | (?P<number>[0-9]+) | (?P<op>\.\.|==|!=|<=|>=|\+=|-=|[^\s])
    | $)""", re.VERBOSE)
_INTERPOLATION = re.compile(r'\{([^{}\n"]*)(?:\}|"?$)')  # an unclosed one at the end too: it is being typed


class Token(NamedTuple):  # a tuple: thousands are made for every keystroke's scan
    kind: str  # name, number, string, op
    text: str
    offset: int  # in the file's text
    line: int  # 0-based, as the editor counts
    col: int  # 0-based
    first: bool  # the first token of its line
    region: int  # which rule text of the file (a YAML file holds one per effect field)
    nested: bool = False  # inside a string's {interpolation}

    @property
    def end(self) -> int:
        return self.offset + len(self.text)


@dataclass(frozen=True)
class Region:
    start: int  # offsets in the file's text
    end: int
    base: int  # the column of the text's left margin


@dataclass
class Decl:
    """A declaration found by its opening word at the left margin, and the tokens up to the next one."""

    word: str  # procedure, event, function, when, instead, modify, whenever
    first: int  # token indexes [first, last)
    last: int
    name: int | None  # the token naming what it declares (or the event it listens to)
    params: dict = field(default_factory=dict)  # parameter or pattern name -> (token index, declared type)
    locals: dict = field(default_factory=dict)  # every name bound inside -> token index of its first binding


@dataclass
class Scan:
    text: str
    regions: list
    tokens: list
    decls: list
    _lines: list = field(default_factory=list, repr=False)
    path: str = ""  # the file scanned

    def offset(self, line: int, col: int) -> int:
        if not self._lines:
            self._lines = line_starts(self.text)
        if line >= len(self._lines):
            return len(self.text)
        return min(self._lines[line] + col, len(self.text))

    def token_at(self, offset: int) -> int | None:
        """The name token the offset lies in or just after (where a cursor ends a word)."""
        i = bisect.bisect_right(self.offsets, offset) - 1
        for j in (i, i - 1):
            if 0 <= j < len(self.tokens):
                t = self.tokens[j]
                if t.kind == "name" and t.offset <= offset <= t.end:
                    return j
        return None

    def before(self, offset: int) -> int:
        """The index of the last token that ends at or before `offset` (-1 when none)."""
        i = bisect.bisect_right(self.offsets, offset) - 1
        while i >= 0 and self.tokens[i].end > offset:
            i -= 1
        return i

    def region_at(self, offset: int) -> int | None:
        for i, r in enumerate(self.regions):
            if r.start <= offset <= r.end:
                return i
        return None

    def decl_of(self, index: int) -> Decl | None:
        lo = bisect.bisect_right(self.decl_starts, index) - 1
        if lo >= 0 and self.decls[lo].first <= index < self.decls[lo].last:
            return self.decls[lo]
        return None

    def decl_at(self, offset: int) -> Decl | None:
        i = self.before(offset)
        return self.decl_of(i) if i >= 0 else None

    def in_text(self, offset: int) -> bool:
        """Whether the offset lies inside a string (not in one of its {interpolations}) or a comment."""
        line_start = self.text.rfind("\n", 0, offset) + 1
        head = self.text[line_start:offset]
        quote = False
        brace = 0
        i = 0
        while i < len(head):
            c = head[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == '"':
                    quote = False
                elif c == "{":
                    brace += 1
                elif c == "}" and brace:
                    brace -= 1
            elif c == '"':
                quote, brace = True, 0
            elif c == "#":
                return True
            i += 1
        return quote and brace == 0

    @property
    def offsets(self) -> list:
        cached = self.__dict__.get("_offsets")
        if cached is None:
            cached = self.__dict__["_offsets"] = [t.offset for t in self.tokens]
        return cached

    @property
    def decl_starts(self) -> list:
        cached = self.__dict__.get("_decl_starts")
        if cached is None:
            cached = self.__dict__["_decl_starts"] = [d.first for d in self.decls]
        return cached


def line_starts(text: str) -> list:
    out = [0]
    find = text.find
    i = find("\n")
    while i >= 0:
        out.append(i + 1)
        i = find("\n", i + 1)
    return out


def is_yaml(path: str) -> bool:
    return path.endswith((".yaml", ".yml"))


def scan(path: str, text: str) -> Scan:
    """The rule text of a file: all of a .rules file, the rule-text fields of a YAML file."""
    text = text.replace("\r\n", " \n") if "\r" in text else text  # same length: offsets stay the file's
    regions = yaml_regions(text) if is_yaml(path) else [Region(0, len(text), _margin(text, 0, len(text)))]
    tokens: list = []
    for i, region in enumerate(regions):
        _tokenize(text, region.start, region.end, i, tokens, False)
    s = Scan(text, regions, tokens, [], path=path)
    s.decls = _declarations(s)
    return s


def yaml_regions(text: str) -> list:
    """Where the rule-text fields of a YAML file lie: a block scalar's lines, or the rest of the key's line."""
    regions = []
    starts = line_starts(text)
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        m = _FIELD.match(lines[n])
        if m is None:
            n += 1
            continue
        key_col = len(m.group(1))
        rest = m.group(3)
        value_at = starts[n] + m.start(3)
        end_line = n + 1
        while end_line < len(lines) and (not lines[end_line].strip() or _indent(lines[end_line]) > key_col):
            end_line += 1
        while end_line > n + 1 and not lines[end_line - 1].strip():
            end_line -= 1
        end = starts[end_line - 1] + len(lines[end_line - 1])
        if rest[:1] in ("|", ">"):
            if end_line > n + 1:
                start = starts[n + 1]
                regions.append(Region(start, end, _margin(text, start, end)))
        elif rest.strip():
            start = value_at + (1 if rest[:1] in ('"', "'") else 0)
            if rest[:1] in ('"', "'") and end_line == n + 1:
                close = text.rfind(rest[0], start, end)
                end = close if close >= start else end
            regions.append(Region(start, end, m.start(3)))
        n = end_line
    return regions


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _margin(text: str, start: int, end: int) -> int:
    """The column of the first line with words in text[start:end]."""
    for line in text[start:end].split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            return _indent(line)
    return 0


def _tokenize(text: str, start: int, end: int, region: int, out: list, nested: bool, line: int | None = None) -> None:
    line_start = text.rfind("\n", 0, start) + 1
    if line is None:
        line = text.count("\n", 0, start)
    first = True
    append = out.append
    for m in _TOKEN.finditer(text, start, end):
        kind = m.lastgroup
        if kind is None or kind == "comment":
            continue
        if kind == "nl":
            line += 1
            line_start = m.end()
            first = True
            continue
        at = m.start(kind)
        value = m.group(kind)
        append(Token(kind, value, at, line, at - line_start, first and not nested, region, nested))
        first = False
        if kind == "string" and "{" in value:  # names inside {interpolations} are rule text too
            for inner in _INTERPOLATION.finditer(value):
                _tokenize(text, at + inner.start(1), at + inner.end(1), region, out, True, line)


# ------------------------------------------------------------------ declarations and the names they bind
def _declarations(s: Scan) -> list:
    tokens = s.tokens
    starts = [i for i, t in enumerate(tokens)
              if t.first and t.kind == "name" and t.text in DECL_WORDS and t.col == s.regions[t.region].base]
    decls = []
    for n, first in enumerate(starts):
        last = starts[n + 1] if n + 1 < len(starts) else len(tokens)
        region = tokens[first].region
        stop = first + 1
        while stop < last and tokens[stop].region == region:
            stop += 1
        decls.append(_declaration(tokens, first, stop))
    return decls


def _declaration(tokens: list, first: int, last: int) -> Decl:
    word = tokens[first].text
    at = first + 1
    if word == "instead" and at < last and tokens[at].text == "of":
        at += 1
    name = at if word != "whenever" and at < last and tokens[at].kind == "name" else None
    decl = Decl(word, first, last, name)
    if name is not None and name + 1 < last and tokens[name + 1].text == "(":
        _header_names(tokens, name + 2, last, decl)
    for i in range(first, last):
        t = tokens[i]
        if t.kind == "name" and binds(tokens, i, first) and t.text not in decl.locals:
            decl.locals[t.text] = i
    for pname, (i, _) in decl.params.items():
        decl.locals.setdefault(pname, i)
    for pname in ("this", "you", "_"):
        decl.locals.pop(pname, None)
    return decl


def _header_names(tokens: list, i: int, last: int, decl: Decl) -> None:
    """`(a: player, b)` of a declaration, or the names of a trigger's pattern."""
    expect_name = True
    while i < last and tokens[i].text != ")" and tokens[i].text != "\n":
        t = tokens[i]
        if t.text == ",":
            expect_name = True
        elif expect_name and t.kind == "name":
            declared = None
            if i + 2 < last and tokens[i + 1].text == ":" and tokens[i + 2].kind == "name":
                declared = tokens[i + 2].text
                if i + 5 < last and tokens[i + 3].text == "[" and tokens[i + 4].kind == "name":
                    declared = f"{declared}[{tokens[i + 4].text}]"
            decl.params.setdefault(t.text, (i, declared))
            expect_name = False
        i += 1


def binds(tokens: list, i: int, floor: int = 0) -> bool:
    """Whether the name token i introduces a local: let x, for x in, [x in ...], choose x in, ... as x."""
    prev = tokens[i - 1].text if i - 1 >= floor else ""
    nxt = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if prev == "let":
        return True
    if nxt == "in" and prev in ("for", "[", "(", "choose"):
        return True
    if nxt == "in" or prev == "as":
        head = _line_head(tokens, i, floor)
        if head is None:
            return False
        if prev == "as":
            return tokens[head].text == "choose"
        if tokens[head].text == "choose":  # choose 2 x in / choose up to n x in: the first `in` of the line
            return not any(tokens[j].text == "in" for j in range(head, i))
        if prev == ",":  # an option's bindings: NAME for x in A, y in B:
            return any(tokens[j].text == "for" for j in range(head, i))
    return False


def _line_head(tokens: list, i: int, floor: int) -> int | None:
    j = i
    while j > floor and not tokens[j].first:
        j -= 1
    return j if tokens[j].first else None
