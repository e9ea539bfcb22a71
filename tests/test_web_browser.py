"""Games played by clicking in a real browser (issue 18 §4): Playwright driving Debian's headless `chromium`
against a `rules serve` app on uvicorn, in a thread of this process (so a test can compare the page with the
server's state). One server per module and one browser per test session (tests/conftest.py); each test makes its own games.

- King's Bounty, one person and three bots, a whole game; its downloaded log replays to the same final state
  as the same decisions given to a Session.
- A Game of Thrones at 3 players, two full rounds, marches chosen by clicking areas of the map.
- B'Twixt, two browser contexts on two seats: at every decision each page's HTML and every websocket message
  it received name no component hidden from its seat (the checker of tests/test_presentation.py).
- Hot-seat (the "pass the device" screen), a `<script>` card name shown as text, English and Russian.
"""
from __future__ import annotations

import html as htmlmod
import json
import random
import re
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from interpreter.runtime import Session  # noqa: E402
from interpreter.runtime.gamelog import replay  # noqa: E402
from interpreter.runtime.games import load_compiled  # noqa: E402
from interpreter.web.app import make_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = Path(__file__).resolve().parent
WEB_GAME = ROOT / "fixtures" / "web_game"
TIMEOUT = 15_000  # ms: a page update takes milliseconds; this bounds a stuck test, it measures nothing

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian's package; .ci/run installs it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serving(tmp_path_factory, folders: list):
    """A `rules serve` app on uvicorn in a thread of this process, its games compiled before the first page
    asks: yields (app, base address) until the module is done."""
    from interpreter.runtime.games import load_compiled
    app = make_app(tmp_path_factory.mktemp("web") / "games.sqlite3", folders)
    for ref in app.state.rooms.games.values():
        load_compiled(ref)
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=16384))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(400):
        if srv.started:
            break
        time.sleep(0.025)
    yield app, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, [WEB_GAME])


