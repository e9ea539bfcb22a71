"""Fixed-size numeric observations of one player's view, for learning code (needs numpy).

Seats are absolute (P1 is always seat 0) and the observer is named in the tensor: the same public fact reads
the same in every seat's tensor, so a change is encoded once for all seats (`encoding_live`).

Observation tensor, in this order (every feature is named, with its range: `Encoder.spec()`, the adapters'
`observation_spec()`); every value lies in [0, 1], but a number variable with no `max:` in the vocabulary:
1. One row per component (sorted ids), `width` numbers:
   - slot 0: the observer does not see it (then the rest of the row is 0); else one of the zone slots:
     a game zone, a player's zone per seat, or a zone on components (by name: `units`, `garrison`);
   - `on`: for a zone on a component, which one: (1 + that component's index) / (number of components + 1);
     1 when the observer cannot see the component the zone lies on, 0 for other zones;
   - `top`: it is the top (first) component of its zone;
   - `face_down`: it lies face down (and the observer still knows it);
   - `picked`: the pending decision's answer so far names it (a multi-pick, or an option picked word by word);
   - `under`: how many components the observer cannot see lie in the zones on it, / number of components;
   - then its numeric, yes/no and player-valued component variables (below).
2. Per game zone and per player zone and seat: how many components lie there that the observer cannot see,
   / number of components.
3. The numeric, yes/no and player variables of the game, then of every seat: yes/no as 1/0; a player as
   (1 + its seat) / the most players the game allows (0: none); a number divided by its `max:` in the
   vocabulary and kept within [-1, 1] (within [0, 1] for one that is never negative), or as it is where
   the vocabulary gives no `max:` (the spec then says its range is unbounded).
4. The observer: one-hot per seat.
5. The pending decision: who answers (one-hot per seat) and whether it is secret; and, only when the
   observer is the one answering (which question another player is asked may hang on what it holds,
   so it reads only "P2 decides", as in the strings): which question (one-hot over the game's
   questions, a last slot for the engine's own "which ability resolves first"), its kind (choose, menu,
   pick, order), how many options / 256 (at most 1), and the words picked so far towards its answer
   (multi-hot over the words of the action space of `actions.ActionSpace`, not its whole options).
Information-state tensor: the observation, then per component whether the observer has seen it before
(it may remember it though it cannot see it now), then per seat how many decisions it has taken, divided by
the game's `max_decisions` (or by 1000 where the manifest gives none).
Everything is read through `views.can_see`: nothing the view does not show.
`encode` here is the plain reading of the table, the reference; `encode(..., session=)` is the same tensor
kept along the session (`encoding_live`), which tests compare with it at every step.
"""
from __future__ import annotations

import weakref
from array import array

import numpy as np

from interpreter.core.decisions import Question
from interpreter.core.state import Entity
from interpreter.agents.encoding_live import ON_HIDDEN, encode_live, getter, number
from interpreter.present.views import can_see

KINDS = ("choose", "menu", "pick", "order", "number")
PER_COMPONENT = ("on", "top", "face_down", "picked", "under")
OPTIONS_SCALE = 256  # the options of a decision: how many / this, at most 1
DECISIONS_SCALE = 1000  # decisions taken, where the manifest declares no max_decisions
ROW_CACHE = 50_000  # rows kept as bytes by what they show (`row`); past this many the cache starts again


