"""The editor files in editors/: the TextMate grammar (VS Code and others) and the Neovim files know every
keyword and built-in of the language; Neovim (Debian's 0.7 here; skipped where `nvim` is missing) gives a
.rules file of a game its filetype and colours, starts `rules lsp` with its own 0.7 client, and shows the
server's diagnostics and formatting."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.types import BUILTINS
from interpreter.lsp.features import keywords

ROOT = Path(__file__).resolve().parent.parent
TEXTMATE = ROOT / "editors" / "textmate"
NVIM = ROOT / "editors" / "nvim"


def _patterns(node) -> list:
    """Every `match`, `begin` and `end` regular expression of a TextMate grammar."""
    out = []
    if isinstance(node, dict):
        out += [node[k] for k in ("match", "begin", "end") if isinstance(node.get(k), str)]
        for v in node.values():
            out += _patterns(v)
    elif isinstance(node, list):
        for v in node:
            out += _patterns(v)
    return out


def _scopes(grammar: dict, line: str) -> dict:
    """word -> scope a line's words get from the grammar's `code` patterns, the first pattern to match
    each place winning, as a TextMate engine does (enough for one-line checks; strings aside)."""
    found = {}
    taken = [False] * len(line)
    for pat in grammar["repository"]["code"]["patterns"]:
        if "match" not in pat:
            continue
        for m in re.finditer(pat["match"], line):
            groups = [(m.start(g), m.end(g), pat["captures"][str(g)]["name"]) for g in range(1, (m.re.groups or 0) + 1)
                      if "captures" in pat and str(g) in pat["captures"] and m.start(g) >= 0]
            for start, end, scope in groups or [(m.start(), m.end(), pat.get("name"))]:
                if scope and not any(taken[start:end]):
                    found[line[start:end]] = scope
                    taken[start:end] = [True] * (end - start)
    return found


def test_textmate_grammar_knows_the_language():
    grammar = json.loads((TEXTMATE / "rules.tmLanguage.json").read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.rules"
    text = json.dumps(grammar)
    for pattern in _patterns(grammar):
        re.compile(pattern.replace(r"\1", "x"))  # every expression reads (Oniguruma's syntax, in the part used here)
    words = set(re.findall(r"[a-z_]+", text))
    assert not set(keywords()) - words, "keywords of dsl/grammar.lark missing from the TextMate grammar"
    assert not set(BUILTINS) - words, "built-ins of dsl/types.py missing from the TextMate grammar"
    scopes = _scopes(grammar, "    choose up to 2 c in hand of p where c.kind == order and top(deck) != @emperor")
    assert scopes["choose"] == scopes["up"] == "keyword.control.rules" and "order" not in scopes  # a kind's name here
    assert _scopes(grammar, "    choose order of hand of p as cards")["order"] == "keyword.control.rules"
    assert scopes["top"] == "support.function.builtin.rules" and scopes["@emperor"] == "constant.other.record.rules"
    assert scopes["kind"] == "variable.other.property.rules" and scopes["and"] == "keyword.operator.logical.rules"
    assert "hand" not in scopes and "deck" not in scopes  # a game's names: the language server colours them
    assert _scopes(grammar, "    move c to deck at bottom")["bottom"] == "keyword.control.rules"
    injection = json.loads((TEXTMATE / "rules-effect.injection.tmLanguage.json").read_text(encoding="utf-8"))
    effect = injection["repository"]["effect"]
    assert re.match(effect["begin"], "  effect: |") and not re.match(effect["begin"], "  text: |")


def test_vscode_package_names_its_files():
    package = json.loads((TEXTMATE / "package.json").read_text(encoding="utf-8"))
    [language] = package["contributes"]["languages"]
    assert language["id"] == "rules" and language["extensions"] == [".rules"]
    assert (TEXTMATE / language["configuration"]).is_file()
    for g in package["contributes"]["grammars"]:
        assert (TEXTMATE / g["path"]).is_file()
    json.loads((TEXTMATE / language["configuration"]).read_text(encoding="utf-8"))


def test_nvim_syntax_knows_the_language():
    syntax = (NVIM / "syntax" / "rules.vim").read_text(encoding="utf-8")
    words = set(re.findall(r"[a-z_]+", syntax))
    assert not set(keywords()) - words, "keywords of dsl/grammar.lark missing from editors/nvim/syntax/rules.vim"
    assert not set(BUILTINS) - words, "built-ins of dsl/types.py missing from editors/nvim/syntax/rules.vim"


# ---------------------------------------------------------------------------------------------- Neovim itself
nvim = shutil.which("nvim")
needs_nvim = pytest.mark.skipif(nvim is None, reason="Neovim (Debian's package `neovim`) is not installed")

CHECK = """
local out = {}
local function add(s) table.insert(out, s) end
vim.cmd("edit %(turn)s")
add("ft=" .. vim.bo.filetype)
local l = vim.fn.search("move top(deck, n) to hand of p")
for _, w in ipairs({ "move", "top", "of" }) do
  local c = vim.fn.stridx(vim.fn.getline(l), w) + 1
  add(w .. "=" .. vim.fn.synIDattr(vim.fn.synID(l, c, 1), "name"))
