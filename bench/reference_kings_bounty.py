"""Plain hand-written King's Bounty (card game), used as a speed baseline.

Rules: ../shared/rulebooks/kings_bounty.txt; designed title points and
strengths: ../shared/data/kings_bounty.md.  Every player follows the same
uniform random policy as the interpreted version, so the two can be compared
game for game in cost.

Run:  python3 bench/reference_kings_bounty.py --games 2000 --players 4 --seed 1
"""

import argparse
import random
import time

RACES = ["humans", "elves", "dwarves", "undead", "orcs"]
CASTLE_RACES = ["elves", "dwarves", "undead", "orcs"]  # humans have no castles
UNIT_STRENGTH = {"archer": 2, "warrior": 3, "wizard": 4}
CASTLE_STRENGTH = {"tower": 1, "fortress": 2, "citadel": 3}
HAND_SIZE = 6
OBELISK_POINTS = 2


class Card:
    def __init__(self, kind, race, strength):
        self.kind = kind          # archer/warrior/wizard/hero/monster/tower/fortress/citadel/obelisk
        self.race = race          # None for obelisks (they are neutral)
        self.strength = strength  # 0 for heroes and monsters: they ignore strength
        self.garrison = None      # only ever set on domains lying on the table

    def is_domain(self):
        return self.kind in CASTLE_STRENGTH or self.kind == "obelisk"

    def is_castle(self):
        return self.kind in CASTLE_STRENGTH

    def __repr__(self):
        return f"{self.race or 'neutral'}-{self.kind}-{self.strength}"


def make_deck(races):
    deck = []
    for race in races:
        counts = {"archer": 4, "warrior": 3, "wizard": 3} if race == "humans" else \
                 {"archer": 3, "warrior": 2, "wizard": 2}
        for kind, count in counts.items():
            deck += [Card(kind, race, UNIT_STRENGTH[kind]) for _ in range(count)]
        deck.append(Card("hero", race, 0))
        deck.append(Card("monster", race, 0))
        if race != "humans":
            for kind, strength in CASTLE_STRENGTH.items():
                deck += [Card(kind, race, strength) for _ in range(2)]
    return deck


# --- titles ---------------------------------------------------------------
# A "most" title is a (points, count(domains) -> int) pair; vandal and staff_rat
# are not counts but follow the last monster / hero played, so they are kept
# apart.  Race titles are tagged with their race so they can be removed when
# that race is taken out of a 2- or 3-player game.

def castles_of_race(race):
    return lambda doms: sum(1 for d in doms if d.is_castle() and d.race == race)


def garrisons_of_race(race):
    return lambda doms: sum(1 for d in doms if d.garrison and d.garrison.race == race)


def garrisons_of_kind(kind):
    return lambda doms: sum(1 for d in doms if d.garrison and d.garrison.kind == kind)


def castles_of_kind(kind):
    return lambda doms: sum(1 for d in doms if d.kind == kind)


MOST_TITLES = {
    "emperor": (5, None, lambda doms: len({d.race for d in doms if d.is_castle()})),
    "great_architect": (5, None, lambda doms: sum(1 for d in doms if d.is_castle())),
    "keeper_of_secrets": (3, None, lambda doms: sum(1 for d in doms if d.kind == "obelisk")),
    "conqueror": (5, None, lambda doms: sum(1 for d in doms if d.garrison)),
    "king_of_elves": (3, "elves", castles_of_race("elves")),
    "thane_of_dwarves": (3, "dwarves", castles_of_race("dwarves")),
    "orc_chief": (3, "orcs", castles_of_race("orcs")),
    "lord_of_the_dead": (3, "undead", castles_of_race("undead")),
    "warlord": (3, None, garrisons_of_race("humans")),
    "prince_of_elves": (3, "elves", garrisons_of_race("elves")),
    "prince_of_dwarves": (3, "dwarves", garrisons_of_race("dwarves")),
    "prince_of_orcs": (3, "orcs", garrisons_of_race("orcs")),
    "prince_of_undead": (3, "undead", garrisons_of_race("undead")),
    "marksman": (4, None, garrisons_of_kind("archer")),
    "swordmaster": (4, None, garrisons_of_kind("warrior")),
    "grand_magister": (4, None, garrisons_of_kind("wizard")),
    "tower_builder": (3, None, castles_of_kind("tower")),
    "fortress_builder": (3, None, castles_of_kind("fortress")),
    "citadel_builder": (3, None, castles_of_kind("citadel")),
}
LAST_PLAYED_TITLES = {"vandal": -3, "staff_rat": -3}
TITLE_POINTS = {name: t[0] for name, t in MOST_TITLES.items()}
TITLE_POINTS.update(LAST_PLAYED_TITLES)
TITLES_IN_PLAY = 6


