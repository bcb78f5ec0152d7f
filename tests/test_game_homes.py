"""What the core knows of a game lives in the game's home (issue 34, point 1).

``companion/games/<game>/`` holds a game's rules and what a bot knows of it; the records,
the bots and the table ask the game object. So no dict keyed by game ids remains in the
core outside the registry (``companion/games/__init__.py``), and no module outside
``companion/games`` names a game at all: a new game then touches its home and the registry,
not a dict in each of five folders (``docs/adding-a-game.md``). Presentation (the pages'
renderers, the panel's status lines) may stay keyed by id beside its own code, outside the
core: ``tests/test_a_fifth_game.py`` checks that it offers a game it does not know.
"""

import ast
from pathlib import Path

from companion import games

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "companion"
REGISTRY = CORE / "games" / "__init__.py"
GAME_IDS = frozenset(games.ids())


def keyed_by_game(tree: ast.AST, ids=GAME_IDS) -> list[int]:
    """The lines of the dict displays in ``tree`` with a key that is a game id."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Dict)
            and any(isinstance(key, ast.Constant) and key.value in ids for key in node.keys)]


def naming_a_game(tree: ast.AST, ids=GAME_IDS) -> list[int]:
    """The lines where ``tree`` spells a game id as a string of its own (a docstring's example
    is part of a longer string and does not count)."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in ids]


def parsed(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_no_dict_in_the_core_is_keyed_by_game_ids_outside_the_registry():
    found = {str(path.relative_to(ROOT)): lines for path in sorted(CORE.rglob("*.py"))
             if path != REGISTRY and (lines := keyed_by_game(parsed(path)))}
    assert found == {}


def test_no_module_outside_the_games_names_a_game():
    found = {str(path.relative_to(ROOT)): lines for path in sorted(CORE.rglob("*.py"))
             if CORE / "games" not in path.parents and (lines := naming_a_game(parsed(path)))}
    assert found == {}


def test_the_checks_catch_the_dicts_and_branches_of_old():
    """The scans can fail: the bots' old table of samplers and SWAP 5's old special case."""
    old = ast.parse('_SAMPLERS = {"lion-square": f, "swap5": g}\n'
                    'searched = game.id == "swap5" and view["players"] == 2\n')
    assert keyed_by_game(old) == [1]
    assert naming_a_game(old) == [1, 1, 2]


def test_a_games_home_holds_its_rules_and_what_a_bot_knows_of_it():
    """Every full game's engine lives in its home, and so does its bot knowledge, if any;
    a tracker lives in the home of the game it follows."""
    for game_id in games.ids():
        game = games.get(game_id)
        module = type(game).__module__
        assert module.startswith("companion.games.") and module.count(".") == 3, \
            f"{game_id} is played by {module}, not by a module of its home companion/games/<game>/ (docs/adding-a-game.md)"
        knowledge = game.bot
        if knowledge is not None:
            assert type(knowledge).__module__.rpartition(".")[0] == module.rpartition(".")[0]
