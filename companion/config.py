"""The appliance's configuration: one TOML file, checked in full before anything starts.

Three layers, each overriding the one before::

    defaults (the dataclasses below)  <  the TOML file  <  command-line overrides

``load_config()`` returns a frozen :class:`Config` or raises :class:`ConfigError` naming the
file, the key and the reason, e.g. ``/etc/tabletop-companion/config.toml: display.rotation:
must be one of 0, 1, 2, 3 (got the number 5)``. Nothing is half-applied: a bad file is refused
whole. ``companion/data/default-config.toml`` documents every key with its default and
``docs/configuration.md`` explains them; the button layouts live in
``companion/data/button-profiles.toml``.

Inside the loader every setting is handled by its dotted key (``"display.rotation"``,
``"buttons.pins.ok"``), so one table of checks serves the file and the command line alike.
"""

from __future__ import annotations

import difflib
import functools
import ipaddress
import os
import pathlib
import re
import tomllib
import types
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from importlib import resources

import platformdirs

from . import games as _games

APP_NAME = "tabletop-companion"
DEFAULT_PROFILE = "four-buttons"

#: Every button the panel knows; the first four are needed to drive it.
BUTTON_NAMES = ("up", "down", "ok", "back", "left", "right")
REQUIRED_BUTTONS = ("up", "down", "ok", "back")
#: The GPIO pins on the 40-pin header, by their BCM (Broadcom) numbers.
HEADER_PINS = range(0, 28)
#: Bus 1, the I2C bus of the header, takes these two pins; a button there would break the display.
I2C1_LINES = {2: "SDA", 3: "SCL"}

#: Where the Linux device tree tells the board's name (the first one that exists is read).
MODEL_FILES = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")

COMMAND_LINE = "command line"  # the "file" named by errors in overrides


class ConfigError(ValueError):
    """A refused configuration: ``str(error) == "<file>: <key>: <reason>"``.

    ``file`` is None for the built-in defaults (shown as "defaults") and "command line" for
    overrides; ``key`` is the dotted key (None when the whole file is at fault, e.g. bad TOML).
    """

    def __init__(self, file: str | None, key: str | None, reason: str):
        self.file, self.key, self.reason = file, key, reason
        parts = [file if file is not None else "defaults"] + ([key] if key else []) + [reason]
        super().__init__(": ".join(parts))


@functools.cache
def _shipped_profiles() -> dict[str, dict]:
    """The button layouts shipped in ``companion/data/button-profiles.toml``."""
    with resources.files(__package__).joinpath("data/button-profiles.toml").open("rb") as file:
        return tomllib.load(file)


def _default_pins() -> Mapping[str, int]:
    return types.MappingProxyType(dict(_shipped_profiles()[DEFAULT_PROFILE]["pins"]))


def _default_data_dir() -> pathlib.Path:
    return pathlib.Path(platformdirs.user_data_dir(APP_NAME))


def _all_games() -> tuple[str, ...]:
    return tuple(_games.ids())


@dataclass(frozen=True)
class DisplayConfig:
    """The OLED, driven through luma.oled over I2C."""

    driver: str = "ssd1306"  # "ssd1306" | "sh1106" | "none" (no display attached)
    width: int = 128  # pixels; every supported module is 128 wide
    height: int = 64  # 64 | 32
    i2c_bus: int = 1  # /dev/i2c-<bus>; 1 is the header's SDA/SCL pins
    i2c_address: int = 0x3C  # 7-bit address; modules with a jumper may use 0x3D
    rotation: int = 0  # quarter turns clockwise, luma's ``rotate``: 0..3
    contrast: int = 255  # 0..255


@dataclass(frozen=True)
class ButtonsConfig:
    """The buttons, read through gpiozero; ``pins`` maps button names to BCM pin numbers."""

    profile: str = DEFAULT_PROFILE  # a layout from button-profiles.toml or the user's file
    pins: Mapping[str, int] = field(default_factory=_default_pins)  # the profile's, overrides applied
    pull_up: bool = True  # the profile's unless set: true = the button connects the pin to GND
    hold_seconds: float = 0.8  # a press this long is a long press (hold)
    repeat_seconds: float = 0.15  # auto-repeat interval while held (up/down/left/right only)
    bounce_seconds: float = 0.02  # software debounce; 0 turns it off


