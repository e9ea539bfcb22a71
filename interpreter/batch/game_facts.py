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
player may hold several titles, or none). `{of: NAME, matters_in: [VARIANT]}` says the value has
an effect only in those variants (the report leaves it out of others).

played.playable_by {attribute, player}: a card whose record has that attribute can be played only by
a player whose value (a function of one player, a variable or a zone) is the same; each game records
every player's value, and the report compares the card only among those players.

length {label: {calls: PROCEDURE}}: each call of the procedure is one (a round, a turn), counted as the
game runs (the procedure's first line, written by the compiler, counts into `rt.counted`);
ends [{when: CONDITION, text, victory}]: read on the final table, the first that holds says how the game ended;
`victory: true` marks a way of winning (seven castles), which the report warns about when no game ended so.
part_of_score {per_player: [LABEL], kinds: [KIND]}: the per-player values and the played cards of these kinds
that the score is made of (titles' points, obelisks'): the report marks their figures as circular.
Each game also records which records' components were in play (out of their starting zone) at its end.
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
    matters_in: tuple = ()  # ((label, variants), ...): a per-player value reported only when one of these is played
    playable_by: tuple = ()  # (card attribute, how, name): a card with that attribute only for players of that value
    length: tuple = ()  # ((label, procedure, text), ...): each call of the procedure is one (a round, a turn)
    ends: tuple = ()  # ((condition fn(rt), text), ...): how a game ended, the first that holds at its end
    victories: tuple = ()  # indices into `ends` of the ways of winning (`victory: true`)
    score_labels: frozenset = frozenset()  # per-player labels that are part of the score
    score_kinds: frozenset = frozenset()  # kinds of the played cards that are part of the score

    @property
    def tracks_played(self) -> bool:
        return bool(self.played_from and self.played_to)


def _how(game, name: str) -> str:
    if name in game.funcs:
        return "function"
    if name in game.content.vocabulary.variables:
        return "variable"
    return "zone"


def report_spec(game) -> ReportSpec:
    """The manifest's `report:` field (its names and conditions were checked when the game was loaded)."""
    content = game.content
    raw = content.manifest.get("report") or {}
    played = raw.get("played") or {}
    per_player, matters = [], []
    for label, entry in (raw.get("per_player") or {}).items():
        name = entry["of"] if isinstance(entry, dict) else entry
        per_player.append((label, _how(game, name), name))
        if isinstance(entry, dict) and entry.get("matters_in"):
            matters.append((label, tuple(entry["matters_in"])))
    by = played.get("playable_by")
    playable = (by["attribute"], _how(game, by["player"]), by["player"]) if by else ()
    length = tuple((label, entry["calls"], entry.get("text")) for label, entry in (raw.get("length") or {}).items())
    ends = tuple((compile_condition(game, entry["when"]), entry.get("text")) for entry in raw.get("ends") or ())
    victories = tuple(i for i, entry in enumerate(raw.get("ends") or ()) if entry.get("victory"))
    in_score = raw.get("part_of_score") or {}
    return ReportSpec(frozenset(played.get("from") or ()), frozenset(played.get("to") or ()),
                      frozenset(played.get("kinds") or ()), tuple(per_player), tuple(matters), playable, length, ends,
                      victories, frozenset(in_score.get("per_player") or ()), frozenset(in_score.get("kinds") or ()))


def compile_condition(game, text: str):
    """A `when:` of the manifest's `ends` (checked at load): fn(rt) -> its value."""
    from dsl.checker import Scope
    from dsl.diagnostics import Report, Source
    from dsl.parser import parse_expression
    from interpreter.codegen import compile_expression
    node = parse_expression(Source("game.yaml report.ends", text))
    checker = game.content.checker
    saved, checker.report = checker.report, Report()
    try:
        checker.expr(node, Scope({}))
    finally:
        checker.report = saved
    return compile_expression(game, node)


def count_calls(session, spec: ReportSpec) -> None:
    """Count the calls of the procedures that measure a game's length (rounds, turns) as it is played."""
    if spec.length:
        session.rt.counted = {proc: 0 for _, proc, _ in spec.length}


def game_end_facts(session, spec: ReportSpec) -> dict:
    """What the finished game tells besides winners and scores: its length in rounds or turns, how it
    ended (the index of the first of the manifest's `ends` that holds), each player's value of
    `playable_by`, and the records of the components that left their starting zone (in play)."""
    rt = session.rt
    out: dict = {}
    if spec.length:
        out["length_by"] = {label: (rt.counted or {}).get(proc, 0) for label, proc, _ in spec.length}
    if spec.ends:
        out["ending"] = next((i for i, (cond, _) in enumerate(spec.ends) if _holds(rt, cond)), None)
    if spec.playable_by:
        _, how, name = spec.playable_by
        out["strata"] = [sorted(set(_names(_value_of(session, how, name, p)))) for p in range(session.state.players)]
    kinds = session.game.content.vocabulary.kinds
    out["in_play"] = sorted({e.record_id for e in session.state.entities.values()
                             if e.zone is None or e.zone.name != kinds[e.kind].starts_in})
    return out


def _holds(rt, cond) -> bool:
    try:
        rt.steps = rt.calls = 0
        return bool(cond(rt))
    except Exception:  # noqa: BLE001 - a condition that cannot be read on this table does not hold
        return False


def _value_of(session, how: str, name: str, p: int):
    state, rt, game = session.state, session.rt, session.game
    if how == "function":
        fn = game.funcs[name].fn
        return rt.modified(name, fn, (p,)) if name in game.modified else fn(rt, p)
    if how == "variable":
        return state.player_vars[p].get(name)
    return state.zone(name, p)


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
    """label -> one sorted list of value names per player, read from the finished game; a number stays a number
    (the report summarizes a label of numbers as numbers)."""
    state = session.state
    out = {}
    for label, how, name in spec.per_player:
        values = [_value_of(session, how, name, p) for p in range(state.players)]
        out[label] = [[v] if isinstance(v, (int, float)) and not isinstance(v, bool) else sorted(set(_names(v)))
                      for v in values]
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
    """Names and numeric attributes of the records a report mentions, for people reading it, in one language;
    and each record's value of the `playable_by` attribute (the group of players who could play it)."""

    names: dict = field(default_factory=dict)
    numbers: dict = field(default_factory=dict)
    groups: dict = field(default_factory=dict)
    kinds: dict = field(default_factory=dict)  # record id -> its kind


def describe_records(game, ids, lang: str | None = None, group_attribute: str | None = None) -> Describe:
    from dsl.translations import text_in
    lang = lang or game.content.vocabulary.languages[0]
    by_id = {rec.id: rec.data for rec in game.content.records}
    out = Describe()
    for rid in ids:
        data = by_id.get(rid) if isinstance(rid, str) else None
        if data is None:
            continue
        if data.get("name"):
            out.names[rid] = text_in(data["name"], lang)
        if isinstance(data.get("kind"), str):
            out.kinds[rid] = data["kind"]
        nums = {k: v for k, v in data.items() if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "copies"}
        if nums:
            out.numbers[rid] = nums
        if group_attribute and data.get(group_attribute) is not None:
            out.groups[rid] = _names(data[group_attribute])[0]
    return out
