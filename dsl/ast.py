"""Typed AST of the rules language. Every node carries the span it was parsed from."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from dsl.diagnostics import Span


@dataclass
class Node:
    span: Span


# ------------------------------------------------------------------ expressions
@dataclass
class Num(Node):
    value: int


@dataclass
class Str(Node):
    parts: list  # str pieces and Expr pieces from {interpolations}
    text: str = ""  # as written, escapes decoded, {placeholders} kept: the key of its translations
    # ((n, forms), ...): the n-th {interpolation} is a number said with its plural forms, `{n|# card|# cards}`
    plurals: tuple = ()


@dataclass
class Const(Node):
    value: object  # True, False or None


@dataclass
class Name(Node):
    id: str


@dataclass
class EntityRef(Node):
    id: str


@dataclass
class Call(Node):
    func: str
    args: list


@dataclass
class Query(Node):
    """count(c in X where ...), sum(e for c in X), rank(c in X by k), [c in X where ...]."""

    func: str  # builtin name, or "list" for the bracket forms
    var: str
    coll: "Expr"
    cond: "Expr | None" = None
    value: "Expr | None" = None
    keys: list = field(default_factory=list)  # list[SortKey]


@dataclass
class SortKey(Node):
    expr: "Expr"
    descending: bool = False


@dataclass
class Attr(Node):
    obj: "Expr"
    name: str


@dataclass
class Method(Node):
    obj: "Expr"
    name: str
    args: list


@dataclass
class Index(Node):
    obj: "Expr"
    key: "Expr"


@dataclass
class Of(Node):
    """`hand of p`, `strength of c`: a zone of an owner, or an attribute read aloud."""

    name: str
    arg: "Expr"


@dataclass
class Unary(Node):
    op: str  # "-" or "not"
    operand: "Expr"


@dataclass
class Binary(Node):
    op: str  # + - * / % == != < <= > >= and or in notin
    left: "Expr"
    right: "Expr"


@dataclass
class Range(Node):
    low: "Expr"
    high: "Expr"


@dataclass
class IfExpr(Node):
    cond: "Expr"
    then: "Expr"
    other: "Expr"


@dataclass
class Suppose(Node):
    """suppose move X to Z, ...: EXPR: the value of EXPR were those moves made; the moves are then undone."""

    moves: list  # list[(what, dest)]
    expr: "Expr"


@dataclass
class ListLit(Node):
    items: list


@dataclass
class MapLit(Node):
    pass


Expr = Union[Num, Str, Const, Name, EntityRef, Call, Query, Attr, Method, Index, Of, Unary, Binary, Range, IfExpr, Suppose,
             ListLit, MapLit]


# ------------------------------------------------------------------ statements
@dataclass
class Let(Node):
    name: str
    value: Expr
    type: str | None = None  # `let x: entity = none` declares the type


@dataclass
class Assign(Node):
    target: Expr  # Name, Attr or Index
    op: str  # "=", "+=", "-="
    value: Expr


@dataclass
class CallStmt(Node):
    call: Expr  # Call or Method


@dataclass
class Move(Node):
    what: Expr
    dest: Expr
    at_top: bool = False
    face: str | None = None  # "up", "down" or None


@dataclass
class Shuffle(Node):
    zone: Expr


@dataclass
class Log(Node):
    message: Str
    to: Expr | None = None


@dataclass
class Return(Node):
    value: Expr | None


@dataclass
class Win(Node):
    who: Expr


@dataclass
class Show(Node):
    """show WHAT to P: P sees these components where they lie, until they move."""

    what: Expr
    to: Expr


@dataclass
class Reveal(Node):
    what: Expr


@dataclass
class Pass(Node):
    pass


@dataclass
class Break(Node):
    pass


@dataclass
class Continue(Node):
    pass


@dataclass
class Choose(Node):
    """choose [qty] NAME in COLL [where C] [by P]: one item, or a list when a quantity is given."""

    var: str
    coll: Expr
    cond: Expr | None
    by: Expr | None
    qty_kind: str | None = None  # None (one item), "exactly", "up_to", "at_least"
    qty: Expr | None = None
    ask: Str | None = None  # the question in words (`ask "TEXT {expr}"`)


@dataclass
class ChooseOrder(Node):
    coll: Expr
    var: str
    by: Expr | None
    ask: Str | None = None


@dataclass
class Binding(Node):
    var: str
    coll: Expr
    cond: Expr | None


@dataclass
class Option(Node):
    name: str
    params: list  # names shown in the option's label
    bindings: list  # list[Binding]
    cond: Expr | None
    body: list
    ask: Str | None = None  # the option in words, with its bound names in {braces}


@dataclass
class Menu(Node):
    by: Expr | None
    options: list  # list[Option]
    otherwise: list | None
    ask: Str | None = None


@dataclass
class If(Node):
    branches: list  # list[(cond, body)]
    other: list | None


@dataclass
class For(Node):
    var: str
    coll: Expr
    cond: Expr | None
    body: list


@dataclass
class While(Node):
    cond: Expr
    body: list


@dataclass
class Repeat(Node):
    count: Expr
    body: list


@dataclass
class Secretly(Node):
    var: str
    coll: Expr
    body: list


@dataclass
class Until(Node):
    event: str
    decls: list


Stmt = Union[Let, Assign, CallStmt, Move, Shuffle, Log, Return, Win, Reveal, Show, Pass, Break, Continue, Choose, ChooseOrder, Menu, If, For, While, Repeat, Secretly, Until]


# ------------------------------------------------------------------ declarations
@dataclass
class Param(Node):
    name: str
    type: str | None = None


@dataclass
class Procedure(Node):
    name: str
    params: list
    body: list


@dataclass
class EventDecl(Node):
    name: str
    params: list


@dataclass
class Function(Node):
    name: str
    params: list
    expr: Expr


@dataclass
class Trigger(Node):
    event: str
    pattern: list  # names: a local to bind, "this", "you" or "_"
    cond: Expr | None
    timing: str | None
    body: list
    zones: list | None = None  # `in ZONE, ...`: where its card must lie for it to work (else the kind's active_in)


@dataclass
class Replacement(Node):
    event: str
    pattern: list
    cond: Expr | None
    timing: str | None
    body: list
    zones: list | None = None  # `in ZONE, ...`: where its card must lie for it to work (else the kind's active_in)


@dataclass
class Modifier(Node):
    func: str
    pattern: list
    cond: Expr | None
    timing: str | None
    expr: Expr
    zones: list | None = None


@dataclass
class Watcher(Node):
    """whenever COND: BODY, run each time COND turns true (checked when a procedure ends)."""

    cond: Expr
    body: list


Decl = Union[Procedure, EventDecl, Function, Trigger, Replacement, Modifier, Watcher]


@dataclass
class Module:
    """One parsed text: a rules file, or a card's effect field."""

    path: str
    decls: list
    owner: str | None = None  # the entity id whose effect this is, None for rules files


def children(node) -> list:
    """Every AST node directly below `node`, for generic walks."""
    out = []
    for value in vars(node).values():
        if isinstance(value, Node):
            out.append(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, Node):
                    out.append(item)
                elif isinstance(item, tuple):
                    out.extend(x for x in item if isinstance(x, Node))
                    for x in item:
                        if isinstance(x, list):
                            out.extend(y for y in x if isinstance(y, Node))
    return out
