"""The score pad by the panel's buttons alone (issue 36, point 2; MockFactory pins, luma's dummy
device): the turn passed with ok, ok; a player's points stepped by up and down, each press a
move every phone sees; a round opened to correct it, the correction kept; the next round and
the end asked first, "No" highlighted; the presses those docs/panel.md lists."""

from __future__ import annotations

from panel_helpers import selected, short_press, status_text
from test_panel_presses import Counter, record

NAMES = ["Aki", "Ben", "Cy"]


def pad(table, options=None):
    table.start_game("score-pad", 3, seed=1, options=options or {"name": "Catan", "wins": "highest"})
    for seat, name in enumerate(NAMES):
        table.join(seat, name)


def public(table):
    return table.view(None)["public"]


def test_a_whole_score_pad_by_the_buttons_alone(make_panel, table):
    pad(table)
    panel = make_panel()
    lines = status_text(panel)
    assert lines[0] == "Aki's turn"
    assert "Totals" in lines and "Catan: round 1" in " ".join(lines)

    # The turn: ok, ok (the game menu opens on "Next player").
    counter = Counter(panel)
    counter.press("ok")
    assert selected(panel) == "Next player"
    counter.press("ok")
    assert table.view(None)["waiting_for"] == [1]
    record("Score pad: next player", counter)
    assert status_text(panel)[0] == "Ben's turn"

    # A player's points: their line, then up and down, each press one move.
    counter = Counter(panel)
    counter.press("ok")
    counter.to("Aki: 0")
    counter.press("up")
    assert public(table)["rounds"] == [[1, 0, 0]]
    record("Score pad: a player's points, +1 (the first player)", counter)
    assert panel.screen.title == "Aki" and panel.screen.lines[0] == "Round 1: 1"
    short_press(panel, "up")
    short_press(panel, "up")
    short_press(panel, "down")
    assert public(table)["rounds"] == [[2, 0, 0]]
    assert panel.screen.lines[:2] == ("Round 1: 2", "Total 2")
    short_press(panel, "back")  # back to the game menu, which shows the points now
    assert "Aki: 2" in [item.label for item in panel.page.items()]
    counter = Counter(panel)
    counter.to("Ben: 0")
    counter.press(*["up"] * 5)
    short_press(panel, "ok")  # ok, too, returns
    assert public(table)["rounds"] == [[2, 5, 0]]

    # The next round asks first, "No" highlighted.
    counter = Counter(panel)
    counter.to("Next round")
    assert selected(panel) == "No"
    counter.yes()
    assert public(table)["rounds"] == [[2, 5, 0], [0, 0, 0]]

    # A correction: open round 1, step Ben's points there; it is kept, old -> new.
    short_press(panel, "ok")
    Counter(panel).to("Correct round 1")
    assert public(table)["open"] == 0
    assert "Correcting round 1" in " ".join(status_text(panel))
    short_press(panel, "ok")
    Counter(panel).to("Ben: 5")
    assert panel.screen.lines[0] == "Fix round 1: 5"  # an earlier round: a correction
    short_press(panel, "down")
    short_press(panel, "down")
    short_press(panel, "back")
    assert public(table)["rounds"][0] == [2, 3, 0]
    (correction,) = public(table)["corrections"]
    assert (correction["round"], correction["seat"], correction["old"], correction["new"]) == (0, 1, 5, 3)
    Counter(panel).to("Back to round 2")
    assert public(table)["open"] == 1

    # The end: asked first, then the winner on the status screen.
    short_press(panel, "ok")
    counter = Counter(panel)
    counter.to("Finish the game")
    assert selected(panel) == "No"
    counter.yes()
    result = table.view(None)["result"]
    assert result["winners"] == [1] and result["scores"] == {"0": 2, "1": 3, "2": 0}
    assert status_text(panel)[0] == "Ben wins"


def test_the_status_screen_in_japanese_says_lowest_wins(make_panel, table):
    pad(table, {"name": "ごきぶりポーカー", "wins": "lowest"})
    panel = make_panel(language="ja")
    lines = status_text(panel)
    assert "合計" in lines and "合計の少ない人の勝ち" in "".join(lines)  # Japanese wraps without spaces
    short_press(panel, "ok")
    assert selected(panel) == "次の人へ"


def test_the_panel_steps_only_the_score_pad(make_panel, table):
    table.start_game("meow-oracle-scorer", 2, seed=1)
    table.join(0, "Aki")
    table.join(1, "Ben")
    panel = make_panel()
    short_press(panel, "ok")
    assert not [item.label for item in panel.page.items() if item.label.startswith("Aki:")]


def test_the_panel_starts_a_score_pad_of_a_game_named_before(make_panel, table, tmp_path):
    """The panel cannot type: a score pad started there offers the games named before (from
    the records, as ``companion serve`` hands them over), and "(no name)"."""
    from companion.serve import used_before

    pad(table, {"name": "Hanabi", "wins": "highest"})
    table.act(0, {"type": "finish"}, table.version)
    table.free_all_seats()
    pad(table, {"name": "Catan", "wins": "highest"})
    table.act(0, {"type": "finish"}, table.version)
    panel = make_panel(used_before=lambda: used_before(table.data_dir))
    short_press(panel, "ok")
    Counter(panel).to("Menu…")
    for label in ("Start a game", "Score pad", "3 players"):
        Counter(panel).to(label)
    assert panel.screen.title == "Who wins" and selected(panel) == "highest total"
    short_press(panel, "down")
    short_press(panel, "ok")  # the lowest total wins
    assert panel.screen.title == "The game you play"
    assert [item.label for item in panel.page.items()] == ["Catan", "Hanabi", "(no name)"]
    short_press(panel, "down")
    short_press(panel, "ok")  # Hanabi
    assert selected(panel) == "Yes"
    short_press(panel, "ok")
    assert table.game_id == "score-pad" and table.state()["options"] == {"name": "Hanabi", "wins": "lowest"}


def test_without_names_used_before_the_panel_starts_an_unnamed_pad(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    panel = make_panel(used_before=lambda: {"players": [], "options": {}})
    short_press(panel, "ok")
    Counter(panel).to("Menu…")
    for label in ("Start a game", "Score pad", "2 players", "highest total"):
        Counter(panel).to(label)
    Counter(panel).yes()
    assert table.game_id == "score-pad" and table.state()["options"] == {"name": "", "wins": "highest"}
