"""Syntax trees of rule texts already parsed, kept between runs in the user's own cache folder as JSON.

Nothing read from the cache can run code: an entry is JSON, and decoding it builds only the AST classes
listed in _NODES (plus Span, lists, tuples, strings, numbers). The grammar's parse tables are not cached
at all: they ship with the package (dsl/parse_tables.py).

The folder is `$XDG_CACHE_HOME/tabletop-rules` (a relative XDG_CACHE_HOME is ignored, as the XDG spec
says, so a game folder cannot bring its own cache) or `~/.cache/tabletop-rules`. It is used only when it
belongs to this user, nobody else can write it and its parent is not a world-writable folder without the
sticky bit; an entry only when it is a regular file of this user's that nobody else can write. An entry holds the hash of its input (the key: the text, its file, where it sits, the parser's
own code) and the hash of its tree; a damaged, edited or misplaced entry is ignored, parsed again and
overwritten. `RULES_NO_CACHE=1` turns the cache off.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from dsl import ast
from dsl.diagnostics import Span

_ENGINE_FILES = ("grammar.lark", "parser.py", "parse_text.py", "parse_tables.py", "cache.py", "ast.py", "diagnostics.py", "limits.py")
FORMAT = "tabletop-rules-tree/1"
TREES = "trees-json"  # the pickled trees of earlier versions lie in trees/ and are never read
MAX_ENTRY = 64 * 2 ** 20  # bytes: far above the tree of the largest rule text the loader accepts
_MAX_HEADER = 512

# The only classes an entry can build: an explicit list, never a name looked up in a module.
_NODES = (
    ast.Num, ast.Str, ast.Const, ast.Name, ast.EntityRef, ast.Call, ast.Query, ast.SortKey, ast.Attr, ast.Method,
    ast.Index, ast.Of, ast.Unary, ast.Binary, ast.Range, ast.IfExpr, ast.Suppose, ast.ListLit, ast.MapLit,
    ast.Let, ast.Assign, ast.CallStmt, ast.Move, ast.Shuffle, ast.Log, ast.Return, ast.Win, ast.Show, ast.Reveal,
    ast.Pass, ast.Break, ast.Continue, ast.Choose, ast.ChooseOrder, ast.Binding, ast.Option, ast.Menu, ast.If,
    ast.For, ast.While, ast.Repeat, ast.Secretly, ast.Until,
    ast.Param, ast.Procedure, ast.EventDecl, ast.Function, ast.Trigger, ast.Replacement, ast.Modifier, ast.Watcher,
)
_FIELDS = {cls: tuple(f.name for f in dataclasses.fields(cls) if f.name != "span") for cls in _NODES}
_LIST, _TUPLE = "l", "t"  # tags of containers; no AST class has a one-letter name


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is off or the folder is not this user's alone."""
    if os.environ.get("RULES_NO_CACHE") or not hasattr(os, "geteuid"):
        return None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    except (RuntimeError, KeyError):  # no home folder to be found
        return None
    if not base.is_absolute():  # HOME itself relative
        return None
    folder = base / "tabletop-rules"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder if _private_folder(folder) else None
    except OSError:
        return None


def _private_folder(folder: Path) -> bool:
    """Owned by this user, writable by nobody else, and inside a folder nobody else can swap it out of."""
    st = os.stat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        return False
    parent = os.stat(folder.parent)
    return not parent.st_mode & 0o002 or bool(parent.st_mode & stat.S_ISVTX)


def _lark_identity() -> bytes:
    """Lark's version as part of the key, read without importing Lark (slow, and not needed when every tree is
    cached): its package's __init__.py, which holds __version__."""
    spec = importlib.util.find_spec("lark")
    try:
        return Path(spec.origin).read_bytes() if spec is not None and spec.origin else b"no lark"
    except OSError:
        return b"unreadable lark"


class TreeCache:
    """Syntax trees by a hash of everything that shapes them."""

    def __init__(self):
        base = cache_dir()
        self.folder: Path | None = None
        if base is not None:
            try:
                (base / TREES).mkdir(mode=0o700, exist_ok=True)
                if _private_folder(base / TREES):
                    self.folder = base / TREES
            except OSError:
                pass
        here = Path(__file__).parent
        engine = hashlib.sha256(f"{FORMAT} {sys.version_info[:2]}".encode())
        engine.update(_lark_identity())
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
        """The tree stored under `key`, or None: missing, not this user's, damaged, edited or another key's."""
        if key is None or self.folder is None:
            return None
        data = _read_own_file(self.folder / f"{key}.json")
        if data is None:
            return None
        try:
            return decode_entry(data, key)
        except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is parsed again
            return None

    def store(self, key: str | None, tree) -> None:
        """Write the entry to a new file of its own (mode 0600), then rename it into place."""
        if key is None or self.folder is None:
            return
        try:
            data = encode_entry(tree, key)
        except (ValueError, TypeError, RecursionError):
            return  # a tree that cannot be kept is parsed again next time
        temporary = None
        try:
            fd, temporary = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(temporary, self.folder / f"{key}.json")
        except OSError:
            if temporary is not None:
                try:
                    os.unlink(temporary)
                except OSError:
                    pass


