"""Card functions kept until a zone changes (interpreter/codegen/zone_pure.py): which qualify, and that a
kept value is never stale: at every decision of random games, and across copies of a game."""
from __future__ import annotations

import ast as pyast
import random

from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled


def _scores(session) -> list:
    rt = session.rt
    titles = [e for e in rt.state.entities.values() if e.kind == "title"]
    return [(t.id, q, rt.cfs[t.record_id]["score"](rt, t, q)) for t in titles for q in rt.seats]


def test_kept_title_scores_equal_scores_made_afresh_at_every_decision():
    game = load_compiled("kings_bounty")
    kept_some = 0
    for seed in range(3):
        session = Session(game, 4, seed, keep_labels=False)
        rng = random.Random(seed)
        while session.pending is not None:
            kept = _scores(session)
            kept_some += len(session.rt.zone_memo)
            session.rt.zone_memo.clear()
            assert kept == _scores(session)
            session.answer(rng.randrange(len(session.pending.values)))
    assert kept_some > 0  # the scores were kept, not only computed


def test_a_copy_keeps_its_own_values():
    game = load_compiled("kings_bounty")
    session = Session(game, 3, 5, keep_labels=False)
    rng = random.Random(1)
    for _ in range(20):
        session.answer(rng.randrange(len(session.pending.values)))
    _scores(session)
    copy = session.copy()
    for s, r in ((session, random.Random(2)), (copy, random.Random(3))):
        for _ in range(15):
            if s.pending is not None:
                s.answer(r.randrange(len(s.pending.values)))
    for s in (session, copy):
        kept = _scores(s)
        s.rt.zone_memo.clear()
        assert kept == _scores(s)


def test_which_functions_qualify():
    """The title scores that count domains and garrisons are kept; those reading a variable of the game
    (the last monster's player) or going through a counted helper (`distinct`) are not."""
    game = load_compiled("kings_bounty")
    tree = pyast.parse(game.python_source())
    kept, plain = [], []
    for fn in tree.body:
        if isinstance(fn, pyast.FunctionDef) and fn.name.startswith("cf_"):
            text = pyast.unparse(fn)
            (kept if "zone_memo" in text else plain).append(text)
    assert len(kept) >= 15
    for text in kept:
        assert "rt.gv" not in text and "rt.pv" not in text and ".vars[" not in text and "_distinct" not in text
    assert any("rt.gv" in text for text in plain) and any("_distinct" in text for text in plain)
