"""The field's own checks on the bot adapters (issue 34 items 5 and 6), for the three games.

- OpenSpiel: the checks of `games_sim_test` (the game and its type pickle; every few actions the state goes
  through `serialize_game_and_state` and pickle and reads the same; clones; returns) and a game and state
  unpickled in another process; `max_game_length` bounds a game, which a game past its manifest's
  `max_decisions` reaches as a draw; `str(state)` is the whole table; `action_to_string` names a whole option.
- PettingZoo: `seed_test` and `render_test` ("human" prints the table), agents named `player_0`...
- Shimmy's `OpenSpielCompatibilityV0` and PettingZoo's `api_test` on it (the tensor is of its space's dtype).
- The observation is named and scaled: `observation_spec()` names every feature once, and every value read in
  random play lies within the range it gives ([0, 1] for all but number variables without a `max:`).
"""
from __future__ import annotations

import contextlib
import io
import pickle
import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import render_test, seed_test  # noqa: E402

from interpreter.agents.openspiel_game import load_game, register  # noqa: E402
from interpreter.agents.pettingzoo_env import RulesEnv  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.tiny_game import tiny_game  # noqa: E402

GAMES = [("kings_bounty", 2), ("btwixt", 3), ("agot", 3)]


@pytest.mark.parametrize("name, players", GAMES[:2])
def test_openspiel_games_sim_test_checks_pass(name, players):
    """OpenSpiel's own `games_sim_test.sim_game` (its first line once failed: `pickle.dumps(game)`)."""
    from open_spiel.python.tests.games_sim_test import GamesSimTest
    np.random.seed(3)
    with contextlib.redirect_stdout(io.StringIO()):
        GamesSimTest("test_breakthrough").sim_game(load_game(name, players=players, seed=2))


def test_agot_game_and_state_serialize_and_pickle():
    game = load_game("agot", players=3, seed=1)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game) and str(again) == str(state)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_a_game_and_a_state_pickled_here_unpickle_in_another_process(tmp_path):
    """What a process pool or a Ray actor does: the game and a state go to a fresh process and play on there."""
    game = load_game("kings_bounty", players=2, seed=4)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    (tmp_path / "state.pickle").write_bytes(pickle.dumps((game, state)))
    code = ("import pickle, sys; game, state = pickle.load(open(sys.argv[1], 'rb')); "
            "print(game); print(state.legal_actions() == sorted(state.legal_actions()) and len(state.history())); print(state)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "state.pickle")], capture_output=True, text=True,
                         cwd=str(ROOT), timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n", 2)
    assert lines[0] == str(game) and lines[1] == str(len(state.history())) and lines[2].rstrip("\n") == str(state)


@pytest.mark.parametrize("name, players", GAMES)
def test_max_game_length_bounds_a_game(name, players):
    game = load_game(name, players=players, seed=7)
    manifest = game.compiled.content.manifest
    assert game.max_game_length() == manifest["max_decisions"] * game.space.most_words
    state = game.new_initial_state()
    rng = random.Random(7)
    steps = 0
    while not state.is_terminal() and steps < 300:
        legal = state.legal_actions()
        assert legal
        state.apply_action(rng.choice(legal))
        steps += 1
    assert len(state.history()) <= game.max_game_length()
    assert len(state.line.answers) <= manifest["max_decisions"]


def test_a_game_still_going_at_max_decisions_is_a_draw(tmp_path):
    rules = """\
procedure play():
    while true:
        choose c in pile by players[0]
"""
    root = tiny_game(tmp_path, rules=rules)
    (root / "game.yaml").write_text((root / "game.yaml").read_text().replace("score: points\n", "score: points\nmax_decisions: 5\n"))
    register(str(root))
    game = load_game(str(root), players=2)
    assert game.max_game_length() == 5 * game.space.most_words
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.line.answers) == 5 and state.returns() == [0.5, 0.5] and state.legal_actions() == []
    env = RulesEnv(str(root), players=2)
    env.reset(seed=1)
    while env.agents and not any(env.truncations.values()):
        env.step(env.legal_actions()[0])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.5, "player_1": 0.5}


def test_str_of_a_state_is_the_whole_table():
    state = load_game("kings_bounty", players=2, seed=3).new_initial_state()
    text = str(state)
    engine = state.line.session.state
    hands = [[e.id for e in z.items] for z in engine.player_zones["hand"]]
    for seat, hand in enumerate(hands):  # hidden hands too: the string of a state is the full state
        assert f"hand of P{seat + 1} (6): " + ", ".join(hand) in text
    assert f"deck ({len(engine.game_zones['deck'].items)}): " in text
    assert hands[1][0] not in state.observation_string(0)


