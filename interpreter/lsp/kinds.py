"""Which kinds of components each name of the rule text can hold, as far as the rule text shows: so that
completion after `x.` offers the attributes of x's kinds, not of every kind.

The kinds a zone can hold start with the kinds that start in it and grow with every `move` into it; a local
bound by `for x in ZONE` holds the zone's kinds (fewer after `where x.kind == K`); a parameter holds what its
callers pass, an ability's pattern what the event's callers pass. All of it is worked out together until it
settles. None means "any kind": a move into a zone the text cannot tell, or a value it cannot follow (an
attribute, a card function's result); an unknown makes the answer "any kind", never a guess. (A scenario
may arrange a table the rule text never makes: completion follows the rules.)
"""
from __future__ import annotations

from dsl import ast
from interpreter.lsp.index import file_of

ROUNDS = 12  # each round follows values further through calls and moves; games settle in three to six
_ELEMENT_CALLS = {"top", "bottom", "first", "random", "snapshot", "distinct", "concat", "max", "min", "rank", "group", "reach"}


def _union(a, b):
    if a is None or b is None:
        return None
    return a | b


class KindFlow:
    """The kinds every zone, game variable, parameter and local may hold (frozensets; None: any kind).

    A value is a set of kind names and of ("zone", NAME) for a zone itself (a local or a function may name a
    zone: `move c to d`); what lies in a zone is read from `zones` when the zone is gone through or moved."""

    def __init__(self, content):
        self.content = content
        voc = content.vocabulary
        self.start = {z: frozenset(k for k, spec in voc.kinds.items() if spec.starts_in == z) for z in voc.zones}
        self.of_record = {eid: rec.data.get("kind") for eid, rec in content.entity_ids.items()}
        for rec in content.records:
            self.of_record.setdefault(rec.id, rec.data.get("kind"))
        checker = content.checker
        self.signatures = checker.signatures if checker is not None else {}
        self.zones = dict(self.start)
        self.wild = frozenset()  # what moves into zones the text cannot tell bring (to every zone)
        self.vars: dict = {}
        self.params: dict = {}  # ("sig" | "cardfn", name) -> [the values of each parameter]
        self.returns: dict = {}
        self.locals: dict = {}  # (path, 0-based line of a declaration) -> {name: value}
        self._paths: dict = {}
        self._plans: dict = {}  # id(expression) -> its calls, methods and suppositions, in its queries (see _plan)
        self._settle()
        self._plans = {}

    def local(self, path, line: int, name: str):
        """The kinds the local `name` of the declaration at (path, line) may be or hold; None when unknown."""
        return self.elements(self.locals.get((path, line), {}).get(name, frozenset())) or None

    def zone(self, name: str):
        return self.elements(frozenset({("zone", name)})) or None

    def elements(self, value):
        """The kinds of the components a value is or holds (a zone: what may lie in it)."""
        if value is None:
            return None
        out = set()
        for v in value:
            if isinstance(v, tuple):
                inner = self.zones.get(v[1], frozenset())
                if inner is None:
                    return None
                out |= inner
            else:
                out.add(v)
        wild = self.wild if any(isinstance(v, tuple) for v in value) else frozenset()
        return None if wild is None else frozenset(out | wild)

    # -------------------------------------------------------------- the rounds
    def _settle(self) -> None:
        """Rounds over every declaration, each value only growing (sets, then None), until a round changes nothing."""
        for _ in range(ROUNDS):
            self._changed = False
            for module in self.content.modules:
                for decl in module.decls:
                    self._decl(module, decl)
            if not self._changed:
                return
        # not settled: what has grown so far may fall short, so nothing is narrowed at all
        self.zones = {z: None for z in self.zones}
        self.vars = {v: None for v in self.vars}
        self.locals = {}

    def _grow(self, table: dict, key, value) -> None:
        old = table.get(key, frozenset())
        new = _union(old, value)
        if new != old:
            table[key] = new
            self._changed = True

    def _grow_param(self, key, i: int, value) -> None:
        given = self.params.setdefault(key, [])
        while len(given) <= i:
            given.append(frozenset())
        new = _union(given[i], value)
        if new != given[i]:
            given[i] = new
            self._changed = True

    def _decl(self, module, decl) -> None:
        env: dict = {}
        self._seen: dict = {}  # a query's name, bound inside an expression: what it held, all its bindings together
        self._owner = frozenset({self.of_record.get(module.owner)}) if module.owner else None
        if isinstance(decl, (ast.Procedure, ast.Function, ast.EventDecl)):
            key = ("cardfn" if module.owner and isinstance(decl, ast.Function) else "sig", decl.name)
            given = self.params.get(key, [])
            for i, p in enumerate(decl.params):
                env[p.name] = given[i] if i < len(given) else frozenset()
        pattern = getattr(decl, "pattern", None)
        if pattern is not None:
            target = decl.func if isinstance(decl, ast.Modifier) else decl.event
            given = self.params.get(("sig", target), [])
            for i, name in enumerate(pattern):
                if name not in ("_", "this", "you"):
                    env[name] = given[i] if i < len(given) else frozenset()
        for part in (getattr(decl, "cond", None), getattr(decl, "expr", None)):
            if part is not None:
                self._visit(part, env)
        if isinstance(decl, ast.Function):
            self._grow(self.returns, ("cardfn" if module.owner else "sig", decl.name), self._value(decl.expr, env))
        self._block(getattr(decl, "body", None) or [], env)
        path = self._paths.get(decl.span.path)
        if path is None:
            path = self._paths[decl.span.path] = file_of(decl.span.path)
        for name, value in self._seen.items():
            env[name] = _union(env.get(name, frozenset()), value)
        self.locals[(path, decl.span.line - 1)] = env

    def _block(self, body: list, env: dict) -> None:
        for s in body:
            self._stmt(s, env)

    def _stmt(self, s, env: dict) -> None:
        for child in ast.children(s):
            if not isinstance(child, list) and not _is_stmt(child):
                self._visit(child, env)
        if isinstance(s, ast.Let):
            env[s.name] = self._value(s.value, env)
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            value = self._value(s.value, env)
            ref = getattr(s.target, "ref", None)
            if ref and ref[0] == "gamevar":
                self._grow(self.vars, s.target.id, value)
            else:
                env[s.target.id] = _union(env.get(s.target.id, frozenset()), value)
        elif isinstance(s, ast.Move):
            self._move(s.what, s.dest, env)
        elif isinstance(s, (ast.For, ast.Choose, ast.Secretly)):
            env[s.var] = _narrow(self.elements(self._value(s.coll, env)), getattr(s, "cond", None), s.var)
        elif isinstance(s, ast.ChooseOrder):
            env[s.var] = self.elements(self._value(s.coll, env))
        elif isinstance(s, ast.Menu):
            for opt in s.options:
                for b in opt.bindings:
                    env[b.var] = _narrow(self.elements(self._value(b.coll, env)), b.cond, b.var)
        if isinstance(s, ast.If):
            self._branches(s, env)
        for attr in ("body",) if isinstance(s, ast.If) else ("body", "other"):
            inner = getattr(s, attr, None)
            if isinstance(inner, list):
                self._block(inner, env)
        for opt in getattr(s, "options", None) or []:
            self._block(opt.body, env)
        if isinstance(s, ast.Menu) and s.otherwise:
            self._block(s.otherwise, env)
        if isinstance(s, ast.Until):
            for d in s.decls:
                self._decl(ast.Module("", [], None), d)

    def _branches(self, s, env: dict) -> None:
        """`if c.kind == K:` holds only K inside; an `elif` or `else` after `if c.kind == K:` holds no K."""
        ruled_out: dict = {}
        for cond, body in s.branches + ([(None, s.other)] if s.other else []):
            inner = dict(env)
            for var, gone in ruled_out.items():
                if inner.get(var):
                    inner[var] = inner[var] - gone or inner[var]
            tested = _kind_tests(cond)
            for var in tested:
                inner[var] = _narrow(inner.get(var), cond, var)
            self._block(body, inner)
            for name, value in inner.items():
                if name not in tested and name not in ruled_out:
                    env[name] = _union(env.get(name, frozenset()), value)
            if isinstance(cond, ast.Binary) and cond.op == "==" and len(tested) == 1:
                var = next(iter(tested))
                ruled_out[var] = ruled_out.get(var, frozenset()) | tested[var]

    def _move(self, what, dest, env: dict) -> None:
        moved = self.elements(self._value(what, env))
        where = self._value(dest, env)
        zones = [v[1] for v in where if isinstance(v, tuple)] if where is not None else []
        if not zones:
            new = _union(self.wild, moved)
            if new != self.wild:
                self.wild, self._changed = new, True
        for z in zones:
            if z in self.zones:
                self._grow(self.zones, z, moved)

    # -------------------------------------------------------------- expressions
    def _visit(self, node, env: dict) -> None:
        """Calls passing values to parameters, and moves inside `suppose`, anywhere in an expression."""
        plan = self._plans.get(id(node))
        if plan is None:
            plan = self._plans[id(node)] = _plan(node)
        scopes: dict = {}
        for queries, n in plan:
            scope = env
            for q in queries:  # the queries around n bind their names, outermost first
                inner = scopes.get(id(q))
                if inner is None:
                    inner = scopes[id(q)] = dict(scope)
                    inner[q.var] = _narrow(self.elements(self._value(q.coll, scope)), q.cond, q.var)
                    self._seen[q.var] = _union(self._seen.get(q.var, frozenset()), inner[q.var])
                scope = inner
            if isinstance(n, ast.Call):
                if n.func in self.signatures:
                    for i, a in enumerate(n.args):
                        self._grow_param(("sig", n.func), i, self._value(a, scope))
            elif isinstance(n, ast.Method):
                for i, a in enumerate(n.args):
                    self._grow_param(("cardfn", n.name), i, self._value(a, scope))
            elif isinstance(n, ast.Suppose):
                for what, dest in n.moves:
                    self._move(what, dest, scope)

    def _value(self, e, env: dict):
        """What `e` is: kinds of components, and zones themselves; None when the text cannot tell."""
        if e is None or isinstance(e, ast.Const):
            return frozenset()
        if isinstance(e, ast.Name):
            if e.id == "this" and self._owner is not None:
                return self._owner
            ref = getattr(e, "ref", None) or ()
            if ref[:1] == ("local",) or e.id in env:
                return env.get(e.id)
            if ref[:1] == ("gamevar",):
                return self.vars.get(e.id, frozenset())
            if ref[:1] == ("zone",):
                return frozenset({("zone", e.id)})
            return None
        if isinstance(e, ast.EntityRef):
            kind = self.of_record.get(e.id)
            return frozenset({kind}) if kind else None
        if isinstance(e, ast.Of):
            ref = getattr(e, "ref", None) or ()
            return frozenset({("zone", e.name)}) if ref[:1] == ("zone",) else None
        if isinstance(e, ast.ListLit):
            out = frozenset()
            for item in e.items:
                out = _union(out, self._value(item, env))
            return out
        if isinstance(e, ast.IfExpr):
            return _union(self._value(e.then, env), self._value(e.other, env))
        if isinstance(e, ast.Index):
            return self.elements(self._value(e.obj, env))
        if isinstance(e, ast.Binary) and e.op == "+":
            return _union(self._value(e.left, env), self._value(e.right, env))
        if isinstance(e, ast.Call):
            if e.func in self.signatures:
                return self.returns.get(("sig", e.func), frozenset())
            if e.func in _ELEMENT_CALLS and e.args:
                out = frozenset()
                for a in e.args[:1] if e.func != "concat" else e.args:
                    out = _union(out, self.elements(self._value(a, env)))
                return out
            return None
        if isinstance(e, ast.Method):
            return self.returns.get(("cardfn", e.name), frozenset())
        if isinstance(e, ast.Query) and (e.func in _ELEMENT_CALLS or e.func == "list"):
            inner = dict(env)
            inner[e.var] = _narrow(self.elements(self._value(e.coll, env)), e.cond, e.var)
            return inner[e.var] if e.value is None else self.elements(self._value(e.value, inner))
        return None


