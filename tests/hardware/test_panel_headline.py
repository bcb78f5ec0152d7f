"""The status headline (16 px) is never cut short of its meaning: where the whole sentence
does not fit (the die beside it leaves about 10 letters), the names go big and the sentence
small below."""

from __future__ import annotations

import pytest

from companion.table import NAME_MAX
from hardware.screens import layout, status_screen, word

LONGEST = {"latin": "W" * NAME_MAX, "kana": "あ" * NAME_MAX}


def statuses(table, names: list[str], language: str):
    """Pig House played to its end, one status screen for each phase, step and die shown."""
    table.start_game("pig-house", len(names), seed=1)
    for seat, name in enumerate(names):
        table.join(seat, name)
    seen = {}
    while True:
        public = table.public()
        view = public["view"]
        key = (view["public"]["phase"], view["public"]["step"], view["public"]["die"] is not None)
        seen.setdefault(key, status_screen(public, language))
        if view["over"]:
            return seen
        seat = view["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pig_house_headline_fits_in_every_phase_with_the_longest_names(table, language):
    names = [LONGEST["latin"], LONGEST["kana"]] * 2
    screens = statuses(table, names, language)
    assert {phase for phase, _, _ in screens} == {"scouting", "building", "ranking"}
    assert any(die for _, _, die in screens)
    for key, screen in screens.items():
        for size in ((128, 64), (128, 32)):
            # layout() cuts each row to its room with fonts.fit: the headline must come out whole
            assert layout(screen, *size).rows[1].text == screen.headline, (key, size)


@pytest.mark.parametrize(("language", "name"), [("en", "Hanako"), ("ja", "はなこさん")])
def test_beside_the_die_the_name_goes_big_and_the_sentence_below(table, language, name):
    screens = statuses(table, [name, name], language)
    screen = next(screen for (_, step, _), screen in screens.items() if screen.die and step == "pigs")
    assert screen.headline == name
    assert word("your_turn", language, name=name) in screen.lines


def test_a_headline_that_fits_stays_whole(table):
    screens = statuses(table, ["Ann", "Bo"], "en")
    assert screens[("scouting", "pig_action", False)].headline == "Ann's turn"
    with_die = [screen.headline for screen in screens.values() if screen.die]
    assert with_die and all(headline in ("Ann's turn", "Bo's turn") for headline in with_die)
