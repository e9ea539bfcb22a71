"""The observation tensor of `encoding.Encoder` kept up to date along one session, for bots reading it at
every step: rebuilding it over every component costs several times the engine's own step.

Seats are absolute, so what every seat sees alike is kept once: a `base` tensor as a spectator sees the
table (a player's hand unseen, a public zone seen), and per seat only where its view differs from it (its
own hand's rows, a face-down token it still knows, how many cards of its hand it cannot see: none). A read
of seat s is one copy of the base, s's few differing rows and numbers written over it, then the observer and
the pending decision.

The first read of a session builds the base from the whole table (`_start`). From then on the runtime tells
its move watchers about each move and its change watchers about every other change a row can show (a
component's variable set, a shuffle, a reveal, `show`, a supposed move undone): the components and zones
named are noted, each once. At the next read (by any seat) they are taken in (`_take_in`): each row is
local to its component (where it lies, whether it is on top, its face, what lies on it, its variables), so
only the components named, the old and new tops of the zones named and what lies on a component named are
rewritten; then, per zone named, how many of its components the spectator and each seat cannot see. Which
seats may see a component otherwise than the spectator is known without asking each seat: the one holding
the zone it lies in, where owner and others see that zone differently, and the one it was shown to (or who
keeps knowing it face down); only those seats' rows are worked out, through the view's own `can_see`.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np

from interpreter.core.state import Entity, holder
from interpreter.present.views import can_see
from interpreter.runtime.lazyzones import ComponentZones

_NONE: tuple = ()
ON_HIDDEN = 1.0  # `on` of a component lying on one the reader cannot see


@dataclass
class _Live:
    """One session's base tensor, each seat's differences from it, and what changed since they were made."""
    base: np.ndarray  # parts 1 to 3 as the spectator sees them (no observer, no decision)
    bytes: memoryview  # `base` as bytes (a row is written as bytes at once)
    mv: memoryview  # `base` as floats (a number written at once)
    rows: list  # per seat: {where a row starts, in bytes: the row} where its row differs from the base
    values: list  # per seat: {place: value} where a count differs from the base
    row_seats: dict = field(default_factory=dict)  # row start (bytes) -> the seats holding a row there
    value_seats: dict = field(default_factory=dict)  # place -> the seats holding a value there
    ents: dict = field(default_factory=dict)  # components changed (an ordered set)
    zones: dict = field(default_factory=dict)  # zones changed: left, entered, shuffled
    variables: bool = True  # did variables of the game or the players change?
    shown: list = field(default_factory=list)  # part 3 as the base shows it
    loaded: set = field(default_factory=set)  # components anything was ever laid on (most never are)
    tops: dict = field(default_factory=dict)  # zone -> the component on its top when last looked (None: empty)
    info: dict = field(default_factory=dict)  # zone -> `_zone`
    specials: dict = field(default_factory=dict)  # zone -> its components lying face down or shown to someone
    special_at: dict = field(default_factory=dict)  # such a component -> the zone it lies in

    def moved(self, e, old, new) -> None:
        self.ents[e] = None
        zones = self.zones
        zones[old] = None  # None for a component that lay nowhere: dropped when taken in
        zones[new] = None

    def changed(self, what) -> None:
        for x in what:
            if x is None:
                self.variables = True
            elif type(x) is Entity:
                self.ents[x] = None
            else:
                self.zones[x] = None


def encode_live(enc, rt, player: int, decision, to_act, picked, wide: bool = False) -> np.ndarray:
    """`player`'s observation tensor, float32; `wide`: as float64 (the same values), made from the base in
    one pass rather than a float32 copy converted after."""
    last = enc.last_live
    if last[0]() is rt:
        live = last[1]
    else:
        live = enc.live.get(rt)
        if live is None:
            live = enc.live[rt] = _start(enc, rt)
        enc.last_live = (weakref.ref(rt), live)
    if live.ents or live.zones or live.variables:
        _take_in(enc, live, rt.state)
    rows = live.rows[player]
    if wide:
        out = live.base.astype(np.float64)
        if rows:
            ob = memoryview(out).cast("B")
            w8, wide_rows = 8 * enc.width, enc._wide_rows
            for at, row in rows.items():
                found = wide_rows.get(row)
                ob[2 * at:2 * at + w8] = found if found is not None else enc.wide_row(row)
    else:
        out = live.base.copy()
        if rows:
            ob = memoryview(out).cast("B")
            w4 = 4 * enc.width
            for at, row in rows.items():
                ob[at:at + w4] = row
    m = memoryview(out)  # single numbers written through it: a tenth of numpy's item assignment
    values = live.values[player]
    if values:
        for at, value in values.items():
            m[at] = value
    m[enc.at_observer + player] = 1.0
    if decision is not None and to_act is not None:
        enc.decision_part(m, player, decision, to_act, picked)
    return out


def _start(enc, rt) -> _Live:
    """The base and every seat's differences, from the whole table (`_take_in` over every component and
    zone), then followed through the session's watchers."""
    state = rt.state
    base = enc.blank()
    live = _Live(base, memoryview(base).cast("B"), memoryview(base), [{} for _ in range(enc.players)],
                 [{} for _ in range(enc.players)])
    zones = {z: None for z in _zones_with_items(state)}
    live.loaded = {z.owner for z in zones if type(z.owner) is Entity}
    # rows start unseen: a component lying face up where nobody sees (a deck) stays so, unless on top; the
    # components are gathered zone by zone (in whatever order: each row is its own component's)
    ents: dict = {}
    for z in zones:
        if _zone(enc, live, z)[6] != DARK:
            ents.update(dict.fromkeys(z.items))
        else:
            for e in z.items:
                if e.face_down or e.seen_by is not None:
                    ents[e] = None
    live.ents = ents
    live.zones = zones
    _take_in(enc, live, state)
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
    """What a zone's rows and count need: (its slot in a row, its place in part 2 or None for a zone on a
    component, what its owner sees, what others see, do they differ, the component it lies on or None,
    its kind (DARK, OPEN, MINE, OTHER), what the spectator sees, its owner's seat or None, the list of seats
    `_mine` notes, and the rows of a plain component there, below the top and on top (`_take_in`: the usual
    row, read without making its key))."""
    owner = z.owner
    owner_sees, others_see = z.visibility
    varies = owner_sees != others_see
    if type(owner) is Entity:
        slot, count, on, kind = enc.slots[(z.name, "on")], None, owner, OTHER
    else:
        key = (z.name, owner)
        slot, count, on = enc.slots[key], enc.at_counts + enc.counted[key], None
        if not varies:
            kind = DARK if owner_sees == "none" else OPEN if owner_sees == "all" else OTHER
        else:
            kind = MINE if owner is not None and owner_sees == "all" and others_see == "none" else OTHER
    plain = (enc.row(slot, 0.0, False, False, 0, None), enc.row(slot, 0.0, True, False, 0, None)) if kind == OPEN or kind == MINE \
        else None
    found = live.info[z] = (slot, count, owner_sees, others_see, varies, on, kind, others_see,
                            owner if type(owner) is int else None, [owner], plain)
    return found


