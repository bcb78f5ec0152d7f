"""``companion doctor``: each check's verdict and the fix it prints."""

from __future__ import annotations

import grp
import http.server
import os
import socket
import subprocess
import threading
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.error import DeviceNotFoundError

import hardware.doctor
from companion.cli import main
from companion.config import load_config
from hardware.doctor import run_doctor, unit_settings


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


# ---------------------------------------------------------------------------------------------
# What the service really has: the installed configuration, the unit's rights (issue 22 point 3;
# the virtual Pi runs the documented command for real: tests/system/check_service.py)

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "companion.service"


def test_a_port_held_by_the_running_companion_is_not_a_failure(tmp_path):
    class Ping(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b'{"ok": true}'
            self.send_response(200 if self.path == "/api/ping" else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    with http.server.ThreadingHTTPServer(("0.0.0.0", 0), Ping) as companion:
        threading.Thread(target=companion.serve_forever, daemon=True).start()
        config = config_for(tmp_path, port=companion.server_address[1])
        status, lines = doctor(config, ask_buttons=False)
        companion.shutdown()
    assert f"OK    port: 0.0.0.0:{config.port} is served by the running companion" in lines


def test_the_units_settings_carry_its_user_groups_capability_and_sandbox_not_its_lifecycle():
    settings = unit_settings(UNIT.read_text())
    for setting in ("User=tabletop-companion", "SupplementaryGroups=gpio i2c spi",
                    "AmbientCapabilities=CAP_NET_BIND_SERVICE", "WorkingDirectory=/var/lib/tabletop-companion",
                    "ProtectSystem=strict", "DevicePolicy=closed", "DeviceAllow=char-gpiochip rw",
                    "SystemCallFilter=~@privileged", "StateDirectory=tabletop-companion"):
        assert setting in settings
    keys = {setting.split("=", 1)[0] for setting in settings}
    assert not keys & {"Type", "ExecStart", "Restart", "WatchdogSec", "KillMode", "RemoveIPC", "Description", "WantedBy"}


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """An installed unit and configuration where the doctor looks for them."""
    config = tmp_path / "config.toml"
    config.write_text(f'port = {free_port()}\ndata_dir = "{tmp_path / "data"}"\nhardware = "mock"\n')
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text())
    monkeypatch.setattr(hardware.doctor, "INSTALLED_CONFIG", str(config))
    monkeypatch.setattr(hardware.doctor, "INSTALLED_UNIT", str(unit))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setattr(hardware.doctor, "RUNTIME_DROP_INS", ())
    monkeypatch.setattr(hardware.doctor, "_systemctl", lambda *arguments: None)  # no systemd here
    monkeypatch.delenv(hardware.doctor.IN_SERVICE, raising=False)
    monkeypatch.delenv(hardware.doctor.SERVICE_STATE, raising=False)
    return config


def test_as_root_the_doctor_checks_with_the_installed_units_rights(installed, monkeypatch, capsys):
    run = []
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(subprocess, "run", lambda argv: run.append(argv) or subprocess.CompletedProcess(argv, 0))
    assert main(["doctor", "--no-buttons"]) == 0
    [argv] = run
    assert argv[:3] == ["systemd-run", "--quiet", "--wait"]
    assert "--property=SupplementaryGroups=gpio i2c spi" in argv
    assert "--property=AmbientCapabilities=CAP_NET_BIND_SERVICE" in argv
    assert "--property=WorkingDirectory=/var/lib/tabletop-companion" in argv
    assert argv[-5:] == ["/opt/tabletop-companion/venv/bin/companion", "doctor", "--config", str(installed), "--no-buttons"]
    assert "Checking as the service runs" in capsys.readouterr().out


def test_without_config_the_doctor_checks_the_installed_configuration(installed, monkeypatch, capsys):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # a user, not root: checked here, as that user
    main(["doctor", "--no-buttons"])
    out = capsys.readouterr().out
    assert f"Checking {installed} as the user running this command" in out
    port = installed.read_text().split()[2]
    assert f"0.0.0.0:{port}" in out


def test_a_missing_gpio_library_is_mended_by_the_installer_not_by_a_group(tmp_path, monkeypatch):
    def no_lgpio(name, mock):
        raise ImportError("No module named 'lgpio'")

    monkeypatch.setattr(hardware.doctor, "pin_factory", no_lgpio)
    monkeypatch.setattr(hardware.doctor, "is_raspberry_pi", lambda: True)
    status, lines = doctor(config_for(tmp_path, hardware="real", **{"display.driver": "none"}), mock=False, ask_buttons=False)
    fixes = lines[lines.index("To fix:"):]
    assert status == 1
    assert any("systemd/install.sh" in fix for fix in fixes)
    assert not any("to the 'gpio' group" in fix for fix in fixes)  # the installer never adds a user to gpio


def test_a_gpio_chip_the_service_cannot_open_points_at_the_units_group(tmp_path, monkeypatch):
    def denied(name, mock):
        raise PermissionError(13, "Permission denied", "/dev/gpiochip0")

    monkeypatch.setattr(hardware.doctor, "pin_factory", denied)
    monkeypatch.setattr(hardware.doctor, "is_raspberry_pi", lambda: True)
    status, lines = doctor(config_for(tmp_path, hardware="real", **{"display.driver": "none"}), mock=False, ask_buttons=False)
    fix = lines[lines.index("To fix:") + 1]
    assert "group 'gpio', which its unit grants" in fix and "sudo" in fix


# ---------------------------------------------------------------------------------------------
# The unit as systemd applies it (drop-ins), rights judged for the service user, crash loops
# (issue 32, point 6)

DROP_IN = """[Service]
SupplementaryGroups=
SupplementaryGroups=gpio
ReadWritePaths=/srv/tables
"""


def test_as_root_the_doctor_carries_the_drop_ins_after_the_unit(installed, monkeypatch):
    drop_ins = Path(hardware.doctor.INSTALLED_UNIT + ".d")
    drop_ins.mkdir()
    (drop_ins / "override.conf").write_text(DROP_IN)
    (drop_ins / "10-earlier.conf").write_text("[Service]\nEnvironment=FIRST=1\n")
    (drop_ins / "notes.txt").write_text("[Service]\nUser=nobody\n")  # not a drop-in: systemd reads *.conf only
    run = []
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(subprocess, "run", lambda argv: run.append(argv) or subprocess.CompletedProcess(argv, 0))
    assert main(["doctor", "--no-buttons"]) == 0
    [argv] = run
    properties = [argument.removeprefix("--property=") for argument in argv if argument.startswith("--property=")]
    tail = properties[properties.index("Environment=FIRST=1"):]
    assert tail == ["Environment=FIRST=1", "SupplementaryGroups=", "SupplementaryGroups=gpio",
                    "ReadWritePaths=/srv/tables"]
    assert properties.index("SupplementaryGroups=gpio i2c spi") < properties.index("Environment=FIRST=1")
    assert "--property=User=nobody" not in argv
    service = hardware.doctor.installed_service()
    assert service.values("SupplementaryGroups") == ["gpio"]
    assert service.value("User") == "tabletop-companion"


def test_where_systemd_runs_its_own_reading_of_the_unit_is_used(installed):
    unit = hardware.doctor.INSTALLED_UNIT
    shown = {"cat": f"# {unit}\n[Service]\nUser=tabletop-companion\nExecStart=/x serve\n"
                    "# /run/systemd/system/companion.service.d/50-vendor.conf\n[Service]\nUser=someone\n",
             "show": "LoadState=loaded\nActiveState=active\nSubState=running\nNRestarts=0\n"}
    service = hardware.doctor.installed_service(lambda command, *rest: shown[command])
    assert service.value("User") == "someone"
    assert service.state["ActiveState"] == "active"
    # A unit systemd knows from elsewhere (not the installed file): the file is read instead.
    other = hardware.doctor.installed_service(lambda command, *rest: "# /lib/systemd/system/companion.service\n"
                                              if command == "cat" else None)
    assert other.value("User") == "tabletop-companion" and other.state is None


CRASH_LOOP = {"LoadState": "loaded", "ActiveState": "activating", "SubState": "auto-restart", "NRestarts": "7",
              "Result": "exit-code", "ExecMainCode": "1", "ExecMainStatus": "1"}


@pytest.mark.parametrize("state, line", [
    (CRASH_LOOP, "FAIL  service: crash-looping: it failed (exit-code, exit status 1), has restarted 7 times and "
                 "waits to start again"),
    ({**CRASH_LOOP, "ActiveState": "active", "SubState": "running", "NRestarts": "2"},
     "WARN  service: running, but it has restarted 2 times since it was started (exit status 1)"),
    ({**CRASH_LOOP, "ActiveState": "failed", "SubState": "failed", "ExecMainCode": "2", "ExecMainStatus": "9"},
     "FAIL  service: stopped after failing (exit-code, killed by signal 9; restarted 7 times)"),
    ({**CRASH_LOOP, "ActiveState": "active", "SubState": "running", "NRestarts": "0"}, "OK    service: running (running)"),
])
def test_the_services_state_is_told_a_crash_loop_first(tmp_path, state, line):
    service = hardware.doctor.InstalledService("", state)
    status, lines = doctor(config_for(tmp_path, **{"network.hotspot": "never"}), ask_buttons=False, service=service)
    assert lines[0] == line
    assert status == (1 if line.startswith("FAIL") else 0)
    if not line.startswith("OK"):
        assert any("journalctl -u companion" in fix for fix in lines[lines.index("To fix:"):])


def test_root_hands_the_services_state_to_the_doctor_that_runs_as_the_service(installed, monkeypatch, capsys):
    run = []
    monkeypatch.setattr(hardware.doctor, "_systemctl", lambda command, *rest: (
        "\n".join(f"{key}={value}" for key, value in CRASH_LOOP.items()) if command == "show" else None))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(subprocess, "run", lambda argv: run.append(argv) or subprocess.CompletedProcess(argv, 0))
    main(["doctor", "--no-buttons"])
    [setenv] = [argument for argument in run[0] if argument.startswith(f"--setenv={hardware.doctor.SERVICE_STATE}=")]
    # The doctor inside systemd-run reads it from its environment.
    monkeypatch.undo()
    monkeypatch.setenv(hardware.doctor.IN_SERVICE, "1")
    monkeypatch.setenv(*setenv.removeprefix("--setenv=").split("=", 1))
    monkeypatch.setenv("COMPANION_CONFIG", str(installed))
    assert main(["doctor", "--no-buttons"]) == 1
    assert "FAIL  service: crash-looping" in capsys.readouterr().out


def service_user_unit(user: str) -> "hardware.doctor.InstalledService":
    return hardware.doctor.InstalledService(
        f"[Service]\nUser={user}\nAmbientCapabilities=CAP_NET_BIND_SERVICE\nStateDirectory=tabletop-companion\n")


def test_without_sudo_a_folder_the_service_user_owns_is_not_reported_as_unwritable(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    os.chown(data, 65534, 65534)  # nobody's, as /var/lib/tabletop-companion is the service user's
    monkeypatch.setattr(hardware.doctor.os, "access", lambda path, mode: False)  # as a user who is not root sees it
    config = config_for(tmp_path, **{"network.hotspot": "never"})
    status, lines = doctor(config, ask_buttons=False, service=service_user_unit("nobody"))
    [line] = [line for line in lines if "data directory" in line]
    assert line.startswith("OK    data directory:") and "writable by the service user nobody, not by you" in line
    data.chmod(0o500)  # now nobody may not write either
    status, lines = doctor(config, ask_buttons=False, service=service_user_unit("nobody"))
    assert "FAIL  data directory: " + str(data) + " cannot be written by the service user nobody" in lines
    assert any(f"give nobody write access to {data}" in line for line in lines)
    # Run as the service (inside systemd-run) the doctor's own rights are the service's.
    status, lines = doctor(config, ask_buttons=False, service=service_user_unit("nobody"), as_service=True)
    assert any(line.startswith("FAIL  data directory: ") and "cannot be written by this user" in line for line in lines)


def test_without_sudo_port_80_is_the_services_to_bind(tmp_path, monkeypatch):
    class NoPrivilege(socket.socket):
        def bind(self, address):
            raise PermissionError(13, "Permission denied")

    config = config_for(tmp_path, port=80, **{"network.hotspot": "never"})
    monkeypatch.setattr(hardware.doctor.socket, "socket", NoPrivilege)
    status, lines = doctor(config, ask_buttons=False, service=service_user_unit("nobody"))
    assert "OK    port: port 80 needs a privilege you lack and the service has (AmbientCapabilities=CAP_NET_BIND_SERVICE)" in lines
    status, lines = doctor(config, ask_buttons=False)
    assert "FAIL  port: port 80 needs privileges this user lacks" in lines


def test_without_sudo_a_gpio_chip_the_services_group_may_open_is_not_a_fault(tmp_path, monkeypatch):
    chip = tmp_path / "gpiochip0"
    chip.touch()
    chip.chmod(0o660)
    os.chown(chip, 0, grp.getgrnam("users").gr_gid)  # root:users, as root:gpio on a Pi; nobody is not in it
    monkeypatch.setattr(hardware.doctor, "GPIO_CHIPS", str(tmp_path / "gpiochip*"))
    monkeypatch.setattr(hardware.doctor, "is_raspberry_pi", lambda: True)

    def denied(name, mock):
        raise PermissionError(13, "Permission denied", str(chip))

    monkeypatch.setattr(hardware.doctor, "pin_factory", denied)
    config = config_for(tmp_path, hardware="real", **{"display.driver": "none", "network.hotspot": "never"})
    unit = hardware.doctor.InstalledService("[Service]\nUser=nobody\nSupplementaryGroups=users\n")
    status, lines = doctor(config, mock=False, ask_buttons=False, service=unit)
    assert f"OK    GPIO: you may not open {chip}, the service user nobody may (with the groups its unit gives it); " \
           "run the doctor with sudo to check as the service" in lines
    assert status == 0
    chip.chmod(0o600)  # root's alone: the service may not either
    status, lines = doctor(config, mock=False, ask_buttons=False, service=unit)
    assert any(line.startswith("FAIL  GPIO: the buttons are missing: this service may not open") for line in lines)
