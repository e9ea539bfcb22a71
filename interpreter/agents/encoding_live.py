"""The observation tensor of `encoding.Encoder` kept up to date along one session, for bots reading it at
every step: rebuilding it over every component costs several times the engine's own step.

The first read of a session starts every seat's tensor in one pass over the table (`_start`). From then on
the runtime tells its move watchers about each move and its change watchers about every other change a
row can show (a component's variable set, a shuffle, a reveal, `show`, a supposed move undone): the
components and zones named are noted (each once). At the next read, by any seat, all seats' tensors take
them in together (`_take_in`), so the work on a component (its zone, its face, its variables' values) is
done once for every seat: every row is local (where the component lies, whether it is on top, its face,
its variables), so only the components named are rewritten, each from a ready row per zone slot and a few
numbers; then, per zone named, which component is on top and how many of its components each player
cannot see (part 2, or the `under` of the component it lies on). Whether a player sees a component is the
view's own rule (`views.can_see`), with each zone's part computed once per seat. A component that moved or
changed carries what lies on it (whose it is, and whether the component it lies on is seen, may change with
it); in a zone showing only its top, the old and new top are rewritten. The variables of the game and the
seats and the pending decision are few: compared and rewritten for the seat read. A read is then one copy
of that seat's array.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from interpreter.core.state import Entity, holder
from interpreter.present.views import can_see
from interpreter.runtime.lazyzones import ComponentZones

_NONE: frozenset = frozenset()


@dataclass
class _Seat:
    player: int
    out: np.ndarray
    mv: memoryview  # `out` written item by item (several times cheaper than numpy's item assignment)
    picked: frozenset  # component ids marked "picked"
    variables: int  # `_Live.variables` when part 3 was written
    values: list  # the variables' values part 3 shows, per part (the game's, then each seat's)
    marks: list = field(default_factory=list)  # the (place, value) pairs part 4 holds


@dataclass
class _Live:
    """What changed since the tensors followed were last brought up to date (all at once: the work on a
    component, its zone and its variables is shared by the seats), and those tensors."""
    ents: dict = field(default_factory=dict)  # components changed (an ordered set)
    zones: dict = field(default_factory=dict)  # zones changed: left, entered, shuffled
    seats: dict = field(default_factory=dict)  # player -> _Seat
    variables: int = 0  # how many times variables of the game or the players changed
    loaded: set = field(default_factory=set)  # components anything was ever laid on (most never are)
    tops: dict = field(default_factory=dict)  # zone -> the component on its top when last looked (None: empty)
    info: dict = field(default_factory=dict)  # zone -> per seat: (place in part 2 or None, ready row, mode or None)
    dark: set = field(default_factory=set)  # zones no seat sees into
    specials: dict = field(default_factory=dict)  # zone -> its components lying face down or shown to someone
    special_at: dict = field(default_factory=dict)  # such a component -> the zone it lies in
    each: tuple = ()  # per followed seat, what `_take_in` writes through (made again when a seat's picks change)

    def moved(self, e, old, new) -> None:
        self.ents[e] = None
        zones = self.zones
        if old is not None:
            zones[old] = None
        zones[new] = None
        if type(new.owner) is Entity:
            self.loaded.add(new.owner)

    def changed(self, what) -> None:
        for x in what:
            if x is None:
                self.variables += 1
            elif type(x) is Entity:
                self.ents[x] = None
            else:
                self.zones[x] = None
                if type(x.owner) is Entity:
                    self.loaded.add(x.owner)


def encode_live(enc, rt, player: int, decision, to_act, picked) -> np.ndarray:
    live = enc.live.get(rt)
    if live is None:
        live = enc.live[rt] = _start(enc, rt)
    elif live.ents or live.zones:
        _take_in(enc, live, live.ents, live.zones)
        live.ents, live.zones = {}, {}
    if picked:
        names = enc.space.words if enc.space is not None else None
        picked_ids = frozenset(names[a] for a in picked) if names is not None else _NONE
    else:
        picked_ids = _NONE
    seat = live.seats[player]
    if seat.picked != picked_ids:
        entities = rt.state.entities
        again = {entities[eid]: None for eid in seat.picked ^ picked_ids if eid in entities}
        seat.picked = picked_ids
        live.each = _each(live, live.seats.values())
        _take_in(enc, live, again, {}, (seat,))
    if seat.variables != live.variables:
        seat.variables = live.variables
        _variables(enc, seat, rt.state, player)
    marks = enc.marks(player, decision, to_act, picked)
    if marks != seat.marks:  # part 4: the last decision's marks cleared, this one's written
        mv = seat.mv
        for at, _ in seat.marks:
            mv[at] = 0.0
        for at, value in marks:
            mv[at] = value
        seat.marks = marks
    return seat.out.copy()


def _start(enc, rt) -> _Live:
    """Every seat's tensor, from the whole table in one pass (`_take_in` over every component and zone: the
    work on each is shared by the seats), then followed through the session's watchers."""
    state = rt.state
    live = _Live()
    ents = {e: None for e in state.entities.values() if e.zone is not None}
    zones = {z: None for z in _zones_with_items(state)}
    live.loaded = {z.owner for z in zones if type(z.owner) is Entity}
    for player in range(enc.players):
        out = enc.blank()
        enc.tail(out, state, player, None, None, ())
        live.seats[player] = _Seat(player, out, memoryview(out), _NONE, live.variables, _values(enc, state))
    live.each = _each(live, live.seats.values())
    for z in zones:
        if z not in live.info:
            _zone(enc, live, z)
    dark = live.dark  # rows start unseen: a component lying in the ordinary way where no seat sees is left so
    _take_in(enc, live, {e: None for e in ents if e.zone not in dark or e.face_down or e.seen_by is not None}, zones)
    rt.move_watchers.append(live.moved)
    rt.change_watchers.append(live.changed)
    return live


