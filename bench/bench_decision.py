"""What one ISMCTS decision costs in the middle of a game, and what one copy of that game costs.

    python bench/bench_decision.py agot --players 3 --at 120
    python bench/bench_decision.py agot --players 3 --at 120 --profile     # and where the time goes (cProfile)
    python bench/bench_decision.py btwixt --players 4 --at 60 --agent-arg simulations=50

Greedy seats play game --seed to its first decision after --at answers with at least three options; then a
fresh ISMCTS agent (the game's defaults, or --agent-arg) for the seat to move follows the game to there and
decides, --repeat times (each a new agent with the same seed: the same search, so the same answer). Prints
the CPU milliseconds of the best decision and its answer, and the best of 300 `Session.copy()` calls (wall
time: on a loaded machine the best of many short calls is the one nothing interrupted).
"""
from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.agents.judgement import catch_up  # noqa: E402
from interpreter.agents.players import make_agent, parse_agent_args  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402
from interpreter.runtime.session import Session  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--at", type=int, default=120, help="answers given (by greedy seats) before the decision timed")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--agent-arg", action="append", default=[], help="KEY=VALUE, as for rules play")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    game = load_compiled(args.game)
    options = parse_agent_args(args.agent_arg)
    history = _greedy_history(game, args)

    def ready():
        s = Session(game, args.players, args.seed)
        for a in history:
            s.answer(a)
        agent = make_agent("ismcts", s.pending.player, args.seed, options)
        agent.attach(s)
        catch_up(agent, "ismcts")  # the agent's own line follows the game: not part of the decision timed
        return s, agent

    s, _ = ready()
    print(f"{args.game}, {args.players} players, seed {args.seed}: decision {len(history)}, seat {s.pending.player}, "
          f"{len(s.pending.values)} options, {len(s.state.entities)} components")
    best, answer = None, None
    for _ in range(args.repeat):
        s, agent = ready()
        start = time.process_time()
        answer = agent.decide(s.pending, None)
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    print(f"ISMCTS decision: best of {args.repeat} {best * 1000:.0f} ms CPU, answer {answer}")
    gc.disable()  # a copy thrown away is cyclic garbage: no collection inside the calls timed
    fastest = min(_timed(s.copy) for _ in range(300))
    gc.enable()
    print(f"Session.copy: best of 300 {fastest * 1000:.2f} ms")
    if args.profile:
        s, agent = ready()
        profile = cProfile.Profile()
        profile.runcall(agent.decide, s.pending, None)
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)


def _greedy_history(game, args) -> list:
    s = Session(game, args.players, args.seed, start=False)
    agents = [make_agent("greedy", p, args.seed) for p in range(args.players)]
    for agent in agents:
        agent.attach(s)  # before the game starts, as `rules play` attaches them
    s.call(game.content.manifest["start"])
    while s.pending is not None and not (len(s.history) >= args.at and len(s.pending.values) > 2):
        d = s.pending
        s.answer(agents[d.player if d.player is not None else 0].decide(d, None))
    if s.pending is None:
        sys.exit(f"the game ended after {len(s.history)} answers: ask for an earlier decision (--at)")
    return list(s.history)


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
