"""An independent recount of random A Game of Thrones games: at every decision, the table is checked
against the rulebook from the shared component data (../shared/data/agot), not from the game's rule
text; at the end, the winner is worked out again.

Checked at every decision: unit pools (every unit of a house on the board, attacking or in its reserve;
the pool's counts), units where they may stand (one house per area; ships at sea or in ports, others on
land; none out of play), ports (at most 3 ships), supply (armies within the house's row of the supply
track, the attacking units counted in the contested area; not while a house is asked what to disband),
House cards (7 a house; one in play at most; none in play outside a combat), power tokens (20 a house;
available ones in their house's zone; control tokens only on lands, one at most), influence tracks (each
a permutation of the players; dominance tokens with the heads), the wildling threat. Outside combats also:
one order per area, on an area where its house has units; star orders within the King's Court allowance
from the planning phase to the Messenger Raven;
ships in a port belong to the house holding its land (Russian rule, unless port_ships_survive); no power
token beside another house's units; no routed unit during planning; the victory track at the start of
each order's resolution. At the end: the winner (seven castles at once, else the round-10 count and its
tie-break, both readings).

    python bench/agot_recount.py --games 200                   # 3-6 players, with and without Tides
    python bench/agot_recount.py --games 50 --players 4 --variant tides_of_battle --json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT / ".." / "shared" / "data" / "agot"

from interpreter.runtime import Session  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402

CASTLE = {"none": 0, "castle": 1, "stronghold": 2}
TRACKS = {"throne_track": "iron_throne_token", "fiefdoms_track": "valyrian_steel_blade",
          "kings_court_track": "messenger_raven"}


@dataclass(frozen=True)
class Facts:
    """What the rulebook and the component data say, read once from ../shared/data/agot."""
    kind: dict          # area id -> land | sea | port
    castle: dict        # area id -> 0, 1, 2
    home_of: dict       # area id -> house whose sigil is printed there
    port_land: dict     # port id -> its land
    pool: dict          # unit type -> count per house
    armies: dict        # supply level -> allowed army sizes, largest first
    stars: dict         # player count -> stars per King's Court position
    cards_per_house: int
    tokens_per_house: int

    @classmethod
    def load(cls, folder: Path = DATA) -> "Facts":
        board = yaml.safe_load((folder / "board.yaml").read_text(encoding="utf-8"))["areas"]
        setup = yaml.safe_load((folder / "setup.yaml").read_text(encoding="utf-8"))
        general = setup["general"]
        stars = setup["kings_court_special_order_stars"]
        return cls(kind={a["id"]: a["kind"] for a in board},
                   castle={a["id"]: CASTLE.get(a.get("castle") or "none", 0) for a in board},
                   home_of={a["id"]: a["home_of"] for a in board if a.get("home_of")},
                   port_land={a["id"]: a["port_of"]["land"] for a in board if a["kind"] == "port"},
                   pool=dict(general["unit_pool_per_house"]),
                   armies={int(k): list(v) for k, v in setup["supply_track"]["allowed_armies"].items()},
                   stars={3: stars["three_or_four_players_overlay"][:3], 4: stars["three_or_four_players_overlay"],
                          5: stars["five_players"], 6: stars["six_players"]},
                   cards_per_house=general["house_cards_per_house"],
                   tokens_per_house=general["power_tokens_per_house_max"])


@dataclass
class Tally:
    games: int = 0
    decisions: int = 0
    checks: Counter = field(default_factory=Counter)      # what was checked, how often
    faults: Counter = field(default_factory=Counter)      # what failed, how often
    examples: list = field(default_factory=list)          # (seed, decision, fault), the first ones
    winners_agree: int = 0
    early_wins: int = 0
    tie_breaks: Counter = field(default_factory=Counter)  # which key decided a round-10 game

    def fault(self, seed: int, step: int, what: str, detail: str) -> None:
        self.faults[what] += 1
        if len(self.examples) < 10:
            self.examples.append((seed, step, what, detail))


class Recount:
    """Checks one state; `tally` collects the results of many."""

    def __init__(self, facts: Facts, tally: Tally):
        self.f = facts
        self.t = tally

    # ------------------------------------------------------------ reading the table
    @staticmethod
    def zone_items(state, name, owner=None):
        return state.zone(name, owner).items

    def house(self, state, seat):
        return state.player_vars[seat]["house"]

    def controller(self, state, area):
        """Units, else a power token, else the printed sigil of a house in the game."""
        units = area.zones["units"].items
        if units:
            return units[0].vars["owner"]
        tokens = area.zones["control_token"].items
        if tokens:
            return tokens[0].vars["owner"]
        sigil = self.f.home_of.get(area.id)
        return next((p for p in range(state.players) if self.house(state, p) == sigil), None)

    def areas(self, state):
        return [e for e in state.zone("board").items]

    # ------------------------------------------------------------ every decision
    def check(self, state, decision, seed: int, step: int) -> None:
        self.step = (seed, step)
        if any(self.house(state, p) is None for p in range(state.players)):
            return  # the players are still choosing their Houses: nothing is on the table yet
        gv = state.game_vars
        in_combat = gv.get("combat_area") is not None
        self.units_and_pools(state)
        self.ports(state)
        if "exceed supply" not in decision.source:
            self.supply(state)
        self.house_cards(state, in_combat)
        self.power(state, in_combat)
        self.tracks(state)
        self.wildlings(state)
        if not in_combat:
            self.orders(state)
            if "port_ships_survive" not in state.variants:
                self.port_owners(state)
            labels = decision.labels
            planning = bool(labels) and all(label.startswith(("give ", "leave_empty ")) for label in labels)
            if planning:
                self.no_routed_units(state)
            # the star allowance holds from the planning phase to the Messenger Raven; later in the round
            # a house may lose its place on the King's Court track (Doran Martell) and keep its orders
            if planning or "keep_the_raven" in labels or any(label.startswith("replace ") for label in labels):
                self.stars(state)
            if labels and all(label.startswith("resolve ") or label == "done" for label in labels):
                self.victory_track(state)

    def bad(self, what: str, detail: str) -> None:
        self.t.fault(self.step[0], self.step[1], what, detail)

    def ok(self, what: str) -> None:
        self.t.checks[what] += 1

    def units_and_pools(self, state) -> None:
        for seat in range(state.players):
            house = self.house(state, seat)
            mine = [e for e in state.entities.values() if e.kind == "unit" and e.attrs["house"] == house]
            counts = Counter(e.attrs["unit_type"] for e in mine)
            if dict(counts) != self.f.pool:
                self.bad("unit pool", f"{house}: {dict(counts)}")
            for e in mine:
                z = e.zone
                if e.vars["owner"] != seat:
                    self.bad("unit owner", e.id)
                elif z is None or not (z.name in ("units", "marching") or (z.name == "reserve" and z.owner == seat)):
                    self.bad("unit place", f"{e.id} in {z.key if z else None}")
                elif z.name == "reserve" and e.vars["routed"]:
                    self.bad("routed in reserve", e.id)
        self.ok("unit pool")
        for area in state.entities.values():
            if area.kind not in ("land", "sea", "port"):
                continue
            units = area.zones["units"].items
            if not units:
                continue
            if len({u.vars["owner"] for u in units}) > 1:
                self.bad("one house per area", area.id)
            if area.zone is None or area.zone.name != "board":
                self.bad("units out of play", area.id)
            ships = [u for u in units if u.attrs["unit_type"] == "ship"]
            if self.f.kind[area.id] == "land" and ships:
                self.bad("ship on land", area.id)
            if self.f.kind[area.id] != "land" and len(ships) != len(units):
                self.bad("land unit at sea", area.id)
        self.ok("unit places")

    def ports(self, state) -> None:
        for port in self.f.port_land:
            n = len(state.entities[port].zones["units"].items)
            if n > 3:
                self.bad("port holds more than 3 ships", f"{port}: {n}")
        self.ok("ports at most 3 ships")

    def supply(self, state) -> None:
        gv = state.game_vars
        contested = gv.get("combat_area")
        marching = state.zone("marching").items
        for seat in range(state.players):
            sizes = Counter()
            for area in self.areas(state):
                n = sum(1 for u in area.zones["units"].items if u.vars["owner"] == seat)
                if contested is not None and area is contested:
                    n += sum(1 for u in marching if u.vars["owner"] == seat)
                if n:
                    sizes[area.id] = n
            armies = sorted((n for n in sizes.values() if n >= 2), reverse=True)
            level = state.player_vars[seat]["supply_level"]
            allowed = self.f.armies.get(level)
            if allowed is None:
                self.bad("supply level", f"P{seat + 1}: {level}")
                continue
            if len(armies) > len(allowed) or any(a > b for a, b in zip(armies, allowed)):
                self.bad("supply", f"P{seat + 1} level {level}: armies {armies}, allowed {allowed}")
        self.ok("supply")

    def house_cards(self, state, in_combat: bool) -> None:
        for seat in range(state.players):
            house = self.house(state, seat)
            cards = [e for e in state.entities.values() if e.kind == "house_card" and e.attrs["house"] == house]
            hand, play, discard = (len(self.zone_items(state, z, seat)) for z in ("house_hand", "in_play", "house_discard"))
            if len(cards) != self.f.cards_per_house or hand + play + discard != self.f.cards_per_house:
                self.bad("House cards", f"{house}: hand {hand}, in play {play}, discard {discard}")
            if play > 1 or (play and not in_combat):
                self.bad("House card in play", f"{house}: {play}, in combat: {in_combat}")
            if not in_combat and hand == 0:
                self.bad("empty hand", house)
        self.ok("House cards")

    def power(self, state, in_combat: bool) -> None:
        for seat in range(state.players):
            house = self.house(state, seat)
            tokens = [e for e in state.entities.values() if e.kind == "power_token" and e.attrs["house"] == house]
            if len(tokens) != self.f.tokens_per_house:
                self.bad("power tokens", f"{house}: {len(tokens)}")
            for t in tokens:
                z = t.zone
                if z is None or not ((z.name in ("power", "power_pool") and z.owner == seat) or z.name == "control_token"):
                    self.bad("power token place", f"{t.id} in {z.key if z else None}")
        for area in self.areas(state):
            tokens = area.zones["control_token"].items
            if not tokens:
                continue
            if self.f.kind[area.id] != "land" or len(tokens) > 1:
                self.bad("control token", area.id)
            units = area.zones["units"].items
            if not in_combat and units and units[0].vars["owner"] != tokens[0].vars["owner"]:
                self.bad("power token beside enemy units", area.id)
        self.ok("power tokens")

    def tracks(self, state) -> None:
        gv = state.game_vars
        for name, token in TRACKS.items():
            track = gv[name]
            if sorted(track) != list(range(state.players)):
                self.bad("influence track", f"{name}: {track}")
                continue
            z = state.entities[token].zone
            if z is None or z.name != "dominance_tokens" or z.owner != track[0]:
                self.bad("dominance token", f"{token} with {z.key if z else None}, {name} {track}")
        self.ok("influence tracks")

    def wildlings(self, state) -> None:
        threat = state.game_vars["wildling_threat"]
        if not (0 <= threat <= 12 and threat % 2 == 0):
            self.bad("wildling threat", str(threat))
        self.ok("wildling threat")

    def orders(self, state) -> None:
        for area in self.areas(state):
            slot = area.zones["order_slot"].items
            if len(slot) > 1:
                self.bad("orders per area", area.id)
            for o in slot:
                owner = o.vars["owner"]
                if not any(u.vars["owner"] == owner for u in area.zones["units"].items):
                    self.bad("order without units", f"{o.id} in {area.id}")
        for seat in range(state.players):
            laid = sum(len(a.zones["order_slot"].items) for a in self.areas(state)
                       if any(o.vars["owner"] == seat for o in a.zones["order_slot"].items))
            if laid + len(self.zone_items(state, "orders", seat)) != 15:
                self.bad("order tokens", f"P{seat + 1}")
        self.ok("orders")

    def stars(self, state) -> None:
        stars_used = Counter(o.vars["owner"] for a in self.areas(state) for o in a.zones["order_slot"].items
                             if o.attrs["star"])
        court = state.game_vars["kings_court_track"]
        limits = self.f.stars[state.players]
        for seat, n in stars_used.items():
            if n > limits[court.index(seat)]:
                self.bad("star orders", f"P{seat + 1}: {n} on the board, King's Court position {court.index(seat) + 1}")
        self.ok("star orders")

    def port_owners(self, state) -> None:
        for port, land in self.f.port_land.items():
            ships = state.entities[port].zones["units"].items
            if ships and self.controller(state, state.entities[land]) != ships[0].vars["owner"]:
                self.bad("ships in a lost port", f"{port}: P{ships[0].vars['owner'] + 1}")
        self.ok("port owners")

    def no_routed_units(self, state) -> None:
        if any(e.kind == "unit" and e.vars["routed"] for e in state.entities.values()):
            self.bad("routed unit in planning", "")
        self.ok("routed units")

    def castles(self, state, seat: int) -> int:
        return sum(1 for a in self.areas(state) if self.f.castle[a.id] and self.controller(state, a) == seat)

    def victory_track(self, state) -> None:
        for seat in range(state.players):
            if state.player_vars[seat]["castles"] != self.castles(state, seat):
                self.bad("victory track", f"P{seat + 1}: {state.player_vars[seat]['castles']} on the track, "
                                          f"{self.castles(state, seat)} held")
        self.ok("victory track")

    # ------------------------------------------------------------ the end
    def winner(self, state, seed: int) -> None:
        self.step = (seed, -1)
        gv = state.game_vars
        throne = gv["throne_track"]
        castles = {p: self.castles(state, p) for p in range(state.players)}
        if gv["round"] <= 10:
            self.t.early_wins += 1
            seven = [p for p in throne if castles[p] >= 7]
            expected = seven[0] if seven else None
        else:
            lands = {p: sum(1 for a in self.areas(state) if self.f.kind[a.id] == "land" and self.controller(state, a) == p)
                     for p in range(state.players)}
            strongholds = {p: sum(1 for a in self.areas(state) if self.f.castle[a.id] == 2 and self.controller(state, a) == p)
                           for p in range(state.players)}
            supply = {p: state.player_vars[p]["supply_level"] for p in range(state.players)}
            power = {p: len(self.zone_items(state, "power", p)) for p in range(state.players)}
            if "tiebreak_ru" in state.variants:
                keys = [("castles", castles), ("strongholds", strongholds), ("supply", supply), ("power", power)]
            else:
                keys = [("castles", castles), ("lands", lands), ("supply", supply)]
            alive = list(throne)
            decided = "Iron Throne"
            for name, values in keys:
                best = max(values[p] for p in alive)
                narrowed = [p for p in alive if values[p] == best]
                if len(narrowed) < len(alive) and len(narrowed) == 1:
                    decided = name
                alive = narrowed
                if len(alive) == 1:
                    break
            self.t.tie_breaks[decided] += 1
            expected = alive[0]
        if state.winners == [expected]:
            self.t.winners_agree += 1
        else:
            self.bad("winner", f"the game says {state.winners}, the recount {expected}")


def play(game, facts: Facts, tally: Tally, players: int, seeds, variants=()) -> Tally:
    recount = Recount(facts, tally)
    for seed in seeds:
        session = Session(game, players, seed, tuple(variants))
        rng = random.Random(seed + 1)
        step = 0
        while session.pending is not None:
            recount.check(session.state, session.pending, seed, step)
            session.answer(rng.randrange(len(session.pending.values)))
            step += 1
        tally.decisions += step
        tally.games += 1
        recount.winner(session.state, seed)
    return tally


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per configuration (default 200)")
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 5, 6])
    ap.add_argument("--variant", action="append", default=None,
                    help="a variant set, comma-separated; repeat for several (default: none, and tides_of_battle)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        print(f"error: {DATA} is not next to the repository", file=sys.stderr)
        return 2
    game = load_compiled("agot")
    facts = Facts.load()
    sets = [tuple(v for v in s.split(",") if v) for s in args.variant] if args.variant else [(), ("tides_of_battle",)]
    rows, failed = [], False
    for players in args.players:
        for variants in sets:
            start = time.process_time()
            tally = play(game, facts, Tally(), players, range(args.seed, args.seed + args.games), variants)
            row = {"players": players, "variants": list(variants), "games": tally.games, "decisions": tally.decisions,
                   "checks": sum(tally.checks.values()), "faults": dict(tally.faults),
                   "winners_agree": tally.winners_agree, "early_wins": tally.early_wins,
                   "round_10_decided_by": dict(tally.tie_breaks), "examples": tally.examples,
                   "cpu_seconds": round(time.process_time() - start, 1)}
            rows.append(row)
            failed |= bool(tally.faults)
            if not args.json:
                print(f"{players} players {'+'.join(variants) or 'default':>16}: {tally.games} games, "
                      f"{tally.decisions} decisions, {row['checks']} checks, faults {dict(tally.faults) or 0}, "
                      f"winners {tally.winners_agree}/{tally.games} (early {tally.early_wins}, round 10 by "
                      f"{dict(tally.tie_breaks)}), {row['cpu_seconds']} s", flush=True)
                for ex in tally.examples[:3]:
                    print("   seed %s decision %s: %s: %s" % ex)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
