"""What a player is shown: decisions, options and the table in words, rendered through that player's view.

Labels (`Decision.labels`) are the engine's stable names for options: scripts, scenario files and
logs use them, and they may name a component by its id whatever its visibility. Nothing here
prints a label. Every value shown to a player goes through `Presenter`, which asks
`interpreter.views.can_see` first:

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

from dataclasses import dataclass, field

from interpreter.decisions import player_label
from interpreter.state import Entity, Zone
from interpreter.views import back_of, can_see

_META = {"copies"}  # record fields that are numbers but not part of what a card shows


def humanize(name: str) -> str:
    """An internal name as words: `play_card` is `play card`."""
    return str(name).replace("_", " ").strip()


def entity_name(e: Entity) -> str:
    name = e.attrs.get("name")
    return str(name) if name else humanize(e.record_id)


def values_of(e: Entity) -> list[str]:
    """The number attributes a component shows, in the order of its record (`value 2`)."""
    out = [f"{humanize(k)} {v}" for k, v in e.attrs.items()
           if type(v) is int and k not in _META]
    if e.face_down:
        out.append("face down")
    return out


_DESCRIBED: dict = {}  # id(attrs) -> (attrs, face down, text): a component's record never changes


def describe(e: Entity) -> str:
    """A component in full, as whoever sees it reads it: its name and values."""
    known = _DESCRIBED.get(id(e.attrs))
    if known is not None and known[0] is e.attrs and known[1] == e.face_down:
        return known[2]
    values = values_of(e)
    text = entity_name(e) + (f" ({', '.join(values)})" if values else "")
    if len(_DESCRIBED) > 100_000:
        _DESCRIBED.clear()
    _DESCRIBED[id(e.attrs)] = (e.attrs, e.face_down, text)
    return text


def card_text(e: Entity) -> str:
    return str(e.attrs.get("text") or "").strip()


class Presenter:
    """Renders values for one viewer (a seat, or None for a spectator) at the current state."""

    def __init__(self, state=None, viewer: int | None = None):
        self.state = state
        self.viewer = viewer
        self.players = state.players if state is not None else None

    # ------------------------------------------------------------ players and zones
    def player(self, seat, mark_you: bool = True) -> str:
        if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
            return player_label(seat)
        return player_label(seat) + (" (you)" if mark_you and seat == self.viewer else "")

    def _shared(self, zone: Zone) -> str | None:
        if self.state is None or not isinstance(zone.owner, int) or isinstance(zone.owner, bool):
            return None
        zdef = self.state.voc.zones.get(zone.name)
        return getattr(zdef, "shared_with", None)

    def zone(self, zone: Zone) -> str:
        name = humanize(zone.name)
        owner = zone.owner
        if owner is None:
            return name
        if isinstance(owner, Entity):
            return f"{name} of {self.entity(owner, values=False)}"
        shared = self._shared(zone)
        if shared and self.players:
            step = 1 if shared == "next" else -1
            other = (owner + step) % self.players
            side = "left" if shared == "next" else "right"
            back = "right" if shared == "next" else "left"
            if owner == self.viewer and other != owner:
                return f"your {name} with {player_label(other)} (on your {side})"
            if other == self.viewer:
                return f"your {name} with {player_label(owner)} (on your {back})"
            return f"{name} of {player_label(owner)} and {player_label(other)}"
        if owner == self.viewer:
            return f"your {name}"
        return f"{name} of {player_label(owner)}"

    # ------------------------------------------------------------ components
    def entity(self, e: Entity, values: bool = True, where: bool = False) -> str:
        if not can_see(e, self.viewer):
            return self.unseen(e)
        text = describe(e) if values else entity_name(e)
        if values:  # what lies on it (a unit on a card, tokens on a card), as the table shows it
            inner = [f"{humanize(z.name)}: {_contents(self, z, 1)}" for z in e.zones.values() if z.items]
            if inner:
                text += f" [{'; '.join(inner)}]"
        if where and e.zone is not None:
            text += f" in {self.zone(e.zone)}"
        return text

    def unseen(self, e: Entity) -> str:
        """A component the viewer cannot see, by where it lies: never its id, name or values."""
        zone = e.zone
        if zone is None:
            return "a component out of play"
        back = back_of(e, self.viewer)
        word = f"face-down {humanize(back)}" if back else "hidden component"
        same = [x for x in zone.items if not can_see(x, self.viewer) and back_of(x, self.viewer) == back]
        place = self.zone(zone)  # a zone on a component names that component through the view too
        if len(same) <= 1:
            return f"{word} in {place}"
        return f"{word} {same.index(e) + 1} of {len(same)} in {place}"

    # ------------------------------------------------------------ any value
    def value(self, v, t: str = "any", where: bool = False) -> str:
        if isinstance(v, Entity):
            return self.entity(v, where=where)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if t == "player" and (v is None or isinstance(v, int)):
            return self.player(v)
        if isinstance(v, int):
            return str(v)
        if isinstance(v, Zone):
            return self.zone(v)
        if v is None:
            return "nobody" if t == "player" else "none"
        if isinstance(v, (list, tuple)):
            inner = t[5:-1] if t.startswith("list[") else "any"
            return ", ".join(self.value(x, inner) for x in v) if v else "nothing"
        if isinstance(v, dict):
            return ", ".join(f"{self.value(k)}: {self.value(x)}" for k, x in v.items()) if v else "nothing"
        return humanize(v)

    def words(self, parts) -> str:
        """An `ask` text: its plain pieces as written, its {values} through the view."""
        return "".join(p if isinstance(p, str) else self.value(p[0], p[1]) for p in parts)


# ---------------------------------------------------------------- decisions
_ASKED = {"choose": "Choose one", "menu": "Choose what to do", "order": "Choose which comes first"}


def prompt_words(decision, state, viewer: int | None) -> str:
    """The question in words: the `ask` text, or a plain sentence made from the kind of choice."""
    q = decision.question
    if q.words is not None:
        return Presenter(state, viewer).words(q.words)
    shape = q.shape or decision.kind
    if shape.startswith("pick"):
        how = shape[5:]  # "exactly 2", "up to 3", "at least 1", or "" when the number is computed
        if how.startswith("up to"):
            return f"Choose {how}, one at a time (done to stop)"
        if how.startswith("at least"):
            return f"Choose {how}, one at a time (done when you have enough)"
        return f"Choose {how or 'several'}, one at a time"
    return _ASKED.get(shape, _ASKED.get(decision.kind, "Choose one"))


@dataclass
class Shown:
    """A decision as one player may read it: no label, id or rule text, only words through the view."""

    prompt: str
    options: list  # one text per option, in the decision's order
    keys: list = field(default_factory=list)  # per option: [(component in words, its full text)]
    secret: bool = False

    def to_json(self) -> dict:
        return {"prompt": self.prompt, "options": self.options, "secret": self.secret,
                "keys": [[{"name": n, "text": t} for n, t in k] for k in self.keys]}


def shown(decision, state, viewer: int | None) -> Shown:
    from interpreter.codegen.library import Done, MenuChoice
    pr = Presenter(state, viewer)
    # Each option as pieces: plain words, and (slot, value, type) for values; a slot groups the
    # values that stand in the same place of different options, so that where a component lies is
    # told only when it tells them apart.
    pieces: list[list] = []
    for v in decision.values:
        if decision.players:
            pieces.append([pr.player(v)])
        elif isinstance(v, MenuChoice):
            pieces.append(_menu_pieces(v))
        elif isinstance(v, Done):
            pieces.append(["done: choose no more"])
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
                if can_see(e, viewer) and card_text(e) and (describe(e), card_text(e)) not in key:
                    key.append((describe(e), card_text(e)))
        options.append("".join(text))
        keys.append(key)
    # options that still read the same (two copies of a card side by side) are numbered
    count: dict = {}
    for text in options:
        count[text] = count.get(text, 0) + 1
    seen: dict = {}
    for i, text in enumerate(options):
        if count[text] > 1:
            seen[text] = seen.get(text, 0) + 1
            options[i] = f"{text} #{seen[text]}"
    return Shown(prompt_words(decision, state, viewer), options, keys, decision.secret)


def _menu_pieces(choice) -> list:
    option = choice.option  # (name, shown bindings, player bindings[, words])
    name = option[0]
    words = option[3] if len(option) > 3 else None
    if words is not None:
        out = []
        for i, part in enumerate(words(*choice.bound)):
            out.append(part if isinstance(part, str) else ((name, i), part[0], part[1]))
        return out
    args = choice.args
    if not args:
        return [humanize(name)]
    out: list = [humanize(name) + ": "]
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


# ---------------------------------------------------------------- the table
SPELLED_OUT = 8  # a zone of the table with at most this many components shows their texts too


def table(state, viewer: int | None) -> list[str]:
    """The table as `viewer` sees it, one line per zone that holds something, then the scores and
    other public variables: names and values of what the viewer sees, counts of what it does not.
    The components of a zone of the table (not a player's) that holds a few show their texts."""
    pr = Presenter(state, viewer)
    lines = []
    zones = list(state.game_zones.values())
    order = [viewer] + [p for p in range(state.players) if p != viewer] if viewer is not None else range(state.players)
    for p in order:
        zones.extend(zs[p] for zs in state.player_zones.values())
    for zone in zones:
        if zone.items:
            lines.append(f"{pr.zone(zone)}: {_contents(pr, zone)}")
            if zone.owner is None and len(zone.items) <= SPELLED_OUT:
                # the few cards in the middle of the table (a row of titles, the current ally) with their texts
                lines.extend(f"    {describe(e)}: {card_text(e)}" for e in zone.items if can_see(e, viewer) and card_text(e))
    shown = [f"{humanize(k)} {pr.value(v, _var_type(state, k))}" for k, v in state.game_vars.items() if _worth(v)]
    if shown:
        lines.append("game: " + ", ".join(shown))
    for p in order:
        shown = [f"{humanize(k)} {pr.value(v, _var_type(state, k))}" for k, v in state.player_vars[p].items() if _worth(v)]
        if shown:
            lines.append(f"{pr.player(p)}: " + ", ".join(shown))
    return lines


def _contents(pr: Presenter, zone: Zone, depth: int = 0) -> str:
    seen, unseen = [], {}
    for e in zone.items:
        if can_see(e, pr.viewer):
            text = describe(e)
            inner = [f"{humanize(z.name)}: {_contents(pr, z, depth + 1)}" for z in e.zones.values() if z.items] if depth < 4 else []
            seen.append(text + (f" [{'; '.join(inner)}]" if inner else ""))
        else:
            back = back_of(e, pr.viewer)
            unseen[back] = unseen.get(back, 0) + 1
    for back, n in unseen.items():
        seen.append(f"{n} face-down {humanize(back)}{'s' if n > 1 else ''}" if back else f"{n} hidden")
    return ", ".join(seen) or "empty"


def _worth(v) -> bool:
    return v is not None and v is not False and v != [] and v != {}


def _var_type(state, name: str) -> str:
    v = state.voc.variables.get(name)
    return v.type if v is not None else "any"


def key(state, viewer: int | None) -> list[str]:
    """The full text of every component the viewer sees on the table, each card once."""
    out, done = [], set()
    for zone in state.all_zones():
        for e in zone.items:
            if can_see(e, viewer) and card_text(e):
                line = f"{describe(e)}: {card_text(e)}"
                if line not in done:
                    done.add(line)
                    out.append(line)
    return out
