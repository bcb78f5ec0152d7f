"""A level's search on several processors: root-parallel ISMCTS.

Every worker searches the same root (the same view, the same root values and the same
moves to choose among) on states it samples itself, with a seed of its own, for the whole
budget; then the root statistics of all workers are summed, action by action (its visits,
its rewards, how often it was available), and the bot plays the action visited most in
the sum. This is root parallelisation (Cazenave & Jouandeau 2007; Chaslot, Winands & van
den Herik 2008, "Parallel Monte-Carlo Tree Search", where it matched or beat the other
schemes at a few workers): the workers share nothing while they search, so a worker is a
plain process and nothing is locked. For an information set search it also averages over
more sampled states, the "determinizations", which is where ISMCTS is noisiest.

Worker 0 is the asking process itself, searching with the caller's random generator, so
with one worker a search is exactly :func:`.ismcts.search` (the same seed and iterations
give the same move); the other workers get seeds drawn from that generator first
(:func:`worker_seeds`). With a budget of iterations every worker runs that many; with a
budget of time, every worker searches until its deadline.

Two pools do this, with one method, ``search``, shaped as :func:`.ismcts.search`:

- :class:`ProcessPool`, the appliance's: the other workers are helper processes
  (``python -m companion.bots.helper``), started once and kept, searching while worker 0
  searches. A helper ends its search when its asker tells it to stop or goes away, within
  one iteration (it looks at its questions' pipe before each), and on Linux the kernel
  kills it when its asker dies (``PR_SET_PDEATHSIG``): ``companion serve`` kills its bot
  worker when it stops, and nothing of the service may outlive it.
- :class:`InProcessPool`, the arena's (and the tests'): the workers search one after the
  other in this process, each with the budget left when the search began, on its own
  clock. With ``time.process_time`` that is what each worker of a Pi gets, its own
  processor's time (the arena's ``--scale``), as long as the service leaves the workers'
  cores alone.
"""

from __future__ import annotations

import logging
import os
import pickle
import select
import struct
import subprocess
import sys
import time
from dataclasses import replace
from typing import Callable

from ..games import Game
from ..games.rng import Rng
from .budget import ITERATIONS, PROCESSOR_SECONDS, SECONDS, Budget
from .ismcts import Edge, action_key, search

log = logging.getLogger(__name__)

ANSWER_GRACE_SECONDS = 5.0
"""How long after a wall-clock deadline a helper's answer is waited for before the helper
is given up (killed, and started again at the next search): a helper ends its search at
the deadline, give or take one iteration."""

Stats = list[tuple[str, dict, int, int, float, int]]
"""A worker's root statistics, one row per root action in the order first tried:
(key, action, seat, visits, reward, available). What a helper sends back: not its tree."""


def worker_seeds(rng: Rng, helpers: int) -> list[int]:
    """The seeds of workers 1 .. ``helpers``, drawn from worker 0's generator before its
    search (none with one worker: its search is then the single search's)."""
    return [rng.next64() >> 1 for _ in range(helpers)]


def root_stats(edges: list[Edge]) -> Stats:
    """A search's root statistics (see :data:`Stats`)."""
    return [(action_key(edge.action), edge.action, edge.seat, edge.visits, edge.reward, edge.available)
            for edge in edges]


def summed(roots: list[Stats]) -> list[Edge]:
    """The root edges of all workers' searches, summed action by action, in the order of
    their first trial, worker 0's first (ties of visits go to the first tried)."""
    found: dict[str, Edge] = {}
    for stats in roots:
        for key, action, seat, visits, reward, available in stats:
            edge = found.get(key)
            if edge is None:
                edge = found[key] = Edge(action, seat)
            edge.visits += visits
            edge.reward += reward
            edge.available += available
    return list(found.values())


def _checked_workers(workers: int) -> int:
    from ..config import MAX_BOT_WORKERS  # here: a search helper, which imports this module, needs no configuration

    if type(workers) is not int or not 1 <= workers <= MAX_BOT_WORKERS:
        raise ValueError(f"a search runs on 1 to {MAX_BOT_WORKERS} workers, not {workers!r}")
    return workers


