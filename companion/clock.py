"""The turn clock (issue 36): how long each player takes over each turn, shown, never enforced.

A turn of a seat lasts while the game waits for that seat's input (``Game.waiting_for``): it
begins when the table starts waiting for the seat and ends with the change after which it no
longer does (its own move, in a simultaneous step someone else's, the game's end). The clock
counts each turn up from zero, per player; several seats waited for at once (a round end
entered on every phone) each have their own turn. A game without known turns passes them by
an action of its own (a score pad's "next player"): the clock follows whatever the table waits
for, so passing a turn explicitly is one more action, nothing here.

A seat's clock runs only while the table waits for someone who can answer; it stops by itself

- when the game is over, and with no game;
- while someone is asked a question that holds the table (the host's "undo?", on a phone or
  the panel: :meth:`TurnClock.ask` and :meth:`TurnClock.answered`);
- for a seat waited for that nobody holds (a player left);

and for everyone while anybody paused it (:meth:`TurnClock.pause`; anyone resumes it, which
also closes a question left open by a phone that went away).

An optional per-turn ``target`` (seconds) only changes how a turn is shown once reached
(colour and symbol, and a soft sound on the phones that chose sound): it never ends a turn.

What is kept, and how it survives a power cut: each turn's seconds are written as it ends, in
the transaction of the change that ends it (:meth:`Table.keep_alongside`), so a move and its
turn's time are saved together or not at all (table ``turns``, ``companion/store.py``; a turn
ended by a move that is taken back is taken back with it). The clock's own state (paused, the
target, the running turns' seconds so far) is saved with every change the clock takes part in
and when it closes: after a restart the running turns go on from there, so a power cut loses
at most the seconds since the table last changed. Undoing a move gives its seat the turn back
with the time it had taken. Time comes from the injected ``clock`` (seconds, monotonic).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from .store import Store, StorageError
from .table import GameChange, NothingToChange, Table, TableError

TARGETS = (30, 60, 90, 120, 180, 300, 600)
"""The per-turn targets on offer, in seconds (None: no target)."""

SAVED_KEY = "turn_clock"
"""The table key (``meta``) under which the clock's own state is saved."""


