"""The scene: what a page draws for one reader, as plain data made from that reader's table model
(interpreter.present.table) and the game's looks (dsl.looks): cards with their title, badges, colour, icon
and text; tokens with their icon, colour and ×N; face-down backs coloured by what they show; tracks with
each player's marker; the board's pieces at their slots (interpreter.present.scene_board); what changed
since the reader's last decision. Only what the table model holds is drawn, so a scene tells a reader no
more than its view: a component it cannot see is drawn from the words and back its table model gives.
A front end only renders the scene (interpreter.web: SVG and HTML).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from dsl.looks import KindLook, Looks
from interpreter.present.scene_board import BoardDraw, board_draw
from interpreter.present.table import Item, zone_owner
from interpreter.present.views import can_see
from interpreter.present.words import entity_name

DARK_INK, LIGHT_INK = "#1d1d1d", "#ffffff"
NEUTRAL = "#b9b9b9"  # a component whose looks give it no colour


@dataclass
class Card:
    """A component drawn as a card (or a token in a row): what it shows and how."""

    ref: str | None  # its id when the reader sees it: what clicks, options and animations attach to
    title: str  # its name (the badges show its numbers)
    words: str  # the whole of it as the table model words it (name and values, "face down"): a tooltip
    colour: str
    ink: str  # text and icon colour readable on `colour`
    icon: str
    badges: list = field(default_factory=list)  # [(word, number as text)]
    values: list = field(default_factory=list)  # its shown variables [(word, value)] (its printed text: TableModel.texts)
    count: int = 1
    back: bool = False  # drawn face down: only what its back shows
    token: bool = False  # a token rather than a card
    pickable: bool = False  # an option of the pending decision names it
    changed: bool = False  # new here since the reader's last decision
    inner: list = field(default_factory=list)  # ZoneDraw: what lies on it


@dataclass
class ZoneDraw:
    name: str
    zone: str
    mode: str
    size: int
    total: int | None = None
    cards: list = field(default_factory=list)
    # what a front end wrote of it, kept with it while the scene reuses it (Painter's memo): {how: text}
    drawn: dict = field(default_factory=dict, repr=False, compare=False)


@dataclass
class Marker:
    seat: int
    name: str
    colour: str
    ink: str
    short: str = ""  # what the marker's disc reads ("P2")


@dataclass
class SlotDraw:
    label: str
    markers: list = field(default_factory=list)
    marked: bool = False


@dataclass
class TrackDraw:
    name: str
    how: str
    icon: str | None
    slots: list = field(default_factory=list)
    changed: bool = False
    drawn: dict = field(default_factory=dict, repr=False, compare=False)  # as ZoneDraw.drawn


@dataclass
class Panel:
    """A player: the reader's own (its zones in full) or another (compact)."""

    seat: int
    name: str
    colour: str
    ink: str
    score: int | None
    values: list
    zones: list  # ZoneDraw
    areas: int = 0  # how many areas of the board the player controls


@dataclass
class Scene:
    me: Panel | None
    others: list
    shared: list  # ZoneDraw of the game's own zones
    values: list  # the game's shown variables
    tracks: list
    board: BoardDraw | None
    icons: set = field(default_factory=set)  # every icon the scene uses
    faces: dict = field(default_factory=dict)  # component id -> its Card, for each component drawn (options show them)
    on_table: set = field(default_factory=set)  # the ids of the components drawn on the table (not only beside an option)


@functools.lru_cache(maxsize=256)
def ink_on(colour: str) -> str:
    """Dark or light ink, whichever reads better on `colour` (#rrggbb), by its relative luminance."""
    try:
        r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    except (ValueError, IndexError):
        return DARK_INK
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    luminance = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return DARK_INK if luminance > 0.18 else LIGHT_INK


