"""Agents answer Decisions. They all use the same path: a decision, the player's view, an answer."""
from __future__ import annotations

import os
import random
import select
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

    def follow(self, decision: Decision, answer: int) -> None:
        """A logged answer of this seat is replayed (undo, resume): draw as deciding would have, so that the
        answers after it are the ones an uninterrupted game would have had."""
        self.rng.randrange(len(decision.values))


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


class Undo(Exception):
    """A person asked to take back their last decision (`undo` at the terminal): whoever runs the game
    rebuilds it at that decision (interpreter.agents.match)."""

    def __init__(self, seat: int):
        self.seat = seat
        super().__init__(f"{player_label(seat)} asked to undo")


class InputEnded(DiagnosticError):
    """The input ended (Ctrl-D, a closed pipe) while a person was asked: the game stops unfinished."""


UNDO_WORDS = ("undo", "отменить", "отмена")
LOG_WORDS = ("log", "журнал")
LOG_ALL_WORDS = ("log all", "журнал всё", "журнал все")
HELP_WORDS = ("help", "помощь", "h")


class HumanAgent:
    """A person at the terminal: one screen per decision (interpreter.present.terminal) drawn from the
    table model through their own view, never a label, an id or rule text. What happened since their
    last decision comes first, the question and its options last, in a stable order. An answer is an
    option's number or the start of its words; `?` shows the whole table, `?NAME` a card's text, `?N`
    the cards of option N, `>`/`<` page through long option lists, `log` the last lines, `undo` back to their
    previous decision (raises Undo), `help` the keys."""

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.session = None
        self.recent: list[str] = []  # lines told since the last decision
        self.last: list[str] = []  # the lines told before the decision being asked (`log`: also the folded ones)
        self.heard: list[str] = []  # every line told, for `log all`
        self.answered = 0  # decisions this person has answered (also replayed ones): `undo` needs one
        self.redraw = None  # draws the screen of the question being asked (again, when the terminal is resized)
        self.waiting = self.stale = False  # waiting for a line; resized while not waiting

    def attach(self, session) -> None:
        """Follow a game's session: the table is drawn from its state."""
        self.session = session

    def hear(self, line: str) -> None:
        self.recent.append(line)
        self.heard.append(line)

    def follow(self, decision: Decision, answer: int) -> None:
        """One of this person's answers is replayed (undo, resume): what was told before it was read then."""
        self.recent = []
        self.answered += 1

    def flush(self) -> None:
        """Print what was told since the last decision (the end of the game)."""
        for line in self.recent:
            self.stdout.write(f"  {line}\n")
        self.recent = []

    def decide(self, decision: Decision, view) -> int:
        from interpreter.present.terminal import on_resize
        with on_resize(self.resized):  # for the whole question: no resize between two lines goes unseen
            answer = self._decide(decision)
        self.answered += 1
        return answer

    def resized(self) -> None:
        """The terminal's size changed: the screen is laid out again, at once if the person is reading it."""
        if not self.waiting:
            self.stale = True
            return
        self.redraw()
        self.stdout.write("> ")
        self.stdout.flush()

    def _decide(self, decision: Decision) -> int:
        self.last, self.recent = self.recent, []  # what happened since the last decision: on the screen and in `log`
        from interpreter.present.table import table_model
        from interpreter.present.terminal import by_value, option_order, option_steps
        from interpreter.present.words import Presenter, Shown
        state = self.session.state if self.session is not None else None
        pr = Presenter(state, decision.player)
        shown = shown_to(decision, state)
        order = option_order(decision, state)
        model = table_model(self.session, decision.player) if state is not None else None
        heading = pr.say("your decision", player=pr.player(decision.player, False))
        names = state.voc.table.steps if state is not None else ()
        steps = option_steps(decision, shown, order, names)
        if shown.number is not None:  # a number in a range: typed, never listed
            low, high = shown.number
            asked = Shown(f"{shown.prompt} {pr.say('type a number', low=low, high=high)}", [], [], shown.secret)
            return self._ask(pr, asked, 0, model, heading, numbers=(low, high))
        if steps is None:  # the options in the order a person reads them, copies of one component once (×N)
            place = {i: n for n, i in enumerate(order)}
            groups = sorted(((min(m, key=place.__getitem__), text, len(m)) for text, m in shown.groups),
                            key=lambda g: place[g[0]]) if shown.groups else [(i, shown.options[i], 1) for i in order]
            listed = Shown(shown.prompt, [shown.options[i] if n == 1 else f"{text} ×{n}" for i, text, n in groups],
                           [shown.keys[i] for i, _, _ in groups], shown.secret)
            return groups[self._ask(pr, listed, len(groups), model, heading, numbers=by_value(listed))][0]
        first = Shown(shown.prompt, [s.text for s in steps], [[k for i in s.options for k in shown.keys[i]] for s in steps],
                      shown.secret)
        while True:  # a long menu in two steps: first what, then the rest; still one answer of one decision
            step = steps[self._ask(pr, first, len(steps), model, heading)]
            if len(step.options) == 1:
                return step.options[0]
            second = Shown(shown.prompt, [shown.options[i] for i in step.options], [shown.keys[i] for i in step.options],
                           shown.secret)
            picked = self._ask(pr, second, len(step.options), model, heading, back=True)
            if picked is not None:
                return step.options[picked]

    def _ask(self, pr, shown, n: int, model, heading: str, back: bool = False, numbers=False) -> int | None:
        """One screen and the person's answer: the index of one of `shown`'s n options (listed in that order),
        or None for `-` where `back` allows it. `numbers`: True when the options are numbers, answered by the
        number itself (never its place); (low, high) for a number typed in that range, answered by its index."""
        from interpreter.present.terminal import asked_line, help_lines, number_in, screen, terminal_size, whole_table
        out = self.stdout
        order = list(range(n))
        page = 0

        def draw():
            if model is None:
                lines = [heading, asked_line(shown.prompt)] + [f"  {shown.options[i]}" if numbers else f"  [{i}] {shown.options[i]}"
                                                          for i in order]
                return lines, 1
            rows, columns = terminal_size(out)  # read again at each drawing: the terminal may have been resized
            # the blank line before the screen, the prompt after it and the step-back line are the agent's
            return screen(model, pr, shown, order, self.last, heading, page, rows - 2 - back, columns, by_value=bool(numbers))

        def show():
            lines, count = draw()
            out.write("\n" + "\n".join(lines) + "\n" + (pr.say("step back") + "\n" if back else ""))
            return count

        self.redraw = show  # what a resize of the terminal draws again (HumanAgent.resized)
        pages = show()
        while True:
            self.waiting = True  # from here on, a resize draws the screen again at once
            if self.stale:  # the terminal was resized before: while the screen was drawn, or an answer read
                self.stale = False
                pages = show()
            out.write("> ")
            out.flush()
            try:
                wait_for_a_line(self.stdin)
                line = self.stdin.readline()
            except OSError:  # the terminal went away (EIO after a hang-up): as the end of the input
                line = ""
            finally:
                self.waiting = False
            if not line:  # end of input (Ctrl-D, a closed pipe): the game cannot go on
                raise InputEnded([Diagnostic("RUN-ERROR", f"the input ended before {player_label(pr.viewer)} answered",
                                             hint="type an option's number, then Enter")])
            text = line.strip()
            if back and text == "-":
                return None
            if text in (">", "<"):
                page = max(0, min(pages - 1, page + (1 if text == ">" else -1)))
                pages = show()
                continue
            if text.lower() in LOG_WORDS:  # every line since the last decision, the folded ones too
                out.write((pr.say("log since") + "\n" + "".join(f"  {x}\n" for x in self.last)) if self.last else
                          pr.say("log nothing") + "\n")
                continue
            if text.lower() in LOG_ALL_WORDS:
                out.write("".join(f"  {x}\n" for x in self.heard))
                continue
            if text.lower() in HELP_WORDS:
                out.write("\n".join(help_lines(pr, terminal_size(out)[1])) + "\n")
                continue
            if text.startswith("?"):
                out.write("".join(f"  {x}\n" for x in self._lookup(text[1:].strip(), pr, shown, order, model, whole_table)))
                continue
            if text.lower() in UNDO_WORDS:  # back to this person's previous decision, if there was one
                if not self.answered:
                    out.write(pr.say("nothing to undo") + "\n")
                    continue
                out.write(pr.say("undone") + "\n")
                raise Undo(pr.viewer if pr.viewer is not None else 0)
            typed = number_in(text)
            if isinstance(numbers, tuple):
                if typed is not None and numbers[0] <= typed <= numbers[1]:
                    return typed - numbers[0]
                out.write(pr.say("not legal") + "\n")
                continue
            if numbers:  # the options are numbers: the one typed
                found = [i for i in order if typed is not None and number_in(shown.options[i]) == typed]
                if len(found) == 1:
                    return found[0]
            elif text.isdigit() and int(text) < n:
                return int(text)
            matches = [] if numbers else [i for i in order if text and shown.options[i].lower().startswith(text.lower())]
            if len(matches) == 1:
                return matches[0]
            out.write(pr.say("not legal") + "\n")

    @staticmethod
    def _lookup(wanted: str, pr, shown, order, model, whole_table) -> list[str]:
        from interpreter.present.terminal import lookup
        if not wanted:
            return whole_table(model, pr) if model is not None else []
        if wanted.isdigit() and int(wanted) < len(order):
            return [f"{name}: {body}" for name, body in shown.keys[order[int(wanted)]]] or [pr.say("no card in option")]
        return (lookup(model, pr, wanted) if model is not None else []) or [pr.say("no such card")]