def _read_own_file(path: Path) -> bytes | None:
    """The bytes of a regular file of this user's that nobody else can write; no link followed, no FIFO waited on."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022 or st.st_size > MAX_ENTRY:
            return None
        chunks, size = [], 0
        while size <= st.st_size:
            chunk = os.read(fd, st.st_size + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks) if size == st.st_size else None  # a file that changed size under us is not used
    except OSError:
        return None
    finally:
        os.close(fd)


# ------------------------------------------------------------------ the entry's format
# One header line {"format", "key", "sha256" of the body}, then the body {"strings", "tree"}. A node is
# [class name, path, line, col, end_col, line text, fields...] with path and line text as indexes into
# "strings" (every node of a line shares its text); a list is ["l", items...], a tuple ["t", items...].
def encode_entry(tree, key: str) -> bytes:
    strings: dict[str, int] = {}
    encoded = _encode(tree, strings)  # fills `strings`
    # ASCII with \u escapes: any text (even a lone surrogate) reads back exactly
    data = json.dumps({"strings": list(strings), "tree": encoded}, separators=(",", ":")).encode("ascii")
    header = json.dumps({"format": FORMAT, "key": key, "sha256": hashlib.sha256(data).hexdigest()},
                        separators=(",", ":"))
    return header.encode("ascii") + b"\n" + data


def _encode(value, strings: dict):
    kind = type(value)
    if kind is list:
        return [_LIST, *[_encode(v, strings) for v in value]]
    if kind is tuple:
        return [_TUPLE, *[_encode(v, strings) for v in value]]
    if value is None or kind in (str, int, bool):
        return value
    if kind not in _FIELDS:
        raise TypeError(f"{kind.__name__} is not kept in the cache")
    span = value.span
    return [kind.__name__, _intern(span.path, strings), span.line, span.col, span.end_col, _intern(span.text, strings),
            *[_encode(getattr(value, name), strings) for name in _FIELDS[kind]]]


def _intern(text: str, strings: dict) -> int:
    index = strings.get(text)
    if index is None:
        index = strings[text] = len(strings)
    return index


def decode_entry(data: bytes, key: str):
    """The tree of an entry; ValueError when the entry is not exactly one this code wrote for `key`."""
    end = data.find(b"\n", 0, _MAX_HEADER)
    if end < 0:
        raise ValueError("no header")
    header = json.loads(data[:end])
    body = data[end + 1:]
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("key") != key:
        raise ValueError("another format or another key")
    if header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise ValueError("the tree does not match its hash")
    content = json.loads(body)
    strings = content["strings"]
    if not isinstance(strings, list) or not all(type(s) is str for s in strings):
        raise ValueError("bad string table")
    try:
        return _decode(content["tree"], strings)
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"not a tree of the rules language ({type(exc).__name__})") from None


_PLAIN = (str, int, bool, type(None))
_SHAPES = {cls.__name__: (cls, _FIELDS[cls], 6 + len(_FIELDS[cls])) for cls in _NODES}


def _decode(value, strings: list):
    """Objects are made as pickle makes them (a new instance, its fields set) without running any code of
    theirs, and only of the classes in _NODES: that keeps reading all content's trees near pickle's speed."""
    new = object.__new__

    def decode(value):
        if type(value) is not list:
            if type(value) in _PLAIN:
                return value
            raise ValueError(f"unexpected {type(value).__name__} in a tree")
        tag = value[0]
        if tag == _LIST:
            return [decode(v) for v in value[1:]]
        if tag == _TUPLE:
            return tuple([decode(v) for v in value[1:]])
        cls, fields, size = _SHAPES[tag]  # KeyError (TypeError for a list): not a node of the language
        if len(value) != size or type(value[2]) is not int or type(value[3]) is not int or type(value[4]) is not int:
            raise ValueError("not a node of the rules language")
        span = new(Span)
        span.__dict__.update(path=strings[value[1]], line=value[2], col=value[3], end_col=value[4],
                             text=strings[value[5]])
        node = new(cls)
        slots = node.__dict__
        slots["span"] = span
        for name, v in zip(fields, value[6:]):
            slots[name] = decode(v)
        return node

    return decode(value)
