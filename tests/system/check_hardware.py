"""The panel's hardware through the kernel: buttons on gpio-sim lines, the OLED on a simulated SSD1306.

The virtual Pi's image (image/customize.d/50-hardware.sh) has gpio-sim built out of tree and a
58-line chip like the Pi 4's gpiochip0 made at boot (virtual-pi-gpio.service), given to the group
gpio by a udev rule the VM adds; and ssd1306-sim, an I2C bus 1 with a simulated SSD1306 at 0x3C
that shows in sysfs what its glass would. The checks switch the installed companion to the real
hardware as a Pi owner's configuration does (``hardware = "real"``; the VM is no Pi to ``auto``),
declare a Pi 4 to gpiozero through a drop-in of the check's own (a read-only bind of a
/proc/cpuinfo with a ``Revision`` line, inside the unit only), and then:

* buttons: pull a button's line low through gpio-sim's ``pull`` attribute, as a finger pressing
  a button wired to ground would, and see ``/api/display.txt`` follow; gpiozero's lgpio factory
  reads the line inside the unit's sandbox (its device cgroup, groups and system call filter);
* OLED: what luma sent over I2C, decoded by the simulated controller, equals ``/api/display.png``
  pixel for pixel, on the first screen and after presses.

Every wait is for a condition with a deadline and says what did not happen.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
import time
import urllib.request

import pytest

import oled
import vm
from vm import LGPIO_BUILD

VENV = "/opt/tabletop-companion/venv"
CONFIG = "/etc/tabletop-companion/config.toml"
DROP_IN_DIR = "/run/systemd/system/companion.service.d"  # gone at reboot, as the README asks
BOARD_DROP_IN = f"{DROP_IN_DIR}/50-virtual-pi-board.conf"
CPUINFO = "/run/virtual-pi/cpuinfo"
CHIP_CONFIG = "/sys/kernel/config/gpio-sim/pi-header"

# A Raspberry Pi 4 Model B 4 GB, revision 1.4: what gpiozero reads to know the board's header.
PI_CPUINFO_LINES = "Hardware\t: BCM2835\nRevision\t: c03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n"

# The board's declaration, for the companion's unit only (never the product): gpiozero reads the
# Revision line of /proc/cpuinfo when the device tree has no system/linux,revision, as on this VM
# (the x86-64 one has no device tree; the arm64 one has QEMU's virt board's, which names no Pi).
BOARD_DROP_IN_TEXT = f"""# The system test's, not the product's: declares a Raspberry Pi 4 to gpiozero inside the unit.
[Service]
BindReadOnlyPaths={CPUINFO}:/proc/cpuinfo
"""

# What the check sets on top of the installed configuration. A hold is 2 s instead of 0.8 s: the
# check's short press lasts 0.3 s, and a busy emulated guest must never turn it into a hold.
HOLD_SECONDS = 2.0
SHORT_PRESS_SECONDS = 0.3  # how long the finger stays down: longer than the 0.02 s debounce

WAIT = 30.0  # seconds any one screen may take to follow a press under emulation


def wait_until(condition, timeout: float, what: str, seen=lambda: "", interval: float = 0.1):
    """``condition()``'s first truthy value, asked every ``interval`` s; fails after ``timeout`` s
    naming what did not happen and what ``seen()`` says was there instead."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}; {seen()}", pytrace=False)
        time.sleep(interval)


