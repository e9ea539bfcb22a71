"""Hostile cases of round two (issue 15 §3 and §4): work that grows without bound, values that fill memory, and
files and command lines that wrote through links or gave tracebacks. Each hang must end within the case's time
with its code; each memory case runs in a subprocess of at most 1 GiB of address space."""
from __future__ import annotations

from hostile_case import Case, manifest, play, play_body, rules

GIB = 1024  # MiB of address space for a memory case: the bound


def played(name: str, cls: int, expect: str | None, body: str, **kw) -> Case:
    return play(name, cls, expect, files=play_body(body + "\nwin first(players)"), **kw)


def memory(name: str, body: str, expect: str = "RUN-LIMIT") -> Case:
    return played(name, 5, expect, body, memory_mib=GIB, timeout=20)


def _many_misspelled_calls(n: int) -> str:
    """`n` procedures and `n` calls of names one letter away: 'did you mean' runs `n` times over `n` names."""
    calls = "".join(f"    step_{i:04d}x()\n" for i in range(n))
    defined = "".join(f"procedure step_{i:04d}():\n    pass\n" for i in range(n))
    return "procedure play():\n" + calls + "    win first(players)\n" + defined


def _bilingual(messages: str) -> dict:
    """The base game read in English and Russian, with a Russian catalogue holding `messages`."""
    return {"edits": manifest("files:", "languages: [en, ru]\nfiles:\n  translations: [lang/ru.yaml]"),
            "files": (("game/lang/ru.yaml", "language: ru\nmessages:\n" + messages),)}


def _scenario(body: str) -> tuple:
    return (("scenario.yaml", "name: big\ngame: {game}\n" + body),)


SCENARIO_RUN = "run: pass\n"

HANGS = [
    Case("exponential_function", 5, ("play", "{game}"), "RUN-LIMIT", timeout=10, files=rules(
        "procedure play():\n    log \"{f(40)}\"\n    win first(players)\n"
        "function f(n: number) = if n <= 0 then 1 else f(n - 1) + f(n - 1)\n")),
    Case("exponential_procedure", 5, ("play", "{game}"), "RUN-LIMIT", timeout=10, files=rules(
        "procedure play():\n    g(40)\n    win first(players)\n"
        "procedure g(n: number):\n    if n > 0:\n        g(n - 1)\n        g(n - 1)\n")),
    played("nested_comprehensions", 5, "RUN-LIMIT",
           'log "{sum(count(y in 1..9999 where y > 0) for x in 1..9999)}"', timeout=10),
    played("comprehension_range_huge", 5, "RUN-LIMIT", 'log "{sum(count(y in 1..1000000) for x in 1..1000000)}"'),
    Case("did_you_mean_3000_names", 5, ("validate", "{game}"), "REF-UNDEF", timeout=20,
         files=(("game/rules/main.rules", _many_misspelled_calls(3000)),), text="2,900 more"),
    Case("did_you_mean_3000_translation_keys", 5, ("validate", "{game}"), "I18N-UNUSED", timeout=30, **_bilingual(
        "".join(f'  "unused message {i:04d}": "сообщение {i:04d}"\n' for i in range(3000)))),
    Case("list_literal_8mb", 5, ("validate", "{game}"), "INPUT-LIMIT", timeout=10, isolate=True, files=(
        ("game/rules/main.rules", "procedure play():\n    let xs = [" + "1, " * 2_700_000 + "1]\n    win first(players)\n"),)),
    Case("scenario_expect_6mb", 7, ("test", "{tmp}/scenario.yaml"), "INPUT-LIMIT", timeout=15, isolate=True,
         files=_scenario(SCENARIO_RUN + "expect:\n" + "  - count(c in pile) == 6\n" * 240_000)),
    Case("scenario_given_7mb", 7, ("test", "{tmp}/scenario.yaml"), "INPUT-LIMIT", timeout=15, isolate=True,
         files=_scenario("given: |\n" + "  pass\n" * 1_000_000 + SCENARIO_RUN + "expect: ['true']\n")),
    # (a million took 25 s, nearly all of it YAML reading the list; 200,000 show the same bound line)
    Case("scenario_200000_unused_decisions", 7, ("test", "{tmp}/scenario.yaml"), None, exit=1, timeout=60,
         isolate=True, text="199,990 more",
         files=_scenario(SCENARIO_RUN + "decisions: [" + ", ".join(["coin"] * 200_000) + "]\nexpect: ['true']\n")),
    Case("ray_head_not_listening", 8, ("simulate", "{game}", "--games", "2", "--ray", "127.0.0.1:1"), "USAGE",
         exit=2, timeout=20, text="cannot reach Ray", needs=("ray",)),
    play("agent_arg_million_simulations", 8, "USAGE", "--agents", "ismcts,random", "--agent-arg", "simulations=1000000",
         exit=2, text="from 1 to 10000"),
]

