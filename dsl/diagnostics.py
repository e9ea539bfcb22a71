"""One error type for every layer: YAML, schema, grammar, checker, runtime, decisions."""
from __future__ import annotations

import bisect
import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import Iterable


@dataclass(frozen=True)
class Source:
    """Text handed to the parser, and where it sits in a file.

    Rule text embedded in a YAML field starts at (line_offset, col_offset) of its file;
    block scalars shift every line by col_offset, plain scalars only the first.
    """

    path: str
    text: str
    file_text: str | None = None
    line_offset: int = 0
    col_offset: int = 0
    block: bool = True

    def locate(self, line: int, col: int) -> tuple[int, int]:
        """Map a 1-based (line, col) in `text` to a 1-based position in the file."""
        if line == 1 or self.block:
            return line + self.line_offset, col + self.col_offset
        return line + self.line_offset, col

    def file_line(self, line: int) -> str:
        lines = _lines(self.file_text if self.file_text is not None else self.text)
        return lines[line - 1] if 0 < line <= len(lines) else ""


@functools.lru_cache(maxsize=256)
def _lines(text: str) -> tuple[str, ...]:
    return tuple(text.splitlines())


@dataclass(frozen=True)
class Span:
    path: str
    line: int
    col: int
    end_col: int = 0
    text: str = ""  # the offending source line, kept so rendering never reopens files

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


def span_in(source: Source, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
    fl, fc = source.locate(line, col)
    fe = fc + 1
    if end_line == line and end_col is not None:
        fe = source.locate(end_line, end_col)[1]
    return Span(source.path, fl, fc, max(fe, fc + 1), source.file_line(fl))


@dataclass
class Diagnostic:
    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    severity: str = "error"

    def render(self) -> str:
        where = f"{self.span}: " if self.span else ""
        out = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        if self.span and self.span.text:
            number = str(self.span.line)
            pad = " " * len(number)
            text, col = _window(self.span.text.rstrip(), self.span.col)
            out.append(f" {number} | {text}")
            width = max(1, min(self.span.end_col - self.span.col, len(text) + 1 - col))
            out.append(f" {pad} | {' ' * (col - 1)}{'^' * width}")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def to_json(self) -> dict:
        data: dict = {"code": self.code, "message": self.message, "severity": self.severity}
        if self.span:
            data.update(file=self.span.path, line=self.span.line, col=self.span.col)
        if self.hint:
            data["hint"] = self.hint
        return data


_SHOWN = 100  # characters of a long source line shown around the caret
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _window(text: str, col: int) -> tuple[str, int]:
    """The part of a line worth showing, control characters made visible, and the caret's column in it."""
    text = _CONTROL.sub("?", text)  # one column each, so the caret stays in place
    if len(text) <= _SHOWN:
        return text, col
    start = max(0, min(col - 1 - _SHOWN // 2, len(text) - _SHOWN))
    shown = ("..." if start else "") + text[start:start + _SHOWN] + ("..." if start + _SHOWN < len(text) else "")
    return shown, col - start + (3 if start else 0)


class DiagnosticError(Exception):
    """Raised when work cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


@dataclass
class Report:
    """Collects diagnostics so that one run reports all of them, not just the first."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint))

    def warning(self, code: str, message: str, span: Span | None = None, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, hint, severity="warning"))

    def add(self, items: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(items)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    def raise_if_errors(self) -> None:
        if not self.ok:
            raise DiagnosticError(self.diagnostics)


# "Did you mean" compares a word with at most 2 * SUGGEST_POOL candidates (difflib costs microseconds for
# each): from a larger pool, the names next to the word in sorted order, which share its longest beginnings,
# and those next to it sorted by their endings (a slip in the first letter). The sorted pool is kept for the
# next word (a checker asks again and again against the same names), so a file with 3,000 unknown names
# among 3,000 known ones is checked in about a second, not in minutes.
SUGGEST_POOL = 16
SUGGEST_WORD = 100  # a longer word is no typo of a name: nothing is suggested (and difflib is quadratic in it)


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    word = str(word)
    if not 0 < len(word) <= SUGGEST_WORD:
        return None
    by_start, by_end = _sorted_names(tuple(candidates))
    pool = by_start
    if len(pool) > SUGGEST_POOL:
        half = SUGGEST_POOL // 2
        at = bisect.bisect_left(by_start, word)
        pool = list(by_start[max(0, at - half):at + half])
        at = bisect.bisect_left(by_end, word[::-1])
        pool += [c[::-1] for c in by_end[max(0, at - half):at + half]]
        # difflib only for the few sharing most of the word's beginning and end (a slip in the middle)
        pool = sorted(set(pool), key=lambda c: (-_shared_ends(word, c), c))[:4]
    close = difflib.get_close_matches(word, [c for c in pool if len(c) <= 3 * SUGGEST_WORD], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


@functools.lru_cache(maxsize=16)  # a cache of a pure function, not state: answers are the same without it
def _sorted_names(names: tuple) -> tuple:
    """The names sorted, and their reversals sorted."""
    try:
        unique = set(names)
        by_start = tuple(sorted(unique))
    except TypeError:  # not all names: compared as text
        unique = {str(c) for c in names}
        by_start = tuple(sorted(unique))
    return by_start, tuple(sorted(c[::-1] for c in unique))


def _shared_ends(a: str, b: str) -> int:
    """How many characters a and b share at their beginning and at their end."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    j = 0
    while j < n - i and a[-1 - j] == b[-1 - j]:
        j += 1
    return i + j
