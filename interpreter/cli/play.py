"""`rules play`: one game at the terminal or between bots, which is never lost.

Any interruption (Ctrl-C, SIGTERM, SIGHUP, the input ending) writes the log of the game so far,
marked unfinished, to `--log FILE`; a game with a person at the table is also copied there before
each of their decisions, so even a killed process leaves it. Without `--log`, a person's game is
kept in the user's data folder (`$XDG_DATA_HOME/rules/unfinished/`, else `~/.local/share/...`) and
the file is named at exit; the copy is removed when the game ends. A game of bots alone without
`--log` is not written: the same command plays it again. `--resume LOG` goes on with a log's game,
its seats, seed, variants and language, and keeps writing to LOG unless `--log` says otherwise.
"""
from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from dsl.inputs import io_error
from dsl.translations import text_in
from interpreter.agents.match import Match
from interpreter.agents.players import AGENT_KINDS, InputEnded, parse_agent_args
from interpreter.present.phrases import say
from interpreter.runtime.gamelog import check_log_path, check_undone, game_of, read_log, write_log
from interpreter.runtime.games import CONTENT_DIRS, default_game, load_compiled, locate
from interpreter.runtime.session import Session

DEFAULT_SEED, DEFAULT_AGENTS = 1, "random"
EXIT_AFTER = {"interrupt": 130, "terminate": 128 + 15, "hangup": 128 + 1, "end of input": 1}


class Output:
    """The game's account for the terminal. A write that fails is kept and raised between decisions, by the
    command, so that a closed pipe or a full disk is never reported as an error of a line of rules."""

    def __init__(self):
        self.failure: OSError | None = None

    def say(self, text: str) -> None:
        if self.failure is None:
            try:
                print(text)
            except OSError as err:
                self.failure = err

    def check(self) -> None:
        if self.failure is not None:
            raise self.failure


class Stop(BaseException):
    """A signal to end the game (SIGTERM, SIGHUP). A BaseException, as KeyboardInterrupt is, so that the
    engine's handling of content errors never takes it for one."""

    def __init__(self, reason: str):
        self.reason = reason


def game_ref(name: str) -> str:
    root = locate(name)
    return root.name if any(root.parent == d.resolve() for d in CONTENT_DIRS) else str(root)


def seat_count(game, requested: int | None) -> int:
    spec = game.content.manifest["players"]
    if requested is not None:
        if not spec["min"] <= requested <= spec["max"]:
            raise DiagnosticError([Diagnostic("USAGE", f"--players {requested}: {game.content.id} is for {spec['min']} to {spec['max']} players")])
        return requested
    return spec.get("default") or spec["min"]


def seat_agents(game, requested: int | None, kinds: list, option: str = "--agents") -> tuple:
    """(players, one agent kind per seat) from `--players` and `--agents`. One agent kind sits at every seat;
    several name the seats in order: their number is the number of players unless `--players` says otherwise,
    and then the last repeats over the seats they leave (never fewer seats than agents named)."""
    if len(kinds) <= 1 or requested is not None:
        players = seat_count(game, requested)
        if len(kinds) > players:
            raise DiagnosticError([Diagnostic("USAGE", f"{option} names {len(kinds)} agents for {players} players",
                                              hint=f"name at most {players}, or give --players {len(kinds)}")])
        return players, (kinds + [kinds[-1]] * players)[:players]
    spec = game.content.manifest["players"]
    if not spec["min"] <= len(kinds) <= spec["max"]:
        raise DiagnosticError([Diagnostic("USAGE", f"{option} names {len(kinds)} agents: {game.content.id} is for {spec['min']} "
                                          f"to {spec['max']} players", hint="name one agent per seat, or give --players N "
                                          "(the last agent then sits at the seats left)")])
    return len(kinds), list(kinds)


def choose_language(game, asked: str | None) -> str:
    """--lang, else the environment's locale when the game is written in it, else the rule text's language."""
    languages = game.content.vocabulary.languages
    if asked is not None:
        if asked not in languages:
            raise DiagnosticError([Diagnostic("USAGE", f"--lang {asked}: {game.content.id} is played in {', '.join(languages)}")])
        return asked
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in languages else languages[0]
    return languages[0]


def result_lines(session: Session, lang: str) -> str:
    result = session.result
    name = [say(lang, "player", n=i + 1) for i in range(session.state.players)]
    return "\n".join([
        say(lang, "final scores", scores=", ".join(say(lang, "score", player=name[i], score=s) for i, s in enumerate(result.scores))),
        say(lang, "winner", winners=", ".join(name[w] for w in result.winners) or say(lang, "nobody")),
        say(lang, "decisions", n=len(session.history)),
    ])


