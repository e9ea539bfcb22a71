"""Checked expressions to Python expression source.

Each node becomes a parenthesised Python expression over mangled locals (`v_NAME`), the runtime
`rt` and the helpers of `library.namespace()`. Names were resolved by the checker (`node.ref`) and
types inferred (`node.type`), so nothing is looked up by name at run time but game data, whose
keys go through repr().
"""
from __future__ import annotations

import ast as pyast
import re

from dsl import ast
from interpreter.codegen.facts import LISTS, PER_PLAYER, SEAT, SMALL_SCAN, SMALL_ZONES, function_decls, players_like
from interpreter.codegen.source import FUNC, LOCAL, literal, mangle

_COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in", "notin": "not in"}
_PLAIN_BUILTINS = {
    "len": "_count", "count": "_count", "max": "_max", "min": "_min",
    "top": "_top", "bottom": "_bottom", "holder": "_holder", "zone_of": "_zone_of",
    "place_of": "_place_of", "is_in": "_is_in", "abs": "_abs", "face_down": "_face_down",
}
# built-ins that take the runtime: the game's seats and generator, or the step budget (they go through a collection)
_RT_BUILTINS = {"random": "_random", "roll": "_roll", "combinations": "_combinations", "next": "_next", "prev": "_prev", "neighbors": "_neighbors",
                "distance": "_distance", "players_from": "_players_from", "variant": "_variant", "seat": "_seat",
                "sum": "_total", "distinct": "_distinct", "concat": "_concat", "keys": "_keys", "snapshot": "_snapshot"}


# operators whose operands must be numbers: a none there fails, so a partial attribute says which it was
_ORDERED = {"+", "-", "*", "/", "%", "<", "<=", ">", ">="}

INLINE_DEPTH = 8


def _source_text(node) -> str:
    """An expression as the rule text writes it (for a message), or `the list` where its span does not say."""
    span = node.span
    text = span.text if span is not None else ""
    if span is not None and 0 < span.col < span.end_col <= len(text) + 1:
        shown = text[span.col - 1:span.end_col - 1].strip()
        if shown and len(shown) <= 60:
            return shown
    return "the list"


def _partial_attributes(game) -> frozenset:
    """Number attributes that some records lack and that have no default: read as none on those records."""
    if game.partial_attributes is None:
        content = game.content
        voc = content.vocabulary
        game.partial_attributes = frozenset(
            name for name, t in voc.attributes.items() if t == "number" and name not in voc.attribute_defaults
            and any(name not in r.data for r in content.records))
    return game.partial_attributes


def _shown(node) -> str:
    """The operand as written (`c.cost`), from its span when it lies on one line."""
    span = node.span
    text = span.text[span.col - 1:span.end_col - 1] if span.text and span.end_col > span.col + 1 else ""
    return text.strip() or f"{node.name} of ..."


