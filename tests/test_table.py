"""The table: seats, host, the action log in SQLite, undo, restore and change events."""

import json
import random
import sqlite3
import threading

import pytest

from companion import table as table_module
from companion import games
from companion.games import IllegalAction
from companion.store import Store
from companion.table import Conflict, Forbidden, NotFound, StorageError, Table, TableError


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


def play_randomly(table, steps, seed=0):
    """Random legal moves through the table, as phones would make them."""
    chooser = random.Random(seed)
    for _ in range(steps):
        public = table.view(None)
        if public["over"]:
            return
        seat = chooser.choice(public["to_act"])
        view = table.view(seat)
        table.act(seat, chooser.choice(view["actions"]), view["version"])


def all_views(table):
    return [table.view(seat) for seat in [None, *range(table.players)]]


def all_games_shown(table):
    """Every view's game, without the table's version and problem (which a disk problem changes)."""
    return [{**view, "version": None, "problem": None} for view in all_views(table)]


def test_a_new_table_is_idle_with_a_join_code(table):
    info = table.public()
    assert info["game"] is None and info["seats"] == [] and info["view"] is None
    assert len(table.join_code) == 5 and table.join_code.isupper()
    assert table.version == 0
    with pytest.raises(NotFound, match="no game"):
        table.view(None)


def test_the_join_code_survives_a_restart(tmp_path):
    code = Table(tmp_path).join_code
    assert Table(tmp_path).join_code == code


def test_joining_gives_a_token_that_names_the_seat(table):
    table.start_game("meow-oracle", 3, seed=1)
    token = table.join(1, "  ねこ  ")
    assert table.seat_of(token) == 1
    assert table.names() == [None, "ねこ", None]
    assert table.seat_of("not-a-token") is None and table.seat_of(None) is None
    assert len(token) >= 40


def test_a_taken_seat_cannot_be_taken(table):
    table.start_game("meow-oracle", 2, seed=1)
    table.join(0, "Ann")
    with pytest.raises(Conflict, match="taken by Ann"):
        table.join(0, "Bob")


@pytest.mark.parametrize("name,reason", [("", "enter a name"), ("   ", "enter a name"), ("x" * 25, "at most"),
                                         ("a\x00b", "control"), ("a\u200bb", "invisible"), (7, "text")])
def test_bad_names_are_refused_and_change_nothing(table, name, reason):
    table.start_game("meow-oracle", 2, seed=1)
    version = table.version
    with pytest.raises(TableError, match=reason):
        table.join(0, name)
    assert table.version == version and table.names() == [None, None]


@pytest.mark.parametrize("seat", [-1, 2])
def test_seats_outside_the_table_are_refused(table, seat):
    table.start_game("meow-oracle", 2, seed=1)
    with pytest.raises(NotFound, match="no seat"):
        table.join(seat, "Ann")


@pytest.mark.parametrize("seat", ["0", None, True, 1.0])
def test_seats_that_are_not_numbers_are_refused(table, seat):
    table.start_game("meow-oracle", 2, seed=1)
    with pytest.raises(TableError, match="a seat is a number"):
        table.join(seat, "Ann")


def test_tokens_are_stored_hashed(tmp_path):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=1)
    token = table.join(0, "Ann")
    host = table.claim_host()
    table.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert token.encode() not in raw and host.encode() not in raw


def test_actions_change_the_version_and_are_checked(table):
    table.start_game("meow-oracle", 2, seed=3)
    version = table.version
    seat = table.view(None)["to_act"][0]
    other = 1 - seat
    action = table.view(seat)["actions"][0]
    with pytest.raises(IllegalAction):
        table.act(other, action, version)
    with pytest.raises(IllegalAction):
        table.act(seat, {"type": "dance"}, version)
    with pytest.raises(Conflict, match="future"):
        table.act(seat, action, version + 5)
    with pytest.raises(TableError, match="version"):
        table.act(seat, action, "3")
    assert table.version == version and table.action_log() == []
    table.act(seat, action, version)
    assert table.version == version + 1
    assert table.action_log()[0]["action"] == action


def test_an_action_chosen_from_an_old_view_is_refused(table):
    table.start_game("meow-oracle", 2, seed=3)
    seat = table.view(None)["to_act"][0]
    old = table.view(seat)
    table.act(seat, old["actions"][0], old["version"])
    if seat in table.view(None)["to_act"]:
        with pytest.raises(Conflict, match="changed since your view"):
            table.act(seat, table.view(seat)["actions"][0], old["version"])


REPEATABLE_MOVES = [  # moves that can leave the mover's options as they were
    ("meow-oracle", {"type": "reveal", "from": "aside"}),
    ("pig-house", {"type": "pig_action"}),
    ("meow-oracle-scorer", {"type": "total"}),
]


