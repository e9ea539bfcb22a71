"""Which areas of a board overlap, and which share a border: plane geometry over every area's region at once.

Two regions overlap when their insides share some surface; touching along a border or at a point is not an
overlap. Found in three steps, each over the edges lying near one another only (a grid of cells buckets
the edges, so a board of a few thousand points is checked in milliseconds):
1. two edges crossing properly (each through the other's inside) mean an overlap at once;
2. an edge of one lying near the other's border is cut where the other's points lie on it; the middle of
   each piece is inside the other (overlap), outside (none), or on its border: then both insides lie on
   one side of that border, or they do not. Edges drawn by both areas with the same two points (the usual
   shared border) are tested once per run of such edges;
3. a ring with no edge near the other region lies wholly inside it or wholly outside: one point tells.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from dsl.board_geometry import bbox

TOL = 1e-6  # distances below this are zero


@dataclass
class Shape:
    """A region with its edges indexed by horizontal bands, for fast point-in-region tests."""

    rings: list
    edges: list = field(default_factory=list)  # (x1, y1, x2, y2, ring index, edge index in ring)
    box: tuple = (0.0, 0.0, 0.0, 0.0)
    _bands: dict = field(default_factory=dict)
    _band: float = 1.0

    def __post_init__(self):
        self.box = bbox(self.rings)
        for r, ring in enumerate(self.rings):
            prev = ring[-1]
            for k, p in enumerate(ring):
                self.edges.append((prev[0], prev[1], p[0], p[1], r, k))
                prev = p
        self._band = max((self.box[3] - self.box[1]) / max(1, len(self.edges) // 2), 1e-3)
        for e in self.edges:
            lo, hi = sorted((e[1], e[3]))
            for b in range(self._index(lo), self._index(hi) + 1):
                self._bands.setdefault(b, []).append(e)

    def _index(self, y: float) -> int:
        return int((y - self.box[1]) // self._band)

    def inside(self, x: float, y: float) -> bool:
        """Even-odd: whether (x, y) is inside (a point on the border may go either way)."""
        if not (self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]):
            return False
        hit = False
        for px, py, qx, qy, _, _ in self._bands.get(self._index(y), ()):
            if (qy > y) != (py > y) and x < px + (y - py) * (qx - px) / (qy - py):
                hit = not hit
        return hit


def _orient(ax, ay, bx, by, cx, cy) -> float:
    """The signed distance of c from the line a->b (0 when a = b)."""
    length = math.hypot(bx - ax, by - ay)
    return 0.0 if length == 0 else ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / length


def _on_segment(px, py, x1, y1, x2, y2) -> float | None:
    """Where p lies strictly inside the segment (its parameter t in (0, 1)), or None."""
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    if length == 0 or abs(_orient(x1, y1, x2, y2, px, py)) > TOL:
        return None
    t = ((px - x1) * dx + (py - y1) * dy) / length
    span = math.sqrt(length)
    return t if TOL < t * span < span - TOL else None


def _cross(a, b) -> tuple | None:
    """The point where two edges cross properly, or None."""
    d1 = _orient(b[0], b[1], b[2], b[3], a[0], a[1])
    d2 = _orient(b[0], b[1], b[2], b[3], a[2], a[3])
    if not ((d1 > TOL and d2 < -TOL) or (d1 < -TOL and d2 > TOL)):
        return None
    d3 = _orient(a[0], a[1], a[2], a[3], b[0], b[1])
    d4 = _orient(a[0], a[1], a[2], a[3], b[2], b[3])
    if not ((d3 > TOL and d4 < -TOL) or (d3 < -TOL and d4 > TOL)):
        return None
    t = d1 / (d1 - d2)
    return a[0] + t * (a[2] - a[0]), a[1] + t * (a[3] - a[1])


def _key(x: float, y: float) -> tuple:
    return round(x, 5), round(y, 5)


class Board:
    """Every area's Shape, with the edges of all of them bucketed in a grid."""

    def __init__(self, regions: dict):
        self.shapes = {name: Shape(rings) for name, rings in regions.items()}
        count = sum(len(s.edges) for s in self.shapes.values()) or 1
        boxes = [s.box for s in self.shapes.values()] or [(0, 0, 1, 1)]
        width = max(b[2] for b in boxes) - min(b[0] for b in boxes)
        height = max(b[3] for b in boxes) - min(b[1] for b in boxes)
        self.cell = max(math.sqrt(max(width * height, 1.0) / count) * 2.0, 1e-3)
        self.grid: dict = defaultdict(list)
        for name, shape in self.shapes.items():
            for i, e in enumerate(shape.edges):
                for c in self._cells(e):
                    self.grid[c].append((name, i))

    def _cells(self, e):
        c = self.cell
        x0, x1 = sorted((e[0], e[2]))
        y0, y1 = sorted((e[1], e[3]))
        for gx in range(int(math.floor(x0 / c)), int(math.floor(x1 / c)) + 1):
            for gy in range(int(math.floor(y0 / c)), int(math.floor(y1 / c)) + 1):
                yield gx, gy

    def _near(self):
        """Per pair of areas (sorted names), the edge pairs lying in a common cell."""
        pairs: dict = defaultdict(set)
        for items in self.grid.values():
            if len(items) < 2:
                continue
            for i, (a, ea) in enumerate(items):
                for b, eb in items[i + 1:]:
                    if a != b:
                        pairs[(a, b) if a < b else (b, a)].add((ea, eb) if a < b else (eb, ea))
        return pairs

    def overlaps(self, allowed=frozenset()) -> list:
        """(a, b, (x, y)) for each pair of areas that overlap, a before b by name, with a point of the overlap;
        pairs in `allowed` (frozensets of two names) are not tested."""
        found = []
        near = self._near()
        names = sorted(self.shapes)
        for i, a in enumerate(names):
            sa = self.shapes[a]
            for b in names[i + 1:]:
                sb = self.shapes[b]
                if frozenset((a, b)) in allowed or not _boxes_meet(sa.box, sb.box):
                    continue
                at = self._pair(sa, sb, near.get((a, b), ()))
                if at is not None:
                    found.append((a, b, at))
        return found

    def _pair(self, sa: Shape, sb: Shape, close) -> tuple | None:
        cuts_a, cuts_b = defaultdict(list), defaultdict(list)
        shared_a, shared_b = set(), set()
        for ia, ib in close:
            ea, eb = sa.edges[ia], sb.edges[ib]
            hit = _cross(ea, eb)
            if hit is not None:
                return hit
            if {_key(ea[0], ea[1]), _key(ea[2], ea[3])} == {_key(eb[0], eb[1]), _key(eb[2], eb[3])}:
                shared_a.add(ia)
                shared_b.add(ib)
                continue
            for px, py in ((eb[0], eb[1]), (eb[2], eb[3])):
                t = _on_segment(px, py, *ea[:4])
                if t is not None:
                    cuts_a[ia].append(t)
            for px, py in ((ea[0], ea[1]), (ea[2], ea[3])):
                t = _on_segment(px, py, *eb[:4])
                if t is not None:
                    cuts_b[ib].append(t)
            cuts_a.setdefault(ia, [])
            cuts_b.setdefault(ib, [])
        for mine, other, cuts, shared in ((sa, sb, cuts_a, shared_a), (sb, sa, cuts_b, shared_b)):
            for i, ts in cuts.items():
                if i in shared:
                    continue
                at = self._pieces(mine, other, mine.edges[i], sorted(set(ts)))
                if at is not None:
                    return at
            for i in shared:
                e = mine.edges[i]
                previous = i - 1 if e[5] > 0 else i + len(mine.rings[e[4]]) - 1
                if previous in shared and e[5] > 0:
                    continue  # the run of shared edges was tested at its first edge (and each ring at its first)
                at = _same_side(mine, other, e)
                if at is not None:
                    return at
            touched = {mine.edges[i][4] for i in cuts} | {mine.edges[i][4] for i in shared}
            for r, ring in enumerate(mine.rings):
                if r not in touched and other.inside(*ring[0]):  # no edge near: the ring is wholly in or out
                    return ring[0]
        return None

    def _pieces(self, mine: Shape, other: Shape, e, ts) -> tuple | None:
        """Cut edge e at ts; a piece whose middle is inside `other` (or on its border, with both insides on one
        side) is an overlap."""
        bounds = [0.0] + ts + [1.0]
        for t0, t1 in zip(bounds, bounds[1:]):
            t = (t0 + t1) / 2
            mx, my = e[0] + t * (e[2] - e[0]), e[1] + t * (e[3] - e[1])
            if self._on_border(other, mx, my):
                piece = (e[0] + t0 * (e[2] - e[0]), e[1] + t0 * (e[3] - e[1]),
                         e[0] + t1 * (e[2] - e[0]), e[1] + t1 * (e[3] - e[1]))
                at = _same_side(mine, other, piece)
                if at is not None:
                    return at
            elif other.inside(mx, my):
                return mx, my
        return None

    def _on_border(self, shape: Shape, x: float, y: float) -> bool:
        c = self.cell
        for name, i in self.grid.get((int(math.floor(x / c)), int(math.floor(y / c))), ()):
            if self.shapes[name] is shape:
                e = shape.edges[i]
                if _seg_distance(x, y, e) <= TOL * 10:
                    return True
        return False

    def shared_borders(self) -> dict:
        """(a, b) -> the length of border the two areas share (edges both draw, or lying along each other)."""
        out: dict = defaultdict(float)
        for (a, b), close in self._near().items():
            sa, sb = self.shapes[a], self.shapes[b]
            for ia, ib in close:
                length = _common_length(sa.edges[ia], sb.edges[ib])
                if length > 0:
                    out[(a, b)] += length
        return dict(out)


