"""The chance step: every draw the rules make (`shuffle`, `roll`, `random`) goes through here, and nowhere else.

A draw's outcome is indices: a shuffle's permutation (the new order, as positions in the old one), a pick's
positions in what it picks from, a roll's faces. By default the game's seeded generator gives it, with the
same generator calls in the same order as a plain `random.Random` method would make (so games, logs and
tests are what they were). Each draw is kept in the game's `Chance` record (what the log writes, replay
checks and `rules explain` shows). Two things may give an outcome instead of the seed:

- `Chance.given`: an object with `settle(rt, kind, source, outcome, options, players) -> (outcome, how)`:
  a scenario's `chance:` entries (interpreter.scenarios) or a log's given outcomes (runtime.gamelog).
  The seed's generator is still drawn first, so what follows is what the seed gives.
- the chance seat (`Session(..., chance="seat")`): a draw becomes decisions of the seat `CHANCE`, one draw at
  a time (a shuffle: the top component, then the next, ...; a roll: each die), every option equally likely.
  A decision can only be put where the game may stop: the compiler wraps each statement whose expressions
  draw, in a body that may ask, so that the draw raises `ChanceAsked`, the statement yields the decision and,
  given the answer, evaluates its expressions again (they change nothing but draws; the answers given so far
  are used again in order). A draw anywhere else (a `whenever` body, a condition tested while an event is
  resolved, a question's words) is drawn by the seed even then: the record says which.
"""
from __future__ import annotations

import random
import re

from dsl import ast
from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen.budgets import RANGE_LIMIT, _what, each_of, zone_name
from interpreter.codegen.model import RunLimit
from interpreter.core.decisions import CHANCE, Decision, label_of
from interpreter.core.state import Entity, Zone, shuffle_items, touch

DRAWS = frozenset({"random", "roll"})  # the built-ins that draw (`shuffle` is a statement)
_RANDOM = random.Random


class ChanceAsked(Exception):
    """A draw needs the chance seat's answer: the statement that drew yields `decision`, then draws again."""

    def __init__(self, decision: Decision):
        super().__init__("chance")
        self.decision = decision


class Drawn:
    """One draw as the record keeps it: its kind, what it drew from (a zone's label, how many elements, a die's
    sides), the outcome (indices), who gave it ("seed", "given", "seat"), the decisions answered before it, and
    the values drawn (picks and rolls; a shuffle's new order only in a traced game), for `rules explain`."""

    __slots__ = ("kind", "source", "outcome", "how", "after", "values", "players")

    def __init__(self, kind: str, source, outcome: list, how: str, after: int, values=None, players: bool = False):
        self.kind, self.source, self.outcome, self.how, self.after, self.values = kind, source, outcome, how, after, values
        self.players = players  # the values drawn are players
    def text(self) -> str:
        """The log's line for it: `shuffle deck: 3 0 2 1`, `random 6: 4`, `roll d6: 2 5`, `... (given)`."""
        source = f"d{self.source}" if self.kind == "roll" else self.source
        tail = "" if self.how == "seed" else f" ({self.how})"
        return f"{self.kind} {source}: {' '.join(map(str, self.outcome))}{tail}"


class Chance:
    """A game's chance: the record of its draws, and what gives outcomes instead of the seed (see the module)."""

    __slots__ = ("record", "given", "seat", "armed", "answers", "cursor", "mark")

    def __init__(self):
        self.record: list = []  # every draw so far (Drawn)
        self.given = None  # gives outcomes by value (scenarios, a log's given ones); None: the seed alone
        self.seat = False  # draws in statements that may stop become the chance seat's decisions
        self.armed = False  # a statement's expressions that may put a chance decision are being evaluated
        self.answers: list = []  # the chance seat's answers for the statement being evaluated, in order
        self.cursor = 0  # how many of them the draws evaluated so far used
        self.mark = 0  # the record's length when that statement began (draws redone are not kept twice)

    def copy(self) -> "Chance":
        new = Chance()
        new.record, new.given, new.seat = list(self.record), self.given, self.seat
        new.armed, new.answers, new.cursor, new.mark = self.armed, list(self.answers), self.cursor, self.mark
        return new

    def texts(self) -> list:
        return [d.text() for d in self.record]


