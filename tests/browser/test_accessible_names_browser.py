"""Every control has an accessible name, in the page's language (issue 24, point 9), read from
Chromium's own accessibility tree (the DevTools protocol's ``Accessibility.getFullAXTree``,
what a screen reader is given), on every page a player meets: home, join, each game's phone
at a typical turn (with a card chosen, so the confirm and cancel buttons are there), the
table screen, host tools and a rules page, in English and in Japanese. A Japanese page's
control named by an English text of ``en.json`` (one that differs in ``ja.json``) counts as
unnamed: a screen reader would read the wrong language.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from browser_support import chromium_missing
from phone_states import TYPICAL_TURNS, play_to_typical_turn

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

CONTROLS = {"button", "link", "textbox", "combobox", "checkbox", "radio", "spinbutton", "slider", "switch",
            "menuitem", "tab", "searchbox", "listbox", "DisclosureTriangle"}
I18N = Path(__file__).resolve().parents[2] / "web" / "i18n"
EN, JA = (json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")) for lang in ("en", "ja"))
ENGLISH_ONLY = {text for key, text in EN.items() if JA.get(key) != text and len(text) > 3}


def unnamed_controls(page, lang: str) -> list[str]:
    """The controls of Chromium's accessibility tree without a name (or, on a Japanese page,
    named in English)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    problems = []
    controls = 0
    for node in nodes:
        role = (node.get("role") or {}).get("value")
        if node.get("ignored") or role not in CONTROLS:
            continue
        controls += 1
        name = ((node.get("name") or {}).get("value") or "").strip()
        if not name:
            problems.append(f"{role} without a name (DOM node {node.get('backendDOMNodeId')})")
        elif lang == "ja" and name in ENGLISH_ONLY:
            problems.append(f"{role} named in English on a Japanese page: {name!r}")
    assert controls > 0, "the accessibility tree shows no control at all"
    return problems


def test_the_check_finds_a_control_without_a_name_and_one_in_english(live, new_phone):
    live.table.start_game("swap5", 2, seed=4)
    page = opened(new_phone(), f"{live.url}/table", "ja")
    page.evaluate("""(text) => document.querySelector("main").append(
        Object.assign(document.createElement("button"), {className: "x"}),
        Object.assign(document.createElement("button"), {textContent: text}))""", EN["rematch.button"])
    problems = unnamed_controls(page, "ja")
    assert len(problems) == 2 and "without a name" in problems[0] and "Play again" in problems[1]


def opened(page, url: str, lang: str):
    page.goto(f"{url}{'&' if '?' in url else '?'}lang={lang}")
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_home_join_host_table_and_rules_pages_name_every_control(live, new_phone, lang):
    host_token = live.table.start_game("swap5", 2, seed=4, claim_host=True)
    page = new_phone()
    page.goto(f"{live.url}/R/{host_token}")
    for path in ("/", f"/J/{live.table.join_code}", "/host", "/table", "/rules/meow-oracle"):
        opened(page, live.url + path, lang)
        page.wait_for_load_state("networkidle")
        assert unnamed_controls(page, lang) == [], path


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game_id", list(TYPICAL_TURNS))
def test_each_games_phone_names_every_control(live, new_phone, game_id, lang):
    seat = play_to_typical_turn(live.table, game_id)
    tokens = [live.table.join(s, f"P{s + 1}") for s in range(live.table.players)]
    page = new_phone()
    page.goto(f"{live.url}/R/{tokens[seat]}")
    opened(page, f"{live.url}/play", lang)
    expect(page.locator("#game")).to_have_attribute("data-version", str(live.table.version))
    assert unnamed_controls(page, lang) == [], "before any tap"
    pick = page.locator("[data-pick][data-field]")
    if pick.count():
        pick.first.click()
        assert unnamed_controls(page, lang) == [], "with a choice made"
