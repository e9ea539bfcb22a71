"""The bots' evaluation (manifest `bots:`, dsl.bots_spec), the greedy agent, and the ISMCTS evaluator that use it."""
from __future__ import annotations

import random

import pytest

from dsl.loader import load_game
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.judgement import chances, evaluations, judge_of, one_ahead, value
from interpreter.agents.line import Line, sample
from interpreter.codegen import compile_game
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from tests.tiny_game import tiny_game

# Each player in turn may draw the top card of a hidden deck (worth +5 or -5) or stay; the best hand wins.
DRAW_RULES = """\
procedure play():
    move pile to deck
    shuffle deck
    for i in 1..2:
        for p in players:
            choose by p ask "Draw the top card, or stay?":
                draw ask "Draw":
                    move top(deck) to hand of p
                    log to p "{p} draws {top(hand of p)}"
                stay ask "Stay":
                    log "{p} stays"
    for p in players:
        p.points = sum(c.value for c in hand of p)
    win first(rank(p in players by p.points descending))
"""
DRAW_RECORDS = """\
- {id: plus, kind: token, name: Plus, value: 5, copies: 4, source: designed}
- {id: minus, kind: token, name: Minus, value: -5, copies: 4, source: designed}
"""
BOTS = 'bots:\n  evaluation: "sum(c.value for c in hand of you)"\n  scale: 5\n'


def _draw_game(tmp_path, bots: str = BOTS):
    root = tiny_game(tmp_path, rules=DRAW_RULES, records=DRAW_RECORDS, zones="deck: {scope: game, visibility: hidden}")
    with open(root / "game.yaml", "a", encoding="utf-8") as f:
        f.write(bots)
    return root


def _errors(root) -> list:
    return [(d.code, d.span.line if d.span else None, d.message) for d in load_game(root).report.diagnostics]


def test_the_evaluation_is_checked_where_the_manifest_writes_it(tmp_path):
    assert _errors(_draw_game(tmp_path / "ok")) == []
    lines = (_draw_game(tmp_path / "ok") / "game.yaml").read_text().splitlines()
    at = next(i for i, line in enumerate(lines, 1) if line.startswith("  evaluation:"))
    unknown = _errors(_draw_game(tmp_path / "name", 'bots:\n  evaluation: "sum(c.value for c in hand of yuo)"\n'))
    assert [(c, line) for c, line, _ in unknown] == [("REF-UNDEF", at)] and "'yuo'" in unknown[0][2]
    text = _errors(_draw_game(tmp_path / "type", 'bots:\n  evaluation: "len(hand of you) > 0"\n'))
    assert [(c, line) for c, line, _ in text] == [("TYPE-MISMATCH", at)] and "a number" in text[0][2]
    scale = _errors(_draw_game(tmp_path / "scale", BOTS.replace("scale: 5", "scale: 0")))
    assert scale and scale[0][0].startswith("SCHEMA")


def test_the_evaluation_is_compiled_with_the_game_and_read_for_each_player(tmp_path):
    game = compile_game(load_game(_draw_game(tmp_path)))
    session = Session(game, 2, 3, ())
    session.answer(0)  # P1 draws
    hand = session.state.player_zones["hand"][0].items
    assert evaluations(session) == [hand[0].attrs["value"], 0]
    got = value(session)
    assert got == pytest.approx(chances(evaluations(session), 5)) and sum(got) == pytest.approx(1)
    assert (got[0] > got[1]) == (hand[0].attrs["value"] > 0)


def test_without_a_bots_section_the_evaluation_is_the_tables_score_else_the_score_variable(tmp_path):
    root = _draw_game(tmp_path / "table", bots="table:\n  score: hand_value\n")
    with open(root / "main.rules", "a", encoding="utf-8") as f:
        f.write("function hand_value(p: player) = 2 * sum(c.value for c in hand of p)\n")
    game = compile_game(load_game(root))
    assert (game.content.bots.declared, game.content.bots.text) == (False, "hand_value(you)")
    session = Session(game, 2, 3, ())
    session.answer(0)
    assert evaluations(session) == [2 * session.state.player_zones["hand"][0].items[0].attrs["value"], 0]
    plain = compile_game(load_game(_draw_game(tmp_path / "plain", bots="")))
    assert plain.content.bots.text == "you.points"
    assert judge_of(plain, "3 * len(hand of you)").fn(session.rt, 0) == 3


