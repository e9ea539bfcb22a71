"""Every content game as an OpenSpiel Python game (pyspiel's Python game API).

    import pyspiel
    import interpreter.agents.openspiel_game                 # registers every game under content/
    game = pyspiel.load_game("rules_kings_bounty", {"players": 4, "seed": 7})
    # or: from interpreter.agents.openspiel_game import load_game; load_game("kings_bounty", players=4, seed=7)

- Sequential, imperfect information. The player to act is the pending decision's player. Secret
  simultaneous decisions (a `secretly` wave) come one player at a time, as the engine asks them; the
  earlier answers of the wave are in no view.
- Actions: the game's fixed action space (`actions.ActionSpace`, the default `actions="fixed"`): one
  stable id per word an option's label can hold, an option of several words chosen word by word; or,
  with `actions="indices"`, the index of an option of the pending decision (at most `max_actions`).
- Each state keeps a live engine: observations, legal actions and returns read the current state;
  `clone()` copies the engine (`Session.copy`) without replaying the game.
- Chance (parameter `chance`): "explicit" (the default of `pyspiel.load_game`, `EXPLICIT_STOCHASTIC`): every
  draw the rules make where the game can stop (a shuffle, a roll, a random pick: the runtime's chance step)
  is a chance node, asked one element at a time (which component goes on top, then which next; each die),
  its outcomes equally likely (`chance_outcomes()`); so `new_initial_state()` is the game before any draw,
  and whoever samples the chance nodes (rl_environment, Shimmy, a search) deals a new game each time, which
  its own seed reproduces. The few draws made where nothing can be asked (inside a `whenever`, an
  ability's condition) come from the state's RNG, seeded by `seed`: a function of the game's history.
  "seed" (the default of this module's `load_game`, and of the project's own agents): the engine's seeded
  RNG makes every draw, game `seed` exactly as `rules play --seed` deals it (`DETERMINISTIC`, no chance
  nodes). A SAMPLED_STOCHASTIC game was not an option: pyspiel serializes such a game's states with its
  RNG's state, which a Python game cannot give (`GetRNGState unimplemented`).
- Returns at the end: the winners share 1, the others get 0 (constant sum).
- Observation string: the player's view (`interpreter.present.observed.observed`: a component it
  cannot see, even one a variable holds or a zone lies on, reads only as where it lies) and, when it is
  to act, its options and what it picked so far. Information-state string: everything the player was
  told and did, then that observation. Observation and information-state tensors: `encoding.Encoder`.
  Nothing comes from the full state.
- `resample_from_infostate` gives a state the player cannot tell from this one, drawn from what it
  knows (`line.sample`); OpenSpiel's information-set MCTS searches through it.

Parameters: players, seed, variants (comma-separated), chance ("explicit" or "seed"), actions ("fixed" or
"indices"), max_actions (options a decision may have, with "indices"). The game pickles (its name, parameters and deals made), and
so does a state (its game, deal and answers). `max_game_length` is the manifest's `max_decisions` times
the most actions a decision takes (`ActionSpace.most_words`): a game still going after `max_decisions`
decisions ends there, truncated, everyone getting an equal share (a draw).
"""
from __future__ import annotations

import functools

import random

import numpy as np
import pyspiel

from dsl.diagnostics import Diagnostic, DiagnosticError
from dsl.inputs import read_text
from dsl.loader import MANIFEST
from dsl.yaml_records import load_yaml
from interpreter.agents.actions import ActionSpace, Picker
from interpreter.agents.encoding import Encoder
from interpreter.agents.encoding_live import encode_live
from interpreter.agents.line import Line, sample, shown_label
from interpreter.agents.record import whole_table
from interpreter.core.decisions import player_label
from interpreter.present.words import prompt
from interpreter.runtime.games import known_games, load_compiled, locate

try:  # the runtime's chance step, whose chance seat makes OpenSpiel's chance nodes
    from interpreter.codegen import chance as _chance_step  # noqa: F401
    CHANCE_SEAT = True
except ImportError:  # an engine without it: chance stays inside the seeded RNG
    CHANCE_SEAT = False

PREFIX = "rules_"
MAX_ACTIONS = 512
DECISIONS = 100_000  # a game's decisions where its manifest declares no max_decisions
ACTIONS = ("fixed", "indices")
CHANCES = ("explicit", "seed")
_registered: dict = {}  # game folder -> its OpenSpiel short name (pyspiel's registry is process-wide too)
# a game's name as `load_game` was given it -> (its short name, the compiled game): finding the folder on disk
# each time cost more than an engine game's setup, and bots load a game per seed
_loaded: dict = {}


