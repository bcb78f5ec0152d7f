"""Presence (companion/presence.py): who is at the table as their phones show it, and the rule
that keeps a host among them (issue 33, point 1). Time is a fake clock: nothing waits a minute."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from companion.presence import GONE_SECONDS, Presence
from companion.table import Conflict, StorageError, Table


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


@pytest.fixture
def table(tmp_path):
    table = Table(tmp_path)
    yield table
    table.close()


@pytest.fixture
def clock():
    return Clock()


def seated(table):
    """Aki (host, seat 0), Bo (seat 1), a bot (seat 2), Chika (seat 3): their tokens."""
    table.start_game("lion-square", 4, seed=1)
    aki, bo, chika = table.join(0, "Aki"), table.join(1, "Bo"), table.join(3, "Chika")
    table.join(2, "Bot 3 (Normal)", bot="normal")
    table.hand_over_host(0)
    return aki, bo, chika


def test_a_host_gone_a_minute_passes_hosting_to_the_first_person_present(table, clock):
    aki, bo, chika = seated(table)
    presence = Presence(table, clock=clock)
    for token in (aki, bo, chika):
        presence.arrive([token])
    clock.advance(GONE_SECONDS)  # past the grace after a start
    presence.leave([aki])  # Aki's phone closes
    clock.advance(GONE_SECONDS - 1)
    assert presence.host_present() and presence.keep_a_host() is None and table.is_host(aki)
    clock.advance(1)
    assert not presence.host_present()
    assert presence.keep_a_host() == 1 and table.is_host(bo) and not table.is_host(aki) and table.host_seat == 1
    assert presence.keep_a_host() is None, "Bo is here: hosting stays"


def test_a_host_whose_phone_reconnects_within_the_minute_stays_host(table, clock):
    aki, bo, _ = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([aki])
    presence.arrive([bo])
    clock.advance(2 * GONE_SECONDS)
    presence.leave([aki])  # the stream's reconnect every minute, or a Wi-Fi blip
    clock.advance(GONE_SECONDS / 2)
    presence.arrive([aki])
    clock.advance(2 * GONE_SECONDS)
    assert presence.keep_a_host() is None and table.is_host(aki)


def test_a_bot_never_becomes_host_and_nobody_absent_does(table, clock):
    aki, bo, chika = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([chika])
    clock.advance(GONE_SECONDS)
    assert presence.present_people() == [3]
    assert presence.keep_a_host() == 3, "Bo's phone never came, the bot has none: Chika it is"
    table.hand_over_host(0)
    presence.leave([chika])
    clock.advance(GONE_SECONDS)
    assert presence.keep_a_host() is None and table.is_host(aki), "nobody is here to take it"


def test_after_a_restart_everybody_has_a_minute_to_come_back(table, clock):
    aki, bo, _ = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([bo])
    clock.advance(GONE_SECONDS - 1)
    assert presence.host_present() and presence.keep_a_host() is None
    clock.advance(1)
    assert presence.keep_a_host() == 1


def test_a_host_leaving_their_seat_passes_hosting_at_once(table, clock):
    aki, bo, _ = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([aki])
    presence.arrive([bo])
    table.free_seat(0)
    assert table.is_host(aki) and presence.pass_on() == 1 and table.is_host(bo)


def test_a_seated_person_takes_hosting_only_when_no_host_is_present(table, clock):
    aki, bo, _ = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([aki])
    clock.advance(GONE_SECONDS)
    with pytest.raises(Conflict, match="the host is here"):
        presence.take(1)
    presence.leave([aki])
    clock.advance(GONE_SECONDS)
    presence.take(1)
    assert table.is_host(bo)
    assert not presence.host_present(), "Bo's phone has not come yet"
    with pytest.raises(Conflict, match="is a bot"):
        presence.take(2)


def test_the_table_refuses_a_bot_as_host(table):
    seated(table)
    with pytest.raises(Conflict, match="seat 3 is a bot: hosting can only go to a person") as refused:
        table.hand_over_host(2)
    assert refused.value.ja == "3番の席はボットです。ホストは人にしか譲れません"
    assert table.host_seat == 0


def test_a_database_with_a_bot_as_host_is_repaired_at_load(tmp_path):
    table = Table(tmp_path)
    aki, bo, chika = seated(table)
    bot_hash = sqlite3.connect(tmp_path / "companion.sqlite3").execute(
        "SELECT token_hash FROM seats WHERE seat = 2").fetchone()[0]
    table.close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:  # as issue 33 found it: hosting handed to a bot
        db.execute("UPDATE meta SET value = ? WHERE key = 'host_token_hash'", (f'"{bot_hash}"',))
    table = Table(tmp_path)
    assert table.host_seat == 0 and table.is_host(aki), "the first seated person hosts"
    table.close()
    assert Table(tmp_path).is_host(aki), "and the repair was saved"


def test_a_database_with_a_bot_as_host_and_no_person_seated_has_no_host_after_load(tmp_path):
    table = Table(tmp_path)
    table.start_game("meow-oracle", 2, seed=1)
    table.join(0, "Bot 1 (Normal)", bot="normal")
    bot_hash = sqlite3.connect(tmp_path / "companion.sqlite3").execute("SELECT token_hash FROM seats").fetchone()[0]
    table.close()
    with sqlite3.connect(tmp_path / "companion.sqlite3") as db:
        db.execute("INSERT INTO meta (key, value) VALUES ('host_token_hash', ?)", (f'"{bot_hash}"',))
    table = Table(tmp_path)
    assert not table.has_host
    table.claim_host()  # anyone may claim it now
    table.close()


def test_streams_that_see_the_host_gone_at_once_pass_hosting_once(table, clock):
    aki, bo, chika = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([bo])
    presence.arrive([chika])
    clock.advance(GONE_SECONDS)
    moved = []
    table.subscribe(moved.append)
    threads = [threading.Thread(target=presence.keep_a_host) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert table.host_seat == 1 and len(moved) == 1, "to Bo, once: not on to Chika"


def test_a_full_disk_keeps_the_host_and_the_streams_running(table, clock, monkeypatch):
    """Called by every event stream: a hand-over the disk refuses must not end the stream."""
    aki, bo, _ = seated(table)
    presence = Presence(table, clock=clock)
    presence.arrive([bo])
    clock.advance(GONE_SECONDS)

    def refused(seat):
        raise StorageError("the database refused to save: disk I/O error")

    monkeypatch.setattr(table, "hand_over_host", refused)
    assert presence.keep_a_host() is None and table.is_host(aki)
    monkeypatch.undo()
    assert presence.keep_a_host() == 1, "tried again once the disk takes it"
