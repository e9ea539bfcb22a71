"""Reading a file a user hands us: a regular file, of bounded size, UTF-8 text; and writing one.

Every problem is a Diagnostic: a directory or a device (`/dev/zero`) is not read at all, a file
over the limit is not read past it, and undecodable bytes are reported at their line and column.
A file we write (a log, a report) never goes through what lies at its name: see `write_file`.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError, Span
from dsl.limits import MAX_FILE_BYTES

_BOMS = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32", b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}
_UTF8_BOM = b"\xef\xbb\xbf"
# Control characters have no place in text (tab, newline, carriage return and form feed excepted).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_HINT = "save the file as UTF-8 text"


# What the system says when a name leads to nothing: the name is wrong (the command's `missing` code), not
# the system failing to read what is there (IO-ERROR).
_NOTHING_THERE = {errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG, errno.ELOOP}


def io_error(action: str, shown: str, err: OSError | str, hint: str | None = None, span: Span | None = None) -> Diagnostic:
    """The diagnostic of a file the system could not read or write (a full disk, a folder without the right
    to write, a missing folder, a failing device): IO-ERROR, naming the file and the system's reason."""
    return Diagnostic("IO-ERROR", f"cannot {action} {shown}: {err if isinstance(err, str) else _reason(err)}", span, hint)


def read_text(path: Path, shown: str, limit: int = MAX_FILE_BYTES, missing: str = "CONTENT-MISSING") -> str:
    """The text of `path`, or a DiagnosticError (code `missing` when there is nothing to read at that name,
    IO-ERROR when the system cannot read what is there)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError) as err:
        raise DiagnosticError([_unread(missing, shown, err)]) from None
    if not stat.S_ISREG(info.st_mode):
        what = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise DiagnosticError([Diagnostic(missing, f"cannot read {shown}: it is {what}", Span(shown, 1, 1))])
    if info.st_size > limit:
        raise DiagnosticError([_too_large(shown, limit)])
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise DiagnosticError([_unread(missing, shown, err)]) from None
    if len(data) > limit:  # it grew while we looked
        raise DiagnosticError([_too_large(shown, limit)])
    return decode(data, shown)


def decode(data: bytes, shown: str) -> str:
    """UTF-8 bytes to text; anything else is an ENCODING diagnostic at the first bad byte."""
    for bom, name in _BOMS.items():
        if data.startswith(bom):
            raise DiagnosticError([Diagnostic("ENCODING", f"the file is {name} (it starts with a {name} byte order mark)",
                                              Span(shown, 1, 1, 2, ""), _HINT)])
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col, src = _byte_position(data, err.start)
        raise DiagnosticError([Diagnostic("ENCODING", f"invalid UTF-8: the byte 0x{data[err.start]:02x} is not text here",
                                          Span(shown, line, col, col + 1, src), _HINT)]) from None
    bad = _CONTROL.search(text)
    if bad:
        raise DiagnosticError([control_character(shown, text, bad.start())])
    return text


def control_character(shown: str, text: str, index: int) -> Diagnostic:
    line, col, src = char_position(text, index)
    return Diagnostic("ENCODING", f"binary data: the control character U+{ord(text[index]):04X} is not text",
                      Span(shown, line, col, col + 1, src), "content, rules, scenarios and logs are UTF-8 text")


def char_position(text: str, index: int) -> tuple[int, int, str]:
    """1-based line and column of text[index], and that line made safe to print."""
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    end = len(text) if end < 0 else end
    return text.count("\n", 0, index) + 1, index - start + 1, printable(text[start:end])


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str, limit: int) -> int:
    """How deep brackets nest outside strings in JSON text, counted without recursion (json.loads recurses and
    fails past Python's recursion limit); counting stops once it passes `limit`."""
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        depth += 1 if ch in "[{" else -1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                break
    return deepest


def _byte_position(data: bytes, index: int) -> tuple[int, int, str]:
    start = data.rfind(b"\n", 0, index) + 1
    end = data.find(b"\n", index)
    end = len(data) if end < 0 else end
    col = len(data[start:index].decode("utf-8", "replace")) + 1
    return data.count(b"\n", 0, index) + 1, col, printable(data[start:end].decode("utf-8", "replace"))


def printable(line: str) -> str:
    """A source line safe to echo to a terminal: control characters become '?', one column each."""
    return _CONTROL.sub("?", line.rstrip("\r"))


def _too_large(shown: str, limit: int) -> Diagnostic:
    return Diagnostic("INPUT-LIMIT", f"{shown} is larger than {limit // (1024 * 1024)} MiB",
                      Span(shown, 1, 1), "split it into several files")


def _unread(missing: str, shown: str, err: Exception) -> Diagnostic:
    if isinstance(err, OSError) and err.errno not in _NOTHING_THERE:
        return io_error("read", shown, err, span=Span(shown, 1, 1))
    return Diagnostic(missing, f"cannot read {shown}: {_reason(err)}", Span(shown, 1, 1))


def _reason(err: Exception) -> str:
    text = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
    return text[:1].lower() + text[1:]


def write_file(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path` without ever writing through what lies there: a new file in the same
    folder (created exclusively, never following a link), renamed into place, so that a symbolic link
    planted at the name (in a shared folder, aimed at the writer's own files) is replaced, not followed.
    A symbolic link already there is refused outright; a character device (/dev/null, /dev/full) is
    written as it is; anything else that is not a regular file is refused. Failures are OSError."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise OSError(errno.ELOOP, "it is a symbolic link, which is not written through", str(path))
    if info is not None and stat.S_ISCHR(info.st_mode):
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "it is not a regular file", str(path))
    folder = path.parent
    temp = folder / f".{path.name[:64]}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)  # a rename: whatever now lies at `path`, link or file, is replaced, never followed
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
