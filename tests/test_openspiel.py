"""The OpenSpiel adapter: OpenSpiel's own checks, what each player is shown, sampled worlds, secret waves."""
from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel")

from interpreter.agents.line import Line, Sampling, sample, visible_ids  # noqa: E402
from interpreter.agents.openspiel_game import load_game, register_all  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402
from interpreter.present.views import can_see  # noqa: E402
from tests.tiny_game import tiny_game  # noqa: E402
from tests.conftest import ROOT  # noqa: E402


@pytest.mark.parametrize("game, players", [("kings_bounty", 3), ("btwixt", 4)])
def test_openspiel_random_simulation_check_passes(game, players):
    """OpenSpiel's random-simulation test of a game: legal actions, cloning, serialization, returns, strings."""
    pyspiel.random_sim_test(load_game(game, players=players, seed=3), num_sims=1, serialize=True, verbose=False)


def test_every_content_game_that_loads_is_registered():
    names = register_all()
    assert {"rules_kings_bounty", "rules_btwixt"} <= set(names)
    assert all(name in pyspiel.registered_names() for name in names)


def test_game_shape():
    game = load_game("kings_bounty", players=4, seed=1)
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    state = game.new_initial_state()
    assert state.current_player() == state.line.to_act()
    # the fixed action space: the legal actions are the whole options naming components or players (each
    # its own id), and the first words of the others
    assert state.legal_options() == list(range(len(state.line.decision.values)))
    space = game.space
    assert game.num_distinct_actions() == space.size
    labels = state.line.decision.labels
    wanted = {label if tuple(space.ids[w] for w in label.split(" ")) in space.whole else label.split(" ")[0] for label in labels}
    assert any(" " in w for w in wanted)  # King's Bounty's first turn offers whole options (play_domain x)
    assert sorted(space.word(a) for a in state.legal_actions()) == sorted(wanted)
    assert all(state.action_to_string(state.current_player(), a) == space.word(a) for a in state.legal_actions())
    indices = load_game("kings_bounty", players=4, seed=1, actions="indices").new_initial_state()
    assert indices.legal_actions() == list(range(len(indices.line.decision.values)))


def test_registered_on_import_without_a_call():
    """pyspiel.load_game by name works once the adapter module is imported (a fresh process)."""
    import subprocess
    import sys
    code = ("import pyspiel, interpreter.agents.openspiel_game; "
            "g = pyspiel.load_game('rules_kings_bounty', {'players': 3}); print(g.num_players())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "3"


def test_bad_parameters_are_usage_errors():
    from dsl.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError, match="2 to 5 players"):
        load_game("kings_bounty", players=9)
    with pytest.raises(DiagnosticError, match="no variant"):
        load_game("kings_bounty", variants=("nonesuch",))


def _ids_in(text: str, ids) -> set:
    words = set(re.findall(r"[A-Za-z0-9_]+", text))
    return words & set(ids)


@pytest.mark.parametrize("game, players, variants", [("kings_bounty", 4, ()), ("kings_bounty", 3, ("experienced",)), ("btwixt", 4, ())])
def test_strings_and_tensors_show_only_what_the_view_shows(game, players, variants):
    """Another player's hidden cards never reach a player: not in its observation, its record or its tensor."""
    spiel = load_game(game, players=players, seed=11, variants=variants)
    state = spiel.new_initial_state()
    observer_ids = sorted(load_compiled(game).content.entity_ids)
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal() and steps < 400:
        if steps % 7 == 0:
            engine = state.line.session.state
            for p in range(players):
                now = visible_ids(engine, p)
                hidden = set(engine.entities) - now
                assert not _ids_in(state.observation_string(p), hidden)
                # the record may name only what this player saw when deciding, or sees now
                assert _ids_in(state.information_state_string(p), observer_ids) <= now | set(state.line.seen[p])
                # tensor: every component it cannot see sits in slot 0 ("not seen")
                tensor = state.observation_tensor(p)
                width = spiel.encoder.width
                for k, eid in enumerate(spiel.encoder.ids):
                    if eid in hidden:
                        assert tensor[k * width] == 1.0 and sum(tensor[k * width:(k + 1) * width]) == 1.0
                # the hand of every other player is in the full state, never in this player's strings
                for q in range(players):
                    if q != p:
                        for e in engine.player_zones.get("hand", [[]] * players)[q]:
                            if not can_see(e, p):
                                assert e.id not in _ids_in(state.observation_string(p), [e.id])
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


def test_a_sampled_world_reads_the_same_to_its_player_and_moves_hidden_cards():
    game = load_compiled("kings_bounty")
    line = Line(game, 4, 21, track=True)
    rng = random.Random(2)
    for _ in range(12):
        line.apply(rng.randrange(len(line.decision.values)))
    p = line.to_act()
    hands = [[e.id for e in line.session.state.player_zones["hand"][q]] for q in range(4)]
    differed = 0
    for _ in range(10):
        other = sample(line, p, rng)
        assert other.information(p) == line.information(p)
        assert other.session.pending.labels == line.session.pending.labels
        mine = [e.id for e in other.session.state.player_zones["hand"][p]]
        assert mine == hands[p]  # its own cards stay
        theirs = [[e.id for e in other.session.state.player_zones["hand"][q]] for q in range(4)]
        differed += theirs != hands
    assert differed >= 8  # early in a game a sample almost always deals the others other cards
    assert Sampling.dealt > 0


def test_a_copy_has_an_engine_of_its_own():
    game = load_compiled("btwixt")
    line = Line(game, 3, 4)
    rng = random.Random(3)
    for _ in range(40):
        line.apply(rng.randrange(len(line.decision.values)))
    copy = line.copy()  # Session.copy: no replay
    assert copy.session is not line.session and line._session is not None
    assert copy.information(1) == line.information(1)
    assert copy.session.state.digest() == line.session.state.digest()
    copy.apply(len(copy.decision.values) - 1)
    assert len(line.answers) == 40 and line.session.state.digest() != copy.session.state.digest()


SECRET_RULES = """\
procedure play():
    for p in players:
        move top(pile) to hand of p
    secretly for p in players:
        choose c in pile by p
        move c to hand of p face down
    for p in players:
        log "{p} holds {len(hand of p)} cards"
"""

SECRET_RECORDS = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  copies: 6
  source: designed
"""


def test_a_secret_wave_is_asked_one_player_at_a_time_and_hides_earlier_answers(tmp_path):
    root = tiny_game(tmp_path, rules=SECRET_RULES, records=SECRET_RECORDS)
    from interpreter.agents.openspiel_game import register
    register(str(root))
    game = load_game(str(root), players=3, seed=1)
    state = game.new_initial_state()
    first = state.current_player()
    assert state.line.decision.secret
    before = [state.observation_string(p) for p in range(3)]
    state.apply_option(2)
    second = state.current_player()
    assert second != first and state.line.decision.secret
    # the first answer is held by the engine until the wave ends: nobody's view shows it yet
    for p in range(3):
        now = state.observation_string(p)
        assert now.split("\n")[1] == before[p].split("\n")[1]
    # and the second player's record says only that the first decided secretly
    record = state.information_state_string(second)
    assert "decided secretly" in record and "coin_3" not in record
    # a world sampled for the second player draws the first player's open answer afresh
    answers = set()
    for seed in range(12):
        other = sample(state.line, second, random.Random(seed))
        assert other.information(second) == state.line.information(second)
        answers.add(other.answers[-1])
    assert len(answers) > 1
