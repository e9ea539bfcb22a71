"""Hostile parse caches (issue 15 §1): pickles planted in a world-writable cache folder or shipped in a game
folder through a relative XDG_CACHE_HOME, and cache entries damaged or edited. Each case fills a cache with a
first real run, tampers with it (cache_tamper.py), runs `rules` again and checks what happened."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

from hostile_case import Case

TAMPER = f"{shlex.quote(sys.executable)} {shlex.quote(str(Path(__file__).resolve().with_name('cache_tamper.py')))}"
PRIVATE = "export HOME={tmp}/userdir XDG_CACHE_HOME={tmp}/xdg\n"
CACHE = "{tmp}/xdg/tabletop-rules"
FILL = "rules validate {game} > /dev/null || exit 9\n"
NO_MARKER = '[ -e {tmp}/MARKER ] && { echo "PLANTED-CODE-RAN: a pickle from a cache folder was loaded"; exit 3; }\n'


def cache_case(name: str, cls: int, shell: str, text: str = "rule texts: ok") -> Case:
    return Case(name, cls, (), None, exit=0, shell=shell, text=text, timeout=60)


def damaged(name: str, tamper: str) -> Case:
    """A damaged entry is ignored (no traceback, the same verdict) and written anew."""
    return cache_case(name, 9, PRIVATE + FILL + f"{TAMPER} {tamper}\n"
                      "rules validate {game} || exit $?\n" + f"{TAMPER} rebuilt {CACHE}\n")


CASES = [
    cache_case("cache_pickle_world_writable", 9, PRIVATE + FILL + f"{TAMPER} pickle {CACHE} {{tmp}}/MARKER\n"
               f"chmod -R a+rwX {CACHE}\n" "rules validate {game}; code=$?\n" + NO_MARKER + "exit $code\n"),
    cache_case("cache_pickle_relative_xdg_in_game", 1,
               "export HOME={tmp}/userdir\n"
               "XDG_CACHE_HOME={game}/.cache rules validate {game} > /dev/null || exit 9\n"
               f"{TAMPER} pickle {{game}}/.cache/tabletop-rules {{tmp}}/MARKER\n"
               "cd {game} && XDG_CACHE_HOME=.cache rules validate .; code=$?\n" + NO_MARKER +
               '[ -d {tmp}/userdir/.cache/tabletop-rules ] || { echo "NOT-IN-HOME: the relative XDG_CACHE_HOME was used"; '
               "exit 4; }\nexit $code\n"),
    damaged("cache_entries_bytes_flipped", f"flip {CACHE} 15"),
    damaged("cache_entries_bytes_flipped_again", f"flip {CACHE} 7"),
    damaged("cache_entries_truncated", f"truncate {CACHE}"),
    cache_case("cache_entry_edited_play_unchanged", 9, PRIVATE +
               "rules play {game} --seed 3 > {tmp}/before.txt || exit 9\n"
               f"{TAMPER} edit {CACHE}\n"
               "rules play {game} --seed 3 > {tmp}/after.txt || exit $?\n"
               'cmp -s {tmp}/before.txt {tmp}/after.txt || { echo "EDITED-CACHE-CHANGED-PLAY"; '
               "diff {tmp}/before.txt {tmp}/after.txt; exit 5; }\n"
               f"{TAMPER} rebuilt {CACHE} || exit 6\n" "cat {tmp}/after.txt\n", text="plays"),
]
