"""Game state as plain data: entities with ids, ordered zones, variables, the seeded RNG.

Runtime values are ints for players, Entity objects for components, and plain Python
data otherwise; `to_json` turns all of it into JSON and `State.from_json` back.
"""
from __future__ import annotations

import hashlib
import json
import random

from dsl.vocabulary import Vocabulary


class Entity:
    __slots__ = ("id", "record_id", "kind", "attrs", "vars", "zone", "face_down", "seen_by", "zones")

    def __init__(self, eid: str, record_id: str, attrs: dict, variables: dict):
        self.id = eid
        self.record_id = record_id
        self.kind = attrs["kind"]
        self.attrs = attrs
        self.vars = variables
        self.zone: Zone | None = None
        self.face_down = False
        # who still knows a face-down card (whoever held it), who was shown one (`show X to P`), or EVERYONE
        # for a component revealed where it lies (`reveal`); until it moves
        self.seen_by: int | None = None
        self.zones: dict = {}  # entity-scoped zones, created when first used

    def __repr__(self) -> str:
        return f"@{self.id}"


EVERYONE = -1  # Entity.seen_by of a revealed component: every reader sees it where it lies


class Zone:
    __slots__ = ("name", "owner", "visibility", "items", "stamp", "memo")

    def __init__(self, name: str, owner, visibility: tuple):
        self.name = name
        self.owner = owner  # None (the game), a seat number, or an Entity
        self.visibility = visibility  # (what the owner sees, what others see): "all", "top" or "none" each
        self.items: list = []
        # bumped whenever what lies in it changes, or what lies in a zone on a component lying in it (touch):
        # a value computed from what lies there is good while the stamp stays (codegen.zone_pure)
        self.stamp = 0
        # card functions' values computed from what lies here, {key: value} (codegen.zone_pure): dropped (None)
        # whenever the stamp moves, so a value found is good without comparing stamps; part of no copy of the state
        self.memo = None

    @property
    def key(self) -> str:
        if self.owner is None:
            return self.name
        if isinstance(self.owner, Entity):
            return f"{self.name}@{self.owner.id}"
        return f"{self.name}#{self.owner}"

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item) -> bool:
        return item in self.items

    def __repr__(self) -> str:
        return f"<zone {self.key}>"


def touch(zone) -> None:
    """What lies in `zone` changed: its stamp and those of the zones it lies in (through components) move on."""
    seen = 0
    while zone is not None and seen < 64:
        zone.stamp += 1
        zone.memo = None
        owner = zone.owner
        if type(owner) is not Entity:
            return
        zone = owner.zone
        seen += 1


def holder(entity) -> int | None:
    """The player in front of whom an entity lies now: the owner of its zone, through stacked cards."""
    seen = 0
    while entity is not None and seen < 64:
        zone = entity.zone
        if zone is None:
            return None
        owner = zone.owner
        if owner is None or isinstance(owner, int):
            return owner
        entity = owner
        seen += 1
    return None


def shuffle_items(rng: random.Random, x: list) -> None:
    """`rng.shuffle(x)`: for a plain random.Random the same draws in the same order (its `_randbelow` by
    getrandbits, inline), without a Python call per element (a deck is shuffled every season, round or game)."""
    if type(rng) is not random.Random:  # a generator of its own kind (a bot's dealer) shuffles its own way
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


