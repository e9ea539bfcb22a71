"""The checker's statements: each statement's names, types and place (loops, procedures, abilities)."""
from __future__ import annotations

from dsl import ast
from dsl.diagnostics import did_you_mean
from dsl.types import ANY, Scope, Signature, compatible, elem


class StatementChecks:
    """Mixed into Checker: `self` has the report, the vocabulary, the signatures and the expression checks."""

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
        elif isinstance(s, ast.Show):
            t = self.expr(s.what, scope)
            if t not in (ANY, "entity", "list[entity]", "zone"):
                self.report.error("TYPE-MISMATCH", f"'show' needs components, not a {t}", s.what.span)
            self.expect(s.to, scope, "player")
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
            if s.ask is not None:  # asked before the choice: the chosen name is not bound in it
                self.expr(s.ask, scope)
            scope.names[s.var] = elem(ct) if s.qty_kind is None else f"list[{elem(ct)}]"
        elif isinstance(s, ast.ChooseOrder):
            ct = self.collection(s.coll, scope)
            if s.by is not None:
                self.expect(s.by, scope, "player")
            if s.ask is not None:
                self.expr(s.ask, scope)
            self.bind(scope, s.var, ct if ct.startswith("list[") else f"list[{elem(ct)}]", s.span)
        elif isinstance(s, ast.Menu):
            if s.by is not None:
                self.expect(s.by, scope, "player")
            if s.ask is not None:
                self.expr(s.ask, scope)
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
                if opt.ask is not None:  # the option in words: its bound names may be shown
                    self.expr(opt.ask, inner)
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
