"""Files the companion writes besides SQLite are replaced whole or not at all, and SQLite's
settings keep every acknowledged change through a power cut (issue 32, point 3)."""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from pathlib import Path

import pytest

from companion import files, network
from companion.files import write_atomically
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def synced(monkeypatch):
    """Every fsync and rename, in order: ("file", path), ("folder", path), ("rename", path)."""
    calls = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(descriptor):
        target = os.readlink(f"/proc/self/fd/{descriptor}")
        calls.append(("folder" if os.path.isdir(target) else "file", target))
        real_fsync(descriptor)

    def replace(source, destination):
        calls.append(("rename", str(destination)))
        real_replace(source, destination)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    return calls


def test_a_file_is_flushed_renamed_into_place_then_its_folder_flushed(tmp_path, synced):
    path = tmp_path / "settings"
    path.write_text("old")
    write_atomically(path, "new ✓", mode=0o640)
    assert path.read_text() == "new ✓"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["settings"]  # no temporary file left
    kinds = [kind for kind, _ in synced]
    assert kinds == ["file", "rename", "folder"]
    assert synced[0][1].startswith(str(tmp_path / ".settings.")) and synced[2][1] == str(tmp_path)


def test_a_write_that_fails_leaves_the_old_file_whole_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "settings"
    path.write_text("old")

    def full_card(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_card)
    with pytest.raises(OSError):
        write_atomically(path, "new")
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["settings"]


def test_the_hotspot_password_is_written_atomically_and_private(tmp_path, synced):
    password = network.hotspot_password(tmp_path)
    path = tmp_path / network.PASSWORD_FILE
    assert path.read_text() == password + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [kind for kind, _ in synced] == ["file", "rename", "folder"]


def test_nothing_else_writes_files_its_own_way():
    """One helper for every file the companion writes: no other opening for writing."""
    writing = re.compile(r"""write_text\(|write_bytes\(|open\([^)]*["'][wax]b?\+?["']|os\.open\(""")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("companion", "hardware", "web") for path in sorted((ROOT / folder).rglob("*.py"))
             if path != ROOT / "companion" / "files.py"
             for number, line in enumerate(path.read_text().splitlines(), 1) if writing.search(line)]
    assert found == []


def test_sqlite_syncs_every_commit_of_its_write_ahead_log(tmp_path):
    store = Store(tmp_path)
    try:
        db = sqlite3.connect(tmp_path / Store.FILENAME)
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        db.close()
        assert store.durability == ("wal", 2)  # 2: FULL
    finally:
        store.close()
