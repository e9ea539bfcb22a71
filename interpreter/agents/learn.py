"""A learning example that learns: sb3-contrib's MaskablePPO against fixed opponents, on any content game.

    python -m interpreter.agents.learn kings_bounty --players 2 --minutes 5 --games 400
    python -m pip install -e ".[learn]"        # sb3-contrib, and torch's CPU build (see the README, "Bots")

The learner plays one seat of the PettingZoo environment (`pettingzoo_env.RulesEnv`, the fixed action space:
a whole option is one action where the options name components and players, as in King's Bounty) against
fixed opponents (random play); its seat turns from game to game. Its observation is the environment's named, scaled tensor, turned to the learner's seat (the features
naming seats, by their names in `observation_spec()`, rotated so that the learner always reads as P1 and the
next player as P2: what it learns in one seat holds in the others), its action mask the environment's. The
reward: +1 for a win, -1 for a loss, 0 for a shared win, at the end; and, where the game's table shows a score
during play (`table: score:`, public to all), a potential-based shaping on the way (Ng, Harada and Russell
1999: it leaves the best policy as it is): gamma times the potential after the learner's move and the
opponents' replies, less the potential before, the potential being the learner's evaluation less the best
other one, over its scale: the game's own evaluation (`bots: evaluation:` and `scale:`, where the engine has
it: interpreter.agents.judgement), else its score as the table counts it now over the score variable's
`max:`. The policy (`learn_policy.OptionsPolicy`, `--policy options`) scores an option by what it names: a
component's score from its row of the observation, its record and an embedding of its own, so that what is
learnt of a card holds in every option naming it (`--policy mlp`: sb3's MLP, a logit per action id). After
training for the CPU minutes given (the process's own CPU time, on one thread), the policy (its most likely
legal action) plays `--games` games against the same opponents, seats rotated, and the win rate is reported
with its 95 % Wilson interval. Everything is seeded: the same arguments give the same run.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

import gymnasium as gym
import numpy as np

from interpreter.agents.pettingzoo_env import RulesEnv
from interpreter.present.table import score_now

GAMMA = 0.995


class VersusFixed(gym.Env):
    """One seat of a content game against fixed opponents, as a single-agent Gymnasium environment with action
    masks (`action_masks()`, which MaskablePPO reads)."""

    metadata = {"render_modes": []}

    def __init__(self, game: str, players: int = 2, seed: int = 0, opponent: str = "random", variants=(),
                 gamma: float = GAMMA, shaping: bool = True, actions: str = "fixed"):
        super().__init__()
        self.env = RulesEnv(game, players=players, variants=variants, actions=actions)
        content = self.env.compiled.content
        spec = content.vocabulary.table
        declared = ((content.manifest.get("vocabulary") or {}).get("variables") or {}).get(content.manifest.get("score")) or {}
        # the potential's scale: the score variable's max, else 1
        self.scale = float(declared.get("max") or 1)
        self.shaping = shaping and spec.score is not None and spec.score_during_play
        self.gamma = gamma
        self.judge = _judge(self.env.compiled) if self.shaping else None
        if self.judge is not None:
            self.scale = float(self.judge.scale)
        self.players = players
        spec = self.env.observation_space(self.env.possible_agents[0])["observation"]
        self.observation_space = gym.spaces.Box(spec.low, spec.high, spec.shape, np.float32)
        self.action_space = gym.spaces.Discrete(self.env.max_actions)
        self.rng = random.Random(seed)
        self.episode = 0
        self.seed0 = seed
        self.opponent = _opponent(opponent, self.env)
        self.seat = 0
        self.turned = [_turning(self.env.observation_spec(), players, seat) for seat in range(players)]
        self.shares: list = []  # the learner's share of each game played (its training games' results)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.seat = self.episode % self.players  # the learner's seat turns from game to game
        self.env.reset(seed=self.seed0 * 1_000_003 + self.episode)
        self.episode += 1
        self._others()
        self.potential = self._potential()
        return self._observe(), {}

    def _potential(self) -> float:
        """The learner's evaluation less the best other one, over the scale (0 unshaped)."""
        if not self.shaping or self.env.line.finished:
            return 0.0
        session = self.env.line.session
        if self.judge is not None:
            scores = _evaluations(session, self.judge)
        else:
            scores = [score_now(session, p) or 0 for p in range(self.players)]
        best = max(s for p, s in enumerate(scores) if p != self.seat)
        return (scores[self.seat] - best) / self.scale

    def _observe(self) -> np.ndarray:
        agent = self.env.possible_agents[self.seat]
        return self.env.observe(agent)["observation"][self.turned[self.seat]]

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(self.env.max_actions, bool)
        if not self.env.line.finished and self.env.line.to_act() == self.seat:
            mask[self.env.legal_actions()] = True
        return mask

    def _others(self) -> None:
        """The opponents play until the learner is to act or the game is over."""
        env = self.env
        while not env.line.finished and env.line.to_act() != self.seat:
            env.step_option(self.opponent(env, self.rng))

    def step(self, action):
        self.env.step(int(action))
        self._others()
        if self.env.line.finished:
            returns = self.env.line.returns()
            share = returns[self.seat]
            reward = 1.0 if share == 1.0 else -1.0 if share == 0.0 else 0.0
            self.shares.append(share)
            return self._observe(), reward - self.potential, True, False, {"share": share}
        before, self.potential = self.potential, self._potential()
        return self._observe(), self.gamma * self.potential - before, False, False, {}


def _judge(game):
    """The game's own evaluation (`bots:`), where the engine has one (interpreter.agents.judgement)."""
    try:
        from interpreter.agents.judgement import game_judge
    except ImportError:
        return None
    return game_judge(game)


def _evaluations(session, judge) -> list:
    from interpreter.agents.judgement import evaluations
    return evaluations(session, judge)


