"""Helpers of the panel tests: the mock pins pressed like a finger, a display that can fail,
a clock moved by hand, and menu navigation by what the screen shows."""

from __future__ import annotations

import threading

from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

from companion.config import ButtonsConfig

URL = "http://192.168.1.20:8000/"
BUTTONS = ButtonsConfig(pins={"up": 17, "down": 27, "ok": 22, "back": 23, "left": 5, "right": 6},
                        hold_seconds=0.1, repeat_seconds=0.05, bounce_seconds=0)


class FakeClock:
    """A monotonic clock the test moves by hand (for the display's retry timer)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FlakyDisplay:
    """Opens luma ``dummy`` devices whose writes fail while ``broken`` (an unplugged wire),
    and which cannot be opened while ``missing``."""

    def __init__(self, width=128, height=64):
        self.width, self.height = width, height
        self.broken = False
        self.missing = False
        self.device = None
        self.pushes = 0
        self.pushed = threading.Event()  # set once a frame has reached the (dummy) glass

    def open(self):
        if self.missing:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        flaky = self

        class Device(dummy):
            def display(self, image):
                if flaky.broken:
                    raise OSError(121, "Remote I/O error")
                super().display(image)
                flaky.pushes += 1
                flaky.pushed.set()

        self.device = Device(width=self.width, height=self.height, mode="1")
        return self.device


def short_press(panel, name, settle=True):
    pin = panel.buttons.factory.pin(panel.buttons.config.pins[name])
    pin.drive_low()
    pin.drive_high()
    if settle:
        assert panel.settle()


def presses(panel, *names):
    for name in names:
        short_press(panel, name)


def selected(panel) -> str:
    """The highlighted menu line."""
    chosen = [line[2:] for line in panel.text_lines() if line.startswith("> ")]
    assert len(chosen) == 1, panel.text_lines()
    return chosen[0]


def choose(panel, label: str, limit: int = 60):
    """Move down to the menu line starting with ``label`` and press ok."""
    for _ in range(limit):
        if selected(panel).startswith(label):
            short_press(panel, "ok")
            return
        short_press(panel, "down")
    raise AssertionError(f"no menu line {label!r} in {panel.text_lines()}")


def status_of(panel) -> str | None:
    """The game whose status screen the panel shows (status screens have no title bar: the
    game's title stays in the screen's data), or None on any other screen."""
    return panel.screen.title if panel.screen.kind == "status" else None


def status_text(panel) -> list[str]:
    """Every line of the status screen shown, the headline first: what paging shows."""
    return [panel.screen.headline or "", *panel.screen.lines]

