"""A Wi-Fi blip never leaves a phone stale (issue 24, point 1), in real Chromium.

The network is cut at each moment of a turn: while another player moves (offline
emulation, and the event stream dropped on its own), when the event has arrived but the
view's fetch fails, between the first tap and the confirming one, and when a move reaches
the table but its answer is lost. Each time the phone ends up showing the table's current
version (its own turn where it is), and while it cannot reach the table it says so with a
"Try again" button. Waits are on the page's ``data-version`` and on elements, never sleeps.
"""

from __future__ import annotations

import pytest

from browser_support import chromium_missing, shows_current

_missing = chromium_missing()
if _missing:
    import warnings

    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402



@pytest.fixture
def swap5(live, new_phone):
    """A two-seat SWAP 5 with both phones seated; returns (phones by seat, the seat to act)."""
    live.table.start_game("swap5", 2, seed=4)
    phones = []
    for seat in range(2):
        token = live.table.join(seat, f"P{seat + 1}")
        page = new_phone()
        page.goto(f"{live.url}/R/{token}")
        phones.append(page)
    # Every phone on the last version (the second seat's join changes it): no phone still has
    # a fetch on the way that a test's routes would miss.
    for page in phones:
        shows_current(page, live.table)
    return phones, live.table.view(None)["to_act"][0]


def a_move(table, seat):
    return next(a for a in table.view(seat)["actions"] if a["type"] in ("swap", "move"))


def tap_move(page, move) -> None:
    page.locator(f'.s5-board button[data-cell="{move["from"]}"]').click()
    page.locator(f'.s5-board button[data-cell="{move["to"]}"]').click()


def test_offline_while_another_player_moves_then_back_shows_my_turn(live, swap5):
    phones, mover = swap5
    waiting = phones[1 - mover]
    waiting.context.set_offline(True)
    live.table.act(mover, a_move(live.table, mover), live.table.version)
    waiting.context.set_offline(False)
    shows_current(waiting, live.table)
    expect(waiting.get_by_test_id("turn")).to_have_text("Your turn!")
    expect(waiting.get_by_test_id("connection")).to_be_hidden()


def test_a_dropped_event_stream_comes_back_with_the_move_made_meanwhile(live, swap5):
    phones, mover = swap5
    waiting = phones[1 - mover]
    waiting.route("**/api/events", lambda route: route.abort("connectionreset"))
    # The page drops its stream and reopens it (as after the Wi-Fi comes back): the reopening fails.
    with waiting.expect_event("requestfailed", lambda request: "/api/events" in request.url):
        waiting.evaluate("() => window.dispatchEvent(new Event('online'))")
    live.table.act(mover, a_move(live.table, mover), live.table.version)
    waiting.unroute("**/api/events")
    shows_current(waiting, live.table)
    expect(waiting.get_by_test_id("turn")).to_have_text("Your turn!")


def test_a_failed_view_fetch_is_said_with_try_again_and_retried(live, swap5):
    phones, mover = swap5
    waiting = phones[1 - mover]
    waiting.route("**/api/view", lambda route: route.abort("internetdisconnected"))
    live.table.act(mover, a_move(live.table, mover), live.table.version)
    banner = waiting.get_by_test_id("connection")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("cannot be reached")
    expect(waiting.get_by_test_id("try-again")).to_be_visible()
    # Tapped while the network is still down (the page also retries by itself every second, so
    # a tap after the network's return could find the button already gone): it asks again.
    with waiting.expect_request("**/api/view"):
        waiting.get_by_test_id("try-again").click()
    waiting.unroute("**/api/view")
    shows_current(waiting, live.table)
    expect(banner).to_be_hidden()
    expect(waiting.get_by_test_id("turn")).to_have_text("Your turn!")


def test_a_failed_fetch_is_retried_by_itself(live, swap5):
    phones, mover = swap5
    waiting = phones[1 - mover]
    failures = []

    def fail_twice(route):
        if len(failures) < 2:
            failures.append(route.request.url)
            return route.abort("internetdisconnected")
        return route.continue_()

    waiting.route("**/api/view", fail_twice)
    live.table.act(mover, a_move(live.table, mover), live.table.version)
    shows_current(waiting, live.table)  # after 1 s and 2 s, with nobody tapping
    assert len(failures) == 2
    expect(waiting.get_by_test_id("connection")).to_be_hidden()


def test_offline_between_the_first_tap_and_the_second_then_the_move_can_be_made(live, swap5):
    phones, mover = swap5
    page = phones[mover]
    move = a_move(live.table, mover)
    before = live.table.version
    page.locator(f'.s5-board button[data-cell="{move["from"]}"]').click()
    page.context.set_offline(True)
    page.locator(f'.s5-board button[data-cell="{move["to"]}"]').click()
    expect(page.get_by_test_id("connection")).to_be_visible()
    assert live.table.version == before, "a move sent offline reached the table"
    page.context.set_offline(False)  # the browser's "online" event: the page fetches at once
    expect(page.get_by_test_id("connection")).to_be_hidden()
    shows_current(page, live.table)
    tap_move(page, move)
    expect(page.locator("#game")).to_have_attribute("data-version", str(before + 1))
    assert live.table.action_log()[-1]["action"] == move


def test_a_failed_send_leaves_the_page_no_longer_busy_while_the_network_is_still_down(live, swap5):
    """aria-busy says a move is on its way: once its send has failed, screen readers must not
    be told to wait for the whole outage (issue #33, point 11)."""
    phones, mover = swap5
    page = phones[mover]
    move = a_move(live.table, mover)
    page.locator(f'.s5-board button[data-cell="{move["from"]}"]').click()
    page.context.set_offline(True)
    page.locator(f'.s5-board button[data-cell="{move["to"]}"]').click()
    expect(page.get_by_test_id("connection")).to_be_visible()  # the send failed; still offline
    expect(page.locator("#game")).to_have_attribute("aria-busy", "false")
    page.context.set_offline(False)
    shows_current(page, live.table)
    expect(page.locator("#game")).to_have_attribute("aria-busy", "false")


def test_a_move_that_arrived_but_whose_answer_was_lost_shows_on_the_phone(live, swap5):
    phones, mover = swap5
    page = phones[mover]
    other = phones[1 - mover]
    move = a_move(live.table, mover)
    before = live.table.version

    def deliver_then_lose_the_answer(route):
        route.fetch()  # the table takes the move
        route.abort("connectionreset")  # the answer never reaches the phone

    page.route("**/api/actions", deliver_then_lose_the_answer)
    tap_move(page, move)
    expect(page.locator("#game")).to_have_attribute("data-version", str(before + 1))
    assert live.table.action_log()[-1]["action"] == move
    expect(page.get_by_test_id("turn")).to_contain_text("Waiting for P")
    shows_current(other, live.table)
    expect(other.get_by_test_id("turn")).to_have_text("Your turn!")
