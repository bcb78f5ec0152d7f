"""Issue 33 point 8 at 360 × 640, in real Chromium: the home page's join-code field and the
host's *New game* form are on the first screen, without a scroll; the host's own seat is
marked in words on /host; a second "Dai" is refused in plain words in both languages.

Every wait is on an event or on the page's state, never a sleep.
"""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

SMALL = {"width": 360, "height": 640}


def on_first_screen(page, locator) -> None:
    """``locator`` whole in the viewport, the page not scrolled."""
    expect(locator).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    box = locator.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], box


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_home_pages_join_code_field_is_on_the_first_screen(live, new_phone, language):
    live.table.start_game("meow-oracle", 3, seed=1)
    live.table.join(0, "Aki")
    page = new_phone(viewport=SMALL, locale="ja-JP" if language == "ja" else "en-US")
    page.goto(f"{live.url}/?lang={language}")
    form = page.get_by_test_id("code-form")
    on_first_screen(page, form)
    form.locator("input").fill(live.table.join_code.lower())
    form.locator("button").click()
    page.wait_for_url(f"**/J/{live.table.join_code}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_hosts_new_game_form_is_on_the_first_screen_and_its_own_seat_marked(live, new_phone, language):
    table = live.table
    host_token = table.start_game("lion-square", 4, seed=1, claim_host=True)
    page = new_phone(viewport=SMALL, locale="ja-JP" if language == "ja" else "en-US")
    page.goto(f"{live.url}/R/{host_token}?lang={language}")
    page.goto(f"{live.url}/R/{table.join(0, 'Aki')}?lang={language}")
    table.hand_over_host(0)
    for seat, name in ((1, "Bo"), (2, "Chika"), (3, "Dai")):
        table.join(seat, name)
    page.goto(f"{live.url}/host?lang={language}")
    own = page.locator('#seats li[data-seat="0"]')
    expect(own.get_by_test_id("own-seat")).to_have_text("you" if language == "en" else "あなた")
    expect(page.get_by_test_id("own-seat")).to_have_count(1)
    on_first_screen(page, page.locator("#start-form"))
    on_first_screen(page, page.locator("#undo"))


@pytest.mark.parametrize(("language", "typed", "message"), [
    ("en", "dai", "Dai is already at the table (seat 1): please choose another name"),
    ("ja", "ＤＡＩ", "Daiさんはもう1番の席に着いています。別の名前にしてください"),
])
def test_a_second_dai_is_refused_in_plain_words(live, new_phone, language, typed, message):
    table = live.table
    table.start_game("meow-oracle", 3, seed=1)
    table.join(0, "Dai")
    version = table.version
    page = new_phone(viewport=SMALL, locale="ja-JP" if language == "ja" else "en-US")
    page.goto(f"{live.url}/J/{table.join_code}?lang={language}")
    page.locator("#name").fill(typed)
    page.get_by_test_id("sit-1").click()
    expect(page.locator("#status")).to_contain_text(message)
    assert table.version == version and table.names() == ["Dai", None, None]
