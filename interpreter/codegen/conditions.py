"""Conditions where a statement tests them (`if`, a menu's or a loop's `where`), written as statements.

As one Python expression, `any(c in D where P)` is a generator, `sum(...)` a list comprehension (each a function
call of its own in Python 3.11), and `max(a, b)` a helper call; an if-expression or an inlined rule function
around them cannot avoid them. Where a statement tests the condition, it is written as statements instead: `and`,
`or`, `not` and if-expressions as branches, `any`/`all` as a loop that stops at the first answer, the operands
of a comparison that need it (`sum`, `count` with a condition, `max`/`min` of two) as loops and temporaries, in
the order Python would evaluate them, and only where Python would. The condition's truth ends in a temporary
that the statement tests. Steps are counted as the comprehensions would count them.
"""
from __future__ import annotations

from dsl import ast
from interpreter.codegen import library
from interpreter.codegen.expressions import Expressions, small

_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def test(game, w, ex: Expressions, node) -> str:
    """What a statement tests for `node`: the plain expression when writing it as statements gains nothing, else
    the temporary the statements written here leave its truth in."""
    if not worthwhile(ex, node):
        return ex.expr(node)
    flag = w.temp()
    Conditions(game, w).truth(ex, node, flag)
    return flag


def worthwhile(ex: Expressions, node) -> bool:
    """Does `test` write statements for `node`?"""
    return _worth(ex, node, 0)


def _worth(ex: Expressions, node, depth: int) -> bool:
    """Does the condition hold a part that statements write cheaper (through inlined rule functions)?"""
    if depth > 8:
        return False
    found = ex.inlined(node)
    if found is not None:
        return _worth(found[0], found[1], depth + 1)
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        return _worth(ex, node.left, depth) or _worth(ex, node.right, depth)
    if isinstance(node, ast.Unary) and node.op == "not":
        return _worth(ex, node.operand, depth)
    if isinstance(node, ast.IfExpr):  # its branches as statements: worth it for what they hold alone
        return any(_worth(ex, x, depth) for x in (node.cond, node.then, node.other))
    if _loop_test(node):
        return True
    if isinstance(node, ast.Binary) and node.op in _COMPARE:
        return any(_heavy(ex, side, depth) for side in (node.left, node.right))
    return False


def _heavy(ex: Expressions, node, depth: int) -> bool:
    """An operand whose value statements write cheaper: `sum`, `count` with a condition, `max`/`min` of two."""
    found = ex.inlined(node) if depth <= 8 else None
    if found is not None:
        return _heavy(found[0], found[1], depth + 1)
    return _sum_or_count(node) or _extreme2(node)


def _loop_test(node) -> bool:
    return isinstance(node, ast.Query) and node.func in ("any", "all") and node.cond is not None and \
        node.value is None and not node.keys


def _sum_or_count(node) -> bool:
    return isinstance(node, ast.Query) and not node.keys and \
        (node.func == "sum" or node.func == "count" and node.cond is not None)


def _extreme2(node) -> bool:
    return isinstance(node, ast.Call) and node.func in ("max", "min") and len(node.args) == 2 and \
        getattr(node, "ref", ("",))[0] == "builtin"


