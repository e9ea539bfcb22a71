"""A board drawn as an SVG schematic from the table model (interpreter.present.table) and the positions the
game's layout file gives (dsl.board_layout): each area a node at its position with its name and what lies
there through the reader's view, lines between neighbours, a fill by who controls the area, and the areas
the current options name marked so a click on them chooses. A game with areas but no layout gets its areas
on a circle. Geometry only: the template (templates/board.html) writes the SVG, escaping every text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

# one colour per seat (controller), readable with black text; an area nobody controls is left pale
PALETTE = ("#e07a5f", "#81b29a", "#f2cc8f", "#8ecae6", "#c9a0dc", "#f4a261", "#a3c4bc", "#e5989b")
NOBODY = "#f4f1ea"
RADIUS = 18


@dataclass
class Node:
    ref: str
    name: str
    x: float
    y: float
    fill: str
    controller: int | None
    contents: list = field(default_factory=list)  # short lines: what lies there
    chosen: bool = False  # named by an option of the pending decision


@dataclass
class Board:
    width: float
    height: float
    nodes: list
    edges: list  # (x1, y1, x2, y2)


def colour(seat: int | None) -> str:
    return NOBODY if seat is None else PALETTE[seat % len(PALETTE)]


def contents(area) -> list[str]:
    out = []
    for zone in area.zones:
        if zone.mode == "count" or not zone.items:
            out.append(f"{zone.name}: {zone.size}")
            continue
        out.append(", ".join(item.text + (f" ×{item.count}" if item.count > 1 else "") for item in zone.items))
    return out


def board(model, spec_board: dict, chosen: set) -> Board | None:
    """The board of `model` (None when the game declares no areas)."""
    if not model.areas:
        return None
    positions = spec_board.get("positions") or {}
    if positions:
        width, height = spec_board.get("size") or (800.0, 800.0)
        at = {a.ref: positions.get(a.ref, (RADIUS, RADIUS)) for a in model.areas}
    else:  # no layout: a ring, in the areas' content order
        n = len(model.areas)
        r = max(150.0, n * 14.0)
        width = height = 2 * r + 120
        at = {a.ref: (width / 2 + r * math.cos(2 * math.pi * i / n - math.pi / 2),
                      height / 2 + r * math.sin(2 * math.pi * i / n - math.pi / 2)) for i, a in enumerate(model.areas)}
    nodes = [Node(a.ref, a.name, *at[a.ref], colour(a.controller), a.controller, contents(a), a.ref in chosen)
             for a in model.areas]
    edges, seen = [], set()
    for a in model.areas:
        for b in a.adjacent:
            if b in at and (b, a.ref) not in seen:
                seen.add((a.ref, b))
                edges.append((*at[a.ref], *at[b]))
    return Board(width, height, nodes, edges)
