"""The `rules` command: validate, play, simulate, ladder, replay, explain, test, schema, compile, fmt, lsp.

Exit codes: 0 ok, 1 content errors (or a replay that does not match, or failing scenarios), 2 usage.
"""
from __future__ import annotations

import argparse
import errno
import gc
import json
import os
import sqlite3
import sys
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from dsl.inputs import io_error
from dsl.loader import find_game_root, load_game
from dsl.vocabulary import record_schema
from interpreter.core.decisions import IllegalDecision, player_label
from interpreter.runtime.games import PROJECT_ROOT, known_games, load_compiled, locate
from dsl.paths import shown_path
from dsl.plurals import plural

# Each command imports the rest of what it runs in its own function: a cold `rules validate` (which an editor
# or CI runs often) then loads neither the players, the presentation nor the scenarios.


def main(argv: list[str] | None = None) -> int:
    if sys.stderr is None:  # started with stderr closed (2>&-): diagnostics go nowhere rather than fail
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the life of the process
    if sys.stdout is None:  # started with stdout closed (>&-): Python gives us no stream at all
        print(io_error("write the output", "(standard output)", "it is closed",
                       hint="give the command somewhere to write, such as > FILE or > /dev/null").render(), file=sys.stderr)
        return 1
    _replace_unprintable()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        code = args.handler(args)
        sys.stdout.flush()  # output problems surface here, not at exit
        return code
    except DiagnosticError as err:
        for text in rendered(err.diagnostics):
            print(text, file=sys.stderr)
        return 2 if all(d.code == "USAGE" for d in err.diagnostics) else 1
    except KeyboardInterrupt:
        return 130
    except MemoryError:  # the budgets keep content far from this; a machine short of memory is told so
        print(Diagnostic("RUN-ERROR", "out of memory: the command needed more memory than this machine gives it").render(),
              file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader (e.g. `| head`) stopped listening: end quietly
        _silence_stdout()
        return 0
    except OSError as err:
        # Files are read and logs written with their own diagnostics; what is left is the output itself.
        if err.errno in _OUTPUT_ERRORS:  # a full disk, /dev/full: the command's problem, never a line of content's
            _silence_stdout()
            print(io_error("write the output", "(standard output)", err).render(), file=sys.stderr)
        else:
            print(io_error("read or write", str(err.filename) if err.filename else "a file", err).render(), file=sys.stderr)
        return 1


_OUTPUT_ERRORS = {errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG}


def _replace_unprintable() -> None:
    """A terminal that cannot show a character (LANG=C) gets '?' instead of an error."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding and encoding != "utf8" and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")


def _silence_stdout() -> None:
    """Nothing more reaches a closed or full stdout, not even Python's flush at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture it)
        pass


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rules", description="Validate, play, simulate and replay tabletop games written in the rules language.")
    sub = p.add_subparsers(dest="command")

    v = sub.add_parser("validate", help="check content folders and report every error", description="Check game folders (or files inside them): YAML, schemas, rule text, names and types. Exit 0 when clean, 1 with errors.")
    v.add_argument("paths", nargs="*", help="game folders or files inside them (default: every game under content/)")
    v.add_argument("--json", action="store_true", help="print diagnostics as JSON")
    v.set_defaults(handler=cmd_validate)

    pl = sub.add_parser("play", help="play one game and tell what happens", description="Play one game. With no options: a complete bot game of the default game, with a readable account and the final scores.")
    pl.add_argument("game", nargs="?", help="a folder name under content/ or a path to a game folder (default: the game marked play_by_default)")
    pl.add_argument("--players", type=int, help="number of players (default: the number of agents --agents names, else the game's default)")
    pl.add_argument("--seed", type=int, help="the game's seed (default 1)")
    pl.add_argument("--variant", action="append", default=[], help="a variant of the game; repeat for several")
    pl.add_argument("--agents", help="comma-separated agents per seat: random, human, greedy (one move ahead by the game's evaluation) or ismcts (OpenSpiel's information-set MCTS, the openspiel extra), one with settings of its own as ismcts:simulations=50; one agent sits at every seat, several make the players (with --players N, the last repeats)")
    pl.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE", help="a setting of the ismcts agents, e.g. simulations=200; repeat for several")
    pl.add_argument("--log", type=Path, help="write the game log (for replay) to this file; also the game so far if it is interrupted")
    pl.add_argument("--resume", type=Path, metavar="LOG", help="go on with an unfinished game's log: the same game, seats, seed, "
                    "variants and language; the log is written on to LOG unless --log says otherwise")
    pl.add_argument("--quiet", action="store_true", help="print only the result")
    pl.add_argument("--lang", help="the language players read: en or ru (default: the environment's locale when the game has it, else the language its rule text is written in)")
    pl.set_defaults(handler=_cmd_play)

    sm = sub.add_parser("simulate", help="play many bot games", description="Play N games with bots (random agents by default) and report errors, wins by seat, decisions and time.")
    sm.add_argument("game", help="a folder name under content/ or a path to a game folder")
    sm.add_argument("--games", type=int, default=100)
    sm.add_argument("--players", type=int, help="number of players (default: the number of agents --agents names, else the game's default)")
    sm.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i")
    sm.add_argument("--variant", action="append", default=[])
    sm.add_argument("--json", action="store_true", help="print the report as JSON")
    sm.add_argument("--workers", type=int, help="worker processes (default: every core, at most one per 10 games); "
                    "the results are the same for any number")
    sm.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                    help="run the games on Ray: alone, a local Ray; with an address (auto, HOST:6379, ray://HOST:10001), that cluster")
    sm.add_argument("--report", metavar="DIR", help="write a balance report, DIR/report.json and DIR/report.html")
    sm.add_argument("--compare", metavar="VARIANT", help="with --report: play the same games again with this variant added, side by side")
    sm.add_argument("--agents", default="random", help="comma-separated agents per seat: random, greedy or ismcts (the openspiel extra), one with settings of its own as ismcts:simulations=50; one agent sits at every seat, several make the players (with --players N, the last repeats)")
    sm.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE", help="a setting of the ismcts agents, e.g. simulations=20; repeat for several")
    sm.add_argument("--lang", help="the language of the report's names: en or ru (default as for play)")
    sm.set_defaults(handler=cmd_simulate)

    ld = sub.add_parser("ladder", help="rate bots against each other", description="Play N games between the agents named, seats rotated, in parallel as simulate does, and rate them (Bradley-Terry on the Elo scale, with 95 %% bootstrap intervals); the same ratings for a seed whatever the number of workers.")
    ld.add_argument("game", help="a folder name under content/ or a path to a game folder")
    ld.add_argument("--agents", required=True, help="comma-separated agents to rate: random, greedy, ismcts; one with settings of its own as ismcts:simulations=50:horizon=4")
    ld.add_argument("--games", type=int, default=100)
    ld.add_argument("--players", type=int)
    ld.add_argument("--seed", type=int, default=0, help="first seed; game i uses seed+i")
    ld.add_argument("--variant", action="append", default=[])
    ld.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE", help="a setting of every search agent, e.g. simulations=50")
    ld.add_argument("--workers", type=int, help="worker processes (default: every core, at most one per 10 games)")
    ld.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help="run the games on Ray, as for simulate")
    ld.add_argument("--report", metavar="DIR", help="write the balance report of these games with the ladder's table")
    ld.add_argument("--lang", help="the language of the report's names: en or ru")
    ld.add_argument("--json", action="store_true", help="print the ratings as JSON")
    ld.set_defaults(handler=cmd_ladder)

    rp = sub.add_parser("replay", help="replay a game log and check it", description="Replay a log's decisions from its seed; exit 0 if the final state matches, 1 if not.")
    rp.add_argument("log", type=Path)
    rp.add_argument("--quiet", action="store_true")
    rp.add_argument("--as", dest="viewer", metavar="PLAYER", help="tell the game as this player (P1, P2, ...) may see it: public lines and lines to them")
    rp.add_argument("--allow-changed-content", action="store_true", help="replay even if the game's files changed since the log was written")
    rp.add_argument("--lang", help="the language players read: en or ru (default: the environment's locale when the game has it, else the language its rule text is written in)")
    rp.set_defaults(handler=cmd_replay)

    ex = sub.add_parser("explain", help="replay a log and show why things happened", description="Replay a game log with tracing on and print, for every event that triggered abilities, which fired and in what order (the priority key), each thing once per decision; with --why, how the value of an expression came about.")
    ex.add_argument("log", type=Path)
    ex.add_argument("--json", action="store_true")
    ex.add_argument("--allow-changed-content", action="store_true", help="replay even if the game's files changed since the log was written")
    ex.add_argument("--decision", type=int, metavar="N", help="only what happened after decision N (0: before the first), numbered as `rules replay` numbers them")
    ex.add_argument("--event", metavar="NAME", help="only abilities on this event, procedure or function")
    ex.add_argument("--all", action="store_true", help="also modifiers whose condition did not hold")
    ex.add_argument("--why", metavar="EXPR", help="an expression of the rules (players are P1, P2, ...), e.g. 'final_strength(P1)': "
                    "its value and how it came about, part by part, with every modifier and its source")
    ex.add_argument("--at", metavar="N[:STEP|:EVENT[#K]]", help="with --why: on the table after decision N (default: at the end of the "
                    "log); N:STEP before that step of what follows decision N (--steps N lists them), N:EVENT as that "
                    "procedure or event starts after decision N (its K-th call with #K), its parameters readable by EXPR")
    ex.add_argument("--steps", type=int, metavar="N", help="list the steps of what follows decision N (0: the game's start), "
                    "numbered as --at N:STEP takes them")
    ex.add_argument("--lang", help="the language of the names: en or ru (default as for play)")
    ex.set_defaults(handler=cmd_explain)

    ts = sub.add_parser("test", help="run scenario files", description="Run scenario tests (YAML) and report each; exit 1 if any fails.")
    ts.add_argument("paths", nargs="+", type=Path)
    ts.add_argument("--coverage", action="store_true", help="also report which lines of each game's rule text and card "
                    "effects the scenarios executed: per file, with the lines missed")
    ts.add_argument("--listing", type=Path, metavar="DIR", help="with --coverage: write an annotated copy of each rule "
                    "file to DIR (> executed, ! not executed)")
    ts.add_argument("--json", action="store_true", help="print the results (and the coverage) as JSON")
    ts.set_defaults(handler=cmd_test)

    sc = sub.add_parser("schema", help="write a game's component schema for editors", description="Write schemas/games/GAME.schema.json from the game's vocabulary, for editors' YAML validation.")
    sc.add_argument("game")
    sc.add_argument("--check", action="store_true", help="exit 1 if the file on disk is out of date instead of writing it")
    sc.add_argument("--out", type=Path, help="the file to write (needed for a game outside the project's content/)")
    sc.set_defaults(handler=cmd_schema)

    co = sub.add_parser("compile", help="compile a game and show the Python it becomes", description="Compile a game's rule text to Python source (what the interpreter runs) and print it, for debugging.")
    co.add_argument("game")
    co.add_argument("--emit-python", action="store_true", help="print the generated Python source")
    co.set_defaults(handler=cmd_compile)

    fm = sub.add_parser("fmt", help="format .rules files in the language's layout", description="Rewrite .rules files (or every .rules file in the folders named) in the language's one layout: indentation, spaces, blank lines; comments and strings kept. A file that does not parse is reported and left as it is. Exit 0 when done, 1 on errors (with --check: or when a file would change), 2 usage.")
    fm.add_argument("paths", nargs="+", metavar="PATH", help=".rules files or folders holding them; - formats standard input to standard output")
    fm.add_argument("--check", action="store_true", help="change nothing: list the files that would change, exit 1 if any")
    fm.set_defaults(handler=_cmd_fmt)

    ls = sub.add_parser("lsp", help="a language server for editors (LSP over stdio)", description="Start a Language Server Protocol server on standard input and output, for .rules files and a game's YAML files: diagnostics as you type (those of `rules validate`), hover, go to definition, references, rename, quick fixes, formatting, completion, signature help, outline, workspace symbols, folding and semantic tokens. Needs the lsp extra (pygls).")
    ls.set_defaults(handler=cmd_lsp)

    sv = sub.add_parser("serve", help="play games in a web browser", description="Start a web server: a lobby of the games under content/ (and any game folder named), a page per seat, bots on the server, games stored in SQLite. Listens on 127.0.0.1 unless --host says otherwise.")
    sv.add_argument("games", nargs="*", metavar="GAME", help="more game folders (or names under content/) for the lobby")
    sv.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 lets others on the network join)")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--bot-tasks", type=int, default=None, metavar="N",
                    help="bots' decisions worked on at once, for all games together (default: one per processor)")
    sv.add_argument("--db", type=Path, help="the SQLite file the games are kept in (default: $XDG_DATA_HOME/tabletop-rules/games.sqlite3)")
    sv.add_argument("--allow-host", action="append", default=[], metavar="NAME[:PORT]",
                    help="one more name the server answers as (e.g. a proxy's public name); requests naming any other "
                         "host are refused, besides 127.0.0.1, localhost, [::1] and --host; repeat for several")
    sv.add_argument("--games-per-client", type=int, default=20, metavar="N",
                    help="games one client address may start in 10 minutes (default 20); all of this machine's "
                         "clients are one, and so are all of a proxy's")
    sv.set_defaults(handler=cmd_serve)
    return p