def cmd_play(args) -> int:
    if args.resume is not None:
        return _resume(args)
    args.game = args.game or default_game()
    game = load_compiled(args.game)
    agents = args.agents if args.agents is not None else DEFAULT_AGENTS
    kinds = [k.strip() for k in agents.split(",") if k.strip()]
    if not kinds or any(k not in AGENT_KINDS for k in kinds):
        raise DiagnosticError([Diagnostic("USAGE", f"--agents '{agents}': name an agent per seat", hint=f"agents are: {', '.join(AGENT_KINDS)}")])
    players, kinds = seat_agents(game, args.players, kinds)
    options = parse_agent_args(args.agent_arg)
    if args.log:
        check_log_path(args.log)
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    return _play(args, game, game_ref(args.game), players, seed, tuple(args.variant), kinds, options,
                 choose_language(game, args.lang), args.log, [], [])


def _resume(args) -> int:
    """The game of an unfinished log, as it was: its seats, seed, variants and language (`--lang` may change
    the language, which changes no state); a forged or stale log is refused before anything is played."""
    given = [flag for flag, value in (("GAME", args.game), ("--players", args.players), ("--seed", args.seed),
                                      ("--variant", args.variant), ("--agents", args.agents), ("--agent-arg", args.agent_arg))
             if value]
    if given:
        raise DiagnosticError([Diagnostic("USAGE", f"--resume plays the log's game as it was: {', '.join(given)} cannot be given with it",
                                          hint="the log names the game, its seats, seed and variants")])
    path = args.resume
    log = read_log(path)
    game = game_of(log)  # by its folder or its name, from any working directory
    if game.content.content_hash != log["content_hash"]:
        raise DiagnosticError([Diagnostic("LOG-MISMATCH", f"{path}: the content of {log['game']} changed since the log was written "
                                          f"(content hash {log['content_hash']}, now {game.content.content_hash})", None,
                                          "its decisions may mean something else now; `rules replay --allow-changed-content` shows how far they go")])
    spec = game.content.manifest["players"]
    if not spec["min"] <= log["players"] <= spec["max"] or set(log["variants"]) - set(game.content.vocabulary.variants):
        raise DiagnosticError([Diagnostic("LOG-GAME", f"{path}: {log['players']} players or the variants {log['variants']} do not fit {game.content.id}")])
    undone = check_undone(log, game)  # the undos replayed as `rules replay` replays them, before anything is written
    if undone:
        raise DiagnosticError([Diagnostic("LOG-MISMATCH", f"{path}: {undone}", None,
                                          "the log was changed, or written by other content: `rules replay` it to see")])
    kinds = log.get("seats") or [DEFAULT_AGENTS] * log["players"]
    wrong = [f"seat {i + 1} is '{k}'" for i, k in enumerate(kinds) if k not in AGENT_KINDS]
    if len(kinds) != log["players"] or wrong:
        raise DiagnosticError([Diagnostic("LOG-SCHEMA", f"{path}: seats must name an agent for each of the {log['players']} players"
                                          + (f" ({wrong[0]})" if wrong else f", not {len(kinds)}"), None, f"agents are: {', '.join(AGENT_KINDS)}")])
    try:
        options = parse_agent_args([f"{k}={v}" for k, v in (log.get("agent_args") or {}).items()])
    except DiagnosticError as err:
        raise DiagnosticError([Diagnostic("LOG-SCHEMA", f"{path}: agent_args: {err.diagnostics[0].message}")]) from None
    lang = args.lang or log.get("lang")
    if lang is not None and lang not in game.content.vocabulary.languages and not args.lang:
        raise DiagnosticError([Diagnostic("LOG-SCHEMA", f"{path}: lang '{lang}': {game.content.id} is played in "
                                          f"{', '.join(game.content.vocabulary.languages)}")])
    target = args.log or path
    check_log_path(target)
    return _play(args, game, log["game"], log["players"], log["seed"], tuple(log["variants"]), kinds, options,
                 choose_language(game, lang), target, log["decisions"], list(log.get("undone") or []), log=log, source=str(path))


