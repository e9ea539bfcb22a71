"""The quick schema check agrees with jsonschema: its "yes" is always jsonschema's "yes", its "no" jsonschema's "no"."""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from dsl.loader import load_game
from dsl.schema_check import load_schema
from dsl.schema_fast import Unsure, is_valid
from dsl.vocabulary import record_schema
from dsl.yaml_records import load_yaml

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["kings_bounty", "btwixt", "agot"]
ODD_VALUES = [None, True, 0, 1.5, -7, "", "x y", "fr", [], {}, ["a"], {"k": 1}, 10 ** 9]


def _mutations(data, rng: random.Random, n: int):
    """Copies of `data` with one change each somewhere inside: a value replaced, a key dropped or added."""
    for _ in range(n):
        doc = copy.deepcopy(data)
        node, path = doc, []
        while isinstance(node, (dict, list)) and node and rng.random() < 0.8:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
        if not path:
            yield rng.choice(ODD_VALUES)
            continue
        parent, key = path[-1]
        action = rng.randrange(3)
        if action == 0:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif action == 1 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, dict):
            parent[rng.choice(["extra", "id", "kind", "name", "copies"])] = copy.deepcopy(rng.choice(ODD_VALUES))
        else:
            parent.append(copy.deepcopy(rng.choice(ODD_VALUES)))
        yield doc


def _agrees(data, schema) -> bool:
    expected = not any(True for _ in Draft202012Validator(schema).iter_errors(data))
    try:
        return is_valid(data, schema) == expected
    except Unsure:
        return True  # the loader then asks jsonschema itself


@pytest.mark.parametrize("name", GAMES)
def test_quick_check_agrees_with_jsonschema(name):
    root = ROOT / "content" / name
    content = load_game(root)
    assert content.report.ok
    rng = random.Random(name)
    manifest = load_yaml("game.yaml", (root / "game.yaml").read_text(encoding="utf-8"))[0].data
    game_schema = load_schema("game.schema.json")
    assert is_valid(manifest, game_schema)  # valid content never needs jsonschema
    records = {"type": "array", "items": record_schema(content.vocabulary, kinds_required=False)}
    cards = sorted([*root.glob("cards/*.yaml"), *root.glob("components/*.yaml")])[:3]
    docs = [(manifest, game_schema)] + [(load_yaml(p.name, p.read_text(encoding="utf-8"))[0].data, records) for p in cards]
    checked = 0
    for data, schema in docs:
        assert is_valid(data, schema)
        for changed in _mutations(data, rng, 60):
            assert _agrees(changed, schema), changed
            checked += 1
    assert checked >= 60


def test_keywords_it_does_not_know_are_left_to_jsonschema():
    with pytest.raises(Unsure):
        is_valid({"a": 1}, {"dependentRequired": {"a": ["b"]}})
    assert not is_valid(["a", "a"], {"uniqueItems": True})
    assert not is_valid(True, {"type": "integer"})
    assert is_valid(3.0, {"type": "integer"})
    assert not is_valid({"x": 1}, {"enum": ["x"]})
    assert is_valid({"b": 2}, {"if": {"required": ["a"]}, "then": {"required": ["c"]}})
    assert not is_valid({"a": 2}, {"if": {"required": ["a"]}, "then": {"required": ["c"]}})