def cmd_lsp(args) -> int:
    """The server's package is imported only here: pygls is an optional extra, and other commands never load it."""
    try:
        from interpreter.lsp.server import run
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise DiagnosticError([Diagnostic("USAGE", f"rules lsp needs the package '{err.name}', which is not installed",
                                          hint='pip install "tabletop-rules[lsp]"')]) from None
    return run()


# ---------------------------------------------------------------- serve
def cmd_serve(args) -> int:
    try:  # the web extra: imported only here, so the rest of `rules` needs none of it
        import uvicorn

        from interpreter.web.app import make_app
        from interpreter.web.guard import Guard
        from interpreter.web.store import default_db
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("uvicorn", "starlette", "jinja2", "markupsafe", "anyio"):
            raise
        raise DiagnosticError([Diagnostic("USAGE", f"rules serve needs the web extra ({err.name} is not installed)",
                                          hint='install it with: python3 -m pip install -e ".[web]"')]) from None
    if args.games_per_client < 1:
        raise DiagnosticError([Diagnostic("USAGE", f"--games-per-client {args.games_per_client}: at least 1")])
    if not 0 <= args.port <= 65535:
        raise DiagnosticError([Diagnostic("USAGE", f"--port {args.port}: a port is from 0 to 65535")])
    if args.bot_tasks is not None and not 1 <= args.bot_tasks <= 64:
        raise DiagnosticError([Diagnostic("USAGE", f"--bot-tasks {args.bot_tasks}: from 1 to 64")])
    try:
        guard = Guard.serving(args.host, args.port, args.allow_host, games_per_client=args.games_per_client)
    except ValueError as err:
        raise DiagnosticError([Diagnostic("USAGE", f"--allow-host {_clip(str(err))}: not a host name",
                                          hint="give a name or an address, with :PORT if it must be that port")]) from None
    folders = [locate(g) for g in args.games]
    try:  # a port in use, or an address not of this machine: said now, as a diagnostic, not by the server's log
        import socket
        with socket.create_server((args.host, args.port), family=socket.AF_INET6 if ":" in args.host else socket.AF_INET):
            pass
    except (OSError, OverflowError) as err:
        raise DiagnosticError([Diagnostic("USAGE", f"cannot listen on {args.host}:{args.port}: {getattr(err, 'strerror', None) or err}",
                                          hint="choose another --port (or --host)")]) from None
    db = args.db or default_db()
    try:
        app = make_app(db, folders, guard, bot_tasks=args.bot_tasks, collector=True)
    except sqlite3.Error as err:
        if type(err) is sqlite3.DatabaseError:  # SQLite's "not a database" and "malformed": the file, not the system
            raise DiagnosticError([Diagnostic("DB-DAMAGED", f"the games database {db} cannot be read: {err}",
                                              hint="move the file aside (a new one is made in its place) or name another with --db FILE")]) from None
        raise DiagnosticError([io_error("open the games database", str(db), _folder_reason(Path(db)) or str(err),
                                        hint="--db FILE names another")]) from None
    except OSError as err:  # its folder could not be made
        raise DiagnosticError([io_error("open the games database", str(db), err, hint="--db FILE names another")]) from None
    for key, problems in app.state.rooms.invalid.items():  # (each game was validated and compiled as the app was made)
        print(f"rules serve: {key} does not validate; the lobby lists it with these errors:", file=sys.stderr)
        print("\n".join(d.render() for d in problems), file=sys.stderr, flush=True)
    gc.freeze()  # the compiled games live as long as the server: the collector need not walk them again and again
    config = uvicorn.Config(app, host=args.host, port=args.port, ws_max_size=16 * 1024, log_level="warning", lifespan="on",
                            ws_per_message_deflate=False,  # compressing every page (up to ~40 KB) costs more CPU than it saves
                            timeout_keep_alive=30)  # a page's calls reuse their connection between a person's clicks
    server = uvicorn.Server(config)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"rules serve: listening on http://{shown}:{args.port}/ (games kept in {db})", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("  others on this network can join: give them the seat links with this machine's address", flush=True)
    server.run()
    return 0


