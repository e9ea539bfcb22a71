"""The table model drawn for a terminal, compactly: what happened since the reader's last decision,
then the reader's own area, a line per other player and per shared zone, the areas the question is
about with their neighbours, and the question with its options last, so that a decision fits one
screen: the terminal's own rows and columns (at least 80 x 24; 50 x 120 when the output is no
terminal), laid out again when the terminal is resized. Options are listed in a stable order (content
order, not where components happen to lie) and page with `>`. When rows are short, the table gives way
in this order: the other players and shared zones first, then the areas the question is about, then
the reader's own; what happened keeps at least its last lines, and says how many earlier ones it folded
(`log` shows them).
"""
from __future__ import annotations

import os
import re
import signal
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass

from interpreter.core.state import Entity
from interpreter.present.table import TableModel, ZoneView
from interpreter.present.words import Presenter, Shown

ROWS, COLUMNS = 50, 120  # when the output is no terminal
MIN_ROWS, MIN_COLUMNS = 24, 80  # a smaller terminal is drawn for as if it were this large
MIN_OPTIONS = 5  # options listed on a page at the least (or all of them, when fewer)
MIN_TABLE = 8  # lines of what happened and of the table kept at the least (a third of the screen when it is taller)


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


def asked_line(prompt: str) -> str:
    """A question as the line before its options: a colon after it, unless it ends a sentence already (`?`)."""
    return prompt if prompt.rstrip().endswith(("?", "!", ":")) else prompt + ":"


def number_in(text: str) -> int | None:
    """A whole number as typed (`12`, `-3`), else None."""
    text = text.strip()
    digits = text[1:] if text[:1] in "-+" else text
    return int(text) if digits.isdigit() and len(digits) < 18 else None


def by_value(shown: Shown) -> bool:
    """Are the options numbers (`0`, `1`, ... `14`)? Then a typed number is an option's number itself, never
    its place in the list: the options are listed without places, and the keys say so."""
    return bool(shown.options) and shown.number is None and all(number_in(t) is not None for t in shown.options)


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


