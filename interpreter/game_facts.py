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

from dsl.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.state import Entity, Zone


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
    """The manifest's `report:` field, checked against the game's vocabulary and functions."""
    content = game.content
    raw = content.manifest.get("report") or {}
    voc = content.vocabulary
    problems = []

    def fail(message, names=None, name=""):
        hint = did_you_mean(name, names) if names else None
        problems.append(Diagnostic("REF-UNDEF", f"{content.id}/game.yaml, report: {message}", None, hint))

    played = raw.get("played") or {}
    for part in ("from", "to"):
        for z in played.get(part) or ():
            if z not in voc.zones:
                fail(f"played {part}: no zone '{z}'", voc.zones, z)
    for part in ("from",):
        for z in played.get(part) or ():
            if z in voc.zones and voc.zones[z].scope != "player":
                fail(f"played from: '{z}' is not a zone of a player, so nobody would have played what leaves it")
    for k in played.get("kinds") or ():
        if k not in voc.kinds:
            fail(f"played kinds: no kind '{k}'", voc.kinds, k)
    per_player = []
    for label, name in (raw.get("per_player") or {}).items():
        func = game.funcs.get(name)
        if func is not None and len(func.params) == 1:
            per_player.append((label, "function", name))
        elif name in voc.variables and voc.variables[name].scope == "player":
            per_player.append((label, "variable", name))
        elif name in voc.zones and voc.zones[name].scope == "player":
            per_player.append((label, "zone", name))
        else:
            options = [n for n, f in game.funcs.items() if len(f.params) == 1]
            options += [n for n, v in voc.variables.items() if v.scope == "player"]
            options += [n for n, z in voc.zones.items() if z.scope == "player"]
            fail(f"per_player {label}: '{name}' is not a function of one player, a player variable or a player zone",
                 options, name)
    if problems:
        raise DiagnosticError(problems)
    return ReportSpec(frozenset(played.get("from") or ()), frozenset(played.get("to") or ()),
                      frozenset(played.get("kinds") or ()), tuple(per_player))


def track_played(session, spec: ReportSpec) -> list:
    """Watch the session's moves; returns one list per player of the record ids it played, filled as it plays.

    The moves of the rule text go through the runtime's `move`; this wraps it for this session only.
    """
    played: list = [[] for _ in range(session.state.players)]
    if not spec.tracks_played:
        return played
    rt = session.rt
    original = rt.move
    sources, targets, kinds = spec.played_from, spec.played_to, spec.played_kinds

    def move(what, zone, at_top, face):
        if type(zone) is not Zone or zone.name not in targets:
            return original(what, zone, at_top, face)
        if type(what) is Entity:
            items = (what,)
        elif type(what) is list:
            items = tuple(what)
        elif isinstance(what, Zone):
            items = tuple(what.items)
        else:
            items = ()
        leaving = []
        for e in items:
            z = type(e) is Entity and e.zone
            if z and z.name in sources and type(z.owner) is int and (not kinds or e.kind in kinds):
                leaving.append((e, z.owner))
        original(what, zone, at_top, face)
        for e, owner in leaving:
            if e.zone is zone and e.record_id not in played[owner]:
                played[owner].append(e.record_id)

    rt.move = move
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
        if isinstance(data.get("name"), str):
            out.names[rid] = data["name"]
        nums = {k: v for k, v in data.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "copies"}
        if nums:
            out.numbers[rid] = nums
    return out
