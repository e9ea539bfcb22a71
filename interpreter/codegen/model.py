"""What compiling a game produces: its procedures, functions and abilities as Python callables."""
from __future__ import annotations

from dataclasses import dataclass, field

from dsl.loader import GameContent


@dataclass
class Proc:
    name: str
    params: list
    body: object = None  # fn(rt, *args): a plain function, or a generator function when body_yields
    yields: bool = False  # the call (body, triggers or replacements) may reach a decision
    hooked: bool = False  # some trigger or replacement may apply to it
    body_yields: bool = False


@dataclass
class Func:
    name: str
    params: list
    fn: object = None  # fn(rt, *args) -> value; card functions take `this` first
    for_seats: object = None  # a card function of one player: fn(rt, this) -> [its value for each seat]


@dataclass
class Hook:
    """A trigger, replacement or modifier. Its callables take (rt, bindings): a dict of names to values."""

    kind: str  # trigger | replacement | modifier | watcher
    event: str
    owner: str | None  # record id for card abilities
    pattern: list
    timing: str | None
    order: int
    span: object
    cond: object = None  # fn(rt, b) -> bool, or None
    body: object = None  # trigger/replacement: fn(rt, b), a generator function when `yields`
    expr: object = None  # modifier: fn(rt, b) -> the new value (b["value"] holds the old one)
    yields: bool = False
    zones: tuple | None = None  # card abilities: where the card must lie (`in ZONE, ...`); None: its kind's active_in
    guard: int | None = None  # a card's modifier: the argument its condition first requires to be the card itself

    def __post_init__(self) -> None:
        # The pattern read once for the resolver, which matches it against every event's arguments:
        # the positions that must be the ability's own component, and (position, name) of those it binds.
        self.this_at = tuple(i for i, n in enumerate(self.pattern) if n == "this")
        self.binds = tuple((i, n) for i, n in enumerate(self.pattern) if n not in ("_", "this"))


@dataclass
class CompiledGame:
    content: GameContent
    procs: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)
    hooks: dict = field(default_factory=lambda: {"trigger": {}, "replacement": {}, "modifier": {}})
    card_funcs: dict = field(default_factory=dict)  # record id -> {name: Func}
    modified: set = field(default_factory=set)  # functions some modifier may change
    hooked_events: set = field(default_factory=set)
    yielding: set = field(default_factory=set)  # procedures and events whose call may reach a decision (or a draw)
    asking: set = field(default_factory=set)  # those whose call may reach a player's decision
    drawing: set = field(default_factory=set)  # functions and card functions whose value may be drawn by chance
    namespace: dict = field(default_factory=dict)  # globals of the generated code
    sources: dict = field(default_factory=dict)  # generated file name -> (source text, span per line)
    hook_index: dict = field(default_factory=dict)  # built by the resolver once per game
    active_in: dict | None = None  # kind -> the zones where its abilities work (resolver)
    ability_records: dict = field(default_factory=dict)  # record -> events of its abilities found by where it lies (resolver)
    memoizable: set = field(default_factory=set)  # modified functions that draw no random numbers
    watchers: list = field(default_factory=list)  # `whenever` conditions, as hooks of kind "watcher"
    watchers_declared: bool = False
    function_decls: dict = field(default_factory=dict)  # name -> every Function declaration of it (codegen)
    partial_attributes: frozenset | None = None  # attributes some records lack, without a default (codegen)
    resumer: object = None  # runtime.snapshot.Resumer: how suspended procedures are copied (built when first needed)
    start_states: dict = field(default_factory=dict)  # (players, variants) -> the state before setup (runtime.start)
    card_table: object = None  # CardFunctions, made when first asked for (card_functions)
    derived: dict = field(default_factory=dict)  # what higher layers compute once from the game (bots' action words)
    # Compiled for rule coverage (scenarios.coverage): no rule function is inlined into its callers, so that each
    # runs as its own generated function under its own span; the same game otherwise, only slower.
    for_coverage: bool = False
    evaluation: object = None  # fn(rt, seat) -> number: the manifest's `bots: evaluation:` (dsl.bots_spec)

    @property
    def card_functions(self) -> "CardFunctions":
        """record id -> {name: fn(rt, this, *args)}, failing in the language's words on a missing one; its `seats`,
        the same of the card functions of one player as fn(rt, this) -> [the value for each seat].
        Made once (after compiling) and shared by every game's runtime, which only reads it."""
        table = self.card_table
        if table is None:
            table = self.card_table = CardFunctions()
            seats = table.seats = CardFunctions()
            for record, funcs in self.card_funcs.items():
                table[record] = Defined(record, {name: f.fn for name, f in funcs.items()})
                seats[record] = Defined(record, {name: f.for_seats for name, f in funcs.items() if f.for_seats})
        return table

    def span_at(self, filename: str, line: int):
        entry = self.sources.get(filename)
        if entry is None or not 0 < line <= len(entry[1]):
            return None
        return entry[1][line - 1]

    def python_source(self) -> str:
        """Every generated module, for `rules compile --emit-python`."""
        return "\n".join(text for text, _ in self.sources.values())


class Defined(dict):
    """The card functions one record defines."""

    def __init__(self, record: str, funcs: dict):
        super().__init__(funcs)
        self.record = record

    def __missing__(self, name: str):
        raise RuntimeError(f"{self.record} does not define '{name}'")


class CardFunctions(dict):
    __slots__ = ("seats",)  # (a slot: read by generated code as `rt.cfs.seats`)

    def __missing__(self, record: str):
        return Defined(record, {})


class GameOver(Exception):
    def __init__(self, winners: list):
        self.winners = winners


class RunLimit(RuntimeError):
    """A budget of the run (loop steps, sizes, number range) was exceeded: reported as RUN-LIMIT."""
