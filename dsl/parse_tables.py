"""The grammar's LALR parser, from tables generated once into the package (`parse_tables.json`).

Building the parser from grammar.lark takes about a third of a second; reading the tables back takes a
few hundredths. The tables are plain JSON (Lark's own serialized form: lists, maps, strings, numbers),
so reading them runs no code, and they are read only from this package, never from a cache folder.
They record the hash of the grammar and the Lark version they were made from: when either differs
(grammar.lark edited without regenerating, another Lark installed) the parser is built from the grammar
in memory instead, with the same options.

Regenerate after editing grammar.lark:  python -m dsl.parse_tables --write
(`--check` only says whether the committed tables match; tests/test_parse_cache.py checks the same.)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from lark import Lark
from lark import __version__ as lark_version
from lark.grammar import Rule
from lark.indenter import Indenter
from lark.lark import _LOAD_ALLOWED_OPTIONS
from lark.lexer import TerminalDef

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
TABLES_PATH = Path(__file__).with_name("parse_tables.json")
FORMAT = "tabletop-rules-parse-tables/1"
START = ["start", "expr_only"]
REGENERATE = "python -m dsl.parse_tables --write"


class RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def build_parser(strict: bool = False) -> Lark:
    """The parser built from grammar.lark itself (the slow way, and the reference for the tables)."""
    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", postlex=RulesIndenter(), start=START,
                propagate_positions=True, maybe_placeholders=True, strict=strict)


def load_parser() -> Lark:
    """The parser from the package's tables when they fit this grammar and this Lark; else built from the grammar."""
    try:
        tables = read_tables(TABLES_PATH.read_bytes())
        if tables["grammar_sha256"] == grammar_sha256() and tables["lark"] == lark_version:
            # The options Lark leaves out of a saved parser (the indenter, positions) are given again here,
            # as Lark's own cache and standalone parsers do.
            return Lark._load_from_dict(tables["data"], tables["memo"], postlex=RulesIndenter(),
                                        propagate_positions=True)
    except Exception:  # noqa: BLE001 - a damaged tables file must not stop the parser: build it instead
        pass
    return build_parser()


def grammar_sha256() -> str:
    return hashlib.sha256(GRAMMAR_PATH.read_bytes()).hexdigest()


# ------------------------------------------------------------------ generating
def generate(parser: Lark) -> dict:
    """The tables of `parser` as plain data, with its state numbers made independent of Python's hash seed."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
    data["parser"]["parser"] = _canonical(data["parser"]["parser"])
    return {"format": FORMAT, "lark": lark_version, "grammar_sha256": grammar_sha256(), "data": data, "memo": memo,
            "regenerate": REGENERATE}


def _canonical(table: dict) -> dict:
    """Lark numbers states and tokens in set order, which moves with PYTHONHASHSEED. Renumber: tokens by name,
    states in breadth-first order from the start states, each state's moves taken in token-name order."""
    names = table["tokens"]
    states = table["states"]
    order: dict[int, int] = {}
    queue = [table["start_states"][name] for name in sorted(table["start_states"])]
    for state in queue:
        order.setdefault(state, len(order))
    i = 0
    while i < len(queue):
        for token, (kind, arg) in sorted(states[queue[i]].items(), key=lambda item: names[item[0]]):
            if kind == 0 and arg not in order:  # a shift (or goto): the state it leads to
                order[arg] = len(order)
                queue.append(arg)
        i += 1
    if len(order) != len(states):
        raise ValueError("the parse table has states no start state reaches")
    tokens = {name: n for n, name in enumerate(sorted(set(names.values())))}
    new_states = {}
    for old, new in sorted(order.items(), key=lambda item: item[1]):
        moves = {tokens[names[t]]: (kind, order[arg] if kind == 0 else arg) for t, (kind, arg) in states[old].items()}
        new_states[new] = dict(sorted(moves.items()))
    return {"tokens": {n: name for name, n in tokens.items()}, "states": new_states,
            "start_states": {k: order[v] for k, v in sorted(table["start_states"].items())},
            "end_states": {k: order[v] for k, v in sorted(table["end_states"].items())}}


# ------------------------------------------------------------------ JSON, exactly
# JSON has no tuples and no integer keys, which Lark's data has: both are written as one-key objects.
def _encode(value):
    if isinstance(value, dict):
        if value and all(type(k) is int for k in value):
            return {"#int-keys": {str(k): _encode(v) for k, v in value.items()}}
        if not all(type(k) is str for k in value):
            raise TypeError(f"unexpected keys in the parse tables: {list(value)[:3]}")
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return {"#tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or type(value) in (str, int, bool):
        return value
    raise TypeError(f"unexpected value in the parse tables: {type(value).__name__}")


def _decode_object(obj: dict):
    if len(obj) == 1:
        if "#int-keys" in obj:
            return {int(k): v for k, v in obj["#int-keys"].items()}
        if "#tuple" in obj:
            return tuple(obj["#tuple"])
    return obj


def render(tables: dict) -> str:
    """The tables file's text: compact, keys sorted, so the same grammar always gives the same bytes."""
    return json.dumps(_encode(tables), sort_keys=True, ensure_ascii=True, separators=(",", ":")) + "\n"


def read_tables(data: bytes) -> dict:
    tables = json.loads(data, object_hook=_decode_object)
    if not isinstance(tables, dict) or tables.get("format") != FORMAT:
        raise ValueError("not a parse tables file of this format")
    return tables


def check() -> str | None:
    """None when the committed tables are what grammar.lark gives with this Lark; else what is wrong."""
    fresh = generate(build_parser())
    try:
        committed = read_tables(TABLES_PATH.read_bytes())
    except (OSError, ValueError) as exc:
        return f"{TABLES_PATH.name} cannot be read ({exc}); regenerate it: {REGENERATE}"
    if committed.get("grammar_sha256") != fresh["grammar_sha256"]:
        return f"grammar.lark changed since {TABLES_PATH.name} was generated; regenerate it: {REGENERATE}"
    if committed.get("lark") != fresh["lark"]:
        return f"{TABLES_PATH.name} was made by Lark {committed.get('lark')}, this is Lark {lark_version}; " \
               f"regenerate it: {REGENERATE}"
    if committed != fresh:
        return f"{TABLES_PATH.name} differs from what grammar.lark gives; regenerate it: {REGENERATE}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dsl.parse_tables", description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help=f"regenerate {TABLES_PATH.name} from grammar.lark")
    what.add_argument("--check", action="store_true", help="exit 1 when the committed tables are stale")
    args = parser.parse_args(argv)
    if args.check:
        problem = check()
        print(problem or f"{TABLES_PATH.name} matches grammar.lark")
        return 1 if problem else 0
    tables = generate(build_parser())
    text = render(tables)
    if read_tables(text.encode("ascii")) != tables:  # the JSON form must give back exactly Lark's data
        raise SystemExit("internal error: the tables do not survive a round trip through JSON")
    temporary = TABLES_PATH.with_name(f".{TABLES_PATH.name}.tmp")
    temporary.write_text(text, encoding="ascii")
    temporary.replace(TABLES_PATH)
    print(f"wrote {TABLES_PATH.name} ({len(text) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
