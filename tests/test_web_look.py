"""The page laid out for play (issue 30), in a real browser (Playwright, Debian's chromium; the session's one
browser, tests/conftest.py), against a `rules serve` app in a thread of this process:

- each game with a decision pending at 1280×800: the board (or, without one, the table) and an option in view,
  no two names of areas overlapping and none cut off; AGoT at 3 players draws every area (those out of play
  greyed) and offers each distinct order once with how many are left; identical components drawn once ×N;
- after a bid, AGoT's three influence tracks show the new order;
- a land's army count (an entity variable the table shows) on the map of docs/examples/six_lands;
- at 390×844 the board zooms and pans, and every button, link and card to tap is at least 32 px;
- axe-core (axe-playwright-python) finds no serious or critical violation on the lobby and on a seat of each game.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("playwright.sync_api")

from interpreter.present.words import shown_to  # noqa: E402
from tests.test_web_browser import CHROMIUM, TIMEOUT, WEB_GAME, serving, start_game, version, wait_at_least  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIX = ROOT / "docs" / "examples" / "six_lands"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian's package; .ci/run installs it)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, [WEB_GAME, SIX])


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=LAPTOP)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    yield pg
    context.close()


def seat_page(page, base, game, players, seed):
    """A game of one person (P1) and random bots, its seat's page open at the decision it asks first."""
    gid, links, _ = start_game(page, base, game, players, ["person"] + ["random"] * (players - 1), seed=seed)
    page.goto(base + links[0])
    page.wait_for_selector("#question button.opt")
    return gid, links[0]


def box(locator) -> dict:
    b = locator.bounding_box()
    assert b is not None, "not drawn"
    return b


def in_view(b: dict, size: dict) -> bool:
    return b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= size["width"] + 0.5 and b["y"] + b["height"] <= size["height"] + 0.5


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


def check_laptop(page, board: bool) -> None:
    """The board (or the table) and the first option are both in view; names on the board neither overlap nor
    leave it."""
    main = box(page.locator("#board .board-stage" if board else "#table"))
    visible_h = min(main["y"] + main["height"], LAPTOP["height"]) - max(main["y"], 0)
    visible_w = min(main["x"] + main["width"], LAPTOP["width"]) - max(main["x"], 0)
    assert visible_h >= min(main["height"], 0.6 * LAPTOP["height"]) and visible_w >= 0.4 * LAPTOP["width"], main
    assert in_view(box(page.locator("#question button.opt").first), LAPTOP)
    assert in_view(box(page.locator("#question .prompt")), LAPTOP)
    if board:
        stage = main
        labels = [box(x) for x in page.locator("svg.board-dyn .alabel").all()]
        assert labels
        for b in labels:
            assert stage["x"] - 0.5 <= b["x"] and b["x"] + b["width"] <= stage["x"] + stage["width"] + 0.5, "a name cut off"
            assert stage["y"] - 0.5 <= b["y"] and b["y"] + b["height"] <= stage["y"] + stage["height"] + 0.5, "a name cut off"
        crossing = [(i, j) for i in range(len(labels)) for j in range(i + 1, len(labels)) if overlap(labels[i], labels[j])]
        names = [t.text_content() for t in page.locator("svg.board-dyn .alabel").all()]
        assert not crossing, [(names[i], names[j]) for i, j in crossing]
    check_rows(page)


def check_rows(page) -> list:
    """Each zone's name clear of its row of cards and of their ×N badges (a badge sits above its card's top)."""
    covered = page.evaluate("""() => [...document.querySelectorAll('.zone')].flatMap((z) => {
        const head = z.querySelector(':scope > .zhead');
        if (!head) return [];
        const h = head.getBoundingClientRect();
        return [...z.querySelectorAll(':scope > .cards > .card, :scope > .cards > .card > .count')].filter((c) => {
          const b = c.getBoundingClientRect();
          return b.width > 0 && h.width > 0 && b.left < h.right - 0.5 && h.left < b.right - 0.5
            && b.top < h.bottom - 0.5 && h.top < b.bottom - 0.5;
        }).map((c) => [z.dataset.zone, head.textContent, c.textContent.slice(0, 30)]);
      })""")
    assert not covered, covered
    return covered


def check_accessible(page) -> None:
    from axe_playwright_python.sync_playwright import Axe
    results = Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert not bad, bad


