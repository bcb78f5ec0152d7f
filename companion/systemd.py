"""The little of systemd's service protocol the appliance speaks: "ready" and the watchdog.

The unit (``systemd/companion.service``) is ``Type=notify`` with ``WatchdogSec=``. systemd
then waits for ``READY=1`` before it counts the service as started, and restarts it when
``WATCHDOG=1`` stops arriving in time, which is how a hung companion comes back by itself.

The protocol is one datagram on the Unix socket named by ``$NOTIFY_SOCKET``. It is small
enough to speak directly: the PyPI wrappers either need libsystemd headers to build
(systemd-python, painful on a Pi) or are unmaintained (sdnotify), and outside systemd
every function here does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import urllib.request

log = logging.getLogger(__name__)


def notify(state: str) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``) to systemd; False when not run by systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode())
        return True
    except OSError as error:
        log.warning("could not notify systemd (%s): %s", state.split("=")[0], error)
        return False


def watchdog_seconds() -> float | None:
    """The watchdog timeout systemd set for this process, or None when there is none."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1_000_000
    except ValueError:
        return None


class Heartbeat:
    """Feeds the watchdog only while the companion really works.

    Every half timeout it asks its own web server for the public table, which goes through
    the HTTP server, a worker thread, the table's lock and SQLite. Only a good answer sends
    ``WATCHDOG=1``; a hung server or a deadlocked table stops the heartbeat, and systemd
    restarts the service.
    """

    def __init__(self, url: str, timeout: float):
        self.url = url.rstrip("/") + "/api/table"
        self.interval = timeout / 2
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 1)

    def healthy(self) -> bool:
        # Half an interval to answer, so that a slow but healthy answer still feeds the
        # watchdog well before systemd's deadline.
        try:
            with urllib.request.urlopen(self.url, timeout=self.interval / 2) as response:
                return response.status == 200
        except Exception as error:  # noqa: BLE001 - whatever the failure, the answer is "not healthy"
            log.error("the companion does not answer its own health check (%s): not feeding the watchdog", error)
            return False

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.healthy():
                notify("WATCHDOG=1")