class Expressions:
    """Compiles expressions in a context that knows which locals are bound (for `you` and `this`).

    Calls of pure rule functions with simple arguments are inlined: the callee's parameters stand
    for the argument sources (`subst`), and the callee's own comprehension variables get fresh
    names (`rename`, prefix `iN_`) so that they cannot capture a caller's variable.
    """

    def __init__(self, game, bound: set, subst: dict | None = None, rename: dict | None = None,
                 inlining: tuple = (), fresh: list | None = None, hoist: dict | None = None,
                 components: frozenset = frozenset(), facts: dict | None = None):
        self.game = game
        self.bound = bound  # content names of the locals bound where the expression stands
        self.subst = subst or {}
        self.rename = rename or {}
        self.inlining = inlining  # the functions being inlined, innermost last
        self.fresh = fresh if fresh is not None else [0]
        # local (as generated) -> Hoisted: record attributes of an outer menu binding, read once before the
        # inner loop rather than for each inner element (records' attributes never change in play)
        self.hoist = hoist or {}
        # locals (as generated) that hold a component lying in a zone: bound by going through a zone's items
        self.components = components
        self.facts = facts or {}  # local (as generated) -> what its bindings make sure of (codegen.facts)

    def local(self, name: str) -> str:
        return self.rename.get(name) or mangle(LOCAL, name)

    def inner(self, var: str) -> "Expressions":
        """The context inside a comprehension binding `var`."""
        subst = {k: v for k, v in self.subst.items() if k != var}
        rename = dict(self.rename)
        if self.inlining:
            self.fresh[0] += 1
            rename[var] = f"i{self.fresh[0]}_{mangle(LOCAL, var)}"
        hoist, own = self.hoist, rename.get(var) or mangle(LOCAL, var)
        if hoist and own in hoist:  # the comprehension's own variable
            hoist = {k: v for k, v in hoist.items() if k != own}
        facts = self.facts
        if own in facts:  # an outer local of the same name is not this one
            facts = {k: v for k, v in facts.items() if k != own}
        return Expressions(self.game, self.bound | {var}, subst, rename, self.inlining, self.fresh, hoist,
                           self.components - {own}, facts)

    def you(self) -> str:
        if "you" in self.bound:
            return self.local("you")
        if "this" in self.bound:
            return f"_you_of({self.local('this')})"
        return "_you_of(None)"

    def expr(self, node) -> str:
        return getattr(self, "e_" + type(node).__name__)(node)

    def items(self, node) -> str:
        """The elements of a collection expression, as cheaply as its type allows."""
        src = self.expr(node)
        if node.type == "zone":
            return f"({src}).items"
        if isinstance(node, (ast.ListLit, ast.Range)) or (isinstance(node, ast.Query) and node.func == "list") \
                or (isinstance(node, ast.Name) and getattr(node, "ref", ("",))[0] == "const") \
                or isinstance(node, (ast.Call, ast.Binary)) and made_list(src):
            return src  # a list made here
        return f"_items({src})"

    def small(self, node) -> bool:
        return small(self.game, node)

    def small_collection(self, node) -> bool:
        """The players, a list written out, or a zone of a game of at most SMALL_ZONES components."""
        if isinstance(node, ast.ListLit) or node.type == "zone" and len(self.game.content.entity_ids) <= SMALL_ZONES:
            return True
        return isinstance(node, ast.Name) and getattr(node, "ref", ("",)) == ("const", "players")

    def each(self, node) -> str:
        """The elements of a collection a comprehension goes through, each counted as a step of the budget."""
        items = self.items(node)
        if items.startswith("_items("):
            return "_each_of(rt, " + items[len("_items("):]
        return f"_each(rt, {items})"

    # ------------------------------------------------------------ atoms
    def e_Num(self, node) -> str:
        return literal(node.value)

    def e_Const(self, node) -> str:
        return literal(node.value)

    def e_Str(self, node) -> str:
        parts = [literal(p) if isinstance(p, str) else f"_show({self.told(p)}, {literal(p.type)})" for p in node.parts]
        if not parts:
            return "''"
        if len(parts) == 1 and isinstance(node.parts[0], str):
            return parts[0]
        return "_join(rt, (" + ", ".join(parts) + ",))"  # its length counted and bounded before it is made

    def told(self, node) -> str:
        """A value a text, a log line or a question shows: a number within range, a list or map small enough
        to read (the line's words are made from it later, outside any budget)."""
        src = self.expr(node)
        t = node.type
        if t == "number":
            # what the game keeps and records hold is within range already; a sum or a local may not be
            kept = isinstance(node, (ast.Num, ast.Attr, ast.Of)) or isinstance(node, ast.Name) and \
                getattr(node, "ref", ("",))[0] in ("gamevar", "const")
            return src if kept else f"_bounded({src})"
        if t in ("any", "map") or t.startswith("list["):
            return f"_told(rt, {src})"
        return src

    def e_Name(self, node) -> str:
        ref = getattr(node, "ref", ("local",))
        name = node.id
        if ref[0] == "local":
            if name in self.subst:
                return self.subst[name]
            if name == "you":
                return self.you()
            return self.local(name)
        if ref[0] == "gamevar":
            return f"rt.gv[{literal(name)}]"
        if ref[0] == "const":
            if name == "players":
                return "rt.seats"
            if name == "winners":
                return "rt.state.winners"
            return "rt.state.players"
        if ref[0] == "enum":
            return literal(name)
        if ref[0] == "zone":
            return f"rt.gz[{literal(name)}]"
        raise AssertionError(ref)

    def e_EntityRef(self, node) -> str:
        return f"rt.ents[{literal(node.id)}]"

    def e_ListLit(self, node) -> str:
        return "[" + ", ".join(self.expr(i) for i in node.items) + "]"

    def e_MapLit(self, node) -> str:
        return "{}"

    def e_Range(self, node) -> str:
        return f"_range(rt, {self.expr(node.low)}, {self.expr(node.high)})"

    def e_Suppose(self, node) -> str:
        moves = ", ".join(f"({self.expr(what)}, {self.expr(dest)})" for what, dest in node.moves)
        return f"_suppose(rt, [{moves}], (lambda: {self.expr(node.expr)}))"

    def e_IfExpr(self, node) -> str:
        return f"({self.expr(node.then)} if {self.expr(node.cond)} else {self.expr(node.other)})"

    # ------------------------------------------------------------ members
    def member(self, obj: str, ref, name: str) -> str:
        if ref[0] == "var":
            if ref[1].scope == "player":
                return f"rt.pv[{obj}][{literal(name)}]"
            return f"{obj}.vars[{literal(name)}]"
        if name in ("id", "kind"):
            return f"{obj}.{name}"
        if obj in self.hoist and ref == ("attr", name):
            return self.hoist[obj].read(obj, name)
        return f"{obj}.attrs.get({literal(name)})"

    def e_Attr(self, node) -> str:
        return self.member(self.expr(node.obj), node.ref, node.name)

    def e_Of(self, node) -> str:
        arg = self.expr(node.arg)
        ref = node.ref
        if ref[0] == "zone":
            if ref[1].scope == "player":
                return f"rt.pz[{literal(node.name)}][{arg}]"
            return f"{arg}.zones[{literal(node.name)}]"
        return self.member(arg, ref, node.name)

    def e_Index(self, node) -> str:
        shown = literal(_source_text(node.obj))  # reading outside the list is an error naming it
        if node.obj.type.startswith("list["):
            obj, key = self.expr(node.obj), self.expr(node.key)
            if self.facts.get(key) == SEAT and obj.isidentifier():
                if self.facts.get(obj) == PER_PLAYER:
                    return f"{obj}[{key}]"  # a list of one element per player, indexed by a seat (codegen.facts)
                return f"({obj}[{key}] if {key} < _len({obj}) else _at({obj}, {key}, {shown}))"  # a seat is never none nor negative
            if _plain_local(node.obj) and _plain_local(node.key) and node.key.type in ("number", "player"):
                # `scores[q]` in a loop over the players: read in place when the index lies in the list
                # (a number or none, so the test cannot fail); `_at` says what is wrong otherwise
                return f"({obj}[{key}] if {key} is not None and -1 < {key} < _len({obj}) else _at({obj}, {key}, {shown}))"
            if isinstance(node.key, ast.Num) and node.key.value == 0 and self.facts.get(obj) in LISTS:
                return f"({obj}[0] if {obj} else _at({obj}, 0, {shown}))"
            if isinstance(node.key, ast.Num) and node.key.value == 0 and _plain_local(node.obj) and obj.isidentifier():
                return f"({obj}[0] if _type({obj}) is _list and {obj} else _at({obj}, 0, {shown}))"  # `xs[0]` of a list local
            return f"_at({obj}, {key}, {shown})"
        return f"_index({self.expr(node.obj)}, {self.expr(node.key)}, {shown})"

    def e_Method(self, node) -> str:
        args = ", ".join(self.expr(a) for a in node.args)
        if _simple(node.obj) and node.name not in self.game.modified:
            obj = self.expr(node.obj)
            return f"rt.cfs[{obj}.record_id][{literal(node.name)}]({', '.join(['rt', obj, *([args] if args else [])])})"
        return f"rt.card_function({self.expr(node.obj)}, {literal(node.name)}, ({args}{',' if args else ''}))"

    # ------------------------------------------------------------ operators
    def operand(self, node) -> str:
        """An operand of arithmetic or of an order. A number attribute that some records lack (and that has no
        default) is read through `_number_attr`, which names the operand and the record when it is none."""
        if isinstance(node, (ast.Attr, ast.Of)) and getattr(node, "ref", None) == ("attr", node.name) \
                and node.name in _partial_attributes(self.game):
            obj = self.expr(node.obj if isinstance(node, ast.Attr) else node.arg)
            checked = f"_number_attr({obj}, {literal(node.name)}, {literal(_shown(node))})"
            if obj in self.hoist:
                value = self.hoist[obj].read(obj, node.name)
                return f"({value} if {value} is not None else {checked})"
            return checked
        return self.expr(node)

    def e_Unary(self, node) -> str:
        if node.op == "-":
            return f"(-{self.operand(node.operand)})"
        operand = self.expr(node.operand)
        return f"(not {operand})" if node.op == "not" else f"(-{operand})"

    def e_Binary(self, node) -> str:
        op = node.op
        if op in ("+", "-") and not (node.left.type == "number" and node.right.type == "number"):
            if isinstance(node.left, ast.Binary) and node.left.op in ("+", "-"):
                return self.chain(node)
            left, right = self.operand(node.left), self.operand(node.right)
            if op == "+" and any(t.startswith("list[") or t == "zone" for t in (node.left.type, node.right.type)):
                return f"_concat2(rt, {left}, {right})"
            if op == "+" and node.left.type == node.right.type == "text":
                return f"_text_plus(rt, {left}, {right})"
            return f"_chain(rt, {literal(op)}, {left}, {right})"
        if op in _ORDERED:
            left, right = self.operand(node.left), self.operand(node.right)
        else:
            left, right = self.expr(node.left), self.expr(node.right)
        if op in ("and", "or"):
            return f"({left} {op} {right})"
        if op == "/":
            return f"_div({left}, {right})"
        if op == "*":
            return f"_mul({left}, {right})"
        if op in ("+", "-"):
            # a chain a + b - c + ... stays flat: Python reads it left to right, and deep
            # parentheses would pass the limit of Python's own parser
            if isinstance(node.left, ast.Binary) and node.left.op in ("+", "-") and left.startswith("("):
                left = left[1:-1]
            return f"({left} {op} {right})"
        if op == "%":
            return f"({left} % {right})" if node.left.type == node.right.type == "number" else f"_mod({left}, {right})"
        if op in ("in", "notin"):
            if self.small_collection(node.right):  # a scan of at most a few hundred: counted with what runs it
                return f"({left} {_COMPARE[op]} {self.items(node.right)})"
            found = f"_in(rt, {left}, {right})"  # a scan of the collection, counted as steps
            if _plain_local(node.right) and right.isidentifier() and node.right.type.startswith("list[") \
                    and _simple(node.left):
                # a list local of a few elements (races drawn for a setup) scanned in place, like a small collection
                found = f"({left} in {right} if _type({right}) is _list and _len({right}) <= {SMALL_SCAN} else {found})"
            return found if op == "in" else f"(not {found})"
        return f"({left} {_COMPARE[op]} {right})"

    def chain(self, node) -> str:
        """`a + b - c ...` where some side is not a number (texts, lists, zones, or unknown): one call that
        joins left to right within the budgets, flat however long the chain (deep calls would pass the
        limit of Python's own parser)."""
        operands, ops = [], []
        while isinstance(node, ast.Binary) and node.op in ("+", "-"):
            operands.append(node.right)
            ops.append(node.op)
            node = node.left
        operands.append(node)
        args = ", ".join(self.operand(o) for o in reversed(operands))
        return f"_chain(rt, {literal(''.join(reversed(ops)))}, {args})"

    # ------------------------------------------------------------ calls
    def e_Call(self, node) -> str:
        ref = node.ref
        args = [self.expr(a) for a in node.args]
        if ref[0] == "builtin":
            return self.builtin(node, args)
        name = node.func
        fn = mangle(FUNC, name)
        if name in self.game.modified:
            how = "memoized" if name in self.game.memoizable else "modified"
            return f"rt.{how}({literal(name)}, {fn}, ({', '.join(args)}{',' if args else ''}))"
        found = self.inlined(node, args)
        if found is not None:
            callee, body = found
            return f"({callee.expr(body)})"
        return f"{fn}({', '.join(['rt', *args])})"

    def inlined(self, node, args: list | None = None):
        """(the callee's context, its expression) for a call of a pure rule function with simple arguments, which is
        inlined: the callee's parameters stand for the arguments' sources; None for any other node."""
        ref = getattr(node, "ref", ("",))
        if not isinstance(node, ast.Call) or ref[0] == "builtin" or node.func in self.game.modified or \
                self.game.for_coverage:
            return None
        decl = getattr(ref[1], "decl", None) if len(ref) > 1 else None
        name = node.func
        if decl is None or name in self.inlining or len(self.inlining) >= INLINE_DEPTH or \
                not all(_simple(a) for a in node.args):
            return None
        args = args if args is not None else [self.expr(a) for a in node.args]
        subst = {p.name: a for p, a in zip(decl.params, args)}
        return (Expressions(self.game, set(subst), subst, {}, (*self.inlining, name), self.fresh, self.hoist,
                            self.components, self.facts), decl.expr)

    def looping(self, var: str, temp: str, coll) -> "Expressions":
        """The context inside a loop written for a comprehension over `coll` binding `var` (a statement's loop, its
        variable the temporary `temp`): as `inner`, with what going through `coll` makes sure of."""
        inner = self.inner(var)
        inner.rename = {**inner.rename, var: temp}
        if coll.type == "zone":
            inner.components = inner.components | {temp}
        if players_like(coll):
            inner.facts = {**inner.facts, temp: SEAT}
        return inner

    def builtin(self, node, args: list) -> str:
        name = node.func
        if name in ("count", "len") and node.args and node.args[0].type == "zone":
            return f"_len({args[0]}.items)"
        if name in ("max", "min") and len(args) == 1:
            return f"_{name}1(rt, {args[0]})"
        if name in ("count", "len") and node.args and isinstance(node.args[0], (ast.ListLit, ast.Query)) \
                and node.args[0].type.startswith("list["):
            return f"_len({args[0]})"  # a list made here is never none
        if name in ("count", "len") and node.args and self.facts.get(args[0]) in LISTS:
            return f"_len({args[0]})"  # a list local (codegen.facts)
        if name in ("count", "len") and node.args and _plain_local(node.args[0]) and args[0].isidentifier() \
                and node.args[0].type.startswith("list["):
            return f"(_len({args[0]}) if _type({args[0]}) is _list else _count({args[0]}))"  # a list local, as a rule
        if name in ("max", "min"):
            return f"_{name}{len(args)}({', '.join(args)})"
        if name in ("any", "all"):
            return f"_{name}({self.each(node.args[0])})"
        if name == "first":
            return f"_first({self.items(node.args[0])})"
        if name == "holder" and _plain_local(node.args[0]) and args[0].isidentifier():
            # a component lying in a player's zone (the hot case: who holds the domain a menu option names) or in the
            # game's (none), inline; anything else (stacked, in no zone, not a component) through `_holder`, which says what
            x = args[0]
            held = f"(_type({x}.zone.owner) is _int or {x}.zone.owner is None)"
            if x in self.components:  # known to lie in a zone
                return f"({x}.zone.owner if {held} else _holder({x}))"
            return f"({x}.zone.owner if _type({x}) is _Entity and {x}.zone is not None and {held} else _holder({x}))"
        if name in _PLAIN_BUILTINS:
            return f"{_PLAIN_BUILTINS[name]}({', '.join(args)})"
        if name == "random":  # a pick among players is labelled as players (a scenario's P2, a chance decision's)
            return f"_random(rt, {args[0]}, {args[1] if len(args) > 1 else None}, {node.args[0].type == 'list[player]'})"
        if name == "concat" and _each_players_zone(node.args[0]):  # concat([hand of q for q in players])
            return f"_concat_zone(rt, {literal(node.args[0].value.name)})"
        return f"{_RT_BUILTINS[name]}(rt, {', '.join(args)})"

    def e_Query(self, node) -> str:
        """The comprehension forms, as Python comprehensions (their variable stays inside them). What each
        goes through is counted as steps (`_each`), so nested comprehensions count every inner step too;
        but see `small`."""
        counted = not (node.func == "count" and node.cond is None) and not self.small(node)
        coll = self.each(node.coll) if counted else self.items(node.coll)
        inner = self.inner(node.var)
        var = inner.local(node.var)
        if node.coll.type == "zone" and node.func != "reach":  # its elements lie in that zone (reach's steps: not)
            inner.components = inner.components | {var}
        if players_like(node.coll) and node.func != "reach":
            inner.facts = {**inner.facts, var: SEAT}
        cond = inner.expr(node.cond) if node.cond is not None else None
        value = inner.expr(node.value) if node.value is not None else var
        where = f" if {cond}" if cond is not None else ""
        loop = f"for {var} in {coll}{where}"
        func = node.func
        if func in _EMPTY and not (func == "count" and cond is None):
            found = _PLAIN_ITEMS.match(coll)
            if found is not None:  # an empty zone (a garrison, a hand) answers at once, without making a comprehension
                return f"({self.query(node, func, value, loop, var, coll, cond, inner)} if {found.group(1)} else {_EMPTY[func]})"
        return self.query(node, func, value, loop, var, coll, cond, inner)

    def query(self, node, func: str, value: str, loop: str, var: str, coll: str, cond, inner) -> str:
        """A comprehension form over `coll` as Python (e_Query's parts)."""
        if func == "list":
            return f"[{value} {loop}]"
        if func == "count":
            return f"_len([1 {loop}])" if cond is not None else f"_len({coll})"
        if func == "sum":
            return f"_sum([{value} {loop}])"
        if func == "any":
            return f"_any({'True' if node.value is None else value} {loop})"
        if func == "all":
            if node.value is None:
                return f"_all({cond if cond is not None else var} for {var} in {coll})"
            return f"_all({value} {loop})"
        if func == "first":
            return f"_first({value} {loop})"
        if func == "distinct":
            return f"_distinct(rt, [{value} {loop}])"
        keys = "[" + ", ".join(f"((lambda {var}: {inner.expr(k.expr)}), {k.descending})" for k in node.keys) + "]"
        if func in ("max", "min") and not node.keys:
            return f"_{func}([{value} {loop}])"
        if func == "rank":
            return f"_rank([{var} {loop}], {keys})"
        if func in ("max", "min"):
            # the ranking is ascending unless a key says otherwise: max is its last element, min its first
            return f"_{'last' if func == 'max' else 'first'}(_rank([{var} {loop}], {keys}))"
        if func == "group":
            return f"_group([{var} {loop}], {keys})"
        if func == "reach":
            step = inner.expr(node.keys[0].expr)
            test = f"(lambda {var}: {cond})" if cond is not None else "None"
            return f"_reach(rt, {self.items(node.coll)}, (lambda {var}: {step}), {test})"
        raise AssertionError(f"no query form for {func}")


