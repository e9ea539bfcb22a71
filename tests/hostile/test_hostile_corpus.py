"""The project's hostile-input corpus (issue 7), each case through the real `rules` command.

In-process through `interpreter.cli.main` where that is safe; in a subprocess under a memory limit
for resource bombs, pipes, terminals and anything that could take the test process down. A case
fails on a traceback, on running past its time limit, on exit 0 where an error is expected (or the
wrong exit code), on a missing diagnostic code or position, on showing anything of the file that
lies outside the game folder, on unbounded output, and on writing into the project.
"""
from __future__ import annotations

import copy
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import hostile_budgets
import hostile_cache
import hostile_content
import hostile_runs
import pytest
from hostile_case import SECRET, SECRET_TEXT, Case, run_rules


HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BASE = HERE / "base_game"
CASES = hostile_content.CASES + hostile_runs.CASES + hostile_cache.CASES + hostile_budgets.CASES
MEMORY_LIMIT = 1536 * 2 ** 20  # bytes of address space for a subprocess case
MAX_OUTPUT = 200_000  # characters: a diagnostic quotes one line, never a whole file


def test_the_corpus_covers_every_class():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "case names are unique"
    assert len(CASES) >= 150
    assert {c.cls for c in CASES} == set(range(1, 10))
    assert hostile_runs.RUNTIME_LIMITS_XFAIL <= set(names)


def _params():
    xfail = pytest.mark.xfail(strict=True, reason="run-time limits: new compiler")
    for case in CASES:
        yield pytest.param(case, id=case.name, marks=[xfail] if case.name in hostile_runs.RUNTIME_LIMITS_XFAIL else [])


@pytest.mark.parametrize("case", list(_params()))
def test_hostile_input(case: Case, tmp_path: Path, base_log: dict):
    for module in case.needs:
        pytest.importorskip(module, reason=f"{case.name} needs {module} (an optional extra; .ci/run installs it)")
    fill = _filler(tmp_path)
    _prepare(case, tmp_path, base_log, fill)
    before = {rel: (ROOT / rel).read_bytes() for rel in hostile_runs.PROJECT_FILES_UNCHANGED}
    argv = tuple(fill(a) for a in case.argv)
    if case.subprocess:
        code, out, err = _subprocess(case, argv, fill, tmp_path)
    else:
        (code, out), err = run_rules(argv, case.stdin, case.timeout), None
    _check(case, code, out, err)
    if case.name in hostile_budgets.VICTIMS:  # a link's target is never written through
        assert (tmp_path / hostile_budgets.VICTIMS[case.name]).read_text() == "VICTIM-UNCHANGED\n"
    for rel, data in before.items():
        assert (ROOT / rel).read_bytes() == data, f"the command wrote into the project: {rel}"


def _filler(folder: Path):
    values = {"{tmp}": str(folder), "{game}": str(folder / "game"), "{log}": str(folder / "log.json")}

    def fill(text: str) -> str:
        for key, value in values.items():
            text = text.replace(key, value)
        return text
    return fill


def _prepare(case: Case, folder: Path, base_log: dict, fill) -> None:
    shutil.copytree(BASE, folder / "game")
    (folder / "secret.txt").write_text(SECRET_TEXT, encoding="utf-8")
    for rel, content in case.files:
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else fill(content).encode("utf-8"))
    for rel, old, new in case.edits:
        path = folder / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{case.name}: the base game no longer has {old!r} in {rel}"
        text = text.replace(old, fill(new), 1) if old else text + fill(new)
        path.write_text(text, encoding="utf-8")
    for rel, target in case.links:
        (folder / rel).symlink_to(fill(target))
    if case.setup:
        case.setup(folder)
    if case.log:
        log = copy.deepcopy(base_log)
        log["game"] = log["folder"] = str(folder / "game")  # the log names its game by both (runtime.gamelog)
        data = case.log(log)
        if isinstance(data, dict):
            data = json.dumps(data, ensure_ascii=False, indent=1)
        (folder / "log.json").write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def _memory_limit(case: Case):
    limit = case.memory_mib * 2 ** 20 if case.memory_mib else MEMORY_LIMIT

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return limit_memory


def _subprocess(case: Case, argv: tuple, fill, folder: Path) -> tuple:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for name, value in case.env:
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    rules = f"{shlex.quote(sys.executable)} -m interpreter.cli"
    command = ["bash", "-c", f'rules() {{ {rules} "$@"; }}\n{fill(case.shell)}'] if case.shell else \
        [sys.executable, "-m", "interpreter.cli", *argv]
    try:
        proc = subprocess.run(command, input=case.stdin.encode(), capture_output=True, timeout=case.timeout,
                              env=env, cwd=folder, preexec_fn=_memory_limit(case))
    except subprocess.TimeoutExpired as exc:
        return "time limit", _text(exc.stdout) + _text(exc.stderr), _text(exc.stderr)
    return proc.returncode, _text(proc.stdout) + _text(proc.stderr), _text(proc.stderr)


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", "replace")


def _check(case: Case, code, out: str, err: str | None) -> None:
    shown = out if len(out) < 4000 else out[:2000] + "\n...\n" + out[-2000:]
    assert code != "time limit", f"no answer within {case.timeout} s:\n{shown}"
    assert code != "traceback" and "Traceback" not in out and "Exception ignored" not in out, shown
    assert SECRET not in out and "root:x:0:0" not in out, f"a file outside the game folder was shown:\n{shown}"
    assert len(out) < MAX_OUTPUT, f"{len(out)} characters of output"
    if case.exit is not None:
        assert code == case.exit, f"exit {code}, expected {case.exit}:\n{shown}"
    elif case.expect:
        assert isinstance(code, int) and code != 0, f"exit {code} where an error was expected:\n{shown}"
    else:
        assert code == 0, f"exit {code}:\n{shown}"
    if case.expect:
        assert any(f"[{c}]" in out for c in case.expect.split("|")), f"no error[{case.expect}] in:\n{shown}"
    if case.where:
        assert case.where in out, f"no {case.where!r} in:\n{shown}"
    if case.text:
        assert case.text in out, f"no {case.text!r} in:\n{shown}"
    if err is not None and case.expect is None and case.exit == 0:
        assert err.strip() == "", f"a successful command wrote to stderr:\n{err[:2000]}"
