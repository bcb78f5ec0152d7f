"""Issue 24 point 11, the words on the pages, in real Chromium: Lion Square's forced take
asks "Take a row or a column?" (not "Choose the shape:"); one of anything is singular ("1 point",
"1 trump card", "Square pile: 1 card"); an undo's notice does not say "taken back" twice;
the undo question has no ".?"; no "Make host" beside the host's own seat and a way back
to the game from the host tools; the scorer's "starts" chip moves on between the rounds;
a tracker's replay says what was entered, not "Aki moved.". Both languages.
"""

from __future__ import annotations

import random
import re
import warnings

import pytest

from browser_support import chromium_missing

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402
from test_replay_page import finish  # noqa: E402

JA = {"locale": "ja-JP"}


def phone_of(live, new_phone, seat: int, name: str, **options):
    token = live.table.join(seat, name)
    phone = new_phone(**options)
    phone.goto(f"{live.url}/R/{token}")
    expect(phone.locator("#game")).to_have_attribute("data-version", str(live.table.version))
    return phone


@pytest.mark.parametrize(("options", "prompt"), [({}, "Take a row or a column?"), (JA, "行と列のどちらを取りますか？")])
def test_a_forced_take_asks_row_or_column_in_words(live, new_phone, options, prompt):
    table = live.table
    table.start_game("lion-square", 3, seed=1)
    chooser = random.Random(1)
    for _ in range(35):  # seed 1: seat 1 must then take a row or a column, nothing else
        seat = table.view(None)["to_act"][0]
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
    actions = table.view(0)["actions"]
    assert table.view(None)["to_act"] == [0] and {a["type"] for a in actions} == {"take"}
    assert {"row", "column"} <= {key for a in actions for key in a}
    phone = phone_of(live, new_phone, 0, "Aki", **options)
    expect(phone.locator(".prompt")).to_have_text(prompt)
    assert "shape" not in phone.locator("body").inner_text()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["1 point", "2 points", "1 trump card", "2 trump cards", "Square pile: 1 card", "1 pig"]),
    ("ja", ["1点", "2点", "切り札1枚", "切り札2枚", "スクエアの山札：1枚", "こぶた1匹"]),
])
def test_one_of_anything_is_singular(live, new_phone, lang, expected):
    page = new_phone(**(JA if lang == "ja" else {}))
    page.goto(f"{live.url}/?lang={lang}")
    said = page.evaluate("""async () => {
      const { t } = await import("/static/app.js");
      return [t("swap5.score", { n: 1 }), t("swap5.score", { n: 2 }), t("swap5.trumps", { n: 1 }),
              t("swap5.trumps", { n: 2 }), t("lion-square.pile", { n: 1 }), t("pig-house.pigs_n", { n: 1 })];
    }""")
    assert said == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Game over in round 2 of 3: a herd fell to 0",
            "Game over in round 2 of 3: every herd is gone, the lions win", "Game over: all 3 rounds played"]),
    ("ja", ["ゲーム終了（全3ラウンド中、第2ラウンド）：群れが0頭になりました",
            "ゲーム終了（全3ラウンド中、第2ラウンド）：すべての群れが食べ尽くされ、ライオンの勝ち",
            "ゲーム終了：全3ラウンドを終えました"]),
])
def test_lion_squares_last_screen_says_why_the_game_ended(live, new_phone, lang, expected):
    """Issue #33, point 12: not "Round 2 of 3 · game over"."""
    page = new_phone(**(JA if lang == "ja" else {}))
    page.goto(f"{live.url}/?lang={lang}")
    said = page.evaluate("""async () => {
      const [{ default: lionSquare }, { t }] = await Promise.all([import("/static/games/lion-square.js"), import("/static/app.js")]);
      const over = (round, lions_win) => lionSquare.status({ t, view: { public: { step: "over", round, rounds: 3 }, result: { lions_win } } });
      return [over(2, false), over(2, true), over(3, false)];
    }""")
    assert said == expected