def _holder_of(z):
    """The seat whose view of a zone is its owner's (None: nobody's)."""
    owner = z.owner
    return holder(owner) if type(owner) is Entity else owner


def _seats_apart(e, live: _Live) -> tuple:
    """The seats that may see `e` otherwise than the spectator: the one it was shown to (or who still knows
    it face down), and the holder of its zone where owner and others see that zone differently."""
    seen_by = e.seen_by
    out = (seen_by,) if seen_by is not None and seen_by >= 0 else _NONE
    z = e.zone
    if z is not None:
        info = live.info.get(z)
        if info is None or info[4]:
            who = _holder_of(z)
            if who is not None and who not in out:
                out += (who,)
    return out


def _under(e, viewer) -> int:
    """How many components lying in the zones on `e` `viewer` cannot see."""
    n = 0
    for y in e.zones.values():
        for x in y.items:
            if not can_see(x, viewer):
                n += 1
    return n


def _carry(e, ents: dict, loaded: set) -> None:
    """What lies on a component that moved or changed: rewritten with it (whose it is, and whether the
    component it lies on is seen, may have changed)."""
    for z in e.zones.values():
        for x in z.items:
            if x not in ents:
                ents[x] = None
                if x in loaded:
                    _carry(x, ents, loaded)


def _seen_in(z, mode: str, player, specials) -> int:
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


DARK, OPEN, MINE, OTHER = range(4)  # kinds of zones: nobody sees in; all see in; only its owner does; any other