AGENT_KINDS = ("random", "human", "ismcts", "greedy")

# the search agents' settings, `rules play --agent-arg NAME=VALUE`: name -> (type, default, lowest, highest, what)
# (the greedy agent takes `worlds` only: GreedyAgent.ARGS). Each is bounded: a search of a million simulations a
# decision would run for days, and an exploration constant of 1e308 makes every UCT value infinite (returns are
# between 0 and 1, so constants past 100 explore no differently).
# ISMCTS: the defaults where the game's manifest sets none (`bots: search:`, ismcts_agent.ISMCTSAgent)
AGENT_ARGS = {
    "simulations": (int, 100, 1, 10_000, "simulations per decision (the search budget)"),
    "uct_c": (float, 1.0, 0.0, 100.0, "the exploration constant of UCT (returns are between 0 and 1)"),
    "worlds": (int, 4, 1, 10_000, "worlds drawn per decision; past that, simulations search copies of them "
               "(greedy: 1 unless set, an option's value is its mean over this many worlds)"),
    "horizon": (int, 0, 0, 10_000, "random decisions a rollout plays before the position is valued by the game's evaluation"),
    "prior_depth": (int, 2, 0, 100, "decisions deep from the root where options are ranked by the evaluation one move ahead"),
    "widening": (float, 1.0, 0.0, 100.0, "a ranked node of n visits has at most widening * sqrt(n + 1) children (0: all)"),
    "puct": (int, 1, 0, 1, "1: children selected by PUCT, exploring as the evaluation's ranking says; 0: by UCT"),
    "opponents": (int, 0, 0, 1, "1: the other seats answer in the search as the greedy agent would (only this seat branches); 0: all searched"),
    "baseline": (int, 1, 0, 1, "1: a leaf valued less its drawn world's value at the root (common random numbers); 0: as the evaluation gives it"),
    "rollout": (int, 0, 0, 1, "1: the horizon's decisions answered as the greedy agent would (one move ahead by the evaluation); 0: at random"),
}


