"""The companion's own Wi-Fi: an access point when no known network is around.

Everything goes through NetworkManager's command-line client ``nmcli`` (Raspberry Pi OS
Bookworm and later); the companion never edits NetworkManager's files. Without NetworkManager
it says so once and serves on whatever network the machine has.

- :class:`Hotspot` -- what the configuration asks for: mode, SSID, password, band, channel,
  and the ``nmcli`` commands that bring the access point up (:func:`plan` lists them);
- :class:`Supervisor` -- a small state machine (CLIENT, WAITING, ACCESS_POINT) run in a thread
  by ``companion serve``. Each :meth:`Supervisor.step` observes the Wi-Fi device through
  ``nmcli -t`` and decides; the clock and the wait are injected, so tests need no real time;
- :class:`NetworkStatus` -- what the web and the panel read: the current :class:`NetworkState`
  (the Wi-Fi QR code and the AP's join address come from it) and a change notification;
- :func:`wifi_qr_payload` -- the ``WIFI:`` text of the Wi-Fi QR code.

The access point's profile is kept in NetworkManager's memory only (``save no``): it never
reaches the SD card, and a reboot forgets it. Its address is fixed (:data:`AP_ADDRESS`, the
address NetworkManager's shared mode uses anyway) so the installer's dnsmasq drop-in can send
the phones' connectivity probes (:data:`PROBE_HOSTS`) to the companion.
"""

from __future__ import annotations

import enum
import logging
import os
import pathlib
import secrets
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .config import Config, wifi_password_problem
from .files import write_atomically
from .stations import StationCountError, count_stations

log = logging.getLogger(__name__)

PROFILE = "Tabletop-Hotspot"
"""The name of the access point's NetworkManager profile."""

AP_ADDRESS = "10.42.0.1"
"""The companion's address on its own network (NetworkManager's usual one for shared mode)."""

PROBE_HOSTS = (
    "captive.apple.com",  # Apple: /hotspot-detect.html
    "www.apple.com",
    "connectivitycheck.gstatic.com",  # Android: /generate_204
    "connectivitycheck.android.com",
    "clients3.google.com",
    "www.msftconnecttest.com",  # Windows: /connecttest.txt
    "www.msftncsi.com",  # older Windows: /ncsi.txt
)
"""The hosts phones and laptops ask to learn whether a network has internet. The installer's
dnsmasq drop-in resolves them to :data:`AP_ADDRESS` on the companion's own network."""

JOIN_SECONDS = 20.0
"""How long NetworkManager gets to join a known network before the access point goes up."""

LOOK_AGAIN_SECONDS = 120.0
"""How often the access point, while no phone is associated with it, steps aside to look for a
known network."""

COUNT_WARNING_SECONDS = 600.0
"""While the phones on the access point cannot be counted, how often that is said in the log."""

POLL_SECONDS = 2.0
"""How often the supervisor looks at the Wi-Fi device."""

PASSWORD_FILE = "hotspot-password"
PASSWORD_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""Lower case letters and digits without l, o, 0 and 1: easy to type from the OLED if need be."""
PASSWORD_LENGTH = 12


class NetworkError(RuntimeError):
    """``nmcli`` failed, or NetworkManager is not there."""


class NetworkCancelled(NetworkError):
    """An nmcli call ended, or not started, because the companion is stopping (Nmcli.cancel)."""


class Mode(enum.Enum):
    CLIENT = "client"  # on a known network (or NetworkManager not in charge)
    WAITING = "waiting"  # no network yet: NetworkManager is given JOIN_SECONDS to find one
    ACCESS_POINT = "access point"  # the companion's own network is up


@dataclass(frozen=True)
class NetworkState:
    """What the web and the panel need to know about the network."""

    mode: Mode = Mode.CLIENT
    ssid: str = ""  # the access point's SSID (while it is up)
    password: str = ""  # ... and its password, for the Wi-Fi QR code
    address: str = ""  # the companion's address on the access point's network

    @property
    def access_point(self) -> bool:
        return self.mode is Mode.ACCESS_POINT


# --------------------------------------------------------------------------- the settings


def machine_id(path: str = "/etc/machine-id") -> str:
    """The machine's id (32 hex digits), "" when there is none."""
    try:
        return pathlib.Path(path).read_bytes().decode(errors="replace").strip()  # only its hex digits are used
    except OSError:
        return ""


def default_ssid(machine: str) -> str:
    """``Tabletop-XXXX``: the last four hex digits of the machine id, so two companions in
    one hall get different names (``Tabletop-0000`` without a machine id)."""
    digits = "".join(c for c in machine if c in "0123456789abcdefABCDEF")[-4:].upper()
    return f"Tabletop-{digits.rjust(4, '0')}"


