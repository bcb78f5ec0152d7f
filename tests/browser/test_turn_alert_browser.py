"""The turn alert, in real Chromium (issue 24, point 10): a phone buzzes and chimes when its
turn starts only once its player switched the alert on (per phone, kept across reloads),
and never before the page's first tap. ``navigator.vibrate`` and the oscillators' ``start``
are recorded by an init script (headless Chromium has no speaker or motor to listen to).
"""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing, shows_current

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

RECORD = """
window.__buzzes = [];
window.__tones = 0;
navigator.vibrate = (pattern) => { window.__buzzes.push(pattern); return true; };
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__tones += 1; return realStart.apply(this, args); };
"""



def other_moves(live, seat) -> None:
    table = live.table
    move = next(a for a in table.view(seat)["actions"] if a["type"] in ("swap", "move"))
    table.act(seat, move, table.version)


@pytest.fixture
def waiting_phone(live, new_phone):
    """SWAP 5 for two; the phone of the seat not to act, recording buzzes and tones."""
    live.table.start_game("swap5", 2, seed=4)
    mover = live.table.view(None)["to_act"][0]
    live.table.join(mover, "Aki")
    page = new_phone()
    page.add_init_script(RECORD)
    page.goto(f"{live.url}/R/{live.table.join(1 - mover, 'Ben')}")
    shows_current(page, live.table)
    return page, mover


def test_no_buzz_or_sound_unless_asked_for(live, waiting_phone):
    page, mover = waiting_phone
    switch = page.get_by_test_id("turn-alert")
    expect(switch).to_have_text("🔕 Sound and buzz on my turn: off")
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.locator(".board").click()  # a tap: the browser would allow it now, but nobody asked
    other_moves(live, mover)
    shows_current(page, live.table)
    expect(page.get_by_test_id("turn")).to_have_text("Your turn!")
    assert page.evaluate("[window.__buzzes, window.__tones]") == [[], 0]


def test_switched_on_it_buzzes_and_chimes_once_when_the_turn_starts_and_stays_on(live, waiting_phone):
    page, mover = waiting_phone
    page.get_by_test_id("turn-alert").click()
    expect(page.get_by_test_id("turn-alert")).to_have_text("🔔 Sound and buzz on my turn: on")
    expect(page.get_by_test_id("turn-alert")).to_have_attribute("aria-pressed", "true")
    sample = page.evaluate("window.__tones")
    assert sample == 2, "switching it on plays the chime once, so the player knows it"
    other_moves(live, mover)
    shows_current(page, live.table)
    assert page.evaluate("window.__buzzes") == [[120, 60, 120]]
    assert page.evaluate("window.__tones") == sample + 2

    # Kept on this phone across a reload; but nothing before the reloaded page's first tap.
    page.reload()
    expect(page.get_by_test_id("turn-alert")).to_have_text("🔔 Sound and buzz on my turn: on")
    shows_current(page, live.table)
    assert page.evaluate("[window.__buzzes, window.__tones]") == [[], 0]


def test_the_switch_in_japanese(live, new_phone):
    live.table.start_game("swap5", 2, seed=4)
    page = new_phone(locale="ja-JP")
    page.goto(f"{live.url}/R/{live.table.join(0, 'Aki')}")
    page.goto(f"{live.url}/play?lang=ja")
    expect(page.get_by_test_id("turn-alert")).to_have_text("🔕 自分の番に音と振動で知らせる：オフ")
