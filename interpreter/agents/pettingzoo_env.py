"""Every content game as a PettingZoo AEC environment with action masks.

    from interpreter.agents.pettingzoo_env import RulesEnv
    env = RulesEnv("kings_bounty", players=4)
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]          # 1 for each legal action
            action = int(mask.nonzero()[0][0])         # your policy here
        env.step(action)

Agents are `player_0`, `player_1`, ... (as PettingZoo names them; the words a player reads still say P1,
P2, ...); the agent to act is the pending decision's player. Actions are the game's fixed action space
(`actions.ActionSpace`: a stable id per word of an option's label and per whole option naming components or
players, the other options of several words chosen word by word; `actions="words"`: every option word by word,
no whole options), or with `actions="indices"` the index of an option (at most `max_actions`). `observation["observation"]` is `encoding.Encoder`'s vector of that
agent's view and of the pending decision (nothing from the rest of the state; every feature named, with its
range, in `observation_spec()`), `env.observation_text(agent)` the same view as text with the options. The
environment keeps a live engine (nothing is replayed). At the end the winners share a reward of 1; a game
still going after the manifest's `max_decisions` is truncated, a draw (an equal share each).
`reset(seed=S)` deals game S (the engine's seeded RNG: the game `rules play --seed S` deals) and seeds the
environment's own generator, from which each later `reset()` draws the next game's seed; a `reset()` with no
seed ever given draws it from the system's entropy. Render modes: "ansi" returns the table in words as the
agent to act reads it, "human" prints it.
"""
from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.agents.actions import ActionSpace, Picker
from interpreter.agents.encoding import Encoder
from interpreter.agents.encoding_live import encode_live
from interpreter.agents.line import Line
from interpreter.runtime.games import load_compiled

MAX_ACTIONS = 512


