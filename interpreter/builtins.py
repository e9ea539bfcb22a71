"""Built-in functions of the rules language. Generic: they know lists, zones, seats and graphs."""
from __future__ import annotations

from interpreter.state import Entity, Zone, holder


def items_of(value):
    if type(value) is list:
        return value
    if isinstance(value, Zone):
        return value.items
    if value is None:
        return ()
    if isinstance(value, dict):
        return list(value)
    return value


def entities_of(value) -> list:
    if isinstance(value, Entity):
        return [value]
    return list(items_of(value))


def _n(env) -> int:
    return env.rt.state.players


def _top(z, n=None):
    items = items_of(z)
    if n is None:
        return items[0] if items else None
    return list(items[:n])


def _bottom(z, n=None):
    items = items_of(z)
    if n is None:
        return items[-1] if items else None
    return list(items[-n:]) if n else []


def _extreme(pick):
    def f(*values):
        if len(values) == 2:
            # max(0, max(...)): an empty inner max (none) gives way to the other value
            present = [v for v in values if v is not None]
            return pick(present) if present else None
        items = list(items_of(values[0]))
        return pick(items) if items else None
    return f


def compile_call(name: str, args: list):
    """A closure for a built-in called with plain arguments."""
    a = args
    if name in ("count", "len"):
        x = a[0]
        return lambda env: len(items_of(x(env)))
    if name == "sum":
        x = a[0]
        return lambda env: sum(items_of(x(env)))
    if name in ("max", "min"):
        f = _extreme(max if name == "max" else min)
        return lambda env: f(*(y(env) for y in a))
    if name == "any":
        x = a[0]
        return lambda env: any(items_of(x(env)))
    if name == "all":
        x = a[0]
        return lambda env: all(items_of(x(env)))
    if name == "first":
        x = a[0]
        return lambda env: next(iter(items_of(x(env))), None)
    if name == "distinct":
        x = a[0]
        return lambda env: list(dict.fromkeys(items_of(x(env))))
    if name == "concat":
        x = a[0]
        return lambda env: [y for part in items_of(x(env)) for y in items_of(part)]
    if name in ("top", "bottom"):
        f = _top if name == "top" else _bottom
        return lambda env: f(*(y(env) for y in a))
    if name == "random":
        x = a[0]
        if len(a) == 1:
            def pick(env):
                items = list(items_of(x(env)))
                return env.rt.state.rng.choice(items) if items else None
            return pick
        k = a[1]

        def sample(env):
            items = list(items_of(x(env)))
            return env.rt.state.rng.sample(items, min(k(env), len(items)))
        return sample
    if name == "next":
        x = a[0]
        return lambda env: (x(env) + 1) % _n(env)
    if name == "prev":
        x = a[0]
        return lambda env: (x(env) - 1) % _n(env)
    if name == "neighbors":
        x = a[0]

        def neighbors(env):
            p, n = x(env), _n(env)
            return list(dict.fromkeys(q for q in ((p - 1) % n, (p + 1) % n) if q != p))
        return neighbors
    if name == "distance":
        x, y = a
        return lambda env: (y(env) - x(env)) % _n(env)
    if name == "players_from":
        x = a[0]

        def players_from(env):
            p, n = x(env), _n(env)
            return [(p + i) % n for i in range(n)]
        return players_from
    if name == "holder":
        x = a[0]
        return lambda env: holder(x(env))
    if name == "zone_of":
        x = a[0]
        return lambda env: x(env).zone
    if name == "is_in":
        x, z = a
        return lambda env: x(env).zone is z(env)
    if name == "abs":
        x = a[0]
        return lambda env: abs(x(env))
    if name == "seat":
        x = a[0]
        return lambda env: x(env)
    if name == "variant":
        x = a[0]
        return lambda env: x(env) in env.rt.state.variants
    if name == "face_down":
        x = a[0]
        return lambda env: x(env).face_down
    if name == "keys":
        x = a[0]
        return lambda env: list(x(env))
    raise AssertionError(f"no built-in {name}")