class TurnClock:
    """The turn clock of one table. Thread-safe.

    Every change goes through the table's lock (its own state is saved in the table's
    transactions); the clock's lock only guards its memory and is never held while the
    table is called, so the two never wait for each other the wrong way round."""

    def __init__(self, table: Table, *, clock: Callable[[], float] = time.monotonic):
        self._table = table
        self._now = clock
        self._lock = threading.Lock()
        self._asking: set[str] = set()  # who holds the table with a question now (memory only)
        saved = table.read_alongside(lambda store: store.get_meta(SAVED_KEY)) or {}
        self._paused = bool(saved.get("paused"))
        self._target = saved.get("target")
        present = table.game_change()
        kept = {int(seat): seconds for seat, seconds in saved.get("turns", {}).items()}
        if present is None or saved.get("game_id") != present.game_id:
            kept = {}
        self._game = present
        self._turns = {seat: kept.get(seat, 0.0) for seat in (present.waiting_for if present else ())}
        self._since: dict[int, float] = {}
        self._totals = self._read_totals(present)
        self._restart()
        table.keep_alongside(self._follow)

    # ------------------------------------------------------------ reading

    def view(self) -> dict:
        """The clock as every screen shows it, as of now: ``running`` (some turn's time is
        counting), ``why`` it stands still when it does (``paused``: someone paused it;
        ``question``: a question holds the table; ``over``: the game is over; ``empty``: the
        seats waited for are empty; ``none``: no game, or nobody waited for), ``paused``
        (someone paused it: resuming is one tap), ``target`` (seconds or None), and per seat
        ``turn`` (this turn's seconds, None when not its turn), ``running``, ``total`` (its
        turns in force, this one included) and ``over_target``."""
        with self._lock:
            now = self._now()
            game = self._game
            seats = []
            for seat in range(game.players if game else 0):
                turn = self._seconds(seat, now) if seat in self._turns else None
                seats.append({
                    "seat": seat,
                    "turn": None if turn is None else round(turn, 1),
                    "running": seat in self._since,
                    "total": round(self._totals.get(seat, 0.0) + (turn or 0.0), 1),
                    "over_target": turn is not None and self._target is not None and turn >= self._target,
                })
            return {"running": bool(self._since), "why": self._why(), "paused": self._paused,
                    "target": self._target, "seats": seats}

    # ------------------------------------------------------------ changing (anyone)

    def pause(self) -> None:
        """Stop every turn's time until someone resumes (anyone may). Pausing a paused clock changes nothing."""
        self._set(paused=True)

    def resume(self) -> None:
        """Let the turns' time run again; it also ends any question left open (its phone went away)."""
        self._set(paused=False, questions=lambda asking: set())

    def set_target(self, seconds: int | None) -> None:
        """Set the per-turn target, one of :data:`TARGETS`, or None for none."""
        if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool) or seconds not in TARGETS):
            allowed = ", ".join(str(target) for target in TARGETS)
            raise TableError(f"a turn's target is one of {allowed} seconds, or none, not {seconds!r}",
                             f"1手の目安は {allowed} 秒のどれか、またはなしです（{seconds!r} は使えません）")
        self._set(target=seconds)

    def ask(self, who: str) -> None:
        """``who`` (``phone``, ``panel``) asks a question that holds the table (undo?): the time stops."""
        self._set(questions=lambda asking: asking | {who})

    def answered(self, who: str) -> None:
        """``who``'s question was answered (or dismissed): the time runs again unless something else holds it."""
        self._set(questions=lambda asking: asking - {who})

    def close(self) -> None:
        """Save the running turns' seconds (the server stops), so a restart goes on from them."""
        try:
            self._table.change_alongside(lambda store, _: self._save(store, self._state_now()))
        except StorageError:
            pass  # nothing can be saved: the last saved seconds stand

    # ------------------------------------------------------------ inside

    def _set(self, *, paused: bool | None = None, target=...,
             questions: Callable[[set[str]], set[str]] | None = None) -> None:
        """Change what stops the time (``questions``: the open questions from those open now)
        or the target, saved as a change of the table, so every screen redraws. Nothing is
        written when nothing changes (two phones pausing at once: the second changes nothing)."""
        def changed(state: dict) -> dict:
            state = dict(state)
            if paused is not None:
                state["paused"] = paused
            if target is not ...:
                state["target"] = target
            if questions is not None:
                state["asking"] = questions(set(state["asking"]))
            return state

        def write(store: Store, _) -> Callable[[], None]:
            before = self._state_now()
            state = changed(before)
            if state == before:
                raise NothingToChange
            self._save(store, state)
            return lambda: self._apply(state)

        before = self._state_now()
        if changed(before) != before:  # checked again in the change, under the table's lock
            self._table.change_alongside(write)

    def _follow(self, store: Store, change: GameChange) -> Callable[[], None]:
        """A change of the game (the table's keeper, in its transaction): end the turns of the
        seats no longer waited for, keeping their seconds, and begin those of the seats newly
        waited for (from what an undo gave back, else zero)."""
        state = self._state_now()
        old = self._game
        if old is not None and old.game_id != change.game_id:  # a new game: the old one's turns end unfinished
            if state["turns"]:
                store.add_turns(old.game_id, None, sorted(state["turns"].items()))
            state.update(turns={}, paused=False)
        if change.dealt_again:  # who starts was drawn before the first move: nobody's turn had begun
            state["turns"] = {}
        ended = sorted((seat, seconds) for seat, seconds in state["turns"].items() if seat not in change.waiting_for)
        ending_action = change.action if change.action is not None else min(change.undone, default=None)
        given_back: dict[int, float] = {}
        if change.undone:
            for turn in store.turns([change.game_id])[change.game_id]:
                if turn["action"] in change.undone:
                    given_back[turn["seat"]] = given_back.get(turn["seat"], 0.0) + turn["seconds"]
        if ended:
            store.add_turns(change.game_id, ending_action, ended)
        state["turns"] = {seat: state["turns"].get(seat, given_back.get(seat, 0.0)) for seat in change.waiting_for}
        state["game"] = change
        self._save(store, state)
        if change.undone or old is None or old.game_id != change.game_id:
            totals = self._read_totals(change, store)  # turns taken back, or another game: read again
        else:
            with self._lock:
                totals = dict(self._totals)
            for seat, seconds in ended:
                totals[seat] = totals.get(seat, 0.0) + seconds
        return lambda: self._apply(state, totals)

    def _state_now(self) -> dict:
        """The clock's state as of now: each running turn's seconds brought up to now."""
        with self._lock:
            now = self._now()
            return {"game": self._game, "paused": self._paused, "target": self._target, "asking": set(self._asking),
                    "turns": {seat: self._seconds(seat, now) for seat in self._turns}}

    def _apply(self, state: dict, totals: dict[int, float] | None = None) -> None:
        """Take ``state`` (committed) as the clock's memory, its running turns from now."""
        with self._lock:
            self._game, self._paused, self._target = state["game"], state["paused"], state["target"]
            self._asking, self._turns = state["asking"], dict(state["turns"])
            if totals is not None:
                self._totals = totals
            self._restart()

    def _restart(self) -> None:
        """Start the time of the turns that run now, from now (the lock is held, or not shared yet)."""
        now = self._now()
        game = self._game
        runs = (game is not None and not game.over and not self._paused and not self._asking)
        self._since = {seat: now for seat in self._turns if runs and seat in game.taken}

    def _seconds(self, seat: int, now: float) -> float:
        since = self._since.get(seat)
        return self._turns[seat] + (0.0 if since is None else max(now - since, 0.0))

    def _why(self) -> str | None:
        game = self._game
        if game is None:
            return "none"
        if game.over:
            return "over"
        if not self._turns:
            return "none"
        if self._paused:
            return "paused"
        if self._asking:
            return "question"
        if not self._since:
            return "empty"
        return None

    def _save(self, store: Store, state: dict) -> None:
        game = state["game"]
        store.set_meta(SAVED_KEY, {"game_id": game.game_id if game else None, "paused": state["paused"],
                                   "target": state["target"],
                                   "turns": {str(seat): round(seconds, 3) for seat, seconds in state["turns"].items()}})

    def _read_totals(self, game: GameChange | None, store: Store | None = None) -> dict[int, float]:
        """seat -> the seconds of its turns in force so far in ``game``."""
        if game is None:
            return {}
        turns = (store.turns([game.game_id]) if store is not None
                 else self._table.read_alongside(lambda reading: reading.turns([game.game_id])))[game.game_id]
        totals: dict[int, float] = {}
        for turn in turns:
            if not turn["undone"]:
                totals[turn["seat"]] = totals.get(turn["seat"], 0.0) + turn["seconds"]
        return totals

