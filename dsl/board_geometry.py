"""Plane geometry for board layouts (dsl.board_layout, dsl.board_checks), in plain Python.

An area's shape is a *region*: a list of rings, each a list of (x, y) points closed implicitly, filled by
the even-odd rule (a ring inside another is a hole: a sea around an island). Curves are flattened into
CURVE_STEPS segments, the same way for a curve read forwards or backwards, so two areas drawing one border
with the same control points share its points exactly.

A label is drawn LABEL_SIZE units high (the board's own units: the scene scales the whole drawing), each
character CHAR_EM of that wide, each line LINE_EM of it apart; `label_lines` splits a name into the lines a
layout asks for, and `label_box` is the box the checks keep inside the area. Front ends draw labels with
the same two functions, so what is checked is what is drawn.
"""
from __future__ import annotations

import math
import re

from dsl.plurals import plural

CURVE_STEPS = 8
LABEL_SIZE = 12.0
CHAR_EM = 0.6
LINE_EM = 1.2
EPS = 1e-6  # coordinates closer than this are one point (layouts use whole or decimal units)

_TOKENS = re.compile(r"([A-Za-z])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|[\s,]+|(.)", re.S)
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


class PathError(ValueError):
    """A path that cannot be read; `at` is the index of the faulty character in the path text."""

    def __init__(self, message: str, at: int):
        super().__init__(message)
        self.at = at


def _tokens(text: str) -> list:
    """(command letter or None, number or None, index) for each command and number of the path."""
    out = []
    for m in _TOKENS.finditer(text):
        letter, number, other = m.groups()
        if other is not None:
            raise PathError(f"'{other}' is neither a path command nor a number", m.start())
        if letter is not None:
            out.append((letter, None, m.start()))
        elif number is not None:
            out.append((None, float(number), m.start()))
    return out


def _split(text: str) -> list | None:
    """The tokens of a path written with spaces between them (as generators write it), or None to read it
    character by character (which also says where a mistake is; here the indices are not needed)."""
    out = []
    for word in text.replace(",", " ").split():
        if len(word) == 1 and word.isalpha():
            out.append((word, None, 0))
            continue
        try:
            value = float(word)
        except ValueError:
            return None
        if not math.isfinite(value) or word[-1].isalpha() or "_" in word:
            return None
        out.append((None, value, 0))
    return out


def parse_path(text: str, max_points: int = 100_000) -> list[list[tuple]]:
    """SVG path data (absolute M L H V C Q Z) as rings of points; each M starts a ring."""
    try:
        simple = _polygons(text, max_points)
        if simple is not None:
            return simple
        fast = _split(text)
        if fast is not None:
            return _rings(fast, text, max_points)
    except PathError:
        pass  # read again character by character, to say where
    return _rings(_tokens(text), text, max_points)


def _polygons(text: str, max_points: int) -> list | None:
    """Rings written `M x y L x y ... Z` with spaces (as generators write them), read a ring at a time; None for
    any other path."""
    rings: list = []
    count = 0
    for chunk in text.split("Z"):
        words = chunk.split()
        if not words:
            continue
        if len(words) % 3 or words[0] != "M" or "_" in chunk or any(w != "L" for w in words[3::3]):
            return None
        try:
            points = list(zip(map(float, words[1::3]), map(float, words[2::3])))
        except ValueError:
            return None
        if not all(math.isfinite(x) and math.isfinite(y) for x, y in points):
            return None
        count += len(points)
        if count > max_points:
            return None
        ring = [points[0]]
        for p in points[1:]:
            if p != ring[-1]:
                ring.append(p)
        _close(rings, ring, 0)
    return rings or None