class Conditions:
    def __init__(self, game, w):
        self.game = game
        self.w = w

    def truth(self, ex: Expressions, node, flag: str) -> None:
        """Statements that leave the truth of `node` (something Python tests) in `flag`."""
        w = self.w
        found = ex.inlined(node)
        if found is not None:
            self.truth(found[0], found[1], flag)
        elif isinstance(node, ast.Binary) and node.op in ("and", "or"):
            self.truth(ex, node.left, flag)
            w.line(f"if {'' if node.op == 'and' else 'not '}{flag}:")
            w.indent()
            self.truth(ex, node.right, flag)
            w.dedent()
        elif isinstance(node, ast.Unary) and node.op == "not":
            self.truth(ex, node.operand, flag)
            w.line(f"{flag} = not {flag}")
        elif isinstance(node, ast.IfExpr):
            cond = test(self.game, w, ex, node.cond)
            w.line(f"if {cond}:")
            w.indent()
            self.truth(ex, node.then, flag)
            w.dedent()
            w.line("else:")
            w.indent()
            self.truth(ex, node.other, flag)
            w.dedent()
        elif _loop_test(node):
            # any: false until an element meets the condition; all: true until one does not
            w.line(f"{flag} = {node.func == 'all'}")
            inner = self.loop(ex, node)
            w.indent()
            self.truth(inner, node.cond, flag)
            w.line(f"if {'' if node.func == 'any' else 'not '}{flag}:")
            w.line("    break")
            w.dedent()
        elif isinstance(node, ast.Binary) and node.op in _COMPARE and \
                any(_heavy(ex, side, 0) for side in (node.left, node.right)):
            ordered = node.op not in ("==", "!=")  # (an order's operands say which one is none: Expressions.operand)
            left = self.value(ex, node.left, ordered)
            if _heavy(ex, node.right, 0):  # the left side evaluated before the right side's statements, as in Python
                left = self.kept(left)
            w.line(f"{flag} = ({left} {node.op} {self.value(ex, node.right, ordered)})")
        else:
            w.line(f"{flag} = {ex.expr(node)}")

    def value(self, ex: Expressions, node, ordered: bool = False) -> str:
        """An expression for the value of `node` (an operand of an order when `ordered`), with the statements it
        needs written first."""
        w = self.w
        found = ex.inlined(node)
        if found is not None:
            return self.value(found[0], found[1], ordered)
        if _extreme2(node):
            # _max2/_min2 inline: none gives way to the other value
            a = self.kept(self.value(ex, node.args[0]))
            b = self.kept(self.value(ex, node.args[1]))
            t = w.temp()
            w.line(f"{t} = {b} if {a} is None else ({a} if {b} is None or {a} {'>=' if node.func == 'max' else '<='} {b} else {b})")
            return t
        if _sum_or_count(node):
            total = w.temp()
            w.line(f"{total} = 0")
            inner = self.loop(ex, node)
            w.indent()
            if node.func == "count":
                w.line(f"if {test(self.game, w, inner, node.cond)}:")
                w.line(f"    {total} += 1")
            else:
                item = inner.expr(node.value) if node.value is not None else inner.local(node.var)
                if node.cond is not None:
                    w.line(f"if {test(self.game, w, inner, node.cond)}:")
                    w.line(f"    {total} = {total} + {item}")  # as `sum` adds (a none fails there the same way)
                else:
                    w.line(f"{total} = {total} + {item}")
            w.dedent()
            return total
        return ex.operand(node) if ordered else ex.expr(node)

    def kept(self, source: str) -> str:
        """`source` read once: a temporary unless it is a name already."""
        if source.isidentifier():
            return source
        t = self.w.temp()
        self.w.line(f"{t} = {source}")
        return t

    def loop(self, ex: Expressions, node) -> Expressions:
        """The loop over a comprehension's collection (written here), counted as the comprehension counts it
        (`Expressions.e_Query`); the context of its body, where the comprehension's variable is a temporary."""
        w = self.w
        var = w.temp()
        coll = ex.items(node.coll)
        if not small(self.game, node):
            if coll.startswith("_items("):
                coll = ex.each(node.coll)
            else:  # a list or a zone's items: `_each` inline (no call to count what may well be an empty garrison)
                seq = w.temp()
                w.line(f"{seq} = {coll}")
                w.line(f"rt.steps += _len({seq})")
                w.line(f"if rt.steps > {library.STEP_LIMIT}:")
                w.line(f"    rt.steps -= _len({seq})")
                w.line(f"    _each(rt, {seq})")  # which raises, saying what was counted
                coll = seq
        w.line(f"for {var} in {coll}:")
        return ex.looping(node.var, var, node.coll)
