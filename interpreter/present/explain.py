"""`rules explain`'s account of a replayed game's trace, in the reader's words.

The resolver's trace (interpreter.runtime.resolver) keeps ids and the values themselves; here each
entry becomes words in the reader's language: components by their names (copies numbered), players
as the log names them, functions and events as words of the game. The same thing happening several
times between two decisions (a function asked again and again) is told once, with how many times;
a modifier that did not apply is left out (and a call whose modifiers all did not apply), unless
everything is asked for.
"""
from __future__ import annotations

import json

from interpreter.present.phrases import say
from interpreter.present.why import Author
from interpreter.runtime.session import NOT_HELD




def entries_in_words(trace: list, state, lang: str, everything: bool = False) -> list[dict]:
    """The trace's entries in words, each thing once per decision (with how many times it happened)."""
    pr = Author(state, None, lang)
    out: list[dict] = []
    index: dict = {}
    for e in trace:
        raw = e.get("raw") or {}
        results = raw.get("results") or []
        if e["kind"] == "modifier" and not everything and results and all(_idle(r) for r in results):
            continue  # nothing changed: every modifier's condition failed
        args = [pr.value(a, t or "any") for a, t in zip(raw.get("args", []), raw.get("types", []))] or e["args"]
        order, idle = [], 0
        for n, item in enumerate(e["order"]):
            result = results[n] if n < len(results) else None
            if e["kind"] == "modifier" and _idle(result) and not everything:
                idle += 1
                continue
            source = raw["sources"][n] if n < len(raw.get("sources", [])) else None
            worded = {"source": pr.value(source) if source is not None else say(lang, "explain rules"),
                      "source_id": item["source"],
                      "controller": pr.player(item["controller"], False) if item["controller"] is not None else None,
                      "timing": pr.word(item["timing"]), "at": item["at"],
                      "key": {say(lang, "explain " + k): _key_value(pr, lang, k, v) for k, v in item["key"].items()}}
            if "result" in item:
                worded["result"] = item["result"] if _idle(result) else pr.value(result)
            order.append(worded)
        entry = {"decision": e["after_decision"], "kind": e["kind"], "event": pr.word(e["event"]), "event_id": e["event"],
                 "args": args, "order": order}
        if e["kind"] == "modifier":
            entry["before"], entry["after"] = pr.value(raw.get("before")), pr.value(raw.get("after"))
            if idle:
                entry["not_applying"] = idle
        key = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        if key in index:
            out[index[key]]["times"] += 1
            continue
        index[key] = len(out)
        entry["times"] = 1
        out.append(entry)
    return out


def chance_in_words(record: list, state, lang: str) -> list[dict]:
    """Each draw of the game (codegen.chance's record, of a game replayed with its trace on) in words: what was
    drawn, from what, and who gave it (the seed, a scenario or a person, the chance seat)."""
    pr = Author(state, None, lang)
    out = []
    for d in record:
        if d.kind == "shuffle":
            zone, order = d.values if d.values is not None else (None, [])
            what = say(lang, "explain shuffled", zone=pr.value(zone) if zone is not None else d.source, n=len(d.outcome),
                       top=", ".join(pr.value(x) for x in order[:_TOP]) + (", ..." if len(order) > _TOP else ""))
        elif d.kind == "roll":
            what = say(lang, "explain rolled", n=len(d.outcome), sides=d.source, faces=", ".join(map(str, d.outcome)))
        else:
            what = say(lang, "explain picked", n=d.source, drawn=", ".join(pr.value(x, "player" if d.players else "any") for x in d.values or ()) or say(lang, "nothing"))
        out.append({"decision": d.after, "kind": "chance", "event": d.kind, "event_id": d.kind, "args": [], "order": [],
                    "drawn": what, "by": d.how, "log": d.text(), "times": 1})
    return out


_TOP = 5  # the components a shuffle's entry names from the top


def _idle(result) -> bool:
    return isinstance(result, str) and result == NOT_HELD


def _key_value(pr, lang: str, part: str, value):
    if part == "source":
        return say(lang, "explain card") if value == "card" else say(lang, "explain rules")
    if part in ("timing", "kind") and isinstance(value, str) and value != "-":
        return pr.word(value)
    return value


def entry_lines(entry: dict, lang: str) -> list[str]:
    n = entry["decision"]
    where = say(lang, "explain after decision", n=n) if n else say(lang, "explain before the first")
    if entry["kind"] == "chance":
        by = "" if entry["by"] == "seed" else say(lang, "explain by " + entry["by"])
        return [say(lang, "explain chance", where=where, what=entry["drawn"], by=by)]
    call = f"{entry['event']} ({', '.join(entry['args'])})" if entry["args"] else entry["event"]
    if entry["kind"] == "modifier":
        note = say(lang, "explain becomes", before=entry["before"], after=entry["after"])
        if len(entry["order"]) > 1:
            note += say(lang, "explain last has the word")
    else:
        note = say(lang, "explain waiting", n=len(entry["order"]) - 1) if len(entry["order"]) > 1 else ""
    if entry["times"] > 1:
        note += say(lang, "explain times", n=entry["times"])
    lines = [say(lang, "explain entry", kind=say(lang, "explain " + entry["kind"]), call=call, where=where, note=note)]
    for i, item in enumerate(entry["order"], 1):
        mark = str(i) if entry["kind"] == "modifier" else say(lang, "explain runs" if i == 1 else "explain waits")
        key = ", ".join(f"{k} {v}" for k, v in item["key"].items())
        result = f" -> {item['result']}" if "result" in item else ""
        who = item["controller"] or "—"
        lines.append(say(lang, "explain item", mark=mark, source=item["source"], who=who, key=key, at=item["at"], result=result))
    if entry.get("not_applying"):
        lines.append(say(lang, "explain idle", n=entry["not_applying"]))
    return lines
