"""The panel driven through its mock pins: screens, menus, presses, holds, repeats, redraws."""

from __future__ import annotations

import random
import time

import pytest
import segno
from panel_helpers import URL, choose, presses, selected, short_press, status_of, status_text

from hardware import commands, screens


def lit_pixels(image) -> int:
    return sum(image.convert("L").histogram()[1:])


def hold(panel, name):
    """Press ``name`` and keep it down until the panel has drawn the answer to the hold."""
    pin = panel.buttons.factory.pin(panel.buttons.config.pins[name])
    before = panel.frame_number
    pin.drive_low()
    panel.wait_frame(before, timeout=5)
    return pin


def test_idle_screen_shows_the_join_link_to_type_and_a_version_2_qr_code(make_panel, table):
    panel = make_panel()
    lines = panel.text_lines()
    code = table.join_code
    assert lines[:4] == ["192.168.", "1.20", ":8000", f"/J/{code}"]  # typed as shown: no code to type twice
    data = f"{URL}J/{code}".upper()
    assert lines[-1] == f"[QR {data}]"
    image = panel.flaky.device.image
    assert image.size == (128, 64) and image.mode == "1"
    qr = segno.make_qr(data, error="l", boost_error=False)
    assert qr.version == 2 and qr.mode == "alphanumeric"
    offset = 3  # 1.5 modules of quiet zone: the code on a lit 56 px square
    for row, modules in enumerate(qr.matrix):  # every module drawn 2 px: dark on a lit square
        for col, dark in enumerate(modules):
            assert image.getpixel((offset + 2 * col, offset + 2 * row)) == (0 if dark else 1)
    assert all(image.getpixel((x, 0)) == 1 for x in range(56))  # the quiet zone is lit


def test_a_32_pixel_display_shows_the_address_and_code_without_a_qr_code(make_panel, table):
    panel = make_panel(size=(128, 32))
    assert panel.text_lines() == ["192.168.1.20", f":8000/J/{table.join_code}"]
    assert panel.flaky.device.image.size == (128, 32)


def test_start_a_game_with_the_buttons_asks_players_and_options(make_panel, table):
    panel = make_panel()
    short_press(panel, "ok")
    assert panel.text_lines()[0] == "Menu"
    choose(panel, "Start a game")
    choose(panel, "Pig House")
    choose(panel, "3 players")
    assert panel.text_lines()[0] == "Wolf cards" and selected(panel) == "virtual"
    choose(panel, "virtual")
    choose(panel, "physical")  # the die
    assert panel.text_lines()[0] == "Start Pig House (tracker) for 3 players?" and selected(panel) == "Yes"
    short_press(panel, "ok")
    assert table.game_id == "pig-house" and table.players == 3
    assert table.public()["game"]["options"]["die"] == "physical"
    assert status_of(panel) == "Pig House (tracker)"