def _play(args, game, ref: str, players: int, seed: int, variants: tuple, kinds: list, options: dict, lang: str,
          target: Path | None, decisions: list, undone: list, log: dict | None = None, source: str = "") -> int:
    humans = {i for i, k in enumerate(kinds) if k == "human"}
    reader = next(iter(humans)) if len(humans) == 1 else None  # lines to everyone, through the one person's view
    out = Output()

    def tell(to, text, agents, replaying):
        if args.quiet or not (to is None or to in humans):
            return
        line = ("" if to is None else say(lang, "to you" if to == reader else "to player",
                                          player=say(lang, "player", n=to + 1)) + " ") + text
        if humans:  # a person reads what happened at the top of their next decision's screen
            for seat in humans:
                if to is None or to == seat:
                    agents[seat].hear(line)
        elif not replaying:  # a resumed game's account was printed when it was played
            out.say("  " + line)

    manifest = game.content.manifest
    print(say(lang, "header", name=text_in(manifest["name"], lang), players=players, seed=seed) +
          (say(lang, "header variants", variants=", ".join(game.content.translations.word(lang, v) for v in variants))
           if variants else ""))
    match = Match(game, players, seed, variants, kinds, options, lang, reader, tell, undone=undone)
    keep = target or (_default_log(game.content.id) if humans else None)  # where the game so far is written
    saved: list = []  # the autosave's failure, said once

    def save():
        if keep is not None and not saved:
            try:
                write_log(match.log(ref, "saved"), keep)
            except DiagnosticError as err:  # the game goes on; the failure is told once
                saved.append(err)
                print(err.diagnostics[0].render(), file=sys.stderr)

    previous = _catch_signals()
    started = False  # a resumed log is written over only once its game is rebuilt and checked
    try:
        match.start(decisions, source)
        if log is not None:
            _check_resumed(match, log, source)
            print(say(lang, "resumed", n=len(decisions)))
        started = True
        out.check()
        match.play(check=out.check, save=save)
    except InputEnded:
        _stopped(match, ref, keep, "end of input", lang)
        raise
    except (KeyboardInterrupt, Stop) as why:
        reason = why.reason if isinstance(why, Stop) else "interrupt"
        if started:
            _stopped(match, ref, keep, reason, lang)
        return EXIT_AFTER[reason]
    except DiagnosticError as err:
        if target and match.session is not None and (started or log is None):
            # the decisions up to the error, so that it can be replayed and explained
            record = match.log(ref)
            record["error"] = err.diagnostics[0].to_json()
            write_log(record, target)
            print(f"log (up to the error) written to {target}", file=sys.stderr)
        raise
    finally:
        _restore_signals(previous)
    for seat in sorted(humans):
        match.agents[seat].flush()
    print(result_lines(match.session, lang))
    if target:
        write_log(match.log(ref), target)
        print(f"log written to {target}")
    elif keep is not None and saved == []:
        _remove(keep)  # the game ended: no copy of it to go on with is needed
    return 0


def _check_resumed(match: Match, log: dict, source: str) -> None:
    """A resumed log must leave its game asking, in the state the log says it was left in."""
    session = match.session
    if session.pending is None:
        raise DiagnosticError([Diagnostic("USAGE", f"{source}: the game is over after its {len(log['decisions'])} decisions; nothing to resume",
                                          hint="`rules replay` shows it")])
    if session.state.digest() != log["final_state"]:
        raise DiagnosticError([Diagnostic("LOG-MISMATCH", f"{source}: after its {len(log['decisions'])} decisions the state is "
                                          f"{session.state.digest()}, the log says {log['final_state']}", None,
                                          "the log was changed, or written by other content: `rules replay` it to see")])


def _stopped(match: Match, ref: str, keep: Path | None, reason: str, lang: str) -> None:
    """The game stopped before its end: its log, marked unfinished, where it is kept, and where that is."""
    if match.session is None:
        return
    old = _ignore_interrupts()  # a second Ctrl-C must not cut the log short
    if reason == "hangup":
        _silence()  # the terminal is gone: nothing more is written to it, not even at exit
    try:
        try:
            print("\n" + say(lang, "interrupted", n=len(match.session.history)), file=sys.stderr)
        except OSError:  # the terminal is gone (SIGHUP)
            pass
        if keep is None:
            return
        try:
            write_log(match.log(ref, reason), keep)
            message = say(lang, "game saved", path=keep)
        except DiagnosticError as err:
            message = say(lang, "game not saved", why=err.diagnostics[0].message)
        try:
            print(message, file=sys.stderr)
        except OSError:
            pass
    finally:
        _restore_signals(old)


def _silence() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
    except (OSError, ValueError, AttributeError):  # not real files (tests capture them)
        pass


def _default_log(game_id: str) -> Path | None:
    """A new file in the user's data folder for a person's game played without --log (None if there is none)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    folder = None
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
        folder = root / "rules" / "unfinished"
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError) as err:  # no home, a read-only one
        print(io_error("keep the game in", str(folder) if folder else "the data folder", getattr(err, "strerror", None) or str(err),
                       hint="give it a file with --log FILE").render(), file=sys.stderr)
        return None
    return folder / f"{game_id}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json"


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:  # never written (no person was asked) or already gone
        pass


_SIGNALS = {"SIGTERM": "terminate", "SIGHUP": "hangup"}


def _catch_signals() -> dict:
    """SIGTERM and SIGHUP stop the game as Ctrl-C does (its log is written); the handlers are put back after."""
    def stop(signum, frame):
        raise Stop(next(r for name, r in _SIGNALS.items() if getattr(signal, name, None) == signum))
    previous = {}
    for name in _SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            try:
                previous[number] = signal.signal(number, stop)
            except (ValueError, OSError):  # not the main thread
                pass
    return previous


def _ignore_interrupts() -> dict:
    previous = {}
    for number in [signal.SIGINT] + [getattr(signal, n) for n in _SIGNALS if hasattr(signal, n)]:
        try:
            previous[number] = signal.signal(number, signal.SIG_IGN)
        except (ValueError, OSError):
            pass
    return previous


def _restore_signals(previous: dict) -> None:
    for number, handler in previous.items():
        try:
            signal.signal(number, handler if handler is not None else signal.SIG_DFL)
        except (ValueError, OSError):
            pass
