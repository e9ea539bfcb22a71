"""A scenario's `chance:` entries: the outcomes of the draws of its `given` and `run`, by value, in order.

Each entry gives the next draw that has something to choose (a shuffle of one component, a pick among one
element, a die of one face are not drawn from the entries, as a decision with one option is not asked):

- a value, or a list of values: a `random(C)` pick's element (its label: `P2`, a component's id, a number,
  an enum value), the elements of `random(C, K)` in the order drawn, or the faces of `roll(N)`;
- `{random: VALUE or [VALUES]}`, `{roll: [FACES]}`: the same, saying which draw it is for;
- `{top: [LABEL, ...]}` (optionally `shuffle: ZONE`): a shuffle puts these on top, in this order, and the rest
  of the zone in the order the seed gives;
- `{seed: N}`: the next N draws as the seed gives them.

The seed's generator is drawn first in every case, so the draws after a scripted one are those of the seed.
An entry of another kind than the draw is CHANCE-MISMATCH, a value the draw could not have (a face out of
range, a card not in the deck, a player not drawn from) CHANCE-ILLEGAL, each at the entry's line.
"""
from __future__ import annotations

import sys

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen.chance import Draw
from interpreter.core.decisions import label_of, player_label
from dsl.plurals import plural

_SHOWN = 12  # the options a message lists


class ScriptedChance:
    """`Chance.given` while a scenario runs (interpreter.codegen.chance)."""

    def __init__(self, entries: list, span_of):
        self.entries = list(entries)
        self.span_of = span_of  # ("chance", i) -> the Span of that entry in the scenario file
        self.at = 0  # the next entry
        self.seeded = 0  # draws still left to the seed by a `{seed: N}` entry

    def remaining(self) -> list:
        return self.entries[self.at:]

    def settle(self, rt, draw: Draw, outcome: list, how: str):
        if draw.trivial or how != "seed":
            return outcome, how
        if self.seeded:
            self.seeded -= 1
            return outcome, how
        if self.at >= len(self.entries):
            return outcome, how
        i = self.at
        self.at += 1
        entry = self.entries[i]
        if isinstance(entry, dict) and "seed" in entry:
            self.seeded = int(entry["seed"]) - 1
            return outcome, how
        if draw.kind == "shuffle":
            return self._order(rt, i, entry, draw, outcome), "given"
        return self._values(rt, i, entry, draw), "given"

    # ------------------------------------------------------------ the kinds of draw
    def _order(self, rt, i: int, entry, draw: Draw, seed_order: list) -> list:
        if not isinstance(entry, dict) or "top" not in entry:
            self._fail(rt, i, "CHANCE-MISMATCH", f"the game shuffles {label_of(draw.source)} here; the entry is "
                       f"{_kind(entry)}", "a shuffle's entry is {top: [LABEL, ...]}: the components put on top, in order")
        named = entry.get("shuffle")
        if named is not None and named not in (draw.source.name, label_of(draw.source)):
            self._fail(rt, i, "CHANCE-MISMATCH", f"the game shuffles {label_of(draw.source)} here, not {named}")
        labels = [label_of(x) for x in draw.options]
        top = []
        for value in entry["top"]:
            text = _text(value)
            if text not in labels:
                self._fail(rt, i, "CHANCE-ILLEGAL", f"'{text}' is not in {label_of(draw.source)}, which holds "
                           f"{_listing(labels)}")
            place = labels.index(text)
            if place in top:
                self._fail(rt, i, "CHANCE-ILLEGAL", f"'{text}' is put on top twice")
            top.append(place)
        return top + [x for x in seed_order if x not in top]

    def _values(self, rt, i: int, entry, draw: Draw) -> list:
        if isinstance(entry, dict):
            if "top" in entry or "shuffle" in entry or draw.kind not in entry:
                self._fail(rt, i, "CHANCE-MISMATCH", f"the game draws {_what(draw)} here; the entry is {_kind(entry)}")
            entry = entry[draw.kind]
        values = entry if isinstance(entry, list) else [entry]
        wanted = draw.count if draw.kind == "roll" else min(draw.count, len(draw.options))
        if len(values) != wanted:
            self._fail(rt, i, "CHANCE-ILLEGAL", f"the game draws {_what(draw)} here: {plural('en', wanted, ('# value', '# values'))}, "
                       f"the entry gives {len(values)}")
        if draw.kind == "roll":
            for v in values:
                if type(v) is not int or not 1 <= v <= draw.source:
                    self._fail(rt, i, "CHANCE-ILLEGAL", f"{_text(v)} is not a face of a die of {draw.source} "
                               f"(1 to {draw.source})")
            return list(values)
        labels = [player_label(x) if draw.players else label_of(x) for x in draw.options]
        chosen = []
        for v in values:
            text = _text(v)
            free = [j for j, lab in enumerate(labels) if lab == text and j not in chosen]
            if not free:
                again = " again" if text in labels else ""
                self._fail(rt, i, "CHANCE-ILLEGAL", f"'{text}' cannot be drawn{again}: the game draws {_what(draw)} "
                           f"from {_listing(labels)}")
            chosen.append(free[0])
        return chosen

    def _fail(self, rt, i: int, code: str, message: str, hint: str | None = None):
        site = _rule_site(rt)
        where = f" (at {site})" if site else ""
        raise DiagnosticError([Diagnostic(code, f"chance entry {i + 1}: {message}{where}", self.span_of(("chance", i)), hint)])


def _what(draw: Draw) -> str:
    if draw.kind == "roll":
        return f"a roll of {draw.count} {'die' if draw.count == 1 else 'dice'} of {draw.source}"
    return f"{'one' if draw.count == 1 else draw.count} of {draw.source} at random"


def _kind(entry) -> str:
    if isinstance(entry, dict):
        return "{" + ", ".join(entry) + "}"
    return "a list of values" if isinstance(entry, list) else "a value"


def _text(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _listing(labels: list) -> str:
    shown = ", ".join(labels[:_SHOWN])
    return shown + (f" and {len(labels) - _SHOWN} more" if len(labels) > _SHOWN else "") if labels else "nothing"


def _rule_site(rt):
    """The rule text's place of the draw being made: the innermost generated line on the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        span = rt.game.span_at(frame.f_code.co_filename, frame.f_lineno)
        if span is not None:
            return span
        frame = frame.f_back
    return None