def _common_length(ea, eb) -> float:
    """How long two collinear edges run along each other (0 when they are not collinear)."""
    if abs(_orient(*ea[:4], eb[0], eb[1])) > TOL or abs(_orient(*ea[:4], eb[2], eb[3])) > TOL:
        return 0.0
    dx, dy = ea[2] - ea[0], ea[3] - ea[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return 0.0
    ux, uy = dx / length, dy / length
    s0 = (eb[0] - ea[0]) * ux + (eb[1] - ea[1]) * uy
    s1 = (eb[2] - ea[0]) * ux + (eb[3] - ea[1]) * uy
    return max(0.0, min(length, max(s0, s1)) - max(0.0, min(s0, s1)))


def _seg_distance(x, y, e) -> float:
    x1, y1, x2, y2 = e[:4]
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)


def _same_side(mine: Shape, other: Shape, e) -> tuple | None:
    """For a piece of border both regions draw: a point just beside it inside both, or None."""
    x1, y1, x2, y2 = e[:4]
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= TOL:
        return None
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    step = min(length / 4, 0.01)
    nx, ny = -(y2 - y1) / length * step, (x2 - x1) / length * step
    for px, py in ((mx + nx, my + ny), (mx - nx, my - ny)):
        if mine.inside(px, py) and other.inside(px, py):
            return px, py
    return None


def _boxes_meet(a, b) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