def hotspot_password(data_dir: pathlib.Path) -> str:
    """The generated password kept in ``data_dir`` (made on first use, readable only by the
    service user). It is never logged; the Wi-Fi QR code shows it to the table.

    A kept password that cannot be one (not UTF-8 text, a NUL or another character a WPA2
    password may not hold, too long) never stops the companion or its own network: the file is
    set aside as ``hotspot-password.refused``, the log says why, and a new password is made,
    which the pages and the panel show as ever. Should the new one not be kept (a read-only
    card), it serves until the next start, and the log says so."""
    path = pathlib.Path(data_dir) / PASSWORD_FILE
    password, problem = read_hotspot_password(path)
    if password is not None:
        return password
    password = "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))
    try:
        if problem is not None:
            refused = path.with_name(PASSWORD_FILE + ".refused")
            os.replace(path, refused)
            log.error("the Wi-Fi password kept in %s cannot be used: %s. It is set aside as %s and a new "
                      "password is made; the pages and the panel show it", path, problem, refused.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, password + "\n", mode=0o600)
    except OSError as error:
        log.error("the new Wi-Fi password cannot be kept in %s (%s): it serves until the companion stops, "
                  "and the next start makes another", path, error.strerror or error)
    return password


def read_hotspot_password(path: pathlib.Path) -> tuple[str | None, str | None]:
    """The password kept in ``path``, or None and why it cannot be used (None: no usable file
    that is worth mentioning, i.e. none, or an empty or short one, made anew silently)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, None
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as error:
        return None, f"it is not UTF-8 text (byte 0x{raw[error.start]:02X} at position {error.start})"
    if len(text) < 10 and text.isprintable():
        return None, None  # empty or cut short: simply made again
    problem = wifi_password_problem(text)
    if problem is not None:
        where = next((f"; it holds U+{ord(c):04X} at position {i}" for i, c in enumerate(text) if not " " <= c <= "~"), "")
        return None, f"a Wi-Fi password {problem}{where}"
    return text, None


def configured_ssid(config: Config, machine: str | None = None) -> str:
    """The configured SSID, else the one made from the machine id."""
    return config.network.ssid or default_ssid(machine_id() if machine is None else machine)


@dataclass(frozen=True)
class Hotspot:
    """The access point the configuration asks for."""

    mode: str  # "auto" | "always" | "never"
    ssid: str
    password: str
    band: str
    channel: int

    @classmethod
    def from_config(cls, config: Config, *, machine: str | None = None, password: str | None = None) -> Hotspot:
        """The configured access point. Its password: ``password`` if given (``plan`` passes a
        stand-in), else the configured one, else the generated one (read, or made once)."""
        network = config.network
        password = password or network.password or hotspot_password(config.data_dir)
        return cls(network.hotspot, configured_ssid(config, machine), password, network.band, network.channel)

    def bring_up(self, device: str) -> list[list[str]]:
        """The nmcli commands that start the access point on ``device`` (the first may fail:
        there is no profile to delete)."""
        return [
            ["connection", "delete", "id", PROFILE],
            ["connection", "add", "save", "no", "type", "wifi", "ifname", device, "con-name", PROFILE,
             "autoconnect", "no", "ssid", self.ssid,
             "802-11-wireless.mode", "ap", "802-11-wireless.band", self.band,
             "802-11-wireless.channel", str(self.channel),
             "ipv4.method", "shared", "ipv4.addresses", f"{AP_ADDRESS}/24", "ipv6.method", "disabled",
             "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn", "wifi-sec.pairwise", "ccmp",
             "wifi-sec.group", "ccmp", "wifi-sec.psk", self.password],
            ["connection", "up", "id", PROFILE],
        ]

    @staticmethod
    def step_aside(device: str) -> list[list[str]]:
        """The nmcli commands that end the access point and ask NetworkManager to join a known
        network on ``device`` (without waiting: the supervisor watches for the result)."""
        return [
            ["connection", "delete", "id", PROFILE],
            ["--wait", "0", "device", "connect", device],
        ]

    def state(self) -> NetworkState:
        return NetworkState(Mode.ACCESS_POINT, self.ssid, self.password, AP_ADDRESS)


def wifi_qr_payload(ssid: str, password: str) -> str:
    """The text of a Wi-Fi QR code (the ZXing format phones' cameras read):
    ``WIFI:T:WPA;S:<ssid>;P:<password>;;`` with ``\\ ; , " :`` escaped by a backslash."""

    def escape(text: str) -> str:
        return "".join("\\" + c if c in '\\;,":' else c for c in text)

    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def wifi_qr_caveat(ssid: str, password: str) -> str | None:
    """Why some phones may misread the Wi-Fi QR code of ``ssid`` and ``password``, or None.

    The code says its text is UTF-8 (ECI), but readers that ignore that guess Shift_JIS for
    text with Japanese in it, and Shift_JIS reads the escaping backslash as a yen sign
    (zbarimg does so). Only text that is not ASCII *and* needs escaping is at risk."""
    payload = wifi_qr_payload(ssid, password)
    if payload.isascii() or "\\" not in payload:
        return None
    return ("a name that is not plain ASCII together with one of \\ ; , : \" in the name or password: "
            "some phones may misread the Wi-Fi QR code (the name and password are shown too, to type in)")


def masked(command: Sequence[str], password: str) -> list[str]:
    """``command`` with the password replaced, for printing and logging."""
    return ["********" if word == password else word for word in command]


def plan(hotspot: Hotspot, device: str = "wlan0") -> list[tuple[str, list[list[str]]]]:
    """What the supervisor would run, step by step, for the configured mode (nothing is run).

    Each entry is (when, commands); every command is the argument list after ``nmcli``.
    """
    watch = [["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"]]
    if hotspot.mode == "never":
        return [("always (hotspot = \"never\": NetworkManager alone decides)", [])]
    if hotspot.mode == "always":
        return [("at start, and whenever the access point is down", hotspot.bring_up(device)),
                ("every few seconds, to see that it is still up", watch)]
    return [
        ("every few seconds, to see whether a known network is joined", watch),
        (f"after {JOIN_SECONDS:g} s without a known network", hotspot.bring_up(device)),
        (f"every {LOOK_AGAIN_SECONDS:g} s while no phone is associated with the access point", Hotspot.step_aside(device)),
    ]


# --------------------------------------------------------------------------- nmcli


def split_terse(line: str) -> list[str]:
    """The fields of one line of ``nmcli -t`` output (``:`` separates, ``\\:`` and ``\\\\``
    are a colon and a backslash inside a field)."""
    fields, current, escaped = [], [], False
    for character in line:
        if escaped:
            current.append(character)
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(character)
    fields.append("".join(current))
    return fields


@dataclass(frozen=True)
class Wifi:
    """The Wi-Fi device as ``nmcli device status`` shows it."""

    device: str
    state: str  # "connected", "disconnected", "connecting (...)", "unavailable"...
    connection: str  # the active profile's name, "" when none

    @property
    def connected(self) -> bool:
        return self.state == "connected"


class Nmcli:
    """Runs ``nmcli`` (whichever is first on PATH) and reads its terse output."""

    def __init__(self, timeout: float = 100.0, secret: str = ""):
        # nmcli itself gives up on an activation after 90 s: let it say why first.
        self.timeout = timeout
        self.secret = secret  # never shown in errors or the log
        self._lock = threading.Lock()
        self._running: set[subprocess.Popen] = set()
        self._cancelled = False

    def available(self) -> str | None:
        """None when NetworkManager can be driven, else why not, in plain words."""
        if shutil.which("nmcli") is None:
            return "nmcli is not installed (NetworkManager is not in charge of this machine's network)"
        try:
            running = self.run("-t", "-f", "RUNNING", "general")
        except NetworkError as error:
            return str(error)
        if running.strip() != "running":
            return "NetworkManager is not running"
        return None

    def run(self, *arguments: str) -> str:
        """nmcli's output; NetworkError when it fails."""
        shown = " ".join(masked(arguments, self.secret)) if self.secret else " ".join(arguments)
        log.debug("nmcli %s", shown)
        with self._lock:
            if self._cancelled:
                raise NetworkCancelled(f"nmcli {shown}: not run, the companion is stopping")
            try:
                process = subprocess.Popen(["nmcli", *arguments], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE, text=True)
            except FileNotFoundError:
                raise NetworkError("nmcli is not installed") from None
            self._running.add(process)
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise NetworkError(f"nmcli {shown} did not answer within {self.timeout:g} s") from None
        finally:
            with self._lock:
                self._running.discard(process)
        if self._cancelled:
            raise NetworkCancelled(f"nmcli {shown}: ended, the companion is stopping")
        if process.returncode != 0:
            message = stderr.strip().replace(self.secret, "********") if self.secret else stderr.strip()
            raise NetworkError(f"nmcli {shown} failed ({process.returncode}): {message}")
        return stdout

    def cancel(self) -> None:
        """End the nmcli calls under way and refuse new ones (they raise NetworkCancelled):
        the companion is stopping. NetworkManager itself finishes what it was asked."""
        with self._lock:
            self._cancelled = True
            for process in self._running:
                process.terminate()

    def wifi(self) -> Wifi | None:
        """The first Wi-Fi device, None when the machine has none."""
        for line in self.run("-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status").splitlines():
            fields = split_terse(line)
            if len(fields) == 4 and fields[1] == "wifi":
                return Wifi(fields[0], fields[2], fields[3])
        return None

    def address(self, device: str) -> str:
        """The device's IPv4 address ("" when it has none)."""
        for line in self.run("-t", "-f", "IP4.ADDRESS", "device", "show", device).splitlines():
            value = split_terse(line)[-1]
            if value:
                return value.split("/")[0]
        return ""


# --------------------------------------------------------------------------- the status


class NetworkStatus:
    """The current :class:`NetworkState`, shared by the supervisor (which writes it) and the
    web and the panel (which read it). ``port`` makes the join address on the access point."""

    def __init__(self, port: int = 80, state: NetworkState | None = None):
        self.port = port
        self._state = state or NetworkState()
        self._lock = threading.Lock()
        self._listeners: list[Callable[[NetworkState], None]] = []

    @property
    def state(self) -> NetworkState:
        with self._lock:
            return self._state

    def set(self, state: NetworkState) -> None:
        with self._lock:
            changed, self._state = state != self._state, state
            listeners = list(self._listeners)
        if changed:
            for listener in listeners:
                listener(state)

    def subscribe(self, listener: Callable[[NetworkState], None]) -> Callable[[], None]:
        """Call ``listener(state)`` after each change; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def join_base_url(self) -> str | None:
        """``http://10.42.0.1`` (with the port unless 80) while the access point is up, else
        None. An address, not a ``.local`` name: Android before 12 cannot resolve those."""
        state = self.state
        if not state.access_point:
            return None
        return f"http://{state.address}" + ("" if self.port == 80 else f":{self.port}")


def own_addresses(config: Config) -> tuple[str, ...]:
    """The companion's addresses that come from its own network, for a Host-header allow-list:
    the access point's address when the hotspot may go up, else none."""
    return () if config.network.hotspot == "never" else (AP_ADDRESS,)


# --------------------------------------------------------------------------- the supervisor


class Supervisor:
    """Keeps the companion reachable: on a known network when there is one, else on its own.

    - ``auto``: CLIENT while on a known network. Without one (at start, or when the Wi-Fi
      drops) WAITING, giving NetworkManager ``join_seconds`` to find one; then ACCESS_POINT.
      While no phone is associated with the access point, every ``look_again_seconds`` it
      steps aside (WAITING again) so NetworkManager can rejoin a known network that has come
      back. A phone keeps it up as long as it is associated, talking or asleep.
    - ``always``: ACCESS_POINT, brought up again whenever it is found down.

    ``clock`` and ``wait(seconds) -> stop?`` are injected (tests run without real time);
    ``clients(device)`` counts the phones associated with the access point, and raises
    StationCountError when it cannot: then the access point is kept, since phones
    may be on it, and the failure is logged at most every ``COUNT_WARNING_SECONDS``.
    """

    def __init__(self, hotspot: Hotspot, status: NetworkStatus, nmcli: Nmcli, *,
                 clock: Callable[[], float] = time.monotonic, clients: Callable[[str], int] = count_stations,
                 join_seconds: float = JOIN_SECONDS, look_again_seconds: float = LOOK_AGAIN_SECONDS,
                 poll_seconds: float = POLL_SECONDS):
        self.hotspot = hotspot
        self.status = status
        self.nmcli = nmcli
        self.clock = clock
        self.clients = clients
        self.join_seconds = join_seconds
        self.look_again_seconds = look_again_seconds
        self.poll_seconds = poll_seconds
        self._deadline = clock() + join_seconds  # WAITING: when the access point goes up
        self._look_again = 0.0  # ACCESS_POINT: when to step aside if no phone is on it
        self._count_failures = 0  # failed counts since the last one that worked
        self._count_warned: float | None = None  # when the last failed count was logged
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._become(Mode.WAITING)  # until the first look says otherwise

    # ------------------------------------------------------------------ one step

    def step(self) -> None:
        """Look at the Wi-Fi device once and act on what is seen."""
        wifi = self.nmcli.wifi()
        if wifi is None:
            self._become(Mode.CLIENT)  # no Wi-Fi device (yet): nothing to do but wait for one
            return
        on_ap = wifi.connected and wifi.connection == PROFILE
        if self.hotspot.mode == "always":
            if not on_ap:
                self._bring_up(wifi.device)
            else:
                self._become(Mode.ACCESS_POINT)
            return
        now = self.clock()
        if wifi.connected and not on_ap:
            self._become(Mode.CLIENT)
        elif on_ap and self.mode is not Mode.ACCESS_POINT:  # still up from before a restart
            self._become(Mode.ACCESS_POINT)
            self._look_again = now + self.look_again_seconds
        elif self.mode is Mode.CLIENT:
            log.info("the Wi-Fi connection is gone: waiting %g s for a known network", self.join_seconds)
            self._wait_for_known_network(now)
        elif self.mode is Mode.WAITING and now >= self._deadline:
            log.info("no known network within %g s: starting the access point %r", self.join_seconds, self.hotspot.ssid)
            self._bring_up(wifi.device)
            self._look_again = now + self.look_again_seconds
        elif self.mode is Mode.ACCESS_POINT and not on_ap:
            log.warning("the access point went down: waiting for a known network, then starting it again")
            self._wait_for_known_network(now)
        elif self.mode is Mode.ACCESS_POINT and now >= self._look_again:
            if self._phones(wifi.device, now) != 0:  # phones on it, or no telling: keep it
                self._look_again = now + self.look_again_seconds
            else:
                log.info("no phone on the access point: looking for a known network")
                self._run_all(Hotspot.step_aside(wifi.device), may_fail=True)
                self._wait_for_known_network(now)

    def _phones(self, device: str, now: float) -> int | None:
        """The phones associated with the access point, None when they cannot be counted."""
        try:
            phones = self.clients(device)
        except StationCountError as error:
            self._count_failures += 1
            if self._count_warned is None or now - self._count_warned >= COUNT_WARNING_SECONDS:
                self._count_warned = now
                log.warning("cannot count the phones on the access point (%s; %d failed counts so far): "
                            "keeping it up, and saying this again in %g s at the earliest",
                            error, self._count_failures, COUNT_WARNING_SECONDS)
            return None
        if self._count_failures:
            log.info("the phones on the access point can be counted again (%d failed counts before)",
                     self._count_failures)
            self._count_failures = 0
            self._count_warned = None
        return phones

    def _wait_for_known_network(self, now: float) -> None:
        self._deadline = now + self.join_seconds
        self._become(Mode.WAITING)

    def _bring_up(self, device: str) -> None:
        commands = self.hotspot.bring_up(device)
        self._run_all(commands[:1], may_fail=True)  # no profile to delete is fine
        self._run_all(commands[1:])
        self._become(Mode.ACCESS_POINT)

    def _run_all(self, commands: list[list[str]], may_fail: bool = False) -> None:
        for command in commands:
            try:
                self.nmcli.run(*command)
            except NetworkError:
                if not may_fail:
                    raise

    def _become(self, mode: Mode) -> None:
        self.mode = mode
        self.status.set(self.hotspot.state() if mode is Mode.ACCESS_POINT else NetworkState(mode))

    # ------------------------------------------------------------------ the thread

    def run(self, wait: Callable[[float], bool] | None = None) -> None:
        """Step until :meth:`stop`; ``wait(seconds)`` sleeps and returns True to stop."""
        wait = wait or self._stop.wait
        while True:
            try:
                self.step()
            except NetworkCancelled:
                return
            except NetworkError as error:
                log.warning("%s (trying again in %g s)", error, self.poll_seconds)
            except Exception:  # a bug must not end the thread: the own network would never come back
                log.exception("the network supervisor failed (trying again in %g s)", self.poll_seconds)
            if wait(self.poll_seconds):
                return

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="network", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """End the thread at once, ending the nmcli call under way (the access point stays
        up: the service may be back in a second). Call it first when the companion stops:
        its nmcli then ends as asked, not killed under it by the service's stop."""
        self._stop.set()
        self.nmcli.cancel()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        """Whether the supervisor's thread still runs (after :meth:`stop`: whether it failed
        to end within the time given). Read-only."""
        return self._thread is not None and self._thread.is_alive()


def start_supervisor(config: Config, status: NetworkStatus, nmcli: Nmcli | None = None) -> Supervisor | None:
    """The running supervisor for ``config``, or None when there is nothing to supervise
    (``hotspot = "never"``, or no NetworkManager: then said once in the log)."""
    if config.network.hotspot == "never":
        return None
    hotspot = Hotspot.from_config(config)
    nmcli = nmcli or Nmcli(secret=hotspot.password)
    problem = nmcli.available()
    if problem:
        log.warning("no access point: %s; serving on this machine's own network as usual", problem)
        return None
    supervisor = Supervisor(hotspot, status, nmcli)
    supervisor.start()
    return supervisor
