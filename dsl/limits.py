"""The bounds every input is held to, in one place (docs/language.md §14 says why each is what it is).

Content, rule text, scenarios and logs come from people and programs we do not control; these
limits turn a hostile or broken file into a diagnostic instead of a hang, a crash or gigabytes.
"""
from __future__ import annotations

import contextlib
import sys

# Files. The largest real content file is ~20 KB; 8 MiB is 400 times that and still loads in about a second.
MAX_FILE_BYTES = 8 * 1024 * 1024
# A log holds one short line per decision: 32 MiB is several hundred thousand decisions.
MAX_LOG_BYTES = 32 * 1024 * 1024
# Copies of one record: a box holds tens of one card; 1,000 bounds the entities a single line can create.
MAX_COPIES = 1_000
# Seats at one table: no tabletop game seats more; it bounds the per-player state a manifest can ask for.
MAX_PLAYERS = 100
# Files a manifest's globs may name: a game has tens of files.
MAX_GLOB_FILES = 10_000

# YAML and JSON. Real manifests nest about 6 levels; anchors share small pieces.
MAX_DATA_DEPTH = 64
MAX_ALIAS_VALUES = 100_000  # values that aliases may add in total to one document, counted after expansion

# Rule text. Nesting (brackets, not, -, if-then-else, calls, blocks) in real rules stays under 10 levels.
# 64 leaves room for generated text and keeps every recursive walk of the AST (checker, compiler, the
# Python that the compiler generates) far from the interpreter's limits.
MAX_RULE_NESTING = 64
# Loops (for, while, repeat, secretly, choose menus) inside one another: real rules nest 3 or 4. The
# compiler makes each a Python block, and CPython compiles at most 20 nested blocks; 16 leaves it room.
MAX_LOOP_NESTING = 16
# A chain of one operator (a + b + c ..., x.a.b ..., a and b and ...) is long rather than deep, but
# the AST stores it left-nested; 1,000 links cover any plausible sum and bound the AST's real depth.
MAX_RULE_CHAIN = 1_000
# One rule text (a .rules file, an `effect:`, a scenario's `given:`, `run:` or expectation): the largest real
# rules file is about 15 KB. Parsing costs some 15 microseconds a character, whatever its shape, so a text of
# 8 MiB (a list literal of millions of numbers) would take minutes and gigabytes; 256 KiB parses in seconds.
MAX_RULE_TEXT = 256 * 1024
# All the rule text of one game (its .rules files and `effect:` fields): the largest real game (AGoT) has
# about 90 KB. Past 512 KiB the rest is not parsed, so that many files of the size above cannot add up to
# minutes (a dense text parses at some 40 KB a second).
MAX_GAME_RULE_TEXT = 512 * 1024
# Expectations of one scenario file: each is parsed and compiled on its own, about a millisecond; real
# scenarios have at most some twenty.
MAX_EXPECTATIONS = 1_000
# Integers are exact in JSON and in every language a log may be read from below 2**53.
MAX_INT = 2 ** 53 - 1
# {placeholders} in one `log`/`ask` text or one translation of it: real lines show at most 5 values. Each
# one rendered is a copy of its value's words, so a translation repeating {s} two million times would make
# lines of gigabytes; 64 keeps every line within 64 values' words.
MAX_PLACEHOLDERS = 64

# Enough recursion for an AST MAX_RULE_NESTING + MAX_RULE_CHAIN deep walked with several frames per level.
RECURSION_FOR_LOAD = 20_000


@contextlib.contextmanager
def deep_recursion():
    """Raise Python's recursion limit while content is parsed, checked and compiled; restore it after.

    The depth checks in the parser bound every AST, so the limit here is a known, sufficient bound,
    not a hope. Python 3.11+ runs Python-to-Python calls without using the C stack.
    """
    old = sys.getrecursionlimit()
    if old < RECURSION_FOR_LOAD:
        sys.setrecursionlimit(RECURSION_FOR_LOAD)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
