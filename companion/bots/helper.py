"""A search helper process: ``python -m companion.bots.helper ASKER_PID``.

:class:`companion.bots.parallel.ProcessPool` starts it and is the only one that talks to
it, in the messages of :func:`.parallel.send`: it says :data:`.parallel.READY` once it has
started, then each question arrives on standard input as ``(game id, view, seed,
budget, only, prior, light)`` (the budget as :func:`.parallel.handed_on` hands it on) and each answer leaves on standard output as
``(True, root statistics)`` or ``(False, error)``. Anything arriving during a search (a
stop, or the end of the pipe when the asker has gone) ends that search before its next
iteration. It ends when its standard input closes, and on Linux when its asker dies.
"""

from __future__ import annotations

import os
import signal
import sys

from .. import games
from ..games.rng import Rng
from .ismcts import search
from .parallel import READY, receive, resumed, root_stats, send, waiting


def main() -> None:
    _die_with_parent(int(sys.argv[1]))
    # As the bot worker (worker.py): its asker decides when it ends.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    questions, answers = sys.stdin.fileno(), os.dup(sys.stdout.fileno())
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log, never into an answer
    try:
        send(answers, READY)
        while True:
            try:
                question = receive(questions)
            except EOFError:
                return
            if question is None:
                continue  # told to stop after its search had ended anyway
            game_id, view, seed, budget, only, prior, light = question
            try:
                answer = (True, root_stats(search(
                    games.get(game_id), view, Rng.from_seed(seed), resumed(budget), only=only, prior=prior,
                    light=light, stop=lambda: waiting(questions))))
            except Exception as error:  # noqa: BLE001 - handed to the asker, who logs it
                answer = (False, RuntimeError(str(error) or type(error).__name__))
            send(answers, answer)
    except OSError:
        return  # the asker has gone


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when its parent dies (Linux), and end at once if
    the parent has died already: a helper must not outlive its asker (systemd would find
    it still running when the service stops)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1  # from <linux/prctl.h>
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        sys.exit(0)


if __name__ == "__main__":
    main()
