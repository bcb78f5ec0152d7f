"""Bots at the table: they take seats and move like phones, and they give hints.

:class:`BotSeats` sits beside the table, never inside it. It uses only the table's public
methods, exactly as a phone does through the web: ``join`` gives a bot its seat token,
``view(seat)`` is what it sees (the same view that seat's phone gets), ``act`` makes its
move (logged and undoable like any other), ``seat_of(token)`` says whether the seat is still
its own. A host freeing the seat (or a new game without it) makes the token open nothing;
the bot is then gone.

The search itself (:func:`companion.bots.choose`) runs in a :class:`WorkerThinker`: one
long-lived worker process, so a bot thinking never holds the web process's GIL and pages
stay as quick as when idle (``benchmarks/bot_latency.py``). The worker receives a game id
and a seat's view, never a state.

Bot seats are remembered in ``bots.sqlite`` in the data directory, so after a restart the
bots sit where they sat and think on.
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

from .. import games
from ..config import BotsConfig
from ..table import Conflict, IllegalAction, NotFound, StorageError, Table, TableError
from . import LEVELS, NoBot, budget, choose, supported

log = logging.getLogger(__name__)

DATABASE = "bots.sqlite"
"""The file in the data directory that remembers the bot seats."""

HINT_SECONDS_RANGE = (0.1, 5.0)
"""The budgets a hint may ask for, in seconds: long enough to mean something, short
enough that a phone's request never waits long."""

WAIT_MARGIN_SECONDS = 30.0
"""How much longer than its budget an answer may take before it is given up (the worker
may have to start first, or finish another seat's move)."""


def bot_name(seat: int | None, level: str) -> str:
    """A bot's name at the table, in both languages (names are one string for everybody):
    ``Bot 2 Normal / ボット ふつう``. The seat number tells two bots of one level apart;
    without a seat, the name the records count the level's bot under: ``Bot Normal / ボット ふつう``."""
    words = LEVELS[level]
    number = "" if seat is None else f" {seat + 1}"
    return f"Bot{number} {words['en']} / ボット {words['ja']}"


class Thinker(Protocol):
    """What BotSeats hands the choosing to (the worker process, or a fake in tests)."""

    def think(self, game_id: str, view: dict, *, level: str, seconds: float) -> concurrent.futures.Future: ...

    def close(self) -> None: ...


def _choose_in_worker(game_id: str, view: dict, level: str, seconds: float | None, iterations: int | None) -> dict:
    """Runs in the worker process: the action for ``view``."""
    return choose(games.get(game_id), view, seconds=seconds, iterations=iterations, level=level)


class WorkerThinker:
    """Chooses in one long-lived worker process (started by "spawn", so it shares nothing
    with the web process's threads and locks). ``iterations``, when given, replaces every
    budget in seconds (tests and benchmarks use it to be quick and independent of speed).

    A ``multiprocessing`` pool rather than ``concurrent.futures``' pool, because stopping
    must not wait for a long search (the budgets go up to 60 s; systemd allows 15 s):
    :meth:`close` ends the worker at once and cancels what it was asked. A worker that
    dies is replaced by the pool; the move it was thinking about times out and is asked again."""

    def __init__(self, iterations: int | None = None):
        self._iterations = iterations
        self._lock = threading.Lock()
        self._pool = None
        self._asked: set[concurrent.futures.Future] = set()

    def think(self, game_id: str, view: dict, *, level: str, seconds: float) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()

        def answer(settle, value) -> None:
            with self._lock:
                self._asked.discard(future)
            if not future.done():  # not cancelled by close meanwhile
                settle(value)

        with self._lock:
            if self._pool is None:
                self._pool = multiprocessing.get_context("spawn").Pool(1)
            self._asked.add(future)
            self._pool.apply_async(
                _choose_in_worker, (game_id, view, level, None if self._iterations else seconds, self._iterations),
                callback=lambda action: answer(future.set_result, action),
                error_callback=lambda error: answer(future.set_exception, error))
        return future

    def close(self) -> None:
        # The pool is stopped outside the lock: terminate() waits for the pool's thread that
        # delivers answers, and an answer arriving meanwhile needs the lock (see think).
        with self._lock:
            pool, self._pool = self._pool, None
            asked, self._asked = self._asked, set()
        if pool is not None:
            pool.terminate()
            pool.join()
        for future in asked:
            future.cancel()


