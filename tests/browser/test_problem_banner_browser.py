"""Open pages show the "cannot save" banner at the first save the disk refuses, and hide it
at the first one that works again, without a reload."""

from __future__ import annotations

import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402  (only once we know it is there)

from companion.table import StorageError  # noqa: E402

WAIT_MS = 10_000


def test_open_pages_show_and_hide_the_banner_as_the_disk_fills_and_gets_room(live, new_phone, full_disk):
    table = live.table
    table.start_game("meow-oracle", 2, seed=1)
    pages = {path: new_phone() for path in ("/", "/table", "/play")}
    for path, page in pages.items():
        page.goto(live.url + path)
        expect(page.locator("#problem")).to_be_hidden()
    with table._lock:
        table._store._db = disk = full_disk(table._store._db)
    with pytest.raises(StorageError):
        table.join(0, "Ann")
    for path, page in pages.items():
        expect(page.locator("#problem"), path).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#problem-text"), path).to_contain_text("disk is full")
    disk.full = False
    table.join(0, "Ann")
    for path, page in pages.items():
        expect(page.locator("#problem"), path).to_be_hidden(timeout=WAIT_MS)
