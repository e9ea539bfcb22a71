"""What a game's table shows a person, declared as data in its manifest's `table:` section and checked
with the rest of the game. The engine's table model (interpreter.present.table) reads it; nothing in
the engine knows a particular game's zones.

    table:
      score: score_now                  # a function of one player: shown during play, counted at the end
      zones:                            # how a zone shows (default: stacks)
        deck: count                     #   all | stacks | top | count | none
        discard: {owner: all, others: top}
        tides: {owner: count, others: count, variant: tides}   # shown only in a game with that variant on
      variables: [first_player]         # the variables a player reads; the others are bookkeeping
      backs: {token: kind}              # what a face-down component's back shows: its kind or an attribute
      board: {zone: board, controller: controller, adjacent: adjacent}   # areas: who controls each, neighbours
      steps: [play_unit]                # menu options asked in two steps: first what, then where
      totals: {bid_pile: influence}     # a zone shown with the sum of an attribute over what lies there

How the table looks (cards, icons, colours, the board's styles, tracks) is the manifest's `looks:` (dsl.looks),
read into `TableSpec.looks`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from dsl.diagnostics import Report, did_you_mean
from dsl.looks import Looks

MODES = ("all", "stacks", "top", "count", "none")


@dataclass(frozen=True)
class ZoneShow:
    owner: str = "stacks"  # how the zone's owner (a player, or the holder of the component it lies on) sees it
    others: str = "stacks"  # how everyone else sees it
    variant: str | None = None  # shown only when this variant is on (its components sit out the other games)


@dataclass
class TableSpec:
    score: str | None = None
    score_during_play: bool = True  # false: the score depends on what is hidden until the end
    zones: dict = field(default_factory=dict)  # zone name -> ZoneShow
    variables: tuple = ()
    backs: dict = field(default_factory=dict)  # kind -> "kind" or an attribute name
    board: dict = field(default_factory=dict)  # zone, controller (function), adjacent (attribute)
    steps: frozenset = frozenset()  # menu options whose entries a front end may ask in two steps
    totals: dict = field(default_factory=dict)  # zone -> the number attribute summed over what lies there
    on_components: tuple = ()  # the shown variables of entity scope: drawn on their components
    looks: Looks = field(default_factory=Looks)  # how it all looks (dsl.looks)

    def show(self, zone: str) -> ZoneShow:
        return self.zones.get(zone, _DEFAULT)


_DEFAULT = ZoneShow()


def read_table_spec(raw, doc, voc, functions: dict, report: Report, options: set = frozenset()) -> TableSpec:
    """The manifest's `table:` as a TableSpec; every name it uses must exist (`functions`: name -> number
    of parameters of the rule text's functions; `options`: the names of the rule text's menu options)."""
    spec = TableSpec()
    if not isinstance(raw, dict):
        return spec

    def where(*path):
        return doc.span(("table",) + path)

    score = raw.get("score")
    if score is not None:
        if functions.get(score) != 1:
            report.error("REF-UNDEF", f"table: score '{score}' is not a function of one player", where("score"),
                         did_you_mean(score, [n for n, k in functions.items() if k == 1]) or
                         "name the function the final scoring counts, e.g. function score_now(p: player) = ...")
        else:
            spec.score = score
    spec.score_during_play = bool(raw.get("score_during_play", True))
    for name, how in (raw.get("zones") or {}).items():
        if name not in voc.zones:
            report.error("REF-UNDEF", f"table: no zone '{name}'", where("zones", name), did_you_mean(name, voc.zones))
            continue
        pair = (how, how) if isinstance(how, str) else ((how or {}).get("owner", "stacks"), (how or {}).get("others", "stacks"))
        for mode in pair:
            if mode not in MODES:
                report.error("VOCAB-VALUE", f"table: zone '{name}' cannot show as '{mode}'", where("zones", name),
                             f"one of: {', '.join(MODES)}")
        variant = how.get("variant") if isinstance(how, dict) else None
        if variant is not None and variant not in voc.variants:
            report.error("REF-UNDEF", f"table: zone '{name}': no variant '{variant}'", where("zones", name, "variant"),
                         did_you_mean(str(variant), voc.variants))
            variant = None
        spec.zones[name] = ZoneShow(*pair, variant)
    shown = []
    for i, name in enumerate(raw.get("variables") or ()):
        if name not in voc.variables:
            report.error("REF-UNDEF", f"table: no variable '{name}'", where("variables", i), did_you_mean(name, voc.variables))
        else:
            shown.append(name)
    spec.variables = tuple(shown)
    spec.on_components = tuple(n for n in shown if voc.variables[n].scope == "entity")
    for kind, what in (raw.get("backs") or {}).items():
        if kind not in voc.kinds:
            report.error("REF-UNDEF", f"table: backs: no kind '{kind}'", where("backs", kind), did_you_mean(kind, voc.kinds))
        elif what != "kind" and what not in voc.attributes:
            report.error("REF-UNDEF", f"table: the back of a {kind} shows '{what}', which is neither 'kind' nor an attribute",
                         where("backs", kind), did_you_mean(what, list(voc.attributes) + ["kind"]))
        else:
            spec.backs[kind] = what
    board = raw.get("board") or {}
    if board:
        if board.get("zone") not in voc.zones:
            report.error("REF-UNDEF", f"table: board: no zone '{board.get('zone')}'", where("board", "zone"),
                         did_you_mean(str(board.get("zone")), voc.zones))
        elif board.get("controller") is not None and functions.get(board["controller"]) != 1:
            report.error("REF-UNDEF", f"table: board: '{board['controller']}' is not a function of one area",
                         where("board", "controller"))
        elif board.get("adjacent") is not None and board["adjacent"] not in voc.attributes:
            report.error("REF-UNDEF", f"table: board: no attribute '{board['adjacent']}'", where("board", "adjacent"),
                         did_you_mean(board["adjacent"], voc.attributes))
        else:
            spec.board = dict(board)
    steps = []
    for i, name in enumerate(raw.get("steps") or ()):
        if name not in options:
            report.error("REF-UNDEF", f"table: steps: no menu option '{name}'", where("steps", i),
                         did_you_mean(name, sorted(options)) or "name an option of a `choose by P:` menu")
        else:
            steps.append(name)
    spec.steps = frozenset(steps)
    for zone, attribute in (raw.get("totals") or {}).items():
        if zone not in voc.zones:
            report.error("REF-UNDEF", f"table: totals: no zone '{zone}'", where("totals", zone), did_you_mean(zone, voc.zones))
        elif voc.attributes.get(attribute) != "number":
            report.error("REF-UNDEF", f"table: totals: no number attribute '{attribute}'", where("totals", zone),
                         did_you_mean(str(attribute), [n for n, t in voc.attributes.items() if t == "number"]))
        else:
            spec.totals[zone] = attribute
    return spec
