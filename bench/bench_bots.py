"""The bot adapters against the engine (issue 20's figures), measured in one run on one core.

- N random 4-player B'Twixt games: the engine alone (as `rules simulate --workers 1` plays them), through
  OpenSpiel reading `observation_tensor` at every step, through PettingZoo reading the observation and the
  action mask at every step: the same games (the same option chosen at each decision), CPU seconds and
  ratios to the engine (goal: each <= 1.5x). What is built once per process is left out of the timing for
  all three alike: the compiled game; the adapters' action space and encoder (about 0.1 s, `ast` over the
  generated code), built before the timing starts, as PettingZoo's environment is.
- `clone()` + `legal_actions()` at step 200 of a game against step 5 (goal: <= 1.5x), and `Session.copy`
  alone at both points, for every game (CPU time, best of 7 batches: see `_per_call_ms`).
- With --ismcts: one 3-player AGoT game, ISMCTS (50 simulations) as P1 against two random bots
  (goal: <= 90 s on one core).
- With --peers: steps per CPU second with an observation read at every step (issue 34: keep ahead of the
  Python peers): our adapters on B'Twixt 4p and King's Bounty 2p (OpenSpiel: `observation_tensor`,
  `legal_actions`, `apply_action` of a random legal action; PettingZoo: `last()` and `step`), against
  OpenSpiel's C++ games driven from Python (hearts, gin rummy, leduc poker: the same loop, chance nodes
  sampled) and, where `rlcard` and `pygame` are installed (PettingZoo's `classic` extra), the Python peers:
  PettingZoo's classic leduc and texas hold'em, and RLCard's gin rummy in its own loop; the best of
  --rounds interleaved rounds, and ours over RLCard's gin rummy.

Run:  python bench/bench_bots.py [--games 100] [--ismcts] [--peers [--rounds 3]] [--json]
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.runtime.games import load_compiled  # noqa: E402


def engine_games(game, players: int, games: int) -> float:
    """As `rules simulate --workers 1` plays them: under the batch runner's collector policy (the adapters
    run under Python's default, as a bot builder's process does)."""
    from bench_games import random_games  # this folder's: the same random games, played the same way
    return random_games(game, players, games)[0]


def openspiel_games(name: str, players: int, games: int, actions: str, read: bool = True) -> float:
    from interpreter.agents.openspiel_game import load_game
    load_game(name, players=players, actions=actions)  # the game's action space and encoder, built once per
    start = time.process_time()  # process (outside the timing, as PettingZoo's environment and the engine's compile)
    for seed in range(games):
        state = load_game(name, players=players, seed=seed, actions=actions).new_initial_state(track=False)
        rng = random.Random(seed + 1)
        while not state.is_terminal():
            if read:
                state.observation_tensor(state.current_player())
            state.legal_actions()
            state.apply_option(rng.randrange(len(state.line.decision.values)))  # the engine batch's choice
    return time.process_time() - start


def pettingzoo_games(name: str, players: int, games: int, actions: str) -> float:
    from interpreter.agents.pettingzoo_env import RulesEnv
    env = RulesEnv(name, players=players, actions=actions)
    start = time.process_time()
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed + 1)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            index = rng.randrange(len(env.line.decision.values))  # the engine batch's choice
            if actions == "indices":
                env.step(index)
            else:  # the same option, whatever its words in the fixed space
                env.step_option(index)
    return time.process_time() - start


def _per_call_ms(fn, repeat: int) -> float:
    """CPU ms per call, best of 7 batches: a discarded copy is cyclic garbage (components and zones refer to
    each other), so a batch in which the collector's full pass happens to fall (its cost is the whole
    process's heap, not the game's) reads several times slower; the best batch is the copy's own cost."""
    gc.collect()
    best = float("inf")
    for _ in range(7):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, time.process_time() - start)
    return round(best / repeat * 1000, 3)