# What each comprehension form gives over no elements, and the zones' items whose emptiness is checked first: a
# chain of names, attributes and plainly indexed entries (no call: reading it twice does nothing more), counted
# (`_each` adds no step for no elements) or not.
_EMPTY = {"list": "[]", "count": "0", "sum": "0", "any": "False", "all": "True", "first": "None"}
_PLAIN_ITEMS = re.compile(r"^(?:_each\(rt, )?(\([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\['\w+'\]|\[[A-Za-z_]\w*\])*\)\.items)\)?$")



def small(game, node, owner: str | None = None) -> bool:
    """A comprehension cheap enough to leave uncounted: it goes through the players (at most MAX_PLAYERS)
    or a zone of a game of at most SMALL_ZONES components, and its body holds no other comprehension but
    over a zone of its own element (`garrison of d` for each d of a zone: those zones together hold each
    component at most once), no scan (`in`) and no range, and calls only functions that do none of these
    either (`light`). So it adds at most twice the game's components to the loop step, comprehension
    element or call that runs it, which is counted: comprehensions over a hand or a garrison, the hottest
    lines of real rules, cost nothing more."""
    coll = node.coll
    zones = len(game.content.entity_ids) <= SMALL_ZONES
    players = isinstance(coll, ast.Name) and getattr(coll, "ref", ("",)) == ("const", "players") or \
        isinstance(coll, ast.Call) and coll.func in ("players_from", "neighbors") and getattr(coll, "ref", ("",))[0] == "builtin"
    if owner is not None:
        ref = getattr(coll, "ref", ("",))
        if not (zones and isinstance(coll, ast.Of) and ref[0] == "zone" and isinstance(coll.arg, ast.Name)
                and coll.arg.id == owner):
            return False
    elif not (players or (zones and coll.type == "zone")):
        return False
    body = [x for x in (node.cond, node.value, *(k.expr for k in node.keys)) if x is not None]
    while body:
        n = body.pop()
        if isinstance(n, ast.Query):
            if not small(game, n, node.var):
                return False
            continue
        if _heavy(n) or isinstance(n, (ast.Call, ast.Method)) and not light(game, n):
            return False
        body.extend(ast.children(n))
    return True


