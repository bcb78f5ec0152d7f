"""The rules pages in real headless Chromium on a small phone (360 × 640): no page scrolls
sideways, in either language, and a link to a step's anchor brings that step into view."""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing
from companion import games

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

SMALL_PHONE = {"viewport": {"width": 360, "height": 640}}

# How far the page can scroll sideways: 0 when nothing is wider than the screen.
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_pages_fit_a_360_px_phone(live, new_phone, lang):
    page = new_phone(**SMALL_PHONE)
    for path in ["/rules", "/rules/no-such-game", *(f"/rules/{game_id}" for game_id in games.ids())]:
        page.goto(f"{live.url}{path}?lang={lang}")
        assert page.evaluate(SIDEWAYS) == 0, f"{path} scrolls sideways at 360 px"


def test_a_step_anchor_shows_that_step(live, new_phone):
    page = new_phone(**SMALL_PHONE)
    page.goto(f"{live.url}/rules/lion-square?lang=ja#setup-adjust")
    step = page.locator("#setup-adjust")
    assert "手札の調整" in step.inner_text()
    box = step.bounding_box()
    assert 0 <= box["y"] < 640, "the linked step is not on screen"