def parse_agent_args(pairs: list[str]) -> dict:
    """`--agent-arg KEY=VALUE` (repeated) into typed values; a USAGE error for anything else."""
    out = {}
    known = "; ".join(f"{k} ({t.__name__}, default {d}, {low:g} to {high:g}): {what}" for k, (t, d, low, high, what) in AGENT_ARGS.items())
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': write KEY=VALUE", hint=f"keys: {known}")])
        if key not in AGENT_ARGS:
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': no agent takes '{key}'", hint=f"keys: {known}")])
        kind, _, low, high, _ = AGENT_ARGS[key]
        try:
            parsed = kind(value.strip())
        except (ValueError, OverflowError):
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': {key} is a {'whole number' if kind is int else 'number'}")]) from None
        if not low <= parsed <= high:  # NaN fails this too
            raise DiagnosticError([Diagnostic("USAGE", f"--agent-arg '{pair}': {key} must be from {low:g} to {high:g}",
                                              hint=f"keys: {known}")])
        out[key] = parsed
    return out


def agent_spec(text: str) -> tuple:
    """An agent as `--agents` names it: a kind, optionally with settings of its own, `ismcts:simulations=50:horizon=0`
    (a ladder rates several settings of one agent): (kind, {setting: value}); a USAGE error for anything else."""
    kind, *pairs = text.strip().split(":")
    kind = kind.strip()
    if kind not in AGENT_KINDS:
        raise DiagnosticError([Diagnostic("USAGE", f"no agent '{kind[:40]}'", hint=f"agents are: {', '.join(AGENT_KINDS)}")])
    return kind, parse_agent_args(pairs)