def _heavy(n) -> bool:
    """A node that goes through a collection by itself: a range, a scan (`in`, but of a list written out)."""
    return isinstance(n, ast.Range) or \
        isinstance(n, ast.Binary) and n.op in ("in", "notin") and not isinstance(n.right, ast.ListLit)


def light(game, call) -> bool:
    """A call whose work is bounded by the rule text alone: a built-in, or rule functions (every card's
    function of that name, for a method) that go through no collection and call only light ones."""
    todo, seen = [call], set()
    decls = function_decls(game)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Query) or _heavy(n):
            return False
        if isinstance(n, (ast.Call, ast.Method)) and getattr(n, "ref", ("builtin",))[0] != "builtin":
            name = n.func if isinstance(n, ast.Call) else n.name
            if name in game.modified:
                return False  # its modifiers run too
            if name not in seen:
                seen.add(name)
                todo.extend(d.expr for d in decls.get(name, ()))
        todo.extend(ast.children(n))
    return True


def _each_players_zone(node) -> bool:
    """`[ZONE of q for q in players]`: one zone of each player, in seat order."""
    return isinstance(node, ast.Query) and node.func == "list" and node.cond is None and not node.keys and \
        getattr(node.coll, "ref", ("",)) == ("const", "players") and isinstance(node.coll, ast.Name) and \
        isinstance(node.value, ast.Of) and getattr(node.value, "ref", ("",))[0] == "zone" and \
        node.value.ref[1].scope == "player" and isinstance(node.value.arg, ast.Name) and node.value.arg.id == node.var