class Draw:
    """A draw as what gives outcomes by value sees it (`Chance.given.settle(rt, draw, outcome, how)`): its kind, what
    it draws from (a zone, how many elements, a die's sides), the options (a zone's components, the elements, the
    faces), whether they are players, whether there is nothing to choose (one element, nothing to shuffle), and how
    many it draws (a pick, the dice of a roll)."""

    __slots__ = ("kind", "source", "options", "players", "trivial", "count")

    def __init__(self, kind: str, source, options: list, players: bool, trivial: bool, count: int = 0):
        self.kind, self.source, self.options, self.players, self.trivial, self.count = kind, source, options, players, trivial, count

    def drawn(self, outcome: list, how: str, after: int) -> "Drawn":
        return Drawn(self.kind, label_of(self.source) if self.kind == "shuffle" else self.source, outcome, how, after)

    def valid(self, outcome: list) -> bool:
        """Could this draw have had `outcome`?"""
        if self.kind == "shuffle":
            return sorted(outcome) == list(range(len(self.options)))
        if self.kind == "roll":
            return len(outcome) == self.count and all(1 <= f <= self.source for f in outcome)
        return len(outcome) == min(self.count, len(self.options)) and len(set(outcome)) == len(outcome) \
            and all(0 <= i < len(self.options) for i in outcome)


class Logged:
    """A log's draws as `Chance.given` while it is replayed: each draw must have the logged outcome (a draw of the
    seed's that differs is a LOG-MISMATCH); a logged outcome that was given (a scenario's, a person's) is used."""

    def __init__(self, texts: list):
        self.texts = list(texts)
        self.at = 0

    def settle(self, rt, draw: Draw, outcome: list, how: str):
        n = self.at
        self.at += 1
        made = draw.drawn(outcome, how, rt.decisions).text()
        if n >= len(self.texts):
            raise _log_mismatch(f"draw {n + 1} ({made}) is not in the log, which records {len(self.texts)}")
        found = _LINE.match(self.texts[n])
        if found is not None and found["how"] == "given" and made.split(": ", 1)[0] == self.texts[n].split(": ", 1)[0]:
            given = [int(x) for x in found["outcome"].split()]
            if draw.valid(given):
                return given, "given"
        if made != self.texts[n]:
            who = "the chance seat's answers give" if how == "seat" else "the seed gives" if how == "seed" else "it is"
            raise _log_mismatch(f"draw {n + 1} (after decision {rt.decisions}): {who} '{_clip(made)}', "
                                f"the log says '{_clip(self.texts[n])}'")
        return outcome, how

    def left(self) -> int:
        return len(self.texts) - self.at


_LINE = re.compile(r"^(?P<kind>shuffle|random|roll) (?P<source>.+): (?P<outcome>[0-9 ]*)(?: \((?P<how>given|seat)\))?$")


def _clip(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[:width - 20] + " ... " + text[-15:]


def _log_mismatch(message: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic("LOG-MISMATCH", message, None, "the log was written by another version of the "
                                       "game or engine, or edited: replay it with the same content")])


def chance_of(where) -> Chance:
    """The Chance of a runtime or a state (made for a state built without one: a table laid out by hand)."""
    state = getattr(where, "state", where)
    ch = state.chance
    if ch is None:
        ch = state.chance = Chance()
    return ch


# ---------------------------------------------------------------- what draws, for the compiler
def draws_here(expr) -> bool:
    """Does the expression draw by chance itself (not counting the functions it calls)?"""
    return any(isinstance(n, ast.Call) and n.func in DRAWS and getattr(n, "ref", ("builtin",))[0] == "builtin"
               for n in _walk(expr))


def drawn_before(s, procs) -> list:
    """The expressions a statement evaluates once, in this order, before it acts: those a chance decision may be
    put in (codegen.chance); what it evaluates again and again (a loop's condition) or lazily is not among them."""
    if isinstance(s, ast.Let):
        return list(s.value.args) if isinstance(s.value, ast.Call) and s.value.func in procs else [s.value]
    if isinstance(s, ast.Assign):
        t = s.target
        return ([t.obj] if isinstance(t, ast.Attr) else [t.obj, t.key] if isinstance(t, ast.Index) else []) + [s.value]
    if isinstance(s, ast.CallStmt):
        call = s.call
        return list(call.args) if isinstance(call, ast.Call) and call.func in procs else [call]
    if isinstance(s, ast.Move):
        return [s.what, s.dest]
    if isinstance(s, ast.Show):
        return [s.what, s.to]
    if isinstance(s, (ast.Return, ast.Win, ast.Reveal, ast.Shuffle, ast.For, ast.Repeat, ast.Secretly, ast.ChooseOrder)):
        value = {ast.Return: "value", ast.Win: "who", ast.Reveal: "what", ast.Shuffle: "zone", ast.Repeat: "count"}.get(type(s), "coll")
        node = getattr(s, value)
        return [] if node is None else [node]
    return []


