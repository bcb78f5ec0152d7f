"""The OLED behind luma.oled, with the faults of real hardware handled in one place.

A display can be missing when the appliance starts (unplugged, I2C disabled, wrong
address: luma raises ``DeviceNotFoundError`` and friends) or fail later (a loose wire
makes every I2C write raise ``OSError``). :class:`Display` turns both into "no display
for now": the fault is logged once, the panel keeps working (the web mirror still shows
its frames), and a new device is tried at most every ``retry_seconds`` when the panel
next has a frame to push (the panel wakes up for that even when idle). When it answers again,
that is logged once too and the current frame is pushed at once.

:func:`device_factory` builds the luma device the configuration asks for: the real
SSD1306/SH1106 over I2C, or luma's ``dummy`` device in mode "1" in mock mode (which keeps
the last frame in its ``image`` for tests and the web mirror).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from luma.core.error import Error as LumaError
from PIL import Image

from companion.config import DisplayConfig

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""How long a failed display is left alone before a new one is tried."""

DEVICE_FAULTS = (LumaError, OSError)
"""What a missing or failing display raises: luma's errors (DeviceNotFoundError,
DevicePermissionError, DeviceAddressError...) and OSError from I2C writes."""


def device_factory(config: DisplayConfig, mock: bool) -> Callable[[], object] | None:
    """A function that opens the display device, or None when the configuration has none."""
    if config.driver == "none":
        return None
    if mock:
        from luma.core.device import dummy

        return lambda: dummy(width=config.width, height=config.height, rotate=config.rotation, mode="1")

    def open_real():
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        serial = i2c(port=config.i2c_bus, address=config.i2c_address)
        driver = getattr(oled, config.driver)  # "ssd1306" or "sh1106", checked by the config
        try:
            device = driver(serial, width=config.width, height=config.height, rotate=config.rotation)
            device.contrast(config.contrast)
        except BaseException:
            # The bus is open but nothing answers: close it, or every retry would leak a file
            # descriptor until the whole service runs out of them.
            serial.cleanup()
            raise
        return device

    return open_real


class Display:
    """One display, possibly absent, possibly failing; every method is safe to call anyway.

    Only the panel thread calls it. ``clock`` is injectable so tests control the retry timer.
    """

    def __init__(self, open_device: Callable[[], object] | None, retry_seconds: float = RETRY_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self._open_device = open_device
        self._retry_seconds = retry_seconds
        self._clock = clock
        self.device = None
        self._failed_at: float | None = None  # when the last fault happened; None = healthy
        self.faults = 0  # faults seen (each logged only when the display goes from good to bad)
        if open_device is not None:
            self._try_open()

    @property
    def present(self) -> bool:
        """Whether a display is attached and answering."""
        return self.device is not None

    @property
    def configured(self) -> bool:
        return self._open_device is not None

    def retry_in(self) -> float | None:
        """Seconds until a failed display may be tried again (0: now); None if nothing to retry."""
        if self._open_device is None or self.device is not None:
            return None
        return max(0.0, self._failed_at + self._retry_seconds - self._clock())

    def show(self, image: Image.Image) -> bool:
        """Push ``image``; True if it reached a display. Opens the device again when it is time."""
        if self.device is None:
            if self.retry_in() != 0.0 or not self._try_open():
                return False
        try:
            self.device.display(image)
            return True
        except DEVICE_FAULTS as error:
            self._fault(f"the display stopped answering ({_describe(error)}): the panel keeps running "
                        f"and retries every {self._retry_seconds:g} s")
            return False

    def keep_last_frame(self) -> None:
        """Leave the last frame on the glass when the process exits (luma clears it otherwise)."""
        if self.device is not None:
            self.device.persist = True

    def _try_open(self) -> bool:
        was_failing = self._failed_at is not None
        try:
            self.device = self._open_device()
        except DEVICE_FAULTS as error:
            if not was_failing:
                self._fault(f"no display found ({_describe(error)}): the panel runs without it "
                            f"and retries every {self._retry_seconds:g} s")
            else:
                self._failed_at = self._clock()
            return False
        if was_failing:
            log.warning("the display is back")
        self._failed_at = None
        return True

    def _fault(self, message: str) -> None:
        self.faults += 1
        if self._failed_at is None:
            log.warning(message)
        dead, self.device = self.device, None
        if dead is not None:
            _release(dead)
        self._failed_at = self._clock()


def _release(device) -> None:
    """Close a device that stopped answering: its bus handle (a file descriptor) would
    otherwise stay open for good. ``persist`` spares it the switch-off commands that
    cannot reach it anyway."""
    device.persist = True
    try:
        device.cleanup()
    except DEVICE_FAULTS:
        pass


def _describe(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
