"""`rules explain LOG --why EXPR`: an expression of the rules evaluated on the table of a logged game,
and how its value came about.

The expression is parsed and checked as rule text (players may be written P1, P2, ...), then taken
apart along its checked AST: a call of a rule function shows the function's own body part by part
and then every modifier that changed its value (whose ability, which player controls it, the rule
text it runs and what it made of the value); a sum, a count or a list shows each item; an `if`
shows the branch taken. Each part is computed by the compiled code of that very sub-expression, on
the same table, so the parts and the whole are the game's own values, never a second interpreter's.

Explain reads a whole log, as the game's author may: components are named whatever their
visibility (a log holds every decision, also the secret ones).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from dsl import ast
from dsl.checker import Scope
from dsl.diagnostics import Diagnostic, DiagnosticError, Report, Source
from dsl.parser import parse_expression
from interpreter.codegen import compile_expression
from interpreter.codegen.library import items
from interpreter.core.state import Entity, Zone
from interpreter.present.phrases import say
from interpreter.present.words import Presenter, entity_name

MAX_ITEMS = 24  # items of a sum or a list shown one by one; the rest are counted
MAX_PARTS = 600  # parts in one explanation: past this, parts are shown without their own parts
MAX_DEPTH = 12


@dataclass
class Part:
    """One step of how a value came about: what was computed (in words), its value, and its own parts."""

    what: str
    value: str
    kind: str = "value"  # call | before | modifier | item | value
    at: str | None = None  # file:line:col of the rule text, for a modifier
    note: str | None = None
    parts: list = field(default_factory=list)
    idle: int = 0  # a call's modifiers whose condition did not hold (left out of the text)

    def to_json(self) -> dict:
        out = {"what": self.what, "value": self.value, "kind": self.kind}
        if self.idle:
            out["modifiers_not_applying"] = self.idle
        if self.at:
            out["at"] = self.at
        if self.note:
            out["note"] = self.note
        if self.parts:
            out["parts"] = [p.to_json() for p in self.parts]
        return out

    def lines(self, depth: int = 0) -> list[str]:
        text = f"{self.what} = {self.value}" if self.value != "" else self.what
        if self.note:
            text += f"  ({self.note})"
        if self.at:
            text += f"  [{self.at}]"
        out = ["  " * depth + text]
        for p in self.parts:
            out.extend(p.lines(depth + 1))
        return out


class Author(Presenter):
    """The author's reading: every component by its name (copies numbered), whatever its visibility."""

    def entity(self, e: Entity, values: bool = True, where: bool = False) -> str:
        return self.told_apart(e, entity_name(e, self.lang))





