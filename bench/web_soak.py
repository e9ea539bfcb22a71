"""Soak run of the web pages (issue 18 §4), for a person to look at: starts `rules serve` on a free port, plays a
King's Bounty, a B'Twixt and an A Game of Thrones game in headless Chromium by clicking (one person, bots in the
other seats) for a number of decisions each, and saves screenshots of each page every --every decisions and at
the end into --out, as a person sees them: at 1280×800 (a laptop), at 1920×1080 with --wide, and at 390×844 (a
phone); with --full, of the whole page too. Not part of the test suite.

Run:  python bench/web_soak.py [--out soak-shots] [--decisions 60] [--every 20] [--lang en]
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
GAMES = (("kings_bounty", 4), ("btwixt", 3), ("agot", 3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("soak-shots"))
    ap.add_argument("--decisions", type=int, default=60, help="a person's decisions per game (at most 2000)")
    ap.add_argument("--every", type=int, default=20, help="a screenshot every this many decisions")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wide", action="store_true", help="also at 1920×1080")
    ap.add_argument("--full", action="store_true", help="also the whole page at 1280 wide")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port), "--db", f"{tmp}/soak.sqlite3"],
                                  env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, stdout=subprocess.DEVNULL)
        try:
            for _ in range(400):
                try:
                    httpx.get(base + "/", timeout=5)
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=shutil.which("chromium"))
                for game, players in GAMES:
                    soak(browser, base, game, players, args)
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print(f"screenshots in {args.out}")


def soak(browser, base: str, game: str, players: int, args) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(30_000)
    page.goto(f"{base}/?lang={args.lang}")
    form = page.locator(f"#game-{game} form")
    form.locator("select.players").select_option(str(players))
    form.locator("select[name=lang]").select_option(args.lang)
    form.locator("input[name=seed]").fill(str(args.seed))
    form.locator("button[type=submit]").click()
    page.locator("a.seat-link").first.click()
    rng = random.Random(args.seed)
    for n in range(1, min(args.decisions, 2000) + 1):
        page.wait_for_selector("#question button.opt:not([disabled]), #question form.number, .result, .game-error")
        if page.locator(".result, .game-error").count():
            break
        before = page.locator("#view").get_attribute("data-version")
        number = page.locator("#question form.number input[name=n]")
        if number.count():  # a number in a range (a bid): typed in its field
            number.fill(str(rng.randint(int(number.get_attribute("min")), int(number.get_attribute("max")))))
            page.locator("#question button.opt-number").click()
        else:
            rng.choice(page.locator("#question button.opt").all()).click()
        page.wait_for_selector(f'#view:not([data-version="{before}"])', state="attached")
        if n % args.every == 0:
            shoot(page, args, f"{game}-{n:04d}")
    shoot(page, args, f"{game}-last")
    page.close()


def still(page, timeout: float = 3000) -> None:
    """Wait until nothing on the page moves: no animation running (the cards and pieces that glide to their new
    places take up to 450 ms), so that a shot shows where things are, not where they pass."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:  # polled from here: the page's policy forbids wait_for_function's script
        if page.evaluate("() => document.getAnimations().every((a) => a.playState !== 'running')"):
            return
        page.wait_for_timeout(50)


def shoot(page, args, name: str) -> None:
    """The page as seen at 1280×800 (and 1920×1080, the whole page) and on a phone; back to 1280×800 after."""
    page.mouse.move(0, 0)  # no option lit by the pointer that chose the last one
    sizes = [("", 1280, 800)] + ([("-wide", 1920, 1080)] if args.wide else []) + [("-phone", 390, 844)]
    for suffix, width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the page lays itself out again
        still(page)
        page.screenshot(path=str(args.out / f"{name}{suffix}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    if args.full:
        page.screenshot(path=str(args.out / f"{name}-full.png"), full_page=True)


if __name__ == "__main__":
    main()
