"""A board in the scene (interpreter.present.scene), in two layers:

- the static board, the same for every reader and all game long (one per game and language): each area's
  shape from the layout (`shapes`: polygons; an area given as a point is a small round shape, a board
  without a layout a ring), its style by an attribute (land, sea), its name at its label point and the icons
  of its attributes (castle, barrels) — what a front end draws once and keeps;
- the reader's layer: who controls each area, what lies there (tokens at the slots the layout names for
  their zones, near the name otherwise, identical ones once with ×N), its shown variables as badges, the
  areas the pending options name, what changed since the reader's last decision, and the areas out of play
  greyed with the reason.

Geometry comes from `TableSpec.board` as dsl.board_layout fills it: `positions` (label points), `shapes`
(area -> polygons of (x, y)), `labels`, `slots` (area -> zone -> (x, y)), `size`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from dsl.board_geometry import CHAR_EM, LINE_EM, label_lines

RADIUS = 18  # a point layout's round shape
LABEL = 12  # the height of area names' letters unless the layout says otherwise (as its checks assume)
PIECE = 22  # px between the centres of two tokens in a row
BIG = 1200.0  # a board larger than this draws its tokens larger, up to 1.2× (more: tokens at slots near names cover them)
ICON = 14  # px: an attribute icon


@dataclass
class StaticArea:
    ref: str
    name: str
    paths: list  # SVG path data, one per polygon ([] for a round shape)
    circle: tuple | None  # (x, y, r) of a round shape
    fill: str
    stroke: str
    text: str
    label: tuple  # (x, y) of its name's centre
    icons: list = field(default_factory=list)  # [(icon, x, y)] the icons of its attributes
    lines: list = field(default_factory=list)  # its name cut into the lines the layout asks for
    size: float = LABEL  # the letters' height


@dataclass
class StaticBoard:
    width: float
    height: float
    areas: list
    edges: list  # (x1, y1, x2, y2): neighbours joined, on a board without shapes
    icons: set = field(default_factory=set)


@dataclass
class PieceDraw:
    card: object  # scene.Card (a token)
    x: float
    y: float


@dataclass
class AreaDraw:
    ref: str
    name: str
    title: str  # its name and what lies there, in words (a tooltip)
    label: tuple
    controller: int | None = None
    colour: str | None = None  # the controller's colour
    chosen: bool = False
    changed: bool = False
    greyed: str | None = None  # why it is out of play
    pieces: list = field(default_factory=list)
    values: list = field(default_factory=list)  # [(word, value)]: badges
    # what a front end wrote of it, kept with it while the scene reuses it (board_draw): {how: text}
    drawn: dict = field(default_factory=dict, repr=False, compare=False)


@dataclass
class BoardDraw:
    width: float
    height: float
    areas: list
    greyed: list = field(default_factory=list)  # the reasons areas are greyed, each once (a legend)
    piece: float = 1.0  # the tokens' scale: a board drawn small on a screen keeps its tokens readable


def _style(looks, attrs: dict, kind: str) -> dict:
    name = looks.area_style.of(attrs, kind) if looks.area_style is not None else None
    return looks.styles.get(name or "", {}) if name else {}


def board_areas(state, spec) -> list:
    """Every area the board may draw: the components of the kinds that start in the board's zone, in content order."""
    zone = spec.board.get("zone")
    kinds = {k for k, d in state.voc.kinds.items() if getattr(d, "starts_in", None) == zone}
    return [e for e in state.entities.values() if e.kind in kinds]


def static_board(state, spec, pr) -> StaticBoard:
    """The board's static layer, in `pr`'s language."""
    looks = spec.looks
    areas = board_areas(state, spec)
    board = spec.board
    shapes, labels = board.get("shapes") or {}, board.get("labels") or {}
    positions = board.get("positions") or {}
    if positions or shapes:
        width, height = board.get("size") or (800.0, 800.0)
        at = {e.id: tuple(labels.get(e.id) or positions.get(e.id) or _centre(shapes.get(e.id)) or (RADIUS, RADIUS)) for e in areas}
    else:  # no layout: a ring, in the areas' content order
        width, at = _ring([e.id for e in areas])
        height = width
    out = StaticBoard(float(width), float(height), [], [])
    for e in areas:
        style = _style(looks, e.attrs, e.kind)
        polygons = shapes.get(e.id)
        x, y = at[e.id]
        if polygons:
            paths = [_path(poly) for poly in polygons if len(poly) >= 3]
            area = StaticArea(e.id, pr.entity(e, values=False), paths, None, style.get("fill", "#eeeae0"),
                              style.get("stroke", "#5b5b5b"), style.get("text", "#1d1d1d"), (x, y))
        else:
            area = StaticArea(e.id, pr.entity(e, values=False), [], (x, y, RADIUS), style.get("fill", "#f4f1ea"),
                              style.get("stroke", "#444444"), style.get("text", "#1d1d1d"), (x, y + RADIUS + LABEL))
        area.size = float(board.get("label_size") or LABEL)
        area.lines = label_lines(area.name, (board.get("label_lines") or {}).get(e.id, 1))
        area.icons = _attribute_icons(looks, e, area, (board.get("slots") or {}).get(e.id) or {})
        out.icons.update(name for name, _, _ in area.icons)
        out.areas.append(area)
    if not shapes:
        adjacent = spec.board.get("adjacent")
        seen = set()
        for e in areas:
            for b in e.attrs.get(adjacent) or () if adjacent else ():
                bid = getattr(b, "id", b)
                if bid in at and (bid, e.id) not in seen:
                    seen.add((e.id, bid))
                    out.edges.append((*at[e.id], *at[bid]))
    return out


