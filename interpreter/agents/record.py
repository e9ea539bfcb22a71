"""A line's record kept cheaply: what was told is put into words only when someone reads words.

Bots that read tensors, masks and rewards never read the record, yet every line the runtime tells
was put into words at once (through its reader's view, at the state of the telling), which cost
more than a third of an engine step. The words of a line depend on the state only through the
components it names: one the reader cannot see reads as where it lies then, and the component whose
ability caused the line reads with its holder then. So a line whose values are all plain (numbers,
players, words, zones) or components its reader sees when it is told is kept as its text and put
into words when read (`Later`): a component seen then reads as its name whatever happens to it
after, and the cause's holder is noted. Any other line (a hidden component, a list) is put into
words at once, as before. Either way the words are those `present.words.line` gives at the telling.
"""
from __future__ import annotations

from dsl.translations import Localized, Message
from interpreter.core.decisions import Question, Told, label_of, player_label
from interpreter.core.state import Entity, Zone, holder
from interpreter.present.views import can_see, zone_label
from interpreter.present.words import Presenter, entity_name, line, prompt

_PLAIN = (int, str, bool, float, type(None), Localized)
_SCALARS = frozenset({int, str, bool, float, type(None)})  # the plain values most lines hold, told by their type


class Later:
    """A line told to `viewer`, every component it names seen by that reader when told: put into words when read."""

    __slots__ = ("text", "viewer", "cause_holder", "words")

    def __init__(self, text, viewer, cause_holder):
        self.text, self.viewer, self.cause_holder = text, viewer, cause_holder
        self.words: str | None = None

    def said(self, state) -> str:
        """The words, with `state` only for what never changes in a game (its language, words and zones)."""
        if self.words is None:
            self.words = _Then(state, self.viewer, self.cause_holder).words(self.text)
        return self.words


class _Then(Presenter):
    """`present.words.line`'s presenter for a line whose components its reader saw when it was told."""

    def __init__(self, state, viewer, cause_holder):
        super().__init__(state, viewer, brief=True)
        self.cause_holder = cause_holder

    def entity(self, e, values: bool = True, where: bool = False) -> str:
        return self.told_apart(e, entity_name(e, self.lang))  # as a brief presenter names a component it sees

    def caused(self, cause, text: str) -> str:
        what = self.told_apart(cause, entity_name(cause, self.lang))
        if self.cause_holder is not None:
            what = self.say("cause of", what=what, player=self.player(self.cause_holder, mark_you=False))
        return self.say("caused", cause=what, text=text)


def said(payload, state) -> str:
    """The words of a told line as recorded: words already, or a `Later`."""
    return payload if type(payload) is str else payload.said(state)


def told(text, state, viewer, names: dict):
    """What to record of a line told now: a `Later` when its words cannot change, else its words now.
    `names`: the game's detached stand-ins (`_detach`), shared by all its lines."""
    if not text:
        return ""
    message = isinstance(text[0], Message)
    values = text[1:] if message else [p for p in text if not isinstance(p, str)]
    copied = False
    for v, _ in values:
        t = type(v)
        if t in _SCALARS:
            continue
        if t is Entity:
            if not can_see(v, viewer):
                return line(state, text, viewer)
        elif t is list or t is tuple:
            if not _fixed(v, viewer):
                return line(state, text, viewer)
        elif t is Zone:
            if type(v.owner) is Entity and not can_see(v.owner, viewer):
                return line(state, text, viewer)
        elif not isinstance(v, _PLAIN):  # a map, anything else: words now
            return line(state, text, viewer)
        copied = True
    cause = getattr(text, "cause", None)
    if cause is not None:
        if not can_see(cause, viewer):
            return line(state, text, viewer)
        copied = True
    if copied:  # components, zones and lists kept as stand-ins of what they are now (see `_detach`)
        kept = tuple(p if type(p) is str or type(p[0]) in _SCALARS else (_detach(p[0], names), p[1])
                     for p in (text[1:] if message else text))
        kept = Told(((text[0],) if message else ()) + kept)
        kept.cause = None if cause is None else _detach(cause, names)
        return Later(kept, viewer, None if cause is None else holder(cause))
    return Later(text, viewer, None)


def _fixed(values, viewer) -> bool:
    """Do these listed values read the same whenever they are put into words (as `told` asks of each value)?"""
    for v in values:
        t = type(v)
        if t is Entity:
            if not can_see(v, viewer):
                return False
        elif t is list or t is tuple:
            if not _fixed(v, viewer):
                return False
        elif t is Zone:
            if type(v.owner) is Entity and not can_see(v.owner, viewer):
                return False
        elif not isinstance(v, _PLAIN):
            return False
    return True


