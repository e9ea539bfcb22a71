"""Hostile content: files outside the game (class 1), resource bombs (2), encodings (3), deep or long
rule text (4), and impossible player counts in a manifest (6, load time)."""
from __future__ import annotations

import os
import random

from hostile_case import (Case, appended, cards, function, manifest, play, play_body, rules, validate)

COMPONENTS = "components: [cards.yaml]"
RULES = "rules: [rules/main.rules]"


def components(*entries: str) -> tuple:
    return manifest(COMPONENTS, "components: [" + ", ".join(f'"{e}"' for e in entries) + "]")


def rule_files(*entries: str) -> tuple:
    return manifest(RULES, "rules: [" + ", ".join(f'"{e}"' for e in entries) + "]")


def _outer_manifest(folder) -> None:
    """game.yaml is a link to a manifest outside the folder (the secret file)."""
    (folder / "game" / "game.yaml").unlink()
    (folder / "game" / "game.yaml").symlink_to(folder / "secret.txt")


def _fifo(folder) -> None:
    os.mkfifo(folder / "game" / "pipe.yaml")


# ---------------------------------------------------------------- 1. files outside the game folder
OUTSIDE = [
    validate("outside_parent_file", 1, "CONTENT-OUTSIDE", edits=components("cards.yaml", "../secret.txt")),
    validate("outside_etc_passwd", 1, "CONTENT-OUTSIDE", edits=components("../../../../../../../../etc/passwd")),
    validate("outside_absolute", 1, "CONTENT-OUTSIDE", edits=components("{tmp}/secret.txt")),
    validate("outside_absolute_etc", 1, "CONTENT-OUTSIDE", edits=components("/etc/passwd")),
    validate("outside_rules_parent", 1, "CONTENT-OUTSIDE", edits=rule_files("rules/main.rules", "../secret.txt")),
    validate("outside_rules_absolute", 1, "CONTENT-OUTSIDE", edits=rule_files("/etc/hostname")),
    validate("outside_glob_parent", 1, "CONTENT-OUTSIDE", edits=components("../*.txt")),
    validate("outside_glob_absolute", 1, "CONTENT-OUTSIDE", edits=components("/etc/*")),
    validate("outside_glob_absolute_rules", 1, "CONTENT-OUTSIDE", edits=rule_files("{tmp}/*.txt")),
    validate("outside_glob_deep_parent", 1, "CONTENT-OUTSIDE", edits=components("cards/../../**/*.txt")),
    validate("outside_symlink_file", 1, "CONTENT-OUTSIDE", edits=components("cards.yaml", "more.yaml"),
             links=(("game/more.yaml", "../secret.txt"),)),
    validate("outside_symlink_folder", 1, "CONTENT-OUTSIDE", edits=components("linked/secret.txt"),
             links=(("game/linked", ".."),)),
    validate("outside_symlink_folder_glob", 1, "CONTENT-OUTSIDE", edits=components("linked/*.txt"),
             links=(("game/linked", ".."),)),
    validate("outside_symlink_rules", 1, "CONTENT-OUTSIDE", edits=rule_files("rules/main.rules", "rules/evil.rules"),
             links=(("game/rules/evil.rules", "../../secret.txt"),)),
    validate("outside_symlink_in_glob", 1, "CONTENT-OUTSIDE", edits=rule_files("rules/*.rules"),
             links=(("game/rules/evil.rules", "../../secret.txt"),)),
    validate("outside_symlink_absolute", 1, "CONTENT-OUTSIDE", edits=components("cards.yaml", "abs.yaml"),
             links=(("game/abs.yaml", "{tmp}/secret.txt"),)),
    validate("outside_manifest_symlink", 1, "CONTENT-OUTSIDE", setup=_outer_manifest),
    validate("outside_dotdot_inside_path", 1, "CONTENT-OUTSIDE", edits=components("rules/../../secret.txt")),
    validate("outside_dot_prefix", 1, "CONTENT-OUTSIDE", edits=components("./../secret.txt")),
    validate("outside_through_file", 1, "CONTENT-OUTSIDE", edits=components("cards.yaml/../../secret.txt")),
    validate("outside_unc_path", 1, "CONTENT-OUTSIDE", edits=components("\\\\\\\\server\\\\share\\\\x.yaml")),
    validate("outside_dev_zero_link", 1, "CONTENT-OUTSIDE", edits=components("zero.yaml"),
             links=(("game/zero.yaml", "/dev/zero"),), isolate=True),
    validate("outside_symlink_loop", 1, "CONTENT-MISSING", edits=components("loop.yaml"),
             links=(("game/loop.yaml", "loop.yaml"),)),
    validate("inside_dotdot_is_fine", 1, None, edits=components("rules/../cards.yaml")),
    validate("inside_tilde_is_a_name", 1, "CONTENT-MISSING", edits=components("~/secret.txt")),
    validate("inside_folder_listed", 1, "CONTENT-MISSING", edits=components("rules")),
    validate("inside_fifo_never_read", 1, "CONTENT-MISSING", edits=components("pipe.yaml"), setup=_fifo, isolate=True),
    validate("inside_nul_in_name", 1, "CONTENT-MISSING", edits=components("cards\\0.yaml")),
    validate("inside_glob_no_match", 1, "CONTENT-MISSING", edits=components("nothing/*.yaml")),
]

