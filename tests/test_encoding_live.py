"""The observation tensor kept up to date along a session (`encoding_live`) is exactly the full encoding:
at every step of random games of every game, for every seat, through OpenSpiel (option indices and the
fixed action space, whose words picked so far mark rows) and PettingZoo; also on a copy of a game in
progress played on differently from its original, which must not disturb the original's tensors."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")  # the bots' extras (openspiel, pettingzoo) bring it

pytest.importorskip("pyspiel")

from interpreter.agents.openspiel_game import load_game  # noqa: E402

GAMES = [("agot", 3), ("kings_bounty", 3), ("btwixt", 4)]


def _full(state, player: int) -> np.ndarray:
    line = state.line
    return state.get_game().encoder.encode(line.session.state, player, line.decision,
                                           None if line.finished else line.to_act(), state.picked(player))


def _check(state, players: int, where: str) -> None:
    for p in range(players):
        live, full = state.observation_array(p), _full(state, p)
        assert live.shape == full.shape
        diff = np.nonzero(live != full)[0]
        assert diff.size == 0, f"{where}, P{p + 1}: positions {diff[:8].tolist()} differ"
        # OpenSpiel's float64 tensor, made from the live base in one pass: the same values, byte for byte
        wide = state.observation_tensor(p)
        assert wide.dtype == np.float64 and wide.tobytes() == full.astype(np.float64).tobytes(), \
            f"{where}, P{p + 1}: float64 positions {np.nonzero(wide != full)[0][:8].tolist()} differ"


@pytest.mark.parametrize("name,players", GAMES)
@pytest.mark.parametrize("actions", ["indices", "fixed"])
def test_live_tensor_is_the_full_encoding(name, players, actions):
    state = load_game(name, players=players, seed=5, actions=actions).new_initial_state(track=False)
    rng = random.Random(11)
    steps = 0
    while not state.is_terminal() and steps < 250:
        _check(state, players, f"{name} step {steps}")
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("name,players", GAMES)
def test_a_tensor_read_now_and_then_takes_in_everything_since(name, players):
    """As bots read it: only the player to act at each step, so a seat takes in many steps at once."""
    state = load_game(name, players=players, seed=8).new_initial_state(track=False)
    rng = random.Random(4)
    steps = 0
    while not state.is_terminal() and steps < 300:
        state.observation_array(state.current_player())
        if steps % 23 == 22:
            _check(state, players, f"{name} step {steps}")
        state.apply_option(rng.randrange(len(state.line.decision.values)))
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("name,players", GAMES)
def test_a_copy_keeps_its_own_live_tensor(name, players):
    state = load_game(name, players=players, seed=2).new_initial_state(track=False)
    rng = random.Random(3)
    for _ in range(40):
        _check(state, players, "before")  # the original is followed live before the copy is made
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    for _ in range(30):
        for s in (copy, state):
            if not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                _check(s, players, "copy or original")


@pytest.mark.parametrize("name,players", GAMES)
def test_pettingzoo_live_observation_is_the_full_encoding(name, players):
    pytest.importorskip("pettingzoo")
    from interpreter.agents.pettingzoo_env import RulesEnv
    env = RulesEnv(name, players=players)
    env.reset(seed=4)
    rng = random.Random(4)
    steps = 0
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        line, seat = env.line, env._seat[agent]
        to_act = None if line.finished else line.to_act()
        picked = env._picked(seat) if to_act == seat else []
        full = env.encoder.encode(line.session.state, seat, line.decision, to_act, picked)
        assert np.array_equal(observation["observation"], full), f"{name} step {steps}"
        if termination or truncation or steps >= 200:
            break
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps > 20


@pytest.mark.parametrize("name,players", GAMES)
def test_information_state_tensor_is_the_observation_then_the_record(name, players):
    """The information-state tensor: the observation (seats absolute, the observer named), then each component
    the player has seen before, then each seat's decisions taken / the game's max_decisions."""
    state = load_game(name, players=players, seed=6).new_initial_state()
    enc = state.get_game().encoder
    rng = random.Random(9)
    for step in range(60):
        if state.is_terminal():
            break
        if step % 7 == 0:
            for p in range(players):
                info = state.information_state_tensor(p)
                assert info.shape == (enc.info_size,)
                assert np.array_equal(info[:enc.size], _full(state, p))
                assert info[enc.at_observer:enc.at_observer + players].tolist() == [float(q == p) for q in range(players)]
                seen = info[enc.size:enc.size + len(enc.ids)]
                assert {enc.ids[k] for k in np.flatnonzero(seen)} == set(state.line.seen[p])
                taken = info[enc.size + len(enc.ids):]
                assert np.allclose(taken, [t / state.get_game().max_decisions for t in state.line.taken])
        state.apply_option(rng.randrange(len(state.line.decision.values)))
    assert any(state.line.taken)


def test_picked_words_are_the_words_of_the_labels_picked():
    """The words of a multi-pick's earlier picks (split once per label, `ActionSpace.picked`) are those of the labels
    themselves, a component the reader cannot see left out, in order."""
    from interpreter.present.views import can_see
    seen = 0
    for seed in range(6):
        state = load_game("kings_bounty", players=2, seed=seed).new_initial_state(track=False)
        rng = random.Random(seed)
        while not state.is_terminal():
            line = state.line
            if line.picked:
                space, table = state.get_game().space, line.session.state
                want = {p: [space.ids[w] for label in line.picked for w in label.split(" ")
                            if w in space.ids and (w not in space.components or can_see(table.entities[w], p))]
                        for p in range(2)}
                for p in range(2):
                    assert space.picked(line.picked, table, p) == want[p]
                decider = line.to_act()  # its own picks, then the words of the option it is picking
                assert state.picked(decider)[:len(want[decider])] == want[decider] and want[decider]
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 5