def play_until_repeatable(table, wanted, seed=0):
    """Play randomly until some seat may make a move like ``wanted`` that leaves what it
    may do and see unchanged, so the rules would take the very same move again; return
    that seat and its view, with that move first."""
    chooser = random.Random(seed)
    game = games.get(table.game_id)
    for _ in range(500):
        state = table.state()
        for seat in table.view(None)["to_act"]:
            view = table.view(seat)
            for action in view["actions"]:
                after = game.apply(state, seat, action) if wanted.items() <= action.items() else None
                if after and game.seat_digest(after, seat) == game.seat_digest(state, seat):
                    view["actions"] = [action]
                    return seat, view
        seat = chooser.choice(table.view(None)["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
    raise AssertionError(f"no repeatable {wanted} in 500 random moves")


@pytest.mark.parametrize("game_id,wanted", REPEATABLE_MOVES)
def test_the_same_move_sent_twice_is_applied_once(table, game_id, wanted):
    table.start_game(game_id, 2, seed=0)
    seat, view = play_until_repeatable(table, wanted)
    moves = len(table.action_log())
    table.act(seat, view["actions"][0], view["version"])
    with pytest.raises(Conflict, match="changed since your view"):
        table.act(seat, view["actions"][0], view["version"])
    assert len(table.action_log()) == moves + 1
    table.act(seat, view["actions"][0], table.version)  # chosen again from a fresh view, it counts
    assert len(table.action_log()) == moves + 2


def test_choices_made_at_once_do_not_make_each_other_stale(table):
    table.start_game("lion-square", 3, seed=2)
    views = [table.view(seat) for seat in range(3)]
    assert sorted(table.view(None)["to_act"]) == [0, 1, 2], "hand adjustment is simultaneous"
    for seat in range(3):  # everyone chose from the views of the same version
        table.act(seat, views[seat]["actions"][0], views[seat]["version"])
    assert table.view(None)["game_version"] == 3


def test_a_join_does_not_make_a_pending_action_stale(table):
    table.start_game("meow-oracle", 2, seed=3)
    seat = table.view(None)["to_act"][0]
    view = table.view(seat)
    table.join(1 - seat, "Late")
    table.act(seat, view["actions"][0], view["version"])
    assert [(entry["seat"], entry["action"]) for entry in table.action_log()] == [(seat, view["actions"][0])]
    assert table.view(None)["game_version"] == view["game_version"] + 1


def test_restart_restores_the_same_version_and_views(tmp_path):
    table = Table(tmp_path)
    table.start_game("lion-square", 4, seed=9)
    token = table.join(2, "Ann")
    play_randomly(table, 60)
    before = all_views(table)
    table.close()
    again = Table(tmp_path)
    assert all_views(again) == before
    assert again.seat_of(token) == 2


def test_restart_from_snapshots_equals_a_full_replay(tmp_path, monkeypatch):
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 7)
    table = Table(tmp_path)
    table.start_game("lion-square", 3, seed=4)
    play_randomly(table, 50, seed=4)
    before = all_views(table)
    table.close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] >= 3
    assert all_views(Table(tmp_path)) == before
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:
        db.execute("DELETE FROM snapshots")
    assert all_views(Table(tmp_path)) == before


def test_undo_steps_back_keeps_the_log_and_cannot_reroll(table):
    table.start_game("meow-oracle", 3, seed=5)
    play_randomly(table, 12, seed=5)
    state_before = table.state()
    seat = table.view(None)["to_act"][0]
    view = table.view(seat)
    action = view["actions"][-1]
    table.act(seat, action, view["version"])
    after = table.state()
    version = table.version
    table.undo()
    assert table.version == version + 1, "undo is a change: the version still grows"
    assert table.state() == state_before
    log = table.action_log()
    assert log[-1]["action"] == action and log[-1]["undone"]
    table.act(seat, action, table.version)
    assert table.state() == after, "the same move after an undo must give the same outcome"


def test_undo_goes_as_deep_as_the_log_and_no_further(table):
    table.start_game("meow-oracle", 2, seed=6)
    start = table.state()
    play_randomly(table, 5, seed=6)
    for _ in range(5):
        table.undo()
    assert table.state() == start
    with pytest.raises(Conflict, match="nothing to undo"):
        table.undo()
    assert all(entry["undone"] for entry in table.action_log())


def test_undoing_the_last_move_reopens_a_finished_game(table):
    table.start_game("meow-oracle", 2, seed=7)
    play_randomly(table, 10_000, seed=7)
    assert table.view(None)["over"]
    assert table.public()["history"][0]["result"] is not None
    table.undo()
    assert not table.view(None)["over"]
    assert table.public()["history"] == []