# ---------------------------------------------------------------- 2. resource bombs
LAUGHS = "lol: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" + "".join(
    f"l{i}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(9))
BIG_RECORDS = "".join(f"- id: coin_{i}\n  kind: token\n  name: Coin number {i}\n  value: {i % 7}\n  source: designed\n"
                      for i in range(20_000))
BOMBS = [
    validate("bomb_laughs_cards", 2, "YAML-LIMIT", files=cards("- id: x\n  kind: token\n  value: 1\n  source: s\n  extra:\n"
                                                             + "".join("    " + line + "\n" for line in LAUGHS.splitlines())), isolate=True),
    validate("bomb_laughs_manifest", 2, "YAML-LIMIT", edits=appended("game/game.yaml", "x_" + LAUGHS.replace("\nl", "\nx_l")), isolate=True),
    validate("bomb_recursive_alias_list", 2, "YAML-LIMIT", files=cards("- &a [1, *a]\n")),
    validate("bomb_recursive_alias_map", 2, "YAML-LIMIT", files=cards("- &a {id: x, kind: token, next: *a}\n")),
    validate("bomb_nested_flow_lists", 2, "YAML-LIMIT", files=cards("[" * 10_000 + "]" * 10_000 + "\n"), isolate=True),
    validate("bomb_nested_flow_maps", 2, "YAML-LIMIT", files=cards("{a: " * 10_000 + "1" + "}" * 10_000 + "\n"), isolate=True),
    validate("bomb_nested_block_maps", 2, "YAML-LIMIT", files=cards("".join("  " * i + "a:\n" for i in range(1500)))),
    validate("bomb_nested_block_lists", 2, "YAML-LIMIT", files=cards("- " * 5000 + "x\n")),
    validate("bomb_comments_9mb", 2, "INPUT-LIMIT", files=cards("# a comment that goes on and on\n" * 300_000), isolate=True),
    validate("bomb_sparse_huge_file", 2, "INPUT-LIMIT", setup=lambda f: os.truncate(f / "game" / "cards.yaml", 10 ** 10),
             isolate=True),
    validate("bomb_copies_billion", 2, "SCHEMA-VALUE", edits=(("game/cards.yaml", "copies: 4", "copies: 1000000000"),), isolate=True),
    validate("bomb_copies_just_over", 2, "SCHEMA-VALUE", edits=(("game/cards.yaml", "copies: 4", "copies: 1001"),)),
    validate("bomb_players_max_huge", 2, "SCHEMA-VALUE", edits=manifest("max: 3", "max: 1000000")),
    validate("bomb_integer_5000_digits", 2, "NUM-RANGE", edits=(("game/cards.yaml", "value: 1", "value: " + "9" * 5000),)),
    validate("bomb_undefined_alias", 2, "YAML-SYNTAX", files=cards("- *nothing\n")),
    validate("bomb_two_documents", 2, "YAML-SYNTAX", edits=appended("game/cards.yaml", "---\n- id: again\n")),
    validate("bomb_merge_key", 2, "SCHEMA-EXTRA", files=cards("- &base {id: coin, kind: token, value: 1, source: s}\n"
                                                              "- <<: *base\n  id: other\n")),
    validate("bomb_long_line", 2, "SCHEMA-EXTRA", edits=(("game/cards.yaml", "value: 1", "value: 1\n  blob: " + "x" * 1_000_000),)),
    validate("fine_aliases_under_bound", 2, None, files=cards("- {id: coin, kind: token, value: &v 1, source: &s designed}\n"
                                                              + "".join(f"- {{id: c{i}, kind: token, value: *v, source: *s}}\n" for i in range(300)))),
    validate("fine_two_mb_of_records", 2, None, files=cards(BIG_RECORDS), isolate=True, timeout=20),
]

# ---------------------------------------------------------------- 3. encodings
_GARBAGE = bytes(random.Random(7).randrange(256) for _ in range(3000))
ENCODINGS = [
    validate("enc_bad_byte_cards", 3, "ENCODING", files=cards(b"- id: coin\n  kind: token\n  name: M\xffnz\n"), where="cards.yaml:3:10"),
    validate("enc_bad_byte_manifest", 3, "ENCODING", files=(("game/game.yaml", b"id: hostile_base\nname: \xc3\x28\n"),), where="game.yaml:2:7"),
    validate("enc_bad_byte_rules", 3, "ENCODING", files=rules(b"procedure play():\n    log \"\xe2\x82\"\n"), where="main.rules:2:10"),
    validate("enc_utf16_le_bom", 3, "ENCODING", files=cards("- id: coin\n".encode("utf-16"))),
    validate("enc_utf16_be_bom", 3, "ENCODING", files=rules(b"\xfe\xff" + "procedure play():\n".encode("utf-16-be"))),
    validate("enc_utf32_bom", 3, "ENCODING", files=cards("- id: coin\n".encode("utf-32"))),
    validate("enc_utf16_no_bom", 3, "ENCODING", files=cards("- id: coin\n".encode("utf-16-le")), where="cards.yaml:1:2"),
    validate("enc_binary_garbage_cards", 3, "ENCODING", files=cards(_GARBAGE)),
    validate("enc_binary_garbage_rules", 3, "ENCODING", files=rules(_GARBAGE)),
    validate("enc_binary_garbage_manifest", 3, "ENCODING", files=(("game/game.yaml", _GARBAGE),)),
    validate("enc_nul_in_rules", 3, "ENCODING", files=rules("procedure play():\n    pass\x00\n"), where="main.rules:2:9"),
    validate("enc_nul_in_yaml", 3, "ENCODING", files=cards("- id: coin\x00\n"), where="cards.yaml:1:11"),
    validate("enc_escape_in_yaml", 3, "ENCODING", files=cards("- id: coin\n  name: \x1b[31mred\n"), where="cards.yaml:2:9"),
    validate("enc_c1_control_in_yaml", 3, "ENCODING", files=cards("- id: coin\n  name: a\u0080b\n")),
    validate("enc_truncated_multibyte", 3, "ENCODING", files=rules(b"procedure play():\n    pass # \xd0")),
    validate("enc_overlong", 3, "ENCODING", files=cards(b"- id: \xc0\xaf\n")),
    validate("enc_encoded_surrogate", 3, "ENCODING", files=cards(b"- id: \xed\xa0\x80\n")),
    validate("enc_yaml_escaped_nul_in_effect", 3, "DSL-SYNTAX",
             edits=(("game/cards.yaml", "value: 1\n", 'value: 1\n  effect: "function f() = 1\\0"\n'),)),
    validate("fine_utf8_bom", 3, None, edits=(("game/cards.yaml", "# yaml", "\ufeff# yaml"),)),
    validate("fine_crlf_lines", 3, None, setup=lambda f: _crlf(f / "game" / "rules" / "main.rules")),
    validate("enc_cr_only_lines", 3, "DSL-SYNTAX", files=rules("procedure play():\r    pass\r")),
]


def _crlf(path) -> None:
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))


