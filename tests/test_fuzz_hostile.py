"""Property-based hostile input (issue 7): random bytes, mutated YAML and rule text from the real
content to `rules validate`, and mutated logs to `rules replay`. Whatever the input: an answer (exit 0
or 1, never 2 for a path that exists), within a time limit, and never a traceback.

The number of examples is kept modest so that the suite stays fast; the corpus in tests/hostile/
holds the cases found worth keeping.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent / "hostile"))
from hostile_case import run_rules  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "content" / "kings_bounty"
TIME_LIMIT = 10.0  # seconds per command
FUZZ = settings(max_examples=60, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

YAML_FILES = ["game.yaml"] + sorted(p.relative_to(KB).as_posix() for p in (KB / "cards").glob("*.yaml"))
RULE_FILES = sorted(p.relative_to(KB).as_posix() for p in (KB / "rules").glob("*.rules"))
# Pieces that hostile edits are made of: YAML and rule syntax, tags, aliases, bad bytes, deep nesting.
PIECES = [b":", b"- ", b"&a ", b"*a", b"!!python/object/apply:os.system ['true']", b"!x ", b"{", b"}", b"[", b"]",
          b"\t", b"\n", b"\n    ", b"\n        ", b"'", b'"', b"\\", b"#", b"---\n", b"<<: ", b"|\n", b">-\n",
          b"not ", b"-", b"(", b")", b"if ", b" then ", b" else ", b" + ", b"..", b"@", b".", b"of ", b"choose ",
          b"9" * 30, b"\x00", b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\x1b[2J", "Ж".encode(), b"not " * 100, b"[" * 100]


@st.composite
def mutated(draw, original: bytes) -> bytes:
    """A few random edits of the original: cut, insert a piece or random bytes, duplicate, swap two lines."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        end = min(len(data), at + draw(st.integers(0, 60)))
        op = draw(st.sampled_from(["cut", "piece", "bytes", "duplicate", "swap"]))
        if op == "cut":
            del data[at:end]
        elif op == "piece":
            data[at:at] = draw(st.sampled_from(PIECES))
        elif op == "bytes":
            data[at:end] = draw(st.binary(max_size=24))
        elif op == "duplicate":
            data[at:at] = data[at:end] * draw(st.integers(1, 3))
        else:
            lines = bytes(data).split(b"\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@pytest.fixture(scope="module")
def kb_copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "kings_bounty"
    shutil.copytree(KB, root)
    return root


def _validate_with(root: Path, rel: str, data: bytes) -> None:
    path = root / rel
    original = (KB / rel).read_bytes()
    path.write_bytes(data)
    try:
        code, out = run_rules(("validate", str(root)), timeout=TIME_LIMIT)
    finally:
        path.write_bytes(original)
    _answered(code, out, (0, 1))


def _answered(code, out: str, allowed: tuple) -> None:
    assert code != "time limit", f"no answer within {TIME_LIMIT} s"
    assert code != "traceback" and "Traceback" not in out, out[-3000:]
    assert code in allowed, f"exit {code}:\n{out[-2000:]}"


@FUZZ
@given(data=st.data())
def test_random_bytes_as_a_card_file(kb_copy, data):
    rel = data.draw(st.sampled_from(YAML_FILES))
    _validate_with(kb_copy, rel, data.draw(st.binary(max_size=3000)))


@FUZZ
@given(data=st.data())
def test_random_bytes_as_rule_text(kb_copy, data):
    rel = data.draw(st.sampled_from(RULE_FILES))
    _validate_with(kb_copy, rel, data.draw(st.binary(max_size=3000)))


@FUZZ
@given(data=st.data())
def test_mutated_yaml_of_the_real_content(kb_copy, data):
    rel = data.draw(st.sampled_from(YAML_FILES))
    _validate_with(kb_copy, rel, data.draw(mutated((KB / rel).read_bytes())))


@FUZZ
@given(data=st.data())
def test_mutated_rule_text_of_the_real_content(kb_copy, data):
    rel = data.draw(st.sampled_from(RULE_FILES))
    _validate_with(kb_copy, rel, data.draw(mutated((KB / rel).read_bytes())))


# ---------------------------------------------------------------- logs
@pytest.fixture(scope="module")
def kb_log(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("fuzzlog")
    path = folder / "game.json"
    code, out = run_rules(("play", "kings_bounty", "--players", "2", "--seed", "3", "--quiet", "--log", str(path)), timeout=60)
    assert code == 0, out
    return folder, json.loads(path.read_text(encoding="utf-8"))


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)


@st.composite
def damaged_log(draw, log: dict) -> dict:
    """The log with a few fields replaced, removed or added, at any depth."""
    log = json.loads(json.dumps(log))
    for _ in range(draw(st.integers(1, 3))):
        node, key = log, draw(st.sampled_from(sorted(log)))
        while draw(st.booleans()):  # go deeper into the value at key, or stop here
            child = node[key]
            if isinstance(child, dict) and child:
                node, key = child, draw(st.sampled_from(sorted(child)))
            elif isinstance(child, list) and child:
                node, key = child, draw(st.integers(0, len(child) - 1))
            else:
                break
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        if isinstance(node, list):
            node[key] = draw(JSON_VALUES)
        elif action == "remove":
            node.pop(key, None)
        elif action == "add":
            node[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        else:
            node[key] = draw(JSON_VALUES)
    return log


def _replay(folder: Path, text: bytes, *extra: str) -> None:
    path = folder / "damaged.json"
    path.write_bytes(text)
    code, out = run_rules(("replay", str(path), "--quiet", *extra), timeout=TIME_LIMIT)
    _answered(code, out, (0, 1))


@FUZZ
@given(data=st.data())
def test_damaged_log_fields(kb_log, data):
    folder, log = kb_log
    _replay(folder, json.dumps(data.draw(damaged_log(log))).encode())


@FUZZ
@given(data=st.data())
def test_mutated_log_text(kb_log, data):
    folder, log = kb_log
    _replay(folder, data.draw(mutated(json.dumps(log, indent=1).encode())))