class State:
    def __init__(self, voc: Vocabulary, players: int, seed: int, variants: tuple = ()):
        self.voc = voc
        self.players = players
        self.seed = seed
        self.variants = tuple(variants)
        self.rng = random.Random(seed)
        self.chance = None  # the record of the draws and what gives them (interpreter.codegen.chance.Chance)
        self.entities: dict[str, Entity] = {}
        self.game_zones: dict[str, Zone] = {}
        self.player_zones: dict[str, list] = {}
        self.game_vars: dict = {}
        self.player_vars: list = [dict() for _ in range(players)]
        self.finished = False
        self.winners: list = []
        # how the game reads to people (interpreter.present.words): not part of the game's state
        self.lang = voc.languages[0]
        self.translations = None  # the game's dsl.translations.Translations
        for name, z in voc.zones.items():
            if z.scope == "game":
                self.game_zones[name] = Zone(name, None, z.sight)
            elif z.scope == "player":
                self.player_zones[name] = [Zone(name, p, z.sight) for p in range(players)]
        for name, v in voc.variables.items():
            if v.scope == "game":
                self.game_vars[name] = _copy(v.initial)
            elif v.scope == "player":
                for pv in self.player_vars:
                    pv[name] = _copy(v.initial)
        self._entity_vars = [v for v in voc.variables.values() if v.scope == "entity"]
        self._vars_of_kind: dict = {}  # kind -> (the entity variables its components have, their plain initial values)
        self._entity_zones = [(name, z.sight) for name, z in voc.zones.items() if z.scope == "entity"]

    # ---------------------------------------------------------------- building
    def add_entity(self, eid: str, record_id: str, attrs: dict) -> Entity:
        """A component with its entity variables: those declared for its kind, at their initial values."""
        kind = attrs["kind"]
        own = self._vars_of_kind.get(kind)
        if own is None:
            vars_ = [v for v in self._entity_vars if not v.kinds or kind in v.kinds]
            # the common case, plain initial values, is a copy of one prepared dict
            plain = all(v.initial_from is None and not isinstance(v.initial, (list, dict)) for v in vars_)
            own = self._vars_of_kind[kind] = (vars_, {v.name: v.initial for v in vars_} if plain else None)
        vars_, template = own
        if template is not None:
            variables = template.copy()
        else:
            variables = {v.name: _copy(attrs.get(v.initial_from, v.initial) if v.initial_from else v.initial) for v in vars_}
        e = Entity(eid, record_id, attrs, variables)
        # every component has each entity-scoped zone from the start, so rules read them without a check
        e.zones = {name: Zone(name, e, visibility) for name, visibility in self._entity_zones}
        self.entities[eid] = e
        return e

    @property
    def by_record(self) -> dict:
        """record id -> its components, in the order they were made (made when asked: nothing keeps it)."""
        out: dict = {}
        for e in self.entities.values():
            out.setdefault(e.record_id, []).append(e)
        return out

    def zone(self, name: str, owner=None) -> Zone:
        if owner is None:
            return self.game_zones[name]
        if isinstance(owner, Entity):
            z = owner.zones.get(name)
            if z is None:
                z = owner.zones[name] = Zone(name, owner, self.voc.zones[name].sight)
            return z
        return self.player_zones[name][owner]

    def zone_by_key(self, key: str) -> Zone:
        if "@" in key:
            name, eid = key.split("@", 1)
            return self.zone(name, self.entities[eid])
        if "#" in key:
            name, seat = key.split("#", 1)
            return self.zone(name, int(seat))
        return self.zone(key)

    def all_zones(self):
        yield from self.game_zones.values()
        for zones in self.player_zones.values():
            yield from zones
        for e in self.entities.values():
            # the zones made (a component's are made when first read, interpreter.runtime.lazyzones: reading them
            # here would make them all; one never made holds nothing)
            yield from dict.values(e.zones)

    def place(self, entity: Entity, zone: Zone, at_top: bool = False) -> None:
        old = entity.zone
        if old is not None:
            old.items.remove(entity)
            touch(old)
        if at_top:
            zone.items.insert(0, entity)
        else:
            zone.items.append(entity)
        entity.zone = zone
        touch(zone)

    # ---------------------------------------------------------------- JSON
    def to_json(self) -> dict:
        return {
            "players": self.players,
            "seed": self.seed,
            "variants": list(self.variants),
            "finished": self.finished,
            "winners": list(self.winners),
            "game_vars": encode(self.game_vars),
            "player_vars": encode(self.player_vars),
            "zones": {z.key: [e.id for e in z.items] for z in self.all_zones() if z.items},
            "entities": {e.id: _entity_json(e) for e in self.entities.values()
                         if e.face_down or e.vars or e.seen_by is not None},
            "rng": _rng_json(self.rng),
        }

    @classmethod
    def from_json(cls, voc: Vocabulary, records: dict, data: dict) -> "State":
        """Rebuild a state; `records` maps entity id -> (record id, attrs) as the runtime created them."""
        state = cls(voc, data["players"], data["seed"], tuple(data["variants"]))
        for eid, (rid, attrs) in records.items():
            state.add_entity(eid, rid, attrs)
        for key, ids in data["zones"].items():
            zone = state.zone_by_key(key)
            for eid in ids:
                state.place(state.entities[eid], zone)
        for eid, info in data["entities"].items():
            e = state.entities[eid]
            e.face_down = info.get("face_down", False)
            e.seen_by = info.get("seen_by")
            e.vars.update(decode(info.get("vars", {}), state))
        state.game_vars = decode(data["game_vars"], state)
        state.player_vars = decode(data["player_vars"], state)
        state.finished = data["finished"]
        state.winners = list(data["winners"])
        version, internal, gauss = data["rng"]
        state.rng.setstate((version, tuple(internal), gauss))
        return state

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def _entity_json(e: Entity) -> dict:
    out: dict = {}
    if e.face_down:
        out["face_down"] = True
    if e.face_down or e.seen_by is not None:
        out["seen_by"] = e.seen_by
    if e.vars:
        out["vars"] = encode(e.vars)
    return out


def _rng_json(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _copy(value):
    return list(value) if isinstance(value, list) else (dict(value) if isinstance(value, dict) else value)


def encode(value):
    if isinstance(value, Entity):
        return {"entity": value.id}
    if isinstance(value, Zone):
        return {"zone": value.key}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[encode(k), encode(v)] for k, v in value.items()]} if any(not isinstance(k, str) for k in value) \
            else {k: encode(v) for k, v in value.items()}
    return value


def decode(value, state: State):
    if isinstance(value, list):
        return [decode(v, state) for v in value]
    if isinstance(value, dict):
        if set(value) == {"entity"}:
            return state.entities[value["entity"]]
        if set(value) == {"zone"}:
            return state.zone_by_key(value["zone"])
        if set(value) == {"map"}:
            return {_hashable(decode(k, state)): decode(v, state) for k, v in value["map"]}
        return {k: decode(v, state) for k, v in value.items()}
    return value


def _hashable(v):
    return tuple(v) if isinstance(v, list) else v
