"""The one decision interface: who decides, which options are legal, how they are labelled."""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.core.state import Entity, Zone


def label_of(value) -> str:
    if isinstance(value, Entity):
        return value.id
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Zone):
        if value.owner is None:
            return value.name
        owner = value.owner.id if isinstance(value.owner, Entity) else player_label(value.owner)
        return f"{value.name} of {owner}"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return " ".join(label_of(v) for v in value)
    return str(value)


CHANCE = -2  # the seat of chance: who decides a chance decision (interpreter.codegen.chance)


def player_label(seat: int | None) -> str:
    """P1, P2, ...; an option or value that names no player reads "nobody" (labels never fail)."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return "chance" if seat == CHANCE else f"P{seat + 1}"
    return "nobody" if seat is None else label_of(seat)


class Told(tuple):
    """A log line's text (its Message and values, as the runtime hands it over) told while a component's
    ability ran: `cause` is that component, so the words can say what caused the line."""

    cause: object = None


@dataclass(frozen=True)
class Question:
    """What a `choose` statement asks, as the compiler leaves it: its rule text and its words.

    `source` is the statement's rule text, for debugging only: it is never shown to a player.
    `words` is the `ask` text: its Message (dsl.translations: the text in every language), then a
    (value, type) pair for each {expression}, rendered for each viewer in their language
    (interpreter.present.words); None when the statement has no `ask`.
    `shape` says how to word a question without `ask`: "choose", "pick exactly 2", "pick up to N", ...
    """

    source: str
    words: tuple | None = None
    shape: str = "choose"

    def with_words(self, words: tuple) -> Question:
        return Question(self.source, words, self.shape)


@dataclass
class Decision:
    """A question put to one player. Answer with the index of a legal option.

    `values` are what the options stand for; `labels` are the stable texts that scripts,
    logs and answers use (an entity's id, a number, or an option's name and arguments). Labels
    are not for people: they name components the decider may not see. A decision holds data
    only: the words a player reads are made by interpreter.present.words (`prompt(decision)`,
    `shown_to(decision, state, viewer)`), rendered through that player's view; `source` is the rule
    text, for debugging.

    The generated code passes a `Question` (or a pair of a Question and its evaluated words) as
    `asked`; the engine's own questions (which ability resolves first) pass a plain sentence.
    """

    player: int
    asked: object  # a Question, a (Question, words) pair, or a sentence: see `question` and `prompt`
    values: list
    # choose | number (values: a range, answered by value) | menu | pick (several, one at a time) | order
    # | chance (the seat CHANCE's: codegen.chance)
    kind: str = "choose"
    secret: bool = False
    players: bool = False  # the options are players: label them P1, P2, ...
    cause: object = None  # the component whose ability asks (None: the rules text); set by the session
    _labels: list | None = field(default=None, repr=False)

    @property
    def question(self) -> Question:
        q = self.asked
        if not isinstance(q, Question):
            # (Question, words evaluated where the statement ran), or a sentence the engine wrote
            q = self.asked = q[0].with_words(q[1]) if isinstance(q, tuple) else Question(str(q), None, self.kind)
        return q

    @property
    def source(self) -> str:
        """The rule text of the statement that asks (for debugging; never shown to players)."""
        return self.question.source

    @property
    def labels(self) -> list:
        if self._labels is None:
            if self.players:
                self._labels = [player_label(v) for v in self.values]
            else:
                self._labels = [label_of(v) for v in self.values]
        return self._labels

    def label(self, i: int) -> str:
        """The label of option i alone (what a log records of the answer), without labelling the rest."""
        if self._labels is not None:
            return self._labels[i]
        return player_label(self.values[i]) if self.players else label_of(self.values[i])

    def __len__(self) -> int:
        return len(self.values)

    @property
    def chances(self) -> list | None:
        """A chance decision's probability of each option (all equally likely); None for a player's decision."""
        return [1 / len(self.values)] * len(self.values) if self.kind == "chance" else None

    def index_of(self, answer) -> int:
        """Turn an answer (index, label or unique label prefix) into an index, or raise IllegalDecision."""
        if isinstance(answer, bool):
            raise IllegalDecision(self, answer)
        if isinstance(answer, int):
            if 0 <= answer < len(self.values):
                return answer
            raise IllegalDecision(self, answer)
        text = str(answer).strip()
        if self.kind == "number" and type(self.values) is range:  # by value, never by position or prefix
            try:
                value = int(text)
            except ValueError:
                raise IllegalDecision(self, answer) from None
            if value in self.values:
                return value - self.values.start
            raise IllegalDecision(self, answer)
        labels = self.labels
        if text in labels:
            return labels.index(text)
        matches = [i for i, lab in enumerate(labels) if lab.startswith(text)]
        if len(matches) == 1:
            return matches[0]
        raise IllegalDecision(self, answer)

    def to_json(self) -> dict:
        """The engine's record of the decision, for scripts and debugging, NOT for the player: `options`
        are the stable labels (they may name components the decider cannot see) and `source` is
        the rule text. What a player may read is interpreter.present.words.shown(...).to_json()."""
        return {"player": self.player, "kind": self.kind, "secret": self.secret,
                "options": self.labels, "source": self.source}


class IllegalDecision(Exception):
    def __init__(self, decision: Decision, answer):
        self.decision = decision
        self.answer = answer
        if decision.kind == "number" and type(decision.values) is range and decision.values:
            shown = f"a number from {decision.values[0]} to {decision.values[-1]}"
        else:
            shown = ", ".join(decision.labels[:12]) + (" ..." if len(decision.labels) > 12 else "")
        super().__init__(f"{answer!r} is not a legal answer for {player_label(decision.player)} to the decision of "
                         f"'{_first_line(decision.source)}'; legal: {shown}")


def _first_line(text: str) -> str:
    head = text.strip().splitlines()[0] if text.strip() else text
    return head if len(head) <= 80 else head[:77] + "..."
