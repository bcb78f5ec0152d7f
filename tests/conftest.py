"""What tests in every folder share."""

from __future__ import annotations

import sqlite3

import pytest


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
