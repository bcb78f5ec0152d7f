"""A game started with a chosen seed says so on the phone, in the phone's language (issue 23
point 5); a game with a drawn seed says nothing of it."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_phone_says_the_seed_was_chosen(live, new_phone, lang):
    text = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))["play.seed_chosen"]
    live.table.start_game("swap5", 2, seed=11)
    phone = new_phone(locale="ja-JP" if lang == "ja" else "en-GB")
    phone.goto(f"{live.url}/J/{live.table.join_code}?lang={lang}")
    phone.fill("#name", "Aki")
    phone.get_by_test_id("sit-0").click()
    phone.wait_for_url("**/play*")
    expect(phone.get_by_test_id("seed-chosen")).to_have_text(text)
    live.table.start_game("swap5", 2)  # a drawn seed: nothing to say
    expect(phone.get_by_test_id("seed-chosen")).to_have_count(0)


def start_with_seed(page, url: str, seed: str, lang: str = "en") -> None:
    """On the home page of an idle table, start SWAP 5 for two with ``seed`` typed under "More"."""
    page.goto(f"{url}/?lang={lang}")
    page.select_option("#start-game", "swap5")
    page.select_option("#start-players", "2")
    page.locator(".start-form summary").click()
    page.fill("#start-seed", seed)
    page.get_by_test_id("start").click()


def test_a_typed_19_digit_seed_deals_exactly_that_seed_and_every_phone_says_so(live, new_phone):
    """Typed seeds go as digits: as a JavaScript number 9223372036854775807 would become
    9223372036854775808, which no engine accepts, and a smaller one past 2^53 another deal."""
    from companion import games

    largest = 2**63 - 1
    phones = [new_phone(), new_phone()]
    start_with_seed(phones[0], live.url, str(largest))
    phones[0].wait_for_url(f"**/J/{live.table.join_code}")
    assert live.table.state() == games.get("swap5").setup(2, largest)
    for seat, phone in enumerate(phones):
        phone.goto(f"{live.url}/J/{live.table.join_code}")
        phone.fill("#name", ["Aki", "Ben"][seat])
        phone.get_by_test_id(f"sit-{seat}").click()
        phone.wait_for_url("**/play*")
    for phone in phones:
        expect(phone.get_by_test_id("seed-chosen")).to_have_text(
            json.loads((I18N / "en.json").read_text(encoding="utf-8"))["play.seed_chosen"])


@pytest.mark.parametrize("lang, words", [("en", "the seed must be a whole number from 0 to 9223372036854775807"),
                                         ("ja", "シードは 0 から 9223372036854775807 までの整数")])
def test_a_typed_seed_that_is_no_whole_number_is_refused_in_the_pages_language(live, new_phone, lang, words):
    phone = new_phone(locale="ja-JP" if lang == "ja" else "en-GB")
    for typed in ("12a", "9223372036854775808", "-1"):
        start_with_seed(phone, live.url, typed, lang)
        expect(phone.locator("#status")).to_contain_text(words)
        assert live.table.game_id is None and not live.table.has_host
