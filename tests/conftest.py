"""Shared pytest set-up for the project's tests.

The `slow` marker labels the long tests (the search's strength test against random play); they are NOT
deselected by default and run in every plain `python -m pytest` run (deselect them explicitly with
`-m "not slow"`). They are run first, so that with `-n auto` the longest start at once and the short ones
fill the other workers, instead of one long test left running alone at the end.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long tests, run first (still run by default)")


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow first, else as collected


@pytest.fixture(scope="session", autouse=True)
def _data_folder(tmp_path_factory):
    """`rules play` keeps a person's unfinished game in the user's data folder: in tests, a temporary one
    (subprocesses inherit it), never the home of whoever runs them."""
    import os
    saved = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    yield
    if saved is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = saved


@pytest.fixture(scope="session")
def kb():
    """King's Bounty, loaded and compiled once."""
    from interpreter.runtime.games import load_compiled
    return load_compiled("kings_bounty")


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for a module's browser tests (Playwright with Debian's `chromium`). Per module, not per
    session: while Playwright's sync API is open its event loop counts as running in this thread, and the
    asyncio tests (the language server's) that a worker runs after it could not start theirs."""
    import shutil
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (Debian's package; .ci/run installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True)
        yield b
        b.close()