class InProcessPool:
    """``workers`` searches one after the other in this process, summed as if they had run at
    once on processors of their own: each gets, on its own clock, the budget that was left
    when the search began (the arena's model of a Pi; see the module's doc). With one
    worker, exactly :func:`.ismcts.search`."""

    def __init__(self, workers: int):
        self.workers = _checked_workers(workers)
        self.overlap = 0.0
        """Of the last search, the clock's time that workers on processors of their own
        would have spent at once: all workers' time but the longest one's."""

    def search(self, game: Game, view: dict, rng: Rng, budget: Budget, *, only: list[dict] | None = None,
               prior: dict[str, float] | None = None, light: bool = False,
               stop: Callable[[], bool] | None = None) -> list[Edge]:
        seeds = worker_seeds(rng, self.workers - 1)
        clock = budget.clock or time.monotonic  # iterations have no clock: their time is still reported
        left = None if budget.deadline is None else budget.deadline - clock()
        spent, roots = [], []
        for worker in range(self.workers):
            began = clock()
            mine = budget if worker == 0 or left is None else replace(budget, deadline=began + left)  # 0 begins now
            roots.append(root_stats(search(game, view, rng if worker == 0 else Rng.from_seed(seeds[worker - 1]), mine,
                                           only=only, prior=prior, light=light, stop=stop)))
            spent.append(clock() - began)
        self.overlap = sum(spent) - max(spent)
        return summed(roots)

    def close(self) -> None:
        """Nothing to end (the same interface as :class:`ProcessPool`)."""


class ProcessPool:
    """Searches on this process and ``workers - 1`` helper processes at once (see the
    module's doc). Wall-clock budgets (``time.monotonic``, one clock for every process of
    the machine) are handed on as they are, processor-time budgets as the processor seconds
    left (:func:`handed_on`). A helper that fails or dies
    leaves its share out of the sum (logged) and is started again at the next search.
    One search at a time (the bot worker asks one question at a time)."""

    def __init__(self, workers: int):
        self.workers = _checked_workers(workers)
        self._helpers: list[_Helper | None] = [None] * (workers - 1)

    def start(self) -> None:
        """Start the helpers now rather than at the first search (a Pi takes seconds to start
        a Python): the bot worker does so as it starts."""
        for index, helper in enumerate(self._helpers):
            if helper is None or not helper.alive():
                self._helpers[index] = _Helper()

    @property
    def pids(self) -> list[int]:
        """The helper processes' ids (for tests and benchmarks)."""
        return [helper.process.pid for helper in self._helpers if helper is not None and helper.alive()]

    def search(self, game: Game, view: dict, rng: Rng, budget: Budget, *, only: list[dict] | None = None,
               prior: dict[str, float] | None = None, light: bool = False,
               stop: Callable[[], bool] | None = None) -> list[Edge]:
        if self.workers == 1:
            return search(game, view, rng, budget, only=only, prior=prior, light=light, stop=stop)
        handed = handed_on(budget)
        seeds = worker_seeds(rng, self.workers - 1)
        self.start()
        # A helper still starting (seconds on a Pi) is left out of a search with a deadline,
        # which it would overrun; a search by iterations waits for it, to be reproducible.
        timed = budget.unit != ITERATIONS
        asked = [helper for helper, seed in zip(self._helpers, seeds)
                 if helper.ready(wait=not timed) and helper.ask((game.id, view, seed, handed, only, prior, light))]
        try:
            roots = [root_stats(search(game, view, rng, budget, only=only, prior=prior, light=light, stop=stop))]
        except BaseException:
            for helper in asked:
                helper.end()
            raise
        if stop is not None and stop():  # told to stop: so are the helpers, which answer with what they have
            for helper in asked:
                helper.stop()
        # A helper's processor time, or its iterations, run out however busy the machine: wait.
        wall = budget.unit == SECONDS
        for helper in asked:
            answer = helper.answer(max(0.0, budget.deadline - time.monotonic()) + ANSWER_GRACE_SECONDS if wall else None)
            if answer is not None:
                roots.append(answer)
        return summed(roots)

    def close(self) -> None:
        """End the helpers (at once, even mid-search) and wait for them."""
        for helper in self._helpers:
            if helper is not None:
                helper.end()
        self._helpers = [None] * (self.workers - 1)


