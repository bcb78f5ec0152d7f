"""The turn clock on phones at 360x640, in real Chromium (issue 36, point 1): every phone shows
whose turn is timed; two phones pause it at the same moment and resume it at the same moment,
each with one tap, and both follow; past the target the turn is marked by symbol and words
and a phone that chose sound plays a soft tone; a restart mid-turn keeps the times on a phone
that stays open. The server's clock is a fake one the test moves; the phones count on with
their own between two views."""

from __future__ import annotations

import re
import warnings

import pytest

from browser_support import chromium_missing, served, shows_current

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from companion.clock import TurnClock  # noqa: E402
from companion.table import Table  # noqa: E402
from web import create_app  # noqa: E402


SMALL = {"viewport": {"width": 360, "height": 640}}

RECORD_TONES = """
window.__tones = [];
const realStart = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) { window.__tones.push(this.frequency.value); return realStart.apply(this, args); };
"""


HOLD_VIEWS = """
window.__holdViews = false;
window.__held = [];
const realFetch = window.fetch;
window.fetch = function (input, init) {
  if (window.__holdViews && String(input.url ?? input).includes("/api/view")) {
    return new Promise((go) => window.__held.push(go)).then(() => realFetch(input, init));
  }
  return realFetch(input, init);
};
window.__release = () => { window.__holdViews = false; window.__held.splice(0).forEach((go) => go()); };
"""
"""Lets a test hold the views a page fetches (its redraws) until it releases them: two taps
'at the same moment' are then both made on what each phone showed before either redrew."""


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def time():
    return FakeClock()


@pytest.fixture
def server_clock(time):
    """The ``live`` server's turn clock runs on the fake ``time``."""
    return time


def two_phones(live, new_phone):
    """SWAP 5 for Aki and Ben, each on a small phone; returns (aki, ben, the seat waited for)."""
    live.table.start_game("swap5", 2, seed=4)
    phones = []
    for seat, name in enumerate(["Aki", "Ben"]):
        page = new_phone(**SMALL)
        page.add_init_script(RECORD_TONES)
        page.add_init_script(HOLD_VIEWS)
        page.goto(f"{live.url}/R/{live.table.join(seat, name)}")
        phones.append(page)
    for page in phones:
        shows_current(page, live.table)
    return *phones, live.table.view(None)["waiting_for"][0]


def test_every_phone_shows_the_turn_being_timed(live, new_phone):
    aki, ben, waited = two_phones(live, new_phone)
    name = ["Aki", "Ben"][waited]
    for page in (aki, ben):
        face = page.get_by_test_id("clock-face")
        expect(face).to_contain_text(f"{name} ⏱ 0:")
        expect(page.get_by_test_id("clock-toggle")).to_have_text("⏸ Pause")
        expect(page.get_by_test_id("clock-toggle")).to_have_accessible_name("Pause the clock")
        box = page.get_by_test_id("clock-toggle").bounding_box()
        assert box["y"] + box["height"] <= 640, "one tap away, on the first screen"


def test_two_phones_pause_at_once_and_resume_at_once(live, new_phone):
    aki, ben, _ = two_phones(live, new_phone)
    for action, button, shown in (("pause", "⏸ Pause", "▶ Resume"),
                                  ("resume", "▶ Resume", "⏸ Pause")):
        for page in (aki, ben):
            expect(page.get_by_test_id("clock-toggle")).to_have_text(button)
            page.evaluate("window.__holdViews = true")
        version = live.table.version
        with aki.expect_response("**/api/clock") as aki_tapped, ben.expect_response("**/api/clock") as ben_tapped:
            aki.get_by_test_id("clock-toggle").click()
            ben.get_by_test_id("clock-toggle").click()
        assert aki_tapped.value.ok and ben_tapped.value.ok
        for page in (aki, ben):
            page.evaluate("window.__release()")
        assert live.table.version == version + 1, "the second tap at the same moment changes nothing more"
        for page in (aki, ben):
            shows_current(page, live.table)
            expect(page.get_by_test_id("clock-toggle")).to_have_text(shown)
            expect(page.get_by_test_id("turn-clock")).to_have_attribute("data-why", "paused" if action == "pause" else "running")
        if action == "pause":
            expect(aki.get_by_test_id("clock-why")).to_have_text("⏸ Clock paused")

    # And one phone pauses, the other resumes: each follows the other.
    aki.get_by_test_id("clock-toggle").click()
    expect(ben.get_by_test_id("clock-toggle")).to_have_text("▶ Resume")
    ben.get_by_test_id("clock-toggle").click()
    expect(aki.get_by_test_id("clock-toggle")).to_have_text("⏸ Pause")


