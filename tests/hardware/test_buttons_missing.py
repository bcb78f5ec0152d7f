"""Buttons that cannot be opened never take the phones down (issue 32, point 6).

On plain Debian /dev/gpiochip0 is root's alone: lgpio raises ``lgpio.error: 'can not open
gpiochip'`` when a pin is opened. gpiozero's MockFactory is made to fail the same way here;
the panel, the pages, the doctor and a real ``companion serve`` must all carry on and say why.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import urllib.request

import pytest
from gpiozero.pins.mock import MockFactory
from serving import serving

import hardware
import hardware.buttons
import hardware.doctor
from companion.config import load_config
from hardware.buttons import buttons_problem, open_buttons
from hardware.doctor import run_doctor
from web import create_app



class LgpioError(Exception):
    """Stands for ``lgpio.error``, which subclasses Exception (lgpio is not installed here)."""


class LockedChipFactory(MockFactory):
    """A pin factory whose pins cannot be opened, as lgpio's on a root-only /dev/gpiochip0."""

    closed = False

    def pin(self, spec, **kwargs):
        raise LgpioError("'can not open gpiochip'")

    def close(self):
        LockedChipFactory.closed = True
        super().close()


@pytest.fixture
def locked_chip(monkeypatch):
    LockedChipFactory.closed = False
    monkeypatch.setattr(hardware.buttons, "pin_factory", lambda kind, mock: LockedChipFactory())


@pytest.fixture
def panel(locked_chip, table, tmp_path):
    config = load_config(None, {"data_dir": str(tmp_path / "data"), "hardware": "mock"})
    panel = hardware.create_panel(config, table, public_url="http://192.168.1.20:8000/", lan_address="192.168.1.20")
    panel.start()
    assert panel.settle()
    yield panel
    panel.stop()


def test_pins_that_cannot_be_opened_give_no_buttons_and_a_reason_and_release_the_factory(locked_chip):
    import queue

    config = load_config(None, {"hardware": "mock"})
    buttons, problem = open_buttons(config.buttons, "lgpio", True, queue.Queue())
    assert buttons is None
    assert LockedChipFactory.closed
    assert problem.detail == "LgpioError: 'can not open gpiochip'"
    assert problem.en.startswith("The buttons do not work:") and "Play on the phones" in problem.en
    assert problem.ja.startswith("ボタンが使えません:") and "スマートフォンで遊べます" in problem.ja


def test_a_chip_only_root_may_open_is_named_with_the_udev_fix(monkeypatch, tmp_path):
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(hardware.buttons, "GPIO_CHIPS", str(tmp_path / "gpiochip*"))
    monkeypatch.setattr(hardware.buttons.os, "access", lambda path, mode: False)  # as the service user sees it
    problem = buttons_problem(LgpioError("'can not open gpiochip'"), "lgpio")
    assert problem.why_en == f"this service may not open {chip}"
    assert str(chip) in problem.why_ja
    assert 'GROUP="gpio"' in problem.fix and "udevadm trigger" in problem.fix


def test_the_panel_runs_without_buttons_and_says_so_on_the_glass(panel, table):
    assert panel.buttons is None and panel.button_names == [] and not panel.is_mock
    assert panel.text_lines()[:2] == ["NO", "BUTTONS"]  # wrapped beside the join QR code, never cut
    table.start_game("lion-square", 3, seed=1)
    assert panel.settle()
    assert "NO BUTTONS" in panel.text_lines()  # the status screen's headline
    with pytest.raises(PermissionError):
        panel.press("ok")


def test_the_display_page_and_the_host_page_say_the_buttons_are_missing(panel, table):
    app = create_app(table, panel=panel)
    web = app.test_client()
    try:
        page = web.get("/display?lang=en").get_data(as_text=True)
        assert "The buttons do not work: " in page and "data-button=" not in page
        assert "ボタンが使えません" in web.get("/display?lang=ja").get_data(as_text=True)
        pressed = web.post("/api/buttons/ok", json={"press": "short"}, headers={"X-Requested-With": "companion"})
        assert pressed.status_code == 409 and pressed.json["error"].startswith("The buttons do not work: ")
        assert pressed.json["error_ja"].startswith("ボタンが使えません")
        web.set_cookie("host_token", table.claim_host())
        host = web.get("/host?lang=en")
        assert host.status_code == 200 and "The buttons do not work: " in host.get_data(as_text=True)
    finally:
        app.extensions["companion"].events.stop()


def test_the_doctor_says_in_both_languages_that_the_buttons_are_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(hardware.doctor, "pin_factory", lambda kind, mock: LockedChipFactory().pin(17))
    monkeypatch.setattr(hardware.doctor, "is_raspberry_pi", lambda: True)
    config = load_config(None, {"data_dir": str(tmp_path / "data"), "port": free_port(), "hardware": "real",
                                "display.driver": "none", "network.hotspot": "never"})
    lines = []
    assert run_doctor(config, out=lines.append, mock=False) == 1
    [gpio] = [line for line in lines if line.startswith("FAIL  GPIO:")]
    assert "the buttons are missing" in gpio and "can not open gpiochip" in gpio
    assert "ボタンが使えません" in gpio and "the phones work" in gpio
    assert "SKIP  buttons: this user cannot open the GPIO (above)" in lines


BOOTSTRAP = """
import sys
from gpiozero.pins.mock import MockFactory
import hardware.buttons

class error(Exception):
    pass

class LockedChip(MockFactory):
    def pin(self, spec, **kwargs):
        raise error("'can not open gpiochip'")

hardware.buttons.pin_factory = lambda kind, mock: LockedChip()
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_serve_keeps_serving_the_phones_when_the_gpio_cannot_be_opened(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", BOOTSTRAP, "serve", "--data", str(tmp_path), "--host", "127.0.0.1",
               "--port", str(port), "--hardware", "mock", "--log-level", "warning"]
    with serving(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        ping = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ping", timeout=30).read()
        assert b'"ok"' in ping
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/display?lang=en", timeout=30).read().decode()
        assert "The buttons do not work" in page
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/display.txt", timeout=30).read().decode()
        assert text.splitlines()[:2] == ["NO", "BUTTONS"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        log = process.stdout.read().decode()
        assert "no buttons (error: 'can not open gpiochip')" in log


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
