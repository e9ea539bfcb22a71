"""`rules fmt`: a .rules text in the one layout of the language.

What it changes, and nothing else: blocks indented by four spaces a level; one space around binary operators,
after commas and colons, none inside brackets, before a call's or an index's bracket, after a unary minus or
`@`, around `..`; two spaces before a comment that ends a line; no whitespace at the end of a line; at most
two blank lines in a row, none at the start, one newline at the end. A line that goes on (inside brackets or
after a backslash) keeps its indentation relative to the line it continues. Strings and comments are kept as
written. Only whitespace moves, so the text parses to the same tree (`same_tree` checks it; `rules fmt`
writes nothing that would not).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

INDENT = 4  # spaces per block level
TAB = 4  # a tab counts as four columns, as the parser's indenter counts it
MAX_BLANK = 2

_TOKEN = re.compile(r"""
    (?P<space>[ \t\f]+) | (?P<nl>\r?\n) | (?P<cont>\\[ \t\f]*(?=\r?\n|$)) | (?P<comment>\#[^\r\n]*)
    | (?P<string>"(?:\\.|[^"\\\r\n])*"?) | (?P<name>[A-Za-z_][A-Za-z0-9_]*) | (?P<number>[0-9]+)
    | (?P<op>\.\.|==|!=|<=|>=|\+=|-=|.)""", re.VERBOSE)
_OPEN, _CLOSE = "([{", ")]}"
_BINARY = {"=", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "+=", "-="}
# Words after which a bracket or a minus starts a new expression (`if (`, `in [`, `return -1`), where a name
# would be called, indexed or subtracted from. Words that are also names of built-ins (top, bottom) are not here.
KEYWORDS = frozenset(
    "if elif else then and or not in of for where by to return win while repeat reveal show shuffle move let "
    "choose suppose ask as exactly least at up face log until when whenever instead modify procedure event function "
    "secretly descending ascending otherwise".split())


class FormatError(Exception):
    """A text whose blocks cannot be told apart (an indentation between two levels): left as it is."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line, self.message = line, message


@dataclass
class _Line:
    """One line of the file: its indentation (in columns), its tokens, a comment ending it, a backslash ending it."""

    width: int
    tokens: list  # (kind, text)
    comment: str = ""
    cont: bool = False
    depth: int = 0  # open brackets before this line: a line inside brackets continues the one above
    goes_on: bool = False  # this line is continued by the next (open brackets at its end, or a backslash)


def _lines(text: str) -> list:
    lines, current, depth = [], None, 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        value = m.group()
        if current is None:
            current = _Line(0, [], depth=depth)
            lead = m.group("space") or ""
            current.width = lead.count(" ") + lead.count("\f") + TAB * lead.count("\t")
            if kind == "space":
                continue
        if kind == "nl":
            current.goes_on = depth > 0 or current.cont
            lines.append(current)
            current = None
            continue
        if kind == "space":
            continue
        if kind == "comment":
            current.comment = value.rstrip()
        elif kind == "cont":
            current.cont = True
        else:
            current.tokens.append((kind, value))
            if value in _OPEN and kind == "op":
                depth += 1
            elif value in _CLOSE and kind == "op":
                depth = max(0, depth - 1)
    if current is not None:
        current.goes_on = depth > 0 or current.cont
        lines.append(current)
    return lines


def format_text(text: str) -> str:
    """The text in the language's layout (see the module's doc). A text that does not parse is formatted as
    well as its lines allow (the blocks as the parser would see them), except one whose indentation matches
    no block: FormatError."""
    lines = _lines(text.replace("\r\n", "\n"))
    out: list = []
    stack = [(0, 0)]  # (old width, new width) of the blocks open at this line
    seen_code = False
    continued = False  # the line before goes on into this one
    last_delta = 0
    for n, line in enumerate(lines):
        if not line.tokens and not line.comment and not line.cont:
            out.append("")
            continued = continued and line.depth > 0
            continue
        if continued:
            new = max(0, line.width + last_delta)
        elif not line.tokens:  # a comment line: the indentation of the code it sits with
            new = _comment_width(lines, n, stack, last_delta) if seen_code else 0
        elif not seen_code:  # the parser takes no indentation from the first line
            new = 0
            last_delta = -line.width
        else:
            if line.width > stack[-1][0]:
                stack.append((line.width, stack[-1][1] + INDENT))
            while line.width < stack[-1][0]:
                stack.pop()
                if line.width > stack[-1][0]:
                    raise FormatError(n + 1, "this line's indentation matches no outer block")
            new = stack[-1][1]
            last_delta = new - line.width
        seen_code = seen_code or bool(line.tokens)
        out.append(" " * new + _join(line))
        continued = line.goes_on
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    kept, blank = [], 0
    for text_line in out:
        blank = blank + 1 if not text_line else 0
        if blank <= MAX_BLANK:
            kept.append(text_line)
    return "\n".join(kept) + "\n" if kept else ""


def _comment_width(lines: list, n: int, stack: list, last_delta: int) -> int:
    """A comment on a line of its own: at the new indentation of the code line it was written level with
    (the next one, or a block open around it); else moved as the code above it moved."""
    width = lines[n].width
    nxt = next((line for line in lines[n + 1:] if line.tokens), None)
    if nxt is not None and nxt.width == width:
        levels = [level for level in stack if level[0] <= width]
        if levels[-1][0] == width:
            return levels[-1][1]
        return levels[-1][1] + INDENT
    for old, new in reversed(stack):
        if old == width:
            return new
    return max(0, width + last_delta)


def _join(line: _Line) -> str:
    parts: list = []
    unary = False
    prev = None
    for kind, text in line.tokens:
        if prev is not None and not unary:
            parts.append(_space(prev, (kind, text)))
        unary = kind == "op" and text == "-" and _starts_operand(prev)
        parts.append(text)
        prev = (kind, text)
    code = "".join(parts)
    if line.cont:
        code = f"{code} \\" if code else "\\"
    if line.comment:
        code = f"{code}  {line.comment}" if code else line.comment
    return code


def _starts_operand(prev) -> bool:
    """Whether a token after `prev` begins an operand (so a minus there is unary)."""
    if prev is None:
        return True
    kind, text = prev
    if kind == "name":
        return text in KEYWORDS
    if kind in ("number", "string"):
        return False
    return text not in _CLOSE


def _space(prev, cur) -> str:
    pk, pt = prev
    ck, ct = cur
    if pk == "op" and pt in ("(", "[", "{", "@", ".", ".."):
        return ""
    if ck == "op":
        if ct in (")", "]", "}", ",", ".", ":", ".."):
            return ""
        if ct in ("(", "["):
            if pk == "name":
                return " " if pt in KEYWORDS else ""
            return "" if pt in _CLOSE else " "
    return " "


# ------------------------------------------------------------------ the same tree
def same_tree(before: str, after: str, path: str = "<text>") -> bool:
    """Whether two rule texts parse to the same tree, positions aside (both must parse)."""
    from dsl.diagnostics import Source
    from dsl.parser import parse_module
    return _shape(parse_module(Source(path, before)).decls) == _shape(parse_module(Source(path, after)).decls)


def _shape(value):
    """A node as plain data without its spans."""
    from dsl import ast
    if isinstance(value, ast.Node):
        return (type(value).__name__,) + tuple((k, _shape(v)) for k, v in vars(value).items() if k != "span")
    if isinstance(value, (list, tuple)):
        return tuple(_shape(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), _shape(v)) for k, v in value.items()))
    return value