def test_an_undo_survives_a_restart(tmp_path):
    table = Table(tmp_path)
    table.start_game("lion-square", 3, seed=8)
    play_randomly(table, 20, seed=8)
    table.undo()
    table.undo()
    before = all_views(table)
    table.close()
    assert all_views(Table(tmp_path)) == before


def test_a_new_game_keeps_seats_that_still_exist(table):
    table.start_game("meow-oracle", 4, seed=1)
    tokens = [table.join(seat, f"P{seat}") for seat in range(4)]
    table.start_game("lion-square", 3, seed=1)
    assert table.names() == ["P0", "P1", "P2"]
    assert table.seat_of(tokens[3]) is None
    history = table.public()["history"]
    assert history[0]["abandoned"] and history[0]["game"] == "meow-oracle"


def test_starting_an_unknown_or_bad_game_changes_nothing(table):
    with pytest.raises(NotFound, match="does not offer"):
        table.start_game("chess", 2)
    with pytest.raises(ValueError, match="players"):
        table.start_game("meow-oracle", 9)
    assert table.version == 0 and table.game_id is None


def test_only_offered_games_start(tmp_path):
    table = Table(tmp_path, offered_games=["meow-oracle"])
    with pytest.raises(NotFound):
        table.start_game("lion-square", 3)
    with pytest.raises(ValueError, match="unknown game"):
        Table(tmp_path, offered_games=["chess"])


def test_hosting_is_claimed_once_and_can_be_handed_over(table):
    table.start_game("meow-oracle", 2, seed=1)
    host = table.claim_host()
    assert table.is_host(host) and not table.is_host("nope") and not table.is_host(None)
    with pytest.raises(Forbidden, match="already has a host"):
        table.claim_host()
    with pytest.raises(Conflict, match="free"):
        table.hand_over_host(1)
    seat_token = table.join(1, "Bea")
    table.hand_over_host(1)
    assert table.is_host(seat_token) and not table.is_host(host)
    assert table.host_seat == 1 and table.public()["host"] == {"exists": True, "seat": 1}


def reopen(table, data_dir):
    """The same table after a restart (a power cut or a service restart)."""
    table.close()
    return Table(data_dir)


def assert_host(table, token, others):
    """``token`` carries host rights and none of ``others`` do; nobody can claim hosting."""
    assert table.has_host and table.is_host(token)
    assert not any(table.is_host(other) for other in others)
    with pytest.raises(Forbidden, match="already has a host"):
        table.claim_host()


def test_claiming_hosting_lasts_across_a_restart(tmp_path):
    table = Table(tmp_path)
    host = table.claim_host()
    assert_host(table, host, ["nope"])
    table = reopen(table, tmp_path)
    assert_host(table, host, ["nope"])
    table.close()


def test_hosting_claimed_by_a_start_lasts_across_a_restart(tmp_path):
    table = Table(tmp_path)
    host = table.start_game("meow-oracle", 2, seed=1, claim_host=True)
    assert_host(table, host, [])
    table = reopen(table, tmp_path)
    assert_host(table, host, [])
    table.close()


def test_a_hand_over_retires_the_old_host_token_for_good(tmp_path):
    table = Table(tmp_path)
    host = table.start_game("meow-oracle", 2, seed=1, claim_host=True)
    bea = table.join(1, "Bea")
    table.hand_over_host(1)
    assert_host(table, bea, [host])
    assert table.host_seat == 1
    table = reopen(table, tmp_path)
    assert_host(table, bea, [host])
    assert table.host_seat == 1
    table.close()


def test_a_host_who_frees_their_own_seat_stays_host(tmp_path):
    table = Table(tmp_path)
    host = table.start_game("meow-oracle", 2, seed=1, claim_host=True)
    bea = table.join(1, "Bea")
    table.hand_over_host(1)
    table.free_seat(1)
    assert table.seat_of(bea) is None and table.host_seat is None
    assert_host(table, bea, [host])
    table = reopen(table, tmp_path)
    assert_host(table, bea, [host])
    stranger = table.join(1, "Cy")  # whoever takes the freed seat next is a player, not the host
    assert_host(table, bea, [host, stranger])
    table = reopen(table, tmp_path)
    assert_host(table, bea, [host, stranger])
    assert table.host_seat is None
    table.close()


