"""Game logs and replay: content hash, seed, players, variants and every decision; nothing else is needed."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.agents import ScriptedAgent
from interpreter.decisions import IllegalDecision, player_label
from interpreter.games import load_compiled
from interpreter.runtime import Session

FORMAT = "rules-log/1"


def make_log(session: Session, game_ref: str) -> dict:
    state = session.state
    content = session.game.content
    decisions = [[i, label] for i, label in zip(session.history, session.labels or [""] * len(session.history))]
    return {
        "format": FORMAT,
        "game": game_ref,
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
    }


def write_log(log: dict, path: Path) -> None:
    path.write_text(json.dumps(log, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def read_log(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise DiagnosticError([Diagnostic("LOG-READ", f"cannot read the log {path}: {err}")]) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DiagnosticError([Diagnostic("LOG-FORMAT", f"{path} is not a {FORMAT} game log")])
    return data


@dataclass
class ReplayOutcome:
    matches: bool
    reason: str
    session: Session


def _stopped(err: DiagnosticError, logged_error: str | None, n: int, session: Session) -> ReplayOutcome:
    got = err.diagnostics[0]
    if got.code == logged_error:
        return ReplayOutcome(True, f"the replay stops with the logged error after {n} decision(s): {got.message}", session)
    return ReplayOutcome(False, f"after {n} decision(s) the game stopped with {got.code}: {got.message}", session)


def replay(log: dict, trace: bool = False, account=None) -> ReplayOutcome:
    """Play the logged decisions again from the logged seed; the final state must be the same."""
    game = load_compiled(log["game"])
    session = Session(game, log["players"], log["seed"], tuple(log["variants"]), account=account, trace=trace, start=False)
    logged_error = (log.get("error") or {}).get("code")  # a game that stopped on an error is logged up to it
    try:
        session.call(game.content.manifest["start"])
    except DiagnosticError as err:
        return _stopped(err, logged_error, 0, session)
    notes = []
    if game.content.content_hash != log["content_hash"]:
        notes.append(f"the content changed since the log was written ({log['content_hash']} -> {game.content.content_hash})")
    script = ScriptedAgent([index for index, _ in log["decisions"]])
    for n, (index, label) in enumerate(log["decisions"], 1):
        if session.pending is None:
            return ReplayOutcome(False, f"the game ended before decision {n} of {len(log['decisions'])}", session)
        if label and index < len(session.pending.labels) and session.pending.labels[index] != label:
            return ReplayOutcome(False, f"decision {n}: option {index} is now '{session.pending.labels[index]}', the log says '{label}'", session)
        try:
            session.answer(script.decide(session.pending, None))
        except IllegalDecision as err:
            return ReplayOutcome(False, f"decision {n}: {err}", session)
        except DiagnosticError as err:
            if n == len(log["decisions"]):
                return _stopped(err, logged_error, n, session)
            return ReplayOutcome(False, f"decision {n}: the game stopped with {err.diagnostics[0].code}", session)
    if logged_error:
        return ReplayOutcome(False, f"the logged game stopped with {logged_error}, the replay did not", session)
    if session.pending is not None:
        return ReplayOutcome(False, "the log ends while the game still asks for a decision", session)
    digest = session.state.digest()
    if digest != log["final_state"]:
        return ReplayOutcome(False, f"the final state differs ({digest}, the log says {log['final_state']})" +
                             (f"; {notes[0]}" if notes else ""), session)
    return ReplayOutcome(True, "the replay reproduces the logged game exactly" + (f" ({notes[0]})" if notes else ""), session)
