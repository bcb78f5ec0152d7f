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
