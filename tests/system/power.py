"""Power cuts, on the host's side: what a disk holds after one, and whether the companion's
data survived it.

Two models of a pulled plug, each with its own part here:

* **A random cut** (``check_power.py``): QEMU is killed (``VirtualPi.cut_power``), so the
  guest's memory (its page cache, requests not yet handed to the virtual disk) is lost. What
  QEMU had already written to the raw disk file stays, as it would on a disk whose write
  cache survives the cut. The other half, a disk that loses what it was not told to flush,
  is the flush-point replay's.
* **Every flush point**: the data directory's disk is logged by QEMU's ``blklogwrites``
  driver, which appends every write the guest makes, and every flush, to a log in the Linux
  kernel's dm-log-writes format. :func:`images_at_flushes` replays that log onto the disk's
  first image and hands over the disk as it was at each flush: what an SD card may hold if
  the power goes right after that flush and nothing written after it reached the card.

:func:`inspect` then checks one such disk image with e2fsprogs alone (no mount, no root
loop devices): the journal replayed as the kernel would at boot, the file system clean, the
database copied out and read with SQLite.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

# The dm-log-writes format (linux/drivers/md/dm-log-writes.c; QEMU's block/blklogwrites.c
# writes the same): a superblock in the log's first sector, then one sector per entry with
# the entry's data (its nr_sectors sectors) right after it. All fields little-endian.
LOG_MAGIC = 0x6A736677736872
LOG_VERSION = 1
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
_SUPER = struct.Struct("<QQQI")  # magic, version, nr_entries, sectorsize
_ENTRY = struct.Struct("<QQQQ")  # sector, nr_sectors, flags, data_len

DATABASE = "companion.sqlite3"


class LogError(Exception):
    """The write log is not one this module can read."""


@dataclass(frozen=True)
class Entry:
    """One logged request: a write of ``nr_sectors`` sectors at ``sector`` (its data at
    ``data_at`` in the log), a discard, or a flush (``nr_sectors`` 0). ``at`` is where the
    entry starts in the log: an answer the host saw while the log was at most ``at`` bytes
    long came before this request was logged."""

    at: int
    sector: int
    nr_sectors: int
    flags: int
    data_at: int

    @property
    def is_flush(self) -> bool:
        return bool(self.flags & FLUSH)


def read_log(path: Path) -> tuple[int, list[Entry]]:
    """The log's sector size and its entries, up to the last one its superblock counts
    (QEMU rewrites the superblock at every flush, so entries after the last flush, which a
    kill may have cut short, are not counted)."""
    with open(path, "rb") as log:
        magic, version, count, sector_size = _SUPER.unpack(log.read(_SUPER.size))
        if magic != LOG_MAGIC or version != LOG_VERSION:
            raise LogError(f"{path} is not a dm-log-writes log (magic {magic:#x}, version {version})")
        entries = []
        position = sector_size
        for index in range(count):
            log.seek(position)
            header = log.read(_ENTRY.size)
            if len(header) < _ENTRY.size:
                raise LogError(f"{path} ends inside entry {index} of {count}")
            sector, nr_sectors, flags, _ = _ENTRY.unpack(header)
            data_at = position + sector_size
            position = data_at + (0 if flags & DISCARD else nr_sectors * sector_size)
            entries.append(Entry(data_at - sector_size, sector, nr_sectors, flags, data_at))
    return sector_size, entries


def images_at_flushes(base: Path, log_path: Path, work: Path) -> Iterator[tuple[int, Entry, Path, bool]]:
    """Replay the log onto a copy of ``base`` and yield ``(n, flush, image, changed)`` at each
    flush: ``image`` holds every write logged before the ``n``-th flush and none after it;
    ``changed`` says whether a write came since the last flush (else the image is the same).
    The image is the replay's working copy: read it (or copy it) before asking for the next."""
    sector_size, entries = read_log(log_path)
    image = work / "replayed.raw"
    shutil.copyfile(base, image)
    flushes, changed = 0, True
    with open(log_path, "rb") as log, open(image, "r+b") as disk:
        for entry in entries:
            if entry.is_flush:
                disk.flush()
                flushes += 1
                yield flushes, entry, image, changed
                changed = False
                continue
            changed = True
            size = entry.nr_sectors * sector_size
            if entry.flags & DISCARD:
                data = bytes(size)  # what a discarded range reads as is not promised: zeros, the worst case for a reader
            else:
                log.seek(entry.data_at)
                data = log.read(size)
            disk.seek(entry.sector * sector_size)
            disk.write(data)


def check_file_system(disk: Path) -> str | None:
    """Replay ``disk``'s journal in place, as the next boot's mount would, then check it
    with e2fsck: None when it is clean, else what e2fsck said."""
    replay = subprocess.run(["e2fsck", "-E", "journal_only", "-y", str(disk)], capture_output=True, text=True)
    if replay.returncode >= 4:
        return f"the journal could not be replayed (e2fsck exit {replay.returncode}):\n{replay.stdout}{replay.stderr}"
    check = subprocess.run(["e2fsck", "-f", "-n", str(disk)], capture_output=True, text=True)
    return None if check.returncode == 0 else f"e2fsck -fn exit {check.returncode}:\n{check.stdout}{check.stderr}"


@dataclass
class Inspection:
    """What one disk image held: whether its file system was clean once its journal was
    replayed (``fsck`` is e2fsck's report otherwise), SQLite's ``integrity_check``, and the
    database's rows (``actions``: (game_id, n) -> (seat, action, undone); ``games``: ids)."""

    fsck: str | None
    integrity: str | None
    actions: dict[tuple[int, int], tuple[int, str, bool]]
    games: set[int]


def inspect(image: Path, folder: str = "/") -> Inspection:
    """Check a copy of the ext4 ``image`` as the Pi would find it at the next boot, and read
    the companion's database from ``folder`` in it."""
    with tempfile.TemporaryDirectory(prefix="power-") as scratch:
        copy = Path(scratch) / "disk.raw"
        shutil.copyfile(image, copy)
        fsck = check_file_system(copy)
        out = Path(scratch) / "out"
        out.mkdir()
        for name in (DATABASE, DATABASE + "-wal"):
            subprocess.run(["debugfs", "-R", f"dump {folder.rstrip('/')}/{name} {out / name}", str(copy)],
                           capture_output=True, check=True)
        database = out / DATABASE
        if not database.exists() or database.stat().st_size == 0:
            return Inspection(fsck, None, {}, set())  # no database yet: nothing was acknowledged
        wal = out / (DATABASE + "-wal")
        if wal.exists() and wal.stat().st_size == 0:
            wal.unlink()  # debugfs leaves an empty file for a missing one
        db = sqlite3.connect(database)
        try:
            integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"actions", "games"} <= tables:  # the schema not yet committed: nothing was acknowledged
                return Inspection(fsck, integrity, {}, set())
            actions = {(game, n): (seat, action, undone is not None) for game, n, seat, action, undone
                       in db.execute("SELECT game_id, n, seat, action, undone_at FROM actions")}
            played = {row[0] for row in db.execute("SELECT id FROM games")}
        finally:
            db.close()
        return Inspection(fsck, integrity, actions, played)


def canonical(action: dict) -> str:
    """An action as the store writes it (companion/store.py: sorted keys, UTF-8 kept)."""
    return json.dumps(action, sort_keys=True, ensure_ascii=False)
