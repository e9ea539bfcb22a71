"""Agents answer Decisions. They all use the same path: a decision, the player's view, an answer."""
from __future__ import annotations

import random
import sys

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.core.decisions import Decision, player_label
from interpreter.present.words import prompt, shown_to


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
        super().__init__(f"the script has no answer left for {player_label(decision.player)}: {prompt(decision)}")


class HumanAgent:
    """A person at the terminal: the table, the question and the options in words, through their own
    view (interpreter.present.words); never a label, an id or rule text. An answer is an option's
    number or the start of its words; `?` shows the full text of every card on the table, `?N`
    of the cards option N names."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.session = None
        self.told_keys = False

    def attach(self, session) -> None:
        """Follow a game's session: the table is drawn from its state."""
        self.session = session

    def decide(self, decision: Decision, view) -> int:
        from interpreter.present.words import Presenter, key, table
        out = self.stdout
        state = self.session.state if self.session is not None else None
        pr = Presenter(state, decision.player)
        shown = shown_to(decision, state)
        out.write(f"\n{pr.say('your decision', player=pr.player(decision.player, False))}\n")
        if state is not None:
            for line in table(state, decision.player):
                out.write(f"  {line}\n")
        out.write(f"{shown.prompt}{pr.say('secretly') if shown.secret else ''}:\n")
        for i, text in enumerate(shown.options):
            out.write(f"  [{i}] {text}\n")
        if not self.told_keys:
            out.write(pr.say("how to answer") + "\n")
            self.told_keys = True
        while True:
            out.write("> ")
            out.flush()
            line = self.stdin.readline()
            if not line:  # end of input (Ctrl-D, a closed pipe): the game cannot go on
                raise DiagnosticError([Diagnostic("RUN-ERROR", f"the input ended before {player_label(decision.player)} answered",
                                                  hint="type an option's number, then Enter")])
            text = line.strip()
            if text.startswith("?"):
                wanted = text[1:].strip()
                if wanted.isdigit() and int(wanted) < len(shown.keys):
                    lines = [f"{name}: {body}" for name, body in shown.keys[int(wanted)]] or [pr.say("no card in option")]
                elif not wanted and state is not None:
                    lines = key(state, decision.player) or [pr.say("no card on table")]
                else:
                    lines = [pr.say("help keys")]
                out.write("".join(f"  {x}\n" for x in lines))
                continue
            if text.isdigit() and int(text) < len(shown.options):
                return int(text)
            matches = [i for i, words in enumerate(shown.options) if text and words.lower().startswith(text.lower())]
            if len(matches) == 1:
                return matches[0]
            out.write(pr.say("not legal") + "\n")


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
        from interpreter.agents.ismcts_agent import ISMCTSAgent
        return ISMCTSAgent(seat, seed * 7919 + seat + 1, **(options or {}))
    raise ValueError(kind)


def play_with_agents(game, players: int, kinds: list, seed: int, options: dict | None = None) -> list:
    """Play one game with these agent kinds (one per seat), through the one decision path; its winners."""
    from interpreter.runtime.session import Session  # the runtime imports nothing of agents: no cycle at import
    session = Session(game, players, seed, start=False)
    agents = [make_agent(kind, seat, seed, options) for seat, kind in enumerate(kinds)]
    for agent in agents:
        if hasattr(agent, "attach"):  # a search agent follows the game it plays
            agent.attach(session)
    session.call(game.content.manifest["start"])
    while session.pending is not None:
        d = session.pending
        session.answer(agents[d.player if d.player is not None else 0].decide(d, None))
    return session.result.winners
