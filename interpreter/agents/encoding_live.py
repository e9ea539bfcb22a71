"""The observation tensor of `encoding.Encoder` kept up to date along one session, for bots reading it at
every step: rebuilding it over every component costs several times the engine's own step.

The runtime tells its move watchers about each move and its change watchers about every other change a row
can show (a component's variable set, a shuffle, a reveal, `show`, a supposed move undone). Those are logged;
each player's tensor keeps its place in the log and, when read, rewrites only the rows of the components
named there, of everything lying in a zone named there (places and `top` visibility shift), of everything
lying on such a component (who holds it, whether its holder is seen), and of the components the zones they
leave or enter lie on (`under`). The per-zone counts of unseen components are kept by remembering where each
one was counted. Variables of the game and the seats and the pending decision are few: rewritten each time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

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
    counted: dict  # id(component) -> its place in part 2 where it is counted as unseen
    seen: dict  # id -> id(its zone), of the components whose rows say they are seen
    shown: dict  # id(zone) -> how many of `seen` lie there (a zone showing none of them needs no places)
    variables: int  # `_Live.variables` when part 3 was written
    values: list | None = None  # the variables' values part 3 shows (None: not noted yet)
    slots: dict = field(default_factory=dict)  # id(zone) -> its slot in a row, for this observer (computed once)
    marks: list = field(default_factory=list)  # the places part 4 holds a non-zero at


@dataclass
class _Live:
    log: list = field(default_factory=list)  # components and zones changed, in order
    seats: dict = field(default_factory=dict)  # player -> _Seat
    variables: int = 0  # how many times variables of the game or the players changed

    def moved(self, e, old, new) -> None:
        self.log.append(e)
        if old is not None:
            self.log.append(old)
        self.log.append(new)

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
        ids: set = set()
        counted: dict = {}
        out = enc.encode(state, player, decision, to_act, picked, seen=ids, unseen_at=counted)
        entities = state.entities
        seen = {eid: id(entities[eid].zone) for eid in ids}
        shown: dict = {}
        for z in seen.values():
            shown[z] = shown.get(z, 0) + 1
        live.seats[player] = _Seat(out, memoryview(out), len(live.log), picked_ids, counted, seen, shown,
                                   live.variables, marks=[at for at, _ in enc.marks(player, decision, to_act, picked)])
        return out.copy()
    out = seat.out
    log = live.log
    rows: dict = {}  # id -> component whose row is rewritten
    if seat.cursor < len(log):
        expanded: set = set()
        places: list = []  # zones whose unchanged items may have changed place
        seen = seat.seen
        ctx = (player, seen, places)
        for x in dict.fromkeys(log[seat.cursor:]):  # each once: a step moves the same few things many times
            if type(x) is not Entity:
                _add_zone(x, rows, expanded, ctx)
            elif x.zones and x.zone is not None and seen.get(x.id) == id(x.zone) and can_see(x, player):
                # seen where it was seen before (a variable set, turned, reordered): what lies on it reads
                # the same (its holder and whether it is seen are those of this component, unchanged)
                rows[id(x)] = x
                if type(x.zone.owner) is Entity:
                    rows[id(x.zone.owner)] = x.zone.owner
            else:
                _add_entity(x, rows, expanded, ctx)
        if places:
            _replace(enc, seat.mv, places, rows, seat)
    for eid in seat.picked ^ picked_ids:
        e = state.entities.get(eid)
        if e is not None:
            rows[id(e)] = e
    seat.picked = picked_ids
    seat.cursor = len(log)
    if rows:
        _rewrite(enc, seat.mv, seat, player, rows.values(), picked_ids)
    variables = seat.variables != live.variables
    if variables:
        seat.variables = live.variables
        gv, pvs = state.game_vars, state.player_vars
        values = [gv.get(name) for name, _ in enc.game_vars] + [pv.get(name) for pv in pvs for name, _ in enc.player_vars]
        old = seat.values
        if old is not None:  # only those that changed (mostly one or two) are written again
            _variables(enc, seat.mv, player, values, old)
            variables = False
        seat.values = values
    if variables:
        enc.tail(out, state, player, None, None, (), True)
    mv = seat.mv
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
    return out.copy()


def _variables(enc, out: memoryview, player: int, values: list, old: list) -> None:
    """Part 3 where the game's and the players' variables (`values`, seats in order) differ from `old`."""
    g, p, n = len(enc.game_vars), len(enc.player_vars), enc.players
    for i, (x, y) in enumerate(zip(values, old)):
        if x != y or type(x) is not type(y):
            if i < g:
                out[enc.at_vars + i] = number(x, enc.game_vars[i][1], player, n)
            else:
                seat, k = divmod(i - g, p)
                out[enc.at_vars + g + ((seat - player) % n) * p + k] = number(x, enc.player_vars[k][1], player, n)


def _add_entity(e, rows: dict, expanded: set, ctx) -> None:
    """A component that changed itself (moved, turned, a variable): its row, and those of everything lying
    on it (their holder, and whether the component they lie on is seen, may change with it)."""
    if id(e) in expanded:
        return
    expanded.add(id(e))
    rows[id(e)] = e
    zone = e.zone
    if zone is not None and type(zone.owner) is Entity:
        rows[id(zone.owner)] = zone.owner  # its count of unseen components on it
    if e.zones:
        for z in e.zones.values():
            if z.items:
                _add_zone(z, rows, expanded, ctx, True)


def _add_zone(z, rows: dict, expanded: set, ctx, held: bool = False) -> None:
    """A zone whose items changed (or, `held`, whose holder may have): the rows of its items that may read
    differently now. Where its mode for the player is `top`, which one is seen may have changed: the top one
    and those seen before are rewritten. Otherwise an item that did not change itself reads the same but for
    its place (`depth`, only shown when seen): noted in `places` (one that moved is in the log itself)."""
    key = (id(z), held)
    if key in expanded:
        return
    expanded.add(key)
    if type(z.owner) is Entity:
        rows[id(z.owner)] = z.owner
    player, seen, places = ctx
    if held:
        for x in z.items:
            _add_entity(x, rows, expanded, ctx)
        return
    if _mode(z, player) == "top":
        for k, x in enumerate(z.items):
            if k == 0 or x.id in seen:
                _add_entity(x, rows, expanded, ctx)
        return
    places.append(z)


def _mode(zone, player: int) -> str:
    """`views.sees_into`'s answer for the face-up items of a zone: all, the top one, or none."""
    owner_sees, others_see = zone.visibility
    if owner_sees == others_see:
        return owner_sees
    owner = zone.owner if not isinstance(zone.owner, Entity) else holder(zone.owner)
    return owner_sees if owner == player else others_see