def test_back_leaves_a_menu_and_a_refused_confirmation_changes_nothing(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    before = table.version
    short_press(panel, "ok")
    choose(panel, "Menu…")
    choose(panel, "New game")
    assert panel.text_lines()[0].startswith("The game in progress ends.") and selected(panel) == "No"
    short_press(panel, "back")
    assert table.version == before and panel.text_lines()[0] == "Menu"
    presses(panel, "back")
    assert status_of(panel) == "SWAP 5"


def test_undo_through_the_menu_takes_back_the_last_action(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    seat = table.public()["view"]["to_act"][0]
    table.act(seat, table.view(seat)["actions"][0], table.version)
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Undo last action")
    assert "Take back the last move: Seat 1 moved" in " ".join(panel.text_lines())
    presses(panel, "down", "ok")  # the question starts on "No": down to "Yes"
    assert table.public()["view"]["game_version"] == 0
    assert status_of(panel) == "SWAP 5"


def test_undo_with_nothing_to_undo_says_why(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Undo last action")
    assert "Take back the last action?" in panel.text_lines()  # no move to name
    presses(panel, "down", "ok")
    assert panel.text_lines()[:4] == ["Cannot undo", "there is nothing", "to undo in this", "game"]
    short_press(panel, "ok")
    assert panel.text_lines()[0] == "SWAP 5"  # the game menu


def test_join_code_and_ip_address_from_the_menu(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Menu…")
    choose(panel, "Show join code")
    assert f"/J/{table.join_code}" in panel.text_lines()
    presses(panel, "back")
    choose(panel, "Show IP address")
    assert panel.text_lines() == ["IP address", "IP 192.168.1.20", "http://192.168.1", ".20:8000/"]


def test_holding_ok_opens_the_menu_and_holding_back_goes_home(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    pin = hold(panel, "ok")
    assert panel.text_lines()[0] == "Menu"
    pin.drive_high()
    assert panel.settle()
    assert panel.text_lines()[0] == "Menu"  # the release of a hold is no second press
    choose(panel, "Start a game")
    pin = hold(panel, "back")
    pin.drive_high()
    assert panel.settle()
    assert status_of(panel) == "SWAP 5"


def test_holding_down_repeats_until_released(make_panel, table):
    panel = make_panel()
    presses(panel, "ok")
    choose(panel, "Start a game")
    seen = {selected(panel)}
    pin = panel.buttons.factory.pin(panel.buttons.config.pins["down"])
    pin.drive_low()
    frame = panel.frame_number
    for _ in range(4):  # the first step on the press, then one per repeat
        frame = panel.wait_frame(frame, timeout=5)
        seen.add(selected(panel))
    pin.drive_high()
    assert panel.settle()
    assert len(seen) >= 4
    after = panel.frame_number
    assert panel.wait_frame(after, timeout=0.3) == after  # released: no more steps


def test_left_and_right_work_as_back_and_ok(make_panel):
    panel = make_panel()
    presses(panel, "right")
    assert panel.text_lines()[0] == "Menu"
    presses(panel, "left")
    assert panel.text_lines()[0] == "192.168."


def test_a_press_that_changes_nothing_draws_nothing(make_panel):
    panel = make_panel()
    frame, pushes = panel.frame_number, panel.flaky.pushes
    presses(panel, "up", "down", "back")
    assert (panel.frame_number, panel.flaky.pushes) == (frame, pushes)


def test_frames_are_limited_to_the_frame_rate(make_panel):
    panel = make_panel(frame_seconds=30.0)
    frame = panel.frame_number
    short_press(panel, "right", settle=False)
    assert panel.wait_frame(frame, timeout=0.3) == frame  # drawn only when 30 s have passed
    assert panel.settle()  # a sync draws at once
    assert panel.text_lines()[0] == "Menu"


def test_an_idle_panel_uses_no_cpu(make_panel):
    panel = make_panel()
    started = time.process_time()
    assert panel.wait_frame(panel.frame_number, timeout=0.5) == panel.frame_number
    assert time.process_time() - started < 0.05


def test_screens_change_when_the_table_changes(make_panel, table):
    panel = make_panel()
    image = panel.flaky.device.image.copy()
    table.start_game("meow-oracle", 2, seed=3)
    assert panel.settle()
    assert status_of(panel) == "Meow Oracle"
    assert panel.flaky.device.image.tobytes() != image.tobytes()
    table.join(1, "Hanako")
    assert panel.settle()
    assert "Hanako        0" in status_text(panel)  # under the caption "Wins"


def test_pig_house_roll_shows_a_big_die(make_panel, table):
    table.start_game("pig-house", 2, seed=5)
    seat = table.public()["view"]["to_act"][0]
    table.act(seat, {"type": "pig_action", "kind": "tile"}, table.version)
    panel = make_panel()
    while table.public()["view"]["public"]["step"] != "roll":
        short_press(panel, "ok")
        short_press(panel, "ok")  # the first action of the list
    short_press(panel, "ok")
    choose(panel, "Roll the die")
    die = table.public()["view"]["public"]["die"]
    assert f"[die {die['pigs']}{' pot' if die['pot'] else ''}]" in panel.text_lines()
    image = panel.flaky.device.image
    assert lit_pixels(image.crop((128 - 41, 9, 128, 64))) > 100  # the die face on the right


def test_pig_house_marks_a_lost_pig_and_invincibility_per_player(make_panel, table):
    table.start_game("pig-house", 2, seed=11)
    table.join(0, "Taro")
    table.join(1, "Hanako")
    game = table.public()
    steps = 0
    while game["view"]["public"]["step"] != "attack":  # play on until the wolves attack
        seat = game["view"]["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
        game = table.public()
        steps += 1
        assert steps < 500 and not game["game"]["over"]
    pigs = game["view"]["public"]["pigs"][1]
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Hanako: pig lost")
    presses(panel, "down", "ok")  # it asks first: "Yes"
    assert table.public()["view"]["public"]["pigs"][1] == pigs - 1
    short_press(panel, "ok")
    choose(panel, "Taro: use invincibility")
    presses(panel, "down", "ok")
    assert table.public()["view"]["public"]["invincibility_used"][0] is True


def test_the_scorer_moves_to_round_two_once_all_have_entered(make_panel, table):
    table.start_game("meow-oracle-scorer", 2, seed=1)
    table.act(0, {"type": "start-player", "seat": 0}, table.version)
    table.act(0, {"type": "total", "total": 10}, table.version)
    panel = make_panel()
    assert panel.text_lines()[0] == "Seat 2 is empty"  # the one seat the round waits for
    table.act(1, {"type": "total", "total": 7}, table.version)
    assert panel.settle()
    short_press(panel, "ok")
    choose(panel, "Next round")
    assert table.public()["view"]["public"]["round"] == 2


def test_card_games_offer_no_actions_on_the_panel(make_panel, table):
    table.start_game("lion-square", 3, seed=2)
    panel = make_panel()
    short_press(panel, "ok")
    # Before the first move only the draw of who starts; undo is never first.
    assert panel.text_lines()[1:] == ["> Who starts? Draw", "Menu…", "Undo last action"]


def test_the_end_shows_the_ranking(make_panel, table):
    table.start_game("swap5", 2, seed=4)
    game = table.public()
    while not game["game"]["over"]:
        seat = game["view"]["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)
        game = table.public()
    panel = make_panel()
    lines = status_text(panel)
    result = game["view"]["result"]
    winner = result["winners"][0]
    assert lines[0] == f"Seat {winner + 1} wins"
    assert any(line.startswith(f"★1. Seat {winner + 1}") for line in lines)


def test_japanese_names_render_and_long_names_wrap_whole(make_panel, table):
    table.start_game("meow-oracle", 2, seed=3)
    table.join(0, "やまだたろうさんとはなこ")
    table.join(1, "Bartholomew-Maximilian")
    panel = make_panel(language="ja")
    lines = status_text(panel)
    assert status_of(panel) == "オラクルカード"
    assert lines[1:4] == ["勝ち数", "やまだたろう… 0", "Bartholomew-… 0"]  # cut to a row in the scores...
    assert "やまだたろうさんとはなこの番" in "".join(lines), lines  # ...whole (wrapped) where it is awaited
    assert lit_pixels(panel.flaky.device.image.crop((0, 16, 128, 64))) > 50


@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_no_line_is_wider_than_the_display(size):
    from hardware.fonts import text_width

    long = "Wolf card placed: 12 " * 5
    screen = screens.Screen("menu", long, tuple([long] * 20), selected=15)
    laid = screens.layout(screen, *size)
    assert all(text_width(row.text) <= size[0] and row.y + 8 <= size[1] for row in laid.rows)
    assert any(row.inverted and row.y for row in laid.rows)  # the selected line stays visible


def test_a_tie_broken_by_turn_order_ranks_the_loser_second(make_panel, table):
    """SWAP 5 gives a tie to the player first in turn order: the other is second, not first."""
    table.start_game("swap5", 2, seed=3)
    chooser = random.Random(3)
    while not table.public()["game"]["over"]:
        seat = table.public()["view"]["to_act"][0]
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
    result = table.public()["view"]["result"]
    assert result["tie_broken"], "seed 3 ends in a tie broken by turn order"
    loser = 1 - result["winners"][0]
    lines = status_text(make_panel())
    assert any(line.startswith(f"2. Seat {loser + 1}") for line in lines), lines


def test_ok_chooses_what_the_glass_shows_even_if_the_list_changed_since():
    from hardware.pages import MenuItem, MenuPage

    chosen = []
    listing = [MenuItem("Taro: pig lost", lambda: chosen.append("Taro"))]
    page = MenuPage("Pig House", lambda: list(listing))
    page.screen(None)
    listing.insert(0, MenuItem("Hanako: pig lost", lambda: chosen.append("Hanako")))  # the table moved on
    page.key(None, "ok")
    assert chosen == ["Taro"]


def test_a_panel_action_read_before_the_table_moved_on_is_refused_as_stale(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    panel = make_panel()
    read_at = table.version
    seat = table.view(None)["to_act"][0]
    action = table.view(seat)["actions"][0]
    table.act(seat, action, table.version)  # a phone was quicker
    commands.act(panel, seat, table.view(seat)["actions"][0], read_at)
    assert panel.settle()
    assert "changed since" in " ".join(panel.text_lines())


def test_undo_after_bots_answered_names_the_persons_move_and_takes_back_the_replies_too(make_panel, table):
    table.start_game("swap5", 4, seed=1)
    table.join(0, "Aki")
    for seat in (1, 2, 3):
        table.join(seat, f"Bot {seat + 1} (Normal)", bot="normal")
    before = table.state()
    for seat in (0, 1, 2, 3):  # Aki moves first with this seed; the bots answer
        assert table.public()["view"]["to_act"] == [seat]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Undo last action")
    question = " ".join(panel.text_lines())
    assert "with the bots' 3 replies after it?" in question and "Take back Aki" in question
    presses(panel, "down", "ok")
    assert table.state() == before and [a["undone"] for a in table.action_log()] == [True] * 4
