"""A board's layout: where and as what shape each area of the map is drawn, as data in a YAML file the manifest
names (docs/language.md, "Boards").

    table:
      board: {zone: board, controller: controller, adjacent: adjacent, layout: board_layout.yaml}

    # board_layout.yaml
    source: designed                   # where the drawing comes from
    size: [1000, 1700]                 # the drawing's width and height, y growing downwards
    label_size: 12                     # optional: the height of a label's letters, in the drawing's units
    areas:
      winterfell:
        shape: "M 400 180 L 470 170 C 490 200 500 220 500 240 L 420 260 Z"   # or polygon: [[x, y], ...]
        label: [445, 215]              # the centre of the area's name (default: a point well inside)
        label_lines: 2                 # optional: the name cut at spaces into at most this many lines
        slots: {units: [440, 235], icons: [420, 200]}   # zones lying on the area (and `icons`) -> [x, y]
        overlaps: [port_of_winterfell] # shapes this one may overlap
      some_area: [120, 80]             # the point form: a schematic, drawn as a small round shape
    one_way: [[from, to]]              # optional: adjacency declared in one direction on purpose
    self_links: [area]                 # optional: areas adjacent to themselves on purpose

The file is read once, at load, into `TableSpec.board`: `positions` (area -> its label's point), `shapes`
(area -> rings of (x, y) points, filled even-odd), `labels`, `label_lines`, `label_size`, `slots`, `size`.
The engine draws nothing; front ends do. The checks on the result are dsl.board_checks.
"""
from __future__ import annotations

from pathlib import Path

from dsl.board_checks import check_adjacency, check_layout
from dsl.board_geometry import LABEL_SIZE, PathError, bbox, interior_point, parse_path
from dsl.diagnostics import Report, Span, did_you_mean
from dsl.yaml_records import read_game_yaml

MAX_COORD = 100_000
MAX_POINTS = 50_000  # points in all the shapes of one layout: a detailed map has a few thousand
MAX_LINES = 4
HINT = ("a layout file holds `source:`, optional `size: [W, H]`, `label_size:`, `one_way:`, `self_links:`, and `areas:` "
        "mapping each area id to [x, y] or to {shape or polygon, label, label_lines, slots, overlaps}")
FIELDS = ("source", "size", "label_size", "areas", "one_way", "self_links")
AREA_FIELDS = ("shape", "polygon", "label", "label_lines", "slots", "overlaps")


def board_areas(voc, entity_ids: dict, zone) -> list[str]:
    """The board's areas: the components whose kind starts in the board's zone, in content order."""
    return [eid for eid, rec in entity_ids.items() if getattr(voc.kinds.get(rec.data.get("kind")), "starts_in", None) == zone]


def check_board(root: Path, doc, voc, entity_ids: dict, board: dict, report: Report, display=str) -> None:
    """Read the board's layout, if it has one, into `board`, and check it and the areas' adjacency;
    `display(path)` names a file in diagnostics as the loader names the game's other files."""
    layout = None
    if board.get("layout") is not None:
        layout = read_layout(root, board["layout"], doc, voc, entity_ids, board, report, display)
    if board.get("adjacent"):
        check_adjacency(board_areas(voc, entity_ids, board.get("zone")), entity_ids, board["adjacent"], layout or {}, report)


def read_layout(root: Path, rel, doc, voc, entity_ids: dict, board: dict, report: Report, display=str) -> dict | None:
    """Read the layout file `rel` (a path inside the game folder) into `board`; report problems."""
    ldoc = read_game_yaml(root, rel, doc.span(("table", "board", "layout")), "table: board: layout", HINT, report, display)
    if ldoc is None:
        return None
    shown = ldoc.path
    data = ldoc.data
    if not isinstance(data, dict) or not isinstance(data.get("areas"), dict):
        report.error("LAYOUT-SHAPE", "the layout has no `areas:` mapping", Span(shown, 1, 1), HINT)
        return None
    for key in data:
        if key not in FIELDS:
            report.error("LAYOUT-SHAPE", f"unknown field '{key}' in the layout", ldoc.span((key,)), did_you_mean(str(key), FIELDS) or HINT)
    if not isinstance(data.get("source"), str):
        report.error("LAYOUT-SHAPE", f"say where the layout's drawing comes from with `source:` (e.g. designed)",
                     Span(shown, 1, 1), HINT)
    areas = board_areas(voc, entity_ids, board.get("zone"))
    reader = _Reader(ldoc, shown, report, set(areas), voc)
    layout = reader.read(data, areas, board.get("zone"))
    if layout["positions"]:
        board.update(layout)
        check_layout(layout, ldoc, _names(areas, entity_ids, voc.languages), report)
    return layout


def _names(areas: list, entity_ids: dict, languages) -> dict:
    """Area -> its names, one per language the game is played in (the id as words when it has none)."""
    out = {}
    for aid in areas:
        raw = entity_ids[aid].data.get("name")
        if isinstance(raw, dict):
            out[aid] = [str(raw[lang]) for lang in languages if lang in raw] or [str(v) for v in raw.values()]
        else:
            out[aid] = [str(raw) if raw is not None else aid.replace("_", " ")]
    return out