#: Wi-Fi channels an access point may use, by band ("bg": 2.4 GHz, "a": 5 GHz without radar
#: detection, which NetworkManager cannot do for an access point).
WIFI_CHANNELS = {"bg": tuple(range(1, 14)), "a": (36, 40, 44, 48, 149, 153, 157, 161, 165)}
#: The channel used when the file names a band but no channel.
DEFAULT_CHANNEL = {"bg": 6, "a": 36}


@dataclass(frozen=True)
class NetworkConfig:
    """The companion's own Wi-Fi (``companion/network.py``); ``docs/configuration.md``."""

    hotspot: str = "auto"  # "auto" (when no known network) | "always" | "never"
    ssid: str | None = None  # None: "Tabletop-XXXX" from the machine id
    password: str | None = None  # None: generated once and kept in the data directory
    band: str = "bg"  # "bg" (2.4 GHz, every phone) | "a" (5 GHz)
    channel: int = DEFAULT_CHANNEL["bg"]


MAX_BOT_WORKERS = 3
"""A bot's search runs on at most three worker processes: a Pi has four cores, and the
service and the panel keep one (docs/bots.md, "On several cores")."""


def default_bot_workers(cores: int | None = None) -> int:
    """The machine's cores less one, at least 1 and at most :data:`MAX_BOT_WORKERS`: 3 on
    every supported Pi (four cores), 1 on a machine of two."""
    cores = os.cpu_count() if cores is None else cores
    return max(1, min(MAX_BOT_WORKERS, (cores or 1) - 1))


@dataclass(frozen=True)
class BotsConfig:
    """How long each bot level thinks per move, in seconds of wall-clock time: the levels'
    budgets (``companion.bots.budget.Budget.for_level``; docs/bots.md gives the iterations
    per second: a Raspberry Pi Zero 2 W makes about a tenth of a laptop's).
    ``strong`` thinks five times as long as ``normal``: at 5/3 it played SWAP 5 no better."""

    easy_seconds: float = 0.2
    normal_seconds: float = 0.55
    strong_seconds: float = 2.75
    pause_seconds: float = 0.8  # a bot at the table moves no sooner than this after its turn came, so people can follow
    workers: int = field(default_factory=default_bot_workers)  # processes a bot's move is searched on (hints: one)


@dataclass(frozen=True)
class Config:
    """Everything the appliance reads at start; build it with :func:`load_config`."""

    source: str | None = None  # the file it came from (None: defaults only)
    hardware: str = "auto"  # "auto" (real on a Raspberry Pi, mock elsewhere) | "mock" | "real"
    pin_factory: str = "lgpio"  # gpiozero pin factory when hardware is real: "lgpio" | "rpigpio"
    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    bots: BotsConfig = field(default_factory=BotsConfig)
    host: str = "0.0.0.0"  # address the web server listens on
    port: int = 8000  # the installer's file sets 80
    data_dir: pathlib.Path = field(default_factory=_default_data_dir)  # saved tables (SQLite)
    language: str = "auto"  # "auto" (the browser's) | "en" | "ja"
    games: tuple[str, ...] = field(default_factory=_all_games)  # the games offered
    log_level: str = "info"  # "debug" | "info" | "warning" | "error"


def is_raspberry_pi() -> bool:
    """True when the device tree names the board a Raspberry Pi (any model)."""
    for model_file in MODEL_FILES:
        try:
            model = pathlib.Path(model_file).read_bytes()
        except OSError:
            continue
        return b"Raspberry Pi" in model
    return False


# ---------------------------------------------------------------------------------------------
# The checks. Each takes a raw value and returns the cleaned one or raises _Invalid(reason).


class _Invalid(Exception):
    """A value refused by a check; the loader adds the file and key."""