class RulesEnv(AECEnv):
    metadata = {"name": "rules_env", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, variants=(), seed: int = 0,
                 max_actions: int = MAX_ACTIONS, render_mode: str | None = None, actions: str = "fixed"):
        super().__init__()
        self.compiled = load_compiled(game)
        content = self.compiled.content
        spec = content.manifest["players"]
        self.players = players or spec.get("default") or spec["min"]
        if not spec["min"] <= self.players <= spec["max"]:
            raise DiagnosticError([Diagnostic("USAGE", f"{content.id} is for {spec['min']} to {spec['max']} players, not {self.players}")])
        self.variants = tuple(variants)
        for v in self.variants:
            if v not in content.vocabulary.variants:
                raise DiagnosticError([Diagnostic("USAGE", f"{content.id} has no variant '{v}'")])
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise DiagnosticError([Diagnostic("USAGE", f"render_mode '{render_mode}': one of {', '.join(self.metadata['render_modes'])}")])
        if actions not in ("fixed", "words", "indices"):
            raise DiagnosticError([Diagnostic("USAGE", f"actions='{actions}': one of fixed, words, indices")])
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rules_{content.id}"}
        self.seed = seed
        self.max_decisions = int(content.manifest.get("max_decisions") or 100_000)
        self.fixed = actions != "indices"
        self.space = ActionSpace(self.compiled, self.players, whole=actions != "words")
        self.max_actions = self.space.size if self.fixed else max_actions
        self.encoder = Encoder(self.compiled, self.players, self.space)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        spec = self.encoder.spec()
        low = np.array([lo for _, lo, _ in spec], np.float32)
        high = np.array([hi for _, _, hi in spec], np.float32)
        observation = spaces.Dict({
            "observation": spaces.Box(low, high, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
        })
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.line = None
        self.picker: Picker | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observation_spec(self) -> list:
        """Every feature of `observation["observation"]`, in order: (name, lowest, highest) (`Encoder.spec`)."""
        return self.encoder.spec()

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.seed = int(seed)
            self._deals = random.Random(self.seed)  # the seeds of the games the next resets deal
        else:
            if getattr(self, "_deals", None) is None:
                self._deals = random.Random(random.SystemRandom().getrandbits(62))
            self.seed = self._deals.getrandbits(31)
        self.line = Line(self.compiled, self.players, self.seed, self.variants, lazy=True)
        self.line.limit = self.max_decisions
        self.picker = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def _options(self, turn: tuple | None = None) -> Picker | None:
        if self.picker is None and self.fixed:
            d, who, _ = self.line.turn() if turn is None else turn
            if who is None:
                return None
            self.picker = Picker(self.space.tokens(self.line.session.state, d, who))
        return self.picker

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to act (the nonzero entries of its mask)."""
        turn = self.line.turn()
        d, who, _ = turn
        if who is None:
            return []
        picker = self._options(turn)
        if picker is not None:
            return picker.legal()
        n = len(d.values)
        if n > self.max_actions:
            raise DiagnosticError([Diagnostic("USAGE", f"a decision has {n} options, more than max_actions={self.max_actions}")])
        return list(range(n))

    def _legal(self, action: int) -> bool:
        if self.fixed:
            picker = self._options()
            return picker is not None and picker.allows(action)
        n = len(self.line.decision.values)  # the options' indices (and at most max_actions)
        if n > self.max_actions:
            self.legal_actions()  # says so
        return 0 <= action < n

    def observe(self, agent):
        seat = self._seat[agent]
        line = self.line
        turn = line.turn()
        d, to_act, _ = turn
        mask = np.zeros(self.max_actions, np.int8)
        picked = ()
        if to_act == seat:
            if self.fixed:
                mask.put(self._options(turn).legal_view(), 1)  # (a list's places: numpy's `put`, half an index's cost)
                picked = self._picked(seat)
            else:
                mask[:len(self.legal_actions())] = 1  # options 0..n-1 (a slice: cheaper than a list of places)
                if line.picked:
                    picked = self._picked(seat)
        return {"observation": encode_live(self.encoder, line._session.rt, seat, d, to_act, picked),
                "action_mask": mask}

    def _picked(self, seat: int) -> list[int]:
        if not self.line.picked:  # most decisions: at most the words of the option being picked
            return list(self.picker.prefix) if self.picker is not None else []
        out = self.space.picked(self.line.picked, self.line.session.state, seat)
        return out + list(self.picker.prefix) if self.picker is not None else out

    def observation_text(self, agent) -> str:
        return self.line.observation(self._seat[agent])

    def observation_words(self, agent) -> str:
        """The table and the question as a person reads them (the table model), for bots that read words."""
        from interpreter.present.observed import table_text
        return table_text(self.line.session, self._seat[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self._legal(int(action)):
            raise ValueError(f"{agent}: action {action} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        picker = self._options()
        index = int(action) if picker is None else picker.pick(int(action))
        if index is not None:
            self.picker = None
            self.line.apply(index)
        self._stepped()

    def step_option(self, index: int) -> None:
        """Answer the pending decision with its option `index`, whatever the action space (a fixed action
        space's word-by-word picks skipped), as OpenSpiel's `apply_option`: for tools that think in options."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent] or not 0 <= index < len(self.line.decision.values):
            raise ValueError(f"{agent}: option {index} is not an option of the pending decision")
        self._cumulative_rewards[agent] = 0.0
        self.picker = None
        self.line.apply(index)
        self._stepped()

    def _stepped(self) -> None:
        """After an answer: the rewards at the end, who acts next (rewards stay 0 until the end: nothing to
        clear or add up before)."""
        if self.line.turn()[1] is None:  # over
            self._clear_rewards()
            over = self.truncations if self.line.truncated else self.terminations
            for a, r in zip(self.possible_agents, self.line.returns()):
                self.rewards[a] = r
                over[a] = True
            self._after_move()
            self._accumulate_rewards()
            return
        self._after_move()

    def _after_move(self):
        who = self.line.turn()[1]
        if who is not None:
            self.agent_selection = self.possible_agents[who]
        elif getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        """The table in words (`observation_words`) as the agent to act reads it (the first at the end): returned
        in "ansi" mode, printed in "human" mode."""
        if self.render_mode is None:
            return None
        text = self.observation_words(self.possible_agents[self.line.to_act() if not self.line.finished else 0])
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self):
        self.line = None
