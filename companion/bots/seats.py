"""Bots at the table: they take seats and move like phones, and they give hints.

:class:`BotSeats` sits beside the table, never inside it. It uses only the table's public
methods, exactly as a phone does through the web: ``join`` gives a bot its seat token,
``view(seat)`` is what it sees (the same view that seat's phone gets), ``act`` makes its
move (logged and undoable like any other), ``seat_of(token)`` says whether the seat is still
its own. A host freeing the seat (or a new game without it) makes the token open nothing;
the bot is then gone.

The search itself (:func:`companion.bots.choose`) runs in two :class:`WorkerThinker` objects,
each a worker process of its own: one for the bots' moves, one for hints, so a bot's move
never waits behind a hint, and a bot thinking never holds the web process's GIL (pages stay
as quick as when idle, ``benchmarks/bot_latency.py``). A worker receives a game id and a
seat's view, never a state. A bot that cannot move tells the table why
(``Table.report_trouble``: every screen shows it) and tries again.

Bot seats are remembered in ``bots.sqlite`` in the data directory, so after a restart the
bots sit where they sat and think on.
"""

from __future__ import annotations

import collections
import concurrent.futures
import logging
import pickle
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

from .. import games
from ..config import BotsConfig
from ..store import durability
from ..table import Conflict, IllegalAction, NotFound, StorageError, Table, TableError
from . import LEVELS, NoBot, supported
from .budget import Budget
from .worker import END_SIGNAL

log = logging.getLogger(__name__)

DATABASE = "bots.sqlite"
"""The file in the data directory that remembers the bot seats."""

HINT_SECONDS_RANGE = (0.1, 5.0)
"""The budgets a hint may ask for, in seconds: long enough to mean something, short
enough that a phone's request never waits long."""

HINT_POLL_SECONDS = 0.2
"""How often a hint's request checks whether its phone has given up."""

RETRY_SECONDS = 5
"""How long a bot that could not move waits before it tries again (a change of the table
makes it try at once)."""

UNDO_PAUSE_SECONDS = 3.0
"""How long the bots hold still after an undo unless a person moves first, so the move taken
back does not come straight back before anyone has seen the table as it was."""

END_GRACE_SECONDS = 1.0
"""How long a worker told to end may take to end its search helpers before it is killed."""

WAIT_MARGIN_SECONDS = 30.0
"""How much longer than its budget an answer may take before it is given up (the worker
may have to start first, or finish another seat's move)."""


class HintBusy(Conflict):
    """The seat's previous hint is still being worked out (a seat has one in flight at most)."""


class HintAbandoned(RuntimeError):
    """The request for a hint ended before its answer came: the question was dropped."""


class HintOutdated(Conflict):
    """The table moved on (a new game, a move, the seat freed) while the hint was thought:
    its answer is for a position that is gone."""


TROUBLE_WORDS = {"en": "This bot cannot move just now; it tries again in {seconds} s.",
                 "ja": "このボットは今、手を選べません。{seconds}秒後にもう一度試します。"}
"""What every screen shows of a bot that cannot move: a fixed sentence. Why is logged only:
a search's error may name what the bot's seat alone sees, a hidden card."""


def bot_name(seat: int, level: str) -> str:
    """The name a bot's seat is kept under at the table: ``Bot 2 (Normal)``. Screens name a
    bot in their own language from the seat's level (``Table.bots``), not from this name;
    it is what a reader of the database or of a log line sees."""
    return f"Bot {seat + 1} ({LEVELS[level]['en']})"


class Thinker(Protocol):
    """What BotSeats hands the choosing to (the worker process, or a fake in tests)."""

    def think(self, game_id: str, view: dict, *, level: str, budget: Budget) -> concurrent.futures.Future: ...

    def close(self) -> None: ...


class WorkerDied(RuntimeError):
    """The worker process ended while it was choosing (killed, or out of memory); a new one
    starts with the next question, which can be asked at once."""