def _describe(value: object) -> str:
    """The value in plain words, for "(got ...)" in error messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def _choice(*allowed: str) -> Callable[[object], str]:
    def check(value: object) -> str:
        if value not in allowed or not isinstance(value, str):
            raise _Invalid(f"must be one of {', '.join(map(repr, allowed))} (got {_describe(value)})")
        return value

    return check


def _integer(low: int, high: int, *, shown_as: Callable[[int], str] = str, allowed: tuple[int, ...] = ()) -> Callable:
    def check(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Invalid(f"must be a whole number (got {_describe(value)})")
        if allowed and value not in allowed:
            raise _Invalid(f"must be one of {', '.join(map(shown_as, allowed))} (got {shown_as(value)})")
        if not low <= value <= high:
            raise _Invalid(f"must be from {shown_as(low)} to {shown_as(high)} (got {shown_as(value)})")
        return value

    return check


def _seconds(low: float, high: float) -> Callable[[object], float]:
    def check(value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _Invalid(f"must be a number of seconds (got {_describe(value)})")
        if not low <= value <= high:
            raise _Invalid(f"must be from {low} to {high} seconds (got {value})")
        return float(value)

    return check


def _boolean(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(f"must be true or false (got {_describe(value)})")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(f"must be a non-empty text in quotes (got {_describe(value)})")
    return value


_HOSTNAME = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*$")


def _host(value: object) -> str:
    text = _text(value)
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if not _HOSTNAME.match(text):
            raise _Invalid(f"must be an IP address such as '0.0.0.0' or '127.0.0.1', or a host name (got {text!r})")
    return text


_UNSHOWABLE = {"Cc": "a control character", "Cf": "an invisible formatting character", "Zl": "a line separator",
               "Zp": "a paragraph separator", "Co": "a private-use character", "Cn": "an unassigned character",
               "Cs": "a lone surrogate"}
"""Unicode categories an SSID may not hold: NUL, newlines, tabs and terminal escapes (Cc) break
the network tools and logs; right-to-left marks and zero-width characters (Cf) are invisible,
so nobody can read the name off a phone or type it back, and QR readers drop or garble them."""


def _ssid(value: object) -> str:
    text = _text(value)
    if len(text.encode()) > 32:
        raise _Invalid(f"must be at most 32 bytes long, as Wi-Fi allows (got {len(text.encode())} bytes)")
    for character in text:
        kind = _UNSHOWABLE.get(unicodedata.category(character))
        if kind:
            raise _Invalid(f"may not hold {kind} (U+{ord(character):04X}), which phones cannot show or type back")
    if text != text.strip():
        raise _Invalid("may not begin or end with a space, which nobody sees on a phone")
    return text


def _wifi_password(value: object) -> str:
    text = _text(value)
    if not all(" " <= character <= "~" for character in text):
        raise _Invalid("may hold only printable ASCII characters (letters, digits, punctuation, space)")
    if not 10 <= len(text) <= 63:
        raise _Invalid(f"must be 10 to 63 characters long (got {len(text)})")
    return text


def wifi_password_problem(text: str) -> str | None:
    """What makes ``text`` unfit as a WPA2 password (as ``network.password`` is checked), or None."""
    try:
        _wifi_password(text)
    except _Invalid as invalid:
        return str(invalid)
    return None


def _path(value: object) -> pathlib.Path:
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    return pathlib.Path(_text(value)).expanduser()


def _games_offered(value: object) -> tuple[str, ...]:
    known = _games.ids()
    if value == "all":
        return tuple(known)
    if not isinstance(value, (list, tuple)):
        raise _Invalid(f"must be \"all\" or a list of game ids such as {known[:2]!r} (got {_describe(value)})")
    if not value:
        raise _Invalid('must offer at least one game (write "all" for every game)')
    for game_id in value:
        if game_id not in known:
            raise _Invalid(f"unknown game {game_id!r} (known games: {', '.join(known)})")
    duplicates = sorted({game_id for game_id in value if value.count(game_id) > 1})
    if duplicates:
        raise _Invalid(f"lists {duplicates[0]!r} twice")
    return tuple(value)


def _pin(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Invalid(f"must be a BCM GPIO number from 0 to 27 (got {_describe(value)})")
    if value not in HEADER_PINS:
        raise _Invalid(f"GPIO {value} is not on the 40-pin header: use a BCM number from 0 to 27")
    return value


def _hex(number: int) -> str:
    return f"0x{number:02X}"


#: The fixed keys and their checks. Button pins and user profiles have keys made of names
#: (``buttons.pins.<button>``, ``buttons.profiles.<profile>.…``): see _check_for().
_CHECKS: dict[str, Callable[[object], object]] = {
    "hardware": _choice("auto", "mock", "real"),
    "pin_factory": _choice("lgpio", "rpigpio"),
    "host": _host,
    "port": _integer(1, 65535),
    "data_dir": _path,
    "language": _choice("auto", "en", "ja"),
    "games": _games_offered,
    "log_level": _choice("debug", "info", "warning", "error"),
    "display.driver": _choice("ssd1306", "sh1106", "none"),
    "display.width": _integer(128, 128, allowed=(128,)),
    "display.height": _integer(32, 64, allowed=(64, 32)),
    "display.i2c_bus": _integer(0, 255),
    "display.i2c_address": _integer(0x08, 0x77, shown_as=_hex),
    "display.rotation": _integer(0, 3, allowed=(0, 1, 2, 3)),
    "display.contrast": _integer(0, 255),
    "network.hotspot": _choice("auto", "always", "never"),
    "network.ssid": _ssid,
    "network.password": _wifi_password,
    "network.band": _choice("bg", "a"),
    "network.channel": _integer(1, 165),
    "buttons.profile": _text,
    "buttons.pull_up": _boolean,
    "buttons.hold_seconds": _seconds(0.1, 10),
    "buttons.repeat_seconds": _seconds(0.02, 5),
    "buttons.bounce_seconds": _seconds(0, 1),
    "bots.easy_seconds": _seconds(0.05, 60),
    "bots.normal_seconds": _seconds(0.05, 60),
    "bots.strong_seconds": _seconds(0.05, 60),
    "bots.pause_seconds": _seconds(0, 10),
    "bots.workers": _integer(1, MAX_BOT_WORKERS),
}
_PROFILE_CHECKS = {"description": _text, "pull_up": _boolean}
#: Tables the file may hold (a "*" stands for a name chosen by the user).
_TABLES = ("display", "network", "bots", "buttons", "buttons.pins", "buttons.profiles", "buttons.profiles.*", "buttons.profiles.*.pins")


def _table_pattern(key: str) -> str | None:
    """The entry of _TABLES that ``key`` is an instance of, or None if it is no table."""
    parts = key.split(".")
    if parts[:2] == ["buttons", "profiles"] and len(parts) >= 3:
        parts[2] = "*"
    pattern = ".".join(parts)
    return pattern if pattern in _TABLES else None


def _unknown(key: str, known: list[str]) -> _Invalid:
    leaf = key.rpartition(".")[2]
    close = difflib.get_close_matches(leaf, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"known keys here: {', '.join(known)}"
    return _Invalid(f"unknown key; {hint}")


def _check_for(key: str) -> Callable[[object], object]:
    """The check of ``key``; _Invalid if the key is unknown."""
    if key in _CHECKS:
        return _CHECKS[key]
    parent, _, leaf = key.rpartition(".")
    pattern = _table_pattern(parent) if parent else None
    if pattern in ("buttons.pins", "buttons.profiles.*.pins"):
        if leaf in BUTTON_NAMES:
            return _pin
        raise _unknown(key, list(BUTTON_NAMES))
    if pattern == "buttons.profiles.*":
        if leaf in _PROFILE_CHECKS:
            return _PROFILE_CHECKS[leaf]
        raise _unknown(key, [*_PROFILE_CHECKS, "pins"])
    siblings = [k.rpartition(".")[2] for k in _CHECKS if k.rpartition(".")[0] == parent]
    siblings += [t.rpartition(".")[2] for t in _TABLES if t.rpartition(".")[0] == parent and "*" not in t]
    raise _unknown(key, siblings)


# ---------------------------------------------------------------------------------------------
# Loading.


def _read_toml(path: pathlib.Path) -> dict:
    where = str(path)
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        raise ConfigError(where, None, "no such file") from None
    except IsADirectoryError:
        raise ConfigError(where, None, "is a folder, not a file") from None
    except PermissionError:
        raise ConfigError(where, None, "cannot be read (permission denied)") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(where, None, f"not valid TOML: {error}") from None


class _Settings:
    """Checked values by dotted key, and where each came from (for error messages)."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self.origins: dict[str, str | None] = {}
        self.profile_tables: list[str] = []  # "buttons.profiles.<name>" of the user's layouts

    def set(self, key: str, value: object, origin: str | None) -> None:
        try:
            self.values[key] = _check_for(key)(value)
        except _Invalid as invalid:
            raise ConfigError(origin, key, str(invalid)) from None
        self.origins[key] = origin

    def add_file(self, table: dict, origin: str, prefix: str = "") -> None:
        """Check every key of a parsed TOML ``table`` (recursing into the tables allowed there)."""
        for name, value in table.items():
            key = prefix + name
            if _table_pattern(key):
                if not isinstance(value, dict):
                    raise ConfigError(origin, key, f"must be a table [{key}] (got {_describe(value)})")
                if _table_pattern(key) == "buttons.profiles.*":
                    self.profile_tables.append(key)
                    self.origins[key] = origin
                self.add_file(value, origin, key + ".")
            else:
                self.set(key, value, origin)

    def error(self, key: str, reason: str) -> ConfigError:
        return ConfigError(self.origins.get(key), key, reason)


