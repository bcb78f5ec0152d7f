"""Lion Square: every rule, ending and tie rule, and the refusals of bad input.

States are built by hand with the helpers below (``_state``), so each test shows exactly
the table it is about. Card ids are ``"<species>-<n>"`` and ``"gazelle-1"``/``"gazelle-2"``.
"""

import pytest

from companion.games import lion_square
from companion.games.lion_square import damage


def _c(color, n):
    return {"color": color, "n": n}


G = {"gazelle": True}


# --------------------------------------------------------------------------- damage()


def test_damage_sums_the_nearest_card_of_each_line_from_every_side():
    field = [
        [_c("lion", 1), _c("lion", 2), _c("lion", 3)],
        [_c("hyena", 4), None, _c("hyena", 5)],
        [_c("cheetah", 0), G, None],
    ]
    # South sees, per column from the bottom: cheetah 0, gazelle 0, hyena 5.
    assert damage(field, "S", 0, 0) == 5
    # North sees the top row: 1 + 2 + 3.
    assert damage(field, "N", 0, 0) == 6
    # West sees, per row from the left: lion 1, hyena 4, cheetah 0.
    assert damage(field, "W", 0, 0) == 5
    # East sees, per row from the right: lion 3, hyena 5, gazelle 0.
    assert damage(field, "E", 0, 0) == 8


def test_damage_of_a_field_that_is_not_lined_up_uses_whatever_card_is_nearest():
    field = [[None, None, None], [None, _c("lion", 4), None], [None, None, None]]
    for side in "SWNE":
        assert damage(field, side, 0, 0) == 4
    assert damage([[None] * 3 for _ in range(3)], "S", 0, 0) == 0


def test_damage_adds_half_the_taken_cards_rounded_up_and_one_per_gazelle_in_hand():
    empty = [[None] * 3 for _ in range(3)]
    assert [damage(empty, "S", taken, 0) for taken in range(6)] == [0, 1, 1, 2, 2, 3]
    assert damage(empty, "S", 0, 2) == 2
    field = [[_c("lion", 5), None, None], [_c("lion", 1), _c("lion", 2), None], [None, None, None]]
    assert damage(field, "S", 3, 1) == 3 + 2 + 1


@pytest.mark.parametrize(
    "field, side, taken, gazelles, message",
    [
        ("field", "S", 0, 0, "3 rows of 3 cells"),
        ([[None] * 3] * 2, "S", 0, 0, "3 rows of 3 cells"),
        ([[None] * 3, [None] * 3, [None] * 2], "S", 0, 0, "3 rows of 3 cells"),
        ([[7, None, None], [None] * 3, [None] * 3], "S", 0, 0, "row 1, cell 1: a cell must be null"),
        ([[None, {"gazelle": 1}, None], [None] * 3, [None] * 3], "S", 0, 0, "row 1, cell 2: a cell must be"),
        ([[None] * 3, [None, _c("tiger", 1), None], [None] * 3], "S", 0, 0, "row 2, cell 2: unknown colour 'tiger'"),
        ([[None] * 3, [None] * 3, [None, None, _c("lion", 9)]], "S", 0, 0, "row 3, cell 3: there is no lion 9"),
        ([[_c("lion", True), None, None], [None] * 3, [None] * 3], "S", 0, 0, "there is no lion True"),
        ([[_c("lion", 1), _c("lion", 1), None], [None] * 3, [None] * 3], "S", 0, 0, "lion 1 is on the field twice"),
        ([[G, G, G], [None] * 3, [None] * 3], "S", 0, 0, "only 2 gazelle cards, but 3 are on the field"),
        ([[G, G, None], [None] * 3, [None] * 3], "S", 0, 1, "2 are on the field and 1 in hand"),
        ([[None] * 3] * 3, "south", 0, 0, "side must be one of S, W, N, E"),
        ([[None] * 3] * 3, "S", -1, 0, "taken cards must be a whole number of 0 or more"),
        ([[None] * 3] * 3, "S", 1.5, 0, "taken cards must be a whole number"),
        ([[None] * 3] * 3, "S", 0, 3, "gazelles left in hand must be a whole number from 0 to 2"),
        ([[None] * 3] * 3, "S", 0, True, "gazelles left in hand must be a whole number"),
    ],
)
def test_damage_refuses_bad_input_in_plain_words(field, side, taken, gazelles, message):
    with pytest.raises(ValueError, match=message):
        damage(field, side, taken, gazelles)


def test_the_deck_file_is_the_assumed_deck_of_the_rulings():
    assert [s["id"] for s in lion_square.SPECIES] == ["lion", "leopard", "cheetah", "hyena", "lycaon"]
    assert all(s["numbers"] == [0, 1, 2, 3, 4, 5] for s in lion_square.SPECIES)
    assert lion_square.GAZELLE_COUNT == 2
