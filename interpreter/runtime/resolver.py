"""Which triggers, replacements and modifiers apply to an event, and in what order.

The order is the game's priority policy, read from its manifest: timing class, then
card text over rules text, then the card kinds in the order listed, then players
clockwise from a player the game names, then declaration order.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from interpreter.codegen import Hook
from interpreter.core.decisions import label_of, player_label
from interpreter.core.state import Entity, holder


@dataclass
class Temporary:
    """Abilities that last until an event completes ("during this round", "until end of combat")."""

    until: str
    hooks: list
    captured: dict


_new = object.__new__
_key_attr = attrgetter("key")  # a candidate's priority key, once _keyed has filled it in


def _candidate(hook, variables: dict, source, controller) -> "Candidate":
    """Candidate(...) without the call of its __init__ (made for every ability an event finds)."""
    c = _new(Candidate)
    c.hook, c.b, c.key, c.source, c.controller = hook, variables, None, source, controller
    return c


class Candidate:
    """An ability that applies: with the names its functions see (`b`), its controller and source."""

    __slots__ = ("hook", "b", "key", "controller", "source")

    def __init__(self, hook: Hook, b: dict, key: tuple | None, controller: int | None, source):
        self.hook = hook
        self.b = b
        self.key = key  # the priority key, filled in by Resolver.key_of when needed
        self.controller = controller
        self.source = source  # the entity whose ability it is, or None for rules text


class Entry:
    """The abilities of one (kind, event), as the resolver reads them at every such event."""

    __slots__ = ("key", "slot", "rules", "by_this", "by_record", "zones", "lone", "cards_only")

    def __init__(self, key: tuple, slot: int, rules: tuple, by_this: tuple, by_record: dict | None, zones: tuple):
        self.key = key  # (kind, event), which temporaries are indexed by
        self.slot = slot  # its place in Resolver.active_cache
        self.rules = rules  # rules text's abilities
        self.by_this = by_this  # ((position of `this`, {record id: abilities}), ...)
        self.by_record = by_record  # card abilities found by where their cards lie: record id -> abilities
        self.zones = zones  # the names of the zones where those work (a card elsewhere has none of them active)
        # only abilities of the component at one position (`when played(this, _)`): the position, else None
        self.lone = by_this[0][0] if len(by_this) == 1 and not rules and by_record is None else None
        self.cards_only = by_record is not None and not rules and not by_this  # found by where their cards lie alone


def index_hooks(game) -> dict:
    """kind -> {event: Entry}; also, per record with abilities found by where it lies, the (kind, event) of
    those abilities with the zones where they work (Runtime.move counts a move that may change them)."""
    index: dict = {kind: {} for kind in game.hooks}
    voc = game.content.vocabulary
    kind_of: dict = {}  # record id -> kind, read when first needed (a game without abilities needs none)
    slots = 0
    for kind, by_event in game.hooks.items():
        for event, hooks in by_event.items():
            rules, by_this, by_record, zones = [], {}, {}, {}
            for hook in hooks:
                if hook.owner is None:
                    rules.append(hook)
                elif "this" in hook.pattern:
                    by_this.setdefault(hook.pattern.index("this"), {}).setdefault(hook.owner, []).append(hook)
                else:
                    # found by going through the zones where the owner's kind is active
                    by_record.setdefault(hook.owner, []).append(hook)
                    if not kind_of:
                        kind_of = {r.id: r.data["kind"] for r in game.content.records}
                    where = hook.zones if hook.zones is not None else voc.kinds[kind_of[hook.owner]].active_in
                    zones.update(dict.fromkeys(where))
            index[kind][event] = Entry((kind, event), slots, tuple(rules), tuple(by_this.items()),
                                       by_record or None, tuple(zones))
            slots += 1
    game.hook_index = index
    # record id -> (slot of a (kind, event), the zones where those abilities work), for the abilities it has that
    # are found by where it lies: a move from or to one of those zones may change which are active (Runtime.move
    # counts it); a move between two other zones changes nothing the resolver reads for them
    found: dict = {}
    for by_event in index.values():
        for entry in by_event.values():
            if entry.by_record is not None:
                for r in entry.by_record:
                    found.setdefault(r, []).append((entry.slot, frozenset(entry.zones)))
    game.ability_records = {r: tuple(keys) for r, keys in found.items()}
    return index


class Resolver:
    def __init__(self, rt):
        self.rt = rt
        game = rt.game
        voc = game.content.vocabulary
        self.policy = voc.priority
        self.static = game.hooks
        # the events some rule or card replaces, or triggers on (Runtime.event tests these first, inline)
        self.replaced = game.hooks["replacement"]
        self.triggered = game.hooks["trigger"]
        # the same with the temporaries' events (index_temporaries): what Runtime.event tests for every event
        self.replacing = frozenset(self.replaced)
        self.triggering = frozenset(self.triggered)
        self.index = game.hook_index or index_hooks(game)
        self.modifiers = self.index["modifier"]
        if game.active_in is None:  # kind -> the zones where its abilities work: the same for every game
            game.active_in = {name: frozenset(k.active_in) for name, k in voc.kinds.items()}
        self.active_in = game.active_in
        self.temporaries: list[Temporary] = []
        # the temporaries' abilities by (kind, event), in the order of `temporaries`, and the events they last
        # until: made again whenever `temporaries` changes (index_temporaries), read by every event
        self.temp_index: dict = {}
        self.temp_until: frozenset = frozenset()
        self.zones_cache: dict = {}
        self.slots = sum(len(by_event) for by_event in self.index.values())
        # per Entry.slot: its active card abilities, or None once a move may have changed them (Runtime.move clears
        # the slots of the abilities of what it moves, from or to a zone where they work; a `suppose` clears all)
        self.active_cache: list = [None] * self.slots
        self.static_keys: dict = {}
        self.keys: dict = {}  # (id of an ability, its card, controller) -> (the player the order starts from, its key)
        self.player_part = self.policy.order.index("player") if "player" in self.policy.order else None
        self.running: set = set()  # replacements in progress, so one never replaces itself

    def has(self, kind: str, event: str) -> bool:
        if event in self.static[kind]:
            return True
        return (kind, event) in self.temp_index

    def collect(self, kind: str, event: str, args: list) -> list[Candidate]:
        found: list[Candidate] = []
        entry = self.index[kind].get(event)
        # a modifier's condition may read `value`: it is tested when the modifier applies (Runtime._modify)
        tested = kind != "modifier"
        if entry is not None:
            n = len(args)
            for hook in entry.rules:  # _consider(hook, {}, args, None, found), inline
                for i in hook.this_at:
                    if i < n and args[i] is not None:
                        break
                else:
                    variables = {}
                    for i, name in hook.binds:
                        if i < n:
                            variables[name] = args[i]
                    if tested and hook.cond is not None and not hook.cond(self.rt, variables):
                        continue
                    found.append(_candidate(hook, variables, None, variables["you"] if "you" in variables else None))
            # A card ability that names `this` in its pattern can only be the ability of that argument.
            for position, by_record in entry.by_this:
                entity = args[position] if position < n else None
                hooks = by_record.get(entity.record_id) if type(entity) is Entity else None
                if hooks:
                    zone = entity.zone
                    if zone is None:
                        continue
                    where = zone.name
                    owner = zone.owner
                    for hook in hooks:  # works() and _consider(hook, {"this": entity}, ...), inline
                        if where not in (hook.zones if hook.zones is not None else self.active_in.get(entity.kind, ())):
                            continue
                        for i in hook.this_at:
                            if i < n and args[i] is not entity:
                                break
                        else:
                            variables = {"this": entity}
                            for i, name in hook.binds:
                                if i < n:
                                    variables[name] = args[i]
                            if tested and hook.cond is not None and not hook.cond(self.rt, variables):
                                continue
                            # holder(entity), its common case (a zone of the game or of a player) inline
                            found.append(_candidate(hook, variables, entity, variables["you"] if "you" in variables else
                                                    owner if owner is None or type(owner) is int else holder(entity)))
            if entry.by_record is not None:
                # without a trace (which lists every modifier, also one whose condition fails), a modifier of
                # another card than its argument is passed over: its condition starts with `a == this`
                rt = self.rt
                slot = entry.slot
                pairs = self.active_cache[slot]
                if pairs is None:
                    pairs = self.active_abilities(entry)
                if pairs:
                    traced = rt.trace is not None
                    for hook, entity in pairs:
                        guard = hook.guard
                        if guard is not None and guard < n and args[guard] is not entity and not traced:
                            continue
                        # as _consider, for an ability without `this` in its pattern
                        variables = {"this": entity}
                        for i, name in hook.binds:
                            if i < n:
                                variables[name] = args[i]
                        if tested and hook.cond is not None and not hook.cond(rt, variables):
                            continue
                        if "you" in variables:
                            controller = variables["you"]
                        else:  # holder(entity), its common case (a zone of the game or of a player) inline
                            owner = entity.zone
                            owner = owner.owner if owner is not None else None
                            controller = owner if owner is None or type(owner) is int else holder(entity)
                        found.append(_candidate(hook, variables, entity, controller))
        if self.temp_index:
            for temp, hook in self.temp_index.get(entry.key if entry is not None else (kind, event), ()):
                self._consider(hook, dict(temp.captured), args, temp.captured.get("this"), found)
        if len(found) > 1:
            self._keyed(found)
            found.sort(key=_key_attr)
        return found

    def modified(self, function: str, args, value):
        """`value` of `function` with its modifiers applied, untraced, when the function is not being modified
        already (Runtime.apply_modifiers). When only card abilities found by where their cards lie may modify it,
        as for most functions, and at most one applies to these arguments, it applies here at once: no candidate
        made, nothing to order."""
        entry = self.modifiers.get(function)
        temps = self.temp_index
        if entry is not None and entry.cards_only and (not temps or entry.key not in temps):
            rt = self.rt
            slot = entry.slot
            pairs = self.active_cache[slot]
            if pairs is None:
                pairs = self.active_abilities(entry)
            one = None
            n = len(args)
            for pair in pairs:
                guard = pair[0].guard  # as collect: a modifier of another card than its argument is passed over
                if guard is not None and guard < n and args[guard] is not pair[1]:
                    continue
                if one is not None:
                    break  # several: ordered by collect
                one = pair
            else:
                if one is None:
                    return value
                hook, entity = one
                b = {"this": entity}  # as collect makes it, then as Runtime._modify applies it
                for i, name in hook.binds:
                    if i < n:
                        b[name] = args[i]
                b["value"] = value
                modifying = rt.modifying
                modifying.add(function)
                try:
                    return hook.expr(rt, b) if hook.cond is None or hook.cond(rt, b) else value
                finally:
                    modifying.discard(function)
        elif entry is None and (not temps or ("modifier", function) not in temps):
            return value
        found = self.collect("modifier", function, args)
        return self.rt._modify(function, args, value, found) if found else value

    def _keyed(self, found: list) -> None:
        """Every candidate's priority key (key_of for each, with the player the order starts from read once)."""
        p = self.policy
        start = self.rt.state.game_vars.get(p.player_from, 0) if p.player_from else 0
        keys = self.keys
        for c in found:
            if c.key is None:
                known = keys.get((id(c.hook), c.source, c.controller))
                c.key = known[1] if known is not None and known[0] == start else self._key(c.hook, c.source, c.controller)

    def alone(self, kind: str, event: str, c: Candidate, args: list) -> bool:
        """Is `c`, which has just applied, the one ability this event could ever find with these arguments, its
        condition aside: the component's only ability for it, and no rules' or other cards' abilities nor
        temporaries for it? Then looking again after it finds nothing new (Runtime._finish does not look)."""
        entry = self.index[kind].get(event)
        if entry is None or entry.lone is None or self.temp_index:
            return False
        position = entry.lone
        source = c.source
        return position < len(args) and args[position] is source and source is not None and \
            len(entry.by_this[0][1].get(source.record_id, ())) == 1

    def key_of(self, c: Candidate) -> tuple:
        """The candidate's priority key, computed when an order among several is needed."""
        if c.key is None:
            c.key = self._key(c.hook, c.source, c.controller)
        return c.key

    def active_abilities(self, entry: Entry) -> list:
        """(ability, component) for the card abilities without `this` in their pattern whose component is
        active now; kept until a component with such abilities for this event moves from or to a zone where
        they work (only that changes which are active, and in what order they are found)."""
        slot = entry.slot
        by_record = entry.by_record
        active_in = self.active_in
        pairs = []
        for zone in self.zones_named(entry.zones):
            where = zone.name
            for entity in zone.items:
                hooks = by_record.get(entity.record_id)
                if hooks:
                    for hook in hooks:  # works(entity, hook), inline: the card lies in `zone`
                        if where in (hook.zones if hook.zones is not None else active_in.get(entity.kind, ())):
                            pairs.append((hook, entity))
        self.active_cache[slot] = pairs
        return pairs

    def zones_named(self, names: tuple) -> list:
        """The zones of these names, whoever owns them (the same objects for the whole game)."""
        out = self.zones_cache.get(names)
        if out is not None:
            return out
        state = self.rt.state
        out = self.zones_cache[names] = []
        for name in names:
            if name in state.game_zones:
                out.append(state.game_zones[name])
            elif name in state.player_zones:
                out.extend(state.player_zones[name])
            else:  # a zone of components: every component's
                out.extend(e.zones[name] for e in state.entities.values() if name in e.zones)
        return out

    def active(self, entity: Entity) -> bool:
        zone = entity.zone
        return zone is not None and zone.name in self.active_in.get(entity.kind, ())

    def works(self, entity: Entity, hook: Hook) -> bool:
        """Whether a card's ability works where its card lies: in the ability's own zones (`in ZONE, ...`)
        when it names some, else in its kind's active_in zones."""
        zone = entity.zone
        if zone is None:
            return False
        return zone.name in (hook.zones if hook.zones is not None else self.active_in.get(entity.kind, ()))

    def _consider(self, hook: Hook, variables: dict, args: list, source, found: list) -> None:
        n = len(args)
        for i in hook.this_at:
            if i < n and args[i] is not source:
                return
        for i, name in hook.binds:
            if i < n:
                variables[name] = args[i]
        # A modifier's condition may read `value`, so it is tested when the modifier applies.
        if hook.cond is not None and hook.kind != "modifier" and not hook.cond(self.rt, variables):
            return
        found.append(_candidate(hook, variables, source, variables["you"] if "you" in variables else
                                (holder(source) if source is not None else None)))

    def _key(self, hook: Hook, source, controller) -> tuple:
        """(timing, source, kind, player ... in the policy's order, then declaration order, then the card's id);
        kept per (ability, card, controller) while the player the order starts from stays the same."""
        p = self.policy
        start = self.rt.state.game_vars.get(p.player_from, 0) if p.player_from else 0
        known = self.keys.get((id(hook), source, controller))
        if known is not None and known[0] == start:
            return known[1]
        key = self._make_key(hook, source, controller)
        self.keys[(id(hook), source, controller)] = (list(start) if type(start) is list else start, key)
        return key

    def _make_key(self, hook: Hook, source, controller) -> tuple:
        kind = source.kind if source is not None else None
        static = self.static_keys.get((id(hook), kind))
        if static is None:
            static = self.static_keys[(id(hook), kind)] = self._static_key(hook, source is not None, kind)
        parts = list(static)
        if self.player_part is not None:
            parts[self.player_part] = self._player_key(controller)
        parts.append(hook.order)
        parts.append(source.id if source is not None else "")
        return tuple(parts)

    def _static_key(self, hook: Hook, from_card: bool, kind) -> tuple:
        """The parts of the key that do not change during the game (the player part is filled in later)."""
        p = self.policy
        parts = []
        for part in p.order:
            if part == "timing":
                t = hook.timing or ("normal" if "normal" in p.timings else p.timings[0])
                parts.append(p.timings.index(t) if t in p.timings else len(p.timings))
            elif part == "source":
                s = "card" if from_card else "rules"
                parts.append(p.source.index(s) if s in p.source else len(p.source))
            elif part == "kind":
                parts.append(p.kinds.index(kind) if kind in p.kinds else len(p.kinds))
            else:
                parts.append(None)
        return tuple(parts)

    def _player_key(self, controller) -> int:
        # player_from names a variable holding either one player (then clockwise from them)
        # or a whole turn order, such as a track (then that list's order).
        p = self.policy
        n = self.rt.state.players
        start = self.rt.state.game_vars.get(p.player_from, 0) if p.player_from else 0
        if controller is None:
            return n
        if isinstance(start, list):
            return start.index(controller) if controller in start else n
        return (controller - (start or 0)) % n

    def _explain_key(self, c: Candidate) -> dict:
        """The priority key in words: which timing class, source, kind and player place it where it is."""
        out = {}
        for part, value in zip(self.policy.order, self.key_of(c)):
            if part == "timing":
                out["timing"] = c.hook.timing or "normal"
            elif part == "source":
                out["source"] = "card" if c.source is not None else "rules"
            elif part == "kind":
                out["kind"] = c.source.kind if c.source is not None else "-"
            elif part == "player":
                out["player order"] = value
        return out

    def tied(self, fired: list[Candidate]) -> list[Candidate]:
        """With `ties: choose`, abilities equal in priority and under one controller: that player orders them."""
        first = fired[0]
        if self.policy.ties != "choose" or first.controller is None:
            return [first]
        if len(fired) == 1:
            return [first]
        return [c for c in fired if self.key_of(c)[:-2] == self.key_of(first)[:-2] and c.controller == first.controller]

    def trace(self, kind: str, event: str, chosen: list[Candidate], args: list, values: tuple | None = None) -> None:
        """Why abilities applied: the event and its arguments, the decision it followed, each ability's priority;
        for modifiers also the value before and after, and what each one made of it."""
        if self.rt.trace is None or not chosen:
            return
        entry = {
            "event": event,
            "kind": kind,
            "after_decision": self.rt.decisions,
            "args": [player_label(a) if t == "player" else label_of(a) for a, t in zip(args, self.param_types(event, len(args)))],
            "order": [{
                "source": c.source.id if c.source is not None else "rules",
                "controller": c.controller,
                "timing": c.hook.timing or "normal",
                "at": str(c.hook.span),
                "key": self._explain_key(c),
            } for c in chosen],
        }
        # the values themselves, for tools that put them into words (never written out as they are)
        entry["raw"] = {"args": list(args), "types": self.param_types(event, len(args)),
                        "sources": [c.source for c in chosen], "results": [], "before": None, "after": None}
        if values is not None:
            before, after, results = values
            entry["before"], entry["after"] = label_of(before), label_of(after)
            entry["raw"].update(before=before, after=after, results=list(results))
            for item, result in zip(entry["order"], results):
                item["result"] = label_of(result)
        self.rt.trace.append(entry)

    def param_types(self, event: str, n: int) -> list:
        sig = self.rt.game.content.checker.signatures.get(event) if self.rt.game.content.checker else None
        types = [p.type for p in sig.params] if sig is not None else []
        return (types + [None] * n)[:n]

    # ---------------------------------------------------------------- temporaries
    def add_temporary(self, until: str, hooks: list, captured: dict) -> None:
        self.temporaries.append(Temporary(until, hooks, captured))
        self.index_temporaries()

    def expire(self, event: str) -> None:
        if event in self.temp_until:
            self.rt.version += 1
            self.temporaries = [t for t in self.temporaries if t.until != event]
            self.index_temporaries()

    def index_temporaries(self) -> None:
        index: dict = {}
        for temp in self.temporaries:
            for hook in temp.hooks:
                index.setdefault((hook.kind, hook.event), []).append((temp, hook))
        self.temp_index = index
        self.temp_until = frozenset(t.until for t in self.temporaries)
        self.replacing = frozenset(self.replaced).union(e for k, e in index if k == "replacement")
        self.triggering = frozenset(self.triggered).union(e for k, e in index if k == "trigger")