def clone_costs(name: str, players: int, seed: int = 3, repeat: int = 10) -> dict:
    from interpreter.agents.openspiel_game import load_game
    state = load_game(name, players=players, seed=seed).new_initial_state()
    rng = random.Random(seed + 1)
    out = {}
    for step in range(201):
        if step in (5, 200) and not state.is_terminal():
            state.clone().legal_actions()  # the first copy at a point builds its resume code
            out[f"clone_legal_ms_step_{step}"] = _per_call_ms(lambda: state.clone().legal_actions(), repeat)
            session = state.line.session
            out[f"session_copy_ms_step_{step}"] = _per_call_ms(session.copy, repeat)
        if state.is_terminal():
            break
        state.apply_option(rng.randrange(len(state.line.decision.values)))
    if "clone_legal_ms_step_200" in out:
        out["ratio_200_to_5"] = round(out["clone_legal_ms_step_200"] / out["clone_legal_ms_step_5"], 2)
    return out


def ismcts_game(seed: int = 1) -> float:
    from interpreter.agents import play_with_agents
    game = load_compiled("agot")
    start = time.process_time()
    play_with_agents(game, 3, ["ismcts", "random", "random"], seed, {"simulations": 50})
    return time.process_time() - start


def _spiel_steps(game, games: int, seed: int = 0) -> tuple:
    """Steps (players' actions; chance outcomes are sampled but not counted) and CPU seconds of `games` random
    games of a pyspiel game, reading the acting player's observation tensor (the information-state tensor
    where a game has none) at every step. Actions are drawn as RLCard's loop draws them (`_rlcard_steps`):
    `random.Random.choice` over the list of legal actions, the same in every loop (numpy's `Generator.choice`
    on a list costs some 10 us a call, as much as a quarter of one of our steps, and RLCard's loop pays none)."""
    rng = random.Random(seed)
    kind = game.get_type()
    read = "observation_tensor" if kind.provides_observation_tensor else "information_state_tensor"
    steps = decisions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            getattr(state, read)(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        decided = getattr(state, "line", None)
        decisions += sum(decided.taken) if decided is not None else 0
    return steps, time.process_time() - start, decisions


def _legal_of(mask) -> list:
    """The places of a mask's legal actions (nonzero), a byte-wide mask read as booleans (see `_zoo_steps`)."""
    import numpy as np
    return np.flatnonzero(mask.view(np.bool_) if mask.dtype.itemsize == 1 else mask).tolist()


def _zoo_steps(env, games: int, seed: int = 0) -> tuple:
    """Steps and CPU seconds of `games` random games of a PettingZoo AEC environment (`last()` reads the
    observation and the mask at every step). The legal actions are the mask's nonzero places, read as booleans
    (numpy's nonzero costs six times more on an int8 array: 33 us on our 11,616-wide mask, a cost of the
    bench's reading that grows with the mask, not of the environment), drawn as in `_spiel_steps`."""
    rng = random.Random(seed)
    steps = decisions = 0
    start = time.process_time()
    for k in range(games):
        env.reset(seed=seed + k)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                mask = observation["action_mask"] if isinstance(observation, dict) else info["action_mask"]
                action = rng.choice(_legal_of(mask))
            env.step(action)
            steps += 1
        decisions += sum(env.line.taken) if hasattr(env, "line") else 0
    return steps, time.process_time() - start, decisions


def steps_per_second(games: int, rounds: int = 1) -> dict:
    """Ours against the peers (see the module's doc), steps per CPU second: the best of `rounds` rounds, each
    measuring every figure in turn (on a shared machine the load moves within a run: a figure measured once,
    at the end of a run, could meet another load than ours; interleaved rounds meet it alike), and each of our
    figures over RLCard's gin rummy's."""
    best: dict = {}
    for _ in range(rounds):
        for key, rate in _one_round(games).items():
            if key not in best or rate[0] > best[key][0]:
                best[key] = rate
    out = {k: f"{round(v[0])} ({round(v[1])} decisions/s)" if v[1] is not None else round(v[0]) for k, v in best.items()}
    if "rlcard_gin_rummy" in best:
        gin = best["rlcard_gin_rummy"][0]
        out["ours_over_rlcard_gin_rummy"] = {k: round(v[0] / gin, 2) for k, v in best.items() if k.startswith("ours_")}
    return out


def _one_round(games: int) -> dict:
    """Every figure once: key -> (steps per CPU second, decisions per CPU second or None). The collector's full
    pass is made before each figure (`gc.collect`, outside the timing): it falls when enough objects have
    outlived its younger passes since the last one, whichever loop made them, and costs the whole process's
    heap (40-50 ms here, a third of a King's Bounty figure), so left alone it lands in a figure by the order
    they run in; after it each figure pays only for the passes its own objects bring on."""
    import pyspiel
    from interpreter.agents.openspiel_game import load_game
    from interpreter.agents.pettingzoo_env import RulesEnv
    out = {}
    for name, players in (("btwixt", 4), ("kings_bounty", 2)):
        load_game(name, players=players)  # built once per process, outside the timing
        gc.collect()
        steps, cpu, decisions = 0, 0.0, 0
        for seed in range(games):
            s, c, d = _spiel_steps(load_game(name, players=players, seed=seed), 1, seed)
            steps, cpu, decisions = steps + s, cpu + c, decisions + d
        # (an option of several words is several steps of the fixed action space: decisions per second too)
        out[f"ours_openspiel_{name}_{players}p"] = (steps / cpu, decisions / cpu)
        env = RulesEnv(name, players=players)
        gc.collect()
        s, c, d = _zoo_steps(env, games)
        out[f"ours_pettingzoo_{name}_{players}p"] = (s / c, d / c)
    for name in ("hearts", "gin_rummy", "leduc_poker"):
        game = pyspiel.load_game(name)
        gc.collect()
        s, c, _ = _spiel_steps(game, games if name != "leduc_poker" else 20 * games)
        out[f"openspiel_cpp_{name}"] = (s / c, None)
    try:
        import rlcard
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except Exception:  # noqa: BLE001 - PettingZoo's classic card games need rlcard and pygame
        return out
    for name, make in (("leduc_holdem", leduc_holdem_v4), ("texas_holdem", texas_holdem_v4)):
        env = make.env()
        gc.collect()
        s, c, _ = _zoo_steps(env, 20 * games)
        out[f"pettingzoo_classic_{name}"] = (s / c, None)
    env = rlcard.make("gin-rummy", config={"seed": 0})
    gc.collect()
    out["rlcard_gin_rummy"] = (_rlcard_steps(env, games), None)
    return out


def _rlcard_steps(env, games: int) -> int:
    """RLCard's own loop: each step's state holds the acting player's observation (made at every step)."""
    import random as rnd
    rng = rnd.Random(0)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return round(steps / (time.process_time() - start))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--ismcts", action="store_true", help="also time one AGoT game of ISMCTS against random")
    ap.add_argument("--peers", action="store_true", help="only steps per second, ours against the peers")
    ap.add_argument("--rounds", type=int, default=3, help="with --peers: the best of this many interleaved rounds")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.peers:
        report = steps_per_second(min(args.games, 20), max(1, args.rounds))
        print(json.dumps(report, indent=1) if args.json else "\n".join(
            f"{k}: {v}" + ("" if isinstance(v, dict) else " steps/s") for k, v in report.items()))
        return
    game = load_compiled("btwixt")
    engine = engine_games(game, 4, args.games)
    report: dict = {"btwixt_4p_games": args.games, "engine_cpu_s": round(engine, 3), "goals": {"adapter_ratio": 1.5,
                    "clone_ratio_200_to_5": 1.5, "agot_ismcts_game_s": 90}}
    for actions in ("indices", "fixed"):
        o = openspiel_games("btwixt", 4, args.games, actions)
        p = pettingzoo_games("btwixt", 4, args.games, actions)
        report[f"openspiel_{actions}_cpu_s"], report[f"openspiel_{actions}_ratio"] = round(o, 3), round(o / engine, 2)
        report[f"pettingzoo_{actions}_cpu_s"], report[f"pettingzoo_{actions}_ratio"] = round(p, 3), round(p / engine, 2)
    report["clone"] = {name: clone_costs(name, n) for name, n in (("btwixt", 4), ("kings_bounty", 4), ("agot", 3))}
    if args.ismcts:
        report["agot_ismcts_game_cpu_s"] = round(ismcts_game(), 1)
    if args.json:
        print(json.dumps(report, indent=1))
        return
    for k, v in report.items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
