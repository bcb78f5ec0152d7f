"""Waiting in tests on events, never on the clock: a test that sleeps "long enough" fails
the day the machine is busier than when it was written.

- :func:`until_the_table` waits for a condition of a table, woken by each change of its
  version (``Table.wait``, what the event streams use);
- :class:`Watched` is a list a fake fills from another thread, with a wait for what it holds.

Each wait has a bound, far above what any run needs: it turns a hang into a failure that says
what never came. The bound is not a speed claim (figures are measured in benchmarks/).
"""

from __future__ import annotations

import threading
import time

BOUND_SECONDS = 60.0


def until_the_table(table, condition, seconds: float = BOUND_SECONDS, what: str = "the condition"):
    """Wait until ``condition()`` is true (returning what it returned), looking again at each
    change of ``table``'s version."""
    deadline = time.monotonic() + seconds
    while True:
        version = table.version  # before looking: a change while we look is not missed
        if found := condition():
            return found
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"timed out waiting for {what}"
        table.wait(version, remaining)


class Watched(list):
    """A list with :meth:`wait_for`: a fake thinker (another thread) appends what it is asked,
    the test waits until the list holds what it expects. Append with :meth:`append` only."""

    def __init__(self, *items):
        super().__init__(*items)
        self._changed = threading.Condition()

    def append(self, item) -> None:
        with self._changed:
            super().append(item)
            self._changed.notify_all()

    def wait_for(self, condition=bool, seconds: float = BOUND_SECONDS, what: str = "the calls") -> None:
        """Wait until ``condition(self)`` is true (default: the list is not empty)."""
        with self._changed:
            assert self._changed.wait_for(lambda: condition(self), seconds), f"timed out waiting for {what}: {self!r}"

    def wait_for_length(self, length: int, seconds: float = BOUND_SECONDS) -> None:
        self.wait_for(lambda items: len(items) >= length, seconds, f"{length} items")


def poll_until(condition, seconds: float = BOUND_SECONDS, what: str = "the condition", every: float = 0.01):
    """Look at ``condition()`` every ``every`` seconds until it is true (returning what it
    returned). Only for a state that announces nothing, such as a future that a worker's
    thread has taken (``Future.running``): every other wait uses an event."""
    deadline = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(every)
    return found
