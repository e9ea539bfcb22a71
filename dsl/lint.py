"""Warnings for the silent mistakes: rule text that validates and plays without an error but cannot do what
its author meant. They run after the checker (which annotates patterns with their signatures and names with
what they are) and add warnings to the same Report, so `rules validate`, the language server and the tests all
see them with a code and a position.

- DSL-UNUSED: a pattern binds a name that the ability never reads (`when play_action(_, c):` where `this` was
  meant: the ability then fires for every card played, not for its own);
- DSL-SELF: a card's ability on an event about a component whose pattern and condition never mention `this`,
  so it cannot tell its own card from the others;
(ATTR-MISSING, an attribute read on a record known to lack it, is told by the checker, which resolves it.)
"""
from __future__ import annotations

import re

from dsl import ast
from dsl.diagnostics import Report, Span

_ABILITIES = (ast.Trigger, ast.Replacement, ast.Modifier)


def lint(modules: list, records: dict, report: Report) -> None:
    """`records`: record id -> its data (defaults filled in), for the attributes a card's own record has."""
    found = [(module, ability, nested) for module in modules for decl in module.decls
             for ability, nested in _abilities(decl)]
    # (kind, event, position) where some card of that kind names `this`: there, cards of the kind are what
    # the event is about, so a card of the kind whose ability does not name `this` cannot tell itself apart
    selfish = {(_kind(records, module.owner), _event(a), i) for module, a, nested in found
               if module.owner is not None and not nested for i, n in enumerate(a.pattern) if n == "this"}
    for module, ability, nested in found:
        _unused_names(ability, module.owner is not None, report)
        if module.owner is not None and not nested:
            _selfless(ability, _kind(records, module.owner), selfish, report)


def _kind(records: dict, rid: str | None):
    data = records.get(rid) if rid is not None else None
    return data.get("kind") if isinstance(data, dict) else None


def _event(decl) -> str:
    return decl.func if isinstance(decl, ast.Modifier) else decl.event


def _abilities(decl):
    """(ability, inside an `until`?) for the abilities of a declaration and those its `until`s hold."""
    if isinstance(decl, _ABILITIES):
        yield decl, False
    stack = list(getattr(decl, "body", None) or ())
    while stack:  # statements only: an `until` is a statement, never inside an expression
        s = stack.pop()
        if isinstance(s, ast.Until):
            for d in s.decls:
                if isinstance(d, _ABILITIES):
                    yield d, True
                    stack.extend(getattr(d, "body", None) or ())
        elif isinstance(s, ast.If):
            for _, body in s.branches:
                stack.extend(body)
            stack.extend(s.other or ())
        elif isinstance(s, ast.Menu):
            for option in s.options:
                stack.extend(option.body)
            stack.extend(s.otherwise or ())
        else:
            stack.extend(getattr(s, "body", None) or ())


def _walk(node):
    """Every node below `node` (iterative: rule text may nest deeply)."""
    stack = list(ast.children(node))
    while stack:
        n = stack.pop()
        yield n
        stack.extend(ast.children(n))


def _names_read(decl) -> set:
    reads = getattr(decl, "reads", None)  # noted by the checker as it resolved each name
    if reads is not None:
        return reads
    return _read([decl.cond, getattr(decl, "expr", None), *getattr(decl, "body", [])])


def _read(parts: list) -> set:
    used = set()
    for part in parts:
        if part is None:
            continue
        if isinstance(part, ast.Name):
            used.add(part.id)
        used.update(n.id for n in _walk(part) if isinstance(n, ast.Name))
    return used


def _unused_names(decl, in_card: bool, report: Report) -> None:
    if all(n in ("_", "this", "you") for n in decl.pattern):
        return
    used = _names_read(decl)
    sig = getattr(decl, "signature", None)
    for i, name in enumerate(decl.pattern):
        if name in ("_", "this", "you") or name in used or decl.pattern.index(name) != i:
            continue
        param = sig.params[i] if sig is not None and i < len(sig.params) else None
        if in_card and "this" not in decl.pattern and param is not None and param.type in ("entity", None):
            hint = (f"in a card's effect, write 'this' in its place to apply the ability to this card only "
                    f"({_with(decl, i, 'this')}), or '_' to ignore it")
        else:
            hint = f"write '_' to ignore it ({_with(decl, i, '_')})"
        report.warning("DSL-UNUSED", f"the pattern binds '{name}', which the ability never reads", _name_span(decl.span, name), hint)


def _selfless(decl, kind, selfish: set, report: Report) -> None:
    """A card's ability on an event whose component, at that place, other cards of its kind tie to `this`
    (`when play_action(_, this)`), where this one neither names `this` nor tests the component in its
    condition: it fires for every card of the kind, not only for its own."""
    sig = getattr(decl, "signature", None)
    if sig is None or "this" in decl.pattern:
        return
    if not any((kind, sig.name, i) in selfish for i in range(len(decl.pattern))):
        return
    cond = _read([decl.cond])
    for i, name in enumerate(decl.pattern):
        if (kind, sig.name, i) not in selfish or "this" in cond or name in cond:
            continue
        if name != "_" and name not in _names_read(decl):
            continue  # told already (DSL-UNUSED)
        report.warning("DSL-SELF", f"this ability fires whenever '{sig.name}' is about any {kind}, not only about "
                       "this card, though other cards of its kind name 'this' there", _name_span(decl.span, name),
                       f"write 'this' in the pattern ({_with(decl, i, 'this')}), or test '{name}' in an 'if'")
        return


def _with(decl, i: int, word: str) -> str:
    pattern = list(decl.pattern)
    pattern[i] = word
    keyword = {"Trigger": "when", "Replacement": "instead of", "Modifier": "modify"}[type(decl).__name__]
    event = decl.func if isinstance(decl, ast.Modifier) else decl.event
    return f"{keyword} {event}({', '.join(pattern)})"


def _name_span(span: Span, name: str) -> Span:
    """The span of `name` inside the pattern on the declaration's first line (the declaration's own span
    when it cannot be found there)."""
    text = span.text or ""
    start = text.find("(", max(0, span.col - 1))
    m = re.compile(rf"\b{re.escape(name)}\b").search(text, start + 1) if start >= 0 else None
    if m is None:
        return span
    return Span(span.path, span.line, m.start() + 1, m.end() + 1, text)
