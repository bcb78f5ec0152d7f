"""``companion doctor``: check the machine, the display, the buttons, the data folder and
the port, and say in plain words what to fix.

Each check prints one line, ``OK``, ``WARN`` or ``FAIL`` and what it found; every problem
comes with what to do about it, and a summary of the fixes ends the report. The exit
status is 0 when nothing failed, 1 otherwise. The button check asks for each button to be
pressed (it is skipped when nobody is there to press: no terminal, or ``--no-buttons``).

Where the service is installed, the doctor reads the unit as systemd applies it (the file and
its drop-ins, e.g. what ``systemctl edit companion`` wrote) and the service's state (a unit
that keeps failing and restarting is said to be crash-looping). Run as root it checks with the
unit's rights (``systemd-run``); run as another user it judges what the unit grants (the
service user's data folder, port 80, the GPIO) by the unit, not by that user's own rights.
"""

from __future__ import annotations

import errno
import glob
import grp
import json
import os
import platform
import pwd
import queue
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from companion.config import Config, is_raspberry_pi

from .buttons import GPIO_CHIPS, ButtonEvent, Buttons, buttons_problem, pin_factory
from .display import DEVICE_FAULTS, device_factory

INSTALLED_CONFIG = "/etc/tabletop-companion/config.toml"
"""The configuration systemd/install.sh writes: what the doctor checks by default."""
INSTALLED_UNIT = "/etc/systemd/system/companion.service"
"""The unit systemd/install.sh installs: run as root, the doctor checks with its rights."""
UNIT_NAME = "companion.service"
RUNTIME_DROP_INS = ("/run/systemd/system/companion.service.d",)
"""Drop-in folders besides the installed unit's own ``companion.service.d`` (read without systemd)."""
IN_SERVICE = "COMPANION_DOCTOR_AS_SERVICE"
"""Set in the environment of the doctor that runs with the unit's settings (no second hop)."""
SERVICE_STATE = "COMPANION_DOCTOR_SERVICE_STATE"
"""The service's state (JSON) as root saw it, handed to the doctor that runs with the unit's
settings: systemctl may not reach systemd from inside the sandbox."""
STATE_PROPERTIES = ("LoadState", "ActiveState", "SubState", "NRestarts", "Result", "ExecMainCode", "ExecMainStatus")
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


@dataclass
class InstalledService:
    """The installed unit as systemd applies it, and the service's state."""

    unit_text: str
    """The unit file and then its drop-ins, in the order systemd reads them."""
    state: dict[str, str] | None = None
    """``systemctl show``'s STATE_PROPERTIES, or None where systemd cannot be asked."""

    def values(self, key: str) -> list[str]:
        """Every value ``key`` has in [Service], as systemd adds them up: an empty
        assignment (``SupplementaryGroups=``) clears what came before."""
        values: list[str] = []
        for setting in _service_lines(self.unit_text):
            name, _, value = setting.partition("=")
            if name.strip() == key:
                values = values + [value.strip()] if value.strip() else []
        return values

    def value(self, key: str) -> str | None:
        """The value ``key`` ends with (the last assignment wins)."""
        values = self.values(key)
        return values[-1] if values else None


