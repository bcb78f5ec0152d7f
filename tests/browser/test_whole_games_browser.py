"""Whole games by taps at 360 x 640, 390 x 844 and 412 x 915 (issue 24, point 6): every step
of every game and tracker is made on the phones, from the first screen, and counted
(``whole_games``). Set ``COMPANION_TAP_COUNTS=<file>`` to write the counts (docs/phone.md's
table comes from there).

What is held: no step of any game or tracker needs a scroll at any of the three sizes, and
none takes more than 3 taps (2, but where a closed tab opens first and the move then asks to
be confirmed).
"""

from __future__ import annotations

import json
import os
import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from whole_games import SIZES, WHOLE_GAMES, play_whole_game, summary  # noqa: E402


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("game_id", list(WHOLE_GAMES))
def test_a_whole_game_by_taps_counting_taps_and_scrolls(live, new_phone, game_id, size):
    steps = play_whole_game(live, new_phone, game_id, size)
    counts = summary(steps)
    out = os.environ.get("COMPANION_TAP_COUNTS")
    if out:
        with open(out, "a", encoding="utf-8") as file:
            file.write(json.dumps({"game": game_id, "size": size, "counts": counts}) + "\n")
    assert max(step.taps for step in steps) <= 3, counts
    assert [step for step in steps if step.scrolls] == [], counts
