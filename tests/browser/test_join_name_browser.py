"""The join page counts a name's length as the server does (characters, not the UTF-16 units
of an input's maxlength), in real headless Chromium: a name of emoji or kana at the limit is
typed whole and seated; one more character is refused on the page, before anything is sent."""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

from companion.table import NAME_MAX  # noqa: E402

NAMES = {
    "emoji": "😀🐷",  # each one character for the server, two UTF-16 units for the browser
    "kana": "はなこ",
}


def open_join(live, new_phone, **options):
    page = new_phone(**options)
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    page.goto(f"{live.url}/J/{live.table.join_code}")
    return page, posts


@pytest.mark.parametrize("kind", sorted(NAMES))
def test_a_name_at_the_limit_is_typed_whole_and_seated(live, new_phone, kind):
    live.table.start_game("meow-oracle", 3, seed=1)
    name = (NAMES[kind] * NAME_MAX)[:NAME_MAX]
    page, _ = open_join(live, new_phone)
    page.locator("#name").press_sequentially(name)
    expect(page.locator("#name")).to_have_value(name)
    page.get_by_test_id("sit-0").click()
    page.wait_for_url("**/play")
    assert live.table.names()[0] == name


@pytest.mark.parametrize(("kind", "language", "message"), [
    ("emoji", "en", f"A name can have at most {NAME_MAX} characters; this one has {NAME_MAX + 1}."),
    ("kana", "ja", f"名前は{NAME_MAX}文字までです（いまは{NAME_MAX + 1}文字）。"),
])
def test_one_character_more_is_refused_on_the_page_in_plain_words(live, new_phone, kind, language, message):
    live.table.start_game("meow-oracle", 3, seed=1)
    version = live.table.version
    name = (NAMES[kind] * (NAME_MAX + 1))[: NAME_MAX + 1]
    page, posts = open_join(live, new_phone, locale="ja-JP" if language == "ja" else "en-US")
    page.locator("#name").press_sequentially(name)
    expect(page.locator("#name")).to_have_value(name)  # nothing cut silently: the player sees what is wrong
    page.get_by_test_id("sit-0").click()
    expect(page.locator("#status")).to_have_text(message)
    assert posts == [] and live.table.version == version and live.table.names()[0] is None
