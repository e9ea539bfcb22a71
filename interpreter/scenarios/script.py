"""The decisions of a scenario file, as an agent: plain labels, checked entries, and secret waves.

A scenario's `decisions:` list holds, in the order the game asks:
- `play_unit humans_warrior_1 elves_tower_1`: a label (or a unique prefix of one);
- `{answer: LABEL, by: P2, options: [LABEL, ...]}`: the same, and the decision must be put to P2
  with exactly these options (both keys are optional);
- `{secretly: {P1: LABEL, P2: LABEL}}`: one wave of a `secretly` block: each named player is asked
  one secret decision, in whatever order the game asks them.
"""
from __future__ import annotations

from dataclasses import dataclass

from interpreter.agents.players import ScriptExhausted
from interpreter.core.decisions import Decision, player_label
from interpreter.present.words import prompt


@dataclass
class Step:
    key: tuple  # where the entry sits in the scenario file
    answer: object
    by: str | None = None
    options: list | None = None


@dataclass
class Wave:
    key: tuple
    answers: dict  # player label -> answer, the players not asked yet


class ScriptMismatch(Exception):
    """The game asked someone else, or offered other options, than the scenario says."""

    def __init__(self, key: tuple, message: str):
        self.key = key
        super().__init__(message)


def _entries(raw: list) -> list:
    out: list = []
    for i, entry in enumerate(raw):
        key = ("decisions", i)
        if isinstance(entry, dict) and "secretly" in entry:
            out.append(Wave(key, {who: _label(a) for who, a in entry["secretly"].items()}))
        elif isinstance(entry, dict):
            options = entry.get("options")
            out.append(Step(key, _label(entry["answer"]), entry.get("by"), None if options is None else [_label(o) for o in options]))
        else:
            out.append(Step(key, _label(entry)))
    return out


def _label(value):
    """An answer as a label: a number written as a number is its value (`3`), never an option's place."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if isinstance(value, int) else value


class ScenarioScript:
    """Answers decisions from a scenario's entries, checking each entry's `by`, `options` and waves."""

    def __init__(self, raw: list):
        self.entries = _entries(raw)
        self.position = 0  # the entry answering now
        self.key: tuple = ("decisions",)  # the entry (or wave member) that gave the last answer

    def decide(self, decision: Decision, view):
        if self.position >= len(self.entries):
            raise ScriptExhausted(decision)
        entry = self.entries[self.position]
        who = player_label(decision.player)
        if isinstance(entry, Wave):
            if not decision.secret or who not in entry.answers:
                waiting = ", ".join(entry.answers)
                asked = f"{who} ({'secret' if decision.secret else 'not secret'}: {prompt(decision)!r})"
                raise ScriptMismatch(entry.key, f"this secret wave still waits for {waiting}, but the game asks {asked}")
            self.key = entry.key + ("secretly", who)
            answer = entry.answers.pop(who)
            if not entry.answers:
                self.position += 1
            return answer
        self.key = entry.key
        if entry.by is not None and entry.by != who:
            raise ScriptMismatch(entry.key, f"the decision {prompt(decision)!r} is put to {who}, not {entry.by}")
        if entry.options is not None and [str(o) for o in entry.options] != decision.labels:
            raise ScriptMismatch(entry.key, f"the options of {prompt(decision)!r} are: {', '.join(decision.labels)}; "
                                            f"the scenario lists: {', '.join(map(str, entry.options))}")
        self.position += 1
        return entry.answer

    def remaining(self) -> list:
        out = []
        for entry in self.entries[self.position:]:
            out.append({"secretly": dict(entry.answers)} if isinstance(entry, Wave) else entry.answer)
        return out
