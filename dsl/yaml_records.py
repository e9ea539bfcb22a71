"""YAML to plain data with positions, through ruamel.yaml's composer only.

Nothing is constructed by ruamel itself: we walk the node graph, accept the YAML core
tags and nothing else (a `!!python/...` tag is an error, never an object), and keep the
line/column of every value so schema and rule errors point into the file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from dsl.diagnostics import Diagnostic, Source, Span

CORE = "tag:yaml.org,2002:"
# The only tags plain data may carry; anything else (!!python/..., !local) is refused.
CORE_TAGS = {CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq")}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_NULL = {"", "~", "null", "Null", "NULL"}


@dataclass(frozen=True)
class Pos:
    line: int  # 1-based
    col: int  # 1-based
    style: str | None = None  # "|", ">", '"', "'" or None for plain scalars


@dataclass
class YamlDoc:
    path: str
    text: str
    data: object = None
    positions: dict = field(default_factory=dict)  # path tuple -> Pos
    broken: bool = False  # it had YAML errors

    def pos(self, path: tuple) -> Pos:
        """Position of the value at `path`, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, Pos(1, 1))

    def span(self, path: tuple) -> Span:
        p = self.pos(path)
        lines = self.text.splitlines()
        text = lines[p.line - 1] if 0 < p.line <= len(lines) else ""
        return Span(self.path, p.line, p.col, p.col + max(1, _token_width(text, p.col)), text)

    def source_of(self, path: tuple, value: str) -> Source:
        """A Source for rule text stored in the scalar at `path`, mapped back into this file."""
        p = self.pos(path)
        if p.style in ("|", ">"):
            lines = self.text.splitlines()
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


def load_yaml(path: str, text: str) -> tuple[YamlDoc, list[Diagnostic]]:
    doc = YamlDoc(path, text)
    problems: list[Diagnostic] = []
    yaml = YAML(typ="rt", pure=True)
    try:
        node = yaml.compose(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        lines = text.splitlines()
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        message = (err.problem or "invalid YAML").strip()
        problems.append(Diagnostic("YAML-SYNTAX", message, Span(path, line, col, col + 1, src),
                                   "check indentation, colons and quotes on this line or the one above"))
        return doc, problems
    except YAMLError as err:
        problems.append(Diagnostic("YAML-SYNTAX", str(err).splitlines()[0], Span(path, 1, 1, 2, "")))
        return doc, problems
    if node is not None:
        doc.data = _convert(doc, node, (), problems)
    return doc, problems


def _convert(doc: YamlDoc, node, path: tuple, problems: list[Diagnostic]):
    tag = node.tag or ""
    pos = Pos(node.start_mark.line + 1, node.start_mark.column + 1,
              getattr(node, "style", None) if isinstance(node, ScalarNode) else None)
    doc.positions[path] = pos
    if tag and tag not in CORE_TAGS:
        problems.append(Diagnostic("YAML-TAG", f"the tag '{tag}' is not allowed", doc.span(path),
                                   "content files hold plain data only: remove the tag"))
        return None
    kind = tag[len(CORE):]
    if isinstance(node, MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                problems.append(Diagnostic("YAML-KEY", "mapping keys must be plain words", doc.span(path)))
                continue
            key = key_node.value
            key_path = path + (key,)
            if key in out:
                doc.positions[key_path] = Pos(key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                problems.append(Diagnostic("YAML-DUPKEY", f"the key '{key}' appears twice", doc.span(key_path)))
                continue
            out[key] = _convert(doc, value_node, key_path, problems)
        return out
    if isinstance(node, SequenceNode):
        return [_convert(doc, item, path + (i,), problems) for i, item in enumerate(node.value)]
    value = node.value
    if kind == "str" or node.style is not None:
        return value
    if kind == "int" and _INT.match(value):
        return int(value)
    if kind == "float" and _FLOAT.match(value):
        return float(value)
    if kind == "bool" and value in _BOOL:
        return _BOOL[value]
    if kind == "null" and value in _NULL:
        return None
    return value
