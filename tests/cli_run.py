"""Running the `rules` command inside a test: its exit code and output, never a traceback."""
from __future__ import annotations

from interpreter.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err
