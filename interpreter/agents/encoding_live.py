"""The observation tensor of `encoding.Encoder` kept up to date along one session, for bots reading it at
every step: rebuilding it over every component costs several times the engine's own step.

The runtime tells its move watchers about each move and its change watchers about every other change a row
can show (a component's variable set, a shuffle, a reveal, `show`, a supposed move undone): the components
and zones named are logged. Each player's tensor keeps its place in the log and, when read, takes in what
was logged since: every row is local (where the component lies, whether it is on top, its face, its
variables), so only the components named there are rewritten, each from a ready row per zone (its slot
set) and a few numbers; then, per zone named, which component is on top and how many of its components
the player cannot see (part 2, or the `under` of the component it lies on). Whether the player sees a
component is the view's own rule (`views.can_see`), with each zone's part computed once per player.
A component that moved or changed carries what lies on it (whose it is, and whether the component it
lies on is seen, may change with it); in a zone showing only its top, the old and new top are rewritten.
The variables of the game and the seats and the pending decision are few: compared and rewritten.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from interpreter.core.state import Entity, holder
from interpreter.present.views import can_see

_TRIM = 512  # log entries every seat has read, dropped once there are this many
_NONE: frozenset = frozenset()


@dataclass
class _Seat:
    out: np.ndarray
    mv: memoryview  # `out` written item by item (several times cheaper than numpy's item assignment)
    cursor: int  # how much of the log of components this tensor has taken in
    zone_cursor: int  # and of the log of zones
    picked: frozenset  # component ids marked "picked"
    seen: dict  # component id -> the zone it lies in, of the components whose rows say they are seen
    shown: dict  # zone -> how many of `seen` lie there
    tops: dict  # zone -> the component on its top when this tensor last looked (None: empty)
    variables: int  # `_Live.variables` when part 3 was written
    values: list  # the variables' values part 3 shows, per part (the game's, then each seat's)
    zones: dict = field(default_factory=dict)  # zone -> (slot, place in part 2 or None, ready row, mode or None)
    marks: list = field(default_factory=list)  # the (place, value) pairs part 4 holds


@dataclass
class _Live:
    ents: list = field(default_factory=list)  # components changed, in order
    zones: list = field(default_factory=list)  # zones changed (left, entered, shuffled), in order
    seats: dict = field(default_factory=dict)  # player -> _Seat
    variables: int = 0  # how many times variables of the game or the players changed
    loaded: set = field(default_factory=set)  # components anything was ever laid on (most never are)

    def moved(self, e, old, new) -> None:
        self.ents.append(e)
        zones = self.zones
        if old is not None:
            zones.append(old)
        zones.append(new)
        if type(new.owner) is Entity:
            self.loaded.add(new.owner)

    def changed(self, what) -> None:
        for x in what:
            if x is None:
                self.variables += 1
            elif type(x) is Entity:
                self.ents.append(x)
            else:
                self.zones.append(x)
                if type(x.owner) is Entity:
                    self.loaded.add(x.owner)


def encode_live(enc, rt, player: int, decision, to_act, picked) -> np.ndarray:
    live = enc.live.get(rt)
    if live is None:
        live = enc.live[rt] = _Live()
        live.loaded.update(e for e in rt.state.entities.values() if e.zones and any(z.items for z in e.zones.values()))
        rt.move_watchers.append(live.moved)
        rt.change_watchers.append(live.changed)
    state = rt.state
    if picked:
        names = enc.space.words if enc.space is not None else None
        picked_ids = frozenset(names[a] for a in picked) if names is not None else _NONE
    else:
        picked_ids = _NONE
    seat = live.seats.get(player)
    if seat is None:
        return _first(enc, live, state, player, decision, to_act, picked, picked_ids)
    mv = seat.mv
    elog, zlog = live.ents, live.zones
    repicked = seat.picked != picked_ids
    if seat.cursor < len(elog) or seat.zone_cursor < len(zlog) or repicked:
        ents = dict.fromkeys(elog[seat.cursor:])  # each once: a step moves the same few things many times
        zones = dict.fromkeys(zlog[seat.zone_cursor:])
        if repicked:
            for eid in seat.picked ^ picked_ids:
                e = state.entities.get(eid)
                if e is not None:
                    ents[e] = None
            seat.picked = picked_ids
        seat.cursor, seat.zone_cursor = len(elog), len(zlog)
        _take_in(enc, seat, player, ents, zones, picked_ids, live.loaded)
    if seat.variables != live.variables:
        seat.variables = live.variables
        _variables(enc, seat, state, player)
    marks = enc.marks(player, decision, to_act, picked)
    if marks != seat.marks:  # part 4: the last decision's marks cleared, this one's written
        for at, _ in seat.marks:
            mv[at] = 0.0
        for at, value in marks:
            mv[at] = value
        seat.marks = marks
    if len(elog) + len(zlog) >= _TRIM:
        _trim(live)
    return seat.out.copy()


def _trim(live: _Live) -> None:
    """The log entries every seat has taken in, dropped."""
    least = min(s.cursor for s in live.seats.values())
    least_zone = min(s.zone_cursor for s in live.seats.values())
    if least + least_zone >= _TRIM:
        del live.ents[:least]
        del live.zones[:least_zone]
        for s in live.seats.values():
            s.cursor -= least
            s.zone_cursor -= least_zone


def _first(enc, live: _Live, state, player: int, decision, to_act, picked, picked_ids) -> np.ndarray:
    """A seat's first tensor: the full encoding, with what the live one keeps noted in the same pass."""
    seen: dict = {}
    out = enc.encode(state, player, decision, to_act, picked, seen=seen)
    shown: dict = {}
    for z in seen.values():
        shown[z] = shown.get(z, 0) + 1
    tops = {z: z.items[0] for z in state.all_zones() if z.items}
    seat = _Seat(out, memoryview(out), len(live.ents), len(live.zones), picked_ids, seen, shown, tops, live.variables,
                 _values(enc, state), marks=enc.marks(player, decision, to_act, picked))
    live.seats[player] = seat
    return out.copy()


