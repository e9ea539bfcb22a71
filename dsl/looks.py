"""How a game's components, board and tracks look: data in the manifest's `looks:` (or a YAML file it names),
checked with the rest of the game. Front ends draw from it (interpreter.present.scene); nothing in the engine
knows what a particular game's pieces look like.

    looks:                                  # or `looks: looks.yaml`, a file in the game folder
      colours: {by: house, values: {stark: "#d9d9d9", ...}}   # each seat's colour, by a player variable
      kinds:                                # per kind of component
        unit: {icon: {by: unit_type, icons: {knight: mounted-knight}}, colour: {by: house}, badges: [strength]}
        house_card: {shape: card, colour: owner}
      back: wax-seal                        # a face-down component's icon, coloured by what its back shows
      areas:
        style: {by: kind, styles: {land: {fill: "#d8c9a3"}, sea: {fill: "#9cc0d9"}}}
        icons: [{attribute: supply, icon: barrel}, {attribute: castle, icons: {1: castle}}]
        greyed: [{zone: out_of_play, reason: {en: "out of play", ru: "вне игры"}}]
      tracks:
        - {name: {en: Iron Throne, ru: Железный трон}, order: throne_track, icon: throne-king}
        - {name: supply_level, each: supply_level, positions: {from: 0, to: 6}}
        - {name: round, value: round, positions: {from: 1, to: players + 1}}

Icons are named as in the game-icons.net set; the ones content may use are vendored with their licence in
interpreter/present/icons/ (a file this module reads: the names are data, nothing is imported from above).
Looks are not part of the content hash: a new colour changes no game, so logs still replay.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from dsl.diagnostics import Report, Span, did_you_mean
from dsl.schema_check import load_schema, validate
from dsl.translations import check_localized, localized
from dsl.yaml_records import read_game_yaml

ICONS_FILE = Path(__file__).resolve().parent.parent / "interpreter" / "present" / "icons" / "game-icons.json"
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
# seats' colours when content gives none: distinct, readable under dark text
SEAT_COLOURS = ("#e07a5f", "#81b29a", "#f2cc8f", "#8ecae6", "#c9a0dc", "#f4a261", "#a3c4bc", "#e5989b")
PLAYERS_BOUND = re.compile(r"^players\s*(?:([+-])\s*(\d+))?$")


@functools.lru_cache(maxsize=1)
def icon_names() -> frozenset:
    """The names of the vendored icons (empty when the file is missing: every icon is then unknown)."""
    try:
        return frozenset(json.loads(ICONS_FILE.read_text(encoding="utf-8"))["icons"])
    except (OSError, ValueError, KeyError):
        return frozenset()


@dataclass(frozen=True)
class Pick:
    """A value (an icon, a colour) fixed, or picked by an attribute of the component (`kind` for its kind)."""

    fixed: str | None = None
    by: str | None = None
    values: dict = field(default_factory=dict)  # the attribute's value, as text -> the icon or colour

    def of(self, attrs: dict, kind: str | None = None) -> str | None:
        if self.by is None:
            return self.fixed
        value = kind if self.by == "kind" else attrs.get(self.by)
        if isinstance(value, bool):
            value = "true" if value else "false"
        return self.values.get(str(value), self.fixed) if value is not None else self.fixed


@dataclass(frozen=True)
class KindLook:
    shape: str = ""  # card | token | "" (a token on the board, a card elsewhere)
    icon: Pick | None = None
    colour: Pick | None = None  # its `values` empty: the players' colours by that value
    owner_colour: bool = False  # coloured as the seat holding it
    badges: tuple | None = None  # number attributes shown as badges (None: every one)


@dataclass(frozen=True)
class AreaIcon:
    attribute: str
    icon: str | None = None  # a number: this icon that many times; a true flag: once
    icons: dict = field(default_factory=dict)  # else the value (as text) -> icon


@dataclass(frozen=True)
class Track:
    name: object  # an identifier of the game, or {lang: text}
    how: str  # order (a list of players, first first) | each (a number per player) | value (one game value)
    variable: str
    positions: tuple = ()  # explicit positions; else from..to
    low: int = 0
    high: int = 0
    high_players: int | None = None  # `to: players + k`: the bound is the player count plus k
    labels: tuple = ()  # a label per position
    labels_from: tuple | None = None  # (zone, attribute): position i is labelled by the i-th component's value
    icon: str | None = None


@dataclass
class Looks:
    colour_by: str | None = None  # a player variable whose value picks the seat's colour
    colours: dict = field(default_factory=dict)  # that variable's value -> colour
    seats: tuple = SEAT_COLOURS  # colours by seat, when no variable picks them (or its value has none)
    kinds: dict = field(default_factory=dict)  # kind -> KindLook
    back: str = "card-random"  # the icon of a face-down component
    area_style: Pick | None = None  # an area's style name, by an attribute or its kind
    styles: dict = field(default_factory=dict)  # style name -> {fill, stroke, text}
    area_icons: tuple = ()  # AreaIcon
    greyed: tuple = ()  # (zone, reason as content wrote it): areas lying there are drawn greyed, never removed
    tracks: tuple = ()  # Track
    icons: frozenset = frozenset()  # every icon content names

    def seat_colour(self, seat, player_vars: list | None = None) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return "#9e9e9e"
        if self.colour_by and player_vars is not None and 0 <= seat < len(player_vars):
            value = player_vars[seat].get(self.colour_by)
            if value is not None and str(value) in self.colours:
                return self.colours[str(value)]
        return self.seats[seat % len(self.seats)]


class _Part:
    """A part of a YAML document read as a document of its own (the manifest's `looks:`): its data and the
    places of its items, for the schema's diagnostics."""

    def __init__(self, doc, prefix: tuple):
        self.doc, self.prefix = doc, prefix
        self.path = doc.path
        data = doc.data
        for key in prefix:
            data = data.get(key) if isinstance(data, dict) else None
        self.data = data

    def span(self, path: tuple) -> Span:
        return self.doc.span(self.prefix + tuple(path))

    def key_span(self, path: tuple) -> Span:  # an unknown field's caret on its key (dsl.schema_check)
        return self.doc.key_span(self.prefix + tuple(path))


def read_looks(root: Path, raw, doc, voc, report: Report, display=str) -> Looks:
    """The manifest's `looks:` (a mapping, or a file in the game folder) as Looks; every problem reported."""
    if raw is None:
        return Looks()
    if isinstance(raw, str):
        ldoc = read_game_yaml(root, raw, doc.span(("looks",)), "looks", "name a YAML file of the game folder, e.g. `looks: looks.yaml`",
                              report, display)
        if ldoc is None:
            return Looks()
        part = _Part(ldoc, ())
    else:
        part = _Part(doc, ("looks",))
    problems = validate(part, load_schema("looks.schema.json"))
    if problems:
        report.add(problems)
        return Looks()
    return _Reader(part, voc, report).read()


class _Reader:
    def __init__(self, part: _Part, voc, report: Report):
        self.part, self.voc, self.report = part, voc, report
        self.icons: set = set()

    def where(self, *path) -> Span:
        return self.part.span(path)

    def read(self) -> Looks:
        data = self.part.data
        looks = Looks()
        colours = data.get("colours") or {}
        if colours.get("by") is not None:
            by = colours["by"]
            var = self.voc.variables.get(by)
            if var is None or var.scope != "player":
                players = [n for n, v in self.voc.variables.items() if v.scope == "player"]
                self.report.error("REF-UNDEF", f"looks: colours: '{by}' is not a player variable", self.where("colours", "by"),
                                  did_you_mean(by, players) or "name the player variable whose value picks the colour (AGoT: house)")
            else:
                looks.colour_by = by
                self._values_of(var.type, colours.get("values") or {}, ("colours", "values"))
        looks.colours = dict(colours.get("values") or {})
        if colours.get("seats"):
            looks.seats = tuple(colours["seats"])
        for kind, raw in (data.get("kinds") or {}).items():
            if kind not in self.voc.kinds:
                self.report.error("REF-UNDEF", f"looks: no kind '{kind}'", self.where("kinds", kind), did_you_mean(kind, self.voc.kinds))
                continue
            looks.kinds[kind] = self._kind(kind, raw)
        if data.get("back"):
            looks.back = self._icon(data["back"], ("back",))
        areas = data.get("areas") or {}
        if areas.get("style"):
            picked = self._pick(areas["style"], ("areas", "style"), "styles", icon=False)
            looks.styles = dict(areas["style"].get("styles") or {})
            if picked is not None:  # the attribute's value names its style
                looks.area_style = Pick(picked.fixed, picked.by, {k: k for k in picked.values})
        icons = []
        for i, raw in enumerate(areas.get("icons") or ()):
            if self._attribute(raw["attribute"], ("areas", "icons", i, "attribute")):
                icons.append(AreaIcon(raw["attribute"], self._icon(raw["icon"], ("areas", "icons", i, "icon")) if raw.get("icon") else None,
                                      {str(k): self._icon(v, ("areas", "icons", i, "icons", k)) for k, v in (raw.get("icons") or {}).items()}))
        looks.area_icons = tuple(icons)
        greyed = []
        for i, raw in enumerate(areas.get("greyed") or ()):
            zone = self.voc.zones.get(raw["zone"])
            if zone is None or zone.scope != "game":
                self.report.error("REF-UNDEF", f"looks: areas: greyed: '{raw['zone']}' is not a game zone", self.where("areas", "greyed", i, "zone"),
                                  did_you_mean(raw["zone"], [n for n, z in self.voc.zones.items() if z.scope == "game"]))
                continue
            check_localized(raw["reason"], self.where("areas", "greyed", i, "reason"), "the reason areas are greyed",
                            self.voc.languages, self.report)
            greyed.append((raw["zone"], localized(raw["reason"], self.voc.languages)))
        looks.greyed = tuple(greyed)
        looks.tracks = tuple(t for t in (self._track(i, raw) for i, raw in enumerate(data.get("tracks") or ())) if t is not None)
        looks.icons = frozenset(self.icons | {looks.back})
        return looks

    # ------------------------------------------------------------ pieces
    def _icon(self, name: str, path: tuple) -> str:
        known = icon_names()
        if name not in known:
            self.report.error("LOOKS-ICON", f"looks: no icon '{name}' among the vendored game-icons.net icons", self.where(*path),
                              did_you_mean(name, sorted(known)) or "see interpreter/present/icons/README.md: the names and how to add one")
        self.icons.add(name)
        return name

    def _attribute(self, name: str, path: tuple) -> bool:
        if name == "kind" or name in self.voc.attributes:
            return True
        self.report.error("REF-UNDEF", f"looks: no attribute '{name}'", self.where(*path), did_you_mean(name, list(self.voc.attributes) + ["kind"]))
        return False

    def _values_of(self, type_: str | None, values: dict, path: tuple) -> None:
        """Keys of a by-value map must be values of the attribute's enum (when it is one)."""
        allowed = self.voc.enums.get(type_) if type_ else None
        if type_ == "kind":
            allowed = list(self.voc.kinds)
        if allowed is None:
            return
        for key in values:
            if key not in allowed:
                self.report.error("VOCAB-VALUE", f"looks: '{key}' is not a value of {type_}", self.where(*path, key),
                                  did_you_mean(key, allowed) or f"one of: {', '.join(allowed)}")

    def _pick(self, raw, path: tuple, key: str, icon: bool = True) -> Pick | None:
        if isinstance(raw, str):
            return Pick(fixed=self._icon(raw, path) if icon else raw)
        by = raw.get("by")
        if by is not None and not self._attribute(by, path + ("by",)):
            return None
        values = raw.get(key) or {}
        self._values_of("kind" if by == "kind" else self.voc.attribute_type(by) if by else None, values, path + (key,))
        if icon:
            values = {str(k): self._icon(v, path + (key, k)) for k, v in values.items()}
        fixed = raw.get("default")
        if icon and fixed:
            fixed = self._icon(fixed, path + ("default",))
        return Pick(fixed, by, {str(k): v for k, v in values.items()})

    def _kind(self, kind: str, raw: dict) -> KindLook:
        path = ("kinds", kind)
        icon = self._pick(raw["icon"], path + ("icon",), "icons") if raw.get("icon") else None
        colour, owner = None, False
        raw_colour = raw.get("colour")
        if raw_colour == "owner":
            owner = True
        elif isinstance(raw_colour, str):
            colour = Pick(fixed=raw_colour)
        elif isinstance(raw_colour, dict):
            colour = self._pick(raw_colour, path + ("colour",), "values", icon=False)
        badges = None
        if raw.get("badges") is not None:
            badges = []
            for i, name in enumerate(raw["badges"]):
                if name not in self.voc.attributes or self.voc.attributes[name] != "number":
                    numbers = [n for n, t in self.voc.attributes.items() if t == "number"]
                    self.report.error("REF-UNDEF", f"looks: kinds: {kind}: no number attribute '{name}'", self.where(*path, "badges", i),
                                      did_you_mean(name, numbers))
                else:
                    badges.append(name)
            badges = tuple(badges)
        return KindLook(raw.get("shape", ""), icon, colour, owner, badges)

    def _track(self, i: int, raw: dict) -> Track | None:
        path = ("tracks", i)
        how = next(h for h in ("order", "each", "value") if h in raw)
        name = raw[how]
        var = self.voc.variables.get(name)
        wanted = {"order": ("game", ("list[player]",)), "each": ("player", None), "value": ("game", None)}[how]
        scope, types = wanted
        fits = var is not None and var.scope == scope and (types is None and (var.type == "number" or var.type in self.voc.enums)
                                                             or types is not None and var.type in types)
        if not fits:
            what = {"order": "a game variable holding a list of players",
                    "each": "a player variable holding a number or an enum value",
                    "value": "a game variable holding a number or an enum value"}[how]
            candidates = [n for n, v in self.voc.variables.items() if v.scope == scope]
            self.report.error("LOOKS-VALUE" if var is not None else "REF-UNDEF",
                              f"looks: track {i + 1}: '{name}' is not {what}", self.where(*path, how),
                              did_you_mean(name, candidates) or f"`{how}:` takes {what}")
            return None
        label = raw.get("name", name)
        if isinstance(label, dict):
            check_localized(label, self.where(*path, "name"), "a track's name", self.voc.languages, self.report)
            label = localized(label, self.voc.languages)
        track = Track(label, how, name, icon=self._icon(raw["icon"], path + ("icon",)) if raw.get("icon") else None)
        positions = raw.get("positions")
        if isinstance(positions, list):
            track = replace(track, positions=tuple(positions))
        elif isinstance(positions, dict):
            high = positions["to"]
            if isinstance(high, str):
                m = PLAYERS_BOUND.match(high.strip())
                if m is None:
                    self.report.error("LOOKS-VALUE", f"looks: track {i + 1}: `to:` is a number or `players + N`", self.where(*path, "positions", "to"))
                    return None
                k = int(m.group(2) or 0) * (-1 if m.group(1) == "-" else 1)
                track = replace(track, low=positions.get("from", 0), high_players=k)
            else:
                track = replace(track, low=positions.get("from", 0), high=high)
        elif how != "order" and var.type in self.voc.enums:
            track = replace(track, positions=tuple(self.voc.enums[var.type]))
        elif how != "order":
            self.report.error("LOOKS-VALUE", f"looks: track {i + 1} over the number '{name}' needs `positions:`", self.where(*path),
                              "`positions: {from: 0, to: 6}` or a list of the values it can take")
            return None
        labels = raw.get("labels")
        if isinstance(labels, list):
            track = replace(track, labels=tuple(str(x) for x in labels))
        elif isinstance(labels, dict):
            zone = labels["zone"]
            if zone not in self.voc.zones:
                self.report.error("REF-UNDEF", f"looks: track {i + 1}: no zone '{zone}'", self.where(*path, "labels", "zone"), did_you_mean(zone, self.voc.zones))
            elif self._attribute(labels["attribute"], path + ("labels", "attribute")):
                track = replace(track, labels_from=(zone, labels["attribute"]))
        return track