def terminal_size(stream) -> tuple[int, int]:
    """(rows, columns) of the terminal `stream` writes to, at least MIN_ROWS x MIN_COLUMNS; (ROWS, COLUMNS)
    when it is no terminal."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):  # no file descriptor (a test's buffer), or not a terminal
        return ROWS, COLUMNS
    if not size.lines or not size.columns:  # a terminal that does not say
        return ROWS, COLUMNS
    return max(size.lines, MIN_ROWS), max(size.columns, MIN_COLUMNS)


@contextmanager
def on_resize(callback):
    """While inside, `callback()` runs whenever the terminal is resized (SIGWINCH; nothing where there is none,
    or outside the main thread)."""
    number = getattr(signal, "SIGWINCH", None)
    previous = None
    if number is not None:
        try:
            previous = signal.signal(number, lambda signum, frame: callback())
        except (ValueError, OSError):  # not the main thread
            number = None
    try:
        yield
    finally:
        if number is not None:
            signal.signal(number, previous if previous is not None else signal.SIG_DFL)


def help_lines(pr: Presenter, columns: int = COLUMNS) -> list[str]:
    """Every command a person may type at a decision, one each: what to type, then what it does (carried on
    under it, past the terminal's width)."""
    out = [pr.say("help title")]
    for key in HELP:
        text = pr.say(key)
        gap = re.search(r" {3,}", text)  # three spaces or more part the command from what it does
        command = gap.end() if gap else 0
        out.extend(textwrap.wrap(text, columns - 2, initial_indent="  ", subsequent_indent=" " * (command + 2),
                                 break_on_hyphens=False))
    return out


HELP = ("help number", "help words", "help table", "help name", "help option cards", "help pages", "help log",
        "help undo", "help back", "help help")


def area_lines(model: TableModel, pr: Presenter, ref: str) -> list[str]:
    """An area as the reader knows it (who controls it, what lies there), then each neighbour the same way."""
    areas = {a.ref: a for a in model.areas}
    area = areas[ref]
    out = [area_line(pr, area)]
    out.extend("  " + pr.say("next to area", area=area_line(pr, areas[n])) for n in area.adjacent if n in areas)
    return out


def areas_named(model: TableModel, text: str) -> list[str]:
    """The areas whose names the text names (a question "March from Winterfell: ..."), longest names first so that
    a name inside another ("Blackwater" in "Blackwater Bay") is not also taken; in the order they appear."""
    found, taken = [], []
    for a in sorted(model.areas, key=lambda a: -len(a.name)):
        for m in re.finditer(r"(?<!\w)" + re.escape(a.name) + r"(?!\w)", text):
            if not any(lo < m.end() and m.start() < hi for lo, hi in taken):
                taken.append((m.start(), m.end()))
                found.append((m.start(), a.ref))
                break
    return [ref for _, ref in sorted(found)]


def lookup(model: TableModel, pr: Presenter, wanted: str) -> list[str]:
    """`?NAME`: the texts of the cards on the table whose names start so, and each area so named with its
    neighbours and what is known there."""
    low = wanted.lower()
    found = sorted({f"{name}: {body}" for name, body in model.texts.values() if name.lower().startswith(low)})
    for a in model.areas:  # by the start of its name, or of a later word of it ("Reach" for "The Reach")
        if low and (a.name.lower().startswith(low) or (len(low) >= 3 and any(w.startswith(low) for w in a.name.lower().split()))):
            found.extend(area_lines(model, pr, a.ref))
    return found


def screen(model: TableModel, pr: Presenter, shown: Shown, order: list[int], recent: list[str], heading: str,
           page: int = 0, rows: int = ROWS, columns: int = COLUMNS, by_value: bool = False) -> tuple[list[str], int]:
    """The lines of one decision's screen and the number of option pages, at most `rows` lines of `columns`.
    The options take what the table leaves, but the table keeps a third of the screen (at least MIN_TABLE
    lines) when it needs it; the table gives way (with a line saying `?` shows it whole) before the question
    does. `by_value`: the options are numbers, answered by typing the number itself, so they are not numbered."""
    question = clip(asked_line(shown.prompt + (pr.say("secretly") if shown.secret else "")), columns)
    footer = clip(pr.say("screen keys by value" if by_value else "screen keys"), columns)
    budget = max(rows - 3, 4)  # the heading, the question and the keys take a line each
    sections = _sections(model, pr, shown, columns)
    need = len(recent) + (1 if recent else 0) + sum(len(lines) for _, lines in sections)
    per_page = max(min(len(order), MIN_OPTIONS), budget - min(need, max(budget // 3, MIN_TABLE)))
    if per_page < len(order):
        per_page = max(1, per_page - 1)  # a line says which page this is
    pages = max(1, -(-len(order) // per_page))
    page = min(max(page, 0), pages - 1)
    listed = order[page * per_page:(page + 1) * per_page]
    options = [clip(f"  {shown.options[i]}" if by_value else f"  [{order.index(i)}] {shown.options[i]}", columns) for i in listed]
    if pages > 1:
        options.append(clip("  " + pr.say("more options", page=page + 1, pages=pages), columns))
    body = _fit(pr, recent, sections, budget - len(options), columns)
    return [clip(heading, columns), *body, question, *options, footer], pages


def _sections(model: TableModel, pr: Presenter, shown: Shown, columns: int) -> list[tuple[int, list[str]]]:
    """The table's parts in the order they are drawn, each with its rank (the lowest gives way last): the
    reader's own (1), the others and the shared zones (2), the areas the question is about with their
    neighbours (0: what the question needs), just above it."""
    named = areas_named(model, shown.prompt)
    me, others = (model.players[0], model.players[1:]) if model.viewer is not None else (None, model.players)
    mine: list[str] = []
    if me is not None:
        mine.append(clip(player_line(pr, me, compact=False), columns))
        mine.extend(clip("  " + zone_line(pr, z), columns) for z in me.zones)
        held = set(me.areas) - set(named)  # an area the question is about is drawn with its neighbours below
        mine.extend(clip("  " + area_line(pr, a), columns) for a in model.areas if a.ref in held)
    rest = [clip(player_line(pr, p, compact=True), columns) for p in others]
    rest.extend(clip(track_line(pr, t), columns) for t in model.tracks)
    if model.values:
        rest.append(clip(" · ".join(f"{w} {v}" for w, v in model.values), columns))
    rest.extend(clip(zone_line(pr, z), columns) for z in model.game)
    about = [clip(line, columns) for ref in named for line in area_lines(model, pr, ref)]
    return [(1, mine), (2, rest), (0, about)]


def _fit(pr: Presenter, recent: list[str], sections: list, room: int, columns: int) -> list[str]:
    """What happened and the table's sections in `room` lines: what happened keeps its last lines (at least two,
    up to a third of the room, more when the table leaves them), saying how many it folded; the sections give
    way by rank, each cut at its end; a cut table ends with a line saying `?` shows it whole."""
    table = sum(len(lines) for _, lines in sections)
    told = 0
    if recent:
        told = min(len(recent), max(2, (room - 1) // 3, room - 1 - table))
    left = room - (told + 1 if recent else 0)
    kept = {rank: 0 for rank, _ in sections}
    cut = table > left
    if cut:
        left -= 1  # the line saying the table goes on
    for rank, lines in sorted(sections, key=lambda s: s[0]):
        # the first section leaves a third of the room to the others (the reader's own lines)
        share = left if rank or len(sections) == 1 else max(3, left - left // 3)
        kept[rank] = max(0, min(len(lines), share, left))
        left -= kept[rank]
    body: list[str] = []
    if recent:
        folded = len(recent) - told
        body.append(pr.say("since your last decision folded", n=folded) if folded else pr.say("since your last decision"))
        body.extend(clip("  " + line, columns) for line in recent[len(recent) - told:])
    for rank, lines in sections:
        body.extend(lines[:kept[rank]])
    if cut:
        body.append(pr.say("more table"))
    return body[:max(room, 0)]
