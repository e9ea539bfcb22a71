"""Tracks (dsl.looks `tracks:`) as the table model holds them: a row of positions, each with its label and the
players whose marker stands there, read from the variables the rules already keep (a list of players in track
order, a number per player, one game value). Variables are public, so a track tells no more than the view does.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.core.state import Entity
from interpreter.present.views import can_see


@dataclass
class TrackSlot:
    label: str  # the position in the reader's words ("3", "autumn", "2·2" for the armies a supply level allows)
    seats: list = field(default_factory=list)  # the players whose marker stands here, in seat order (or track order)
    marked: bool = False  # a track of one game value: its marker stands here


@dataclass
class TrackView:
    name: str
    how: str  # order | each | value
    icon: str | None
    slots: list = field(default_factory=list)


def tracks(state, specs, pr) -> list[TrackView]:
    out = []
    for spec in specs:
        name = pr.word(spec.name) if isinstance(spec.name, str) else pr.value(spec.name)
        view = TrackView(name, spec.how, spec.icon)
        if spec.how == "order":
            order = state.game_vars.get(spec.variable) or []
            view.slots = [TrackSlot(str(i + 1), [p]) for i, p in enumerate(order) if isinstance(p, int)]
            out.append(view)
            continue
        positions = _positions(spec, state.players)
        labels = _labels(spec, state, len(positions), pr)
        view.slots = [TrackSlot(labels[i] if i < len(labels) else pr.value(v), []) for i, v in enumerate(positions)]
        at = {_key(v): i for i, v in enumerate(positions)}
        if spec.how == "each":
            for p in range(state.players):
                i = _place(at, positions, state.player_vars[p].get(spec.variable))
                if i is not None:
                    view.slots[i].seats.append(p)
        else:
            i = _place(at, positions, state.game_vars.get(spec.variable))
            if i is not None:
                view.slots[i].marked = True
        out.append(view)
    return out


def _positions(spec, players: int) -> list:
    if spec.positions:
        return list(spec.positions)
    high = players + spec.high_players if spec.high_players is not None else spec.high
    return list(range(spec.low, max(spec.low, high) + 1))


def _key(value):
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else repr(value)


def _place(at: dict, positions: list, value) -> int | None:
    """The slot of `value`: its own, else (a number past the ends) the nearest end."""
    if value is None or isinstance(value, bool):
        return None
    i = at.get(_key(value))
    if i is not None or not isinstance(value, int) or not positions or not all(isinstance(p, int) for p in positions):
        return i
    return 0 if value < positions[0] else len(positions) - 1 if value > positions[-1] else \
        max(j for j, p in enumerate(positions) if p <= value)


def _labels(spec, state, n: int, pr) -> list[str]:
    if spec.labels:
        return list(spec.labels)
    if spec.labels_from is None:
        return []
    zone, attribute = spec.labels_from
    where = state.game_zones.get(zone)
    out = []
    for i, e in enumerate(where.items if where is not None else ()):
        if i >= n or not isinstance(e, Entity):
            break
        if not can_see(e, pr.viewer):  # a label read from a component out of the reader's sight: none
            out.append("")
            continue
        value = e.attrs.get(attribute)
        out.append("·".join(str(v) for v in value) if isinstance(value, (list, tuple)) else pr.value(value))
    return out
