"""Agents answer Decisions. They all use the same path: a decision, the player's view, an answer."""
from __future__ import annotations

import random
import sys

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.decisions import Decision, player_label


class RandomAgent:
    """Uniform over the legal options, from its own seeded RNG."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, decision: Decision, view) -> int:
        return self.rng.randrange(len(decision.values))


class ScriptedAgent:
    """Answers from a list of labels (or indices), as scenario tests and replays do."""

    def __init__(self, answers: list):
        self.answers = list(answers)
        self.position = 0

    def decide(self, decision: Decision, view):
        if self.position >= len(self.answers):
            raise ScriptExhausted(decision)
        answer = self.answers[self.position]
        self.position += 1
        return answer

    def remaining(self) -> list:
        return self.answers[self.position:]


class ScriptExhausted(Exception):
    def __init__(self, decision: Decision):
        self.decision = decision
        super().__init__(f"the script has no answer left for {player_label(decision.player)}: {decision.prompt}")


class HumanAgent:
    """A person at the terminal: shows the player's own view and the legal options."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def decide(self, decision: Decision, view) -> int:
        out = self.stdout
        out.write(f"\n--- {player_label(decision.player)}, your decision ---\n")
        names = {eid: info.get("name", eid) for eid, info in view["entities"].items()}
        for name, items in view["zones"].items():
            out.write(f"  {name}: {_show(items, names)}\n")
        out.write(f"{decision.prompt}\n")
        for i, label in enumerate(decision.labels):
            shown = " ".join(f"{names[w]} ({w})" if w in names else w for w in label.split(" "))
            out.write(f"  [{i}] {shown}\n")
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:  # end of input (Ctrl-D, a closed pipe): the game cannot go on
                raise DiagnosticError([Diagnostic("RUN-ERROR", f"the input ended before {player_label(decision.player)} answered",
                                                  hint="type an option's number or its label, then Enter")])
            try:
                return decision.index_of(int(line) if line.strip().isdigit() else line.strip())
            except Exception:
                out.write("not a legal option; type its number or its label\n")


def _show(items, names: dict) -> str:
    if isinstance(items, dict):
        return f"{items.get('count', 0)} hidden"
    return ", ".join("(hidden)" if i is None else names.get(i, i) for i in items) or "empty"


AGENT_KINDS = ("random", "human", "ismcts")

# the ismcts agent's settings: name -> (type, default, what it is); `rules play --agent-arg NAME=VALUE`
AGENT_ARGS = {
    "simulations": (int, 100, "simulations per decision (the search budget)"),
    "uct_c": (float, 1.0, "the exploration constant of UCT (returns are between 0 and 1)"),
    "rollouts": (int, 1, "random rollouts per evaluation of a new node"),
}


def parse_agent_args(pairs: list[str]) -> dict:
    """`--agent-arg KEY=VALUE` (repeated) into typed values; a USAGE error for anything else."""
    out = {}
    known = "; ".join(f"{k} ({t.__name__}, default {d}): {what}" for k, (t, d, what) in AGENT_ARGS.items())
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': write KEY=VALUE", hint=f"keys: {known}")])
        if key not in AGENT_ARGS:
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': no agent takes '{key}'", hint=f"keys: {known}")])
        kind = AGENT_ARGS[key][0]
        try:
            parsed = kind(value.strip())
        except ValueError:
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': {key} is a {'whole number' if kind is int else 'number'}")]) from None
        if not 0 < parsed < float("inf") or (kind is int and parsed > 1_000_000):
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': {key} must be positive" +
                                              (" and at most 1000000" if kind is int else " and finite"))])
        out[key] = parsed
    return out


def make_agent(kind: str, seat: int, seed: int, options: dict | None = None):
    if kind == "random":
        return RandomAgent(seed * 7919 + seat + 1)
    if kind == "human":
        return HumanAgent()
    if kind == "ismcts":  # OpenSpiel's information-set MCTS; attach(session) before it decides
        from interpreter.adapters.ismcts_agent import ISMCTSAgent
        return ISMCTSAgent(seat, seed * 7919 + seat + 1, **(options or {}))
    raise ValueError(kind)
