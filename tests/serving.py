"""``companion serve`` started as a process of its own, and awaited as systemd awaits it.

``serve`` sends ``READY=1`` to the socket named in ``$NOTIFY_SOCKET`` once its server socket
listens (companion/serve.py): the tests wait for that datagram, or for the process to end,
whichever comes first (no polling of the port, no sleep). The notify socket stays open while
the process runs, so that its ``STOPPING=1`` reaches somebody and nothing is logged about it.
"""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READY_SECONDS = 60.0
"""How long a start may take at most (a start takes about a second; a loaded machine, more)."""


def serve_command(*arguments: str) -> list[str]:
    """``python -m companion serve ARGUMENTS``, with this interpreter."""
    return [sys.executable, "-m", "companion", "serve", *arguments]


class ServeProcess:
    """One started process (``process``) that has said it is ready. ``command`` runs from the
    checkout's root with ``env`` (default: this process's environment without
    ``COMPANION_CONFIG``); the other keywords go to :class:`subprocess.Popen`."""

    def __init__(self, command: list[str], *, env: dict | None = None, seconds: float = READY_SECONDS, **popen):
        if env is None:
            env = {key: value for key, value in os.environ.items() if key != "COMPANION_CONFIG"}
        name = f"companion-test-{uuid.uuid4().hex}"
        self._notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._notify.bind("\0" + name)  # an abstract socket: no file to clean up
        env = {key: value for key, value in env.items() if key not in ("WATCHDOG_USEC", "WATCHDOG_PID")}
        env["NOTIFY_SOCKET"] = "@" + name
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, **popen)
        try:
            self._await_ready(seconds)
        except BaseException:
            self.close()
            raise

    def _await_ready(self, seconds: float) -> None:
        ended = os.pidfd_open(self.process.pid)  # readable once the process has ended
        try:
            while True:
                readable, _, _ = select.select([self._notify, ended], [], [], seconds)
                if self._notify in readable:
                    if b"READY=1" in self._notify.recv(4096).split(b"\n"):
                        return
                elif ended in readable:
                    said = self.process.stdout.read().decode(errors="replace") if self.process.stdout else ""
                    raise AssertionError(f"serve ended (status {self.process.wait()}) before it was ready: {said}")
                else:
                    raise AssertionError(f"serve did not say it was ready within {seconds:.0f} s")
        finally:
            os.close(ended)

    def close(self) -> None:
        """End the process if it still runs (SIGKILL), and close the notify socket."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._notify.close()


@contextmanager
def serving(command: list[str], **options):
    """``with serving(command) as process:`` a :class:`ServeProcess`'s process, ready; killed
    on the way out if the test has not stopped it."""
    started = ServeProcess(command, **options)
    try:
        yield started.process
    finally:
        started.close()