def _folder_reason(path: Path) -> str | None:
    """Why a file cannot be made at `path`, as far as its folder tells (SQLite says only "unable to open")."""
    folder = path.parent
    if path.is_dir():
        return "it is a folder"
    if not folder.is_dir():
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is not writable"
    return None


def cmd_compile(args) -> int:
    from interpreter.cli.play import game_ref as _game_ref
    game = load_compiled(_game_ref(args.game))
    if args.emit_python:
        sys.stdout.write(game.python_source())
    else:
        lines = game.python_source().count("\n")
        print(f"{game.content.id}: {len(game.procs)} procedures and events, {len(game.funcs)} functions, "
              f"{sum(len(h) for k in game.hooks.values() for h in k.values())} abilities; {lines} lines of Python")
    return 0


def _cmd_fmt(args) -> int:
    from interpreter.cli.fmt import cmd_fmt
    return cmd_fmt(args)


def _cmd_play(args) -> int:
    from interpreter.cli.play import cmd_play  # each command imports what it runs: `rules validate` starts faster

    return cmd_play(args)


# ---------------------------------------------------------------- validate
def cmd_validate(args) -> int:
    roots = []
    if not args.paths:
        roots = [locate(name) for name in known_games()]
    for raw in args.paths:
        path = Path(raw)
        if not _exists(path):
            raise DiagnosticError([Diagnostic("USAGE", f"{raw}: no such file or folder")])
        root = find_game_root(path)
        if root is None:
            raise DiagnosticError([Diagnostic("USAGE", f"{raw} is not inside a game folder (no game.yaml above it)")])
        if root not in roots:
            roots.append(root)
    total = 0
    report = []
    for root in roots:
        content = load_game(root)
        diags = content.report.diagnostics
        errors = sum(1 for d in diags if d.severity == "error")  # warnings are printed but do not fail
        total += errors
        report.append({"game": str(root), "errors": [d.to_json() for d in diags]})
        if not args.json:
            for text in rendered(diags):
                print(text)
            status = plural("en", errors, ("# error", "# errors")) if errors else "ok"
            if len(diags) > errors:
                status += ", " + plural("en", len(diags) - errors, ("# warning", "# warnings"))
            print(f"{_short(root)}: {len(content.records)} records, {len(content.modules)} rule texts: {status}", file=sys.stderr if errors else sys.stdout)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    return 1 if total else 0


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long for the system
        return False