def _rings(tokens: list, text: str, max_points: int) -> list[list[tuple]]:
    rings: list[list[tuple]] = []
    ring: list[tuple] = []
    command, i, n, count = None, 0, len(tokens), 0
    while i < n:
        letter, _, at = tokens[i]
        if letter == "z":  # closing is the same absolute or relative
            letter = "Z"
        if letter is not None:
            if letter not in _ARITY:
                hint = " (relative commands are not read: write absolute coordinates)" if letter.upper() in _ARITY else ""
                raise PathError(f"'{letter}' is not a path command of a layout: M, L, H, V, C, Q or Z{hint}", at)
            command, i = letter, i + 1
            if letter == "Z":
                _close(rings, ring, at)
                ring = []
            elif letter != "M" and not ring:
                raise PathError(f"'{letter}' before any M: a ring starts with M x y", at)
            continue
        if command is None or command == "Z":
            raise PathError("a number without a command before it: start with M x y", at)
        arity = _ARITY[command]
        values = [v for _, v, _ in tokens[i:i + arity]]
        if len(values) < arity or any(t[0] is not None for t in tokens[i:i + arity]):
            where = next((t[2] for t in tokens[i:i + arity] if t[0] is not None), len(text) - 1)
            raise PathError(f"'{command}' takes {plural('en', arity, ('# number', '# numbers'))} here", max(0, where))
        i += arity
        if command == "L":
            if (values[0], values[1]) != ring[-1]:  # a point repeated would make an edge of no length
                ring.append((values[0], values[1]))
            count += 1
        elif command == "M":
            if ring:
                _close(rings, ring, at)
            ring = [(values[0], values[1])]
            command = "L"  # numbers after an M's pair are lines
            count += 1
        elif command in "HV":
            point = (values[0], ring[-1][1]) if command == "H" else (ring[-1][0], values[0])
            if point != ring[-1]:
                ring.append(point)
            count += 1
        else:
            ring.extend(_curve(ring[-1], [(values[k], values[k + 1]) for k in range(0, arity, 2)]))
            count += CURVE_STEPS
        if count > max_points:
            raise PathError(f"more than {max_points:,} points", at)
    if ring:
        _close(rings, ring, max(0, len(text) - 1))
    if not rings:
        raise PathError("an empty path: write M x y L x y ... Z", 0)
    return rings


def _close(rings: list, ring: list, at: int) -> None:
    if ring and _same(ring[0], ring[-1]) and len(ring) > 1:
        ring.pop()
    if len(set(ring)) < 3 and len({(round(px, 6), round(py, 6)) for px, py in ring}) < 3:
        raise PathError("a ring needs at least three distinct points", at)
    rings.append(ring)


def _curve(start: tuple, controls: list) -> list[tuple]:
    """A quadratic or cubic Bezier from `start` through `controls`, in CURVE_STEPS points after the start."""
    pts = [start] + controls
    out = []
    for k in range(1, CURVE_STEPS + 1):
        t = k / CURVE_STEPS
        row = pts
        while len(row) > 1:  # de Casteljau: symmetric in t and 1 - t, so a reversed curve gives the same points
            row = [((1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]) for a, b in zip(row, row[1:])]
        out.append((round(row[0][0], 6), round(row[0][1], 6)))  # both ways of drawing a curve give the same points
    out[-1] = controls[-1]
    return out


def _same(a: tuple, b: tuple) -> bool:
    return abs(a[0] - b[0]) <= EPS and abs(a[1] - b[1]) <= EPS


def bbox(region) -> tuple:
    xs = [p[0] for ring in region for p in ring]
    ys = [p[1] for ring in region for p in ring]
    return min(xs), min(ys), max(xs), max(ys)


def edges(region):
    """Every edge of every ring, as (x1, y1, x2, y2)."""
    for ring in region:
        prev = ring[-1]
        for p in ring:
            yield prev[0], prev[1], p[0], p[1]
            prev = p


def inside(x: float, y: float, region) -> bool:
    """Whether (x, y) lies inside the region by the even-odd rule (a point on the border may go either way)."""
    hit = False
    for ring in region:
        px, py = ring[-1]
        for qx, qy in ring:
            if (qy > y) != (py > y) and x < px + (y - py) * (qx - px) / (qy - py):
                hit = not hit
            px, py = qx, qy
    return hit


