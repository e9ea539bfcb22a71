"""The pages, made by Jinja2 templates (templates/) with autoescape on: every name, card text, log line and
option label from content is escaped wherever it lands (HTML text, attributes, SVG). What a page shows of a
game is the table model through the reader's view (interpreter.present.table), the pending decision as the
decider reads it (interpreter.present.words.shown_to) in a stable order (present.terminal.option_order),
what each option names (present.options.option_refs) and the log lines the reader was told.
"""
from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from dsl.translations import text_in
from interpreter.present.options import option_refs
from interpreter.present.phrases import say
from interpreter.present.table import table_model
from interpreter.present.terminal import option_order
from interpreter.present.words import Presenter, shown_to
from interpreter.web.board import board, colour

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
    env.globals.update(t=web_phrase, say=say, colour=colour, zone_html=zone_html, edges_html=edges_html)
    return env


# The table's zones are the page's hottest part (hundreds of components in a large game): written here with
# markupsafe's escape, which is what autoescape calls, without a template macro's call for every component.
def zone_html(z, texts: dict, pickable: set, depth: int = 0) -> Markup:
    out = [f'<span class="zone" data-zone="{escape(z.zone)}"><span class="zname">{escape(z.name)}</span>: ']
    if z.mode == "count":
        out.append(str(int(z.size)))
    else:
        out.append(", ".join(_item_html(it, texts, pickable, depth) for it in z.items))
        if z.mode == "top" and z.size > 1:
            out.append(f" ({int(z.size)})")
    out.append("</span>")
    return Markup("".join(out))


def _item_html(it, texts: dict, pickable: set, depth: int) -> str:
    ref = it.ref
    cls = "item pickable" if ref is not None and ref in pickable else "item"
    attrs = f' data-ref="{escape(ref)}"' if ref is not None else ""
    text = texts.get(ref) if ref is not None else None
    if text is not None:
        attrs += ' tabindex="0"'
    body = str(escape(it.text)) + (f" ×{int(it.count)}" if it.count > 1 else "")
    if text is not None:
        body += f'<span class="tip" role="tooltip"><b>{escape(text[0])}</b><br>{escape(text[1])}</span>'
    if it.zones and depth < 6:
        body += " [" + "; ".join(zone_html(z, texts, pickable, depth + 1) for z in it.zones) + "]"
    return f'<span class="{cls}"{attrs}>{body}</span>'


def edges_html(edges: list) -> Markup:
    """The board's lines: numbers only."""
    return Markup("".join(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>' for x1, y1, x2, y2 in edges))


def game_name(game, lang: str) -> str:
    return text_in(game.content.manifest.get("name", game.content.id), lang)


def lobby(env: Environment, rooms, lang: str) -> str:
    from interpreter.runtime.games import load_compiled
    games = []
    for key, ref in sorted(rooms.games.items()):
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
    """The page's frame: the live view comes over the websocket once the page says which seats it holds."""
    return env.get_template("game.html").render(lang=lang, room=room, name=game_name(room.game, lang),
                                                languages=room.game.content.vocabulary.languages)


def view(env: Environment, room, viewer: int | None, lang: str) -> dict:
    """The live part of a game page for `viewer` (None: a spectator): its HTML and what the script needs."""
    room.speak(lang)  # the log in the page's language
    with room.lock:
        return _view(env, room, viewer, lang)


def _view(env: Environment, room, viewer: int | None, lang: str) -> dict:
    session = room.session
    state = session.state
    model = table_model(session, viewer, lang)
    pr = Presenter(state, viewer, lang)
    decider = room.decider()
    playing = room.status == "playing" and decider is not None
    question = None
    chosen: set = set()
    pickable: set = set()
    if playing and viewer is not None and decider == viewer and room.seats[viewer].kind == "person":
        d = session.pending
        shown = shown_to(d, state, viewer, lang)
        refs = option_refs(d, state, viewer)
        options = []
        for i in option_order(d, state):
            options.append({"index": i, "text": shown.options[i], "areas": refs[i].areas,
                            "components": refs[i].components, "texts": shown.keys[i]})
            chosen.update(refs[i].areas)
            pickable.update(refs[i].components)
        question = {"prompt": shown.prompt, "secret": shown.secret, "options": options,
                    "decision": len(session.history)}
    drawn = board(model, state.voc.table.board, chosen)
    last = room.last_of.get(viewer, -1) if viewer is not None else None
    told = lang if lang in room.told else room.row.lang  # the page's language (Room.speak), whatever the game's
    lines = [{"text": ln.texts[told], "private": ln.private, "new": last is not None and ln.n > last}
             for ln in reversed(room.lines.get(viewer, ()))]
    result = None
    if room.status == "finished":
        winners = ", ".join(pr.player(w) for w in state.winners) or say(lang, "nobody")
        scores = session.result.scores if session.result else []
        result = {"winners": winners, "scores": ", ".join(f"{pr.player(i)} {s}" for i, s in enumerate(scores) if s is not None)}
    seat = room.seats[viewer] if viewer is not None else None
    html = env.get_template("view.html").render(
        lang=lang, model=model, pr=pr, question=question, board=drawn, lines=lines, result=result, room=room,
        viewer=viewer, seat=seat, waiting=pr.player(decider) if playing else None, pickable=pickable,
        error=room.error)  # what the seat may do besides answering: interpreter.web.live (templates/seat_tools.html)
    return {"type": "view", "version": room.version, "seat": viewer, "deciding": question is not None,
            "decision": question["decision"] if question else None, "html": html,
            "player": pr.player(viewer, False) if viewer is not None else None}