def _profiles(settings: _Settings) -> dict[str, dict]:
    """Every layout: the shipped ones plus the user's ``[buttons.profiles.<name>]``."""
    shipped = {name: {"pull_up": p["pull_up"], "pins": dict(p["pins"]), "prefix": None} for name, p in _shipped_profiles().items()}
    mine: dict[str, dict] = {}
    for table in settings.profile_tables:
        name = table.split(".")[2]
        if name in shipped:
            raise settings.error(table, f"{name!r} is a shipped profile: give yours another name, or move single buttons in [buttons.pins]")
        mine[name] = {"pull_up": True, "pins": {}, "prefix": table}
    for key, value in settings.values.items():
        if not key.startswith("buttons.profiles."):
            continue
        profile = mine[key.split(".")[2]]
        if key.endswith(".pull_up"):
            profile["pull_up"] = value
        elif ".pins." in key:
            profile["pins"][key.rpartition(".")[2]] = value
    for profile in mine.values():
        prefix = profile["prefix"]
        _check_layout(settings, prefix, profile["pins"], {name: f"{prefix}.pins.{name}" for name in profile["pins"]})
    return shipped | mine


def _check_layout(settings: _Settings, table: str, pins: dict[str, int], keys: dict[str, str]) -> None:
    """Every required button present, no pin used twice.

    ``table`` is the key to blame for a missing button, ``keys`` the key behind each pin: when
    two buttons share a pin, the one set last is blamed (command line, then [buttons.pins], then
    the profile), as it is the likelier slip.
    """

    def lateness(button: str) -> int:
        key = keys[button]
        return 2 if settings.origins.get(key) == COMMAND_LINE else 1 if key.startswith("buttons.pins.") else 0

    missing = [name for name in REQUIRED_BUTTONS if name not in pins]
    if missing:
        raise settings.error(table, f"has no {missing[0]!r} button (the panel needs {', '.join(REQUIRED_BUTTONS)})")
    owner_of_pin: dict[int, str] = {}
    for name, pin in pins.items():
        if pin in owner_of_pin:
            other = owner_of_pin[pin]
            blamed, innocent = (other, name) if lateness(other) > lateness(name) else (name, other)
            raise settings.error(keys[blamed], f"GPIO {pin} is also the pin of {innocent!r}: two buttons cannot share a pin")
        owner_of_pin[pin] = name


