"""The panel's Pig House buttons name things as the players see them on the table."""

from __future__ import annotations

import pytest

from hardware.actions import offered_actions
from hardware.fonts import wrap
from hardware.screens import ITEM_ROWS

WIDTH = 128
"""The panel's width in pixels: a button label must show whole on ITEM_ROWS rows."""


def potted_labels(wolves: list[dict], language: str) -> list[str]:
    actions = {0: [{"type": "wolf_potted", "wolf": wolf["id"]} for wolf in wolves]}
    offered = offered_actions("pig-house", actions, {"wolves": wolves}, ["Aiko", "Ben"], language)
    assert [item.action["wolf"] for item in offered] == [wolf["id"] for wolf in wolves]  # the id stays the action's
    return [item.label for item in offered]


def test_a_potted_wolf_is_named_by_its_square_as_in_an_engine_game(table, pig_house_to_a_potted_wolf):
    seat = pig_house_to_a_potted_wolf(table)
    public = table.view(None)["public"]
    squares = [wolf["square"] for wolf in public["wolves"]]
    assert len(squares) == 2 and len(set(squares)) == 2
    offered = offered_actions("pig-house", {seat: table.view(seat)["actions"]}, public, ["Aiko", "Ben"], "en")
    labels = [item.label for item in offered if item.action["type"] == "wolf_potted"]
    assert labels == [f"Wolf in a pot (square {square})" for square in squares]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Wolf in a pot (square 11)", "Wolf in a pot (square 5)"]),
    ("ja", ["マス11のオオカミがなべに落ちた", "マス5のオオカミがなべに落ちた"]),
])
def test_each_wolf_is_named_by_the_square_it_stands_on(language, expected):
    assert potted_labels([{"id": 1, "square": 11}, {"id": 3, "square": 5}], language) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ["Square 17: wolf 1 of 2 in a pot", "Wolf in a pot (square 12)", "Square 17: wolf 2 of 2 in a pot"]),
    ("ja", ["なべ:マス17の2匹中1匹目", "マス12のオオカミがなべに落ちた", "なべ:マス17の2匹中2匹目"]),
])
def test_wolves_sharing_a_square_get_buttons_that_differ(language, expected):
    # The shipped edition's happenings add wolves on squares 0 and 12, where one may stand.
    assert potted_labels([{"id": 2, "square": 17}, {"id": 4, "square": 12}, {"id": 5, "square": 17}], language) == expected


@pytest.mark.parametrize("language", ["en", "ja"])
def test_potted_labels_fit_the_panel_for_the_longest_squares(language):
    for wolves in ([{"id": 1, "square": 199}], [{"id": i, "square": 199} for i in (1, 2, 3)]):
        for label in potted_labels(wolves, language):
            assert len(wrap(label, WIDTH)) <= ITEM_ROWS, label
