"""The types of the rules language, the built-ins' and declarations' signatures, and scopes of names:
what the checker's parts (declarations, statements, expressions) share.

Types are simple strings: number, bool, text, player, entity, zone, map, any, list[T], or the name of an enum.
"""
from __future__ import annotations

from dataclasses import dataclass, field

ANY = "any"


@dataclass(frozen=True)
class Builtin:
    min_args: int
    max_args: int
    returns: str  # a type, or "arg0"/"elem0" to follow the first argument
    query: bool = False  # accepts the `x in coll where ...` forms


BUILTINS: dict[str, Builtin] = {
    "count": Builtin(1, 1, "number", True),
    "len": Builtin(1, 1, "number"),
    "sum": Builtin(1, 1, "number", True),
    "max": Builtin(1, 2, "number", True),
    "min": Builtin(1, 2, "number", True),
    "any": Builtin(1, 1, "bool", True),
    "all": Builtin(1, 1, "bool", True),
    "first": Builtin(1, 1, "elem0", True),
    "rank": Builtin(1, 1, "arg0", True),
    "group": Builtin(1, 1, "list[any]", True),
    "reach": Builtin(1, 1, "arg0", True),
    "distinct": Builtin(1, 1, "arg0", True),
    "concat": Builtin(1, 1, "list[any]"),
    "top": Builtin(1, 2, "entity"),
    "bottom": Builtin(1, 2, "entity"),
    "random": Builtin(1, 2, "elem0"),
    "roll": Builtin(1, 2, "list[number]"),
    "combinations": Builtin(2, 2, "list[list[any]]"),
    "next": Builtin(1, 1, "player"),
    "prev": Builtin(1, 1, "player"),
    "neighbors": Builtin(1, 1, "list[player]"),
    "distance": Builtin(2, 2, "number"),
    "players_from": Builtin(1, 1, "list[player]"),
    "holder": Builtin(1, 1, "player"),
    "zone_of": Builtin(1, 1, "zone"),
    "is_in": Builtin(2, 2, "bool"),
    "abs": Builtin(1, 1, "number"),
    "seat": Builtin(1, 1, "number"),
    "variant": Builtin(1, 1, "bool"),
    "face_down": Builtin(1, 1, "bool"),
    "keys": Builtin(1, 1, "list[any]"),
    "place_of": Builtin(1, 1, "entity"),
    "snapshot": Builtin(1, 1, "arg0"),
}
QUERY_ONLY = {"rank", "group", "reach"}
CONSTANTS = {"players": "list[player]", "player_count": "number", "winners": "list[player]"}


def elem(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    if t == "zone":
        return "entity"
    return ANY


def is_collection(t: str) -> bool:
    return t in (ANY, "zone", "map") or t.startswith("list[")


def unify(types) -> str:
    """One type for values that may be any of `types` (branches, return statements); none gives way."""
    known = {t for t in types if t != "none"}
    if len(known) == 1:
        return known.pop()
    if not known:
        return "none" if types else ANY
    if all(t.startswith("list[") for t in known):
        return "list[any]"
    return ANY


def compatible(expected: str, got: str) -> bool:
    """May a value of type `got` stand where `expected` is wanted?"""
    if expected == got or ANY in (expected, got) or got == "none":
        return True
    if expected.startswith("list[") and got.startswith("list["):
        return compatible(elem(expected), elem(got))
    if expected.startswith("list[") and got == "zone":
        return compatible(elem(expected), "entity")
    if expected == "list[any]" or got == "list[any]":
        return expected.startswith("list[") or got.startswith("list[")
    return False


@dataclass
class Signature:
    name: str
    params: list  # list[ast.Param]
    kind: str  # "procedure", "event" or "function"
    decl: object = None
    returns: str = "any"


@dataclass
class Scope:
    names: dict = field(default_factory=dict)
    parent: "Scope | None" = None

    def lookup(self, name: str):
        s = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self):
        s, out = self, []
        while s is not None:
            out.extend(s.names)
            s = s.parent
        return out

    def child(self) -> "Scope":
        return Scope({}, self)