def test_action_to_string_names_a_whole_option():
    """King's Bounty's options are all whole options or single words: each legal action reads as the full
    label of one option, and one action answers one decision."""
    game = load_game("kings_bounty", players=2, seed=5)
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        p = state.current_player()
        labels = set(state.line.decision.labels)
        legal = state.legal_actions()
        assert {state.action_to_string(p, a) for a in legal} <= labels
        answers = len(state.line.answers)
        state.apply_action(rng.choice(legal))
        assert len(state.line.answers) == answers + 1 or state.is_terminal()


@pytest.mark.parametrize("name, players", GAMES)
def test_pettingzoo_seed_and_render_tests_pass(name, players, capsys):
    seed_test(lambda: RulesEnv(name, players=players), num_cycles=40)
    render_test(lambda render_mode=None: RulesEnv(name, players=players, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "P1" in printed  # "human" printed the table in words, whose players read P1, P2...
    env = RulesEnv(name, players=players)
    assert env.possible_agents == [f"player_{i}" for i in range(players)]


def test_reset_without_a_seed_deals_a_new_game_and_a_seed_deals_that_game():
    env = RulesEnv("kings_bounty", players=2)
    env.reset(seed=11)
    first = env.line.session.state.digest()
    env.reset()
    env.reset()
    assert env.line.session.state.digest() != first
    from interpreter.runtime.session import Session
    from interpreter.runtime.games import load_compiled
    env.reset(seed=11)
    assert env.line.session.state.digest() == first == Session(load_compiled("kings_bounty"), 2, 11).state.digest()
    other = RulesEnv("kings_bounty", players=2)
    other.reset(seed=11)
    env.reset()
    other.reset()
    assert env.line.seed == other.line.seed  # the resets after a seed follow from it


@pytest.mark.parametrize("name, players", GAMES)
def test_shimmy_openspiel_wrapper_passes_pettingzoo_api_test(name, players):
    shimmy = pytest.importorskip("shimmy")
    from pettingzoo.test import api_test
    env = shimmy.OpenSpielCompatibilityV0(game_name=f"rules_{name}", config={"players": players})
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(env, num_cycles=30)


@pytest.mark.parametrize("name, players", GAMES)
def test_the_observation_is_named_and_within_its_ranges(name, players):
    env = RulesEnv(name, players=players)
    spec = env.observation_spec()
    names = [n for n, _, _ in spec]
    assert len(names) == len(set(names)) == env.encoder.size
    low = np.array([lo for _, lo, _ in spec])
    high = np.array([hi for _, _, hi in spec])
    box = env.observation_space("player_0")["observation"]
    assert np.array_equal(box.low, low.astype(np.float32)) and np.array_equal(box.high, high.astype(np.float32))
    bounded = np.isfinite(low) & np.isfinite(high)
    assert bounded.mean() > 0.99  # all but number variables with no max: (none in the three games)
    assert ((low == 0) | (low == -1)).all()
    env.reset(seed=3)
    rng = random.Random(3)
    for step in range(120):
        if env.line.finished:
            break
        for agent in env.possible_agents:
            x = env.observe(agent)["observation"]
            assert ((x >= low) & (x <= high)).all(), [names[i] for i in np.flatnonzero((x < low) | (x > high))]
        env.step(rng.choice(env.legal_actions()))
    game = load_game(name, players=players)
    assert [n for n, _, _ in game.observation_spec(info=True)][:len(names)] == names
    assert len(game.observation_spec(info=True)) == game.information_state_tensor_size()


def test_the_learning_example_runs_one_short_iteration(tmp_path, monkeypatch):
    """`python -m interpreter.agents.learn`: one rollout and one update of MaskablePPO on King's Bounty 2p, then
    a few games against random play, with a 95 % interval (the learn extra; skipped without it). It leaves
    nothing in the temporary folder (sb3's default logger makes a directory there at each run)."""
    pytest.importorskip("sb3_contrib")
    import tempfile
    from interpreter.agents.learn import VersusFixed, evaluate, train, wilson
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    model, took = train("kings_bounty", 2, minutes=1.0, steps=64, n_steps=64)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("SB3")] == []
    assert took["steps"] >= 64 and took["games"] >= 1
    result = evaluate(model, "kings_bounty", 2, games=2)
    assert result["games"] == 2 and 0.0 <= result["interval_95"][0] <= result["win_rate"] <= result["interval_95"][1]
    assert wilson(300, 400)[0] > 0.70 and wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-3))
    env = VersusFixed("kings_bounty", 2, seed=1)
    obs, _ = env.reset()
    assert env.observation_space.contains(obs) and env.action_masks().any()
    assert type(model.policy.action_net).__name__ == "OptionScores"  # the default policy scores what options name