def make_agent(kind: str, seat: int, seed: int, options: dict | None = None):
    if ":" in kind:  # an agent with settings of its own, over the common ones
        kind, own = agent_spec(kind)
        options = {**(options or {}), **own}
    if kind == "random":
        return RandomAgent(seed * 7919 + seat + 1)
    if kind == "human":
        return HumanAgent()
    if kind == "ismcts":  # OpenSpiel's information-set MCTS; attach(session) before it decides
        from interpreter.agents.ismcts_agent import ISMCTSAgent
        return ISMCTSAgent(seat, seed * 7919 + seat + 1, **(options or {}))
    if kind == "greedy":  # one move ahead by the game's evaluation, in a sampled world; attach(session) first
        from interpreter.agents.greedy import GreedyAgent
        return GreedyAgent(seat, seed * 7919 + seat + 1, **{k: v for k, v in (options or {}).items() if k in GreedyAgent.ARGS})
    raise ValueError(kind)


def wait_for_a_line(stream) -> None:
    """At a terminal, wait for the person's line in half-second steps before reading it. Python runs a signal's
    handler between steps of the program, not inside a blocking read: a Ctrl-C that came after the prompt was
    written but before the read began would be handled only once a line came (and Ctrl-C empties the line
    being typed), so the game would seem to ignore it. Each step hands control back, and the signal is handled."""
    try:
        fd = stream.fileno()
        if not os.isatty(fd):
            return  # a pipe or a file: its lines are there or at their end
    except (AttributeError, OSError, ValueError):  # not a file (a test's StringIO)
        return
    while not select.select([fd], [], [], 0.5)[0]:
        pass


def play_with_agents(game, players: int, kinds: list, seed: int, options: dict | None = None,
                     variants: tuple = ()) -> list:
    """Play one game with these agent kinds (one per seat), through the one decision path; its winners."""
    from interpreter.runtime.session import Session  # the runtime imports nothing of agents: no cycle at import
    session = Session(game, players, seed, tuple(variants), start=False)
    agents = [make_agent(kind, seat, seed, options) for seat, kind in enumerate(kinds)]
    for agent in agents:
        if hasattr(agent, "attach"):  # a search agent follows the game it plays
            agent.attach(session)
    session.call(game.content.manifest["start"])
    while session.pending is not None:
        d = session.pending
        session.answer(agents[d.player if d.player is not None else 0].decide(d, None))
    return session.result.winners
