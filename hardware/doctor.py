"""``companion doctor``: check the machine, the display, the buttons, the data folder and
the port, and say in plain words what to fix.

Each check prints one line, ``OK``, ``WARN`` or ``FAIL`` and what it found; every problem
comes with what to do about it, and a summary of the fixes ends the report. The exit
status is 0 when nothing failed, 1 otherwise. The button check asks for each button to be
pressed (it is skipped when nobody is there to press: no terminal, or ``--no-buttons``).
"""

from __future__ import annotations

import errno
import os
import platform
import queue
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.config import Config, is_raspberry_pi

from .buttons import ButtonEvent, Buttons, buttons_problem, pin_factory
from .display import DEVICE_FAULTS, device_factory

INSTALLED_CONFIG = "/etc/tabletop-companion/config.toml"
"""The configuration systemd/install.sh writes: what the doctor checks by default."""
INSTALLED_UNIT = "/etc/systemd/system/companion.service"
"""The unit systemd/install.sh installs: run as root, the doctor checks with its rights."""
IN_SERVICE = "COMPANION_DOCTOR_AS_SERVICE"
"""Set in the environment of the doctor that runs with the unit's settings (no second hop)."""
NOT_CARRIED_OVER = {
    # When the program starts, stops and restarts: the doctor is a one-shot command.
    "Type", "NotifyAccess", "ExecStart", "ExecStartPre", "ExecStartPost", "ExecStop", "ExecStopPost",
    "ExecReload", "Restart", "RestartSec", "RestartPreventExitStatus", "WatchdogSec", "TimeoutStartSec",
    "TimeoutStopSec", "KillMode",
    # Would remove the service user's IPC objects (the bots' worker's semaphores) when the doctor ends.
    "RemoveIPC",
}
PRESS_SECONDS = 10.0
OTHER_ADDRESSES = (0x3C, 0x3D)
"""Where SSD1306/SH1106 modules answer: 0x3C, or 0x3D with the address jumper moved."""


@dataclass
class Report:
    out: Callable[[str], None]
    fixes: list[str] = field(default_factory=list)
    failed: bool = False

    def ok(self, what: str, found: str) -> None:
        self.out(f"OK    {what}: {found}")

    def warn(self, what: str, found: str, fix: str) -> None:
        self.out(f"WARN  {what}: {found}")
        self.fixes.append(fix)

    def fail(self, what: str, found: str, fix: str) -> None:
        self.out(f"FAIL  {what}: {found}")
        self.fixes.append(fix)
        self.failed = True


def run_doctor(config: Config, *, out: Callable[[str], None] = print, ask_buttons: bool = True,
               mock: bool | None = None, open_display=None, press_seconds: float = PRESS_SECONDS,
               prompt: Callable[[str], None] | None = None, pins=None) -> int:
    """Run every check against ``config``; returns the exit status.

    ``mock`` forces emulated hardware (default: the configuration's choice);
    ``open_display(address)`` replaces opening the real display (tests);
    ``prompt`` is told "press <button>" before each button is waited for (default ``out``);
    ``pins`` is the gpiozero pin factory for the buttons (default: the configured one).
    """
    from . import uses_mock

    mock = uses_mock(config) if mock is None else mock
    report = Report(out)
    gpio = _check_platform(report, config, mock)
    _check_display(report, config, mock, open_display)
    if not gpio:
        out("SKIP  buttons: the GPIO cannot be opened (above)")
    elif ask_buttons:
        _check_buttons(report, config, pins or pin_factory(config.pin_factory, mock), press_seconds, prompt or out)
    else:
        out("SKIP  buttons: not asked to press them (run in a terminal without --no-buttons)")
    _check_data_dir(report, config)
    _check_port(report, config)
    _check_network(report, config)
    if report.fixes:
        out("")
        out("To fix:")
        for fix in report.fixes:
            out(f"  - {fix}")
    else:
        out("")
        out("Everything looks right.")
    return 1 if report.failed else 0


def default_config_path() -> str | None:
    """The configuration the doctor checks without ``--config``: $COMPANION_CONFIG, else the
    installed one (what the service runs with), else None (the built-in defaults)."""
    return os.environ.get("COMPANION_CONFIG") or (INSTALLED_CONFIG if os.path.exists(INSTALLED_CONFIG) else None)


def unit_settings(unit_text: str) -> list[str]:
    """The ``Key=Value`` lines of a unit's [Service] section that say how its program runs:
    its user, groups, capabilities, working directory, environment and sandbox."""
    settings, section = [], None
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Service" and "=" in line:
            key = line.split("=", 1)[0].strip()
            if key not in NOT_CARRIED_OVER:
                settings.append(line)
    return settings


