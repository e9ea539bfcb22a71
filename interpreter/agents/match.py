"""One game played by its seats' agents, which a person can take back (`undo`) and which can go on from
a log (`rules play --resume`). Both rebuild the game the one way a game is ever reproduced: from its
seed, answering its decisions again (interpreter.runtime.gamelog). The agents are seated afresh and
each is told its own replayed answers (`follow`), so a random agent draws as it did and its later
answers are those of an uninterrupted game; the answers themselves come from the record, never from
deciding again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.agents.players import Undo, make_agent
from interpreter.core.decisions import Decision, player_label
from interpreter.present.views import view
from interpreter.present.words import telling
from interpreter.runtime.gamelog import make_log, mismatch
from interpreter.runtime.session import Session


def seat_of(decision: Decision) -> int:
    """The seat whose agent answers a decision (one asked of nobody is the first seat's)."""
    return decision.player if decision.player is not None else 0


@dataclass
class Match:
    """A game, its seats and what was taken back. `tell(to, text, agents, replaying)` hears each line of
    the account with the agents of the session that told it, and whether it is a replayed line (undo,
    resume) that was already shown once."""
    game: object
    players: int
    seed: int
    variants: tuple
    kinds: list[str]
    options: dict
    lang: str
    reader: int | None
    tell: Callable
    session: Session | None = None
    agents: list = field(default_factory=list)
    deciders: list[int] = field(default_factory=list)  # the seat that answered each decision so far
    undone: list[dict] = field(default_factory=list)  # the log's `undone` entries, oldest first
    busy: bool = False  # an answer is being applied: the state may be half-way through a step

    @property
    def humans(self) -> set[int]:
        return {seat for seat, kind in enumerate(self.kinds) if kind == "human"}

    def decisions(self) -> list[list]:
        """The decisions so far as a log holds them: [option index, label]."""
        s = self.session
        return [[i, label] for i, label in zip(s.history, s.labels)]

    def start(self, decisions: list | tuple = (), source: str = "the log") -> None:
        """A new game from the seed with its agents seated, and `decisions` answered again, each checked
        against what the game asks (a LOG-MISMATCH naming `source` if one does not fit). The match takes
        the new game only when it is rebuilt whole: an interruption meanwhile leaves the old one."""
        agents = [make_agent(kind, seat, self.seed, self.options) for seat, kind in enumerate(self.kinds)]
        replaying = [bool(decisions)]  # lines already told once, when these decisions were first played
        session = Session(self.game, self.players, self.seed, self.variants, start=False, lang=self.lang, reader=self.reader,
                          account=telling(lambda to, text: self.tell(to, text, agents, replaying[0])))
        for agent in agents:
            if hasattr(agent, "attach"):  # a search agent, the human's screen: they follow the game's answers
                agent.attach(session)
        deciders: list[int] = []
        if self.session is None:  # the first game: an error while it starts is logged from it
            self.session, self.agents, self.deciders = session, agents, deciders
        session.call(self.game.content.manifest["start"])
        for n, (index, label) in enumerate(decisions, 1):
            problem = mismatch(session, n, len(decisions), index, label)
            if problem:
                raise DiagnosticError([Diagnostic("LOG-MISMATCH", f"{source}: {problem}", None,
                                                  "the log was changed, or written by other content: `rules replay` it to see")])
            seat = seat_of(session.pending)
            follow = getattr(agents[seat], "follow", None)
            if follow is not None:
                follow(session.pending, index)
            session.answer(index)
            deciders.append(seat)
        replaying[0] = False
        self.session, self.agents, self.deciders = session, agents, deciders

    def play(self, check: Callable | None = None, save: Callable | None = None) -> None:
        """Ask each decision's agent until the game ends. `save()` runs before a person is asked (a copy of
        the game so far, in case the process dies), `check()` after each answer; an Undo rebuilds the game
        at the asker's previous decision."""
        humans = self.humans
        while self.session.pending is not None:
            d = self.session.pending
            seat = seat_of(d)
            if save is not None and seat in humans:
                save()
            seen = view(self.session.state, d.player) if d.player in humans else None
            try:
                answer = self.agents[seat].decide(d, seen)
            except Undo:
                self.undo(seat)
                continue
            self.busy = True
            self.session.answer(answer)
            self.busy = False
            self.deciders.append(seat)
            if check is not None:
                check()

    def undo(self, seat: int) -> bool:
        """Back to `seat`'s previous decision: the game rebuilt with the decisions before it, the ones after
        it recorded as undone. False if the seat has answered nothing yet."""
        back = max((j for j, s in enumerate(self.deciders) if s == seat), default=None)
        if back is None:
            return False
        line = self.decisions()
        self.start(line[:back])
        self.undone.append({"after": back, "by": player_label(seat), "decisions": line[back:]})
        return True

    def log(self, game_ref: str, unfinished: str | None = None) -> dict:
        """The log of the game so far, with its seats, language and undos; `unfinished` says why it stopped
        before its end. Stopped half-way through applying an answer, the state logged is that of a clean
        replay of the answers (what `rules replay` and `--resume` will find)."""
        session = self.session
        if unfinished is not None and self.busy:
            session = self._replayed(self.decisions())
        return make_log(session, game_ref, seats=self.kinds, agent_args=self.options, lang=self.lang,
                        undone=self.undone, unfinished=unfinished)

    def _replayed(self, line: list) -> Session:
        for keep in (line, line[:-1]):  # the answer being applied, unless it is what stopped the game
            session = Session(self.game, self.players, self.seed, self.variants, start=False, lang=self.lang)
            try:
                session.call(self.game.content.manifest["start"])
                for index, _ in keep:
                    session.answer(index)
            except DiagnosticError:
                continue
            if session.pending is not None:
                return session
        return self.session
