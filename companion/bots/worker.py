"""The worker process a bot thinks in: ``python -m companion.bots.worker [WORKERS]``.

:class:`companion.bots.seats.WorkerThinker` starts it and is the only one that talks to it:
each question arrives on standard input as a pickle ``(game id, view, level, budget)`` (a
:class:`companion.bots.budget.Budget`, started here), and each answer leaves on standard
output as a pickle ``(True, action)`` or ``(False, exception)``. What a bot notices of the
play between its questions stays here (:class:`Notebook`). It ends when its standard input
closes (the companion closed it, or died).

With ``WORKERS`` above 1 (``[bots] workers``), a question's tree search runs here and on
``WORKERS - 1`` helper processes of its own at once (:class:`.parallel.ProcessPool`), started
with this worker. :data:`END_SIGNAL` ends it at once, even mid-search, after it has ended its
helpers and waited for them: a process of the service must not outlive the service.

It is a plain child process, not one of :mod:`multiprocessing`'s: "spawn" also starts a
resource tracker, a process that outlives the companion's main process by a moment, so that
systemd found it still running at every ``systemctl stop`` and killed it with SIGKILL.

SIGTERM and SIGINT are the companion's to act on (it then kills this process): a
``systemctl stop`` or a Ctrl-C in a terminal reaches every process at once, and a worker
that left by itself mid-question would look like one that died.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys

from .. import games
from . import choose
from .parallel import ProcessPool


END_SIGNAL = signal.SIGUSR1
"""How the companion ends a worker (before the handler is set, its default action ends it too)."""


class Notebook:
    """What the bots that think here remember of the play going on: one dict of notes per
    seat (``choose``'s ``notes``), kept for the newest play (the view's ``play_id``) only.
    They live as long as this process: a bot whose worker was killed, or restarted with
    the companion, starts again with no impression of the others, like a person who has
    just sat down. A view without a ``play_id`` (not the table's) gets no notes."""

    def __init__(self) -> None:
        self._play = None
        self._notes: dict[int, dict] = {}

    def notes(self, view) -> dict | None:
        if not isinstance(view, dict) or view.get("play_id") is None or type(view.get("seat")) is not int:
            return None
        if view["play_id"] != self._play:
            self._play, self._notes = view["play_id"], {}
        return self._notes.setdefault(view["seat"], {})


def main() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    questions = sys.stdin.buffer
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log, never into an answer
    notebook = Notebook()
    pool = ProcessPool(int(sys.argv[1]) if len(sys.argv) > 1 else 1)

    def end(_signal, _frame) -> None:
        pool.close()  # its helpers end, and are waited for, first
        os._exit(0)

    signal.signal(END_SIGNAL, end)
    pool.start()
    try:
        _answer(questions, answers, notebook, pool)
    finally:
        pool.close()


def _answer(questions, answers, notebook: Notebook, pool: ProcessPool) -> None:
    """Answer each question until the companion closes our standard input."""
    while True:
        try:
            game_id, view, level, budget = pickle.load(questions)
        except EOFError:
            return
        try:
            answer = (True, choose(games.get(game_id), view, budget=budget, level=level, notes=notebook.notes(view),
                                   pool=pool))
        except Exception as error:  # noqa: BLE001 - handed to the asker, who says what went wrong
            answer = (False, error)
        try:
            data = pickle.dumps(answer)
        except Exception:  # noqa: BLE001 - an exception that cannot be pickled: its words can
            data = pickle.dumps((False, RuntimeError(str(answer[1]) or type(answer[1]).__name__)))
        answers.write(data)
        answers.flush()


if __name__ == "__main__":
    main()
