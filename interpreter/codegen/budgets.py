"""The run-time budgets of generated code, and the arithmetic and joins that count against them.

Every way rule text can work long or make much between two decisions is counted here: loop steps,
elements that comprehensions and built-ins go through or make, characters of texts made (STEP_LIMIT);
calls (CALL_LIMIT, counted inline by the code `declarations` writes); the size of one value (SIZE_LIMIT)
and of a value kept in the game or shown (`kept`, `told`); numbers within ±(2**53 - 1). A budget passed
raises RunLimit, which the session reports as RUN-LIMIT at the line of rule text that was running.
"""
from __future__ import annotations

from itertools import combinations as _combinations
from math import comb

from interpreter.codegen.model import RunLimit
from interpreter.core.decisions import player_label
from interpreter.core.state import Entity, Zone

# The run-time budgets (docs/language.md §14 says why each is what it is). Each counts between two
# decisions (`ask` resets them), so that no rule text can run for long or make much without a player
# being asked; each is checked where the work is done, so RUN-LIMIT points at that line of rule text.
RANGE_LIMIT = 10_000  # elements of a range or iterations of one `repeat`
NUMBER_LIMIT = 2 ** 53 - 1  # numbers stay within ±(2**53 - 1): exact in every JSON reader
WHILE_LIMIT = 100_000  # iterations of one `while` loop
STEP_LIMIT = 1_000_000  # steps between two decisions: loop iterations, elements gone through or made, characters made
CALL_LIMIT = 200_000  # calls of functions and procedures between two decisions
SIZE_LIMIT = 1_000_000  # elements of one list or map (counted through the lists it holds), characters of one text
TOLD_LIMIT = 10_000  # elements of one value a log line or a question shows
DEPTH_LIMIT = 32  # lists and maps inside one another in a value kept in the game or shown


def items(value):
    if type(value) is list:
        return value
    if isinstance(value, Zone):
        return value.items
    if value is None:
        return ()
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, (tuple, str)):
        return value
    raise RuntimeError(f"{_what(value)} is not a list or a zone")


def concat2(rt, a, b) -> list:
    a = a if type(a) is list else (a.items if type(a) is Zone else items(a))
    b = b if type(b) is list else (b.items if type(b) is Zone else items(b))
    n = len(a) + len(b)  # counted before it is made
    rt.steps += n
    if rt.steps > STEP_LIMIT or n > SIZE_LIMIT:
        making(rt, n)
    return [*a, *b]


# ---------------------------------------------------------------- arithmetic and budgets
def div(a, b):
    _numbers(a, b, "/")
    return a // b


def mul(a, b):
    _numbers(a, b, "*")
    r = a * b
    if not -NUMBER_LIMIT <= r <= NUMBER_LIMIT:
        raise RunLimit(f"a product left the range of numbers, ±(2**53 - 1): {a} * {b}")
    return r


def mod(a, b):
    _numbers(a, b, "%")  # never Python's text formatting ("%s" % x)
    return a % b


def _numbers(a, b, op: str) -> None:
    # A list or a text times a number would be Python's repetition: gigabytes from one `*`
    if type(a) is not int or type(b) is not int:
        raise RuntimeError(f"'{op}' needs two numbers, not {_what(a)} and {_what(b)}")


def plus(rt, a, b):
    """`+` where the checker could not tell numbers from texts or lists: each kind within its budget."""
    if type(a) is int and type(b) is int:
        return a + b
    if type(a) is str and type(b) is str:
        return text_plus(rt, a, b)
    if isinstance(a, (list, tuple, Zone)) or isinstance(b, (list, tuple, Zone)):
        return concat2(rt, a, b)
    raise RuntimeError(f"'+' cannot join {_what(a)} and {_what(b)}")


def chain(rt, ops: str, first, *rest):
    """`a + b - c ...` left to right where the checker could not tell it is numbers only: numbers within
    range, texts and lists joined within their budgets, each join counted before it is made."""
    value = first
    for op, other in zip(ops, rest):
        if type(value) is int and type(other) is int:
            value = bounded(value + other if op == "+" else value - other)
        elif op == "-":
            raise RuntimeError(f"'-' needs two numbers, not {_what(value)} and {_what(other)}")
        else:
            value = plus(rt, value, other)
    return value


def join(rt, parts: tuple) -> str:
    """A text with {values} in it: its length is counted, and bounded, before it is made."""
    made_text(rt, sum(len(p) for p in parts))
    return "".join(parts)