class Why:
    """Explains expressions on one session's table, in one language."""

    def __init__(self, session, lang: str):
        self.session = session
        self.game = session.game
        self.rt = session.rt
        self.lang = lang
        self.pr = Author(session.state, None, lang)
        self.compiled: dict = {}
        self.count = 0
        content = self.game.content
        self.card_decls: dict = {}  # (record id, function name) -> its declaration
        self.modifier_decls: dict = {}  # the span of a modifier -> its declaration
        for module in content.modules:
            for decl in module.decls:
                if isinstance(decl, ast.Function) and module.owner is not None:
                    self.card_decls[(module.owner, decl.name)] = decl
                for node in _walk(decl):
                    if isinstance(node, ast.Modifier):
                        self.modifier_decls[_span_key(node.span)] = node

    # ------------------------------------------------------------ the expression
    def parse(self, text: str, extra: dict | None = None):
        """The expression checked against the game, with P1, P2, ... naming the players (and `extra`: name -> its
        type, the parameters of a procedure starting where the expression is read)."""
        content = self.game.content
        node = parse_expression(Source("--why", text))
        names = {**(extra or {}), **{f"P{i + 1}": "player" for i in range(self.session.state.players)}}
        report = Report()
        checker = content.checker
        saved, checker.report = checker.report, report
        try:
            checker.expr(node, Scope(names))
        finally:
            checker.report = saved
        report.raise_if_errors()
        return node

    def explain(self, text: str, names: dict | None = None) -> Part:
        """`names`: name -> (type, value), read by the expression besides the players (a step's parameters)."""
        names = names or {}
        node = self.parse(text, {k: t for k, (t, _) in names.items()})
        env = {**{k: v for k, (_, v) in names.items()}, **{f"P{i + 1}": i for i in range(self.session.state.players)}}
        self.count = 0
        part = self.part(node, env, 0)
        part.what = text.strip()
        return part

    # ------------------------------------------------------------ evaluation
    def value(self, node, env: dict):
        keys = tuple(sorted(env))
        fn = self.compiled.get((id(node), keys))
        if fn is None:
            fn = self.compiled[(id(node), keys)] = compile_expression(self.game, node, keys)
        self.rt.steps = self.rt.calls = 0  # each part on the budget of a step of its own
        return fn(self.rt, *(env[k] for k in keys))

    def words(self, value, t: str = "any") -> str:
        return self.pr.value(value, t or "any")

    def text(self, node) -> str:
        """The rule text of a node, as written when it stands on one line."""
        span = node.span
        if span is not None and span.text and span.end_col > span.col:
            return span.text[span.col - 1:span.end_col - 1].strip()
        return _unparse(node)

    # ------------------------------------------------------------ parts
    def part(self, node, env: dict, depth: int) -> Part:
        self.count += 1
        try:
            value = self.value(node, env)
        except DiagnosticError as err:
            return Part(self.text(node), say(self.lang, "why cannot", why=err.diagnostics[0].message))
        except Exception as exc:  # noqa: BLE001 - content's own failure, told in words
            from interpreter.runtime.failures import _explain
            why = _explain(exc)
            missing = self.none_in(node, env) if "'NoneType'" in str(exc) else None
            if missing is not None:  # which value was none, by its rule text
                why = say(self.lang, "why none", what=missing)
            return Part(self.text(node), say(self.lang, "why cannot", why=why))
        shown = self.words(value, getattr(node, "type", "any"))
        if depth >= MAX_DEPTH or self.count > MAX_PARTS:
            return Part(self.text(node), shown)
        kind = type(node).__name__
        if kind == "Call" and getattr(node, "ref", ("builtin",))[0] != "builtin":
            return self.call(node, env, depth, shown)
        if kind == "Method":
            return self.method(node, env, depth, shown)
        if kind == "Binary" and node.op in ("+", "-", "*", "/", "%"):
            return Part(self.text(node), shown, parts=self.operands(node, env, depth))
        if kind == "IfExpr":
            cond = bool(self.value(node.cond, env))
            inner = self.part(node.then if cond else node.other, env, depth + 1)
            note = say(self.lang, "why since", cond=self.text(node.cond), value=self.words(cond))
            inner.note = f"{note}; {inner.note}" if inner.note else note
            return inner
        if kind == "Query":
            return self.query(node, env, depth, shown)
        if kind == "ListLit":
            return Part(self.text(node), shown, parts=[self.part(i, env, depth + 1) for i in node.items[:MAX_ITEMS]])
        if kind == "Call":  # a built-in: its arguments that are computed show how
            parts = [self.part(a, env, depth + 1) for a in node.args if _computed(a)]
            return Part(self.text(node), shown, parts=parts)
        return Part(self.text(node), shown)

    def none_in(self, node, env: dict, depth: int = 0) -> str | None:
        """The rule text of the innermost part of a failing node whose value is none (`attacker`, `c.house`),
        the parts read in order; None when no part is none (or none can be read alone here)."""
        if depth > MAX_DEPTH:
            return None
        # a comprehension's condition and value read its variable, which is bound only inside it
        for child in [node.coll] if isinstance(node, ast.Query) else ast.children(node):
            if not hasattr(child, "type") or isinstance(child, (ast.Num, ast.Const)):
                continue  # not an expression (a name being bound), or a constant
            try:
                value = self.value(child, env)
            except Exception:  # noqa: BLE001 - this part fails too: the none is further in (or a name bound here)
                inner = self.none_in(child, env, depth + 1)
                if inner is not None:
                    return inner
                continue
            if value is None:
                return self.text(child)
        return None

    def operands(self, node, env: dict, depth: int) -> list:
        """a + b - c ...: each operand, the subtracted ones marked; constants left out."""
        group = ("+", "-") if node.op in ("+", "-") else (node.op,)
        pairs = []
        n = node
        while isinstance(n, ast.Binary) and n.op in group:
            pairs.append((n.op, n.right))  # the operator stands before its right operand
            n = n.left
        pairs.append((None, n))
        out = []
        for op, operand in reversed(pairs):
            if isinstance(operand, ast.Num):
                continue
            p = self.part(operand, env, depth + 1)
            if op == "-":
                p.what = "− " + p.what
            out.append(p)
        return out

    def call(self, node, env: dict, depth: int, shown: str) -> Part:
        name = node.func
        args = [self.value(a, env) for a in node.args]
        decl = getattr(node.ref[1], "decl", None)
        params = [p.name for p in decl.params] if decl is not None else []
        arg_words = ", ".join(self.words(a, getattr(n, "type", "any")) for a, n in zip(args, node.args))
        what = f"{self.pr.word(name)} ({arg_words})" if arg_words else self.pr.word(name)
        inner = dict(zip(params, args))
        body = self.part(decl.expr, inner, depth + 1) if decl is not None else None
        return self.with_modifiers(Part(what, shown, "call"), name, args, body, (decl, inner))

    def method(self, node, env: dict, depth: int, shown: str) -> Part:
        obj = self.value(node.obj, env)
        args = [self.value(a, env) for a in node.args]
        decl = self.card_decls.get((obj.record_id, node.name)) if isinstance(obj, Entity) else None
        arg_words = ", ".join(self.words(a, getattr(n, "type", "any")) for a, n in zip(args, node.args))
        name = self.pr.word(node.name) + (f" ({arg_words})" if arg_words else "")
        what = say(self.lang, "why of", name=name, obj=self.words(obj)) if isinstance(obj, Entity) else self.text(node)
        body = inner = None
        if decl is not None:
            inner = {"this": obj, **{p.name: a for p, a in zip(decl.params, args)}}
            body = self.part(decl.expr, inner, depth + 1)
        return self.with_modifiers(Part(what, shown, "call"), node.name, args, body, (decl, inner))

    def with_modifiers(self, part: Part, name: str, args: list, body: Part | None, own: tuple) -> Part:
        """The function's own value (its body's parts), then each modifier in the order they apply."""
        mods, idle = self.modifiers(name, args, own) if name in self.game.modified and name not in self.rt.modifying \
            else ([], 0)
        if body is not None:
            if mods:
                before = Part(say(self.lang, "why before"), body.value, "before", note=body.note,
                              parts=body.parts if body.kind != "call" else [body])
                if body.kind != "call" and not body.parts:
                    before.note = body.what if not body.note else f"{body.what}; {body.note}"
                part.parts.append(before)
            elif body.kind == "call":
                part.parts.append(body)
            elif body.parts:
                part.parts.extend(body.parts)
                part.note = body.note
            else:  # a plain value: its rule text says where it comes from
                part.note = body.what if not body.note else f"{body.what}; {body.note}"
        part.parts.extend(mods)
        part.idle = idle
        return part

    def modifiers(self, name: str, args: list, own: tuple) -> tuple[list, int]:
        """Each modifier of `name` for these arguments applied as the runtime applies them (the highest
        priority last), with what it made of the value; and how many did not apply."""
        rt = self.rt
        found = rt.resolver.collect("modifier", name, list(args))
        if not found:
            return [], 0
        decl, inner = own
        value = self.value(decl.expr, inner) if decl is not None else None  # the function's own value
        out, idle = [], 0
        rt.modifying.add(name)  # a modifier reading the function it modifies sees the unmodified value
        try:
            for cand in reversed(found):
                b = dict(cand.b)
                b["value"] = value
                held = cand.hook.cond is None or cand.hook.cond(rt, b)
                if not held:
                    idle += 1
                    continue
                decl = self.modifier_decls.get(_span_key(cand.hook.span))
                before = value
                value = cand.hook.expr(rt, b)
                source = say(self.lang, "why rules") if cand.source is None else self.words(cand.source)
                if cand.controller is not None and cand.source is not None:
                    source = say(self.lang, "why controlled", card=source, player=self.pr.player(cand.controller, False))
                part = Part(say(self.lang, "why modifier", source=source), self.words(value), "modifier", at=str(cand.hook.span))
                if decl is not None:
                    inner = self.part(decl.expr, b, MAX_DEPTH - 3)
                    part.note = f"{inner.what}: {self.words(before)} → {self.words(value)}"
                    part.parts = [p for p in inner.parts if p.what != "value"]
                out.append(part)
        finally:
            rt.modifying.discard(name)
        return out, idle

    def query(self, node, env: dict, depth: int, shown: str) -> Part:
        part = Part(self.text(node), shown)
        coll = self.value(node.coll, env)
        pool = list(items(coll)) if isinstance(coll, (list, tuple, Zone)) else []
        kept = []
        for item in pool:
            inner = {**env, node.var: item}
            if node.cond is None or self.value(node.cond, inner):
                kept.append((item, inner))
        if node.value is None:
            if node.func in ("count", "list", "len") and kept:
                t = _element(getattr(node.coll, "type", "any"))
                names = [self.words(i, t) for i, _ in kept[:MAX_ITEMS]]
                if len(kept) > MAX_ITEMS:
                    names.append(say(self.lang, "why more", n=len(kept) - MAX_ITEMS))
                part.note = say(self.lang, "why counted", items=", ".join(names))
            return part
        t = _element(getattr(node.coll, "type", "any"))
        for item, inner in kept[:MAX_ITEMS]:
            p = self.part(node.value, inner, depth + 1)
            if p.kind != "call":  # a call names its item among its arguments already
                p = Part(f"{self.words(item, t)}: {p.what}", p.value, "item", note=p.note, parts=p.parts)
            part.parts.append(p)
        if len(kept) > MAX_ITEMS:
            part.parts.append(Part(say(self.lang, "why more", n=len(kept) - MAX_ITEMS), ""))
        return part


