"""The table model drawn for a terminal, compactly: what happened since the reader's last decision,
then the reader's own area, a line per other player and per shared zone, and the question with its
options last, so that a decision fits one screen (50 rows of 120 columns by default). Options are
listed in a stable order (content order, not where components happen to lie) and page with `>`.
"""
from __future__ import annotations

from dataclasses import dataclass

from interpreter.core.state import Entity
from interpreter.present.table import TableModel, ZoneView
from interpreter.present.words import Presenter, Shown

ROWS, COLUMNS = 50, 120
RECENT = 6  # lines of what happened shown above the table (`log` shows more)


def option_order(decision, state) -> list[int]:
    """The options' indices in the order a person reads them: by the content order of the components they
    name (the order of the game's records), then by their other values, so the same options keep their
    places from one decision to the next wherever their components lie."""
    rank = {eid: i for i, eid in enumerate(state.entities)} if state is not None else {}

    def key(value):
        if isinstance(value, Entity):
            return (1, rank.get(value.id, 0), "")
        if isinstance(value, bool) or value is None:
            return (0, int(bool(value)), "")
        if isinstance(value, int):
            return (0, value, "")
        option = getattr(value, "option", None)
        if option is not None:  # a menu choice: its option's name, then what it is bound to
            return (2, 0, option[0], tuple(key(a) for a in value.bound))
        if type(value).__name__ == "Done":
            return (9, 0, "")
        if isinstance(value, (list, tuple)):
            return (3, 0, "", tuple(key(v) for v in value))
        return (4, 0, str(value))

    return sorted(range(len(decision.values)), key=lambda i: key(decision.values[i]))


@dataclass
class Step:
    """One entry of the first step of a menu asked in steps: its words and the options it stands for."""

    text: str
    options: list  # indices into the decision's options, in the order a person reads them


def option_steps(decision, shown: Shown, order: list[int], names) -> list[Step] | None:
    """A long menu in two steps, for the options content names in `table: steps`: the first step offers
    each such option with its first value once ("Play Archer on …"), the second the rest. None when no
    two options share a first step. The answer is still one option of the one decision: the log and
    replay do not change."""
    if not names:
        return None
    steps: list[Step] = []
    where: dict = {}
    for i in order:
        v = decision.values[i]
        option = getattr(v, "option", None)
        if option is not None and option[0] in names and len(option[1]) >= 2:
            first = v.bound[option[1][0]]
            key = (option[0], id(first) if isinstance(first, Entity) else repr(first))
        else:
            key = ("", i)
        if key in where:
            steps[where[key]].options.append(i)
        else:
            where[key] = len(steps)
            steps.append(Step(shown.options[i], [i]))
    if len(steps) == len(order):
        return None
    for step in steps:
        if len(step.options) > 1:
            step.text = _shared_start([shown.options[i] for i in step.options]) + f" … ({len(step.options)})"
    return steps


def _shared_start(texts: list[str]) -> str:
    """The words all the texts begin with ("Play Archer on"), cut at a word's end."""
    start = texts[0]
    for t in texts[1:]:
        n = 0
        while n < min(len(start), len(t)) and start[n] == t[n]:
            n += 1
        start = start[:n]
    if start != texts[0] and " " in start:
        start = start[: start.rstrip().rfind(" ") + 1] if not start.endswith(" ") else start
    return start.rstrip(" :,") or texts[0]


def clip(text: str, width: int = COLUMNS) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def zone_line(pr: Presenter, zone: ZoneView) -> str:
    if zone.mode == "count":
        return pr.say("count in zone", zone=zone.name, n=zone.size)
    parts = []
    for item in zone.items:
        text = item.text + (f" ×{item.count}" if item.count > 1 else "")
        if item.values:
            text += " (" + ", ".join(f"{w} {v}" for w, v in item.values) + ")"
        if item.zones:
            text += " [" + "; ".join(zone_line(pr, z) for z in item.zones) + "]"
        parts.append(text)
    if zone.mode == "top" and zone.size > 1:
        return pr.say("top of zone", zone=zone.name, top=", ".join(parts), n=zone.size)
    total = f" ({pr.say('total', n=zone.total)})" if zone.total is not None else ""
    return f"{zone.name}{total}: {', '.join(parts)}"


