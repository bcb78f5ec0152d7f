"""The configuration: every key, every kind of refusal, the overrides and the button profiles."""

from __future__ import annotations

import dataclasses
import pathlib
import re
import tomllib

import pytest

from companion import config as config_module
from companion import games
from companion.cli import main
from companion.config import (
    BotsConfig,
    ButtonsConfig,
    Config,
    ConfigError,
    DisplayConfig,
    NetworkConfig,
    default_config_file,
    is_raspberry_pi,
    load_config,
)

PROFILES_FILE = pathlib.Path(config_module.__file__).parent / "data/button-profiles.toml"


@pytest.fixture(autouse=True)
def no_config_from_the_environment(monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)


@pytest.fixture
def write(tmp_path):
    """write(text) -> path of a config file holding ``text``."""

    def write(text: str, name: str = "config.toml") -> pathlib.Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def refusal(path, overrides=None) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(path, overrides)
    return str(caught.value)


# ---------------------------------------------------------------------------------------------
# Defaults and the documented default file


def test_no_file_gives_the_dataclass_defaults():
    config = load_config()
    assert config == Config()
    assert config.source is None
    assert config.games == tuple(games.ids())
    assert config.buttons.pins == {"up": 17, "down": 27, "ok": 22, "back": 23}
    assert config.data_dir.name == "tabletop-companion"


def test_the_shipped_default_file_loads_and_equals_the_defaults():
    path = default_config_file()
    assert load_config(path) == Config(source=str(path))


def test_the_default_file_documents_every_key():
    text = default_config_file().read_text()
    for section, cls in (("", Config), ("display", DisplayConfig), ("buttons", ButtonsConfig), ("network", NetworkConfig), ("bots", BotsConfig)):
        for field in dataclasses.fields(cls):
            if field.name in ("source", "display", "buttons", "network", "bots", "pins"):
                continue  # not keys: the file itself, and tables documented by their headers
            assert re.search(rf"^(# )?{field.name} = ", text, re.MULTILINE), f"{section}.{field.name} undocumented"
    for table in ("[display]", "[network]", "[bots]", "[buttons]", "[buttons.pins]", "[buttons.profiles.my-panel]"):
        assert table in text


def test_the_commented_examples_of_the_default_file_are_valid(write):
    """Uncommenting every example line gives a valid file (the examples are not stale)."""
    text = default_config_file().read_text()
    uncommented = re.sub(r"^# ((\[|[a-z_]+ = ).*)$", r"\1", text, flags=re.MULTILINE)
    uncommented = uncommented.replace('profile = "four-buttons"', 'profile = "my-panel"')
    config = load_config(write(uncommented))
    assert config.buttons.profile == "my-panel"
    assert config.buttons.pins == {"up": 5, "down": 6, "ok": 4, "back": 19, "left": 26}


def test_the_environment_variable_names_the_file(write, monkeypatch):
    path = write("port = 9000\n")
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    assert load_config().port == 9000
    assert load_config().source == str(path)


def test_the_environment_variable_naming_a_missing_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "gone.toml"))
    assert refusal(None) == f"{tmp_path / 'gone.toml'}: no such file (named by $COMPANION_CONFIG)"


def test_an_explicit_file_beats_the_environment_variable(write, monkeypatch):
    monkeypatch.setenv("COMPANION_CONFIG", str(write("port = 9000\n", "env.toml")))
    assert load_config(write("port = 9001\n")).port == 9001


# ---------------------------------------------------------------------------------------------
# Every key