def _zones_with_items(state):
    """The zones something lies in; a component's zones not made yet (`runtime.lazyzones`) are all empty and
    are left unmade (`State.all_zones` would make them)."""
    yield from (z for z in state.game_zones.values() if z.items)
    for zones in state.player_zones.values():
        yield from (z for z in zones if z.items)
    for e in state.entities.values():
        zs = e.zones
        if type(zs) is ComponentZones and zs.specs is not None:
            continue
        yield from (z for z in zs.values() if z.items)


def _zone(enc, live: _Live, z) -> tuple:
    """A zone as each followed seat's rows show it: its place in part 2 (None for a zone on a component),
    the row of a component seen there (slot 0 clear, its slot set), and what of it the player sees ("all",
    "top", "none"; None where that hangs on who holds the component it lies on)."""
    owner = z.owner
    owner_sees, others_see = z.visibility
    out = []
    for seat in live.seats.values():
        player = seat.player
        if type(owner) is Entity:
            slot, count = enc.slots[(z.name, "on")], None
        else:
            key = (z.name, None) if owner is None else (z.name, (owner - player) % enc.players)
            slot, count = enc.slots[key], enc.at_counts + enc.counted[key]
        if owner_sees == others_see:
            mode = owner_sees
        elif type(owner) is Entity:
            mode = None
        else:
            mode = owner_sees if owner == player else others_see
        out.append((count, enc.ready_row(slot), mode))
    found = live.info[z] = tuple(out)
    if all(mode == "none" for _, _, mode in out):
        live.dark.add(z)
    return found


def _carry(e, ents: dict, zones: dict, loaded: set) -> None:
    """What lies on a component that moved or changed: rewritten with it (its holder, and whether the
    component it lies on is seen, may have changed), and those zones' counts."""
    for z in e.zones.values():
        if not z.items:
            continue
        zones[z] = None
        for x in z.items:
            if x not in ents:
                ents[x] = None
                if x in loaded:
                    _carry(x, ents, zones, loaded)


