"""Copies of a game in progress, without replaying it (`Session.copy`).

A game in progress is its state (plain data) and its suspended procedures: Python generators, which
Python cannot copy. Each suspended generator is read as data instead: which function it runs, the
line it waits at (a `yield`), its locals (the iterators of the loops it is in are locals too: the
compiler hoists them, `Statements.loop_over`), and the generator it delegates to (`yield from`).
The copy runs a *resume twin* of each function: the same body, rewritten once per (function, line)
from its Python syntax tree so that it starts by restoring the locals and enters the loops, branches
and `try` blocks on the way to that line directly, then yields what the original was waiting with.
From there it is the original code again, so a copy plays on exactly as the original would.

The state is copied object by object (components, zones, variables, the RNG), and every value the
suspended procedures hold (components, zones, lists, pending decisions, other suspended generators)
is mapped to its counterpart in the copy. A component whose zones are all empty gets them unmade in the
copy, as a fresh component has them (runtime.lazyzones): most components of a large game hold nothing,
and their zones were most of a copy's work. A copy costs time in proportion to the state and the depth
of the procedure stack, not to the history; copying a copy works the same way (a twin's frames read
as the original function's). The design is described in docs/language.md §1.
"""
from __future__ import annotations

import ast
import copy
import gc
import inspect
import random
import textwrap
import types
from dataclasses import dataclass

from dsl.translations import Localized
from interpreter.codegen import library
from interpreter.core.state import Entity, State, Zone
from interpreter.core.decisions import Decision
from interpreter.runtime.lazyzones import ComponentZones
from interpreter.runtime.resolver import Candidate, Resolver, Temporary

_ATOMS = (int, str, bool, float, type(None), Localized)  # immutable: shared by a copy
_ATOM_SET = frozenset(_ATOMS)
_TWIN = ("_L", "_child", "_pending", "_again")  # the twin's own names, never the rule text's
_LIST_ITERATOR = type(iter([]))
_RANGE_ITERATOR = type(iter(range(0)))


class NotCopyable(RuntimeError):
    """A suspended procedure in a shape the copier does not know (a bug of the engine, not of content)."""


def _again(current, rest):
    """The rest of a loop, starting again with the element it was at (a list iterator: copyable too)."""
    return iter([current, *rest])


def _empty():
    yield None


@dataclass
class _Function:
    node: ast.FunctionDef  # its syntax tree, with the line numbers of its code
    globals: dict
    filename: str
    func: object


class Resumer:
    """Per compiled game: where each generator function's source is, and its resume twins (built once)."""

    def __init__(self, game, runtime_class):
        self.game = game
        self.funcs: dict = {}  # code -> function, for every generator function a game can suspend in
        for value in game.namespace.values():
            if isinstance(value, types.FunctionType):
                self.funcs[value.__code__] = value
        for f in (library.pick_several, library.choose_order, library.secretly, runtime_class.invoke, runtime_class.play,
                  runtime_class._replace, runtime_class._proceed, runtime_class._triggers):
            self.funcs[f.__code__] = f
        voc = game.content.vocabulary
        # attributes naming components: a copy's records name the copy's components
        self.entity_attrs = tuple(n for n, t in voc.attributes.items() if t in ("entity", "list[entity]"))
        # the records whose attributes name components (their components' attributes have their keys), of all records
        self.records = frozenset(rec.id for rec in game.content.entity_ids.values())
        self.naming = frozenset(rec.id for rec in game.content.entity_ids.values()
                                if any(k in rec.data for k in self.entity_attrs))
        # the zones every component has ((name, visibility), ...), as a fresh component holds them unmade
        self.zone_specs = tuple((name, z.sight) for name, z in voc.zones.items() if z.scope == "entity")
        self.zone_names = tuple(name for name, _ in self.zone_specs)
        self.sources: dict = {}  # code -> _Function
        self.parsed: dict = {}  # generated file name -> its module's syntax tree
        self.twins: dict = {}  # (code, line, names) -> twin function
        self.original: dict = {}  # twin code -> the code of the function it resumes
        self.base_memo: dict = {}  # what every copy shares: the game's constants, hooks and procedures
        shared = [game, game.content, library.DONE, *game.namespace.values(), *game.procs.values(), *game.funcs.values()]
        for value in shared:
            self.base_memo[id(value)] = value
        for by_event in game.hooks.values():
            for hooks in by_event.values():
                for h in hooks:
                    self.base_memo[id(h)] = h
        for h in game.watchers:
            self.base_memo[id(h)] = h

    def source(self, code) -> _Function:
        found = self.sources.get(code)
        if found is not None:
            return found
        func = self.funcs.get(code)
        if func is None:
            raise NotCopyable(f"a suspended generator of unknown code: {code.co_name}")
        if code.co_filename in self.game.sources:
            tree = self.parsed.get(code.co_filename)
            if tree is None:
                tree = self.parsed[code.co_filename] = ast.parse(self.game.sources[code.co_filename][0])
            node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == code.co_name
                        and n.lineno == code.co_firstlineno)
        else:
            tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
            ast.increment_lineno(tree, code.co_firstlineno - 1)
            node = tree.body[0]
        found = self.sources[code] = _Function(node, func.__globals__, code.co_filename, func)
        return found

    def twin(self, code, line: int, names: tuple):
        key = (code, line, names)
        fn = self.twins.get(key)
        if fn is None:
            src = self.source(code)
            fn = self.twins[key] = _build_twin(src, line, names)
            self.original[fn.__code__] = code
        return fn


