"""Everything generated code may call: the language's built-in functions and the helpers of its statements.

`namespace()` is the whole world of generated code (besides its own functions): these names and
nothing else, under empty __builtins__. Built-ins are plain functions of values; those that need
the game (seats, RNG, variants) take the runtime first.
"""
from __future__ import annotations

from functools import partial

from interpreter.codegen.budgets import (  # noqa: F401 - the budgets are part of what generated code calls
    CALL_LIMIT, DEPTH_LIMIT, NUMBER_LIMIT, RANGE_LIMIT, SIZE_LIMIT, STEP_LIMIT, TOLD_LIMIT, WHILE_LIMIT, _what,
    bounded, chain, combinations, concat2, contains, div, each, each_of, items, join, kept, loop_items, loop_made, making, mod, mul, number_range, numbers,
    plus, repeat_count, set_index, spend, text_of, text_plus, told, too_many_calls, while_step, zone_name)
from interpreter.codegen import chance
from interpreter.codegen.model import GameOver, RunLimit
from interpreter.core.decisions import Decision, label_of, player_label
from interpreter.core.state import EVERYONE, Entity, Zone, holder, touch


_new_decision = object.__new__


# ---------------------------------------------------------------- collections
def entities_of(value) -> list:
    if isinstance(value, Entity):
        return [value]
    return list(items(value))


def at(seq, k, shown: str = "the list"):
    """seq[k] of a list (negative k counts from the end); reading outside it is an error naming the list (`shown`,
    as the rule text writes it) and the index."""
    try:
        return seq[k]
    except IndexError:
        raise RuntimeError(_past_end(shown, k, len(seq))) from None
    except TypeError:
        if type(seq) is not list:
            raise RuntimeError(f"{shown} is {_what(seq)}, not a list: it cannot be indexed") from None
        raise RuntimeError(f"a list is indexed by a number, not {_what(k)}") from None


def _past_end(shown: str, k: int, n: int) -> str:
    where = "past its end" if k >= 0 else "before its start"
    return f"{shown}[{k}] reads {where}: {shown} has {n} element{'' if n == 1 else 's'}" + \
        (f" (0 to {n - 1}, or -{n} to -1 from the end)" if n else "")


def entity_zone(rt, owner, name: str) -> Zone:
    try:
        z = owner.zones.get(name)
    except AttributeError:
        raise RuntimeError(f"'{name}' belongs to a component, not to {_what(owner)}") from None
    return z if z is not None else rt.state.zone(name, owner)


def index(o, k, shown: str = "the list"):
    if isinstance(o, dict):
        return o.get(k)
    seq = o.items if isinstance(o, Zone) else o
    if not isinstance(k, int) or isinstance(k, bool):
        raise RuntimeError(f"a list is indexed by a number, not {_what(k)}")
    if -len(seq) <= k < len(seq):
        return seq[k]
    raise RuntimeError(_past_end(shown, k, len(seq)))


def count(x) -> int:
    if type(x) is list:
        return len(x)
    return len(x) if type(x) is dict else len(items(x))


def total(rt, x) -> int:
    seq = x if type(x) is list else items(x)
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, "elements 'sum' went through")
    return sum(seq)


def extreme(pick, *values):
    if len(values) == 2:
        # max(0, max(...)): an empty inner max (none) gives way to the other value
        present = [v for v in values if v is not None]
        return pick(present) if present else None
    seq = list(items(values[0]))
    return pick(seq) if seq else None


def b_max(*values):
    return extreme(max, *values)


def b_min(*values):
    return extreme(min, *values)


def max1(rt, seq):
    seq = seq if type(seq) is list else items(seq)
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, "elements 'max' went through")
    return max(seq) if seq else None


def min1(rt, seq):
    seq = seq if type(seq) is list else items(seq)
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, "elements 'min' went through")
    return min(seq) if seq else None


def max2(a, b):
    # max(0, max(...)): an empty inner max (none) gives way to the other value
    return b if a is None else (a if b is None else (a if a >= b else b))


