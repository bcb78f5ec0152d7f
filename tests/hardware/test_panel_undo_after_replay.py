"""Issue 23 point 4 on the panel: a finished game whose replay was opened cannot be reopened;
the panel says why, in the panel's language."""

from __future__ import annotations

import pytest
from panel_helpers import choose, presses, short_press

from companion.records.plays import Records


@pytest.mark.parametrize("language, title, reason", [("en", "Cannot undo", "replay"), ("ja", "戻せません", "リプレイ")])
def test_the_panel_refuses_to_reopen_a_game_whose_replay_was_opened(make_panel, table, language, title, reason):
    table.start_game("swap5", 2, seed=4)
    while not table.public()["game"]["over"]:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)
    records = Records(table.data_dir)
    try:
        records.replay(table.view(None)["play_id"], 0)  # someone watches the replay with every hand
    finally:
        records.close()
    version = table.version
    panel = make_panel(language=language)
    short_press(panel, "ok")
    choose(panel, "Undo last action" if language == "en" else "一手戻す")
    presses(panel, "down", "ok")  # "Yes"
    shown = " ".join(panel.text_lines())
    assert title in shown and reason in shown
    assert table.version == version and table.public()["game"]["over"]
