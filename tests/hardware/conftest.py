"""Fixtures of the panel tests: a table on a temporary directory, gpiozero mock pins, luma's
dummy display (one that can be made to fail), and a started panel wired to all three.

(No ``__init__.py`` here on purpose: as a package this folder would be named ``hardware``
and hide the real ``hardware`` package from the tests.)
"""

from __future__ import annotations

import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from panel_helpers import BUTTONS, URL, FlakyDisplay
from thinkers import FirstAction

from companion.bots.seats import BotSeats
from companion.config import BotsConfig
from companion.table import Table
from hardware.buttons import Buttons
from hardware.display import Display
from hardware.panel import Panel


@pytest.fixture
def pins():
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = None


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path / "data")
    yield table
    table.close()


@pytest.fixture
def make_panel(pins, table):
    """``make_panel(**options)`` -> a started panel; stopped at the end of the test."""
    made = []

    def make(size=(128, 64), frame_seconds=0.0, language="en", flaky=None, clock=None, buttons=BUTTONS,
             retry_seconds=5.0, bots=None, turn_clock=None, used_before=None):
        events = queue.Queue()
        flaky = flaky or FlakyDisplay(*size)
        display = Display(flaky.open, retry_seconds=retry_seconds, **({"clock": clock} if clock else {}))
        panel = Panel(table, display, Buttons(buttons, pins, events), events, size=size, public_url=URL,
                      lan_address="192.168.1.20", language=language, hold_seconds=buttons.hold_seconds,
                      repeat_seconds=buttons.repeat_seconds, frame_seconds=frame_seconds, bots=bots,
                      turn_clock=turn_clock, used_before=used_before)
        panel.flaky = flaky
        panel.start()
        assert panel.settle()
        made.append(panel)
        return panel

    yield make
    for panel in made:
        panel.stop()


@pytest.fixture
def bots(table, tmp_path):
    """Started bot seats whose thinker answers at once, as ``companion serve`` hands them over."""
    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=FirstAction())
    bots.start()
    yield bots
    bots.stop()
