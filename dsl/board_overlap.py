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

from dsl.board_geometry import bbox, inside

TOL = 1e-6  # distances below this are zero
MAX_GRID = 1_000_000  # edges' places in the grid; a map of thousands of points takes a few thousand
MAX_BANDS = 256  # horizontal bands of a shape's index: long edges across all of them stay affordable
MAX_PAIRS = 1_000_000  # pairs of nearby edges, or of areas whose boxes meet, worth checking (about a second)


class TooIntricate(ValueError):
    """The shapes ask for more work than the bounds allow (a hostile or runaway layout)."""


@dataclass
class Shape:
    """A region with its edges indexed by horizontal bands, for fast point-in-region tests."""

    rings: list
    edges: list = field(default_factory=list)  # (x1, y1, x2, y2, ring index, edge index in ring)
    box: tuple = (0.0, 0.0, 0.0, 0.0)
    left: list = field(default_factory=list)  # per ring: whether the inside lies left of its edges' direction
    _bands: dict = field(default_factory=dict)
    _band: float = 1.0

    def __post_init__(self):
        self.box = bbox(self.rings)
        for ring in self.rings:
            turn = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:] + ring[:1]))
            hole = sum(inside(ring[0][0], ring[0][1], [other]) for other in self.rings if other is not ring) % 2 == 1
            self.left.append((turn > 0) != hole)
        for r, ring in enumerate(self.rings):
            prev = ring[-1]
            for k, p in enumerate(ring):
                self.edges.append((prev[0], prev[1], p[0], p[1], r, k))
                prev = p
        bands = max(1, min(len(self.edges) // 2, MAX_BANDS))
        self._band = max((self.box[3] - self.box[1]) / bands, 1e-3)
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


class Board:
    """Every area's Shape, with the edges of all of them bucketed in a grid of cells about two edges long."""

    def __init__(self, regions: dict, shapes: dict | None = None):
        self.shapes = shapes or {name: Shape(rings) for name, rings in regions.items()}
        edges = [e for s in self.shapes.values() for e in s.edges]
        lengths = sorted(abs(e[2] - e[0]) + abs(e[3] - e[1]) for e in edges)
        boxes = [s.box for s in self.shapes.values()] or [(0.0, 0.0, 1.0, 1.0)]
        extent = max(max(b[2] for b in boxes) - min(b[0] for b in boxes), max(b[3] for b in boxes) - min(b[1] for b in boxes))
        c = max(2.0 * lengths[len(lengths) // 2] if lengths else 1.0, extent / 4096, 1e-3)
        while sum(_cell_count(e, c) for e in edges) > MAX_GRID:  # few long edges among many short ones: coarser
            c *= 2
        self.cell = c
        grid: dict = defaultdict(list)
        floor = math.floor
        for name, shape in self.shapes.items():
            for i, e in enumerate(shape.edges):
                x0, x1 = (e[0], e[2]) if e[0] <= e[2] else (e[2], e[0])
                y0, y1 = (e[1], e[3]) if e[1] <= e[3] else (e[3], e[1])
                item = (name, i, x0 - TOL, y0 - TOL, x1 + TOL, y1 + TOL)
                gx0, gx1, gy0, gy1 = floor(x0 / c), floor(x1 / c), floor(y0 / c), floor(y1 / c)
                if (gx1 - gx0) * (gy1 - gy0) > 4:  # a long slanted edge: the cells along it only
                    for cell in _cells_along(e, c):
                        grid[cell].append(item)
                    continue
                for gx in range(gx0, gx1 + 1):
                    for gy in range(gy0, gy1 + 1):
                        grid[gx, gy].append(item)
        self.grid = grid
        if sum(len(items) * (len(items) - 1) // 2 for items in grid.values()) > MAX_PAIRS:
            raise TooIntricate(f"more than {MAX_PAIRS:,} pairs of edges lie near one another")

    def _near(self):
        """Per pair of areas (sorted names), the pairs of their edges whose boxes meet, drawn in a common cell."""
        pairs: dict = defaultdict(set)
        for items in self.grid.values():
            n = len(items)
            if n < 2:
                continue
            for i in range(n - 1):
                a, ia, ax0, ay0, ax1, ay1 = items[i]
                for b, ib, bx0, by0, bx1, by1 in items[i + 1:]:
                    if a == b or ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0:
                        continue
                    if a < b:
                        pairs[(a, b)].add((ia, ib))
                    else:
                        pairs[(b, a)].add((ib, ia))
        return pairs

    def overlaps(self, allowed=frozenset()) -> list:
        """(a, b, (x, y)) for each pair of areas that overlap, a before b by name, with a point of the overlap;
        pairs in `allowed` (frozensets of two names) are not tested."""
        found = []
        near = self._near()
        order = sorted(self.shapes, key=lambda n: (self.shapes[n].box[0], n))
        pairs = 0
        for i, first in enumerate(order):
            box = self.shapes[first].box
            for second in order[i + 1:]:  # the areas whose boxes meet this one's, swept from the west
                other = self.shapes[second].box
                if other[0] > box[2]:
                    break
                if other[1] > box[3] or box[1] > other[3]:
                    continue
                pairs += 1
                if pairs > MAX_PAIRS:
                    raise TooIntricate(f"more than {MAX_PAIRS:,} pairs of areas lie over one another's boxes")
                a, b = sorted((first, second))
                if frozenset((a, b)) in allowed:
                    continue
                at = self._pair(self.shapes[a], self.shapes[b], near.get((a, b), ()))
                if at is not None:
                    found.append((a, b, at))
        return sorted(found)

    def _pair(self, sa: Shape, sb: Shape, close) -> tuple | None:
        cuts_a: dict = {}
        cuts_b: dict = {}
        shared_a: dict = {}  # edge of a -> the edge of b drawn with the same two points
        shared_b: dict = {}
        for ia, ib in close:
            ea, eb = sa.edges[ia], sb.edges[ib]
            a1, a2, b1, b2 = (ea[0], ea[1]), (ea[2], ea[3]), (eb[0], eb[1]), (eb[2], eb[3])
            if (a1 == b1 and a2 == b2) or (a1 == b2 and a2 == b1):  # drawn by both: the usual shared border
                shared_a[ia] = ib
                shared_b[ib] = ia
                continue
            if ia not in cuts_a:
                cuts_a[ia] = []
            if ib not in cuts_b:
                cuts_b[ib] = []
            if a1 == b1 or a1 == b2 or a2 == b1 or a2 == b2:  # meeting at a point: no crossing, maybe along each other
                dx, dy = ea[2] - ea[0], ea[3] - ea[1]
                length = math.hypot(dx, dy)
                if length == 0 or abs(dx * (eb[1] - ea[1]) - dy * (eb[0] - ea[0])) > TOL * length \
                        or abs(dx * (eb[3] - ea[1]) - dy * (eb[2] - ea[0])) > TOL * length:
                    continue
            else:
                hit = _cross(ea, eb)
                if hit is not None:
                    return hit
            for px, py in (b1, b2):
                t = _on_segment(px, py, *ea[:4])
                if t is not None:
                    cuts_a[ia].append(t)
            for px, py in (a1, a2):
                t = _on_segment(px, py, *eb[:4])
                if t is not None:
                    cuts_b[ib].append(t)
        for mine, other, cuts, shared in ((sa, sb, cuts_a, shared_a), (sb, sa, cuts_b, shared_b)):
            for i, ts in cuts.items():
                if i in shared:
                    continue
                at = self._pieces(mine, other, mine.edges[i], sorted(set(ts)))
                if at is not None:
                    return at
            for i, j in shared.items():
                e, f = mine.edges[i], other.edges[j]
                same_way = (e[0], e[1]) == (f[0], f[1])
                if (mine.left[e[4]] == other.left[f[4]]) == same_way:  # both insides on one side of the border
                    return _beside(e, mine.left[e[4]])
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
        for name, i, *_ in self.grid.get((math.floor(x / c), math.floor(y / c)), ()):
            if self.shapes[name] is shape and _seg_distance(x, y, shape.edges[i]) <= TOL * 10:
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


def _beside(e, left: bool) -> tuple:
    """A point just beside the middle of edge e, on its left or its right."""
    length = math.hypot(e[2] - e[0], e[3] - e[1]) or 1.0
    step = min(length / 4, 0.01) * (1 if left else -1)
    return (e[0] + e[2]) / 2 - (e[3] - e[1]) / length * step, (e[1] + e[3]) / 2 + (e[2] - e[0]) / length * step


def _cell_count(e, c: float) -> int:
    """How many places edge e takes in a grid of cells c wide (as Board.__init__ files it)."""
    nx, ny = int(abs(e[2] - e[0]) / c) + 2, int(abs(e[3] - e[1]) / c) + 2
    return min(nx * ny, (max(nx, ny) * 2 + 2) * 9)


def _cells_along(e, c: float) -> set:
    """The grid cells a long edge passes through, and their neighbours."""
    steps = int(max(abs(e[2] - e[0]), abs(e[3] - e[1])) / c) * 2 + 1
    seen = set()
    for k in range(steps + 1):
        t = k / steps
        gx, gy = math.floor((e[0] + t * (e[2] - e[0])) / c), math.floor((e[1] + t * (e[3] - e[1])) / c)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                seen.add((gx + dx, gy + dy))
    return seen