def made_list(src: str) -> bool:
    """Is this generated expression a list joined where it stands (`_concat_zone(...)`, `_concat2(...)`, also in the
    parentheses of an inlined rule function), held by nothing else?"""
    if "_concat" not in src:
        return False
    body = pyast.parse(src.strip(), mode="eval").body
    return isinstance(body, pyast.Call) and isinstance(body.func, pyast.Name) and body.func.id in ("_concat_zone", "_concat2")


def _plain_local(node) -> bool:
    """A local variable of the rule text (read twice at no cost and with no effect)."""
    return isinstance(node, ast.Name) and getattr(node, "ref", ("",))[0] == "local" and node.id != "you"


def _simple(node) -> bool:
    """An argument cheap and pure enough to be evaluated wherever the inlined body uses it."""
    if isinstance(node, (ast.Num, ast.Const, ast.EntityRef)):
        return True
    if isinstance(node, ast.Name):
        return getattr(node, "ref", ("",))[0] in ("local", "gamevar", "enum", "const") and node.id != "you"
    if isinstance(node, ast.Attr):
        return _simple(node.obj)
    return False


class Hoisted:
    """The record attributes of one menu binding read in the loops inside it: each read into a temporary once
    for each of its elements (`lines`, written by the statements compiler before the inner loop)."""

    def __init__(self, temp):
        self.temp = temp  # fn() -> a fresh temporary name
        self.names: dict = {}  # attribute -> temporary
        self.lines: list = []

    def read(self, obj: str, name: str) -> str:
        t = self.names.get(name)
        if t is None:
            t = self.names[name] = self.temp()
            self.lines.append(f"{t} = {obj}.attrs.get({literal(name)})")
        return t