def test_a_game_sets_its_search_budget_and_the_caller_overrides_it(tmp_path):
    pytest.importorskip("pyspiel")
    from interpreter.agents.players import make_agent
    bad = _errors(_draw_game(tmp_path / "bad", BOTS + "  search: {simulations: 0, depth: 3}\n"))
    assert sorted(c for c, _, _ in bad) == ["SCHEMA-EXTRA", "SCHEMA-VALUE"]  # an unknown setting, one out of range
    own = compile_game(load_game(_draw_game(tmp_path / "own", BOTS + "  search: {simulations: 7, worlds: 2}\n")))
    plain = compile_game(load_game(_draw_game(tmp_path / "plain")))
    assert own.content.bots.search == (("simulations", 7), ("worlds", 2)) and plain.content.bots.search == ()

    def settled(game, **given):
        agent = make_agent("ismcts", 0, 1, given)
        agent.attach(Session(game, 2, 3, (), start=False))
        return agent.simulations, agent.worlds, agent.horizon, agent.bot._max_simulations

    assert settled(own) == (7, 2, 0, 7)  # the game's own where the caller gives none
    assert settled(own, simulations=3) == (3, 2, 0, 3)  # the caller's over the game's
    assert settled(plain) == (100, 4, 0, 100)  # the engine's defaults


def test_chances_are_a_softmax_of_the_evaluations():
    assert chances([0, 0, 0], 1) == pytest.approx([1 / 3] * 3)
    two = chances([10, 0], 5)
    assert two[0] == pytest.approx(1 / (1 + pytest.importorskip("math").exp(-2)))
    assert sum(chances([3, -40, 7, 7], 2)) == pytest.approx(1)


class _Peeking(GreedyAgent):
    """A greedy agent that cheats: it values its options on its copy of the true game instead of the drawn world."""

    def choose_values(self, session):
        return one_ahead(self.line.session, self.seat, self.judge)


def _choice(agent_class, session, world, scramble: bool) -> int:
    agent = agent_class(0, 11)
    agent.sampler = lambda line, seat, rng: world.copy()  # the same drawn world, whatever the true deck holds
    agent.attach(session)
    agent.line.apply  # noqa: B018
    for answer in session.history[len(agent.line.answers):]:
        agent.line.apply(answer)
    if scramble:  # the hidden deck of the game the agent follows, turned over: nothing the player sees changes
        deck = agent.line.session.state.game_zones["deck"]
        deck.items.reverse()
    return agent.decide(session.pending, None)


def test_greedy_never_peeks_its_choice_hangs_on_the_drawn_world_only(tmp_path):
    game = compile_game(load_game(_draw_game(tmp_path)))
    honest, cheat = [], []
    for seed in range(12):
        session = Session(game, 2, seed, ())
        line = Line(game, 2, seed, (), track=True)
        world = sample(line, 0, random.Random(seed))
        top = world.session.state.game_zones["deck"].items[0].attrs["value"]
        truth = session.state.game_zones["deck"].items
        flips = truth[0].attrs["value"] != truth[-1].attrs["value"]
        pair = [_choice(GreedyAgent, session, world, s) for s in (False, True)]
        honest.append(pair[0] == pair[1])
        assert pair[0] == (0 if top > 0 else 1)  # it draws exactly when the drawn world's top card is worth drawing
        peek = [_choice(_Peeking, session, world, s) for s in (False, True)]
        cheat.append(peek[0] == peek[1] or not flips)
    assert all(honest)
    assert not all(cheat)  # the check can fail: a bot that reads the true deck chooses otherwise when it is turned over