def _plan(root) -> list:
    """The nodes of an expression that pass values on (calls, methods, `suppose`) or bind a name (queries),
    each with the queries around it (a query with itself), outermost first: walked once, read every round."""
    out = []
    stack = [(root, ())]
    while stack:
        n, queries = stack.pop()
        inner = queries + (n,) if isinstance(n, ast.Query) else queries
        if isinstance(n, (ast.Call, ast.Method, ast.Suppose, ast.Query)):
            out.append((inner, n))  # a query for the name it binds
        stack.extend((c, inner) for c in reversed(ast.children(n)))
    return out


def _is_stmt(node) -> bool:
    return isinstance(node, (ast.Let, ast.Assign, ast.CallStmt, ast.Move, ast.If, ast.For, ast.While, ast.Repeat,
                             ast.Menu, ast.Choose, ast.Secretly, ast.Until, ast.Option))


def _zone_named(dest) -> str | None:
    ref = getattr(dest, "ref", None) or ()
    if isinstance(dest, ast.Of) and ref[:1] == ("zone",):
        return dest.name
    if isinstance(dest, ast.Name) and ref[:1] == ("zone",):
        return dest.id
    return None


def _kind_tests(cond) -> dict:
    """{name: kinds} of the `name.kind == K` a condition makes sure of (among `and`s)."""
    tested: dict = {}
    stack = [cond] if cond is not None else []
    while stack:
        c = stack.pop()
        if isinstance(c, ast.Binary) and c.op == "and":
            stack += [c.left, c.right]
        elif isinstance(c, ast.Binary) and c.op == "==" and isinstance(c.left, ast.Attr) and c.left.name == "kind" \
                and isinstance(c.left.obj, ast.Name) and isinstance(c.right, ast.Name):
            tested[c.left.obj.id] = tested.get(c.left.obj.id, frozenset()) | {c.right.id}
    return tested


def _narrow(kinds, cond, var: str):
    """The kinds left by a `where` (or an `if`) that tests `var.kind == K`."""
    tested = _kind_tests(cond).get(var)
    if not tested:
        return kinds
    return tested if kinds is None else tested & kinds or tested
