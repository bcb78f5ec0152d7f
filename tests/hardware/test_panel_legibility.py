"""Issue 33 point 10: the OLED read from across the table. No text on any screen is under
10 px and a 4-player game's scores are all on the first status page, both measured on the
rendered frame: the height of every capital, digit and kanji as drawn (the pixel rows with
ink in its cell), the rows a page shows. Japanese too (GNU Unifont's Japanese variant)."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest
from panel_helpers import presses, status_text

from companion import games
from hardware.fonts import text_width
from hardware.screens import CELL_SEPARATOR, ROW, layout, render, status_screen

NAMES = ["Alexandria", "やまだたろう", "Ben", "Bartholomew-Maximilian", "Chiyo", "Dee"]  # the score pad seats six
CAPITALS = re.compile(r"[A-Z0-9]")
"""Latin glyphs all as high as the text's size: capitals and digits (an "a" is not)."""

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana and kanji: measured together, a row's as one text (the text's size is its tallest:
"一" is one stroke, "っ" a small kana by design)."""

SMALLEST = 10
"""The smallest text the panel may draw, in pixels of glyph height."""


def glyph_heights(image, row) -> list[tuple[str, int]]:
    """The text of ``row`` as drawn on ``image``: each capital and digit with its height in
    pixels, and the row's kana and kanji together with theirs. A height is the count of pixel
    rows from the first to the last with ink in the glyphs' cells (ink: pixels unlike the
    row's background, lit for an inverted row)."""
    background = 1 if row.inverted else 0

    def height(columns: list[int]) -> int:
        inked = [y for y in range(row.y, min(row.y + ROW, image.height))
                 if any(image.getpixel((column, y)) != background for column in columns)]
        return inked[-1] - inked[0] + 1 if inked else 0

    heights, japanese, x = [], [], row.x
    for char in row.text:
        cell = [column for column in range(x, x + int(text_width(char))) if column < image.width]
        if CAPITALS.match(char):
            heights.append((char, height(cell)))
        elif JAPANESE.match(char):
            japanese += [(char, cell)]
        x += int(text_width(char))
    if japanese:
        heights.append(("".join(char for char, _ in japanese), height([c for _, cell in japanese for c in cell])))
    return heights


def smallest_glyph(screen, width: int, height: int) -> int | None:
    """The height of the smallest measured glyph drawn for ``screen`` (None: it has none)."""
    image = render(screen, width, height)
    measured = [size for row in layout(screen, width, height).rows for _, size in glyph_heights(image, row)]
    return min(measured) if measured else None


def documented_screens(language: str):
    """Every screen docs/panel.md pictures (docs/panel/render.py builds them)."""
    path = Path(__file__).resolve().parents[2] / "docs" / "panel" / "render.py"
    spec = importlib.util.spec_from_file_location("panel_pictures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.shots(language))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_documented_screen_draws_text_under_10_px(language):
    smallest = {}
    for name, screen, (width, height) in documented_screens(language):
        for row in layout(screen, width, height).rows:
            assert row.y + ROW <= height, (name, row)  # whole rows only
        smallest[name] = smallest_glyph(screen, width, height)
    measured = {name: size for name, size in smallest.items() if size is not None}
    assert len(measured) >= 30, smallest
    assert min(measured.values()) >= SMALLEST, {name: size for name, size in measured.items() if size < SMALLEST}


def every_status_screen(table, game_id: str, language: str, height: int, players: int):
    """Status screens of a game played at random to its end (at most 60 moves), names and all."""
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


def cut_names_only(row_text: str) -> bool:
    """Whether every "…" in a row ends a seat's name cut to its cell of the scores' grid."""
    for cell in row_text.split(CELL_SEPARATOR):
        if "…" in cell:
            cut = cell.split("…")[0]
            if not any(name.startswith(cut) for name in NAMES):
                return False
    return True


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("height", [64, 32])
@pytest.mark.parametrize("game_id", games.ids())
def test_status_screens_draw_no_text_under_10_px_and_cut_nothing_but_names(table, game_id, language, height):
    game = games.get(game_id)
    players = max(game.player_counts)
    sizes = set()
    for screen in every_status_screen(table, game_id, language, height, players):
        image = render(screen, 128, height)
        rows = layout(screen, 128, height).rows
        assert len(rows) <= height // ROW, [row.text for row in rows]
        for row in rows:
            assert row.y + ROW <= height
            assert cut_names_only(row.text), row.text
            sizes |= {size for _, size in glyph_heights(image, row)}
        assert "…" not in screen.headline
    assert sizes and min(sizes) >= SMALLEST and max(sizes) <= ROW, sizes


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game_id", [game_id for game_id in games.ids() if 4 in games.get(game_id).player_counts])
def test_a_four_player_game_shows_every_seats_score_on_the_first_page(table, game_id, language):
    """The first page of a 128 × 64 status screen, as drawn: the headline, the scores'
    caption and all four seats with their scores (two a row), the names cut to their cells."""
    table.start_game(game_id, 4, seed=3)
    for seat in range(4):
        table.join(seat, NAMES[seat])
        if game_id == "lion-square-ledger":  # its herds are secret until the end: play to it
            table.act(seat, {"type": "loss", "loss": 20}, table.version)
    screen = status_screen(table.public(), language, height=64)
    shown = [row.text for row in layout(screen, 128, 64).rows]
    assert len(shown) == 4
    cells = [cell.split() for row in shown[2:] for cell in row.split(CELL_SEPARATOR)]
    assert len(cells) == 4
    view = table.public()["view"]
    expected = {"lion-square": "taken", "meow-oracle": "wins", "meow-oracle-scorer": "wins", "pig-house": "pigs", "score-pad": "totals",
                "swap5": "scores"}
    values = view["result"]["scores"] if view["over"] else view["public"][expected[game_id]]
    for seat, (name, score) in enumerate(cells):
        assert NAMES[seat].startswith(name.removesuffix("…"))
        assert score == str(values[str(seat)] if isinstance(values, dict) else values[seat])
    assert min(smallest_glyph(screen, 128, 64) or SMALLEST, SMALLEST) >= SMALLEST


@pytest.mark.parametrize(("text", "expected"), [("H", 10), ("0", 10), ("番", 15), ("あ", 14), ("ア", 11)])
def test_glyph_heights_as_measured(text, expected):
    """The figures docs/panel.md quotes, measured on a drawn row."""
    from hardware.screens import Screen

    screen = Screen("status", "", (text,), headline="", big=True)
    image = render(screen, 128, 64)
    row = next(row for row in layout(screen, 128, 64).rows if row.text == text)
    assert glyph_heights(image, row) == [(text, expected)]


def test_down_pages_through_every_line_and_up_comes_back(make_panel, table):
    table.start_game("pig-house", 4, seed=1)
    for seat, name in enumerate(NAMES[:4]):
        table.join(seat, name)
    panel = make_panel()
    everything = status_text(panel)[1:]

    def body() -> list[str]:
        return [row.text for row in layout(panel.screen, 128, 64).rows if not row.inverted]

    seen, pages = {}, 0
    while True:
        shown = body()
        seen |= {panel.pages[0].scroll + index: line for index, line in enumerate(shown)}
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

    assert wrap("待ち: Taro、Hanako、Alexandria", 128) == ["待ち: Taro、", "Hanako、", "Alexandria"]
    assert wrap("W" * 24, 128) == ["W" * 16, "W" * 8]  # a word longer than a row still breaks inside
