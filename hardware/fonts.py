"""The panel's font: Misaki Gothic, an 8 × 8 pixel bitmap font covering ASCII, kana and kanji.

At 8 px every glyph lands on whole pixels, so text stays crisp on a one-bit OLED: half-width
characters are 4 px wide (32 per 128 px line), kana and kanji 8 px (16 per line), and a
64 px display holds 8 lines. It comes from Debian's ``fonts-misaki`` package (the installer
and CI install it). Without it the panel still runs: it warns once and falls back to PIL's
built-in bitmap font, which has no Japanese (names in kana then show as boxes).
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

from PIL import ImageFont

log = logging.getLogger(__name__)

FONT_SIZE = 8
"""Pixel height of one text line (the Misaki glyph cell)."""

MISAKI_PATHS = (
    Path("/usr/share/fonts/truetype/misaki/misaki_gothic_2nd.ttf"),
    Path("/usr/share/fonts/truetype/misaki/misaki_gothic.ttf"),
)
"""Where Debian's fonts-misaki puts the font (the "2nd" variant has the plainer Latin letters)."""


@functools.cache
def panel_font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """The font every screen is drawn with (loaded once)."""
    for path in MISAKI_PATHS:
        if path.is_file():
            return ImageFont.truetype(str(path), FONT_SIZE)
    log.warning(
        "the Japanese panel font is missing (install the Debian package fonts-misaki): "
        "using PIL's default font, which cannot draw kana or kanji"
    )
    return ImageFont.load_default(FONT_SIZE)


def text_width(text: str) -> float:
    """Width in pixels of ``text`` in the panel font."""
    return panel_font().getlength(text)


ELLIPSIS = "…"


def fit(text: str, width: float) -> str:
    """``text`` cut to at most ``width`` pixels, ending in "…" when it had to be cut."""
    if text_width(text) <= width:
        return text
    room = width - text_width(ELLIPSIS)
    cut = text
    while cut and text_width(cut) > room:
        cut = cut[:-1]
    return cut.rstrip() + ELLIPSIS


def wrap(text: str, width: float) -> list[str]:
    """``text`` broken into lines of at most ``width`` pixels: at spaces where possible,
    anywhere in a word too long for a line (Japanese has no spaces to break at)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if text_width(candidate) <= width:
                line = candidate
                continue
            if line:
                lines.append(line)
            line = ""
            for char in word:
                if text_width(line + char) > width and line:
                    lines.append(line)
                    line = ""
                line += char
        lines.append(line)
    return lines
