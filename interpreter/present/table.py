"""The table model: what one reader sees of the table, as plain data that every front end draws (the
terminal, a web page, a bot's text observation). It is made from the reader's view (interpreter.present.
views) and from what the game declares in its manifest's `table:` (dsl.table_spec): how each zone shows
(every component, stacks of identical ones, its top, its size, or nothing), which variables a player
reads, what a face-down component's back shows, the score computed now, the board's areas (with those of
the zones `looks:` greys, never left out), the tracks `looks:` declares, the entity variables shown on their
components, and the totals of piles.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from operator import attrgetter

from interpreter.core.state import Entity, Zone
from interpreter.present.tracks import tracks
from interpreter.present.views import back_of, can_see
from interpreter.present.words import Presenter, made_zones


@dataclass
class Item:
    """One entry of a zone: a component, or a stack of identical ones, in the reader's words."""

    text: str
    count: int = 1
    ref: str | None = None  # the component's id when the reader sees it: what options and texts attach to
    zones: list = field(default_factory=list)  # the zones lying on it (ZoneView)
    values: list = field(default_factory=list)  # its shown variables (`table: variables`): [(word, value)]
    back: str | None = None  # unseen: what its back shows (a kind or an attribute's value), else None
    refs: list = field(default_factory=list)  # every seen component of a stack, `ref` first


@dataclass
class ZoneView:
    name: str  # in the reader's words: "your hand", "deck", "units of Kingswood"
    zone: str  # the zone's name in the rules
    owner: int | None
    size: int
    mode: str  # all | stacks | top | count
    items: list = field(default_factory=list)
    total: int | None = None  # the sum `table: totals` declares, over what lies there (every part seen)


@dataclass
class PlayerView:
    seat: int
    name: str  # "P2", "P1 (you)"
    score: int | None
    values: list = field(default_factory=list)  # [(variable in words, value in words)]
    zones: list = field(default_factory=list)
    areas: list = field(default_factory=list)  # ids of the board's areas the player controls


@dataclass
class AreaView:
    ref: str
    name: str
    controller: int | None
    adjacent: list = field(default_factory=list)  # ids of the neighbouring areas
    zones: list = field(default_factory=list)
    values: list = field(default_factory=list)  # its shown variables: [(word, value)] (armies on a territory)
    greyed: str | None = None  # out of play, and why, in the reader's words


@dataclass
class TableModel:
    viewer: int | None
    lang: str
    game: list = field(default_factory=list)  # shared zones (ZoneView)
    values: list = field(default_factory=list)  # shown game variables
    players: list = field(default_factory=list)  # PlayerView, the reader first
    areas: list = field(default_factory=list)  # AreaView, when the game declares a board
    texts: dict = field(default_factory=dict)  # component id -> (its name and values, its printed text)
    tracks: list = field(default_factory=list)  # TrackView (present.tracks), as `looks:` declares them

    def to_json(self) -> dict:
        return asdict(self)


def score_now(session, seat: int) -> int | None:
    """The score of `seat` as the game's declared score function counts it now (None: none declared)."""
    spec = session.state.voc.table
    if spec.score is None:
        return None
    return _call(session, spec.score, seat)


def _call(session, name: str, arg):
    rt, game = session.rt, session.game
    fn = game.funcs[name].fn
    return rt.modified(name, fn, (arg,)) if name in game.modified else fn(rt, arg)


