"""What a seat's page costs the server, in process (no HTTP, no browser): a scripted person plays a game against
random bots through `Rooms` as `rules serve` holds them, and the view a page's websocket would send is made
(interpreter.web.live.rendered) after each of the person's answers and again when the person is asked. Prints
the processor time per person's answer (bots' answers, storing and views included), the time to make a view
(p50, p90, max), and how much of a view an update sends (the parts the page did not have). With --profile,
cProfile's 40 costliest functions by cumulative time. Pin it to one core for steady figures: `taskset -c 0`.

Run:  python bench/web_views.py [--game agot] [--players 3] [--decisions 150] [--seeds 2] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import tempfile
import time
from pathlib import Path

from interpreter.web import pages
from interpreter.web.live import rendered
from interpreter.web.rooms import Rooms
from interpreter.web.store import Store


def play(rooms, env, args, seed: int, times: list, sent: list) -> int:
    room = rooms.create(args.game, args.players, ["person"] + ["random"] * (args.players - 1), "en", seed=seed)
    token, rng, had, answered = room.seats[0].token, random.Random(seed), set(), 0

    def view() -> None:
        nonlocal had
        start = time.perf_counter()
        parts = rendered(env, rooms, room, 0, "en")["parts"]
        times.append(time.perf_counter() - start)
        sent.append((sum(len(p) for p in parts if p not in had), sum(map(len, parts))))
        had = set(parts)
    while room.status == "playing" and answered < args.decisions:
        room.play_bots()
        view()
        if room.status != "playing":
            break
        room.answer(token, len(room.session.history), rng.randrange(len(room.session.pending.values)))
        view()
        answered += 1
    return answered


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="agot")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=150, help="the person's decisions per game")
    ap.add_argument("--seeds", type=int, default=2, help="games played, one after the other")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rooms, env = Rooms(Store(Path(tmp) / "views.sqlite3")), pages.environment()
        play(rooms, env, argparse.Namespace(**{**vars(args), "decisions": 5}), 999, [], [])  # the game loaded, the board drawn
        times: list = []
        sent: list = []
        profile = cProfile.Profile() if args.profile else None
        if profile:
            profile.enable()
        cpu = time.process_time()
        answered = sum(play(rooms, env, args, seed, times, sent) for seed in range(1, args.seeds + 1))
        cpu = time.process_time() - cpu
        if profile:
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    times.sort()
    new, whole = sum(s[0] for s in sent[1:]), sum(s[1] for s in sent[1:])
    print(f"{args.game}, {args.players} players: {answered} answers, {len(times)} views; {1000 * cpu / max(1, answered):.1f} ms "
          f"of processor time per answer; a view in p50 {1000 * times[len(times) // 2]:.1f} ms, p90 "
          f"{1000 * times[int(0.9 * len(times))]:.1f} ms, max {1000 * times[-1]:.1f} ms; an update sends "
          f"{new / max(1, len(sent) - 1) / 1000:.1f} kB of {whole / max(1, len(sent) - 1) / 1000:.1f} kB ({100 * new / max(1, whole):.0f} %)")


if __name__ == "__main__":
    main()