def as_service_command(unit_text: str, arguments: list[str]) -> list[str]:
    """How root runs ``companion doctor ARGUMENTS`` as the service would run: ``systemd-run``
    with the installed unit's user, groups, capabilities, working directory and sandbox,
    its input and output passed through, waiting for its exit status."""
    program = next(line.split("=", 1)[1].split()[0] for line in unit_text.splitlines()
                   if line.strip().startswith("ExecStart="))
    return ["systemd-run", "--quiet", "--wait", "--pipe", "--collect", "--service-type=exec",
            f"--setenv={IN_SERVICE}=1", *(f"--property={setting}" for setting in unit_settings(unit_text)),
            program, "doctor", *arguments]


def _check_platform(report: Report, config: Config, mock: bool) -> bool:
    """The board and, on real hardware, the GPIO; False when the GPIO cannot be opened."""
    model = _board_model()
    python = f"Python {platform.python_version()} on {platform.machine()}"
    if is_raspberry_pi():
        report.ok("platform", f"{model}, {python}")
    elif config.hardware == "real":
        report.fail("platform", f"not a Raspberry Pi ({python}) but hardware = \"real\"",
                    'set hardware = "mock" (or "auto") in the configuration on a machine that is not a Pi')
    else:
        report.ok("platform", f"not a Raspberry Pi ({python}): the display and buttons are emulated")
    if mock:
        return True
    try:
        factory = pin_factory(config.pin_factory, mock=False)
    except Exception as error:  # no library, a /dev/gpiochip only root may open, no GPIO at all...
        _report_buttons_missing(report, "GPIO", buttons_problem(error, config.pin_factory))
        return False
    factory.close()
    report.ok("GPIO", f"gpiozero's {config.pin_factory} pin factory works")
    return True


def _report_buttons_missing(report: Report, what: str, problem) -> None:
    """A failed check of the pins: the buttons are missing, why (in English and Japanese),
    and that the companion serves the phones without them."""
    report.fail(what, f"the buttons are missing: {problem.why_en} ({problem.detail}); the companion runs without "
                      f"them and the phones work / ボタンが使えません: {problem.why_ja}（スマートフォンでは遊べます）",
                problem.fix)


def _board_model() -> str:
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            with open(path, "rb") as file:
                return file.read().rstrip(b"\0").decode(errors="replace")
        except OSError:
            continue
    return "unknown board"


def _check_display(report: Report, config: Config, mock: bool, open_display) -> None:
    display = config.display
    if display.driver == "none":
        report.ok("display", "none configured (display.driver = \"none\")")
        return
    if mock:
        device_factory(display, mock=True)()
        report.ok("display", f"emulated {display.width}x{display.height} (luma dummy device)")
        return
    if open_display is None:
        def open_display(address):
            return device_factory(_with_address(display, address), mock=False)()
    tried = []
    for address in [display.i2c_address, *[a for a in OTHER_ADDRESSES if a != display.i2c_address]]:
        try:
            device = open_display(address)
        except DEVICE_FAULTS as error:
            tried.append(f"0x{address:02X}: {error}")
            continue
        if hasattr(device, "cleanup"):
            # Let go of the bus, leaving the display switched on: a running service keeps
            # using it (opening it cleared the glass; the service's next frame redraws it).
            device.persist = True
            device.cleanup()
        if address == display.i2c_address:
            report.ok("display", f"{display.driver} found on I2C bus {display.i2c_bus} at 0x{address:02X}")
        else:
            report.fail("display", f"found at 0x{address:02X}, not at the configured 0x{display.i2c_address:02X}",
                        f"set display.i2c_address = 0x{address:02X} in the configuration")
        return
    bus = f"/dev/i2c-{display.i2c_bus}"
    hint = f"{bus} does not exist: enable I2C (sudo raspi-config nonint do_i2c 0) and reboot" if not os.path.exists(bus) \
        else "check the display's wiring (SDA, SCL, 3V3, GND) and its address (i2cdetect -y 1)"
    report.fail("display", "no display answers (" + "; ".join(tried) + ")", hint)


def _with_address(display, address: int):
    from dataclasses import replace

    return replace(display, i2c_address=address)


def _check_buttons(report: Report, config: Config, pins, seconds: float, prompt: Callable[[str], None]) -> None:
    events: queue.Queue = queue.Queue()
    try:
        buttons = Buttons(config.buttons, pins, events)
    except Exception as error:
        _report_buttons_missing(report, "buttons", buttons_problem(error, config.pin_factory))
        return
    try:
        for name, pin in config.buttons.pins.items():
            prompt(f"press the {name!r} button (GPIO {pin}) within {seconds:g} s")
            if _wait_press(events, name, seconds):
                report.ok(f"button {name}", f"pressed (GPIO {pin})")
            else:
                report.fail(f"button {name}", f"no press seen on GPIO {pin} within {seconds:g} s",
                            f"check the wiring of {name!r}: GPIO {pin} to the button, the button to GND"
                            + ("" if config.buttons.pull_up else " (pull_up is false: the button must connect to 3V3)"))
    finally:
        buttons.close()


