"""Meow Oracle: every rule, ending and tie rule, and the error messages for bad input.

States are built by playing chosen actions from a seeded setup, or by writing the few
keys a rule reads into a fresh setup (the helpers below), and every test asserts exact
outcomes.
"""

import pytest

from companion.games.meow_oracle import score_area


def card(text):
    """``"r5"`` → red 5, ``"b0"`` blue 0, ``"g10"`` green 10, ``"w4"`` wild 4."""
    colour = {"r": "red", "b": "blue", "g": "green", "w": "wild"}[text[0]]
    return {"n": int(text[1:]), "color": colour}


def grid(text):
    """A grid from three rows of card codes, e.g. ``"b0 r1 g3 / r8 w5 g5 / g3 r8 b4"``."""
    return [[card(code) for code in row.split()] for row in text.split("/")]


# The book's worked example, coloured as its text says: the diagonal 0,5,4 blue, the
# anti-diagonal 3,5,3 green, the centre column 1,5,8 red, the centre 5 wild; the two
# cards the text does not name (middle-row 8 and 5) break every other line. (It needs
# two green 3s, which the deck does not have: score_area scores faces, not a deck.)
BOOK_EXAMPLE = "b0 r1 g3 / r8 w5 g5 / g3 r8 b4"


def test_score_area_book_example():
    assert score_area(grid(BOOK_EXAMPLE)) == {"run": 6, "lines": 6, "total": 12}


@pytest.mark.parametrize(
    "rows, run",
    [
        ("r5 r0 r1 / b1 b2 b3 / g4 g5 g6", 1),  # drop at once: the first card alone counts
        ("r0 r1 r2 / b5 b4 b3 / g6 g7 g8", 9 + 6),  # snake: the middle row reads right to left
        ("r0 r1 r2 / b3 b4 b5 / g6 g7 g8", 4),  # read left to right it would be a full run
        ("r0 r1 r2 / b5 b4 b3 / g6 g9 g8", 8 + 2),  # 8 cards: 10 points
        ("r0 r1 r2 / b5 b4 b3 / g2 g9 g10", 6),
        ("r3 w3 b3 / g4 w4 b4 / g5 r1 w5", 7),  # equal numbers count as ascending
        ("r0 r1 r2 / b5 b4 b3 / g6 g7 g0", 8 + 2),
    ],
)
def test_run_follows_the_snake_from_the_first_card(rows, run):
    assert score_area(grid(rows))["run"] == run


@pytest.mark.parametrize(
    "rows, lines",
    [
        ("r0 r1 r2 / b0 b1 b2 / g0 g1 g2", 3),  # three one-colour rows
        ("r0 b0 g0 / r1 b1 g1 / r2 b2 g2", 3),  # three one-colour columns
        ("r0 b0 g0 / b1 r1 g1 / g2 b2 r2", 1),  # the main diagonal only
        ("r0 b0 g0 / r1 g1 b1 / g2 b2 r2", 1),  # the anti-diagonal only
        ("w3 w4 w5 / r0 b0 g0 / g1 r1 r2", 1),  # three wilds make a line of every colour
        ("r0 b0 g0 / b1 r1 g1 / g2 g3 b2", 0),
        ("r0 r1 r2 / r3 r4 r5 / r6 r7 r8", 8),  # every line
    ],
)
def test_lines_of_one_colour_score_two_each_wild_counts_as_any(rows, lines):
    assert score_area(grid(rows))["lines"] == 2 * lines


def test_total_is_run_plus_lines():
    assert score_area(grid("r0 r1 r2 / r5 r4 r3 / r6 r7 r8")) == {"run": 15, "lines": 16, "total": 31}


def test_score_area_ignores_extra_keys_such_as_ids():
    rows = grid(BOOK_EXAMPLE)
    for row in rows:
        for c in row:
            c["id"] = f"{c['color']}-{c['n']}"
    assert score_area(rows)["total"] == 12


@pytest.mark.parametrize(
    "bad, message",
    [
        (None, "3 rows of 3 cards"),
        ([[card("r0")] * 3] * 2, "3 rows of 3 cards"),
        ([["x", "y", "z"]] * 3, "row 1, column 1 must be an object"),
        ("r0 r1 r2 / r3 r4 / r6 r7 r8", "row 2 of the area must be a list of 3 cards"),
        ("r0 r1 r2 / r3 r4 r11 / r6 r7 r8", "row 2, column 3 has the number 11"),
        ("r0 r1 r2 / r3 r4 r5 / r6 r7 w7", "wild 7, but the only wild cards are 3, 4 and 5"),
    ],
)
def test_score_area_refuses_what_is_not_an_area_of_real_cards(bad, message):
    if isinstance(bad, str):
        rows = [row.split() for row in bad.split("/")]
        bad = [[card(code) for code in row] for row in rows]
    with pytest.raises(ValueError, match=message):
        score_area(bad)


@pytest.mark.parametrize(
    "value, message",
    [
        ({"n": 3, "color": "purple"}, "colour 'purple'"),
        ({"n": True, "color": "red"}, "number True"),
        ({"n": 2.0, "color": "red"}, "number 2.0"),
        ({"n": -1, "color": "red"}, "number -1"),
        ({"color": "red"}, "must be an object like"),
    ],
)
def test_score_area_names_the_bad_card(value, message):
    rows = grid(BOOK_EXAMPLE)
    rows[2][1] = value
    with pytest.raises(ValueError, match=message) as refused:
        score_area(rows)
    assert "row 3, column 2" in str(refused.value)
