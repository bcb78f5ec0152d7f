"""What tests in every folder share."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

MEMORY_DISK = Path("/dev/shm")


def pytest_configure(config):
    """Temporary files (``tmp_path``, hence every test's table) in RAM, on /dev/shm where there
    is one and TMPDIR names no other place: every move is an fsync'ed SQLite commit, and on a
    disk that other work keeps busy an fsync took 4 ms, which made the tests that play many
    moves wait on the disk most of their time (tests/test_table.py, tests/records and the
    panel's random games: 106 s on /tmp, 46 s on /dev/shm, the same processor time; issue #34).
    No test here proves durability through a power cut, which a RAM disk would hide: a
    SIGKILL loses nothing written on either (tests/test_durability.py); power cuts on a real
    card are the system test's (tests/system, its own configuration, which this file is not)."""
    if "TMPDIR" not in os.environ and MEMORY_DISK.is_dir() and os.access(MEMORY_DISK, os.W_OK):
        tempfile.tempdir = str(MEMORY_DISK)  # pytest's tmp_path starts from tempfile.gettempdir()


class FullDisk:
    """A SQLite connection on a card with no room: reading works, every write fails as
    SQLite reports a full disk, until ``full`` is set to False (room was made)."""

    def __init__(self, db):
        self._db, self.full = db, True

    def execute(self, sql, *args):
        if self.full and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "COMMIT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


@pytest.fixture
def full_disk():
    """:class:`FullDisk`, to wrap a table's connection: ``table._store._db = disk =
    full_disk(table._store._db)``, then ``disk.full = False`` to make room."""
    return FullDisk


def _pig_house_to_a_potted_wolf(table) -> int:
    """Start Pig House (2 players, seed 3) on ``table`` and play every step up to a direct
    attack with a pot down and two wolves out, on two squares (seed found by search);
    return the seat whose turn it is, which may now report a wolf in a pot."""
    table.start_game("pig-house", 2, seed=3)
    while True:
        seat = table.view(None)["public"]["seat"]  # the turn's player runs every step up to the attack
        actions = table.view(seat)["actions"]
        if any(action["type"] == "wolf_potted" for action in actions):
            return seat
        pots = [action for action in actions if action["type"] == "pot" and action["action"] != "skip"]
        table.act(seat, (pots or actions)[0], table.version)


@pytest.fixture
def pig_house_to_a_potted_wolf():
    """``pig_house_to_a_potted_wolf(table) -> seat``: a Pig House game played up to an
    attack where a wolf may fall in a pot (the panel's and the phone's wolf names)."""
    return _pig_house_to_a_potted_wolf