# ---------------------------------------------------------------- building twins
def _build_twin(src: _Function, line: int, names: tuple):
    node = src.node
    counter = [0]
    body = _resume_block(node.body, line, counter)
    prologue = [ast.Assign([ast.Name(n, ast.Store())], ast.Subscript(ast.Name("_L", ast.Load()), ast.Constant(n), ast.Load()))
                for n in names]
    args = ast.arguments([], [ast.arg(a) for a in _TWIN], None, [], [], None, [])
    twin = ast.FunctionDef(f"resume_{node.name}", args, prologue + body, [], None)
    for stmt in prologue:
        ast.copy_location(stmt, node)
    ast.copy_location(twin, node)
    module = ast.Module([twin], [])
    ast.fix_missing_locations(module)
    made: dict = {}
    exec(compile(module, src.filename, "exec"), src.globals, made)  # noqa: S102 - the engine's own code, rearranged
    return made[twin.name]


def _holds(stmt, line: int) -> bool:
    return stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno)


def _resume_block(stmts: list, line: int, counter: list) -> list:
    for i, stmt in enumerate(stmts):
        if _holds(stmt, line):
            return _resume(stmt, line, counter) + [copy.deepcopy(s) for s in stmts[i + 1:]]
    raise NotCopyable(f"no statement at line {line}")


def _in(block: list, line: int) -> bool:
    return any(_holds(s, line) for s in block)


