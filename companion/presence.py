"""Who is at the table, as their phones show it, and the rule that keeps a host among them.

A phone is *present* while its page follows the table (its event stream is open, see
``web/events.py``, which feeds this room) and for ``GONE_SECONDS`` after that stream closed:
a stream ends and reconnects every minute, and a screen locked for a moment or a Wi-Fi blip
is not leaving. What is known is kept in memory only: after a restart everybody counts as
present for ``GONE_SECONDS``, time enough for their phones to reconnect.

The rule (issue 33), so that a table is never left without a host:

- the host gone ``GONE_SECONDS`` (no phone of theirs follows the table): hosting passes to a
  present seated person (:meth:`Presence.keep_a_host`, run by every open stream);
- the host's seat freed (they left it): hosting passes at once to a present seated person,
  if there is one (:meth:`Presence.pass_on`);
- no host present: any seated person may take hosting with one tap (:meth:`Presence.take`).

A bot never hosts: it has no phone, so it is never present here, and the table refuses to
hand hosting to a bot's seat anyway. The table only offers the transfer
(:meth:`Table.hand_over_host`); when to make it is decided here. Time comes from the
injected ``clock`` (seconds, monotonic), so tests do not wait a minute.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable

from .table import Conflict, StorageError, Table

GONE_SECONDS = 60.0
"""How long a phone may go without following the table before its player counts as gone."""


class Presence:
    """The phones following one table, by the tokens they carry. Thread-safe."""

    def __init__(self, table: Table, *, clock: Callable[[], float] = time.monotonic,
                 gone_seconds: float = GONE_SECONDS):
        self._table = table
        self._clock = clock
        self._gone_seconds = gone_seconds
        self._lock = threading.Lock()
        self._passing = threading.RLock()  # one hand-over at a time: two streams seeing the host gone pass it once
        self._open: Counter[str] = Counter()  # token -> its phones' open streams
        self._left_at: dict[str, float] = {}  # token -> when its last stream closed
        self._started = clock()  # nobody is known to be gone before this

    # ------------------------------------------------------------ fed by the event streams

    def arrive(self, tokens: Iterable[str]) -> None:
        """A phone carrying ``tokens`` (its seat and host tokens) opened an event stream."""
        with self._lock:
            for token in tokens:
                self._open[token] += 1
                self._left_at.pop(token, None)

    def leave(self, tokens: Iterable[str]) -> None:
        """That phone's stream closed."""
        now = self._clock()
        with self._lock:
            for token in tokens:
                self._open[token] -= 1
                if self._open[token] <= 0:
                    del self._open[token]
                    self._left_at[token] = now

    # ------------------------------------------------------------ reading

    def _here(self) -> list[str]:
        """The tokens of the phones present now; forgets those gone for good."""
        now = self._clock()
        with self._lock:
            for token in [t for t, at in self._left_at.items() if now - at >= self._gone_seconds]:
                del self._left_at[token]
            return list(self._open) + list(self._left_at)

    def host_present(self) -> bool:
        """Whether the table has a host whose phone is present (or may still come back: a
        restart less than ``GONE_SECONDS`` ago)."""
        if not self._table.has_host:
            return False
        if self._clock() - self._started < self._gone_seconds:
            return True
        return any(self._table.is_host(token) for token in self._here())

    def present_people(self) -> list[int]:
        """The seats of the people (never bots) whose phones are present, in seat order."""
        bots = self._table.bots()
        seats = {self._table.seat_of(token) for token in self._here()}
        return sorted(seat for seat in seats if seat is not None and seat < len(bots) and bots[seat] is None)

    # ------------------------------------------------------------ keeping a host

    def keep_a_host(self) -> int | None:
        """If the table's host has been gone ``GONE_SECONDS``, pass hosting to the first
        present seated person; returns their seat, or None when nothing changed."""
        if not self._table.has_host or self.host_present():
            return None  # the usual answer, without waiting for another stream's hand-over
        with self._passing:
            if self.host_present():  # another stream passed it on meanwhile
                return None
            return self.pass_on()

    def pass_on(self) -> int | None:
        """Pass hosting to the first present seated person who is not the host already (the
        host's seat was freed, or they are gone); returns their seat, or None when there is nobody."""
        with self._passing:
            host_seat = self._table.host_seat
            for seat in self.present_people():
                if seat == host_seat:
                    continue
                try:
                    self._table.hand_over_host(seat)
                except Conflict:  # the seat was freed in the meantime: the next one
                    continue
                except StorageError:  # nothing can be saved now (every screen says so): tried again later
                    return None
                return seat
            return None

    def take(self, seat: int) -> None:
        """The person on ``seat`` takes hosting because no host is present (one tap on their
        phone). Refused (Conflict) while the host is present: ask them to hand it over."""
        with self._passing:
            if self.host_present():
                raise Conflict("the host is here: ask them to hand hosting over to you",
                               "ホストはいます。ホストを譲ってもらうよう頼んでください")
            self._table.hand_over_host(seat)