@pytest.mark.parametrize(
    "text, attribute, expected",
    [
        ('hardware = "mock"', "hardware", "mock"),
        ('hardware = "real"', "hardware", "real"),
        ('pin_factory = "rpigpio"', "pin_factory", "rpigpio"),
        ('host = "127.0.0.1"', "host", "127.0.0.1"),
        ('host = "::"', "host", "::"),
        ('host = "localhost"', "host", "localhost"),
        ("port = 80", "port", 80),
        ('data_dir = "/srv/tables"', "data_dir", pathlib.Path("/srv/tables")),
        ('language = "ja"', "language", "ja"),
        ('games = ["lion-square"]', "games", ("lion-square",)),
        ('games = "all"', "games", tuple(games.ids())),
        ('log_level = "debug"', "log_level", "debug"),
        ('[display]\ndriver = "sh1106"', "display.driver", "sh1106"),
        ('[display]\ndriver = "none"', "display.driver", "none"),
        ("[display]\nwidth = 128", "display.width", 128),
        ("[display]\nheight = 32", "display.height", 32),
        ("[display]\ni2c_bus = 3", "display.i2c_bus", 3),
        ("[display]\ni2c_address = 0x3D", "display.i2c_address", 0x3D),
        ("[display]\ni2c_address = 61", "display.i2c_address", 0x3D),
        ("[display]\nrotation = 2", "display.rotation", 2),
        ("[display]\ncontrast = 0", "display.contrast", 0),
        ('[buttons]\nprofile = "adafruit-oled-bonnet"', "buttons.profile", "adafruit-oled-bonnet"),
        ("[buttons]\npull_up = false", "buttons.pull_up", False),
        ("[buttons]\nhold_seconds = 1", "buttons.hold_seconds", 1.0),
        ("[buttons]\nrepeat_seconds = 0.25", "buttons.repeat_seconds", 0.25),
        ("[buttons]\nbounce_seconds = 0", "buttons.bounce_seconds", 0.0),
        ("[buttons.pins]\nok = 4", "buttons.pins", {"up": 17, "down": 27, "ok": 4, "back": 23}),
    ],
)
def test_every_key_is_read(write, text, attribute, expected):
    value = load_config(write(text + "\n"))
    for part in attribute.split("."):
        value = getattr(value, part)
    assert value == expected
    assert type(value) is type(expected) or isinstance(expected, dict)


def test_a_relative_data_dir_is_taken_from_the_files_folder(write, tmp_path):
    assert load_config(write('data_dir = "tables"\n')).data_dir == tmp_path / "tables"


def test_a_data_dir_with_a_tilde_is_in_the_home_folder(write):
    assert load_config(write('data_dir = "~/tables"\n')).data_dir == pathlib.Path.home() / "tables"


def test_the_configuration_cannot_be_changed_after_loading():
    config = load_config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.port = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.buttons.pins["ok"] = 4  # type: ignore[index]


# ---------------------------------------------------------------------------------------------
# Refusals: the file, the key and the reason


