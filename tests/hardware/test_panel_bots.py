"""The panel's game menu seats a bot on a free seat (seat, then level) and removes one
(asking first, "No" highlighted), through gpiozero's mock pins; the BotSeats object comes
from outside, as ``companion serve`` hands it over. A thinker that answers at once keeps it
quick; the bots are started, so a seated bot really moves."""

from __future__ import annotations

import concurrent.futures
import time

import pytest
from panel_helpers import choose, presses, selected, short_press
from thinkers import FirstAction

from companion.bots.seats import BotSeats
from companion.config import BotsConfig


def test_the_game_menu_seats_a_bot_that_then_moves(make_panel, table, bots):
    table.start_game("swap5", 2, seed=1)
    table.join(1, "Aki")
    panel = make_panel(bots=bots)
    short_press(panel, "ok")
    # the seat the game waits for first (issue 24 point 2), then every bot seat under "Bots…"
    assert panel.text_lines()[:3] == ["SWAP 5", "> Seat 1: add a bot", "Bots…"]
    choose(panel, "Bots…")
    assert panel.text_lines()[1:] == ["> Seat 1: add a bot"]  # Aki's seat is not offered
    short_press(panel, "ok")
    assert panel.text_lines() == ["Bot for seat 1", "Easy", "> Normal", "Strong"]
    choose(panel, "Strong")
    assert bots.levels() == {0: "strong"} and table.names()[0] == "Bot 1 (Strong)"
    assert panel.text_lines()[0] == "Bots"  # back to the bots, for the next seat
    # the bot thinks on a thread of its own: wait on the table's changes, not on the panel
    deadline = time.monotonic() + 30
    version = table.version
    while not any(entry["seat"] == 0 for entry in table.action_log()):
        assert time.monotonic() < deadline, "the bot never moved"
        version = table.wait(version, timeout=deadline - time.monotonic())
    assert panel.settle()  # and the panel redraws after it


def test_removing_a_bot_asks_first_and_no_changes_nothing(make_panel, table, bots):
    table.start_game("meow-oracle", 3, seed=3)
    bots.seat(2, "easy")
    table.join(0, "Aki")
    panel = make_panel(bots=bots)
    presses(panel, "ok", "ok")
    assert panel.text_lines()[1:] == ["> Seat 2: add a bot", "Seat 3: remove bot"]
    choose(panel, "Seat 3: remove bot")
    assert panel.screen.title == "Remove bot" and selected(panel) == "No"
    version = table.version
    short_press(panel, "ok")  # "No"
    assert bots.levels() == {2: "easy"} and table.version == version
    choose(panel, "Seat 3: remove bot")
    presses(panel, "up", "ok")  # "Yes"
    assert bots.levels() == {} and not table.public()["seats"][2]["taken"]
    assert [item.label for item in panel.page.items()] == ["Seat 2: add a bot", "Seat 3: add a bot"]
    assert selected(panel) == "Seat 3: add a bot"


def test_a_seat_taken_meanwhile_is_refused_in_plain_words(make_panel, table, bots):
    table.start_game("swap5", 2, seed=1)
    table.join(1, "Aki")
    panel = make_panel(bots=bots, language="ja")
    presses(panel, "ok", "ok")  # the game menu's first item: the awaited free seat
    assert panel.text_lines()[0] == "1番の席のボット" and selected(panel) == "ふつう"
    table.join(0, "Ben")  # a phone takes the seat while the panel shows the levels
    short_press(panel, "ok")
    assert panel.text_lines()[0] == "座れません" and "Ben" in " ".join(panel.text_lines())
    assert bots.levels() == {}


@pytest.mark.parametrize("game", ["pig-house", "lion-square-ledger"])
def test_no_bots_entry_in_a_tracker(make_panel, table, bots, game):
    table.start_game(game, 3, seed=1)
    panel = make_panel(bots=bots)
    short_press(panel, "ok")
    assert panel.text_lines()[0] != "Menu"  # the game menu
    assert not any("Bots" in line for line in panel.text_lines())


def test_no_bots_entry_on_a_panel_handed_no_bots(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    short_press(panel, "ok")
    assert panel.text_lines() == ["SWAP 5", "> Who starts? Draw", "Menu…", "Undo last action"]


def test_the_composition_root_hands_the_panel_the_tables_bots(pins, table, bots, tmp_path):
    from companion.config import load_config
    from companion.serve import build_panel

    config = load_config(None, {"hardware": "mock", "data_dir": str(tmp_path / "data")})
    panel = build_panel(table, config, "http://10.0.0.2:8000/", "10.0.0.2", None, bots)
    try:
        assert panel.bots is bots
    finally:
        panel.stop()


class CannotChoose(FirstAction):
    def think(self, game_id, view, *, level, budget):
        future = concurrent.futures.Future()
        future.set_exception(ValueError("the view and the game disagree"))
        return future


@pytest.mark.parametrize(("language", "words"), [("en", "cannot move"), ("ja", "手を選べません")])
def test_a_bot_that_cannot_move_says_so_on_the_status_screen(table, tmp_path, language, words):
    from hardware.screens import status_screen

    table.start_game("swap5", 2, seed=1)
    table.join(1, "Aki")
    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=CannotChoose())
    bots.seat(0, "normal")
    bots.start()
    try:
        deadline = time.monotonic() + 10
        while not table.public()["seats"][0]["trouble"]:
            assert time.monotonic() < deadline, "the bot's trouble never reached the table"
            table.wait(table.version, timeout=0.5)
        lines = status_screen(table.public(), language).lines
        # the status screen wraps its words into 16 px rows: read them as one text
        assert words.replace(" ", "") in "".join(lines).replace(" ", ""), lines
    finally:
        bots.stop()


@pytest.mark.parametrize(("language", "name"), [("en", "Bot 1 (strong)"), ("ja", "ボット1(つよい)")])
def test_the_panel_names_a_bot_in_its_language_only(table, language, name):
    from hardware.screens import seat_names

    table.start_game("swap5", 2, seed=1)
    table.join(0, "Bot 1 (Strong)", bot="strong")
    table.join(1, "Aki")
    assert seat_names(table.public(), language) == [name, "Aki"]
