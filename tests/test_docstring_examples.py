"""The examples in the docstrings of the public seams (issue 34, point 5) run as written: a
newcomer copies them. Each runs under the standard library's doctest, with the folders it
makes (``tempfile.mkdtemp()``) inside this test's own temporary directory; the panel's example
asks for mock hardware itself (gpiozero's mock pins, luma's dummy display)."""

from __future__ import annotations

import doctest
import importlib
import tempfile

import pytest

from companion.bots.seats import BotSeats
from companion.table import Table
from hardware import Panel

SEAMS = [("companion.table", "Table"), ("companion.bots.seats", "BotSeats"), ("hardware", "create_panel"),
         ("web", "create_app")]


@pytest.mark.parametrize(("module_name", "name"), SEAMS)
def test_the_example_in_the_docstring_runs(module_name, name, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    module = importlib.import_module(module_name)
    found = doctest.DocTestFinder(recurse=False).find(getattr(module, name), f"{module_name}.{name}", module=module)
    assert len(found) == 1 and found[0].examples, f"{module_name}.{name} has no example in its docstring"
    example = found[0]
    runner = doctest.DocTestRunner()
    report: list[str] = []
    try:
        runner.run(example, out=report.append, clear_globs=False)
    finally:
        if runner.failures:
            _stop_what_was_left(example.globs)
    assert runner.failures == 0, "".join(report)


def _stop_what_was_left(names: dict) -> None:
    """An example that failed halfway leaves no bot, panel or table running (safe to stop twice)."""
    left = list(names.values())
    for kind, stop in ((BotSeats, BotSeats.stop), (Panel, Panel.stop), (Table, Table.close)):
        for value in left:
            if isinstance(value, kind):
                stop(value)