class Game:
    def __init__(self, seed, players):
        assert 2 <= players <= 5
        self.n = players
        setup = random.Random(seed)
        self.agent = random.Random(seed + 1)
        self.decisions = 0

        # 2 players drop two castle races, 3 players one, 4-5 players none.
        removed = setup.sample(CASTLE_RACES, max(0, 4 - players))
        races = [r for r in RACES if r not in removed]
        titles = [name for name, t in MOST_TITLES.items() if t[1] not in removed]
        titles += list(LAST_PLAYED_TITLES)
        setup.shuffle(titles)
        self.titles = titles[:TITLES_IN_PLAY]

        obelisks_each = 4 - len(removed)
        self.deck = make_deck(races)
        for strength in (1, 2, 3):
            self.deck += [Card("obelisk", None, strength) for _ in range(obelisks_each)]
        setup.shuffle(self.deck)  # deck[0] is the top, deck[-1] the bottom

        self.hands = []
        for _ in range(players):
            self.hands.append(self.deck[:HAND_SIZE])
            del self.deck[:HAND_SIZE]
        self.domains = [[] for _ in range(players)]  # in the order they were gained
        self.first = setup.randrange(players)
        self.last_player = (self.first - 1) % players  # the seat to his right
        self.last_monster = None
        self.last_hero = None
        self.holders = {name: None for name in self.titles}

    # --- decisions ----------------------------------------------------------
    def choose(self, options):
        # A forced move consumes no randomness, so both implementations stay in step.
        if len(options) == 1:
            return options[0]
        self.decisions += 1
        return self.agent.choice(options)

    # --- legality -----------------------------------------------------------
    def owns_castle_of(self, seat, race):
        return any(d.is_castle() and d.race == race for d in self.domains[seat])

    def unit_targets(self, seat, unit):
        if unit.race != "humans" and not self.owns_castle_of(seat, unit.race):
            return []
        targets = []
        for owner in range(self.n):
            for dom in self.domains[owner]:
                if unit.kind == "monster":
                    ok = True
                elif unit.kind == "hero":
                    ok = owner != seat
                elif owner == seat:
                    ok = True  # replacing your own garrison needs no strength
                else:
                    defence = dom.strength
                    if dom.garrison:
                        defence = max(defence, dom.garrison.strength)
                    ok = unit.strength > defence
                if ok:
                    targets.append((owner, dom))
        return targets

    def options(self, seat):
        hand = self.hands[seat]
        options = [("domain", card) for card in hand if card.is_domain()]
        for card in hand:
            if not card.is_domain():
                for owner, dom in self.unit_targets(seat, card):
                    options.append(("unit", card, owner, dom))
        if hand:
            options.append(("return",))
        return options

    # --- actions ------------------------------------------------------------
    def draw(self, seat):
        if self.deck:
            self.hands[seat].append(self.deck.pop(0))

    def play_unit(self, seat, unit, owner, dom):
        if unit.kind == "monster":
            self.domains[owner].remove(dom)  # domain, garrison and monster all leave
            self.last_monster = seat
            return
        if owner != seat:
            self.domains[owner].remove(dom)
            self.domains[seat].append(dom)
        if unit.kind == "hero":
            dom.garrison = None  # the hero leaves after the capture
            self.last_hero = seat
        else:
            dom.garrison = unit  # any previous garrison is discarded

    def return_cards(self, seat):
        hand = self.hands[seat]
        picked = [self.choose(list(hand))]
        hand.remove(picked[0])
        while True:
            pick = self.choose(hand + ["done"])
            if pick == "done":
                break
            hand.remove(pick)
            picked.append(pick)
        self.deck.extend(picked)  # first picked goes under first
        for _ in picked:
            self.draw(seat)

    def take_turn(self, seat):
        options = self.options(seat)
        if not options:
            return  # empty hand: pass
        option = self.choose(options)
        if option[0] == "return":
            self.return_cards(seat)
            return
        card = option[1]
        self.hands[seat].remove(card)
        if option[0] == "domain":
            self.domains[seat].append(card)
        else:
            self.play_unit(seat, card, option[2], option[3])
        self.draw(seat)

    # --- titles and scores --------------------------------------------------
    def update_titles(self):
        for name in self.titles:
            if name == "vandal":
                self.holders[name] = self.last_monster
            elif name == "staff_rat":
                self.holders[name] = self.last_hero
            else:
                count = MOST_TITLES[name][2]
                counts = [count(self.domains[seat]) for seat in range(self.n)]
                best = max(counts)
                # A tie at the top, or nobody above zero, awards nobody.
                if best > 0 and counts.count(best) == 1:
                    self.holders[name] = counts.index(best)
                else:
                    self.holders[name] = None

    def scores(self):
        scores = []
        for seat in range(self.n):
            score = sum(TITLE_POINTS[t] for t in self.titles if self.holders[t] == seat)
            score += OBELISK_POINTS * sum(1 for d in self.domains[seat] if d.kind == "obelisk")
            scores.append(score)
        return scores

    def play(self):
        seat = self.first
        while True:
            started_empty = not self.deck
            self.take_turn(seat)
            self.update_titles()
            if started_empty and seat == self.last_player:
                break
            seat = (seat + 1) % self.n
        scores = self.scores()
        # Ties go to the tied seat nearest the first player, clockwise from him.
        order = [(self.first + i) % self.n for i in range(self.n)]
        winner = next(s for s in order if scores[s] == max(scores))
        return {"scores": scores, "winner": winner, "decisions": self.decisions}


def play_game(seed: int, players: int) -> dict:
    return Game(seed, players).play()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.games):
        play_game(seed, args.players)
    seconds = time.perf_counter() - start
    print(f"games {args.games}")
    print(f"seconds {seconds:.3f}")
    print(f"games_per_second {args.games / seconds:.1f}")


if __name__ == "__main__":
    main()
