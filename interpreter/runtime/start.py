"""A game's state before its start procedure runs: every component in its starting zone, every variable at
its initial value.

It is the same for every game of one player count and variants but for the seed, so it is built once
(`build_state`, kept on the compiled game) and each game gets a copy (`new_state`): making a component
afresh reads its record and its kind's variables, which is most of the cost of starting a game.
"""
from __future__ import annotations

import random

from interpreter.codegen import CompiledGame
from interpreter.codegen.chance import Chance
from interpreter.core.state import Entity, State, Zone
from interpreter.runtime.lazyzones import ComponentZones

# What a State holds; a template with any other attribute is not copied but built again (so that a field
# added to State later is never shared between games by mistake).
_KNOWN = frozenset({"voc", "players", "seed", "variants", "rng", "chance", "entities", "by_record", "game_zones", "player_zones",
                    "game_vars", "player_vars", "finished", "winners", "lang", "translations", "_entity_vars",
                    "_vars_of_kind", "_entity_zones"})


def new_state(game: CompiledGame, players: int, seed: int, variants=()) -> State:
    key = (players, tuple(variants))
    found = game.start_states.get(key)
    if found is None:
        template = build_state(game, players, 0, variants)
        found = game.start_states[key] = (template, _plan(template) if _KNOWN.issuperset(template.__dict__) else None)
    template, plan = found
    if plan is None:
        return build_state(game, players, seed, variants)
    return _copy_start(template, plan, seed)


def _plan(t: State) -> tuple:
    """What a copy of the template must do beyond the plain case: components whose variables hold lists or
    maps, whose records' attributes name components, on which components lie; and, per component, what its
    copy is made of (so that the copy, done for every game, reads no more than it must)."""
    deep_vars = frozenset(eid for eid, e in t.entities.items() if not _plain(e.vars))
    named = tuple((eid, keys) for eid, keys in ((eid, tuple(k for k, x in e.attrs.items() if _names(x)))
                                                for eid, e in t.entities.items()) if keys)
    loaded = tuple(eid for eid, e in t.entities.items() if any(z.items for z in e.zones.values()))
    specs: dict = {}  # one tuple for all the components with the same zones
    parts = tuple((eid, e.record_id, e.kind, e.attrs, e.vars if e.vars else None, eid in deep_vars,
                   _zone_specs(e, eid in loaded, specs)) for eid, e in t.entities.items())
    return deep_vars, named, loaded, parts


def _zone_specs(e: Entity, loaded: bool, specs: dict):
    """A component's zones as its copies get them: ((name, visibility), ...) to be made when first read
    (runtime.lazyzones), or a list of (key, name, visibility) made at once (something lies in one of them)."""
    found = tuple((k, z.name, z.visibility) for k, z in e.zones.items())
    if loaded or any(k != name for k, name, _ in found):
        return list(found)
    lazy = tuple((name, visibility) for _, name, visibility in found)
    return specs.setdefault(lazy, lazy)


def build_state(game: CompiledGame, players: int, seed: int, variants=()) -> State:
    content = game.content
    voc = content.vocabulary
    state = State(voc, players, seed, tuple(variants))
    state.chance = Chance()
    state.translations = content.translations
    entity_attrs = [name for name, t in voc.attributes.items() if t in ("entity", "list[entity]")]
    for eid, rec in content.entity_ids.items():
        state.add_entity(eid, rec.id, rec.data)
    if entity_attrs:
        converted = {}
        for e in state.entities.values():
            attrs = converted.get(e.record_id)
            if attrs is None:
                attrs = dict(e.attrs)
                for name in entity_attrs:
                    v = attrs.get(name)
                    if isinstance(v, list):
                        attrs[name] = [state.entities[x] for x in v]
                    elif isinstance(v, str):
                        attrs[name] = state.entities[v]
                converted[e.record_id] = attrs
            e.attrs = attrs
    for e in state.entities.values():
        state.place(e, state.zone(voc.kinds[e.kind].starts_in))
    return state


def _copy_start(t: State, plan: tuple, seed: int) -> State:
    """The template's copy: new components, zones and variables; records' attributes shared (never
    changed in play), those naming components mapped to the copy's."""
    new = State.__new__(State)
    new.__dict__.update(t.__dict__)
    new.seed = seed
    new.rng = random.Random(seed)
    new.chance = Chance()
    new.finished = False
    new.winners = []
    deep_vars, named_attrs, loaded, parts = plan
    entities = {}
    new_entity = Entity.__new__
    new_zone = Zone.__new__
    new_dict = dict.__new__
    for eid, record_id, kind, attrs, variables, deep, zone_parts in parts:
        n = new_entity(Entity)
        n.id = eid
        n.record_id = record_id
        n.kind = kind
        n.attrs = attrs
        n.face_down = False
        n.seen_by = None
        n.zone = None
        n.vars = {} if variables is None else ({k: _fresh(x) for k, x in variables.items()} if deep else variables.copy())
        if type(zone_parts) is tuple:
            if zone_parts:  # ComponentZones.of(n, zone_parts), inline: a call for each component of every game
                lazy = n.zones = new_dict(ComponentZones)
                lazy.owner = n
                lazy.specs = zone_parts
            else:
                n.zones = {}
        else:
            zones = {}
            for k, name, visibility in zone_parts:
                nz = new_zone(Zone)
                nz.name = name
                nz.owner = n
                nz.visibility = visibility
                nz.items = []
                nz.stamp = 0
                nz.memo = None
                zones[k] = nz
            n.zones = zones
        entities[eid] = n
    new.entities = entities
    for eid in loaded:  # nothing lies on a component before setup, as a rule; but if it does
        for k, z in t.entities[eid].zones.items():
            if z.items:
                nz = entities[eid].zones[k]
                nz.items = [entities[x.id] for x in z.items]
                for x in nz.items:
                    x.zone = nz
    named: dict = {}  # id of a template record's attributes -> the copy's (shared by a record's components)
    for eid, keys in named_attrs:
        a = t.entities[eid].attrs
        mapped = named.get(id(a))
        if mapped is None:
            mapped = named[id(a)] = dict(a)
            for k in keys:
                mapped[k] = _mapped(a[k], entities)
        entities[eid].attrs = mapped

    def zone(z: Zone) -> Zone:
        nz = new_zone(Zone)
        nz.name, nz.owner, nz.visibility, nz.stamp, nz.memo = z.name, z.owner, z.visibility, 0, None
        nz.items = [entities[e.id] for e in z.items]
        for e in nz.items:
            e.zone = nz
        return nz

    new.game_zones = {k: zone(z) for k, z in t.game_zones.items()}
    new.player_zones = {k: [zone(z) for z in zs] for k, zs in t.player_zones.items()}
    new.game_vars = {k: _fresh(x) for k, x in t.game_vars.items()}
    new.player_vars = [{k: _fresh(x) for k, x in pv.items()} for pv in t.player_vars]
    return new


def _names(x) -> bool:
    """Does an attribute's value name components?"""
    return type(x) is Entity or (type(x) is list and any(type(y) is Entity for y in x))


def _plain(v: dict) -> bool:
    return all(type(x) is not list and type(x) is not dict for x in v.values())


def _fresh(x):
    return list(x) if type(x) is list else (dict(x) if type(x) is dict else x)


def _mapped(x, entities: dict):
    if type(x) is Entity:
        return entities[x.id]
    if type(x) is list:
        return [entities[y.id] if type(y) is Entity else y for y in x]
    return x
