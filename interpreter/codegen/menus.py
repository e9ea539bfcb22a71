"""`choose:` menus to Python: every option with every binding that passes its conditions, one decision, the
chosen option's body. A mixin of `statements.Statements` (its writer, bound names and expression contexts)."""
from __future__ import annotations

import ast as pyast
import re

from dsl import ast
from interpreter.codegen import library
from interpreter.codegen.conditions import test
from interpreter.codegen.chance import DRAWS
from interpreter.codegen.expressions import Expressions, Hoisted
from interpreter.codegen.source import Writer


class Menus:
    def s_Menu(self, s) -> None:
        """Every option with every binding that passes its conditions, each a MenuChoice made where it is found
        (the decision's values, with no second pass over them); one decision; the chosen option's body."""
        w = self.w
        entries, choice, kind = w.temp(), w.temp(), w.temp()
        rows = self.option_rows(s)
        w.line(f"{entries} = []")
        for k, opt in enumerate(s.options):
            self.enumerate_option(k, opt, entries, rows[k])
        w.span = s.span
        w.line(f"if not {entries}:")
        if s.otherwise is not None:
            self.suite(s.otherwise)
        else:
            w.line("    pass")
        w.span = s.span
        w.line("else:")
        w.indent()
        w.line(f"if _len({entries}) == 1:")
        w.line(f"    {choice} = {entries}[0]")
        w.line("else:")
        w.line(f"    {choice} = {entries}[(yield _ask(rt, {self.chooser(s.by)}, {self.question(s, 'menu')}, {entries}, 'menu'))]")
        w.line(f"{kind} = {choice}.option")
        for k, opt in enumerate(s.options):
            w.span = opt.span
            w.line(f"{'if' if k == 0 else 'elif'} {kind} is {rows[k]}:")
            names = [b.var for b in opt.bindings]
            with self.child(*names):
                if names:
                    w.line(f"({', '.join(self.ex.local(n) for n in names)},) = {choice}.bound")
                self.block(opt.body)
        w.dedent()

    def option_rows(self, s) -> list:
        """Per option, the name of its MenuChoice.option: (its name, which bindings it shows, which of those are
        players), and for an option with `ask` a fourth entry, a function of its bound values giving its words
        (interpreter.present.words renders them for each viewer). A constant, or a temporary made before the
        options are enumerated when its words read locals of the procedure; the chosen option is found by it."""
        labels = []
        for opt in s.options:
            names = [b.var for b in opt.bindings]
            types = {b.var: b.coll.type for b in opt.bindings}
            shown = tuple(names.index(p) for p in opt.params)
            player_args = tuple(i for i, p in enumerate(opt.params) if types.get(p) == "list[player]")
            labels.append((opt.name, shown, player_args))
        # the options' table, a constant (tools read the options' names from it: interpreter.agents.actions)
        table = self.unit.constant(tuple(labels))
        rows = []
        for k, opt in enumerate(s.options):
            names = [b.var for b in opt.bindings]
            row = f"{table}[{k}]"
            if opt.ask is None:
                row = self.module_constant(row, s.span)
            else:
                ex = Expressions(self.game, self.bound | set(names), facts=self.facts)
                args = ", ".join(ex.local(n) for n in names)
                row = f"{row} + ((lambda {args}: {self.words(opt.ask, ex)}),)"
                if _closed(row):  # words of the bound values alone: made once, as the module runs
                    row = self.module_constant(row, s.span)
                else:
                    temp = self.w.temp()
                    self.w.line(f"{temp} = {row}")
                    row = temp
            rows.append(row)
        return rows

    def module_constant(self, source: str, span) -> str:
        """A name for a value made once as the module runs (the source reads only constants and helpers)."""
        name = self.unit.new_name("k_")
        line = Writer(self.unit.filename)
        line.span = span
        line.line(f"{name} = {source}")
        self.unit.writers.append(line)
        return name

    def enumerate_option(self, k: int, opt, entries: str, row: str) -> None:
        w = self.w
        start = len(w.lines)
        self._hoisted: list = []
        depth = 0
        names = []
        hoist: dict = {}  # an outer binding's local -> its attributes read inside, with where they are written
        places = []  # (line, depth, Hoisted) before each inner binding's loop
        lying: set = set()  # bindings that go through what lies in zones: each value lies in a zone
        for i, b in enumerate(opt.bindings):
            ex = Expressions(self.game, self.bound | set(names), facts=self.facts)
            if b.coll.type == "zone" or _ZONES_JOINED.match(ex.items(b.coll)):
                lying.add(ex.local(b.var))
            if i:
                outer = ex.local(names[-1])
                hoist[outer] = Hoisted(w.temp)
                places.append((len(w.lines), w.depth, hoist[outer]))
            last = i == len(opt.bindings) - 1
            if last and ex.small_collection(b.coll) and all(_leaf(c) for c in (b.cond, opt.cond)):
                # the innermost binding over a hand or the players with plain conditions: like a small
                # comprehension, counted with what runs it (menus are enumerated on the hottest paths)
                w.line(f"for {ex.local(b.var)} in {ex.items(b.coll)}:")
            else:
                seq = w.temp()  # counted inline
                if i and not isinstance(b.coll, _CHEAP) and _invariant(b.coll, set(names), self.game):
                    # the same for every value of the outer bindings (`d in table()` for each card in hand):
                    # made once, when first needed, and gone through again (its elements still counted each time)
                    kept = self.hoisted(seq)
                    w.line(f"if {kept} is None:")
                    w.line(f"    {kept} = {ex.items(b.coll)}")
                    w.line(f"{seq} = {kept}")
                else:
                    w.line(f"{seq} = {ex.items(b.coll)}")
                w.line(f"rt.steps += _len({seq})")
                w.line(f"if rt.steps > {library.STEP_LIMIT}:")
                w.line("    _spend(rt, 0, 'elements a choice went through')")
                w.line(f"for {ex.local(b.var)} in {seq}:")
            w.indent()
            depth += 1
            names.append(b.var)
            if b.cond is not None:
                inner = Expressions(self.game, self.bound | set(names), hoist=dict(hoist), components=frozenset(lying),
                                    facts=self.facts)
                w.line(f"if {test(self.game, w, inner, b.cond)}:")
                w.indent()
                depth += 1
        ex = Expressions(self.game, self.bound | set(names), hoist=dict(hoist), components=frozenset(lying),
                         facts=self.facts)
        values = "(" + "".join(ex.local(n) + ", " for n in names) + ")"
        if opt.cond is not None:
            w.line(f"if {test(self.game, w, ex, opt.cond)}:")
            w.indent()
        # MenuChoice(row, values) without the call of its __init__ (a call of its own for each option found)
        choice = w.temp()
        w.line(f"{choice} = _new_choice()")
        w.line(f"{choice}.option = {row}")
        w.line(f"{choice}.bound = {values}")
        w.line(f"{entries}.append({choice})")
        if opt.cond is not None:
            w.dedent()
        for _ in range(depth):
            w.dedent()
        for line, at, hoisted in reversed(places):  # the later first, so that the earlier places stay where they are
            w.lines[line:line] = ["    " * at + text for text in hoisted.lines]
            w.spans[line:line] = [w.spans[line - 1]] * len(hoisted.lines)
        for kept in self._hoisted:  # set to none before the option's loops, in the lines already written
            w.lines.insert(start, "    " * w.depth + f"{kept} = None")
            w.spans.insert(start, w.span)

    def hoisted(self, seq: str) -> str:
        kept = self.w.temp()
        self._hoisted.append(kept)
        return kept


