"""What a player is shown: decisions, options and the table in words, rendered through that player's view.

Labels (`Decision.labels`) are the engine's stable names for options: scripts, scenario files and
logs use them, and they may name a component by its id whatever its visibility. Nothing here
prints a label. Every value shown to a player goes through `Presenter`, which asks
`interpreter.present.views.can_see` first:

- a component the viewer can see reads as its name and its number attributes, `Gold coin
  (value 2)`, and where it lies when that tells options apart (`... in pile of P3`);
- one the viewer cannot see reads only as where it lies, `face-down token 2 of 5 in tableau of P3
  and P4` (its back shows its kind when it lies face down on the table) or `hidden component 3 of 60
  in deck`: never its id, name or values;
- players read `P2`, the viewer `P1 (you)`; zones read `your hand`, `hand of P2`, and a zone the
  manifest declares `shared_with: next` reads `your tableau with P2 (on your left)`;
- option names and other words of the rule text read as words (`play_card` is `play card`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dsl.plurals import plural
from dsl.translations import Localized, Message, humanize, text_in
from interpreter.present.phrases import say
from interpreter.core.state import Entity, Zone, holder
from interpreter.present.views import back_of, can_see

_META = {"copies"}  # record fields that are numbers but not part of what a card shows


def entity_name(e: Entity, lang: str = "en") -> str:
    name = e.attrs.get("name")
    return text_in(name, lang) if name else humanize(e.record_id)


def made_zones(e: Entity):
    """The zones on component `e` that were ever made. A component's zones are made when the rules first read
    them (interpreter.runtime.lazyzones: until then `e.zones` holds none, though reading it in any other way
    makes them all); a zone never made holds nothing, so what lies on a component is read without making them."""
    return dict.values(e.zones)


def card_text(e: Entity, lang: str = "en") -> str:
    text = e.attrs.get("text")
    return text_in(text, lang).strip() if text else ""


def copy_number(e: Entity) -> int | None:
    """Which copy of its record a component is (ids of copies end in _1, _2, ...), or None when it has no twin."""
    if e.id == e.record_id:
        return None
    tail = e.id[len(e.record_id) + 1:]
    return int(tail) if tail.isdigit() else None


class Presenter:
    """Renders values for one viewer (a seat, or None for a spectator) at the current state, in a
    language: the state's (`Session(lang=...)`) unless one is given."""

    def __init__(self, state=None, viewer: int | None = None, lang: str | None = None, brief: bool = False):
        self.state = state
        self.brief = brief  # components by name alone, copies numbered (log lines)
        self.viewer = viewer
        self.players = state.players if state is not None else None
        self.lang = lang or getattr(state, "lang", None) or "en"
        self.tr = getattr(state, "translations", None)
        voc = getattr(state, "voc", None)
        self.backs = voc.table.backs if voc is not None else {}  # what face-down backs show (manifest `table:`)
        self._described: dict = {}

    def say(self, key: str, **values) -> str:
        return say(self.lang, key, **values)

    def word(self, identifier) -> str:
        """An identifier of the game (a zone, a variable, an enum value, an option) as the reader reads it."""
        return self.tr.word(self.lang, identifier) if self.tr is not None else humanize(identifier)

    # ------------------------------------------------------------ players and zones
    def player(self, seat, mark_you: bool = True) -> str:
        if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
            return self.say("nobody") if seat is None else str(seat)
        name = self.say("player", n=seat + 1)
        return self.say("you", player=name) if mark_you and seat == self.viewer else name

    def _shared(self, zone: Zone) -> str | None:
        if self.state is None or not isinstance(zone.owner, int) or isinstance(zone.owner, bool):
            return None
        zdef = self.state.voc.zones.get(zone.name)
        return getattr(zdef, "shared_with", None)

    def zone(self, zone: Zone) -> str:
        name = self.word(zone.name)
        owner = zone.owner
        if owner is None:
            return name
        if isinstance(owner, Entity):
            return self.say("zone of", zone=name, owner=self.entity(owner, values=False))
        shared = self._shared(zone)
        if shared and self.players:
            other = (owner + (1 if shared == "next" else -1)) % self.players
            if owner == self.viewer and other != owner:
                side = "left" if shared == "next" else "right"
                return self.say("shared, yours", zone=name, other=self.player(other, False), side=self.say(side))
            if other == self.viewer:
                side = "right" if shared == "next" else "left"
                return self.say("shared, yours", zone=name, other=self.player(owner, False), side=self.say(side))
            return self.say("shared", zone=name, owner=self.player(owner, False), other=self.player(other, False))
        if owner == self.viewer:
            return self.say("your zone", zone=name)
        return self.say("zone of", zone=name, owner=self.player(owner, False))

    # ------------------------------------------------------------ components
    def values_of(self, e: Entity) -> list[str]:
        """The number attributes a component shows, in the order of its record (`value 2`)."""
        unshown = self.state.voc.unshown if self.state is not None else ()
        out = [self.say("attribute", name=self.word(k), value=v) for k, v in e.attrs.items()
               if type(v) is int and k not in _META and k not in unshown]
        if e.face_down:
            out.append(self.say("face down"))
        return out

    def describe(self, e: Entity) -> str:
        """A component in full, as whoever sees it reads it: its name and values."""
        known = self._described.get(id(e.attrs))
        if known is not None and known[0] == e.face_down:
            return known[1]
        values = self.values_of(e)
        text = entity_name(e, self.lang) + (f" ({', '.join(values)})" if values else "")
        self._described[id(e.attrs)] = (e.face_down, text)
        return text

    def card_text(self, e: Entity) -> str:
        return card_text(e, self.lang)

    def told_apart(self, e: Entity, text: str) -> str:
        """A copy of a card with twins reads with its number: `Obelisk (strength 2) #1`."""
        n = copy_number(e)
        return text if n is None else self.say("copy", name=text, n=n)

    def entity(self, e: Entity, values: bool = True, where: bool = False) -> str:
        if not can_see(e, self.viewer):
            return self.unseen(e)
        if self.brief:
            return self.told_apart(e, entity_name(e, self.lang))
        text = self.describe(e) if values else entity_name(e, self.lang)
        if values:  # what lies on it (a unit on a card, tokens on a card), as the table shows it
            inner = [f"{self.word(z.name)}: {_contents(self, z, 1)}" for z in made_zones(e) if z.items]
            if inner:
                text += f" [{'; '.join(inner)}]"
        if where and e.zone is not None:
            text = self.say("in", what=text, place=self.zone(e.zone))
        return text

    def unseen_short(self, e: Entity) -> str:
        """A component the viewer cannot see, where the place it lies is already said (a line of the table)."""
        back = back_of(e, self.viewer, self.backs)
        return self.say("face-down", back=self.word(back)) if back else self.say("hidden")

    def unseen(self, e: Entity) -> str:
        """A component the viewer cannot see, by where it lies: never its id, name or values."""
        zone = e.zone
        if zone is None:
            return self.say("out of play")
        back = back_of(e, self.viewer, self.backs)
        word = self.say("face-down", back=self.word(back)) if back else self.say("hidden")
        same = [x for x in zone.items if not can_see(x, self.viewer) and back_of(x, self.viewer, self.backs) == back]
        place = self.zone(zone)  # a zone on a component names that component through the view too
        if len(same) > 1:
            word = self.say("n of", what=word, i=same.index(e) + 1, n=len(same))
        return self.say("in", what=word, place=place)

    # ------------------------------------------------------------ any value
    def value(self, v, t: str = "any", where: bool = False) -> str:
        if isinstance(v, Entity):
            return self.entity(v, where=where)
        if isinstance(v, bool):
            return self.say("yes" if v else "no")
        if t == "player" and (v is None or isinstance(v, int)):
            return self.player(v)
        if isinstance(v, int):
            return str(v)
        if isinstance(v, Zone):
            return self.zone(v)
        if isinstance(v, Localized):
            return v.get(self.lang)
        if v is None:
            return self.say("nobody" if t == "player" else "none")
        if isinstance(v, (list, tuple)):
            inner = t[5:-1] if t.startswith("list[") else "any"
            return ", ".join(self.value(x, inner) for x in v) if v else self.say("nothing")
        if isinstance(v, dict):
            return ", ".join(f"{self.value(k)}: {self.value(x)}" for k, x in v.items()) if v else self.say("nothing")
        return self.word(v)

    def words(self, text) -> str:
        """A `log` or `ask` text (its Message, then a (value, type) per {expression}) in the reader's
        language, its values through the reader's view; a line told while a component's ability ran
        says so first, unless it already names that component."""
        said = self._words(text)
        cause = getattr(text, "cause", None)
        if cause is None or any(v is cause for v in _values(text)):
            return said
        return self.caused(cause, said)

    def caused(self, cause, text: str) -> str:
        """`Militia (P2): text`: the component whose ability caused it, through the view, and its holder."""
        seen = can_see(cause, self.viewer)
        what = self.told_apart(cause, entity_name(cause, self.lang)) if seen else self.unseen(cause)
        seat = holder(cause)
        if seat is not None:
            what = self.say("cause of", what=what, player=self.player(seat, mark_you=False))
        return self.say("caused", cause=what, text=text)

    def _words(self, text) -> str:
        if not text:
            return ""
        if isinstance(text[0], Message):
            out = []
            yours = False  # the reader just named, before an English possessive
            for piece in text[0].pieces(self.lang):
                if type(piece) is tuple:  # a number said in its plural forms (dsl.plurals)
                    out.append(plural(self.lang, text[1 + piece[0]][0], piece[1]))
                elif isinstance(piece, str):
                    if yours and piece.startswith("'s"):  # "{p}'s turn" to its reader: "your turn", never "P1 (you)'s"
                        out[-1] = "Your" if len(out) == 1 else "your"
                        piece = piece[2:]
                    out.append(piece)
                else:
                    value, kind = text[1 + piece]
                    yours = self.lang == "en" and kind == "player" and value == self.viewer and value is not None
                    out.append(self.value(value, kind))
                    continue
                yours = False
            return "".join(out)
        return "".join(p if isinstance(p, str) else self.value(p[0], p[1]) for p in text)


