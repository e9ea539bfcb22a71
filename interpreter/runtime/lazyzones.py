"""A component's zones, made when first read.

Every component has a zone of each entity-scoped name (B'Twixt's `tokens`, AGoT's five), and most stay empty for
the whole game; making them all for every game was the bulk of starting one (and of copying one, and of the
collector's work when a game is dropped). `ComponentZones` is the dict `Entity.zones` holds, empty until it is
first read in any way: then every zone is made at once, in the declared order, and the component holds a plain
dict of them from then on. Reading a zone by name (`e.zones["tokens"]`, as generated code does) stays a plain dict look-up.
"""
from __future__ import annotations

from interpreter.core.state import Entity, Zone


_new = dict.__new__


class ComponentZones(dict):
    """`Entity.zones` before any of them is made: `specs` is ((name, visibility), ...) of the zones to make."""

    __slots__ = ("owner", "specs")

    def __init__(self, owner: Entity, specs: tuple):
        self.owner = owner
        self.specs = specs  # None once made

    @classmethod
    def of(cls, owner: Entity, specs: tuple) -> "ComponentZones":
        """ComponentZones(owner, specs), without the call of __init__ (made for every component of a game)."""
        z = _new(cls)
        z.owner = owner
        z.specs = specs
        return z

    def _made(self) -> None:
        specs = self.specs
        if specs is not None:
            self.specs = None
            owner = self.owner
            for name, visibility in specs:
                if not dict.__contains__(self, name):
                    dict.__setitem__(self, name, Zone(name, owner, visibility))
            if owner.zones is self:
                # from now on the component holds a plain dict of the same zones (a look-up in a dict's subclass
                # is slower); one who kept this one reads the same zones through it
                owner.zones = dict(dict.items(self))

    # every way of reading a dict makes the zones first (a plain look-up by name only when it misses)
    def __missing__(self, name):
        if self.specs is None:
            raise KeyError(name)
        self._made()
        return dict.__getitem__(self, name)

    def get(self, name, default=None):
        self._made()
        return dict.get(self, name, default)

    def __contains__(self, name) -> bool:
        self._made()
        return dict.__contains__(self, name)

    def __iter__(self):
        self._made()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._made()
        return dict.__len__(self)

    def __eq__(self, other) -> bool:
        self._made()
        if type(other) is ComponentZones:
            other._made()
        return dict.__eq__(self, other)

    __hash__ = None

    def keys(self):
        self._made()
        return dict.keys(self)

    def values(self):
        self._made()
        return dict.values(self)

    def items(self):
        self._made()
        return dict.items(self)

    def copy(self) -> dict:
        self._made()
        return dict(dict.items(self))

    def setdefault(self, name, default=None):
        self._made()
        return dict.setdefault(self, name, default)

    def pop(self, name, *default):
        self._made()
        return dict.pop(self, name, *default)

    def __repr__(self) -> str:
        self._made()
        return dict.__repr__(self)

    def __reduce__(self):  # pickled and copied as the plain dict it stands for
        return (dict, (self.copy(),))

    def pending(self) -> tuple | None:
        """The zones still to make (None once made): what a copy of the component starts from."""
        return self.specs