def test_the_learners_policy_scores_an_option_by_what_it_names():
    """The learning example's head (`learn_policy`): each component reads its own row of the named observation,
    and a whole option's logit adds its name's score and the scores of what it names, each in its place (the
    unit of `play_unit` apart from its target and from the card of `play_domain`)."""
    pytest.importorskip("sb3_contrib")
    import torch
    from interpreter.agents.learn_policy import OptionScores, layout
    env = RulesEnv("kings_bounty", players=2)
    env.reset(seed=3)
    plan = layout(env)
    names = [n for n, _, _ in env.observation_spec()]
    components = sorted(env.compiled.content.entity_ids)
    for c, row in zip(components, plan.rows):
        assert [names[i] for i in row if i < plan.obs_dim] == [n for n in names if n.startswith(c + ":")]
    space, index = env.space, {c: i for i, c in enumerate(components)}
    unit = space.ids["play_unit"], space.ids["orcs_warrior_1"], space.ids["elves_tower_2"]
    both, card = space.whole[unit][0], space.whole[(space.ids["play_domain"], space.ids["elves_tower_2"])][0]
    places = [[(p - plan.words) // plan.scores, (p - plan.words) % plan.scores] for p in plan.parts[both][1:]]
    assert plan.parts[both][0] == space.ids["play_unit"]
    assert places[0][0] == index["orcs_warrior_1"] and places[1][0] == index["elves_tower_2"]
    assert len({places[0][1], places[1][1], (plan.parts[card][1] - plan.words) % plan.scores, 0}) == 4
    assert plan.parts[space.ids["done"]].tolist()[0] == space.ids["done"]
    head = OptionScores(plan)
    obs = torch.as_tensor(env.observe("player_0")["observation"])[None, :]
    with torch.no_grad():
        logits = head(obs)
        words = head.word_scores(head.table(obs))
    assert logits.shape == (1, space.size) and torch.isfinite(logits).all()
    # a word naming no component: its logit is its word's score alone
    assert float(logits[0, space.ids["done"]]) == pytest.approx(float(words[0, space.ids["done"]]))


def _explicit(name: str, players: int):
    pytest.importorskip("interpreter.codegen.chance", reason="the runtime's chance step (its chance seat)")
    return pyspiel.load_game(f"rules_{name}", {"players": players})


def test_chance_nodes_are_the_rules_draws_and_a_reset_deals_a_new_game():
    """`pyspiel.load_game` by name: EXPLICIT_STOCHASTIC, the first state a chance node (the setup's first draw,
    its outcomes equally likely); rl_environment deals a new game at each reset, the same games again with the
    same seed; a state's history (chance outcomes with the players' actions) replays it exactly."""
    from open_spiel.python import rl_environment
    game = _explicit("kings_bounty", 2)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(state.line.decision.values) > 1 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_actions(0) == [] and state.legal_actions() == [a for a, _ in outcomes]
    deals = []
    for seed in (5, 5, 6):
        env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
        step = env.reset()
        hands = []
        for _ in range(3):
            hands.append(tuple(e.id for e in env.get_state.line.session.state.player_zones["hand"][0]))
            step = env.reset()
        deals.append(hands)
    assert deals[0] == deals[1] and len(set(deals[0])) == 3 and deals[0] != deals[2]
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=5))
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([random.Random(len(env.get_state.history())).choice(step.observations["legal_actions"][player])])
    played = env.get_state
    again = game.new_initial_state()
    for action in played.history():
        again.apply_action(action)
    assert str(again) == str(played) and again.returns() == played.returns()


@pytest.mark.parametrize("name, players", GAMES[:2])
def test_openspiel_checks_pass_with_chance_nodes(name, players):
    game = _explicit(name, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    from open_spiel.python.tests.games_sim_test import GamesSimTest
    np.random.seed(4)
    with contextlib.redirect_stdout(io.StringIO()):
        GamesSimTest("test_breakthrough").sim_game(game)


def test_worlds_sampled_with_chance_nodes_fit_at_every_decision():
    from interpreter.agents.line import Sampling
    game = _explicit("kings_bounty", 2)
    state = game.new_initial_state()
    rng = random.Random(2)
    Sampling.reset()
    decisions = 0
    while not state.is_terminal() and decisions < 40:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        p = state.current_player()
        if decisions % 8 == 0:
            world = state.resample_from_infostate(p, rng.random)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    assert Sampling.counts()["imperfect"] == 0 and Sampling.counts()["dealt"] == 5
