"""A board's layout: where each area of the map is drawn, as data in a YAML file the manifest names.

    table:
      board: {zone: board, controller: controller, adjacent: adjacent, layout: board_layout.yaml}

    # board_layout.yaml
    source: designed                   # where the positions come from
    size: [1000, 1500]                 # the drawing's width and height (optional: the positions' extent)
    areas:
      winterfell: [430, 230]           # area id -> [x, y], y growing downwards
      ...

Every area (a component whose kind starts in the board's zone) must have a position, and every id must
be an area: both are diagnostics pointing into the layout file. The positions are read once, at load,
into `TableSpec.board["positions"]`; the engine draws nothing, front ends (interpreter.web) do.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from dsl.diagnostics import DiagnosticError, Report, Span, did_you_mean
from dsl.inputs import read_text
from dsl.yaml_records import load_yaml

MAX_COORD = 100_000
HINT = "a layout file holds `source:`, optional `size: [W, H]` and `areas:` mapping each area id to [x, y]"


def read_layout(root: Path, rel, doc, voc, entity_ids: dict, board: dict, report: Report) -> None:
    """Read `board["layout"]` (a path inside the game folder) into `board["positions"]`; report problems."""
    where = doc.span(("table", "board", "layout"))
    if not isinstance(rel, str) or PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
        report.error("CONTENT-OUTSIDE", f"table: board: layout '{rel}' must be a path inside the game folder", where, HINT)
        return
    path = root / rel
    try:
        inside = path.resolve().is_relative_to(root.resolve()) and path.is_file()
    except (OSError, ValueError):
        inside = False
    if not inside:
        report.error("CONTENT-MISSING", f"table: board: the layout file '{rel}' does not exist in the game folder", where, HINT)
        return
    shown = str(Path(root.name) / rel)
    try:
        ldoc, problems = load_yaml(shown, read_text(path, shown))
    except DiagnosticError as err:
        report.add(err.diagnostics)
        return
    if problems:
        report.add(problems)
        return
    data = ldoc.data
    if not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        report.error("LAYOUT-SHAPE", f"{shown} has no `areas:` mapping", Span(shown, 1, 1), HINT)
        return
    for key in data:
        if key not in ("source", "size", "areas"):
            report.error("LAYOUT-SHAPE", f"{shown}: unknown field '{key}'", ldoc.span((key,)), HINT)
    if not isinstance(data.get("source"), str):
        report.error("LAYOUT-SHAPE", f"{shown}: say where the positions come from with `source:` (e.g. designed)",
                     Span(shown, 1, 1), HINT)
    zone = board.get("zone")
    areas = [eid for eid, rec in entity_ids.items()
             if getattr(voc.kinds.get(rec.data.get("kind")), "starts_in", None) == zone]
    positions: dict = {}
    for aid, xy in data["areas"].items():
        at = ldoc.span(("areas", aid))
        if aid not in areas:
            report.error("LAYOUT-AREA", f"{shown}: '{aid}' is not an area of the board (zone '{zone}')", at,
                         did_you_mean(str(aid), areas) or "list the ids of the components that start in the board's zone")
        elif not _point(xy):
            report.error("LAYOUT-SHAPE", f"{shown}: the position of '{aid}' must be [x, y], two numbers from 0 to {MAX_COORD:,}",
                         at, HINT)
        else:
            positions[aid] = (float(xy[0]), float(xy[1]))
    missing = [a for a in areas if a not in data["areas"]]
    if missing:
        report.error("LAYOUT-AREA", f"{shown}: {len(missing)} area(s) have no position: {', '.join(missing[:8])}"
                     + (" ..." if len(missing) > 8 else ""), ldoc.span(("areas",)), "give every area an [x, y]")
    size = data.get("size")
    if size is not None and not _point(size):
        report.error("LAYOUT-SHAPE", f"{shown}: size must be [width, height]", ldoc.span(("size",)), HINT)
        size = None
    if positions:
        board["positions"] = positions
        width = max(x for x, _ in positions.values()) + 60
        height = max(y for _, y in positions.values()) + 60
        board["size"] = (float(size[0]), float(size[1])) if size else (width, height)


def _point(xy) -> bool:
    return (isinstance(xy, list) and len(xy) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= MAX_COORD for v in xy))