class _Reader:
    """One layout file's areas into plain data, each problem a diagnostic at its place."""

    def __init__(self, ldoc, shown: str, report: Report, areas: set, voc):
        self.doc, self.shown, self.report, self.areas = ldoc, shown, report, areas
        self.slot_names = sorted([z for z, d in voc.zones.items() if d.scope == "entity"] + ["icons"])
        self.points = 0

    def error(self, code: str, message: str, where, hint: str | None = HINT) -> None:
        span = where if isinstance(where, Span) else self.doc.span(where)
        self.report.error(code, message, span, hint)

    def read(self, data: dict, areas: list, zone) -> dict:
        out = {"positions": {}, "shapes": {}, "labels": {}, "label_lines": {}, "slots": {}, "overlaps": set(),
               "one_way": set(), "self_links": set(), "label_size": LABEL_SIZE}
        for aid, value in data["areas"].items():
            at = ("areas", aid)
            if aid not in self.areas:
                self.error("LAYOUT-AREA", f"'{aid}' is not an area of the board (zone '{zone}')", at,
                           did_you_mean(str(aid), areas) or "list the ids of the components that start in the board's zone")
            elif isinstance(value, dict):
                self._area(aid, value, at, out)
            elif not _point(value):
                self.error("LAYOUT-SHAPE", f"the position of '{aid}' must be [x, y], two numbers from 0 to {MAX_COORD:,}, "
                           "or a mapping with a shape", at)
            else:
                out["positions"][aid] = out["labels"][aid] = (float(value[0]), float(value[1]))
        missing = [a for a in areas if a not in data["areas"]]
        if missing:
            count = "1 area has" if len(missing) == 1 else f"{len(missing)} areas have"
            self.error("LAYOUT-AREA", f"{count} no position: {', '.join(missing[:8])}" + (" ..." if len(missing) > 8 else ""),
                       ("areas",), "give every area an [x, y] or a shape")
        size = self._size(data, out)
        if size:
            out["size"] = size
        if data.get("label_size") is not None:
            value = data["label_size"]
            if _number(value) and 0 < value <= MAX_COORD:
                out["label_size"] = float(value)
            else:
                self.error("LAYOUT-SHAPE", "label_size must be a number above 0 (the letters' height in the drawing's units)",
                           ("label_size",))
        for i, pair in enumerate(self._listed(data, "one_way", "[from, to] pairs")):
            if not (isinstance(pair, list) and len(pair) == 2):
                self.error("LAYOUT-SHAPE", "each entry of one_way is [from, to]", ("one_way", i))
            elif self._area_ref(pair[0], ("one_way", i, 0)) and self._area_ref(pair[1], ("one_way", i, 1)):
                out["one_way"].add((pair[0], pair[1]))
        for i, name in enumerate(self._listed(data, "self_links", "area ids")):
            if self._area_ref(name, ("self_links", i)):
                out["self_links"].add(name)
        return out

    def _size(self, data: dict, out: dict):
        size = data.get("size")
        if size is not None and not _point(size):
            self.error("LAYOUT-SHAPE", "size must be [width, height]", ("size",))
            size = None
        if size:
            return float(size[0]), float(size[1])
        if not out["positions"]:
            return None
        xs = [x for x, _ in out["positions"].values()] + [bbox(s)[2] for s in out["shapes"].values()]
        ys = [y for _, y in out["positions"].values()] + [bbox(s)[3] for s in out["shapes"].values()]
        return max(xs) + 60, max(ys) + 60

    def _area(self, aid: str, value: dict, at: tuple, out: dict) -> None:
        for key in value:
            if key not in AREA_FIELDS:
                self.error("LAYOUT-SHAPE", f"'{aid}': unknown field '{key}'", at + (key,),
                           did_you_mean(str(key), AREA_FIELDS) or HINT)
        if "shape" in value and "polygon" in value:
            self.error("LAYOUT-SHAPE", f"'{aid}' has both a shape and a polygon: keep one", at + ("polygon",))
        rings = None
        if "shape" in value:
            rings = self._path(aid, value["shape"], at + ("shape",))
        elif "polygon" in value:
            rings = self._polygon(aid, value["polygon"], at + ("polygon",))
        if rings is None and not ("shape" in value or "polygon" in value):
            self.error("LAYOUT-SHAPE", f"'{aid}' has neither a shape nor a polygon", at,
                       "give the area `shape: \"M x y L x y ... Z\"` or `polygon: [[x, y], ...]`, or write it as [x, y]")
        if rings is None:
            return
        out["shapes"][aid] = rings
        label = value.get("label")
        if label is not None and not _point(label):
            self.error("LAYOUT-SHAPE", f"the label of '{aid}' must be [x, y]", at + ("label",))
            label = None
        out["labels"][aid] = out["positions"][aid] = (float(label[0]), float(label[1])) if label else interior_point(rings)
        lines = value.get("label_lines", 1)
        if not (isinstance(lines, int) and not isinstance(lines, bool) and 1 <= lines <= MAX_LINES):
            self.error("LAYOUT-SHAPE", f"label_lines of '{aid}' must be a whole number from 1 to {MAX_LINES}", at + ("label_lines",))
            lines = 1
        out["label_lines"][aid] = lines
        out["slots"][aid] = self._slots(aid, value.get("slots"), at + ("slots",))
        overlaps = value.get("overlaps") or []
        if not isinstance(overlaps, list):
            self.error("LAYOUT-SHAPE", f"overlaps of '{aid}' must be a list of area ids", at + ("overlaps",))
            overlaps = []
        for i, other in enumerate(overlaps):
            if self._area_ref(other, at + ("overlaps", i)):
                out["overlaps"].add(frozenset((aid, other)))

    def _path(self, aid: str, text, at: tuple):
        if not isinstance(text, str):
            self.error("LAYOUT-SHAPE", f"the shape of '{aid}' must be SVG path data in a string", at)
            return None
        try:
            rings = parse_path(text, MAX_POINTS - self.points)
        except PathError as err:
            self.error("LAYOUT-SHAPE", f"the shape of '{aid}': {err}", self._in_string(at, text, err.at),
                       "path data: absolute commands M x y, L x y, H x, V y, C x1 y1 x2 y2 x y, Q x1 y1 x y, Z")
            return None
        return self._bounded(aid, rings, at)

    def _polygon(self, aid: str, value, at: tuple):
        if not isinstance(value, list) or len(value) < 3:
            self.error("LAYOUT-SHAPE", f"the polygon of '{aid}' must be a list of at least three [x, y]", at)
            return None
        for i, xy in enumerate(value):
            if not _point(xy):
                self.error("LAYOUT-SHAPE", f"point {i + 1} of the polygon of '{aid}' must be [x, y], two numbers from 0 to "
                           f"{MAX_COORD:,}", at + (i,))
                return None
        ring = [(float(x), float(y)) for x, y in value]
        if len(set(ring)) < 3:
            self.error("LAYOUT-SHAPE", f"the polygon of '{aid}' needs three distinct points", at)
            return None
        return self._bounded(aid, [ring], at)

    def _bounded(self, aid: str, rings: list, at: tuple):
        self.points += sum(len(r) for r in rings)
        if self.points > MAX_POINTS:
            self.error("LAYOUT-SHAPE", f"the shapes hold more than {MAX_POINTS:,} points (at '{aid}')", at)
            return None
        for ring in rings:
            for x, y in ring:
                if not (0 <= x <= MAX_COORD and 0 <= y <= MAX_COORD):
                    self.error("LAYOUT-SHAPE", f"the shape of '{aid}' has the point ({x:g}, {y:g}) outside 0 to {MAX_COORD:,}", at)
                    return None
        return rings

    def _in_string(self, at: tuple, text: str, index: int) -> Span:
        """The span of character `index` of the string at `at`, when the string is written on one line."""
        p = self.doc.pos(at)
        span = self.doc.span(at)
        shift = 1 if p.style in ('"', "'") else 0
        line = span.text
        start = p.col - 1 + shift
        if p.style in (None, '"', "'") and line[start:start + len(text)] == text:
            col = start + index + 1
            return Span(self.shown, p.line, col, col + 1, line)
        return span

    def _slots(self, aid: str, value, at: tuple) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error("LAYOUT-SHAPE", f"slots of '{aid}' must map zone names to [x, y]", at)
            return {}
        slots = {}
        for name, xy in value.items():
            if name not in self.slot_names:
                self.error("LAYOUT-SLOT", f"'{aid}': '{name}' is neither a zone lying on an area nor `icons`", at + (name,),
                           did_you_mean(str(name), self.slot_names) or f"slots are named by zones of entity scope: "
                           f"{', '.join(self.slot_names)}")
            elif not _point(xy):
                self.error("LAYOUT-SHAPE", f"the slot '{name}' of '{aid}' must be [x, y]", at + (name,))
            else:
                slots[name] = (float(xy[0]), float(xy[1]))
        return slots

    def _area_ref(self, name, at: tuple) -> bool:
        if name in self.areas:
            return True
        self.error("LAYOUT-AREA", f"'{name}' is not an area of the board", at, did_you_mean(str(name), self.areas))
        return False

    def _listed(self, data: dict, key: str, what: str) -> list:
        value = data.get(key)
        if value is not None and not isinstance(value, list):
            self.error("LAYOUT-SHAPE", f"{key} must be a list of {what}", (key,))
            return []
        return value or []


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _point(xy) -> bool:
    return isinstance(xy, list) and len(xy) == 2 and all(_number(v) and 0 <= v <= MAX_COORD for v in xy)