end
require("rules_lsp").setup({ cmd = { %(python)s, "-m", "interpreter.cli", "lsp" } })
vim.cmd("doautocmd FileType rules")
local line = vim.fn.getline(l)
vim.fn.setline(l, (line:gsub("hand of p", "hnd of p")))
local lead = line:match("^%%s*")
vim.fn.append(l, lead .. "log   \\"{p} draws\\"")
local ok = vim.wait(90000, function() return #vim.diagnostic.get(0) > 0 end, 100)
add("clients=" .. #vim.lsp.buf_get_clients(0))
for _, d in ipairs(vim.diagnostic.get(0)) do add(string.format("diagnostic=%%d:%%d:%%s", d.lnum + 1, d.col + 1, d.message)) end
if vim.lsp.buf.format then vim.lsp.buf.format({ timeout_ms = 30000 }) else vim.lsp.buf.formatting_sync(nil, 30000) end
add("formatted=" .. vim.fn.getline(l + 1))
vim.cmd("edit %(plain)s")
add("elsewhere=" .. vim.bo.filetype)
vim.fn.writefile(out, "%(out)s")
vim.cmd("qa!")
"""


@needs_nvim
def test_nvim_gives_filetype_colours_and_the_language_server(tmp_path):
    game = tmp_path / "kings_bounty"
    shutil.copytree(ROOT / "content" / "kings_bounty", game)
    plain = tmp_path / "elsewhere" / "udev.rules"  # no game.yaml above: not ours (Neovim 0.7 calls it Snort's)
    plain.parent.mkdir()
    plain.write_text("KERNEL==\"sda\"\n", encoding="utf-8")
    script, out = tmp_path / "check.lua", tmp_path / "out.txt"
    script.write_text(CHECK % {"turn": game / "rules" / "turn.rules", "python": json.dumps(sys.executable),
                               "plain": plain, "out": out}, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([nvim, "--headless", "--clean", "--cmd", f"set runtimepath^={NVIM}", "-c", f"luafile {script}"],
                   cwd=tmp_path, env=env, timeout=150, check=True, capture_output=True)
    got = out.read_text(encoding="utf-8").splitlines()
    assert got[:4] == ["ft=rules", "move=rulesKeyword", "top=rulesBuiltin", "of=rulesKeyword"]
    assert "clients=1" in got
    assert any(g.startswith("diagnostic=") and "unknown attribute or variable 'hnd'; did you mean 'hand'?" in g for g in got)
    assert "formatted=    log \"{p} draws\"" in got
    assert got[-1] != "elsewhere=rules"


def test_fmt_reads_standard_input(monkeypatch, capsys):
    import io

    from cli_run import run

    def given(text):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    given("procedure f( p:player ):\n  log   \"{p}\"\n")
    assert run(capsys, "fmt", "-")[:2] == (0, "procedure f(p: player):\n    log \"{p}\"\n")
    given("procedure f(:\n")
    code, out, err = run(capsys, "fmt", "-")
    assert code == 1 and out == "procedure f(:\n" and "<stdin>:1:" in err  # the text as it came, and why
