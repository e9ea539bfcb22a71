"""A view's HTML cut into parts, so that an update names the parts a page already has instead of sending them.

The cut follows the elements: an element long enough for the cut to pay (`MIN_CUT` characters) that wraps
elements becomes its opening tag, the parts of what it wraps and its closing tag (with the text before it); any
other element is one part, with the text before it. Put end to end, the parts are the HTML again, character for
character, whatever the HTML: the cut only chooses where to split.

The HTML is the server's own (templates with autoescape: no `>` inside an attribute's value). Inside an element
only the tags of its own name are read to find where it ends (and where each of that name inside it ends, kept
for the cut inside it), and a `Cutter` keeps the cut of every long element of the view before, so an element
that did not change is not read again: a view of thousands of tags is cut in about a millisecond when little
changed.
"""
from __future__ import annotations

import re

MIN_CUT = 1024  # characters: a shorter element travels whole (a number per part would cost more than it saves)
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
START = re.compile(r"<!--|<([A-Za-z][A-Za-z0-9:-]*)[^>]*(>|$)")  # a comment, or an opening tag whole
_SAME: dict = {}  # tag name -> the pattern of its opening and closing tags (a cache of compiled patterns)


def spans(html: str, lo: int = 0, hi: int | None = None, ends: dict | None = None) -> list[tuple[int, int]]:
    """Where the elements at the top level of html[lo:hi] start and end (comments and text left out). `ends`
    keeps where each element read on the way ends (by where it starts), for the next call inside them."""
    hi = len(html) if hi is None else hi
    ends = {} if ends is None else ends
    out, i = [], lo
    while True:
        m = START.search(html, i, hi)
        if m is None:
            return out
        if m.group(1) is None:  # a comment
            i = html.find("-->", m.end(), hi)
            if i < 0:
                return out
            i += 3
            continue
        if not m.group(2):  # a tag never ended
            return out
        name, start, end = m.group(1).lower(), m.start(), m.end()
        if html[end - 2] == "/" or name in VOID:
            out.append((start, end))
            i = end
            continue
        known = ends.get(start)
        if known is not None and known <= hi:  # read already, inside an element of its name around it
            out.append((start, known))
            i = known
            continue
        same = _SAME.get(name)
        if same is None:
            same = _SAME[name] = re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])[^>]*>", re.I)
        opened, i = [start], end  # the elements of its name open inside it, where each starts
        while opened:
            t = same.search(html, i, hi)
            if t is None:  # never closed: the rest is this element
                out.append((start, hi))
                return out
            i = t.end()
            if t.group(1):
                ends[opened.pop()] = i
            elif html[i - 2] != "/":
                opened.append(t.start())
        out.append((start, i))


class Cutter:
    """Cuts the views of one reader one after the other, remembering the cut of each long element of the last."""

    def __init__(self, min_cut: int = MIN_CUT):
        self.min_cut = min_cut
        self.known: dict[int, list[str]] = {}  # a long element's hash -> its parts (the last view's elements only)

    def cut(self, html: str) -> list[str]:
        """`html` cut into parts that put end to end are `html` again (see the module's docstring)."""
        before, self.known = self.known, {}
        out: list[str] = []
        last = self._cut(html, 0, len(html), 0, out, before, {})
        if not out:
            return [html]
        out[-1] += html[last:]
        return out

    def _cut(self, html: str, lo: int, hi: int, last: int, out: list[str], before: dict, ends: dict) -> int:
        # ends: where the elements of this html end, as `spans` read them
        for a, b in spans(html, lo, hi, ends):
            if b - a >= self.min_cut:
                text = html[a:b]
                key = hash(text)
                pieces = before.get(key)
                if pieces is not None and "".join(pieces) != text:  # two texts of one hash: read it again
                    pieces = None
                if pieces is None:
                    inside, close = html.find(">", a, b) + 1, html.rfind("</", a, b)
                    if 0 < inside <= close:
                        pieces = [html[a:inside]]
                        end = self._cut(html, inside, close, inside, pieces, before, ends)
                        pieces.append(html[end:b])
                if pieces and len(pieces) > 2:  # its tags and at least one element it wraps
                    self.known[key] = pieces
                    out.append(html[last:a] + pieces[0])
                    out.extend(pieces[1:])
                    last = b
                    continue
            out.append(html[last:b])
            last = b
        return last


def pieces_of(html: str, min_cut: int = MIN_CUT) -> list[str]:
    """`html` cut into parts, with nothing remembered from a view before."""
    return Cutter(min_cut).cut(html)
