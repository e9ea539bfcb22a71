"""Fixed-size numeric observations of one player's view, for learning code (needs numpy).

Observation tensor, in this order (every "seat" is counted from the observer, so "mine" is always slot 0):
1. One row per component (sorted ids), `width` numbers:
   - slot 0: the observer does not see it (then the rest of the row is 0); else one of the zone slots:
     a game zone, a player's zone per seat, or a zone on components (by name: `units`, `garrison`);
   - `on`: for a zone on a component, which one: 1 + that component's index / number of components
     (-1 when the observer cannot see the component the zone lies on, 0 for other zones);
   - `top`: it is the top (first) component of its zone;
   - `face_down`: it lies face down (and the observer still knows it);
   - `picked`: the pending decision's answer so far names it (a multi-pick, or an option picked word by word);
   - `under`: how many components the observer cannot see lie in the zones on it;
   - then its numeric, yes/no and player-valued component variables (players by seat from the observer).
2. Per game zone and per player zone and seat: how many components lie there that the observer cannot see.
3. The numeric, yes/no and player variables of the game, then of every seat.
4. The pending decision: who answers (one-hot per seat) and whether it is secret; and, only when the
   observer is the one answering (which question another player is asked may hang on what it holds,
   so it reads only "P2 decides", as in the strings): which question (one-hot over the game's
   questions, a last slot for the engine's own "which ability resolves first"), its kind (choose, menu,
   pick, order), how many options, and the words picked so far towards its answer (multi-hot over the
   action space of `actions.ActionSpace`).
Information-state tensor: the observation, then per component whether the observer has seen it before
(it may remember it though it cannot see it now), then per seat how many decisions it has taken / 100.
Everything is read through `views.can_see`: nothing the view does not show.
Every number of a row is local to its component, its zone and what lies on it (no place counted through
the zone): a move rewrites the rows of what moved and a few numbers of the two zones.
`encode(..., session=)` is the same tensor kept up to date from the session's move and change watchers
(`encoding_live`): the first read of a session starts every seat's tensor in one pass over the table;
after that, whenever any seat reads, only the rows of components that moved, changed face, visibility or
variables (or lie on such a component) are rewritten, in every seat's tensor at once, with the tops and
counts of the zones they left or entered; a read is then one copy of the seat's array. Tests compare it
with the full encoding at every step.
"""
from __future__ import annotations

import weakref

import numpy as np

from interpreter.core.decisions import Question
from interpreter.core.state import Entity
from interpreter.agents.encoding_live import encode_live, getter, number as _number
from interpreter.present.views import can_see

KINDS = ("choose", "menu", "pick", "order")
PER_COMPONENT = ("on", "top", "face_down", "picked", "under")


