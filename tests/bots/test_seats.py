"""BotSeats: bots take seats and move through the table like phones, from their seat's view
only; freeing the seat removes them; they survive a restart; hints. A fake thinker (the
first action, at once) keeps these quick and deterministic; tests/web/test_api_bots.py
plays with the real worker process."""

from __future__ import annotations

import concurrent.futures
import os
import pickle
import select
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest

from companion.bots import NoBot
from companion.bots.budget import Budget
from companion.bots.seats import (DATABASE, BotSeats, HintAbandoned, HintBusy, HintOutdated, WorkerDied, WorkerThinker,
                                  bot_name)
from companion.config import BotsConfig
from companion.table import Conflict, NotFound, Table
from waiting import BOUND_SECONDS, Watched, poll_until, until_the_table

QUICK = BotsConfig(pause_seconds=0)


class FakeThinker:
    """Answers the view's first action at once, noting whether the view it was given is
    exactly the seat's view at the table (what that seat's phone would get)."""

    def __init__(self, table: Table):
        self.table = table
        self.calls: Watched = Watched()  # (game_id, view, level, budget) of each question
        self.views_were_the_seats_own: list[bool] = []
        self.closed = False

    def think(self, game_id, view, *, level, budget):
        self.calls.append((game_id, view, level, budget))
        self.views_were_the_seats_own.append(view == self.table.view(view["seat"]))
        future = concurrent.futures.Future()
        future.set_result(view["actions"][0])
        return future

    def close(self):
        self.closed = True


class StuckThinker(FakeThinker):
    """Never answers (a worker busy for ever): the bots think but do not move. Closing
    cancels what is waiting, as the worker's shutdown does."""

    def think(self, game_id, view, *, level, budget):
        # The future first: a test that saw the call may close this thinker at once.
        self.future = concurrent.futures.Future()
        self.calls.append((game_id, view, level, budget))
        return self.future

    def close(self):
        self.future.cancel()
        self.closed = True


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


def make_bots(table, tmp_path, thinker=None, config=QUICK):
    return BotSeats(table, tmp_path, config, thinker=thinker or FakeThinker(table))


def test_two_bots_play_a_game_to_the_end_through_the_table(table, tmp_path):
    table.start_game("meow-oracle", 2, seed=4)
    thinker = FakeThinker(table)
    bots = make_bots(table, tmp_path, thinker)
    bots.seat(0, "easy")
    bots.seat(1, "strong")
    bots.start()
    try:
        until_the_table(table, lambda: table.view(None)["over"])
    finally:
        bots.stop()
    assert table.names() == ["Bot 1 (Easy)", "Bot 2 (Strong)"] and table.bots() == ["easy", "strong"]
    assert {entry["seat"] for entry in table.action_log()} == {0, 1}
    assert thinker.views_were_the_seats_own and all(thinker.views_were_the_seats_own)
    assert {(call[0], call[2]) for call in thinker.calls} == {("meow-oracle", "easy"), ("meow-oracle", "strong")}
    assert thinker.closed