def test_a_handed_over_host_stays_host_when_a_smaller_game_leaves_them_no_seat(tmp_path):
    table = Table(tmp_path)
    host = table.start_game("meow-oracle", 3, seed=1, claim_host=True)
    ann, cy = table.join(0, "Ann"), table.join(2, "Cy")
    table.hand_over_host(2)
    table.start_game("meow-oracle", 2, seed=1)
    assert table.seat_of(cy) is None and table.public()["host"] == {"exists": True, "seat": None}
    assert_host(table, cy, [host, ann])
    table = reopen(table, tmp_path)
    assert_host(table, cy, [host, ann])
    table.start_game("meow-oracle", 3, seed=1)  # seat 3 is back, and free
    newcomer = table.join(2, "Dee")
    assert_host(table, cy, [host, ann, newcomer])
    table = reopen(table, tmp_path)
    assert_host(table, cy, [host, ann, newcomer])
    table.close()


def test_a_table_saved_with_a_host_seat_gives_hosting_to_that_seats_token(tmp_path):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=1)
    bea = table.join(1, "Bea")
    table.close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:  # as an older companion saved a hand-over
        db.execute("""INSERT INTO meta (key, value) VALUES ('host_seat', '1')""")
    table = Table(tmp_path)
    assert_host(table, bea, ["nope"])
    table.free_seat(1)
    table = reopen(table, tmp_path)
    assert_host(table, bea, ["nope"])
    table.close()


def test_freeing_a_seat_revokes_its_token(table):
    table.start_game("meow-oracle", 2, seed=1)
    token = table.join(0, "Ann")
    table.free_seat(0)
    assert table.seat_of(token) is None and table.names() == [None, None]
    with pytest.raises(Conflict, match="already free"):
        table.free_seat(0)
    table.join(0, "Cy")


def test_listeners_and_waiters_hear_every_change(table):
    heard = []
    unsubscribe = table.subscribe(heard.append)
    woke = []
    waiter = threading.Thread(target=lambda: woke.append(table.wait(table.version, timeout=10)))
    waiter.start()
    table.start_game("meow-oracle", 2, seed=1)
    waiter.join(timeout=10)
    assert woke == [1] and heard == [1]
    unsubscribe()
    table.join(0, "Ann")
    assert heard == [1]
    assert table.wait(table.version, timeout=0.01) == table.version


def test_a_full_disk_refuses_the_action_changes_nothing_and_says_so_until_a_write_succeeds(tmp_path, caplog):
    table = Table(tmp_path)
    table.start_game("lion-square", 3, seed=1)
    heard = []
    table.subscribe(heard.append)
    db = table._store._db
    # SQLite's own page limit makes the database genuinely full, as a full SD card would.
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.execute(f"PRAGMA max_page_count = {pages}")
    chooser = random.Random(1)
    with pytest.raises(StorageError, match="refused to save"):
        for _ in range(2000):
            before, version = all_games_shown(table), table.version
            seat = chooser.choice(before[0]["to_act"])
            move = chooser.choice(before[seat + 1]["actions"])
            table.act(seat, move, version)
    assert all_games_shown(table) == before and table.action_log()[-1]["action"] != move
    # The first failed write shows the problem at once: a new version that listeners hear.
    assert "cannot save" in table.problem and "full" in table.problem and str(tmp_path) not in table.problem
    assert table.public()["problem"] == table.problem
    assert table.version == version + 1 and heard[-1] == table.version
    heard.clear()
    for _ in range(3):  # still full: refused, but no new version and no new log line
        with pytest.raises(StorageError):
            table.act(seat, move, table.version)
    assert heard == [] and table.version == version + 1 and table.problem
    assert [r.levelname for r in caplog.records if "cannot write" in r.message] == ["ERROR"]
    assert str(tmp_path) in caplog.text, "the log names the directory (answers do not)"

    db.execute(f"PRAGMA max_page_count = {pages * 10}")  # someone made room on the card
    table.act(seat, move, table.version)
    assert table.problem is None and table.public()["problem"] is None
    assert table.action_log()[-1]["action"] == move and heard == [version + 2] == [table.version]
    assert "can be written again" in caplog.text
    table = reopen(table, tmp_path)
    assert table.version == version + 2 and table.problem is None
    table.close()


def test_a_restart_on_a_full_disk_shows_the_problem_until_a_write_succeeds(tmp_path, monkeypatch, full_disk):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=4)
    before = all_games_shown(table)
    table.close()
    disks = []
    real_open = table_module.Store._open_for_writing

    def open_a_full_card(self):
        disks.append(full_disk(real_open(self)))
        return disks[-1]

    monkeypatch.setattr(table_module.Store, "_open_for_writing", open_a_full_card)
    table = Table(tmp_path)
    assert "cannot save" in table.problem and table.public()["problem"] == table.problem
    assert all_games_shown(table) == before, "what was saved is shown as it was"
    seat = before[0]["to_act"][0]
    with pytest.raises(StorageError, match="full"):
        table.act(seat, before[seat + 1]["actions"][0], table.version)
    assert all_games_shown(table) == before and table.problem
    disks[-1].full = False
    table.act(seat, before[seat + 1]["actions"][0], table.version)
    assert table.problem is None and len(table.action_log()) == 1
    table.close()


