"""A copy of a game in progress (`Session.copy`) shares nothing that play writes with its original.

A copy leaves the zones of a component unmade where the original's are all empty, and shares the record
attributes that name no component (runtime.snapshot): here, over random King's Bounty, B'Twixt and AGoT
games, every component's variables, face and place, every zone (those on components too) and the game's and
players' variables are written in the copy, and the original reads exactly as before; then the same in the
original, and the copy reads as before. No component or zone the copy reaches is one of the original's.
"""
from __future__ import annotations

import random

import pytest

from interpreter.core.state import Entity, Zone
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled

GAMES = [("kings_bounty", 2), ("btwixt", 4), ("agot", 3)]


def _played(game, players: int, seed: int, steps: int) -> Session:
    s = Session(game, players, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.pending is None:
            break
        s.answer(rng.randrange(len(s.pending.values)))
    return s


def _zones_of(e: Entity) -> list:
    return list(dict.values(e.zones))  # the zones made, without making the others


def _fingerprint(s: Session) -> tuple:
    """Everything play writes, by ids: each component's variables, face, who saw it, where it lies and what lies
    on it, every zone holding something (with its stamp), the variables, the RNG. (An empty zone reads as an
    unmade one: a copy leaves them unmade.)"""
    state = s.state
    ents = tuple((e.id, repr(e.vars), e.face_down, e.seen_by, e.zone.key if e.zone is not None else None,
                  tuple((z.key, z.stamp, tuple(x.id for x in z.items)) for z in _zones_of(e) if z.items))
                 for e in state.entities.values())
    zones = tuple((z.key, z.stamp, tuple(x.id for x in z.items)) for z in state.all_zones() if z.items)
    return ents, zones, repr(state.game_vars), repr(state.player_vars), state.rng.getstate()


def _reached(s: Session) -> list:
    """The components and zones a table reaches: its own, where they lie, what lies on them, the values of
    variables and the attributes naming components."""
    out = []
    state = s.state

    def walk(v):
        if isinstance(v, (Entity, Zone)):
            out.append(v)
        elif isinstance(v, (list, tuple, set)):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(k)
                walk(x)

    for e in state.entities.values():
        out.append(e)
        if e.zone is not None:
            out.append(e.zone)
        out.extend(_zones_of(e))
        for z in _zones_of(e):
            out.extend(z.items)
        walk(e.vars)
        walk(e.attrs)
    for z in state.all_zones():
        out.append(z)
        out.extend(z.items)
    walk(state.game_vars)
    walk(state.player_vars)
    return out


def _scribble(s: Session, rng: random.Random) -> None:
    """Write everywhere play writes, on this table only: variables, faces, places (into zones on components,
    made here if they were not), the game's and players' variables, the RNG."""
    state = s.state
    ents = list(state.entities.values())
    for e in ents:
        for k in list(e.vars):
            e.vars[k] = ("written", k)
        e.face_down = not e.face_down
        e.seen_by = 7
    carriers = [e for e in ents if type(e.zones) is not dict or e.zones]  # components with zones of their own
    for e in rng.sample(ents, min(20, len(ents))):
        targets = list(state.all_zones())
        if carriers:
            owner = rng.choice(carriers)
            if owner is not e:
                targets.append(rng.choice(list(owner.zones.values())))  # reading them makes them
        state.place(e, rng.choice(targets))
    for k in list(state.game_vars):
        state.game_vars[k] = ("written", k)
    for pv in state.player_vars:
        for k in list(pv):
            pv[k] = ("written", k)
    state.rng.random()


@pytest.mark.parametrize("name, players", GAMES)
def test_writes_in_a_copy_or_its_original_stay_there(name, players):
    game = load_compiled(name)
    rng = random.Random(17)
    for seed in (3, 4):
        base = _played(game, players, seed, rng.randrange(20, 120))
        # reading one component's zones (made, empty): the copy leaves them unmade
        for e in list(base.state.entities.values())[:5]:
            e.zones.get("no such zone")
        copy = base.copy()
        mine = {id(x) for x in _reached(base)}
        assert not [x for x in _reached(copy) if id(x) in mine]  # nothing of the original's in the copy
        before, theirs = _fingerprint(base), _fingerprint(copy)
        assert before == theirs  # (the copy reads as its original)
        _scribble(copy, rng)
        assert _fingerprint(base) == before
        assert _fingerprint(copy) != before
        other = base.copy()
        _scribble(base, rng)
        assert _fingerprint(other) == before


def test_a_value_naming_an_unmade_zone_names_the_copys_own():
    """A suspended value (here a game variable) naming a zone on a component whose zones the copy left unmade:
    the copy makes them, and the value names the copy's zone, where a write stays in the copy."""
    game = load_compiled("agot")
    s = _played(game, 3, 5, 30)
    state = s.state
    carrier = next(e for e in state.entities.values()
                   if e.zone is not None and all(not z.items for z in e.zones.values()) and e.zones)
    name, zone = next(iter(carrier.zones.items()))
    zone.stamp = 4
    state.game_vars["probe"] = [zone]
    copy = s.copy()
    theirs = copy.state.game_vars["probe"][0]
    mate = copy.state.entities[carrier.id]
    assert theirs is not zone and theirs is mate.zones[name] and theirs.owner is mate and theirs.stamp == 4
    loose = next(e for e in copy.state.entities.values() if e.zone is not None and e is not mate)
    copy.state.place(loose, theirs)
    assert not zone.items and [x.id for x in theirs.items] == [loose.id]