def compile_query(func: str, var: str, coll, cond, value, keys, pred=None, elem_value=None):
    """A closure for the comprehension forms: f(x in COLL where COND), f(VALUE for x in COLL), f(x in COLL by KEYS)."""

    def selected(env):
        vars_ = env.vars
        for x in items_of(coll(env)):
            vars_[var] = x
            if cond is None or cond(env):
                yield x

    def mapped(env):
        if value is None:
            yield from selected(env)
            return
        for _ in selected(env):
            yield value(env)

    # Expressions cannot change the game, so the tight loops below iterate zones without copying.
    fast = _element_query(func, coll, cond, value, pred, elem_value)
    if fast is not None:
        return fast
    if func == "count" and cond is not None:
        def count(env):
            vars_, n = env.vars, 0
            for x in items_of(coll(env)):
                vars_[var] = x
                if cond(env):
                    n += 1
            return n
        return count
    if func == "count":
        return lambda env: len(items_of(coll(env)))
    if func == "sum":
        def total(env):
            vars_, n = env.vars, 0
            for x in items_of(coll(env)):
                vars_[var] = x
                if cond is None or cond(env):
                    n += value(env) if value is not None else x
            return n
        return total
    if func == "list":
        def listing(env):
            vars_, out = env.vars, []
            for x in items_of(coll(env)):
                vars_[var] = x
                if cond is None or cond(env):
                    out.append(value(env) if value is not None else x)
            return out
        return listing
    if func == "any":
        def some(env):
            vars_ = env.vars
            for x in items_of(coll(env)):
                vars_[var] = x
                if (cond is None or cond(env)) and (value is None or value(env)):
                    return True
            return False
        return some
    if func == "all":
        def every(env):
            """all(x in C where P): every x satisfies P; all(E for x in C [where P]): E holds for each (chosen) x."""
            vars_ = env.vars
            for x in items_of(coll(env)):
                vars_[var] = x
                if value is None:
                    if not (cond(env) if cond is not None else x):
                        return False
                elif (cond is None or cond(env)) and not value(env):
                    return False
            return True
        return every
    if func == "first":
        return lambda env: next(mapped(env), None)
    if func == "distinct":
        return lambda env: list(dict.fromkeys(mapped(env)))
    if func in ("max", "min") and not keys:
        pick = max if func == "max" else min
        return lambda env: pick(list(mapped(env)), default=None)
    if func in ("rank", "group", "max", "min"):
        def ranked(env):
            items = list(selected(env))
            vars_ = env.vars
            for key, descending in reversed(keys):
                def k(x, key=key):
                    vars_[var] = x
                    return key(env)
                items.sort(key=k, reverse=descending)
            return items

        if func == "rank":
            return ranked
        if func in ("max", "min"):
            def extreme(env):
                items = ranked(env)
                if not items:
                    return None
                return items[-1] if func == "max" else items[0]  # the ranking is ascending unless a key says otherwise
            return extreme

        def group(env):
            items = ranked(env)
            vars_ = env.vars
            groups: list = []
            last = object()
            for x in items:
                vars_[var] = x
                signature = tuple(key(env) for key, _ in keys)
                if groups and signature == last:
                    groups[-1].append(x)
                else:
                    groups.append([x])
                    last = signature
            return groups
        return group
    if func == "reach":
        step = keys[0][0]

        def reach(env):
            """Breadth-first from COLL; a node is passed through only where COND holds."""
            vars_ = env.vars
            seen: dict = {}
            queue = list(items_of(coll(env)))
            while queue:
                x = queue.pop(0)
                if x in seen:
                    continue
                seen[x] = True
                vars_[var] = x
                if cond is None or cond(env):
                    vars_[var] = x
                    queue.extend(items_of(step(env)))
            return list(seen)
        return reach
    raise AssertionError(f"no query form for {func}")


def _element_query(func: str, coll, cond, value, pred, elem_value):
    """count/sum/any/list whose filter and value read only the element: no variables involved."""
    if (cond is not None and pred is None) or (value is not None and elem_value is None):
        return None
    if func in ("any", "all") and value is not None:
        return None  # any(E for x in C): the general loop below tests E
    if func == "count" and pred is not None:
        return lambda env: sum(1 for x in items_of(coll(env)) if pred(x))
    if func == "any" and pred is not None:
        return lambda env: any(pred(x) for x in items_of(coll(env)))
    if func == "sum" and elem_value is not None:
        if pred is None:
            return lambda env: sum(elem_value(x) for x in items_of(coll(env)))
        return lambda env: sum(elem_value(x) for x in items_of(coll(env)) if pred(x))
    if func == "list" and pred is not None and value is None:
        return lambda env: [x for x in items_of(coll(env)) if pred(x)]
    if func in ("list", "distinct") and elem_value is not None:
        if pred is None:
            out = lambda env: [elem_value(x) for x in items_of(coll(env))]  # noqa: E731
        else:
            out = lambda env: [elem_value(x) for x in items_of(coll(env)) if pred(x)]  # noqa: E731
        if func == "distinct":
            return lambda env: list(dict.fromkeys(out(env)))
        return out
    return None
