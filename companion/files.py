"""Files the companion writes besides its SQLite databases, written so that a power cut
leaves either the old file or the new one whole, never a torn or empty one.

:func:`write_atomically` writes a temporary file in the same folder, flushes it to the card
(``fsync``), renames it over the old one (a rename within one file system is atomic), then
flushes the folder, whose entry the rename changed: until then a cut could bring back the
old name, or neither. A cut before the rename leaves the old file and a ``.NAME.*.tmp``
beside it (readable by the owner only), which nothing reads.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike, data: str | bytes, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) with permissions ``mode``."""
    path = Path(path)
    content = data.encode() if isinstance(data, str) else data
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(descriptor, "wb") as file:
            os.fchmod(file.fileno(), mode)
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise
    sync_folder(path.parent)


def sync_folder(folder: str | os.PathLike) -> None:
    """Flush ``folder``'s entries (names created, renamed or removed) to the disk."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