def min2(a, b):
    return b if a is None else (a if b is None else (a if a <= b else b))


def first(it):
    for x in it:
        return x
    return None


def last(seq):
    return seq[-1] if seq else None


def distinct(rt, seq) -> list:
    return list(dict.fromkeys(each_of(rt, seq)))


def concat(rt, x) -> list:
    out: list = []
    parts = items(x)
    for part in parts:
        seq = part.items if type(part) is Zone else items(part)
        if len(out) + len(seq) > SIZE_LIMIT:  # checked before each part is joined
            making(rt, len(out) + len(seq))
        out += seq
    rt.steps += len(parts) + len(out)
    if rt.steps > STEP_LIMIT:
        making(rt, len(out))
    return out


def concat_zone(rt, name: str) -> list:
    """`concat([ZONE of q for q in players])`: what lies in that zone of each player, seat by seat, counted as
    `concat` counts it (the players' zones, then the elements made), without making the list of zones first."""
    zones = rt.pz[name]
    out: list = []
    for z in zones:
        out += z.items
    n = len(out)
    rt.steps += len(zones) + n
    if rt.steps > STEP_LIMIT or n > SIZE_LIMIT:
        making(rt, n)
    return out


def top(z, n=None):
    seq = z.items if type(z) is Zone else items(z)
    if n is None:
        return seq[0] if seq else None
    if type(n) is not int or n < 0:  # a slice is a new list already
        n = _count_arg(n, "top")
    return list(seq[:n])


def bottom(z, n=None):
    seq = z.items if type(z) is Zone else items(z)
    if n is None:
        return seq[-1] if seq else None
    if type(n) is not int or n < 0:
        n = _count_arg(n, "bottom")
    return list(seq[-n:]) if n else []


