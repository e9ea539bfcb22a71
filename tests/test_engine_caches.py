"""What the engine keeps between events reads as what it would find afresh: the active card abilities per
(kind, event) (Resolver.active_abilities, kept until a component with such abilities moves from or to a zone
where they work), components' zones made when first read (runtime.lazyzones), and the answers' labels made
when read (Session.labels)."""
from __future__ import annotations

import random

from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled
from interpreter.runtime.lazyzones import ComponentZones
from interpreter.runtime.start import build_state, new_state
from tiny_game import tiny_game


def _fresh(res, entry) -> list:
    """The active abilities of `entry` found now (the kept ones put back afterwards)."""
    kept = res.active_cache[entry.slot]
    found = res.active_abilities(entry)
    res.active_cache[entry.slot] = kept
    return found


def test_kept_active_abilities_are_those_found_afresh_at_every_decision():
    checked = 0
    for name, players, seed, variants in (("btwixt", 4, 1, ()), ("btwixt", 4, 2, ("advanced",)),
                                          ("btwixt", 4, 3, ("ally_row",)), ("agot", 3, 1, ())):  # AGoT: `suppose`
        session = Session(load_compiled(name), players, seed, variants=variants)
        res = session.rt.resolver
        entries = [e for by_event in res.index.values() for e in by_event.values() if e.by_record is not None]
        rng = random.Random(seed)
        while session.pending is not None and len(session.history) < 600:
            for entry in entries:
                kept = res.active_cache[entry.slot]
                if kept is not None:
                    # the order among several does not matter: collect sorts them by a key unique per (ability, card)
                    assert sorted(kept, key=_order) == sorted(_fresh(res, entry), key=_order), entry.key
                    checked += 1
            session.answer(rng.randrange(len(session.pending.values)))
    assert checked > 100  # kept values were compared, not only made


def _order(pair) -> tuple:
    hook, entity = pair
    return hook.order, entity.id


def test_components_zones_made_when_read_are_those_made_with_the_component():
    game = load_compiled("agot")  # five zones on every component
    lazy, eager = new_state(game, 3, 5), build_state(game, 3, 5)
    e = next(iter(lazy.entities.values()))
    assert type(e.zones) is ComponentZones and e.zones.pending() is not None  # nothing made before it is read
    held = e.zones
    assert held["units"].owner is e and type(e.zones) is dict  # all made at the first read, then a plain dict
    assert list(held.items()) == list(e.zones.items())  # the same zones through the one held before
    for eid, x in eager.entities.items():
        y = lazy.entities[eid]
        assert [(k, z.name, z.visibility, z.items) for k, z in y.zones.items()] == \
               [(k, z.name, z.visibility, z.items) for k, z in x.zones.items()]
        assert all(z.owner is y for z in y.zones.values())
    assert lazy.to_json() == eager.to_json()


def test_a_copy_keeps_unmade_zones_unmade_and_made_ones_its_own():
    game = load_compiled("btwixt")
    session = Session(game, 4, 3)
    rng = random.Random(3)
    while session.pending is not None and not any(
            type(e.zones) is dict and e.zones["tokens"].items for e in session.state.entities.values()):
        session.answer(rng.randrange(len(session.pending.values)))
    assert session.pending is not None  # a component carries tokens: its zones were made
    copy = session.copy()
    for eid, e in session.state.entities.items():
        c = copy.state.entities[eid]
        if type(e.zones) is ComponentZones and e.zones.pending() is not None:
            assert type(c.zones) is ComponentZones and c.zones.pending() is not None
            continue
        for k, z in e.zones.items():
            assert c.zones[k] is not z and c.zones[k].owner is c
            assert [x.id for x in c.zones[k].items] == [x.id for x in z.items]
    # both go on alike, each with its own zones
    for _ in range(40):
        if session.pending is None:
            break
        pick = rng.randrange(len(session.pending.values))
        session.answer(pick)
        copy.answer(pick)
    assert copy.state.to_json() == session.state.to_json()


# A map chosen and then changed (its label would read the change), a list of choices that shrinks after each answer
# (choose order), a menu option showing a map changed after it is chosen, players.
LABELS = """
procedure play():
    let a = {}
    a[1] = 2
    choose pick in [a, {}] by players[0] ask "Which?"
    pick[3] = 4
    choose order of [c in pile] as order by players[1] ask "Order?"
    choose by players[0] ask "Menu":
        take(u, n) for u in pile, n in [a] ask "take {u}":
            n[7] = 8
        keep(u) for u in pile ask "keep {u}":
            log "{u}"
    choose q in players by players[0] ask "Who?"
    choose c in pile by q ask "Which card?"
"""


def _labels_as_answered(session, rng) -> list:
    """Play on, each answer's label made as it is given (the labels' order and text a log must keep)."""
    eager = []
    while session.pending is not None:
        i = rng.randrange(len(session.pending.values))
        eager.append(session.pending.label(i))
        session.answer(i)
    return eager