SHOWN_DIAGNOSTICS = 100  # a person reads the first ones; a mistake repeated 3,000 times is one mistake


def rendered(diags: list, limit: int = SHOWN_DIAGNOSTICS) -> list[str]:
    """The diagnostics as text, the first `limit` of them, then one line counting the rest."""
    texts = [d.render() for d in diags[:limit]]
    rest = diags[limit:]
    if rest:
        errors = sum(1 for d in rest if d.severity == "error")
        texts.append(f"... and {len(rest):,} more ({errors:,} errors, {len(rest) - errors:,} warnings) not shown: "
                     "fix these first, or read them all with --json where the command has it")
    return texts


def _clip(text: str, width: int = 120) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def _short(path: Path) -> str:
    return shown_path(path)  # as the diagnostics name its files


# ---------------------------------------------------------------- play: interpreter/cli/play.py


# ---------------------------------------------------------------- simulate
def cmd_simulate(args) -> int:
    from interpreter.agents.players import AGENT_KINDS, agent_spec, parse_agent_args
    from interpreter.cli.play import game_ref as _game_ref, seat_agents, choose_language
    from interpreter.cli.simulate import simulate
    if args.games < 1:
        raise DiagnosticError([Diagnostic("USAGE", "--games must be at least 1")])
    game = load_compiled(args.game)
    kinds = [k.strip() for k in args.agents.split(",") if k.strip()]
    if not kinds or any(k.split(":")[0] not in AGENT_KINDS or k.startswith("human") for k in kinds):
        raise DiagnosticError([Diagnostic("USAGE", f"--agents '{args.agents}': name a bot per seat",
                                          hint=f"bots are: {', '.join(k for k in AGENT_KINDS if k != 'human')}")])
    for k in kinds:
        agent_spec(k)  # settings of its own (ismcts:simulations=50), checked now
    players, seats = seat_agents(game, args.players, kinds)
    args.agent_kinds = tuple(seats)
    args.agent_options = tuple(sorted(parse_agent_args(args.agent_arg).items()))
    args.report_lang = choose_language(game, args.lang)
    return simulate(args, game, _game_ref(args.game), players)