def test_a_bot_answers_a_human_move_and_one_undo_takes_back_both(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    token = table.join(0, "Aki")
    bots = make_bots(table, tmp_path)
    bots.seat(1, "normal")
    bots.start()
    try:
        view = table.view(0)
        table.act(0, view["actions"][0], view["version"])
        until_the_table(table, lambda: table.view(1)["to_act"] == [0])
        assert [entry["seat"] for entry in table.action_log()] == [0, 1]
        assert table.undoable() == {"moves": 2, "seat": 0, "move": table.log(None)[-2]["text"]}
        table.undo(by=0)  # Aki takes back her move: the bot's reply goes with it, and it is her turn
        assert [entry["undone"] for entry in table.action_log()] == [True, True]
        assert table.log(None)[-1]["text"] == {"en": "{s0} took back 2 moves", "ja": "{s0}さんが2手戻しました"}
        assert table.view(0)["to_act"] == [0] and table.undoable() is None
        view = table.view(0)
        table.act(0, view["actions"][0], view["version"])  # she moves again: the bot answers at once
        until_the_table(table, lambda: len(table.action_log()) == 4 and table.view(1)["to_act"] == [0])
    finally:
        bots.stop()
    assert table.seat_of(token) == 0


def test_after_an_undo_of_a_bots_move_the_bot_holds_still_a_moment(table, tmp_path):
    # Only the bot has moved (it starts), so the host's undo takes back its move alone, and the
    # turn is the bot's again: it waits the pause before it moves, so everyone sees the undo.
    table.start_game("swap5", 2, seed=2)
    table.join(1, "Aki")
    bots = BotSeats(table, tmp_path, QUICK, thinker=FakeThinker(table), undo_pause_seconds=0.5)
    bots.seat(0, "normal")
    bots.start()
    try:
        until_the_table(table, lambda: len(table.action_log()) == 1)
        assert table.undoable()["moves"] == 1
        table.undo()
        undone = time.monotonic()
        until_the_table(table, lambda: len(table.action_log()) == 2)
        assert time.monotonic() - undone >= 0.5
    finally:
        bots.stop()


def test_in_a_simultaneous_step_bots_choose_like_everybody_else(table, tmp_path):
    # Lion Square's passes: every seat chooses at once; the bots' choices leave the human's view current.
    table.start_game("lion-square", 3, seed=5)
    table.join(0, "Aki")
    human_view = table.view(0)
    bots = make_bots(table, tmp_path)
    bots.seat(1, "normal")
    bots.seat(2, "normal")
    bots.start()
    try:
        until_the_table(table, lambda: table.view(0)["waiting_for"] == [0])
        table.act(0, human_view["actions"][0], human_view["version"])  # the view from before the bots chose
        until_the_table(table, lambda: table.view(0)["waiting_for"] == [0] and table.view(0)["public"]["adjustment"] == 2)
    finally:
        bots.stop()


def test_the_bot_waits_the_pause_before_it_moves(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    bots = make_bots(table, tmp_path, config=BotsConfig(pause_seconds=0.4))
    bots.seat(0, "normal")
    began = time.monotonic()
    bots.start()
    try:
        until_the_table(table, lambda: table.action_log())
        assert time.monotonic() - began >= 0.4
    finally:
        bots.stop()


def test_freeing_a_bot_seat_removes_the_bot(table, tmp_path):
    # Lion Square's first step: every seat chooses at once, Ben's seat 1 as much as seat 2.
    table.start_game("lion-square", 3, seed=5)
    thinker = FakeThinker(table)
    bots = make_bots(table, tmp_path, thinker)
    bots.seat(1, "normal")
    assert bots.levels() == {1: "normal"}
    table.free_seat(1)
    assert bots.levels() == {}
    with sqlite3.connect(tmp_path / DATABASE) as db:
        assert db.execute("SELECT * FROM bot_seats").fetchall() == []
    table.join(1, "Ben")  # a person sits there now: no bot moves for them
    bots.seat(2, "normal")  # a witness: the bots look at their seats in order, seat 1 before seat 2
    bots.start()
    try:
        until_the_table(table, lambda: table.action_log(), what="the witness's choice")
    finally:
        bots.stop()
    assert [view["seat"] for _, view, _, _ in thinker.calls] == [2]
    assert [entry["seat"] for entry in table.action_log()] == [2]


def test_a_bot_seat_survives_a_restart_and_thinks_on(tmp_path):
    table = Table(tmp_path)
    table.start_game("swap5", 2, seed=2)
    table.join(0, "Aki")
    stuck = StuckThinker(table)
    bots = make_bots(table, tmp_path, stuck)
    bots.seat(1, "strong")
    view = table.view(0)
    table.act(0, view["actions"][0], view["version"])
    bots.start()
    stuck.calls.wait_for()  # thinking when the power goes
    bots.stop()
    table.close()

    table = Table(tmp_path)
    bots = make_bots(table, tmp_path)
    assert bots.levels() == {1: "strong"}
    bots.start()
    try:
        until_the_table(table, lambda: len(table.action_log()) == 2)
    finally:
        bots.stop()
        table.close()


def test_a_bot_seat_freed_while_the_companion_was_down_is_forgotten(tmp_path):
    table = Table(tmp_path)
    table.start_game("swap5", 2, seed=2)
    make_bots(table, tmp_path).seat(1, "easy")
    table.free_seat(1)  # as if by a table without its bots (say, a tool on the data directory)
    table.close()
    table = Table(tmp_path)
    bots = make_bots(table, tmp_path)
    try:
        assert bots.levels() == {}
    finally:
        bots.stop()
        table.close()


def test_a_new_game_with_fewer_seats_removes_the_bots_beyond_them(table, tmp_path):
    table.start_game("meow-oracle", 3, seed=2)
    bots = make_bots(table, tmp_path)
    bots.seat(0, "easy")
    bots.seat(2, "easy")
    table.start_game("meow-oracle", 2, seed=3)
    assert bots.levels() == {0: "easy"}


def test_seating_a_bot_is_refused_plainly_and_changes_nothing(table, tmp_path):
    bots = make_bots(table, tmp_path)
    with pytest.raises(NotFound, match="no game"):
        bots.seat(0, "normal")
    table.start_game("pig-house", 2, seed=1)
    with pytest.raises(NoBot, match="no bots"):
        bots.seat(0, "normal")
    table.start_game("swap5", 2, seed=1)
    with pytest.raises(ValueError, match="unknown bot level 'hard'"):
        bots.seat(0, "hard")
    table.join(0, "Aki")
    with pytest.raises(Conflict, match="taken"):
        bots.seat(0, "normal")
    with pytest.raises(NotFound, match="no seat 2"):
        bots.seat(2, "normal")
    assert table.names() == ["Aki", None] and bots.levels() == {}


def test_a_hint_is_one_of_the_seats_actions_chosen_from_its_view(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    thinker = FakeThinker(table)
    bots = make_bots(table, tmp_path, thinker, config=BotsConfig(normal_seconds=1.5))
    view = table.view(0)
    assert bots.hint(0) == view["actions"][0]
    assert bots.hint(0, 0.2) == view["actions"][0]
    assert [(call[2], call[3]) for call in thinker.calls] == [("normal", Budget.seconds(1.5)),
                                                              ("normal", Budget.seconds(0.2))]
    assert all(thinker.views_were_the_seats_own)
    with pytest.raises(NoBot, match="nothing to do"):
        bots.hint(1)
    for seconds in (0.05, 6, True, "1"):
        with pytest.raises(ValueError, match="from 0.1 to 5.0 seconds"):
            bots.hint(0, seconds)
    assert table.action_log() == []


def test_a_tracker_gives_no_hints(table, tmp_path):
    table.start_game("meow-oracle-scorer", 2, seed=2)
    with pytest.raises(NoBot, match="no hints"):
        make_bots(table, tmp_path).hint(0)


def test_bot_names_fit_the_tables_name_rule():
    from companion.table import clean_name

    for seat in range(4):
        for level in ("easy", "normal", "strong"):
            assert clean_name(bot_name(seat, level)) == bot_name(seat, level)


def test_stop_ends_a_bot_that_is_pausing_at_once(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    thinker = FakeThinker(table)
    bots = make_bots(table, tmp_path, thinker, config=BotsConfig(pause_seconds=3600))  # an hour: only stop ends it
    bots.seat(0, "normal")
    others = {thread for thread in threading.enumerate() if thread.name == "bots"}  # another test's, if it failed
    bots.start()
    thinker.calls.wait_for()  # it has its move and pauses
    stopping = threading.Thread(target=bots.stop)
    stopping.start()
    stopping.join(BOUND_SECONDS)
    assert not stopping.is_alive(), "stop waited for the pause"
    assert table.action_log() == []
    assert not {thread for thread in threading.enumerate() if thread.name == "bots"} - others


def test_closing_the_worker_ends_a_long_search_at_once(table):
    # Budgets go up to 60 s and systemd allows 15 s to stop: stopping must not wait for a search.
    table.start_game("swap5", 2, seed=2)
    thinker = WorkerThinker()
    future = thinker.think("swap5", table.view(0), level="strong", budget=Budget.seconds(60))
    poll_until(future.running, what="the worker to take the question")  # it has it and searches
    closing = threading.Thread(target=thinker.close)
    closing.start()
    closing.join(BOUND_SECONDS / 2)  # far less than the search's 60 s: close did not wait for it
    assert not closing.is_alive(), "close waited for the search"
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(timeout=0)


def test_the_worker_ignores_sigterm_and_a_killed_worker_is_replaced_at_once(table):
    # systemd's SIGTERM reaches every process of the service: the worker leaves its ending to
    # the companion. A worker killed mid-question fails that question at once (no timeout),
    # and the next question starts a new one; killed while idle, the next question does too.
    table.start_game("swap5", 2, seed=2)
    thinker = WorkerThinker()
    try:
        assert thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60) in table.view(0)["actions"]
        first = thinker.pid
        os.kill(first, signal.SIGTERM)
        assert thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60)
        assert thinker.pid == first  # SIGTERM did nothing to it

        future = thinker.think("swap5", table.view(0), level="strong", budget=Budget.seconds(30))
        poll_until(future.running, what="the worker to take the question")
        os.kill(first, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            future.result(timeout=5)
        assert thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60)
        second = thinker.pid
        assert second not in (None, first)

        ended = os.pidfd_open(second)
        os.kill(second, signal.SIGKILL)  # idle
        try:
            assert select.select([ended], [], [], BOUND_SECONDS)[0], "the killed worker did not end"
        finally:
            os.close(ended)
        assert thinker.pid is None
        assert thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60)
        assert thinker.pid not in (None, first, second)
    finally:
        thinker.close()


def test_a_failing_question_comes_back_as_its_error_and_the_worker_answers_on(table):
    # The asker says what went wrong (a bot in trouble, a hint refused).
    table.start_game("swap5", 2, seed=2)
    thinker = WorkerThinker()
    try:
        with pytest.raises(ValueError, match="unknown game 'no-such-game'"):
            thinker.think("no-such-game", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60)
        first = thinker.pid
        assert thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05)).result(timeout=60) in table.view(0)["actions"]
        assert thinker.pid == first
    finally:
        thinker.close()