class WorkerThinker:
    """Chooses in one worker process of its own (:mod:`companion.bots.worker`), one question
    at a time, in the order asked.

    The worker is a fresh Python (it shares nothing with the web process's threads and
    locks) that talks to this process over its standard input and output, with no lock
    shared between them: a worker killed at any moment (the kernel ends it, or a person)
    leaves nothing held. The worker ignores SIGTERM and SIGINT, so the companion decides
    when it ends: :meth:`close` ends it at once, even in a long search (budgets go up to
    60 s; systemd allows 15 s to stop). A worker that dies mid-question fails that question
    with :class:`WorkerDied` at once; the next question starts a new worker. ``budget``,
    when given, replaces every question's (tests and benchmarks give iterations, to be
    quick and independent of speed). ``workers``: how many
    processes a question's search runs on, the worker and its own helpers
    (:mod:`companion.bots.parallel`), which end with it.

    A question's future is set running when the worker takes it: one cancelled before then
    is never thought about (a hint whose phone gave up)."""

    def __init__(self, budget: Budget | None = None, name: str = "bot worker", workers: int = 1):
        self._budget = budget
        self._workers = workers
        self._name = name
        self._ready = threading.Condition()
        self._questions: collections.deque = collections.deque()
        self._closed = False
        self._process: subprocess.Popen | None = None  # the worker, started when first needed
        self._thread: threading.Thread | None = None

    def think(self, game_id: str, view: dict, *, level: str, budget: Budget) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        if self._budget is not None:
            budget = self._budget
        with self._ready:
            if self._closed:
                future.cancel()
                return future
            self._questions.append((future, (game_id, view, level, budget)))
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
                self._thread.start()
            self._ready.notify()
        return future

    @property
    def pid(self) -> int | None:
        """The worker process's id while one runs (for tests and benchmarks)."""
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def close(self) -> None:
        """End the worker at once; what was asked and not answered is cancelled."""
        with self._ready:
            self._closed = True
            self._ready.notify()
            process = self._process
            waiting = list(self._questions)
            self._questions.clear()
        if process is not None:
            _end_worker(process)  # it ignores SIGTERM: ending it is ours to do
        for future, _ in waiting:
            future.cancel()
        if self._thread is not None:
            self._thread.join()
        if process is not None:
            process.wait()
            _close_pipes(process)

    def _serve(self) -> None:
        """The thread that hands the questions to the worker, one at a time, and its answers back."""
        while True:
            with self._ready:
                self._ready.wait_for(lambda: self._questions or self._closed)
                if self._closed:
                    return
                future, question = self._questions.popleft()
                if not future.set_running_or_notify_cancel():
                    continue  # its asker gave up before the worker took it
            try:
                answer = self._ask(question)
            except BaseException as error:  # noqa: BLE001 - every failure goes to the asker
                future.set_exception(error)
            else:
                future.set_result(answer)

    def _ask(self, question: tuple) -> dict:
        with self._ready:
            if self._closed:
                raise concurrent.futures.CancelledError()
            if self._process is None or self._process.poll() is not None:
                self._process = _start_worker(self._workers)
            process = self._process
        try:
            pickle.dump(question, process.stdin)
            process.stdin.flush()
            ok, answer = pickle.load(process.stdout)  # EOFError when the worker died (or close killed it)
        except (EOFError, OSError, pickle.UnpicklingError):
            with self._ready:
                closed = self._closed
                if self._process is process:
                    self._process = None
            process.kill()  # already gone, unless its answer was garbled
            process.wait()
            _close_pipes(process)
            if closed:
                raise concurrent.futures.CancelledError() from None
            log.warning("the %s ended (exit code %s) while choosing: a new one starts", self._name, process.returncode)
            raise WorkerDied(f"the {self._name} ended while choosing (exit code {process.returncode})") from None
        if not ok:
            raise answer
        return answer


def _start_worker(workers: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "companion.bots.worker", str(workers)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE)


