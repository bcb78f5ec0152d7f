"""The turn clock on the panel, by its buttons alone (issue 36, point 1): the status screen
shows the turn's time; ``up`` pauses it with one press and resumes it with another; past the
target the clock's row turns inverted with its own symbol and words; the undo question stops
it while it is asked. Time comes from a fake clock."""

from __future__ import annotations

import pytest
from panel_helpers import FakeClock, choose, presses

from companion.clock import TurnClock
from hardware.screens import layout


@pytest.fixture
def time():
    return FakeClock()


@pytest.fixture
def timed_panel(table, make_panel, time):
    """SWAP 5 for Aki and Ben, Aki's turn being timed, on a panel with the turn clock."""
    table.start_game("swap5", 2, seed=42)
    table.join(0, "Aki")
    table.join(1, "Ben")
    clock = TurnClock(table, clock=time)
    panel = make_panel(turn_clock=clock)
    waited = table.view(None)["waiting_for"][0]
    return panel, clock, ["Aki", "Ben"][waited]


def clock_row(panel) -> str:
    return panel.text_lines()[1]


def test_the_status_screen_shows_the_turns_time_and_up_pauses_and_resumes_it(timed_panel, time):
    panel, clock, name = timed_panel
    time.now += 12.4
    assert panel.settle()
    assert clock_row(panel) == f"⏱ {name} 0:12"
    presses(panel, "up")  # one press
    assert clock.view()["paused"] and clock_row(panel) == f"⏸ {name} 0:12"
    assert panel.text_lines()[2] == "Paused (up)"
    time.now += 60
    assert panel.settle() and clock_row(panel) == f"⏸ {name} 0:12"
    presses(panel, "up")  # one press again
    time.now += 3
    assert panel.settle() and not clock.view()["paused"] and clock_row(panel) == f"⏱ {name} 0:15"


def test_a_phones_pause_shows_on_the_panel_at_once(timed_panel):
    panel, clock, name = timed_panel
    clock.pause()  # as a phone's tap does
    assert panel.settle() and clock_row(panel).startswith("⏸")


def test_past_the_target_the_clock_row_is_inverted_with_its_own_symbol(timed_panel, time):
    panel, clock, name = timed_panel
    clock.set_target(30)
    time.now += 29
    assert panel.settle()
    assert clock_row(panel) == f"⏱ {name} 0:29"
    assert not layout(panel.screen, 128, 64).rows[1].inverted
    time.now += 2
    assert panel.settle()
    assert clock_row(panel).startswith(f"⌛ {name} 0:31")
    assert "over the target" in " ".join(panel.text_lines())
    assert layout(panel.screen, 128, 64).rows[1].inverted  # the OLED's other colour
    image = panel.frame_image()
    lit = sum(image.getpixel((x, 17)) > 0 for x in range(128))
    assert lit > 100, "the row is drawn lit, its text dark"


def test_the_undo_question_stops_the_clock_while_it_is_asked(table, timed_panel, time):
    panel, clock, name = timed_panel
    view = table.view(table.view(None)["waiting_for"][0])
    table.act(view["seat"], view["actions"][0], view["version"])
    presses(panel, "ok")  # the game menu
    choose(panel, "Undo last action")
    assert panel.text_lines()[0].startswith("Take back the last move")
    assert clock.view()["why"] == "question"
    time.now += 100
    presses(panel, "back")  # "No"
    assert clock.view()["running"] and clock.view()["why"] is None
    waited = [seat for seat in clock.view()["seats"] if seat["turn"] is not None]
    assert [seat["turn"] for seat in waited] == [0.0], "the question's time is nobody's"


def test_without_a_game_up_does_nothing_to_the_clock(table, make_panel, time):
    clock = TurnClock(table, clock=time)
    panel = make_panel(turn_clock=clock)
    version = table.version
    presses(panel, "up")
    assert table.version == version and not clock.view()["paused"]
