"""Every content game as an OpenSpiel Python game (pyspiel's Python game API).

    from interpreter.agents.openspiel_game import load_game
    game = load_game("kings_bounty", players=4, seed=7)      # or pyspiel.load_game("rules_kings_bounty", {...})

- Sequential, imperfect information. An action is the index of an option of the pending decision;
  the player to act is the decision's player. Secret simultaneous decisions (a `secretly` wave) come
  one player at a time, as the engine asks them; the earlier answers of the wave are in no view.
- Chance: the engine's seeded RNG, inside the game. Given its `seed` parameter a game is
  deterministic (no chance nodes): load it with another seed for another deal.
- Returns at the end: the winners share 1, the others get 0 (constant sum).
- Observation string: the player's view (`interpreter.present.observed.observed`: a component it
  cannot see, even one a variable holds or a zone lies on, reads only as where it lies) and, when
  it is to act, its options. Information-state string: everything the player was told and did, then that
  observation. Observation tensor: `encoding.Encoder`. Nothing comes from the full state.
- `resample_from_infostate` gives a state the player cannot tell from this one, drawn from what it
  knows (`line.sample`); OpenSpiel's information-set MCTS searches through it.

Parameters: players, seed, variants (comma-separated), max_actions (options a decision may have),
max_game_length.
"""
from __future__ import annotations

import random

import numpy as np
import pyspiel

from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.agents.encoding import Encoder
from interpreter.agents.line import Line, sample, shown_label
from interpreter.core.decisions import player_label
from interpreter.present.words import prompt
from interpreter.runtime.games import known_games, load_compiled

PREFIX = "rules_"
MAX_ACTIONS = 512
MAX_GAME_LENGTH = 100_000
_registered: dict = {}


def short_name(game_name: str) -> str:
    return PREFIX + game_name


def register(game_name: str) -> str:
    """Register one content game with OpenSpiel (once); returns its OpenSpiel short name."""
    if game_name in _registered:
        return _registered[game_name]
    compiled = load_compiled(game_name)
    manifest = compiled.content.manifest
    spec = manifest["players"]
    name = short_name(compiled.content.id)
    defaults = {"players": spec.get("default") or spec["min"], "seed": 0, "variants": "",
                "max_actions": MAX_ACTIONS, "max_game_length": MAX_GAME_LENGTH}
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{manifest.get('name', name)} (rules language)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec["max"],
        min_num_players=spec["min"],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults)

    # one class per game, as OpenSpiel's own Python games register a class
    cls = type(f"RulesGame_{compiled.content.id}", (RulesGame,), {"GAME_TYPE": game_type, "GAME_NAME": game_name, "DEFAULTS": defaults})
    pyspiel.register_game(game_type, cls)
    _registered[game_name] = name
    return name


def register_all() -> list[str]:
    """Register every game under content/ that loads; the others are left out (`rules validate` tells why)."""
    names = []
    for game in known_games():
        try:
            names.append(register(game))
        except DiagnosticError:
            continue
    return names


def load_game(game_name: str, players: int | None = None, seed: int = 0, variants=(), **params):
    """The content game as a pyspiel game, with its parameters checked (a USAGE error, never a traceback)."""
    name = register(game_name)
    compiled = load_compiled(game_name)
    spec = compiled.content.manifest["players"]
    players = players or spec.get("default") or spec["min"]
    if not spec["min"] <= players <= spec["max"]:
        raise DiagnosticError([Diagnostic("USAGE", f"{compiled.content.id} is for {spec['min']} to {spec['max']} players, not {players}")])
    for v in variants:
        if v not in compiled.content.vocabulary.variants:
            raise DiagnosticError([Diagnostic("USAGE", f"{compiled.content.id} has no variant '{v}'")])
    return pyspiel.load_game(name, {"players": int(players), "seed": int(seed), "variants": ",".join(variants), **params})


class RulesGame(pyspiel.Game):
    GAME_TYPE = GAME_NAME = DEFAULTS = None  # set for each game by `register`

    def __init__(self, params: dict | None = None):
        params = {**self.DEFAULTS, **(params or {})}
        self.compiled = load_compiled(self.GAME_NAME)
        self.players = int(params["players"])
        self.seed = int(params["seed"])
        self.variants = tuple(v for v in str(params["variants"]).split(",") if v)
        self.max_actions = int(params["max_actions"])
        info = pyspiel.GameInfo(
            num_distinct_actions=self.max_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=int(params["max_game_length"]))
        super().__init__(self.GAME_TYPE, info, params)
        self.encoder = Encoder(self.compiled, self.players)

    def new_initial_state(self, track: bool = True):
        return RulesState(self, Line(self.compiled, self.players, self.seed, self.variants, track=track))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulesObserver(self, recall)


class RulesState(pyspiel.State):
    def __init__(self, game: RulesGame, line: Line | None = None):
        super().__init__(game)
        # OpenSpiel's clone makes a state of the game and deep-copies this attribute: Line.__deepcopy__
        self.line = line if line is not None else Line(game.compiled, game.players, game.seed, game.variants)

    def current_player(self):
        if self.line.finished:
            return pyspiel.PlayerId.TERMINAL
        return self.line.to_act()

    def _legal_actions(self, player):
        d = self.line.decision
        if d is None or player != self.line.to_act():
            return []
        if len(d.values) > self.get_game().max_actions:
            raise DiagnosticError([Diagnostic("USAGE", f"a decision has {len(d.values)} options, more than max_actions={self.get_game().max_actions}",
                                              hint="load the game with a larger max_actions")])
        return list(range(len(d.values)))

    def _apply_action(self, action):
        self.line.apply(int(action))

    def _action_to_string(self, player, action):
        d = self.line.decision
        if d is not None and 0 <= action < len(d.values):
            # as the player to act may read it; the index keeps two "(hidden)" options apart
            return f"[{action}] " + shown_label(self.line.session.state, d.label(action), self.line.to_act())
        return f"option {action}"

    def is_terminal(self):
        return self.line.finished

    def returns(self):
        return self.line.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, drawn with the sampler's numbers."""
        rng = random.Random(int(probability_sampler() * 2 ** 52))
        return RulesState(self.get_game(), sample(self.line, player_id, rng))

    def __str__(self):
        d = self.line.decision
        head = f"{self.line.game.content.id}, {self.line.players} players, seed {self.line.seed}, {len(self.line.answers)} answers"
        if d is None:
            return head + ", over: returns " + str(self.line.returns())
        return head + f", {player_label(self.line.to_act())} to answer '{prompt(d)}'"


class RulesObserver:
    """Strings and tensors of one player's knowledge: its view (observation) or its whole record (recall)."""

    def __init__(self, game: RulesGame, recall: bool):
        self.recall = recall
        self.encoder = game.encoder
        self.tensor = np.zeros(0 if recall else self.encoder.size, np.float32)
        self.dict = {} if recall else {"observation": self.tensor}

    def set_from(self, state: RulesState, player: int):
        if not self.recall:
            line = state.line
            self.encoder.encode(line.session.state, player, None if line.finished else line.to_act(), self.tensor)

    def string_from(self, state: RulesState, player: int):
        return state.line.information(player) if self.recall else state.line.observation(player)


def sampling_counts() -> dict:
    from interpreter.agents.line import Sampling
    return Sampling.counts()
