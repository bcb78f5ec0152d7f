"""Lion Square (らいおんスクエア): push the carnivores onto the other herds.

The rules as implemented are in ``docs/rules/lion-square.md``; RULINGS.md section 1 settles
what the book leaves open. The deck is not printed in the book: it is a guess kept in
``data/lion-square-deck.json`` so that an owner of the game can correct it.

Card ids are ``"<species>-<number>"`` (``"lion-3"``) and ``"gazelle-1"``, ``"gazelle-2"``.

The round-end damage is also offered on its own, as :func:`damage`, for the tracker that
follows a game played with the physical cards.
"""

from __future__ import annotations

import json
from pathlib import Path

_DECK_FILE = Path(__file__).parent / "data" / "lion-square-deck.json"

CARNIVORE_COUNT = 30
"""The book: "30 carnivore cards". The deck file must add up to it."""

SIDES = ("S", "W", "N", "E")
"""The side of the field each seat faces, by seat number (RULINGS: seat 0 south, then
clockwise seen from above). With 3 players the east side faces nobody."""


def _load_deck(path: Path) -> tuple[list[dict], int]:
    """The species (each ``{"id", "en", "ja", "numbers"}``) and the gazelle count of the
    edition file, checked so that a mistyped correction fails loudly at import."""
    data = json.loads(path.read_text(encoding="utf-8"))
    species = data["species"]
    ids = [s["id"] for s in species]
    if len(set(ids)) != len(ids) or any(not isinstance(i, str) or not i or "-" in i or i == "gazelle" for i in ids):
        raise ValueError(f"{path.name}: species ids must be distinct words without '-', other than 'gazelle'")
    for s in species:
        numbers = s["numbers"]
        if len(set(numbers)) != len(numbers) or any(type(n) is not int or n < 0 for n in numbers):
            raise ValueError(f"{path.name}: the numbers of {s['id']} must be distinct whole numbers of 0 or more")
    total = sum(len(s["numbers"]) for s in species)
    if total != CARNIVORE_COUNT:
        raise ValueError(f"{path.name}: the book has {CARNIVORE_COUNT} carnivore cards, the file lists {total}")
    gazelles = data["gazelles"]
    if type(gazelles) is not int or gazelles < 0:
        raise ValueError(f"{path.name}: 'gazelles' must be a whole number of 0 or more")
    return species, gazelles


SPECIES, GAZELLE_COUNT = _load_deck(_DECK_FILE)
_NUMBERS = {s["id"]: frozenset(s["numbers"]) for s in SPECIES}


# --------------------------------------------------------------------------- damage


def damage(field: list, side: str, taken: int, gazelles: int) -> int:
    """The herd a player loses at the end of a round (RULINGS 1, "Damage").

    ``field`` is the 3 × 3 square as 3 rows of 3 cells, rows top to bottom and cells left to
    right as seen from the south side; a cell is ``None``, ``{"color": "lion", "n": 3}`` or
    ``{"gazelle": True}``. The field need not be full nor packed into a corner. ``side`` is
    the player's side, one of ``"S" "W" "N" "E"``; ``taken`` the number of face-down cards
    the player took this round; ``gazelles`` the gazelle cards left in the player's hand.

    The loss is the sum of:

    1. for each of the 3 lines running away from the player, the number on the card nearest
       to the player (an empty line adds nothing; a gazelle counts 0);
    2. half the taken cards, rounded up;
    3. one per gazelle left in hand.

    >>> lion = lambda n: {"color": "lion", "n": n}
    >>> damage([[lion(5), None, None], [lion(1), lion(2), None], [None, None, None]], "S", 3, 1)
    6

    (From the south: column 1 shows lion 1, column 2 lion 2, column 3 nothing: 3; three taken
    cards: 2; one gazelle: 1.) Bad input raises ValueError saying what is wrong.
    """
    grid, gazelles_on_field = _checked_field(field)
    if side not in SIDES:
        raise ValueError(f"the side must be one of {', '.join(SIDES)}, not {side!r}")
    if type(taken) is not int or taken < 0:
        raise ValueError(f"the number of taken cards must be a whole number of 0 or more, not {taken!r}")
    if type(gazelles) is not int or not 0 <= gazelles <= GAZELLE_COUNT:
        raise ValueError(f"the gazelles left in hand must be a whole number from 0 to {GAZELLE_COUNT}, not {gazelles!r}")
    if gazelles_on_field + gazelles > GAZELLE_COUNT:
        raise ValueError(
            f"there are only {GAZELLE_COUNT} gazelle cards, but {gazelles_on_field} are on the field "
            f"and {gazelles} in hand"
        )
    return _nearest_sum(grid, side) + (taken + 1) // 2 + gazelles


def _nearest_sum(grid: list[list[int | None]], side: str) -> int:
    """Part 1 of the damage: the values of the cards nearest to ``side`` on each line
    running away from it. ``grid`` holds values (a gazelle is 0) or None, seen from the south."""
    if side == "S":
        lines = [[grid[r][c] for r in (2, 1, 0)] for c in range(3)]
    elif side == "N":
        lines = [[grid[r][c] for r in (0, 1, 2)] for c in range(3)]
    elif side == "W":
        lines = [grid[r] for r in range(3)]
    else:
        lines = [grid[r][::-1] for r in range(3)]
    return sum(next((v for v in line if v is not None), 0) for line in lines)


def _checked_field(field) -> tuple[list[list[int | None]], int]:
    """The field as 3 × 3 values (None: empty; a gazelle: 0) and the number of gazelles on
    it; ValueError saying what is wrong when it is malformed."""
    if not isinstance(field, list) or len(field) != 3 or any(not isinstance(r, list) or len(r) != 3 for r in field):
        raise ValueError("the field must be 3 rows of 3 cells each (as seen from the south side)")
    grid = []
    seen = set()
    gazelles = 0
    for r, row in enumerate(field):
        values = []
        for c, cell in enumerate(row):
            where = f"row {r + 1}, cell {c + 1}"
            if cell is None:
                values.append(None)
            elif isinstance(cell, dict) and cell.keys() == {"gazelle"} and cell["gazelle"] is True:
                gazelles += 1
                values.append(0)
            elif isinstance(cell, dict) and cell.keys() == {"color", "n"}:
                color, n = cell["color"], cell["n"]
                if not isinstance(color, str) or color not in _NUMBERS:
                    raise ValueError(f"{where}: unknown colour {color!r} (colours: {', '.join(_NUMBERS)})")
                if type(n) is not int or n not in _NUMBERS[color]:
                    numbers = ", ".join(str(x) for x in sorted(_NUMBERS[color]))
                    raise ValueError(f"{where}: there is no {color} {n!r} in the deck ({color} numbers: {numbers})")
                if (color, n) in seen:
                    raise ValueError(f"{where}: {color} {n} is on the field twice, but the deck has only one")
                seen.add((color, n))
                values.append(n)
            else:
                raise ValueError(
                    f'{where}: a cell must be null, {{"color": ..., "n": ...}} or {{"gazelle": true}}, not {cell!r}'
                )
        grid.append(values)
    if gazelles > GAZELLE_COUNT:
        raise ValueError(f"there are only {GAZELLE_COUNT} gazelle cards, but {gazelles} are on the field")
    return grid, gazelles