@pytest.mark.parametrize("game,players,seed", [("kings_bounty", 4, 3), ("btwixt", 3, 4)])
def test_a_card_game_at_a_laptop_size(server, browser, page, game, players, seed):
    app, base = server
    gid, _ = seat_page(page, base, game, players, seed)
    check_laptop(page, board=False)
    mine = app.state.rooms.get(gid).session.state.player_zones
    held = sum(len(zones[0].items) for name, zones in mine.items() if name not in ("hand",) or True)
    assert page.locator("#mine .card").count() > 0 or held == 0  # the reader's own cards, in rows
    assert page.locator("#log[open]").count() == 0  # the log folded away
    if game == "kings_bounty":  # a card laid down glides from the hand to the domains
        option = page.locator("#question button.opt", has_text="Lay down").first
        before = version(page)
        # count the glides started (a busy machine may end a 450 ms animation before a look at the running ones)
        page.evaluate("() => { window.glides = 0; const animate = Element.prototype.animate;"
                      "Element.prototype.animate = function (...a) { window.glides += 1; return animate.apply(this, a); }; }")
        option.click()
        page.wait_for_selector(f'#view:not([data-version="{before}"])', state="attached")
        for _ in range(100):  # the page's policy forbids the script a wait_for_function polls with
            if page.evaluate("() => window.glides"):
                break
            page.wait_for_timeout(50)
        assert page.evaluate("() => window.glides") > 0
    if game == "btwixt":  # a bid pile shows its total
        room = app.state.rooms.get(gid)
        while not page.locator(".zone[data-zone=bid_pile] .total").count():
            before = version(page)
            page.locator("#question button.opt").first.click()
            page.wait_for_selector(f'#view:not([data-version="{before}"]) #question button.opt, .result', state="attached")
        pile = room.session.state.player_zones["bid_pile"]
        totals = {int(t) for t in page.locator(".zone[data-zone=bid_pile] .total").all_inner_texts()}
        assert totals <= {sum(e.attrs["influence"] for e in pile[p].items) for p in range(players)}
    pytest.importorskip("axe_playwright_python")
    check_accessible(page)


def test_agot_at_a_laptop_size_and_on_a_phone(server, page):
    app, base = server
    gid, _ = seat_page(page, base, "agot", 3, 2)
    room = app.state.rooms.get(gid)
    assert "House" in page.locator("#question .prompt").inner_text()  # houses are chosen first, in seat order
    before = version(page)
    page.locator("#question button.opt").first.click()  # P1 leads Baratheon; the bots choose theirs
    page.wait_for_selector(f'#view:not([data-version="{before}"]) #question button.opt')
    wait_at_least(page, room.version)
    state = room.session.state
    check_laptop(page, board=True)
    assert len(page.content().encode("utf-8")) < 150_000  # the whole seat page, static board included
    # every area of the map is drawn as a filled shape (not a circle); those out of play greyed
    areas = [e for e in state.entities.values() if e.kind in ("land", "sea", "port")]
    assert page.locator("#board-static .area-shape").count() == len(areas) == 58
    assert page.locator("#board-static defs path").count() == 58 and page.locator("#board-static circle").count() == 0
    out = state.game_zones["out_of_play"].items
    assert out and page.locator("svg.board-dyn use.greyed").count() == len(out)
    assert "out of play" in page.locator("#board .legend").inner_text()
    # the first question is which order to give: each distinct order once, with how many are left
    d = room.session.pending
    groups = shown_to(d, state, 0).groups
    buttons = page.locator("#question button.opt").all_inner_texts()
    assert len(buttons) == len(groups) < len(d.values)
    assert any(b.endswith("×2") for b in buttons) and not any("#" in b for b in buttons)
    # identical components drawn once with ×N: a reserve of footmen
    stacks = page.locator("#mine .card.stack .count").all_inner_texts()
    reserve = state.player_zones["reserve"][0].items
    footmen = sum(1 for u in reserve if u.attrs["unit_type"] == "footman")
    assert f"×{footmen}" in stacks and footmen > 1
    # a click on an order chooses it: the option naming that card
    before = version(page)
    page.locator("#mine .card.pickable").first.click()
    wait_at_least(page, before + 1)
    assert len(room.session.history) > 0 and room.session.history[0] in range(len(d.values))
    pytest.importorskip("axe_playwright_python")
    check_accessible(page)
    # on a phone: the decision first, the board zooms and pans, everything to tap is 32 px or more
    page.set_viewport_size(PHONE)
    page.wait_for_selector("#question button.opt")
    page.locator("header").scroll_into_view_if_needed()  # the top of the page, as it opens
    assert in_view(box(page.locator("#question .prompt")), PHONE)
    assert box(page.locator("#question")).get("y") < box(page.locator("#board")).get("y")  # the decision first
    pan = page.locator(".board-pan")
    page.locator(".zoom .zin").click()
    assert "scale(1.5)" in (pan.get_attribute("style") or "")
    stage = box(page.locator(".board-stage"))
    page.mouse.move(stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2)
    page.mouse.down()
    page.mouse.move(stage["x"] + stage["width"] / 2 + 60, stage["y"] + stage["height"] / 2 + 40, steps=5)
    page.mouse.up()
    assert "translate(" in pan.get_attribute("style") and "translate(0px, 0px)" not in pan.get_attribute("style")
    small = []
    for el in page.locator("button:visible, a:visible, summary:visible, .card.pickable:visible, input:visible, select:visible").all():
        b = el.bounding_box()
        if b and (b["width"] < 32 or b["height"] < 32):
            small.append((el.inner_text()[:30], b["width"], b["height"]))
    assert not small, small


