"""Game logs and replay: content hash, seed, players, variants and every decision; nothing else is needed."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError, Span
from dsl.inputs import char_position, io_error, json_depth, read_text, write_file
from dsl.limits import MAX_DATA_DEPTH, MAX_LOG_BYTES
from dsl.schema_check import load_schema
from interpreter.codegen.chance import Logged
from interpreter.core.decisions import IllegalDecision, player_label
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from dsl.plurals import plural

FORMAT = "rules-log/1"

# Why a game stopped before its end (the log's "unfinished" reason): Ctrl-C, SIGTERM, SIGHUP, the end of
# the input (Ctrl-D), or the copy kept while the game waited for a person (what is left if the process dies).
UNFINISHED = ("interrupt", "terminate", "hangup", "end of input", "saved")
UNDO_BUDGET = 500_000  # decisions replayed to check a log's undone decisions (each from the start of its game)


def make_log(session: Session, game_ref: str, *, seats: list[str] | None = None, agent_args: dict | None = None,
             lang: str | None = None, undone: list | None = None, unfinished: str | None = None) -> dict:
    """The log of a game so far. The optional parts say who played each seat (so that `rules play --resume`
    seats the same agents), the reader's language, the decisions taken back with `undo`, and why a game
    stopped before its end; a log without them is the plain record of a game."""
    state = session.state
    content = session.game.content
    decisions = [[i, label] for i, label in zip(session.history, session.labels or [""] * len(session.history))]
    extra: dict = {}
    if seats is not None:
        extra["seats"] = list(seats)
        extra["agent_args"] = dict(agent_args or {})
    if lang is not None:
        extra["lang"] = lang
    if undone:
        extra["undone"] = list(undone)
    if unfinished is not None:
        extra["unfinished"] = {"reason": unfinished}
    if state.chance is not None and state.chance.record:
        extra["chance"] = state.chance.texts()  # every draw, in order: replay checks each (codegen.chance)
    return {
        "format": FORMAT,
        "game": game_ref,
        "folder": str(Path(content.root).resolve()),  # so that the log finds its game from any working directory
        "content_hash": content.content_hash,
        "players": state.players,
        "seed": state.seed,
        "variants": list(state.variants),
        "decisions": decisions,
        "result": {
            "winners": [player_label(w) for w in state.winners],
            "scores": session.result.scores if session.result else [],
        },
        "final_state": state.digest(),
        **extra,
    }


def game_of(log: dict):
    """The compiled game a log was written with: its game folder (`folder`) or its name (`game`, a folder under
    content/ or a path), whichever is the content the log's hash names; else the first that loads (a replay then
    says the content changed). Only a log naming no game that can be found is an error (LOG-GAME)."""
    refs = [r for r in (log.get("folder"), log["game"]) if r]
    first = None
    problems = []
    for ref in refs:
        try:
            game = load_compiled(ref)
        except DiagnosticError as err:
            if any(d.code != "USAGE" for d in err.diagnostics):
                raise  # the game's own content errors
            problems.extend(d for d in err.diagnostics if d.message not in {x.message for x in problems})
            continue
        if game.content.content_hash == log["content_hash"]:
            return game
        first = first or game
    if first is not None:
        return first
    raise DiagnosticError([Diagnostic("LOG-GAME", f"the log does not fit its game: {d.message}", None, d.hint) for d in problems])


def write_log(log: dict, path: Path) -> None:
    """The log as a new file renamed into place: never written through a link planted at its name."""
    try:
        write_file(path, json.dumps(log, ensure_ascii=False, indent=1) + "\n")
    except OSError as err:  # a full disk, /dev/full, a folder removed meanwhile, a link put there meanwhile
        raise DiagnosticError([io_error("write the log", _clip(str(path)), err)]) from None


def check_log_path(path: Path) -> None:
    """Before a game is played: an error if the log could obviously not be written there, IO-ERROR when its
    folder cannot take a file (missing, not a folder, not writable), USAGE when the name itself cannot be one."""
    shown = _clip(str(path))
    name_max = 255
    try:
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.exists():
            raise DiagnosticError([io_error("write the log", shown, f"the folder {_clip(str(folder))} does not exist")])
        if not folder.is_dir():
            raise DiagnosticError([io_error("write the log", shown, f"{_clip(str(folder))} is a file, not a folder")])
        if not os.access(folder, os.W_OK) and not (path.is_char_device() and os.access(path, os.W_OK)):
            raise DiagnosticError([io_error("write the log", shown, f"the folder {_clip(str(folder))} is not writable")])
        if len(path.name.encode("utf-8", "surrogateescape")) > name_max:
            problem = f"the file name is longer than {name_max} bytes"
        elif path.is_symlink():  # in a shared folder, another user's link to the player's own files
            problem = "it is a symbolic link, which is not written through"
        elif path.is_dir():
            problem = "it is a folder"
        elif path.exists() and not (path.is_file() or path.is_char_device()):
            problem = "it is not a regular file"
        else:
            return
    except (OSError, ValueError) as err:
        problem = str(err.strerror if isinstance(err, OSError) and err.strerror else err)
    raise DiagnosticError([Diagnostic("USAGE", f"cannot write the log {shown}: {problem}", hint="--log FILE names a file in an existing folder")])


def read_log(path: Path) -> dict:
    """A log checked against schemas/log.schema.json; every problem is a diagnostic naming the field."""
    shown = str(path)
    text = read_text(path, shown, MAX_LOG_BYTES, missing="LOG-READ")
    depth = json_depth(text, MAX_DATA_DEPTH)
    if depth > MAX_DATA_DEPTH:
        raise DiagnosticError([Diagnostic("LOG-LIMIT", f"{shown} nests deeper than {MAX_DATA_DEPTH} levels", Span(shown, 1, 1),
                                          "a game log is a flat record; this is not one")])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        line, col, src = char_position(text, min(err.pos, len(text)))
        raise DiagnosticError([Diagnostic("LOG-READ", f"{shown} is not JSON: {err.msg}", Span(shown, line, col, col + 1, src))]) from None
    except (ValueError, RecursionError) as err:  # e.g. an integer of thousands of digits
        raise DiagnosticError([Diagnostic("LOG-READ", f"{shown} is not JSON a log can hold: {str(err)[:120]}", Span(shown, 1, 1))]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DiagnosticError([Diagnostic("LOG-FORMAT", f"{shown} is not a {FORMAT} game log", Span(shown, 1, 1),
                                          "logs are written by `rules play --log FILE`")])
    problems = [_schema_problem(shown, err) for err in
                sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])]
    if problems:
        raise DiagnosticError(problems[:20])
    return data


def _validator():
    from jsonschema import Draft202012Validator, validators  # here: slow to import, and only reading a log needs it

    # JSON Schema counts 3.0 as an integer; a log's indices, seed and player count must be written as 3.
    strict = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: isinstance(value, int) and not isinstance(value, bool))
    cls = validators.extend(Draft202012Validator, type_checker=strict)
    return cls(load_schema("log.schema.json"))


_JSON_TYPES = {dict: "an object", list: "a list", str: "a string", bool: "true or false", int: "an integer",
               float: "a number with a fraction", type(None): "null"}


def _schema_problem(shown: str, err) -> Diagnostic:
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".") or "the log"
    found = _JSON_TYPES.get(type(err.instance), type(err.instance).__name__)
    if err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        message = f"{where} has no '{missing}'"
    elif err.validator == "additionalProperties":
        extra = [k for k in err.instance if k not in (err.schema.get("properties") or {})]
        message = f"{where} has an unknown field '{_clip(str(extra[0]) if extra else '?')}'"
    elif err.validator == "type":
        wanted = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        message = f"{where} must be {'an' if wanted[0] in 'aeiou' else 'a'} {wanted}, not {found}"
    elif err.validator in ("minItems", "maxItems", "prefixItems") and isinstance(err.instance, list) \
            and len(err.absolute_path) >= 2 and err.absolute_path[-2] == "decisions":
        message = f"{where} must be a pair [option index, label], not {found} of {len(err.instance)}"
    else:
        message = f"{where}: {_clip(err.message)}"
    return Diagnostic("LOG-SCHEMA", f"{shown}: {message}", None, "see schemas/log.schema.json")


def _clip(text: str, width: int = 120) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


@dataclass
class ReplayOutcome:
    matches: bool
    reason: str
    session: Session


def _stopped(err: DiagnosticError, logged_error: str | None, n: int, session: Session) -> ReplayOutcome:
    got = err.diagnostics[0]
    if got.code == logged_error:
        return ReplayOutcome(True, f"the replay stops with the logged error after {plural('en', n, ('# decision', '# decisions'))}: {got.message}", session)
    return ReplayOutcome(False, f"after {plural('en', n, ('# decision', '# decisions'))} the game stopped with {got.code}: {got.message}", session)


def replay(log: dict, trace: bool = False, account=None, allow_changed: bool = False, lang: str | None = None,
           on_decision=None) -> ReplayOutcome:
    """Play the logged decisions again from the logged seed; the final state and the result must be the same.

    `on_decision(n, session, index)` is called before decision n (1, 2, ...: the numbers `explain` uses)
    is answered with option `index`, for a teller that numbers the decisions.

    A log of content that has changed since is refused unless `allow_changed`: its decisions may mean
    something else now.
    """
    game = game_of(log)
    try:
        session = Session(game, log["players"], log["seed"], tuple(log["variants"]), account=account, trace=trace, start=False,
                          lang=lang, chance=_chance_mode(log))
    except DiagnosticError as err:
        if any(d.code != "USAGE" for d in err.diagnostics):
            raise  # the game's own content errors
        raise DiagnosticError([Diagnostic("LOG-GAME", f"the log does not fit its game: {d.message}", None, d.hint)
                               for d in err.diagnostics]) from None
    if game.content.content_hash != log["content_hash"] and not allow_changed:
        return ReplayOutcome(False, f"the content changed since the log was written (content hash {log['content_hash']}, "
                                    f"now {game.content.content_hash}); replay it anyway with --allow-changed-content", session)
    logged_error = (log.get("error") or {}).get("code")  # a game that stopped on an error is logged up to it
    drawn = session.state.chance.given = Logged(log["chance"]) if "chance" in log else None
    try:
        session.call(game.content.manifest["start"])
    except DiagnosticError as err:
        return _stopped(err, logged_error, 0, session)
    notes = []
    if game.content.content_hash != log["content_hash"]:
        notes.append(f"the content changed since the log was written ({log['content_hash']} -> {game.content.content_hash})")
    for n, (index, label) in enumerate(log["decisions"], 1):
        problem = mismatch(session, n, len(log["decisions"]), index, label)
        if problem:
            return ReplayOutcome(False, problem, session)
        if on_decision is not None and 0 <= index < len(session.pending.values):
            on_decision(n, session, index)
        try:
            session.answer(index)
        except IllegalDecision as err:
            return ReplayOutcome(False, f"decision {n}: {err}", session)
        except DiagnosticError as err:
            if n == len(log["decisions"]):
                return _stopped(err, logged_error, n, session)
            return ReplayOutcome(False, f"decision {n}: the game stopped with {err.diagnostics[0].code}: "
                                        f"{err.diagnostics[0].message}", session)
    if logged_error:
        return ReplayOutcome(False, f"the logged game stopped with {logged_error}, the replay did not", session)
    if drawn is not None and drawn.left():
        return ReplayOutcome(False, f"the log records {plural('en', drawn.left(), ('# draw', '# draws'))} more than the replay makes", session)
    unfinished = (log.get("unfinished") or {}).get("reason")
    if session.pending is not None and not unfinished:
        return ReplayOutcome(False, "the log ends while the game still asks for a decision", session)
    if session.pending is None and unfinished:
        return ReplayOutcome(False, f"the log says the game stopped unfinished ({unfinished}), "
                                    f"but it ends after decision {len(log['decisions'])}", session)
    digest = session.state.digest()
    if digest != log["final_state"]:
        return ReplayOutcome(False, f"the {'last' if unfinished else 'final'} state differs ({digest}, the log says {log['final_state']})" +
                             (f"; {notes[0]}" if notes else ""), session)
    undone = check_undone(log, game)
    if undone:
        return ReplayOutcome(False, undone, session)
    if log.get("undone"):
        notes.append(f"{plural('en', len(log['undone']), ('# undo', '# undos'))} checked: their decisions replay as logged")
    if unfinished:
        return ReplayOutcome(True, f"unfinished, reproduced up to decision {len(log['decisions'])} "
                                   f"(stopped: {unfinished}; {_asked(session)} is asked next)" + "".join(f"; {x}" for x in notes), session)
    result = session.result
    winners = [player_label(w) for w in session.state.winners]
    if log["result"]["winners"] != winners:
        return ReplayOutcome(False, f"the log says the winners are {', '.join(log['result']['winners']) or 'nobody'}, "
                                    f"the replay gives {', '.join(winners) or 'nobody'}", session)
    if result is not None and log["result"]["scores"] != result.scores:
        return ReplayOutcome(False, f"the log says the scores are {log['result']['scores']}, the replay gives {result.scores}", session)
    return ReplayOutcome(True, "the replay reproduces the logged game exactly" + (f" ({'; '.join(notes)})" if notes else ""), session)


def _chance_mode(log: dict) -> str:
    """A game whose draws the chance seat answered is replayed with the seat answering them again (its decisions)."""
    return "seat" if any(str(x).endswith(" (seat)") for x in log.get("chance") or ()) else "seed"


def mismatch(session: Session, n: int, total: int, index: int, label: str) -> str | None:
    """Why logged decision n (of total) cannot be answered as the log says in the game as it stands, or None."""
    if session.pending is None:
        return f"the game ended before decision {n} of {total}"
    labels = session.pending.labels
    if label and index < len(labels) and labels[index] != label:
        return f"decision {n}: option {index} is now '{_clip(labels[index])}', the log says '{_clip(label)}'"
    if index >= len(labels):
        return f"decision {n}: there is no option {index} (the game offers {len(labels)})"
    return None


def undone_lines(log: dict) -> list[tuple[int, dict, list | None]]:
    """Each undo of the log (its place in `undone`, the entry) with the whole line of decisions it took
    back from. An undo's `after` counts the decisions kept; the line after it grew from those only, so
    each line is the next one's first `after` decisions followed by what was undone (worked back from the
    logged line). A line of None: the undo keeps more decisions than its game then had."""
    line = [list(d) for d in log["decisions"]]
    out = []
    for place in range(len(log.get("undone") or []) - 1, -1, -1):
        entry = log["undone"][place]
        if entry["after"] > len(line):
            out.append((place, entry, None))
            break
        line = line[:entry["after"]] + [list(d) for d in entry["decisions"]]
        out.append((place, entry, line))
    return out[::-1]


def check_undone(log: dict, game) -> str | None:
    """Replay every line an undo took decisions back from: each must be what the game asked then, taken back
    to a decision of the player who undid it, while that player was being asked. None when all hold."""
    lines = undone_lines(log)
    work = sum(len(line) for _, _, line in lines if line)
    if work > UNDO_BUDGET:
        raise DiagnosticError([Diagnostic("LOG-LIMIT", f"checking the log's {plural('en', len(lines), ('# undo', '# undos'))} would replay {work:,} decisions, "
                                                       f"more than {UNDO_BUDGET:,}", None, "a game log holds its own undos only")])
    for place, entry, line in lines:
        where = f"undone[{place}]"
        if line is None:
            return f"{where} keeps {entry['after']} decisions, but the game then had fewer"
        session = Session(game, log["players"], log["seed"], tuple(log["variants"]), start=False)
        try:
            session.call(game.content.manifest["start"])
            for n, (index, label) in enumerate(line, 1):
                if n == entry["after"] + 1 and session.pending is not None and _asked(session) != entry["by"]:
                    return f"{where}: decision {n} was not {entry['by']}'s to take back"
                problem = mismatch(session, n, len(line), index, label)
                if problem:
                    return f"{where}: {problem}"
                session.answer(index)
        except (DiagnosticError, IllegalDecision) as err:
            return f"{where}: the undone decisions do not replay ({err})"
        if _asked(session) != entry["by"]:
            return f"{where}: {entry['by']} was not being asked when the undo was made"
    return None


def _asked(session: Session) -> str | None:
    """Who the pending decision is asked of (a decision of nobody's is the first seat's), as the log names players."""
    d = session.pending
    return None if d is None else player_label(d.player if d.player is not None else 0)
