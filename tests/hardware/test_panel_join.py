"""Issue 24 on the panel: the join QR code (and the Wi-Fi one on the companion's own network)
one press from every status screen (point 5); a free seat the game waits for is called empty,
with what to do one or two presses away (point 2); SWAP 5's colours carry their letters and
names (point 9)."""

from __future__ import annotations

import queue
import re

import pytest
from panel_helpers import URL, presses, selected, short_press, status_of, status_text

from companion import games
from companion.network import AP_ADDRESS, Mode, NetworkState, NetworkStatus, wifi_qr_payload
from hardware.display import Display
from hardware.pages import HomePage, join_screen
from hardware.panel import Panel

ON_AIR = NetworkState(Mode.ACCESS_POINT, "Games Night", "secret-word-1", AP_ADDRESS)


# ------------------------------------------------------------------ point 5: the QR one press away


@pytest.mark.parametrize("game_id", games.ids())
def test_back_on_every_status_screen_shows_the_join_qr_and_back_returns(make_panel, table, game_id):
    players = games.get(game_id).player_counts[0]
    table.start_game(game_id, players, seed=1)
    panel = make_panel()
    for scrolled in (0, 1):
        presses(panel, *["down"] * scrolled)
        assert status_of(panel) is not None
        short_press(panel, "back")  # one press
        assert panel.text_lines()[-1] == f"[QR {URL.upper()}J/{table.join_code}]"
        assert f"/J/{table.join_code}" in panel.text_lines()  # the join link to type, beside the code
        short_press(panel, "back")
        assert status_of(panel) is not None


def test_the_game_over_screen_shows_the_join_qr_too(make_panel, table):
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat in range(3):
        table.act(seat, {"type": "loss", "loss": 20}, table.version)
    assert table.public()["game"]["over"]
    panel = make_panel()
    short_press(panel, "back")
    assert panel.text_lines()[-1].startswith("[QR ")


@pytest.fixture
def on_air_panel(table):
    """A panel (no thread: screens and keys driven directly) on the companion's own Wi-Fi."""
    panel = Panel(table, Display(None), None, queue.Queue(), public_url=URL, network=NetworkStatus(80, ON_AIR))
    return panel


def test_on_its_own_wifi_the_join_page_takes_turns_with_the_wifi_code_and_up_down_switch(on_air_panel, table):
    """Three turns: the Wi-Fi's QR code, its name and password in words (too long to stand
    beside a code in 16 px text), the join QR code."""
    panel = on_air_panel
    table.start_game("swap5", 2, seed=1)
    panel.public = table.public()
    home = panel.pages[0]
    home.key(panel, "back")  # one press from the status screen
    join = panel.page
    wifi, link = wifi_qr_payload("Games Night", "secret-word-1"), f"HTTP://{AP_ADDRESS}/J/{table.join_code}"
    turns = [join_screen(panel, now=seconds) for seconds in (0, 8, 16, 24)]
    assert [screen.qr for screen in turns] == [wifi, None, link, wifi]
    assert turns[1].lines == ("Games Night", "Password:", "secret-word-1")
    assert join.changes_in(panel) is not None  # the panel wakes to switch them
    assert join.screen(panel).qr == wifi  # the first step first
    assert 0 < panel.wakes_in <= 8
    join.key(panel, "down")
    assert join.screen(panel).lines == turns[1].lines and join.changes_in(panel) is None
    join.key(panel, "down")
    assert join.screen(panel).qr == link
    join.key(panel, "up")
    join.key(panel, "up")
    assert join.screen(panel).qr == wifi
    join.key(panel, "back")
    assert isinstance(panel.page, HomePage)


# ------------------------------------------------------------------ point 2: the empty seat


def test_an_awaited_free_seat_is_called_empty_with_what_to_do(make_panel, table, bots):
    table.start_game("lion-square", 4, seed=1)
    for seat, name in enumerate(["Aki", "Ben", "Cy"]):
        table.join(seat, name)
    while table.public()["view"]["to_act"] != [3]:  # play on until seat 4 alone is awaited
        seat = table.public()["view"]["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    panel = make_panel(bots=bots)
    assert panel.text_lines()[0] == "Seat 4 is empty"
    assert "Share the join code (back) or add a bot (ok)" == " ".join(status_text(panel)[1:4])
    presses(panel, "ok")  # the game menu: seat 4's bot first
    assert selected(panel) == "Seat 4: add a bot"
    presses(panel, "ok")  # two presses: the bot's level, "Normal" highlighted
    assert selected(panel) == "Normal"
    presses(panel, "ok")
    assert bots.levels() == {3: "normal"} and status_of(panel) is not None  # home again


def test_a_free_seat_among_several_awaited_is_named(make_panel, table):
    table.start_game("meow-oracle-scorer", 3, seed=1)
    table.join(0, "Aki")
    table.join(1, "Ben")
    table.act(0, {"type": "start-player", "seat": 0}, table.version)
    panel = make_panel()  # no bots for a tracker: the join code is what to do
    text = " ".join(status_text(panel))
    assert panel.screen.headline == "Waiting for 3"  # "Waiting: Aki, Ben, Seat 3" goes below
    assert "Waiting: Aki, Ben, Seat 3" in text
    assert "Empty seat: Seat 3. Share the join code (back)" in text and "bot" not in text


def test_in_the_pig_house_tracker_the_panel_plays_free_seats_so_they_are_not_called_empty(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    panel = make_panel()
    assert panel.screen.headline == "Seat 1's turn"
    assert "empty" not in " ".join(status_text(panel)).lower()


def test_the_empty_seat_in_japanese(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    table.join(1, "アキ")
    panel = make_panel(language="ja")
    assert panel.screen.headline == "席1は空席"
    assert "参加コード(戻る)を見せてください" in "".join(status_text(panel))


def test_the_empty_seat_with_bots_in_japanese(make_panel, table, bots):
    table.start_game("swap5", 2, seed=1)
    table.join(1, "アキ")
    text = "".join(status_text(make_panel(language="ja", bots=bots)))
    assert "参加コード(戻る)を見せるか、ボットを入れる(決定)" in text
    assert not re.search(r"[A-Za-z]{2,}", text), text  # the button names in Japanese too


# ------------------------------------------------------------------ point 9: colour never alone


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Points", "Aki 0", "Ben 0", "Aki: R red, Y yellow", "Ben: G green, B blue"]),
    ("ja", ["得点", "Aki 0", "Ben 0", "Aki: R赤、Y黄", "Ben: G緑、B青"]),
])
def test_swap5_names_each_players_colours_by_letter_and_word(make_panel, table, language, expected):
    table.start_game("swap5", 2, seed=1)
    table.join(0, "Aki")
    table.join(1, "Ben")
    panel = make_panel(language=language)
    text = "".join(status_text(panel)) if language == "ja" else " ".join(status_text(panel))
    for line in expected:  # wrapped over 16 px rows: a space may fall at a row's end
        assert " ".join(line.split()) in " ".join(text.split())