def test_greedy_breaks_ties_with_its_own_seeded_rng(tmp_path):
    game = compile_game(load_game(_draw_game(tmp_path, bots="")))  # the score variable: 0 for all until the end

    def picks(seed: int) -> list:
        session = Session(game, 2, 1, (), start=False)
        agent = GreedyAgent(0, seed)
        agent.attach(session)
        session.call("play")
        out = []
        while session.pending is not None:
            answer = agent.decide(session.pending, None) if session.pending.player == 0 else 1
            out += [answer] if session.pending.player == 0 else []
            session.answer(answer)
        return out

    runs = [picks(seed) for seed in range(6)]
    assert runs == [picks(seed) for seed in range(6)]  # its own RNG, seeded
    assert {a for run in runs for a in run} == {0, 1}  # every option alike: both taken


def test_the_search_values_its_leaves_and_ranks_its_moves_by_the_evaluation():
    pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import ismcts

    from interpreter.agents.ismcts_agent import _keyed
    from interpreter.agents.ismcts_evaluator import JudgedRollouts
    from interpreter.agents.openspiel_game import RulesState, load_game
    game = load_game("kings_bounty", players=2, seed=7, actions="indices")
    state = game.new_initial_state()
    evaluator = JudgedRollouts(0, np.random.RandomState(1), prior_depth=1)
    rng = random.Random(3)
    while True:  # on to a decision whose options the evaluation tells apart
        world = RulesState(game, sample(state.line, state.current_player(), rng))
        options = one_ahead(world.line.session, world.current_player())
        if len(set(options)) > 2:
            break
        state.apply_action(rng.randrange(len(state.legal_actions())))
    evaluator.root = len(world.line.answers)
    prior = dict(evaluator.prior(world))
    assert max(prior, key=prior.get) in [i for i, v in enumerate(options) if v == max(options)]
    assert len(set(prior.values())) > 1 and sum(prior.values()) == pytest.approx(1)
    ahead = world.clone()
    ahead.apply_action(0)
    assert set(dict(evaluator.prior(ahead)).values()) == {1 / len(ahead.legal_actions())}  # past prior_depth: alike
    assert list(evaluator.evaluate(ahead.clone())) == pytest.approx(value(ahead.line.session))  # horizon 0: the value now

    # `rollout: 1`: the horizon's decisions answered as the greedy agent would, each by the evaluation one move ahead
    played = ahead.clone()
    for _ in range(3):
        session = played.line.session
        options = one_ahead(session, session.pending.player or 0)
        session.answer(options.index(max(options)))
    greedy = JudgedRollouts(3, np.random.RandomState(1), prior_depth=1, rollout=1)
    assert list(greedy.evaluate(ahead.clone())) == pytest.approx(value(played.line.session))
    randomly = JudgedRollouts(3, np.random.RandomState(1), prior_depth=1)
    assert list(randomly.evaluate(ahead.clone())) != pytest.approx(value(played.line.session))

    bot = _keyed(ismcts)(game, evaluator, 1.0, 10, random_state=np.random.RandomState(1))
    bot.widening = 1.0
    node = ismcts.ISMCTSNode()
    node.prior_map, node.total_visits = prior, 0
    legal = list(prior)
    expanded = []
    for visits in range(8):
        node.total_visits = visits
        action = bot.check_expand(node, legal)
        if action != ismcts.pyspiel.INVALID_ACTION:
            expanded.append(action)
            node.child_info[action] = ismcts.ChildInfo(1, 0.5, prior[action])
    assert expanded == sorted(legal, key=lambda a: -prior[a])[:len(expanded)]  # best-ranked first
    assert len(expanded) == 3  # at most widening * sqrt(visits + 1) children: 3 after 8 visits


@pytest.mark.parametrize("name, players, variants", [("kings_bounty", 3, ("experienced",)), ("btwixt", 4, ("advanced",)),
                                                     ("agot", 3, ("tides_of_battle",))])
def test_each_games_evaluation_reads_a_number_all_game_long(name, players, variants):
    game = load_compiled(name)
    assert game.content.bots.declared
    session = Session(game, players, 2, variants)
    rng = random.Random(2)
    read = 0
    while session.pending is not None:
        if len(session.history) % 7 == 0:
            values = evaluations(session)
            assert len(values) == players and all(type(v) is int for v in values)
            read += 1
        session.answer(rng.randrange(len(session.pending.values)))
    assert read > 10 and value(session) == pytest.approx([1 / len(session.result.winners) if p in session.result.winners
                                                           else 0 for p in range(players)])


