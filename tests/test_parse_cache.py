"""The parser's cache: a rule text parsed before is read back as the same tree; any change misses."""
from __future__ import annotations

import pickle

from dsl import cache
from dsl.diagnostics import Source
from dsl.parser import _parse


def test_the_same_text_is_read_back_and_a_changed_one_misses(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    trees = cache.TreeCache()
    source = Source("a.rules", "procedure f():\n    log \"hi\"\n", "procedure f():\n    log \"hi\"\n")
    key = trees.key(source, "start")
    assert trees.load(key) is None
    tree = _parse(source, "start")
    trees.store(key, tree)
    assert pickle.dumps(trees.load(key)) == pickle.dumps(tree)
    moved = Source("a.rules", source.text, source.file_text, line_offset=3)  # the same text elsewhere in its file
    edited = Source("a.rules", source.text.replace("hi", "ho"), source.file_text)
    assert trees.key(moved, "start") != key and trees.key(edited, "start") != key
    assert trees.key(source, "expr_only") != key
    assert (tmp_path / "tabletop-rules" / "trees").is_dir()


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("RULES_NO_CACHE", "1")
    assert cache.cache_dir() is None and cache.grammar_file() is False
    trees = cache.TreeCache()
    assert trees.key(Source("a.rules", "x"), "start") is None
    assert not (tmp_path / "tabletop-rules").exists()