def _systemctl(*arguments: str) -> str | None:
    """systemctl's output, or None where it fails (no systemd, no such unit)."""
    try:
        answer = subprocess.run(["systemctl", "--no-pager", *arguments], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return answer.stdout if answer.returncode == 0 else None


def installed_service(systemctl: Callable[..., str | None] | None = None) -> InstalledService | None:
    """The installed service, or None when its unit is not installed.

    Its text is ``systemctl cat``'s where systemd runs: the unit file and its drop-ins exactly as
    systemd reads them (every folder, in its order). Otherwise the file and the ``*.conf`` of its
    drop-in folders, sorted by name as systemd does (a name in an earlier folder hides the same
    name in a later one). ``systemctl show`` would give some effective values, but in forms
    ``systemd-run --property`` does not always take back; the text is what systemd parsed."""
    if not os.path.exists(INSTALLED_UNIT):
        return None
    systemctl = systemctl or _systemctl
    text = systemctl("cat", UNIT_NAME)
    if not text or text.splitlines()[0].strip() != f"# {INSTALLED_UNIT}":  # systemd knows another unit, or none
        with open(INSTALLED_UNIT) as unit:
            text = unit.read()
        drop_ins: dict[str, str] = {}
        for folder in (INSTALLED_UNIT + ".d", *RUNTIME_DROP_INS):
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                if name.endswith(".conf"):
                    drop_ins.setdefault(name, os.path.join(folder, name))
        for name in sorted(drop_ins):
            with open(drop_ins[name]) as drop_in:
                text += f"\n# {drop_ins[name]}\n" + drop_in.read()
    shown = systemctl("show", UNIT_NAME, "--property=" + ",".join(STATE_PROPERTIES))
    state = dict(line.split("=", 1) for line in shown.splitlines() if "=" in line) if shown else None
    return InstalledService(text, state)


def run_doctor(config: Config, *, out: Callable[[str], None] = print, ask_buttons: bool = True,
               mock: bool | None = None, open_display=None, press_seconds: float = PRESS_SECONDS,
               prompt: Callable[[str], None] | None = None, pins=None, service: InstalledService | None = None,
               as_service: bool = False) -> int:
    """Run every check against ``config``; returns the exit status.

    ``service`` is the installed service: its state is checked, and, unless ``as_service``
    (this process runs with the unit's settings), what its unit grants is judged by the unit;
    ``mock`` forces emulated hardware (default: the configuration's choice);
    ``open_display(address)`` replaces opening the real display (tests);
    ``prompt`` is told "press <button>" before each button is waited for (default ``out``);
    ``pins`` is the gpiozero pin factory for the buttons (default: the configured one).
    """
    from . import uses_mock

    mock = uses_mock(config) if mock is None else mock
    report = Report(out)
    if service is not None and service.state is not None:
        _check_service(report, service.state)
    granted_by_unit = None if as_service else service
    gpio = _check_platform(report, config, mock, granted_by_unit)
    _check_display(report, config, mock, open_display)
    if not gpio:
        out("SKIP  buttons: this user cannot open the GPIO (above)")
    elif ask_buttons:
        _check_buttons(report, config, pins or pin_factory(config.pin_factory, mock), press_seconds, prompt or out)
    else:
        out("SKIP  buttons: not asked to press them (run in a terminal without --no-buttons)")
    _check_data_dir(report, config, granted_by_unit)
    _check_port(report, config, granted_by_unit)
    check_network(report, config)
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


def _service_lines(unit_text: str) -> list[str]:
    """The ``Key=Value`` lines of every [Service] section of ``unit_text``, in order (a unit and
    its drop-ins, each with its own section header)."""
    settings, section = [], None
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section == "Service" and "=" in line:
            settings.append(line)
    return settings


def unit_settings(unit_text: str) -> list[str]:
    """The ``Key=Value`` lines of a unit's [Service] sections that say how its program runs:
    its user, groups, capabilities, working directory, environment and sandbox. In order:
    ``systemd-run`` adds them up as systemd adds up a unit and its drop-ins."""
    return [line for line in _service_lines(unit_text) if line.split("=", 1)[0].strip() not in NOT_CARRIED_OVER]


def as_service_command(service: InstalledService, arguments: list[str]) -> list[str]:
    """How root runs ``companion doctor ARGUMENTS`` as the service would run: ``systemd-run``
    with the installed unit's user, groups, capabilities, working directory and sandbox (its
    drop-ins included), its input and output passed through, waiting for its exit status."""
    program = service.value("ExecStart").split()[0]
    state = [f"--setenv={SERVICE_STATE}={json.dumps(service.state)}"] if service.state is not None else []
    return ["systemd-run", "--quiet", "--wait", "--pipe", "--collect", "--service-type=exec",
            f"--setenv={IN_SERVICE}=1", *state, *(f"--property={setting}" for setting in unit_settings(service.unit_text)),
            program, "doctor", *arguments]


def run_command(config_path: str | None, hardware: str | None, no_buttons: bool) -> int:
    """``companion doctor``: as root with the service installed, the checks run again through
    ``systemd-run`` with the unit's settings; otherwise here, as the user running it."""
    from companion.config import load_config

    path = config_path or default_config_path()
    in_service = bool(os.environ.get(IN_SERVICE))
    service = None if in_service else installed_service()
    if os.geteuid() == 0 and service is not None:
        # Root may do what the service may not: check with the installed unit's rights instead.
        arguments = [*(["--config", os.path.abspath(path)] if path else []),
                     *(["--hardware", hardware] if hardware else []),
                     *(["--no-buttons"] if no_buttons else [])]
        print(f"Checking as the service runs (systemd-run with the settings of {INSTALLED_UNIT} and its drop-ins):",
              flush=True)
        return subprocess.run(as_service_command(service, arguments)).returncode
    if in_service and os.environ.get(SERVICE_STATE):
        service = InstalledService("", json.loads(os.environ[SERVICE_STATE]))
    config = load_config(path, {"hardware": hardware})
    print(f"Checking {config.source or 'the built-in defaults'} as the user running this command:", flush=True)
    return run_doctor(config, ask_buttons=interactive() and not no_buttons, service=service, as_service=in_service)


def _check_service(report: Report, state: dict[str, str]) -> None:
    """Whether the installed service runs, and whether it keeps failing and restarting."""
    load, active, sub = state.get("LoadState"), state.get("ActiveState"), state.get("SubState")
    if load != "loaded":
        return  # not known to systemd (not installed here, or not yet reloaded): nothing to say
    restarts = int(state.get("NRestarts") or 0)
    code, status = state.get("ExecMainCode"), state.get("ExecMainStatus", "?")
    # ExecMainCode is the kernel's CLD_* code: 1 exited, 2 killed, 3 dumped core.
    last = f"exit status {status}" if code == "1" else f"killed by signal {status}" if code in ("2", "3") else "no exit yet"
    log = "read why in its log: journalctl -u companion -b -n 50 (the checks here name the usual causes)"
    if active == "activating" and sub == "auto-restart":
        report.fail("service", f"crash-looping: it failed ({state.get('Result')}, {last}), has restarted {restarts} "
                               "times and waits to start again", log)
    elif active == "failed":
        report.fail("service", f"stopped after failing ({state.get('Result')}, {last}; restarted {restarts} times)",
                    log + "; then: sudo systemctl restart companion")
    elif active == "active" and restarts:
        report.warn("service", f"running, but it has restarted {restarts} times since it was started ({last})", log)
    elif active == "active":
        report.ok("service", f"running ({sub})")
    else:
        report.ok("service", f"{active} ({sub}): start it with sudo systemctl start companion")


def _check_platform(report: Report, config: Config, mock: bool, unit: InstalledService | None) -> bool:
    """The board and, on real hardware, the GPIO; False when the GPIO cannot be opened (by
    this user: when ``unit`` is given, chips the service user may open are not a fault)."""
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
        problem = buttons_problem(error, config.pin_factory)
        user = unit.value("User") if unit is not None else None
        chips = sorted(glob.glob(GPIO_CHIPS))
        if problem.chip and user and chips and all(_allowed(unit, user, Path(chip), 0o6) for chip in chips):
            report.ok("GPIO", f"you may not open {problem.chip}, the service user {user} may (with the groups "
                              "its unit gives it); run the doctor with sudo to check as the service")
        else:
            _report_buttons_missing(report, "GPIO", problem)
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


def _check_data_dir(report: Report, config: Config, unit: InstalledService | None) -> None:
    """Whether the data folder can be written: by this process, or, when ``unit`` is given (the
    doctor runs as someone else than the service), by the unit's user, as systemd grants it."""
    path = config.data_dir
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if path.exists() and not path.is_dir():
        report.fail("data directory", f"{path} is a file, not a folder", f"remove {path} or set data_dir to a folder")
        return
    state = "exists" if path.exists() else "will be created"
    if os.access(existing, os.W_OK | os.X_OK):
        report.ok("data directory", f"{path} ({state}, writable)")
        return
    user = unit.value("User") if unit is not None else None
    if user is None:
        report.fail("data directory", f"{path} cannot be written by this user ({_me()})",
                    f"give the user who runs the companion write access to {existing}, or set data_dir elsewhere")
        return
    if any(path == Path("/var/lib") / name for name in unit.values("StateDirectory")):
        report.ok("data directory", f"{path} ({state}; systemd gives it to the service user {user}: StateDirectory)")
    elif _allowed(unit, user, existing, 0o3):
        report.ok("data directory", f"{path} ({state}, writable by the service user {user}, not by you: {_me()})")
    else:
        report.fail("data directory", f"{path} cannot be written by the service user {user}",
                    f"give {user} write access to {existing} (sudo chown {user} {existing}), or set data_dir elsewhere; "
                    "outside /var/lib/tabletop-companion the unit must allow it too: "
                    f"sudo systemctl edit companion, then [Service] ReadWritePaths={path}")


def _me() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def _allowed(unit: InstalledService, user: str, path: Path, rights: int) -> bool:
    """Whether ``user``, with the groups the unit gives it, has ``rights`` (rwx bits, e.g. 0o6:
    read and write; 0o3 on a folder: create files) on ``path``, by its owner, group and mode
    (the only rights a user who is not root can read)."""
    try:
        account = pwd.getpwnam(user)
        info = path.stat()
    except (KeyError, OSError):
        return False
    if account.pw_uid == 0:
        return True
    groups = set(os.getgrouplist(user, account.pw_gid))
    for name in unit.values("Group")[-1:] + " ".join(unit.values("SupplementaryGroups")).split():
        try:
            groups.add(grp.getgrnam(name).gr_gid)
        except KeyError:
            continue
    shift = 6 if info.st_uid == account.pw_uid else 3 if info.st_gid in groups else 0
    return info.st_mode >> shift & rights == rights


def _check_port(report: Report, config: Config, unit: InstalledService | None) -> None:
    family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((config.host, config.port))
        except PermissionError:
            if unit is not None and "CAP_NET_BIND_SERVICE" in " ".join(unit.values("AmbientCapabilities")):
                report.ok("port", f"port {config.port} needs a privilege you lack and the service has "
                                  "(AmbientCapabilities=CAP_NET_BIND_SERVICE)")
            else:
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


def check_network(report: Report, config: Config) -> None:
    """The companion's own Wi-Fi: NetworkManager there, a Wi-Fi device, the rights to use it.
    Public as the one check that can run alone, without a display or buttons (the tests do)."""
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