def short_name(game_name: str) -> str:
    return PREFIX + game_name


def register(game_name: str) -> str:
    """Register one content game with OpenSpiel (once), from its manifest alone; returns its short name.
    The game is compiled when OpenSpiel first makes it."""
    root = locate(game_name)
    if root in _registered:
        return _registered[root]
    doc, _ = load_yaml(str(root / MANIFEST), read_text(root / MANIFEST, str(root / MANIFEST)))
    manifest = doc.data if isinstance(doc.data, dict) else {}
    spec = manifest.get("players") or {}
    if not isinstance(spec.get("min"), int) or not isinstance(spec.get("max"), int):
        raise DiagnosticError([Diagnostic("USAGE", f"{root.name}: the manifest names no player counts")])
    name = short_name(root.name)
    defaults = {"players": spec.get("default") or spec["min"], "seed": 0, "variants": "", "chance": "explicit" if CHANCE_SEAT else "seed",
                "actions": "fixed", "max_actions": MAX_ACTIONS}

    def kind(mode):  # the game's type, with explicit chance nodes or none
        return pyspiel.GameType(
            short_name=name,
            long_name=f"{manifest.get('name', name)} (rules language)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=mode,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=spec["max"],
            min_num_players=spec["min"],
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=defaults)
    game_type = kind(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
    seeded = kind(pyspiel.GameType.ChanceMode.DETERMINISTIC)

    # one class per game, as OpenSpiel's own Python games register a class (pyspiel needs a class; a game pickles
    # through `RulesGame.__reduce__`, by the name it was registered under, not by its class)
    ref = root.name if root.name in known_games() and locate(root.name) == root else str(root)
    cls = type(f"RulesGame_{root.name}", (RulesGame,), {"GAME_TYPE": game_type, "SEEDED_TYPE": seeded, "GAME_NAME": str(root),
                                                        "DEFAULTS": defaults, "REF": ref})
    pyspiel.register_game(game_type, cls)
    _registered[root] = name
    return name


def register_all() -> list[str]:
    """Register every game under content/ whose manifest reads; the others are left out (`rules validate` tells why)."""
    names = []
    for game in known_games():
        try:
            names.append(register(game))
        except DiagnosticError:
            continue
    return names


def load_game(game_name: str, players: int | None = None, seed: int = 0, variants=(), chance: str = "seed", **params):
    """The content game as a pyspiel game, with its parameters checked (a USAGE error, never a traceback): by
    default game `seed` as the engine deals it (chance="seed"); chance="explicit" for chance nodes."""
    found = _loaded.get(game_name)
    if found is None:
        found = _loaded[game_name] = (register(game_name), load_compiled(game_name))
    name, compiled = found
    spec = compiled.content.manifest["players"]
    players = players or spec.get("default") or spec["min"]
    if not spec["min"] <= players <= spec["max"]:
        raise DiagnosticError([Diagnostic("USAGE", f"{compiled.content.id} is for {spec['min']} to {spec['max']} players, not {players}")])
    for v in variants:
        if v not in compiled.content.vocabulary.variants:
            raise DiagnosticError([Diagnostic("USAGE", f"{compiled.content.id} has no variant '{v}'")])
    if params.get("actions", "fixed") not in ACTIONS:
        raise DiagnosticError([Diagnostic("USAGE", f"actions='{params['actions']}': one of {', '.join(ACTIONS)}")])
    if chance not in CHANCES:
        raise DiagnosticError([Diagnostic("USAGE", f"chance='{chance}': one of {', '.join(CHANCES)}")])
    params["chance"] = chance
    return pyspiel.load_game(name, {"players": int(players), "seed": int(seed), "variants": ",".join(variants), **params})


@functools.lru_cache(maxsize=32)
def _parts(name: str, players: int) -> tuple:
    """The action space and the encoder of a game for a number of players: built from its content alone and
    never changed after (the encoder's live tensors are kept per session), so every pyspiel game made with other
    parameters (a seed per game) shares them instead of rebuilding them, which cost more than a game."""
    compiled = load_compiled(name)
    space = ActionSpace(compiled, players)
    return space, Encoder(compiled, players, space)


class RulesGame(pyspiel.Game):
    GAME_TYPE = SEEDED_TYPE = GAME_NAME = DEFAULTS = COMPILED = REF = None  # set for each game by `register` (COMPILED when first made)

    def __init__(self, params: dict | None = None):
        params = {**self.DEFAULTS, **(params or {})}
        if self.COMPILED is None:  # once per game class (a game per seed need not find its folder again)
            type(self).COMPILED = load_compiled(self.GAME_NAME)
        self.compiled = self.COMPILED
        self.players = int(params["players"])
        self.seed = int(params["seed"])
        self.variants = tuple(v for v in str(params["variants"]).split(",") if v)
        self.fixed = params["actions"] != "indices"
        self.max_actions = int(params["max_actions"])
        self.space, self.encoder = _parts(self.GAME_NAME, self.players)
        self.max_decisions = int(self.compiled.content.manifest.get("max_decisions") or DECISIONS)
        self.most_words = self.space.most_words if self.fixed else 1
        if params["chance"] not in CHANCES or (params["chance"] == "explicit" and not CHANCE_SEAT):
            raise DiagnosticError([Diagnostic("USAGE", f"chance='{params['chance']}': one of {', '.join(CHANCES)}")])
        self.explicit = params["chance"] == "explicit"
        # a draw's outcomes: a shuffle's or pick's among at most every component, a roll's or a pick of values
        # among at most max_actions (more is refused as it is asked: `chance_outcomes`)
        self.max_chance = max(len(self.compiled.content.entity_ids), self.max_actions) if self.explicit else 0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size if self.fixed else self.max_actions,
            max_chance_outcomes=self.max_chance,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_decisions * self.most_words)
        super().__init__(self.GAME_TYPE if self.explicit else self.SEEDED_TYPE, info, params)
        self.params = params
        self._initial: dict = {}  # the game as set up, once per kind of line

    def __reduce__(self):
        # pickled by the name the game was registered under and its parameters: a pool of processes or a Ray
        # actor can take it (the per-game class is not bound in this module)
        return (_unpickled_game, (self.REF, self.params))

    def new_initial_state(self, track: bool = True):
        # the first state is set up; later ones copy one set-up game (Session.copy, cheaper than setting up
        # again): a game made for one state (a game per seed) pays no copy
        key = "tracked" if track else "untracked"
        first = self._initial.get(key)
        if first is None:
            self._initial[key] = False
            return RulesState(self, self._line(track))
        if first is False:
            first = self._initial[key] = self._line(track)
            first.session  # noqa: B018 - set up once; each new game copies it when first used
        return RulesState(self, first.from_template())

    def _line(self, track: bool = True) -> Line:
        return Line(self.compiled, self.players, self.seed, self.variants, track=track, lazy=True,
                    chance="seat" if self.explicit else "seed")

    def observation_spec(self, info: bool = False) -> list:
        """Every feature of the observation tensor (the information-state tensor with `info`), in order:
        (name, lowest, highest) (`encoding.Encoder.spec`)."""
        return self.encoder.spec(info)

    def observation_tensor_size(self):
        return self.encoder.size

    def information_state_tensor_size(self):
        return self.encoder.info_size

    def observation_tensor_shape(self):
        return [self.encoder.size]

    def information_state_tensor_shape(self):
        return [self.encoder.info_size]

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulesObserver(self, recall)


