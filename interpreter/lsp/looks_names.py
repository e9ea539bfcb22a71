"""Which words of a game's looks (the manifest's `looks:` or the file it names; dsl/looks.py) are names of the
game, and of what sort: a rename must follow them, and must not touch an icon's name that happens to be spelt
like a kind (`icon: obelisk`) or a colour.

Pure: it reads the looks' data and says, for each name, the symbol it names and where it sits in the YAML
(a path, and whether the name is that mapping's key or its value); interpreter/lsp/index.py makes places of them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LooksName:
    key: tuple    # the symbol: ("attribute", name), ("variable", name), ("kind", name), ("value", name), ("zone", name)
    path: tuple   # where it is written, from the document's root
    is_key: bool  # a mapping's key (`values: {elves: ...}`) rather than a value (`by: race`)


def looks_names(data, base: tuple) -> list[LooksName]:
    """Every name the looks at `base` of a document use (data: the looks mapping itself)."""
    out: list[LooksName] = []
    if not isinstance(data, dict):
        return out

    def value(sort: str, path: tuple, name) -> None:
        if isinstance(name, str):
            out.append(LooksName((sort, name), base + path, False))

    def keys(sort: str, path: tuple, mapping) -> None:
        for name in mapping if isinstance(mapping, dict) else ():
            if isinstance(name, str):
                out.append(LooksName((sort, name), base + path + (name,), True))

    def by(path: tuple, pick) -> None:
        """`{by: ATTRIBUTE, values|icons|styles: {VALUE: ...}}`: an attribute (or kind) and its values."""
        if not isinstance(pick, dict):
            return
        value("kind" if pick.get("by") == "kind" else "attribute", path + ("by",), pick.get("by"))
        for inner in ("values", "icons", "styles"):
            keys("kind" if pick.get("by") == "kind" else "value", path + (inner,), pick.get(inner))

    colours = data.get("colours")
    if isinstance(colours, dict):
        value("variable", ("colours", "by"), colours.get("by"))
        keys("value", ("colours",  "values"), colours.get("values"))
    kinds = data.get("kinds")
    for kind, look in kinds.items() if isinstance(kinds, dict) else ():
        if not isinstance(kind, str):
            continue
        out.append(LooksName(("kind", kind), base + ("kinds", kind), True))
        if not isinstance(look, dict):
            continue
        by(("kinds", kind, "icon"), look.get("icon"))
        by(("kinds", kind, "colour"), look.get("colour"))
        for i, name in enumerate(look.get("badges") or ()):
            value("attribute", ("kinds", kind, "badges", i), name)
    areas = data.get("areas")
    if isinstance(areas, dict):
        by(("areas", "style"), areas.get("style"))
        for i, icon in enumerate(areas.get("icons") or ()):
            if isinstance(icon, dict):
                value("attribute", ("areas", "icons", i, "attribute"), icon.get("attribute"))
                keys("value", ("areas", "icons", i, "icons"), icon.get("icons"))
        for i, grey in enumerate(areas.get("greyed") or ()):
            if isinstance(grey, dict):
                value("zone", ("areas", "greyed", i, "zone"), grey.get("zone"))
    for i, track in enumerate(data.get("tracks") or ()):
        if not isinstance(track, dict):
            continue
        for how in ("order", "each", "value"):
            value("variable", ("tracks", i, how), track.get(how))
        labels = track.get("labels")
        if isinstance(labels, dict):
            value("zone", ("tracks", i, "labels", "zone"), labels.get("zone"))
            value("attribute", ("tracks", i, "labels", "attribute"), labels.get("attribute"))
    return out