def text_plus(rt, a, b) -> str:
    if type(a) is not str or type(b) is not str:
        raise RuntimeError(f"'+' cannot join {_what(a)} and {_what(b)}")
    made_text(rt, len(a) + len(b))
    return a + b


def made_text(rt, n: int) -> None:
    """A text of n characters is about to be made: it counts n steps and may not pass SIZE_LIMIT."""
    if n > SIZE_LIMIT:
        raise RunLimit(f"a text of {n:,} characters is longer than the budget of {SIZE_LIMIT:,}")
    spend(rt, n, "characters made")


def text_of(rt, text: str) -> str:
    """A text made by interpolation ("{a}{b}"), within its budget."""
    made_text(rt, len(text))
    return text


def bounded(n):
    """A number about to be stored or told: it must stay within ±(2**53 - 1), so no loop can grow it without end."""
    if type(n) is int and not -NUMBER_LIMIT <= n <= NUMBER_LIMIT:
        raise RunLimit(f"a number left the range of numbers, ±(2**53 - 1): {n}")
    return n


def number_range(rt, low, high) -> list:
    for v in (low, high):
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuntimeError(f"a range needs numbers, not {_what(v)}")
    if high - low + 1 > RANGE_LIMIT:
        raise RunLimit(f"the range {low}..{high} has more than {RANGE_LIMIT:,} numbers")
    spend(rt, max(0, high - low + 1), "elements made")
    return list(range(low, high + 1))


def combinations(rt, coll, k) -> list:
    """Every choice of k elements of a list or zone (`combinations([a, b, c], 2)`: [a, b], [a, c], [b, c]), each once,
    in the order of the collection (as itertools makes them); counted, and bounded, before any is made."""
    if not isinstance(k, int) or isinstance(k, bool) or k < 0:
        raise RuntimeError(f"'combinations' needs a number of at least 0, not {_what(k)}")
    seq = each_of(rt, coll)
    n = comb(len(seq), k)
    if n * max(k, 1) > SIZE_LIMIT:
        raise RunLimit(f"{n:,} combinations of {k} of {len(seq):,} elements: more than the budget of {SIZE_LIMIT:,} elements")
    spend(rt, n * max(k, 1), "elements made")
    return [list(c) for c in _combinations(seq, k)]


def numbers(rt, low, high) -> range:
    """The options of a choice of a number in LOW..HIGH: a range, never made into a list however large (the
    numbers themselves stay within the number range)."""
    for v in (low, high):
        if not isinstance(v, int) or isinstance(v, bool):
            raise RuntimeError(f"a number is chosen in a range of numbers, not {_what(v)}")
    return range(low, high + 1)


def repeat_count(rt, n) -> range:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuntimeError(f"'repeat' needs a number of at least 0, not {_what(n)}")
    if n > RANGE_LIMIT:
        raise RunLimit(f"'repeat {n}' is more than {RANGE_LIMIT:,} times")
    spend(rt, n, "loop steps")
    return range(n)


def spend(rt, n: int, what: str = "loop steps") -> None:
    rt.steps += n
    if rt.steps > STEP_LIMIT:
        raise RunLimit(f"more than {STEP_LIMIT:,} steps without a decision (loop steps, elements and characters "
                       f"gone through or made); this one: {n:,} {what}")


def loop_items(rt, value) -> list:
    """A `for` loop goes through a copy, so moving what it goes through cannot upset it."""
    t = type(value)
    seq = list(value.items if t is Zone else (value if t is list else items(value)))
    n = len(seq)
    if rt.steps + n > STEP_LIMIT:
        spend(rt, n)
    rt.steps += n
    return seq


def loop_made(rt, seq: list) -> list:
    """`loop_items` of a list made for the loop alone (a join): nothing else holds it, so no copy is needed."""
    n = len(seq)
    if rt.steps + n > STEP_LIMIT:
        spend(rt, n)
    rt.steps += n
    return seq


def each(rt, seq):
    """What a comprehension goes through (already a list, tuple, text or a zone's items), counted as steps."""
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, f"elements a comprehension went through ({len(seq):,} here)")
    return seq


def each_of(rt, value):
    """`items(value)` for a comprehension, counted as steps."""
    seq = value if type(value) is list else items(value)
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, f"elements gone through ({len(seq):,} here)")
    return seq