def _path(poly) -> str:
    return "M " + " L ".join(f"{x:.1f} {y:.1f}" for x, y in poly) + " Z"


def _centre(polygons):
    if not polygons:
        return None
    points = [p for poly in polygons for p in poly]
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


def _attribute_icons(looks, e, area: StaticArea, slots: dict) -> list:
    names = []
    for spec in looks.area_icons:
        value = e.kind if spec.attribute == "kind" else e.attrs.get(spec.attribute)
        if spec.icons:
            if value is not None and str(value) in spec.icons:
                names.append(spec.icons[str(value)])
        elif value is True:
            names.append(spec.icon)
        elif type(value) is int and value > 0:
            names.extend([spec.icon] * min(value, 6))
    if not names:
        return []
    if "icons" in slots:
        cx, cy = slots["icons"]
    elif area.circle is not None:
        cx, cy = area.circle[0], area.circle[1] - RADIUS - ICON / 2 - 2
    else:
        cx, cy = area.label[0], area.label[1] - LABEL - 2
    left = cx - (len(names) - 1) * (ICON + 1) / 2
    return [(name, left + i * (ICON + 1), cy) for i, name in enumerate(names)]


def board_draw(model, spec, painter, chosen: set, changed: set) -> BoardDraw:
    """The reader's layer of the board of `model`."""
    board = spec.board
    labels, positions, slots = board.get("labels") or {}, board.get("positions") or {}, board.get("slots") or {}
    shapes = board.get("shapes") or {}
    width, height = board.get("size") or (800.0, 800.0)
    ring = None if (positions or shapes) else _ring([e.id for e in board_areas(painter.state, spec)])
    if ring is not None:
        width = height = ring[0]
    out = BoardDraw(float(width), float(height), [], piece=min(1.2, max(1.0, max(width, height) / BIG)))
    step = PIECE * out.piece
    for a in model.areas:
        if ring is not None:
            x, y = ring[1].get(a.ref, (RADIUS, RADIUS))
            label, below = (x, y + RADIUS + LABEL), y + RADIUS + LABEL + 16
        elif a.ref in shapes:
            label = tuple(labels.get(a.ref) or positions.get(a.ref) or _centre(shapes[a.ref]))
            rows = (board.get("label_lines") or {}).get(a.ref, 1)
            below = label[1] + rows * LINE_EM * (board.get("label_size") or LABEL) / 2 + step / 2 + 2
        else:
            x, y = positions.get(a.ref, (RADIUS, RADIUS))
            label, below = (x, y + RADIUS + LABEL), y + RADIUS + LABEL + 16
        colour = painter.seat_colour(a.controller) if a.controller is not None else None
        drawn_zones = [painter.zone(z, a.controller, token=True) for z in a.zones]
        key = (a.name, a.controller, colour, a.ref in chosen, a.ref in changed, a.greyed, a.values)
        kept = _kept(painter, a.ref, key, drawn_zones)
        if kept is not None:  # nothing it shows changed since the scene before: drawn as it was
            if a.greyed and a.greyed not in out.greyed:
                out.greyed.append(a.greyed)
            out.areas.append(kept)
            continue
        words = [a.name] + [f"{w} {v}" for w, v in a.values] + [_zone_words(z) for z in a.zones] + ([a.greyed] if a.greyed else [])
        area = AreaDraw(a.ref, a.name, "\n".join(words), label, a.controller, colour, a.ref in chosen, a.ref in changed,
                        a.greyed, values=list(a.values))
        row = 0
        for z, drawn in zip(a.zones, drawn_zones):
            at = (slots.get(a.ref) or {}).get(z.zone)
            if at is None:
                at = (label[0], below + row * step)
                row += 1
            left = at[0] - (len(drawn.cards) - 1) * step / 2
            area.pieces.extend(PieceDraw(card, left + i * step, at[1]) for i, card in enumerate(drawn.cards))
        if a.greyed and a.greyed not in out.greyed:
            out.greyed.append(a.greyed)
        out.areas.append(area)
        if painter.memo is not None:
            painter.memo[("area", a.ref)] = (key, drawn_zones, area)
    return out


def _kept(painter, ref: str, key: tuple, drawn_zones: list):
    """The area's drawing in the scene before (the painter's memo), if made from the same things: `key` and the
    very drawings of its zones (the painter reuses a zone's drawing while nothing it shows changed)."""
    memo = painter.memo
    if memo is None:
        return None
    painter.used.add(("area", ref))
    kept = memo.get(("area", ref))
    if kept is None or kept[0] != key or len(kept[1]) != len(drawn_zones):
        return None
    return kept[2] if all(x is y for x, y in zip(kept[1], drawn_zones)) else None


def _ring(ids: list) -> tuple:
    """A board without a layout: its size, and each area on a circle in content order."""
    n = max(1, len(ids))
    r = max(150.0, n * 14.0)
    size = 2 * r + 160
    return size, {ref: (size / 2 + r * math.cos(2 * math.pi * i / n - math.pi / 2),
                        size / 2 + r * math.sin(2 * math.pi * i / n - math.pi / 2)) for i, ref in enumerate(ids)}


def _zone_words(z) -> str:
    if z.mode == "count" or not z.items:
        return f"{z.name}: {z.size}"
    return f"{z.name}: " + ", ".join(it.text + (f" ×{it.count}" if it.count > 1 else "") for it in z.items)
