"""Checked AST to Python closures, once, at load.

Expressions become `f(env) -> value`. Statements become either plain functions or
generator functions: only code that can reach a decision (choose, a procedure whose
body or triggers choose) is compiled as a generator, found by a fixpoint over the
call graph before compiling. A statement returns None, or a Ret to unwind a procedure.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field

from dsl import ast
from dsl.loader import GameContent, all_decls
from interpreter import builtins
from interpreter.decisions import Decision, player_label
from interpreter.state import Entity, Zone, holder

_MISSING = object()
LOOP_LIMIT = 100_000


class Env:
    __slots__ = ("rt", "vars")

    def __init__(self, rt, variables: dict):
        self.rt = rt
        self.vars = variables


class Ret:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class GameOver(Exception):
    def __init__(self, winners: list):
        self.winners = winners


class Done:
    """The 'done' option of a pick-several decision."""

    def __str__(self) -> str:
        return "done"


DONE = Done()


@dataclass(frozen=True)
class MenuChoice:
    name: str
    args: tuple
    player_args: tuple = ()  # which args are players, labelled P1, P2, ...

    def __str__(self) -> str:
        from interpreter.decisions import label_of
        return " ".join([self.name, *(player_label(a) if i in self.player_args else label_of(a)
                                      for i, a in enumerate(self.args))])


@dataclass
class Proc:
    name: str
    params: list
    body: object = None  # plain function or generator function of env
    yields: bool = False  # the call (body, triggers or replacements) may reach a decision
    hooked: bool = False  # any trigger or replacement may apply
    body_yields: bool = False  # the body itself is a generator function


@dataclass
class Func:
    name: str
    params: list
    fn: object = None
    decl: object = None  # the ast.Function, for inlining


@dataclass
class Hook:
    kind: str  # trigger | replacement | modifier
    event: str
    owner: str | None  # record id for card abilities
    pattern: list
    cond: object
    timing: str | None
    order: int
    span: object
    body: object = None
    yields: bool = False
    expr: object = None


@dataclass
class CompiledGame:
    content: GameContent
    procs: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)
    hooks: dict = field(default_factory=lambda: {"trigger": {}, "replacement": {}, "modifier": {}})
    card_funcs: dict = field(default_factory=dict)  # record id -> {name: Func}
    until_hooks: dict = field(default_factory=dict)  # id(Until node) -> [Hook]
    modified: set = field(default_factory=set)  # functions some modifier may change
    hooked_events: set = field(default_factory=set)


def compile_game(content: GameContent) -> CompiledGame:
    return Compiler(content).run()


class Compiler:
    def __init__(self, content: GameContent, game: CompiledGame | None = None):
        """A compiler for a game's content, or, given `game`, for extra text against a compiled game."""
        self.content = content
        self.game = game or CompiledGame(content)
        # events/procedures that may reach a decision
        self.yielding: set = {n for n, p in self.game.procs.items() if p.yields}
        self.decls = [] if game else list(all_decls(content.modules))
        self.order = 1_000_000 if game else 0
        # Inlining of pure rule functions: parameters stand for the caller's argument closures,
        # and the callee's own comprehension variables get fresh names so they cannot clobber the caller's.
        self.subst: dict = {}
        self.rename: dict = {}
        self.inlining: list = []
        self.fresh = 0

    @classmethod
    def extending(cls, game: CompiledGame) -> "Compiler":
        """A compiler for extra text (a scenario's statements) against an already compiled game."""
        return cls(game.content, game)

    def local(self, name: str) -> str:
        return self.rename.get(name, name)

    def bind(self, name: str) -> str:
        """The storage name of a variable a comprehension or loop binds inside inlined code."""
        if not self.inlining:
            return name
        self.fresh += 1
        key = f"{name}~{self.fresh}"
        self.rename[name] = key
        return key

    # ------------------------------------------------------------ analysis
    def analyse(self) -> None:
        hooks_by_event: dict = {}
        for module, decl in self.decls:
            if isinstance(decl, (ast.Trigger, ast.Replacement)):
                hooks_by_event.setdefault(decl.event, []).append(decl)
                self.game.hooked_events.add(decl.event)
            elif isinstance(decl, ast.Modifier):
                self.game.modified.add(decl.func)
        # An event that ends temporary abilities must go through the resolver, which expires them.
        for module in self.content.modules:
            for node in _walk(module.decls):
                if isinstance(node, ast.Until):
                    self.game.hooked_events.add(node.event)
        procs = {d.name: d for m, d in self.decls if isinstance(d, (ast.Procedure, ast.EventDecl)) and m.owner is None}
        if self.content.vocabulary.priority.ties == "choose":
            self.yielding.update(e for e, hooks in hooks_by_event.items()
                                 if len([h for h in hooks if isinstance(h, ast.Trigger)]) > 1)
        changed = True
        while changed:
            changed = False
            for name, decl in procs.items():
                if name in self.yielding:
                    continue
                body_yields = isinstance(decl, ast.Procedure) and self.block_yields(decl.body)
                if body_yields or any(self.block_yields(h.body) for h in hooks_by_event.get(name, ())):
                    self.yielding.add(name)
                    changed = True

    def block_yields(self, stmts: list) -> bool:
        return any(self.stmt_yields(s) for s in stmts)

    def stmt_yields(self, s) -> bool:
        if isinstance(s, (ast.Choose, ast.ChooseOrder, ast.Menu, ast.Secretly)):
            return True
        if isinstance(s, ast.CallStmt):
            return isinstance(s.call, ast.Call) and s.call.func in self.yielding
        if isinstance(s, ast.Let):
            return isinstance(s.value, ast.Call) and s.value.func in self.yielding
        if isinstance(s, ast.If):
            return any(self.block_yields(b) for _, b in s.branches) or (s.other is not None and self.block_yields(s.other))
        if isinstance(s, (ast.For, ast.While, ast.Repeat)):
            return self.block_yields(s.body)
        return False

    # ------------------------------------------------------------ declarations
    def run(self) -> CompiledGame:
        self.analyse()
        g = self.game
        for module, decl in self.decls:
            if isinstance(decl, (ast.Procedure, ast.EventDecl)):
                params = [p.name for p in decl.params]
                g.procs[decl.name] = Proc(decl.name, params, None, decl.name in self.yielding, decl.name in g.hooked_events)
            elif isinstance(decl, ast.Function) and module.owner is None:
                g.funcs[decl.name] = Func(decl.name, [p.name for p in decl.params], decl=decl)
        for module, decl in self.decls:
            if isinstance(decl, ast.Procedure):
                body, body_yields = self.block(decl.body)
                g.procs[decl.name].body = body
                g.procs[decl.name].body_yields = body_yields
            elif isinstance(decl, ast.EventDecl):
                g.procs[decl.name].body = _nothing
            elif isinstance(decl, ast.Function):
                fn = self.expr(decl.expr)
                if module.owner is None:
                    g.funcs[decl.name].fn = fn
                else:
                    g.card_funcs.setdefault(module.owner, {})[decl.name] = Func(decl.name, [p.name for p in decl.params], fn)
        for module in self.content.modules:
            for decl in module.decls:
                if isinstance(decl, (ast.Trigger, ast.Replacement, ast.Modifier)):
                    hook = self.hook(decl, module.owner)
                    g.hooks[hook.kind].setdefault(hook.event, []).append(hook)
        return g

    def hook(self, decl, owner: str | None) -> Hook:
        self.order += 1
        kind = {"Trigger": "trigger", "Replacement": "replacement", "Modifier": "modifier"}[type(decl).__name__]
        event = decl.func if kind == "modifier" else decl.event
        cond = self.expr(decl.cond) if decl.cond is not None else None
        hook = Hook(kind, event, owner, list(decl.pattern), cond, decl.timing, self.order, decl.span)
        if kind == "modifier":
            hook.expr = self.expr(decl.expr)
        else:
            hook.body, hook.yields = self.block(decl.body)
        return hook

    # ------------------------------------------------------------ statements
    def block(self, stmts: list):
        compiled = [self.stmt(s) for s in stmts]
        if not any(y for _, y in compiled):
            fns = [f for f, _ in compiled]
            if len(fns) == 1:
                return fns[0], False

            def run_plain(env):
                for f in fns:
                    r = f(env)
                    if r is not None:
                        return r
            return run_plain, False

        def run_gen(env):
            for f, y in compiled:
                r = (yield from f(env)) if y else f(env)
                if r is not None:
                    return r
        return run_gen, True

    def stmt(self, s):
        method = getattr(self, "s_" + type(s).__name__)
        return method(s)

    def s_Pass(self, s):
        return _nothing, False

    def s_Let(self, s):
        name, span = s.name, s.span
        if isinstance(s.value, ast.Call) and s.value.func in self.game.procs:
            call, yields = self.invoke(s.value)
            if yields:
                def let_gen(env):
                    env.rt.at = span
                    env.vars[name] = yield from call(env)
                return let_gen, True

            def let_call(env):
                env.rt.at = span
                env.vars[name] = call(env)
            return let_call, False
        value = self.expr(s.value)

        def let(env):
            env.rt.at = span
            env.vars[name] = value(env)
        return let, False

    def s_Assign(self, s):
        value, op, span = self.expr(s.value), s.op, s.span
        combine = {"=": None, "+=": operator.add, "-=": operator.sub}[op]
        target = s.target
        ref = getattr(target, "ref", ("local",))
        if isinstance(target, ast.Name):
            name = target.id
            store = (lambda env: env.vars) if ref[0] == "local" else (lambda env: env.rt.state.game_vars)
            getter, key = store, (lambda env: name)
        elif isinstance(target, ast.Attr):
            obj = self.expr(target.obj)
            name = target.name
            if ref[1].scope == "player":
                getter = lambda env: env.rt.state.player_vars[obj(env)]  # noqa: E731
            else:
                getter = lambda env: obj(env).vars  # noqa: E731
            key = lambda env: name  # noqa: E731
        else:
            getter, key = self.expr(target.obj), self.expr(target.key)

        def assign(env):
            env.rt.at = span
            store, k = getter(env), key(env)
            v = value(env)
            store[k] = v if combine is None else combine(store[k], v)
        return assign, False

    def s_CallStmt(self, s):
        span = s.span
        if isinstance(s.call, ast.Call) and s.call.func in self.game.procs:
            call, yields = self.invoke(s.call)
            if yields:
                def call_gen(env):
                    env.rt.at = span
                    yield from call(env)
                return call_gen, True

            def call_plain(env):
                env.rt.at = span
                call(env)
            return call_plain, False
        value = self.expr(s.call)

        def evaluate(env):
            env.rt.at = span
            value(env)
        return evaluate, False

    def invoke(self, call: ast.Call):
        """A procedure or event call: straight to the body when nothing can hook it."""
        proc = self.game.procs[call.func]
        args = [self.expr(a) for a in call.args]
        name = call.func
        params = proc.params
        yields = name in self.yielding
        hooked = name in self.game.hooked_events
        if not hooked:
            if yields:
                def direct_gen(env):
                    r = yield from proc.body(Env(env.rt, {p: a(env) for p, a in zip(params, args)}))
                    return r.value if r is not None else None
                return direct_gen, True

            def direct(env):
                r = proc.body(Env(env.rt, {p: a(env) for p, a in zip(params, args)}))
                return r.value if r is not None else None
            return direct, False
        if yields:
            def hooked_gen(env):
                return (yield from env.rt.invoke(name, [a(env) for a in args]))
            return hooked_gen, True

        def hooked_plain(env):
            return env.rt.invoke_plain(name, [a(env) for a in args])
        return hooked_plain, False

    def s_Move(self, s):
        what, dest, at_top, face, span = self.expr(s.what), self.expr(s.dest), s.at_top, s.face, s.span

        def move(env):
            env.rt.at = span
            env.rt.move(what(env), dest(env), at_top, face)
        return move, False

    def s_Shuffle(self, s):
        zone, span = self.expr(s.zone), s.span

        def shuffle(env):
            env.rt.at = span
            env.rt.state.rng.shuffle(zone(env).items)
        return shuffle, False

    def s_Log(self, s):
        message = self.expr(s.message)
        to = self.expr(s.to) if s.to is not None else None
        span = s.span

        def log(env):
            # Evaluated even with nobody listening, so an error in a log line shows in simulations too.
            rt = env.rt
            rt.at = span
            text = message(env)
            if rt.account is not None:
                rt.account(to(env) if to else None, text)
        return log, False

    def s_Return(self, s):
        value = self.expr(s.value) if s.value is not None else (lambda env: None)
        return (lambda env: Ret(value(env))), False

    def s_Win(self, s):
        who, span = self.expr(s.who), s.span

        def win(env):
            env.rt.at = span
            w = who(env)
            raise GameOver(list(w) if isinstance(w, (list, tuple)) else ([] if w is None else [w]))
        return win, False

    def s_Reveal(self, s):
        what, span = self.expr(s.what), s.span

        def reveal(env):
            env.rt.at = span
            for e in builtins.entities_of(what(env)):
                e.face_down = False
                e.seen_by = None
        return reveal, False

    def chooser(self, by):
        if by is not None:
            return self.expr(by)
        return _you

    def s_Choose(self, s):
        coll, var, span = self.expr(s.coll), s.var, s.span
        cond = self.expr(s.cond) if s.cond is not None else None
        by = self.chooser(s.by)
        qty = self.expr(s.qty) if s.qty is not None else None
        kind = s.qty_kind
        prompt = span.text.strip()
        players = s.coll.type in ("list[player]",)

        def candidates(env):
            items = builtins.items_of(coll(env))
            if cond is None:
                return list(items)
            out = []
            vars_ = env.vars
            for x in items:
                vars_[var] = x
                if cond(env):
                    out.append(x)
            return out

        def choose(env):
            env.rt.at = span
            items = candidates(env)
            if kind is None:
                if len(items) <= 1:
                    env.vars[var] = items[0] if items else None
                    return
                i = yield Decision(by(env), prompt, items, players=players)
                env.vars[var] = items[i]
                return
            n = qty(env)
            low, high = {"exactly": (n, n), "up_to": (0, n), "at_least": (n, len(items))}[kind]
            high = min(high, len(items))
            low = min(low, high)
            player = by(env)
            chosen: list = []
            while len(chosen) < high:
                options = items + [DONE] if len(chosen) >= low else items
                pick = options[0] if len(options) == 1 else options[(yield Decision(player, prompt, options, "pick", players=players))]
                if pick is DONE:
                    break
                chosen.append(pick)
                items = [x for x in items if x is not pick]
            env.vars[var] = chosen
        return choose, True

    def s_ChooseOrder(self, s):
        coll, var, span = self.expr(s.coll), s.var, s.span
        by = self.chooser(s.by)
        prompt = span.text.strip()
        players = s.coll.type in ("list[player]",)

        def choose_order(env):
            env.rt.at = span
            remaining = list(builtins.items_of(coll(env)))
            player = by(env) if len(remaining) > 1 else None
            ordered = []
            while len(remaining) > 1:
                i = yield Decision(player, prompt, remaining, "order", players=players)
                ordered.append(remaining.pop(i))
            env.vars[var] = ordered + remaining
        return choose_order, True

    def s_Menu(self, s):
        span = s.span
        by = self.chooser(s.by)
        prompt = span.text.strip()
        options = []
        for opt in s.options:
            bindings = [(b.var, self.expr(b.coll), self.expr(b.cond) if b.cond is not None else None) for b in opt.bindings]
            cond = self.expr(opt.cond) if opt.cond is not None else None
            body, yields = self.block(opt.body)
            types = {b.var: b.coll.type for b in opt.bindings}
            player_args = tuple(i for i, p in enumerate(opt.params) if types.get(p) == "list[player]")
            options.append((opt.name, list(opt.params), bindings, cond, body, yields, player_args))
        otherwise = self.block(s.otherwise) if s.otherwise is not None else None

        def expand(env, bindings, cond, i, bound, out, option_index):
            if i == len(bindings):
                if cond is None or cond(env):
                    out.append((option_index, tuple(bound)))
                return
            var, coll, bcond = bindings[i]
            vars_ = env.vars
            for x in list(builtins.items_of(coll(env))):
                vars_[var] = x
                if bcond is not None and not bcond(env):
                    continue
                bound.append(x)
                expand(env, bindings, cond, i + 1, bound, out, option_index)
                bound.pop()

        def menu(env):
            env.rt.at = span
            entries: list = []
            for index, (name, params, bindings, cond, body, yields, _) in enumerate(options):
                expand(env, bindings, cond, 0, [], entries, index)
            if not entries:
                if otherwise is not None:
                    body, yields = otherwise
                    return (yield from body(env)) if yields else body(env)
                return None
            if len(entries) == 1:
                index, bound = entries[0]
            else:
                values = []
                for index, bound in entries:
                    name, params, bindings = options[index][:3]
                    names = [b[0] for b in bindings]
                    values.append(MenuChoice(name, tuple(bound[names.index(p)] for p in params), options[index][6]))
                index, bound = entries[(yield Decision(by(env), prompt, values, "menu"))]
            name, params, bindings, cond, body, yields, _ = options[index]
            for (var, _, _), value in zip(bindings, bound):
                env.vars[var] = value
            return (yield from body(env)) if yields else body(env)
        return menu, True

    def s_If(self, s):
        branches = [(self.expr(c), *self.block(b)) for c, b in s.branches]
        other = self.block(s.other) if s.other is not None else (_nothing, False)
        span = s.span
        if not any(y for _, _, y in branches) and not other[1]:
            other_fn = other[0]

            def if_plain(env):
                env.rt.at = span
                for cond, body, _ in branches:
                    if cond(env):
                        return body(env)
                return other_fn(env)
            return if_plain, False

        def if_gen(env):
            env.rt.at = span
            for cond, body, y in branches:
                if cond(env):
                    return (yield from body(env)) if y else body(env)
            body, y = other
            return (yield from body(env)) if y else body(env)
        return if_gen, True

    def s_For(self, s):
        coll, var, span = self.expr(s.coll), s.var, s.span
        cond = self.expr(s.cond) if s.cond is not None else None
        body, yields = self.block(s.body)
        if not yields:
            def for_plain(env):
                env.rt.at = span
                vars_ = env.vars
                for x in list(builtins.items_of(coll(env))):
                    vars_[var] = x
                    if cond is not None and not cond(env):
                        continue
                    r = body(env)
                    if r is not None:
                        return r
            return for_plain, False

        def for_gen(env):
            env.rt.at = span
            vars_ = env.vars
            for x in list(builtins.items_of(coll(env))):
                vars_[var] = x
                if cond is not None and not cond(env):
                    continue
                r = yield from body(env)
                if r is not None:
                    return r
        return for_gen, True

    def s_While(self, s):
        cond, span = self.expr(s.cond), s.span
        body, yields = self.block(s.body)

        def too_long(env):
            env.rt.at = span
            raise RuntimeError(f"this loop ran {LOOP_LIMIT} times without ending")

        if not yields:
            def while_plain(env):
                n = 0
                while cond(env):
                    r = body(env)
                    if r is not None:
                        return r
                    n += 1
                    if n > LOOP_LIMIT:
                        too_long(env)
            return while_plain, False

        def while_gen(env):
            n = 0
            while cond(env):
                r = yield from body(env)
                if r is not None:
                    return r
                n += 1
                if n > LOOP_LIMIT:
                    too_long(env)
        return while_gen, True

    def s_Repeat(self, s):
        count, span = self.expr(s.count), s.span
        body, yields = self.block(s.body)
        if not yields:
            def repeat_plain(env):
                env.rt.at = span
                for _ in range(count(env)):
                    r = body(env)
                    if r is not None:
                        return r
            return repeat_plain, False

        def repeat_gen(env):
            env.rt.at = span
            for _ in range(count(env)):
                r = yield from body(env)
                if r is not None:
                    return r
        return repeat_gen, True

    def s_Secretly(self, s):
        coll, var, span = self.expr(s.coll), s.var, s.span
        body, yields = self.block(s.body)

        def secretly(env):
            """Everyone's part runs side by side: each wave asks every player before any answer applies."""
            env.rt.at = span
            active = []
            for p in list(builtins.items_of(coll(env))):
                own = Env(env.rt, dict(env.vars))
                own.vars[var] = p
                if not yields:
                    body(own)
                    continue
                gen = body(own)
                try:
                    d = next(gen)
                except StopIteration:
                    continue
                d.secret = True
                active.append((gen, d))
            while active:
                answers = []
                for gen, d in active:
                    answers.append((yield d))
                following = []
                for (gen, _), answer in zip(active, answers):
                    try:
                        d = gen.send(answer)
                    except StopIteration:
                        continue
                    d.secret = True
                    following.append((gen, d))
                active = following
        return secretly, True

    def s_Until(self, s):
        hooks = [self.hook(d, None) for d in s.decls]
        self.game.until_hooks[id(s)] = hooks
        event, span = s.event, s.span

        def until(env):
            env.rt.at = span
            env.rt.add_temporary(event, hooks, dict(env.vars))
        return until, False

    # ------------------------------------------------------------ expressions
    def expr(self, node):
        return getattr(self, "e_" + type(node).__name__)(node)

    def e_Num(self, node):
        v = node.value
        return lambda env: v

    def e_Const(self, node):
        v = node.value
        return lambda env: v

    def e_Str(self, node):
        parts = []
        for part in node.parts:
            if isinstance(part, str):
                parts.append((False, part))
            else:
                parts.append((part.type, self.expr(part)))
        if all(t is False for t, _ in parts):
            text = "".join(p for _, p in parts)
            return lambda env: text

        def render(env):
            out = []
            for t, p in parts:
                out.append(p if t is False else show(p(env), t))
            return "".join(out)
        return render

    def e_Name(self, node):
        ref = getattr(node, "ref", ("local",))
        name = node.id
        if ref[0] == "local":
            if name in self.subst:
                return self.subst[name]
            name = self.local(name)
            if name == "you":
                def you(env):
                    v = env.vars.get("you", _MISSING)
                    return holder(env.vars["this"]) if v is _MISSING else v
                return you
            return lambda env: env.vars[name]
        if ref[0] == "gamevar":
            return lambda env: env.rt.state.game_vars[name]
        if ref[0] == "const":
            if name == "players":
                return lambda env: env.rt.seats
            if name == "winners":
                return lambda env: env.rt.state.winners
            return lambda env: env.rt.state.players
        if ref[0] == "enum":
            return lambda env: name
        if ref[0] == "zone":
            return lambda env: env.rt.state.game_zones[name]
        raise AssertionError(ref)

    def e_EntityRef(self, node):
        eid = node.id
        return lambda env: env.rt.state.entities[eid]

    def member(self, obj, ref, name, obj_node=None):
        local = _local_name(obj_node)
        if local is not None:
            local = None if local in self.subst else self.local(local)
        if local is not None and ref[0] == "attr" and name != "id":
            return lambda env: env.vars[local].attrs.get(name)
        if ref[0] == "var":
            if ref[1].scope == "player":
                return lambda env: env.rt.state.player_vars[obj(env)][name]
            return lambda env: obj(env).vars[name]
        if name == "id":
            return lambda env: obj(env).id
        return lambda env: obj(env).attrs.get(name)

    def e_Attr(self, node):
        return self.member(self.expr(node.obj), node.ref, node.name, node.obj)

    def e_Of(self, node):
        arg = self.expr(node.arg)
        ref = node.ref
        if ref[0] == "zone":
            name = node.name
            if ref[1].scope == "player":
                return lambda env: env.rt.state.player_zones[name][arg(env)]
            return lambda env: env.rt.state.zone(name, arg(env))
        return self.member(arg, ref, node.name, node.arg)

    def e_Index(self, node):
        obj, key = self.expr(node.obj), self.expr(node.key)

        def index(env):
            o, k = obj(env), key(env)
            if isinstance(o, dict):
                return o.get(k)
            items = o.items if isinstance(o, Zone) else o
            return items[k] if -len(items) <= k < len(items) else None
        return index

    def e_Unary(self, node):
        operand = self.expr(node.operand)
        if node.op == "not":
            return lambda env: not operand(env)
        return lambda env: -operand(env)

    def e_Binary(self, node):
        left, right, op = self.expr(node.left), self.expr(node.right), node.op
        if op == "and":
            return lambda env: left(env) and right(env)
        if op == "or":
            return lambda env: left(env) or right(env)
        if op == "+" and any(t.startswith("list[") or t == "zone" for t in (node.left.type, node.right.type)):
            return lambda env: list(builtins.items_of(left(env))) + list(builtins.items_of(right(env)))
        fn = _BINARY[op]
        const = _constant(node.right)
        if const is not _MISSING and op == "==" and isinstance(node.left, ast.Attr) and node.left.ref[0] == "attr":
            local = _local_name(node.left.obj)
            if local is not None and local not in self.subst and node.left.name != "id":
                key, attr = self.local(local), node.left.name
                return lambda env: env.vars[key].attrs.get(attr) == const
        if const is not _MISSING and op in ("==", "!="):
            if op == "==":
                return lambda env: left(env) == const
            return lambda env: left(env) != const
        if op == "in" and node.right.type == "zone":
            return lambda env: left(env) in right(env).items
        a, b = _local_name(node.left), _local_name(node.right)
        if a is not None and b is not None and a not in self.subst and b not in self.subst:
            a, b = self.local(a), self.local(b)
            return lambda env: fn(env.vars[a], env.vars[b])
        if const is not _MISSING:
            return lambda env: fn(left(env), const)
        return lambda env: fn(left(env), right(env))

    def e_Range(self, node):
        low, high = self.expr(node.low), self.expr(node.high)
        return lambda env: list(range(low(env), high(env) + 1))

    def e_IfExpr(self, node):
        cond, then, other = self.expr(node.cond), self.expr(node.then), self.expr(node.other)
        return lambda env: then(env) if cond(env) else other(env)

    def e_ListLit(self, node):
        items = [self.expr(i) for i in node.items]
        return lambda env: [i(env) for i in items]

    def e_MapLit(self, node):
        return lambda env: {}

    def e_Call(self, node):
        ref = node.ref
        args = [self.expr(a) for a in node.args]
        if ref[0] == "builtin":
            return builtins.compile_call(node.func, args)
        name = node.func
        func = self.game.funcs[name]
        params = func.params
        if name not in self.game.modified and name not in self.inlining and len(self.inlining) < 8 \
                and all(_simple(a) for a in node.args):
            saved = self.subst, self.rename
            self.subst, self.rename = dict(zip(params, args)), {}
            self.inlining.append(name)
            try:
                return self.expr(func.decl.expr)
            finally:
                self.inlining.pop()
                self.subst, self.rename = saved
        if name not in self.game.modified:
            def call(env):
                return func.fn(Env(env.rt, {p: a(env) for p, a in zip(params, args)}))
            return call

        def call_modified(env):
            values = [a(env) for a in args]
            return env.rt.apply_modifiers(name, values, func.fn(Env(env.rt, dict(zip(params, values)))))
        return call_modified

    def e_Method(self, node):
        obj = self.expr(node.obj)
        args = [self.expr(a) for a in node.args]
        name = node.name

        def method(env):
            entity = obj(env)
            return env.rt.card_function(entity, name, [a(env) for a in args])
        return method

    def e_Query(self, node):
        coll = self.expr(node.coll)
        saved = dict(self.rename)
        subst = self.subst
        if node.var in subst:
            self.subst = {k: v for k, v in subst.items() if k != node.var}
        var = self.bind(node.var)
        cond = self.expr(node.cond) if node.cond is not None else None
        value = self.expr(node.value) if node.value is not None else None
        keys = [(self.expr(k.expr), k.descending) for k in node.keys]
        # Filters and values that read only the element's attributes and constants run as f(x).
        pred = self.element(node.cond, node.var) if node.cond is not None else None
        elem_value = self.element(node.value, node.var) if node.value is not None else None
        self.rename, self.subst = saved, subst
        if node.coll.type == "zone":
            zone = coll
            coll = lambda env: zone(env).items  # noqa: E731
        return builtins.compile_query(node.func, var, coll, cond, value, keys, pred, elem_value)

    def element(self, node, var: str):
        """f(x) for an expression of one comprehension element and constants, else None."""
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == var \
                and node.ref[0] == "attr" and node.obj.id not in self.subst:
            name = node.name
            if name == "id":
                return lambda x: x.id
            return lambda x: x.attrs.get(name)
        const = _constant(node)
        if const is not _MISSING:
            return lambda x: const
        if isinstance(node, ast.Unary) and node.op == "not":
            inner = self.element(node.operand, var)
            return None if inner is None else (lambda x: not inner(x))
        if isinstance(node, ast.Binary) and node.op in _BINARY or (isinstance(node, ast.Binary) and node.op in ("and", "or")):
            if isinstance(node.right, ast.ListLit) and node.op in ("in", "notin"):
                items = [_constant(i) for i in node.right.items]
                left = self.element(node.left, var)
                if left is None or any(i is _MISSING for i in items):
                    return None
                members = tuple(items)
                return (lambda x: left(x) in members) if node.op == "in" else (lambda x: left(x) not in members)
            left, right = self.element(node.left, var), self.element(node.right, var)
            if left is None or right is None:
                return None
            if node.op == "and":
                return lambda x: left(x) and right(x)
            if node.op == "or":
                return lambda x: left(x) or right(x)
            fn = _BINARY[node.op]
            const = _constant(node.right)
            if const is not _MISSING and node.op == "==":
                return lambda x: left(x) == const
            return lambda x: fn(left(x), right(x))
        return None