def _zone(enc, seat: _Seat, z, player: int) -> tuple:
    """A zone as this player's rows show it: its slot, its place in part 2 (None for a zone on a component),
    the row of a component seen there (slot 0 clear, its slot set), and what of it the player sees ("all",
    "top", "none"; None where that hangs on who holds the component it lies on)."""
    owner = z.owner
    if type(owner) is Entity:
        slot, count = enc.slots[(z.name, "on")], None
    else:
        key = (z.name, None) if owner is None else (z.name, (owner - player) % enc.players)
        slot, count = enc.slots[key], enc.at_counts + enc.counted[key]
    owner_sees, others_see = z.visibility
    if owner_sees == others_see:
        mode = owner_sees
    elif type(owner) is Entity:
        mode = None
    else:
        mode = owner_sees if owner == player else others_see
    found = seat.zones[z] = (slot, count, enc.ready_row(slot), mode)
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


def _take_in(enc, seat: _Seat, player: int, ents: dict, zones: dict, picked_ids, loaded: set) -> None:
    mv, seen, shown, tops, zinfo = seat.mv, seat.seen, seat.shown, seat.tops, seat.zones
    rows, width, zw = enc.rows, enc.width, enc.zone_width
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
    unseen = enc.unseen_row
    seen_get, zinfo_get = seen.get, zinfo.get
    at_on, at_top, at_face, at_picked = zw, zw + 1, zw + 2, zw + 3
    for e in ents:
        z = e.zone
        eid = e.id
        was = seen_get(eid)
        if z is None:
            sees = False
        else:
            info = zinfo_get(z)
            if info is None:
                info = _zone(enc, seat, z, player)
            if e.face_down or e.seen_by is not None:
                sees = can_see(e, player)
            else:
                mode = info[3]
                if mode is None:
                    owner_sees, others_see = z.visibility
                    mode = owner_sees if holder(z.owner) == player else others_see
                sees = mode == "all" or (mode == "top" and z.items[0] is e)
        if not sees:
            if was is not None:
                del seen[eid]
                shown[was] -= 1
                zones[was] = None
                row = rows[eid]
                mv[row:row + width] = unseen
            continue
        row = rows[eid]
        mv[row:row + width] = info[2]
        if was is not z:
            if was is not None:
                shown[was] -= 1
                zones[was] = None
            seen[eid] = z
            shown[z] = shown.get(z, 0) + 1
            zones[z] = None
        if info[1] is None:  # a zone on a component: which one
            owner = z.owner
            mv[row + at_on] = enc.on[owner.id] if can_see(owner, player) else -1.0
        if z.items[0] is e:
            mv[row + at_top] = 1.0
        if e.face_down:
            mv[row + at_face] = 1.0
        if eid in picked_ids:
            mv[row + at_picked] = 1.0
        if e in loaded:
            for x in e.zones.values():
                if x.items:
                    zones[x] = None  # its `under`, written below
        found = enc.var_places.get(e.kind)
        if found is not None:
            values = found[0](e.vars)
            if any(values):
                for (at, t), x in zip(found[1], values):
                    if x is not None and x is not False and x != 0:
                        mv[row + at] = number(x, t, player, enc.players)
    at_under = zw + 4
    for z in zones:  # the top of each zone named, and how many of its components the player cannot see
        items = z.items
        top = items[0] if items else None
        old = tops.get(z)
        if old is not top:
            tops[z] = top
            if old is not None and old not in ents and seen_get(old.id) is z:
                mv[rows[old.id] + at_top] = 0.0
            if top is not None and top not in ents and seen_get(top.id) is z:
                mv[rows[top.id] + at_top] = 1.0
        owner = z.owner
        if type(owner) is Entity:
            if seen_get(owner.id) is not None:
                under = 0
                for y in owner.zones.values():
                    if y.items:
                        under += len(y.items) - shown.get(y, 0)
                mv[rows[owner.id] + at_under] = float(under)
        else:
            info = zinfo_get(z)
            if info is None:
                info = _zone(enc, seat, z, player)
            mv[info[1]] = float(len(items) - shown.get(z, 0))


def getter(names: list):
    """The values of these variables in a dict of them, at once (`operator.itemgetter`), as a tuple."""
    if not names:
        return lambda d: ()
    if len(names) == 1:
        return lambda d, name=names[0]: (d.get(name),)
    get = itemgetter(*names)

    def read(d) -> tuple:
        try:
            return get(d)
        except KeyError:  # a variable not set (yet): none
            return tuple(d.get(name) for name in names)
    return read


def _values(enc, state) -> list:
    return [enc.game_getter(state.game_vars)] + [enc.seat_getter(pv) for pv in state.player_vars]


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