class Painter:
    """Turns table-model items into cards and tokens with the game's looks, for one reader."""

    def __init__(self, state, looks: Looks, pr, pickable: set, before: set | None, memo: dict | None = None):
        self.state, self.looks, self.pr = state, looks, pr
        self.pickable, self.before = pickable, before
        self.memo = memo  # table-model zone (kept by present.table's memo) -> its drawing, while nothing it shows changed
        self.used: set = set()  # the memo's entries this scene drew: the others are dropped after it
        self.icons: set = set()
        self.faces: dict = {}
        self.words: dict = {}  # attribute -> its word (badges repeat a few names on many cards)
        self.player_vars = state.player_vars

    def seat_colour(self, seat) -> str:
        return self.looks.seat_colour(seat, self.player_vars)

    def card(self, item, owner: int | None, token: bool = False) -> Card:
        ref = item.ref
        if self.pickable and len(item.refs) > 1 and ref not in self.pickable:  # a stack answers for any copy an option names
            ref = next((r for r in item.refs if r in self.pickable), ref)
        e = self.state.entities.get(ref) if ref is not None else None
        if e is None:  # not seen: only what its back shows (its words, and the value the back shows)
            colour = self._back_colour(item.back)
            kind = self.looks.kinds.get(item.back) if item.back in self.state.voc.kinds else None  # a back showing its kind
            fixed = kind.icon.fixed if kind is not None and kind.icon is not None and kind.icon.by is None else None
            icon = self._icon(fixed or self.looks.back)
            return Card(None, item.text, item.text, colour, ink_on(colour), icon, count=item.count, back=True,
                        token=token or (kind is not None and kind.shape == "token"))
        look = self.looks.kinds.get(e.kind) or KindLook()
        colour = self._colour(look, e.attrs, e.kind, owner)
        icon = self._icon(look.icon.of(e.attrs, e.kind) if look.icon else None) or self._icon(self.looks.back)
        pr = self.pr
        names = look.badges if look.badges is not None else [k for k, v in e.attrs.items() if type(v) is int and k != "copies"]
        words = self.words
        badges = [(words.get(k) or words.setdefault(k, pr.word(k)), str(e.attrs[k])) for k in names if type(e.attrs.get(k)) is int]
        card = Card(e.id, entity_name(e, pr.lang), item.text, colour, ink_on(colour), icon, badges,
                    list(item.values), item.count, False, token or look.shape == "token",
                    e.id in self.pickable, self.before is not None and e.id not in self.before)
        for r in item.refs or (e.id,):  # an option naming any copy of a stack shows its face
            self.faces[r] = card
        return card

    def _icon(self, name: str | None) -> str | None:
        if name:
            self.icons.add(name)
        return name

    def _back_colour(self, back: str | None) -> str:
        if back is not None and back in self.looks.colours:
            return self.looks.colours[back]
        return "#6d6a75"

    def _colour(self, look: KindLook, attrs: dict, kind: str, owner) -> str:
        if look.owner_colour:
            return self.seat_colour(owner) if owner is not None else NEUTRAL
        if look.colour is not None:
            picked = look.colour.of(attrs, kind) if look.colour.values else None
            if picked is None and look.colour.by is not None:  # by an attribute whose values are seats' colour keys
                value = attrs.get(look.colour.by) if look.colour.by != "kind" else kind
                picked = self.looks.colours.get(str(value)) if value is not None else None
            return picked or look.colour.fixed or NEUTRAL
        return self.seat_colour(owner) if owner is not None else NEUTRAL

    def zone(self, z, owner: int | None, token: bool = False) -> ZoneDraw:
        """A table-model zone drawn. With a memo, the drawing of the same zone (the same ZoneView: the table
        model's memo keeps it while its contents stay) is drawn again only when what else it shows changed: its
        owner's colour, which of its components an option names, which are new since the reader's last decision."""
        if self.memo is None:
            return self._zone(z, owner, token)
        self.used.add(id(z))
        kept = self.memo.get(id(z))
        refs = kept[1] if kept is not None and kept[0] is z else _zone_refs(z, [])
        before = self.before
        key = (owner, token, self.seat_colour(owner) if owner is not None else None,
               [r for r in refs if r in self.pickable] if self.pickable else [],
               None if before is None else [r for r in refs if r not in before])
        if kept is not None and kept[0] is z and kept[2] == key:
            self.faces.update(kept[4])
            self.icons.update(kept[5])
            return kept[3]
        faces, icons = self.faces, self.icons
        self.faces, self.icons = {}, set()
        try:
            out = self._zone(z, owner, token)
            self.memo[id(z)] = (z, refs, key, out, self.faces, self.icons)
        finally:
            faces.update(self.faces)
            icons.update(self.icons)
            self.faces, self.icons = faces, icons
        return out

    def _zone(self, z, owner: int | None, token: bool = False) -> ZoneDraw:
        out = ZoneDraw(z.name, z.zone, z.mode, z.size, z.total)
        for item in z.items:
            card = self.card(item, owner, token)
            card.inner = [self._zone(inner, owner, True) for inner in item.zones]
            out.cards.append(card)
        return out


def _zone_refs(z, out: list) -> list:
    """Every component a table-model zone shows by id (through the zones on them)."""
    for it in z.items:
        out.extend(it.refs or ([it.ref] if it.ref is not None else ()))
        for inner in it.zones:
            _zone_refs(inner, out)
    return out


