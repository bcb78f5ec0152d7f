"""A kept Wi-Fi password that cannot be one never stops the companion or its own network
(issue 33, point 11): a NUL in ``hotspot-password`` used to kill the network thread, a file
that is not UTF-8 stopped ``serve`` at start."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import urllib.request

import pytest
from serving import serve_command, serving

from companion import network
from companion.config import load_config
from companion.network import Hotspot, Mode, Nmcli, NetworkStatus, Supervisor


@pytest.mark.parametrize("kept, why", [
    (b"abcdefghij\x00klmnop\n", "a Wi-Fi password may hold only printable ASCII characters (letters, digits, "
                                "punctuation, space); it holds U+0000 at position 10"),
    (b"\xff\xfepassword-1234\n", "it is not UTF-8 text (byte 0xFF at position 0)"),
    ("パスワードパスワードです\n".encode(), "a Wi-Fi password may hold only printable ASCII characters (letters, "
                                         "digits, punctuation, space); it holds U+30D1 at position 0"),
    (b"x" * 70, "a Wi-Fi password must be 10 to 63 characters long (got 70)"),
])
def test_a_kept_password_that_cannot_be_one_is_set_aside_and_a_new_one_made(tmp_path, caplog, kept, why):
    path = tmp_path / network.PASSWORD_FILE
    path.write_bytes(kept)
    with caplog.at_level(logging.ERROR, logger="companion.network"):
        password = network.hotspot_password(tmp_path)
    assert network.read_hotspot_password(path) == (password, None)
    assert (tmp_path / "hotspot-password.refused").read_bytes() == kept  # nothing of the owner's is lost
    [record] = caplog.records
    assert f"cannot be used: {why}. It is set aside as hotspot-password.refused" in record.getMessage()
    assert password not in record.getMessage()


def test_a_short_or_empty_password_is_made_again_quietly(tmp_path, caplog):
    (tmp_path / network.PASSWORD_FILE).write_text("short\n")
    password = network.hotspot_password(tmp_path)
    assert len(password) == network.PASSWORD_LENGTH and caplog.records == []
    assert not (tmp_path / "hotspot-password.refused").exists()


def test_a_new_password_that_cannot_be_kept_still_serves_and_says_so(tmp_path, caplog, monkeypatch):
    def read_only(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(network, "write_atomically", read_only)
    password = network.hotspot_password(tmp_path)
    assert len(password) == network.PASSWORD_LENGTH
    assert "the new Wi-Fi password cannot be kept" in caplog.text and "Read-only file system" in caplog.text


def test_with_a_nul_in_the_kept_password_the_own_network_comes_up(tmp_path, fake_network):
    (tmp_path / network.PASSWORD_FILE).write_bytes(b"abcdefghij\x00klmnop\n")
    config = load_config(overrides={"data_dir": str(tmp_path), "network.hotspot": "always"})
    hotspot = Hotspot.from_config(config, machine="0123456789abcdef0123456789abcd3f")
    status = NetworkStatus(port=80)
    supervisor = Supervisor(hotspot, status, Nmcli(secret=hotspot.password), clients=lambda device: 0)
    supervisor.step()
    assert status.state.mode is Mode.ACCESS_POINT and status.state.password == hotspot.password
    assert "\x00" not in hotspot.password


def test_an_unexpected_fault_does_not_end_the_network_thread(fake_network, caplog):
    steps = []

    class Failing(Supervisor):
        def step(self):
            steps.append(1)
            raise ValueError("embedded null byte")

    hotspot = Hotspot("always", "Tabletop-AB12", "pass;word:10", "bg", 6)
    supervisor = Failing(hotspot, NetworkStatus(), Nmcli(secret=hotspot.password))
    supervisor.run(wait=lambda seconds: len(steps) >= 3)
    assert len(steps) == 3
    assert "the network supervisor failed (trying again" in caplog.text


def test_serve_starts_with_a_kept_password_that_is_not_utf8(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / network.PASSWORD_FILE).write_bytes(b"\xff\xfe\x00garbage\n")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    env["PATH"] = str(tmp_path)  # no nmcli: the companion serves on the machine's own network
    command = serve_command("--data", str(data), "--host", "127.0.0.1", "--port", str(port), "--hardware", "mock",
                            "--log-level", "warning")
    with serving(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ping", timeout=30).status == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert "it is not UTF-8 text" in process.stdout.read().decode()
        assert (data / "hotspot-password.refused").exists()