def _leaf(node) -> bool:
    """An expression that holds no comprehension and calls no rule function (None: no condition)."""
    todo = [node] if node is not None else []
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Query, ast.Method, ast.Range)) or \
                isinstance(n, ast.Call) and getattr(n, "ref", ("builtin",))[0] != "builtin":
            return False
        todo.extend(ast.children(n))
    return True


def _closed(source: str) -> bool:
    """Does this generated expression read only its own lambdas' parameters, constants and helpers
    (no local of the procedure, nor `rt`)?"""
    tree = pyast.parse(source, mode="eval")
    bound = {a.arg for n in pyast.walk(tree) if isinstance(n, pyast.Lambda) for a in n.args.args}
    bound |= {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Store)}
    return all(n.id in bound or n.id.startswith(("k_", "_")) for n in pyast.walk(tree) if isinstance(n, pyast.Name))


_ZONES_JOINED = re.compile(r"^(?:_items\()?\(*_concat_zone\(rt, '\w+'\)\)*$")  # one zone of every player, joined
_CHEAP = (ast.Name, ast.Of, ast.Attr, ast.EntityRef, ast.Const, ast.Num)  # read again at no cost: not worth keeping
_PURE = (ast.Num, ast.Str, ast.Const, ast.Name, ast.EntityRef, ast.Attr, ast.Index, ast.Of, ast.Unary, ast.Binary,
         ast.Range, ast.IfExpr, ast.ListLit, ast.Query, ast.SortKey, ast.Call)


def _invariant(node, outer: set, game, seen: frozenset = frozenset()) -> bool:
    """Does `node` give the same value however often it is evaluated while a menu is enumerated, whatever
    the values of the `outer` bindings: it names none of them, draws no random number, and calls neither a
    modified function (whose modifiers a trace records at each call) nor a card function, only built-ins and
    rule functions that are invariant in turn."""
    for n in _nodes(node):
        if not isinstance(n, _PURE) or isinstance(n, ast.Name) and n.id in outer:
            return False
        if isinstance(n, ast.Call):
            ref = getattr(n, "ref", ("",))
            if ref[0] == "builtin":
                if n.func in DRAWS:
                    return False
                continue
            decl = getattr(ref[1], "decl", None) if len(ref) > 1 else None
            if n.func in game.modified or decl is None or n.func in seen or len(seen) > 8:
                return False
            if not _invariant(decl.expr, set(), game, seen | {n.func}):
                return False
    return True


def _nodes(node):
    yield node
    for child in ast.children(node):
        yield from _nodes(child)
