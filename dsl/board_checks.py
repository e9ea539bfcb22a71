"""The checks `rules validate` runs on a board (docs/language.md, "Boards"), each finding a diagnostic at its place:

- LAYOUT-SHAPE-MISSING: once a layout gives any area a shape, an area drawn as a mere point;
- LAYOUT-OVERLAP: two shapes whose insides overlap, unless either declares `overlaps:` the other;
- LAYOUT-LABEL-FIT: an area's name (in every language the game is played in, cut into its `label_lines`) whose
  box at the label's point does not lie inside the shape;
- LAYOUT-SLOT: a slot outside its shape, on the label, or on another slot;
- LAYOUT-ADJACENCY: an area listing a neighbour that does not list it back (unless the layout declares the pair
  `one_way:`), itself (unless in `self_links:`), or a component that is not an area of the board.
"""
from __future__ import annotations

import functools
import math

from dsl.board_geometry import box_distance, box_inside, label_box, label_lines
from dsl.board_overlap import Board, TooIntricate
from dsl.diagnostics import Report

SLOT_RADIUS = 1.0  # in label heights: what is drawn at a slot reaches this far from its point


def check_layout(layout: dict, ldoc, names: dict, report: Report) -> None:
    shapes = layout["shapes"]
    if not shapes:
        return
    for aid in layout["positions"]:
        if aid not in shapes:
            report.error("LAYOUT-SHAPE-MISSING", f"'{aid}' is a point while other areas have shapes",
                         ldoc.span(("areas", aid)), "give every area a `shape:` or a `polygon:` (the point form is for "
                         "schematic boards, where no area has a shape)")
    order = {aid: i for i, aid in enumerate(ldoc.data["areas"])}
    try:
        indexed, overlaps = _geometry(_frozen(shapes), frozenset(layout["overlaps"]))
    except TooIntricate as err:
        report.error("INPUT-LIMIT", f"the layout's shapes are too intricate to check: {err}", ldoc.span(("areas",)),
                     "draw the areas with fewer points, or with fewer long edges crossing one another")
        return
    for a, b, (x, y) in overlaps:
        later = b if order.get(b, 0) > order.get(a, 0) else a
        other = a if later == b else b
        report.error("LAYOUT-OVERLAP", f"the shapes of '{a}' and '{b}' overlap near ({x:.0f}, {y:.0f})",
                     ldoc.span(("areas", later, "shape" if "shape" in ldoc.data["areas"][later] else "polygon")),
                     f"let the two shapes meet along a border both draw with the same points, or declare "
                     f"`overlaps: [{other}]` on '{later}' if it lies over '{other}' on purpose")
    size = layout["label_size"]
    for aid, rings in shapes.items():
        shape = indexed[aid]
        at = layout["labels"][aid]
        lines = layout["label_lines"].get(aid, 1)
        boxes = [label_box(at, name, lines, size) for name in names.get(aid, [aid])]
        for name, box in zip(names.get(aid, [aid]), boxes):
            if not box_inside(box, rings, shape.inside):
                rows = len(label_lines(name, lines))
                where = ("areas", aid, "label") if "label" in ldoc.data["areas"][aid] else ("areas", aid)
                report.error("LAYOUT-LABEL-FIT", f"the name '{name}' of '{aid}' ({box[2] - box[0]:.0f} x {box[3] - box[1]:.0f}"
                             f" in {rows} line{'s' if rows > 1 else ''}) does not fit inside its shape at ({at[0]:.0f}, "
                             f"{at[1]:.0f})", ldoc.span(where),
                             "move the label, widen the shape, or cut the name into lines with `label_lines: 2`")
                break
        _check_slots(aid, layout["slots"].get(aid, {}), shape, boxes, size, ldoc, report)


def _check_slots(aid: str, slots: dict, shape, boxes: list, size: float, ldoc, report: Report) -> None:
    radius = SLOT_RADIUS * size
    placed = []
    for name, (x, y) in slots.items():
        if not shape.inside(x, y):
            problem = "lies outside the shape"
        elif any(box_distance(x, y, box) < radius for box in boxes):
            problem = f"lies within {radius:g} of the label"
        else:
            near = [other for other, ox, oy in placed if math.hypot(x - ox, y - oy) < 2 * radius]
            problem = f"lies within {2 * radius:g} of the slot '{near[0]}'" if near else ""
        placed.append((name, x, y))
        if problem:
            report.error("LAYOUT-SLOT", f"the slot '{name}' of '{aid}' at ({x:.0f}, {y:.0f}) {problem}",
                         ldoc.span(("areas", aid, "slots", name)),
                         f"what lies on a slot is drawn up to {radius:g} around its point: keep it inside the shape, "
                         "clear of the label and of the other slots")


def _frozen(shapes: dict) -> tuple:
    return tuple(sorted((aid, tuple(tuple(ring) for ring in rings)) for aid, rings in shapes.items()))


@functools.lru_cache(maxsize=8)  # a cache of a pure function: a layout loaded again is not measured again
def _geometry(frozen: tuple, allowed: frozenset) -> tuple:
    """The areas' indexed shapes (read-only) and the pairs that overlap."""
    board = Board({aid: [list(ring) for ring in rings] for aid, rings in frozen})
    return board.shapes, board.overlaps(allowed)


def check_adjacency(areas: list, entity_ids: dict, attribute: str, layout: dict, report: Report) -> None:
    """Each area's neighbours (the attribute `table: board: adjacent:` names) list it back."""
    known = set(areas)
    one_way = layout.get("one_way") or set()
    self_links = layout.get("self_links") or set()
    lists = {aid: entity_ids[aid].data.get(attribute) for aid in areas}
    for aid in areas:
        listed = lists[aid]
        if not isinstance(listed, list):
            continue
        rec = entity_ids[aid]
        for i, other in enumerate(listed):
            where = rec.doc.span(rec.path + (attribute, i))
            if other == aid:
                if aid not in self_links:
                    report.error("LAYOUT-ADJACENCY", f"'{aid}' lists itself in `{attribute}`", where,
                                 f"remove it, or declare `self_links: [{aid}]` in the board's layout if it is meant")
            elif other not in known:
                if other in entity_ids:
                    report.error("LAYOUT-ADJACENCY", f"'{aid}' lists '{other}' in `{attribute}`, which is not an area of the board",
                                 where, "only components that start in the board's zone are areas")
            elif not (isinstance(lists[other], list) and aid in lists[other]) and (aid, other) not in one_way:
                report.error("LAYOUT-ADJACENCY", f"'{aid}' lists '{other}' in `{attribute}` but '{other}' does not list '{aid}'",
                             where, f"add '{aid}' to the `{attribute}` of '{other}', or declare `one_way: [[{aid}, {other}]]` "
                             "in the board's layout if the way goes in one direction only")