def cmd_ladder(args) -> int:
    from interpreter.cli.ladder import ladder
    from interpreter.cli.play import game_ref as _game_ref, seat_count as _players, choose_language
    game = load_compiled(args.game)
    args.report_lang = choose_language(game, args.lang)
    return ladder(args, game, _game_ref(args.game), _players(game, args.players))


# ---------------------------------------------------------------- replay and explain
def cmd_replay(args) -> int:
    from interpreter.cli.play import Output as _Output, choose_language
    from interpreter.present.phrases import say
    from interpreter.present.words import telling
    from interpreter.runtime.gamelog import game_of, read_log, replay
    log = read_log(args.log)
    viewer = None
    if args.viewer:
        seats = {player_label(i): i for i in range(log["players"])}
        if args.viewer not in seats:
            raise DiagnosticError([Diagnostic("USAGE", f"no player {args.viewer} in this game", hint=f"players: {', '.join(seats)}")])
        viewer = seats[args.viewer]
    try:
        lang = choose_language(game_of(log), args.lang)
    except DiagnosticError:  # a log whose game cannot be loaded: `replay` says why
        lang = args.lang or "en"

    out = _Output()

    def tell(to, text):
        if to is None or to == viewer:
            out.say("  " + ("" if to is None else say(lang, "to you") + " ") + text)
    if viewer is not None and not args.quiet:
        _tell_as(log, viewer, tell, out, args.allow_changed_content, lang)
        outcome = replay(log, account=None, allow_changed=args.allow_changed_content)
    else:
        def numbered(n, session, index):  # decisions numbered as `explain` numbers them; who decides, not what
            d = session.pending
            out.say(say(lang, "decision n", n=n, player=say(lang, "player", n=d.player + 1) if d.player is not None else say(lang, "nobody")))
        outcome = replay(log, account=None if args.quiet else telling(tell), allow_changed=args.allow_changed_content, lang=lang,
                         on_decision=None if args.quiet else numbered)
    out.check()
    print(("OK: " if outcome.matches else "MISMATCH: ") + outcome.reason)
    return 0 if outcome.matches else 1