def test_after_a_bid_the_influence_tracks_show_the_new_order(server, page):
    """Answers go through the seat's own calls (as the page sends them) until the houses have bid for the three
    influence tracks; the page then shows each track in the order the rules settled."""
    app, base = server
    gid, link = seat_page(page, base, "agot", 3, 3)
    room = app.state.rooms.get(gid)
    token = link.split("#", 1)[1]
    names = {"throne_track": 0, "fiefdoms_track": 1, "kings_court_track": 2}
    bid = typed = False
    for _ in range(600):
        session = room.session
        d = session.pending
        shown = shown_to(d, session.state)
        prompt = shown.prompt
        if shown.number is not None and not typed:  # a bid is typed in a number field: 32 px or more to tap, on a phone
            typed = True
            wait_at_least(page, room.version)
            page.set_viewport_size(PHONE)
            for part in ("input", "button"):
                b = box(page.locator(f"#question form.number {part}"))
                assert b["height"] >= 32 and b["width"] >= 32, (part, b)
            page.set_viewport_size(LAPTOP)
        if "bid" in prompt and "King's Court" in prompt:
            bid = True
        elif bid and "track" not in prompt:
            break
        n = len(session.history)
        room.answer(token, n, random.Random(f"3/{n}").randrange(len(d.values)))
        room.play_bots()  # here and now: the server plays them in the background (interpreter.web.bots)
    assert bid and typed, "no Clash of Kings in the first 600 decisions"
    wait_at_least(page, room.version)
    tracks = page.locator("#tracks .track[data-how=order]").all()
    assert len(tracks) == 3
    for variable, i in names.items():
        seats = [int(m.get_attribute("data-seat")) for m in tracks[i].locator(".marker").all()]
        assert seats == room.session.state.game_vars[variable], variable


def test_an_army_count_shows_on_its_land_and_what_changed_is_marked(server, page):
    app, base = server
    gid, _ = seat_page(page, base, "six_lands", 2, 1)
    room = app.state.rooms.get(gid)
    check_laptop(page, board=True)

    def badges():
        return {g.get_attribute("data-area"): g.locator(".vbadge text").first.text_content()
                for g in page.locator("svg.board-dyn .area-pieces").all() if g.locator(".vbadge").count()}
    lands = room.session.state.game_zones["map"].items
    assert badges() == {e.id: str(e.vars["armies"]) for e in lands}
    target = page.locator("svg.board-dyn use.chosen").first
    chosen = target.get_attribute("data-area")
    before = version(page)
    target.click()  # P1 adds an army there; the bot answers; P1 is asked again
    page.wait_for_selector(f'#view:not([data-version="{before}"]) #question button.opt')
    wait_at_least(page, room.version)
    assert badges() == {e.id: str(e.vars["armies"]) for e in lands}
    assert chosen in {u.get_attribute("href")[len("#shape-"):] for u in page.locator("svg.board-dyn use.changed").all()}


def test_the_lobby_has_no_serious_accessibility_violation(server, page):
    pytest.importorskip("axe_playwright_python")
    _, base = server
    page.goto(base + "/?lang=en")
    check_accessible(page)