class RealPanel:
    """The installed companion on the virtual Pi's simulated hardware."""

    def __init__(self, pi: vm.VirtualPi):
        self.pi = pi
        self.pins: dict[str, int] = json.loads(self.python(
            "import json; from companion.config import load_config; "
            f"print(json.dumps(dict(load_config({CONFIG!r}).buttons.pins)))"))
        self.pull_up = json.loads(self.python(
            f"from companion.config import load_config; print('true' if load_config({CONFIG!r}).buttons.pull_up else 'false')"))
        self.i2c_bus = int(self.python(f"from companion.config import load_config; print(load_config({CONFIG!r}).display.i2c_bus)"))
        chip = pi.run(f"cat {CHIP_CONFIG}/dev_name {CHIP_CONFIG}/bank0/chip_name").out.split()
        self.device_name, self.chip_name = chip
        self.lines = f"/sys/devices/platform/{self.device_name}/{self.chip_name}"
        self.frame_attribute = f"/sys/bus/i2c/devices/i2c-{self.i2c_bus}/frame"

    def python(self, code: str) -> str:
        return self.pi.run(f"{VENV}/bin/python -c {shlex.quote(code)}").out.strip()

    # -- the buttons ------------------------------------------------------------------------

    def _pull(self, button: str, pressed: bool) -> str:
        # A button joins its pin to ground (pull_up) or to 3.3 V; pressing it wins over the bias.
        down = "pull-down" if self.pull_up else "pull-up"
        up = "pull-up" if self.pull_up else "pull-down"
        return f"echo {down if pressed else up} > {self.lines}/sim_gpio{self.pins[button]}/pull"

    def press(self, button: str) -> None:
        """A short press: down for SHORT_PRESS_SECONDS (a finger's press, not a wait), then up."""
        self.pi.run(f"{self._pull(button, True)} && sleep {SHORT_PRESS_SECONDS} && {self._pull(button, False)}")

    def hold(self, button: str, until, what: str) -> None:
        """A long press: down until ``until(screen_text)`` holds (the panel acts on the hold while
        the button is still down), then up."""
        self.pi.run(self._pull(button, True))
        try:
            self.wait_for_screen(until, what)
        finally:
            self.pi.run(self._pull(button, False))

    # -- the panel, through the phone's API -------------------------------------------------

    def screen(self) -> str:
        status, text = self.pi.http("GET", "/api/display.txt")
        assert status == 200, f"/api/display.txt answered {status}: {text}"
        return text

    def wait_for_screen(self, predicate, what: str) -> str:
        last = {"text": ""}

        def shown():
            last["text"] = self.screen()
            return last["text"] if predicate(last["text"]) else None

        return wait_until(shown, WAIT, f"the panel to show {what}",
                          seen=lambda: f"/api/display.txt shows:\n{last['text']}")

    def display_png(self) -> tuple[str, bytes]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.pi.http_port}/api/display.png", timeout=30) as answer:
            return answer.headers["ETag"], answer.read()


def _highlighted(text: str) -> str | None:
    """The menu line the panel marks with "> ", if any."""
    return next((line[2:] for line in text.splitlines() if line.startswith("> ")), None)


def _home(text: str) -> bool:
    """The home screen: a QR code (the join address's, or the own Wi-Fi's in turn), no menu."""
    return "[QR " in text and _highlighted(text) is None


@pytest.fixture(scope="module")
def real_panel(installed, phases):
    """The companion restarted on the simulated hardware; put back as installed afterwards."""
    pi = installed.pi
    original = pi.run(f"cat {CONFIG}").out
    settings = [line.strip() for line in original.splitlines() if not line.lstrip().startswith("#")]
    assert not any(line.startswith(("hardware", "[buttons]")) for line in settings), (
        f"the check adds hardware and [buttons] to the installed {CONFIG}, which already has them:\n{original}")
    with phases("hardware: switch the companion to the simulated GPIO and OLED"):
        # install.sh adds the "pi" extra only where /proc/device-tree names a Raspberry Pi; this
        # VM's names none (x86-64: no device tree; arm64: QEMU's virt board), so the check adds
        # the one the lgpio pin factory needs, as install.sh would on Debian (LGPIO_BUILD:
        # built from its sources where no wheel fits).
        pi.run(f"{LGPIO_BUILD} {VENV}/bin/pip install --quiet --disable-pip-version-check 'lgpio>=0.2.2.0'", timeout=900)
        pi.run(f"mkdir -p /run/virtual-pi {DROP_IN_DIR} && "
               f"{{ cat /proc/cpuinfo; printf {shlex.quote(PI_CPUINFO_LINES)}; }} > {CPUINFO} && "
               f"printf %s {shlex.quote(BOARD_DROP_IN_TEXT)} > {BOARD_DROP_IN}")
        changed = f'hardware = "real"\n{original}\n[buttons]\nhold_seconds = {HOLD_SECONDS}\n'
        pi.run(f"printf %s {shlex.quote(changed)} > {CONFIG} && {VENV}/bin/companion config check {CONFIG}")
        # Type=notify: restart returns once the companion said READY (or failed to).
        pi.run("systemctl daemon-reload && systemctl restart companion", timeout=300)
    try:
        yield RealPanel(pi)
    finally:
        pi.run(f"printf %s {shlex.quote(original)} > {CONFIG} && rm -f {BOARD_DROP_IN} && "
               "systemctl daemon-reload && systemctl restart companion", timeout=300)


def test_gpio_chip_belongs_to_group_gpio_and_the_unit_reads_its_lines(real_panel):
    pi = real_panel.pi
    # gpiozero's lgpio factory opens gpiochip0 on every Pi but a Pi 5 with an old kernel, so the
    # product needs no setting for it; the VM's only GPIO chip must be that one too.
    assert real_panel.chip_name == "gpiochip0", (
        f"the simulated header is {real_panel.chip_name}, but gpiozero's lgpio factory opens gpiochip0")
    owner = pi.run("stat -c '%G %a' /dev/gpiochip0").out.split()
    assert owner == ["gpio", "660"], f"/dev/gpiochip0 should be group gpio, mode 660 (the VM's udev rule); it is {owner}"
    # The lines the product claimed, as the kernel reports them.
    claimed = pi.run("cat /sys/kernel/debug/gpio").out
    for button, pin in real_panel.pins.items():
        assert _input_consumer(claimed, pin), (
            f"the {button} button's line GPIO{pin} is not held as an input by the companion:\n{claimed}")


