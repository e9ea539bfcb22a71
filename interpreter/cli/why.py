"""`rules explain LOG --why EXPR [--at POINT]` and `--steps N`: a value of the rules taken apart on a logged
table, after a decision or at a step inside the resolution that follows it (interpreter.present.why and
why_points)."""
from __future__ import annotations

import json
import sys

from interpreter.runtime.games import load_compiled


def explain_why(args, log: dict, game, lang: str) -> int:
    """--why EXPR [--at N]: the expression on the table after decision N, taken apart (interpreter.present.why)."""
    from interpreter.present.phrases import say
    from interpreter.present.why import Author, Why
    from interpreter.present.why_points import parse_point, replay_to, step_line, step_names
    from interpreter.runtime.gamelog import replay
    if game is None:
        outcome = replay(log, allow_changed=args.allow_changed_content)
        print(f"the replay stopped: {outcome.reason}", file=sys.stderr)
        return 1
    point = parse_point(args.at)

    def at_step(session, step):  # inside a decision's resolution: explained there, the step's parameters readable
        where = step_line(Author(session.state, None, lang), step).strip()
        return len(session.history), where, step.number, Why(session, lang).explain(args.why, step_names(session.game, step))

    found = replay_to(game, log, point, lang, args.allow_changed_content, at_step)
    if point.inside:
        decision, where, number, part = found
    else:
        decision, where, number, part = len(found.history), None, None, Why(found, lang).explain(args.why)
    if args.json:
        print(json.dumps({"decision": decision, **({"step": number, "at": where} if where else {}), **part.to_json()},
                         ensure_ascii=False, indent=1))
    else:
        if where:
            print(say(lang, "why at", decision=decision, where=where))
        print("\n".join(part.lines()))
    return 0


def explain_steps(args, log: dict) -> int:
    """--steps N: the steps of what follows decision N, numbered as `--at N:STEP` takes them."""
    from interpreter.cli.play import choose_language
    from interpreter.present.why import Author
    from interpreter.present.why_points import MAX_STEPS_LISTED, steps_after, step_line
    game = load_compiled(log["game"])
    lang = choose_language(game, args.lang)
    steps, session = steps_after(game, log, args.steps, lang, args.allow_changed_content)
    pr = Author(session.state, None, lang)
    base = min((s.depth for s in steps), default=0)
    if args.json:
        print(json.dumps([{"step": s.number, "event": s.event, "depth": s.depth, "args": [pr.value(a, t) for a, t in zip(s.args, s.types)]}
                          for s in steps], ensure_ascii=False, indent=1))
        return 0
    from interpreter.present.phrases import say
    print("\n".join(step_line(pr, s, base) for s in steps[:MAX_STEPS_LISTED]) if steps else say(lang, "why no steps", n=args.steps))
    if len(steps) > MAX_STEPS_LISTED:
        print(say(lang, "why more", n=len(steps) - MAX_STEPS_LISTED))
    return 0
