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


@dataclass
class _Seat:
    out: np.ndarray
    mv: memoryview  # `out` written item by item (several times cheaper than numpy's item assignment)
    cursor: int  # how much of the log this tensor has taken in
    picked: frozenset  # component ids marked "picked"
    seen: dict  # component id -> the zone it lies in, of the components whose rows say they are seen
    shown: dict  # zone -> how many of `seen` lie there
    tops: dict  # zone -> the component on its top when this tensor last looked (None: empty)
    variables: int  # `_Live.variables` when part 3 was written
    values: list  # the variables' values part 3 shows, per part (the game's, then each seat's)
    zones: dict = field(default_factory=dict)  # zone -> (slot, place in part 2 or None, ready row, mode or None)
    marks: list = field(default_factory=list)  # the places part 4 holds a non-zero at


@dataclass
class _Live:
    log: list = field(default_factory=list)  # components and zones changed, in order
    seats: dict = field(default_factory=dict)  # player -> _Seat
    variables: int = 0  # how many times variables of the game or the players changed

    def moved(self, e, old, new) -> None:
        log = self.log
        log.append(e)
        if old is not None:
            log.append(old)
        log.append(new)

    def changed(self, what) -> None:
        if None in what:
            self.variables += 1
            what = [x for x in what if x is not None]
        self.log.extend(what)


def encode_live(enc, rt, player: int, decision, to_act, picked) -> np.ndarray:
    live = enc.live.get(rt)
    if live is None:
        live = enc.live[rt] = _Live()
        rt.move_watchers.append(live.moved)
        rt.change_watchers.append(live.changed)
    state = rt.state
    names = enc.space.words if enc.space is not None else None
    picked_ids = frozenset(names[a] for a in picked) if names is not None and picked else frozenset()
    seat = live.seats.get(player)
    if seat is None:
        return _first(enc, live, state, player, decision, to_act, picked, picked_ids)
    mv = seat.mv
    log = live.log
    repicked = seat.picked != picked_ids
    if seat.cursor < len(log) or repicked:
        ents: dict = {}
        zones: dict = {}
        for x in dict.fromkeys(log[seat.cursor:]):  # each once: a step moves the same few things many times
            if type(x) is Entity:
                ents[x] = None
            else:
                zones[x] = None
        if repicked:
            for eid in seat.picked ^ picked_ids:
                e = state.entities.get(eid)
                if e is not None:
                    ents[e] = None
            seat.picked = picked_ids
        seat.cursor = len(log)
        if ents or zones:
            _take_in(enc, seat, player, ents, zones, picked_ids)
    if seat.variables != live.variables:
        seat.variables = live.variables
        _variables(enc, seat, state, player)
    for at in seat.marks:  # part 4: the last decision's marks cleared, this one's written
        mv[at] = 0.0
    marks = enc.marks(player, decision, to_act, picked)
    for at, value in marks:
        mv[at] = value
    seat.marks = [at for at, _ in marks]
    if len(log) >= _TRIM:
        least = min(s.cursor for s in live.seats.values())
        if least >= _TRIM:
            del log[:least]
            for s in live.seats.values():
                s.cursor -= least
    return seat.out.copy()


def _first(enc, live: _Live, state, player: int, decision, to_act, picked, picked_ids) -> np.ndarray:
    """A seat's first tensor: the full encoding, with what the live one keeps noted in the same pass."""
    seen: dict = {}
    out = enc.encode(state, player, decision, to_act, picked, seen=seen)
    shown: dict = {}
    for z in seen.values():
        shown[z] = shown.get(z, 0) + 1
    tops = {z: z.items[0] for z in state.all_zones() if z.items}
    seat = _Seat(out, memoryview(out), len(live.log), picked_ids, seen, shown, tops, live.variables,
                 _values(enc, state), marks=[at for at, _ in enc.marks(player, decision, to_act, picked)])
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


def _carry(e, ents: dict, zones: dict) -> None:
    """What lies on a component that moved or changed: rewritten with it (its holder, and whether the
    component it lies on is seen, may have changed), and those zones' counts."""
    for z in e.zones.values():
        if not z.items:
            continue
        zones[z] = None
        for x in z.items:
            if x not in ents:
                ents[x] = None
                if x.zones:
                    _carry(x, ents, zones)


def _take_in(enc, seat: _Seat, player: int, ents: dict, zones: dict, picked_ids) -> None:
    mv, seen, shown, tops, zinfo = seat.mv, seat.seen, seat.shown, seat.tops, seat.zones
    index, width, zw = enc.index, enc.width, enc.zone_width
    for e in list(ents):
        if e.zones:
            _carry(e, ents, zones)
    for z in list(zones):
        if "top" in z.visibility:  # which one is seen there may have changed: the old and the new top
            if z.items:
                ents[z.items[0]] = None
            old = tops.get(z)
            if old is not None:
                ents[old] = None
    unseen = enc.unseen_row
    evars = enc.row_vars
    N = len(enc.ids)
    for e in ents:
        z = e.zone
        eid = e.id
        was = seen.get(eid)
        row = index[eid] * width
        if z is None:
            sees = False
        else:
            info = zinfo.get(z)
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
                mv[row:row + width] = unseen
            continue
        mv[row:row + width] = info[2]
        if was is not z:
            if was is not None:
                shown[was] -= 1
                zones[was] = None
            seen[eid] = z
            shown[z] = shown.get(z, 0) + 1
            zones[z] = None
        owner = z.owner
        if type(owner) is Entity:
            mv[row + zw] = (1 + index[owner.id]) / N if can_see(owner, player) else -1.0
        if z.items[0] is e:
            mv[row + zw + 1] = 1.0
        if e.face_down:
            mv[row + zw + 2] = 1.0
        if eid in picked_ids:
            mv[row + zw + 3] = 1.0
        if e.zones:
            for x in e.zones.values():
                if x.items:
                    zones[x] = None  # its `under`, written below
        v = e.vars
        if v:
            for at, name, t in evars:
                x = v.get(name)
                if x is not None and x is not False and x != 0:
                    mv[row + at] = number(x, t, player, enc.players)
    for z in zones:  # the top of each zone named, and how many of its components the player cannot see
        items = z.items
        top = items[0] if items else None
        old = tops.get(z)
        if old is not top:
            tops[z] = top
            if old is not None and old not in ents and seen.get(old.id) is z:
                mv[index[old.id] * width + zw + 1] = 0.0
            if top is not None and top not in ents and seen.get(top.id) is z:
                mv[index[top.id] * width + zw + 1] = 1.0
        owner = z.owner
        if type(owner) is Entity:
            if seen.get(owner.id) is not None:
                under = 0
                for y in owner.zones.values():
                    under += len(y.items) - shown.get(y, 0)
                mv[index[owner.id] * width + zw + 4] = float(under)
        else:
            info = zinfo.get(z)
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
