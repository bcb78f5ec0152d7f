"""The panel's font: GNU Unifont (its Japanese variant), a 16 pixel bitmap font covering
ASCII, kana and kanji.

At 16 px every glyph lands on whole pixels, so text stays crisp on a one-bit OLED, and it
is big enough to read across a table: capitals and digits are 10 px high, kana 11 to 14 px,
kanji up to 16 px (``tests/hardware/test_panel_legibility.py`` measures them on the drawn
frame). Half-width characters are 8 px wide (16 per 128 px row), kana and kanji 16 px (8 per
row), and a 64 px display holds 4 rows (a 32 px one, 2). It comes from Debian's
``fonts-unifont`` package (the installer and CI install it); its ``unifont_jp`` draws kanji
in their Japanese forms. Without it the panel still runs: it warns once and falls back to
PIL's built-in font, which has no Japanese (names in kana then show as boxes).
"""

from __future__ import annotations

import bisect
import functools
import logging
import unicodedata
from pathlib import Path

from PIL import ImageFont

log = logging.getLogger(__name__)

FONT_SIZE = 16
"""Pixel height of one text row (the Unifont glyph cell)."""

UNIFONT_PATHS = (Path("/usr/share/fonts/opentype/unifont/unifont_jp.otf"),)
"""Where Debian's fonts-unifont puts the Japanese variant of the font."""


@functools.cache
def panel_font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """The font every screen is drawn with (loaded once)."""
    for path in UNIFONT_PATHS:
        if path.is_file():
            return ImageFont.truetype(str(path), FONT_SIZE)
    log.warning(
        "the Japanese panel font is missing (install the Debian package fonts-unifont): "
        "using PIL's default font, which cannot draw kana or kanji"
    )
    return ImageFont.load_default(FONT_SIZE - 4)  # its ascent and descent fit a 16 px row


REPLACEMENT = "\ufffd"
"""What the panel shows for a character it cannot draw (Unifont draws it as a box with a
question mark, as it draws any character it lacks)."""

UNDRAWABLE = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Unicode categories the panel replaces: control characters, lone surrogates, line and
paragraph separators. Pillow's text layout (raqm) fails on every character of bidi class B
(U+000A, U+000D, U+001C..U+001E, U+0085, U+2029: found by drawing every code point), and all of them are in these categories; the rest of them have no picture either,
and a lone surrogate cannot even be sent as UTF-8 to ``/api/display.txt``. Anything else
draws: a character the font lacks as a box, a mark on what precedes it."""

LONGEST_LINE = 256
"""Text is cut to this many characters before it is measured: more than a line can show
(16 half-width characters in 128 px, plus marks stacked on them), and measuring 100 000
characters would take seconds on a Pi."""


def drawable(text: str) -> str:
    """``text`` with every character the panel cannot draw (see :data:`UNDRAWABLE`) replaced
    by :data:`REPLACEMENT`. Every text the panel measures or draws goes through here, so no
    name, log text or title can make drawing fail."""
    if text.isprintable():  # the usual case, checked in C: nothing to replace
        return text
    return "".join(_replacement(char) if unicodedata.category(char) in UNDRAWABLE else char for char in text)


@functools.cache
def _replacement(char: str) -> str:
    """The stand-in for an undrawable character; cached, so each one is logged only once."""
    name = unicodedata.name(char, "")
    log.warning("the panel cannot draw U+%04X%s: it shows %s instead", ord(char), f" {name}" if name else "",
                REPLACEMENT)
    return REPLACEMENT


@functools.lru_cache(maxsize=4096)
def text_width(text: str) -> float:
    """Width in pixels of ``text`` in the panel font. Remembered: a redraw measures the same
    lines again (wrapping one screen measures each growing line, word by word)."""
    return panel_font().getlength(drawable(text))


ELLIPSIS = "…"


def fit(text: str, width: float) -> str:
    """``text`` made drawable and cut to at most ``width`` pixels, ending in "…" when it had
    to be cut."""
    whole = drawable(text[: LONGEST_LINE + 1])
    if len(whole) <= LONGEST_LINE and text_width(whole) <= width:
        return whole
    room = width - text_width(ELLIPSIS)
    # The longest prefix that leaves room for the ellipsis (widths only grow with length).
    length = bisect.bisect_right(range(len(whole)), room, key=lambda end: text_width(whole[:end])) - 1
    return whole[: max(length, 0)].rstrip() + ELLIPSIS


BREAK_AFTER = "、。"
"""Japanese punctuation a line may break after (Japanese has no spaces between words): a list
of names "Taro、Hanako、Alexandria" breaks between the names, not inside one."""


def _words(paragraph: str) -> list[tuple[str, str]]:
    """``paragraph`` as (joiner, word) pairs: a word and what joins it to the word before on
    the same line (a space, or nothing after Japanese punctuation)."""
    words, joiner, word = [], "", ""
    for char in paragraph:
        if char == " ":
            words.append((joiner, word))
            joiner, word = " ", ""
            continue
        word += char
        if char in BREAK_AFTER:
            words.append((joiner, word))
            joiner, word = "", ""
    words.append((joiner, word))
    return words


def wrap(text: str, width: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels: at spaces and after Japanese
    punctuation where possible, anywhere in a word too long for a line (Japanese has no
    spaces to break at)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for joiner, word in _words(paragraph):
            candidate = f"{line}{joiner}{word}" if line else word
            if text_width(candidate) <= width:
                line = candidate
                continue
            if text_width(word) <= width or not line:
                if line:
                    lines.append(line)
                line = ""
            else:  # a word longer than a whole line begins where this line has room
                line += joiner
            for char in word:
                if text_width(line + char) > width and line.strip():
                    lines.append(line.rstrip())
                    line = ""
                line += char
        lines.append(line)
    return lines