def _walk(node):
    yield node
    for child in ast.children(node):
        yield from _walk(child)


# ---------------------------------------------------------------- the draws
def draw_order(rt, zone) -> list:
    """A shuffle's new order, drawn (nothing moves yet): positions in the zone as it is."""
    if type(zone) is not Zone:
        raise RuntimeError(f"only a zone can be shuffled, not {_what(zone)}")
    items = zone.items
    n = len(items)
    ch = rt.state.chance or chance_of(rt)
    if ch.seat and ch.armed and n > 1:
        perm, how = _asked_order(rt, ch, items), "seat"
    else:
        perm, how = _seed_order(rt.state.rng, items), "seed"
    if ch.given is not None:
        perm, how = ch.given.settle(rt, Draw("shuffle", zone, items, False, n <= 1), perm, how)
    ch.record.append(Drawn("shuffle", label_of(zone), perm, how, rt.decisions,
                           (zone, [items[i] for i in perm]) if rt.trace is not None else None))
    return perm


def apply_order(rt, zone: Zone, perm: list) -> None:
    items = zone.items
    rt.version += 1
    items[:] = [items[i] for i in perm]
    touch(zone)
    if rt.change_watchers:
        rt.changed(zone)


def pick(rt, coll, k=None, players: bool = False):
    """`random(C)`: one element, none when C is empty; `random(C, K)`: K different ones (fewer if there are fewer)."""
    seq = list(each_of(rt, coll))
    n = len(seq)
    if k is not None:
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise RuntimeError(f"'random' needs a number of at least 0, not {_what(k)}")
        k = min(k, n)
    elif not n:
        return None
    ch = rt.state.chance or chance_of(rt)
    trivial = n <= 1 if k is None else k == 0  # nothing to choose: never scripted nor asked
    if ch.seat and ch.armed and not trivial:
        chosen, how = _asked_picks(rt, ch, seq, 1 if k is None else k, players), "seat"
    else:
        rng = rt.state.rng
        if type(rng) is _RANDOM:  # the same generator calls as rng.choice(seq) and rng.sample(seq, k)
            chosen = [rng.choice(range(n))] if k is None else rng.sample(range(n), k)
        else:  # a generator of its own kind (a bot's dealer) draws the elements themselves
            chosen = _positions(seq, [rng.choice(seq)] if k is None else rng.sample(seq, k))
        how = "seed"
    if ch.given is not None:
        chosen, how = ch.given.settle(rt, Draw("random", n, seq, players, trivial, 1 if k is None else k), chosen, how)
    values = [seq[i] for i in chosen]
    ch.record.append(Drawn("random", n, chosen, how, rt.decisions, values, players))
    return values[0] if k is None else values


def roll(rt, n, sides=6) -> list:
    """`roll(N)`, `roll(N, SIDES)`: N dice of SIDES faces (6 by default), each from 1 to SIDES."""
    for value, what in ((n, "dice"), (sides, "sides")):
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if what == "dice" else 1):
            raise RuntimeError(f"'roll' needs a number of {what} of at least {0 if what == 'dice' else 1}, not {_what(value)}")
        if value > RANGE_LIMIT:
            raise RunLimit(f"'roll' of {value:,} {what} is more than {RANGE_LIMIT:,}")
    ch = rt.state.chance or chance_of(rt)
    if ch.seat and ch.armed and sides > 1:
        faces, how = _asked_faces(rt, ch, n, sides), "seat"
    else:
        randrange = rt.state.rng.randrange
        faces, how = [randrange(sides) + 1 for _ in range(n)], "seed"
    if ch.given is not None:
        faces, how = ch.given.settle(rt, Draw("roll", sides, list(range(1, sides + 1)), False, not n or sides == 1, n), faces, how)
    ch.record.append(Drawn("roll", sides, faces, how, rt.decisions, faces))
    return list(faces)


def _seed_order(rng, items: list) -> list:
    n = len(items)
    if type(rng) is _RANDOM:
        perm = list(range(n))
        shuffle_items(rng, perm)  # the same generator calls as shuffling the items themselves
        return perm
    dealt = list(items)  # a bot's dealer deals the components themselves
    rng.shuffle(dealt)
    return _positions(items, dealt)