def _values(text):
    """The values a `log` or `ask` text shows."""
    for piece in text[1:] if text and isinstance(text[0], Message) else text:
        if isinstance(piece, tuple) and piece:
            yield piece[0]


def describe(e: Entity, state=None) -> str:
    """A component in full (name and values), as one who sees it reads it in the state's language."""
    return Presenter(state).describe(e)


def line(state, text, viewer: int | None, lang: str | None = None) -> str:
    """A log line as `viewer` reads it (None: a spectator), at the state it was written in: the
    components it names by their names, copies of one card told apart (`Obelisk #2`)."""
    return Presenter(state, viewer, lang, brief=True).words(text)


def telling(listener):
    """An account for a Session from `listener(to, text)`: each line the runtime tells is put into
    words at once, through its reader's view and in the state's language. None stays None."""
    if listener is None:
        return None

    def account(to, text, state, viewer):
        listener(to, line(state, text, viewer))
    return account


# ---------------------------------------------------------------- decisions
_ASKED = {"choose": "choose one", "menu": "choose what", "order": "choose first", "abilities": "which ability"}


def prompt(decision, state=None, viewer: int | None = None, lang: str | None = None) -> str:
    """The question as `viewer` (by default the decider) reads it."""
    return prompt_words(decision, state, decision.player if viewer is None else viewer, lang)


