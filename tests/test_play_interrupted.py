"""A game at the terminal is never lost (issue 22, section 1), on a pseudo-terminal that is the game's
controlling terminal, so that Ctrl-C is the terminal's own interrupt and Ctrl-D its end of input:
the game so far is written as an unfinished log that replays and explains, `--resume` goes on to the
end an uninterrupted game reaches with the same answers, and `undo` takes the person back."""
from __future__ import annotations

import fcntl
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.cli_run import run as run_rules

ROOT = Path(__file__).resolve().parent.parent
GAME = ["kings_bounty", "--players", "3", "--seed", "5", "--lang", "en"]  # P1 is asked several times in a row, then among bots

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")


def at_a_terminal(args: list[str], inputs: list, limit: float = 120.0, size: tuple | None = None) -> tuple[int, str]:
    """`rules ARGS` on a pseudo-terminal (of `size`: rows, columns, when given): each `> ` gets the next of `inputs`
    (then "0"); an input of "\\x03" (Ctrl-C) or "\\x04" (Ctrl-D) is typed as it is; "SIGTERM" sends the game that
    signal, "HANG UP" closes the terminal, ("RESIZE", rows, columns) resizes it (the kernel sends SIGWINCH). The
    exit code and the screen. The game fails the test if it writes nothing for `limit` seconds (a loaded machine
    may be slow as a whole, but a game that hangs goes silent)."""
    main, sub = os.openpty()
    if size is not None:
        resize(sub, *size)
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="120", PYTHONPATH=str(ROOT))

    def controlling_terminal():  # the new session's terminal: Ctrl-C there interrupts the game
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-c", "import sys; from interpreter.cli import main; sys.exit(main())", *args],
                            stdin=sub, stdout=sub, stderr=sub, cwd=ROOT, env=env, close_fds=True,
                            start_new_session=True, preexec_fn=controlling_terminal)
    os.close(sub)
    screen, answered, queue = b"", 0, list(inputs)
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the other end closed
                    break
                if not chunk:
                    break
                screen += chunk
                deadline = time.monotonic() + limit
                text = screen.decode("utf-8", "replace")
                if text.count("\n> ") + text.startswith("> ") > answered and text.rstrip(" ").endswith(">"):
                    typed = queue.pop(0) if queue else "0"
                    answered += 1
                    if isinstance(typed, tuple):  # ("RESIZE", rows, columns): the screen comes again, then a prompt
                        resize(main, typed[1], typed[2])
                    elif typed == "SIGTERM":
                        proc.send_signal(signal.SIGTERM)
                    elif typed == "HANG UP":  # the terminal goes away: its session is sent SIGHUP
                        os.close(main)
                        main = None
                        break
                    else:
                        os.write(main, typed.encode() if typed in ("\x03", "\x04") else (typed + "\n").encode())
            elif proc.poll() is not None:
                break
        else:
            raise AssertionError(f"the game wrote nothing for {limit:.0f} s ({signal_state(proc.pid)}):\n" +
                                 screen.decode("utf-8", "replace")[-2000:])
        code = proc.wait(timeout=limit)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if main is not None:
            os.close(main)
    return code, screen.decode("utf-8", "replace").replace("\r\n", "\n")