def _replace(enc, out: memoryview, zones: list, rows: dict, seat: _Seat) -> None:
    """The place of each seen item of these zones whose row is not rewritten whole."""
    index, width, at = enc.index, enc.width, enc.zone_width + 1
    seen, shown = seat.seen, seat.shown
    done: set = set()
    for z in zones:
        if id(z) in done:
            continue
        done.add(id(z))
        if not shown.get(id(z)):  # nothing seen there (a hidden deck): no place to write
            continue
        items = z.items
        size = len(items)
        for k, x in enumerate(items):
            if x.id in seen and id(x) not in rows:
                out[index[x.id] * width + at] = k / size


def _where_counted(enc, e, player: int):
    """Where an unseen component is counted in part 2 (None: nowhere, or in its holder's `under`)."""
    zone = e.zone
    if zone is None:
        return None
    owner = zone.owner
    if type(owner) is Entity:
        return None
    key = (zone.name, None) if owner is None else (zone.name, (owner - player) % enc.players)
    return enc.at_counts + enc.counted[key]


def _rewrite(enc, out: memoryview, seat: _Seat, player: int, entities, picked_ids) -> None:
    """The rows of these components as `Encoder.encode` writes them, and their part in the unseen counts."""
    n, width, index, slots, zw = enc.players, enc.width, enc.index, enc.slots, enc.zone_width
    N = len(enc.ids)
    counted, seen, shown = seat.counted, seat.seen, seat.shown
    zero = enc.zero_row
    evars = [(zw + 5 + j, name, t) for j, (name, t) in enumerate(enc.entity_vars)]
    zslots = seat.slots
    places: dict = {}
    for e in entities:
        row = index[e.id] * width
        out[row:row + width] = zero
        was = counted.pop(id(e), None)
        if was is not None:
            out[was] -= 1.0
        was = seen.pop(e.id, None)
        if was is not None:
            shown[was] -= 1
        if not can_see(e, player):
            out[row] = 1.0
            at = _where_counted(enc, e, player)
            if at is not None:
                counted[id(e)] = at
                out[at] += 1.0
            continue
        zone = e.zone
        seen[e.id] = id(zone)
        shown[id(zone)] = shown.get(id(zone), 0) + 1
        owner = zone.owner
        slot = zslots.get(id(zone))
        if slot is None:
            if type(owner) is Entity:
                slot = slots[(zone.name, "on")]
            elif owner is None:
                slot = slots[(zone.name, None)]
            else:
                slot = slots[(zone.name, (owner - player) % n)]
            zslots[id(zone)] = slot
        if type(owner) is Entity:
            out[row + zw] = (1 + index[owner.id]) / N if can_see(owner, player) else -1.0
        items = zone.items
        if len(items) < 16:
            place = items.index(e)
        else:
            found = places.get(id(zone))
            if found is None:
                found = places[id(zone)] = {id(x): k for k, x in enumerate(items)}
            place = found[id(e)]
        out[row + slot] = 1.0
        out[row + zw + 1] = place / len(items)
        if e.face_down:
            out[row + zw + 2] = 1.0
        if e.id in picked_ids:
            out[row + zw + 3] = 1.0
        if e.zones:
            under = 0
            for z in e.zones.values():
                for x in z.items:
                    if not can_see(x, player):
                        under += 1
            out[row + zw + 4] = float(under)
        v = e.vars
        if v:
            for at, name, t in evars:
                x = v.get(name)
                if x is not None and x is not False and x != 0:
                    out[row + at] = number(x, t, player, n)


def number(value, t: str, player: int, n: int) -> float:
    """Numbers as they are, yes/no as 1/0, a player as 1 + its seat counted from the observer, none as 0."""
    if value is None or isinstance(value, Entity):
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        return float(1 + (value - player) % n) if t == "player" else float(value)
    return 0.0