def _seen_in(z, mode: str, player: int, specials) -> int:
    """How many of a zone's components `player` sees: what its mode shows of components lying there in the
    ordinary way, corrected by those lying face down or shown to someone (`specials`: the view decides)."""
    items = z.items
    if mode == "all":
        seen = len(items)
    elif mode == "top":
        seen = 1 if items else 0
    else:
        seen = 0
    if specials:
        for x in specials:
            seen += can_see(x, player) - (mode == "all" or (mode == "top" and items[0] is x))
    return seen


def _take_in(enc, live: _Live, ents: dict, zones: dict, seats=None) -> None:
    """The rows of these components, and the tops and counts of these zones, in every followed seat's tensor
    (or only in `seats`). Whether a row shows its component seen is read from the row itself (slot 0); how
    many of a zone's components a seat sees, from the zone's mode for that seat and its few components lying
    face down or shown (`_Live.specials`)."""
    loaded, tops, specials, special_at = live.loaded, live.tops, live.specials, live.special_at
    if loaded:
        for e in loaded.intersection(ents):
            _carry(e, ents, zones, loaded)
    for z in list(zones):
        if "top" in z.visibility:  # which one is seen there may have changed: the old and the new top
            if z.items:
                ents[z.items[0]] = None
            old = tops.get(z)
            if old is not None:
                ents[old] = None
    rows, width, zw, n, on_of, var_places = enc.rows, enc.width, enc.zone_width, enc.players, enc.on, enc.var_places
    unseen = enc.unseen_row
    at_on, at_top, at_face, at_picked, at_under = zw, zw + 1, zw + 2, zw + 3, zw + 4
    infos, dark = live.info, live.dark
    each = live.each if seats is None else _each(live, seats)
    for e in ents:
        z = e.zone
        row = rows[e.id]
        special = z is not None and (e.face_down or e.seen_by is not None)
        was = special_at.get(e)
        if special and was is not z or not special and was is not None:  # the few counted by the view
            if was is not None:
                specials[was].discard(e)
                zones[was] = None
            if special:
                special_at[e] = z
                specials.setdefault(z, set()).add(e)
                zones[z] = None
            else:
                del special_at[e]
        elif special:
            zones[z] = None  # its face or who it is shown to may have changed
        # out of every zone, or in a zone nobody sees into (a deck) in the ordinary way: unseen by every seat
        if z is None or not special and z in dark:
            for _, _, mv, _ in each:
                if mv[row] == 0.0:
                    mv[row:row + width] = unseen
            continue
        info = infos.get(z)
        if info is None:
            info = _zone(enc, live, z)
        top = z.items[0] is e
        face = e.face_down
        found = var_places.get(e.kind)
        values = None
        if found is not None:
            try:
                values = found[0](e.vars)
            except KeyError:  # a variable not set: none
                values = tuple(e.vars.get(name) for name in found[2])
            if not any(values):
                values = None
        eid = e.id
        for k, player, mv, picked in each:
            count, ready, mode = info[k]
            if special:
                sees = can_see(e, player)
            elif mode == "all":
                sees = True
            elif mode == "none":
                sees = False
            elif mode is None:
                owner_sees, others_see = z.visibility
                mode = owner_sees if holder(z.owner) == player else others_see
                sees = mode == "all" or (mode == "top" and top)
            else:
                sees = top
            if not sees:
                if mv[row] == 0.0:
                    mv[row:row + width] = unseen
                continue
            mv[row:row + width] = ready
            if count is None:  # a zone on a component: which one
                owner = z.owner
                mv[row + at_on] = on_of[owner.id] if can_see(owner, player) else -1.0
            if top:
                mv[row + at_top] = 1.0
            if face:
                mv[row + at_face] = 1.0
            if eid in picked:
                mv[row + at_picked] = 1.0
            if values is not None:
                for (at, t), x in zip(found[1], values):
                    if x is not None and x is not False and x != 0:
                        mv[row + at] = number(x, t, player, n)
        if e in loaded:
            for x in e.zones.values():
                if x.items:
                    zones[x] = None  # its `under`, written below
    for z in zones:  # the top of each zone named, and how many of its components each player cannot see
        items = z.items
        top = items[0] if items else None
        old = tops.get(z)
        moved_top = old is not top
        if moved_top:
            tops[z] = top
            if old is not None and (old in ents or old.zone is not z):
                old = None  # rewritten whole above
            if top is not None and top in ents:
                top = None
            if old is not None or top is not None:  # the top flag moved, in the rows that show them seen
                for _, _, mv, _ in each:
                    if old is not None and mv[rows[old.id]] == 0.0:
                        mv[rows[old.id] + at_top] = 0.0
                    if top is not None and mv[rows[top.id]] == 0.0:
                        mv[rows[top.id] + at_top] = 1.0
        owner = z.owner
        if type(owner) is Entity:
            at = rows[owner.id]
            for _, player, mv, _ in each:
                if mv[at] == 0.0:
                    under = 0
                    for y in owner.zones.values():
                        if y.items:
                            owner_sees, others_see = y.visibility
                            mode = owner_sees if holder(owner) == player else others_see
                            under += len(y.items) - _seen_in(y, mode, player, specials.get(y))
                    mv[at + at_under] = float(under)
            continue
        info = infos.get(z)
        if info is None:
            info = _zone(enc, live, z)
        size = len(items)
        sp = specials.get(z)
        for k, player, mv, _ in each:
            mode = info[k][2]
            if sp:
                mv[info[k][0]] = float(size - _seen_in(z, mode, player, sp))
            elif mode == "all":
                mv[info[k][0]] = 0.0
            elif mode == "none":
                mv[info[k][0]] = float(size)
            else:
                mv[info[k][0]] = float(size - 1) if size else 0.0


