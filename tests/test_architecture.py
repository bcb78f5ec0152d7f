"""The folder layout is the architecture: these tests keep it honest.

``companion`` is the core and knows nothing of the web or the hardware; the only
exception is the composition root (the ``serve`` command and the CLI that dispatches
to it), which wires them together. ``web`` and ``hardware`` never import each other.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPOSITION_ROOT = {"companion/serve.py", "companion/cli.py"}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", sources("companion"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_core_imports_neither_web_nor_hardware(path):
    if str(path.relative_to(ROOT)) in COMPOSITION_ROOT:
        return
    assert not imported_packages(path) & {"web", "hardware"}


@pytest.mark.parametrize("path", sources("web"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_web_does_not_import_the_hardware(path):
    assert "hardware" not in imported_packages(path)


@pytest.mark.parametrize("path", sources("hardware"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_hardware_does_not_import_the_web(path):
    assert "web" not in imported_packages(path)


def test_the_games_are_pure():
    """Engines are pure functions of their state: no I/O, no clock, no global randomness."""
    for path in sources("companion/games"):
        assert not imported_packages(path) & {"time", "random", "sqlite3", "socket", "threading", "flask"}, path