class Encoder:
    def __init__(self, game, players: int, space=None):
        content = game.content
        voc = content.vocabulary
        self.players = players
        self.space = space
        self.ids = sorted(content.entity_ids)
        self.index = {eid: k for k, eid in enumerate(self.ids)}
        self.slots: dict = {}  # (zone name, seat, None for the game's, or "on") -> its slot in a row
        self.counted: dict = {}  # (zone name, seat or None) -> its place in part 2
        for name, z in voc.zones.items():
            if z.scope == "player":
                for seat in range(players):
                    self.slots[(name, seat)] = len(self.slots) + 1
                    self.counted[(name, seat)] = len(self.counted)
            elif z.scope == "game":
                self.slots[(name, None)] = len(self.slots) + 1
                self.counted[(name, None)] = len(self.counted)
            else:
                self.slots[(name, "on")] = len(self.slots) + 1
        self.zone_width = len(self.slots) + 1  # slot 0: not seen
        most = content.manifest["players"]["max"]
        declared = (content.manifest.get("vocabulary") or {}).get("variables") or {}
        scaled = {n: _scale(v.type, (declared.get(n) or {}).get("max"), most) for n, v in voc.variables.items()}
        self.entity_vars = [(n, scaled[n]) for n, v in voc.variables.items() if v.scope == "entity" and _encodable(v.type)]
        self.width = self.zone_width + len(PER_COMPONENT) + len(self.entity_vars)
        self.game_vars = [(n, scaled[n]) for n, v in voc.variables.items() if v.scope == "game" and _encodable(v.type)]
        self.player_vars = [(n, scaled[n]) for n, v in voc.variables.items() if v.scope == "player" and _encodable(v.type)]
        self.count_scale = 1.0 / max(1, len(self.ids))  # counts of components: / how many the game has
        self.decisions_scale = 1.0 / (content.manifest.get("max_decisions") or DECISIONS_SCALE)
        questions = [v for v in game.namespace.values() if isinstance(v, Question)]
        self.questions = {id(q): i for i, q in enumerate(questions)}
        self.question_sources = {q.source: i for i, q in enumerate(questions)}
        self.question_texts = [" ".join(q.source.split())[:60] for q in questions]
        self.n_questions = len(questions) + 1
        self.at_counts = len(self.ids) * self.width
        self.at_vars = self.at_counts + len(self.counted)
        self.at_observer = self.at_vars + len(self.game_vars) + players * len(self.player_vars)
        self.at_decision = self.at_observer + players
        self.at_picked = self.at_decision + players + self.n_questions + len(KINDS) + 2
        # part 5's places: which question, its kind, secret, how many options
        self.at_question = self.at_decision + players
        self.kind_at = {kind: self.at_question + self.n_questions + k for k, kind in enumerate(KINDS)}
        self.at_secret = self.at_question + self.n_questions + len(KINDS)
        self.at_options = self.at_secret + 1
        self.size = self.at_picked + (space.word_count if space is not None else 0)
        self.info_size = self.size + len(self.ids) + players
        # for `encoding_live`: where each component's row starts, `on` naming each, rows as bytes
        self.rows = {eid: k * self.width for k, eid in enumerate(self.ids)}
        self.on = {eid: (1 + k) / (len(self.ids) + 1) for k, eid in enumerate(self.ids)}
        self._row_cache: dict = {}
        self._wide_rows: dict = {}  # a row's bytes -> the same row as float64 (`wide_row`)
        self.unseen_row = self.row(0, 0.0, False, False, 0, None)
        # the word ids of components in the action space -> where their rows start (the `picked` mark)
        self.word_rows = {} if space is None else {a: self.rows[w] for a, w in enumerate(space.words) if w in self.rows}
        # per kind of component: its variables' values read at once, and their places in a row (kinds without any
        # are left out)
        base = self.zone_width + len(PER_COMPONENT)
        self.var_places: dict = {}
        for kind in voc.kinds:
            own = [(base + j, name, t) for j, (name, t) in enumerate(self.entity_vars) if name in _kind_vars(voc, kind)]
            if own:
                names = [name for _, name, _ in own]
                self.var_places[kind] = (getter(names), tuple((at, t) for at, _, t in own), names)
        self.game_getter = getter([name for name, _ in self.game_vars])
        self.seat_getter = getter([name for name, _ in self.player_vars])
        self.live: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Runtime -> _Live, per session followed
        # the last session read and its _Live: (a weak reference to its Runtime, the _Live), read first (a bot reads
        # one session step after step; `live.get` makes a weak reference at each read)
        self.last_live: tuple = (lambda: None, None)

    def spec(self, info: bool = False) -> list:
        """Every feature of the observation tensor (with `info`, of the information-state tensor) in order, as
        (name, lowest, highest): the names read `COMPONENT:in:ZONE[:P2]`, `COMPONENT:top`, `unseen:ZONE[:P2]`,
        `game:VARIABLE`, `P2:VARIABLE`, `observer:P2`, `to_act:P2`, `question:K:RULE TEXT`, `kind:menu`,
        `secret`, `options`, `picked:WORD`, then `COMPONENT:seen_before`, `P2:decisions`."""
        seat = [f"P{s + 1}" for s in range(self.players)]
        zones = [None] * len(self.slots)
        for (name, owner), slot in self.slots.items():
            zones[slot - 1] = f"in:{name}" + ("" if owner is None else ":on_component" if owner == "on" else f":{seat[owner]}")
        out = []
        for eid in self.ids:
            out.append((f"{eid}:unseen", 0.0, 1.0))
            out.extend((f"{eid}:{z}", 0.0, 1.0) for z in zones)
            out.extend((f"{eid}:{x}", 0.0, 1.0) for x in PER_COMPONENT)
            out.extend((f"{eid}:{name}", *_range(t)) for name, t in self.entity_vars)
        for (name, owner) in self.counted:
            out.append((f"unseen:{name}" + ("" if owner is None else f":{seat[owner]}"), 0.0, 1.0))
        out.extend((f"game:{name}", *_range(t)) for name, t in self.game_vars)
        for p in seat:
            out.extend((f"{p}:{name}", *_range(t)) for name, t in self.player_vars)
        out.extend((f"observer:{p}", 0.0, 1.0) for p in seat)
        out.extend((f"to_act:{p}", 0.0, 1.0) for p in seat)
        out.extend((f"question:{i}:{text}", 0.0, 1.0) for i, text in enumerate(self.question_texts))
        out.append((f"question:{self.n_questions - 1}:which ability resolves first", 0.0, 1.0))
        out.extend((f"kind:{k}", 0.0, 1.0) for k in KINDS)
        out += [("secret", 0.0, 1.0), ("options", 0.0, 1.0)]
        if self.space is not None:
            out.extend((f"picked:{w}", 0.0, 1.0) for w in self.space.words)
        if info:
            out.extend((f"{eid}:seen_before", 0.0, 1.0) for eid in self.ids)
            out.extend((f"{p}:decisions", 0.0, 1.0) for p in seat)
        return out

    def blank(self) -> np.ndarray:
        """Parts 1 to 3 with every component unseen and nothing else (for `encoding_live` to fill)."""
        out = np.zeros(self.size, np.float32)
        out[0:self.at_counts:self.width] = 1.0
        return out

    def row(self, slot: int, on: float, top: bool, face: bool, under: int, values) -> bytes:
        """A component's row as bytes (float32): seen in a zone of `slot` (0: not seen, and nothing else), with
        its variables' `values` (`var_places` of its kind). Rows repeat (a card of a kind in a zone), so each is
        made once."""
        key = (slot, on, top, face, under, values)
        found = self._row_cache.get(key)
        if found is None:
            r = array("f", bytes(4 * self.width))
            r[slot] = 1.0
            if slot:
                zw = self.zone_width
                r[zw] = on
                r[zw + 1] = 1.0 if top else 0.0
                r[zw + 2] = 1.0 if face else 0.0
                r[zw + 4] = under * self.count_scale
                if values is not None:
                    for (at, t), x in zip(values[0], values[1]):
                        r[at] = number(x, t)
            if len(self._row_cache) >= ROW_CACHE:
                self._row_cache.clear()
            found = self._row_cache[key] = r.tobytes()
        return found

    def wide_row(self, row: bytes) -> bytes:
        """A row of `row`'s bytes as float64 (the same values), for a float64 tensor; made once per row."""
        found = self._wide_rows.get(row)
        if found is None:
            if len(self._wide_rows) >= ROW_CACHE:
                self._wide_rows.clear()
            found = self._wide_rows[row] = np.frombuffer(row, np.float32).astype(np.float64).tobytes()
        return found

    # ------------------------------------------------------------ observation
    def encode(self, state, player: int, decision=None, to_act: int | None = None, picked=(),
               out: np.ndarray | None = None, session=None) -> np.ndarray:
        """The observation tensor of `player`. `picked`: word ids of the answer so far (the decider's own).
        With `session` (whose state is `state`): kept along the session (`encoding_live`), a fresh array each
        call; without, read from the table (the reference)."""
        if session is not None:
            found = encode_live(self, session.rt, player, decision, to_act, picked)
            if out is None:
                return found
            out[:] = found
            return out
        out = np.zeros(self.size, np.float32) if out is None else out
        out.fill(0)
        width, zw, slots, counted = self.width, self.zone_width, self.slots, self.counted
        out[0:self.at_counts:width] = 1.0  # "not seen", cleared below for each component seen
        unseen: dict = {}  # zone -> how many of its components the observer cannot see
        for e in state.entities.values():
            zone = e.zone
            if zone is None:
                continue
            if not can_see(e, player):
                unseen[zone] = unseen.get(zone, 0) + 1
                continue
            row = self.rows[e.id]
            owner = zone.owner
            if type(owner) is Entity:
                slot, on = slots[(zone.name, "on")], self.on[owner.id] if can_see(owner, player) else ON_HIDDEN
            else:
                slot, on = slots[(zone.name, owner)], 0.0
            out[row] = 0.0
            out[row + slot] = 1.0
            out[row + zw] = on
            out[row + zw + 1] = 1.0 if zone.items[0] is e else 0.0
            out[row + zw + 2] = 1.0 if e.face_down else 0.0
            found = self.var_places.get(e.kind)
            if found is not None:
                for (at, t), name in zip(found[1], found[2]):
                    out[row + at] = number(e.vars.get(name), t)
        for zone, k in unseen.items():
            owner = zone.owner
            if type(owner) is Entity:
                if can_see(owner, player):
                    out[self.rows[owner.id] + zw + 4] += k * self.count_scale
            else:
                out[self.at_counts + counted[(zone.name, owner)]] = k * self.count_scale
        out[self.at_vars:self.at_observer] = self.variables(state)
        out[self.at_observer + player] = 1.0
        if decision is not None and to_act is not None:
            self.decision_part(out, player, decision, to_act, picked)
        return out

    def variables(self, state) -> list:
        """Part 3: the game's variables, then each seat's."""
        gv = state.game_vars
        values = [number(gv.get(name), t) for name, t in self.game_vars]
        for pv in state.player_vars:
            values.extend([number(pv.get(name), t) for name, t in self.player_vars])
        return values

    def decision_part(self, out, player: int, decision, to_act: int, picked) -> None:
        """Part 5 (the pending decision), written over zeros into `out` (an array, or a memoryview of one); with
        the `picked` mark of each component the answer so far names that the reader sees (its row already written)."""
        out[self.at_decision + to_act] = 1.0
        if decision.secret:
            out[self.at_secret] = 1.0
        if to_act != player:
            # what another player is asked stays its own, as in the strings ("P2 decides"): which
            # question comes may hang on what it holds (an ability of a card in its hand)
            return
        out[self.at_question + self.question_of(decision)] = 1.0
        kind = self.kind_at.get(decision.kind)
        if kind is not None:
            out[kind] = 1.0
        out[self.at_options] = min(len(decision.values), OPTIONS_SCALE) / OPTIONS_SCALE
        if picked:
            word_rows, at_picked = self.word_rows, self.zone_width + 3
            for a in picked:
                out[self.at_picked + a] = 1.0
                at = word_rows.get(a)
                if at is not None and out[at] == 0.0:
                    out[at + at_picked] = 1.0

    def question_of(self, decision) -> int:
        asked = decision.asked
        q = asked[0] if isinstance(asked, tuple) else asked
        i = self.questions.get(id(q))
        if i is None and isinstance(q, Question):
            i = self.question_sources.get(q.source)
        return self.n_questions - 1 if i is None else i

    def encode_info(self, state, player: int, seen: dict | None, decisions: list, **kw) -> np.ndarray:
        """The information-state tensor: the observation, what the player saw before, decisions taken."""
        out = np.zeros(self.info_size, np.float32)
        self.encode(state, player, out=out[:self.size], **kw)
        if seen:
            index = self.index
            for eid in seen:
                out[self.size + index[eid]] = 1.0
        out[self.size + len(self.ids):] = [min(1.0, d * self.decisions_scale) for d in decisions]
        return out


def _encodable(t: str) -> bool:
    return t in ("number", "bool", "player")


def _range(t: tuple) -> tuple:
    """A variable's range in the tensor: [0, 1] but for a number, [-1, 1] if it has a `max:`, else unbounded."""
    if t[0] != "number":
        return (0.0, 1.0)
    return (-1.0, 1.0) if t[2] else (-np.inf, np.inf)


def _scale(t: str, most, players: int) -> tuple:
    """How a variable's value becomes a number (`encoding_live.number`): (its type, the factor, is it clipped)."""
    if t == "player":
        return (t, 1.0 / players, False)
    if t == "number" and isinstance(most, (int, float)) and not isinstance(most, bool) and most > 0:
        return (t, 1.0 / most, True)
    return (t, 1.0, False)


def _kind_vars(voc, kind: str) -> set:
    """The component variables a kind's components have (`State.add_entity`)."""
    return {n for n, v in voc.variables.items() if v.scope == "entity" and (not v.kinds or kind in v.kinds)}