def _input_consumer(debugfs: str, pin: int) -> str:
    """Who holds line ``pin`` of the only GPIO chip as an input, read from /sys/kernel/debug/gpio
    ("" if nobody). Linux 6.1 prints gpiolib's lines, by name: " gpio-529 (GPIO17 |lg ) in  hi IRQ";
    Linux 6.12 lets gpio-sim print its own, numbered from the chip's base (the header line's
    "GPIOs 512-569"): " gpio-529 (lg) input,pull-up", "(<unused>)" for a free line."""
    base = re.search(r"GPIOs (\d+)-\d+", debugfs)
    for entry in debugfs.splitlines():
        by_name = re.match(rf"\s*gpio-\d+\s+\(GPIO{pin}\s*\|\s*([^)]*?)\s*\)\s+in\b", entry)
        if by_name:
            return by_name.group(1)
        by_number = base and re.match(rf"\s*gpio-{int(base.group(1)) + pin}\s+\(([^)|]*)\)\s+input\b", entry)
        if by_number and by_number.group(1) != "<unused>":
            return by_number.group(1)
    return ""


def test_buttons_pressed_through_gpio_sim_drive_the_panel(real_panel):
    real_panel.wait_for_screen(_home, "its home screen with the join code")
    real_panel.press("ok")
    menu = real_panel.wait_for_screen(lambda text: _highlighted(text) is not None, "the main menu after ok")
    first = _highlighted(menu)
    real_panel.press("down")
    moved = real_panel.wait_for_screen(lambda text: _highlighted(text) not in (None, first),
                                       f"the highlight moving down from {first!r}")
    second = _highlighted(moved)
    real_panel.press("up")
    real_panel.wait_for_screen(lambda text: _highlighted(text) == first, f"the highlight back up on {first!r}")
    real_panel.press("back")
    real_panel.wait_for_screen(_home, "the home screen again after back")
    # Long presses: held ok opens the main menu from anywhere; held back goes home.
    real_panel.hold("ok", lambda text: _highlighted(text) == first, "the main menu while ok is held")
    real_panel.hold("back", _home, "the home screen while back is held")
    assert second != first


def _wait_for_same_picture(panel: RealPanel, name: str) -> None:
    """The simulated glass equals /api/display.png; the panel pushes each frame to I2C right after
    publishing it, so the glass is waited for (wait-for-frame, poll() on the module's notify)."""
    deadline = time.monotonic() + WAIT
    while True:
        etag, png = panel.display_png()
        expected = oled.panel_frame(png)
        left = max(1.0, deadline - time.monotonic())
        result = panel.pi.run(
            f"python3 /mnt/host/src/tests/system/guest/wait-for-frame {panel.frame_attribute} "
            f"{base64.b64encode(expected.tobytes()).decode()} {left:.1f}", check=False, timeout=int(left) + 60)
        if result.rc == 0:
            return
        if time.monotonic() < deadline and panel.display_png()[0] != etag:
            continue  # the panel drew another frame meanwhile: compare with that one
        shown = oled.glass(base64.b64decode(result.out.strip()))
        differing = oled.differing_pixels(shown, expected)
        sheet = oled.save_comparison(panel.pi.share / "out" / "oled", name, shown, expected)
        state = panel.pi.run(f"cat /sys/bus/i2c/devices/i2c-{panel.i2c_bus}/state").out
        pytest.fail(f"after {WAIT:.0f} s the simulated OLED still differs from /api/display.png ({etag}) in "
                    f"{len(differing)} pixels, first {differing[:8]}; side by side (glass, PNG, differences "
                    f"in red): {sheet}\ncontroller state:\n{state}", pytrace=False)


def test_oled_shows_what_display_png_shows(real_panel):
    pi = real_panel.pi
    bus = pi.run("cat /sys/module/ssd1306_sim/parameters/bus").out.strip()
    assert int(bus) == real_panel.i2c_bus, f"the simulated OLED is on bus {bus}, the product's display on {real_panel.i2c_bus}"
    state = pi.run(f"cat /sys/bus/i2c/devices/i2c-{real_panel.i2c_bus}/state").out
    assert "display on" in state, f"luma never switched the simulated display on:\n{state}"
    real_panel.wait_for_screen(_home, "its home screen with the join code")
    _wait_for_same_picture(real_panel, "home")
    real_panel.press("ok")
    real_panel.wait_for_screen(lambda text: _highlighted(text) is not None, "the main menu after ok")
    _wait_for_same_picture(real_panel, "menu")
    real_panel.press("back")
    real_panel.wait_for_screen(_home, "its home screen after back")
    _wait_for_same_picture(real_panel, "home-again")