def _take_in(enc, live: _Live, state) -> None:
    """The rows of the components noted, and the counts of the zones noted, in the base and in the seats'
    differences. Most components lie face up in a zone of the game or of a player that all, none or only its
    owner see into, and nothing lies on them: their rows are written straight from the zone's kind; the others
    go through the view (`_row`)."""
    ents, zones = live.ents, live.zones
    live.ents, live.zones = {}, {}
    zones.pop(None, None)
    specials, special_at, loaded, tops, infos = live.specials, live.special_at, live.loaded, live.tops, live.info
    # components lying face down or shown to someone, counted by the view: kept per zone
    for e in ents:
        if e.face_down or e.seen_by is not None or e in special_at:
            _special(live, e, zones)
    # per zone: how many of its components the spectator and each seat cannot see; its old and new tops (their
    # `top` flag, and in a zone showing its top whether they are seen); the component it lies on (its `under`)
    mv, seat_values, value_seats = live.mv, live.values, live.value_seats
    for z in zones:
        info = infos.get(z)
        if info is None:
            info = _zone(enc, live, z)
        items = z.items
        top = items[0] if items else None
        old = tops.get(z)
        kind = info[6]
        sp = specials.get(z)
        if old is not top:
            tops[z] = top
            if kind != DARK or sp:  # in the dark, a top shows nothing
                if old is not None:
                    ents[old] = None
                if top is not None:
                    ents[top] = None
        place = info[1]
        if place is None:  # a zone on a component: counted in its row (`under`)
            ents[z.owner] = None
            loaded.add(z.owner)
            continue
        if sp or kind == OTHER:
            _count(enc, live, z, info, place, sp)
        elif kind == MINE:  # its owner sees them all
            mv[place] = len(items) * enc.count_scale
            if value_seats.get(place) is not info[9]:
                _mine(live, info, place)
        else:
            mv[place] = len(items) * enc.count_scale if kind == DARK else 0.0
            if place in value_seats:  # seats that counted otherwise while something was face down or shown
                for s in value_seats.pop(place):
                    del seat_values[s][place]
    if loaded:
        for e in loaded.intersection(ents):
            _carry(e, ents, loaded)
    # the rows
    rows_at, var_places, row = enc.rows, enc.var_places, enc.row
    unseen, w4 = enc.unseen_row, 4 * enc.width
    bb, seat_rows, row_seats = live.bytes, live.rows, live.row_seats
    for e in ents:
        at = 4 * rows_at[e.id]
        if at in row_seats:
            for s in row_seats.pop(at):
                del seat_rows[s][at]
        z = e.zone
        if z is None:
            bb[at:at + w4] = unseen
            continue
        info = infos.get(z)
        if info is None:
            info = _zone(enc, live, z)
        kind = info[6]
        if kind == OTHER or e.face_down or e.seen_by is not None or e in loaded:
            _row(enc, live, e, z, info, at)
        elif kind == DARK:
            bb[at:at + w4] = unseen
        else:
            found = var_places.get(e.kind)
            if found is None:  # no variables: one of the zone's two plain rows
                mine = info[10][z.items[0] is e]
            else:
                try:
                    raw = found[0](e.vars)
                except KeyError:  # a variable not set: none
                    raw = tuple(e.vars.get(name) for name in found[2])
                mine = row(info[0], 0.0, z.items[0] is e, False, 0, (found[1], raw))
            if kind == OPEN:
                bb[at:at + w4] = mine
            else:  # MINE: its owner's alone
                bb[at:at + w4] = unseen
                seat_rows[info[8]][at] = mine
                row_seats[at] = (info[8],)
    # the variables of the game and the players, where they differ from what the base shows
    if live.variables:
        live.variables = False
        _variables(enc, live, state)


def _special(live: _Live, e, zones: dict) -> None:
    """Note a component lying face down or shown to someone (or no longer so) with its zone, whose counts
    then ask the view."""
    specials, special_at = live.specials, live.special_at
    z = e.zone
    special = z is not None and (e.face_down or e.seen_by is not None)
    was = special_at.get(e)
    if was is not z:
        if was is not None:
            specials[was].discard(e)
            zones[was] = None
        if special:
            special_at[e] = z
            specials.setdefault(z, set()).add(e)
        else:
            del special_at[e]
    if z is not None:
        zones[z] = None  # its face, or who it is shown to, may have changed


def _variables(enc, live: _Live, state) -> None:
    mv = live.mv
    now = _values(enc, state)
    was = live.shown or [None] * len(now)
    live.shown = now
    for part, (values, old) in enumerate(zip(now, was)):
        if values == old:
            continue
        if part == 0:
            at, types = enc.at_vars, enc.game_vars
        else:
            at, types = enc.at_vars + len(enc.game_vars) + (part - 1) * len(enc.player_vars), enc.player_vars
        for k, x in enumerate(values):
            if old is None or x != old[k] or type(x) is not type(old[k]):
                mv[at + k] = number(x, types[k][1])


