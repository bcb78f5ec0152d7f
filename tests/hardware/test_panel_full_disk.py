"""The panel says CANNOT SAVE at the first save the disk refuses, and stops saying it at the
first save that works again, without anyone pressing a button."""

from __future__ import annotations


import pytest

from companion.table import StorageError


def test_the_panel_shows_a_disk_filling_up_and_making_room(make_panel, table, full_disk):
    table.start_game("pig-house", 2, seed=1)
    panel = make_panel()
    assert panel.settle() and panel.text_lines()[0] != "CANNOT SAVE"
    table._store._db = disk = full_disk(table._store._db)
    with pytest.raises(StorageError):
        table.join(0, "Ann")  # a phone's change, not the panel's
    assert panel.settle() and panel.text_lines()[0] == "CANNOT SAVE"
    disk.full = False
    table.join(0, "Ann")
    assert panel.settle() and panel.text_lines()[0] != "CANNOT SAVE"
