"""The scene (interpreter.present.scene) written as SVG and HTML. Every text from content goes through
markupsafe's escape (what Jinja2's autoescape calls), every number through a format, every colour was checked
as #rrggbb when the game was loaded and every icon name against the vendored set: nothing from content reaches
the page unescaped. These are the page's hottest parts (hundreds of components), so they are written here
rather than as a template macro per component. Colours are SVG attributes: the pages' policy allows no inline
style.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from interpreter.present.icons import sprite_version
from dsl.board_geometry import CHAR_EM, LINE_EM
from interpreter.present.scene_board import ICON, LABEL
from interpreter.web.parts import CUT


def icon_href(name: str) -> str:
    return f"/icons-{sprite_version()}.svg#i-{name}"


def icon(name: str | None, cls: str = "icon", fill: str = "currentColor") -> str:
    """An icon as a small inline SVG (for HTML), `fill` its colour."""
    if not name:
        return ""
    return f'<svg class="{cls}" viewBox="0 0 512 512" aria-hidden="true"><use href="{escape(icon_href(name))}" fill="{escape(fill)}"/></svg>'


# ---------------------------------------------------------------- the static board (once per game and language)
def static_svg(board) -> Markup:
    """The board's static layer: the shapes (each area's once, in <defs>, so the reader's layer can <use> it),
    land and sea, names and attribute icons."""
    out = [f'<svg id="board-static" class="board-static" viewBox="0 0 {board.width:.0f} {board.height:.0f}" '
           f'width="{board.width:.0f}" height="{board.height:.0f}" aria-hidden="true"><defs>']
    for a in board.areas:
        ref = escape(a.ref)
        if a.circle is not None:
            x, y, r = a.circle
            out.append(f'<circle id="shape-{ref}" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}"/>')
        else:
            out.append(f'<path id="shape-{ref}" d="{" ".join(a.paths)}" fill-rule="evenodd"/>')
    out.append('</defs><rect class="sea-bg" width="100%" height="100%"/>')
    if board.edges:
        out.append('<g class="edges">' + "".join(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>'
                                                 for x1, y1, x2, y2 in board.edges) + "</g>")
    out.append('<g class="shapes">')
    for a in board.areas:
        out.append(f'<use class="area-shape" data-area="{escape(a.ref)}" href="#shape-{escape(a.ref)}" fill="{escape(a.fill)}" '
                   f'stroke="{escape(a.stroke)}"/>')
    out.append('</g><g class="attr-icons">')
    half = ICON / 2
    for a in board.areas:
        for name, x, y in a.icons:
            out.append(f'<use href="{escape(icon_href(name))}" x="{x - half:.1f}" y="{y - half:.1f}" width="{ICON}" '
                       f'height="{ICON}" fill="{escape(a.text)}"/>')
    out.append('</g></svg>')
    return Markup("".join(out))


def labels_svg(static) -> str:
    """The areas' names: each line exactly as wide as the layout's checks count it (a character 0.6 of the
    letters' height: dsl.board_geometry), so a name the checks fit in its shape is drawn inside it."""
    out = ['<g class="labels">']
    for a in static.areas:
        x, y = a.label
        lines = a.lines or [a.name]
        top = y - len(lines) * LINE_EM * a.size / 2
        out.append(f'<text class="alabel" data-area="{escape(a.ref)}" font-size="{a.size:g}" fill="{escape(a.text)}">')
        for i, line in enumerate(lines):
            out.append(f'<tspan x="{x:.1f}" y="{top + (i + 0.5) * LINE_EM * a.size:.1f}" textLength="{len(line) * CHAR_EM * a.size:.1f}" '
                       f'lengthAdjust="spacingAndGlyphs">{escape(line)}</tspan>')
        out.append("</text>")
    out.append("</g>")
    return "".join(out)


# ---------------------------------------------------------------- the reader's layer
def board_svg(draw, labels: str, lang_words: dict) -> Markup:
    """The reader's layer over the static board: control, highlights, greyed areas, pieces, value badges, and the
    names (`labels`: labels_svg of the static board, the same for every reader)."""
    out = [f'<svg class="board-dyn" viewBox="0 0 {draw.width:.0f} {draw.height:.0f}" width="{draw.width:.0f}" '
           f'height="{draw.height:.0f}" role="group" aria-label="{escape(lang_words["board"])}">',
           '<defs><pattern id="greyed-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
           '<rect width="8" height="8" fill="#8a8a8a"/><line x1="0" y1="0" x2="0" y2="8" stroke="#6a6a6a" stroke-width="3"/>'
           '</pattern></defs>', CUT]
    for a in draw.areas:  # who holds what, then what changed: parts of their own (the first changes seldom)
        out.append(_kept(a, "control", lambda: _control(a)))
    out.append(CUT)
    out.extend(f'<use class="changed" href="#shape-{escape(a.ref)}"/>' for a in draw.areas if a.changed)
    out.append(CUT + labels + CUT)  # the same in every view: a part of its own
    # what lies on the areas, then the areas an option names (over it: a click anywhere on them chooses), then
    # the pieces an option names (over those)
    for a in draw.areas:  # each area's pieces a part of their own (interpreter.web.parts): most stay as they were
        out.append(CUT + _kept(a, "rest", lambda: _area_pieces(a, lambda p: not p.card.pickable, scale=draw.piece)))
    out.append(CUT)
    for a in draw.areas:
        if a.chosen:
            out.append(_kept(a, "chosen", lambda: f'<use class="chosen" data-area="{escape(a.ref)}" href="#shape-{escape(a.ref)}" '
                             f'tabindex="0" role="button" aria-label="{escape(a.name)}"><title>{escape(a.title)}</title></use>'))
    for a in draw.areas:
        out.append(_kept(a, "picked", lambda: _area_pieces(a, lambda p: p.card.pickable, badges=False, scale=draw.piece)))
    out.append("</svg>")
    return Markup("".join(out))


def _control(a) -> str:
    ref = escape(a.ref)
    if a.greyed:
        return f'<use class="greyed" href="#shape-{ref}" fill="url(#greyed-hatch)"><title>{escape(a.name)}: {escape(a.greyed)}</title></use>'
    if a.colour is not None:
        return f'<use class="control" href="#shape-{ref}" fill="{escape(a.colour)}"/>'
    return ""


def _kept(a, how: str, write) -> str:
    """What `write()` writes of area `a`, kept with its drawing (AreaDraw.drawn: the scene reuses it while
    nothing it shows changed)."""
    text = a.drawn.get(how)
    if text is None:
        text = a.drawn[how] = write()
    return text


def _area_pieces(a, which, badges: bool = True, scale: float = 1.0) -> str:
    pieces = [p for p in a.pieces if which(p)]
    values = a.values if badges else []
    if not pieces and not values:
        return ""
    out = [f'<g class="area-pieces" data-area="{escape(a.ref)}">']
    for i, (word, value) in enumerate(values):
        x, y = a.label[0] + _label_width(a.name) / 2 + 12 + i * 24, a.label[1]
        out.append(f'<g class="vbadge" transform="translate({x:.1f} {y:.1f})"><circle r="10"/>'
                   f'<text y="4">{escape(value)}</text><title>{escape(word)} {escape(value)}</title></g>')
    out.extend(CUT + _piece(p, scale) for p in pieces)  # each piece a part of its own
    out.append(CUT + "</g>")
    return "".join(out)


def _label_width(name: str) -> float:
    return len(name) * LABEL * CHAR_EM


def _piece(p, scale: float = 1.0) -> str:
    c = p.card
    key = f' data-ref="{escape(c.ref)}"' if c.ref is not None else ""
    cls = "pc" + (" pickable" if c.pickable else "") + (" back" if c.back else "") + (" changed" if c.changed else "")
    r = 10
    # the scale inside .pcin: the glide animates .pcin's own transform in the board's units
    body = [f'<g class="{cls}"{key} transform="translate({p.x:.0f} {p.y:.0f})"><g class="pcin">',
            f'<g transform="scale({scale:.2f})">' if scale != 1 else "", f'<circle r="{r}" fill="{escape(c.colour)}"/>']
    if c.icon:
        body.append(f'<use href="{escape(icon_href(c.icon))}" x="-7" y="-7" width="14" height="14" fill="{escape(c.ink)}"/>')
    if c.count > 1:
        body.append(f'<g class="cnt"><rect x="4" y="-15" width="16" height="11" rx="3"/><text x="12" y="-6.5">×{int(c.count)}</text></g>')
    if c.badges:
        # its numbers at the top left (as ×N at the top right), clear of the area's name below the slot
        shown = " ".join(v for _, v in c.badges)
        w = 5 + 5.5 * len(shown)
        body.append(f'<g class="pbadge"><rect x="{-4 - w:.1f}" y="-15" width="{w:.1f}" height="11" rx="3"/>'
                    f'<text x="{-4 - w / 2:.1f}" y="-6.5">{escape(shown)}</text></g>')
    values = f" ({', '.join(f'{w} {v}' for w, v in c.values)})" if c.values else ""
    body.append(f'{"</g>" if scale != 1 else ""}</g><title>{escape(c.words + values)}{_times(c)}</title></g>')
    return "".join(body)


def _times(c) -> str:
    return f" ×{int(c.count)}" if c.count > 1 else ""


# ---------------------------------------------------------------- cards and zones (HTML)
def zone_html(z, texts: dict, small: bool = False) -> Markup:
    """A zone as a row of cards (`small`: the compact cards of an opponent's panel). Kept with the zone's drawing
    (ZoneDraw.drawn), which the scene reuses while nothing it shows changed (texts included)."""
    kept = z.drawn.get(small)
    if kept is not None:
        return kept
    z.drawn[small] = out = _zone_html(z, texts, small)
    return out


def _zone_html(z, texts: dict, small: bool) -> Markup:
    head = f'<span class="zname">{escape(z.name)}</span>'
    if z.total is not None:
        head += f' <span class="total">{escape(str(z.total))}</span>'
    if z.mode == "count":
        body = f'<span class="pile">{int(z.size)}</span>'
    else:
        body = "".join(CUT + card_html(c, texts, small) for c in z.cards) + CUT  # each card a part of its own
        if z.mode == "top" and z.size > 1:
            body += f'<span class="pile">{int(z.size)}</span>'
    cls = "zone small" if small else "zone"
    return Markup(f'<div class="{cls}" data-zone="{escape(z.zone)}"><div class="zhead">{head}</div><div class="cards">{body}</div></div>')


def card_html(c, texts: dict, small: bool = False) -> str:
    cls = ["card"]
    if c.token:
        cls.append("token")
    if c.back:
        cls.append("back")
    if c.pickable:
        cls.append("pickable")
    if c.changed:
        cls.append("changed")
    if c.count > 1:
        cls.append("stack")
    attrs = f' data-ref="{escape(c.ref)}"' if c.ref is not None else ""
    printed = texts.get(c.ref) if c.ref is not None else None
    if printed is not None or c.pickable:
        attrs += ' tabindex="0"'
    if c.pickable:
        attrs += ' role="button"'
    out = [f'<div class="{" ".join(cls)}"{attrs}>',
           f'<svg class="cbg" aria-hidden="true"><rect width="100%" height="100%" fill="{escape(c.colour)}"/></svg>',
           f'<div class="chead">{icon(c.icon, "cicon", c.ink)}<span class="ctitle ink-{_ink_class(c.ink)}">{escape(c.title)}</span></div>']
    if c.badges or c.values:
        out.append('<div class="badges">' + "".join(f'<span class="badge" title="{escape(w)}">{escape(w)} <b>{escape(v)}</b></span>'
                                                   for w, v in c.badges + c.values) + "</div>")
    if c.count > 1:
        out.append(f'<span class="count">×{int(c.count)}</span>')
    for inner in c.inner:
        out.append(f'<div class="inner">{zone_html(inner, texts, True)}</div>')
    if printed is not None:
        out.append(f'<span class="tip" role="tooltip"><b>{escape(printed[0])}</b><br>{escape(printed[1])}</span>')
    out.append("</div>")
    return "".join(out)


def _ink_class(ink: str) -> str:
    return "light" if ink.lower() == "#ffffff" else "dark"


# ---------------------------------------------------------------- tracks
def track_html(t) -> Markup:
    """A track as a row of slots with the players' markers (kept with its drawing, as zone_html's)."""
    kept = t.drawn.get("html")
    if kept is None:
        kept = t.drawn["html"] = _track_html(t)
    return kept


def _track_html(t) -> Markup:
    cls = "track changed" if t.changed else "track"
    out = [f'<div class="{cls}" data-how="{escape(t.how)}"><div class="tname">{icon(t.icon, "ticon")}<span>{escape(t.name)}</span></div><ol class="slots">']
    for s in t.slots:
        here = " here" if s.marked or s.markers else ""
        out.append(f'<li class="slot{here}"><span class="pos">{escape(s.label)}</span>')
        for m in s.markers:
            out.append(f'<span class="marker" data-seat="{int(m.seat)}" title="{escape(m.name)}">'
                       f'<svg class="mbg" aria-hidden="true" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1" fill="{escape(m.colour)}"/></svg>'
                       f'<span class="mname ink-{_ink_class(m.ink)}">{escape(m.short)}</span></span>')
        if s.marked:
            out.append('<span class="marker value"><svg class="mbg" aria-hidden="true" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#2b2d42"/></svg>'
                       '<span class="mname ink-light">●</span></span>')
        out.append("</li>")
    out.append("</ol></div>")
    return Markup("".join(out))


def log_html(lines: list, lang: str, last: int | None, new_word: str) -> Markup:
    """The log's lines (newest first) as list items, each a part of its own (interpreter.web.parts); a line new
    since the reader's last decision marked, the newest of those with `new_word`. Each line's escaped text is
    kept on it: the same lines come in every view."""
    out = []
    for i, ln in enumerate(lines):
        kept = ln.html
        if kept is None or kept[0] != lang:
            kept = ln.html = (lang, str(escape(ln.texts[lang])))
        text = kept[1]
        new = last is not None and ln.n > last
        cls = ("new" if new else "") + (" private" if ln.private else "")
        mark = f'<span class="newmark">{escape(new_word)}</span> ' if new and i == 0 else ""
        out.append(f'{CUT}<li class="{cls}">{mark}{text}</li>')
    out.append(CUT)
    return Markup("".join(out))


def option_face(c) -> Markup:
    """Beside an option naming one component: that component's icon on its colour, as on the table."""
    return Markup(f'<svg class="oface" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="12" fill="{escape(c.colour)}"/>'
                  f'<use href="{escape(icon_href(c.icon))}" x="4" y="4" width="16" height="16" fill="{escape(c.ink)}"/></svg>')


def colour_chip(colour: str) -> Markup:
    return Markup(f'<svg class="chip" aria-hidden="true" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="{escape(colour)}"/></svg>')

