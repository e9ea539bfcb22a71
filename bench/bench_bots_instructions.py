"""The adapters against the engine by instruction count (Valgrind's callgrind), free of the timing noise of a
shared 2-core machine: the same random 4-player B'Twixt games as `bench_bots.py`, played by the engine as
`rules simulate` plays them and through OpenSpiel and PettingZoo with a read at every step.

Each way is run in a fresh process under callgrind for 2 and for 2 + N games; the difference / N is the
instructions of one game, without the start-up (imports, compiling the game, building the adapters' parts).
Hash randomisation is off (PYTHONHASHSEED=0), so a figure is the same from run to run. The copy of a
tensor is `rep movsb` to the CPU, which callgrind counts byte by byte: copies weigh more here than in time.

Run:  python bench/bench_bots_instructions.py [--games 10] [--ways engine os_indices ...]
(one way takes about a minute: callgrind runs Python some 50 times slower)
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAYS = ("engine", "os_noread", "os_indices", "os_fixed", "pz_indices", "pz_fixed")


def play(way: str, games: int) -> None:
    """Play `games` games one way (in this process, which callgrind runs), as `bench_bots.py` plays them."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_bots import engine_games, openspiel_games, pettingzoo_games
    from interpreter.runtime.games import load_compiled
    actions = "fixed" if way.endswith("fixed") else "indices"
    if way == "engine":
        engine_games(load_compiled("btwixt"), 4, games)
    elif way == "os_noread":
        openspiel_games("btwixt", 4, games, actions, read=False)
    elif way.startswith("os_"):
        openspiel_games("btwixt", 4, games, actions)
    else:
        pettingzoo_games("btwixt", 4, games, actions)


def instructions(way: str, games: int) -> int:
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--play", way, str(games)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def main() -> None:
    if sys.argv[1:2] == ["--play"]:
        play(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--ways", nargs="+", default=list(WAYS), choices=WAYS)
    args = ap.parse_args()
    engine = None
    for way in args.ways:
        per_game = (instructions(way, 2 + args.games) - instructions(way, 2)) / args.games
        engine = per_game if way == "engine" else engine
        ratio = f"  {per_game / engine:.2f}x the engine" if engine and way != "engine" else ""
        print(f"{way:11s} {per_game / 1e6:7.1f} M instructions a game{ratio}", flush=True)


if __name__ == "__main__":
    main()