def scene(model, state, pr, pickable: set = frozenset(), chosen: set = frozenset(), changed: dict | None = None,
          memo: dict | None = None) -> Scene:
    """The scene of `model` for its reader: `pickable` the components and `chosen` the areas the pending options
    name, `changed` what differs from the reader's last decision ({"areas": set, "refs": set of ids seen then,
    "tracks": set}, or None when nothing is known). `memo` (a dict the caller keeps for one reader and language)
    keeps the drawings of the zones that did not change since the scene before (see Painter.zone)."""
    spec = state.voc.table
    looks = spec.looks
    before = changed.get("refs") if changed else None
    painter = Painter(state, looks, pr, set(pickable), before, memo)
    panels = []
    for p in model.players:
        colour = painter.seat_colour(p.seat)
        panels.append(Panel(p.seat, p.name, colour, ink_on(colour), p.score, list(p.values),
                            [painter.zone(z, p.seat) for z in p.zones], len(p.areas)))
    me = panels[0] if model.viewer is not None and panels else None
    others = panels[1:] if me is not None else panels
    shared = [painter.zone(z, None) for z in model.game]
    moved_tracks = changed.get("tracks", set()) if changed else set()
    tracks = []
    colours = tuple(painter.seat_colour(p) for p in range(state.players))
    for t in model.tracks:
        if t.icon:
            painter.icons.add(t.icon)
        key = (t.how, t.icon, t.name in moved_tracks, colours, [(s.label, s.seats, s.marked) for s in t.slots])
        kept = memo.get(("track", t.name)) if memo is not None else None
        if kept is not None and kept[0] == key:  # the same markers where they were: drawn as before
            painter.used.add(("track", t.name))
            tracks.append(kept[1])
            continue
        slots = [SlotDraw(s.label, [Marker(seat, pr.player(seat, False), colours[seat], ink_on(colours[seat]),
                                           pr.say("player short", n=seat + 1)) for seat in s.seats], s.marked) for s in t.slots]
        tracks.append(TrackDraw(t.name, t.how, t.icon, slots, t.name in moved_tracks))
        if memo is not None:
            painter.used.add(("track", t.name))
            memo[("track", t.name)] = (key, tracks[-1])
    board = board_draw(model, spec, painter, set(chosen), changed.get("areas", set()) if changed else set()) if model.areas else None
    on_table = set(painter.faces)
    # an option's component that the table keeps out of sight (a zone the table does not show) still shows its
    # face beside the option, when the reader sees it
    for ref in sorted(set(pickable) - on_table):
        e = state.entities.get(ref)
        if e is not None and can_see(e, model.viewer):
            painter.card(Item(pr.describe(e), ref=ref, refs=[ref]), zone_owner(e.zone))
    if memo is not None:
        for gone in [k for k in memo if k not in painter.used]:
            del memo[gone]
    return Scene(me, others, shared, list(model.values), tracks, board, painter.icons, painter.faces, on_table)


def signature(model) -> dict:
    """What a reader's page showed, to tell later what changed: each area's contents and controller, the
    components in sight, each track's markers. Made from the reader's own table model."""
    areas = {a.ref: (a.controller, tuple(a.values), tuple(_zone_sig(z) for z in a.zones)) for a in model.areas}
    refs = set()
    for z in [z for p in model.players for z in p.zones] + list(model.game) + [z for a in model.areas for z in a.zones]:
        _refs(z, refs)
    tracks = {t.name: tuple((tuple(s.seats), s.marked) for s in t.slots) for t in model.tracks}
    return {"areas": areas, "refs": refs, "tracks": tracks}


def changes(before: dict | None, now: dict) -> dict | None:
    """What differs between two signatures: {"areas": changed area ids, "refs": ids seen before, "tracks": names}."""
    if before is None:
        return None
    areas = {ref for ref, sig in now["areas"].items() if before["areas"].get(ref) != sig}
    tracks = {name for name, sig in now["tracks"].items() if before["tracks"].get(name) != sig}
    return {"areas": areas, "refs": before["refs"], "tracks": tracks}


def _zone_sig(z) -> tuple:
    return (z.zone, z.size, tuple((it.text, it.count, tuple(it.values)) for it in z.items))


def _refs(z, out: set) -> None:
    for it in z.items:
        if it.ref is not None:
            out.add(it.ref)
        for inner in it.zones:
            _refs(inner, out)
