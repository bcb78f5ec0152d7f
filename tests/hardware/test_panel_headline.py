"""The status headline is never cut short of its meaning: it is one 16 px row, beside Pig
House's die too; a sentence too long for it gives way to a shorter headline and goes whole
below (after the scores)."""

from __future__ import annotations

import pytest

from companion.table import NAME_MAX
from hardware.fonts import text_width
from hardware.screens import layout, status_headline_room, status_screen
from hardware.words import word

LONGEST = {"latin": "W" * NAME_MAX, "kana": "あ" * NAME_MAX}
SECOND = {"latin": "W" * (NAME_MAX - 1) + "M", "kana": "あ" * (NAME_MAX - 1) + "い"}
"""As long, and not the same name (a table seats one person of a name)."""


def statuses(table, names: list[str], language: str, height: int = 64):
    """Pig House played to its end, one status screen for each phase, step and die shown."""
    table.start_game("pig-house", len(names), seed=1)
    for seat, name in enumerate(names):
        table.join(seat, name)
    seen = {}
    while True:
        public = table.public()
        view = public["view"]
        key = (view["public"]["phase"], view["public"]["step"], view["public"]["die"] is not None)
        seen.setdefault(key, status_screen(public, language, height=height))
        if view["over"]:
            return seen
        seat = view["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("height", [64, 32])
def test_the_pig_house_headline_comes_out_whole_with_the_longest_names(table, language, height):
    names = [LONGEST["latin"], LONGEST["kana"], SECOND["latin"], SECOND["kana"]]
    screens = statuses(table, names, language, height)
    assert {phase for phase, _, _ in screens} == {"scouting", "building", "ranking"}
    assert any(die for _, _, die in screens)
    for key, screen in screens.items():
        rows = [row for row in layout(screen, 128, height).rows if row.inverted]
        assert "".join(row.text for row in rows).replace(" ", "") == screen.headline.replace(" ", ""), key
        assert len(rows) == 1, key
        room = status_headline_room(screen.die is not None)
        assert all(text_width(row.text) <= room for row in rows), key  # clear of the die


@pytest.mark.parametrize(("language", "name"), [("en", "Hanako"), ("ja", "はなこ")])
def test_beside_the_die_the_whole_sentence_stays_the_headline(table, language, name):
    other = name[::-1]  # as long, another name
    screens = statuses(table, [name, other], language)
    screen = next(screen for (_, step, _), screen in screens.items() if screen.die and step == "pigs")
    assert screen.headline in (word("your_turn", language, name=name), word("your_turn", language, name=other))


def test_a_name_too_long_for_the_rows_gives_way_to_the_seat(table):
    screens = statuses(table, [LONGEST["latin"], "Bo"], "en", height=32)
    headlines = {screen.headline for screen in screens.values()}
    assert "Seat 1's turn" in headlines  # 24 W's do not fit one 16 px row...
    screen = next(screen for screen in screens.values() if screen.headline == "Seat 1's turn")
    shown = "".join(screen.lines).replace(" ", "")
    assert f"{LONGEST['latin']}'sturn" in shown  # ...so they go below, wrapped inside the word


def test_a_headline_that_fits_stays_whole(table):
    screens = statuses(table, ["Ann", "Bo"], "en")
    assert screens[("scouting", "pig_action", False)].headline == "Ann's turn"
    with_die = [screen.headline for screen in screens.values() if screen.die]
    assert with_die and all(headline in ("Ann's turn", "Bo's turn") for headline in with_die)
