"""Issue 24 point 7: the panel asks what the phones ask ("Attack done", a lost pig, a keyed
die face or wolf card...), the question starting on "No", and the game menu never opens on
an item that ends a step others still have to act in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from panel_helpers import choose, presses, selected, short_press

from hardware.actions import OFFERED

GAMES_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "games"


def phone_confirmed(script: str) -> set[str]:
    """The action types a phone renderer's ``confirm`` asks about unconditionally."""
    source = (GAMES_JS / script).read_text()
    body = source[source.index("  confirm(ctx, action) {"):]
    body = body[: body.index("\n  },")]
    listed = set()
    for group in re.findall(r"\[([^\]]*)\]\.includes\(action\.type\)", body):
        listed |= set(re.findall(r'"([\w-]+)"', group))
    listed |= set(re.findall(r'action\.type === "([\w-]+)"\) return true', body))
    return listed


@pytest.mark.parametrize(("game", "script"), [
    ("pig-house", "pig-house.js"),
    ("meow-oracle-scorer", "meow-oracle-scorer.js"),
    ("lion-square-ledger", "lion-square-ledger.js"),
    ("score-pad", "score-pad.js"),
])
def test_the_panel_asks_exactly_what_the_phones_ask(game, script):
    asked_on_phones = phone_confirmed(script) & set(OFFERED[game])  # of the actions the panel offers
    asked_on_panel = {kind for kind, action in OFFERED[game].items() if action.confirm}
    assert asked_on_panel == asked_on_phones
    if game == "pig-house":
        assert {"attack_done", "pig_lost", "die_face", "wolf_card"} <= asked_on_panel


def reach(table, step, pick=0):
    """Play the first listed actions until the Pig House game is at ``step``."""
    for _ in range(500):
        if table.public()["view"]["public"]["step"] == step:
            return
        seat = table.view(None)["to_act"][0]
        table.act(seat, table.view(seat)["actions"][pick], table.version)
    raise AssertionError(f"never reached {step}")


