"""Issue 10 on the panel: undo never a run of ok presses, "Play again", who is awaited
(``waiting_for``), the result's summary and the lions' win, a headline big enough to read at
arm's length, words in both languages, and the trackers' common actions in two presses."""

from __future__ import annotations

import re

import pytest
from panel_helpers import choose, presses, selected, short_press, status_of, status_text

from companion.table import Conflict


def finish_swap5(table):
    table.start_game("swap5", 2, seed=4)
    while not table.public()["game"]["over"]:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][-1], table.version)


def headline(panel, size=(128, 64)):
    """The status screen's headline and the height of its lit bar in pixels, measured on the
    frame (its rows of mostly lit pixels from the top: dark glyphs on a lit bar)."""
    image = panel.frame_image()
    lit = [sum(image.getpixel((x, y)) for x in range(image.width)) > image.width // 2 for y in range(image.height)]
    return panel.screen.headline, lit.index(False) if False in lit else image.height


def ledger_round_over(table):
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat in range(3):
        table.act(seat, {"type": "loss", "loss": 2}, table.version)


# ------------------------------------------------------------------ point 3: undo asks, "No" first


def test_ok_ok_ok_on_a_finished_game_undoes_nothing(make_panel, table):
    finish_swap5(table)
    version = table.version
    panel = make_panel()
    presses(panel, "ok", "ok", "ok")
    assert table.version == version and table.public()["game"]["over"]


def test_undo_is_the_last_item_and_its_question_names_the_move_and_starts_on_no(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    seat = table.view(None)["to_act"][0]
    table.act(seat, table.view(seat)["actions"][0], table.version)
    last = table.public()["view"]["log"][-1]["text"]["en"].replace("{s0}", "Seat 1").replace("{s1}", "Seat 2")
    version = table.version
    panel = make_panel()
    short_press(panel, "ok")
    menu = panel.text_lines()[1:]
    assert menu[-1] == "Undo last action" and not menu[0].endswith("Undo last action")
    choose(panel, "Undo last action")
    lines = panel.text_lines()
    assert "Take back the last move:" in " ".join(lines) and selected(panel) == "No"
    assert last.split()[0] in " ".join(lines)
    short_press(panel, "ok")  # "No"
    assert table.version == version
    choose(panel, "Undo last action")
    presses(panel, "down", "ok")  # "Yes"
    assert table.version == version + 1 and table.public()["view"]["public"]["step"] == "pig_action"


def test_back_answers_no_to_the_undo_question(make_panel, table):
    table.start_game("swap5", 2, seed=1)
    seat = table.view(None)["to_act"][0]
    table.act(seat, table.view(seat)["actions"][0], table.version)
    version = table.version
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Undo last action")
    presses(panel, "down", "back")  # "Yes" highlighted, then back: still no
    assert table.version == version


# ------------------------------------------------------------------ point 4: play again


def test_play_again_on_the_game_over_screen_asks_then_deals_the_same_game_again(make_panel, table):
    finish_swap5(table)
    finished = table.public()
    panel = make_panel()
    short_press(panel, "ok")
    assert selected(panel) == "Play again"
    short_press(panel, "ok")
    assert selected(panel) == "No"  # asked first, "No" highlighted
    presses(panel, "down", "ok")
    now = table.public()
    assert not now["game"]["over"] and now["game"]["id"] == "swap5" and now["game"]["players"] == 2
    assert now["history"][0] == finished["history"][0]  # the finished game stays in the history
    assert status_of(panel) == "SWAP 5"  # home: the new game's status


def test_a_refused_play_again_says_why(make_panel, table, monkeypatch):
    finish_swap5(table)

    def refuse():
        raise Conflict("this game is not over yet", "このゲームはまだ終わっていません")

    monkeypatch.setattr(table, "rematch", refuse)
    panel = make_panel()
    presses(panel, "ok", "ok", "down", "ok")
    assert "not over yet" in " ".join(panel.text_lines())


# ------------------------------------------------------------------ point 5: who is awaited


def test_seats_that_entered_are_not_awaited(make_panel, table):
    table.start_game("lion-square-ledger", 3, seed=1)
    table.act(0, {"type": "loss", "loss": 2}, table.version)
    panel = make_panel()
    assert headline(panel)[0] == "Waiting for 2"  # "Waiting: Seat 2, Seat 3" is longer than a row...
    assert "Waiting: Seat 2, Seat 3" in " ".join(status_text(panel))  # ...so it comes whole below


def test_at_round_end_nobody_is_awaited_and_the_panel_says_what_comes_next(make_panel, table):
    ledger_round_over(table)
    panel = make_panel()
    assert headline(panel)[0] == "Round over"
    assert "Next: the next round" in " ".join(status_text(panel))
    assert not any(line.startswith("Waiting") for line in status_text(panel))


def test_an_older_servers_view_without_waiting_for_falls_back_to_to_act(make_panel, table, monkeypatch):
    table.start_game("swap5", 2, seed=1)
    public = table.public

    def without_waiting_for():
        info = public()
        info["view"].pop("waiting_for")
        return info

    monkeypatch.setattr(table, "public", without_waiting_for)
    panel = make_panel()
    assert headline(panel)[0] == f"Seat {table.view(None)['to_act'][0] + 1} is empty"


# ------------------------------------------------------------------ point 6: the result


def test_the_lions_win_ranks_nobody_first_and_shows_the_summary(make_panel, table):
    table.start_game("lion-square-ledger", 3, seed=1)
    for seat in range(3):
        table.act(seat, {"type": "loss", "loss": 20}, table.version)
    panel = make_panel()
    lines = status_text(panel)
    assert headline(panel) == ("The lions win", 16)
    assert "every herd fell to 0 or below" in " ".join(lines)
    assert not any("★" in line or "1." in line for line in lines), lines


def test_the_result_shows_the_summary_with_names(make_panel, table):
    finish_swap5(table)
    table.join(0, "Aki")
    panel = make_panel()
    summary = table.public()["view"]["result"]["summary"]["en"]
    assert "{s" in summary  # the engine names seats with placeholders
    shown = " ".join(status_text(panel))
    assert "{s" not in shown and ("Aki" in shown or "Seat 2" in shown)
    assert summary.replace("{s0}", "Aki").replace("{s1}", "Seat 2") in shown  # after the final scores


def test_without_a_summary_the_winners_are_named(make_panel, table, monkeypatch):
    finish_swap5(table)
    public = table.public

    def without_summary():
        info = public()
        info["view"]["result"].pop("summary")
        return info

    monkeypatch.setattr(table, "public", without_summary)
    panel = make_panel()
    winner = table.public()["view"]["result"]["winners"][0]
    assert headline(panel) == (f"Seat {winner + 1} wins", 16)
    assert any(line.startswith(f"★1. Seat {winner + 1}") for line in status_text(panel))


# ------------------------------------------------------------------ point 10: readable, two presses


GAMES = [("lion-square", 3), ("meow-oracle", 3), ("swap5", 2), ("pig-house", 2),
         ("meow-oracle-scorer", 3), ("lion-square-ledger", 3)]


@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_every_games_headline_is_16_pixels_high_and_says_who(make_panel, table, size):
    panel = make_panel(size=size)
    for game, players in GAMES:
        table.start_game(game, players, seed=2)
        for seat in range(players):
            if not table.public()["seats"][seat]["taken"]:  # the seats stay taken across games
                table.join(seat, f"P{seat + 1}")
        assert panel.settle()
        text, height = headline(panel, size)
        assert height == 16, game
        assert text.endswith("'s turn") or text.startswith(("Waiting", "P1, ")), (game, text)


def test_pig_house_reads_in_words(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    panel = make_panel()
    lines = " ".join(status_text(panel))
    assert not re.search(r"#\d+@\d+", lines)
    assert "Wolves on squares 0" in lines and "Pigs Seat 1        3 Seat 2        3" in lines


def reach(table, step):
    while table.public()["view"]["public"]["step"] != step:
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][0], table.version)


def test_pig_house_roll_and_wolf_move_take_two_presses(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    reach(table, "roll")
    panel = make_panel()
    presses(panel, "ok", "ok")
    assert table.public()["view"]["public"]["die"] is not None
    reach(table, "wolf_move")
    assert panel.settle()
    presses(panel, "back", "back")  # home, wherever the last action left the panel
    version = table.version
    presses(panel, "ok", "ok")
    assert table.version == version + 1 and table.public()["view"]["public"]["step"] != "wolf_move"


def test_next_round_takes_two_presses(make_panel, table):
    ledger_round_over(table)
    panel = make_panel()
    presses(panel, "ok", "ok")
    assert table.public()["view"]["public"]["round"] == 2


# ------------------------------------------------------------------ point 7: both languages


def test_the_japanese_panel_shows_no_english_words(make_panel, table):
    panel = make_panel(language="ja")
    for game, players in GAMES:
        table.start_game(game, players, seed=2)
        assert panel.settle()
        panel.home()
        short_press(panel, "ok")  # the game menu too
        for screen in (panel.pages[0].screen(panel), panel.screen):
            text = " ".join((screen.headline or "", *screen.lines))  # the title is the game's name
            assert not re.search(r"[A-Za-z]{2,}", text), (game, text)
    finish_swap5(table)
    assert panel.settle()
    panel.home()
    assert panel.settle()
    text = " ".join(panel.screen.lines)
    assert not re.search(r"[A-Za-z]{2,}", text), text