def _turning(spec: list, players: int, seat: int) -> np.ndarray:
    """Where each feature of the observation turned to `seat` is read from: a feature naming seats (`P2`, as a
    part of its name between colons) takes the value of the feature naming the seats `seat` places further
    on, so that `seat` reads as P1."""
    where = {name: i for i, (name, _, _) in enumerate(spec)}
    labels = {f"P{k + 1}": k for k in range(players)}

    def source(name: str) -> str:
        return ":".join(f"P{(labels[part] + seat) % players + 1}" if part in labels else part for part in name.split(":"))
    return np.array([where[source(name)] for name, _, _ in spec])


def _opponent(name: str, env: RulesEnv):
    """A fixed opponent's policy: the option it answers the pending decision with (random play: each option
    alike, as `rules play --agents random` plays, whatever the action space)."""
    if name != "random":
        from dsl.diagnostics import Diagnostic, DiagnosticError
        raise DiagnosticError([Diagnostic("USAGE", f"opponent '{name}': the learning example plays against 'random'")])
    return lambda env, rng: rng.randrange(len(env.line.decision.values))


def wilson(wins: float, n: int, z: float = 1.96) -> tuple:
    """The 95 % Wilson score interval of a win rate (a shared win counting its share)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def train(game: str, players: int = 2, minutes: float = 5.0, seed: int = 0, opponent: str = "random",
          steps: int | None = None, log=None, actions: str = "fixed", n_steps: int = 2048, policy: str = "options",
          learning_rate: float = 1e-3, epochs: int = 3):
    """Train MaskablePPO for `minutes` of this process's CPU time (or `steps` environment steps, whichever
    comes first). Returns the model and what training took."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)  # one core: the CPU minutes are the run's own
    env = VersusFixed(game, players, seed, opponent, actions=actions)
    if policy == "options":  # an option scored by what it names (learn_policy)
        from interpreter.agents.learn_policy import OptionsPolicy, layout
        net, kwargs = OptionsPolicy, {"plan": layout(env.env)}
    else:  # sb3's plain MLP, a logit per action id
        net, kwargs = "MlpPolicy", {"net_arch": [64, 64]}
    model = MaskablePPO(net, env, seed=seed, n_steps=n_steps, batch_size=min(512, n_steps), n_epochs=epochs,
                        learning_rate=learning_rate, gamma=GAMMA, ent_coef=0.01, policy_kwargs=kwargs, verbose=0,
                        device="cpu")
    # sb3's own logger at verbose 0 still makes an empty directory in the system's temp folder at each run
    from stable_baselines3.common.logger import Logger
    model.set_logger(Logger(folder=None, output_formats=[]))
    start = time.process_time()
    budget = minutes * 60

    class Budget(BaseCallback):
        def _on_step(self) -> bool:  # the clock read every 64 steps (a system call)
            return self.num_timesteps % 64 or time.process_time() - start < budget

        def _on_rollout_end(self) -> None:
            if log is not None:
                recent = env.shares[-200:]
                rate = sum(recent) / len(recent) if recent else 0.0
                log(f"{self.num_timesteps} steps, {env.episode} games, {time.process_time() - start:.0f} s CPU, "
                    f"won {rate:.1%} of the last {len(recent)} training games")

    model.learn(total_timesteps=steps or 10**9, callback=Budget())
    return model, {"cpu_s": round(time.process_time() - start, 1), "steps": model.num_timesteps, "games": env.episode}


def evaluate(model, game: str, players: int = 2, games: int = 400, seed: int = 10_000,
             opponent: str = "random", actions: str = "fixed") -> dict:
    """The policy's most likely legal action against the opponents, `games` games, seats rotated."""
    env = VersusFixed(game, players, seed, opponent, actions=actions)
    total = 0.0
    for _ in range(games):
        obs, _ = env.reset()
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, info = env.step(action)
        total += info["share"]
    low, high = wilson(total, games)
    return {"games": games, "win_rate": round(total / games, 3), "interval_95": [round(low, 3), round(high, 3)]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m interpreter.agents.learn", description=__doc__.splitlines()[0])
    ap.add_argument("game", help="a game folder under content/, or a path to one")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=5.0, help="CPU minutes of training (default 5)")
    ap.add_argument("--steps", type=int, default=None, help="at most this many environment steps of training")
    ap.add_argument("--games", type=int, default=400, help="games of evaluation (default 400)")
    ap.add_argument("--opponent", default="random", help="the fixed opponents' agent (default random)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--actions", choices=("fixed", "words"), default="fixed",
                    help="the action space: whole options where they can be enumerated (fixed), or words only")
    ap.add_argument("--policy", choices=("options", "mlp"), default="options",
                    help="options: an option scored by what it names (learn_policy); mlp: a logit per action id")
    ap.add_argument("--save", help="write the trained policy here (MaskablePPO.save)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("the learning example needs the learn extra: python -m pip install -e \".[learn]\"", file=sys.stderr)
        return 2
    log = None if args.json else (lambda text: print(text, flush=True))
    model, took = train(args.game, args.players, args.minutes, args.seed, args.opponent, args.steps, log, args.actions,
                        policy=args.policy)
    if args.save:
        model.save(args.save)
    result = {"game": args.game, "players": args.players, "opponent": args.opponent, "training": took,
              "evaluation": evaluate(model, args.game, args.players, args.games, opponent=args.opponent, actions=args.actions)}
    print(json.dumps(result, indent=1) if args.json else
          f"trained {took['cpu_s']} s CPU ({took['steps']} steps, {took['games']} games); against {args.opponent}: "
          f"{result['evaluation']['win_rate']:.1%} of {args.games} games, 95 % interval {result['evaluation']['interval_95']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
