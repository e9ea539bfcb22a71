"""A syntax error in words: what was found, and for the common slips what was meant."""
from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from dsl.diagnostics import Diagnostic, Source, Span, span_in

_EXPECTED_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "COLON": "':'",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "$END": "end of text",
    "LBRACE": "'{'", "RBRACE": "'}'", "MINUS": "'-'", "AT": "'@'", "DOT": "'.'",
}


def syntax_diagnostic(source: Source, err: UnexpectedInput) -> Diagnostic:
    line = getattr(err, "line", 1) or 1
    col = getattr(err, "column", 1) or 1
    if line < 1:
        line, col = max(1, source.text.count("\n")), 1
    span = span_in(source, line, col)
    unclosed = _unclosed_bracket(source, err, line, col)
    if unclosed is not None:
        return unclosed
    if isinstance(err, UnexpectedCharacters):
        return Diagnostic("DSL-SYNTAX", f"unexpected character {err.char!r}", span)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "_INDENT":
            line += 1
            text_line = source.text.splitlines()[line - 1] if line <= len(source.text.splitlines()) else ""
            span = span_in(source, line, len(text_line) - len(text_line.lstrip()) + 1)
            return Diagnostic("DSL-INDENT", "unexpected indentation", span, "indent only after a line ending with ':'")
        said = _what_was_meant(source, err, line, col, span)
        if said is not None:
            return said
        expected = sorted(_EXPECTED_WORDS.get(t, repr(t.lower()) if t.isupper() and not t.startswith("__") else t)
                          for t in err.expected if not t.startswith("__ANON"))
        found = "end of line" if tok.type == "_NL" else ("end of block" if tok.type == "_DEDENT" else repr(str(tok)))
        hint = f"expected {', '.join(expected[:6])}" if expected else None
        return Diagnostic("DSL-SYNTAX", f"unexpected {found}", span, hint)
    if isinstance(err, UnexpectedEOF):
        return Diagnostic("DSL-SYNTAX", "unexpected end of text", span)
    return Diagnostic("DSL-SYNTAX", str(err).splitlines()[0], span)


_SKIPPED = re.compile(r'"(?:\\.|[^"\\\n])*"?|#[^\n]*')  # strings and comments: their brackets do not count
_PAIRS = {")": "(", "]": "[", "}": "{"}


def _unclosed_bracket(source: Source, err: UnexpectedInput, line: int, col: int) -> Diagnostic | None:
    """A bracket the text never closes, before the place the parser stopped: inside brackets lines go on, so
    the parser stops a line or more later, or at the end; the slip is where the bracket opens."""
    tok = getattr(err, "token", None)
    at_end = isinstance(err, UnexpectedEOF) or getattr(tok, "type", None) in ("_DEDENT", "$END", "_NL")
    text = source.text
    stop = _offset(text, line, col)
    open_at: list = []  # offsets of the brackets still open
    masked = _SKIPPED.sub(lambda m: " " * len(m.group()), text)
    for i, ch in enumerate(masked):
        if ch in "([{":
            open_at.append(i)
        elif ch in _PAIRS and open_at and masked[open_at[-1]] == _PAIRS[ch]:
            open_at.pop()
    before = [i for i in open_at if i < stop]
    if not before:
        return None
    i = before[-1]
    b_line = text.count("\n", 0, i) + 1
    if b_line == line and not at_end:
        return None  # stopped on the bracket's own line: what the parser says is nearer the slip
    b_col = i - (text.rfind("\n", 0, i) + 1) + 1
    closer = {"(": ")", "[": "]", "{": "}"}[masked[i]]
    where = span_in(source, b_line, b_col, b_line, b_col + 1)
    hint = f"close it with '{closer}'"
    if line != b_line:  # the file's own line number (rule text in a YAML file starts further down)
        hint += f"; inside brackets a line goes on into the next, so the parser stopped only at line {span_in(source, line, col).line}"
    return Diagnostic("DSL-SYNTAX", f"this '{masked[i]}' is never closed", where, hint)


def _offset(text: str, line: int, col: int) -> int:
    start = 0
    for _ in range(line - 1):
        nl = text.find("\n", start)
        if nl < 0:
            return len(text)
        start = nl + 1
    return min(start + col - 1, len(text))


_CHOOSE_COUNT = re.compile(r"^\s*choose\s+(?!(?:by|ask|order|up|at|exactly)\b)")


def _what_was_meant(source: Source, err: UnexpectedToken, line: int, col: int, span: Span) -> Diagnostic | None:
    """The slips whose plain parser message says what was found but not what was meant: a block left
    unindented, `=` for `==`, and a computed number of choices without `exactly`."""
    lines = source.text.splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    tok = err.token
    previous = next((x for x in reversed(lines[:line - 1]) if x.strip() and not x.lstrip().startswith("#")), None)
    lead = len(text) - len(text.lstrip())
    if previous is not None and col == lead + 1 and previous.split("#")[0].rstrip().endswith(":") \
            and lead <= len(previous) - len(previous.lstrip()):
        return Diagnostic("DSL-INDENT", "this line is not indented, but the line above ends with ':' and opens a block", span,
                          "indent the lines of the block under the line ending with ':' (4 spaces is usual)")
    if str(tok) == "=" and "EQUAL" not in err.expected:
        return Diagnostic("DSL-SYNTAX", "'=' gives a value; to compare, write '=='", span, "for example: if x == 2:")
    head = _CHOOSE_COUNT.match(text)
    if head is not None and tok.type != "_NL" and " in " in text[head.end():] and col - 1 < text.index(" in ", head.end()):
        return Diagnostic("DSL-SYNTAX", "a number of choices worked out by an expression is written 'choose exactly "
                          "EXPR NAME in ...'", span, "for example: choose exactly len(hand of p) - 3 cards in hand of p by p "
                          "(a plain number needs no 'exactly': choose 2 cards in ...)")
    return None
