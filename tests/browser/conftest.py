"""Fixtures of the browser tests: the real server (waitress, as ``companion serve`` runs
it) in a thread on a free loopback port around a table in a temporary directory, and
headless Chromium phones driven by Playwright.

Playwright cannot download its own browsers here: it drives Debian's ``chromium``
(``apt-get install -y chromium``; another binary with ``COMPANION_CHROMIUM=/path``).
The test modules skip, loudly, when it is missing (``browser_support.chromium_missing``).

(No ``__init__.py`` in ``tests/browser``, like ``tests/web``: the fixtures live here.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from browser_support import CHROMIUM, CHROMIUM_ARGS, served
from companion.table import Table
from web import create_app

ACTION_TIMEOUT_MS = 30_000
"""How long a click, a navigation or an expectation waits for the page before the test
fails: a bound on a hang, not an expectation (each wait ends as soon as the page is there).
10 s was once too short for a navigation on a 2-core machine running the suite beside a
virtual Pi."""

PHONE = {"viewport": {"width": 390, "height": 844}, "locale": "en-US", "has_touch": True, "is_mobile": True}


@dataclass
class LiveServer:
    url: str
    table: Table


@pytest.fixture
def server_clock():
    """The server's monotonic clock (presence, the turn clock): a module may give its own fake one."""
    return time.monotonic


@pytest.fixture
def live(tmp_path, browser, server_clock):
    """The server on 127.0.0.1 at a free port, serving a fresh table; stopped afterwards.

    It asks for the browser first: Playwright starting its driver after waitress made its
    wake-up pipe left that pipe unwritable (EBADF when stopping), so the driver comes first."""
    table = Table(tmp_path / "data")
    app = create_app(table, keepalive_seconds=5.0, stream_seconds=120.0, clock=server_clock)
    try:
        with served(app) as server:
            yield LiveServer(f"http://127.0.0.1:{server.port}", table)
    finally:
        table.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    # Assertions wait as long as actions do (set_default_timeout below sets only actions;
    # expect keeps Playwright's 5 s): on a loaded 2-core machine a page may need longer.
    expect.set_options(timeout=ACTION_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser):
    """Make phones: each a browser context of its own (own cookies), as separate phones are."""
    contexts = []

    def make(**options):
        context = browser.new_context(**{**PHONE, **options})
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        # A page that fakes answers (page.route) may have a handler running as it closes; its
        # error would otherwise surface in whatever the next test asks the browser.
        for page in context.pages:
            page.unroute_all(behavior="ignoreErrors")
        context.close()