def test_labels_made_when_read_are_those_of_the_answers_as_given(tmp_path):
    game = load_compiled(str(tiny_game(tmp_path, rules=LABELS)))
    seen = []
    for seed in range(12):
        session = Session(game, 2, seed)
        eager = _labels_as_answered(session, random.Random(seed))
        assert session.labels == eager
        seen += eager
    # a map answered reads as it was when chosen, not as changed since
    assert "{1: 2}" in seen and any(x.startswith("take ") for x in seen) and not any("7: 8" in x for x in seen)
    for name, players in (("btwixt", 4), ("kings_bounty", 3)):
        session = Session(load_compiled(name), players, 1)
        rng = random.Random(1)
        eager = _labels_as_answered(session, rng) if name == "btwixt" else []
        if name == "kings_bounty":  # read part-way too: the labels so far, then on
            for _ in range(20):
                i = rng.randrange(len(session.pending.values))
                eager.append(session.pending.label(i))
                session.answer(i)
            assert session.labels == eager
            eager += _labels_as_answered(session, rng)
        assert session.labels == eager and len(eager) == len(session.history)


def test_modifiers_applied_at_once_are_those_the_general_way_applies():
    """Resolver.modified applies a lone modifier at once: the value equals collect's candidates applied in order."""
    ones = 0
    for name, players in (("btwixt", 4), ("agot", 3), ("kings_bounty", 3)):
        session = Session(load_compiled(name), players, 2)
        rt, res = session.rt, session.rt.resolver
        at_once = res.modified

        def both(function, args, value, at_once=at_once, rt=rt, res=res):
            nonlocal ones
            mine = at_once(function, args, value)
            found = res.collect("modifier", function, args)
            ones += len(found) == 1
            assert mine == (rt._modify(function, args, value, found) if found else value), (function, args)
            return mine

        res.modified = both
        rng = random.Random(2)
        while session.pending is not None and len(session.history) < 400:
            session.answer(rng.randrange(len(session.pending.values)))
    assert ones > 50


def test_events_replaced_or_followed_are_those_the_abilities_and_temporaries_name_at_every_decision():
    """Resolver.replacing and triggering, made again as temporaries come and go, say what `has` finds."""
    game = load_compiled("btwixt")
    with_temporaries = 0
    for seed, variants in ((1, ()), (2, ("advanced",))):
        session = Session(game, 4, seed, variants=variants)
        res = session.rt.resolver
        rng = random.Random(seed)
        while session.pending is not None:
            for name in game.procs:
                assert (name in res.replacing) == res.has("replacement", name), name
                assert (name in res.triggering) == res.has("trigger", name), name
            with_temporaries += bool(res.temp_index)
            session.answer(rng.randrange(len(session.pending.values)))
    assert with_temporaries > 20  # temporaries came and went


SUPPOSED = """
function bonus(p: player) = 1
procedure play():
    let c = first(x in pile where x.kind == charm)
    let before = bonus(players[0])
    players[0].points = suppose move c to hand of players[0]: bonus(players[0])
    players[1].points = before * 100 + bonus(players[0])
"""

CHARM = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  source: designed
- id: charm
  kind: charm
  name: Charm
  value: 0
  source: designed
  effect: |
    modify bonus(p): value + 5
"""


def test_abilities_kept_while_a_move_is_supposed_are_dropped_when_it_is_undone(tmp_path):
    """A `suppose` puts its components back without `move`: the active abilities kept meanwhile are dropped."""
    game = load_compiled(str(tiny_game(tmp_path, rules=SUPPOSED, records=CHARM,
                                       kinds="charm: {starts_in: pile, active_in: [hand], required: [value]}")))
    session = Session(game, 2, 1)
    assert [pv["points"] for pv in session.state.player_vars] == [6, 101]


def _stamps(state) -> list:
    zones = list(state.game_zones.values()) + [z for zs in state.player_zones.values() for z in zs]
    zones += [z for e in state.entities.values() if type(e.zones) is dict for z in e.zones.values()]
    return [(z.name, z.stamp, [e.id for e in z.items]) for z in zones]


def test_a_whole_zone_moved_at_once_ends_as_the_general_loop_ends():
    """Runtime.move's shortcut for a whole zone (`_move_all`) leaves what the general loop leaves, one component
    at a time: the same game, zones' stamps and faces."""
    game = load_compiled("btwixt")
    for seed in (1, 2):
        ends = []
        for bulk in (True, False):
            session = Session(game, 4, seed, variants=("advanced",), start=False)
            rt = session.rt
            if not bulk:
                rt._move_all = lambda src, zone, rt=rt: rt.move(list(src.items), zone, False, None)
            session.call(game.content.manifest["start"])
            rng = random.Random(seed)
            while session.pending is not None:
                session.answer(rng.randrange(len(session.pending.values)))
            state = session.state
            ends.append((state.to_json(), _stamps(state), [(e.face_down, e.seen_by) for e in state.entities.values()]))
        assert ends[0] == ends[1]
