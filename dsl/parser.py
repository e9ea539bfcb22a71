"""Text to AST: a rule text's syntax tree from the cache of trees (dsl/cache.py) when this very text was parsed
before, else from the Lark parser (dsl/parse_text.py), imported only then: Lark is slow to import, and a cold
`rules validate` of unchanged content needs no parsing at all."""
from __future__ import annotations

import functools

from dsl import ast, cache
from dsl.diagnostics import Source


@functools.lru_cache(maxsize=1)
def _trees() -> cache.TreeCache:
    return cache.TreeCache()


def _run(source: Source, start: str):
    """The syntax tree of a rule text: from the cache when this very text was parsed before."""
    trees = _trees()
    key = trees.key(source, start)
    found = trees.load(key)
    if found is not None:
        return found
    from dsl.parse_text import _parse

    tree = _parse(source, start)
    trees.store(key, tree)
    return tree


def parse_module(source: Source, owner: str | None = None) -> ast.Module:
    return ast.Module(source.path, _run(source, "start"), owner)


def parse_expression(source: Source):
    return _run(source, "expr_only")


def __getattr__(name: str):
    # The parser's own parts (_parse, _parser, build_parser, ToAst...), for tests and tools, from dsl.parse_text.
    if name.startswith("__"):
        raise AttributeError(name)
    from dsl import parse_text

    try:
        return getattr(parse_text, name)
    except AttributeError:
        raise AttributeError(f"module 'dsl.parser' has no attribute {name!r}") from None