def _resume(stmt, line: int, counter: list) -> list:
    """`stmt` entered at `line`, where it waits, and then run to its end as the original would."""
    if isinstance(stmt, (ast.For, ast.While)) and _in(stmt.body, line):
        counter[0] += 1
        first = f"_first_{counter[0]}"  # still in the iteration the copy was made in
        inner = [ast.Assign([ast.Name(first, ast.Store())], ast.Constant(False))] + _resume_block(stmt.body, line, counter)
        again = ast.If(ast.Name(first, ast.Load()), inner, copy.deepcopy(stmt.body))
        out = [ast.Assign([ast.Name(first, ast.Store())], ast.Constant(True))]
        if isinstance(stmt, ast.For):
            if not isinstance(stmt.iter, ast.Name):
                raise NotCopyable(f"a loop at line {stmt.lineno} that may ask keeps its iterator on Python's stack")
            target = _loaded(copy.deepcopy(stmt.target))
            out.append(ast.Assign([ast.Name(stmt.iter.id, ast.Store())],
                                  ast.Call(ast.Name("_again", ast.Load()), [target, ast.Name(stmt.iter.id, ast.Load())], [])))
            loop = ast.For(copy.deepcopy(stmt.target), ast.Name(stmt.iter.id, ast.Load()), [again],
                           copy.deepcopy(stmt.orelse), None)
        else:
            test = ast.BoolOp(ast.Or(), [ast.Name(first, ast.Load()), copy.deepcopy(stmt.test)])
            loop = ast.While(test, [again], copy.deepcopy(stmt.orelse))
        out.append(loop)
        for s in out:
            ast.copy_location(s, stmt)
        return out
    if isinstance(stmt, ast.If) and not _holds(stmt.test, line):
        return _resume_block(stmt.body if _in(stmt.body, line) else stmt.orelse, line, counter)
    if isinstance(stmt, ast.Try) and _in(stmt.body, line):
        new = ast.Try(_resume_block(stmt.body, line, counter), copy.deepcopy(stmt.handlers),
                      copy.deepcopy(stmt.orelse), copy.deepcopy(stmt.finalbody))
        return [ast.copy_location(new, stmt)]
    if isinstance(stmt, (ast.For, ast.While, ast.If, ast.Try, ast.With, ast.FunctionDef, ast.ClassDef)):
        raise NotCopyable(f"cannot resume inside the statement at line {stmt.lineno}")
    new = copy.deepcopy(stmt)
    sites = [n for n in _walk_here(new) if isinstance(n, (ast.Yield, ast.YieldFrom)) and _holds(n, line)]
    if len(sites) != 1:
        raise NotCopyable(f"{len(sites)} yields at line {line}")
    site = sites[0]
    if isinstance(site, ast.Yield):
        site.value = ast.copy_location(ast.Name("_pending", ast.Load()), site)
    else:
        site.value = ast.copy_location(ast.Name("_child", ast.Load()), site)
    return [new]