def _end_worker(process: subprocess.Popen) -> None:
    """End a worker at once, even mid-search. :data:`.worker.END_SIGNAL` has it end its
    search helpers and wait for them before it ends itself, so that none outlives it (a
    process the service started must not outlive the service); one that has not ended
    within END_GRACE_SECONDS is killed."""
    try:
        process.send_signal(END_SIGNAL)
        process.wait(timeout=END_GRACE_SECONDS)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        process.kill()


def _close_pipes(process: subprocess.Popen) -> None:
    for pipe in (process.stdin, process.stdout):
        try:
            pipe.close()
        except OSError:  # a question half-written to a worker that died: nothing more to flush
            pass


class BotSeats:
    """The bots of one table: seat them (:meth:`seat`), let them play (:meth:`start`, then
    :meth:`stop`), and ask for hints (:meth:`hint`). Thread-safe.

    A bot against Taro, as ``companion serve`` sets it up (its two worker processes start
    with the first move or hint asked of them)::

        >>> import tempfile
        >>> from companion.bots.seats import BotSeats
        >>> from companion.table import Table
        >>> data_dir = tempfile.mkdtemp()
        >>> table = Table(data_dir)
        >>> _ = table.start_game("swap5", players=2, seed=42)
        >>> _ = table.join(0, "Taro")
        >>> bots = BotSeats(table, data_dir)
        >>> bots.seat(1, "normal")  # it joins like a phone: table.join, then it plays from view(1)
        >>> bots.levels(), table.names()
        ({1: 'normal'}, ['Taro', 'Bot 2 (Normal)'])
        >>> bots.hint(0) in table.view(0)["actions"]  # a move for Taro, thought from seat 0's view alone
        True
        >>> bots.start()  # from now on the bots move whenever the table awaits them
        >>> view = table.view(0)
        >>> table.act(0, view["actions"][0], view["version"])
        >>> for _ in range(30):  # until the bot has answered: each change of the table wakes us
        ...     if table.view(0)["actions"]:
        ...         break
        ...     _ = table.wait(table.version, timeout=1.0)
        >>> [move["seat"] for move in table.action_log()]  # Taro's move, then the bot's
        [0, 1]
        >>> bots.stop()  # before the table closes: a bot may be about to move
        >>> table.close()
    """

    def __init__(self, table: Table, data_dir: str | Path, config: BotsConfig | None = None, *,
                 thinker: Thinker | None = None, hinter: Thinker | None = None,
                 undo_pause_seconds: float = UNDO_PAUSE_SECONDS):
        """``thinker`` chooses the bots' moves, ``hinter`` the hints (each a worker process of
        its own by default; given only a thinker, it does both). ``undo_pause_seconds``: how
        long the bots hold still after an undo (tests shorten it)."""
        self._table = table
        self._config = config or BotsConfig()
        # The bots' moves search on [bots] workers processes; a hint on one: hints are asked
        # now and then, and a Pi's fourth core is the service's.
        self._thinker = thinker or WorkerThinker(name="bot worker", workers=self._config.workers)
        self._hinter = hinter or thinker or WorkerThinker(name="hint worker")
        self._hints: dict[int, _Hint] = {}  # seat -> its hint in flight
        self._retry_at: dict[int, float] = {}  # seat -> when its bot, in trouble, tries again (monotonic)
        self._undo_pause_seconds = undo_pause_seconds
        self._undo_seen: tuple[int, float] | None = None  # the last undo's log entry (seq) and when a bot first saw it
        self._lock = threading.RLock()  # re-entered: cancelling a hint under it calls _forget_hint
        self._hint_news = threading.Condition(self._lock)  # a hint answered, or hints stopped
        self._hints_stopped = False
        self._db = sqlite3.connect(Path(data_dir) / DATABASE, check_same_thread=False)
        # Durable like the table's store (companion/store.py): a seated bot is acknowledged to
        # the host, and the table keeps the seat as the bot's; were the row lost, the seat would
        # stay taken with nobody to move for it. SQLite's default rollback journal commits by
        # deleting the journal, which synchronous=FULL does not sync to the directory, so a
        # power cut just after a commit could roll it back; in WAL mode FULL syncs the log at
        # every commit.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS bot_seats (seat INTEGER PRIMARY KEY, token TEXT NOT NULL, level TEXT NOT NULL)")
        self._bots: dict[int, tuple[str, str]] = {  # seat -> (its token, its level)
            seat: (token, level) for seat, token, level in self._db.execute("SELECT seat, token, level FROM bot_seats")}
        self._forget_gone()  # seats freed while the companion was down, or a game gone
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe = None

    @property
    def durability(self) -> tuple[str, int]:
        """``bots.sqlite``'s journal mode and ``synchronous`` level, ``("wal", 2)``: kept like
        the table's store (:attr:`companion.store.Store.durability`). Read-only; the tests check it."""
        with self._lock:
            return durability(self._db)

    @property
    def hints_in_flight(self) -> list[int]:
        """The seats whose hint is being asked or thought now (at most one each). Read-only."""
        with self._lock:
            return sorted(self._hints)

    # ------------------------------------------------------------------ seats

    def levels(self) -> dict[int, str]:
        """{seat: level} of the bots seated now."""
        self._forget_gone()
        with self._lock:
            return {seat: level for seat, (_, level) in sorted(self._bots.items())}

    def seat(self, seat: int, level: str) -> None:
        """Seat a bot of ``level`` on free ``seat``. Refused (TableError, NoBot, ValueError
        saying why, nothing changed) for an unknown level, a game without bots, a taken seat;
        StorageError when the table or ``bots.sqlite`` cannot save it (nothing changed)."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        game_id = self._table.game_id
        if game_id is None:
            raise NotFound("no game has been started at this table yet", "このテーブルではまだゲームが始まっていません")
        if not supported(game_id):
            raise NoBot(f"{games.get(game_id).title['en']} has no bots: it follows a game played with the real components")
        with self._lock:
            token = self._table.join(seat, bot_name(seat, level), bot=level)
            try:
                with self._db:
                    self._db.execute("INSERT OR REPLACE INTO bot_seats VALUES (?, ?, ?)", (seat, token, level))
            except sqlite3.Error as error:
                self._table.free_seat(seat)  # a bot that would not survive a restart is not seated
                raise StorageError(f"{DATABASE} could not be written, so the bot was not seated ({error})") from error
            self._bots[seat] = (token, level)
        self._wake.set()

    def _forget_gone(self) -> None:
        """Forget the bots whose token no longer opens their seat (freed, or no such seat now)."""
        with self._lock:
            gone = [seat for seat, (token, _) in self._bots.items() if self._table.seat_of(token) != seat]
            if not gone:
                return
            for seat in gone:
                del self._bots[seat]
            try:
                with self._db:
                    self._db.executemany("DELETE FROM bot_seats WHERE seat = ?", [(seat,) for seat in gone])
            except sqlite3.Error as error:  # harmless: a dead token is dropped again at the next start
                log.warning("could not forget the bots of seats %s: %s", gone, error)

    # ------------------------------------------------------------------ hints

    def hint(self, seat: int, seconds: float | None = None, *, gone: Callable[[], bool] = lambda: False) -> dict:
        """One of ``seat``'s actions now, chosen by the bot from that seat's view alone.
        ``seconds`` within HINT_SECONDS_RANGE; default: the normal level's budget.

        Hints think in a worker of their own, never the bots' (a bot's move never waits
        behind a hint). A seat has at most one hint in flight: asking again for the same
        view waits for the same answer; asking for a newer view drops the older question
        if the worker has not taken it yet, and is refused with :class:`HintBusy` if it has.
        ``gone`` says whether the asker has given up (its request ended): then the question
        is dropped (:class:`HintAbandoned`) unless another request of the seat still waits for it.
        NoBot when the game has no bots or the seat has nothing to do; HintOutdated when the
        table moved on while the hint was thought (its answer is not given: it would be a move
        of a position that is gone, perhaps of the previous game); CancelledError at once when
        the companion is stopping (:meth:`stop_hints`), also for a hint being thought."""
        low, high = HINT_SECONDS_RANGE
        if seconds is None:
            seconds = min(max(Budget.for_level("normal", self._config).amount, low), high)
        elif isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not low <= seconds <= high:
            raise ValueError(f"a hint may think from {low} to {high} seconds, not {seconds!r}")
        view = self._table.view(seat)
        if not supported(view["game"]):
            raise NoBot(f"{view['title']['en']} has no hints: it follows a game played with the real components")
        if view["over"] or not view["actions"]:
            raise NoBot("you have nothing to do now, so there is nothing to hint")
        with self._lock:
            if self._hints_stopped:
                raise concurrent.futures.CancelledError()
            flying = self._hints.get(seat)
            if flying is not None and flying.version == view["version"] and not flying.future.cancelled():
                flying.waiters += 1
                new = False
            else:
                if flying is not None and not flying.future.cancel() and not flying.future.done():
                    raise HintBusy("the hint you asked for before is still being worked out: try again in a moment",
                                   "前に頼んだヒントをまだ考えています。少し待ってからもう一度どうぞ")
                hinted = self._hinter.think(view["game"], view, level="normal", budget=Budget.seconds(seconds))
                flying = _Hint(view["version"], hinted)
                self._hints[seat] = flying
                new = True
        if new:  # outside the lock: a future already answered calls back at once
            flying.future.add_done_callback(lambda _: self._forget_hint(seat, flying))
        deadline = time.monotonic() + seconds + WAIT_MARGIN_SECONDS
        try:
            while True:
                with self._lock:  # woken by the answer or by stop_hints, else now and then to look at the phone
                    self._hint_news.wait_for(lambda: flying.future.done() or self._hints_stopped, HINT_POLL_SECONDS)
                    if self._hints_stopped:
                        raise concurrent.futures.CancelledError()
                if flying.future.done():
                    return self._still_current(seat, view, flying.future.result())
                if gone():
                    raise HintAbandoned("the phone stopped waiting for its hint")
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no hint came within {seconds + WAIT_MARGIN_SECONDS:.0f} s")
        finally:
            with self._lock:
                flying.waiters -= 1
                if not flying.waiters:
                    flying.future.cancel()  # nobody waits: dropped unless the worker has it already
            if flying.future.cancelled():
                self._forget_hint(seat, flying)

    def _still_current(self, seat: int, asked: dict, action: dict) -> dict:
        """``action``, the hint for the view ``asked``, if the seat may still make it in the same play."""
        try:
            now = self._table.view(seat)
        except NotFound:  # a new game without this seat
            now = None
        if now is None or now["play_id"] != asked["play_id"] or action not in now["actions"]:
            raise HintOutdated("the table moved on while the hint was being thought: ask again",
                               "ヒントを考えている間に場面が変わりました。もう一度どうぞ")
        return action

    def _forget_hint(self, seat: int, flying: _Hint) -> None:
        with self._lock:
            if self._hints.get(seat) is flying:
                del self._hints[seat]
            self._hint_news.notify_all()

    def stop_hints(self) -> None:
        """Refuse hints from now on (CancelledError), also to the requests waiting for one,
        at once: the server, stopping, waits for its requests (``companion serve``)."""
        with self._lock:
            self._hints_stopped = True
            self._hint_news.notify_all()

    # ------------------------------------------------------------------ playing

    def start(self) -> None:
        """Let the bots play: from now on they move whenever the table awaits them."""
        self._unsubscribe = self._table.subscribe(lambda version: self._wake.set())
        self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop playing (a move being thought about is dropped) and end the worker processes."""
        self.stop_hints()
        self._stopping.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._thinker.close()  # ends the search at once: the bot thread stops waiting for it
        if self._hinter is not self._thinker:
            self._hinter.close()
        if self._thread is not None:
            self._thread.join()
        self._db.close()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()  # before looking: a change while we look wakes us again
            try:
                wait = self._move_once()
            except Exception:  # a bug must not silently end the bots: say so, and look again soon
                log.exception("a bot could not move")
                wait = RETRY_SECONDS
            if wait != 0:
                self._wake.wait(wait)

    def _move_once(self) -> float | None:
        """Let one awaited bot move. Returns how long to wait before looking again, unless
        the table changes first: 0 after a move (or a question to ask again), the time until
        a bot in trouble tries again, or None (no bot is awaited: wait for a change)."""
        self._forget_gone()
        with self._lock:
            bots = sorted(self._bots.items())
        now = time.monotonic()
        retry = None
        for seat, (token, level) in bots:
            try:
                view = self._table.view(seat)
            except NotFound:  # no game, or the seat went with a new game
                continue
            awaited = view["waiting_for"] or view["to_act"]
            if view["over"] or seat not in awaited or not view["actions"] or not supported(view["game"]):
                continue
            again_at = max(self._retry_at.get(seat, 0.0), self._after_undo(view, now))
            if again_at > now:  # in trouble, or just after an undo: the others move meanwhile
                retry = again_at - now if retry is None else min(retry, again_at - now)
                continue
            self._play(seat, token, level, view)
            return 0
        return retry

    def _after_undo(self, view: dict, now: float) -> float:
        """When the bots may move again after an undo: while the log still ends with the undo
        (nobody has moved since), UNDO_PAUSE_SECONDS after a bot first saw it; else at once."""
        last = view["log"][-1] if view["log"] else None
        if last is None or last.get("kind") != "undo":
            return 0.0
        if self._undo_seen is None or self._undo_seen[0] != last["seq"]:
            self._undo_seen = (last["seq"], now)
        return self._undo_seen[1] + self._undo_pause_seconds

    def _play(self, seat: int, token: str, level: str, view: dict) -> None:
        began = time.monotonic()
        budget = Budget.for_level(level, self._config)  # seconds of wall-clock time
        try:
            action = self._thinker.think(view["game"], view, level=level, budget=budget).result(
                timeout=budget.amount + WAIT_MARGIN_SECONDS)
        except concurrent.futures.CancelledError:
            return  # stopping
        except WorkerDied:
            return  # asked again at once: the question starts a new worker
        except Exception as error:  # noqa: BLE001 - a search that fails or hangs: say so on every screen, try again
            self._in_trouble(seat, error)
            return
        # The pause counts from the moment the turn came, thinking included.
        if self._stopping.wait(max(0.0, self._config.pause_seconds - (time.monotonic() - began))):
            return
        if self._table.seat_of(token) != seat:
            return  # freed while thinking: look again (it will be forgotten)
        try:
            self._table.act(seat, action, view["version"])
        except Conflict:
            return  # the table moved on meanwhile (a move, an undo, a new game): look again
        except (IllegalAction, TableError, RuntimeError) as error:  # a full disk (StorageError) and the like
            self._in_trouble(seat, error)
            return
        self._retry_at.pop(seat, None)
        self._report(seat, None)

    def _in_trouble(self, seat: int, error: Exception) -> None:
        """A bot that could not move: log it, say so on every screen, try again in RETRY_SECONDS."""
        why = str(error) or type(error).__name__
        log.error("the bot on seat %d could not move (%s): trying again in %d s", seat + 1, why, RETRY_SECONDS)
        self._retry_at[seat] = time.monotonic() + RETRY_SECONDS
        self._report(seat, {lang: words.format(seconds=RETRY_SECONDS) for lang, words in TROUBLE_WORDS.items()})

    def _report(self, seat: int, trouble: dict | None) -> None:
        try:
            self._table.report_trouble(seat, trouble)
        except (TableError, RuntimeError) as error:  # the seat is gone, or nothing can be saved: the log has it
            log.warning("could not show the trouble of the bot on seat %d: %s", seat + 1, error)


@dataclass
class _Hint:
    """A seat's hint in flight: for which table version, its answer, and how many requests wait for it."""

    version: int
    future: concurrent.futures.Future
    waiters: int = 1
