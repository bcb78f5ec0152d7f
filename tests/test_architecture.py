"""The folder layout is the architecture: these tests keep it honest.

Every module of ``companion``, ``web`` and ``hardware`` lives in one room (``ROOMS``), and
each room may import only the rooms ``MAY_IMPORT`` lists: the core (``companion``) knows
nothing of the web or the hardware, except the composition root (the ``serve`` command and
the CLI that dispatches to it), which wires them together; ``web`` and ``hardware`` never
import each other; the core's floors run one way, games <- table <- bots, records, who starts, the turn clock.

An import is any ``import``/``from`` statement, absolute or relative, at the top or inside a
function (a late import closes a circle just the same), and any ``importlib.import_module``
or ``__import__`` call with a literal name. A module in no room fails the test: a new file
is placed on purpose, not by default.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "web", "hardware")

ROOMS = {
    "base": ["companion", "companion.config", "companion.files", "companion.systemd"],
    "games": ["companion.games.*"],
    "table": ["companion.table", "companion.store", "companion.presence"],
    "bots": ["companion.bots.*"],
    "records": ["companion.records.*"],
    "first_player": ["companion.first_player"],
    "clock": ["companion.clock"],
    "network": ["companion.network", "companion.stations"],
    "simulate": ["companion.simulate"],
    "root": ["companion.cli", "companion.serve", "companion.__main__"],
    "web": ["web.*"],
    "hardware": ["hardware.*"],
}
"""Each room's modules: a name, or ``package.*`` for a package and everything in it. ``base``
is what every room may lean on (the version, the settings, which name the games, atomic
files, systemd's protocol)."""

MAY_IMPORT = {
    "base": {"base", "games"},
    "games": {"games"},
    "table": {"base", "games", "table"},
    "bots": {"base", "games", "table", "bots"},
    "records": {"base", "games", "table", "records"},
    "first_player": {"base", "games", "table", "first_player"},
    "clock": {"base", "games", "table", "clock"},
    "network": {"base", "network"},
    "simulate": {"base", "games"},
    "root": set(ROOMS),
    "web": {"base", "games", "table", "bots", "records", "first_player", "clock", "network", "web"},
    "hardware": {"base", "games", "table", "bots", "first_player", "clock", "network", "hardware"},
}
"""The rooms each room may import (its own included)."""


def module_name(path: Path) -> str:
    """``companion/bots/seats.py`` -> ``companion.bots.seats``; a package's ``__init__.py`` -> the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


MODULES = {module_name(path): path for package in PACKAGES for path in sources(package)}


def room_of(module: str) -> str | None:
    """The room of the module named ``module`` (None: in no room)."""
    found = None
    for room, patterns in ROOMS.items():
        for pattern in patterns:
            if module == pattern or (pattern.endswith(".*") and (module + ".").startswith(pattern[:-1])):
                found = room
    return found


def imported_names(path: Path, module: str) -> set[str]:
    """The dotted names ``path`` (the module named ``module``) imports, resolved to absolute
    names: ``from . import x`` gives both the package and ``package.x`` (x may be a module)."""
    is_package = path.name == "__init__.py"
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and _is_import_call(node.func) and node.args:
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                if name.value.startswith("."):  # relative to the caller's package (package=__package__)
                    level = len(name.value) - len(name.value.lstrip("."))
                    rest = name.value[level:]
                    found.add(".".join(package[:len(package) - level + 1] + ([rest] if rest else [])))
                else:
                    found.add(name.value)
    return found


def _is_import_call(function: ast.expr) -> bool:
    """``import_module(...)``, ``importlib.import_module(...)`` or ``__import__(...)``."""
    if isinstance(function, ast.Name):
        return function.id in ("import_module", "__import__")
    return isinstance(function, ast.Attribute) and function.attr == "import_module"


def imported_modules(path: Path, module: str, modules=None) -> set[str]:
    """The project's modules that ``module`` imports: each imported name cut to the longest
    module of ``modules`` (default: this checkout's) it names or lies in."""
    modules = MODULES if modules is None else modules
    found = set()
    for name in imported_names(path, module):
        parts = name.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts:
            found.add(".".join(parts))
    return found


def breaches(path: Path, module: str, modules=None) -> set[str]:
    """What ``module`` imports from a room its own room may not import from."""
    own = room_of(module)
    return {name for name in imported_modules(path, module, modules) if room_of(name) not in MAY_IMPORT[own]}


def test_every_module_lives_in_a_room():
    assert set(ROOMS) == set(MAY_IMPORT)
    assert [module for module in MODULES if room_of(module) is None] == []
    assert {"companion.table", "web.api", "hardware.panel", "companion.bots.seats"} <= set(MODULES)  # it sees them


@pytest.mark.parametrize("module", sorted(MODULES))
def test_each_module_imports_only_what_its_room_may(module):
    assert breaches(MODULES[module], module) == set()


def test_the_games_are_pure():
    """Engines are pure functions of their state: no I/O, no clock, no global randomness."""
    for path in sources("companion/games"):
        packages = {name.split(".")[0] for name in imported_names(path, module_name(path))}
        assert not packages & {"time", "random", "sqlite3", "socket", "threading", "flask"}, path


def test_the_check_catches_the_old_circle_and_imports_by_name(tmp_path):
    """The check above can fail: issue 23's circle (the table importing the records, the
    records importing the bots inside a function, the bots importing the table) is caught,
    and so are the web imported by the core through ``import_module`` and the hardware
    through ``__import__``."""
    modules = {**MODULES, "companion.records.seating": tmp_path / "seating.py"}
    table = tmp_path / "table.py"
    table.write_text("from . import games\nfrom .records.seating import record_seating\n", encoding="utf-8")
    seating = tmp_path / "seating.py"
    seating.write_text("from ..store import Store\n\ndef f():\n    from ..bots.seats import bot_name\n", encoding="utf-8")
    assert breaches(table, "companion.table", modules) == {"companion.records.seating"}
    assert breaches(seating, "companion.records.seating", modules) == {"companion.bots.seats"}

    late = tmp_path / "late.py"
    late.write_text("import importlib\nfrom importlib import import_module\n\ndef f():\n"
                    "    importlib.import_module('web.api')\n    import_module('.seats', __package__)\n"
                    "    __import__('hardware.panel')\n    import_module(f'{__name__}.x')  # not literal: not seen\n",
                    encoding="utf-8")
    assert imported_modules(late, "companion.bots.late") == {"web.api", "companion.bots.seats", "hardware.panel"}
    assert breaches(late, "companion.records.late") == {"web.api", "hardware.panel"}
    assert breaches(late, "companion.bots.late") == {"web.api", "hardware.panel"}
