"""The games' colours stay apart for colour-blind players (issue 24, point 9).

Every pair of colours of one palette (Lion Square's species, Meow Oracle's card colours,
SWAP 5's pieces, as web/static/style.css draws them) must differ by at least
``MIN_DIFFERENCE`` in CIEDE2000 under normal vision and under simulated protanopia,
deuteranopia and tritanopia. (The colours are never alone anyway: every card and piece also
carries its letter or mark; this is for the glance across the table.)

- Simulation: Machado, Oliveira & Fernandes 2009 ("A Physiologically-based Model for
  Simulation of Color Vision Deficiency"), severity 1.0, one 3 x 3 matrix per deficiency
  applied to linear RGB. Chosen over Brettel 1997 / Viénot 1999 because one model covers all
  three dichromacies (Viénot's single-plane projection is for protans and deutans only).
- Difference: CIEDE2000 (CIE 142-2001, implemented after Sharma, Wu & Dalal 2005, whose test
  pairs are checked below), not ΔE76: plain Lab distance overstates differences between
  saturated colours and understates them among blues, exactly where game palettes live.
- Threshold: 10. A ΔE00 of 1-2 is just noticeable between large patches side by side; cards
  and pieces are small and seen apart, and the noticeable difference grows several times as
  marks get small (Stone, Szafir & Setlur 2014), so 10 asks for colours told apart at a glance.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pytest

STYLE = Path(__file__).resolve().parents[2] / "web" / "static" / "style.css"
MIN_DIFFERENCE = 10.0

PALETTES = {"lion-square": "sp", "meow-oracle": "mo", "swap5": "s5"}

IDENTITY = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
MACHADO_2009 = {  # severity 1.0, for linear RGB
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = {"normal vision": IDENTITY, **MACHADO_2009}


def palette(prefix: str) -> dict[str, str]:
    """``{name: "#rrggbb"}`` of the ``.<prefix>-<name> { background: #... }`` rules."""
    found = re.findall(rf"\.{prefix}-([\w-]+) \{{ background: (#[0-9a-fA-F]{{3}}(?:[0-9a-fA-F]{{3}})?);", STYLE.read_text())
    return {name: colour if len(colour) == 7 else "#" + "".join(2 * c for c in colour[1:]) for name, colour in found}


def linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def seen(colour: str, vision) -> tuple[float, float, float]:
    """The colour as ``vision`` sees it, in linear RGB (clipped to the screen's range)."""
    rgb = [linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    return tuple(min(1.0, max(0.0, sum(row[j] * rgb[j] for j in range(3)))) for row in vision)


def lab(rgb) -> tuple[float, float, float]:
    """Linear sRGB to CIELAB (D65)."""
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2 + r_t * (dc / s_c) * (dh_big / s_h))


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu & Dalal 2005, table 1: pairs 1, 2, 7 (a hue wrap-around) and 17.
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 3.1571, -77.2803), (50, 0, -82.7485), 2.8615),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
])
def test_ciede2000_agrees_with_the_published_test_pairs(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", list(MACHADO_2009))
def test_the_simulations_keep_white_white_and_black_black(vision):
    assert seen("#ffffff", MACHADO_2009[vision]) == pytest.approx((1, 1, 1), abs=0.01)
    assert seen("#000000", MACHADO_2009[vision]) == (0, 0, 0)


def test_the_simulation_does_confuse_red_and_green_for_a_deuteranope():
    """The check can fail: the old Meow Oracle red and green were 4.3 apart for deuteranopes."""
    old_red, old_green = "#ef9a9a", "#a5d6a7"
    deutan = MACHADO_2009["deuteranopia"]
    assert ciede2000(lab(seen(old_red, deutan)), lab(seen(old_green, deutan))) < 5
    assert ciede2000(lab(seen(old_red, IDENTITY)), lab(seen(old_green, IDENTITY))) > 20


@pytest.mark.parametrize("vision", list(VISIONS))
@pytest.mark.parametrize("game", list(PALETTES))
def test_every_pair_of_a_games_colours_stays_apart(game, vision):
    colours = palette(PALETTES[game])
    assert len(colours) >= 4, f"{game}: its palette was not found in style.css"
    too_close = []
    for (name1, colour1), (name2, colour2) in itertools.combinations(colours.items(), 2):
        difference = ciede2000(lab(seen(colour1, VISIONS[vision])), lab(seen(colour2, VISIONS[vision])))
        if difference < MIN_DIFFERENCE:
            too_close.append(f"{name1} {colour1} / {name2} {colour2}: {difference:.1f}")
    assert too_close == [], f"{game} under {vision}: closer than ΔE00 {MIN_DIFFERENCE}"