def _searched(opponents: int):
    """The tree of one search (40 simulations) by seat 0 of a King's Bounty game, at its third decision."""
    from interpreter.agents.players import make_agent
    game = load_compiled("content/kings_bounty")
    session = Session(game, 2, 5, (), start=False)
    agent = make_agent("ismcts", 0, 5, {"simulations": 40, "opponents": opponents})
    agent.attach(session)
    session.call(game.content.manifest["start"])
    while session.pending.player != 0 or len(session.history) < 2 or len(session.pending.values) < 2:
        session.answer(0)
    agent.decide(session.pending, None)
    ranked = [(player, node) for (player, _), node in agent.bot._nodes.items() if player != 0
              and node.prior_map and len(set(node.prior_map.values())) > 1]  # the other seat's, near the root
    return agent.bot._nodes, ranked


def test_a_search_that_models_the_other_seats_answers_for_them_as_greedy_play_would():
    pytest.importorskip("pyspiel")
    nodes, ranked = _searched(opponents=1)
    assert ranked  # the other seat's decisions near the root were met and ranked one move ahead...
    assert all(not node.child_info and node.total_visits == 0 for _, node in ranked)  # ...and answered, never branched
    assert sum(1 for (player, _) in nodes if player == 0) > 1  # the search went on to its own next decisions
    _, searched = _searched(opponents=0)
    assert any(len(node.child_info) > 1 for _, node in searched)  # searched alike, the other seat's replies branch


def _root_values(name: str, players: int, answered: int, baseline: int = 1):
    """An ISMCTS seat of `name` at its first decision after `answered` answers: the states its search starts
    from (six: four drawn worlds, then copies of the second and third, in turn), each with its world's value and leaf value."""
    from interpreter.agents.openspiel_game import RulesState
    from interpreter.agents.players import make_agent
    game = load_compiled(f"content/{name}")
    session = Session(game, players, 2, (), start=False)
    agent = make_agent("ismcts", 0, 2, {"simulations": 50, "worlds": 4, "baseline": baseline})
    agent.attach(session)
    session.call(game.content.manifest["start"])
    rng = random.Random(4)
    while len(session.history) < answered or session.pending.player != 0 or len(session.pending.values) < 2:
        session.answer(rng.randrange(len(session.pending.values)))
    for answer in session.history[len(agent.line.answers):]:
        agent.line.apply(answer)
    agent.evaluator.root = len(agent.line.answers)
    root = RulesState(agent.game, agent.line)
    out = []
    for _ in range(6):
        state = agent._resample(root, 0)
        world_value = np.array(value(state.line.session))
        out.append((getattr(state, "baseline", None), world_value, agent.evaluator.evaluate(state)))
    return out


np = pytest.importorskip("numpy")


def test_each_simulation_values_its_leaf_less_what_its_drawn_world_was_worth_at_the_root():
    pytest.importorskip("pyspiel")
    found = _root_values("btwixt", 4, 30)
    for baseline, world_value, leaf in found:  # horizon 0: the leaf is the root, so what is left is the fair share
        assert baseline == pytest.approx(world_value - 0.25) and leaf == pytest.approx([0.25] * 4)
    assert found[4][0] is found[1][0] and found[5][0] is found[2][0]  # copies of worlds (in turn): their world's value
    assert len({tuple(np.round(b, 9)) for b, _, _ in found}) > 1  # the deal of face-down tokens moves the value
    plain = _root_values("btwixt", 4, 30, baseline=0)
    assert all(b is None and leaf == pytest.approx(v) for b, v, leaf in plain)  # 0: the evaluation as it is
    same = _root_values("kings_bounty", 2, 6)  # an evaluation that reads nothing hidden: every world alike
    assert len({tuple(np.round(b, 9)) for b, _, _ in same}) == 1
