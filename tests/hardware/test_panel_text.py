"""No text stops the panel from drawing: names (a name saved by an older version that let
more through), log texts and titles go through the panel's text drawing, which replaces what
the font's layout cannot take and logs each such character once."""

from __future__ import annotations

import logging
import random
import unicodedata

import pytest
from panel_helpers import short_press, status_of

from companion import games
from companion.table import TableError, clean_name
from hardware import fonts, screens

REPLACED = "\ufffd"  # U+FFFD REPLACEMENT CHARACTER

#: Strings that once broke the panel or could: every one must draw as a normal frame.
HOSTILE = {
    "paragraph separator": "Ann\u2029Bob",
    "line breaks": "a\nb\rc\x85d\x1ce",
    "line separator": "a\u2028b",
    "other controls": "\x00\x07\x1b\x7f",
    "lone surrogates": "x\ud800y\udfff",
    "unassigned": "\u0378\U000e0080\U0010fffd",
    "right-to-left": "\u202eabc\u202c \u200fשלום مرحبا",
    "combining storm": "a" + "\u0301\u0336\u20dd" * 3000,
    "lone mark": "\u0301",
    "huge": "W" * 200_000,
    "huge Japanese": "猫" * 100_000,
    "emoji": "👨\u200d👩\u200d👧 ❤\ufe0f 🏴\U000e0067\U000e0062\U000e007f",
    "fillers": "\u3164\u115f\u2800\uffa0",
}


def table_with_names(table, monkeypatch, game_id, names):
    """A game whose seats carry ``names`` as if saved before names were checked this strictly."""
    monkeypatch.setattr("companion.table.clean_name", lambda name: name)
    players = games.get(game_id).player_counts[0]
    table.start_game(game_id, players, seed=3)
    for seat in range(players):
        table.join(seat, names[seat % len(names)])


def assert_status_frame(panel, title):
    lines = panel.text_lines()
    assert lines and "Screen error" not in lines, lines
    assert status_of(panel) == title  # a status screen: the title is in its data, not drawn
    rows = screens.layout(panel.screen, panel.width, panel.height).rows
    assert all(fonts.text_width(row.text) <= panel.width for row in rows)


def test_a_paragraph_separator_in_a_name_does_not_break_the_panel(make_panel, table, monkeypatch, caplog):
    """The issue: U+2029 in a seat's name made raqm fail on every frame ("Screen error")."""
    table_with_names(table, monkeypatch, "swap5", ["Ann\u2029Bob", "Cy"])
    panel = make_panel()
    assert_status_frame(panel, "SWAP 5")
    assert any(f"Ann{REPLACED}Bob" in line for line in panel.text_lines())
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


@pytest.mark.parametrize("game_id", games.ids())
def test_hostile_names_logs_and_titles_draw_on_every_status_screen(make_panel, table, monkeypatch, caplog, game_id):
    """Every status screen, with hostile names, a hostile last log line and a hostile title,
    as the game moves on: always the real frame, never an exception or the error screen."""
    hostile = list(HOSTILE.values())
    title = "Game\u2029" + hostile[len(game_id) % len(hostile)]
    table_with_names(table, monkeypatch, game_id, hostile)
    real_public = table.public

    def public():
        info = real_public()
        info["game"]["title"] = {"en": title, "ja": title}
        for entry in (info["view"] or {}).get("log") or []:
            entry["text"] = {"en": "".join(hostile[:6]), "ja": "".join(hostile[6:])}
        return info

    monkeypatch.setattr(table, "public", public)
    panel = make_panel()
    chooser = random.Random(game_id)
    for move in range(12):
        short_press(panel, "down")  # scroll through every line of the status screen
        assert_status_frame(panel, title)
        if table.public()["game"]["over"]:
            break
        seat = chooser.choice(table.public()["view"]["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
        assert panel.settle()
    assert_status_frame(panel, title)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


def test_every_hostile_string_draws_as_title_and_line():
    for name, text in HOSTILE.items():
        screen = screens.Screen("status", text, (text, "ok", text[::-1]))
        image = screens.render(screen, 128, 64)
        assert image.getbbox() is not None, name  # something was drawn
        for line in screens.text_lines(screen, 128, 64):
            assert fonts.text_width(line) <= 128, name
            line.encode("utf-8")  # /api/display.txt sends the lines as UTF-8


def test_a_character_the_layout_cannot_take_is_replaced_and_logged_once(caplog):
    caplog.set_level(logging.WARNING, logger="hardware.fonts")
    fonts._replacement.cache_clear()  # other tests may have logged U+2029 in this process
    for _ in range(3):
        assert fonts.fit("x\u2029y\u2029", 128) == f"x{REPLACED}y{REPLACED}"
        screens.render(screens.Screen("info", "t\u2029", ("\u2029",)), 128, 64)
    messages = [record.getMessage() for record in caplog.records if "U+2029" in record.getMessage()]
    assert messages == ["the panel cannot draw U+2029 PARAGRAPH SEPARATOR: it shows \ufffd instead"]


def test_every_paragraph_separator_of_the_bidi_algorithm_is_replaced():
    """raqm fails on exactly the characters of bidi class B (found by drawing every code point
    with the panel font: U+000A, U+000D, U+001C..U+001E, U+0085, U+2029): all of them are replaced."""
    separators = [chr(cp) for cp in range(0x110000) if unicodedata.bidirectional(chr(cp)) == "B"]
    assert len(separators) == 7
    for char in separators:
        assert fonts.drawable(f"a{char}b") == f"a{REPLACED}b"
        fonts.panel_font().getlength(fonts.drawable(f"a{char}b"))


def test_a_huge_string_is_cut():
    """How quickly: benchmarks/panel.py."""
    assert fonts.fit("W" * 200_000, 128).endswith(fonts.ELLIPSIS)
    assert fonts.fit("a" + "\u0301" * 100_000, 128).endswith(fonts.ELLIPSIS)


def test_no_name_the_table_accepts_needs_a_replacement_on_the_panel():
    """Names are checked at the door (``clean_name``) so that a valid name always shows as
    typed: every character the panel would replace is refused in a name."""
    replaced = [chr(code) for code in range(0x110000) if fonts.drawable(chr(code)) != chr(code)]
    assert len(replaced) > 2000  # the controls, the surrogates, the two separators
    for char in replaced:
        with pytest.raises(TableError):
            clean_name(f"a{char}b")
