"""The icons content may name (`looks:`, dsl.looks): a vendored subset of the game-icons.net set (CC BY 3.0, by
Lorc, Delapouite and the other contributors of game-icons.net; icons/LICENSE.txt), as one JSON file of path
data on a 512 x 512 box. Front ends draw them as SVG symbols in the component's colour.

The subset is the icons the games under content/ name plus a palette of common ones (icons/palette.txt).
To vendor another icon, run with the set in the Iconify format (`npm pack @iconify-json/game-icons`, unpacked):

    python -m interpreter.present.icons --from package/ [--also icon-name ...]
"""
from __future__ import annotations

import argparse
import functools
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent / "icons"
FILE = HERE / "game-icons.json"
BOX = 512
PALETTE = HERE / "palette.txt"  # icons for new games, beyond what content/ names: one name a line



@functools.lru_cache(maxsize=1)
def icon_set() -> dict:
    """icon name -> SVG path data (on a BOX x BOX view box)."""
    return json.loads(FILE.read_text(encoding="utf-8"))["icons"]


@functools.lru_cache(maxsize=1)
def sprite_version() -> str:
    """A short hash of the vendored icons: pages name the sprite by it, so a browser may keep it for good."""
    import hashlib
    return hashlib.sha256(FILE.read_bytes()).hexdigest()[:10]


def sprite(names=None) -> str:
    """An SVG document of symbols `i-NAME` (every vendored icon, or `names`): what pages `<use>`. Path data are
    numbers and letters from the vendored file (checked when vendored), so nothing here needs escaping."""
    icons = icon_set()
    chosen = sorted(icons) if names is None else sorted(n for n in names if n in icons)
    body = "".join(f'<symbol id="i-{n}" viewBox="0 0 {BOX} {BOX}"><path d="{icons[n]}"/></symbol>' for n in chosen)
    return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>'


def used_by_content(content_dir: Path) -> set:
    """Every icon the games of `content_dir` name in their looks, read as data (no game is loaded)."""
    from dsl.yaml_records import load_yaml
    found: set = set()
    for manifest in sorted(content_dir.glob("*/game.yaml")):
        doc, _ = load_yaml(str(manifest), manifest.read_text(encoding="utf-8"))
        looks = (doc.data or {}).get("looks") if isinstance(doc.data, dict) else None
        if isinstance(looks, str):
            other = manifest.parent / looks
            looks = load_yaml(str(other), other.read_text(encoding="utf-8"))[0].data if other.is_file() else None
        _collect(looks, found)
    return found


def _collect(value, found: set, inside: bool = False) -> None:
    """Icon names: the strings under an `icon`, `icons` or `back` key (an attribute named by `by:` or
    `attribute:` is not one)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in ("by", "attribute"):
                _collect(v, found, inside or k in ("icon", "icons", "back"))
    elif isinstance(value, list):
        for v in value:
            _collect(v, found, inside)
    elif inside and isinstance(value, str) and _NAME.match(value):
        found.add(value)


_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_PATH = re.compile(r"^[0-9MmLlHhVvCcSsQqTtAaZzEe .,\-]+$")


def vendor(package: Path, names: set) -> dict:
    """The icons `names` from an unpacked @iconify-json/game-icons package: name -> path data."""
    data = json.loads((package / "icons.json").read_text(encoding="utf-8"))
    out, missing = {}, []
    for name in sorted(names):
        body = (data["icons"].get(name) or {}).get("body")
        if body is None:
            missing.append(name)
            continue
        paths = re.findall(r'<path[^>]* d="([^"]+)"', body)
        d = " ".join(paths)
        if not paths or not _PATH.match(d):
            raise SystemExit(f"icon {name}: not a plain path")
        out[name] = d
    if missing:
        raise SystemExit(f"no such icons in the set: {', '.join(missing)}")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description="vendor the game-icons.net icons content uses")
    ap.add_argument("--from", dest="package", type=Path, required=True, help="an unpacked @iconify-json/game-icons package")
    ap.add_argument("--also", nargs="*", default=[], help="more icon names to vendor")
    args = ap.parse_args(argv)
    root = Path(__file__).resolve().parents[2]
    palette = {ln.strip() for ln in PALETTE.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")}
    names = used_by_content(root / "content") | palette | set(args.also)
    icons = vendor(args.package, names)
    info = json.loads((args.package / "package.json").read_text(encoding="utf-8"))
    FILE.write_text(json.dumps({"source": f"{info['name']} {info['version']} (game-icons.net)", "licence": "CC BY 3.0",
                                "authors": "Lorc, Delapouite and the other contributors of game-icons.net",
                                "box": BOX, "icons": icons}, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(icons)} icons written to {FILE}")


if __name__ == "__main__":
    main()
