"""A game's declarations to one generated Python module, compiled once at load.

First a fixpoint over the call graph finds which procedures can reach a decision: only those
become generator functions. Then each procedure, function, card function and ability is written
as a Python function; the module is compiled with empty __builtins__ into the namespace of
`library.namespace()`, and the resulting callables are filed in the CompiledGame.
"""
from __future__ import annotations

import re

from dsl import ast
from dsl.diagnostics import Diagnostic, DiagnosticError
from dsl.loader import GameContent, all_decls
from interpreter.codegen import library
from interpreter.codegen.chance import draws_here as _draws, drawn_before
from interpreter.codegen.expressions import Expressions
from interpreter.codegen.facts import of_one_player
from interpreter.codegen.model import CompiledGame, Func, Hook, Proc
from interpreter.codegen.zone_pure import root_zone
from interpreter.codegen.source import FUNC, LOCAL, PROC, Writer, literal, mangle, run_source
from interpreter.codegen.statements import Statements, count_loop

_KIND = {ast.Trigger: "trigger", ast.Replacement: "replacement", ast.Modifier: "modifier"}


def compile_game(content: GameContent, for_coverage: bool = False) -> CompiledGame:
    unit = Unit(CompiledGame(content, for_coverage=for_coverage), f"<rules {content.id}>")
    unit.analyse(list(all_decls(content.modules)))  # nested `until` abilities count too
    unit.declare([(m, d) for m in content.modules for d in m.decls])
    unit.finish()
    if content.bots.evaluation is not None:  # the manifest's `bots: evaluation:` (dsl.bots_spec), for the bots
        unit.game.evaluation = compile_expression(unit.game, content.bots.evaluation, ("you",))
    return unit.game


def compile_statements(game: CompiledGame, stmts: list):
    """Extra statements (a scenario's) against a compiled game: fn(rt) -> a generator of decisions."""
    unit = Unit(game, f"<rules {game.content.id} extra {len(game.sources)}>", extending=True)
    name = unit.new_name("x_")
    w = unit.writer(f"def {name}(rt):", None)
    Statements(unit, w, set(), chance=True).block(stmts)
    # Always a generator, so that the caller can drive it the same way whether it asks or not.
    w.line("return None")
    w.line("yield")
    w.dedent()
    unit.finish()
    return unit.namespace[name]


def compile_expression(game: CompiledGame, node, params: tuple = ()):
    """One checked expression against a compiled game: fn(rt, *values of params) -> value.
    `params` are the names of the locals it reads (a function's parameters, for tools that take one apart)."""
    unit = Unit(game, f"<rules {game.content.id} extra {len(game.sources)}>", extending=True)
    name = unit.new_name("x_")
    w = unit.writer(f"def {name}({', '.join(['rt', *(mangle(LOCAL, p) for p in params)])}):", node.span)
    w.line(f"return {Expressions(game, set(params)).expr(node)}")
    w.dedent()
    unit.finish()
    return unit.namespace[name]


