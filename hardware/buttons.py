"""The buttons, read through gpiozero: every edge becomes an event on a queue.

gpiozero calls ``when_pressed``/``when_held``/``when_released`` from its own threads; a
slow callback there would lose presses. So the callbacks only put a :class:`ButtonEvent`
on the panel's queue, and the one panel thread turns them into short presses, long
presses and auto-repeat (see ``hardware/panel.py``).

The pin factory is chosen explicitly (never gpiozero's guess, so a missing library fails
loudly at start): ``lgpio`` (every Pi, the only one that works on a Pi 5), ``rpigpio``
(RPi.GPIO or its rpi-lgpio stand-in on older boards), or gpiozero's ``MockFactory`` in mock
mode, whose pins tests and ``POST /api/buttons/<name>`` drive like a finger would.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig


@dataclass(frozen=True)
class ButtonEvent:
    """An edge of one button: ``edge`` is ``"pressed"``, ``"held"`` or ``"released"``."""

    button: str
    edge: str


def pin_factory(kind: str, mock: bool):
    """The gpiozero pin factory: MockFactory in mock mode, else the one ``kind`` names."""
    if mock:
        return MockFactory()
    if kind == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if kind == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    raise ValueError(f"unknown pin factory {kind!r} (use 'lgpio' or 'rpigpio')")


class Buttons:
    """The configured buttons on ``factory``'s pins, feeding ``events``."""

    def __init__(self, config: ButtonsConfig, factory, events: queue.Queue):
        self.config = config
        self.factory = factory
        self.is_mock = isinstance(factory, MockFactory)
        self._events = events
        self._held = {name: threading.Event() for name in config.pins}
        self.buttons: dict[str, Button] = {}
        try:
            for name, pin in config.pins.items():
                self.buttons[name] = self._make(name, pin)
        except BaseException:
            self.close()
            raise

    def _make(self, name: str, pin: int) -> Button:
        button = Button(
            pin,
            pull_up=self.config.pull_up,
            bounce_time=self.config.bounce_seconds or None,
            hold_time=self.config.hold_seconds,
            pin_factory=self.factory,
        )
        held = self._held[name]

        def pressed():
            held.clear()
            self._events.put(ButtonEvent(name, "pressed"))

        def on_held():
            held.set()
            self._events.put(ButtonEvent(name, "held"))

        button.when_pressed = pressed
        button.when_held = on_held
        button.when_released = lambda: self._events.put(ButtonEvent(name, "released"))
        return button

    @property
    def names(self) -> list[str]:
        return list(self.buttons)

    def is_pressed(self, name: str) -> bool:
        return self.buttons[name].is_pressed

    def press(self, name: str, kind: str = "short") -> None:
        """Press a button through its mock pin, like a finger: ``short``, or ``long`` (held
        until gpiozero reports the hold, then released). Mock mode only."""
        if not self.is_mock:
            raise PermissionError("buttons can be pressed from software only in mock mode")
        if name not in self.buttons:
            raise KeyError(f"there is no {name!r} button (buttons: {', '.join(self.buttons)})")
        if kind not in ("short", "long"):
            raise ValueError(f"a press is 'short' or 'long' (got {kind!r})")
        pin = self.factory.pin(self.config.pins[name])
        down, up = (pin.drive_low, pin.drive_high) if self.config.pull_up else (pin.drive_high, pin.drive_low)
        down()
        if kind == "long":
            self._held[name].wait(self.config.hold_seconds + 2.0)
        up()

    def close(self) -> None:
        # gpiozero ends a button's hold thread at that thread's next 0.1 s poll: closing the
        # buttons together rather than one after another makes a stop quicker by up to 0.1 s
        # a button.
        closing = [threading.Thread(target=button.close, name="button close") for button in self.buttons.values()]
        for thread in closing:
            thread.start()
        for thread in closing:
            thread.join()
        self.buttons.clear()
