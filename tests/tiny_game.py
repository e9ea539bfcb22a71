"""A tiny game written into a temporary folder, for tests that need one rule or one vocabulary entry.

`tiny_game(tmp_path, rules=..., vocabulary_extra=..., records=...)` writes game.yaml, cards.yaml and
main.rules and returns the folder; every part has a small working default.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

MANIFEST = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
id: tiny
name: Tiny
source: designed for tests
players: {{min: 2, max: 3, default: 2}}
start: play
score: points
files:
  components: [{components}]
  rules: [{rules}]
vocabulary:
  enums:
    order_type: [raid, march]
  attributes:
    value: number
    order_type: order_type
{attributes}  kinds:
    token: {{starts_in: pile, required: [value]}}
{kinds}  zones:
    pile: {{scope: game, visibility: public}}
    hand: {{scope: player, visibility: owner}}
    under: {{scope: entity, visibility: public}}
{zones}  variables:
    points: {{scope: player, type: number, initial: 0}}
{variables}"""

RECORDS = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  order_type: raid
  copies: 2
  source: designed
- id: gem
  kind: token
  name: Gem
  value: 3
  source: designed
"""

RULES = """\
procedure play():
    for p in players:
        move top(pile) to hand of p
"""


def _indent(block: str) -> str:
    return textwrap.indent(textwrap.dedent(block).strip("\n"), "    ") + "\n" if block.strip() else ""


def tiny_game(tmp_path: Path, rules: str = RULES, records: str = RECORDS, attributes: str = "", kinds: str = "",
              zones: str = "", variables: str = "", components_files: str = "cards.yaml",
              rules_files: str = "main.rules", name: str = "tiny") -> Path:
    """Write the game; the vocabulary parts are YAML lines added to each section (4-space indented here)."""
    root = tmp_path / name
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text(MANIFEST.format(
        attributes=_indent(attributes), kinds=_indent(kinds), zones=_indent(zones), variables=_indent(variables),
        components=components_files, rules=rules_files), encoding="utf-8")
    (root / "cards.yaml").write_text(textwrap.dedent(records), encoding="utf-8")
    (root / "main.rules").write_text(textwrap.dedent(rules), encoding="utf-8")
    return root


def compiled(root: Path):
    """A game folder loaded, checked to be free of diagnostics, and compiled."""
    from dsl.loader import load_game
    from interpreter.codegen import compile_game
    content = load_game(root)
    assert not content.report.diagnostics, content.report.diagnostics
    return compile_game(content)


# A King's Bounty table for scenario files written by tests: an elf tower garrisoned in front of P1,
# two humans in P2's hand, and P2's turn to run. `{name}` is the scenario's name.
KB_SCENARIO = """
    name: {name}
    game: kings_bounty
    players: 2
    setup: skip
    given: |
      move @elves_tower_1 to domains of players[0]
      move @elves_archer_1 to garrison of @elves_tower_1
      move [@humans_archer_1, @humans_warrior_1] to hand of players[1]
    run: turn(players[1])
"""


def scenario_file(tmp_path: Path, body: str, name: str = "s.yaml") -> Path:
    """Write a scenario file (indented text, as tests write it) and return its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    return path