def _buttons(settings: _Settings) -> ButtonsConfig:
    values = settings.values
    profiles = _profiles(settings)
    name = values.get("buttons.profile", DEFAULT_PROFILE)
    if name not in profiles:
        raise settings.error("buttons.profile", f"unknown profile {name!r} (known profiles: {', '.join(profiles)})")
    profile = profiles[name]
    pins = dict(profile["pins"])
    keys = {button: f"{profile['prefix']}.pins.{button}" if profile["prefix"] else "buttons.profile" for button in pins}
    for key, pin in values.items():
        if key.startswith("buttons.pins."):
            button = key.rpartition(".")[2]
            pins[button], keys[button] = pin, key
    _check_layout(settings, "buttons.pins", pins, keys)

    display_driver = values.get("display.driver", DisplayConfig.driver)
    if display_driver != "none" and values.get("display.i2c_bus", DisplayConfig.i2c_bus) == 1:
        for button, pin in pins.items():
            if pin in I2C1_LINES:
                raise settings.error(keys[button], f"GPIO {pin} is the {I2C1_LINES[pin]} line of I2C bus 1, which the display uses: choose another pin")

    timing = {f.name: values.get(f"buttons.{f.name}", f.default) for f in fields(ButtonsConfig) if f.name.endswith("_seconds")}
    if timing["bounce_seconds"] >= timing["hold_seconds"]:
        key = "buttons.bounce_seconds" if "buttons.bounce_seconds" in values else "buttons.hold_seconds"
        raise settings.error(key, f"the debounce time ({timing['bounce_seconds']} s) must be shorter than the hold time ({timing['hold_seconds']} s)")
    return ButtonsConfig(profile=name, pins=types.MappingProxyType(pins), pull_up=values.get("buttons.pull_up", profile["pull_up"]), **timing)