def test_the_undo_notice_and_question_say_it_once(live, new_phone):
    table = live.table
    host_token = table.start_game("pig-house", 2, seed=1, claim_host=True)
    table.join(1, "Bo")
    table.act(0, {"type": "pig_action", "kind": "tile"}, table.version)
    move = table.view(None)["log"][-1]["text"]["en"].replace("{s0}", "Seat 1")
    assert move.endswith("places a tile.")
    host = new_phone()
    host.goto(f"{live.url}/R/{host_token}")
    host.wait_for_url(f"{live.url}/")
    host.goto(f"{live.url}/host")
    expect(host.locator("#game-line")).to_contain_text("Pig House")
    questions = []
    host.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    host.locator("#undo").click()
    assert questions == [f"Take back the last move: {move[:-1]}?"]  # "…a tile?", not "…a tile.?"

    phone = new_phone()
    phone.goto(f"{live.url}/R/{table.join(0, 'Aki')}")
    expect(phone.locator("#game")).to_have_attribute("data-version", str(table.version))
    table.undo()
    expect(phone.locator("#status")).to_have_text("↶ The host took back: Aki places a tile.")


def test_the_host_tools_have_no_make_host_on_the_own_seat_and_a_way_back(live, new_phone):
    table = live.table
    host_token = table.start_game("swap5", 2, seed=1, claim_host=True)
    host = new_phone()
    host.goto(f"{live.url}/R/{host_token}")
    host.wait_for_url(f"{live.url}/")
    host.goto(f"{live.url}/host")
    back = host.get_by_test_id("back-to-game")
    expect(back).to_have_attribute("href", "/")  # not seated: the table's home page
    host.goto(f"{live.url}/R/{table.join(0, 'Aki')}")  # the host's phone takes seat 1 as well
    host.wait_for_url(re.compile(r"/play$"))
    table.join(1, "Bo")
    host.goto(f"{live.url}/host")
    seats = host.locator("#seats li")
    expect(seats).to_have_count(2)
    expect(seats.nth(1).get_by_role("button", name="Make host")).to_have_count(1)
    expect(seats.nth(0).get_by_role("button", name="Make host")).to_have_count(0)  # the host's own seat
    expect(back).to_have_attribute("href", "/play")
    back.click()
    host.wait_for_url(f"{live.url}/play")


def test_the_scorers_starts_chip_moves_to_the_round_two_starter(live, new_phone):
    table = live.table
    table.start_game("meow-oracle-scorer", 2, seed=1)
    table.act(0, {"type": "start-player", "seat": 0}, table.version)
    table.act(0, {"type": "total", "total": 10}, table.version)
    table.act(1, {"type": "total", "total": 7}, table.version)
    public = table.view(None)["public"]
    assert public["step"] == "round-end" and public["results"][-1]["next_start_player"] == 1
    phone = phone_of(live, new_phone, 0, "Aki")
    infos = phone.locator(".seat-info")
    expect(infos.nth(1)).to_contain_text("starts round 2")
    expect(infos.nth(0)).not_to_contain_text("starts")


@pytest.mark.parametrize(("lang", "said"), [("en", "Aki entered the cards taken: "), ("ja", "Akiが取ったカードの数を入力: ")])
def test_a_trackers_replay_says_what_was_entered(live, new_phone, lang, said):
    play_id = finish(live.table, "lion-square-ledger")
    page = new_phone(**(JA if lang == "ja" else {}))
    page.goto(f"{live.url}/replay/{play_id}?lang={lang}")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-step", "0")
    moves = []
    for step in range(1, 7):
        page.get_by_test_id("forward").click()
        # the step on screen, not the move line: the line still holds the last step's words
        # until the new step's answer is drawn
        expect(replay).to_have_attribute("data-step", str(step))
        moves.append(page.get_by_test_id("move").inner_text())
    assert not any(re.search(r"moved\.|の一手。", move) for move in moves), moves
    assert any(move.startswith(said) for move in moves), moves
