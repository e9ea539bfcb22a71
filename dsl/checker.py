"""Resolves every name of the rule text against the game's vocabulary and checks arity and types.

The checker annotates nodes with what a name turned out to be (`node.ref`), so the
compiler never has to resolve names again. Types are simple strings: number, bool,
text, player, entity, zone, map, any, list[T], or the name of an enum.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from dsl import ast
from dsl.diagnostics import Report, did_you_mean
from dsl.vocabulary import Vocabulary

ANY = "any"


@dataclass(frozen=True)
class Builtin:
    min_args: int
    max_args: int
    returns: str  # a type, or "arg0"/"elem0" to follow the first argument
    query: bool = False  # accepts the `x in coll where ...` forms


BUILTINS: dict[str, Builtin] = {
    "count": Builtin(1, 1, "number", True),
    "len": Builtin(1, 1, "number"),
    "sum": Builtin(1, 1, "number", True),
    "max": Builtin(1, 2, "number", True),
    "min": Builtin(1, 2, "number", True),
    "any": Builtin(1, 1, "bool", True),
    "all": Builtin(1, 1, "bool", True),
    "first": Builtin(1, 1, "elem0", True),
    "rank": Builtin(1, 1, "arg0", True),
    "group": Builtin(1, 1, "list[any]", True),
    "reach": Builtin(1, 1, "arg0", True),
    "distinct": Builtin(1, 1, "arg0", True),
    "concat": Builtin(1, 1, "list[any]"),
    "top": Builtin(1, 2, "entity"),
    "bottom": Builtin(1, 2, "entity"),
    "random": Builtin(1, 2, "elem0"),
    "next": Builtin(1, 1, "player"),
    "prev": Builtin(1, 1, "player"),
    "neighbors": Builtin(1, 1, "list[player]"),
    "distance": Builtin(2, 2, "number"),
    "players_from": Builtin(1, 1, "list[player]"),
    "holder": Builtin(1, 1, "player"),
    "zone_of": Builtin(1, 1, "zone"),
    "is_in": Builtin(2, 2, "bool"),
    "abs": Builtin(1, 1, "number"),
    "seat": Builtin(1, 1, "number"),
    "variant": Builtin(1, 1, "bool"),
    "face_down": Builtin(1, 1, "bool"),
    "keys": Builtin(1, 1, "list[any]"),
    "place_of": Builtin(1, 1, "entity"),
    "snapshot": Builtin(1, 1, "arg0"),
}
QUERY_ONLY = {"rank", "group", "reach"}
CONSTANTS = {"players": "list[player]", "player_count": "number", "winners": "list[player]"}


@dataclass
class Signature:
    name: str
    params: list  # list[ast.Param]
    kind: str  # "procedure", "event" or "function"
    decl: object = None
    returns: str = "any"


@dataclass
class Scope:
    names: dict = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self):
        s, out = self, []
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self) -> "Scope":
        return Scope({}, self)


def elem(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    if t == "zone":
        return "entity"
    return ANY


def is_collection(t: str) -> bool:
    return t in (ANY, "zone", "map") or t.startswith("list[")


def unify(types) -> str:
    """One type for values that may be any of `types` (branches, return statements); none gives way."""
    known = {t for t in types if t != "none"}
    if len(known) == 1:
        return known.pop()
    if not known:
        return "none" if types else ANY
    if all(t.startswith("list[") for t in known):
        return "list[any]"
    return ANY


class Checker:
    def __init__(self, voc: Vocabulary, entity_ids: set, report: Report, unparsed: set | None = None):
        self.voc = voc
        self.entity_ids = entity_ids
        self.report = report
        self.signatures: dict[str, Signature] = {}
        self.card_methods: dict[str, list] = {}  # name -> params, from card effects and the vocabulary
        # Names declared in texts that did not parse: their uses are echoes of that syntax error, not errors.
        self.unparsed: set = set(unparsed or ())
        self._returns: list | None = None  # types of the `return` values of the procedure being checked
        self.loops = 0  # loops around the statement being checked, within its own body

    # ------------------------------------------------------------ declarations
    def declare(self, modules: list) -> None:
        """First pass: collect every procedure, event and function, so order of files never matters."""
        for name, f in self.voc.card_functions.items():
            self.card_methods[name] = [ast.Param(None, n, t) for n, t in f.params]
        for module in modules:
            for decl in module.decls:
                if module.owner is not None:
                    if isinstance(decl, ast.Function):
                        self.card_methods.setdefault(decl.name, decl.params)
                    elif isinstance(decl, (ast.Procedure, ast.EventDecl)):
                        self.report.error("DSL-PLACE", f"a card's effect cannot declare the {type(decl).__name__.lower()} '{decl.name}'",
                                          decl.span, "declare procedures and events in a rules file")
                    continue
                if isinstance(decl, (ast.Procedure, ast.EventDecl, ast.Function)):
                    kind = {"Procedure": "procedure", "EventDecl": "event", "Function": "function"}[type(decl).__name__]
                    if decl.name in self.signatures:
                        self.report.error("REF-DUP", f"'{decl.name}' is declared twice", decl.span,
                                          f"the first is at {self.signatures[decl.name].decl.span}")
                        continue
                    if decl.name in BUILTINS or decl.name in self.voc.zones or decl.name in self.voc.variables:
                        self.report.error("REF-DUP", f"'{decl.name}' is already the name of a built-in, zone or variable", decl.span)
                        continue
                    self.signatures[decl.name] = Signature(decl.name, decl.params, kind, decl)
                    self.known_types(decl.params)
            if module.owner is not None:
                for decl in module.decls:
                    if isinstance(decl, ast.Function):
                        self.known_types(decl.params)

    def known_types(self, params: list) -> None:
        """Report unknown parameter types once; the parameter then counts as `any`, so its uses do not echo it."""
        for p in params:
            if p.type and not self.voc.type_ok(p.type):
                self.report.error("TYPE-UNKNOWN", f"unknown type '{p.type}'", p.span, self.type_hint(p.type))
                p.type = None

    def type_hint(self, t: str) -> str | None:
        return did_you_mean(t, ["number", "bool", "text", "player", "entity", "zone", "any", *self.voc.enums])

    def bind(self, scope: Scope, name: str, t: str, span) -> None:
        """Declare a local; a local named like an enum value would hide that value everywhere below."""
        if name in self.voc.enum_of and name not in ("this", "you", "_"):
            what = "kind" if self.voc.enum_of[name] == "kind" else f"value of the enum '{self.voc.enum_of[name]}'"
            self.report.error("DSL-SHADOW", f"'{name}' is a {what}: a local of that name would hide it", span,
                              f"choose another name, e.g. '{name}_'")
        scope.names[name] = t

    def check_modules(self, modules: list) -> None:
        # Functions first, twice, so that calls know the type a function returns wherever it is declared.
        quiet = Report()
        saved, self.report = self.report, quiet
        returning = [d for m in modules if m.owner is None for d in m.decls
                     if isinstance(d, ast.Procedure) and d.name in self.signatures and _returns_value(d.body)]
        for _ in range(2):
            for module in modules:
                if module.owner is None:
                    for decl in module.decls:
                        if isinstance(decl, ast.Function) and decl.name in self.signatures:
                            self.signatures[decl.name].returns = self.expr(decl.expr, self.param_scope(decl.params, self.base_scope(False)))
            for decl in returning:
                self.check_decl(decl, False, self.base_scope(False))
        self.report = saved
        for module in modules:
            for decl in module.decls:
                self.check_decl(decl, module.owner is not None, self.base_scope(module.owner is not None))

    def base_scope(self, in_card: bool) -> Scope:
        names: dict = {}
        if in_card:
            names["this"] = "entity"
            names["you"] = "player"
        return Scope(names)

    def check_decl(self, decl, in_card: bool, scope: Scope) -> None:
        saved_loops, self.loops = self.loops, 0
        try:
            self._check_decl(decl, in_card, scope)
        finally:
            self.loops = saved_loops

    def _check_decl(self, decl, in_card: bool, scope: Scope) -> None:
        if isinstance(decl, ast.Watcher):
            if in_card:
                self.report.error("DSL-PLACE", "'whenever' belongs in a rules file, not in a card's effect", decl.span)
            self.expect(decl.cond, scope, "bool")
            for node in _statements(decl.body):
                if isinstance(node, (ast.Choose, ast.ChooseOrder, ast.Menu, ast.Secretly)):
                    self.report.error("DSL-PLACE", "a 'whenever' body cannot ask for a decision", node.span,
                                      "it runs between steps of the game, where nobody is being asked")
            self.check_block(decl.body, scope.child(), in_proc=False)
        elif isinstance(decl, ast.Procedure):
            saved, self._returns = self._returns, []
            self.check_block(decl.body, self.param_scope(decl.params, scope), in_proc=True)
            sig = self.signatures.get(decl.name)
            if sig is not None and sig.decl is decl:
                sig.returns = unify(self._returns)
            self._returns = saved
        elif isinstance(decl, ast.EventDecl):
            pass
        elif isinstance(decl, ast.Function):
            self.expr(decl.expr, self.param_scope(decl.params, scope))
        elif isinstance(decl, (ast.Trigger, ast.Replacement)):
            inner = self.pattern_scope(decl, decl.event, scope, ("procedure", "event"))
            if decl.cond is not None:
                self.expect(decl.cond, inner, "bool")
            self.check_timing(decl)
            self.check_block(decl.body, inner, in_proc=False)
        elif isinstance(decl, ast.Modifier):
            inner = self.pattern_scope(decl, decl.func, scope, ("function",))
            inner.names["value"] = self.function_type(decl.func)
            if decl.cond is not None:
                self.expect(decl.cond, inner, "bool")
            self.check_timing(decl)
            self.expr(decl.expr, inner)

    def function_type(self, name: str) -> str:
        """The type a function returns, as inferred from its body (any when unknown)."""
        sig = self.signatures.get(name)
        return sig.returns if sig is not None else ANY

    def check_timing(self, decl) -> None:
        if decl.timing is not None and decl.timing not in self.voc.priority.timings:
            self.report.error("REF-UNDEF", f"unknown timing class '{decl.timing}'", decl.span,
                              did_you_mean(decl.timing, self.voc.priority.timings) or
                              f"the game declares: {', '.join(self.voc.priority.timings)}")

    def param_scope(self, params: list, scope: Scope) -> Scope:
        inner = scope.child()
        for p in params:
            self.bind(inner, p.name, p.type or ANY, p.span)
        return inner

    def pattern_scope(self, decl, event: str, scope: Scope, kinds: tuple) -> Scope:
        inner = scope.child()
        sig = self.signatures.get(event)
        if sig is None or sig.kind not in kinds:
            what = "function" if kinds == ("function",) else "event or procedure"
            candidates = [s.name for s in self.signatures.values() if s.kind in kinds]
            if event not in self.unparsed:
                self.report.error("REF-UNDEF", f"unknown {what} '{event}'", decl.span, did_you_mean(event, candidates))
            for n in decl.pattern:
                if n not in ("_", "this"):
                    inner.names[n] = ANY
            return inner
        decl.signature = sig
        if len(decl.pattern) != len(sig.params):
            self.report.error("REF-ARITY", f"'{event}' has {len(sig.params)} parameter(s), the pattern names {len(decl.pattern)}",
                              decl.span, f"{event}({', '.join(p.name for p in sig.params)})")
        for n, p in zip(decl.pattern, sig.params):
            if n == "_":
                continue
            if n == "this" and scope.lookup("this") is None:
                self.report.error("REF-UNDEF", "'this' is only known in a card's effect", decl.span)
            if n not in ("this",):
                self.bind(inner, n, p.type or ANY, decl.span)
        return inner

    # ------------------------------------------------------------ statements
    def check_block(self, stmts: list, scope: Scope, in_proc: bool) -> None:
        for s in stmts:
            self.stmt(s, scope, in_proc)

    def stmt(self, s, scope: Scope, in_proc: bool) -> None:
        if isinstance(s, (ast.Choose, ast.ChooseOrder, ast.Menu)) and s.by is None and scope.lookup("you") is None:
            self.report.error("DSL-PLACE", "nobody is named to make this choice", s.span,
                              "add 'by PLAYER' (in a card's text the default is 'you')")
        if isinstance(s, ast.Let):
            if isinstance(s.value, ast.Call) and self.signatures.get(s.value.func, Signature("", [], "")).kind == "procedure":
                t = self.call(s.value, scope, allow_procedure=True)
            else:
                t = self.expr(s.value, scope)
            declared = getattr(s, "type", None)
            if declared is not None:
                if not self.voc.type_ok(declared):
                    self.report.error("TYPE-UNKNOWN", f"unknown type '{declared}'", s.span, self.type_hint(declared))
                    declared = ANY
                elif not compatible(declared, t):
                    self.report.error("TYPE-MISMATCH", f"'{s.name}' is declared a {declared}, but the value is a {t}", s.value.span)
                t = declared
            self.bind(scope, s.name, t, s.span)
        elif isinstance(s, ast.Assign):
            self.assign(s, scope)
        elif isinstance(s, ast.CallStmt):
            if isinstance(s.call, ast.Call):
                self.call(s.call, scope, allow_procedure=True)
            else:
                self.expr(s.call, scope)
        elif isinstance(s, ast.Move):
            t = self.expr(s.what, scope)
            if t not in (ANY, "entity", "zone") and not t.startswith("list["):
                self.report.error("TYPE-MISMATCH", f"only cards and lists of cards can be moved, not a {t}", s.what.span)
            self.expect(s.dest, scope, "zone")
        elif isinstance(s, ast.Shuffle):
            self.expect(s.zone, scope, "zone")
        elif isinstance(s, ast.Log):
            self.expr(s.message, scope)
            if s.to is not None:
                self.expect(s.to, scope, "player")
        elif isinstance(s, ast.Return):
            if not in_proc:
                self.report.error("DSL-PLACE", "'return' belongs in a procedure", s.span)
            if s.value is not None:
                t = self.expr(s.value, scope)
                if self._returns is not None:
                    self._returns.append(t)
        elif isinstance(s, ast.Win):
            t = self.expr(s.who, scope)
            if t not in (ANY, "player", "list[player]"):
                self.report.error("TYPE-MISMATCH", f"'win' needs a player or a list of players, not a {t}", s.who.span)
        elif isinstance(s, ast.Reveal):
            self.expr(s.what, scope)
        elif isinstance(s, ast.Pass):
            pass
        elif isinstance(s, (ast.Break, ast.Continue)):
            if not self.loops:
                word = "break" if isinstance(s, ast.Break) else "continue"
                self.report.error("DSL-PLACE", f"'{word}' belongs inside a loop (for, while or repeat)", s.span,
                                  "a 'secretly' part or an ability is not inside the loop around it")
        elif isinstance(s, ast.Choose):
            ct = self.collection(s.coll, scope)
            inner = scope.child()
            self.bind(inner, s.var, elem(ct), s.span)
            if s.cond is not None:
                self.expect(s.cond, inner, "bool")
            if s.by is not None:
                self.expect(s.by, scope, "player")
            if s.qty is not None:
                self.expect(s.qty, scope, "number")
            scope.names[s.var] = elem(ct) if s.qty_kind is None else f"list[{elem(ct)}]"
        elif isinstance(s, ast.ChooseOrder):
            ct = self.collection(s.coll, scope)
            if s.by is not None:
                self.expect(s.by, scope, "player")
            self.bind(scope, s.var, ct if ct.startswith("list[") else f"list[{elem(ct)}]", s.span)
        elif isinstance(s, ast.Menu):
            if s.by is not None:
                self.expect(s.by, scope, "player")
            seen = set()
            for opt in s.options:
                if opt.name in seen:
                    self.report.error("REF-DUP", f"two options are named '{opt.name}'", opt.span)
                seen.add(opt.name)
                inner = scope.child()
                for b in opt.bindings:
                    bt = self.collection(b.coll, inner)
                    self.bind(inner, b.var, elem(bt), b.span)
                    if b.cond is not None:
                        self.expect(b.cond, inner, "bool")
                bound = [b.var for b in opt.bindings]
                for p in opt.params:
                    if p not in bound:
                        self.report.error("REF-UNDEF", f"the option names '{p}', which no 'for' clause binds", opt.span,
                                          did_you_mean(p, bound))
                if opt.cond is not None:
                    self.expect(opt.cond, inner, "bool")
                self.check_block(opt.body, inner, in_proc)
            if s.otherwise is not None:
                self.check_block(s.otherwise, scope.child(), in_proc)
        elif isinstance(s, ast.If):
            for cond, body in s.branches:
                self.expect(cond, scope, "bool")
                self.check_block(body, scope.child(), in_proc)
            if s.other is not None:
                self.check_block(s.other, scope.child(), in_proc)
        elif isinstance(s, ast.For):
            inner = scope.child()
            self.bind(inner, s.var, elem(self.collection(s.coll, scope)), s.span)
            if s.cond is not None:
                self.expect(s.cond, inner, "bool")
            self.loop_block(s.body, inner, in_proc)
        elif isinstance(s, ast.While):
            self.expect(s.cond, scope, "bool")
            self.loop_block(s.body, scope.child(), in_proc)
        elif isinstance(s, ast.Repeat):
            self.expect(s.count, scope, "number")
            self.loop_block(s.body, scope.child(), in_proc)
        elif isinstance(s, ast.Secretly):
            inner = scope.child()
            self.bind(inner, s.var, elem(self.collection(s.coll, scope)), s.span)
            self.loop_block(s.body, inner, in_proc, loops=0)
        elif isinstance(s, ast.Until):
            sig = self.signatures.get(s.event)
            if (sig is None or sig.kind == "function") and s.event not in self.unparsed:
                self.report.error("REF-UNDEF", f"unknown event '{s.event}'", s.span,
                                  did_you_mean(s.event, [x.name for x in self.signatures.values() if x.kind != "function"]))
            for d in s.decls:
                if isinstance(d, (ast.Procedure, ast.EventDecl, ast.Function)):
                    self.report.error("DSL-PLACE", "only triggers, replacements and modifiers can last 'until' an event", d.span)
                else:
                    self.check_decl(d, False, scope.child())

    def loop_block(self, stmts: list, scope: Scope, in_proc: bool, loops: int | None = None) -> None:
        """A loop's body (where break and continue belong), or with loops=0 a body run on its own."""
        saved = self.loops
        self.loops = saved + 1 if loops is None else loops
        try:
            self.check_block(stmts, scope, in_proc)
        finally:
            self.loops = saved

    def assign(self, s: ast.Assign, scope: Scope) -> None:
        value_t = self.expr(s.value, scope)
        target = s.target
        if isinstance(target, ast.Name):
            known = scope.lookup(target.id)
            if known is not None:
                target.ref = ("local",)
                if s.op != "=":
                    self.numeric(known, target.span)
                return
            var = self.voc.variables.get(target.id)
            if var is not None and var.scope == "game":
                target.ref = ("gamevar", var)
                self.assignable(var.type, value_t, s)
                return
            self.report.error("REF-UNDEF", f"unknown name '{target.id}'", target.span,
                              did_you_mean(target.id, scope.all_names() + [v for v, d in self.voc.variables.items() if d.scope == "game"])
                              or "declare it first with 'let'")
        elif isinstance(target, ast.Attr):
            owner_t = self.expr(target.obj, scope)
            var = self.voc.variables.get(target.name)
            if var is None or var.scope == "game":
                candidates = [v for v, d in self.voc.variables.items() if d.scope != "game"]
                hint = did_you_mean(target.name, candidates)
                if self.voc.attribute_type(target.name) is not None:
                    hint = "attributes come from the card's record and cannot change; declare a variable with scope entity"
                self.report.error("REF-UNDEF", f"'{target.name}' is not a player or entity variable", target.span, hint)
                return
            expected_owner = "player" if var.scope == "player" else "entity"
            if owner_t not in (ANY, expected_owner):
                self.report.error("TYPE-MISMATCH", f"'{target.name}' belongs to a {expected_owner}, not a {owner_t}", target.obj.span)
            target.ref = ("var", var)
            self.assignable(var.type, value_t, s)
        elif isinstance(target, ast.Index):
            t = self.expr(target.obj, scope)
            self.expr(target.key, scope)
            if t not in (ANY, "map"):
                self.report.error("TYPE-MISMATCH", f"only maps can be assigned by key, not a {t}", target.obj.span)

    def assignable(self, var_t: str, value_t: str, s: ast.Assign) -> None:
        if s.op != "=":
            self.numeric(var_t, s.target.span)
            self.numeric(value_t, s.value.span)
        elif not compatible(var_t, value_t):
            self.report.error("TYPE-MISMATCH", f"cannot store a {value_t} in a {var_t} variable", s.value.span)

    # ------------------------------------------------------------ expressions
    def expect(self, node, scope: Scope, t: str) -> str:
        got = self.expr(node, scope)
        if not compatible(t, got):
            self.report.error("TYPE-MISMATCH", f"expected a {t} here, found a {got}", node.span)
        return got

    def numeric(self, t: str, span) -> None:
        if t not in (ANY, "number"):
            self.report.error("TYPE-MISMATCH", f"expected a number, found a {t}", span)

    def collection(self, node, scope: Scope) -> str:
        t = self.expr(node, scope)
        if not is_collection(t):
            self.report.error("TYPE-MISMATCH", f"expected a list or a zone to go through, found a {t}", node.span)
            return ANY
        return t

    def expr(self, node, scope: Scope) -> str:
        t = self._expr(node, scope)
        node.type = t
        return t

    def _expr(self, node, scope: Scope) -> str:
        if isinstance(node, ast.Num):
            return "number"
        if isinstance(node, ast.Str):
            for part in node.parts:
                if not isinstance(part, str):
                    self.expr(part, scope)
            return "text"
        if isinstance(node, ast.Const):
            return "bool" if isinstance(node.value, bool) else "none"
        if isinstance(node, ast.Name):
            return self.name(node, scope)
        if isinstance(node, ast.EntityRef):
            if node.id not in self.entity_ids:
                self.report.error("REF-UNDEF", f"no card or component has the id '{node.id}'", node.span,
                                  did_you_mean(node.id, self.entity_ids))
            return "entity"
        if isinstance(node, ast.Call):
            return self.call(node, scope, allow_procedure=False)
        if isinstance(node, ast.Query):
            return self.query(node, scope)
        if isinstance(node, ast.Attr):
            return self.attr(node, scope)
        if isinstance(node, ast.Method):
            self.expect(node.obj, scope, "entity")
            params = self.card_methods.get(node.name)
            if params is None and node.name in self.unparsed:
                for a in node.args:
                    self.expr(a, scope)
                return ANY
            if params is None:
                self.report.error("REF-UNDEF", f"no card defines the function '{node.name}'", node.span,
                                  did_you_mean(node.name, self.card_methods))
            elif len(params) != len(node.args):
                self.report.error("REF-ARITY", f"'{node.name}' takes {len(params)} argument(s), {len(node.args)} given", node.span)
            for a in node.args:
                self.expr(a, scope)
            f = self.voc.card_functions.get(node.name)
            return f.returns if f else ANY
        if isinstance(node, ast.Index):
            t = self.expr(node.obj, scope)
            k = self.expr(node.key, scope)
            if t.startswith("list["):
                if k not in (ANY, "number", "player"):
                    self.report.error("TYPE-MISMATCH", f"a list is indexed by a number or a player's seat, not a {k}", node.key.span)
                return elem(t)
            if t not in (ANY, "map", "zone"):
                self.report.error("TYPE-MISMATCH", f"a {t} cannot be indexed", node.obj.span)
            return "entity" if t == "zone" else ANY
        if isinstance(node, ast.Of):
            return self.of(node, scope)
        if isinstance(node, ast.Unary):
            if node.op == "not":
                self.expect(node.operand, scope, "bool")
                return "bool"
            self.numeric(self.expr(node.operand, scope), node.operand.span)
            return "number"
        if isinstance(node, ast.Binary):
            return self.binary(node, scope)
        if isinstance(node, ast.Range):
            self.expect(node.low, scope, "number")
            self.expect(node.high, scope, "number")
            return "list[number]"
        if isinstance(node, ast.Suppose):
            for what, dest in node.moves:
                t = self.expr(what, scope)
                if t not in (ANY, "entity", "zone") and not t.startswith("list["):
                    self.report.error("TYPE-MISMATCH", f"only cards and lists of cards can be moved, not a {t}", what.span)
                self.expect(dest, scope, "zone")
            return self.expr(node.expr, scope)
        if isinstance(node, ast.IfExpr):
            self.expect(node.cond, scope, "bool")
            a = self.expr(node.then, scope)
            b = self.expr(node.other, scope)
            return a if a == b else (a if b == "none" else (b if a == "none" else ANY))
        if isinstance(node, ast.ListLit):
            types = {self.expr(i, scope) for i in node.items}
            return f"list[{types.pop()}]" if len(types) == 1 else "list[any]"
        if isinstance(node, ast.MapLit):
            return "map"
        raise AssertionError(f"unknown node {node!r}")

    def name(self, node: ast.Name, scope: Scope) -> str:
        t = scope.lookup(node.id)
        if t is not None:
            node.ref = ("local",)
            return t
        var = self.voc.variables.get(node.id)
        if var is not None and var.scope == "game":
            node.ref = ("gamevar", var)
            return var.type
        if node.id in CONSTANTS:
            node.ref = ("const", node.id)
            return CONSTANTS[node.id]
        if node.id in self.voc.enum_of:
            node.ref = ("enum", node.id)
            return self.voc.enum_of[node.id]
        if node.id in ("you", "this"):
            self.report.error("REF-UNDEF", f"'{node.id}' has no meaning here", node.span,
                              "it is known in a card's effect, or where a trigger's pattern binds it")
            return ANY
        if node.id in self.unparsed:
            return ANY
        candidates = scope.all_names() + list(self.voc.enum_of) + list(CONSTANTS) + \
            [v for v, d in self.voc.variables.items() if d.scope == "game"] + list(self.voc.zones)
        hint = did_you_mean(node.id, candidates)
        if node.id in self.voc.zones:
            hint = f"'{node.id}' is a zone: write '{node.id} of OWNER'" if self.voc.zones[node.id].scope != "game" else None
            if hint is None:
                node.ref = ("zone", self.voc.zones[node.id])
                return "zone"
        self.report.error("REF-UNDEF", f"unknown name '{node.id}'", node.span, hint)
        return ANY

    def of(self, node: ast.Of, scope: Scope) -> str:
        arg_t = self.expr(node.arg, scope)
        zone = self.voc.zones.get(node.name)
        if zone is not None:
            owner = {"player": "player", "entity": "entity"}.get(zone.scope)
            if owner is None:
                self.report.error("TYPE-MISMATCH", f"the zone '{node.name}' belongs to the whole game: write just '{node.name}'", node.span)
            elif not compatible(owner, arg_t):
                self.report.error("TYPE-MISMATCH", f"'{node.name}' belongs to a {owner}, not a {arg_t}", node.arg.span)
            node.ref = ("zone", zone)
            return "zone"
        return self.member(node, node.name, arg_t, node.span)

    def attr(self, node: ast.Attr, scope: Scope) -> str:
        obj_t = self.expr(node.obj, scope)
        return self.member(node, node.name, obj_t, node.span)

    def member(self, node, name: str, obj_t: str, span) -> str:
        """`x.name`: a player variable, an entity variable or a record attribute, told apart by x's type."""
        var = self.voc.variables.get(name)
        attr_t = self.voc.attribute_type(name)
        if obj_t == ANY and var is not None and var.scope != "game" and attr_t is not None:
            self.report.error("TYPE-AMBIGUOUS", f"'{name}' is both a {var.scope} variable and an attribute, "
                              "and the checker cannot tell which this value has", span,
                              "give the parameter a type (p: player, c: entity), or declare one: let x: entity = ...")
            node.ref = ("var", var)
            return ANY
        if var is not None and var.scope == "player" and obj_t in (ANY, "player"):
            node.ref = ("var", var)
            return var.type
        if var is not None and var.scope == "entity" and obj_t in (ANY, "entity"):
            node.ref = ("var", var)
            return var.type
        if attr_t is not None and obj_t in (ANY, "entity"):
            node.ref = ("attr", name)
            return attr_t
        if var is not None and var.scope != "game":
            self.report.error("TYPE-MISMATCH", f"'{name}' belongs to a {var.scope}, not a {obj_t}", span)
            return var.type
        if attr_t is not None:
            self.report.error("TYPE-MISMATCH", f"'{name}' is an attribute of cards, not of a {obj_t}", span)
            return attr_t
        candidates = list(self.voc.attributes) + list(self.voc.variables) + list(self.voc.zones) + ["id", "kind", "name"]
        self.report.error("REF-UNDEF", f"unknown attribute or variable '{name}'", span, did_you_mean(name, candidates))
        return ANY

    def call(self, node: ast.Call, scope: Scope, allow_procedure: bool) -> str:
        for a in node.args:
            self.expr(a, scope)
        sig = self.signatures.get(node.func)
        if sig is not None:
            if sig.kind != "function" and not allow_procedure:
                self.report.error("DSL-PLACE", f"the {sig.kind} '{node.func}' can only be called as a statement", node.span,
                                  "procedures change the game; a value comes from a 'function'")
            if len(sig.params) != len(node.args):
                self.report.error("REF-ARITY", f"'{node.func}' takes {len(sig.params)} argument(s), {len(node.args)} given", node.span,
                                  f"{node.func}({', '.join(p.name for p in sig.params)})")
            for p, a in zip(sig.params, node.args):
                if p.type and not compatible(p.type, a.type):
                    self.report.error("TYPE-MISMATCH", f"'{p.name}' of '{node.func}' expects a {p.type}, found a {a.type}", a.span)
            node.ref = (sig.kind, sig)
            return sig.returns
        b = BUILTINS.get(node.func)
        if b is None and node.func in self.unparsed:
            return ANY
        if b is None:
            candidates = list(BUILTINS) + list(self.signatures)
            self.report.error("REF-UNDEF", f"unknown function or procedure '{node.func}'", node.span, did_you_mean(node.func, candidates))
            return ANY
        if node.func in QUERY_ONLY:
            self.report.error("DSL-SYNTAX", f"'{node.func}' takes the form {node.func}(x in COLLECTION by KEY)", node.span)
        if not b.min_args <= len(node.args) <= b.max_args:
            self.report.error("REF-ARITY", f"'{node.func}' takes {b.min_args}" + (f" to {b.max_args}" if b.max_args != b.min_args else "") +
                              f" argument(s), {len(node.args)} given", node.span)
        node.ref = ("builtin", node.func)
        if node.func == "variant" and node.args and isinstance(node.args[0], ast.Str):
            name = "".join(p for p in node.args[0].parts if isinstance(p, str))
            if name not in self.voc.variants:
                self.report.error("REF-UNDEF", f"unknown variant '{name}'", node.args[0].span, did_you_mean(name, self.voc.variants))
        if node.func in ("sum", "count", "any", "all", "first", "distinct") and node.args:
            if not is_collection(node.args[0].type):
                self.report.error("TYPE-MISMATCH", f"'{node.func}' goes through a list or a zone, not a {node.args[0].type}", node.args[0].span)
        if node.func in ("max", "min") and len(node.args) == 2:
            for a in node.args:
                self.numeric(a.type, a.span)
        if node.func == "concat" and node.args:
            inner = elem(node.args[0].type) if node.args[0].type.startswith("list[") else ANY
            return f"list[{elem(inner)}]" if inner.startswith("list[") or inner == "zone" else "list[any]"
        return self.returns(b, node.args[0].type if node.args else ANY, node.func, len(node.args))

    def returns(self, b: Builtin, first: str, func: str, nargs: int = 1) -> str:
        if func in ("random", "top", "bottom") and nargs == 2:
            return first if first.startswith("list[") else f"list[{elem(first)}]"
        if func in ("top", "bottom"):
            return elem(first)
        if b.returns == "arg0":
            return first if first.startswith("list[") else f"list[{elem(first)}]"
        if b.returns == "elem0":
            return elem(first)
        if func in ("max", "min") and first.startswith("list["):
            return elem(first)
        return b.returns

    def query(self, node: ast.Query, scope: Scope) -> str:
        ct = self.collection(node.coll, scope)
        inner = scope.child()
        self.bind(inner, node.var, elem(ct), node.span)
        if node.cond is not None:
            self.expect(node.cond, inner, "bool")
        value_t = self.expr(node.value, inner) if node.value is not None else elem(ct)
        for k in node.keys:
            self.expr(k.expr, inner)
        if node.func == "list":
            return f"list[{value_t}]"
        b = BUILTINS.get(node.func)
        if b is None or not b.query:
            self.report.error("REF-UNDEF", f"'{node.func}' does not take the form ({node.var} in ...)", node.span,
                              did_you_mean(node.func, [n for n, x in BUILTINS.items() if x.query]))
            return ANY
        if node.keys and node.func not in ("rank", "group", "reach", "first", "max", "min", "distinct"):
            self.report.error("DSL-SYNTAX", f"'{node.func}' takes no 'by' keys", node.span)
        if node.func in ("rank", "group", "reach") and not node.keys:
            self.report.error("DSL-SYNTAX", f"'{node.func}' needs 'by' keys", node.span)
        if node.func in ("sum",) and node.value is not None:
            self.numeric(value_t, node.value.span)
        node.ref = ("builtin", node.func)
        if node.func == "group":
            return f"list[list[{value_t}]]"
        if node.func in ("rank", "reach", "distinct"):
            return f"list[{value_t}]"
        if node.func in ("first",):
            return value_t
        if node.func in ("max", "min"):
            return value_t if node.value is not None else elem(ct)
        return b.returns

    def binary(self, node: ast.Binary, scope: Scope) -> str:
        lt = self.expr(node.left, scope)
        rt = self.expr(node.right, scope)
        op = node.op
        if op in ("and", "or"):
            for t, side in ((lt, node.left), (rt, node.right)):
                if t not in (ANY, "bool"):
                    self.report.error("TYPE-MISMATCH", f"'{op}' needs true/false on both sides, found a {t}", side.span)
            return "bool"
        if op in ("in", "notin"):
            if not is_collection(rt):
                self.report.error("TYPE-MISMATCH", f"'in' needs a list or a zone on its right, found a {rt}", node.right.span)
            elif not compatible(elem(rt), lt) and not compatible(lt, elem(rt)):
                self.report.error("TYPE-MISMATCH", f"a {lt} is never in a collection of {elem(rt)}", node.span)
            return "bool"
        if op in ("==", "!="):
            if not (compatible(lt, rt) or compatible(rt, lt)):
                self.report.error("TYPE-MISMATCH", f"comparing a {lt} with a {rt} is always {'false' if op == '==' else 'true'}", node.span)
            return "bool"
        if op in ("<", "<=", ">", ">="):
            self.numeric(lt, node.left.span)
            self.numeric(rt, node.right.span)
            return "bool"
        if op == "+" and (lt.startswith("list[") or rt.startswith("list[") or "zone" in (lt, rt)):
            kinds = {elem(t) for t in (lt, rt)}
            return f"list[{kinds.pop()}]" if len(kinds) == 1 else "list[any]"
        if op == "+" and "text" in (lt, rt):
            return "text"
        self.numeric(lt, node.left.span)
        self.numeric(rt, node.right.span)
        return "number"


def _statements(stmts: list):
    """Every statement in a body, nested ones included (not inside `until` abilities)."""
    for s in stmts:
        yield s
        if not isinstance(s, ast.Until):
            for child in ast.children(s):
                if isinstance(child, ast.Stmt.__args__):
                    yield from _statements([child])


def _returns_value(stmts: list) -> bool:
    """Does a procedure body hold a `return EXPR` (at any depth, outside `until` abilities)?"""
    for s in stmts:
        if isinstance(s, ast.Return) and s.value is not None:
            return True
        if isinstance(s, ast.Until):
            continue
        for child in ast.children(s):
            if isinstance(child, ast.Node) and not isinstance(child, ast.Until) and _returns_value([child]):
                return True
    return False


def compatible(expected: str, got: str) -> bool:
    """May a value of type `got` stand where `expected` is wanted?"""
    if expected == got or ANY in (expected, got) or got == "none":
        return True
    if expected.startswith("list[") and got.startswith("list["):
        return compatible(elem(expected), elem(got))
    if expected.startswith("list[") and got == "zone":
        return compatible(elem(expected), "entity")
    if expected == "list[any]" or got == "list[any]":
        return expected.startswith("list[") or got.startswith("list[")
    return False
