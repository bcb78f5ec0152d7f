"""``companion doctor``: each check's verdict and the fix it prints."""

from __future__ import annotations

import socket

from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

from companion.config import load_config
from hardware.doctor import run_doctor


def doctor(config, **options):
    lines = []
    status = run_doctor(config, out=lines.append, **options)
    return status, lines


def config_for(tmp_path, **overrides):
    return load_config(None, {"data_dir": str(tmp_path / "data"), "port": free_port(), "hardware": "mock", **overrides})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return probe.getsockname()[1]


def test_everything_right_in_mock_mode_with_every_button_pressed(tmp_path, pins):
    config = config_for(tmp_path)

    def press(message):
        name = message.split("'")[1]
        pin = pins.pin(config.buttons.pins[name])
        pin.drive_low()
        pin.drive_high()

    status, lines = doctor(config, prompt=press, pins=pins)
    assert status == 0, lines
    assert [line.split(":")[0] for line in lines if line.startswith("OK")] == [
        "OK    platform", "OK    display", "OK    button up", "OK    button down", "OK    button ok",
        "OK    button back", "OK    data directory", "OK    port", "OK    network"]
    assert lines[-1] == "Everything looks right."


def test_a_button_never_pressed_fails_with_its_pin(tmp_path, pins):
    config = config_for(tmp_path)
    status, lines = doctor(config, prompt=lambda message: None, pins=pins, press_seconds=0.05)
    assert status == 1
    assert "FAIL  button up: no press seen on GPIO 17 within 0.05 s" in lines
    assert "  - check the wiring of 'up': GPIO 17 to the button, the button to GND" in lines


def test_a_display_at_the_other_address_names_the_setting_to_change(tmp_path):
    config = config_for(tmp_path)

    def open_display(address):
        if address != 0x3D:
            raise DeviceNotFoundError(f"I2C device not found on address: 0x{address:02X}")
        return dummy(mode="1")

    status, lines = doctor(config, mock=False, ask_buttons=False, open_display=open_display)
    assert "FAIL  display: found at 0x3D, not at the configured 0x3C" in lines
    assert "  - set display.i2c_address = 0x3D in the configuration" in lines
    assert status == 1


def test_no_display_at_all_says_how_to_look(tmp_path):
    config = config_for(tmp_path)

    def open_display(address):
        raise OSError(121, "Remote I/O error")

    status, lines = doctor(config, mock=False, ask_buttons=False, open_display=open_display)
    assert any(line.startswith("FAIL  display: no display answers (0x3C:") for line in lines)
    assert any("i2c" in fix.lower() for fix in lines[lines.index("To fix:"):])


def test_a_taken_port_and_a_data_path_that_is_a_file(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        config = load_config(None, {"data_dir": str(blocker), "port": taken.getsockname()[1], "hardware": "mock"})
        status, lines = doctor(config, ask_buttons=False)
    assert status == 1
    assert f"FAIL  data directory: {blocker} is a file, not a folder" in lines
    assert any(line.startswith(f"FAIL  port: 0.0.0.0:{config.port} is not free") for line in lines)
