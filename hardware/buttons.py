"""The buttons, read through gpiozero: every edge becomes an event on a queue.

gpiozero calls ``when_pressed``/``when_held``/``when_released`` from its own threads; a
slow callback there would lose presses. So the callbacks only put a :class:`ButtonEvent`
on the panel's queue, and the one panel thread turns them into short presses, long
presses and auto-repeat (see ``hardware/panel.py``).

The pin factory is chosen explicitly (never gpiozero's guess, which would hide a missing
library behind another): ``lgpio`` (every Pi, the only one that works on a Pi 5), ``rpigpio``
(RPi.GPIO or its rpi-lgpio stand-in on older boards), or gpiozero's ``MockFactory`` in mock
mode, whose pins tests and ``POST /api/buttons/<name>`` drive like a finger would.

Buttons that cannot be opened (no GPIO library, ``/dev/gpiochip0`` that only root may open, a
pin another program holds) never stop the companion: :func:`open_buttons` logs why and
returns a :class:`ButtonsProblem` instead, which the panel, the pages and ``companion doctor``
show; the phones play on.
"""

from __future__ import annotations

import glob
import logging
import os
import queue
import threading
from dataclasses import dataclass

from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from companion.config import ButtonsConfig

log = logging.getLogger(__name__)

GPIO_CHIPS = "/dev/gpiochip*"
"""The GPIO character devices lgpio opens (gpiozero's other factories reach the same chips)."""


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


@dataclass(frozen=True)
class ButtonsProblem:
    """Why the buttons are missing: ``why_en`` and ``why_ja`` in plain words, ``fix`` for the
    doctor and the log, ``detail`` the library's own message; ``chip`` the GPIO device this
    process may not open, when that is why."""

    why_en: str
    why_ja: str
    fix: str
    detail: str
    chip: str | None = None

    @property
    def en(self) -> str:
        """The sentence the panel's pages show."""
        return f"The buttons do not work: {self.why_en}. Play on the phones; `companion doctor` says how to fix it."

    @property
    def ja(self) -> str:
        return f"ボタンが使えません: {self.why_ja}。スマートフォンで遊べます。直し方は companion doctor で確かめられます。"


def buttons_problem(error: BaseException, kind: str) -> ButtonsProblem:
    """What to say when opening the buttons raised ``error`` (``kind``: the pin factory)."""
    detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    found = sorted(glob.glob(GPIO_CHIPS))
    closed = [chip for chip in found if not os.access(chip, os.R_OK | os.W_OK)]
    if isinstance(error, ImportError):
        return ButtonsProblem(
            f"the GPIO library ({kind}) is not installed", f"GPIOライブラリ（{kind}）が入っていません",
            "run the installer again (sudo tabletop-companion/systemd/install.sh): on a Raspberry Pi it installs "
            "the GPIO libraries (lgpio, RPi.GPIO) into /opt/tabletop-companion/venv", detail)
    if closed or isinstance(error, PermissionError):
        chip = closed[0] if closed else getattr(error, "filename", None) or "/dev/gpiochip0"
        return ButtonsProblem(
            f"this service may not open {chip}",
            f"このサービスには {chip} を開く権限がありません",
            "the service reaches /dev/gpiochip* through the group 'gpio', which its unit grants "
            f"(SupplementaryGroups): `ls -l {chip}` must show group gpio with rw for the group, as on Raspberry Pi "
            "OS; elsewhere the installer adds a udev rule (SUBSYSTEM==\"gpio\", GROUP=\"gpio\", MODE=\"0660\"): "
            "run it again, or add the rule, then `sudo udevadm trigger` and `sudo systemctl restart companion`", detail,
            chip)
    if not found:
        return ButtonsProblem(
            "this machine has no GPIO (no /dev/gpiochip*)", "この機械には GPIO がありません（/dev/gpiochip* がない）",
            'use a Raspberry Pi for the buttons, or set hardware = "mock" in the configuration', detail)
    return ButtonsProblem(
        f"the GPIO pins could not be opened ({detail})", f"GPIO のピンを開けませんでした（{detail}）",
        "another program may hold the pins (`gpioinfo` shows which): stop it, or move the buttons with "
        "[buttons.pins] (docs/configuration.md); then `sudo systemctl restart companion`", detail)


def open_buttons(config: ButtonsConfig, kind: str, mock: bool,
                 events: queue.Queue) -> tuple[Buttons | None, ButtonsProblem | None]:
    """The buttons on the configured pin factory, or None and why they cannot be opened.

    Any failure is caught, not only lgpio's: whatever goes wrong with the pins, the phones
    must keep working (the service would otherwise restart over and over, serving nobody)."""
    factory = None
    try:
        factory = pin_factory(kind, mock)
        return Buttons(config, factory, events), None
    except Exception as error:
        if factory is not None:
            try:
                factory.close()  # a chip it opened before a pin failed: its handle goes back
            except Exception:
                log.debug("closing the pin factory failed too", exc_info=True)
        problem = buttons_problem(error, kind)
        log.error("no buttons (%s): %s To fix: %s", problem.detail, problem.en, problem.fix)
        return None, problem


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