@pytest.fixture
def page(browser):
    context = browser.new_context(accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    dialogs = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    yield pg
    context.close()
    assert not dialogs, f"content ran script in the page: {dialogs}"


def start_game(page, base, game, players, seats, lang="en", hotseat=False, seed=1, pace=0):
    """Through the lobby's form, as a person would (the bots' pause `pace` seconds: none by default, to be
    quick); returns the room id and the links page's seat links."""
    page.goto(f"{base}/?lang={lang}")
    form = page.locator(f"#game-{game} form")
    form.locator("select.players").select_option(str(players))
    form.locator("select[name=lang]").select_option(lang)
    for i, kind in enumerate(seats):
        form.locator(f"select[name=seat{i}]").select_option(kind)
    if hotseat:
        form.locator("input[name=hotseat]").check()
    form.locator("input[name=seed]").fill(str(seed))
    form.locator("input[name=pace]").fill(str(pace))
    form.locator("button[type=submit]").click()
    page.locator("a.seat-link").first.wait_for()  # the new game's page of links (a busy machine may be slow to it)
    links = [a.get_attribute("href") for a in page.locator("a.seat-link").all()]
    hot = page.locator("a.hot-link")
    gid = re.search(r"/g/([A-Za-z0-9_-]+)", links[0]).group(1)
    return gid, links, hot.get_attribute("href") if hot.count() else None


def open_seat(page, base, href):
    page.goto(base + href)
    page.wait_for_selector("#status")


def version(page) -> int:
    return int(page.locator("#view").get_attribute("data-version") or -1)


def wait_past(page, before: int, also: str = "") -> None:
    """Until the page shows a view newer than `before` (by selectors: the page's policy forbids evaluated script)."""
    page.wait_for_selector(f'#view:not([data-version="{before}"])' + (f", {also}" if also else ""), state="attached")


def wait_at_least(page, wanted: int) -> None:
    for _ in range(TIMEOUT // 20):
        if version(page) >= wanted:
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"the page stayed at version {version(page)}, the game is at {wanted}")


def wait_turn(page) -> bool:
    """Until the page asks this seat something (True) or the game is over (False)."""
    page.wait_for_selector("#question button.opt:not([disabled]), .result, .game-error")
    return page.locator(".result, .game-error").count() == 0


def click_option(page, rng, prefer=None) -> None:
    before = version(page)
    buttons = page.locator("#question button.opt:visible").all()
    texts = [b.inner_text() for b in buttons]
    liked = [i for i, t in enumerate(texts) if prefer and t.startswith(prefer)]
    buttons[rng.choice(liked) if liked else rng.randrange(len(buttons))].click()
    wait_past(page, before)


def session_of(log: dict) -> Session:
    """The same decisions given to a Session directly."""
    game = load_compiled(log["game"])
    s = Session(game, log["players"], log["seed"], tuple(log["variants"]))
    for index, _ in log["decisions"]:
        s.answer(index)
    return s


def download(page) -> dict:
    with page.expect_download() as info:
        page.locator("#download").click()
    return json.loads(Path(info.value.path()).read_text(encoding="utf-8"))


def test_kings_bounty_whole_game_one_person_three_bots(server, page):
    app, base = server
    gid, links, _ = start_game(page, base, "kings_bounty", 4, ["person", "random", "random", "random"], seed=3)
    open_seat(page, base, links[0])
    rng, clicks = random.Random(3), 0
    while wait_turn(page):
        click_option(page, rng)
        clicks += 1
    room = app.state.rooms.get(gid)
    assert room.status == "finished" and clicks > 5
    assert page.locator(".result").inner_text().startswith("The game is over")
    log = download(page)
    assert replay(log).matches
    assert session_of(log).state.digest() == log["final_state"] == room.session.state.digest()


def test_agot_two_rounds_at_three_players_with_marches_clicked_on_the_map(server, page):
    app, base = server
    gid, links, _ = start_game(page, base, "agot", 3, ["person", "random", "random"], seed=2)
    open_seat(page, base, links[0])
    room = app.state.rooms.get(gid)
    rng, map_marches = random.Random(2), 0
    while room.session.state.game_vars.get("round", 0) <= 2 and wait_turn(page):
        prompt = page.locator("#question .prompt").inner_text()
        areas = page.locator("svg.board-dyn use.chosen").all()
        if prompt.startswith("March from") and areas:
            before = version(page)
            rng.choice(areas).click()  # a click on the map: the one march there is chosen, or the options there listed
            if version(page) == before and page.locator("#question .filter:not([hidden])").count():
                page.locator("#question button.opt:visible").first.click()
            wait_past(page, before)
            map_marches += 1
        else:
            click_option(page, rng, prefer="March Order" if prompt.startswith("Which order") else None)
    state = room.session.state
    assert state.game_vars["round"] == 3 and room.status == "playing"
    assert map_marches >= 1
    log = download(page)  # one person and bots: the unfinished game's log is theirs
    assert log["unfinished"] and replay(log).matches
    assert session_of(log).state.digest() == log["final_state"] == state.digest()


_PRINTED = re.compile(r'<span class="tip" role="tooltip"><b>(.*?)</b><br>(.*?)</span>|<details class="keys">(.*?)</details>', re.S)
_KEY = re.compile(r"<p><b>(.*?)</b>: (.*?)</p>", re.S)


_LOG = re.compile(r'<details id="log" class="log"[^>]*>(.*?)</details>', re.S)
_LINE = re.compile(r"<li[^>]*>(?:<span class=\"newmark\">[^<]*</span> )?(.*?)</li>", re.S)


def _texts_of(html_text: str, printed: list, logged: list) -> str:
    """The words of a page without the printed card texts (which may name other cards: as in
    tests/test_presentation.py, they are checked to be the texts of components the reader sees) and without
    its log lines (checked when they are told, against the game as it was then)."""
    def cut_log(m):
        logged.extend(htmlmod.unescape(x) for x in _LINE.findall(m.group(1)))
        return " "
    html_text = _LOG.sub(cut_log, html_text)

    def cut(m):
        if m.group(3) is not None:
            printed.extend(f"{htmlmod.unescape(a)}: {htmlmod.unescape(b)}" for a, b in _KEY.findall(m.group(3)))
        else:
            printed.append(f"{htmlmod.unescape(m.group(1))}: {htmlmod.unescape(m.group(2))}")
        return " "
    html_text = _PRINTED.sub(cut, html_text)
    said = " ".join(htmlmod.unescape(a) for a in re.findall(r'\s(?:title|aria-label|alt)="([^"]*)"', html_text))
    return htmlmod.unescape(re.sub(r"<[^>]+>", " ", html_text)) + " " + said  # with what hovering or a reader tells


def test_btwixt_two_seats_in_two_contexts_see_nothing_hidden_from_them(server, browser):
    from tests.test_presentation import _describe, _string_literals, leaks, unwritten
    from interpreter.present.views import can_see
    from tests.test_web_routes import settle
    from interpreter.present.words import card_text
    from dsl.translations import player_texts
    app, base = server
    contexts = [browser.new_context() for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    frames: list[list[str]] = [[], []]
    had: list[list[str]] = [[], []]  # each page's view in parts, as its socket sent them
    for i, pg in enumerate(pages):
        pg.set_default_timeout(TIMEOUT)
        pg.on("websocket", lambda ws, i=i: ws.on("framereceived", lambda payload, i=i: frames[i].append(payload)))
    try:
        gid, links, _ = start_game(pages[0], base, "btwixt", 3, ["person", "person", "random"], seed=4)
        room = app.state.rooms.get(gid)
        room.speak("ru")  # the log kept in both languages, as when a Russian page looks on: both are checked
        game = room.game
        messages = [game.content.translations.message(t) for t in player_texts(game.content.modules)]
        literals = set(_string_literals(game.content.modules))
        written_in = {}  # the rules' own words, per language: a line is checked in every language it is kept in
        for lang in room.languages:
            written = {p for m in messages for p in m.pieces(lang) if isinstance(p, str)} | literals
            written_in[lang] = sorted((p for p in written if len(p) > 3), key=len, reverse=True)
        written = written_in["en"]
        told = room.session.rt.account

        def checked(to, text, state, viewer):  # every line as each seat reads it, checked when it is told
            sizes = [len(room.lines[i]) for i in range(2)]
            told(to, text, state, viewer)
            for i in range(2):
                for ln in list(room.lines[i])[sizes[i]:]:
                    for lang, said in ln.texts.items():
                        found = leaks(state, i, [unwritten(said, written_in[lang])])
                        assert not found, f"the line {said!r} told P{i + 1} {found}"
                    assert set(ln.texts) == {"en", "ru"}
                    lines_checked.append(ln.texts["en"])
        lines_checked: list = []
        room.session.rt.account = checked
        for i in range(2):
            open_seat(pages[i], base, links[i])
        rng, checked = random.Random(4), 0
        while room.status == "playing":
            settle(app, gid)  # the bot's answers (played in the background) are in
            if room.status != "playing":
                break
            for i, pg in enumerate(pages):  # both pages show the game as it is now
                wait_at_least(pg, room.version)
            state = room.session.state
            for i, pg in enumerate(pages):
                printed: list = []
                logged: list = []
                texts = [_texts_of(pg.content(), printed, logged)]
                for payload in frames[i]:
                    message = json.loads(payload)
                    if message.get("type") == "held":
                        had[i] = []  # a new socket sends every part again
                    # the view whole, as the page puts it together: a part's number is a part of its last view
                    had[i] = [had[i][p] if isinstance(p, int) else p for p in message.get("parts") or []] or had[i]
                    html = "".join(had[i]) if message.get("type") == "view" else ""
                    texts.append(_texts_of(html, printed, logged) + " " +
                                 json.dumps({k: v for k, v in message.items() if k != "parts"}))
                frames[i].clear()
                told_to = {ln.texts["en"] for ln in room.lines[i]}
                assert not [x for x in logged if x not in told_to], f"seat P{i + 1} shown a line not told to it"
                found = leaks(state, i, [unwritten(t, written) for t in texts])
                assert not found, f"seat P{i + 1} was shown {found}"
                seen = {f"{_describe(e, 'en', state)}: {card_text(e, 'en')}" for e in state.entities.values() if can_see(e, i)}
                assert not [t for t in printed if t not in seen], f"seat P{i + 1} read the printed text of a card it does not see"
            checked += 1
            decider = room.decider()
            assert decider in (0, 1)
            click_option(pages[decider], rng)
        assert room.status == "finished" and checked > 20 and len(lines_checked) > 20
    finally:
        for c in contexts:
            c.close()


def test_hot_seat_passes_the_device_and_a_script_name_shows_as_text(server, page):
    app, base = server
    gid, links, hot = start_game(page, base, "web_game", 2, ["person", "person"], hotseat=True)
    assert hot is not None
    page.goto(base + hot)
    page.wait_for_selector("#question")
    assert page.locator("#view").get_attribute("data-seat") == "0"
    assert "<script>alert(1)</script>" in page.locator("#question").inner_text()
    for _ in range(2):  # P1 takes a card, then says where they stand
        before = version(page)
        page.locator("#question button.opt", has_text="Plain card").first.click() if _ == 0 else \
            page.locator("svg.board-dyn use.chosen").first.click()
        wait_past(page, before, "#pass:not([hidden])")
    assert page.locator("#pass").is_visible()
    assert page.locator("#view #table").count() == 0  # P1's view is gone from the page, not only hidden
    assert "P2" in page.locator("#pass-text").inner_text()
    page.locator("#pass-ready").click()
    page.wait_for_selector("#question")
    assert page.locator("#view").get_attribute("data-seat") == "1"
    assert app.state.rooms.get(gid).decider() == 1


@pytest.mark.parametrize("lang,question,heading", [("en", "Your decision", "The table"), ("ru", "Ваше решение", "Стол")])
def test_the_same_game_in_english_and_in_russian(server, page, lang, question, heading):
    _, base = server
    _, links, _ = start_game(page, base, "kings_bounty", 4, ["person", "random", "random", "random"], lang=lang, seed=5)
    open_seat(page, base, links[0])
    page.wait_for_selector("#question")
    assert page.locator("#question h2").inner_text() == question
    assert page.locator("#table h2").inner_text() == heading
    prompt = page.locator("#question .prompt").inner_text()
    assert bool(re.search("[а-яА-Я]", prompt)) == (lang == "ru")
