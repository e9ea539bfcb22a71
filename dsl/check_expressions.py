"""The checker's expressions: each name resolved (`node.ref`), each type inferred (`node.type`)."""
from __future__ import annotations

from dsl import ast
from dsl.diagnostics import did_you_mean
from dsl.types import ANY, BUILTINS, CONSTANTS, QUERY_ONLY, Builtin, Scope, compatible, elem, is_collection
from dsl.vocabulary import RECORD_FIELDS
from dsl.plurals import plural


class ExpressionChecks:
    """Mixed into Checker: `self` has the report, the vocabulary, the signatures and `unparsed`."""

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
            counted = {n for n, _ in node.plurals}  # said with plural forms: a number
            n = 0
            for part in node.parts:
                if not isinstance(part, str):
                    t = self.expr(part, scope)
                    if n in counted and t not in ("number", ANY):
                        self.report.error("TYPE-MISMATCH", f"a placeholder with plural forms says a number, not a {t}", part.span,
                                          "{len(cards)|# card|# cards}: the forms follow a number")
                    n += 1
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
                self.report.error("REF-ARITY", f"'{node.name}' takes {plural('en', len(params), ('# argument', '# arguments'))}, {len(node.args)} given", node.span)
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
            self.reads.add(node.id)
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
        if node.id in self.voc.zones:  # a game's zone is a name of its own (the common case: no hint to look for)
            if self.voc.zones[node.id].scope == "game":
                node.ref = ("zone", self.voc.zones[node.id])
                return "zone"
            hint = f"'{node.id}' is a zone: write '{node.id} of OWNER'"
        else:
            candidates = scope.all_names() + list(self.voc.enum_of) + list(CONSTANTS) + \
                [v for v, d in self.voc.variables.items() if d.scope == "game"] + list(self.voc.zones)
            hint = did_you_mean(node.id, candidates)
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
            self.attribute_on_record(node, name, span)
            return attr_t
        if var is not None and var.scope != "game":
            self.report.error("TYPE-MISMATCH", f"'{name}' belongs to a {var.scope}, not a {obj_t}", span)
            return var.type
        if attr_t is not None:
            self.report.error("TYPE-MISMATCH", f"'{name}' is an attribute of cards, not of a {obj_t}", span)
            return attr_t
        if name in self.voc.zones:  # `p.hand`: a zone is read with `of`, as `move c to hand` is told too
            obj = getattr(node, "obj", None)
            owner = obj.id if isinstance(obj, ast.Name) else "OWNER"
            self.report.error("REF-UNDEF", f"'{name}' is a zone, not an attribute or variable", span,
                              f"'{name}' is a zone: write '{name} of {owner}'")
            return "zone"
        candidates = list(self.voc.attributes) + list(self.voc.variables) + list(self.voc.zones) + ["id", "kind", "name"]
        self.report.error("REF-UNDEF", f"unknown attribute or variable '{name}'", span, did_you_mean(name, candidates))
        return ANY

    def attribute_on_record(self, node, name: str, span) -> None:
        """`this.x` in a card's effect or `@id.x`: the record is known, so an attribute it lacks (with no
        default) is known to read none. A warning: `x == none` may be meant."""
        if name in RECORD_FIELDS or name in self.voc.attribute_defaults or not self.records:
            return
        obj = node.obj if isinstance(node, ast.Attr) else node.arg
        if isinstance(obj, ast.Name) and obj.id == "this" and self.owner is not None:
            rid = self.owner
        elif isinstance(obj, ast.EntityRef):
            rid = obj.id if obj.id in self.records else obj.id.rpartition("_")[0]  # a copy `x_2` is of the record `x`
        else:
            return
        data = self.records.get(rid)
        if data is not None and name not in data:
            self.report.warning("ATTR-MISSING", f"'{rid}' has no attribute '{name}', and '{name}' has no default: this "
                                "reads none", span, f"give '{rid}' a {name}, or the attribute a default in game.yaml "
                                f"({name}: {{type: {self.voc.attributes.get(name, 'number')}, default: ...}})")

    def call(self, node: ast.Call, scope: Scope, allow_procedure: bool) -> str:
        for a in node.args:
            self.expr(a, scope)
        sig = self.signatures.get(node.func)
        if sig is not None:
            if sig.kind != "function" and not allow_procedure:
                self.report.error("DSL-PLACE", f"the {sig.kind} '{node.func}' can only be called as a statement", node.span,
                                  "procedures change the game; a value comes from a 'function'")
            if len(sig.params) != len(node.args):
                self.report.error("REF-ARITY", f"'{node.func}' takes {plural('en', len(sig.params), ('# argument', '# arguments'))}, {len(node.args)} given", node.span,
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
            count = plural("en", b.max_args, ("# argument", "# arguments"))  # "1 to 2 arguments", "1 argument"
            self.report.error("REF-ARITY", f"'{node.func}' takes " + (f"{b.min_args} to " if b.max_args != b.min_args else "") +
                              f"{count}, {len(node.args)} given", node.span)
        node.ref = ("builtin", node.func)
        if node.func == "variant" and node.args and isinstance(node.args[0], ast.Str):
            name = "".join(p for p in node.args[0].parts if isinstance(p, str))
            if name not in self.voc.variants:
                self.report.error("REF-UNDEF", f"unknown variant '{name}'", node.args[0].span, did_you_mean(name, self.voc.variants))
        if node.func == "combinations" and len(node.args) == 2:
            self.numeric(node.args[1].type, node.args[1].span)
        if node.func in ("sum", "count", "any", "all", "first", "distinct", "combinations") and node.args:
            if not is_collection(node.args[0].type):
                self.report.error("TYPE-MISMATCH", f"'{node.func}' goes through a list or a zone, not a {node.args[0].type}", node.args[0].span)
        if node.func in ("max", "min") and len(node.args) == 2 or node.func == "roll":
            for a in node.args:
                self.numeric(a.type, a.span)
        if node.func == "concat" and node.args:
            inner = elem(node.args[0].type) if node.args[0].type.startswith("list[") else ANY
            return f"list[{elem(inner)}]" if inner.startswith("list[") or inner == "zone" else "list[any]"
        return self.returns(b, node.args[0].type if node.args else ANY, node.func, len(node.args))

    def returns(self, b: Builtin, first: str, func: str, nargs: int = 1) -> str:
        if func == "combinations":  # lists of elements of the first argument
            return f"list[list[{elem(first)}]]"
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