def _tell_as(log: dict, viewer: int, tell, out, allow_changed: bool, lang: str) -> None:
    """The logged game as `viewer` knew it: the lines told to everyone and to them, through their view,
    and each of their own decisions as they were shown it (interpreter.present.words), never another
    player's choice. Stops quietly where the replay would not go on; `replay` says why."""
    from interpreter.present.phrases import say
    from interpreter.present.words import shown_to, telling
    from interpreter.runtime.gamelog import game_of
    from interpreter.runtime.session import Session
    try:
        game = game_of(log)
        if game.content.content_hash != log["content_hash"] and not allow_changed:
            return
        session = Session(game, log["players"], log["seed"], tuple(log["variants"]), account=telling(tell), start=False,
                          lang=lang, reader=viewer)
        session.call(game.content.manifest["start"])
        for index, _ in log["decisions"]:
            d = session.pending
            if d is None:
                return
            if d.player == viewer and 0 <= index < len(d.values):
                shown = shown_to(d, session.state, viewer)
                out.say(say(lang, "decision n mine", n=len(session.history) + 1) + " " +
                        say(lang, "you chose secretly" if shown.secret else "you chose", prompt=shown.prompt, option=shown.options[index]))
            session.answer(index)
    except (DiagnosticError, IllegalDecision):
        return


