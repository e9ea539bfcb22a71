"""What the parser keeps between runs, in the user's own cache folder: the grammar's parse tables and
the syntax trees of rule texts already parsed.

Both are pickled, so they live only in a folder the user owns and nobody else can write
(never a shared temporary folder). A syntax tree is found again only for the very same input
(its text, its file, where it sits) read by the very same parser code, so an edited rule or an
edited parser simply misses. `RULES_NO_CACHE=1` turns both off.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from lark import __version__ as lark_version

_ENGINE_FILES = ("grammar.lark", "parser.py", "ast.py", "diagnostics.py", "limits.py")


def cache_dir() -> Path | None:
    if os.environ.get("RULES_NO_CACHE"):
        return None
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabletop-rules"
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not os.access(base, os.W_OK) or base.stat().st_uid != os.getuid():
            return None
    except OSError:
        return None
    return base


def grammar_file() -> str | bool:
    """Where Lark keeps the built parse tables (it checks the grammar's hash before using them)."""
    base = cache_dir()
    if base is None:
        return False
    return str(base / f"grammar-lark{lark_version}-py{sys.version_info[0]}{sys.version_info[1]}.cache")


class TreeCache:
    """Syntax trees by a hash of everything that shapes them."""

    def __init__(self):
        base = cache_dir()
        self.folder = base / "trees" if base is not None else None
        here = Path(__file__).parent
        engine = hashlib.sha256(f"{lark_version} {sys.version_info[:2]}".encode())
        for name in _ENGINE_FILES:
            engine.update((here / name).read_bytes())
        self.engine = engine.hexdigest()
        self._file_hashes: dict = {}

    def key(self, source, start: str) -> str | None:
        if self.folder is None:
            return None
        whole = source.file_text if source.file_text is not None else ""
        file_hash = self._file_hashes.get(id(whole))
        if file_hash is None or file_hash[0] is not whole:
            file_hash = (whole, hashlib.sha256(whole.encode("utf-8", "surrogatepass")).hexdigest())
            self._file_hashes[id(whole)] = file_hash
        h = hashlib.sha256(self.engine.encode())
        for part in (start, source.path, source.text, file_hash[1], source.line_offset, source.col_offset, source.block):
            h.update(repr(part).encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        return h.hexdigest()

    def load(self, key: str | None):
        if key is None:
            return None
        try:
            with open(self.folder / key[:2] / key, "rb") as f:
                return pickle.load(f)  # noqa: S301 - our own trees, in a folder only this user can write
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, RecursionError):
            return None

    def store(self, key: str | None, tree) -> None:
        if key is None:
            return
        folder = self.folder / key[:2]
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary = folder / f".{key}.{os.getpid()}"
            with open(temporary, "wb") as f:
                pickle.dump(tree, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, folder / key)
        except (OSError, pickle.PicklingError, RecursionError, TypeError):
            pass  # a tree that cannot be kept is parsed again next time