def prompt_words(decision, state, viewer: int | None, lang: str | None = None) -> str:
    """The question in words: the `ask` text, or a plain sentence made from the kind of choice."""
    pr = Presenter(state, viewer, lang)
    said = _question(pr, decision)
    cause = decision.cause
    if cause is None or (decision.question.words is not None and any(v is cause for v in _values(decision.question.words))):
        return said
    return pr.caused(cause, said)


def _question(pr: Presenter, decision) -> str:
    q = decision.question
    if q.words is not None:
        return pr.words(q.words)
    shape = q.shape or decision.kind
    if decision.kind == "number" and decision.values:
        return pr.say("choose number", low=decision.values[0], high=decision.values[-1])
    if shape.startswith("pick"):
        how = shape[5:]  # "exactly 2", "up to 3", "at least 1", or "" when the number is computed
        for kind in ("exactly", "up to", "at least"):
            if how.startswith(kind):
                return pr.say("pick " + kind, n=how[len(kind):].strip())
        return pr.say("pick several")
    return pr.say(_ASKED.get(shape, _ASKED.get(decision.kind, "choose one")))


class Lazy(Sequence):
    """A sequence whose items are made when read (the options of a number decision in a large range)."""

    def __init__(self, n: int, item):
        self.n, self.item = n, item

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.item(j) for j in range(*i.indices(self.n))]
        if not -self.n <= i < self.n:
            raise IndexError(i)
        return self.item(i % self.n)


