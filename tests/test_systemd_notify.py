"""Ready and watchdog notifications to systemd, and a heartbeat that stops when the
companion stops answering (so that systemd restarts a hung service)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from companion import systemd

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def systemd_socket(tmp_path, monkeypatch):
    """A datagram socket standing in for systemd's, named in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(20)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_notify_sends_one_datagram(systemd_socket):
    assert systemd.notify("READY=1")
    assert systemd_socket.recv(100) == b"READY=1"


def test_notify_reaches_an_abstract_socket(monkeypatch):
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        name = f"companion-test-{os.getpid()}"
        sock.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert systemd.notify("WATCHDOG=1")
        assert sock.recv(100) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd.notify("READY=1") is False


def test_the_watchdog_timeout_is_read_for_this_process_only(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert systemd.watchdog_seconds() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert systemd.watchdog_seconds() is None
    monkeypatch.delenv("WATCHDOG_PID")
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    assert systemd.watchdog_seconds() is None


class _Answering(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_the_heartbeat_feeds_the_watchdog_while_the_companion_answers(systemd_socket):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answering)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    heartbeat = systemd.Heartbeat(f"http://127.0.0.1:{server.server_port}/", timeout=0.2)
    heartbeat.start()
    try:
        assert systemd_socket.recv(100) == b"WATCHDOG=1"
        assert systemd_socket.recv(100) == b"WATCHDOG=1"
    finally:
        heartbeat.stop()
        server.shutdown()


def test_the_heartbeat_stops_when_the_companion_hangs(systemd_socket, caplog):
    hung = socket.socket()  # accepts connections into its backlog and never answers
    hung.bind(("127.0.0.1", 0))
    hung.listen()
    heartbeat = systemd.Heartbeat(f"http://127.0.0.1:{hung.getsockname()[1]}/", timeout=0.2)
    heartbeat.start()
    systemd_socket.settimeout(1.0)  # five whole timeouts: systemd would have restarted us
    try:
        with pytest.raises(socket.timeout):
            systemd_socket.recv(100)
    finally:
        heartbeat.stop()
        hung.close()
    assert "not feeding the watchdog" in caplog.text


def test_serve_says_ready_feeds_the_watchdog_and_says_stopping(systemd_socket, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_CONFIG"}
    env.update(WATCHDOG_USEC="400000")  # no WATCHDOG_PID: systemd sets it only when it knows the pid
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--data", str(tmp_path / "data"), "--host", "127.0.0.1",
         "--port", str(port), "--hardware", "mock", "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        assert systemd_socket.recv(200).startswith(b"READY=1\nSTATUS=serving http://127.0.0.1:")
        assert systemd_socket.recv(100) == b"WATCHDOG=1"
        process.send_signal(signal.SIGTERM)
        for _ in range(100):  # heartbeats sent before the signal may still be queued
            if systemd_socket.recv(100) == b"STOPPING=1":
                break
        else:
            raise AssertionError("serve never said STOPPING=1")
        assert process.wait(timeout=10) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
