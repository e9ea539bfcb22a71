"""The table model: what one reader sees of the table, as plain data that every front end draws (the
terminal, a web page, a bot's text observation). It is made from the reader's view (interpreter.present.
views) and from what the game declares in its manifest's `table:` (dsl.table_spec): how each zone shows
(every component, stacks of identical ones, its top, its size, or nothing), which variables a player
reads, what a face-down component's back shows, the score computed now, and the board's areas.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from interpreter.core.state import Entity, Zone
from interpreter.present.views import can_see
from interpreter.present.words import Presenter


@dataclass
class Item:
    """One entry of a zone: a component, or a stack of identical ones, in the reader's words."""

    text: str
    count: int = 1
    ref: str | None = None  # the component's id when the reader sees it: what options and texts attach to
    zones: list = field(default_factory=list)  # the zones lying on it (ZoneView)


@dataclass
class ZoneView:
    name: str  # in the reader's words: "your hand", "deck", "units of Kingswood"
    zone: str  # the zone's name in the rules
    owner: int | None
    size: int
    mode: str  # all | stacks | top | count
    items: list = field(default_factory=list)


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


@dataclass
class TableModel:
    viewer: int | None
    lang: str
    game: list = field(default_factory=list)  # shared zones (ZoneView)
    values: list = field(default_factory=list)  # shown game variables
    players: list = field(default_factory=list)  # PlayerView, the reader first
    areas: list = field(default_factory=list)  # AreaView, when the game declares a board
    texts: dict = field(default_factory=dict)  # component id -> (its name and values, its printed text)

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


def table_model(session, viewer: int | None, lang: str | None = None) -> TableModel:
    state = session.state
    spec = state.voc.table
    pr = Presenter(state, viewer, lang)
    model = TableModel(viewer, pr.lang)
    board_zone = spec.board.get("zone")
    for zone in state.game_zones.values():
        if zone.name == board_zone:
            continue
        shown = _zone(pr, spec, zone, viewer, model)
        if shown is not None:
            model.game.append(shown)
    model.values = _values(pr, spec, state.game_vars)
    order = [viewer] + [p for p in range(state.players) if p != viewer] if viewer is not None else list(range(state.players))
    during = spec.score_during_play or session.pending is None
    for p in order:
        player = PlayerView(p, pr.player(p), score_now(session, p) if during else None, _values(pr, spec, state.player_vars[p]))
        for zones in state.player_zones.values():
            shown = _zone(pr, spec, zones[p], viewer, model)
            if shown is not None:
                player.zones.append(shown)
        model.players.append(player)
    if board_zone:
        controller, adjacent = spec.board.get("controller"), spec.board.get("adjacent")
        by_seat = {p.seat: p for p in model.players}
        for area in state.game_zones[board_zone].items:
            owner = _call(session, controller, area) if controller else None
            near = [a.id if isinstance(a, Entity) else str(a) for a in (area.attrs.get(adjacent) or ())] if adjacent else []
            inner = [z for z in (_zone(pr, spec, sub, viewer, model) for sub in area.zones.values()) if z is not None]
            model.areas.append(AreaView(area.id, pr.entity(area, values=False), owner if isinstance(owner, int) else None,
                                        near, inner))
            if isinstance(owner, int) and owner in by_seat:
                by_seat[owner].areas.append(area.id)
    return model


def _values(pr: Presenter, spec, variables: dict) -> list:
    out = []
    for name in spec.variables:
        if name in variables and variables[name] is not None:
            v = pr.state.voc.variables[name]
            out.append((pr.word(name), pr.value(variables[name], v.type)))
    return out


def _owner(zone: Zone) -> int | None:
    owner = zone.owner
    while isinstance(owner, Entity):
        owner = owner.zone.owner if owner.zone is not None else None
    return owner if isinstance(owner, int) and not isinstance(owner, bool) else None


def _zone(pr: Presenter, spec, zone: Zone, viewer, model: TableModel, depth: int = 0) -> ZoneView | None:
    show = spec.show(zone.name)
    mode = show.owner if viewer is not None and _owner(zone) == viewer else show.others
    if mode == "none" or not zone.items or (show.variant is not None and show.variant not in pr.state.variants):
        return None
    view = ZoneView(pr.zone(zone), zone.name, _owner(zone), len(zone.items), mode)
    if mode == "count":
        return view
    items = zone.items[-1:] if mode == "top" else zone.items  # the top of a pile is its last component
    stacks: dict = {}
    for e in items:
        seen = can_see(e, viewer)
        text = pr.describe(e) if seen else pr.unseen_short(e)
        inner = [z for z in (_zone(pr, spec, sub, viewer, model, depth + 1) for sub in e.zones.values()) if z is not None] \
            if seen and depth < 3 else []
        if seen and pr.card_text(e):
            model.texts.setdefault(e.id, (text, pr.card_text(e)))
        if mode != "all" and not inner:
            # identical components stack ("Copper ×46"), hidden ones by what their backs show
            if text in stacks:
                stacks[text].count += 1
                continue
            stacks[text] = Item(text, 1, e.id if seen else None)
            view.items.append(stacks[text])
        else:
            view.items.append(Item(text, 1, e.id if seen else None, inner))
    return view