def cmd_explain(args) -> int:
    from interpreter.cli.play import choose_language
    from interpreter.present.explain import chance_in_words, entries_in_words, entry_lines
    from interpreter.present.phrases import say
    from interpreter.runtime.gamelog import game_of, read_log, replay
    log = read_log(args.log)
    if args.steps is not None:
        return _explain_steps(args, log)
    if args.at is not None and args.why is None:
        raise DiagnosticError([Diagnostic("USAGE", "--at N goes with --why EXPR", hint="to see what fired after decision N, use --decision N")])
    try:
        game = game_of(log)
        lang = choose_language(game, args.lang)
    except DiagnosticError:  # a log whose game cannot be loaded: the replay says why
        game, lang = None, args.lang or "en"
    if args.why is not None:
        return _explain_why(args, log, game, lang)
    outcome = replay(log, trace=True, allow_changed=args.allow_changed_content, lang=lang)
    state = outcome.session.state
    found = entries_in_words(outcome.session.rt.trace or [], state, lang, args.all)
    drawn = chance_in_words(state.chance.record if state.chance is not None else [], state, lang)
    entries = [e for e in sorted(drawn + found, key=lambda e: e["decision"])  # (stable: a draw before what follows it)
               if (args.decision is None or e["decision"] == args.decision) and (args.event is None or e["event_id"] == args.event)]
    if args.json:
        print(json.dumps(entries, ensure_ascii=False, indent=1))
    else:
        for entry in entries:
            print("\n".join(entry_lines(entry, lang)))
        if not any(e["kind"] != "chance" for e in entries):  # (the draws, if any, are told all the same)
            print(say(lang, "explain nothing in game" if args.decision is None and args.event is None else "explain nothing there"))
    if not outcome.matches:  # the trace covers only the part that replayed
        print(f"the replay stopped: {outcome.reason}", file=sys.stderr)
    return 0 if outcome.matches else 1


def _explain_why(args, log: dict, game, lang: str) -> int:
    from interpreter.cli.why import explain_why
    return explain_why(args, log, game, lang)


def _explain_steps(args, log: dict) -> int:
    from interpreter.cli.why import explain_steps
    return explain_steps(args, log)


# ---------------------------------------------------------------- scenarios and schemas
def cmd_test(args) -> int:
    from interpreter.scenarios.run import find_scenarios, run_scenario
    missing = [str(p) for p in args.paths if not _exists(p)]
    if missing:  # never a silent pass over a file that is not there
        raise DiagnosticError([Diagnostic("USAGE", f"{_clip(p)}: no such file or folder") for p in missing])
    files = find_scenarios(list(args.paths))
    if not files:
        raise DiagnosticError([Diagnostic("USAGE", "no scenario files found")])
    if args.coverage or args.listing or args.json:
        from interpreter.scenarios.coverage import report_run
        return report_run(files, run_scenario, args.coverage or bool(args.listing), args.listing, args.json)
    failed = 0
    seen: set = set()  # the games' own errors, printed once in a run however many scenarios meet them
    for path in files:
        outcome = run_scenario(path)
        print(outcome.render(seen))
        failed += not outcome.ok
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_schema(args) -> int:
    root = locate(args.game)
    content = load_game(root)
    content.report.raise_if_errors()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{content.manifest.get('name', content.id)}: component records",
        "description": f"Generated by `rules schema {content.id}` from the vocabulary in {root.name}/game.yaml; do not edit by hand.",
        "type": "array",
        "items": record_schema(content.vocabulary),
    }
    text = json.dumps(schema, ensure_ascii=False, indent=1) + "\n"
    target = args.out or PROJECT_ROOT / "schemas" / "games" / f"{content.id}.schema.json"
    if args.out is None and root.parent != (PROJECT_ROOT / "content").resolve():
        # the project's schemas are for the project's games: a copy elsewhere must not overwrite them
        raise DiagnosticError([Diagnostic("USAGE", f"{_short(root)} is not a game under the project's content/",
                                          hint="say where to write its schema with --out FILE")])
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is out of date: run `rules schema {content.id}`", file=sys.stderr)
            return 1
        print(f"{target} is up to date")
        return 0
    if target.is_dir():  # the name given cannot be a file's: the command line's mistake, not the system's
        raise DiagnosticError([Diagnostic("USAGE", f"cannot write {target}: it is a folder", hint="--out FILE names a file")])
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as err:
        raise DiagnosticError([io_error("write", str(target), err)]) from None
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