def table_model(session, viewer: int | None, lang: str | None = None, memo: dict | None = None) -> TableModel:
    """The table as `viewer` reads it. `memo` (a dict kept by the caller for one reader and language, empty at
    first) keeps each zone's view with what it was made from, so that the next model of the same session reads
    again only the zones whose contents changed (a page's view after each move)."""
    state = session.state
    spec = state.voc.table
    pr = Presenter(state, viewer, lang)
    model = TableModel(viewer, pr.lang)
    if memo is not None and memo.get("session") is not session:  # another game (undone, replayed): nothing kept holds
        memo.clear()
        memo["session"] = session
    zone_view = _Zones(pr, spec, viewer, model, memo)
    board_zone = spec.board.get("zone")
    for zone in state.game_zones.values():
        if zone.name == board_zone:
            continue
        shown = zone_view(zone)
        if shown is not None:
            model.game.append(shown)
    model.values = _values(pr, spec, state.game_vars)
    order = [viewer] + [p for p in range(state.players) if p != viewer] if viewer is not None else list(range(state.players))
    during = spec.score_during_play or session.pending is None
    for p in order:
        player = PlayerView(p, pr.player(p), score_now(session, p) if during else None, _values(pr, spec, state.player_vars[p]))
        for zones in state.player_zones.values():
            shown = zone_view(zones[p])
            if shown is not None:
                player.zones.append(shown)
        model.players.append(player)
    if board_zone:
        controller, adjacent = spec.board.get("controller"), spec.board.get("adjacent")
        by_seat = {p.seat: p for p in model.players}
        greyed = [(state.game_zones[z], pr.value(reason)) for z, reason in spec.looks.greyed if z in state.game_zones]
        for zone, why in [(state.game_zones[board_zone], None)] + greyed:
            for area in zone.items:
                owner = _call(session, controller, area) if controller and why is None else None
                fixed = memo.get(("area", area.id)) if memo is not None else None  # its name and neighbours never change
                if fixed is None:
                    near = [a.id if isinstance(a, Entity) else str(a) for a in (area.attrs.get(adjacent) or ())] if adjacent else []
                    fixed = (pr.entity(area, values=False), near)
                    if memo is not None and can_see(area, viewer):
                        memo[("area", area.id)] = fixed
                inner = [z for z in map(zone_view, made_zones(area)) if z is not None]
                model.areas.append(AreaView(area.id, fixed[0], owner if isinstance(owner, int) else None,
                                            list(fixed[1]), inner, _entity_values(pr, spec, area), why))
                if isinstance(owner, int) and owner in by_seat:
                    by_seat[owner].areas.append(area.id)
    model.tracks = tracks(state, spec.looks.tracks, pr)
    return model


class _Zones:
    """`_zone` at the top of a zone, kept in a memo by what the view of the zone is made from: who holds it, and
    each component in it, in order, with what the reader's view of it depends on (face down, seen by, its shown
    variables), through the zones on it. Records' attributes never change in play; a shown variable that is a
    list or a map is kept as its text. Which components have something on them is read again only when the
    zone's stamp moved (what lies in it, or on what lies in it, changed: core.state.touch)."""

    def __init__(self, pr: Presenter, spec, viewer, model: TableModel, memo: dict | None):
        self.pr, self.spec, self.viewer, self.model, self.memo = pr, spec, viewer, model, memo
        self.on = spec.on_components

    def __call__(self, zone: Zone) -> ZoneView | None:
        if not zone.items:
            return None
        memo = self.memo
        show = self.spec.show(zone.name)
        if show.owner == show.others == "none":  # never shown, to anyone: nothing to read (the box)
            return None
        owner = zone.owner
        if memo is None or (type(owner) is Entity and not can_see(owner, self.viewer)):  # named by where it lies
            return _zone(self.pr, self.spec, zone, self.viewer, self.model)
        kept = memo.get(id(zone))
        if kept is None or kept[0] is not zone or kept[1] != zone.stamp:
            kept = None
            laden = [e for e in zone.items if _laden(e)]
        else:
            laden = kept[5]  # the same components lie there as when it was kept: the same ones have something on them
        key = self._key(zone, laden)
        if kept is not None and kept[2] == key:
            self.model.texts.update(kept[4])
            return kept[3]
        texts = self.model.texts
        self.model.texts = {}
        try:
            shown = _zone(self.pr, self.spec, zone, self.viewer, self.model)
            memo[id(zone)] = (zone, zone.stamp, key, shown, self.model.texts, laden)
        finally:
            texts.update(self.model.texts)
            self.model.texts = texts
        return shown

    def _key(self, zone: Zone, laden: list, depth: int = 0) -> tuple:
        """What the view of `zone` is made from; `laden`: its components with something on them."""
        items = zone.items
        key = (zone_owner(zone), tuple(items), tuple(map(_SEEN, items)))
        on = self.on
        if not laden and not (on and any(map(_VARS, items))):
            return key  # what most zones hold: components with nothing on them and no shown variable
        more = []
        if on:
            more.extend(tuple(_frozen(e.vars.get(n)) for n in on) if e.vars else () for e in items)
        if depth < 3:
            for e in laden:
                inner = [z for z in made_zones(e) if z.items]
                more.append(tuple(self._key(z, [x for x in z.items if _laden(x)], depth + 1) for z in inner))
        return key + tuple(more)