def _wait_press(events: queue.Queue, name: str, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            event: ButtonEvent = events.get(timeout=left)
        except queue.Empty:
            return False
        if event.button == name and event.edge == "pressed":
            return True
    return False


def _check_data_dir(report: Report, config: Config) -> None:
    path = config.data_dir
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if path.exists() and not path.is_dir():
        report.fail("data directory", f"{path} is a file, not a folder", f"remove {path} or set data_dir to a folder")
    elif os.access(existing, os.W_OK | os.X_OK):
        report.ok("data directory", f"{path} ({'exists' if path.exists() else 'will be created'}, writable)")
    else:
        report.fail("data directory", f"{path} cannot be written by this user",
                    f"give the service user write access to {existing}, or set data_dir elsewhere")


def _check_port(report: Report, config: Config) -> None:
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((config.host, config.port))
        except PermissionError:
            report.fail("port", f"port {config.port} needs privileges this user lacks",
                        "run as the installed service (systemd grants it the port) or choose a port above 1023")
            return
        except OSError as error:
            if error.errno == errno.EADDRINUSE and _companion_answers(config):
                report.ok("port", f"{config.host}:{config.port} is served by the running companion")
                return
            report.fail("port", f"{config.host}:{config.port} is not free ({error.strerror})",
                        "another program holds the port: stop it or choose another port")
            return
    report.ok("port", f"{config.host}:{config.port} is free")


def _companion_answers(config: Config) -> bool:
    """Whether the port is held by a companion (its /api/ping answers)."""
    import json
    import urllib.request

    host = "127.0.0.1" if config.host in ("0.0.0.0", "") else "::1" if config.host == "::" else config.host
    url = f"http://[{host}]:{config.port}/api/ping" if ":" in host else f"http://{host}:{config.port}/api/ping"
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return json.load(answer) == {"ok": True}
    except (OSError, ValueError):
        return False


#: What the service user must be allowed to ask NetworkManager (the installer's polkit rule).
NETWORK_PERMISSIONS = (
    "org.freedesktop.NetworkManager.settings.modify.system",
    "org.freedesktop.NetworkManager.network-control",
    "org.freedesktop.NetworkManager.wifi.share.protected",
)


def _check_network(report: Report, config: Config) -> None:
    """The companion's own Wi-Fi: NetworkManager there, a Wi-Fi device, the rights to use it."""
    from companion import network

    if config.network.hotspot == "never":
        report.ok("network", 'own Wi-Fi off (network.hotspot = "never")')
        return
    nmcli = network.Nmcli(timeout=10)
    problem = nmcli.available()
    if problem and config.network.hotspot == "always":
        report.fail("network", f"no own Wi-Fi possible: {problem}",
                    'use Raspberry Pi OS Bookworm or later (NetworkManager), or set network.hotspot = "auto" or "never"')
        return
    if problem:  # "auto" without NetworkManager: the machine's own network, as ever
        report.ok("network", f"no own Wi-Fi ({problem}): the machine's network is used as it is")
        return
    try:
        wifi = nmcli.wifi()
        lines = nmcli.run("-t", "-f", "PERMISSION,VALUE", "general", "permissions").splitlines()
    except network.NetworkError as error:
        report.warn("network", str(error), "see `journalctl -u NetworkManager`")
        return
    if wifi is None:
        report.warn("network", "NetworkManager has no Wi-Fi device", "use a Pi with Wi-Fi, or set network.hotspot = \"never\"")
        return
    granted = {fields[0] for fields in map(network.split_terse, lines) if fields[-1] == "yes"}
    missing = [permission for permission in NETWORK_PERMISSIONS if permission not in granted]
    if missing:
        report.warn("network", f"this user may not {', '.join(p.removeprefix('org.freedesktop.NetworkManager.') for p in missing)}",
                    "run the installer again (it writes /etc/polkit-1/rules.d/50-tabletop-companion.rules), "
                    "and run the doctor as root, which checks with the service's rights: "
                    "sudo /opt/tabletop-companion/venv/bin/companion doctor")
        return
    if wifi.connected and wifi.connection == network.PROFILE:
        found = f"own Wi-Fi {network.configured_ssid(config)!r} up on {wifi.device}"
    elif wifi.connected:
        found = f"{wifi.device} on {wifi.connection!r}; own Wi-Fi ({config.network.hotspot}) allowed"
    else:
        found = f"{wifi.device} {wifi.state}; own Wi-Fi ({config.network.hotspot}) allowed"
    report.ok("network", f"{found}, {nmcli.address(wifi.device) or 'no address'}")


def interactive() -> bool:
    """Whether someone can be asked to press buttons."""
    return sys.stdin.isatty()