def _network(settings: _Settings) -> NetworkConfig:
    """The [network] table; the channel must be one of its band's (default: the band's usual)."""
    values = {f.name: settings.values[f"network.{f.name}"] for f in fields(NetworkConfig) if f"network.{f.name}" in settings.values}
    band = values.get("band", NetworkConfig.band)
    channel = values.setdefault("channel", DEFAULT_CHANNEL[band])
    if channel not in WIFI_CHANNELS[band]:
        allowed = WIFI_CHANNELS[band]
        names = f"{allowed[0]} to {allowed[-1]}" if band == "bg" else ", ".join(map(str, allowed))
        key = "network.channel" if "network.channel" in settings.values else "network.band"
        raise settings.error(key, f"channel {channel} is not in band {band!r}: use {names}")
    return NetworkConfig(**values)


def _data_dir(settings: _Settings) -> pathlib.Path:
    """The data folder; a relative one is taken from the file's folder (or the current one)."""
    if "data_dir" not in settings.values:
        return _default_data_dir()
    path = settings.values["data_dir"]
    origin = settings.origins["data_dir"]
    base = pathlib.Path.cwd() if origin == COMMAND_LINE else pathlib.Path(origin).parent
    return path if path.is_absolute() else (base / path).absolute()


def load_config(path: str | os.PathLike | None = None, overrides: Mapping[str, object] | None = None) -> Config:
    """Read, check and return the configuration.

    ``path`` None means the defaults, or the file named by ``$COMPANION_CONFIG`` when that is set.
    ``overrides`` come from the command line as dotted keys, e.g. ``{"port": 9000,
    "hardware": "mock", "display.rotation": 2}``; a None value means "not given" and is skipped.
    Every problem raises :class:`ConfigError`.
    """
    if path is None and os.environ.get("COMPANION_CONFIG"):
        path = os.environ["COMPANION_CONFIG"]
        if not pathlib.Path(path).is_file():
            raise ConfigError(path, None, "no such file (named by $COMPANION_CONFIG)")
    settings = _Settings()
    source = None
    if path is not None:
        source = os.fspath(path)
        settings.add_file(_read_toml(pathlib.Path(source)), source)
    for key, value in (overrides or {}).items():
        if value is not None:
            settings.set(key, value, COMMAND_LINE)

    values = settings.values
    display = DisplayConfig(**{f.name: values[f"display.{f.name}"] for f in fields(DisplayConfig) if f"display.{f.name}" in values})
    bots = BotsConfig(**{f.name: values[f"bots.{f.name}"] for f in fields(BotsConfig) if f"bots.{f.name}" in values})
    plain = {f.name: values[f.name] for f in fields(Config) if f.name in values and f.name in _CHECKS}
    plain["data_dir"] = _data_dir(settings)
    return Config(source=source, display=display, buttons=_buttons(settings), network=_network(settings), bots=bots, **plain)


def default_config_file() -> pathlib.Path:
    """The shipped, documented default file (every key with its default value)."""
    return pathlib.Path(str(resources.files(__package__).joinpath("data/default-config.toml")))
