"""Server-Sent Events: tell every open page that the table changed, and nothing else.

An event carries only the table's new version number. Each page then fetches its own
view with its own token, so nothing secret is ever broadcast. Versions coalesce: a
stream that falls behind skips straight to the newest version.

Wire format (``text/event-stream``)::

    retry: 1000                   reconnect after a second if the stream drops
    id: 17                        the version, echoed back by the browser as Last-Event-ID
    data: {"version": 17}

    event: heartbeat              at once, then every ``keepalive_seconds`` while idle:
    data: {"every": 2.0}          "you will hear from me within 2 s"

The heartbeat is what lets a page notice a drop its browser does not (requests hang, no
``offline`` event): a page that hears nothing for twice ``every`` and a second more takes the
stream for dead and reconnects (``web/static/app.js``, ``follow``). It is a named event, not a
comment, because a page's script never sees comments.

Each stream also tells who is at the table (``companion.presence``): the tokens its page
carries count as present while it is open and for a while after, and every open stream
keeps a host at the table (:meth:`Presence.keep_a_host`) each time it wakes.

A stream ends by itself after ``stream_seconds`` (the browser reconnects at once, with
``Last-Event-ID``), at once when the server stops (:meth:`EventHub.stop`), and within
``CLIENT_CHECK_SECONDS`` of its client closing the connection, so open streams never keep
a stopping server alive nor a gone phone's server thread for long.

Each open stream holds one of the server's threads, so their number is capped: per client
address (except for the machine itself, ``THIS_MACHINE``) and in all. A stream over a cap is answered at once with only ``retry: 5000``
and a heartbeat promising the next word within those five seconds, and ends; the browser's
EventSource then reconnects by itself five seconds later (an error status would make it give
up for good), so a refused page keeps following the table and does not take the refusal for a drop.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator

from companion.presence import Presence
from companion.table import Table

RECONNECT_MILLISECONDS = 1000
BUSY_RECONNECT_MILLISECONDS = 5000
"""How soon a browser whose stream was refused (too many open) tries again."""

STREAMS_PER_ADDRESS = 4
"""Open streams one client address may hold: a phone's page and a few it left behind."""

MAX_STREAMS = 24
"""Open streams in all: 8 phones and a table screen, plus streams their phones dropped
without closing (each ends within ``stream_seconds``)."""

THIS_MACHINE = frozenset({"127.0.0.1", "::1"})
"""Addresses with no per-address cap (on streams here, on connections in ``companion/serve.py``):
the machine itself, i.e. a browser on the Pi showing the table screen, the watchdog, and
the tests' browsers playing several phones. Nothing on the network can send from them."""

CLIENT_CHECK_SECONDS = 0.5
"""How often an idle stream asks whether its client has closed the connection."""


class EventHub:
    """Wakes every event stream when the table's version moves or the server stops."""

    def __init__(self, table: Table, *, keepalive_seconds: float, stream_seconds: float,
                 streams_per_address: int = STREAMS_PER_ADDRESS, max_streams: int = MAX_STREAMS,
                 presence: Presence | None = None):
        self.presence = presence
        self.keepalive_seconds = keepalive_seconds
        self.stream_seconds = stream_seconds
        self.streams_per_address = streams_per_address
        self.max_streams = max_streams
        self._open: Counter[str | None] = Counter()  # open streams per client address
        self._changed = threading.Condition()
        self._version = table.version
        self._stopping = False
        self._unsubscribe = table.subscribe(self._on_change)

    def _on_change(self, version: int) -> None:
        # Called by the table from the thread that changed it: only note and wake.
        with self._changed:
            self._version = max(self._version, version)
            self._changed.notify_all()

    @property
    def stopping(self) -> bool:
        return self._stopping

    def stop(self) -> None:
        """End every open stream now and refuse new ones (the server is stopping). Idempotent."""
        with self._changed:
            if self._stopping:
                return
            self._stopping = True
            self._changed.notify_all()
        self._unsubscribe()

    @property
    def open_streams(self) -> int:
        with self._changed:
            return self._open.total()

    def _take_slot(self, address: str | None) -> bool:
        with self._changed:
            if self._open.total() >= self.max_streams or (
                address not in THIS_MACHINE and self._open[address] >= self.streams_per_address
            ):
                return False
            self._open[address] += 1
            return True

    def _free_slot(self, address: str | None) -> None:
        with self._changed:
            self._open[address] -= 1
            if not self._open[address]:
                del self._open[address]

    def stream(self, last_seen: int | None, address: str | None = None,
               client_gone: Callable[[], bool] = lambda: False, tokens: tuple[str, ...] = ()) -> Iterator[str]:
        """The event stream for a page at ``address`` that last saw version ``last_seen``
        (None: nothing yet); ``client_gone()`` tells whether the client closed the connection;
        ``tokens`` are the seat and host tokens the page carries (its player is present while it is open).

        The current version is sent at once unless the page already has it, so a page that
        reconnects after its screen was locked learns at once whether it missed a change.
        The slot is taken when the stream starts and freed when it ends or is closed.
        """
        if not self._take_slot(address):
            yield f"retry: {BUSY_RECONNECT_MILLISECONDS}\n\n"
            yield heartbeat(BUSY_RECONNECT_MILLISECONDS / 1000)
            return
        if self.presence:
            self.presence.arrive(tokens)
        try:
            yield from self._events(last_seen, client_gone)
        finally:
            if self.presence:
                self.presence.leave(tokens)
            self._free_slot(address)

    def _events(self, last_seen: int | None, client_gone: Callable[[], bool]) -> Iterator[str]:
        now = time.monotonic()
        deadline, keepalive_due = now + self.stream_seconds, now + self.keepalive_seconds
        yield f"retry: {RECONNECT_MILLISECONDS}\n\n"
        yield heartbeat(self.keepalive_seconds)  # the page learns at once how often to expect one
        while True:
            now = time.monotonic()
            if now >= deadline or client_gone():
                return
            if self.presence:
                self.presence.keep_a_host()  # the host gone a minute: hosting passes (an event follows)
            with self._changed:
                self._changed.wait_for(
                    lambda: self._stopping or self._version != last_seen,
                    timeout=min(deadline, keepalive_due, now + CLIENT_CHECK_SECONDS) - now,
                )
                version, stopping = self._version, self._stopping
            if stopping:
                return
            now = time.monotonic()
            if version != last_seen:
                last_seen = version
                keepalive_due = now + self.keepalive_seconds
                yield f"id: {version}\ndata: {json.dumps({'version': version})}\n\n"
            elif keepalive_due <= now < deadline:
                keepalive_due = now + self.keepalive_seconds
                yield heartbeat(self.keepalive_seconds)


def heartbeat(every: float) -> str:
    """The event saying the stream is alive and that the next word comes within ``every`` seconds."""
    return f"event: heartbeat\ndata: {json.dumps({'every': every})}\n\n"