def _positions(seq: list, got: list) -> list:
    """Where each drawn value stands in `seq` (components by identity, each place once)."""
    free: dict = {}
    for i, x in enumerate(seq):
        free.setdefault(id(x) if isinstance(x, Entity) else (type(x), x) if _hashable(x) else id(x), []).append(i)
    out = []
    for x in got:
        places = free.get(id(x) if isinstance(x, Entity) else (type(x), x) if _hashable(x) else id(x))
        out.append(places.pop(0) if places else seq.index(x))
    return out


def _hashable(x) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------- the chance seat
def _answer(rt, ch: Chance, options: list, what: str, players: bool) -> int:
    """The seat's next answer for this statement (an index into `options`), or ChanceAsked."""
    if ch.cursor < len(ch.answers):
        index = ch.answers[ch.cursor]
        ch.cursor += 1
        return index
    del ch.record[ch.mark:]  # the draws made so far in this statement are made again once it is answered
    d = Decision(CHANCE, f"chance: {what}", options, "chance", players=players)
    rt.steps = 0
    rt.calls = 0
    raise ChanceAsked(d)


def _asked_order(rt, ch: Chance, items: list) -> list:
    left = list(range(len(items)))
    perm = []
    where = zone_name(items[0].zone) if items and isinstance(items[0], Entity) and items[0].zone else "a zone"
    while len(left) > 1:
        i = _answer(rt, ch, [items[j] for j in left], f"shuffle {where}: place {len(perm) + 1} of {len(items)}", False)
        perm.append(left.pop(i))
    return perm + left


def _asked_picks(rt, ch: Chance, seq: list, k: int, players: bool) -> list:
    left = list(range(len(seq)))
    chosen = []
    while len(chosen) < k:
        i = 0 if len(left) == 1 else _answer(rt, ch, [seq[j] for j in left], f"random: {len(chosen) + 1} of {k}", players)
        chosen.append(left.pop(i))
    return chosen


def _asked_faces(rt, ch: Chance, n: int, sides: int) -> list:
    return [_answer(rt, ch, list(range(1, sides + 1)), f"roll d{sides}: die {i + 1} of {n}", False) + 1 for i in range(n)]


# ---------------------------------------------------------------- what the compiler writes around a statement
def arm(rt, fresh: bool) -> None:
    """A statement's expressions that may draw are about to be evaluated (again, when not `fresh`)."""
    ch = rt.state.chance or chance_of(rt)
    if fresh:
        ch.answers.clear()
        ch.mark = len(ch.record)
    ch.cursor = 0
    ch.armed = True


def disarm(rt) -> None:
    ch = rt.state.chance
    if ch is not None:
        ch.armed = False


def took(rt, index) -> None:
    """The chance seat answered with option `index`: kept for the statement's next evaluation."""
    rt.state.chance.answers.append(index)


def decision_of(asked: ChanceAsked) -> Decision:
    return asked.decision


def run_through(rt, gen):
    """A procedure that draws but asks no player, called where nobody can be asked (an ability, a `whenever`): run
    to its end with the seed drawing, never the chance seat; its value. `gen` is its generator (or `()`: done)."""
    ch = rt.state.chance
    seat = ch is not None and ch.seat
    if seat:
        ch.seat = False
    try:
        next(iter(gen))
    except StopIteration as stop:
        return stop.value
    finally:
        if seat:
            ch.seat = True
    raise RuntimeError("a decision was asked where none can be")


def shuffle(rt, zone) -> None:
    """`shuffle ZONE` where nobody may be asked: drawn and applied at once."""
    apply_order(rt, zone, draw_order(rt, zone))


def seat_mode(chance: str) -> bool:
    """`Session(chance=...)`: "seed" (the seed draws) or "seat" (the chance seat is asked)."""
    if chance not in ("seed", "seat"):
        raise DiagnosticError([Diagnostic("USAGE", f"chance is drawn by the 'seed' or put to the 'seat', not {chance!r}")])
    return chance == "seat"


def names() -> dict:
    """What generated code calls, under the names it calls them by (library.namespace)."""
    return {"_random": pick, "_roll": roll, "_shuffle": shuffle, "_run_through": run_through, "_draw_order": draw_order,
            "_apply_order": apply_order,
            "_chance_arm": arm, "_chance_disarm": disarm, "_chance_took": took, "_ChanceAsked": ChanceAsked,
            "_chance_decision": decision_of}
