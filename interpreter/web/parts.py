"""A view's HTML in parts, so that an update names the parts a page already has instead of sending them.

The templates and interpreter.web.draw mark where a view may be cut (`CUT`, between the elements that change
on their own: each area's pieces on the board, each zone, each track, each log line, each side section); the
view is split there and the marks dropped, so the parts put end to end are the HTML the page draws. Splitting
at marks the renderer wrote costs a string search, where reading the HTML to find its elements cost a
parse of every tag of every view.

A mark cannot come from content: every text from content is escaped, and `<` is never left as is, so a
comment in the HTML was written by the server.
"""
from __future__ import annotations

CUT = "<!--/-->"  # a plain str: Markup + str would escape the str


def split(html: str) -> list[str]:
    """`html` cut at its marks, the marks left out (empty parts too): the parts put end to end are the HTML
    without its marks."""
    return [p for p in html.split(CUT) if p] or [""]


def whole(html: str) -> str:
    """`html` without its marks, as a page draws it."""
    return html.replace(CUT, "")