# ---------------------------------------------------------------- 4. deep or long rule text
def _sum(n: int) -> str:
    return " + ".join(["1"] * n)


NESTED_IFS = "    " + "\n    ".join("    " * i + "if true:" for i in range(100)) + "\n" + "    " * 101 + "pass\n"


def _loops(n: int) -> str:
    """procedure deep() with n loops inside one another."""
    return "\nprocedure deep():\n" + "".join("    " * (i + 1) + "for q in players:\n" for i in range(n)) + "    " * (n + 1) + "pass\n"


RULE_TEXT = [
    validate("deep_sum_400_terms", 4, None, edits=function(_sum(400))),
    validate("deep_sum_1000_terms", 4, None, edits=function(_sum(1000))),
    play("deep_sum_400_terms_played", 4, None, edits=(("game/rules/main.rules", "p.points += c.value",
                                                       "p.points += c.value + " + " + ".join(["0"] * 400)),)),
    validate("deep_sum_2000_terms", 4, "DSL-TOO-DEEP", edits=function(_sum(2000))),
    validate("deep_and_chain_600", 4, None, edits=function(" and ".join(["true"] * 600))),
    validate("deep_not_10000", 4, "DSL-TOO-DEEP", edits=function("not " * 10_000 + "true")),
    validate("deep_not_64_is_fine", 4, None, edits=function("not " * 64 + "true")),
    validate("deep_not_65", 4, "DSL-TOO-DEEP", edits=function("not " * 65 + "true"), where=f"main.rules:13:{len('function hostile() = ') + 64 * 4 + 1}"),
    validate("deep_neg_10000", 4, "DSL-TOO-DEEP", edits=function("-" * 10_000 + "1")),
    validate("deep_list_brackets_10000", 4, "DSL-TOO-DEEP", edits=function("[" * 10_000 + "]" * 10_000)),
    validate("deep_parens_10000_vanish", 4, None, edits=function("(" * 10_000 + "1" + ")" * 10_000)),
    validate("deep_if_then_else_300", 4, "DSL-TOO-DEEP", edits=function("if true then 1 else " * 300 + "0")),
    validate("deep_calls_5000", 4, "DSL-TOO-DEEP", edits=function("max(" * 5000 + "1" + ")" * 5000)),
    validate("deep_of_chain_5000", 4, "DSL-TOO-DEEP", edits=function("hand of " * 5000 + "first(players)")),
    validate("deep_attribute_chain_5000", 4, "DSL-TOO-DEEP", edits=function("first(pile)" + ".value" * 5000)),
    validate("deep_index_chain_5000", 4, "DSL-TOO-DEEP", edits=function("[1]" + "[0]" * 5000)),
    validate("deep_blocks_100", 4, "DSL-TOO-DEEP", files=rules("procedure play():\n" + NESTED_IFS)),
    play("deep_loops_17", 4, "DSL-TOO-DEEP", edits=(("game/rules/main.rules", "", _loops(17)),), text="loops nest deeper"),
    play("fine_loops_16_played", 4, None, edits=(("game/rules/main.rules", "", _loops(16)),)),
    validate("deep_effect_in_yaml", 4, "DSL-TOO-DEEP",
             edits=(("game/cards.yaml", "value: 1\n", "value: 1\n  effect: \"function f() = " + "not " * 2000 + "true\"\n"),)),
    validate("long_int_5000_digits", 4, "NUM-RANGE", edits=function("9" * 5000)),
    validate("long_int_2_53", 4, "NUM-RANGE", edits=function(str(2 ** 53))),
    validate("fine_int_2_53_minus_1", 4, None, edits=function(str(2 ** 53 - 1))),
    validate("long_int_in_choose", 4, "NUM-RANGE", files=play_body("choose 99999999999999999999 c in pile by first(players)\npass")),
    validate("long_int_in_effect", 4, "NUM-RANGE",
             edits=(("game/cards.yaml", "value: 1\n", "value: 1\n  effect: |\n    function f() = " + "7" * 400 + "\n"),),
             where="cards.yaml:7:20"),
    validate("long_name_100k", 4, "REF-UNDEF", edits=function("a" * 100_000)),
    validate("long_line_1mb", 4, "INPUT-LIMIT", edits=appended("game/rules/main.rules", "?" * 1_000_000 + "\n")),  # over MAX_RULE_TEXT
    validate("fine_10000_statements", 4, None, files=play_body("pass\n" * 10_000)),
    validate("pos_after_escapes", 4, "DSL-SYNTAX", files=play_body('log "a\\"b\\"c {nosuch x}"'), where="main.rules:2:26"),
    validate("pos_tab_dedent", 4, "DSL-INDENT", files=rules("procedure play():\n\tif true:\n\t\tpass\n      pass\n"),
             where="main.rules:4:7"),
    validate("pos_unicode_name", 4, "DSL-SYNTAX", edits=function("función"), where="main.rules:13:"),
]