@dataclass
class Shown:
    """A decision as one player may read it: no label, id or rule text, only words through the view."""

    prompt: str
    options: list  # one text per option, in the decision's order
    keys: list = field(default_factory=list)  # per option: [(component in words, its full text)]
    secret: bool = False
    # options that differ only in which of identical components they name (copies of an order token in one
    # pile): [(their text without the copy number, their indices)], one entry per option otherwise
    groups: list = field(default_factory=list)
    number: tuple | None = None  # a number decision: (lowest, highest); its options are those numbers, made when read

    def to_json(self) -> dict:
        if self.number is not None:  # the range, not every number in it
            return {"prompt": self.prompt, "number": list(self.number), "secret": self.secret}
        return {"prompt": self.prompt, "options": self.options, "secret": self.secret,
                "keys": [[{"name": n, "text": t} for n, t in k] for k in self.keys]}


def shown_to(decision, state, viewer: int | None = None, lang: str | None = None) -> Shown:
    """What `viewer` (by default the decider) is shown: the prompt and every option in words,
    rendered through that player's view, and each option's key (the full texts of the components
    it names)."""
    if viewer is None:
        viewer = decision.player
    if decision.kind == "number" and type(decision.values) is range and decision.values:
        values = decision.values  # a number reads as itself in every language; however many, none is made before it is read
        return Shown(prompt_words(decision, state, viewer, lang), Lazy(len(values), lambda i: str(values[i])),
                     Lazy(len(values), lambda i: []), decision.secret, number=(values[0], values[-1]))
    from interpreter.codegen.library import Done, MenuChoice
    pr = Presenter(state, viewer, lang)
    # Each option as pieces: plain words, and (slot, value, type) for values; a slot groups the
    # values that stand in the same place of different options, so that where a component lies is
    # told only when it tells them apart.
    pieces: list[list] = []
    for v in decision.values:
        if decision.players:
            pieces.append([pr.player(v)])
        elif isinstance(v, MenuChoice):
            pieces.append(_menu_pieces(pr, v))
        elif isinstance(v, Done):
            pieces.append([pr.say("done")])
        else:
            pieces.append([("value", v, "any")])
    zones: dict = {}
    for option in pieces:
        for p in option:
            if isinstance(p, tuple) and isinstance(p[1], Entity) and can_see(p[1], viewer):
                zones.setdefault(p[0], set()).add(id(p[1].zone))
    options, keys = [], []
    for option in pieces:
        text, key = [], []
        for p in option:
            if isinstance(p, str):
                text.append(p)
                continue
            slot, v, t = p
            text.append(pr.value(v, t, where=len(zones.get(slot, ())) > 1))
            for e in _entities(v):
                if can_see(e, viewer) and pr.card_text(e) and (pr.describe(e), pr.card_text(e)) not in key:
                    key.append((pr.describe(e), pr.card_text(e)))
        options.append("".join(text))
        keys.append(key)
    # options that still read the same (two copies of a card side by side) are told apart by the copy
    # number of the component they name, which it keeps all game; by their place when that does not do
    same: dict = {}
    for i, text in enumerate(options):
        same.setdefault(text, []).append(i)
    groups = []
    for text, where in same.items():
        if len(where) < 2:
            groups.append((text, where))
            continue
        kinds: dict = {}
        for i in where:
            kinds.setdefault(_likeness(decision.values[i], viewer), []).append(i)
        groups.extend((text, members) for members in kinds.values())
        numbers = [next((n for e in _entities(decision.values[i]) if (n := copy_number(e)) is not None), None) for i in where]
        if None in numbers or len(set(numbers)) < len(numbers):
            numbers = list(range(1, len(where) + 1))
        for i, n in zip(where, numbers):
            options[i] = pr.say("copy", name=text, n=n)
    groups.sort(key=lambda g: g[1][0])
    return Shown(prompt_words(decision, state, viewer, lang), options, keys, decision.secret, groups)


