"""Server-Sent Events: tell every open page that the table changed, and nothing else.

An event carries only the table's new version number. Each page then fetches its own
view with its own token, so nothing secret is ever broadcast. Versions coalesce: a
stream that falls behind skips straight to the newest version.

Wire format (``text/event-stream``)::

    retry: 1000                   reconnect after a second if the stream drops
    id: 17                        the version, echoed back by the browser as Last-Event-ID
    data: {"version": 17}

    : keep-alive                  a comment every ``keepalive_seconds`` while idle

A stream ends by itself after ``stream_seconds`` (the browser reconnects at once, with
``Last-Event-ID``) and at once when the server stops (:meth:`EventHub.stop`), so open
streams never keep a stopping server alive nor a vanished phone's thread forever.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

from companion.table import Table

RECONNECT_MILLISECONDS = 1000


class EventHub:
    """Wakes every event stream when the table's version moves or the server stops."""

    def __init__(self, table: Table, *, keepalive_seconds: float, stream_seconds: float):
        self.keepalive_seconds = keepalive_seconds
        self.stream_seconds = stream_seconds
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

    def stream(self, last_seen: int | None) -> Iterator[str]:
        """The event stream for a page that last saw version ``last_seen`` (None: nothing yet).

        The current version is sent at once unless the page already has it, so a page that
        reconnects after its screen was locked learns at once whether it missed a change.
        """
        deadline = time.monotonic() + self.stream_seconds
        yield f"retry: {RECONNECT_MILLISECONDS}\n\n"
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            with self._changed:
                self._changed.wait_for(
                    lambda: self._stopping or self._version != last_seen,
                    timeout=min(self.keepalive_seconds, remaining),
                )
                version, stopping = self._version, self._stopping
            if stopping:
                return
            if version != last_seen:
                last_seen = version
                yield f"id: {version}\ndata: {json.dumps({'version': version})}\n\n"
            elif time.monotonic() < deadline:
                yield ": keep-alive\n\n"
