"""Checked statements to Python statements, written into one generated function.

Locals of the rule text are Python locals (`v_NAME`). A block that can reach a decision is part of
a generator function: `choose` yields a Decision and receives the index of the answer. Bodies that
run on their own (each player's part of `secretly`, abilities of `until`) become functions of their
own, given the locals they may read as arguments, so they see a copy, as the language says.
"""
from __future__ import annotations

from contextlib import contextmanager

from dsl import ast
from interpreter.codegen import library
from interpreter.codegen.conditions import test, worthwhile
from interpreter.codegen.chance import drawn_before
from interpreter.codegen.expressions import Expressions, _plain_local, made_list
from interpreter.codegen.facts import LISTS, SEAT, local_facts, of_one_player, players_like
from interpreter.codegen.menus import Menus
from interpreter.codegen.source import PROC, Writer, literal, mangle
from interpreter.core.decisions import Question


class Statements(Menus):
    def __init__(self, unit, writer, bound: set, in_procedure: bool = False, chance: bool = False):
        self.unit = unit  # the declarations compiler: makes functions and hooks of their own
        self.game = unit.game
        self.in_procedure = in_procedure  # a procedure's body (not an ability's or a secret part's)
        # the body may stop for the chance seat (a procedure's, a scenario's: codegen.chance); an ability's, a `whenever`'s
        # or a secret part's draws are the seed's, and it runs a procedure that only draws through (`_run_through`)
        self.chance = chance
        self.w = writer
        self.bound = set(bound)
        self.facts: dict | None = None  # what the body's bindings make sure of its locals (codegen.facts)
        self.drawn: dict = {}  # id(expression) -> the local holding its value, drawn before the statement (`drawing`)

    @property
    def ex(self) -> Expressions:
        return Expressions(self.game, self.bound, facts=self.facts)

    def expr(self, node) -> str:
        if self.drawn:
            found = self.drawn.get(id(node))
            if found is not None:
                return found
        return self.ex.expr(node)

    @contextmanager
    def child(self, *names: str):
        saved = self.bound
        self.bound = saved | set(names)
        self.w.indent()
        start = len(self.w.lines)
        try:
            yield
        finally:
            if len(self.w.lines) == start:
                self.w.line("pass")
            self.w.dedent()
            self.bound = saved

    def block(self, stmts: list) -> None:
        if self.facts is None:  # the first block is the whole body
            self.facts = local_facts(self.game, stmts, self.bound)
        # Each line written is filed under the statement it is written for; what follows a block (an `else:`, a
        # function's closing `return None`) under the statement around it again, not under the block's last one,
        # so that rule coverage (scenarios.coverage) and run errors never name a statement that did not run.
        around = self.w.span
        for s in stmts:
            self.w.span = s.span
            if self.chance and self.unit.stmt_draws(s):
                self.drawing(s)
            else:
                getattr(self, "s_" + type(s).__name__)(s)
        self.w.span = around

    def drawing(self, s) -> None:
        """A statement that draws by chance: the expressions it evaluates before acting that may draw are evaluated
        first, where the chance seat may be asked (codegen.chance): a draw that needs its answer raises, the decision
        is yielded, and the expressions are evaluated again with the answers so far. Then the statement acts on
        their values, as it would have. With the seed drawing (by default) nothing is ever yielded here."""
        w = self.w
        asked, err = w.temp(), w.temp()
        nodes = [n for n in drawn_before(s, self.game.procs) if self.unit.draws(n)]
        if isinstance(s, ast.Shuffle) and s.zone not in nodes:
            nodes.append(s.zone)
        w.line(f"{asked} = None")
        w.line("while True:")
        w.line(f"    if {asked} is not None:")
        w.line(f"        _chance_took(rt, (yield {asked}))")
        w.line(f"    _chance_arm(rt, {asked} is None)")
        w.line("    try:")
        hoisted = {}
        for n in nodes:
            t = w.temp()
            w.line(f"        {t} = {self.expr(n)}")
            hoisted[id(n)] = t
        if isinstance(s, ast.Shuffle):
            order = w.temp()
            w.line(f"        {order} = _draw_order(rt, {hoisted[id(s.zone)]})")
        w.line(f"    except _ChanceAsked as {err}:")
        w.line(f"        {asked} = _chance_decision({err})")
        w.line("        continue")
        w.line("    finally:")
        w.line("        _chance_disarm(rt)")
        w.line("    break")
        if isinstance(s, ast.Shuffle):
            w.line(f"_apply_order(rt, {hoisted[id(s.zone)]}, {order})")
            return
        self.drawn.update(hoisted)
        try:
            getattr(self, "s_" + type(s).__name__)(s)
        finally:
            for key in hoisted:
                del self.drawn[key]

    def suite(self, stmts: list, *names: str) -> None:
        with self.child(*names):
            self.block(stmts)

    # ------------------------------------------------------------ calls of procedures
    def call(self, call: ast.Call) -> str:
        name = call.func
        args = [self.expr(a) for a in call.args]
        yields = name in self.game.yielding
        through = yields and not self.chance and name not in self.game.asking  # it may draw, but nobody is asked here
        if name not in self.game.hooked_events:
            src = f"{mangle(PROC, name)}({', '.join(['rt', *args])})"
            return f"_run_through(rt, {src})" if through else f"(yield from {src})" if yields else src
        packed = "[" + ", ".join(args) + "]"
        if through:
            return f"_run_through(rt, rt.event({literal(name)}, {packed}))"
        if yields:
            return f"(yield from rt.event({literal(name)}, {packed}))"
        return f"rt.invoke_plain({literal(name)}, {packed})"

    def is_proc_call(self, node) -> bool:
        return isinstance(node, ast.Call) and node.func in self.game.procs

    # ------------------------------------------------------------ simple statements
    def s_Pass(self, s) -> None:
        self.w.line("pass")

    def s_Let(self, s) -> None:
        if id(s.value) in self.drawn:  # drawn before (`drawing`)
            value = self.drawn[id(s.value)]
        elif isinstance(s.value, ast.Query) and s.value.func == "list" and not s.value.keys:
            value = self.list_loop(s.value)
        elif self.extreme_of_list(s):
            self.bound.add(s.name)
            return
        else:
            value = self.call(s.value) if self.is_proc_call(s.value) else self.expr(s.value)
        self.bound.add(s.name)
        self.w.line(f"{self.ex.local(s.name)} = {value}")

    def list_loop(self, q) -> str:
        """`let x = [... for v in C ...]` as a loop rather than a Python comprehension, which is a function
        call of its own in Python 3.11; the variable is a temporary (it stays out of the procedure's locals).
        A card function asked of one component for every element (`[t.score(q) for q in players]`) is
        looked up once, when there is an element (the lookup fails as each call would)."""
        value = q.value
        method = isinstance(value, ast.Method) and q.cond is None and value.name not in self.game.modified and \
            _plain_local(value.obj) and value.obj.id != q.var
        if method and _for_every_seat(self.game, q, value):
            # `[t.f(q) for q in players]` of a card function of one player: its values for every seat in one call
            obj = self.expr(value.obj)
            return f"rt.cfs.seats[{obj}.record_id][{literal(value.name)}](rt, {obj})"
        w = self.w
        out, var = w.temp(), w.temp()
        ex = Expressions(self.game, self.bound | {q.var}, None, {q.var: var},
                         facts={**self.facts, var: SEAT} if players_like(q.coll) else self.facts)
        counted = not self.ex.small(q)
        coll = self.ex.each(q.coll) if counted else self.ex.items(q.coll)
        w.line(f"{out} = []")
        if method:
            seq, fn = w.temp(), w.temp()
            obj = self.expr(value.obj)
            w.line(f"{seq} = {coll}")
            w.line(f"if {seq}:")
            w.line(f"    {fn} = rt.cfs[{obj}.record_id][{literal(value.name)}]")
            w.line(f"    for {var} in {seq}:")
            w.line(f"        {out}.append({fn}({', '.join(['rt', obj, *(ex.expr(a) for a in value.args)])}))")
            return out
        w.line(f"for {var} in {coll}:")
        item = ex.expr(value) if value is not None else var
        if q.cond is not None:
            w.indent()
            w.line(f"if {test(self.game, w, ex, q.cond)}:")
            w.dedent()
            w.line(f"        {out}.append({item})")
        else:
            w.line(f"    {out}.append({item})")
        return out

    def extreme_of_list(self, s) -> bool:
        """`let m = max(xs)` (or min) of a list local: counted and taken in place, as `_max1` would (no helper call
        for the common case); False (nothing written) for any other value."""
        v = s.value
        if not (isinstance(v, ast.Call) and getattr(v, "ref", ("",))[0] == "builtin" and v.func in ("max", "min")
                and len(v.args) == 1 and _plain_local(v.args[0]) and v.args[0].type.startswith("list[")):
            return False
        seq = self.expr(v.args[0])
        if not seq.isidentifier():
            return False
        w = self.w
        target = self.ex.local(s.name)
        fact = self.facts.get(seq)
        if fact in LISTS[:2]:  # a few elements at most, like a small comprehension's: counted with what runs it
            w.line(f"{target} = _{v.func}_of({seq}) if {seq} else None")
            return True
        if fact == LISTS[2]:
            w.line(f"rt.steps += _len({seq})")
            w.line(f"if rt.steps > {library.STEP_LIMIT}:")
            w.line(f"    _spend(rt, 0, {literal(f'elements {v.func!r} went through')})")
            w.line(f"{target} = _{v.func}_of({seq}) if {seq} else None")
            return True
        w.line(f"if _type({seq}) is _list:")
        w.line(f"    rt.steps += _len({seq})")
        w.line(f"    if rt.steps > {library.STEP_LIMIT}:")
        w.line(f"        _spend(rt, 0, {literal(f'elements {v.func!r} went through')})")
        w.line(f"    {target} = _{v.func}_of({seq}) if {seq} else None")
        w.line("else:")
        w.line(f"    {target} = _{v.func}1(rt, {seq})")
        return True

    def s_Assign(self, s) -> None:
        target = s.target
        ref = getattr(target, "ref", ("local",))
        w = self.w
        if isinstance(target, ast.Name):
            place = self.ex.local(target.id) if ref[0] == "local" else f"rt.gv[{literal(target.id)}]"
        elif isinstance(target, ast.Attr):
            owner = w.temp()
            w.line(f"{owner} = {self.expr(target.obj)}")
            place = self.ex.member(owner, ref, target.name)
        else:
            obj, key = w.temp(), w.temp()
            w.line(f"{obj} = {self.expr(target.obj)}")
            w.line(f"{key} = {self.expr(target.key)}")
            place = f"{obj}[{key}]"
        value = self.expr(s.value)
        kind = ref[1].type if ref[0] in ("gamevar", "var") else getattr(target, "type", "any")
        if s.op != "=":  # never Python's in-place +=, which would change a shared list
            if s.value.type == "number":  # the checker wants a number on the left too: never a growing text or list
                value = f"{place} {s.op[0]} ({value})"
            else:  # a text or a list grows within the budgets
                value = f"_chain(rt, {literal(s.op[0])}, {place}, {value})"
        kept = isinstance(target, ast.Index) or ref[0] != "local"  # a value the game keeps (and writes out)
        if kept and _sized(s.value.type) or kept and s.op != "=" and _sized(kind):
            value = f"_kept(rt, {value})"
        elif s.value.type in ("number", "any") or kind == "number":
            value = f"_bounded({value})"
        if isinstance(target, ast.Index):
            w.line(f"_set_index(rt, {obj}, {key}, {value})")  # a map grows within its budget
        else:
            w.line(f"{place} = {value}")
        if not isinstance(target, ast.Name) or ref[0] != "local":
            w.line("rt.version += 1")  # the game changed: cached function values are stale
        if isinstance(target, ast.Attr) and ref[0] == "var" and ref[1].scope != "player":
            w.line(f"if rt.change_watchers: rt.changed({owner})")  # a component's variable: for incremental readers
        elif not isinstance(target, ast.Index) and ref[0] != "local":
            w.line("if rt.change_watchers: rt.changed(None)")  # a variable of the game or a player (None)

    def s_CallStmt(self, s) -> None:
        self.w.line(self.call(s.call) if self.is_proc_call(s.call) else self.expr(s.call))

    def s_Move(self, s) -> None:
        self.w.line(f"rt.move({self.expr(s.what)}, {self.expr(s.dest)}, {s.at_top!r}, {literal(s.face)})")

    def s_Log(self, s) -> None:
        # Evaluated even with nobody listening, so an error in a log line shows in simulations too; handed over
        # only to a listener (a call that would do nothing costs as much as the line's values)
        w = self.w
        to = "None"
        if s.to is not None:
            to = w.temp()
            w.line(f"{to} = {self.expr(s.to)}")
        text = w.temp()
        w.line(f"{text} = {self.words(s.message)}")
        w.line(f"if rt.account is not None: rt.log({to}, {text})")

    def s_Shuffle(self, s) -> None:  # where nobody may be asked (`drawing` writes the others)
        self.w.line(f"_shuffle(rt, {self.expr(s.zone)})")

    def s_Return(self, s) -> None:
        """Also the end of a procedure (s is None there): watched conditions are checked as it ends."""
        value = self.expr(s.value) if s is not None and s.value is not None else "None"
        if self.game.watchers_declared and self.in_procedure:
            if value != "None":
                result = self.w.temp()
                self.w.line(f"{result} = {value}")
                value = result
            self.w.line("rt.watch()")
        self.w.line(f"return {value}")

    def s_Break(self, s) -> None:
        self.w.line("break")

    def s_Continue(self, s) -> None:
        self.w.line("continue")

    def s_Win(self, s) -> None:
        self.w.line(f"raise _winners(rt, {self.expr(s.who)})")

    def s_Reveal(self, s) -> None:
        self.w.line(f"_reveal(rt, {self.expr(s.what)})")

    def s_Show(self, s) -> None:
        self.w.line(f"_show_to(rt, {self.expr(s.what)}, {self.expr(s.to)})")

    # ------------------------------------------------------------ decisions
    def chooser(self, by) -> str:
        return self.expr(by) if by is not None else self.ex.you()

    def candidates(self, var: str, coll, cond) -> str:
        items = self.ex.each(coll)
        if cond is None:
            return f"_list({items})"
        inner = self.ex.inner(var)
        v = inner.local(var)
        return f"[{v} for {v} in {items} if {inner.expr(cond)}]"

    def words(self, text: ast.Str, ex: Expressions | None = None) -> str:
        """A `log` or `ask` text as a tuple: its Message (the pieces in every language), then
        (value, type) for each {expression}, computed here in the rule text's order."""
        ex = ex or self.ex
        message = self.unit.constant(self.game.content.translations.message(text))
        values = [f"({ex.told(p)}, {literal(p.type)})" for p in text.parts if not isinstance(p, str)]
        return "(" + message + ", " + "".join(v + ", " for v in values) + ")"

    def question(self, s, shape: str) -> str:
        """The prompt a decision gets: a Question (rule text for debugging, the `ask` words), kept as a
        constant; with {values} in the words, a pair of it and the words evaluated here."""
        source = s.span.text.strip()
        ask = s.ask
        if ask is None or all(isinstance(p, str) for p in ask.parts):
            words = None if ask is None else (self.game.content.translations.message(ask),)
            return self.unit.constant(Question(source, words, shape))
        return f"({self.unit.constant(Question(source, None, shape))}, {self.words(ask)})"

    def s_Choose(self, s) -> None:
        w = self.w
        options = w.temp()
        number = s.qty_kind is None and s.cond is None and isinstance(s.coll, ast.Range)
        if number:  # a number in a range: one decision whose options are the range itself, however large
            w.line(f"{options} = _numbers(rt, {self.expr(s.coll.low)}, {self.expr(s.coll.high)})")
        else:
            w.line(f"{options} = {self.candidates(s.var, s.coll, s.cond)}")
        shape = "number" if number else "choose"
        if s.qty_kind is not None:
            shape = "pick " + (f"{s.qty_kind.replace('_', ' ')} {s.qty.value}" if isinstance(s.qty, ast.Num) else "")
        prompt = self.question(s, shape.strip())
        players = s.coll.type == "list[player]"
        target = self.ex.local(s.var)
        if s.qty_kind is None:
            w.line(f"if _len({options}) <= 1:")
            w.line(f"    {target} = {options}[0] if {options} else None")
            w.line("else:")
            w.line(f"    {target} = {options}[(yield _ask(rt, {self.chooser(s.by)}, {prompt}, {options}, "
                   f"{literal(shape)}, {players}))]")
        else:
            w.line(f"{target} = yield from _pick_several(rt, {self.chooser(s.by)}, {prompt}, {options}, "
                   f"{literal(s.qty_kind)}, {self.expr(s.qty)}, {players})")
        self.bound.add(s.var)

    def s_ChooseOrder(self, s) -> None:
        prompt = self.question(s, "order")
        players = s.coll.type == "list[player]"
        self.w.line(f"{self.ex.local(s.var)} = yield from _choose_order(rt, {self.chooser(s.by)}, {prompt}, "
                    f"{self.expr(s.coll)}, {players})")
        self.bound.add(s.var)

    # ------------------------------------------------------------ control flow
    def s_If(self, s) -> None:
        w = self.w
        nested = 0  # an `elif` whose condition is written as statements (codegen.conditions) is an `else: ... if`
        for i, (cond, body) in enumerate(s.branches):
            w.span = s.span if i == 0 else cond.span
            if i and worthwhile(self.ex, cond):
                w.line("else:")
                w.indent()
                nested += 1
                i = 0
            w.line(f"{'if' if i == 0 else 'elif'} {test(self.game, w, self.ex, cond)}:")
            self.suite(body)
        if s.other is not None:
            w.line("else:")
            self.suite(s.other)
        for _ in range(nested):
            w.dedent()

    def loop_over(self, body: list, items: str) -> str:
        """What a `for` goes through. A loop that may reach a decision keeps its iterator in a local, so
        that a suspended procedure's place in the loop is data a copy can take (runtime.snapshot)."""
        if not self.unit.block_yields(body, self.chance):
            return items
        it = self.w.temp()
        self.w.line(f"{it} = _iter({items})")
        return it

    def s_For(self, s) -> None:
        coll = self.expr(s.coll)
        # a list joined for the loop alone (`a + b`) is held by nothing else: gone through without a copy
        made = isinstance(s.coll, (ast.Binary, ast.Call)) and made_list(coll)
        coll = f"_loop_made(rt, {coll})" if made else f"_loop(rt, {coll})"
        self.w.line(f"for {self.ex.local(s.var)} in {self.loop_over(s.body, coll)}:")
        with self.child(s.var):
            if s.cond is not None:
                self.w.line(f"if not {test(self.game, self.w, self.ex, s.cond)}:")
                self.w.line("    continue")
            self.block(s.body)

    def s_While(self, s) -> None:
        n = self.w.temp()
        self.w.line(f"{n} = 0")
        self.w.line(f"while {self.expr(s.cond)}:")
        with self.child():
            # _while_step inline while both budgets hold (it raises when one is spent)
            self.w.line(f"if {n} < {library.WHILE_LIMIT} and rt.steps < {library.STEP_LIMIT}:")
            self.w.line(f"    {n} += 1")
            self.w.line("    rt.steps += 1")
            self.w.line("else:")
            self.w.line(f"    {n} = _while_step(rt, {n})")
            self.block(s.body)

    def s_Repeat(self, s) -> None:
        count = self.loop_over(s.body, f"_repeat(rt, {self.expr(s.count)})")
        self.w.line(f"for {self.w.temp()} in {count}:")
        self.suite(s.body)

    def s_Secretly(self, s) -> None:
        captured = sorted(self.bound - {s.var})
        name, yields = self.unit.part(s.body, [s.var, *captured], s.span)
        args = ", ".join(["rt", self.ex.local(s.var), *(self.ex.local(n) for n in captured)])
        v = self.ex.local(s.var)
        if yields:
            self.w.line(f"yield from _secretly([{name}({args}) for {v} in _loop(rt, {self.expr(s.coll)})])")
        else:
            self.w.line(f"for {v} in _loop(rt, {self.expr(s.coll)}):")
            self.w.line(f"    {name}({args})")

    def s_Until(self, s) -> None:
        captured = sorted(self.bound)
        name = self.unit.until_hooks(s, captured)
        values = "{" + ", ".join(f"{literal(n)}: {self.ex.local(n) if n != 'you' else self.ex.you()}" for n in captured) + "}"
        self.w.line(f"rt.add_temporary({literal(s.event)}, {name}, {values})")


