"""The parser's tables and its cache (issue 15 §1): the tables ship with the package and match the grammar;
syntax trees are kept as JSON only in a folder of the user's own; nothing planted, damaged or edited there
runs code, changes a tree or stops the parser."""
from __future__ import annotations

import ast as pyast
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from dsl import ast, cache, parse_tables
from dsl import parser as dsl_parser
from dsl.diagnostics import Source, Span
from dsl.parser import _parse

ROOT = Path(__file__).resolve().parent.parent
BASE_GAME = ROOT / "tests" / "hostile" / "base_game"
TAMPER = ROOT / "tests" / "hostile" / "cache_tamper.py"
TEXT = 'procedure f(p: player):\n    let n = 1 + 2 * 3\n    log "hi {p} {n}"\n    if n > 2:\n        win p\n'
ROOT_ONLY = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")


@pytest.fixture
def trees(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    return cache.TreeCache()


def source(text: str = TEXT) -> Source:
    return Source("a.rules", text, text)


def stored(trees) -> tuple[str, list, Path]:
    key = trees.key(source(), "start")
    tree = _parse(source(), "start")
    trees.store(key, tree)
    return key, tree, trees.folder / f"{key}.json"


# ------------------------------------------------------------------ parse tables
def test_the_committed_tables_are_what_the_grammar_gives():
    problem = parse_tables.check()
    assert problem is None, problem


def test_an_edited_grammar_is_caught_and_the_message_says_how_to_regenerate(tmp_path, monkeypatch):
    grammar = tmp_path / "grammar.lark"
    grammar.write_text(parse_tables.GRAMMAR_PATH.read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    monkeypatch.setattr(parse_tables, "GRAMMAR_PATH", grammar)
    problem = parse_tables.check()
    assert problem is not None and "python -m dsl.parse_tables --write" in problem


def test_stale_or_damaged_tables_are_not_used_the_parser_is_built_from_the_grammar(tmp_path, monkeypatch):
    built = []
    real_build = parse_tables.build_parser
    monkeypatch.setattr(parse_tables, "build_parser", lambda: built.append(1) or real_build())
    committed = parse_tables.TABLES_PATH
    tables = tmp_path / "parse_tables.json"
    monkeypatch.setattr(parse_tables, "TABLES_PATH", tables)
    for content in (b"", b"{", b'{"format": "something else"}', b"\x80\x81" * 100, committed.read_bytes()[:5000]):
        tables.write_bytes(content)
        assert parse_tables.load_parser().parse("x + 1\n", start="expr_only").children[0].data == "arith"
    stale = parse_tables.read_tables(committed.read_bytes())
    stale["grammar_sha256"] = "0" * 64  # made from another grammar
    tables.write_text(parse_tables.render(stale), encoding="ascii")
    parse_tables.load_parser()
    assert len(built) == 6
    monkeypatch.setattr(parse_tables, "TABLES_PATH", committed)
    assert parse_tables.load_parser().parse("x + 1\n", start="expr_only").children[0].data == "arith"
    assert len(built) == 6, "the committed tables are used as they are"


def test_the_parser_from_the_tables_reads_every_rule_text_as_the_grammar_does():
    from_tables, from_grammar = parse_tables.load_parser(), parse_tables.build_parser()
    texts = sorted((ROOT / "content").glob("*/rules/*.rules"))
    assert len(texts) >= 10
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert from_tables.parse(text + "\n", start="start") == from_grammar.parse(text + "\n", start="start"), path
    for bad in ("procedure f(:\n", "let = 3\n", "procedure f():\n  pass\n    pass\n"):
        with pytest.raises(Exception) as by_tables:
            from_tables.parse(bad, start="start")
        with pytest.raises(Exception) as by_grammar:
            from_grammar.parse(bad, start="start")
        a, b = by_tables.value, by_grammar.value  # the diagnostic sorts what was expected: compare sorted
        assert type(a) is type(b) and (a.line, a.column, sorted(a.expected)) == (b.line, b.column, sorted(b.expected))


def test_the_parser_reads_no_pickle_at_all():
    """Nothing in dsl/ can load code from data: no pickle, marshal or shelve is imported, and Lark's own
    (pickled) cache is never switched on."""
    for path in sorted((ROOT / "dsl").glob("*.py")):
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        names = {a.name.split(".")[0] for n in pyast.walk(tree) if isinstance(n, pyast.Import) for a in n.names}
        names |= {(n.module or "").split(".")[0] for n in pyast.walk(tree) if isinstance(n, pyast.ImportFrom)}
        assert not names & {"pickle", "marshal", "shelve", "dill", "cloudpickle"}, path
    assert isinstance(dsl_parser._parser(), Lark) and not dsl_parser._parser().options.cache
    assert (ROOT / "dsl" / "parse_tables.json").read_bytes().startswith(b"{")


# ------------------------------------------------------------------ the tree cache
def test_the_same_text_is_read_back_and_a_changed_one_misses(trees):
    key, tree, path = stored(trees)
    assert trees.load(key) == tree and path.read_bytes().startswith(b'{"format":')
    assert path.stat().st_mode & 0o777 == 0o600 and [p.name for p in trees.folder.iterdir()] == [path.name]
    moved = Source("a.rules", TEXT, TEXT, line_offset=3)  # the same text elsewhere in its file
    edited = Source("a.rules", TEXT.replace("hi", "ho"), TEXT)
    assert trees.key(moved, "start") != key and trees.key(edited, "start") != key
    assert trees.key(source(), "expr_only") != key
    assert trees.load(trees.key(edited, "start")) is None


def test_every_ast_class_can_be_kept_and_nothing_else_is_built(trees):
    nodes = {c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.Node) and c is not ast.Node}
    assert set(cache._NODES) == nodes, "a new AST class must be listed in dsl/cache.py _NODES"
    key, tree, path = stored(trees)
    assert cache.decode_entry(path.read_bytes(), key) == tree
    _, body = cache.encode_entry(tree, key).split(b"\n", 1)
    for name in ("Span", "Module", "Path", "Popen", "os.system"):  # not in the list: the entry is ignored
        with pytest.raises(ValueError):
            cache.decode_entry(_entry(body.replace(b'["Procedure"', f'["{name}"'.encode(), 1), key), key)

    def forged(tree) -> bytes:
        return _entry(json.dumps({"strings": ["a.rules"], "tree": tree}).encode(), key)

    assert cache.decode_entry(forged(["Num", 0, 1, 1, 2, 0, 7]), key) == ast.Num(Span("a.rules", 1, 1, 2, "a.rules"), 7)
    for bad in (["Num", 0, 1, 1, 2, 0, 1.5], ["Num", 0, 1, 1, 2, 0, {"x": 1}], ["Num", 0, "1", 1, 2, 0, 1],
                ["Num", 0, 1, 1, 2], ["Num", 9, 1, 1, 2, 0, 1], ["l", ["Nope"]], [["l"]], ["__class__"]):
        with pytest.raises(ValueError):
            cache.decode_entry(forged(bad), key)


def _entry(body: bytes, key: str) -> bytes:
    """An entry whose header matches its body: what only the folder's owner could write."""
    header = {"format": cache.FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}
    return json.dumps(header, separators=(",", ":")).encode() + b"\n" + body


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("RULES_NO_CACHE", "1")
    assert cache.cache_dir() is None
    trees = cache.TreeCache()
    assert trees.key(Source("a.rules", "x"), "start") is None
    assert not (tmp_path / "tabletop-rules").exists()


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    for relative in (".cache", "game/.cache", "."):
        monkeypatch.setenv("XDG_CACHE_HOME", relative)
        assert cache.cache_dir() == tmp_path / "home" / ".cache" / "tabletop-rules"
    assert not (tmp_path / ".cache").exists() and not (tmp_path / "game").exists()
    monkeypatch.setenv("HOME", "home")  # a relative home: no cache at all
    assert cache.cache_dir() is None


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722, 0o757])
def test_a_folder_others_can_write_is_not_used(tmp_path, monkeypatch, mode):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    (tmp_path / "tabletop-rules").mkdir(mode=0o700)
    os.chmod(tmp_path / "tabletop-rules", mode)
    assert cache.cache_dir() is None and cache.TreeCache().folder is None