class _CommitFails:
    """The table's SQLite connection, except that COMMIT fails with ``error``: every
    statement before it succeeds."""

    def __init__(self, db, error):
        self._db, self._error = db, error

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise self._error
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


@pytest.mark.parametrize("error,shown", [
    # what SQLite raises at COMMIT for a deferred constraint: a refused write, not a disk problem
    (sqlite3.IntegrityError("FOREIGN KEY constraint failed"), 0),
    # an I/O error at the end of a transaction: the table now shows a problem (one new version)
    (sqlite3.OperationalError("disk I/O error"), 1),
])
def test_a_failure_at_commit_changes_nothing(tmp_path, error, shown):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=1)
    seat = table.view(None)["to_act"][0]
    view = table.view(seat)
    before, version = all_games_shown(table), table.version
    table._store._db = _CommitFails(table._store._db, error)
    with pytest.raises(StorageError, match=str(error)):
        table.act(seat, view["actions"][0], view["version"])
    assert table.version == version + shown and bool(table.problem) == bool(shown)
    assert all_games_shown(table) == before and table.action_log() == []
    assert not table._store._db.in_transaction, "the refused transaction was rolled back"
    table = reopen(table, tmp_path)
    assert table.version == version and all_games_shown(table) == before and table.action_log() == []
    table.close()


def test_a_database_from_the_future_is_refused(tmp_path):
    Table(tmp_path).close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StorageError, match="schema 99"):
        Table(tmp_path)


def test_starting_on_an_idle_table_can_make_the_caller_host_at_once(table):
    host = table.start_game("meow-oracle", 2, seed=1, claim_host=True)
    assert table.is_host(host)
    with pytest.raises(Forbidden, match="already has a host"):
        table.start_game("meow-oracle", 2, seed=1, claim_host=True)
    assert table.start_game("meow-oracle", 3, seed=1) is None


def test_a_refused_start_claims_nothing(table):
    with pytest.raises(ValueError):
        table.start_game("meow-oracle", 7, claim_host=True)
    assert not table.has_host and table.version == 0


def test_an_action_that_fails_after_the_rules_saves_nothing(table, monkeypatch):
    table.start_game("meow-oracle", 2, seed=1)
    seat = table.view(None)["to_act"][0]
    view = table.view(seat)

    def broken(game, state):
        raise RuntimeError("an engine bug while listing moves")

    monkeypatch.setattr(table_module, "_fingerprints", broken)
    with pytest.raises(RuntimeError):
        table.act(seat, view["actions"][0], view["version"])
    assert table.version == view["version"] and table.action_log() == []


