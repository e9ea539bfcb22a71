"""The pages, made by Jinja2 templates (templates/) with autoescape on: every name, card text, log line and
option label from content is escaped wherever it lands (HTML text, attributes, SVG; the scene's hot parts are
written by interpreter.web.draw with the same escape). What a page shows of a game is the scene of the reader's
table model (interpreter.present.scene: cards, tokens, tracks, the board's pieces, what changed since the
reader's last decision), the pending decision as the decider reads it (interpreter.present.words.shown_to) in a
stable order (present.terminal.option_order), options that differ only in which copy they take offered once
(`Shown.groups`: the first of them answers), what each option names (present.options.option_refs) and the log
lines the reader was told. The board's static layer is drawn once per game and language and sent with the
page's frame; each view carries only the reader's layer.
"""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from dsl.translations import text_in
from interpreter.present.options import option_refs
from interpreter.present.phrases import say
from interpreter.present.scene import changes, scene, signature
from interpreter.present.scene_board import static_board
from interpreter.present.table import table_model
from interpreter.present.terminal import option_order
from interpreter.present.words import Presenter, shown_to
from interpreter.web import draw
from interpreter.web.parts import CUT, whole

HERE = Path(__file__).resolve().parent
MAX_LISTED = 200  # the lobby lists the games in play among the last ones made
DEFAULT_PACE = 0.5  # seconds a bot waits before each decision, as the lobby proposes it


def web_phrase(lang: str, key: str, **values) -> str:
    """The templates name the web pages' own phrases (interpreter.present.phrases) without their "web " prefix."""
    return say(lang, "web " + key, **values)


def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(default=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      auto_reload=False)  # the templates are read once: no stat() of each file at every page
    env.globals.update(cut=Markup(CUT), t=web_phrase, say=say, zone_html=draw.zone_html, track_html=draw.track_html,
                       colour_chip=draw.colour_chip, option_face=draw.option_face)
    return env


def game_name(game, lang: str) -> str:
    return text_in(game.content.manifest.get("name", game.content.id), lang)


def lobby(env: Environment, rooms, lang: str) -> str:
    from interpreter.runtime.games import load_compiled
    games = []
    for key, ref in sorted(rooms.games.items()):
        if key in rooms.invalid:  # validated at the start: listed with its diagnostics, as `rules validate` prints them
            games.append({"key": key, "name": key, "error": "\n".join(d.render() for d in rooms.invalid[key][:20])})
            continue
        try:
            game = load_compiled(ref)
        except Exception as err:  # noqa: BLE001 - a broken game folder is listed with its problem, never a crash
            games.append({"key": key, "name": key, "error": str(err)[:300]})
            continue
        content = game.content
        spec = content.manifest["players"]
        games.append({"key": key, "name": game_name(game, lang), "error": None, "min": spec["min"], "max": spec["max"],
                      "default": spec.get("default") or spec["min"], "languages": content.vocabulary.languages,
                      "variants": [(v, content.translations.word(lang, v)) for v in content.vocabulary.variants],
                      "pace": DEFAULT_PACE})
    running = [{"id": r.id, "name": game_name(r.game, lang), "status": r.status, "players": r.players}
               for r in list(rooms.rooms.values())[-MAX_LISTED:] if r.status == "playing"]
    return env.get_template("lobby.html").render(lang=lang, games=games, running=running, failed=rooms.failed,
                                                 kinds=_kinds())


def _kinds() -> list[str]:
    from interpreter.web.rooms import KINDS
    return list(KINDS)


def links(env: Environment, room, lang: str, secrets: bool = True) -> str:
    """The seats' links of a new game. Without `secrets` (the page asked again, by its address): the same page,
    its links made by its script from the #fragment the first one left in the browser's history."""
    seats = [{"player": say(lang, "player", n=i + 1), "kind": s.kind, "token": s.token if secrets else ""}
             for i, s in enumerate(room.seats)]
    persons = [s.token for s in room.seats if s.kind == "person"] if secrets else []
    return env.get_template("links.html").render(
        lang=lang, room=room, name=game_name(room.game, lang), seats=seats, secrets=secrets,
        hot=".".join(persons) if room.row.hotseat and persons else None,
        hotseat=room.row.hotseat and any(s.kind == "person" for s in room.seats),
        everything=".".join(s.token for s in room.seats) if secrets else "")


def game_page(env: Environment, room, lang: str) -> str:
    """The page's frame: the live view comes over the websocket once the page says which seats it holds. The
    frame carries the board's static layer, which every view then draws over."""
    with room.lock:
        static = _static(room, lang)
    return env.get_template("game.html").render(lang=lang, room=room, name=game_name(room.game, lang),
                                                languages=room.game.content.vocabulary.languages,
                                                static_board=static[1] if static else None)


def _static(room, lang: str):
    """The board's static layer in `lang` (the scene's and its SVG), drawn once per game content, players, variants and
    language, for every room of them (Room.shared): it is made of the records and the layout alone."""
    state = room.session.state
    if not state.voc.table.board.get("zone"):
        return None
    key = ("static", room.row.game, room.game.content.content_hash, room.players, tuple(sorted(room.row.variants)), lang)
    kept = room.shared.get(key)
    if kept is None:
        board = static_board(state, state.voc.table, Presenter(state, None, lang))
        kept = room.shared[key] = (board, draw.static_svg(board), draw.labels_svg(board))
    return kept


