"""Are the sampler's worlds what the player's information implies, or do they leak the true deal? (issue 34 item 8)

1. Small games, enumerated exactly (`tests/test_bot_sampling_exact.py`: every deal of the setup's draws and every
   answer of a random opponent that the player could not tell from the true game, weighted by how likely the
   opponent's answers were): per component, the chance it lies in the opponent's hand, exactly, in the sampler's
   worlds, and for a uniform draw among the components the player has not seen.
2. King's Bounty, 2 players, at every tenth decision of P1 after its tenth: the share of the opponent's true
   unseen hand cards that sampled worlds put in its hand, against a uniform draw among every component P1 has
   not seen (the issue's comparison) and among those of them that can lie in a hand (not a title, which never
   leaves the title pile or row for a hand).

Run:  python bench/sampler_posterior.py [--games 20] [--samples 20]
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents.line import Line, sample, visible_ids  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402
from tests import test_bot_sampling_exact as small  # noqa: E402


def small_cases(samples: int) -> None:
    for case in ("public", "burned"):
        game = small._game(Path(tempfile.mkdtemp()), case)
        for seed, answers in ((1, [0, 1]), (4, [1, 0]), (7, [1, 1])):
            truth = small._truth(game, seed, answers)
            exact = small.exact_posterior(game, truth, 0, small._worlds(case))
            got = small.sampled(truth, 0, samples)
            flat = small.uniform(truth, 0)
            worst = max(abs(got.get(k, 0.0) - exact.get(k, 0.0)) for k in set(exact) | set(got))
            print(f"{case}, seed {seed}: component: exact / sampled / uniform (largest gap sampled-exact {worst:.3f})")
            for k in sorted(set(exact) | set(got) | set(flat)):
                print(f"  {k:8} {exact.get(k, 0.0):.3f} / {got.get(k, 0.0):.3f} / {flat.get(k, 0.0):.3f}")


def kings_bounty(games: int, samples: int) -> None:
    game = load_compiled("kings_bounty")
    held = cards = 0
    flat_all = flat_hand = 0.0
    for seed in range(games):
        line = Line(game, 2, seed, track=True)
        rng = random.Random(seed)
        mine = 0
        while not line.finished:
            if line.to_act() == 0:
                mine += 1
                if mine > 10 and mine % 10 == 0:
                    state = line.session.state
                    known = visible_ids(state, 0) | set(line.seen[0])
                    hand = state.player_zones["hand"][1]
                    truth = {e.id for e in hand} - known
                    unseen = [e for e in state.entities.values() if e.id not in known]
                    can_hold = [e for e in unseen if e.kind != "title"]
                    for k in range(samples):
                        world = sample(line, 0, random.Random(1000 * seed + k))
                        held += len(truth & {e.id for e in world.session.state.player_zones["hand"][1]})
                    cards += samples * len(truth)
                    flat_all += samples * len(truth) * len(hand) / len(unseen)
                    flat_hand += samples * len(truth) * len(hand) / len(can_hold)
            line.apply(rng.randrange(len(line.decision.values)))
    print(f"King's Bounty 2p, {games} games: sampled hands hold {held / cards:.1%} of the opponent's true unseen cards; "
          f"a uniform draw among every unseen component {flat_all / cards:.1%}, among those that can lie in a hand "
          f"{flat_hand / cards:.1%}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--samples", type=int, default=20)
    args = ap.parse_args()
    small_cases(max(400, args.samples))
    kings_bounty(args.games, args.samples)


if __name__ == "__main__":
    main()