def signal_state(pid: int) -> str:
    """What the kernel says of a silent game's process and its signals (blocked, ignored, pending), so that a
    game that hangs says why."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "no /proc status"
    return ", ".join(line.replace("\t", " ") for line in status.splitlines() if line.split(":")[0] in
                     ("State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"))


def resize(fd: int, rows: int, columns: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


@pytest.fixture
def run(capsys):
    """`rules ARGV` in this process: its exit code, and what it wrote to stdout and stderr."""
    def rules(*argv) -> tuple[int, str]:
        code, out, err = run_rules(capsys, *argv)
        return code, out + err
    return rules


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory) -> dict:
    """The game played through at the terminal, answering every question with its first option."""
    log = tmp_path_factory.mktemp("whole") / "whole.json"
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random", "--log", str(log)], [])
    assert code == 0, screen[-2000:]
    assert "Final scores:" in screen
    return load(log)


def replays_unfinished(run, log: Path) -> int:
    """The unfinished log replays (exit 0, 'unfinished') and explains (exit 0); its number of decisions."""
    data = load(log)
    code, out = run("replay", str(log), "--quiet")
    assert code == 0, out
    n = len(data["decisions"])
    assert f"OK: unfinished, reproduced up to decision {n}" in out and "P1 is asked next" in out
    code, out = run("explain", str(log))
    assert code == 0, out
    return n


def test_ctrl_c_mid_game_writes_the_game_so_far(tmp_path, whole_game, run):
    log = tmp_path / "game.json"
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random", "--log", str(log)], ["0", "0", "0", "\x03"])
    assert code == 130, screen[-2000:]
    assert f"The game so far is saved in {log}" in screen and f"rules play --resume {log}" in screen
    assert "Traceback" not in screen
    data = load(log)
    assert data["unfinished"] == {"reason": "interrupt"}
    assert data["seats"] == ["human", "random", "random"] and data["lang"] == "en"
    assert replays_unfinished(run, log) == 5  # two bots' decisions, then the person's three
    assert data["decisions"] == whole_game["decisions"][:5]


def test_ctrl_d_without_log_keeps_the_game_in_the_data_folder(tmp_path, run):
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random"], ["0", "0", "\x04"])
    assert code == 1, screen[-2000:]
    assert "error[RUN-ERROR]: the input ended before P1 answered" in screen
    saved = Path(re.search(r"The game so far is saved in (\S+)", screen).group(1))
    assert saved.is_relative_to(os.environ["XDG_DATA_HOME"]) and saved.parent.name == "unfinished"
    assert load(saved)["unfinished"] == {"reason": "end of input"}
    assert replays_unfinished(run, saved) == 4


def test_resume_goes_on_to_the_end_of_the_uninterrupted_game(tmp_path, whole_game, run):
    log, done = tmp_path / "game.json", tmp_path / "done.json"
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random", "--log", str(log)], ["0", "0", "0", "0", "\x03"])
    assert code == 130, screen[-2000:]
    code, screen = at_a_terminal(["play", "--resume", str(log), "--log", str(done)], [])
    assert code == 0, screen[-2000:]
    assert "Resumed after decision 6" in screen and "--- P1, your decision ---" in screen
    final = load(done)
    # the bots drew on from where they were: the same decisions, the same end
    assert final["decisions"] == whole_game["decisions"]
    assert (final["final_state"], final["result"]) == (whole_game["final_state"], whole_game["result"])
    assert "unfinished" not in final
    code, out = run("replay", str(done), "--quiet")
    assert code == 0 and "reproduces the logged game exactly" in out, out


def test_undo_twice_then_the_same_answers_reach_the_same_end(tmp_path, whole_game, run):
    log = tmp_path / "game.json"
    # undo at the first decision has nothing to take back; later, the person answers "1" twice, the bots
    # playing after each, takes both back (in English, then in Russian) and answers as before
    inputs = ["undo"] + ["0"] * 7 + ["1", "1", "undo", "отменить"]
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random", "--log", str(log)], inputs)
    assert code == 0, screen[-2000:]
    assert "nothing to undo: this is your first decision" in screen
    assert screen.count("(undone: back to your previous decision)") == 2
    data = load(log)
    assert data["decisions"] == whole_game["decisions"]
    assert (data["final_state"], data["result"]) == (whole_game["final_state"], whole_game["result"])
    first, second = data["undone"]
    assert first["by"] == second["by"] == "P1" and second["after"] < first["after"]
    # the first undo took back the bots' answers after the person's too
    assert len(first["decisions"]) > 1
    code, out = run("replay", str(log), "--quiet")
    assert code == 0 and "2 undos checked" in out, out


@pytest.mark.parametrize("how,stops", [("SIGTERM", {"terminate": 143}),
                                       # the closed terminal sends SIGHUP and ends the input: whichever the game meets first
                                       ("HANG UP", {"hangup": 129, "end of input": 1})])
def test_a_signal_or_a_closed_terminal_leaves_the_game_so_far(tmp_path, run, how, stops):
    log = tmp_path / "game.json"
    code, screen = at_a_terminal(["play", *GAME, "--agents", "human,random", "--log", str(log)], ["0", how])
    reason = load(log)["unfinished"]["reason"]
    assert stops.get(reason) == code, (reason, code, screen[-2000:])
    assert replays_unfinished(run, log) == 3


def test_an_interrupt_half_way_through_a_step_logs_the_state_a_replay_reaches(kb):
    """Ctrl-C may land while an answer is being applied, with the state half-way through a step: the log
    holds the state of a clean replay of the answers, which `rules replay` and `--resume` reach."""
    from interpreter.agents.match import Match
    from interpreter.runtime.gamelog import replay

    def tell(to, text, agents, replaying):
        if not replaying and len(match.session.history) >= 12 and match.busy:
            raise KeyboardInterrupt  # as Ctrl-C would, in the middle of a step after decision 12
    match = Match(kb, 3, 5, (), ["random"] * 3, {}, "en", None, tell)
    match.start()
    with pytest.raises(KeyboardInterrupt):
        match.play()
    answered = len(match.session.history)
    assert match.busy and answered >= 12
    log = match.log("kings_bounty", "interrupt")
    outcome = replay(log)
    assert outcome.matches, outcome.reason
    assert outcome.reason.startswith(f"unfinished, reproduced up to decision {len(log['decisions'])}")
    assert len(log["decisions"]) in (answered - 1, answered)  # the answer being applied, unless it is what stopped the game


RACE = """
import os, signal, sys, threading, time
from interpreter.agents.players import wait_for_a_line
thread = threading.Thread(target=lambda: (time.sleep(0.3), os.kill(os.getpid(), signal.SIGINT)))
thread.start()
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])  # the thread takes it: the main thread's read goes on
try:
    wait_for_a_line(sys.stdin)
    sys.stdin.readline()
    print("read a line")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signal masks")
def test_a_ctrl_c_that_does_not_interrupt_the_read_still_stops_the_wait():
    """Python handles a signal between steps of the program: a Ctrl-C that comes between the prompt and the read
    (here: one that another thread takes, so the blocking read is not interrupted either) is acted on within a
    second at a terminal, not after the person's next line."""
    main, sub = os.openpty()
    proc = subprocess.Popen([sys.executable, "-c", RACE], stdin=sub, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    os.close(sub)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    finally:
        os.close(main)
    assert out.decode().strip() == "interrupted", out
