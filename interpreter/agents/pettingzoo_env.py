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

Agents are P1, P2, ...; the agent to act is the pending decision's player. Actions are the game's fixed
action space (`actions.ActionSpace`: a stable id per word of an option's label, an option of several
words chosen word by word), or with `actions="indices"` the index of an option (at most
`max_actions`). `observation["observation"]` is `encoding.Encoder`'s vector of that agent's view and of
the pending decision (nothing from the rest of the state), `env.observation_text(agent)` the same view
as text with the options. The environment keeps a live engine (nothing is replayed). At the end the
winners share a reward of 1. `reset(seed=S)` deals game S (the engine's seeded RNG).
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.agents.actions import ActionSpace, Picker
from interpreter.agents.encoding import Encoder
from interpreter.agents.encoding_live import encode_live
from interpreter.agents.line import Line
from interpreter.core.decisions import player_label
from interpreter.present.views import can_see
from interpreter.runtime.games import load_compiled

MAX_ACTIONS = 512


class RulesEnv(AECEnv):
    metadata = {"name": "rules_env", "render_modes": ["ansi"], "is_parallelizable": False}

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
            raise DiagnosticError([Diagnostic("USAGE", f"render_mode '{render_mode}': only 'ansi' is supported")])
        if actions not in ("fixed", "indices"):
            raise DiagnosticError([Diagnostic("USAGE", f"actions='{actions}': one of fixed, indices")])
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rules_{content.id}"}
        self.seed = seed
        self.fixed = actions == "fixed"
        self.space = ActionSpace(self.compiled, self.players)
        self.max_actions = self.space.size if self.fixed else max_actions
        self.encoder = Encoder(self.compiled, self.players, self.space)
        self.possible_agents = [player_label(i) for i in range(self.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
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

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.seed = int(seed)
        self.line = Line(self.compiled, self.players, self.seed, self.variants, lazy=True)
        self.picker = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def _options(self) -> Picker | None:
        line = self.line
        if not self.fixed or line.finished:
            return None
        if self.picker is None:
            self.picker = Picker(self.space.tokens(line.session.state, line.decision, line.to_act()))
        return self.picker

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to act (the nonzero entries of its mask)."""
        line = self.line
        if line.finished:
            return []
        picker = self._options()
        if picker is not None:
            return picker.legal()
        n = len(line.decision.values)
        if n > self.max_actions:
            raise DiagnosticError([Diagnostic("USAGE", f"a decision has {n} options, more than max_actions={self.max_actions}")])
        return list(range(n))

    def _legal(self, action: int) -> bool:
        if self.fixed:
            return action in self.legal_actions()
        n = len(self.line.decision.values)  # the options' indices (and at most max_actions)
        if n > self.max_actions:
            self.legal_actions()  # says so
        return 0 <= action < n

    def observe(self, agent):
        seat = self._seat[agent]
        line = self.line
        to_act = None if line.finished else line.to_act()
        mask = np.zeros(self.max_actions, np.int8)
        picked = ()
        if to_act == seat:
            if self.fixed:
                mask[self.legal_actions()] = 1
                picked = self._picked(seat)
            else:
                mask[:len(self.legal_actions())] = 1  # options 0..n-1 (a slice: cheaper than a list of places)
                if line.picked:
                    picked = self._picked(seat)
        session = line.session
        return {"observation": encode_live(self.encoder, session.rt, seat, session.pending, to_act, picked),
                "action_mask": mask}

    def _picked(self, seat: int) -> list[int]:
        space, state = self.space, self.line.session.state
        out = [space.ids[w] for label in self.line.picked for w in label.split(" ")
               if w in space.ids and (w not in space.components or can_see(state.entities[w], seat))]
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
        if self.line.finished:
            self._clear_rewards()
            for a, r in zip(self.possible_agents, self.line.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
            self._after_move()
            self._accumulate_rewards()
            return
        self._after_move()

    def _after_move(self):
        line = self.line
        if not line.finished:
            self.agent_selection = self.possible_agents[line.to_act()]
        elif getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        if self.render_mode == "ansi":
            return self.line.observation(self.line.to_act() if not self.line.finished else 0)
        return None

    def close(self):
        self.line = None
