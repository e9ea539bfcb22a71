"""The PettingZoo AEC environment: PettingZoo's API test, action masks, nothing hidden in observations."""
from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from dsl.diagnostics import DiagnosticError  # noqa: E402
from interpreter.agents.line import visible_ids  # noqa: E402
from interpreter.agents.pettingzoo_env import RulesEnv  # noqa: E402


@pytest.mark.parametrize("game, players", [("kings_bounty", 4), ("btwixt", 3)])
def test_pettingzoo_api_test_passes(game, players):
    api_test(RulesEnv(game, players=players), num_cycles=400)


def test_a_whole_game_with_masks_and_rewards():
    env = RulesEnv("kings_bounty", players=3)
    env.reset(seed=4)
    rng = random.Random(1)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        mask = observation["action_mask"]
        # the fixed action space: whole options and the words that begin or continue a legal option
        assert 0 < mask.sum() <= len(env.line.decision.labels) + 1
        # the other agents have nothing to do now
        for other in env.possible_agents:
            if other != agent:
                assert env.observe(other)["action_mask"].sum() == 0
        env.step(int(rng.choice(mask.nonzero()[0])))
        steps += 1
    assert steps > 20 and not env.agents
    assert sum(total.values()) == pytest.approx(1.0)
    winners = env.line.session.result.winners
    assert all(total[env.possible_agents[w]] > 0 for w in winners)


def test_the_same_seed_deals_the_same_game():
    a, b = RulesEnv("btwixt", players=4), RulesEnv("btwixt", players=4)
    a.reset(seed=9)
    b.reset(seed=9)
    assert (a.observe("player_0")["observation"] == b.observe("player_0")["observation"]).all()
    assert a.observation_text("player_1") == b.observation_text("player_1")


def test_observations_hide_other_players_cards():
    env = RulesEnv("kings_bounty", players=4)
    env.reset(seed=2)
    rng = random.Random(3)
    encoder = env.encoder
    for _ in range(60):
        state = env.line.session.state
        for seat, agent in enumerate(env.possible_agents):
            hidden = set(state.entities) - visible_ids(state, seat)
            vector = env.observe(agent)["observation"]
            for k, eid in enumerate(encoder.ids):
                if eid in hidden:
                    assert vector[k * encoder.width] == 1.0 and vector[k * encoder.width:(k + 1) * encoder.width].sum() == 1.0
            text = env.observation_text(agent)
            for eid in hidden:
                assert f'"{eid}"' not in text
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(mask.nonzero()[0])))


def test_bad_input_is_a_clear_error():
    with pytest.raises(DiagnosticError, match="2 to 5 players"):
        RulesEnv("kings_bounty", players=1)
    with pytest.raises(DiagnosticError, match="no variant"):
        RulesEnv("kings_bounty", variants=("nonesuch",))
    env = RulesEnv("kings_bounty")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        env.step(10_000)
    indices = RulesEnv("kings_bounty", actions="indices")
    indices.reset(seed=1)
    assert indices.observe(indices.agent_selection)["action_mask"].sum() == len(indices.line.decision.values)
    with pytest.raises(DiagnosticError, match="actions="):
        RulesEnv("kings_bounty", actions="letters")


def test_step_option_plays_the_engines_game_in_the_fixed_action_space():
    """`step_option(i)` answers option i whatever the action space: the same choices give the engine's own game,
    and an index that is no option is refused with nothing changed."""
    from interpreter.runtime import Session
    from interpreter.runtime.games import load_compiled
    env = RulesEnv("btwixt", players=3, actions="fixed")
    env.reset(seed=5)
    session = Session(load_compiled("btwixt"), 3, 5)
    rng = random.Random(6)
    with pytest.raises(ValueError):
        env.step_option(len(env.line.decision.values))
    assert env.line.answers == []
    while not all(env.terminations.values()):
        index = rng.randrange(len(session.pending.values))
        assert env.agent_selection == env.possible_agents[session.pending.player]
        env.step_option(index)
        session.answer(index)
    assert session.pending is None
    winners = {p for p in session.result.winners if isinstance(p, int)}
    assert {a for a, r in env.rewards.items() if r > 0} == {env.possible_agents[p] for p in winners}
