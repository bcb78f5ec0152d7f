"""Stopping the WSGI server always works, even when waitress's wake-up pipe is broken."""

import os
import threading
import urllib.request

from companion.serve import Server
from companion.table import Table
from web import create_app


def test_stop_works_when_the_wake_up_pipe_is_broken(tmp_path, caplog):
    table = Table(tmp_path)
    server = Server(create_app(table), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.port}/api/ping"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
    trigger = server._waitress.trigger
    os.close(trigger.trigger)  # what happened once in a test run: the pipe's write end is gone
    write_end = trigger.trigger
    try:
        server.stop()
        assert server.wait_stopped(timeout=10)
        thread.join(timeout=10)
        assert not thread.is_alive()
        assert "wake-up pipe failed" in caplog.text
    finally:
        trigger._fds = [fd for fd in trigger._fds if fd != write_end]  # closed above: not again
        table.close()


def test_stop_leaves_a_broken_wake_up_pipe_alone_and_always_ends(tmp_path, monkeypatch):
    """Seen in CI: with the pipe broken, closing the listening socket closed the pipe too,
    which failed (its numbers were gone), so serve_forever died without saying it stopped."""
    table = Table(tmp_path)
    server = Server(create_app(table), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/ping", timeout=10) as response:
        assert response.status == 200
    trigger = server._waitress.trigger

    def broken(*args):
        raise OSError(9, "Bad file descriptor")

    monkeypatch.setattr(trigger, "pull_trigger", broken)
    monkeypatch.setattr(trigger, "close", broken)
    try:
        server.stop()
        assert server.wait_stopped(timeout=10)
        thread.join(timeout=10)
        assert not thread.is_alive()
    finally:
        monkeypatch.undo()
        trigger.close()  # whole in this test: its descriptors are ours to close
        table.close()
