"""What each option of a decision names on the table: the components, the board's areas and the zones it
points at, so that a front end can attach an option to a card or to an area of a map (click the area to
choose the march that goes there). Only what the viewer sees is named: a hidden component is never given
by id, so a page built from these references tells no more than the option's words.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.core.state import Entity, Zone
from interpreter.present.views import can_see


@dataclass
class OptionRefs:
    components: list = field(default_factory=list)  # ids of components the option names (not areas)
    areas: list = field(default_factory=list)  # ids of board areas it names, or where a component it names lies
    zones: list = field(default_factory=list)  # names of the zones it names (rule names, not words)

    def to_json(self) -> dict:
        return {"components": self.components, "areas": self.areas, "zones": self.zones}


def option_refs(decision, state, viewer: int | None = -1) -> list[OptionRefs]:
    """For each option of `decision` (in its order), what it names, as `viewer` (by default the decider)
    may know it. An area is an entity of the zone the manifest's `table: board:` names; a component lying
    (through stacked zones) in an area names that area too, so an order token in Kingswood lights Kingswood."""
    if viewer == -1:
        viewer = decision.player
    board = state.voc.table.board.get("zone") if state is not None else None
    out = []
    for value in decision.values:
        refs = OptionRefs()
        if not decision.players:
            for v in _values(value):
                if isinstance(v, Entity):
                    _entity(v, board, viewer, refs)
                elif isinstance(v, Zone):
                    if v.name not in refs.zones:
                        refs.zones.append(v.name)
                    area = _area_of_zone(v, board)
                    if area is not None and area.id not in refs.areas:
                        refs.areas.append(area.id)
        out.append(refs)
    return out


def _values(value, depth: int = 0):
    """The values an option stands for: a menu choice's shown arguments, a list's items, the value itself."""
    if depth > 4:
        return
    args = getattr(value, "option", None) is not None and getattr(value, "args", None)
    if args is not None and args is not False:
        for a in args:
            yield from _values(a, depth + 1)
    elif isinstance(value, (list, tuple)):
        for a in value:
            yield from _values(a, depth + 1)
    else:
        yield value


def _is_area(e: Entity, board: str | None) -> bool:
    return board is not None and e.zone is not None and e.zone.name == board and e.zone.owner is None


def _area_of_zone(zone: Zone, board: str | None) -> Entity | None:
    owner, seen = zone.owner, 0
    while isinstance(owner, Entity) and seen < 16:
        if _is_area(owner, board):
            return owner
        owner = owner.zone.owner if owner.zone is not None else None
        seen += 1
    return None


def _entity(e: Entity, board: str | None, viewer, refs: OptionRefs) -> None:
    if _is_area(e, board):
        if e.id not in refs.areas:
            refs.areas.append(e.id)
        return
    if e.zone is not None:
        area = _area_of_zone(e.zone, board)  # where it lies shows even when the component itself is hidden
        if area is not None and area.id not in refs.areas:
            refs.areas.append(area.id)
    if can_see(e, viewer) and e.id not in refs.components:
        refs.components.append(e.id)
