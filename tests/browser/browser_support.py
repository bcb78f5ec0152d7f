"""Where the browser tests find Chromium, and why they cannot run when they cannot.

(A module of its own, not ``conftest``: ``tests/web`` has a ``conftest`` too, and
``from conftest import ...`` would find whichever came first on the path.)
"""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-gpu"]


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    return None


@contextmanager
def served(app, port: int = 0):
    """``app`` served by the real server (waitress, as ``companion serve`` runs it) in a thread
    on 127.0.0.1 at ``port`` (0: a free one): ``with served(app) as server:``, its address at
    ``server.port``; stopped on the way out."""
    from companion.serve import Server

    server = Server(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.serve_forever, name="test-server", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop()
        server.wait_stopped(10)
        thread.join(10)


def shows_current(page, table) -> None:
    """Wait until ``page`` shows ``table``'s current version."""
    from playwright.sync_api import expect

    expect(page.locator("#game")).to_have_attribute("data-version", str(table.version))


def seated_phone(live, new_phone, seat: int, name: str, **options):
    """A phone that sits ``name`` on ``seat`` (by the table, then its rejoin link) and shows
    the table's current version; ``options`` for ``new_phone`` (a viewport)."""
    token = live.table.join(seat, name)
    phone = new_phone(**options)
    phone.goto(f"{live.url}/R/{token}")
    shows_current(phone, live.table)
    return phone
