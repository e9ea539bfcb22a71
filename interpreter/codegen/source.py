"""Writing generated Python: indented lines, each remembering the rule-text span it came from.

The line map lets a run-time error point at the rule text's file:line:col, as Jinja2 maps
template lines. Generated code is compiled with empty __builtins__ into a namespace holding
only the runtime's helpers, so rule text can reach nothing of Python but what we hand it.
"""
from __future__ import annotations

import re

from dsl.diagnostics import Diagnostic, DiagnosticError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Prefixes of generated identifiers. Content names always get one of the content prefixes,
# so no name from content is ever a Python identifier on its own, and none can meet a helper
# (helpers start with "_") or a temporary ("t_").
LOCAL, PROC, FUNC = "v_", "p_", "f_"


def mangle(prefix: str, name: str) -> str:
    if not _IDENT.match(name):  # the grammar only makes such names; refuse anything else outright
        raise ValueError(f"not a name of the rules language: {name!r}")
    return prefix + name


def literal(value) -> str:
    """Python source for a constant of the language: int, str, bool or None only, through repr()."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise TypeError(f"not a literal of the rules language: {type(value).__name__}")


class Writer:
    def __init__(self, filename: str):
        self.filename = filename
        self.lines: list[str] = []
        self.spans: list = []
        self.depth = 0
        self.span = None
        self._fresh = 0

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)
        self.spans.append(self.span)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1

    def temp(self) -> str:
        self._fresh += 1
        return f"t_{self._fresh}"

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def run_source(writer: Writer, namespace: dict) -> None:
    """Compile and run generated module source into `namespace` (its globals) with no builtins."""
    namespace["__builtins__"] = {}
    try:
        code = compile(writer.text(), writer.filename, "exec")
    except (SyntaxError, RecursionError, MemoryError, ValueError) as err:
        # The checker's depth bounds keep Python's own compiler within its limits; should one still be
        # passed, the rule text that led there is named, not the generated line.
        line = getattr(err, "lineno", None)
        span = writer.spans[line - 1] if line and 0 < line <= len(writer.spans) else None
        raise DiagnosticError([Diagnostic("DSL-TOO-DEEP", "this rule text is too deeply nested or too long to compile",
                                          span, "split it into functions or procedures")]) from None
    exec(code, namespace)  # noqa: S102 - source generated from the checked AST only (see module docstring)