def test_undo_across_a_snapshot_replays_from_an_earlier_one(tmp_path, monkeypatch):
    monkeypatch.setattr(table_module, "SNAPSHOT_EVERY", 5)
    table = Table(tmp_path)
    table.start_game("lion-square", 3, seed=2)
    states = [table.state()]
    chooser = random.Random(2)
    for _ in range(11):
        seat = chooser.choice(table.view(None)["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
        states.append(table.state())
    for back in range(1, 8):
        table.undo()
        assert table.state() == states[-1 - back]
    assert all_views(Table(tmp_path)) == all_views(table)


def test_a_seat_that_is_not_a_number_is_a_bad_request(table):
    table.start_game("meow-oracle", 2, seed=1)
    with pytest.raises(TableError, match="a seat is a number") as refused:
        table.hand_over_host("1")
    assert not isinstance(refused.value, NotFound)


def test_unsubscribing_twice_is_harmless(table):
    heard, kept = [], []
    unsubscribe = table.subscribe(heard.append)
    table.subscribe(kept.append)
    unsubscribe()
    unsubscribe()
    table.start_game("meow-oracle", 2, seed=1)
    assert heard == [] and kept == [table.version], "the other listener still hears, the removed one does not"


def test_a_data_directory_that_cannot_be_written_leaves_a_table_that_says_why(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    table = Table(blocker / "data")
    assert "cannot save" in table.problem and str(tmp_path) not in table.problem, "the log names paths, answers do not"
    assert table.public()["problem"] == table.problem
    with pytest.raises(StorageError, match="cannot save"):
        table.start_game("meow-oracle", 2, seed=1)
    assert table.version == 0 and table.game_id is None


def test_a_read_only_card_still_shows_the_saved_game_and_refuses_changes(tmp_path, monkeypatch):
    table = Table(tmp_path)
    table.start_game("lion-square", 3, seed=3)
    token = table.join(0, "Ann")
    play_randomly(table, 10, seed=3)
    before = all_games_shown(table)
    table.close()

    def read_only(self):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(table_module.Store, "_open_for_writing", read_only)
    again = Table(tmp_path)
    assert "readonly" in again.problem
    assert all_games_shown(again) == before and again.seat_of(token) == 0
    seat = before[0]["to_act"][0]
    with pytest.raises(StorageError, match="cannot save"):
        again.act(seat, again.view(seat)["actions"][0], again.version)
    with pytest.raises(StorageError):
        again.join(1, "Bob")
    assert all_games_shown(again) == before


def test_a_corrupt_database_leaves_an_empty_table_that_says_why(tmp_path):
    (tmp_path / "companion.sqlite3").write_bytes(b"this is not a database, it is a scratched card" * 100)
    table = Table(tmp_path)
    assert "cannot save" in table.problem
    assert table.game_id is None and table.public()["problem"]


def test_a_read_only_card_shows_even_the_moves_still_in_the_write_ahead_log(tmp_path, monkeypatch):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=4)
    with sqlite3.connect(tmp_path / Store.FILENAME) as db:  # the game in the main file...
        assert db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0  # 0: not blocked
    play_randomly(table, 6, seed=4)  # ...its last moves only in the write-ahead log
    before = all_games_shown(table)
    assert (tmp_path / "companion.sqlite3-wal").stat().st_size > 0
    # No close(): a power cut leaves the WAL un-checkpointed, exactly as here.

    def read_only(self):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(table_module.Store, "_open_for_writing", read_only)
    assert all_games_shown(Table(tmp_path)) == before


def test_a_saved_game_that_can_no_longer_be_replayed_is_set_aside(tmp_path, caplog):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=4)
    play_randomly(table, 3, seed=4)
    table.close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:  # as if a rule had changed since
        db.execute("UPDATE actions SET action = ? WHERE n = 2", ('{"type": "fly"}',))
    again = Table(tmp_path)
    assert again.game_id is None and "cannot be restored" in caplog.text
    assert again.public()["history"][0]["abandoned"]
    again.start_game("meow-oracle", 2, seed=1)  # and the table goes on


# ---------------------------------------------------------------- the whole log, undo's entry


def play_until_a_move_speaks_privately(table, seed):
    """Random moves until the last one wrote an entry that some seat reads in its own words."""
    chooser = random.Random(seed)
    while True:
        seat = chooser.choice(table.view(None)["to_act"])
        view = table.view(seat)
        table.act(seat, chooser.choice(view["actions"]), view["version"])
        written = [e for e in table.state()["log"] if e["v"] == table.state()["version"]]
        private = next((e for e in written if e.get("to")), None)
        if private:
            return private


def test_the_whole_log_keeps_every_entry_in_play_order_and_a_view_its_last_15(table):
    table.start_game("meow-oracle", 3, seed=5)
    play_randomly(table, 40, seed=5)
    whole = table.log(None)
    assert len(whole) > 15 and [e["seq"] for e in whole] == sorted(e["seq"] for e in whole)
    assert table.view(None)["log"] == whole[-15:]
    for seat in range(3):
        assert table.view(seat)["log"] == table.log(seat)[-15:]


def test_undo_marks_the_move_and_a_new_entry_says_who_took_back_what_also_after_a_restart(tmp_path):
    table = Table(tmp_path)
    table.start_game("swap5", 2, seed=4)
    seat = table.view(None)["to_act"][0]
    move = next(a for a in table.view(seat)["actions"] if a["type"] == "swap")
    table.act(seat, move, table.version)
    move_entry = table.view(None)["log"][-1]
    table.undo(by=1)
    *_, undone, undo = table.view(None)["log"]
    assert undone == {**move_entry, "undone": True}
    assert undo["kind"] == "undo" and "undone" not in undo
    assert undo["text"] == {"en": "{s1} took back: " + move_entry["text"]["en"],
                            "ja": "{s1}さんが取り消しました: " + move_entry["text"]["ja"]}
    table.act(seat, move, table.version)  # the same move again: a new entry, not the undone one
    table.undo()  # the host without a seat, or the panel
    assert table.view(None)["log"][-1]["text"]["en"] == "The host took back: " + move_entry["text"]["en"]
    assert table.view(None)["log"][-1]["text"]["ja"].startswith("ホストが取り消しました: ")
    before = [table.log(s) for s in (None, 0, 1)]
    table = reopen(table, tmp_path)
    assert [table.log(s) for s in (None, 0, 1)] == before
    assert all_views(table)[0]["log"] == before[0][-15:]
    table.close()


def test_undo_names_a_move_in_each_seats_own_words_and_tells_nobody_else_the_secret(table):
    table.start_game("lion-square-ledger", 3, seed=2)
    private = play_until_a_move_speaks_privately(table, seed=2)
    table.undo()
    public_text = table.view(None)["log"][-1]["text"]
    assert public_text["en"] == "The host took back: " + private["text"]["en"]
    for seat in range(3):
        own = private["to"].get(str(seat))
        undo = table.view(seat)["log"][-1]
        assert undo["kind"] == "undo"
        if own:
            assert undo["text"] == {"en": "The host took back: " + own["en"], "ja": "ホストが取り消しました: " + own["ja"]}
        else:
            assert undo["text"] == public_text
            assert not any(o["en"] in json.dumps(table.log(seat)) for o in private["to"].values() if o["en"] != private["text"]["en"])


def test_one_undo_takes_back_a_persons_move_with_the_bots_replies_also_after_a_restart(tmp_path):
    """Issue 33: Aki's misplay and the bots' answers come back in one undo, said in one line;
    another person's move in between stops the undo there; the state is the replay's, also
    after a restart; bots only: the last move alone."""
    table = Table(tmp_path)
    table.start_game("swap5", 4, seed=1)
    table.join(0, "Aki")
    for seat in (1, 2, 3):
        table.join(seat, f"Bot {seat + 1} (Normal)", bot="normal")

    def move(seat):
        table.act(seat, table.view(seat)["actions"][0], table.version)

    def mover():
        return table.view(None)["to_act"][0]

    while mover() != 0:
        move(mover())
    before = table.state()
    aki_moves = len(table.action_log())
    move(0)
    aki_entry = table.log(None)[-1]
    while mover() != 0:
        move(mover())
    taken = len(table.action_log()) - aki_moves
    assert taken == 4, "Aki and three bots"
    assert table.undoable() == {"moves": taken, "seat": 0, "move": aki_entry["text"]}
    table.undo(by=0)
    assert table.state() == before and mover() == 0
    assert [a["undone"] for a in table.action_log()][aki_moves:] == [True] * taken
    log = table.log(None)
    assert log[-1] == {"seq": log[-1]["seq"], "kind": "undo",
                       "text": {"en": f"{{s0}} took back {taken} moves", "ja": f"{{s0}}さんが{taken}手戻しました"}}
    assert sum(1 for entry in log if entry.get("kind") == "undo") == 1
    table = reopen(table, tmp_path)
    assert table.state() == before and table.log(None) == log

    move(0)
    while mover() != 0:
        move(mover())
    table.undo()  # the host without a seat, or the panel
    assert table.log(None)[-1]["text"] == {"en": "The host took back 4 moves", "ja": "ホストが4手戻しました"}
    assert table.state() == before
    table.close()


def test_an_undo_stops_at_the_last_persons_move_whoever_asks(table):
    table.start_game("swap5", 4, seed=3)
    table.join(0, "Aki")
    table.join(2, "Bo")
    table.join(1, "Bot 2 (Normal)", bot="normal")
    table.join(3, "Bot 4 (Normal)", bot="normal")
    for _ in range(6):
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    seats = [a["seat"] for a in table.action_log()]
    last_person = max(i for i, seat in enumerate(seats) if seat in (0, 2))
    assert table.undoable()["seat"] == seats[last_person]
    table.undo(by=0)
    assert [a["undone"] for a in table.action_log()] == [i >= last_person for i in range(len(seats))]


def test_with_only_bots_moving_an_undo_takes_back_the_last_move_alone(table):
    table.start_game("swap5", 2, seed=3)
    table.join(0, "Bot 1 (Normal)", bot="normal")
    table.join(1, "Bot 2 (Normal)", bot="normal")
    for _ in range(3):
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)
    assert table.undoable()["moves"] == 1
    table.undo()
    assert [a["undone"] for a in table.action_log()] == [False, False, True]