def distance_to_border(x: float, y: float, region) -> float:
    best = math.inf
    for x1, y1, x2, y2 in edges(region):
        best = min(best, _seg_dist(x, y, x1, y1, x2, y2))
    return best


def _seg_dist(x, y, x1, y1, x2, y2) -> float:
    dx, dy = x2 - x1, y2 - y1
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length))
    return math.hypot(x - x1 - t * dx, y - y1 - t * dy)


def label_lines(text: str, lines: int = 1) -> list[str]:
    """`text` in at most `lines` lines, cut at spaces so the longest line is as short as it can be."""
    words = str(text).split()
    if lines <= 1 or len(words) <= 1:
        return [" ".join(words)]
    lines = min(lines, len(words))
    best: list[str] | None = None
    for cuts in _cuts(len(words), lines):
        parts = [" ".join(words[a:b]) for a, b in zip((0,) + cuts, cuts + (len(words),))]
        if best is None or max(map(len, parts)) < max(map(len, best)):
            best = parts
    return best


def _cuts(n: int, lines: int):
    """Every way to cut n words into `lines` non-empty lines, as the indices where lines 2.. start."""
    if lines == 1:
        yield ()
        return
    for first in range(1, n - lines + 2):
        for rest in _cuts(n - first, lines - 1):
            yield (first,) + tuple(first + r for r in rest)


def label_box(at: tuple, text: str, lines: int = 1, size: float = LABEL_SIZE) -> tuple:
    """The box (x0, y0, x1, y1) a name takes when drawn centred on `at`."""
    rows = label_lines(text, lines)
    width = max(len(r) for r in rows) * CHAR_EM * size
    height = len(rows) * LINE_EM * size
    return at[0] - width / 2, at[1] - height / 2, at[0] + width / 2, at[1] + height / 2


def box_inside(box: tuple, region, contains=None) -> bool:
    """Whether the box lies inside the region: its corners inside and no border crossing it (`contains(x, y)`:
    a faster test of a point than `inside`, when the caller has one)."""
    x0, y0, x1, y1 = box
    contains = contains or (lambda x, y: inside(x, y, region))
    if not all(contains(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))):
        return False
    for ex1, ey1, ex2, ey2 in edges(region):
        if max(ex1, ex2) <= x0 or min(ex1, ex2) >= x1 or max(ey1, ey2) <= y0 or min(ey1, ey2) >= y1:
            continue
        if _clip(ex1, ey1, ex2, ey2, x0, y0, x1, y1):
            return False
    return True


def _clip(x1, y1, x2, y2, bx0, by0, bx1, by1) -> bool:
    """Whether the segment passes through the open box (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - bx0), (dx, bx1 - x1), (-dy, y1 - by0), (dy, by1 - y1)):
        if p == 0:
            if q <= 0:
                return False
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return False
    return True


def box_distance(x: float, y: float, box: tuple) -> float:
    """How far (x, y) lies from the box (0 inside it)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def interior_point(region, step: float | None = None) -> tuple:
    """A point well inside the region: of a grid over it, the one farthest from its border."""
    x0, y0, x1, y1 = bbox(region)
    step = step or max(x1 - x0, y1 - y0) / 24 or 1.0
    best, best_d = None, -1.0
    y = y0 + step / 2
    while y < y1:
        x = x0 + step / 2
        while x < x1:
            if inside(x, y, region):
                d = distance_to_border(x, y, region)
                if d > best_d:
                    best, best_d = (x, y), d
            x += step
        y += step
    if best is None:  # thinner than the grid: the middle of the first edge, nudged in
        ring = region[0]
        (ax, ay), (bx, by) = ring[0], ring[1]
        best = ((ax + bx) / 2, (ay + by) / 2)
    return best
