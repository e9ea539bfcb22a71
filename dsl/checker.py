"""Resolves every name of the rule text against the game's vocabulary and checks arity and types.

The checker annotates nodes with what a name turned out to be (`node.ref`), so the
compiler never has to resolve names again. Types are simple strings (dsl/types.py).
"""
from __future__ import annotations

from dsl import ast
from dsl.check_expressions import ExpressionChecks
from dsl.check_statements import StatementChecks, _returns_value, _statements
from dsl.diagnostics import Report, did_you_mean
from dsl.types import ANY, BUILTINS, Scope, Signature, unify
from dsl.vocabulary import Vocabulary
from dsl.plurals import plural


class Checker(StatementChecks, ExpressionChecks):
    """Declarations here; statements in check_statements.py, expressions in check_expressions.py."""

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
        self.records: dict = {}  # record id -> its data (defaults filled in), set by the loader: ATTR-MISSING
        self.owner: str | None = None  # the record whose effect is being checked
        self.reads: set = set()  # the locals read by the ability being checked (DSL-UNUSED, dsl/lint.py)

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
            self.owner = module.owner
            for decl in module.decls:
                self.check_decl(decl, module.owner is not None, self.base_scope(module.owner is not None))
        self.owner = None

    def base_scope(self, in_card: bool) -> Scope:
        names: dict = {}
        if in_card:
            names["this"] = "entity"
            names["you"] = "player"
        return Scope(names)

    def check_decl(self, decl, in_card: bool, scope: Scope) -> None:
        saved_loops, self.loops = self.loops, 0
        saved_reads, self.reads = self.reads, set()
        try:
            self._check_decl(decl, in_card, scope)
        finally:
            self.loops = saved_loops
            decl.reads = self.reads  # what an ability reads, its `until` abilities included
            self.reads = saved_reads | self.reads

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
            self.check_zones(decl, in_card)
            inner = self.pattern_scope(decl, decl.event, scope, ("procedure", "event"))
            if decl.cond is not None:
                self.expect(decl.cond, inner, "bool")
            self.check_timing(decl)
            self.check_block(decl.body, inner, in_proc=False)
        elif isinstance(decl, ast.Modifier):
            self.check_zones(decl, in_card)
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

    def check_zones(self, decl, in_card: bool) -> None:
        """`in ZONE, ...` after a pattern: where a card's ability works (in place of its kind's active_in)."""
        if not decl.zones:
            return
        if not in_card:
            self.report.error("DSL-PLACE", "only a card's ability can say in which zones it works", decl.span,
                              "abilities of rules text always apply; an 'until' ability lasts until its event")
            return
        for z in decl.zones:
            if z not in self.voc.zones:
                self.report.error("REF-UNDEF", f"unknown zone '{z}'", decl.span, did_you_mean(z, self.voc.zones))

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
            self.report.error("REF-ARITY", f"'{event}' has {plural('en', len(sig.params), ('# parameter', '# parameters'))}, the pattern names {len(decl.pattern)}",
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