class Encoder:
    def __init__(self, game, players: int, space=None):
        content = game.content
        voc = content.vocabulary
        self.players = players
        self.space = space
        self.ids = sorted(content.entity_ids)
        self.index = {eid: k for k, eid in enumerate(self.ids)}
        self.slots: dict = {}
        self.counted: dict = {}  # (zone name, seat or None) -> its place in part 2
        for name, z in voc.zones.items():
            if z.scope == "player":
                for rel in range(players):
                    self.slots[(name, rel)] = len(self.slots) + 1
                    self.counted[(name, rel)] = len(self.counted)
            elif z.scope == "game":
                self.slots[(name, None)] = len(self.slots) + 1
                self.counted[(name, None)] = len(self.counted)
            else:
                self.slots[(name, "on")] = len(self.slots) + 1
        self.zone_width = len(self.slots) + 1  # slot 0: not seen
        self.entity_vars = [(n, v.type) for n, v in voc.variables.items() if v.scope == "entity" and _encodable(v.type)]
        self.width = self.zone_width + len(PER_COMPONENT) + len(self.entity_vars)
        self.game_vars = [(n, v.type) for n, v in voc.variables.items() if v.scope == "game" and _encodable(v.type)]
        self.player_vars = [(n, v.type) for n, v in voc.variables.items() if v.scope == "player" and _encodable(v.type)]
        questions = [v for v in game.namespace.values() if isinstance(v, Question)]
        self.questions = {id(q): i for i, q in enumerate(questions)}
        self.question_sources = {q.source: i for i, q in enumerate(questions)}
        self.n_questions = len(questions) + 1
        self.at_counts = len(self.ids) * self.width
        self.at_vars = self.at_counts + len(self.counted)
        self.at_decision = self.at_vars + len(self.game_vars) + players * len(self.player_vars)
        self.at_picked = self.at_decision + players + self.n_questions + len(KINDS) + 2
        # part 4's places: which question, its kind, secret, how many options
        self.at_question = self.at_decision + players
        self.kind_at = {kind: self.at_question + self.n_questions + k for k, kind in enumerate(KINDS)}
        self.at_secret = self.at_question + self.n_questions + len(KINDS)
        self.at_options = self.at_secret + 1
        self.size = self.at_picked + (space.size if space is not None else 0)
        self.info_size = self.size + len(self.ids) + players
        # for `encoding_live`: rows written at once (a component unseen, one seen in a zone slot), the variables'
        # places in a row, and the variables of the game and of a seat read at once
        unseen = np.zeros(self.width, np.float32)
        unseen[0] = 1.0
        self.unseen_row = memoryview(unseen)
        self._ready: dict = {}
        base = self.zone_width + len(PER_COMPONENT)
        self.row_vars = [(base + j, name, t) for j, (name, t) in enumerate(self.entity_vars)]
        self.rows = {eid: k * self.width for k, eid in enumerate(self.ids)}  # where each component's row starts
        self.on = {eid: (1 + k) / len(self.ids) for k, eid in enumerate(self.ids)}  # `on` naming each
        # per kind of component: its variables' values read at once, and their places in a row (kinds without any
        # are left out)
        self.var_places: dict = {}
        for kind in voc.kinds:
            own = [(at, name, t) for at, name, t in self.row_vars if name in _kind_vars(voc, kind)]
            if own:
                names = [name for _, name, _ in own]
                self.var_places[kind] = (getter(names), [(at, t) for at, _, t in own], names)
        self.game_getter = getter([name for name, _ in self.game_vars])
        self.seat_getter = getter([name for name, _ in self.player_vars])
        self.live: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Runtime -> _Live, per session followed

    def blank(self) -> np.ndarray:
        """An observation with every component unseen and nothing else (for `encoding_live` to fill)."""
        out = np.zeros(self.size, np.float32)
        out[0:self.at_counts:self.width] = 1.0
        return out

    def ready_row(self, slot: int) -> memoryview:
        """The row of a component seen in a zone of this slot, before its own numbers (made once per slot)."""
        found = self._ready.get(slot)
        if found is None:
            row = np.zeros(self.width, np.float32)
            row[slot] = 1.0
            found = self._ready[slot] = memoryview(row)
        return found

    # ------------------------------------------------------------ observation
    def encode(self, state, player: int, decision=None, to_act: int | None = None, picked=(),
               out: np.ndarray | None = None, session=None, seen: dict | None = None) -> np.ndarray:
        """The observation tensor of `player`. `picked`: word ids of the answer so far (the decider's own).
        With `session` (whose state is `state`): kept from the last call for this session and player and
        updated where the game changed since (`encoding_live`), a fresh array each call. `seen`, when given,
        is filled for `encoding_live` in the same pass: id -> zone of each component seen."""
        if session is not None:
            found = encode_live(self, session.rt, player, decision, to_act, picked)
            if out is None:
                return found
            out[:] = found
            return out
        out = np.zeros(self.size, np.float32) if out is None else out
        out.fill(0)
        n, width, index, slots, counted = self.players, self.width, self.index, self.slots, self.counted
        N = len(self.ids)
        zw = self.zone_width
        names = self.space.words if self.space is not None else None
        picked_ids = {names[a] for a in picked} if names is not None and picked else ()
        seen_rows, unseen_zones, at_, to_ = [], [], [], []
        out[0:self.at_counts:width] = 1.0  # "not seen", cleared below for each component seen
        zones: dict = {}  # id(zone) -> (slot, on, face-up part seen, places of its items); computed once per zone
        for e in state.entities.values():
            zone = e.zone
            if zone is None:
                continue
            z = zones.get(id(zone))
            if z is None:
                owner = zone.owner
                if type(owner) is Entity:
                    z = (slots[(zone.name, "on")], (1 + index[owner.id]) / N if can_see(owner, player) else -1.0)
                elif owner is None:
                    z = (slots[(zone.name, None)], 0.0)
                else:
                    z = (slots[(zone.name, (owner - player) % n)], 0.0)
                z = zones[id(zone)] = z + (None, None, [0])
            if not can_see(e, player):  # the view's own rule, whatever the zone's visibility says
                if not z[4][0]:
                    unseen_zones.append(zone)
                z[4][0] += 1
                continue
            if seen is not None:
                seen[e.id] = zone
            row = index[e.id] * width
            items = zone.items
            # written at once below: numpy's item assignment costs more than the rest of the loop
            at_.extend((row, row + z[0], row + zw, row + zw + 1))
            to_.extend((0.0, 1.0, z[1], 1.0 if items[0] is e else 0.0))
            if e.face_down:
                at_.append(row + zw + 2)
                to_.append(1.0)
            if e.id in picked_ids:
                at_.append(row + zw + 3)
                to_.append(1.0)
            seen_rows.append((row, e))
        for zone in unseen_zones:
            unseen = zones[id(zone)][4][0]
            owner = zone.owner
            if type(owner) is Entity:
                if can_see(owner, player):
                    out[index[owner.id] * width + zw + 4] += unseen
            else:
                key = (zone.name, None) if owner is None else (zone.name, (owner - player) % n)
                out[self.at_counts + counted[key]] = unseen
        if self.entity_vars:
            evars = self.row_vars
            for row, e in seen_rows:
                v = e.vars
                if v:
                    for at, name, t in evars:
                        x = v.get(name)
                        if x is not None and x is not False and x != 0:  # 0 is what the row holds already
                            at_.append(row + at)
                            to_.append(_number(x, t, player, n))
        if at_:
            out[at_] = to_
        self.tail(out, state, player, decision, to_act, picked)
        return out

    def tail(self, out, state, player: int, decision, to_act, picked, variables: bool = True) -> None:
        """Parts 3 (variables of the game and the seats; left as they are unless `variables`) and 4 (the
        pending decision, over zeros)."""
        n = self.players
        if variables:
            gv = state.game_vars
            values = [_number(gv.get(name), t, player, n) for name, t in self.game_vars]
            for rel in range(n):
                pv = state.player_vars[(player + rel) % n]
                values.extend([_number(pv.get(name), t, player, n) for name, t in self.player_vars])
            out[self.at_vars:self.at_decision] = values  # at once: numpy's item assignment costs more
        for at, value in self.marks(player, decision, to_act, picked):
            out[at] = value

    def marks(self, player: int, decision, to_act, picked) -> list:
        """Part 4 (the pending decision) as (place, value) pairs, over zeros."""
        if decision is None or to_act is None:
            return []
        n, at = self.players, self.at_decision
        if to_act != player:
            # what another player is asked stays its own, as in the strings ("P2 decides"): which
            # question comes may hang on what it holds (an ability of a card in its hand)
            if decision.secret:
                return [(at + (to_act - player) % n, 1.0), (self.at_secret, 1.0)]
            return [(at + (to_act - player) % n, 1.0)]
        out = [(at, 1.0), (self.at_question + self.question_of(decision), 1.0)]
        kind = self.kind_at.get(decision.kind)
        if kind is not None:
            out.append((kind, 1.0))
        out.append((self.at_options, float(len(decision.values))))
        if decision.secret:
            out.append((self.at_secret, 1.0))
        if picked:
            out.extend((self.at_picked + a, 1.0) for a in picked)
        return out

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
        at = self.size + len(self.ids)
        for rel in range(self.players):
            out[at + rel] = decisions[(player + rel) % self.players] / 100.0
        return out


def _encodable(t: str) -> bool:
    return t in ("number", "bool", "player")


def _kind_vars(voc, kind: str) -> set:
    """The component variables a kind's components have (`State.add_entity`)."""
    return {n for n, v in voc.variables.items() if v.scope == "entity" and (not v.kinds or kind in v.kinds)}
