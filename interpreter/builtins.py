"""Built-in functions of the rules language. Generic: they know lists, zones, seats and graphs."""
from __future__ import annotations

from interpreter.state import Entity, Zone, holder


def items_of(value):
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
            return pick(values)
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


def compile_query(func: str, var: str, coll, cond, value, keys):
    """A closure for the comprehension forms: f(x in COLL where COND), f(VALUE for x in COLL), f(x in COLL by KEYS)."""

    def selected(env):
        vars_ = env.vars
        for x in list(items_of(coll(env))):
            vars_[var] = x
            if cond is None or cond(env):
                yield x

    def mapped(env):
        if value is None:
            yield from selected(env)
            return
        for _ in selected(env):
            yield value(env)

    if func == "count":
        return lambda env: sum(1 for _ in selected(env))
    if func == "sum":
        return lambda env: sum(mapped(env))
    if func == "list":
        return lambda env: list(mapped(env))
    if func == "any":
        return lambda env: any(True for _ in selected(env))
    if func == "all":
        def every(env):
            vars_ = env.vars
            for x in list(items_of(coll(env))):
                vars_[var] = x
                if not cond(env):
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
                return items[0] if func == "max" else items[-1]
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