def _likeness(value, viewer) -> tuple:
    """What tells an option's components apart beyond their words: for each component it names (that the viewer
    sees), its attributes (all but its id and source: two records alike in every other field are the same
    component twice), variables, face and place. Options alike in words and in this are the same choice made
    with another copy, so a page may offer them once."""
    out = []
    for e in _named(value):
        if can_see(e, viewer):
            attrs = repr(sorted((k, v) for k, v in e.attrs.items() if k not in _NOT_LIKENESS))
            out.append((attrs, repr(sorted(e.vars.items())) if e.vars else "", e.face_down, id(e.zone)))
        else:
            out.append(("?", id(e)))  # never merged: its words already tell it apart
    return tuple(out)


_NOT_LIKENESS = frozenset({"id", "source", "copies"})


def _named(value, depth: int = 0):
    """The components an option names: a menu choice's arguments, a list's items, the value itself."""
    if depth > 4:
        return
    if isinstance(value, Entity):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _named(v, depth + 1)
    elif getattr(value, "option", None) is not None:
        for v in getattr(value, "bound", ()) or ():
            yield from _named(v, depth + 1)


def _menu_pieces(pr: Presenter, choice) -> list:
    option = choice.option  # (name, shown bindings, player bindings[, words])
    name = option[0]
    words = option[3] if len(option) > 3 else None
    if words is not None:
        text = words(*choice.bound)  # (Message, (value, type), ...)
        return [piece if isinstance(piece, str) else ((name, piece), *text[1 + piece])
                for piece in text[0].pieces(pr.lang)]
    args = choice.args
    if not args:
        return [pr.word(name)]
    out: list = [pr.word(name) + ": "]
    for i, a in enumerate(args):
        if i:
            out.append(", ")
        out.append(((name, i), a, "player" if i in option[2] else "any"))
    return out


def _entities(v):
    if isinstance(v, Entity):
        yield v
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _entities(x)


# ---------------------------------------------------------------- what lies on a component
def _contents(pr: Presenter, zone: Zone, depth: int = 0) -> str:
    seen, unseen = [], {}
    for e in zone.items:
        if can_see(e, pr.viewer):
            text = pr.describe(e)
            inner = [f"{pr.word(z.name)}: {_contents(pr, z, depth + 1)}" for z in e.zones.values() if z.items] if depth < 4 else []
            seen.append(text + (f" [{'; '.join(inner)}]" if inner else ""))
        else:
            back = back_of(e, pr.viewer, pr.backs)
            unseen[back] = unseen.get(back, 0) + 1
    counted: dict = {}  # identical components once, with how many ("Army ×11"), as the table stacks them
    for text in seen:
        counted[text] = counted.get(text, 0) + 1
    shown = [text + (f" ×{n}" if n > 1 else "") for text, n in counted.items()]
    for back, n in unseen.items():
        shown.append(pr.say("count face-down", n=n, back=pr.word(back)) if back else pr.say("count hidden", n=n))
    return ", ".join(shown) or pr.say("empty")