WORKER_WHOSE_SEARCH_FAILS = """
import threading
import companion.bots.worker as worker
def choose(game, view, **budget):
    print("a stray line on standard output")
    raise RuntimeError("the search failed", threading.Lock())  # a lock cannot be pickled
worker.choose = choose
worker.main()
"""


def test_the_worker_answers_an_error_that_cannot_be_pickled_by_its_words_and_ends_with_its_input():
    # Its answers alone travel on its standard output; a stray print goes to the log.
    process = subprocess.Popen([sys.executable, "-c", WORKER_WHOSE_SEARCH_FAILS], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(2):
            pickle.dump(("swap5", {}, "easy", Budget.seconds(0.05)), process.stdin)
            process.stdin.flush()
            ok, error = pickle.load(process.stdout)
            assert not ok and isinstance(error, RuntimeError) and "the search failed" in str(error)
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        assert process.stdout.read() == b""
        assert process.stderr.read().count(b"a stray line on standard output") == 2
    finally:
        process.kill()
        process.wait()


WORKER_THAT_COUNTS_ITS_NOTES = """
import companion.bots.worker as worker
def choose(game, view, notes, **budget):
    if notes is None:
        return None
    notes["decisions"] = notes.get("decisions", 0) + 1
    return notes["decisions"]
worker.choose = choose
worker.main()
"""


def test_the_worker_keeps_each_seats_notes_of_the_play_going_on_and_forgets_an_older_play():
    # What a bot notices of the others (choose's notes) lasts from one question to the next.
    process = subprocess.Popen([sys.executable, "-c", WORKER_THAT_COUNTS_ITS_NOTES], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE)
    try:
        answers = []
        for view in ({"play_id": 7, "seat": 0}, {"play_id": 7, "seat": 0}, {"play_id": 7, "seat": 1},
                     {"play_id": 7, "seat": 0}, {"play_id": 8, "seat": 0}, {"play_id": 7, "seat": 0},
                     {"seat": 0}, {"play_id": 7, "seat": None}, "not a view"):
            pickle.dump(("swap5", view, "normal", Budget.seconds(0.05)), process.stdin)
            process.stdin.flush()
            ok, answer = pickle.load(process.stdout)
            assert ok
            answers.append(answer)
        assert answers == [1, 2, 1, 3, 1, 1, None, None, None]
    finally:
        process.kill()
        process.wait()


def test_a_question_cancelled_before_the_worker_takes_it_is_never_thought_about(table):
    table.start_game("swap5", 2, seed=2)
    thinker = WorkerThinker()
    try:
        busy = thinker.think("swap5", table.view(0), level="normal", budget=Budget.seconds(1.0))
        dropped = thinker.think("swap5", table.view(0), level="normal", budget=Budget.seconds(1.0))
        assert dropped.cancel()
        last = thinker.think("swap5", table.view(0), level="easy", budget=Budget.seconds(0.05))
        assert busy.result(timeout=60) and last.result(timeout=60)
        assert dropped.cancelled()
    finally:
        thinker.close()


# ---------------------------------------------------------------- hints beside the bots, and bots in trouble


def test_a_bots_move_never_waits_behind_hints(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    table.join(0, "Aki")
    hinter = StuckThinker(table)  # a hint that never ends
    bots = BotSeats(table, tmp_path, QUICK, thinker=FakeThinker(table), hinter=hinter)
    bots.seat(1, "normal")
    bots.start()
    asking = threading.Thread(target=lambda: pytest.raises(concurrent.futures.CancelledError, bots.hint, 0, 5.0))
    try:
        asking.start()
        hinter.calls.wait_for()
        view = table.view(0)
        table.act(0, view["actions"][0], view["version"])
        until_the_table(table, lambda: len(table.action_log()) == 2)  # the bot moved while the hint still thinks
    finally:
        bots.stop()
        asking.join()


class Gated(FakeThinker):
    """Answers each question only when the test opens its gate; notes which were dropped
    (cancelled) before being taken."""

    def __init__(self, table):
        super().__init__(table)
        self.futures = Watched()  # (future, the answer it will get) of each question

    def think(self, game_id, view, *, level, budget):
        self.calls.append((game_id, view, level, budget))
        future = concurrent.futures.Future()
        self.futures.append((future, view["actions"][0]))
        return future

    def take_and_answer(self, index):
        future, action = self.futures[index]
        if future.set_running_or_notify_cancel():
            future.set_result(action)


def test_one_seat_has_one_hint_in_flight_and_a_hint_nobody_waits_for_is_dropped(table, tmp_path):
    table.start_game("swap5", 2, seed=2)
    hinter = Gated(table)
    bots = BotSeats(table, tmp_path, QUICK, thinker=FakeThinker(table), hinter=hinter)
    answers = []
    try:
        first = threading.Thread(target=lambda: answers.append(bots.hint(0, 1.0)))
        first.start()
        hinter.futures.wait_for_length(1)
        second_waits = threading.Event()  # the second request waits for an answer, checking its phone meanwhile
        second = threading.Thread(target=lambda: answers.append(
            bots.hint(0, 1.0, gone=lambda: second_waits.set() or False)))
        second.start()  # the same view again: it waits for the same answer
        assert second_waits.wait(BOUND_SECONDS)
        assert len(hinter.futures) == 1
        hinter.take_and_answer(0)
        first.join()
        second.join()
        assert answers == [table.view(0)["actions"][0]] * 2

        gave_up = threading.Event()
        with pytest.raises(HintAbandoned):
            threading.Timer(0.3, gave_up.set).start()
            bots.hint(0, 1.0, gone=gave_up.is_set)  # the phone's request ends before the answer
        assert hinter.futures[1][0].cancelled()  # dropped: the worker never takes it

        # A hint the worker has taken is not dropped, and a newer view's waits till it ends.
        taken = threading.Thread(target=lambda: pytest.raises(HintAbandoned, bots.hint, 0, 1.0, gone=gave_up.is_set))
        gave_up.clear()
        taken.start()
        hinter.futures.wait_for_length(3)
        assert hinter.futures[2][0].set_running_or_notify_cancel()
        table.join(1, "Ben")  # a newer version of the table
        with pytest.raises(HintBusy):
            bots.hint(0, 1.0)
        gave_up.set()
        taken.join()
        hinter.futures[2][0].set_result(hinter.futures[2][1])  # its callback forgets the hint at once
        assert bots.hints_in_flight == []
    finally:
        bots.stop()


def test_stopping_refuses_a_hint_being_thought_at_once_and_every_later_one(table, tmp_path):
    """The server, stopping, waits for its requests: a hint being thought must not hold it
    (issue #33; the stop's time with a hint in flight: benchmarks/README.md)."""
    table.start_game("swap5", 2, seed=2)
    hinter = Gated(table)  # answers only when told: never, here
    bots = BotSeats(table, tmp_path, QUICK, thinker=FakeThinker(table), hinter=hinter)
    outcome = []

    def ask():
        try:
            outcome.append(bots.hint(0, 5.0))
        except concurrent.futures.CancelledError:
            outcome.append("refused")

    asking = threading.Thread(target=ask)
    try:
        asking.start()
        hinter.futures.wait_for()
        assert hinter.futures[0][0].set_running_or_notify_cancel()  # the worker has it: it is being thought
        bots.stop_hints()
        asking.join(timeout=60)  # woken by stop_hints, not by the answer (which never comes)
        assert outcome == ["refused"]
        with pytest.raises(concurrent.futures.CancelledError):
            bots.hint(0, 0.5)
        assert len(hinter.futures) == 1  # nothing more was asked of the worker
    finally:
        bots.stop()


def test_a_hint_for_a_position_gone_meanwhile_is_refused_not_answered(table, tmp_path):
    """A hint asked just before a new game never answers with a move of the previous game."""
    table.start_game("swap5", 2, seed=2)
    hinter = Gated(table)
    bots = BotSeats(table, tmp_path, QUICK, thinker=FakeThinker(table), hinter=hinter)
    outcome = []

    def ask():
        try:
            outcome.append(bots.hint(0, 1.0))
        except HintOutdated as refusal:
            outcome.append(refusal)

    try:
        for change in ("a new game", "a move"):
            asking = threading.Thread(target=ask)
            asking.start()
            hinter.futures.wait_for_length(len(outcome) + 1)
            if change == "a new game":
                table.start_game("swap5", 2, seed=2)  # the same deal: the old answer is even one of its actions
            else:
                view = table.view(0)
                table.act(0, view["actions"][0], view["version"])
            hinter.take_and_answer(len(outcome))  # the answer, of the position asked about, comes after
            asking.join(timeout=60)
            assert isinstance(outcome[-1], HintOutdated), change
            assert "moved on" in outcome[-1].args[0] and outcome[-1].ja
        answered = []
        asking = threading.Thread(target=lambda: answered.append(bots.hint(1, 1.0)))
        asking.start()
        hinter.futures.wait_for_length(3)
        hinter.take_and_answer(2)  # the position asked about is still the table's: answered
        asking.join(timeout=60)
        assert answered == [table.view(1)["actions"][0]]
    finally:
        bots.stop()


def test_a_bot_that_cannot_move_says_so_on_every_screen_and_tries_again(table, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr("companion.bots.seats.RETRY_SECONDS", 0.5)

    class FailsTwice(FakeThinker):
        def think(self, game_id, view, *, level, budget):
            self.calls.append(level)
            if len(self.calls) <= 2:
                future = concurrent.futures.Future()
                future.set_exception(NoBot("the sampled positions offered none of the view's actions"))
                return future
            return super().think(game_id, view, level=level, budget=budget)

    table.start_game("swap5", 2, seed=2)
    thinker = FailsTwice(table)
    bots = make_bots(table, tmp_path, thinker)
    bots.seat(0, "normal")
    seen = []
    table.subscribe(lambda version: seen.append(table.public()["seats"][0]["trouble"]))
    bots.start()
    try:
        until_the_table(table, lambda: table.action_log())
    finally:
        bots.stop()
    troubles = [words for words in seen if words]
    assert troubles and "cannot move" in troubles[0]["en"] and "手を選べません" in troubles[0]["ja"]
    # The search's own words may name a hidden card: the log has them, the screens a fixed sentence.
    assert "none of the view's actions" not in troubles[0]["en"] + troubles[0]["ja"]
    assert "none of the view's actions" in caplog.text
    assert len(thinker.calls) >= 3  # it tried again, without any change of the table
    assert table.public()["seats"][0]["trouble"] is None and table.view(0)["troubles"] == {}


def test_the_bot_seats_are_kept_durably(table, tmp_path):
    """bots.sqlite is written like the table's store: WAL, each commit synced (FULL)."""
    table.start_game("swap5", 2, seed=2)
    bots = make_bots(table, tmp_path, FakeThinker(table))
    assert bots.durability == ("wal", 2)  # 2: FULL
    with sqlite3.connect(tmp_path / DATABASE) as db:  # WAL is kept in the file itself
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