def _each(live: _Live, seats) -> tuple:
    """Per seat: its place in each zone's info, and what is written through (looked up once per call, not
    per component)."""
    order = list(live.seats.values())
    return tuple((order.index(seat), seat.player, seat.mv, seat.picked) for seat in seats)


def getter(names: list):
    """The values of these variables in a dict of them, at once (`operator.itemgetter`), as a tuple; a
    variable not set raises KeyError (`_values` then reads them one by one)."""
    if not names:
        return lambda d: ()
    if len(names) == 1:
        return lambda d, name=names[0]: (d[name],)
    return itemgetter(*names)


def _values(enc, state) -> list:
    try:
        return [enc.game_getter(state.game_vars)] + [enc.seat_getter(pv) for pv in state.player_vars]
    except KeyError:  # a variable not set (yet): none
        game = tuple(state.game_vars.get(name) for name, _ in enc.game_vars)
        return [game] + [tuple(pv.get(name) for name, _ in enc.player_vars) for pv in state.player_vars]


def _variables(enc, seat: _Seat, state, player: int) -> None:
    """Part 3 where the game's and the players' variables differ from what it shows."""
    values = _values(enc, state)
    old = seat.values
    seat.values = values
    n, mv = enc.players, seat.mv
    for part, (now, was) in enumerate(zip(values, old)):
        if now == was:
            continue
        if part == 0:
            at, types = enc.at_vars, enc.game_vars
        else:
            at, types = enc.at_vars + len(enc.game_vars) + ((part - 1 - player) % n) * len(enc.player_vars), enc.player_vars
        for k, (x, y) in enumerate(zip(now, was)):
            if x != y or type(x) is not type(y):
                mv[at + k] = number(x, types[k][1], player, n)


def number(value, t: str, player: int, n: int) -> float:
    """Numbers as they are, yes/no as 1/0, a player as 1 + its seat counted from the observer, none as 0."""
    if value is None or isinstance(value, Entity):
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        return float(1 + (value - player) % n) if t == "player" else float(value)
    return 0.0