def test_undo_by_a_seat_outside_the_table_is_refused_and_changes_nothing(table):
    table.start_game("swap5", 2, seed=4)
    play_randomly(table, 1)
    version = table.version
    with pytest.raises(NotFound):
        table.undo(by=5)
    assert table.version == version and not table.log(None)[-1].get("undone")


# ---------------------------------------------------------------- rematch, free all


def test_a_rematch_keeps_game_options_seats_tokens_and_host_with_a_new_seed(tmp_path):
    table = Table(tmp_path)
    host = table.start_game("swap5", 2, seed=4, options={"board": "back", "direction": "counterclockwise"}, claim_host=True)
    tokens = [table.join(0, "Aki"), table.join(1, "Bo")]
    play_randomly(table, 10_000, seed=4)
    finished_game = table.public()["game"]
    assert finished_game["over"] and finished_game["options"]["board"] == "back"
    old_seed = table.state()["seed"]
    table.rematch()
    assert table.public()["game"] == {**finished_game, "over": False, "seed_chosen": False}  # a new seed, drawn
    assert table.state()["seed"] != old_seed and table.state()["version"] == 0
    assert [table.seat_of(t) for t in tokens] == [0, 1] and table.names() == ["Aki", "Bo"]
    assert table.is_host(host)
    assert table.public()["history"][0]["result"] is not None and not table.public()["history"][0]["abandoned"]
    table = reopen(table, tmp_path)
    assert [table.seat_of(t) for t in tokens] == [0, 1] and table.is_host(host) and table.log(None)[0]["seq"] == 1
    table.close()


