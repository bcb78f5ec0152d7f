"""Seats and hosting on the phones, in real Chromium (issue 24, points 2 and 3): a free seat
the game waits for is said on every phone and on the table screen, with what to do and the
host's bot buttons one tap away; a hand-over gives the new host a notice, the host tools and,
at the game's end, "Play again", all without a reload.

Every wait is on an event or on the page's state, never a sleep.
"""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing
from companion.bots.seats import WorkerThinker

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402
from test_bots_browser import serving  # noqa: E402


def shows_version(page, table) -> None:
    expect(page.locator("#game")).to_have_attribute("data-version", str(table.version))


def test_an_empty_seat_is_said_everywhere_and_the_host_seats_a_bot_in_one_tap(tmp_path, browser, new_phone):
    thinker = WorkerThinker()
    with serving(tmp_path / "data", thinker) as (url, table, bots):
        host_token = table.start_game("lion-square", 4, seed=3, claim_host=True)
        host = new_phone()
        host.goto(f"{url}/R/{host_token}")  # the host without a seat first, then seated
        host_seat = table.join(0, "Aki")
        host.goto(f"{url}/R/{host_seat}")
        table.hand_over_host(0)
        player = new_phone()
        player.goto(f"{url}/R/{table.join(1, 'Ben')}")
        table.join(2, "Chika")
        screen = new_phone(viewport={"width": 1280, "height": 800}, is_mobile=False, has_touch=False)
        screen.goto(f"{url}/table")
        for page in (player, screen):
            shows_version(page, table)
            notice = page.get_by_test_id("empty-seats")
            expect(notice).to_have_text(f"○ Seat 4 is free · join code {table.join_code}, or the host adds a bot")
        shows_version(host, table)
        expect(host.get_by_test_id("empty-seats")).to_contain_text(f"Seat 4 is free · join code {table.join_code}")
        expect(host.get_by_test_id("empty-bot-normal")).to_be_hidden()  # one deliberate step away...
        host.get_by_test_id("add-bot").get_by_text("Add a bot…").click()
        expect(host.get_by_test_id("empty-bot-normal")).to_be_visible()
        box = host.get_by_test_id("empty-bot-normal").bounding_box()
        assert box["y"] + box["height"] <= 844, "the host's bot button is not on the first screen"
        expect(player.get_by_test_id("add-bot")).to_have_count(0)
        expect(screen.get_by_test_id("add-bot")).to_have_count(0)

        host.get_by_test_id("empty-bot-normal").click()  # ...the second tap seats it
        for page in (host, player, screen):
            expect(page.get_by_test_id("empty-seats")).to_have_count(0)
        assert table.names()[3].startswith("Bot")
    thinker.close()


