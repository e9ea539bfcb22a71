"""YAML to plain data with positions, from the parser's events only.

Nothing is constructed by a YAML library: we read ruamel.yaml's event stream (its C parser,
ruamel.yaml.clib, when present; its pure-Python one otherwise), accept the YAML core tags and
nothing else (a `!!python/...` tag is an error, never an object), keep the line/column of every value so schema
and rule errors point into the file, and hold every document to the limits in dsl/limits.py:
nesting depth, and how much aliases may expand (a "billion laughs" file stops at the bound).
The loop below is iterative, so no depth of nesting can exhaust Python's stack.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ruamel.yaml import YAML
from ruamel.yaml import events as ev
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from dsl.diagnostics import Diagnostic, Source, Span
from dsl.inputs import control_character, printable, read_text
from dsl.limits import MAX_ALIAS_VALUES, MAX_DATA_DEPTH, MAX_INT



class _Events:
    """The parser's events one at a time (None after the last), as the composer reads them."""

    def __init__(self, text: str):
        self._events = YAML(typ="safe").parse(text)

    def get_event(self):
        return next(self._events, None)

CORE = "tag:yaml.org,2002:"
# The only tags plain data may carry; anything else (!!python/..., !local) is refused.
CORE_TAGS = {CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULL = {"", "~", "null", "Null", "NULL"}
# Characters YAML does not allow in a stream (its "printable" set, inverted).
_NOT_YAML = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class Pos(NamedTuple):  # a tuple: one is made per value, so it must be cheap
    line: int  # 1-based
    col: int  # 1-based
    style: str | None = None  # "|", ">", '"', "'" or None for plain scalars


@dataclass
class YamlDoc:
    path: str
    text: str
    data: object = None
    positions: dict = field(default_factory=dict)  # path tuple -> Pos
    keys: dict = field(default_factory=dict)  # path tuple -> Pos of its key in the mapping holding it
    broken: bool = False  # it had YAML errors
    _lines: list | None = field(default=None, repr=False, compare=False)

    @property
    def lines(self) -> list:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def pos(self, path: tuple) -> Pos:
        """Position of the value at `path`, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, Pos(1, 1))

    def span(self, path: tuple) -> Span:
        p = self.pos(path)
        text = self.lines[p.line - 1] if 0 < p.line <= len(self.lines) else ""
        return Span(self.path, p.line, p.col, p.col + max(1, _token_width(text, p.col)), text)

    def key_span(self, path: tuple) -> Span:
        """The key naming the value at `path` (an unknown field is its key), else the value's span."""
        p = self.keys.get(tuple(path))
        if p is None:
            return self.span(path)
        text = self.lines[p.line - 1] if 0 < p.line <= len(self.lines) else ""
        return Span(self.path, p.line, p.col, p.col + max(1, _token_width(text, p.col)), text)

    def source_of(self, path: tuple, value: str) -> Source:
        """A Source for rule text stored in the scalar at `path`, mapped back into this file."""
        p = self.pos(path)
        if p.style in ("|", ">"):
            lines = self.lines
            first = p.line  # the indicator's line; content starts below it
            while first < len(lines) and not lines[first].strip():
                first += 1
            body = lines[first] if first < len(lines) else ""
            indent = len(body) - len(body.lstrip())
            return Source(self.path, value, self.text, first, indent, block=True)
        shift = 1 if p.style in ('"', "'") else 0
        return Source(self.path, value, self.text, p.line - 1, p.col - 1 + shift, block=False)


def _token_width(text: str, col: int) -> int:
    rest = text[col - 1:]
    m = re.match(r"[^\s,:\]\}]+", rest)
    return len(m.group(0)) if m else 1


class _Stop(Exception):
    """The document cannot be read further; the reason is already among the problems."""


_SKIP = object()  # the value of a mapping entry that is reported and left out


@dataclass
class _Frame:
    value: object  # the dict or list being filled
    path: tuple | None  # None: this collection is being skipped
    anchor: str | None
    size: int = 1  # values inside, counting what aliases expanded to
    refused: bool = False  # a tag we do not accept: the collection becomes None
    key: object = None  # a mapping's pending key (a str, _SKIP, or None when a key comes next)


class _Composer:
    def __init__(self, doc: YamlDoc, problems: list[Diagnostic]):
        self.doc = doc
        self.problems = problems
        self.stack: list[_Frame] = []
        self.anchors: dict = {}  # name -> (value, size), complete nodes only
        self.open_anchors: set = set()
        self.alias_values = 0
        self.documents = 0
        self.result = None

    def fail(self, code: str, message: str, mark, hint: str | None = None):
        self.problems.append(Diagnostic(code, message, self._span(mark), hint))
        raise _Stop

    def _span(self, mark) -> Span:
        line, col = mark.line + 1, mark.column + 1
        lines = self.doc.lines
        return Span(self.doc.path, line, col, col + 1, printable(lines[line - 1]) if 0 < line <= len(lines) else "")

    def run(self, loader) -> object:
        while True:
            e = loader.get_event()
            kind = type(e)
            if kind is ev.ScalarEvent:
                self.scalar(e)
            elif kind is ev.MappingStartEvent or kind is ev.SequenceStartEvent:
                self.start(e)
            elif kind is ev.MappingEndEvent or kind is ev.SequenceEndEvent:
                frame = self.stack.pop()
                if frame.anchor is not None:
                    self.open_anchors.discard(frame.anchor)
                    self.anchors[frame.anchor] = (frame.value, frame.size)
                self.attach(None if frame.refused else frame.value, frame.size)
            elif kind is ev.AliasEvent:
                self.alias(e)
            elif kind is ev.DocumentStartEvent:
                self.documents += 1
                if self.documents > 1:
                    self.fail("YAML-SYNTAX", "a second YAML document in one file", e.start_mark,
                              "a content file holds one document: remove the '---' line or split the file")
            elif kind is ev.StreamEndEvent or e is None:
                return self.result

    # ---------------------------------------------------------------- where a value goes
    def child_path(self, mark, is_key: bool = False) -> tuple | None:
        """The path of the value that starts at `mark`; None when it is to be skipped."""
        if not self.stack:
            return ()
        frame = self.stack[-1]
        if frame.path is None:
            return None
        if isinstance(frame.value, list):
            return frame.path + (len(frame.value),)
        if frame.key is None:  # a key: only a plain scalar may be one
            return None if not is_key else frame.path
        return None if frame.key is _SKIP else frame.path + (frame.key,)

    def record(self, path: tuple | None, mark, style=None) -> None:
        if path is not None:
            self.doc.positions[path] = Pos(mark.line + 1, mark.column + 1, style or None)

    def attach(self, value, size: int) -> None:
        if not self.stack:
            self.result = value
            return
        frame = self.stack[-1]
        frame.size += size
        if isinstance(frame.value, list):
            frame.value.append(value)
        elif frame.key is None:  # a collection or an alias where a key should be
            frame.key = _SKIP
            self.problems.append(Diagnostic("YAML-KEY", "mapping keys must be plain words",
                                            self.doc.span(frame.path or ())))
        else:
            if frame.key is not _SKIP:
                frame.value[frame.key] = value
            frame.key = None

    # ---------------------------------------------------------------- nodes
    def check_tag(self, tag, path, mark) -> bool:
        if tag is None or tag in CORE_TAGS:
            return True
        where = self.doc.span(path) if path is not None else self._span(mark)
        self.problems.append(Diagnostic("YAML-TAG", f"the tag '{tag}' is not allowed", where,
                                        "content files hold plain data only: remove the tag"))
        return False

    def start(self, e) -> None:
        if len(self.stack) >= MAX_DATA_DEPTH:
            self.fail("YAML-LIMIT", f"the data nests deeper than {MAX_DATA_DEPTH} levels", e.start_mark,
                      "content is flat records; nest lists and mappings only a few levels deep")
        path = self.child_path(e.start_mark)
        self.record(path, e.start_mark)
        refused = not self.check_tag(e.tag, path, e.start_mark)
        if e.anchor is not None:
            self.open_anchors.add(e.anchor)
        value = {} if isinstance(e, ev.MappingStartEvent) else []
        self.stack.append(_Frame(value, None if refused else path, e.anchor, refused=refused))

    def scalar(self, e) -> None:
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.value, dict) and frame.key is None:
            self.key(frame, e)
            return
        path = self.child_path(e.start_mark)
        style = e.style or None
        self.record(path, e.start_mark, style)
        value = self.convert(e, style, path) if self.check_tag(e.tag, path, e.start_mark) else None
        if e.anchor is not None:
            self.anchors[e.anchor] = (value, 1)
        self.attach(value, 1)

    def key(self, frame: _Frame, e) -> None:
        if frame.path is None:
            frame.key = _SKIP
            return
        key = e.value
        if e.anchor is not None:
            self.anchors[e.anchor] = (key, 1)
        key_path = frame.path + (key,)
        self.doc.keys[key_path] = Pos(e.start_mark.line + 1, e.start_mark.column + 1)
        if key in frame.value:
            self.doc.positions[key_path] = Pos(e.start_mark.line + 1, e.start_mark.column + 1)
            self.problems.append(Diagnostic("YAML-DUPKEY", f"the key '{key}' appears twice", self.doc.span(key_path)))
            frame.key = _SKIP
            return
        frame.key = key if self.check_tag(e.tag, key_path, e.start_mark) else _SKIP

    def alias(self, e) -> None:
        name = e.anchor
        if name in self.open_anchors:
            self.fail("YAML-LIMIT", f"the alias '*{name}' refers to a node that contains it", e.start_mark,
                      "a value cannot contain itself")
        if name not in self.anchors:
            self.fail("YAML-SYNTAX", f"the alias '*{name}' names no anchor before it", e.start_mark,
                      f"define '&{name}' before using '*{name}'")
        value, size = self.anchors[name]
        self.alias_values += size
        if self.alias_values > MAX_ALIAS_VALUES:
            self.fail("YAML-LIMIT", f"aliases expand to more than {MAX_ALIAS_VALUES:,} values", e.start_mark,
                      "write the data out, or share fewer and smaller pieces")
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.value, dict) and frame.key is None:
            self.attach(None, 0)  # an alias as a key: refused by attach
            return
        self.record(self.child_path(e.start_mark), e.start_mark)
        self.attach(copy.deepcopy(value) if isinstance(value, (dict, list)) else value, size)

    def convert(self, e, style, path):
        value = e.value
        kind = e.tag[len(CORE):] if e.tag else None
        if kind == "str" or style is not None:
            return value
        if kind is None:  # a plain scalar: YAML 1.2 core schema
            kind = ("null" if value in _NULL else "bool" if value in _BOOL else "int" if _INT.match(value)
                    else "float" if _FLOAT.match(value) else "str")
        if kind == "int" and _INT.match(value):
            digits = value.lstrip("+-").lstrip("0")
            if len(digits) > 16 or abs(int(value)) > MAX_INT:
                where = self.doc.span(path) if path is not None else self._span(e.start_mark)
                self.problems.append(Diagnostic("NUM-RANGE", f"the number {_short(value)} is outside the integer range",
                                                where, f"integers lie between -{MAX_INT} and {MAX_INT}"))
                return None
            return int(value)
        if kind == "float" and _FLOAT.match(value):
            return float(value)
        if kind == "bool" and value in _BOOL:
            return _BOOL[value]
        if kind == "null" and value in _NULL:
            return None
        return value