def test_a_rematch_of_an_unfinished_game_is_refused_and_changes_nothing(table):
    with pytest.raises(NotFound):
        table.rematch()
    table.start_game("swap5", 2, seed=4)
    play_randomly(table, 3)
    before, version = table.state(), table.version
    with pytest.raises(Conflict, match="not over yet") as refusal:
        table.rematch()
    assert refusal.value.ja and table.state() == before and table.version == version


def test_freeing_every_seat_revokes_every_token_and_the_host_keeps_hosting(table):
    host = table.start_game("meow-oracle", 3, seed=1, claim_host=True)
    tokens = [table.join(seat, name) for seat, name in enumerate(("Aki", "Bo", "Chika"))]
    table.hand_over_host(2)
    table.free_all_seats()
    assert table.names() == [None, None, None] and all(table.seat_of(t) is None for t in tokens)
    assert table.is_host(tokens[2]) and not table.is_host(host)
    version = table.version
    with pytest.raises(Conflict, match="already free"):
        table.free_all_seats()
    assert table.version == version


def test_every_table_refusal_has_japanese_words(table):
    refusals = []
    for attempt in (lambda: table.join(0, "Aki"), lambda: table.undo(), lambda: table.rematch(),
                    lambda: table.start_game("nope", 2), lambda: table.start_game("swap5", 3)):
        with pytest.raises(TableError) as refusal:
            attempt()
        refusals.append(refusal.value)
    table.start_game("swap5", 2, seed=4)
    for attempt in (lambda: table.join(0, ""), lambda: table.join(9, "Aki"), lambda: table.free_seat(0),
                    lambda: table.act(0, {}, "1"), lambda: table.act(0, {}, 10**6), lambda: table.hand_over_host(0)):
        with pytest.raises(TableError) as refusal:
            attempt()
        refusals.append(refusal.value)
    for refusal in refusals:
        assert refusal.en == str(refusal) and refusal.ja and refusal.ja != refusal.en
        assert any(ord(ch) > 0x3000 for ch in refusal.ja), refusal.ja


def test_a_database_of_an_older_version_gains_the_bot_columns_and_keeps_everything(tmp_path):
    table = Table(tmp_path)
    table.start_game("swap5", 2, seed=1)
    table.join(0, "Aki")
    table.close()
    with sqlite3.connect(tmp_path / Store.FILENAME) as db:  # as saved before seats kept a bot's level
        db.execute("ALTER TABLE seats DROP COLUMN bot")
        db.execute("ALTER TABLE seating DROP COLUMN bot_level")
    store = Store.__new__(Store)
    store.path = tmp_path / Store.FILENAME
    read_only = store._open_read_only()  # a read-only card: a copy in memory gains them
    assert read_only.execute("SELECT name, bot FROM seats").fetchall() == [("Aki", None)]
    read_only.close()

    table = Table(tmp_path)
    try:
        assert table.names() == ["Aki", None] and table.bots() == [None, None]
        table.join(1, "Bot 2 (Easy)", bot="easy")
        assert table.public()["seats"][1]["bot"] == "easy"
    finally:
        table.close()


@pytest.mark.parametrize("typed", ["Dai", "dai", "DAI", "Ｄａｉ", " Dai "])
def test_a_name_already_seated_is_refused_whatever_its_case_or_width(table, typed):
    table.start_game("meow-oracle", 3, seed=1)
    table.join(0, "Dai")
    version = table.version
    with pytest.raises(Conflict) as refused:
        table.join(1, typed)
    assert str(refused.value) == "Dai is already at the table (seat 1): please choose another name"
    assert refused.value.ja == "Daiさんはもう1番の席に着いています。別の名前にしてください"
    assert table.version == version and table.names() == ["Dai", None, None]
    table.join(1, "Daichi")  # another name is welcome, and a bot of any name
    table.join(2, "Dai", bot="easy")
