"""Card functions whose value can be kept until what lies in one player's zone changes.

A title's score (`count(d in domains of p where any(g in garrison of d where ...))`) is asked for every
player after every turn, though a turn changes one or two players' domains. A card function qualifies when
its value is a number, yes/no, text, component or player, and it reads nothing of the game but one zone of
one of its players (`ZONE of p`), the zones on the components lying there (and so on), and the records'
attributes (which never change in play), through comprehensions and pure built-ins. What lies in a zone,
counted through the zones on what lies in it, changes only with its `Zone.stamp`
(interpreter.core.state.touch), so the kept value is good while the stamp stays the same: the zone's kept
values (`Zone.memo`) are dropped wherever its stamp moves, so a value found there needs no comparing.
"""
from __future__ import annotations

import re

from dsl import ast

# built-ins that read nothing but their arguments
_PURE_CALLS = {"len", "count", "max", "min", "abs", "first", "last"}
_PURE_QUERIES = {"list", "count", "sum", "any", "all", "first", "max", "min"}
_KEPT_TYPES = {"number", "bool", "text", "entity", "player"}
_ROOT = re.compile(r"rt\.pz\[('[A-Za-z_][A-Za-z0-9_]*')\]\[(v_[A-Za-z0-9_]+)\]")


def root_zone(decl: ast.Function, source: str) -> tuple[str, str] | None:
    """(the zone's name as a Python literal, the parameter's local) when the function qualifies, else None.
    `source` is the function's expression as generated: it may read the state only through that zone."""
    if getattr(decl.expr, "type", None) not in _KEPT_TYPES:
        return None
    params = {p.name for p in decl.params}
    roots: set = set()
    if not _pure(decl.expr, params, set(), roots) or len(roots) != 1:
        return None
    zones = set(_ROOT.findall(source))
    if len(zones) != 1:
        return None
    rest = _ROOT.sub("", source)
    if re.search(r"\brt\b", rest) or ".vars[" in rest:  # nothing else of the game, no budget counted
        return None
    return next(iter(zones))


def _pure(node, params: set, covered: set, roots: set) -> bool:
    """Reads only the parameters, comprehension variables over covered zones, attributes of records and
    the zone `ZONE of PARAM` (put into `roots`) with what lies in it."""
    if isinstance(node, (ast.Num, ast.Const, ast.EntityRef)):
        return True
    if isinstance(node, ast.Str):
        return all(isinstance(p, str) for p in node.parts)
    if isinstance(node, ast.Name):
        ref = getattr(node, "ref", ("local",))
        return ref[0] == "enum" or (ref[0] == "local" and node.id not in ("you",))
    if isinstance(node, ast.Attr):
        ref = getattr(node, "ref", None)
        return (ref == ("attr", node.name) or node.name in ("id", "kind")) and _pure(node.obj, params, covered, roots)
    if isinstance(node, ast.Of):
        return _zone(node, params, covered, roots) or \
            (getattr(node, "ref", None) == ("attr", node.name) and _pure(node.arg, params, covered, roots))
    if isinstance(node, ast.Unary):
        return _pure(node.operand, params, covered, roots)
    if isinstance(node, ast.Binary):
        return _pure(node.left, params, covered, roots) and _pure(node.right, params, covered, roots)
    if isinstance(node, ast.IfExpr):
        return all(_pure(x, params, covered, roots) for x in (node.cond, node.then, node.other))
    if isinstance(node, ast.ListLit):
        return all(_pure(x, params, covered, roots) for x in node.items)
    if isinstance(node, ast.Call):
        return getattr(node, "ref", ("",))[0] == "builtin" and node.func in _PURE_CALLS and \
            all(_pure(a, params, covered, roots) for a in node.args)
    if isinstance(node, ast.Query):
        if node.func not in _PURE_QUERIES or node.keys or node.var in params:
            return False
        inner = covered | {node.var} if _zone(node.coll, params, covered, roots) else None
        if inner is None:
            if not _pure(node.coll, params, covered, roots):
                return False
            inner = covered - {node.var}  # a variable over something else: its zones are not covered
        return all(x is None or _pure(x, params, inner, roots) for x in (node.cond, node.value))
    return False


def _zone(node, params: set, covered: set, roots: set) -> bool:
    """`ZONE of p` for a player parameter p (the root), or `ZONE of x` for x lying (through zones) in it."""
    if not (isinstance(node, ast.Of) and getattr(node, "ref", ("",))[0] == "zone" and isinstance(node.arg, ast.Name)):
        return False
    scope = node.ref[1].scope
    if scope == "player" and node.arg.id in params:
        roots.add((node.name, node.arg.id))
        return True
    return scope == "entity" and node.arg.id in covered