def area_line(pr: Presenter, a, near: str = "") -> str:
    """An area of the board: its name, who controls it, its shown values, what lies there; greyed ones say why."""
    owner = f" ({pr.player(a.controller)})" if a.controller is not None else ""
    values = " · ".join(f"{w} {v}" for w, v in a.values)
    inner = "; ".join(zone_line(pr, z) for z in a.zones)
    text = f"{a.name}{owner}" + (f" [{values}]" if values else "") + (f": {inner}" if inner else "")
    if a.greyed:
        text += f" — {a.greyed}"
    return text + (f" — {pr.say('adjacent')}: {near}" if near else "")


def track_line(pr: Presenter, track) -> str:
    """A track in one line: who stands where (`Iron Throne: 1 P2 · 2 P1 (you) · 3 P3`), or where its marker is."""
    if track.how == "value":
        at = next((s.label for s in track.slots if s.marked), "–")
        return f"{track.name}: {at} ({track.slots[0].label}–{track.slots[-1].label})" if track.slots else f"{track.name}: {at}"
    shown = [f"{s.label} {', '.join(pr.player(p) for p in s.seats)}" for s in track.slots if s.seats]
    return f"{track.name}: {' · '.join(shown)}"


def player_line(pr: Presenter, player, compact: bool) -> str:
    bits = [player.name]
    if player.score is not None:
        bits.append(pr.say("score is", n=player.score))
    bits.extend(f"{word} {value}" for word, value in player.values)
    if compact:
        bits.extend(pr.say("count in zone", zone=z.name, n=z.size) if z.mode in ("count", "top") or len(z.items) > 3
                    else zone_line(pr, z) for z in player.zones)
        if player.areas:
            bits.append(pr.say("areas held", n=len(player.areas)))
    return " · ".join(bits)


def whole_table(model: TableModel, pr: Presenter) -> list[str]:
    """Every line of the table, for `?`: each player's values and zones, the areas, the shared zones."""
    out = []
    for p in model.players:
        out.append(player_line(pr, p, compact=False))
        out.extend("  " + zone_line(pr, z) for z in p.zones)
    areas = {a.ref: a for a in model.areas}
    for a in model.areas:
        out.append(area_line(pr, a, ", ".join(areas[n].name for n in a.adjacent if n in areas)))
    out.extend(track_line(pr, t) for t in model.tracks)
    if model.values:
        out.append(" · ".join(f"{w} {v}" for w, v in model.values))
    out.extend(zone_line(pr, z) for z in model.game)
    return out


def screen(model: TableModel, pr: Presenter, shown: Shown, order: list[int], recent: list[str], heading: str,
           page: int = 0, rows: int = ROWS, columns: int = COLUMNS) -> tuple[list[str], int]:
    """The lines of one decision's screen and the number of option pages. Everything is clipped to
    `columns`; the table gives way (with a line saying `?` shows it whole) before the question does."""
    question = [clip(shown.prompt + (pr.say("secretly") if shown.secret else "") + ":", columns)]
    footer = pr.say("screen keys")
    fixed = 1 + len(question) + 1  # heading, question, footer
    room_for_options = max(6, rows - fixed - 8)
    pages = max(1, -(-len(order) // room_for_options))
    page = min(max(page, 0), pages - 1)
    listed = order[page * room_for_options:(page + 1) * room_for_options]
    options = [clip(f"  [{order.index(i)}] {shown.options[i]}", columns) for i in listed]
    if pages > 1:
        options.append(clip("  " + pr.say("more options", page=page + 1, pages=pages), columns))
    body: list[str] = []
    if recent:
        body.append(pr.say("since your last decision"))
        body.extend(clip("  " + line, columns) for line in recent[-RECENT:])
    me, others = (model.players[0], model.players[1:]) if model.viewer is not None else (None, model.players)
    if me is not None:
        body.append(clip(player_line(pr, me, compact=False), columns))
        body.extend(clip("  " + zone_line(pr, z), columns) for z in me.zones)
        mine = [a for a in model.areas if a.ref in set(me.areas)]
        body.extend(clip("  " + area_line(pr, a), columns) for a in mine)
    body.extend(clip(player_line(pr, p, compact=True), columns) for p in others)
    body.extend(clip(track_line(pr, t), columns) for t in model.tracks)
    if model.values:
        body.append(clip(" · ".join(f"{w} {v}" for w, v in model.values), columns))
    body.extend(clip(zone_line(pr, z), columns) for z in model.game)
    room = rows - fixed - len(options)
    if len(body) > room:
        body = body[: max(0, room - 1)] + [pr.say("more table")]
    return [clip(heading, columns), *body, *question, *options, clip(footer, columns)], pages