def count_loop(game, w: Writer, bound: set, node, target: str) -> bool:
    """`count(x in C where COND)` written as a loop into `target`, rather than a Python comprehension (a call of its
    own in Python 3.11); a COND that is `any(y in D where P)` as an inner loop that stops at the first y. What each
    loop goes through is counted as the comprehension would count it. False (nothing written) for other forms."""
    if not (isinstance(node, ast.Query) and node.func == "count" and node.cond is not None and not node.keys):
        return False
    ex = Expressions(game, bound)
    var = w.temp()
    coll = ex.items(node.coll) if ex.small(node) else ex.each(node.coll)
    inner = Expressions(game, bound | {node.var}, None, {node.var: var})
    cond = node.cond
    nested = isinstance(cond, ast.Query) and cond.func == "any" and cond.value is None and cond.cond is not None \
        and not cond.keys
    w.line(f"{target} = 0")
    w.line(f"for {var} in {coll}:")
    if nested:
        var2 = w.temp()
        coll2 = inner.items(cond.coll) if inner.small(cond) else inner.each(cond.coll)
        inner2 = Expressions(game, bound | {node.var, cond.var}, None, {node.var: var, cond.var: var2})
        w.line(f"    for {var2} in {coll2}:")
        w.line(f"        if {inner2.expr(cond.cond)}:")
        w.line(f"            {target} += 1")
        w.line("            break")
    else:
        w.line(f"    if {inner.expr(cond)}:")
        w.line(f"        {target} += 1")
    return True


def _for_every_seat(game, q, value) -> bool:
    """`[t.f(q) for q in players]`: a card function of one player (with its every-seat twin, codegen.declarations)
    asked of each player in seat order."""
    return isinstance(q.coll, ast.Name) and getattr(q.coll, "ref", ("",)) == ("const", "players") and \
        of_one_player(game, value.name) and len(value.args) == 1 and isinstance(value.args[0], ast.Name) and \
        value.args[0].id == q.var


def _sized(t: str) -> bool:
    """Values of this type may be large (lists, maps, texts) or of any kind: what the game keeps is measured."""
    return t in ("any", "map", "text") or t.startswith("list[")
