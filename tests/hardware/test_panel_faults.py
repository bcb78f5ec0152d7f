"""The display missing at start or failing mid-game: the panel and the web go on, the log
says so once, and the display comes back; stopping leaves "stopped" on the glass."""

from __future__ import annotations

import logging
import queue
import time

from panel_helpers import BUTTONS, URL, FakeClock, FlakyDisplay, short_press, status_of

from hardware.buttons import Buttons
from hardware.display import Display
from hardware import commands
from hardware.panel import Panel
from web import create_app

DISPLAY_LOG = "hardware.display"


def warnings(caplog):
    return [r.getMessage() for r in caplog.records if r.name == DISPLAY_LOG]


def test_a_display_failing_mid_game_is_logged_once_and_comes_back(make_panel, table, caplog):
    caplog.set_level(logging.INFO, logger=DISPLAY_LOG)
    table.start_game("swap5", 2, seed=1)
    clock = FakeClock()
    panel = make_panel(clock=clock)
    app = create_app(table, panel=panel)
    client = app.test_client()
    panel.flaky.broken = True
    for name in ("ok", "down", "down", "back"):  # four new frames, none reaching the glass
        short_press(panel, name)
    assert panel.display.present is False
    assert len(warnings(caplog)) == 1 and "stopped answering" in warnings(caplog)[0]
    assert client.get("/api/display.txt").status_code == 200  # the web keeps serving
    assert client.get("/api/table").status_code == 200
    assert status_of(panel) == "SWAP 5"
    assert client.get("/api/display.txt").get_data(as_text=True).startswith("Seat 1 is empty")

    panel.flaky.broken = False
    clock.now += 10  # the retry time has passed: the next frame opens the display again
    short_press(panel, "ok")
    assert panel.display.present
    assert warnings(caplog)[1:] == ["the display is back"]
    assert panel.flaky.device.image.tobytes() == panel.frame_image().tobytes()
    app.extensions["companion"].events.stop()


def test_a_display_missing_at_start_is_retried(make_panel, caplog):
    caplog.set_level(logging.INFO, logger=DISPLAY_LOG)
    clock = FakeClock()
    flaky = FlakyDisplay()
    flaky.missing = True
    panel = make_panel(flaky=flaky, clock=clock)
    short_press(panel, "ok")
    clock.now += 10
    short_press(panel, "back")  # retried (still missing): no second warning
    assert warnings(caplog) == ["no display found (DeviceNotFoundError: I2C device not found on address: 0x3C): "
                                "the panel runs without it and retries every 5 s"]
    flaky.missing = False
    clock.now += 10
    short_press(panel, "ok")
    assert panel.display.present and flaky.device.image.tobytes() == panel.frame_image().tobytes()


def test_the_panel_wakes_itself_to_retry_the_display(make_panel):
    flaky = FlakyDisplay()
    flaky.missing = True
    panel = make_panel(flaky=flaky, retry_seconds=0.05)
    flaky.missing = False
    # Nothing else happens: only the panel's own retry timer can open the display and push the
    # frame. Wait for that push itself (the device is present a moment before it is pushed to).
    assert flaky.pushed.wait(5)
    assert panel.display.present
    assert flaky.device.image.tobytes() == panel.frame_image().tobytes()


def test_the_panel_has_its_first_frame_when_start_returns(pins, table, monkeypatch):
    """The web serves /api/display.txt as soon as the panel is started: it must not be empty."""
    public = table.public

    def slow_public():  # a busy Pi: the panel thread reads the table late (the fake's delay, not a wait
        time.sleep(0.3)  # of the test: whatever the load, a start that waits for its frame passes)
        return public()

    monkeypatch.setattr(table, "public", slow_public)
    events = queue.Queue()
    flaky = FlakyDisplay()
    panel = Panel(table, Display(flaky.open), Buttons(BUTTONS, pins, events), events, public_url=URL)
    panel.start()
    try:
        assert "/J/" in " ".join(panel.text_lines())  # the idle screen's join link
    finally:
        panel.stop()