def _short(number: str) -> str:
    return number if len(number) <= 24 else f"{number[:10]}...{number[-6:]} ({len(number)} characters)"


def load_yaml(path: str, text: str) -> tuple[YamlDoc, list[Diagnostic]]:
    doc = YamlDoc(path, text)
    problems: list[Diagnostic] = []
    composer = _Composer(doc, problems)
    loader = _Events(text)
    try:
        doc.data = composer.run(loader)
    except _Stop:
        doc.data = None
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = doc.lines
        src = printable(lines[line - 1]) if 0 < line <= len(lines) else ""
        message = (err.problem or "invalid YAML").strip()
        problems.append(Diagnostic("YAML-SYNTAX", message, Span(path, line, col, col + 1, src),
                                   "check indentation, colons and quotes on this line or the one above"))
        doc.data = None
    except ReaderError:
        bad = _NOT_YAML.search(text)
        problems.append(control_character(path, text, bad.start()) if bad else
                        Diagnostic("ENCODING", "the file holds characters YAML does not allow", Span(path, 1, 1)))
        doc.data = None
    except YAMLError as err:
        problems.append(Diagnostic("YAML-SYNTAX", str(err).splitlines()[0] if str(err) else "invalid YAML", Span(path, 1, 1, 2, "")))
        doc.data = None
    return doc, problems


def read_game_yaml(root, rel, where: Span, what: str, hint: str, report, display=str) -> "YamlDoc | None":
    """A YAML file of the game folder the manifest names (a board's layout, the looks), read with positions:
    None, with the problem reported at `where` (the manifest's field, named `what` in messages), when the path
    leaves the folder, the file is missing, or it does not read as YAML."""
    from pathlib import Path, PurePosixPath
    from dsl.diagnostics import DiagnosticError
    if not isinstance(rel, str) or PurePosixPath(rel).is_absolute() or ".." in PurePosixPath(rel).parts:
        report.error("CONTENT-OUTSIDE", f"{what} '{rel}' must be a path inside the game folder", where, hint)
        return None
    path = Path(root) / rel
    try:
        inside = path.resolve().is_relative_to(Path(root).resolve()) and path.is_file()
    except (OSError, ValueError):
        inside = False
    if not inside:
        report.error("CONTENT-MISSING", f"{what}: the file '{rel}' does not exist in the game folder", where, hint)
        return None
    shown = display(path)
    try:
        doc, problems = load_yaml(shown, read_text(path, shown))
    except DiagnosticError as err:
        report.add(err.diagnostics)
        return None
    if problems:
        report.add(problems)
        return None
    return doc
