"""What one finished game tells a balance report, as the game's manifest asks for it.

A manifest may say, under `report:`, what to record of each player besides winners and scores:

    report:
      played: {from: [hand], to: [table, discard]}   # which moves count as playing a card
      per_player: {side: side_of}                     # what to read of each player at the end

Played, generically: a component is *played by P* when it moves out of a zone of P whose name is
listed under `from` into a zone whose name is listed under `to` (of any owner), optionally only
for the component kinds listed under `kinds`. A card returned to a deck, or taken by another
player, is then not "played" unless the game lists that move. A card played twice counts once
per game; the report speaks of the card's record (all copies of a card are one row).

per_player: each label names, for each player at the end of the game, a function of one player
(`function side_of(p: player) = ...`), a player variable or a player zone. The values are
components (reported by their record), enum values, numbers or texts, or a list of them (a
player may hold several titles, or none).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.core.state import Entity, Zone


@dataclass(frozen=True)
class ReportSpec:
    played_from: frozenset = frozenset()
    played_to: frozenset = frozenset()
    played_kinds: frozenset = frozenset()  # empty: every kind
    per_player: tuple = ()  # ((label, how, name), ...); how is "function", "variable" or "zone"

    @property
    def tracks_played(self) -> bool:
        return bool(self.played_from and self.played_to)


def report_spec(game) -> ReportSpec:
    """The manifest's `report:` field (its names were checked when the game was loaded)."""
    content = game.content
    raw = content.manifest.get("report") or {}
    voc = content.vocabulary
    played = raw.get("played") or {}
    per_player = []
    for label, name in (raw.get("per_player") or {}).items():
        if name in game.funcs:
            per_player.append((label, "function", name))
        elif name in voc.variables:
            per_player.append((label, "variable", name))
        else:
            per_player.append((label, "zone", name))
    return ReportSpec(frozenset(played.get("from") or ()), frozenset(played.get("to") or ()),
                      frozenset(played.get("kinds") or ()), tuple(per_player))


def track_played(session, spec: ReportSpec) -> list:
    """Watch the session's moves; returns one list per player of the record ids it played, filled as it plays."""
    played: list = [[] for _ in range(session.state.players)]
    if not spec.tracks_played:
        return played
    sources, targets, kinds = spec.played_from, spec.played_to, spec.played_kinds

    def moved(e, old, new) -> None:
        if new.name in targets and old is not None and old.name in sources and type(old.owner) is int \
                and (not kinds or e.kind in kinds) and e.record_id not in played[old.owner]:
            played[old.owner].append(e.record_id)

    session.rt.move_watchers.append(moved)
    return played


def per_player_values(session, spec: ReportSpec) -> dict:
    """label -> one sorted list of value names per player, read from the finished game."""
    state = session.state
    rt = session.rt
    game = session.game
    out = {}
    for label, how, name in spec.per_player:
        values = []
        for p in range(state.players):
            if how == "function":
                fn = game.funcs[name].fn
                value = rt.modified(name, fn, (p,)) if name in game.modified else fn(rt, p)
            elif how == "variable":
                value = state.player_vars[p].get(name)
            else:
                value = state.zone(name, p)
            values.append(sorted(set(_names(value))))
        out[label] = values
    return out


def _names(value) -> list:
    if value is None:
        return []
    if isinstance(value, Entity):
        return [value.record_id]
    if isinstance(value, Zone):
        return [e.record_id for e in value.items]
    if isinstance(value, (list, tuple, set, frozenset)):
        return [n for v in value for n in _names(v)]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    if isinstance(value, int) and not isinstance(value, bool):
        return [str(value)]
    return [str(value)]


@dataclass
class Describe:
    """Names and numeric attributes of the records a report mentions, for people reading it."""

    names: dict = field(default_factory=dict)
    numbers: dict = field(default_factory=dict)


def describe_records(game, ids) -> Describe:
    by_id = {rec.id: rec.data for rec in game.content.records}
    out = Describe()
    for rid in ids:
        data = by_id.get(rid)
        if data is None:
            continue
        if data.get("name"):
            out.names[rid] = str(data["name"])  # in the rule text's language
        nums = {k: v for k, v in data.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "copies"}
        if nums:
            out.numbers[rid] = nums
    return out