def _nothing(env):
    return None


def _walk(nodes):
    for node in nodes:
        yield node
        yield from _walk(ast.children(node))


def _local_name(node) -> str | None:
    """The name of a plain local variable (not `you`, which is computed), else None."""
    if isinstance(node, ast.Name) and getattr(node, "ref", ("",))[0] == "local" and node.id != "you":
        return node.id
    return None


def _simple(node) -> bool:
    """An argument cheap and pure enough to be evaluated where the inlined body uses it."""
    if isinstance(node, (ast.Num, ast.Const, ast.EntityRef)):
        return True
    if isinstance(node, ast.Name):
        return getattr(node, "ref", ("",))[0] in ("local", "gamevar", "enum", "const")
    if isinstance(node, ast.Attr):
        return _simple(node.obj)
    return False


def _constant(node):
    if isinstance(node, (ast.Num, ast.Const)):
        return node.value
    if isinstance(node, ast.Name) and getattr(node, "ref", ("",))[0] == "enum":
        return node.id
    return _MISSING


def _you(env):
    v = env.vars.get("you", _MISSING)
    if v is _MISSING:
        this = env.vars.get("this")
        if this is None:
            raise RuntimeError("nobody is named to decide here: add 'by PLAYER'")
        return holder(this)
    return v


def _div(a, b):
    return a // b


_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": _div, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "notin": lambda a, b: a not in b,
}


def zone_name(zone: Zone) -> str:
    if zone.owner is None:
        return zone.name
    if isinstance(zone.owner, Entity):
        return f"{zone.name} of {zone.owner.id}"
    return f"{zone.name} of {player_label(zone.owner)}"


def show(value, t: str = "any") -> str:
    """How a value reads in a log line."""
    if isinstance(value, Entity):
        return str(value.attrs.get("name") or value.id)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and t == "player":
        return player_label(value)
    if isinstance(value, (list, tuple)):
        inner = t[5:-1] if t.startswith("list[") else "any"
        return ", ".join(show(v, inner) for v in value) if value else "nothing"
    if isinstance(value, Zone):
        return zone_name(value)
    if value is None:
        return "nobody" if t == "player" else "none"
    return str(value)
