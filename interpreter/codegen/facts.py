"""What the compiler knows of a body's locals from the way they are bound, for shorter code where they are read.

A local bound only by going through the players (`for q in players`, a menu's `q in players`) always holds a
seat (a number from 0 to the number of players less one, never none); one bound only by `let x = [... for q in
players]` is a list of one element per player; by a list comprehension over another short collection, a list of
a few elements; by any list comprehension, a list. A local also bound any other way, assigned (`x = ...`), or
a parameter (its caller may pass anything) has no fact. So `scores[q]` is read in place, `max(scores)` and
`len(leaders)` without a helper, where the general form would test what the value is first.
"""
from __future__ import annotations

from dsl import ast
from interpreter.codegen.source import LOCAL, mangle

SEAT = "seat"
PER_PLAYER = "per player"  # a list of one element per player: any seat indexes it
SHORT = "short"  # a list of at most as many elements as a small collection (`expressions.small_collection`)
LIST = "list"
LISTS = (PER_PLAYER, SHORT, LIST)  # strongest first: what two bindings of one name both give is the weaker

SMALL_ZONES = 256  # components in a game at most, for comprehensions over its zones to go uncounted (`small`)
SMALL_SCAN = 16  # elements of a list local at most, for `x in list` to go uncounted (counted with what runs it)


def local_facts(game, stmts: list, params: set) -> dict:
    """Generated local -> its fact, for the locals of a body (`stmts`) that have one; `params` are bound on entry."""
    found: dict = {}
    for name, fact in _bindings(game, stmts):
        found.setdefault(name, []).append(fact)
    facts = {}
    for name, kinds in found.items():
        if name in params or None in kinds:
            continue
        if all(k == SEAT for k in kinds):
            facts[mangle(LOCAL, name)] = SEAT
        elif all(k in LISTS for k in kinds):
            facts[mangle(LOCAL, name)] = LISTS[max(LISTS.index(k) for k in kinds)]
    return facts


def players_like(node) -> bool:
    """`players`, or `players_from(p)` / `neighbors(p)`: seats only, never none."""
    if isinstance(node, ast.Name):
        return getattr(node, "ref", ("",)) == ("const", "players")
    return isinstance(node, ast.Call) and node.func in ("players_from", "neighbors") and \
        getattr(node, "ref", ("",))[0] == "builtin"


def list_fact(game, q) -> str | None:
    """The fact of a list comprehension's value (`let x = [...]`), None for another value."""
    if not (isinstance(q, ast.Query) and q.func == "list" and not q.keys):
        return None
    coll = q.coll
    if q.cond is None and players_like(coll) and not (isinstance(coll, ast.Call) and coll.func == "neighbors"):
        return PER_PLAYER  # every seat once (`players_from(p)` too, from p on: indexed by seat, it is not in order)
    if players_like(coll) or coll.type == "zone" and len(game.content.entity_ids) <= SMALL_ZONES:
        return SHORT
    return LIST


def _bindings(game, stmts: list):
    """(name, fact or None) for every place a body binds or assigns a local name."""
    for s in stmts:
        if isinstance(s, ast.Let):
            yield s.name, list_fact(game, s.value)
        elif isinstance(s, ast.Assign):
            if isinstance(s.target, ast.Name):
                yield s.target.id, None
        elif isinstance(s, ast.For):
            yield s.var, SEAT if players_like(s.coll) else None
            yield from _bindings(game, s.body)
        elif isinstance(s, ast.Choose):
            # one element of the players with no condition (there are always some); else none may be left
            yield s.var, SEAT if s.qty_kind is None and s.cond is None and players_like(s.coll) else None
        elif isinstance(s, ast.ChooseOrder):
            yield s.var, None
        elif isinstance(s, ast.Menu):
            for opt in s.options:
                for b in opt.bindings:
                    yield b.var, SEAT if players_like(b.coll) else None
                yield from _bindings(game, opt.body)
            yield from _bindings(game, s.otherwise or [])
        elif isinstance(s, ast.Secretly):
            yield s.var, SEAT if players_like(s.coll) else None
            yield from _bindings(game, s.body)
        elif isinstance(s, ast.If):
            for _, body in s.branches:
                yield from _bindings(game, body)
            yield from _bindings(game, s.other or [])
        elif isinstance(s, (ast.While, ast.Repeat)):
            yield from _bindings(game, s.body)


def function_decls(game) -> dict:
    """Function name -> its declarations: the game's function and every card's function of that name."""
    found = game.function_decls
    if not found:
        for module in game.content.modules:
            for d in module.decls:
                if isinstance(d, ast.Function):
                    found.setdefault(d.name, []).append(d)
    return found


def of_one_player(game, name: str) -> bool:
    """Is every function of this name (every card's) a function of one player, and none modified? Each card's is
    then compiled once more for every seat at once (declarations.Unit.for_seats), which `[t.f(q) for q in players]`
    calls (Statements.list_loop)."""
    decls = function_decls(game).get(name)
    return bool(decls) and name not in game.modified and \
        all(len(d.params) == 1 and d.params[0].type == "player" for d in decls)