MEMORY = [
    memory("list_of_lists", "let xs = [[i for i in 1..1000] for j in 1..9999]"),
    memory("map_of_lists", "let m = {}\nfor i in 1..9999:\n    m[i] = [j for j in 1..1000]"),
    memory("text_doubled", 'let t = "ab"\nrepeat 40:\n    t = t + t'),
    memory("list_doubled_then_told", 'let x = [1, 2]\nrepeat 40:\n    x = [x, x]\nlog "{x}"'),
    Case("translation_two_million_placeholders", 5, ("validate", "{game}"), "I18N-PLACEHOLDER", memory_mib=GIB,
         timeout=20, **_bilingual('  "{p} plays {c.name}": "' + "{p}" * 2_000_000 + '{c.name}"\n')),
]


def _linked(name: str, target: str) -> tuple:
    return ((name, target),)


LINKS_AND_COMMAND_LINE = [
    # a link planted at the log's name, aimed at the player's own file: refused, the file unchanged
    Case("log_through_symlink", 8, ("play", "{game}", "--log", "{tmp}/log_link.json"), "USAGE", exit=2,
         links=_linked("log_link.json", "{tmp}/victim.txt"), files=(("victim.txt", "VICTIM-UNCHANGED\n"),),
         text="symbolic link"),
    Case("report_through_symlink", 8, ("simulate", "{game}", "--games", "2", "--report", "{tmp}/out"), "USAGE", exit=2,
         setup=lambda folder: _report_link(folder), text="symbolic link", needs=("matplotlib",)),
    Case("report_folder_is_symlink", 8, ("simulate", "{game}", "--games", "2", "--report", "{tmp}/linked_out"), "USAGE",
         exit=2, links=_linked("linked_out", "{tmp}"), text="symbolic link", needs=("matplotlib",)),
    Case("report_mathtext_name", 8, ("simulate", "{game}", "--games", "4", "--report", "{tmp}/out"), None,
         edits=(("game/cards.yaml", "name: Gem", "name: '$\\frac{1}{$'"),), timeout=60, text="report.html",
         needs=("matplotlib",)),
    Case("report_empty_name", 8, ("simulate", "{game}", "--games", "2", "--report", ""), "USAGE", exit=2),
    play("agent_arg_uct_c_huge", 8, "USAGE", "--agents", "ismcts,random", "--agent-arg", "uct_c=1e308", exit=2),
    play("agent_arg_uct_c_nan", 8, "USAGE", "--agents", "ismcts,random", "--agent-arg", "uct_c=nan", exit=2),
    Case("play_stdout_closed", 8, (), "IO-ERROR", exit=1, shell="rules play {game} >&-", text="(standard output): it is closed"),
    Case("test_one_missing_file", 8, ("test", "{tmp}/scenario.yaml", "{tmp}/MISSING.yaml"), "USAGE", exit=2,
         files=(("scenario.yaml", "name: fine\ngame: {game}\nrun: pass\nexpect: ['true']\n"),), text="MISSING.yaml"),
]


def _report_link(folder) -> None:
    out = folder / "out"
    out.mkdir()
    (folder / "victim.html").write_text("VICTIM-UNCHANGED\n")
    (out / "report.html").symlink_to(folder / "victim.html")


CASES = HANGS + MEMORY + LINKS_AND_COMMAND_LINE
# files a case aims a link at: they must keep their text
VICTIMS = {"log_through_symlink": "victim.txt", "report_through_symlink": "victim.html"}
