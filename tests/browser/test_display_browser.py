"""The OLED mirror at /display in real headless Chromium: the frame follows the mock
buttons, pressed by clicks and by the keyboard, exactly as the panel draws it."""

from __future__ import annotations

import threading
import warnings

import pytest

from browser_support import chromium_missing
from companion.config import load_config
from companion.serve import Server
from companion.table import Table
from web import create_app

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from gpiozero import Device  # noqa: E402
from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

from hardware import create_panel  # noqa: E402


@pytest.fixture
def panel_site(tmp_path, browser):
    """A table, its mock panel and the web with /display, served on a free loopback port."""
    config = load_config(None, {"hardware": "mock", "data_dir": str(tmp_path / "data")})
    table = Table(config.data_dir)
    panel = create_panel(config, table, public_url="http://10.0.0.2:8000/", lan_address="10.0.0.2")
    panel.start()
    server = Server(create_app(table, panel=panel), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}", panel
    finally:
        server.stop()
        server.wait_stopped(10)
        panel.stop()
        Device.pin_factory = None
        table.close()


def press_and_settle(page, panel, key: str, button: str) -> None:
    """Press ``key`` on the page, wait for its button request, then for the panel to draw."""
    with page.expect_response(f"**/api/buttons/{button}"):
        page.keyboard.press(key)
    assert panel.settle()


def test_the_mirror_follows_clicks_and_keys(panel_site, new_phone):
    url, panel = panel_site
    page = new_phone(viewport={"width": 800, "height": 700}, is_mobile=False, has_touch=False)
    page.goto(f"{url}/display")
    text = page.locator("#text")
    expect(text).to_contain_text("/J/")  # the join screen, its join link: no game yet
    expect(page.locator("#frame")).to_have_js_property("naturalWidth", 128)

    press_and_settle(page, panel, "Shift+Enter", "ok")  # a long press of ok opens the menu
    expect(text).to_contain_text("Start a game")
    menu = "\n".join(panel.text_lines())

    press_and_settle(page, panel, "ArrowDown", "down")
    moved = "\n".join(panel.text_lines())
    assert moved != menu, "down moves the selection"
    expect(text).to_have_text(moved + "\n")

    with page.expect_response("**/api/buttons/back"):
        page.click('[data-button="back"]')  # a click is a short press
    assert panel.settle()
    expect(text).to_contain_text("/J/")