class _Helper:
    """One helper process and the two pipes to it: questions down its standard input,
    answers up its standard output, each a length-prefixed pickle (:func:`send`)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "companion.bots.helper", str(os.getpid())],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._ready = False

    def alive(self) -> bool:
        return self.process.poll() is None

    def ready(self, wait: bool) -> bool:
        """Whether the helper has started (it says :data:`READY` once it has): at once, or
        when ``wait``, once it has. False (and it is ended) when it died starting."""
        if not self._ready and (wait or waiting(self.process.stdout.fileno())):
            try:
                self._ready = receive(self.process.stdout.fileno()) == READY
            except (EOFError, OSError, pickle.UnpicklingError):
                log.warning("a search helper (pid %d) ended as it started", self.process.pid)
                self.end()
        return self._ready

    def ask(self, question: tuple) -> bool:
        """Hand the helper a question; False when it is gone (it starts again next time)."""
        try:
            send(self.process.stdin.fileno(), question)
            return True
        except OSError:
            log.warning("a search helper (pid %d) had ended: it starts again at the next search", self.process.pid)
            self.end()
            return False

    def stop(self) -> None:
        """Tell the helper to end its search now (before its next iteration); it still answers."""
        try:
            send(self.process.stdin.fileno(), None)
        except OSError:
            pass  # gone already: answer() says so

    def answer(self, timeout: float | None) -> Stats | None:
        """The helper's root statistics, or None (logged) when it failed, died or took more
        than ``timeout`` seconds (then it is killed, and started again at the next search)."""
        try:
            ok, answer = receive(self.process.stdout.fileno(), timeout)
        except (EOFError, OSError, TimeoutError, pickle.UnpicklingError) as error:
            log.warning("a search helper (pid %d) did not answer (%s): its share is left out",
                        self.process.pid, type(error).__name__)
            self.end()
            return None
        if not ok:
            log.warning("a search helper failed (%s): its share is left out", answer)
            return None
        return answer

    def end(self) -> None:
        self.process.kill()  # it ignores SIGTERM, as the bot worker does
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass


def handed_on(budget: Budget) -> tuple[Budget, float | None]:
    """A started budget as a helper process gets it: (the budget, None) when it means the
    same there (iterations; wall-clock seconds, whose ``time.monotonic`` deadline is one for
    every process of the machine), else (the budget unstarted, the processor seconds left),
    which the helper starts on its own processor time (:func:`resumed`)."""
    if budget.unit == ITERATIONS or budget.unit == SECONDS and budget.clock is time.monotonic:
        return budget, None
    if budget.unit == PROCESSOR_SECONDS and budget.clock is time.process_time:
        return replace(budget, deadline=None, clock=None), budget.deadline - budget.clock()
    raise ValueError("helper processes keep time by time.monotonic or time.process_time only, not a clock of its own")


def resumed(handed: tuple[Budget, float | None]) -> Budget:
    """The budget a helper searches with, from :func:`handed_on`'s answer."""
    budget, left = handed
    if left is None:
        return budget
    return replace(budget, deadline=time.process_time() + left, clock=time.process_time)


READY = "ready"
"""A helper's first message: it has started and takes questions."""

_LENGTH = struct.Struct("!Q")


def send(fd: int, message) -> None:
    """Write ``message`` to ``fd``: its pickle's length, then the pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def receive(fd: int, timeout: float | None = None):
    """One message written by :func:`send` (EOFError when the other end has closed the
    pipe; TimeoutError when nothing came within ``timeout`` seconds). It reads that message
    and nothing further, so :func:`waiting` sees the next one."""
    if timeout is not None and not waiting(fd, timeout):
        raise TimeoutError("no message came")
    (length,) = _LENGTH.unpack(_read(fd, _LENGTH.size))
    return pickle.loads(_read(fd, length))


def _read(fd: int, size: int) -> bytes:
    parts, left = [], size
    while left:
        part = os.read(fd, left)
        if not part:
            raise EOFError("the other end closed the pipe")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def waiting(fd: int, timeout: float = 0.0) -> bool:
    """Whether ``fd`` has something to read: a message, or the end of the pipe."""
    return bool(select.select([fd], [], [], timeout)[0])