class BotSeats:
    """The bots of one table: seat them (:meth:`seat`), let them play (:meth:`start`, then
    :meth:`stop`), and ask for hints (:meth:`hint`). Thread-safe."""

    def __init__(self, table: Table, data_dir: str | Path, config: BotsConfig | None = None, *,
                 thinker: Thinker | None = None):
        self._table = table
        self._config = config or BotsConfig()
        self._thinker = thinker or WorkerThinker()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(Path(data_dir) / DATABASE, check_same_thread=False)
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS bot_seats (seat INTEGER PRIMARY KEY, token TEXT NOT NULL, level TEXT NOT NULL)")
        self._bots: dict[int, tuple[str, str]] = {  # seat -> (its token, its level)
            seat: (token, level) for seat, token, level in self._db.execute("SELECT seat, token, level FROM bot_seats")}
        self._forget_gone()  # seats freed while the companion was down, or a game gone
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._unsubscribe = None

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
            token = self._table.join(seat, bot_name(seat, level))
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

    def hint(self, seat: int, seconds: float | None = None) -> dict:
        """One of ``seat``'s actions now, chosen by the bot from that seat's view alone.
        ``seconds`` within HINT_SECONDS_RANGE; default: the normal level's budget.
        NoBot when the game has no bots or the seat has nothing to do."""
        low, high = HINT_SECONDS_RANGE
        if seconds is None:
            seconds = min(max(budget("normal", self._config), low), high)
        elif isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not low <= seconds <= high:
            raise ValueError(f"a hint may think from {low} to {high} seconds, not {seconds!r}")
        view = self._table.view(seat)
        if not supported(view["game"]):
            raise NoBot(f"{view['title']['en']} has no hints: it follows a game played with the real components")
        if view["over"] or not view["actions"]:
            raise NoBot("you have nothing to do now, so there is nothing to hint")
        future = self._thinker.think(view["game"], view, level="normal", seconds=seconds)
        return future.result(timeout=seconds + WAIT_MARGIN_SECONDS)

    # ------------------------------------------------------------------ playing

    def start(self) -> None:
        """Let the bots play: from now on they move whenever the table awaits them."""
        self._unsubscribe = self._table.subscribe(lambda version: self._wake.set())
        self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop playing (a move being thought about is dropped) and end the worker process."""
        self._stopping.set()
        self._wake.set()
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._thinker.close()  # ends the search at once: the bot thread stops waiting for it
        if self._thread is not None:
            self._thread.join()
        self._db.close()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()  # before looking: a change while we look wakes us again
            try:
                moved = self._move_once()
            except Exception:  # a bug must not silently end the bots: say so, and wait for the next change
                log.exception("a bot could not move")
                moved = False
            if not moved:
                self._wake.wait()

    def _move_once(self) -> bool:
        """Let one awaited bot move. False when no bot is awaited, or a bot's move failed in
        a way that only a change of the table can mend (then the next change wakes us)."""
        self._forget_gone()
        with self._lock:
            bots = sorted(self._bots.items())
        for seat, (token, level) in bots:
            try:
                view = self._table.view(seat)
            except NotFound:  # no game, or the seat went with a new game
                continue
            awaited = view["waiting_for"] or view["to_act"]
            if view["over"] or seat not in awaited or not view["actions"] or not supported(view["game"]):
                continue
            return self._play(seat, token, level, view)
        return False

    def _play(self, seat: int, token: str, level: str, view: dict) -> bool:
        began = time.monotonic()
        seconds = budget(level, self._config)
        try:
            action = self._thinker.think(view["game"], view, level=level, seconds=seconds).result(
                timeout=seconds + WAIT_MARGIN_SECONDS)
        except concurrent.futures.CancelledError:
            return False  # stopping
        except TimeoutError:  # its worker died (the pool starts a new one): ask again
            log.error("the bot on seat %d got no answer from its worker: asking again", seat + 1)
            return True
        except NoBot as error:  # a bug: the table offered a view the bot cannot play from
            log.error("the bot on seat %d could not choose a move: %s", seat + 1, error)
            return False
        # The pause counts from the moment the turn came, thinking included.
        if self._stopping.wait(max(0.0, self._config.pause_seconds - (time.monotonic() - began))):
            return False
        if self._table.seat_of(token) != seat:
            return True  # freed while thinking: look again (it will be forgotten)
        try:
            self._table.act(seat, action, view["version"])
        except Conflict:
            return True  # the table moved on meanwhile (a move, an undo, a new game): look again
        except (IllegalAction, TableError, RuntimeError) as error:  # a full disk (StorageError) and the like
            log.error("the bot on seat %d could not move: %s", seat + 1, error)
            return False
        return True
