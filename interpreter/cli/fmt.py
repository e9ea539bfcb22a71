"""`rules fmt [--check] PATH ...`: .rules files in the language's one layout (dsl/formatter.py).

A file is written only when its text parses and the formatted text parses to the same tree; a file that
does not parse is reported (its diagnostics) and left as it is. Exit codes: 0 every file formatted (with
--check: none would change), 1 a file that does not parse (with --check: or one that would change), 2 usage.
`rules fmt -` formats standard input to standard output.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError, Source, Span
from dsl.formatter import FormatError, format_text, same_tree
from dsl.inputs import io_error, read_text, write_file

MAX_FILES = 10_000  # a folder named by mistake (/) is not walked for ever


def rules_files(paths: list) -> list:
    """The .rules files the arguments name: files as given, folders searched for *.rules (hidden ones skipped)."""
    found: list = []
    for raw in paths:
        path = Path(raw)
        try:
            is_dir, exists = path.is_dir(), path.exists()
        except (OSError, ValueError):
            is_dir, exists = False, False
        if not exists:
            raise DiagnosticError([Diagnostic("USAGE", f"{raw}: no such file or folder")])
        if not is_dir:
            found.append(path)
            continue
        inside = sorted(p for p in path.rglob("*.rules")
                        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts))
        if not inside:
            raise DiagnosticError([Diagnostic("USAGE", f"{raw}: no .rules file in this folder")])
        found += inside
        if len(found) > MAX_FILES:
            raise DiagnosticError([Diagnostic("USAGE", f"{raw}: more than {MAX_FILES:,} .rules files; name fewer folders")])
    return list(dict.fromkeys(found))


def formatted(path: Path, shown: str) -> tuple:
    """(text, its formatted text) of a file, or a DiagnosticError saying why it is not formatted."""
    return _formatted_text(read_text(path, shown), shown)


def _formatted_text(text: str, shown: str) -> tuple:
    from dsl.parser import parse_module
    parse_module(Source(shown, text))  # DSL-SYNTAX and friends, as `rules validate` says them
    try:
        new = format_text(text)
    except FormatError as err:
        raise DiagnosticError([Diagnostic("FMT-INDENT", err.message, Span(shown, err.line, 1))]) from None
    if new != text and not same_tree(text, new, shown):  # the formatter moves whitespace only: never expected
        raise DiagnosticError([Diagnostic("FMT-TREE", "the formatted text would not mean the same: left as it is",
                                          Span(shown, 1, 1), "please report this file")])
    return text, new


def _stdin(args) -> int:
    """`rules fmt -`: the text on standard input, formatted, on standard output (for editors' external
    formatters); a text that does not parse goes out unchanged, its diagnostics on standard error."""
    from dsl.inputs import decode
    from dsl.limits import MAX_FILE_BYTES
    data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise DiagnosticError([Diagnostic("INPUT-LIMIT", f"standard input is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")])
    text = decode(data, "<stdin>")
    try:
        text, new = _formatted_text(text, "<stdin>")
    except DiagnosticError as err:
        sys.stdout.write(text)
        for d in err.diagnostics:
            print(d.render(), file=sys.stderr)
        return 1
    sys.stdout.write(new)
    return 1 if args.check and new != text else 0


def first_difference(a: str, b: str) -> int:
    for n, (x, y) in enumerate(zip(a.splitlines(), b.splitlines()), 1):
        if x != y:
            return n
    return min(len(a.splitlines()), len(b.splitlines())) + 1


def cmd_fmt(args) -> int:
    if args.paths == ["-"]:
        return _stdin(args)
    files = rules_files(args.paths)
    failed = changed = 0
    for path in files:
        shown = str(path)
        try:
            text, new = formatted(path, shown)
        except DiagnosticError as err:
            failed += 1
            for d in err.diagnostics:  # a parse stops at its first error: one or two a file
                print(d.render(), file=sys.stderr)
            continue
        if new == text:
            continue
        changed += 1
        if args.check:
            print(f"{shown}:{first_difference(text, new)}: would be reformatted")
            continue
        try:
            mode = os.stat(path).st_mode
            write_file(path, new)
            os.chmod(path, mode & 0o7777)
        except OSError as err:  # a full disk, a folder without the right to write: this file is left as it was
            failed += 1
            print(io_error("write", shown, err).render(), file=sys.stderr)
            continue
        print(f"{shown}: reformatted")
    verb = "would be reformatted" if args.check else "reformatted"
    summary = f"{len(files)} file(s): {changed} {verb}, {len(files) - changed - failed} unchanged"
    if failed:
        summary += f", {failed} not formatted (errors above)"
    print(summary, file=sys.stderr if failed or (args.check and changed) else sys.stdout)
    return 1 if failed or (args.check and changed) else 0