def test_past_the_target_the_turn_is_marked_and_sounds_softly_where_sound_was_chosen(live, new_phone, time):
    aki, ben, waited = two_phones(live, new_phone)
    aki.get_by_test_id("turn-alert").click()  # Aki's phone chose sound (its chime plays once: 880, 1175)
    time.now += 29
    aki.get_by_test_id("clock-target").select_option("30")
    for page in (aki, ben):
        shows_current(page, live.table)
        expect(page.get_by_test_id("clock-target")).to_have_value("30")
        # A second later on the phone's own count: past the 30 s target.
        face = page.get_by_test_id("clock-face")
        expect(face).to_have_class("clock-face over-target")
        expect(face).to_contain_text("⌛ 0:3")
        expect(face).to_contain_text("over the target")
    aki.wait_for_function("window.__tones.includes(440)")
    assert aki.evaluate("window.__tones.filter((f) => f === 440).length") == 1, "once per turn"
    assert ben.evaluate("window.__tones") == [], "a phone that did not choose sound stays silent"
    assert live.table.view(None)["waiting_for"] == [waited], "the target never ends a turn"


def test_a_restart_mid_turn_goes_on_from_the_saved_time_on_the_same_phone(tmp_path, browser, new_phone, time):
    """The server stops mid-turn and starts again on the same data (an update, a reboot): the
    phone, never reloaded, shows the ended turn's time and the turn in play going on from the
    saved time; the minutes the server was off are nobody's. (A power cut, which saves
    nothing on the way down, is tests/test_clock.py's.)"""
    data = tmp_path / "data"
    table = Table(data)
    table.start_game("swap5", 2, seed=4)
    turn_clock = TurnClock(table, clock=time)
    try:
        with served(_app(table, turn_clock, time)) as server:
            port = server.port
            phone = new_phone(**SMALL)
            phone.goto(f"http://127.0.0.1:{port}/R/{table.join(0, 'Aki')}")
            table.join(1, "Ben")
            first = table.view(None)["waiting_for"][0]
            time.now += 8
            view = table.view(first)
            table.act(first, view["actions"][0], view["version"])  # an 8-s turn, ended by the move
            time.now += 6  # 6 s into the other's turn when the server stops
            shows_current(phone, table)
    finally:
        _close(turn_clock, table)  # as ``companion serve`` stops: the running turn's seconds saved
    time.now += 500  # the server is off
    table = Table(data)
    turn_clock = TurnClock(table, clock=time)
    try:
        with served(_app(table, turn_clock, time), port) as server:  # the same address: the phone finds it again
            time.now += 31
            name = ["Aki", "Ben"][1 - first]
            # The phone finds the server again by itself: the turn goes on from the 6 s saved, 37 s
            # now (a little more where the phone counts on between two views); never 0:31 (the
            # saved time lost) nor 8:37 (the off time counted).
            expect(phone.get_by_test_id("clock-face")).to_have_text(re.compile(rf"{name} ⏱ 0:(3[7-9]|4\d)"))
            # One tap stops the clock where the server has it, to the second.
            phone.get_by_test_id("clock-toggle").click()
            expect(phone.get_by_test_id("clock-why")).to_have_text("⏸ Clock paused")
            expect(phone.get_by_test_id("clock-face")).to_have_text(f"{name} ⏱ 0:37")
            expect(phone.locator(f'[data-clock-total="{first}"]')).to_have_text("⏱ 0:08")  # the ended turn
            assert table.action_log()[0]["seat"] == first  # the move made before the stop
    finally:
        _close(turn_clock, table)


def _app(table, turn_clock, clock):
    """The web app as ``companion serve`` builds it, with its own turn clock on ``clock``."""
    return create_app(table, keepalive_seconds=5.0, stream_seconds=120.0, clock=clock, turn_clock=turn_clock)


def _close(turn_clock, table):
    """Closed as ``companion serve`` closes them (the clock saves the running turns' seconds)."""
    turn_clock.close()
    table.close()
