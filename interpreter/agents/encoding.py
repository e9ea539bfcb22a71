"""A fixed-size numeric observation of one player's view, for learning code.

For every component: where the player sees it (one slot per zone; a player's zone by its seat counted
from the observer, so "my hand" is always the same slot), or "not seen". Then the numeric, yes/no and
player-valued variables of the game and of every seat (again counted from the observer). It is built
from `can_see` alone, so it holds nothing the view does not. Needs numpy.
"""
from __future__ import annotations

import numpy as np

from interpreter.core.state import Entity
from interpreter.present.views import can_see


class Encoder:
    def __init__(self, game, players: int):
        content = game.content
        voc = content.vocabulary
        self.players = players
        self.ids = sorted(content.entity_ids)
        self.slots: dict = {}
        for name, z in voc.zones.items():
            if z.scope == "player":
                for rel in range(players):
                    self.slots[(name, rel)] = len(self.slots) + 1
            else:
                self.slots[(name, None)] = len(self.slots) + 1
        self.width = len(self.slots) + 1  # slot 0: not seen
        self.game_vars = [(n, v.type) for n, v in voc.variables.items() if v.scope == "game" and _encodable(v.type)]
        self.player_vars = [(n, v.type) for n, v in voc.variables.items() if v.scope == "player" and _encodable(v.type)]
        self.size = len(self.ids) * self.width + len(self.game_vars) + players * len(self.player_vars) + players

    def encode(self, state, player: int, to_act: int | None, out: np.ndarray | None = None) -> np.ndarray:
        out = np.zeros(self.size, np.float32) if out is None else out
        out.fill(0)
        n = self.players
        entities = state.entities
        for k, eid in enumerate(self.ids):
            e = entities.get(eid)
            slot = 0
            if e is not None and e.zone is not None and can_see(e, player):
                zone = e.zone
                if isinstance(zone.owner, int):
                    slot = self.slots.get((zone.name, (zone.owner - player) % n), 0)
                else:
                    slot = self.slots.get((zone.name, None), 0)
            out[k * self.width + slot] = 1.0
        at = len(self.ids) * self.width
        for name, t in self.game_vars:
            out[at] = _number(state.game_vars.get(name), t, player, n)
            at += 1
        for rel in range(n):
            pv = state.player_vars[(player + rel) % n]
            for name, t in self.player_vars:
                out[at] = _number(pv.get(name), t, player, n)
                at += 1
        if to_act is not None:
            out[at + (to_act - player) % n] = 1.0
        return out


def _encodable(t: str) -> bool:
    return t in ("number", "bool", "player")


def _number(value, t: str, player: int, n: int) -> float:
    """Numbers as they are, yes/no as 1/0, a player as 1 + its seat counted from the observer, none as 0."""
    if value is None or isinstance(value, Entity):
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int):
        return float(1 + (value - player) % n) if t == "player" else float(value)
    return 0.0