def _unpickled_game(ref: str, params: dict) -> RulesGame:
    return pyspiel.load_game(register(ref), params)


class RulesState(pyspiel.State):
    def __init__(self, game: RulesGame, line: Line | None = None):
        super().__init__(game)
        # OpenSpiel's clone makes a state of the game and deep-copies these attributes (Line.__deepcopy__: Session.copy)
        self.line = line if line is not None else game._line(False)
        self.picker: Picker | None = None  # the words picked so far towards the pending decision's answer
        self.line.limit = game.max_decisions  # a game still going then ends there, truncated

    # ------------------------------------------------------------ actions
    def options(self, turn: tuple | None = None) -> Picker | None:
        """The pending decision's options as words of the action space (fixed actions only); `turn`: `Line.turn()`
        where the caller has it."""
        line = self.line
        d, who, _ = line.turn() if turn is None else turn
        if who is None or who < 0:
            return None
        picker = self.picker
        if picker is None or picker.answers != len(line.answers):
            game = self.get_game()
            if not game.fixed:
                return None
            picker = self.picker = Picker(game.space.tokens(line.session.state, d, who))
            picker.answers = len(line.answers)
        return picker

    def current_player(self):
        who = self.line.turn()[1]
        return who if who is not None and who >= 0 else pyspiel.PlayerId.TERMINAL if who is None else pyspiel.PlayerId.CHANCE

    def is_chance_node(self):
        # answered here: pyspiel's own asks current_player through its C++ wrapper, which costs more than the answer
        return self.line.turn()[1] == -1

    def chance_outcomes(self):
        """At a chance node: each option of the draw (its index), all equally likely."""
        d = self.line.decision
        if d is None or d.kind != "chance":
            return []
        if len(d.values) > self.get_game().max_chance:
            raise DiagnosticError([Diagnostic("RUN-LIMIT", f"a draw of {len(d.values)} outcomes, more than max_chance_outcomes "
                                                           f"{self.get_game().max_chance}", hint="load the game with chance='seed'")])
        p = 1.0 / len(d.values)
        return [(i, p) for i in range(len(d.values))]

    def legal_actions(self, player=None):
        """As pyspiel's (the current player's by default; none for another player or at the end), answered
        here rather than through pyspiel's C++ wrapper, which calls back into Python several times."""
        turn = self.line.turn()
        who = turn[1]
        if player is None:  # the current player's (`current_player`, inline)
            player = who if who is not None and who >= 0 else pyspiel.PlayerId.TERMINAL if who is None else pyspiel.PlayerId.CHANCE
        return self._legal_actions(player, turn)

    def _legal_actions(self, player, turn: tuple | None = None):
        turn = self.line.turn() if turn is None else turn
        d, who, _ = turn
        if who is None:
            return []
        if who == -1:
            return list(range(len(d.values))) if player == pyspiel.PlayerId.CHANCE else []
        if player != who:
            return []
        picker = self.options(turn)
        if picker is not None:
            return picker.legal()
        if len(d.values) > self.get_game().max_actions:
            raise DiagnosticError([Diagnostic("USAGE", f"a decision has {len(d.values)} options, more than max_actions={self.get_game().max_actions}",
                                              hint="load the game with a larger max_actions")])
        return list(range(len(d.values)))

    def legal_options(self) -> list[int]:
        """The option indices of the pending decision, whichever action space the game uses."""
        d = self.line.decision
        return [] if d is None or self.line.finished else list(range(len(d.values)))

    def apply_option(self, index: int) -> None:
        """Answer the pending decision with an option index (whichever action space the game uses)."""
        self.picker = None
        self.line.apply(int(index))

    def _apply_action(self, action):
        picker = self.picker
        if picker is None or picker.answers != len(self.line.answers):  # (legal_actions made it for this decision, as a rule)
            picker = self.options()  # (none at a chance node)
        if picker is None:
            self.line.apply(int(action))
            return
        index = picker.pick(int(action))
        if index is not None:
            self.picker = None
            self.line.apply(index)

    def _action_to_string(self, player, action):
        game = self.get_game()
        d = self.line.decision
        if player == pyspiel.PlayerId.CHANCE or (d is not None and d.kind == "chance" and player < 0):
            return f"chance: {d.label(action)}" if d is not None and 0 <= action < len(d.values) else f"chance {action}"
        if game.fixed:
            space = game.space
            if not 0 <= action < space.size:
                return f"action {action}"
            picker = self.picker if self.picker is not None and self.picker.answers == len(self.line.answers) else None
            if action >= space.word_count or picker is None:  # a whole option, or a word as the option's first
                return space.word(action)
            # a word after others: the option so far, and whether more words follow
            words = [space.word(w) for w in picker.prefix] + ([] if action == 0 else [space.word(action)])
            more = action != 0 and any(len(t) > len(words) and t[:len(words)] == tuple(picker.prefix) + (action,)
                                       for t in picker.tokens)
            return " ".join(words) + (" ..." if more else "")
        d = self.line.decision
        if d is not None and 0 <= action < len(d.values):
            # as the player to act may read it; the index keeps two "(hidden)" options apart
            return f"[{action}] " + shown_label(self.line.session.state, d.label(action), self.line.to_act())
        return f"option {action}"

    def is_terminal(self):
        return self.line.turn()[1] is None

    def returns(self):
        return self.line.returns()

    # ------------------------------------------------------------ what a player knows (read from the live engine)
    def picked(self, player: int) -> list[int]:
        """Word ids of the answer so far: earlier picks of a multi-pick and the words of the option being picked."""
        line = self.line
        if line.turn()[1] != player:
            return []
        if not line.picked:  # most decisions: at most the words of the option being picked (a picker not
            picker = self.picker  # made yet for this decision has picked none)
            return list(picker.prefix) if picker is not None and picker.prefix and picker.answers == len(line.answers) else []
        out = self.get_game().space.picked(line.picked, line.session.state, player)
        picker = self.options()
        return out + list(picker.prefix) if picker is not None else out

    def observation_tensor(self, player=None):
        """The observation tensor (`encoding.Encoder`) as a numpy float64 array, as a list of OpenSpiel's own games
        reads to numpy (Shimmy's wrapper declares float64); `observation_array` is the same as float32."""
        return self.observation_array(self.current_player() if player is None else player, wide=True)

    def observation_array(self, player: int, wide: bool = False) -> np.ndarray:
        line = self.line
        d, who, _ = line.turn()
        to_act = who if who is not None and who >= 0 else None
        picked = ()  # the decider's own (`picked`)
        if to_act == player:
            if line.picked:
                picked = self.picked(player)
            else:  # most decisions: at most the words of the option being picked
                picker = self.picker
                if picker is not None and picker.prefix and picker.answers == len(line.answers):
                    picked = picker.prefix
        return encode_live(self.get_game().encoder, line._session.rt, player, d, to_act, picked, wide)

    def information_state_tensor(self, player=None):
        player = self.current_player() if player is None else player
        line, enc = self.line, self.get_game().encoder
        seen = line.seen[player] if line.seen is not None else None
        return enc.encode_info(line.session.state, player, seen, line.taken, decision=line.decision,
                               to_act=None if line.finished or line.chance_node else line.to_act(), picked=self.picked(player),
                               session=line.session).astype(np.float64)

    def observation_string(self, player=None):
        return self.line.observation(self.current_player() if player is None else player)

    def table_string(self, player=None):
        """The table and the question as a person reads them (the table model), for bots that read words."""
        from interpreter.present.observed import table_text
        return table_text(self.line.session, self.current_player() if player is None else player)

    def information_state_string(self, player=None):
        return self.line.information(self.current_player() if player is None else player)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, drawn with the sampler's numbers."""
        rng = random.Random(int(probability_sampler() * 2 ** 52))
        new = RulesState(self.get_game(), sample(self.line, player_id, rng))
        if self.picker is not None and self.picker.prefix and new.options() is not None:
            new.picker.prefix = self.picker.prefix  # the player's own words so far (its options read the same)
        return new

    def __deepcopy__(self, memo):
        new = RulesState(self.get_game(), self.line.copy())
        if self.picker is not None:
            new.picker = self.picker.copy()
        return new

    def __str__(self):
        """The whole table as text, hidden components named (OpenSpiel's string of a state is the full state;
        what a player may read is `observation_string`), after a line saying who answers what."""
        d = self.line.decision
        head = f"{self.line.game.content.id}, {self.line.players} players, seed {self.line.seed}, {len(self.line.answers)} answers"
        if d is None:
            head += ", over: returns " + str(self.line.returns())
        else:
            head += f", {player_label(self.line.to_act())} to answer '{prompt(d)}'"
            if self.picker is not None and self.picker.prefix:
                head += " (picked so far: " + " ".join(self.get_game().space.word(w) for w in self.picker.prefix) + ")"
        return head + "\n" + whole_table(self.line.session.state)


class RulesObserver:
    """Strings and tensors of one player's knowledge: its view (observation) or its whole record (recall)."""

    def __init__(self, game: RulesGame, recall: bool):
        self.recall = recall
        self.encoder = game.encoder
        self.tensor = np.zeros(self.encoder.info_size if recall else self.encoder.size, np.float32)
        self.dict = {"info_state" if recall else "observation": self.tensor}

    def set_from(self, state: RulesState, player: int):
        if self.recall:
            self.tensor[:] = state.information_state_tensor(player)
        else:
            self.tensor[:] = state.observation_array(player)

    def string_from(self, state: RulesState, player: int):
        return state.line.information(player) if self.recall else state.line.observation(player)


def sampling_counts() -> dict:
    from interpreter.agents.line import Sampling
    return Sampling.counts()


register_all()  # every game under content/ is an OpenSpiel game once this module is imported