def _walk_here(node):
    """The nodes of a statement, not entering functions or lambdas defined in it."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.Lambda, ast.FunctionDef)):
                todo.append(child)


def _loaded(target):
    for n in ast.walk(target):
        if hasattr(n, "ctx"):
            n.ctx = ast.Load()
    return target


# ---------------------------------------------------------------- copying
class Copier:
    """Maps every object of one game in progress to its counterpart in the copy (like deepcopy's memo)."""

    def __init__(self, resumer: Resumer):
        self.resumer = resumer
        self.memo = dict(resumer.base_memo)
        self.cells: dict = {}
        self.lazy: dict = {}  # id -> component of the original whose (empty) zones the copy has not made yet

    def value(self, v):
        t = type(v)
        if t in _ATOMS:
            return v
        found = self.memo.get(id(v))
        if found is not None:
            return found
        memo = self.memo
        if t is list:
            new = memo[id(v)] = []
            new.extend([x if type(x) in _ATOMS else self.value(x) for x in v])
            return new
        if t is dict:
            new = memo[id(v)] = {}
            for k, x in v.items():
                new[k if type(k) in _ATOMS else self.value(k)] = x if type(x) in _ATOMS else self.value(x)
            return new
        if t is tuple:
            new = tuple([x if type(x) in _ATOMS else self.value(x) for x in v])
            memo[id(v)] = new
            return new
        if t is set or t is frozenset:
            new = t(self.value(x) for x in v)
            memo[id(v)] = new
            return new
        if t is types.GeneratorType:
            return self.generator(v, None, primed=True)
        if t is _LIST_ITERATOR:
            reduced = v.__reduce__()
            new = iter(self.value(list(reduced[1][0])) if reduced[1] else [])
            if len(reduced) > 2:
                new.__setstate__(reduced[2])
            memo[id(v)] = new
            return new
        if t is _RANGE_ITERATOR:
            new = memo[id(v)] = copy.copy(v)
            return new
        if t is types.FunctionType:
            if not v.__closure__:
                return v
            cells = tuple(self.cell(c) for c in v.__closure__)
            new = types.FunctionType(v.__code__, v.__globals__, v.__name__, v.__defaults__, cells)
            memo[id(v)] = new
            return new
        if t is Decision:  # the pending decision and those a secret wave holds: often, so by hand
            new = Decision.__new__(Decision)
            memo[id(v)] = new
            new.__dict__.update(v.__dict__)  # plain fields (labels are texts)
            new.asked, new.values = self.value(v.asked), self.value(v.values)
            new._labels = None if v._labels is None else list(v._labels)
            return new
        if t is library.MenuChoice:  # its option mapped too: the copy's code finds the chosen option by it
            new = memo[id(v)] = library.MenuChoice(self.value(v.option), self.value(v.bound))
            return new
        if t is Candidate:
            new = memo[id(v)] = Candidate(v.hook, self.value(v.b), v.key, v.controller, self.value(v.source))
            return new
        if t is Zone and id(v.owner) in self.lazy:
            return self._lazy_zone(v)
        if isinstance(v, (Entity, Zone)):
            raise NotCopyable(f"{v!r} is not part of the state being copied")
        return copy.deepcopy(v, memo)

    def _lazy_zone(self, z: Zone) -> Zone:
        """The copy's zone for `z`, a zone on a component whose zones the copy left unmade (all empty): made now,
        with the same stamps, and every zone of that component mapped."""
        e = z.owner
        n = self.memo[id(e)]
        del self.lazy[id(e)]
        zones = n.zones
        zones._made()  # `n.zones` is a plain dict of them from now on
        for k, old in dict.items(e.zones):
            made = dict.__getitem__(zones, k)
            made.stamp = old.stamp
            self.memo[id(old)] = made
        return self.memo[id(z)]

    def cell(self, c):
        new = self.cells.get(id(c))
        if new is None:
            try:
                contents = c.cell_contents
            except ValueError:  # not yet bound
                new = types.CellType()
            else:
                new = types.CellType(self.value(contents))
            self.cells[id(c)] = new
        return new

    def generator(self, gen, pending, primed: bool):
        """The copy of a generator: resumed where it waits; `pending` is what the innermost one yields first."""
        found = self.memo.get(id(gen))
        if found is not None:
            return found
        state = inspect.getgeneratorstate(gen)
        if state == inspect.GEN_CLOSED:
            new = _empty()
            new.close()
        elif state == inspect.GEN_CREATED:
            code = gen.gi_code
            func = self.resumer.funcs.get(code)
            if func is None:
                raise NotCopyable(f"a generator not started, of unknown code: {code.co_name}")
            local = gen.gi_frame.f_locals
            new = func(*[self.value(local[name]) for name in code.co_varnames[:code.co_argcount]])
        elif state == inspect.GEN_SUSPENDED:
            frame = gen.gi_frame
            code = self.resumer.original.get(gen.gi_code, gen.gi_code)
            local = {k: v for k, v in frame.f_locals.items() if k not in _TWIN and not k.startswith("_first_")}
            twin = self.resumer.twin(code, frame.f_lineno, tuple(sorted(local)))
            inner = gen.gi_yieldfrom
            child = self.generator(inner, pending, primed=False) if inner is not None else None
            mapped = {k: self.value(v) for k, v in local.items()}
            new = twin(mapped, child, pending if inner is None else None, _again)
            if primed:
                next(new)  # to where the original waits (what it yields there was yielded already)
        else:
            raise NotCopyable("a generator that is running cannot be copied")
        self.memo[id(gen)] = new
        return new

    # ------------------------------------------------------------ the state and the runtime
    def state(self, old: State) -> State:
        memo = self.memo
        new = State.__new__(State)
        new.__dict__.update(old.__dict__)
        memo[id(old)] = new
        resumer = self.resumer
        specs, names, naming, records = resumer.zone_specs, resumer.zone_names, resumer.naming, resumer.records
        entity_attrs = resumer.entity_attrs
        atoms = _ATOM_SET.issuperset
        lazy = self.lazy
        entities = {}
        new_entity = Entity.__new__
        new_zones = dict.__new__
        made = []  # (component, its copy) whose zones hold something: made in the copy once every component is
        later = []  # (copy, variables) naming components (or other values to map): mapped once every component is
        named = []  # (component, its copy) whose record's attributes name components
        for eid, e in old.entities.items():  # one pass over the components, the bulk of a state
            n = new_entity(Entity)
            n.id = eid
            n.record_id = e.record_id
            n.kind = e.kind
            n.attrs = e.attrs
            n.face_down = e.face_down
            n.seen_by = e.seen_by
            n.zone = None  # set where the zone holding it is copied
            memo[id(e)] = n
            entities[eid] = n
            v = e.vars
            if not v:
                n.vars = {}
            elif atoms(map(type, v.values())):
                n.vars = v.copy()
            else:
                later.append((n, v))
            zs = e.zones
            if type(zs) is ComponentZones and zs.specs is not None:  # none made yet: none to make in the copy
                lz = n.zones = new_zones(ComponentZones)  # ComponentZones.of(n, zs.specs), inline
                lz.owner = n
                lz.specs = zs.specs
            else:
                for z in dict.values(zs):
                    if z.items:
                        made.append((e, n))
                        break
                else:
                    if tuple(zs) == names:
                        # made, all empty (read once, or emptied again): made again in the copy only when read
                        # there, as a fresh component's; a suspended value naming one makes them then (`_lazy_zone`)
                        n.zones = ComponentZones.of(n, specs)
                        lazy[id(e)] = e
                    else:
                        made.append((e, n))
            rid = e.record_id
            if rid in naming:
                named.append((e, n))
            elif rid not in records and entity_attrs and any(k in e.attrs for k in entity_attrs):
                named.append((e, n))  # not made from a record as the game started
        new.entities = entities
        zone = self.zone
        new.game_zones = {k: zone(z) for k, z in old.game_zones.items()}
        new.player_zones = {k: [zone(z) for z in zs] for k, zs in old.player_zones.items()}
        for e, n in made:  # the zones on components that were made (few: most components' are lazy, see above)
            n.zones = {k: zone(z, n) for k, z in e.zones.items()}
        value = self.value
        for n, v in later:
            n.vars = value(v)
        if named:
            attrs = self.attrs
            for e, n in named:
                a = e.attrs
                n.attrs = memo.get(id(a)) or attrs(a, entity_attrs)
        new.game_vars = value(old.game_vars)
        new.player_vars = value(old.player_vars)
        new.winners = list(old.winners)
        new.rng = copy_rng(old.rng)
        new.chance = None if old.chance is None else old.chance.copy()
        for k, v in old.__dict__.items():  # an attribute added later is mapped, never shared by mistake
            if k not in _STATE_KNOWN:
                new.__dict__[k] = value(v)
        return new

    def attrs(self, a: dict, named: tuple) -> dict:
        """A record's attributes (shared by the components of one record), those naming components mapped."""
        new = dict(a)
        memo = self.memo
        for k in named:
            if k in new:
                x = new[k]
                try:  # a component or a list of them, as a rule: by the memo at once
                    new[k] = memo[id(x)] if type(x) is Entity else [memo[id(y)] for y in x] if type(x) is list else None
                except KeyError:
                    new[k] = None
                if new[k] is None:
                    new[k] = self.value(x)
        memo[id(a)] = new
        return new

    def zone(self, z: Zone, owner=None) -> Zone:
        """The copy of zone `z` (on the copy's component `owner`, for a zone on a component), and of where each
        component in it lies."""
        n = Zone.__new__(Zone)
        n.name, n.visibility, n.stamp = z.name, z.visibility, z.stamp
        n.memo = None  # values kept for the original's components (codegen.zone_pure): made again
        memo = self.memo
        n.owner = z.owner if owner is None else owner
        items = z.items
        if items:
            n.items = got = [memo[id(e)] for e in items]
            for e in got:  # a component lies in the zone that lists it (`State.place`, `Runtime.move` keep it so)
                e.zone = n
        else:
            n.items = []
        memo[id(z)] = n
        return n

    def runtime(self, rt, state: State):
        new = type(rt).__new__(type(rt))
        self.memo[id(rt)] = new
        for k, v in rt.__dict__.items():  # what is not named below is mapped (a stack, a set, a counter)
            new.__dict__[k] = v if k in _SHARED_RT else self.value(v)
        new.state = state
        new.gv, new.pv, new.gz, new.pz, new.ents = (state.game_vars, state.player_vars, state.game_zones,
                                                   state.player_zones, state.entities)
        new.seats = list(rt.seats)
        new.memo = {}  # values of pure functions, recomputed as needed
        new.move_watchers = []
        new.change_watchers = []
        new.account = None
        new.trace = None if rt.trace is None else list(rt.trace)
        new.modifying = set(rt.modifying)
        new.watched = list(rt.watched)
        res = rt.resolver
        nres = Resolver.__new__(Resolver)
        self.memo[id(res)] = nres
        for k, v in res.__dict__.items():
            if k in _SHARED_RESOLVER:
                nres.__dict__[k] = v
            elif k not in ("rt", "temporaries", "temp_index", "temp_until", "replacing", "triggering", "zones_cache",
                           "active_cache", "static_keys", "keys", "running"):
                nres.__dict__[k] = self.value(v)
        nres.rt = new
        nres.temporaries = [Temporary(t.until, t.hooks, self.value(t.captured)) for t in res.temporaries]
        nres.index_temporaries()
        nres.zones_cache = {}
        nres.active_cache = new.active_cache = [None] * res.slots
        nres.static_keys = dict(res.static_keys)
        nres.keys = {}
        nres.running = {self.value(k) for k in res.running}
        new.resolver = nres
        return new


# Attributes of the runtime and its resolver that a copy shares (the game's, never changed in play) or
# sets itself; any other is mapped into the copy, so one added later is not shared by mistake.
_SHARED_RT = frozenset({"game", "cfs", "procs", "ability_records", "active_cache", "state", "gv", "pv", "gz", "pz", "ents", "memo", "move_watchers", "change_watchers", "account",
                        "trace", "resolver", "reader"})
_SHARED_RESOLVER = frozenset({"policy", "static", "replaced", "triggered", "index", "modifiers", "active_in", "player_part"})
_STATE_KNOWN = frozenset({"voc", "players", "seed", "variants", "rng", "chance", "entities", "by_record", "game_zones",
                          "player_zones", "game_vars", "player_vars", "finished", "winners", "lang", "translations",
                          "_entity_vars", "_vars_of_kind", "_entity_zones"})


def copy_rng(rng: random.Random) -> random.Random:
    """The RNG (or a sampled world's dealer, a subclass) at the same point, drawing the same numbers."""
    cls = type(rng)
    new = cls.__new__(cls)
    for k, v in rng.__dict__.items():
        new.__dict__[k] = copy_rng(v) if isinstance(v, random.Random) else (v.copy() if type(v) is dict else v)
    random.Random.setstate(new, rng.getstate())
    return new


def copy_session(session):
    """A session at the same point, with state and suspended procedures of its own (see the module's doc)."""
    # Thousands of new objects and none of them garbage: the cycle collector would only walk the heap meanwhile.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _copy_session(session)
    finally:
        if enabled:
            gc.enable()


def _copy_session(session):
    game = session.game
    resumer = getattr(game, "resumer", None)
    if resumer is None:
        resumer = game.resumer = Resumer(game, type(session.rt))
    cp = Copier(resumer)
    new = type(session).__new__(type(session))
    for k, v in session.__dict__.items():  # game, flags, result, error: as they are; lists and the rest mapped
        new.__dict__[k] = v if k in ("game", "state", "rt", "pending", "_gen", "result", "error", "_labels", "_unlabelled") \
            else cp.value(v)
    new.state = cp.state(session.state)
    new.rt = cp.runtime(session.rt, new.state)
    new.history = list(session.history)
    new.labels = list(session.labels)
    if session.pending is None:
        new.pending = None
        new._gen = None
        return new
    new.pending = cp.value(session.pending)
    new._gen = cp.generator(session._gen, new.pending, primed=False)
    first = next(new._gen)
    if first is not new.pending:
        raise NotCopyable("the copy does not wait where the original does")
    return new
