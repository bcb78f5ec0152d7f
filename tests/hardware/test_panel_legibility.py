"""Issue 24 point 12: the OLED at arm's length. Status screens show at most 4 lines (2 on a
128 × 32 display), each 16 px with glyphs 12-16 px high, measured on the rendered frame
(the pixel rows with ink); nothing is cut with "…": what does not fit is paged with
up/down. Japanese too (Misaki Gothic, doubled)."""

from __future__ import annotations

import random
import re

import pytest
from panel_helpers import presses, status_text

from companion import games
from hardware.screens import STATUS_ROW, layout, render, status_screen

NAMES = ["Alexandria", "やまだたろう", "Ben", "Bartholomew-Maximilian"]
TALL = re.compile(r"[A-Z0-9\u3040-\u30ff\u4e00-\u9fff]")
"""Characters whose glyphs reach from the baseline to the cap height: a row holding one
shows the font's full glyph height (a row of "ace" is only x-height tall)."""


def ink_rows(image, row) -> tuple[int, int] | None:
    """The first and last pixel row with ink in ``row``'s 16 px band (ink: the pixels unlike
    the band's background, lit for an inverted row), left of the 2 px page bar."""
    background = 1 if row.inverted else 0
    inked = [y for y in range(row.y, row.y + STATUS_ROW)
             if any(image.getpixel((x, y)) != background for x in range(row.x, image.width - 2))]
    return (inked[0], inked[-1]) if inked else None


def every_status_screen(table, game_id: str, language: str, height: int):
    """Status screens of a game played at random to its end (at most 60 moves), names and all."""
    game = games.get(game_id)
    players = min(max(game.min_players, 3), game.max_players) if game_id != "swap5" else 2
    table.start_game(game_id, players, seed=7)
    for seat in range(players):
        table.join(seat, NAMES[seat])
    chooser = random.Random(game_id)
    for _ in range(60):
        public = table.public()
        yield status_screen(public, language, height=height)
        if public["game"]["over"]:
            return
        seat = chooser.choice(public["view"]["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("game_id", games.ids())
def test_status_screens_show_four_rows_of_tall_glyphs_and_cut_nothing(table, game_id, language, height):
    heights = set()
    for screen in every_status_screen(table, game_id, language, height):
        image = render(screen, 128, height)
        rows = layout(screen, 128, height).rows
        assert len(rows) <= height // STATUS_ROW, [row.text for row in rows]
        for row in rows:
            assert row.scale * 8 == STATUS_ROW and row.y + STATUS_ROW <= height
            assert "…" not in row.text, row.text
            ink = ink_rows(image, row)
            if ink is None:
                continue
            top, bottom = ink
            assert bottom - top + 1 <= STATUS_ROW
            if TALL.search(row.text):
                heights.add(bottom - top + 1)
                assert bottom - top + 1 >= 12, (row.text, ink)
        assert not any("…" in line for line in (screen.headline, *screen.lines)), screen
    assert heights and min(heights) >= 12 and max(heights) <= 16, heights


@pytest.mark.parametrize(("text", "expected"), [("H", 14), ("番", 14), ("あ", 14), ("Hgy", 14)])
def test_glyph_heights_as_measured(text, expected):
    """The figures docs/panel.md quotes: Misaki draws every glyph, descenders too, in 7 of its
    8 rows, so doubled a capital, a kanji, a kana and a "g" are all 14 px high."""
    from hardware.screens import Screen

    screen = Screen("status", "", (text,), headline="", big=True)
    image = render(screen, 128, 64)
    row = next(row for row in layout(screen, 128, 64).rows if row.text == text)
    top, bottom = ink_rows(image, row)
    assert bottom - top + 1 == expected


def test_down_pages_through_every_line_and_up_comes_back(make_panel, table):
    table.start_game("pig-house", 4, seed=1)
    for seat, name in enumerate(NAMES):
        table.join(seat, name)
    panel = make_panel()
    everything = status_text(panel)[1:]

    def body() -> list[str]:
        return [row.text for row in layout(panel._shown, 128, 64).rows if not row.inverted]

    seen, pages = {}, 0
    while True:
        shown = body()
        seen |= {panel._pages[0].scroll + index: line for index, line in enumerate(shown)}
        pages += 1
        if shown[-1] == everything[-1]:
            break
        assert pages < 10
        presses(panel, "down")
    assert [seen[index] for index in sorted(seen)] == everything and pages > 1
    count = len(body())
    assert panel.text_lines()[-1] == f"[lines {len(everything) - count + 1}-{len(everything)} of {len(everything)}]"
    for _ in range(pages):
        presses(panel, "up")
    assert body()[0] == everything[0]


def test_a_japanese_list_of_names_breaks_between_the_names():
    from hardware.fonts import wrap

    assert wrap("待ち: Taro、Hanako、Alexandria", 64) == ["待ち: Taro、", "Hanako、", "Alexandria"]
    assert wrap("W" * 24, 64) == ["W" * 16, "W" * 8]  # a word longer than a row still breaks inside
