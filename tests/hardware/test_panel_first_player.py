"""Who starts, by the panel's buttons alone: "Who starts? Draw" in the game menu draws one of
the game's seats with one press (a free seat for whoever sits there next); the status screen names them until the first move, whoever
drew (a phone too); the presses are those docs/panel.md lists."""

from __future__ import annotations

import pytest
from panel_helpers import selected, short_press, status_text
from test_panel_presses import Counter, record

from companion.first_player import draw_first_player, drawn
from hardware.words import word

NAMES = ["Aki", "Ben", "Cy", "Dee"]


def seated(table, game_id="swap5", players=4):
    table.start_game(game_id, players, seed=3)
    for seat, name in enumerate(NAMES[:players]):
        table.join(seat, name)


def test_ok_ok_draws_who_starts_and_the_status_screen_names_them(make_panel, table):
    seated(table)
    panel = make_panel()
    version = table.version
    counter = Counter(panel)
    counter.press("ok")
    assert selected(panel) == "Who starts? Draw"  # first in the menu of a card game
    counter.press("ok")
    assert table.version == version + 1
    seat = drawn(table)
    assert seat in range(4)
    record("Who starts? Draw (a card game, before the first move)", counter)
    lines = status_text(panel)
    assert lines[0] == f"{NAMES[seat]}'s turn"  # SWAP 5: the drawn player takes the first turn
    assert " ".join(lines[1:3]) == f"Drawn: {NAMES[seat]} starts"  # first under the headline, in two rows
    short_press(panel, "ok")
    assert "Who starts? Draw" not in [item.label for item in panel.page.items()]  # once per game


def test_in_a_tracker_the_draw_follows_its_actions(make_panel, table):
    seated(table, "meow-oracle-scorer", 3)
    panel = make_panel()
    counter = Counter(panel)
    counter.press("ok")
    counter.to("Who starts? Draw")
    seat = drawn(table)
    assert seat in range(3)
    assert table.public()["view"]["public"]["step"] == "entering"  # nobody has to name the start player
    assert table.public()["view"]["public"]["start_player"] == seat
    record("Who starts? Draw (a tracker, before the first move)", counter)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_draw_from_a_phone_shows_until_the_first_move(make_panel, table, language):
    seated(table, "swap5", 2)
    panel = make_panel(language=language)
    draw_first_player(table, randbelow=lambda n: 1)
    assert panel.settle()
    shown = word("drawn_starts", language, name="Ben")
    assert shown in " ".join(status_text(panel))
    view = table.view(1)
    table.act(1, view["actions"][0], view["version"])
    assert panel.settle()
    assert shown not in " ".join(status_text(panel))


def test_free_seats_take_part_and_a_move_made_offers_no_draw(make_panel, table):
    """A group on the panel alone draws before seating its bots: no bot moves before the draw."""
    table.start_game("swap5", 2, seed=3)
    panel = make_panel()
    short_press(panel, "ok")
    assert "Who starts? Draw" in [item.label for item in panel.page.items()]
    short_press(panel, "back")
    table.join(0, "Aki")
    table.join(1, "Ben")
    view = table.view(0)
    table.act(0, view["actions"][0], view["version"])
    assert panel.settle()
    short_press(panel, "ok")
    assert "Who starts? Draw" not in [item.label for item in panel.page.items()]