@pytest.mark.parametrize(
    "text, message",
    [
        # unknown keys, with a hint when one is close
        ("prot = 80", "prot: unknown key; did you mean 'port'?"),
        ("[displya]\nx = 1", "displya: unknown key; did you mean 'display'?"),
        ("[display]\nrotate = 1", "display.rotate: unknown key; did you mean 'rotation'?"),
        ("[display]\nzzz = 1", "display.zzz: unknown key; known keys here: driver, width, height, i2c_bus, i2c_address, rotation, contrast"),
        ("[buttons.pins]\nfire = 5", "buttons.pins.fire: unknown key; known keys here: up, down, ok, back, left, right"),
        ("[buttons.pins]\nback_ = 5", "buttons.pins.back_: unknown key; did you mean 'back'?"),
        # wrong types
        ('port = "80"', "port: must be a whole number (got the text '80')"),
        ("port = 80.5", "port: must be a whole number (got the number 80.5)"),
        ("port = true", "port: must be a whole number (got true)"),
        ("hardware = 1", "hardware: must be one of 'auto', 'mock', 'real' (got the number 1)"),
        ("host = 3", "host: must be a non-empty text in quotes (got the number 3)"),
        ('data_dir = ""', "data_dir: must be a non-empty text in quotes (got the text '')"),
        ('[buttons]\npull_up = "yes"', "buttons.pull_up: must be true or false (got the text 'yes')"),
        ('[buttons]\nhold_seconds = "1"', "buttons.hold_seconds: must be a number of seconds (got the text '1')"),
        ("display = 3", "display: must be a table [display] (got the number 3)"),
        ("[display.driver]\nx = 1", "display.driver: must be one of 'ssd1306', 'sh1106', 'none' (got a table)"),
        ("games = 3", "games: must be \"all\" or a list of game ids such as " + repr(games.ids()[:2]) + " (got the number 3)"),
        # out of range or not one of the choices
        ("port = 0", "port: must be from 1 to 65535 (got 0)"),
        ("port = 70000", "port: must be from 1 to 65535 (got 70000)"),
        ('hardware = "fake"', "hardware: must be one of 'auto', 'mock', 'real' (got the text 'fake')"),
        ('pin_factory = "pigpio"', "pin_factory: must be one of 'lgpio', 'rpigpio' (got the text 'pigpio')"),
        ('language = "fr"', "language: must be one of 'auto', 'en', 'ja' (got the text 'fr')"),
        ('log_level = "verbose"', "log_level: must be one of 'debug', 'info', 'warning', 'error' (got the text 'verbose')"),
        ('host = "my host"', "host: must be an IP address such as '0.0.0.0' or '127.0.0.1', or a host name (got 'my host')"),
        ('[display]\ndriver = "ssd1309"', "display.driver: must be one of 'ssd1306', 'sh1106', 'none' (got the text 'ssd1309')"),
        ("[display]\nwidth = 96", "display.width: must be one of 128 (got 96)"),
        ("[display]\nheight = 48", "display.height: must be one of 64, 32 (got 48)"),
        ("[display]\ni2c_bus = -1", "display.i2c_bus: must be from 0 to 255 (got -1)"),
        ("[display]\ni2c_address = 0x80", "display.i2c_address: must be from 0x08 to 0x77 (got 0x80)"),
        ("[display]\nrotation = 90", "display.rotation: must be one of 0, 1, 2, 3 (got 90)"),
        ("[display]\ncontrast = 256", "display.contrast: must be from 0 to 255 (got 256)"),
        ("[buttons]\nhold_seconds = 0", "buttons.hold_seconds: must be from 0.1 to 10 seconds (got 0)"),
        ("[buttons]\nrepeat_seconds = 6", "buttons.repeat_seconds: must be from 0.02 to 5 seconds (got 6)"),
        ("[buttons]\nbounce_seconds = -0.1", "buttons.bounce_seconds: must be from 0 to 1 seconds (got -0.1)"),
        ("[buttons]\nbounce_seconds = 0.5\nhold_seconds = 0.4", "buttons.bounce_seconds: the debounce time (0.5 s) must be shorter than the hold time (0.4 s)"),
        # games
        ('games = ["chess"]', f"games: unknown game 'chess' (known games: {', '.join(games.ids())})"),
        ("games = []", 'games: must offer at least one game (write "all" for every game)'),
        ('games = ["lion-square", "lion-square"]', "games: lists 'lion-square' twice"),
        # pins and profiles
        ("[buttons.pins]\nok = 28", "buttons.pins.ok: GPIO 28 is not on the 40-pin header: use a BCM number from 0 to 27"),
        ('[buttons.pins]\nok = "GPIO4"', "buttons.pins.ok: must be a BCM GPIO number from 0 to 27 (got the text 'GPIO4')"),
        ("[buttons.pins]\nok = 17", "buttons.pins.ok: GPIO 17 is also the pin of 'up': two buttons cannot share a pin"),
        ("[buttons.pins]\nup = 22", "buttons.pins.up: GPIO 22 is also the pin of 'ok': two buttons cannot share a pin"),
        ("[buttons.pins]\nok = 3", "buttons.pins.ok: GPIO 3 is the SCL line of I2C bus 1, which the display uses: choose another pin"),
        ('[buttons]\nprofile = "joystick"', "buttons.profile: unknown profile 'joystick' (known profiles: four-buttons, adafruit-oled-bonnet)"),
        ("[buttons.profiles.four-buttons]\npull_up = true", "buttons.profiles.four-buttons: 'four-buttons' is a shipped profile: give yours another name, or move single buttons in [buttons.pins]"),
        ("[buttons.profiles.mine.pins]\nup = 5\ndown = 6\nok = 13", "buttons.profiles.mine: has no 'back' button (the panel needs up, down, ok, back)"),
        ("[buttons.profiles.mine.pins]\nup = 5\ndown = 6\nok = 13\nback = 5", "buttons.profiles.mine.pins.back: GPIO 5 is also the pin of 'up': two buttons cannot share a pin"),
        ("[buttons.profiles.mine]\ncolour = 1", "buttons.profiles.mine.colour: unknown key; known keys here: description, pull_up, pins"),
        ("[buttons.profiles.mine]\ndescription = 5", "buttons.profiles.mine.description: must be a non-empty text in quotes (got the number 5)"),
        ("[buttons.profiles]\nmine = 5", "buttons.profiles.mine: must be a table [buttons.profiles.mine] (got the number 5)"),
        # not TOML at all
        ("port = ", "not valid TOML: Invalid value (at line 1, column 8)"),
    ],
)
def test_a_bad_file_is_refused_with_file_key_and_reason(write, text, message):
    path = write(text + "\n")
    assert refusal(path) == f"{path}: {message}"