def test_a_trees_folder_others_can_write_is_not_used(trees):
    os.chmod(trees.folder, 0o733)
    assert cache.TreeCache().folder is None


def test_a_folder_in_a_world_writable_parent_is_used_only_under_the_sticky_bit(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "shared"))
    monkeypatch.delenv("RULES_NO_CACHE", raising=False)
    (tmp_path / "shared").mkdir()
    os.chmod(tmp_path / "shared", 0o777)
    assert cache.cache_dir() is None
    os.chmod(tmp_path / "shared", 0o1777)
    assert cache.cache_dir() == tmp_path / "shared" / "tabletop-rules"


@ROOT_ONLY
def test_a_folder_or_an_entry_of_another_user_is_not_used(trees, tmp_path):
    key, tree, path = stored(trees)
    os.chown(path, 12345, 12345)
    assert trees.load(key) is None
    os.chown(path, 0, 0)
    assert trees.load(key) == tree
    os.chown(tmp_path / "xdg" / "tabletop-rules", 12345, 12345)
    assert cache.cache_dir() is None


def test_links_fifos_writable_and_huge_entries_are_not_read(trees, tmp_path):
    key, tree, path = stored(trees)
    os.chmod(path, 0o666)
    assert trees.load(key) is None
    os.chmod(path, 0o600)
    elsewhere = tmp_path / "elsewhere.json"
    shutil.copy(path, elsewhere)
    path.unlink()
    path.symlink_to(elsewhere)
    assert trees.load(key) is None
    path.unlink()
    os.mkfifo(path)
    assert trees.load(key) is None  # and no wait for a writer
    path.unlink()
    with open(path, "wb") as f:
        f.truncate(cache.MAX_ENTRY + 1)
    assert trees.load(key) is None


