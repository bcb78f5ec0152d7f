"""Who starts, on phones at 360x640 in real Chromium: two taps on one phone draw one of
the game's seats (the first tap only opens the offer), every phone and the shared screen name them,
and the game starts with them."""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing, seated_phone, shows_current

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from companion.first_player import drawn  # noqa: E402

SMALL = {"viewport": {"width": 360, "height": 640}}


def test_two_taps_draw_who_starts_and_every_screen_names_them(live, new_phone):
    table = live.table
    table.start_game("swap5", 4, seed=3)
    names = ["Aki", "Bo", "Chi", "Dai"]
    phones = [seated_phone(live, new_phone, seat, name, **SMALL) for seat, name in enumerate(names)]
    screen = new_phone(**SMALL)
    screen.goto(f"{live.url}/table")
    shows_current(screen, table)

    aki, bo = phones[0], phones[1]
    offer = aki.get_by_test_id("first-player-offer")
    expect(offer).to_be_in_viewport()  # on the first screen of a 360x640 phone
    expect(screen.get_by_test_id("first-player-offer")).to_have_count(0)  # the shared screen does not draw

    before = table.version
    offer.locator("summary").click()  # tap 1: only opens the offer, nothing is drawn
    draw = aki.get_by_test_id("first-player-draw")
    expect(draw).to_be_in_viewport()
    expect(offer).to_contain_text("One of the game's 4 seats")
    assert table.version == before and drawn(table) is None

    draw.click()  # tap 2: draws
    assert table.wait(before, 60) > before
    seat = drawn(table)
    assert seat in range(4)
    named = f"🎲 {names[seat]} starts: drawn at random"
    for page in [*phones, screen]:
        shows_current(page, table)
        expect(page.get_by_test_id("first-player")).to_have_text(named)
        expect(page.get_by_test_id("first-player-offer")).to_have_count(0)
    expect(bo.locator(".log-entries").first).to_contain_text(f"{names[seat]} starts (drawn at random among 4 players)")
    expect(phones[seat].get_by_test_id("turn")).to_have_text("Your turn!")

    # The first move: the line goes (the log keeps it), and nobody is offered a draw any more.
    view = table.view(seat)
    table.act(seat, view["actions"][0], view["version"])
    for page in [aki, screen]:
        shows_current(page, table)
        expect(page.get_by_test_id("first-player")).to_have_count(0)
    expect(aki.get_by_test_id("first-player-offer")).to_have_count(0)


def test_a_visitor_without_a_seat_is_not_offered_the_draw(live, new_phone):
    live.table.start_game("swap5", 2, seed=3)
    live.table.join(0, "Aki")
    visitor = new_phone(**SMALL)
    visitor.goto(f"{live.url}/play")
    shows_current(visitor, live.table)
    expect(visitor.locator(".no-seat")).to_be_visible()
    expect(visitor.get_by_test_id("first-player-offer")).to_have_count(0)


def test_a_free_seat_takes_part_so_nobody_waits_for_friends_still_joining(live, new_phone):
    live.table.start_game("swap5", 2, seed=3)
    aki = seated_phone(live, new_phone, 0, "Aki", **SMALL)
    offer = aki.get_by_test_id("first-player-offer")
    expect(offer).to_be_visible()
    offer.locator("summary").click()
    expect(offer).to_contain_text("(a free seat for whoever sits there next)")