def test_a_user_profile_is_checked_even_when_not_chosen(write):
    path = write("[buttons.profiles.spare.pins]\nup = 5\n")
    assert refusal(path).startswith(f"{path}: buttons.profiles.spare: has no 'down' button")


def test_a_missing_file_is_refused(tmp_path):
    assert refusal(tmp_path / "none.toml") == f"{tmp_path / 'none.toml'}: no such file"


def test_a_folder_is_refused(tmp_path):
    assert refusal(tmp_path) == f"{tmp_path}: is a folder, not a file"


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"port = \xff\n")
    assert refusal(path).startswith(f"{path}: not valid TOML: ")


def test_the_error_carries_its_parts():
    error = ConfigError("/etc/x.toml", "display.rotation", "must be 0 to 3")
    assert (error.file, error.key, error.reason) == ("/etc/x.toml", "display.rotation", "must be 0 to 3")
    assert str(error) == "/etc/x.toml: display.rotation: must be 0 to 3"
    assert str(ConfigError(None, "port", "too big")) == "defaults: port: too big"
    assert str(ConfigError("/etc/x.toml", None, "no such file")) == "/etc/x.toml: no such file"
    assert isinstance(error, ValueError)


# ---------------------------------------------------------------------------------------------
# Overrides from the command line


def test_overrides_beat_the_file(write):
    path = write('port = 80\nhardware = "real"\n[display]\nrotation = 1\n')
    config = load_config(path, {"port": 9000, "hardware": "mock", "display.rotation": 2, "buttons.pins.ok": 4})
    assert (config.port, config.hardware, config.display.rotation) == (9000, "mock", 2)
    assert config.buttons.pins["ok"] == 4


def test_overrides_apply_without_a_file():
    assert load_config(None, {"port": 9000}).port == 9000


def test_an_override_of_none_means_not_given(write):
    assert load_config(write("port = 80\n"), {"port": None, "hardware": None}).port == 80


def test_a_relative_data_dir_override_is_taken_from_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_config(None, {"data_dir": "x"}).data_dir == tmp_path / "x"
    assert load_config(None, {"data_dir": tmp_path / "y"}).data_dir == tmp_path / "y"


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"port": "9000"}, "command line: port: must be a whole number (got the text '9000')"),
        ({"hardware": "fake"}, "command line: hardware: must be one of 'auto', 'mock', 'real' (got the text 'fake')"),
        ({"prot": 1}, "command line: prot: unknown key; did you mean 'port'?"),
        ({"display.rotate": 1}, "command line: display.rotate: unknown key; did you mean 'rotation'?"),
        ({"buttons.pins.ok": 17}, "command line: buttons.pins.ok: GPIO 17 is also the pin of 'up': two buttons cannot share a pin"),
    ],
)
def test_a_bad_override_is_refused(overrides, message):
    assert refusal(None, overrides) == message


def test_a_clash_between_the_file_and_an_override_blames_the_override(write):
    path = write("[buttons.pins]\nok = 4\n")
    assert refusal(path, {"buttons.pins.left": 4}) == "command line: buttons.pins.left: GPIO 4 is also the pin of 'ok': two buttons cannot share a pin"