class Unit:
    """One generated module: the functions written so far and the hooks they define."""

    def __init__(self, game: CompiledGame, filename: str, extending: bool = False):
        self.game = game
        self.filename = filename
        self.writers: list[Writer] = []
        self.pending: list = []  # (namespace name, setter) filled once the module has run
        self.count = 0
        self.hook_order = 1_000_000 if extending else 0
        # extra text sees the game's own functions through a copy of its globals
        self.namespace = dict(game.namespace) if extending else library.namespace()

    def new_name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def writer(self, header: str, span) -> Writer:
        w = Writer(self.filename)
        w.span = span
        w.line(header)
        w.indent()
        self.writers.append(w)
        return w

    # ------------------------------------------------------------ analysis
    def analyse(self, decls: list) -> None:
        g = self.game
        hooks_by_event: dict = {}
        for module, decl in decls:
            if isinstance(decl, (ast.Trigger, ast.Replacement)):
                hooks_by_event.setdefault(decl.event, []).append(decl)
                g.hooked_events.add(decl.event)
            elif isinstance(decl, ast.Modifier):
                g.modified.add(decl.func)
            elif isinstance(decl, ast.Watcher):
                g.watchers_declared = True
        # An event that ends temporary abilities must go through the resolver, which expires them.
        for module in g.content.modules:
            for node in _walk(module.decls):
                if isinstance(node, ast.Until):
                    g.hooked_events.add(node.event)
        g.drawing = self.drawing_functions(decls)
        g.memoizable = g.modified - g.drawing
        procs = {d.name: d for m, d in decls if isinstance(d, (ast.Procedure, ast.EventDecl)) and m.owner is None}
        if g.content.vocabulary.priority.ties == "choose":
            g.yielding.update(e for e, hooks in hooks_by_event.items()
                              if len([h for h in hooks if isinstance(h, ast.Trigger)]) > 1)
        g.asking = set(g.yielding)
        # Which calls may reach a decision: a player's (`asking`), or also a chance decision (`yielding`: a statement
        # that draws is where the chance seat may be asked, codegen.chance), each a fixpoint over the call graph.
        for found, draws in ((g.asking, False), (g.yielding, True)):
            changed = True
            while changed:
                changed = False
                for name, decl in procs.items():
                    if name in found:
                        continue
                    body_yields = isinstance(decl, ast.Procedure) and self.block_yields(decl.body, draws)
                    # an ability stops for a player's decision only: its draws are the seed's (it runs where the
                    # game's events are resolved: a generator there for a draw would slow every such event down)
                    if body_yields or any(self.block_yields(h.body, False) for h in hooks_by_event.get(name, ())):
                        found.add(name)
                        changed = True

    def drawing_functions(self, decls: list) -> set:
        """The functions and card functions whose value may be drawn by chance: they, their modifiers, or anything
        they call draws. The others' values depend on the game alone (a modified one's may be kept until it changes)."""
        bodies: dict = {}  # function or card-function name -> the expressions it may evaluate
        for module, decl in decls:
            if isinstance(decl, ast.Function):
                bodies.setdefault(decl.name, []).append(decl.expr)
            elif isinstance(decl, ast.Modifier):
                bodies.setdefault(decl.func, []).extend(e for e in (decl.cond, decl.expr) if e is not None)
        impure = {name for name, exprs in bodies.items() if any(_draws(e) for e in exprs)}
        changed = True
        while changed:
            changed = False
            for name, exprs in bodies.items():
                if name not in impure and any(_calls(e) & impure for e in exprs):
                    impure.add(name)
                    changed = True
        return impure

    def draws(self, expr) -> bool:
        """May evaluating `expr` draw by chance (a draw of its own, or a function that draws)?"""
        return expr is not None and (_draws(expr) or bool(_calls(expr) & self.game.drawing))

    def stmt_draws(self, s) -> bool:
        """Does the statement draw by chance in the expressions it evaluates once before acting (or shuffle)?"""
        return isinstance(s, ast.Shuffle) or any(self.draws(e) for e in drawn_before(s, self.game.procs))

    def block_yields(self, stmts: list, draws: bool = True) -> bool:
        return any(self.stmt_yields(s, draws) for s in stmts)

    def stmt_yields(self, s, draws: bool = True) -> bool:
        """May the statement stop for a decision: a player's, or (`draws`) the chance seat's too?"""
        if isinstance(s, (ast.Choose, ast.ChooseOrder, ast.Menu)):
            return True
        if draws and self.stmt_draws(s):
            return True
        calls = self.game.yielding if draws else self.game.asking
        if isinstance(s, ast.Secretly):  # (each part's draws are the seed's: `part`)
            return self.block_yields(s.body, False)
        if isinstance(s, ast.CallStmt):
            return isinstance(s.call, ast.Call) and s.call.func in calls
        if isinstance(s, ast.Let):
            return isinstance(s.value, ast.Call) and s.value.func in calls
        if isinstance(s, ast.If):
            return any(self.block_yields(b, draws) for _, b in s.branches) or \
                (s.other is not None and self.block_yields(s.other, draws))
        if isinstance(s, (ast.For, ast.While, ast.Repeat)):
            return self.block_yields(s.body, draws)
        return False

    # ------------------------------------------------------------ declarations
    def declare(self, decls: list) -> None:
        g = self.game
        for module, decl in decls:
            if isinstance(decl, (ast.Procedure, ast.EventDecl)):
                g.procs[decl.name] = Proc(decl.name, [p.name for p in decl.params], None,
                                          decl.name in g.yielding, decl.name in g.hooked_events)
            elif isinstance(decl, ast.Function) and module.owner is None:
                g.funcs[decl.name] = Func(decl.name, [p.name for p in decl.params])
        for module, decl in decls:
            if isinstance(decl, ast.Procedure):
                self.procedure(decl)
            elif isinstance(decl, ast.EventDecl):
                w = self.writer(self.header(mangle(PROC, decl.name), decl.params), decl.span)
                w.line("return None")
                self.bind(mangle(PROC, decl.name), g.procs[decl.name], "body")
            elif isinstance(decl, ast.Function):
                self.function(decl, module.owner)
            elif isinstance(decl, ast.Watcher):
                self.watcher(decl)
            else:
                self.hook(decl, module.owner, [])

    def header(self, name: str, params: list, first: tuple = ("rt",)) -> str:
        names = [*first, *(mangle(LOCAL, p.name) for p in params)]
        return f"def {name}({', '.join(names)}):"

    def procedure(self, decl: ast.Procedure) -> None:
        name = mangle(PROC, decl.name)
        w = self.writer(self.header(name, decl.params), decl.span)
        if decl.name in _measured(self.game):  # a round or a turn, counted for reports (rt.counted)
            w.line(f"if rt.counted is not None: _counted(rt, {literal(decl.name)})")
        _count_call(w)
        body = Statements(self, w, {p.name for p in decl.params}, in_procedure=True, chance=True)
        scoped = [v.name for v in self.game.content.vocabulary.variables.values() if v.during == decl.name]
        if scoped:
            # game variables that live during each call: fresh at the start, the caller's again at the end
            saved = w.temp()
            w.line(f"{saved} = _enter_scope(rt, {self.constant(tuple(scoped))})")
            w.line("try:")
            w.indent()
        body.block(decl.body)
        body.s_Return(None)
        if scoped:
            w.dedent()
            w.line("finally:")
            w.line(f"    _leave_scope(rt, {saved})")
        proc = self.game.procs[decl.name]
        proc.body_yields = self.block_yields(decl.body)
        self.bind(name, proc, "body")

    def function(self, decl: ast.Function, owner: str | None) -> None:
        bound = {p.name for p in decl.params}
        if owner is None:
            name = mangle(FUNC, decl.name)
            w = self.writer(self.header(name, decl.params), decl.expr.span)
            self.bind(name, self.game.funcs[decl.name], "fn")
        else:
            name = self.new_name("cf_")
            bound.add("this")
            w = self.writer(self.header(name, decl.params, ("rt", mangle(LOCAL, "this"))), decl.expr.span)
            func = Func(decl.name, [p.name for p in decl.params])
            self.game.card_funcs.setdefault(owner, {})[decl.name] = func
            self.bind(name, func, "fn")
        value = Expressions(self.game, bound).expr(decl.expr)
        root = root_zone(decl, value) if owner is not None else None
        if root is not None:
            # kept until what lies in that zone changes (codegen.zone_pure); a seat out of range is left to fail
            # as the expression itself fails
            w.line(f"if {root[1]} in rt.seats:")
            w.indent()
            self.kept_value(w, decl, bound, value, name, root, lambda v: f"return {v}")
            w.dedent()
        w.line(f"return {value}")
        _count_call(w, only_if_calls=True)
        if owner is not None and of_one_player(self.game, decl.name):
            self.for_seats(decl, bound, value, name, root, func)

    def kept_value(self, w, decl, bound: set, value: str, name: str, root: tuple, give) -> None:
        """The value of a card function kept on its root zone (codegen.zone_pure): the kept one while the zone's
        stamp stays (its memo is dropped whenever the stamp moves), else computed and kept; `give(v)` is the
        statement that hands a value over."""
        zone, player = root
        # kept on the zone itself, keyed by the function and what else it reads (`this`, other arguments)
        others = [x for x in ["this", *(p.name for p in decl.params)] if mangle(LOCAL, x) != player and
                  re.search(rf"\b{mangle(LOCAL, x)}\b", value)]
        key = literal(self.filename + name)
        if others:
            key = f"({key}, {', '.join(mangle(LOCAL, x) for x in others)})"
        z, memo, kept, v = w.temp(), w.temp(), w.temp(), w.temp()
        w.line(f"{z} = rt.pz[{zone}][{player}]")
        w.line(f"{memo} = {z}.memo")
        w.line(f"if {memo} is None:")
        w.line(f"    {memo} = {z}.memo = {{}}")
        w.line("else:")
        # (the zone's memo is dropped when its stamp moves: core.state.Zone; the memo itself stands for "not kept",
        # being no value a card function gives, so that a value of none is kept too)
        w.line(f"    {kept} = {memo}.get({key}, {memo})")
        w.line(f"    if {kept} is not {memo}:")
        w.line(f"        {give(kept)}")
        if not count_loop(self.game, w, bound, decl.expr, v):  # the hot form as loops (no comprehension call)
            w.line(f"{v} = {value}")
        w.line(f"{memo}[{key}] = {v}")
        w.line(give(v))

    def for_seats(self, decl, bound: set, value: str, name: str, root, func: Func) -> None:
        """A card function of one player, once more as a function of the component alone giving its value for every
        seat in order (`[t.score(q) for q in players]` in one call: Statements.list_loop); each seat's value is
        what the function gives, kept as it keeps it, and each counts as a call where the function counts one."""
        twin = self.new_name("cf_")
        w = self.writer(f"def {twin}(rt, {mangle(LOCAL, 'this')}):", decl.expr.span)
        out, player = w.temp(), mangle(LOCAL, decl.params[0].name)
        w.line(f"{out} = []")
        w.line(f"for {player} in rt.seats:")
        w.indent()
        start = len(w.lines)
        if root is not None:
            self.kept_value(w, decl, bound, value, name, root, lambda v: f"{out}.append({v}); continue")
        else:
            w.line(f"{out}.append({value})")
        if any(_CALLS.search(line) for line in w.lines[start:]):
            w.lines[start:start] = ["    " * w.depth + text for text in _CALL_COUNT]
            w.spans[start:start] = [w.spans[0]] * len(_CALL_COUNT)
        w.dedent()
        w.line(f"return {out}")
        self.bind(twin, func, "for_seats")

    def hook(self, decl, owner: str | None, captured: list, temporary: bool = False) -> Hook:
        """A trigger, replacement or modifier; its functions take (rt, b), b binding names to values."""
        g = self.game
        self.hook_order += 1
        kind = _KIND[type(decl)]
        event = decl.func if kind == "modifier" else decl.event
        hook = Hook(kind, event, owner, list(decl.pattern), decl.timing, self.hook_order, decl.span)
        if owner is not None and decl.zones:
            hook.zones = tuple(decl.zones)
        names = set(captured) | {n for n in decl.pattern if n not in ("_", "this")}
        if owner is not None or "this" in captured:
            names.add("this")
        if decl.cond is not None:
            hook.guard = _this_guard(decl.cond, hook.pattern) if owner is not None and kind == "modifier" else None
            bound = names | ({"value"} if kind == "modifier" else set())
            self.hook_function(hook, "cond", bound, decl.cond.span, lambda w, b: w.line(f"return {Expressions(g, b).expr(decl.cond)}"))
        if kind == "modifier":
            self.hook_function(hook, "expr", names | {"value"}, decl.expr.span,
                               lambda w, b: w.line(f"return {Expressions(g, b).expr(decl.expr)}"))
        else:
            hook.yields = self.block_yields(decl.body, draws=False)
            self.hook_function(hook, "body", names, decl.span, lambda w, b: Statements(self, w, b).block(decl.body))
        if not temporary:
            g.hooks[kind].setdefault(event, []).append(hook)
        return hook

    def hook_function(self, hook: Hook, slot: str, bound: set, span, write) -> None:
        name = self.new_name("h_")
        w = self.writer(f"def {name}(rt, b):", span)
        for n in sorted(bound):
            w.line(f"{mangle(LOCAL, n)} = b[{literal(n)}]")
        write(w, bound)
        if slot == "body":
            w.line("return None")
        _count_call(w, only_if_calls=True)  # modifiers and abilities that call functions count too
        self.bind(name, hook, slot)

    def watcher(self, decl: ast.Watcher) -> None:
        """whenever COND: BODY, a hook of its own kind, checked by the runtime when a procedure ends (its draws are
        the seed's: it runs where nobody can be asked)."""
        if self.block_yields(decl.body, draws=False):
            raise DiagnosticError([Diagnostic("DSL-PLACE", "a 'whenever' body cannot ask for a decision, "
                                              "also not through a procedure it calls", decl.span)])
        self.hook_order += 1
        hook = Hook("watcher", "", None, [], None, self.hook_order, decl.span)
        g = self.game
        self.hook_function(hook, "cond", set(), decl.cond.span, lambda w, b: w.line(f"return {Expressions(g, b).expr(decl.cond)}"))
        self.hook_function(hook, "body", set(), decl.span, lambda w, b: Statements(self, w, b).block(decl.body))
        g.watchers.append(hook)

    def until_hooks(self, s: ast.Until, captured: list) -> str:
        """The abilities of an `until` block: a list of hooks in the namespace, added when it runs."""
        name = self.new_name("u_")
        hooks = [self.hook(d, None, captured, temporary=True) for d in s.decls]
        self.namespace[name] = hooks
        return name

    def part(self, stmts: list, params: list, span) -> tuple[str, bool]:
        """One player's part of `secretly`: a function of its own over copies of the locals it sees."""
        name = self.new_name("s_")
        w = self.writer(f"def {name}({', '.join(['rt', *(mangle(LOCAL, p) for p in params)])}):", span)
        Statements(self, w, set(params)).block(stmts)
        w.line("return None")
        return name, self.block_yields(stmts, draws=False)

    def constant(self, value) -> str:
        """A value the generated code reads by name from its namespace (never written into the source)."""
        name = self.new_name("k_")
        self.namespace[name] = value
        return name

    def bind(self, name: str, target, attr: str) -> None:
        self.pending.append((name, target, attr))

    # ------------------------------------------------------------ the module
    def finish(self) -> None:
        module = Writer(self.filename)
        for w in self.writers:
            module.lines.extend(w.lines)
            module.spans.extend(w.spans)
            module.lines.append("")
            module.spans.append(None)
        run_source(module, self.namespace)
        for name, target, attr in self.pending:
            setattr(target, attr, self.namespace[name])
        self.game.sources[self.filename] = (module.text(), module.spans)
        if not self.game.namespace:
            self.game.namespace = self.namespace