def contains(rt, x, seq) -> bool:
    """`x in C`: a scan of C, counted as steps."""
    seq = seq if type(seq) is list else items(seq)
    rt.steps += len(seq)
    if rt.steps > STEP_LIMIT:
        spend(rt, 0, f"elements 'in' looked through ({len(seq):,} here)")
    return x in seq


def too_many_calls(rt) -> None:
    raise RunLimit(f"more than {CALL_LIMIT:,} calls of functions and procedures without a decision "
                   f"(a function or procedure that calls itself again and again?)")


def while_step(rt, n: int) -> int:
    if n >= WHILE_LIMIT:
        raise RunLimit(f"this loop ran {WHILE_LIMIT:,} times without ending")
    spend(rt, 1)
    return n + 1


def making(rt, n: int) -> None:
    """A list of n elements about to be made from others (joined, gathered), already counted in rt.steps,
    passed a budget: the list may not pass SIZE_LIMIT, nor the steps STEP_LIMIT."""
    if n > SIZE_LIMIT:
        raise RunLimit(f"a list of {n:,} elements is longer than the budget of {SIZE_LIMIT:,}")
    spend(rt, 0, f"elements made ({n:,} here)")


def kept(rt, value, limit: int = SIZE_LIMIT, what: str = "kept in the game"):
    """A value about to be kept in the game (a variable, a map entry) or told: numbers within range; lists and
    maps, through the lists they hold, at most `limit` elements and DEPTH_LIMIT levels deep (so that writing
    the game's state or a log line stays small and its walk ends); texts at most SIZE_LIMIT characters."""
    t = type(value)
    if t is int:
        return bounded(value)
    if t is str:
        if len(value) > SIZE_LIMIT:
            raise RunLimit(f"a text of {len(value):,} characters is longer than the budget of {SIZE_LIMIT:,}")
        return value
    if t is not list and t is not dict and t is not tuple:
        return value
    count = 0
    level = [value]
    depth = 0
    while level:
        depth += 1
        if depth > DEPTH_LIMIT:
            raise RunLimit(f"a value {what} holds lists or maps more than {DEPTH_LIMIT} levels deep "
                           f"(a list that holds itself?)")
        inner = []
        for v in level:
            parts = (*v.keys(), *v.values()) if type(v) is dict else v
            count += len(parts)
            if count > limit:
                _too_big(what, limit)
            for x in parts:
                tx = type(x)
                if tx is list or tx is dict or tx is tuple:
                    inner.append(x)
                elif tx is int and not -NUMBER_LIMIT <= x <= NUMBER_LIMIT:
                    bounded(x)
                elif tx is str:
                    count += len(x)  # a text counts its characters: shown, each of them is written out
            if count > limit:
                _too_big(what, limit)
        level = inner
    spend(rt, count, f"elements of a value {what}")
    return value


def _too_big(what: str, limit: int) -> None:
    raise RunLimit(f"a value {what} holds more than {limit:,} elements and characters, counted through the "
                   f"lists and maps inside it")


def told(rt, value):
    """A value a log line or a question shows: kept small, so the line stays readable and its rendering short."""
    return kept(rt, value, TOLD_LIMIT, "shown in a line")


def set_index(rt, obj, key, value) -> None:
    """`m[k] = v`, `l[i] = v`: a map grows by one entry at most, up to SIZE_LIMIT."""
    kept(rt, value)
    if type(obj) is dict:
        if key not in obj and len(obj) >= SIZE_LIMIT:
            raise RunLimit(f"a map of {len(obj):,} entries cannot take another (the budget is {SIZE_LIMIT:,})")
        kept(rt, key)
        try:
            obj[key] = value
        except TypeError:
            raise RuntimeError(f"{_what(key)} cannot be a key of a map") from None
        return
    if type(obj) is list:
        if not isinstance(key, int) or isinstance(key, bool):
            raise RuntimeError(f"a list is indexed by a number, not {_what(key)}")
        obj[key] = value
        return
    raise RuntimeError(f"only a map or a list has entries to set, not {_what(obj)}")


# ---------------------------------------------------------------- words for values
def zone_name(zone: Zone) -> str:
    if zone.owner is None:
        return zone.name
    if isinstance(zone.owner, Entity):
        return f"{zone.name} of {zone.owner.id}"
    return f"{zone.name} of {player_label(zone.owner)}"


def _what(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, Entity):
        return f"the component {value.id}"
    if isinstance(value, Zone):
        return f"the zone {zone_name(value)}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return "a value of another kind"
