"""The panel says CANNOT SAVE at the first save the disk refuses, and stops saying it at the
first save that works again, without anyone pressing a button."""

from __future__ import annotations

import sqlite3

import pytest

from companion.table import StorageError


class FullDisk:
    """The table's SQLite connection on a card with no room: reading works, every write
    fails as SQLite reports a full disk, until ``full`` is set to False."""

    def __init__(self, db):
        self._db, self.full = db, True

    def execute(self, sql, *args):
        if self.full and sql.split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "COMMIT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def test_the_panel_shows_a_disk_filling_up_and_making_room(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    panel = make_panel()
    assert panel.settle() and panel.text_lines()[0] != "CANNOT SAVE"
    table._store._db = disk = FullDisk(table._store._db)
    with pytest.raises(StorageError):
        table.join(0, "Ann")  # a phone's change, not the panel's
    assert panel.settle() and panel.text_lines()[0] == "CANNOT SAVE"
    disk.full = False
    table.join(0, "Ann")
    assert panel.settle() and panel.text_lines()[0] != "CANNOT SAVE"
