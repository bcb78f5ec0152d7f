"""Meow Oracle (the publisher's name for the book's オラクルカード game): the rules engine.

Each player builds a 3 × 3 area of face-up cards out of cards that others reveal and hand
out; at the end of each of the two rounds the area scores for an ascending snake path and
for lines of one colour, and every player compares their total with both neighbours.
The rules as implemented are in ``docs/rules/meow-oracle.md``; RULINGS.md §2 settles what
the book leaves open.

:func:`score_area` is the round scoring on its own: the engine uses it, and so does anyone
scoring a physical table.
"""

from __future__ import annotations

from typing import Any

COLOURS = ("red", "blue", "green")
"""The three ordinary colours; each has the numbers 0–10 once."""

WILD = "wild"
"""The grey cards' colour: wild, it is every colour at once."""

WILD_NUMBERS = (3, 4, 5)
"""The numbers the three grey (wild) cards carry."""

HIGHEST = 10

SNAKE = (0, 1, 2, 5, 4, 3, 6, 7, 8)
"""The scoring path over the cells (numbered row by row, 0 = top left, as the owner sees
them): top row left→right, middle row right→left, bottom row left→right (RULINGS §2,
reconstructed from the book's worked example)."""

RUN_BONUS = {8: 10, 9: 15}
"""A run of 8 cards scores 10 (8 + 2 bonus) and a full run of 9 scores 15 (9 + 6)."""

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)
"""The eight lines of a 3 × 3 area, as cell numbers."""

POINTS_PER_LINE = 2


def score_area(grid: Any) -> dict:
    """The round points of one finished area.

    ``grid`` is 3 rows of 3 cards as the owner sees them (top row first), each card
    ``{"n": int, "color": "red" | "blue" | "green" | "wild"}`` (other keys, such as an
    ``"id"``, are ignored). Returns ``{"run": int, "lines": int, "total": int}``:

    * ``run``: along the snake path (:data:`SNAKE`), the number of cards from the first
      one that keep a non-decreasing order, stopping at the first drop; one point each,
      except that 8 cards score 10 and 9 cards score 15;
    * ``lines``: 2 points for each row, column or diagonal whose three cards share a
      colour, a wild card counting as every colour;
    * ``total``: their sum.

    The book's example ``0 1 3 / 8 5 5 / 3 8 4`` reads 0,1,3,5,5,8,3,8,4 and scores a run
    of 6. Raises ValueError, in plain words, for anything that is not a grid of real card
    faces (a wild 7, a number 11, a purple card...). The same face twice is accepted: the
    book's own example needs two green 3s, which the deck does not have.
    """
    cards = _cells_of(grid)
    numbers = [cards[cell][0] for cell in SNAKE]
    length = 1
    while length < len(numbers) and numbers[length] >= numbers[length - 1]:
        length += 1
    run = RUN_BONUS.get(length, length)
    lines = POINTS_PER_LINE * sum(1 for line in LINES if _one_colour([cards[cell][1] for cell in line]))
    return {"run": run, "lines": lines, "total": run + lines}


def _one_colour(colours: list[str]) -> bool:
    """Whether some colour is shared by all these cards, wild counting as every colour."""
    return any(all(colour in (wanted, WILD) for colour in colours) for wanted in COLOURS)


def _cells_of(grid: Any) -> list[tuple[int, str]]:
    """The grid's nine cards as ``(number, colour)`` in row order; ValueError if malformed."""
    if not isinstance(grid, (list, tuple)) or len(grid) != 3:
        raise ValueError("an area must be a list of 3 rows of 3 cards")
    cells = []
    for r, row in enumerate(grid):
        if not isinstance(row, (list, tuple)) or len(row) != 3:
            raise ValueError(f"row {r + 1} of the area must be a list of 3 cards")
        for c, card in enumerate(row):
            where = f"the card at row {r + 1}, column {c + 1}"
            cells.append(_card_value(card, where))
    return cells


def _card_value(card: Any, where: str) -> tuple[int, str]:
    """``(number, colour)`` of a card given as ``{"n": ..., "color": ...}``; ValueError if it is no real card."""
    if not isinstance(card, dict) or "n" not in card or "color" not in card:
        raise ValueError(f'{where} must be an object like {{"n": 3, "color": "red"}}, not {card!r}')
    number, colour = card["n"], card["color"]
    if colour not in (*COLOURS, WILD):
        raise ValueError(f"{where} has the colour {colour!r}; the colours are red, blue, green and wild")
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= HIGHEST:
        raise ValueError(f"{where} has the number {number!r}; numbers are whole numbers from 0 to {HIGHEST}")
    if colour == WILD and number not in WILD_NUMBERS:
        raise ValueError(f"{where} is a wild {number}, but the only wild cards are 3, 4 and 5")
    return number, colour
