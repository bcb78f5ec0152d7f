"""A network between the phones and the server that can drop the way Wi-Fi does when the
phone does not notice: a TCP relay on loopback that the test cuts and restores.

- ``stall()``: everything hangs. Connections stay open and new ones are accepted, but not a
  byte passes either way: no reset, no error, and no ``offline`` event in the browser.
- ``fail()``: every request fails: open connections are reset, new ones reset at once.
- ``restore()``: the network is back. Connections that lived through the drop are closed
  (what they carried meanwhile is lost, as after an outage TCP gives up on them); new ones
  pass everything.

(A module of its own, like ``browser_support``: ``benchmarks/silent_drop.py`` uses it too.)
"""

from __future__ import annotations

import socket
import struct
import threading


def _reset(sock: socket.socket) -> None:
    """Close at once, as a network that gave up on the connection does (shutting down first
    wakes the relay's thread waiting on it)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


class DroppingNetwork:
    """A relay from ``127.0.0.1:<port>`` to the server at ``127.0.0.1:<upstream_port>``."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._flowing = threading.Event()  # set: bytes pass; clear: they wait (a stall)
        self._flowing.set()
        self._failing = False
        self._epoch = 0  # grows at each restore: connections of an earlier epoch lived through a drop
        self._connections: list[tuple[int, socket.socket, socket.socket]] = []
        self._closed = False
        threading.Thread(target=self._accept, name="dropping-network", daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stall(self) -> None:
        with self._lock:
            self._flowing.clear()

    def fail(self) -> None:
        with self._lock:
            self._failing = True
            connections, self._connections = self._connections, []
        for _, near, far in connections:
            _reset(near)
            _reset(far)

    def restore(self) -> None:
        with self._lock:
            self._epoch += 1
            self._failing = False
            through_the_drop, self._connections = self._connections, []
            self._flowing.set()
        for _, near, far in through_the_drop:
            _reset(near)
            _reset(far)

    def close(self) -> None:
        self._closed = True
        self._listener.close()
        self.fail()
        self._flowing.set()

    def _accept(self) -> None:
        while not self._closed:
            try:
                near, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                failing, epoch = self._failing, self._epoch
            if failing:
                _reset(near)
                continue
            try:
                far = socket.create_connection(("127.0.0.1", self.upstream_port))
            except OSError:
                _reset(near)
                continue
            with self._lock:
                self._connections.append((epoch, near, far))
            for source, target in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(epoch, source, target, near, far), daemon=True).start()

    def _pump(self, epoch: int, source: socket.socket, target: socket.socket,
              near: socket.socket, far: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                self._flowing.wait()  # a stall holds what was sent
                with self._lock:
                    lived_through_a_drop = epoch != self._epoch
                if lived_through_a_drop:
                    break
                if not data:
                    target.shutdown(socket.SHUT_WR)
                    return
                target.sendall(data)
        except OSError:
            pass
        _reset(near)
        _reset(far)
