"""Playing together online as players expect (issue 31), in Debian's headless `chromium` through Playwright,
against `rules serve` in a thread of this process (the browser is the session's, tests/conftest.py):

- a seat's link recovered from the lobby's "your games" after its tab was closed;
- the tab's title and icon say whose turn it is;
- a banner while the server is away, and a choice made then sent once it is back (a server stopped and started
  again on the same SQLite file);
- a confirmation before a seat is handed to a bot; no undo and no hand-over once the game is over;
- a rematch gives both persons their own new seats;
- chat between two browsers, markup shown as text, spectators reading only;
- the log in Russian on a Russian page of an English game;
- the lobby's seat pickers match the number of players.
"""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
pytest.importorskip("playwright.sync_api")

from interpreter.web.app import make_app  # noqa: E402
from tests.test_web_browser import TIMEOUT, WEB_GAME, _free_port, open_seat, start_game, version, wait_past  # noqa: E402


class Served:
    """A server in a thread of this process, which a test may stop and start again on the same file."""

    def __init__(self, db: Path, port: int | None = None):
        self.db, self.port = db, port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self) -> None:
        self.app = make_app(self.db, [WEB_GAME])
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    ws_max_size=16384))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(400):
            if self.server.started:
                return
            time.sleep(0.025)
        raise AssertionError("the server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def room(self, gid):
        return self.app.state.rooms.get(gid)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    s = Served(tmp_path_factory.mktemp("online") / "games.sqlite3")
    yield s
    s.stop()


@pytest.fixture
def contexts(browser):
    """Browser contexts made on demand, each with its own storage: one per person."""
    made = []

    def make():
        made.append(browser.new_context())
        made[-1].set_default_timeout(TIMEOUT)
        return made[-1]
    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def context(contexts):
    return contexts()


@pytest.fixture
def other(contexts):
    """A second browser (its own storage): another person."""
    return contexts()


def no_script(pg) -> list:
    """Dialogs the page opened (content or chat running script would open one): the test asserts none."""
    dialogs: list = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    return dialogs


def new_game(base, game="web_game", seats=("person", "person"), lang="en", seed=1, pace=0, hotseat=False):
    r = httpx.post(f"{base}/new", data={"game": game, "players": str(len(seats)), "lang": lang, "seed": str(seed),
                                        "pace": str(pace), **{f"seat{i}": k for i, k in enumerate(seats)},
                                        **({"hotseat": "1"} if hotseat else {})})
    assert r.status_code == 200, r.text
    gid = re.search(r'href="/g/([A-Za-z0-9_-]+)\?', r.text).group(1)
    return gid, re.findall(r'class="seat-link" data-seat="\d+" href="[^"#]*#([A-Za-z0-9_-]+)"', r.text)


def play_to_the_end(served, gid, tokens):
    """Every person answers a safe option (never the card that stops the game) until the game is over."""
    room = served.room(gid)
    while room.status == "playing":
        seat = room.decider()
        v = httpx.post(f"{served.base}/api/g/{gid}/view", json={"token": tokens[seat]}).json()
        options = re.findall(r'data-option="(\d+)"[^>]*>([^<]*)</button>', v["html"])
        option = next(int(i) for i, text in options if "Bomb" not in text)
        assert httpx.post(f"{served.base}/api/g/{gid}/answer",
                          json={"token": tokens[seat], "decision": v["decision"], "option": option}).status_code == 200
    assert room.status == "finished"


def test_a_seat_link_is_recovered_from_the_lobby_after_its_tab_is_closed(served, context):
    page = context.new_page()
    gid, links, _ = start_game(page, served.base, "web_game", 2, ["person", "person"])
    open_seat(page, served.base, links[1])  # this browser opens P2's seat
    page.close()
    lobby = context.new_page()
    lobby.goto(f"{served.base}/?lang=en")
    entry = lobby.locator(f'#your-list li[data-game="{gid}"]')
    entry.wait_for()
    assert "P2" in entry.inner_text() and "Waiting for P1" in entry.inner_text()
    assert entry.locator("a.your-seat").count() == 1  # the seat it opened, not the others of the links page
    entry.locator("a.your-seat").click()
    lobby.wait_for_selector("#status")
    assert lobby.locator("#view").get_attribute("data-seat") == "1"
    assert served.room(gid).seats[1].token in lobby.locator("#my-link").input_value()  # shown again, to copy
    lobby.go_back()  # and the links page comes back with its links (not ERR_CACHE_MISS)
    lobby.goto(f"{served.base}/?lang=en")
    lobby.locator(f'#your-list li[data-game="{gid}"] a', has_text="every seat").click()
    assert lobby.locator("a.seat-link").nth(0).get_attribute("href").endswith("#" + served.room(gid).seats[0].token)


def test_the_title_and_icon_change_on_your_turn(served, context, other):
    gid, tokens = new_game(served.base)
    p1, p2 = context.new_page(), other.new_page()
    for pg, token in ((p1, tokens[0]), (p2, tokens[1])):
        pg.goto(f"{served.base}/g/{gid}?lang=en#{token}")
        pg.wait_for_selector("#status")
    p1.wait_for_selector("#question")
    assert p1.title().startswith("▶ Your turn") and p1.locator("#favicon").get_attribute("href") == "/static/turn.svg"
    assert not p2.title().startswith("▶") and p2.locator("#favicon").get_attribute("href") == "/static/icon.svg"
    for choice in ("Plain card", None):  # P1 takes a card and says where they stand: then it is P2's turn
        before = version(p1)
        (p1.locator("#question button.opt", has_text=choice).first if choice else p1.locator("svg.board-dyn use.chosen").first).click()
        wait_past(p1, before)
    p2.wait_for_selector("#question")
    assert p2.title().startswith("▶ Your turn") and p2.locator("#favicon").get_attribute("href") == "/static/turn.svg"
    assert not p1.title().startswith("▶") and p1.locator("#favicon").get_attribute("href") == "/static/icon.svg"


def test_a_banner_while_the_server_is_away_and_the_choice_sent_when_it_is_back(tmp_path, context):
    served = Served(tmp_path / "games.sqlite3")
    try:
        gid, tokens = new_game(served.base, seats=("person", "random"))
        page = context.new_page()
        page.goto(f"{served.base}/g/{gid}?lang=en#{tokens[0]}")
        page.wait_for_selector("#question button.opt")
        n = len(served.room(gid).session.history)
        assert page.locator("#connection").is_hidden()
        served.stop()
        page.wait_for_selector("#connection:not([hidden])")
        assert "reconnecting" in page.locator("#connection").inner_text()
        plain = page.locator("#question button.opt", has_text="Plain card").first
        option = int(plain.get_attribute("data-option"))
        plain.click()  # made while the server is away
        page.wait_for_selector("#connection:has-text('not sent')")
        served.start()  # the same SQLite file: the game resumed where it was
        page.wait_for_selector("#connection:has-text('was sent'), #connection[hidden]", state="attached")
        room = served.room(gid)
        for _ in range(200):
            if len(room.session.history) > n:
                break
            time.sleep(0.02)
        assert len(room.session.history) > n and room.deciders[n] == 0 and not room.by_bot[n]
        assert room.session.history[n] == option  # the choice made while the server was away
    finally:
        served.stop()


def test_a_seat_is_handed_to_a_bot_only_once_confirmed(served, context):
    gid, tokens = new_game(served.base)
    page = context.new_page()
    dialogs = no_script(page)
    page.goto(f"{served.base}/g/{gid}?lang=en#{tokens[1]}")
    page.wait_for_selector("#to-bot:not([hidden])")
    page.locator("#to-bot").click()
    assert page.locator("#confirm").is_visible() and "bot will play your seat" in page.locator("#confirm-text").inner_text()
    page.locator("#confirm-no").click()
    assert page.locator("#confirm").is_hidden()
    time.sleep(0.2)
    assert served.room(gid).seats[1].kind == "person"  # nothing was sent
    page.locator("#to-bot").click()
    page.locator("#confirm-yes").click()
    page.wait_for_selector("#to-person:not([hidden])")
    assert served.room(gid).seats[1].kind == "random" and not dialogs


def test_no_undo_and_no_hand_over_once_the_game_is_over(served, context):
    gid, tokens = new_game(served.base, hotseat=True)  # one device: undo is offered in play
    page = context.new_page()
    page.goto(f"{served.base}/g/{gid}?lang=en#{tokens[0]}")
    page.wait_for_selector("#question")
    before = version(page)
    page.locator("#question button.opt", has_text="Plain card").first.click()
    wait_past(page, before)
    page.wait_for_selector("#undo:not([hidden])")
    assert page.locator("#to-bot").is_visible()
    play_to_the_end(served, gid, tokens)
    page.wait_for_selector(".result")
    page.wait_for_selector("#rematch:not([hidden])")
    assert page.locator("#undo").is_hidden() and page.locator("#to-bot").is_hidden()
    assert httpx.post(f"{served.base}/api/g/{gid}/undo", json={"token": tokens[0]}).status_code == 409
    assert httpx.post(f"{served.base}/api/g/{gid}/seat", json={"token": tokens[0], "kind": "random"}).status_code == 409
    assert served.room(gid).status == "finished"


def test_a_rematch_gives_both_persons_their_own_new_seats(served, context, other):
    gid, tokens = new_game(served.base)
    play_to_the_end(served, gid, tokens)
    pages = [context.new_page(), other.new_page()]
    for pg, token in zip(pages, tokens):
        pg.goto(f"{served.base}/g/{gid}?lang=en#{token}")
        pg.wait_for_selector("#rematch:not([hidden])")
    pages[0].locator("#rematch").click()
    for pg in pages:
        pg.wait_for_selector("#rematch-link:not([hidden])")
    new = served.room(served.room(gid).row.rematch)
    assert new.id != gid and [s.kind for s in new.seats] == ["person", "person"] and new.row.seed != served.room(gid).row.seed
    for seat, pg in enumerate(pages):
        href = pg.locator("#rematch-link").get_attribute("href")
        assert href.endswith("#" + new.seats[seat].token)  # its own seat's new link
        assert new.seats[1 - seat].token not in pg.content()  # and never the other's
        assert pg.locator("#rematch").is_hidden()
    pages[1].locator("#rematch-link").click()
    pages[1].wait_for_selector("#status")
    assert pages[1].locator("#view").get_attribute("data-seat") == "1" and "You play P2" in pages[1].locator("#status").inner_text()


def test_chat_between_two_browsers_shows_markup_as_text(served, context, other, browser):
    gid, tokens = new_game(served.base)
    p1, p2 = context.new_page(), other.new_page()
    dialogs = no_script(p1) + no_script(p2)
    for pg, token in ((p1, tokens[0]), (p2, tokens[1])):
        pg.goto(f"{served.base}/g/{gid}?lang=en#{token}")
        pg.wait_for_selector("#chat-form:not([hidden])")
    said = "<script>alert(1)</script> <b>hello</b>"
    p1.locator("#chat-text").fill(said)
    p1.locator("#chat-form button").click()
    line = p2.locator("#chat-lines li").first
    line.wait_for()
    assert said in line.inner_text() and "P1" in line.inner_text()
    assert p2.locator("#chat-lines script, #chat-lines b:has-text('hello')").count() == 0
    p2.locator("#chat-text").click()  # P2 is writing when P1's move comes: the view is redrawn, the message goes on
    p2.keyboard.type("half")
    before = version(p2)
    p1.wait_for_selector("#question button.opt")
    p1.locator("#question button.opt").first.click()
    wait_past(p2, before)
    p2.keyboard.type(" more")
    assert p2.locator("#chat-text:focus").count() == 1 and p2.locator("#chat-text").input_value() == "half more"
    watcher = browser.new_page()
    try:
        watcher.goto(f"{served.base}/g/{gid}?lang=en")  # a spectator reads, and has nothing to write with
        watcher.locator("#chat-lines li").first.wait_for()
        assert said in watcher.locator("#chat-lines").inner_text()
        assert watcher.locator("#chat-form").is_hidden() and watcher.locator("#chat-read-only").is_visible()
    finally:
        watcher.close()
    assert not dialogs


def test_the_log_reads_in_russian_on_a_russian_page_of_an_english_game(served, context):
    gid, tokens = new_game(served.base, game="kings_bounty", seats=("person", "random", "random", "random"), seed=5)
    page = context.new_page()
    page.goto(f"{served.base}/g/{gid}?lang=en#{tokens[0]}")
    page.wait_for_selector("#log li", state="attached")  # the log is folded away: its lines are there, unseen
    assert not re.search("[а-яА-Я]", page.locator("#log ol").text_content())
    page.locator("a.lang", has_text="ru").click()  # the language link keeps the seat
    page.wait_for_selector("#log li", state="attached")
    assert page.locator("#view").get_attribute("data-seat") == "0"
    lines = page.locator("#log li").all_text_contents()
    assert lines and all(re.search("[а-яА-Я]", t) for t in lines), lines


def test_the_lobby_shows_as_many_seat_pickers_as_players(served, context):
    page = context.new_page()
    page.goto(f"{served.base}/?lang=en")
    form = page.locator("#game-kings_bounty form")
    lo, hi = (int(x) for x in (form.locator("select.players option").first.get_attribute("value"),
                               form.locator("select.players option").last.get_attribute("value")))
    for n in range(lo, hi + 1):
        form.locator("select.players").select_option(str(n))
        shown = [i for i in range(hi) if form.locator(f'label.seat[data-seat="{i}"]').is_visible()]
        assert shown == list(range(n)), (n, shown)
