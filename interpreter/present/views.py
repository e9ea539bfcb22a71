"""What one player may see: public zones, their own private ones, the top of a zone showing its top,
face-down cards they still know, components revealed or shown where they lie.

Hidden entities show as null and carry no id, so nothing about them leaks through identity.
"""
from __future__ import annotations

from interpreter.core.decisions import label_of, player_label
from interpreter.core.state import EVERYONE, Entity, State, Zone, encode, holder


def can_see(entity: Entity, viewer: int | None) -> bool:
    zone = entity.zone
    if zone is None:
        return False
    seen_by = entity.seen_by
    if seen_by is not None:
        if seen_by == EVERYONE and not entity.face_down:
            return True  # revealed where it lies: every reader sees it until it moves
        if viewer is not None and seen_by == viewer:
            return True  # a face-down card still known, or one shown (`show ... to P`)
    if entity.face_down:
        return False
    return sees_into(zone, viewer, entity)


def sees_into(zone: Zone, viewer: int | None, entity: Entity | None = None) -> bool:
    """Whether `viewer` sees the face-up components of `zone` (with `entity`: that one of them). The zone's
    declared visibility decides, for its owner and for the others: all of them, only the top one, or none."""
    mode = sight(zone, viewer)
    if mode == "all":
        return True
    if mode == "top":
        return entity is not None and bool(zone.items) and zone.items[0] is entity
    return False


def sight(zone: Zone, viewer: int | None) -> str:
    """How much of `zone`'s face-up components `viewer` sees: "all", "top" or "none", as declared for its owner
    (the player in front of whom it lies) and for the others."""
    owner_sees, others_see = zone.visibility
    if owner_sees == others_see:
        return owner_sees
    owner = zone.owner if not isinstance(zone.owner, Entity) else holder(zone.owner)
    return owner_sees if viewer is not None and owner == viewer else others_see


def back_of(entity: Entity, viewer: int | None, backs: dict | None = None) -> str | None:
    """What `viewer` sees of a component it cannot see: when it lies face down where the viewer sees
    face-up components, what its back shows as the game declares it (`table: backs:`: its kind, or
    an attribute's value such as a house); else nothing (None: a card in a hidden deck or in another
    player's hand, or a back that shows nothing, tells neither kind nor anything else)."""
    zone = entity.zone
    if zone is not None and entity.face_down and backs and sees_into(zone, viewer, entity):
        what = backs.get(entity.kind)
        if what == "kind":
            return entity.kind
        if what is not None:
            value = entity.attrs.get(what)
            return value if isinstance(value, str) else None
    return None


def zone_label(zone: Zone) -> str:
    return label_of(zone)


def view(state: State, viewer: int | None, value=encode, label=zone_label) -> dict:
    """The observation of `viewer` (a seat), or of a spectator when None: the components it sees by id, the
    others left out. `value` writes a variable's value and `label` a zone's name (present.observed passes
    ones that name nothing hidden)."""
    zones: dict = {}
    entities: dict = {}
    for zone in state.all_zones():
        if not zone.items:
            continue
        shown = []
        for e in zone.items:
            if can_see(e, viewer):
                shown.append(e.id)
                info = {"kind": e.kind, "name": str(e.attrs.get("name", e.id))}
                if e.vars:
                    info["vars"] = value(e.vars)
                if e.face_down:
                    info["face_down"] = True
                entities[e.id] = info
            else:
                shown.append(None)
        name = label(zone)
        while name in zones:  # two zones that read alike (on components out of sight): keep both
            name += "'"
        zones[name] = shown if any(x is not None for x in shown) else {"count": len(shown)}
    return {
        "viewer": None if viewer is None else player_label(viewer),
        "players": state.players,
        "game": value(state.game_vars),
        "player_vars": {player_label(i): value(v) for i, v in enumerate(state.player_vars)},
        "zones": zones,
        "entities": entities,
    }