# A call the generated code makes: a function, card function or procedure of the rule text (mangled names
# always start with one of these prefixes), directly or through the runtime.
_CALLS = re.compile(r"(?<![\w.])(?:f_|p_|cf_)\w+\(|\brt\.(?:cfs\[|card_function\(|modified\(|memoized\(|invoke|event\()")


_CALL_COUNT = ("rt.calls += 1", f"if rt.calls > {library.CALL_LIMIT}:", "    _too_many_calls(rt)")


def _count_call(w, only_if_calls: bool = False) -> None:
    """Every procedure, and every function or ability that calls another, counts its calls against CALL_LIMIT
    (its first lines): however rules recurse or fan out (f(n - 1) + f(n - 1)), they stop there. A function that
    calls nothing is not counted: its caller is (or a loop or comprehension that is), so the hot small ones
    cost nothing more."""
    if only_if_calls and not any(_CALLS.search(line) for line in w.lines[1:]):
        return
    lines = ["    " + text for text in _CALL_COUNT]
    w.lines[1:1] = lines
    w.spans[1:1] = [w.spans[0]] * len(lines)


def _measured(game) -> set:
    """The procedures whose calls measure a game's length (the manifest's `report: length`)."""
    length = (game.content.manifest.get("report") or {}).get("length") or {}
    return {entry["calls"] for entry in length.values() if isinstance(entry, dict) and isinstance(entry.get("calls"), str)}


def _this_guard(cond, pattern: list) -> int | None:
    """The position of the pattern's parameter that a modifier's condition first requires to be its own
    component (`modify f(a) if a == this and ...`), or None. The resolver passes over the ability for any
    other argument without building it as a candidate: the condition could only be false there."""
    while isinstance(cond, ast.Binary) and cond.op == "and":
        cond = cond.left
    if not (isinstance(cond, ast.Binary) and cond.op == "=="):
        return None
    sides = [cond.left, cond.right]
    if not all(isinstance(x, ast.Name) for x in sides):
        return None
    names = [x.id for x in sides]
    if "this" not in names:
        return None
    other = names[1] if names[0] == "this" else names[0]
    if other in ("this", "_", "you") or pattern.count(other) != 1:
        return None
    return pattern.index(other)


def _calls(expr) -> set:
    """The functions and card functions an expression calls by name."""
    return {n.func if isinstance(n, ast.Call) else n.name for n in _walk([expr]) if isinstance(n, (ast.Call, ast.Method))}


def _walk(nodes):
    for node in nodes:
        yield node
        yield from _walk(ast.children(node))
