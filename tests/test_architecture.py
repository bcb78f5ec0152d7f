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


FLOORS = {"games": {"games"}, "table": {"games", "table"}, "bots": {"games", "table", "bots"},
          "records": {"games", "table", "records"}}
"""The core's floors run one way, games <- table <- bots, records: each floor of the core
(left) may import only the floors listed (the modules outside the floors, such as the
configuration, are free to all)."""


def floor(module: str) -> str | None:
    """The floor of a module named ``companion.x.y``: games, table (with its store), bots, records."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "companion":
        return None
    if parts[1] in ("games", "bots", "records"):
        return parts[1]
    return "table" if parts[1] in ("table", "store") else None


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def core_imports(path: Path, module: str) -> set[str]:
    """The ``companion`` modules that ``path`` (the module named ``module``) imports, absolute
    or relative, anywhere in it (an import inside a function closes a circle just the same)."""
    package = module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)  # "from . import bots"
    return {name for name in found if name.startswith("companion")}


def floor_breaches(path: Path, module: str) -> set[str]:
    """What ``module`` imports from a floor it may not import from."""
    own = floor(module)
    return {name for name in core_imports(path, module) if floor(name) and floor(name) not in FLOORS[own]}


@pytest.mark.parametrize("path", [p for p in sources("companion") if floor(module_name(p))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_cores_floors_run_one_way(path):
    assert floor_breaches(path, module_name(path)) == set()


def test_the_floor_check_catches_the_old_circle(tmp_path):
    """The check above can fail: issue 23's circle (the table importing the records, the
    records importing the bots inside a function, the bots importing the table) is caught."""
    table = tmp_path / "table.py"
    table.write_text("from . import games\nfrom .records.seating import record_seating\n", encoding="utf-8")
    seating = tmp_path / "seating.py"
    seating.write_text("from ..store import Store\n\ndef f():\n    from ..bots.seats import bot_name\n", encoding="utf-8")
    assert floor_breaches(table, "companion.table") == {"companion.records.seating", "companion.records.seating.record_seating"}
    assert floor_breaches(seating, "companion.records.seating") == {"companion.bots.seats", "companion.bots.seats.bot_name"}