# ---------------------------------------------------------------------------------------------
# Button profiles


def test_the_shipped_profiles_are_valid_layouts():
    shipped = tomllib.loads(PROFILES_FILE.read_text())
    assert set(shipped) == {"four-buttons", "adafruit-oled-bonnet"}
    for name, profile in shipped.items():
        config = load_config(None, {"buttons.profile": name})
        assert dict(config.buttons.pins) == profile["pins"]
        assert config.buttons.pull_up is profile["pull_up"]
        assert profile["description"]


def test_the_bonnet_profile_is_the_adafruit_pinout():
    buttons = load_config(None, {"buttons.profile": "adafruit-oled-bonnet"}).buttons
    # Adafruit 128x64 OLED Bonnet: joystick U17 D22 L27 R23 (centre 4), button A 5, B 6.
    assert dict(buttons.pins) == {"up": 17, "down": 22, "left": 27, "right": 23, "ok": 5, "back": 6}
    assert buttons.pull_up is True


def test_a_user_profile_is_used_and_its_pull_up_applies(write):
    path = write(
        '[buttons]\nprofile = "perfboard"\n'
        '[buttons.profiles.perfboard]\ndescription = "mine"\npull_up = false\n'
        "[buttons.profiles.perfboard.pins]\nup = 5\ndown = 6\nok = 13\nback = 19\n"
    )
    buttons = load_config(path).buttons
    assert (buttons.profile, dict(buttons.pins), buttons.pull_up) == ("perfboard", {"up": 5, "down": 6, "ok": 13, "back": 19}, False)


def test_pull_up_in_buttons_beats_the_profiles(write):
    assert load_config(write("[buttons]\npull_up = false\n")).buttons.pull_up is False


def test_single_pins_move_and_left_right_can_be_added(write):
    pins = load_config(write("[buttons.pins]\nok = 5\nleft = 6\n")).buttons.pins
    assert dict(pins) == {"up": 17, "down": 27, "ok": 5, "back": 23, "left": 6}


def test_i2c_pins_are_free_for_buttons_when_the_display_is_elsewhere(write):
    assert load_config(write('[display]\ndriver = "none"\n[buttons.pins]\nok = 2\n')).buttons.pins["ok"] == 2
    assert load_config(write("[display]\ni2c_bus = 3\n[buttons.pins]\nok = 2\n")).buttons.pins["ok"] == 2


# ---------------------------------------------------------------------------------------------
# The board and the command


@pytest.mark.parametrize(
    "files, expected",
    [
        ({"model": b"Raspberry Pi 5 Model B Rev 1.0\0"}, True),
        ({"model": b"Raspberry Pi Zero 2 W Rev 1.0\0"}, True),
        ({"model": b"Radxa ROCK 5B\0"}, False),
        ({"base-model": b"Raspberry Pi 4 Model B Rev 1.5\0"}, True),
        ({}, False),
    ],
)
def test_is_raspberry_pi_reads_the_device_tree(tmp_path, monkeypatch, files, expected):
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    monkeypatch.setattr(config_module, "MODEL_FILES", (str(tmp_path / "model"), str(tmp_path / "base-model")))
    assert is_raspberry_pi() is expected


def test_config_check_prints_ok_and_a_summary(write, capsys):
    path = write('[buttons]\nprofile = "adafruit-oled-bonnet"\n')
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"{path}: OK"
    assert "ssd1306 128x64 on I2C bus 1 at 0x3C" in out
    assert "adafruit-oled-bonnet (up=GPIO17, down=GPIO22, left=GPIO27, right=GPIO23, ok=GPIO5, back=GPIO6; pull-up)" in out


def test_config_check_without_a_file_checks_the_defaults(capsys):
    assert main(["config", "check"]) == 0
    assert capsys.readouterr().out.startswith("defaults: OK\n")


def test_config_check_prints_the_refusal_and_exits_2(write, capsys):
    path = write("[display]\nrotation = 5\n")
    assert main(["config", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"companion: {path}: display.rotation: must be one of 0, 1, 2, 3 (got 5)\n"
    assert captured.out == ""