def test_stop_shows_stopped_and_keeps_it_on_the_glass(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    panel.stop()  # how quickly: benchmarks/panel.py
    assert panel.text_lines() == ["Stopped", "Tabletop", "Companion", "Safe to unplug."]
    assert panel.flaky.device.image.tobytes() == panel.frame_image().tobytes()
    assert panel.flaky.device.persist is True  # luma's exit handler will not blank it
    panel.stop()  # twice is harmless


def test_a_table_that_cannot_save_says_so_on_the_panel(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    table._store.problem = "the companion cannot save its data in /var/lib (read-only file system)"
    panel = make_panel()
    assert panel.text_lines()[0] == "CANNOT SAVE"
    seat = table.view(None)["to_act"][0]
    commands.act(panel, seat, table.view(seat)["actions"][0], table.version)  # what a button's action does
    assert panel.settle()
    assert "cannot save" in " ".join(panel.text_lines())


class _Bus:
    """Stands in for luma's i2c interface: counts open bus handles."""

    open = 0

    def __init__(self, port, address):
        _Bus.open += 1

    def cleanup(self):
        _Bus.open -= 1


def test_a_display_that_does_not_answer_leaves_no_bus_open(monkeypatch):
    """Every retry of a missing display opens the I2C bus; each must be closed again, or a
    day of retries runs the service out of file descriptors."""
    import luma.core.interface.serial as serial
    import luma.oled.device as oled
    from luma.core.error import DeviceNotFoundError

    from companion.config import DisplayConfig
    from hardware.display import Display, device_factory

    def absent(interface, **size):
        raise DeviceNotFoundError("I2C device not found on address: 0x3C")

    monkeypatch.setattr(serial, "i2c", _Bus)
    monkeypatch.setattr(oled, "ssd1306", absent)
    clock = FakeClock()
    display = Display(device_factory(DisplayConfig(), mock=False), clock=clock)
    for _ in range(20):
        clock.now += 10
        assert display.show(None) is False
    assert _Bus.open == 0


def test_a_display_that_stops_answering_is_closed(make_panel):
    panel = make_panel()
    dead = panel.flaky.device
    closed = []
    dead.cleanup = lambda: closed.append(dead.persist)
    panel.flaky.broken = True
    short_press(panel, "ok")  # opens the menu: a new frame, which the display fails to take
    assert closed == [True], "closed once, without the switch-off commands it cannot receive"


def test_a_home_screen_that_cannot_be_drawn_shows_an_error_and_the_panel_lives_on(make_panel, table, monkeypatch):
    import hardware.pages as pages_module

    table.start_game("swap5", 2, seed=1)
    panel = make_panel()

    def broken(*args, **kwargs):
        raise KeyError("a status screen bug")

    monkeypatch.setattr(pages_module, "status_screen", broken)
    short_press(panel, "down")
    assert panel.text_lines() == ["Screen error", "(see the log)"]
    monkeypatch.undo()
    short_press(panel, "down")  # the thread still answers the buttons
    assert status_of(panel) == "SWAP 5"


def test_a_screen_that_cannot_be_drawn_shows_an_error_and_the_panel_lives_on(make_panel, table, monkeypatch):
    """Rendering failing (as Pillow's layout did on U+2029) must not end the panel thread
    nor leave an old frame on the glass."""
    import hardware.panel as panel_module

    table.start_game("swap5", 2, seed=1)
    panel = make_panel()
    real_render = panel_module.render

    def failing(screen, width, height):
        if screen.kind == "menu":
            raise RuntimeError("raqm_layout() failed.")
        return real_render(screen, width, height)

    monkeypatch.setattr(panel_module, "render", failing)
    short_press(panel, "ok")  # opens the menu, which cannot be drawn
    assert panel.text_lines() == ["Screen error", "(see the log)"]
    assert panel.flaky.device.image.tobytes() == panel.frame_image().tobytes()
    short_press(panel, "back")  # the thread still answers the buttons
    assert status_of(panel) == "SWAP 5"