def _element(t: str) -> str:
    return t[5:-1] if t.startswith("list[") else "any"


_OPS = {"notin": "not in"}


def _unparse(node) -> str:
    """Rule text of a node written over several lines, put back on one (the common forms; others by kind)."""
    k = type(node).__name__
    if k == "Num":
        return str(node.value)
    if k == "Name":
        return node.id
    if k == "EntityRef":
        return "@" + node.id
    if k == "Const":
        return {True: "true", False: "false", None: "none"}[node.value]
    if k == "Attr":
        return f"{_unparse(node.obj)}.{node.name}"
    if k == "Of":
        return f"{node.name} of {_unparse(node.arg)}"
    if k == "Call":
        return f"{node.func}({', '.join(_unparse(a) for a in node.args)})"
    if k == "Method":
        return f"{_unparse(node.obj)}.{node.name}({', '.join(_unparse(a) for a in node.args)})"
    if k == "Binary":
        return f"{_unparse(node.left)} {_OPS.get(node.op, node.op)} {_unparse(node.right)}"
    if k == "Unary":
        return f"{node.op}{' ' if node.op == 'not' else ''}{_unparse(node.operand)}"
    if k == "Index":
        return f"{_unparse(node.obj)}[{_unparse(node.key)}]"
    if k == "IfExpr":
        return f"if {_unparse(node.cond)} then {_unparse(node.then)} else {_unparse(node.other)}"
    if k == "Query":
        inner = f"{node.var} in {_unparse(node.coll)}" + (f" where {_unparse(node.cond)}" if node.cond else "")
        if node.value is not None:
            inner = f"{_unparse(node.value)} for {inner}"
        return f"[{inner}]" if node.func == "list" else f"{node.func}({inner})"
    return k.lower()


def _computed(node) -> bool:
    return isinstance(node, (ast.Call, ast.Method, ast.Query, ast.Binary, ast.IfExpr))


def _span_key(span) -> tuple:
    return (span.path, span.line, span.col) if span is not None else ()


def _walk(node):
    yield node
    for child in ast.children(node):
        yield from _walk(child)
