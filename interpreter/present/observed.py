"""What a bot reads of the table: the view of `views.view`, with every value in it safe to show.

`views.view` names the components a player can see by id and leaves the others out, but it writes
variables and zone labels raw: a player variable holding a card in its owner's hand would read
`{"entity": "alpha"}` to everyone, and a public zone lying on a hidden card would be labelled
`under of alpha`. Here a component the viewer cannot see reads as the terminal writes it
(`words.Presenter.unseen`): `{"hidden": "hidden component 2 of 6 in hand of P1"}`, `under of
(hidden component in hand of P1)` — where it lies, never what it is. Visible components, players,
numbers and texts read as in the view, so what a bot reads changes only where the view said too much.
"""
from __future__ import annotations

from interpreter.core.decisions import label_of, player_label
from interpreter.core.state import EVERYONE, Entity, State, Zone
from interpreter.present.views import can_see, sight, view
from interpreter.present.words import Presenter


def observed(state: State, viewer: int | None) -> dict:
    """The observation of `viewer` (a seat, or None for a spectator): `views.view`'s shape, nothing hidden named."""
    pr = Presenter(state, viewer)
    return view(state, viewer, value=lambda v: safe(v, pr), label=lambda zone: zone_name(zone, pr))


def zone_name(zone: Zone, pr: Presenter) -> str:
    """A zone's label (`hand of P2`, `garrison of elves_tower_1`); one on a hidden component names it by where it lies."""
    owner = zone.owner
    if isinstance(owner, Entity) and not can_see(owner, pr.viewer):
        return f"{zone.name} of ({pr.unseen(owner)})"
    return label_of(zone)


_PLAIN = frozenset({int, str, bool, float, type(None)})


def safe(value, pr: Presenter):
    """A value as `views.view` encodes it (`state.encode`), hidden components and zones on them by where they lie."""
    if value.__class__ in _PLAIN:  # most values: read as they are (the bots' search reads this at every step)
        return value
    if isinstance(value, Entity):
        return {"entity": value.id} if can_see(value, pr.viewer) else {"hidden": pr.unseen(value)}
    if isinstance(value, Zone):
        return {"zone": zone_name(value, pr)}
    if isinstance(value, (list, tuple)):
        return [safe(v, pr) for v in value]
    if isinstance(value, dict):
        if any(not isinstance(k, str) for k in value):
            return {"map": [[safe(k, pr), safe(v, pr)] for k, v in value.items()]}
        return {k: v if v.__class__ in _PLAIN else safe(v, pr) for k, v in value.items()}
    return value


def table_text(session, viewer: int) -> str:
    """The table as a person reads it, for bots that read words (a language model, a log of what a bot saw): the
    table model's whole table through `viewer`'s view in the game's language, then the pending question with its
    options in words when `viewer` decides, else who is deciding. Nothing hidden from `viewer` is named."""
    from interpreter.present.table import table_model
    from interpreter.present.terminal import asked_line, option_order, whole_table
    from interpreter.present.words import shown_to
    state = session.state
    pr = Presenter(state, viewer)
    lines = whole_table(table_model(session, viewer), pr)
    d = session.pending
    if d is None:
        return "\n".join(lines)
    if d.player != viewer:
        return "\n".join(lines + [pr.say("deciding", player=pr.player(d.player))])
    shown = shown_to(d, state, viewer)
    order = option_order(d, state)
    return "\n".join(lines + [asked_line(shown.prompt)] + [f"[{i}] {shown.options[i]}" for i in order])


def observed_key(state: State, viewer: int) -> tuple:
    """A hashable stand-in for `observed(state, viewer)` (a search's tree keys, read at every step): two states
    give equal keys exactly when they give equal observations (numbers compare as Python compares them), at
    about half the cost of building the view and writing it as JSON. Each zone with something in it is keyed
    by its label, and each component in it by its id and values if the viewer sees it, else by None; a
    component's kind and name are its record's, fixed by its id."""
    pr = None
    rows = []
    plain = _PLAIN.issuperset
    for zone in state.all_zones():
        items = zone.items
        if not items:
            continue
        shown = []
        mode = sight(zone, viewer)  # `can_see`, inline, with what depends on the zone alone read once per zone
        for e in items:
            seen_by = e.seen_by
            if e.zone is not zone:
                visible = can_see(e, viewer)
            elif seen_by is not None and ((seen_by == EVERYONE and not e.face_down) or seen_by == viewer):
                visible = True
            else:
                visible = not e.face_down and (mode == "all" or (mode == "top" and items[0] is e))
            if visible:
                v = e.vars
                if v:  # (`_values`, inline: this runs for every component in sight)
                    shown.append((e.id, e.face_down, tuple(v.items()) if plain(map(type, v.values()))
                                  else _values(v, state, viewer)))
                else:
                    shown.append((e.id, True) if e.face_down else e.id)
            else:
                shown.append(None)
        owner = zone.owner
        if owner is None:
            label = zone.name
        elif owner.__class__ is not Entity:
            label = f"{zone.name}#{owner}"
        elif can_see(owner, viewer):
            label = f"{zone.name}@{owner.id}"
        else:  # on a component out of sight: by where that lies, as the view names it
            pr = pr or Presenter(state, viewer)
            label = "?" + zone_name(zone, pr)
        rows.append((label, tuple(shown)))
    rows.sort(key=_first)  # as the view's zones, by label (two that read alike keep their order)
    return (tuple(rows), _values(state.game_vars, state, viewer),
            tuple(_values(v, state, viewer) for v in state.player_vars))


def _first(row: tuple) -> str:
    return row[0]


def _values(values: dict, state: State, viewer: int):
    """Variables as `safe` writes them, hashable: plain values as they are, anything else through `safe`."""
    if _PLAIN.issuperset(map(type, values.values())):
        return tuple(values.items())
    import json
    return json.dumps(safe(values, Presenter(state, viewer)), sort_keys=True, ensure_ascii=False)