def test_damaged_entries_are_ignored_never_a_traceback(trees):
    key, tree, path = stored(trees)
    good = path.read_bytes()
    rng = random.Random(15)
    for attempt in range(300):
        data = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            data[i] = (data[i] + rng.randrange(1, 256)) % 256
        path.write_bytes(bytes(data))
        assert trees.load(key) is None, f"flip {attempt} was used"
    for cut in (0, 1, 10, len(good) // 2, len(good) - 1):
        path.write_bytes(good[:cut])
        assert trees.load(key) is None
    for junk in (b"\x80\x04\x95", b'{"format":"tabletop-rules-tree/1"}', b"[" * 100_000, b"\n" + good):
        path.write_bytes(junk)
        assert trees.load(key) is None
    path.write_bytes(good)
    assert trees.load(key) == tree


def test_edited_or_misplaced_entries_are_ignored(trees):
    key, tree, path = stored(trees)
    good = path.read_bytes()
    path.write_bytes(good.replace(b"hi ", b"ho "))  # still JSON, a different tree
    assert trees.load(key) is None
    other = trees.key(Source("b.rules", "function g() = 1\n", "function g() = 1\n"), "start")
    (trees.folder / f"{other}.json").write_bytes(good)  # a real entry under another key
    assert trees.load(other) is None


def test_a_damaged_entry_is_parsed_again_and_written_anew(trees, monkeypatch):
    monkeypatch.setattr(dsl_parser, "_trees", lambda: trees)
    key, tree, path = stored(trees)
    path.write_bytes(path.read_bytes().replace(b"hi ", b"ho "))
    assert dsl_parser._run(source(), "start") == tree
    assert trees.load(key) == tree


def test_a_tree_that_cannot_be_kept_is_simply_not_kept(trees):
    key = trees.key(source(), "start")
    trees.store(key, [object()])
    assert trees.load(key) is None and not list(trees.folder.iterdir())


# ------------------------------------------------------------------ planted pickles, end to end
def _rules(args: list, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    code = "import sys; from interpreter.cli import main; sys.exit(main(sys.argv[1:]))"
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    full.pop("RULES_NO_CACHE", None)
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=full, capture_output=True, text=True,
                          timeout=120)


def _tamper(*args) -> None:
    subprocess.run([sys.executable, str(TAMPER), *map(str, args)], check=True, timeout=60)


def test_pickles_planted_in_a_world_writable_cache_folder_do_not_run(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(BASE_GAME, game)
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert _rules(["validate", str(game)], tmp_path, env).returncode == 0
    folder = tmp_path / "xdg" / "tabletop-rules"
    _tamper("pickle", folder, tmp_path / "MARKER")
    for path in [folder, *folder.rglob("*")]:
        os.chmod(path, 0o777)
    done = _rules(["validate", str(game)], tmp_path, env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "MARKER").exists(), "a pickle from the cache folder ran"


def test_a_game_folder_cannot_bring_its_own_cache_through_a_relative_xdg_cache_home(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(BASE_GAME, game)
    home = tmp_path / "home"
    inside = {"HOME": str(home), "XDG_CACHE_HOME": str(game / ".cache")}  # fill a cache in the game folder
    assert _rules(["validate", str(game)], tmp_path, inside).returncode == 0
    _tamper("pickle", game / ".cache" / "tabletop-rules", tmp_path / "MARKER")
    done = _rules(["validate", "."], game, {"HOME": str(home), "XDG_CACHE_HOME": ".cache"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "MARKER").exists(), "a pickle shipped in the game folder ran"
    assert list((home / ".cache" / "tabletop-rules" / cache.TREES).iterdir()), "the cache went to ~/.cache"


def test_an_edited_tree_does_not_change_what_the_game_does(tmp_path):
    env = {"HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    first = _rules(["play", str(BASE_GAME), "--seed", "3"], tmp_path, env)
    assert first.returncode == 0 and "plays" in first.stdout, first.stderr
    folder = tmp_path / "xdg" / "tabletop-rules"
    _tamper("edit", folder)
    again = _rules(["play", str(BASE_GAME), "--seed", "3"], tmp_path, env)
    assert again.returncode == 0 and again.stdout == first.stdout
    _tamper("rebuilt", folder)