def _row(enc, live: _Live, e, z, info: tuple, at: int) -> None:
    """A component's row through the view: as the spectator sees it in the base, and for the few seats that
    may see it otherwise (`_seats_apart`: of it, of the component it lies on, of what lies on it) where
    they do."""
    loaded, on_of, row, unseen = live.loaded, enc.on, enc.row, enc.unseen_row
    face = e.face_down
    top = z.items[0] is e
    found = enc.var_places.get(e.kind)
    values = None
    if found is not None:
        try:
            raw = found[0](e.vars)
        except KeyError:  # a variable not set: none
            raw = tuple(e.vars.get(name) for name in found[2])
        values = (found[1], raw)
    on_entity = info[5]
    if can_see(e, None):
        on = 0.0 if on_entity is None else (on_of[on_entity.id] if can_see(on_entity, None) else ON_HIDDEN)
        spectator = row(info[0], on, top, face, _under(e, None) if e in loaded else 0, values)
    else:
        spectator = unseen
    live.bytes[at:at + 4 * enc.width] = spectator
    apart = _seats_apart(e, live)
    if on_entity is not None:
        apart += tuple(s for s in _seats_apart(on_entity, live) if s not in apart)
    if e in loaded:
        for y in e.zones.values():
            for x in y.items:
                apart += tuple(s for s in _seats_apart(x, live) if s not in apart)
    differ = []
    for s in apart:
        if can_see(e, s):
            on = 0.0 if on_entity is None else (on_of[on_entity.id] if can_see(on_entity, s) else ON_HIDDEN)
            mine = row(info[0], on, top, face, _under(e, s) if e in loaded else 0, values)
        else:
            mine = unseen
        if mine != spectator:
            live.rows[s][at] = mine
            differ.append(s)
    if differ:
        live.row_seats[at] = differ


def _count(enc, live: _Live, z, info: tuple, place: int, sp) -> None:
    """How many of a zone's components the spectator cannot see, and each seat that may count otherwise (its
    owner, and those its face-down or shown components are known to)."""
    had = live.value_seats.pop(place, None)
    if had is not None:
        for s in had:
            del live.values[s][place]
    size = len(z.items)
    spectator = size - _seen_in(z, info[7], None, sp)
    live.mv[place] = spectator * enc.count_scale
    apart = (info[8],) if info[4] and info[8] is not None else ()
    if sp:
        for x in sp:
            if x.seen_by is not None and x.seen_by >= 0 and x.seen_by not in apart:
                apart += (x.seen_by,)
    differ = []
    for s in apart:
        mode = info[2] if info[4] and info[8] == s else info[3]
        mine = size - _seen_in(z, mode, s, sp)
        if mine != spectator:
            live.values[s][place] = single(mine * enc.count_scale)  # as a float32 tensor holds it (`wide` too)
            differ.append(s)
    if differ:
        live.value_seats[place] = differ


def _mine(live: _Live, info: tuple, place: int) -> None:
    """A zone only its owner sees into, with nothing face down or shown: its owner sees all of it (0 unseen),
    noted with the zone's own list of seats (`info[9]`), by which the next change knows it is so."""
    had = live.value_seats.pop(place, None)
    if had is not None:
        for s in had:
            del live.values[s][place]
    live.values[info[8]][place] = 0.0
    live.value_seats[place] = info[9]


def getter(names: list):
    """The values of these variables in a dict of them, at once (`operator.itemgetter`), as a tuple; a
    variable not set raises KeyError (`_values` then reads them one by one)."""
    if not names:
        return lambda d: ()
    if len(names) == 1:
        return lambda d, name=names[0]: (d[name],)
    return itemgetter(*names)


def _values(enc, state) -> list:
    """The game's and the players' variables as part 3 shows them, as they are (compared before writing)."""
    try:
        return [enc.game_getter(state.game_vars)] + [enc.seat_getter(pv) for pv in state.player_vars]
    except KeyError:  # a variable not set (yet): none
        game = tuple(state.game_vars.get(name) for name, _ in enc.game_vars)
        return [game] + [tuple(pv.get(name) for name, _ in enc.player_vars) for pv in state.player_vars]


def single(x: float) -> float:
    """`x` rounded to float32, as a float32 tensor holds it."""
    return float(np.float32(x))


def number(value, t: tuple) -> float:
    """A variable's value in the tensor (`t`: its type, factor and clipping, `encoding._scale`): yes/no as 1/0, a
    player as (1 + its seat) / the most players, a number times its factor (within [-1, 1] when clipped), none as 0."""
    if value is None or isinstance(value, Entity):
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        kind, factor, clip = t
        x = (1 + value) * factor if kind == "player" else value * factor
        return max(-1.0, min(1.0, x)) if clip else float(x)
    return 0.0