def _detach(v, names: dict):
    """What a line keeps of a value: a component as a stand-in with its id and record alone (what a reader who
    saw it is told: its name), a zone as one without items, a list as a copy. Holding the live ones would
    keep the whole table they were told in alive as long as any copy of the line (a copy shares its
    record), and a list may be a variable's, changed later. Stand-ins are made once per game (`names`)."""
    t = type(v)
    if t is Entity:
        found = names.get(v.id)
        if found is None:
            # its kind and name only: other attributes may name live components
            attrs = {k: v.attrs[k] for k in ("kind", "name") if k in v.attrs}
            found = names[v.id] = Entity(v.id, v.record_id, attrs, {})
        return found
    if t is Zone:
        owner = v.owner
        key = (v.name, owner.id if type(owner) is Entity else owner)
        found = names.get(key)
        if found is None:
            found = names[key] = Zone(v.name, _detach(owner, names) if type(owner) is Entity else owner, v.visibility)
        return found
    if t is list or t is tuple:
        return [_detach(x, names) for x in v]
    return v


def asked(decision, prompts: dict) -> str:
    """`present.words.prompt(decision)`, kept per kind of question where its words hold no value (then they
    never change) and, for a question a component's ability asks, per component and holder, when the decider
    sees it: most questions of a game are asked again and again."""
    q = decision.asked
    if type(q) is not Question:
        return prompt(decision)
    words = q.words
    if words is None:  # worded from the shape of the choice alone
        key = (q.shape, decision.kind)
    elif len(words) == 1:  # the `ask` text, without values: its Message is a constant of the game
        key = (id(words[0]), decision.kind)
    else:
        return prompt(decision)
    cause = decision.cause
    if cause is not None:  # "Militia (P2): ...": the component by name, when the decider sees it
        if not can_see(cause, decision.player):
            return prompt(decision)
        key += (cause.id, holder(cause))
    found = prompts.get(key)
    message = words[0] if words else None
    if found is None or found[0] is not message:
        found = prompts[key] = (message, prompt(decision))  # the Message kept: its id is not reused
    return found[1]


def worded(events: list, state_of) -> list:
    """The events with every told line in words (to pickle a line: no state goes with it); `state_of()`
    gives a state of the game, asked only if a line is still to be put into words."""
    state = None
    out = []
    for e in events:
        if e[0] == "told" and type(e[2]) is not str:
            if e[2].words is None and state is None:
                state = state_of()
            e = (e[0], e[1], e[2].said(state))
        out.append(e)
    return out


def named(text):
    """The components a told line names (its values: `Presenter.words` renders them through the view)."""
    if not text:
        return
    values = text[1:] if isinstance(text[0], Message) else [p for p in text if not isinstance(p, str)]
    stack = [v for v, _ in values]
    while stack:
        v = stack.pop()
        if isinstance(v, Entity):
            yield v
        elif isinstance(v, (list, tuple)):
            stack.extend(v)


# ---------------------------------------------------------------- what a player reads of labels and views
HIDDEN = "(hidden)"


def visible_ids(state, player: int) -> set:
    """The ids of the components `player` sees (`can_see`, with each zone's part computed once)."""
    return seen_by_each(state, (player,))[0]


def seen_by_each(state, players) -> list[set]:
    """For each of `players`, the ids of the components it sees (`can_see`), in one pass over the components."""
    out = [set() for _ in players]
    pairs = list(zip(players, out))
    for e in state.entities.values():
        if e.zone is not None:
            for p, ids in pairs:
                if can_see(e, p):
                    ids.add(e.id)
    return out


def shown_label(state, label: str, player: int) -> str:
    """A label as `player` may read it: the ids of components it cannot see read '(hidden)'."""
    entities = state.entities
    if " " not in label:  # one word (most labels): a component's id or none
        e = entities.get(label)
        return label if e is None or can_see(e, player) else HIDDEN
    if not any(token in entities for token in label.split(" ")):
        return label
    return " ".join(HIDDEN if token in entities and not can_see(entities[token], player) else token
                    for token in label.split(" "))


def whole_table(state) -> str:
    """The whole table as text, hidden components named (OpenSpiel's string of a state: the full state, for
    debugging and for its tests, never a player's): each zone holding something with its components in order
    (`*` face down) and their variables set, then the game's and each player's variables."""
    def component(e) -> str:
        values = ", ".join(f"{k}={_value(v)}" for k, v in sorted(e.vars.items()) if v is not None)
        return ("*" if e.face_down else "") + e.id + (f" ({values})" if values else "")

    lines = []
    zones = list(state.game_zones.values()) + [z for zs in state.player_zones.values() for z in zs]
    zones += [z for e in state.entities.values() for z in _made_zones(e)]
    for z in zones:
        if z.items:
            lines.append(f"{zone_label(z)} ({len(z.items)}): " + ", ".join(component(e) for e in z.items))
    game = ", ".join(f"{k}={_value(v)}" for k, v in sorted(state.game_vars.items()))
    if game:
        lines.append("game: " + game)
    for seat, pv in enumerate(state.player_vars):
        if pv:
            lines.append(f"{player_label(seat)}: " + ", ".join(f"{k}={_value(v)}" for k, v in sorted(pv.items())))
    return "\n".join(lines)


def _made_zones(e):
    """The zones on a component that exist (those not made yet are empty: `runtime.lazyzones`)."""
    zs = e.zones
    if getattr(zs, "specs", None) is not None:
        return ()
    return zs.values()


def _value(v) -> str:
    if isinstance(v, Entity):
        return v.id
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return label_of(v) if not isinstance(v, dict) else "{" + ", ".join(f"{_value(k)}: {_value(x)}" for k, x in v.items()) + "}"