def _changed(room, viewer, model, asked: int | None) -> dict | None:
    """What differs on `viewer`'s table since its last decision. The room keeps, per reader, the signature of
    what its page showed when it was last asked (and, while asked, the one of the decision before): while
    the reader decides, the change since its previous decision; while it waits, since the one it made."""
    if viewer is None:
        return None
    now = signature(model)
    seen = room.drawn.setdefault("seen", {})
    mine = seen.get(viewer)
    if asked is None:
        return changes(mine["now"], now) if mine else None
    if mine is None or mine["asked"] != asked:
        mine = seen[viewer] = {"asked": asked, "base": mine["now"] if mine else None, "now": now}
    else:
        mine["now"] = now
    return changes(mine["base"], now)


def _hint(on_board: bool, on_cards: bool) -> str | None:
    """The phrase that says where the pending decision can be made besides the list: only what the page draws
    (an option's component kept out of the table shows beside its option, not on the table)."""
    if on_board and on_cards:
        return "click table"
    return "click board" if on_board else "click card" if on_cards else None


def view(env: Environment, room, viewer: int | None, lang: str, marked: bool = False) -> dict:
    """The live part of a game page for `viewer` (None: a spectator): its HTML and what the script needs.
    `marked`: the HTML keeps the marks where it may be cut into parts (interpreter.web.parts)."""
    room.speak(lang)  # the log in the page's language
    with room.lock:
        out = _view(env, room, viewer, lang)
    if not marked:
        out["html"] = whole(out["html"])
    return out


def _view(env: Environment, room, viewer: int | None, lang: str) -> dict:
    session = room.session
    state = session.state
    # what a reader's last view made and did not change since is kept (present.table, present.scene: memos)
    memo = room.drawn.setdefault("memos", {}).setdefault((viewer, lang), {"table": {}, "scene": {}})
    model = table_model(session, viewer, lang, memo["table"])
    pr = Presenter(state, viewer, lang)
    decider = room.decider()
    playing = room.status == "playing" and decider is not None
    question = None
    chosen: set = set()
    pickable: set = set()
    if playing and viewer is not None and decider == viewer and room.seats[viewer].kind == "person":
        d = session.pending
        shown = shown_to(d, state, viewer, lang)
        refs = option_refs(d, state, viewer) if shown.number is None else None
        place = {i: n for n, i in enumerate(option_order(d, state))} if shown.number is None else {}
        options = []
        for text, members in shown.groups:  # copies of one component: offered once, the first read answering
            first = min(members, key=place.__getitem__)
            areas = sorted({a for i in members for a in refs[i].areas})
            components = sorted({c for i in members for c in refs[i].components})
            face = refs[first].components[0] if len(refs[first].components) == 1 else None  # drawn beside it
            options.append({"index": first, "text": text if len(members) > 1 else shown.options[first], "count": len(members),
                            "areas": areas, "components": components, "texts": shown.keys[first], "at": place[first],
                            "face": face})
            chosen.update(areas)
            pickable.update(components)
        options.sort(key=lambda o: o["at"])
        # a number in a range is typed (a number field), never listed: it has no groups
        question = {"prompt": shown.prompt, "secret": shown.secret, "options": options,
                    "decision": len(session.history), "hint": None, "number": shown.number}
    asked = len(session.history) if question is not None else None
    drawn = scene(model, state, pr, pickable, chosen, _changed(room, viewer, model, asked), memo["scene"])
    if question is not None:
        question["hint"] = _hint(bool(chosen) and drawn.board is not None, bool(pickable & drawn.on_table))
    static = _static(room, lang) if drawn.board is not None else None
    last = room.last_of.get(viewer, -1) if viewer is not None else None
    told = lang if lang in room.told else room.row.lang  # the page's language (Room.speak), whatever the game's
    lines = list(reversed(room.lines.get(viewer, ())))
    new_lines = sum(1 for ln in lines if last is not None and ln.n > last)
    result = None
    if room.status == "finished":
        winners = ", ".join(pr.player(w) for w in state.winners) or say(lang, "nobody")
        scores = session.result.scores if session.result else []
        result = {"winners": winners, "scores": ", ".join(f"{pr.player(i)} {s}" for i, s in enumerate(scores) if s is not None)}
    seat = room.seats[viewer] if viewer is not None else None
    html = env.get_template("view.html").render(
        lang=lang, scene=drawn, texts=model.texts, pr=pr, question=question, result=result, room=room,
        lines=draw.log_html(lines, told, last, web_phrase(lang, "new")),
        viewer=viewer, seat=seat, waiting=pr.player(decider) if playing else None, error=room.error,
        board_svg=draw.board_svg(drawn.board, static[2], {"board": web_phrase(lang, "board")}) if static else None,
        static_key=f"{room.id}/{lang}", new_lines=new_lines,
        log_open=question is None and viewer is None)  # what the seat may do besides answering: live.py, seat_tools.html
    return {"type": "view", "version": room.version, "seat": viewer, "deciding": question is not None,
            "decision": question["decision"] if question else None, "html": html,
            "player": pr.player(viewer, False) if viewer is not None else None}
