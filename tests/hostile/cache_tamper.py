"""Tamper with a parse cache folder the way an attacker or a failing disk would (used by hostile_cache.py
and tests/test_parse_cache.py).

    python cache_tamper.py pickle FOLDER MARKER   every file in FOLDER becomes a pickle whose loading creates
                                                  MARKER, and one more lies at the name of Lark's grammar cache
    python cache_tamper.py flip FOLDER SEED       eight random bytes of every file replaced
    python cache_tamper.py truncate FOLDER        every file cut in half
    python cache_tamper.py edit FOLDER            "plays" becomes "stole" in every file (still valid JSON)
    python cache_tamper.py rebuilt FOLDER         exit 1 unless every file tampered with before was written anew

The damage modes note each file's damaged bytes in FOLDER/../tampered.json, which `rebuilt` compares.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import random
import sys
from pathlib import Path

from lark import __version__ as lark_version


class Planted:
    """Unpickling this creates the marker file: proof that pickled data from the cache folder ran."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return open, (self.marker, "w")


def entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


def plant(folder: Path, marker: str) -> None:
    payload = pickle.dumps(Planted(marker))
    for path in entries(folder):
        path.write_bytes(payload)
    # Lark's grammar cache as dsl/cache.py once named it: a hash line, then pickles (Lark unpickles before comparing).
    grammar = folder / f"grammar-lark{lark_version}-py{sys.version_info[0]}{sys.version_info[1]}.cache"
    grammar.write_bytes(b"0" * 64 + b"\n" + payload)
    old_tree = folder / "trees" / "00" / ("0" * 64)
    old_tree.parent.mkdir(parents=True, exist_ok=True)
    old_tree.write_bytes(payload)


def damage(folder: Path, change) -> None:
    noted = {}
    for path in entries(folder):
        before = path.read_bytes()
        data = change(before)
        if data == before:  # an entry the change does not touch (an edit of a word it lacks) is not tampered with
            continue
        path.write_bytes(data)
        noted[str(path)] = hashlib.sha256(data).hexdigest()
    if not noted:
        raise SystemExit(f"nothing to tamper with in {folder}")
    (folder.parent / "tampered.json").write_text(json.dumps(noted), encoding="utf-8")


def flip(seed: int):
    rng = random.Random(seed)

    def change(data: bytes) -> bytes:
        out = bytearray(data)
        for _ in range(8):
            i = rng.randrange(len(out))
            out[i] = (out[i] + rng.randrange(1, 256)) % 256
        return bytes(out)
    return change


def rebuilt(folder: Path) -> int:
    noted = json.loads((folder.parent / "tampered.json").read_text(encoding="utf-8"))
    stale = [p for p, digest in noted.items()
             if not Path(p).is_file() or hashlib.sha256(Path(p).read_bytes()).hexdigest() == digest]
    if stale:
        print(f"CACHE-NOT-REBUILT: {len(stale)} of {len(noted)} tampered entries were left as they were")
        return 1
    return 0


def main(argv: list[str]) -> int:
    mode, folder = argv[0], Path(argv[1])
    if mode == "pickle":
        plant(folder, argv[2])
    elif mode == "flip":
        damage(folder, flip(int(argv[2])))
    elif mode == "truncate":
        damage(folder, lambda data: data[:len(data) // 2])
    elif mode == "edit":
        damage(folder, lambda data: data.replace(b"plays", b"stole"))
    elif mode == "rebuilt":
        return rebuilt(folder)
    else:
        raise SystemExit(f"unknown mode {mode}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