def _count_arg(n, what: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuntimeError(f"'{what}' needs a number of at least 0, not {_what(n)}")
    return n


def rank(seq, keys) -> list:
    """Stable sort by several keys, the first key deciding most; each key ascending unless marked."""
    out = list(seq)
    for key, descending in reversed(keys):
        out.sort(key=key, reverse=descending)
    return out


def group(seq, keys) -> list:
    ranked = rank(seq, keys)
    groups: list = []
    last = object()
    for x in ranked:
        signature = tuple(key(x) for key, _ in keys)
        if groups and signature == last:
            groups[-1].append(x)
        else:
            groups.append([x])
            last = signature
    return groups


def reach(rt, start, step, cond) -> list:
    """Breadth-first from `start`; a node is passed through only where `cond` holds. Every node taken
    from the queue is a step, so a NEXT that always finds new nodes (numbers) stops at the budget."""
    seen: dict = {}
    queue = list(each_of(rt, start))
    i = 0
    while i < len(queue):
        x = queue[i]
        i += 1
        if x in seen:
            continue
        seen[x] = True
        if cond is None or cond(x):
            queue.extend(each_of(rt, step(x)))
    return list(seen)


def seat(rt, p) -> int:
    if type(p) is int and 0 <= p < rt.state.players:
        return p
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < rt.state.players:
        raise RuntimeError(f"{_what(p)} is not a player of this game")
    return p


def b_next(rt, p):
    n = rt.state.players
    return ((p if type(p) is int and 0 <= p < n else seat(rt, p)) + 1) % n


def b_prev(rt, p):
    n = rt.state.players
    return ((p if type(p) is int and 0 <= p < n else seat(rt, p)) - 1) % n


def neighbors(rt, p) -> list:
    n = rt.state.players
    if type(p) is not int or not 0 <= p < n:  # seat(rt, p), its common case inline (as in the helpers below)
        p = seat(rt, p)
    if n >= 3:  # the player before and the one after, two others
        return [(p - 1) % n, (p + 1) % n]
    return list(dict.fromkeys(q for q in ((p - 1) % n, (p + 1) % n) if q != p))


def distance(rt, a, b) -> int:
    n = rt.state.players
    if type(a) is not int or not 0 <= a < n:
        a = seat(rt, a)
    if type(b) is not int or not 0 <= b < n:
        b = seat(rt, b)
    return (b - a) % n


def players_from(rt, p) -> list:
    n = rt.state.players
    if type(p) is not int or not 0 <= p < n:
        p = seat(rt, p)
    return [*range(p, n), *range(p)]


def b_holder(x):
    try:
        zone = x.zone
    except AttributeError:
        raise RuntimeError(f"'holder' needs a component, not {_what(x)}") from None
    if zone is None:
        return None
    owner = zone.owner
    return owner if owner is None or type(owner) is int else holder(x)


def zone_of(x):
    return _entity(x, "zone_of").zone


def place_of(x):
    """The component whose zone holds x (the area a unit stands in), none when a player or the game holds it."""
    zone = _entity(x, "place_of").zone
    owner = zone.owner if zone is not None else None
    return owner if isinstance(owner, Entity) else None


def is_in(x, z) -> bool:
    return _entity(x, "is_in").zone is z


def variant(rt, name) -> bool:
    return name in rt.state.variants


def face_down(x) -> bool:
    return _entity(x, "face_down").face_down


def keys(rt, m) -> list:
    return list(each_of(rt, m))


def snapshot(rt, x) -> list:
    return list(each_of(rt, x))


def _entity(x, what: str) -> Entity:
    if not isinstance(x, Entity):
        raise RuntimeError(f"'{what}' needs a component, not {_what(x)}")
    return x


# ---------------------------------------------------------------- statements
def winners(rt, who) -> GameOver:
    if who is None:
        raise RuntimeError("'win' needs a player or a list of players (an empty list: nobody wins), not none")
    found = list(who) if isinstance(who, (list, tuple)) else [who]
    for p in found:
        seat(rt, p)
    return GameOver(found)


def number_attr(e, name: str, shown: str):
    """A number attribute that some records lack (and that has no default), read as an operand of
    arithmetic or of an order: none would fail there anyway, so say which operand and which record."""
    if type(e) is not Entity:
        raise RuntimeError(f"{shown}: {_what(e)} has no attributes")
    value = e.attrs.get(name)
    if value is None:
        raise RuntimeError(f"{shown} is none: {e.id} (record '{e.record_id}') has no '{name}', and '{name}' has no default")
    return value


def reveal(rt, what) -> None:
    """Components turn face up where they lie and read as themselves to every reader, also in a hidden
    zone (a card revealed from a hand), until they move."""
    rt.version += 1
    for e in entities_of(what):
        e.face_down = False
        e.seen_by = EVERYONE
        if rt.change_watchers:
            rt.changed(e)


def show_to(rt, what, player) -> None:
    """One player looks at components where they lie (the top of a deck, another's hand): they know
    them until the components move. Face-down ones are known to that player alone from then on."""
    who = seat(rt, player)
    rt.version += 1
    for e in entities_of(what):
        e.seen_by = who
        if rt.change_watchers:
            rt.changed(e)


def ask(rt, player, prompt: str, values: list, kind: str = "choose", players: bool = False) -> Decision:
    if type(player) is not int or not 0 <= player < rt.state.players:  # seat(rt, player), its common case inline
        if player is None:
            raise RuntimeError("nobody is named to decide here: add 'by PLAYER'")
        player = seat(rt, player)
    rt.steps = 0
    rt.calls = 0
    d = _new_decision(Decision)  # Decision(player, prompt, values, kind, players=players) without its __init__:
    d.player = player  # the other fields keep their defaults, on the class
    d.asked = prompt
    d.values = values
    d.kind = kind
    d.players = players
    return d


def pick_several(rt, player, prompt: str, candidates: list, kind: str, n, players: bool):
    """choose exactly/up to/at least N: one pick at a time, with `done` once enough are chosen."""
    n = _count_arg(n, "choose")
    low, high = {"exactly": (n, n), "up_to": (0, n), "at_least": (n, len(candidates))}[kind]
    high = min(high, len(candidates))
    low = min(low, high)
    chosen: list = []
    remaining = list(candidates)
    while len(chosen) < high:
        options = remaining + [DONE] if len(chosen) >= low else remaining
        pick = options[0] if len(options) == 1 else options[(yield ask(rt, player, prompt, options, "pick", players))]
        if pick is DONE:
            break
        chosen.append(pick)
        remaining = [x for x in remaining if x is not pick]
    return chosen


def choose_order(rt, player, prompt: str, values, players: bool):
    remaining = list(items(values))
    ordered = []
    while len(remaining) > 1:
        ordered.append(remaining.pop((yield ask(rt, player, prompt, remaining, "order", players))))
    return ordered + remaining


def secretly(parts: list):
    """Everyone's part runs side by side: each wave asks every player before any answer applies."""
    active = []
    for gen in parts:
        try:
            d = next(gen)
        except StopIteration:
            continue
        d.secret = True
        active.append((gen, d))
    while active:
        answers = []
        wave = iter(active)  # a local, so that a copy of a suspended wave knows who is still to answer
        for gen, d in wave:
            answers.append((yield d))
        following = []
        for (gen, _), answer in zip(active, answers):
            try:
                d = gen.send(answer)
            except StopIteration:
                continue
            d.secret = True
            following.append((gen, d))
        active = following


def suppose(rt, moves: list, then):
    """The value of `then()` were these moves made; then every moved component goes back where it was."""
    undo = []
    try:
        for what, zone in moves:
            for e in entities_of(what):
                if not isinstance(e, Entity):
                    raise RuntimeError(f"only components can be moved, not {_what(e)}")
                old = e.zone
                undo.append((e, old, old.items.index(e) if old is not None else 0, e.face_down, e.seen_by))
                rt.move(e, zone, False, None)
        return then()
    finally:
        rt.version += 1
        rt.moves += 1
        rt.abilities_moved()
        for e, old, position, face_down, seen_by in reversed(undo):
            e.zone.items.remove(e)
            touch(e.zone)
            if old is not None:
                old.items.insert(position, e)
                touch(old)
            moved_to = e.zone
            e.zone = old
            e.face_down, e.seen_by = face_down, seen_by
            if rt.change_watchers:
                rt.changed(e, old, moved_to)


def enter_scope(rt, names: tuple) -> list:
    """Game variables scoped to a procedure: their values outside it, and their initial values inside."""
    gv = rt.gv
    rt.version += 1
    saved = [(n, gv[n]) for n in names]
    if rt.change_watchers:
        rt.changed(None)  # game variables changed
    for n in names:
        initial = rt.state.voc.variables[n].initial
        gv[n] = list(initial) if isinstance(initial, list) else (dict(initial) if isinstance(initial, dict) else initial)
    return saved


def leave_scope(rt, saved: list) -> None:
    rt.version += 1
    for n, value in saved:
        rt.gv[n] = value
    if rt.change_watchers:
        rt.changed(None)


def you_of(this):
    if this is None:
        raise RuntimeError("nobody is named to decide here: add 'by PLAYER'")
    zone = this.zone  # holder(this), its common case (a zone of the game or of a player) inline
    owner = zone.owner if zone is not None else None
    return owner if owner is None or type(owner) is int else holder(this)


class Done:
    """The 'done' option of a pick-several decision."""

    def __str__(self) -> str:
        return "done"


DONE = Done()


class MenuChoice:
    """One option of a `choose:` menu: its name and the values it was bound with (labelled on demand)."""

    __slots__ = ("option", "bound")

    def __init__(self, option: tuple, bound: tuple):
        self.option = option  # (name, indices of the bindings it shows, which of those are players)
        self.bound = bound

    @property
    def name(self) -> str:
        return self.option[0]

    @property
    def args(self) -> tuple:
        return tuple(self.bound[i] for i in self.option[1])

    def __eq__(self, other) -> bool:
        return isinstance(other, MenuChoice) and (self.name, self.args) == (other.name, other.args)

    def __hash__(self) -> int:
        return hash((self.name, self.args))

    def __str__(self) -> str:
        option, bound = self.option, self.bound
        shown, players = option[1], option[2]
        if not shown:
            return option[0]
        parts = [option[0]]
        for i, j in enumerate(shown):
            parts.append(player_label(bound[j]) if i in players else label_of(bound[j]))
        return " ".join(parts)


# ---------------------------------------------------------------- text
def show(value, t: str = "any", ids: bool = False) -> str:
    """How a value reads in a log line; with `ids`, components read as their ids (so copies differ) and
    zones list what they hold, as failure messages of scenario files want."""
    if isinstance(value, Entity):
        return value.id if ids else str(value.attrs.get("name") or value.id)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and t == "player":
        return player_label(value)
    if isinstance(value, (list, tuple)):
        inner = t[5:-1] if t.startswith("list[") else "any"
        return ", ".join(show(v, inner, ids) for v in value) if value else "nothing"
    if isinstance(value, Zone):
        return f"{zone_name(value)} [{show(value.items, 'list[entity]', ids)}]" if ids else zone_name(value)
    if isinstance(value, dict) and ids:
        return "{" + ", ".join(f"{show(k, ids=True)}: {show(v, ids=True)}" for k, v in value.items()) + "}"
    if value is None:
        return "nobody" if t == "player" else "none"
    return str(value)


def counted(rt, name: str) -> None:
    """A call of a procedure a report counts (a round, a turn: the manifest's `report: length`)."""
    found = rt.counted
    if found is not None and name in found:
        found[name] += 1


def namespace() -> dict:
    """The globals of generated code: these helpers under fixed names that start with '_'."""
    names = {
        "_items": items, "_index": index, "_at": at, "_ezone": entity_zone,
        "_max1": max1, "_min1": min1, "_max2": max2, "_min2": min2, "_concat2": concat2, "_count": count, "_total": total,
        "_max": b_max, "_min": b_min, "_first": first, "_last": last, "_distinct": distinct, "_concat": concat,
        "_concat_zone": concat_zone,
        "_top": top, "_bottom": bottom, "_rank": rank, "_group": group, "_reach": reach,
        "_seat": seat, "_next": b_next, "_prev": b_prev, "_neighbors": neighbors,
        "_distance": distance, "_players_from": players_from, "_holder": b_holder, "_zone_of": zone_of,
        "_place_of": place_of, "_is_in": is_in, "_variant": variant, "_face_down": face_down, "_keys": keys,
        "_snapshot": snapshot, "_div": div, "_mul": mul, "_mod": mod, "_plus": plus, "_text_plus": text_plus,
        "_text_of": text_of, "_bounded": bounded, "_each": each, "_each_of": each_of, "_in": contains,
        "_too_many_calls": too_many_calls, "_spend": spend, "_chain": chain, "_join": join, "_kept": kept, "_told": told, "_set_index": set_index, "_range": number_range, "_numbers": numbers, "_combinations": combinations, "_repeat": repeat_count,
        "_loop": loop_items, "_loop_made": loop_made, "_while_step": while_step, "_winners": winners,
        "_reveal": reveal, "_show_to": show_to, "_number_attr": number_attr, "_ask": ask, "_pick_several": pick_several, "_choose_order": choose_order,
        "_secretly": secretly, "_suppose": suppose, "_enter_scope": enter_scope, "_leave_scope": leave_scope, "_you_of": you_of, "_MenuChoice": MenuChoice,
        "_new_choice": partial(object.__new__, MenuChoice),  # a MenuChoice whose option and bound the code sets
        "_show": show,
        # the few Python built-ins the generated code itself uses, under helper names
        "_len": len, "_sum": sum, "_max_of": max, "_min_of": min, "_any": any, "_all": all, "_abs": abs, "_list": list, "_bool": bool,
        "_sorted": sorted, "_tuple": tuple, "_counted": counted, "_iter": iter, "_type": type, "_int": int,
        "_Entity": Entity,
        **chance.names(),  # the draws (the chance step)
    }
    return names