def _laden(e: Entity) -> bool:
    return any(z.items for z in made_zones(e))


_SEEN = attrgetter("face_down", "seen_by")
_VARS = attrgetter("vars")


def _frozen(v):
    return v if v is None or isinstance(v, (int, str, Entity)) else repr(v)


def _values(pr: Presenter, spec, variables: dict) -> list:
    out = []
    for name in spec.variables:
        if name in variables and variables[name] is not None:
            v = pr.state.voc.variables[name]
            out.append((pr.word(name), pr.value(variables[name], v.type)))
    return out


def _entity_values(pr: Presenter, spec, e: Entity) -> list:
    """The variables of component `e` the table shows (entity variables listed in `table: variables`)."""
    if not e.vars or not spec.on_components:
        return []
    out = []
    for name in spec.on_components:
        value = e.vars.get(name)
        if value is not None:
            out.append((pr.word(name), pr.value(value, pr.state.voc.variables[name].type)))
    return out


def zone_owner(zone: Zone) -> int | None:
    owner = zone.owner
    while isinstance(owner, Entity):
        owner = owner.zone.owner if owner.zone is not None else None
    return owner if isinstance(owner, int) and not isinstance(owner, bool) else None


def _zone(pr: Presenter, spec, zone: Zone, viewer, model: TableModel, depth: int = 0) -> ZoneView | None:
    if not zone.items:  # most zones on components are empty: nothing to show, nothing to work out
        return None
    show = spec.show(zone.name)
    owner = zone_owner(zone)
    mode = show.owner if viewer is not None and owner == viewer else show.others
    if mode == "none" or (show.variant is not None and show.variant not in pr.state.variants):
        return None
    view = ZoneView(pr.zone(zone), zone.name, owner, len(zone.items), mode)
    if mode == "count":
        return view
    items = zone.items[-1:] if mode == "top" else zone.items  # the top of a pile is its last component
    stacks: dict = {}
    total_of = spec.totals.get(zone.name)
    total = 0
    for e in items:
        seen = can_see(e, viewer)
        text = pr.describe(e) if seen else pr.unseen_short(e)
        inner = [z for z in (_zone(pr, spec, sub, viewer, model, depth + 1) for sub in made_zones(e)) if z is not None] \
            if seen and depth < 3 else []
        values = _entity_values(pr, spec, e) if seen else []
        back = None if seen else back_of(e, viewer, pr.backs)
        if seen and pr.card_text(e):
            model.texts.setdefault(e.id, (text, pr.card_text(e)))
        if total_of is not None:
            number = e.attrs.get(total_of) if seen else None
            total = None if total is None or type(number) is not int else total + number  # a hidden part: no total
        if mode != "all" and not inner:
            # identical components stack ("Copper ×46"), hidden ones by what their backs show
            key = (text, tuple(values))
            if key in stacks:
                stacks[key].count += 1
                if seen:
                    stacks[key].refs.append(e.id)
                continue
            stacks[key] = Item(text, 1, e.id if seen else None, values=values, back=back, refs=[e.id] if seen else [])
            view.items.append(stacks[key])
        else:
            view.items.append(Item(text, 1, e.id if seen else None, inner, values, back))
    if total_of is not None and mode != "top":
        view.total = total
    return view