def test_ok_ok_during_an_attack_changes_nothing_and_attack_done_comes_last(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    table.join(0, "Taro")
    table.join(1, "Hanako")
    reach(table, "attack")
    version = table.version
    panel = make_panel()
    short_press(panel, "ok")
    menu = [item.label for item in panel.page.items()]  # the whole list, not only what the glass shows
    assert "Attack done" in menu and not selected(panel).startswith("Attack done")
    # every seat's own report comes before the end of the attack
    assert menu.index("Attack done") > max(index for index, line in enumerate(menu) if "pig lost" in line)
    short_press(panel, "ok")  # the first item asks...
    assert selected(panel) == "No" and "?" in " ".join(panel.text_lines())
    short_press(panel, "ok")  # ...and ok answers "No"
    assert table.version == version
    choose(panel, "Attack done")
    assert panel.text_lines() == ["Attack done?", "Yes", "> No"]
    short_press(panel, "back")  # back is "No" too
    assert table.version == version
    choose(panel, "Attack done")
    presses(panel, "down", "ok")
    assert table.version == version + 1 and table.public()["view"]["public"]["step"] != "attack"


def test_a_lost_pig_asks_and_yes_takes_it(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    table.join(0, "Taro")
    table.join(1, "Hanako")
    reach(table, "attack")
    pigs = table.public()["view"]["public"]["pigs"][1]
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Hanako: pig lost")
    assert panel.text_lines() == ["Hanako: pig lost?", "Yes", "> No"]
    presses(panel, "up", "ok")
    assert table.public()["view"]["public"]["pigs"][1] == pigs - 1
    assert len(panel.pages) == 1  # home again


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_keyed_die_face_asks_first(make_panel, table, language):
    table.start_game("pig-house", 2, seed=1, options={"die": "physical"})
    reach(table, "roll")
    version = table.version
    panel = make_panel(language=language)
    presses(panel, "ok", "ok")  # the first face: asked, not keyed
    assert table.version == version and selected(panel) == ("No" if language == "en" else "いいえ")
    question = panel.text_lines()[0]  # the whole question, however it wraps
    assert re.fullmatch(r"Die shows (1 pig|[02-9] pigs)( \+ pot)?\?" if language == "en" else r"「出目: こぶた\d(\+なべ)?」でよろしいですか\?", question)
    presses(panel, "down", "ok")
    assert table.version == version + 1 and table.public()["view"]["public"]["die"] is not None


def test_a_keyed_wolf_card_asks_first(make_panel, table):
    table.start_game("pig-house", 2, seed=1, options={"wolf_deck": "physical"})
    reach(table, "key_wolf_card")
    version = table.version
    panel = make_panel()
    presses(panel, "ok", "ok")
    assert table.version == version and selected(panel) == "No"
    assert panel.text_lines()[0].startswith("Wolf card (")
    presses(panel, "down", "ok")
    assert table.version == version + 1


def test_the_scorers_start_player_asks_first(make_panel, table):
    table.start_game("meow-oracle-scorer", 2, seed=1)
    table.join(0, "Aki")
    panel = make_panel()
    presses(panel, "ok", "ok")
    assert panel.text_lines() == ["Start player: Aki?", "Yes", "> No"]
    presses(panel, "down", "ok")
    assert table.public()["view"]["public"]["step"] == "entering"


def test_steps_the_phones_do_not_confirm_take_two_presses(make_panel, table):
    table.start_game("pig-house", 2, seed=1)
    reach(table, "roll")
    panel = make_panel()
    version = table.version
    presses(panel, "ok", "ok")  # roll the (virtual) die: nothing to take back by hand
    assert table.version == version + 1


def through_the_options(panel):
    """ok on each option's default until the question."""
    for _ in range(10):
        if {"Yes", "No"} <= {line.removeprefix("> ") for line in panel.text_lines()}:
            return
        short_press(panel, "ok")
    raise AssertionError(panel.text_lines())


@pytest.mark.parametrize("entry", ["New game", "Start a game"])
def test_a_new_game_over_a_running_one_says_it_ends_it_and_starts_on_no(make_panel, table, entry):
    """As the phones ask before abandoning a game in progress; over a finished one "Yes" leads."""
    table.start_game("swap5", 2, seed=1)
    version = table.version
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Menu…")
    choose(panel, entry)
    if entry == "Start a game":
        choose(panel, "SWAP 5")
        choose(panel, "2 players")
        through_the_options(panel)
    assert "The game in progress ends." in " ".join(panel.text_lines()) and selected(panel) == "No"
    short_press(panel, "ok")
    assert table.version == version


def test_a_first_game_starts_on_yes(make_panel, table):
    panel = make_panel()
    short_press(panel, "ok")
    choose(panel, "Start a game")
    choose(panel, "SWAP 5")
    choose(panel, "2 players")
    through_the_options(panel)
    assert selected(panel) == "Yes" and "ends" not in " ".join(panel.text_lines())


def test_a_question_longer_than_its_rows_turns_its_pages_and_the_panel_wakes_for_them(table):
    """Issue 33 point 10: 16 px rows leave three above the answers; a longer question shows
    them a page at a time (QUESTION_PAGE_SECONDS each), the answers staying on the last row."""
    import queue

    from hardware.display import Display
    from hardware.pages import QUESTION_PAGE_SECONDS, ConfirmPage
    from hardware.panel import Panel
    from hardware.screens import text_lines

    panel = Panel(table, Display(None), None, queue.Queue(), public_url="http://192.168.1.20:8000/", language="ja")
    panel.public = table.public()
    question = "最後の一手を取り消しますか: たろうがマス7のオオカミをなべに落とし、こぶたを2匹守った"
    page = ConfirmPage("一手戻す", question, lambda: None, default=False)
    panel.push(page)
    rows, room = page.pages(panel)
    assert len(rows) > room == 3
    first = page.screen(panel)
    assert text_lines(first, 128, 64)[:3] == [question, "はい", "> いいえ"]
    assert text_lines(first, 128, 64)[-1] == f"[lines 1-3 of {len(rows)}]"
    assert 0 < panel.wakes_in <= QUESTION_PAGE_SECONDS  # the thread wakes to turn the page
    page.opened -= QUESTION_PAGE_SECONDS  # as if 3 s had passed
    second = page.screen(panel)
    assert text_lines(second, 128, 64)[-1] == f"[lines 4-{len(rows)} of {len(rows)}]"
    page.key(panel, "down")
    assert page.yes and page.screen(panel).selected == 1  # the buttons still choose the answer
