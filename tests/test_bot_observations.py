"""What the bot adapters observe and how they act (issue 20): where components lie, the pending
decision, the fixed action space.

- A component that moves from a zone on one component to the same zone on another (AGoT units between
  areas, King's Bounty garrisons between domains, B'Twixt tokens between allies) changes its row.
- Each pick of a multi-pick changes the decider's observation.
- An action id means the same word in every state where it is legal, words name no hidden component,
  and the option the words complete is the one they spell (random games of every game).
"""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")  # the bots' extras (openspiel, pettingzoo) bring it

pytest.importorskip("pyspiel")

from interpreter.agents.encoding import KINDS as enc_kinds  # noqa: E402
from interpreter.agents.line import visible_ids  # noqa: E402
from interpreter.agents.openspiel_game import load_game  # noqa: E402
from interpreter.core.state import Entity  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402

GAMES = [("agot", 3), ("kings_bounty", 3), ("btwixt", 4)]


def _where(state) -> dict:
    """Component id -> (zone name, id of the component the zone lies on) for zones on components."""
    return {e.id: (e.zone.name, e.zone.owner.id) for e in state.entities.values()
            if e.zone is not None and isinstance(e.zone.owner, Entity)}


@pytest.mark.parametrize("name, players", GAMES)
def test_a_component_in_the_same_zone_on_two_components_reads_differently(name, players):
    """Wherever a component lies in a zone on a component (in one game, or in two games), its row says on which;
    one the observer cannot see counts on the row of the component it lies on."""
    rows: dict = {}  # (component, zone name) -> {the component the zone lies on: its row}
    pairs = hidden_on = 0
    for seed in range(4):
        state = load_game(name, players=players, seed=seed, actions="indices").new_initial_state()
        enc = state.get_game().encoder
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal() and steps < 300:
            if steps % 3 == 0:
                engine = state.line.session.state
                seen = visible_ids(engine, 0)
                tensor = state.observation_array(0)
                for eid, (zone, on) in _where(engine).items():
                    if eid in seen and on in seen:
                        k = enc.index[eid] * enc.width
                        row = tuple(tensor[k:k + enc.zone_width + 1])  # where: the zone's slot and on which component
                        known = rows.setdefault((eid, zone), {})
                        for other, other_row in known.items():
                            if other != on:
                                assert other_row != row, f"{eid} in {zone} of {other} and of {on}: the same row"
                                pairs += 1
                        known[on] = row
                # components it cannot see (B'Twixt's face-down power tokens) count on the row of what they lie on
                for e in engine.entities.values():
                    if e.id in seen:
                        under = sum(1 for z in e.zones.values() for x in z.items if x.id not in seen)
                        assert tensor[enc.index[e.id] * enc.width + enc.zone_width + 4] == pytest.approx(under * enc.count_scale)
                        hidden_on += under > 0
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    assert pairs > 0 or hidden_on > 0, f"no component lay in the same zone on two components in {name}"


def test_each_pick_of_a_multi_pick_changes_the_observation():
    """King's Bounty: "which cards go under the deck?" is asked once per card; each pick is observed."""
    found = 0
    for seed in range(20):
        state = load_game("kings_bounty", players=3, seed=seed).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal() and found < 3:
            line = state.line
            d = line.decision
            p = line.to_act()
            if d.kind == "pick" and len(d.values) > 2:
                before_tensor = state.observation_array(p).copy()
                before_text = state.observation_string(p)
                state.apply_option(0 if d.labels[0] != "done" else 1)
                if not state.is_terminal() and state.line.decision.kind == "pick" and state.line.to_act() == p:
                    assert state.line.picked, "the pick is remembered as picked so far"
                    assert not np.array_equal(before_tensor, state.observation_array(p))
                    assert before_text != state.observation_string(p)
                    found += 1
                continue
            state.apply_option(rng.randrange(len(d.values)))
        if found >= 3:
            break
    assert found > 0


@pytest.mark.parametrize("name, players", GAMES)
def test_an_action_id_means_the_same_option_wherever_it_is_legal(name, players):
    meaning: dict = {}
    completed = 0
    for seed in range(2):
        spiel = load_game(name, players=players, seed=seed)
        space = spiel.space
        state = spiel.new_initial_state()
        rng = random.Random(seed)
        words: list = []
        steps = 0
        while not state.is_terminal() and steps < 250:
            engine = state.line.session.state
            p = state.current_player()
            hidden = set(engine.entities) - visible_ids(engine, p)
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            picker = state.options()
            at = len(picker.prefix)
            for a in legal:
                word = space.word(a)
                assert meaning.setdefault(a, word) == word  # one id, one word (or whole option), in every state and game
                assert word not in hidden  # a hidden component reads ?k, never its id
                # the word begins or continues (or, `<end>`, ends) some legal option's label
                assert any((len(t) > at and t[at] == a) or (a == 0 and len(t) == at) for t in picker.tokens)
            enc = spiel.encoder
            for q in range(players):  # another's question, options and picks are not in q's observation
                if q != p:
                    rest = state.observation_array(q)[enc.at_decision + players:]
                    secret_at = enc.n_questions + len(enc_kinds)
                    assert np.count_nonzero(np.delete(rest, secret_at)) == 0
            answers = len(state.line.answers)
            a = rng.choice(legal)
            words.append(a)
            state.apply_action(a)
            if len(state.line.answers) > answers:  # an option completed: the words spell its label
                shown = iter(state.line.steps[-1][3].split(" "))
                spelled = [x for w in words if w != 0 for x in space.word(w).split(" ")]
                # the words chosen, in order, among the label's (the others were forced: the only way on)
                assert all(any(s == w or (w.startswith("?") and s == "(hidden)") for s in shown) for w in spelled)
                words = []
                completed += 1
            steps += 1
    assert completed > 20


@pytest.mark.parametrize("name, players", GAMES)
def test_option_words_are_those_of_the_labels(name, players):
    """`ActionSpace.tokens` reads an option's words from the option itself where it can (a component, a menu
    option and its bindings): they are those of its label, split, with hidden components as `?k`."""
    from interpreter.agents.actions import ActionSpace
    from interpreter.present.views import can_see
    from interpreter.runtime.session import Session
    game = load_compiled(name)
    space = ActionSpace(game, players)
    checked = 0
    for seed in range(2):
        session = Session(game, players, seed)
        rng = random.Random(seed)
        for _ in range(150):
            d = session.pending
            if d is None:
                break
            # read as the decider, and as every other seat (whose reading hides what the decider holds: the
            # zones' views are noted per reading, `actions._sees`)
            for p in sorted(range(players), key=lambda q: q != (0 if d.player is None else d.player)):
                hidden: dict = {}
                wanted = []
                for k in range(len(d.values)):
                    row = []
                    for w in d.label(k).split(" "):
                        if w in space.components and not can_see(session.state.entities[w], p):
                            w = hidden.setdefault(w, f"?{len(hidden) + 1}")
                        row.append(space.ids[w])
                    row = tuple(row)
                    wanted.append(space.whole.get(row, row) if len(row) > 1 else row)  # a whole option: its own id
                assert space.tokens(session.state, d, p) == wanted
            checked += 1
            session.answer(rng.randrange(len(d.values)))
    assert checked > 100