def test_an_empty_seat_in_japanese_and_in_a_game_without_bots(live, new_phone):
    live.table.start_game("pig-house", 3, seed=1)
    page = new_phone(locale="ja-JP")
    page.goto(f"{live.url}/R/{live.table.join(1, 'Ben')}?lang=ja")
    page.goto(f"{live.url}/play?lang=ja")
    shows_version(page, live.table)
    expect(page.get_by_test_id("empty-seats")).to_have_text(f"○ 1番席が空席・参加コード {live.table.join_code}")
    expect(page.get_by_test_id("empty-bot-normal")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_hosts_first_screen_at_360x640_keeps_the_hand_and_the_prompt_while_friends_join(tmp_path, browser,
                                                                                            new_phone, language):
    """Issue 33 point 4: the host seated, three seats still free while friends type their
    names. The free seats take one compact line with the join code, adding a bot is behind
    "Add a bot…" (no main button), and the prompt and the hand are on the first screen."""
    thinker = WorkerThinker()
    with serving(tmp_path / "data", thinker) as (url, table, bots):
        host_token = table.start_game("lion-square", 4, seed=3, claim_host=True)
        page = new_phone(viewport={"width": 360, "height": 640}, locale="ja-JP" if language == "ja" else "en-US")
        page.goto(f"{url}/R/{host_token}?lang={language}")
        page.goto(f"{url}/R/{table.join(0, 'Aki')}?lang={language}")
        table.hand_over_host(0)
        page.goto(f"{url}/play?lang={language}")
        shows_version(page, table)
        assert table.public()["view"]["waiting_for"] == [0, 1, 2, 3]  # everyone passes a card
        notice = page.get_by_test_id("empty-seats")
        seats = "Seats 2, 3, 4 are free" if language == "en" else "2、3、4番席が空席"
        expect(notice).to_contain_text(seats)
        expect(notice).to_contain_text(table.join_code)
        expect(page.get_by_test_id("empty-bot-normal")).to_have_count(3)
        expect(page.get_by_test_id("empty-bot-normal").first).to_be_hidden()
        assert notice.locator(".big").count() == 0, "a bot button styled as the main button"
        # one line with the code, and "Add a bot…" (with a 360 px phone's longest words: two)
        assert notice.bounding_box()["height"] <= 56, "the free seats take more than a compact line"
        turn, hand = page.get_by_test_id("turn"), page.locator(".ls-hand .hand")
        expect(turn).to_be_visible()
        expect(hand).to_be_visible()
        assert page.evaluate("window.scrollY") == 0
        for part in (turn, hand):
            box = part.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 640, (part, box)
    thinker.close()


def test_a_hand_over_gives_the_new_host_a_notice_the_tools_and_play_again_without_a_reload(live, new_phone):
    table = live.table
    host_token = table.start_game("swap5", 2, seed=4, claim_host=True)
    old_host = new_phone()
    old_host.goto(f"{live.url}/R/{host_token}")
    old_host.goto(f"{live.url}/R/{table.join(0, 'Aki')}")
    table.hand_over_host(0)  # hosting follows Aki's seat token
    ben = new_phone()
    ben.goto(f"{live.url}/R/{table.join(1, 'Ben')}")
    shows_version(ben, table)
    expect(ben.locator("#host-link")).to_be_hidden()

    old_host.goto(f"{live.url}/host")
    old_host.once("dialog", lambda dialog: dialog.accept())
    old_host.locator("#seats li").nth(1).get_by_role("button", name="Make host").click()
    shows_version(ben, table)
    expect(ben.locator("#status")).to_have_text("You are the host now: the host tools are at the bottom of the page.")
    expect(ben.locator("#host-link")).to_be_visible()

    # Play to the end by the table; Ben's phone offers "Play again" without a reload.
    import random

    choose = random.Random(1)
    while not table.public()["game"]["over"]:
        seat = table.view(None)["to_act"][0]
        table.act(seat, choose.choice(table.view(seat)["actions"]), table.version)
    shows_version(ben, table)
    ben.get_by_test_id("rematch").click()
    expect(ben.locator("#status")).to_contain_text("A new game has started")
    assert not table.public()["game"]["over"]


@pytest.mark.parametrize("size", [(360, 640), (390, 844), (412, 915)])
def test_the_first_scan_of_an_idle_table_leads_with_start_a_game_on_the_first_screen(live, new_phone, size):
    width, height = size
    first = new_phone(viewport={"width": width, "height": height})
    first.goto(f"{live.url}/J/{live.table.join_code.lower()}")  # the panel's QR code
    first.wait_for_url(f"{live.url}/")
    start = first.get_by_test_id("start")
    expect(start).to_be_visible()
    heading = first.get_by_role("heading", name="Start a game").bounding_box()
    assert heading["y"] < first.locator(".join-qr").bounding_box()["y"], "Start a game is not first"
    assert start.bounding_box()["y"] + start.bounding_box()["height"] <= height, "the start button is below the first screen"
    first.select_option("#start-game", "swap5")
    start.click()
    first.wait_for_url(f"**/J/{live.table.join_code}")
    assert live.table.has_host and live.table.game_id == "swap5"

    # The second phone types the code read off the table screen, in lower case.
    second = new_phone(viewport={"width": width, "height": height})
    second.goto(live.url)
    second.fill("#code", live.table.join_code.lower())
    second.locator(".code-form button").click()
    second.wait_for_url(f"**/J/{live.table.join_code}")
    expect(second.get_by_test_id("sit-1")).to_be_visible()
