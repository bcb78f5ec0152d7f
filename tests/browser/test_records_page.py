"""The /records page in real headless Chromium on two phones (360 × 640 and 390 × 844), in
both languages: nothing wider than the screen, every chart drawn and on screen with nothing
cut off inside it, and a finished play linking to its replay and to BG Stats."""

from __future__ import annotations

import random
import warnings

import pytest

from browser_support import chromium_missing
from companion import games

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# Every text of every chart, measured inside its chart: its right end must lie within the
# chart's 320-unit viewBox, else the chart cuts it off.
CUT_OFF_TEXTS = """() => [...document.querySelectorAll('svg.chart text')]
    .filter(text => { const box = text.getBBox(); return box.x < 0 || box.x + box.width > 320; })
    .map(text => text.textContent)"""


def play_to_the_end(table, game_id: str, names: list[str], seed: int, moves: int | None = None) -> None:
    """Seat ``names`` at a new ``game_id`` and make random legal moves (all, or ``moves``)."""
    if any(table.names()):
        table.free_all_seats()
    table.start_game(game_id, len(names), seed=seed)
    for seat, name in enumerate(names):
        table.join(seat, name)
    game, chooser, made = games.get(game_id), random.Random(seed), 0
    while not game.is_over(table.state()) and (moves is None or made < moves):
        seat = chooser.choice(game.to_act(table.state()))
        table.act(seat, chooser.choice(game.legal_actions(table.state(), seat)), table.version)
        made += 1


@pytest.fixture
def some_plays(live):
    """Four finished plays of three games with long names, and one abandoned."""
    play_to_the_end(live.table, "swap5", ["Aki", "Bernadette-Marguerite"], seed=1)
    play_to_the_end(live.table, "pig-house", ["ＡＫＩ", "Bernadette-Marguerite", "ちょうながいなまえのひと"], seed=2)
    play_to_the_end(live.table, "swap5", ["Bernadette-Marguerite", "aki"], seed=3)
    play_to_the_end(live.table, "lion-square-ledger", ["Aki", "Cy", "Dee", "Emi"], seed=4)
    play_to_the_end(live.table, "swap5", ["Aki", "Cy"], seed=5, moves=2)
    live.table.start_game("swap5", 2)  # abandons the last one


@pytest.mark.parametrize("viewport", [{"width": 360, "height": 640}, {"width": 390, "height": 844}], ids=["360x640", "390x844"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_records_page_fits_a_phone_with_its_charts(live, new_phone, some_plays, viewport, lang):
    page = new_phone(viewport=viewport)
    page.goto(f"{live.url}/records?lang={lang}")
    assert page.evaluate(SIDEWAYS) == 0, "the page scrolls sideways"
    charts = page.locator("svg.chart")
    assert charts.count() >= 4  # plays per game, wins per player, one seat-order chart, the scores
    for index in range(charts.count()):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        assert box["height"] > 20 and 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], box
        assert chart.get_attribute("aria-label")
    assert page.evaluate(CUT_OFF_TEXTS) == []
    assert page.locator(".chart-n").first.is_visible()


def test_a_finished_play_links_to_its_replay_and_to_bg_stats(live, new_phone, some_plays):
    page = new_phone(viewport={"width": 360, "height": 640})
    page.goto(f"{live.url}/records?lang=en")
    plays = page.locator(".records-recent > li")
    assert plays.count() == 5
    abandoned = plays.filter(has_text="Abandoned")
    assert abandoned.count() == 1 and abandoned.locator("a").count() == 0
    newest_finished = plays.filter(has=page.locator("a", has_text="Replay")).first
    bgstats = newest_finished.get_by_role("link", name="Send to BG Stats")
    assert bgstats.get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert (bgstats.get_attribute("target"), bgstats.get_attribute("rel")) == ("_blank", "noopener")
    replay = newest_finished.get_by_role("link", name="Replay")
    href = replay.get_attribute("href")
    assert href.startswith("/replay/") and int(href.removeprefix("/replay/")) > 0
    replay.click()
    page.wait_for_url(f"**{href}")


def test_the_game_filter_and_the_empty_state(live, new_phone):
    page = new_phone(viewport={"width": 360, "height": 640})
    page.goto(f"{live.url}/?lang=ja")
    page.locator("a.records-link").click()
    page.wait_for_url("**/records")
    assert "まだ記録がありません" in page.inner_text("main")
    play_to_the_end(live.table, "swap5", ["Aki", "Ben"], seed=1)
    page.select_option("#records-game", "swap5")
    page.get_by_role("button", name="表示").click()
    page.wait_for_url("**/records?game=swap5")
    assert page.locator(".records-recent > li").count() == 1 and page.locator("svg.chart").count() >= 3