# ---------------------------------------------------------------- 6. impossible player counts (load time)
PLAYERS = [
    validate("players_min_over_max", 6, "SCHEMA-VALUE", edits=manifest("{min: 2, max: 3, default: 2}", "{min: 5, max: 3}"),
             where="game.yaml:6:"),
    validate("players_default_over_max", 6, "SCHEMA-VALUE", edits=manifest("default: 2}", "default: 9}")),
    validate("players_default_under_min", 6, "SCHEMA-VALUE", edits=manifest("{min: 2, max: 3, default: 2}", "{min: 2, max: 3, default: 1}")),
    validate("players_min_zero", 6, "SCHEMA-VALUE", edits=manifest("min: 2,", "min: 0,")),
    validate("players_not_a_mapping", 6, "SCHEMA-TYPE", edits=manifest("players: {min: 2, max: 3, default: 2}", "players: x")),
    validate("players_float", 6, "SCHEMA-TYPE", edits=manifest("max: 3,", "max: 2.5,")),
    play("players_zero_on_command_line", 6, "USAGE", "--players", "0", exit=2),
    play("players_negative_on_command_line", 6, "USAGE", "--players", "-1", exit=2),
    play("players_over_max_on_command_line", 6, "USAGE", "--players", "4", exit=2),
    play("players_huge_on_command_line", 6, "USAGE", "--players", "99999999999", exit=2),
    Case("players_zero_simulate", 6, ("simulate", "{game}", "--players", "0"), "USAGE", exit=2),
    Case("games_zero_simulate", 6, ("simulate", "{game}", "--games", "0"), "USAGE", exit=2),
]

CASES = OUTSIDE + BOMBS + ENCODINGS + RULE_TEXT + PLAYERS
