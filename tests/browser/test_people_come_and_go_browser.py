"""People come and go (issue 33), in real Chromium: the host's phone closed, hosting passes to a
person still at the table with a notice on every phone, in English and Japanese; a bot is never
offered as host, and refused when asked for; undo beside bots takes back the asker's move and the
bots' replies in one confirmation, and the bots do not play it again at once; *Play again* is
said on every phone.

Presence runs on a clock the test moves (``companion.presence``): nobody waits a minute. Every
wait is on an event or on the page's state (tests/waiting.py), never a sleep.
"""

from __future__ import annotations

import warnings
from contextlib import contextmanager

import pytest

from browser_support import chromium_missing, served, shows_current
from thinkers import FirstAction
from waiting import poll_until, until_the_table

_missing = chromium_missing()
if _missing:
    warnings.warn(f"BROWSER TESTS SKIPPED: {_missing}", stacklevel=1)
    pytest.skip(f"BROWSER TESTS SKIPPED: {_missing}", allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from companion.bots.seats import BotSeats  # noqa: E402
from companion.config import BotsConfig  # noqa: E402
from companion.presence import GONE_SECONDS  # noqa: E402
from companion.table import Table  # noqa: E402
from web import create_app  # noqa: E402


class Clock:
    """Presence's clock, moved by the test."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@contextmanager
def serving(data_dir, bots_factory=None):
    """The real server (waitress) around a table whose presence runs on a test clock; yields
    ``(url, table, app, clock)``. ``bots_factory(table)`` makes the table's BotSeats (started here)."""
    clock = Clock()
    table = Table(data_dir)
    bots = bots_factory(table) if bots_factory else None
    app = create_app(table, bots=bots, keepalive_seconds=5.0, stream_seconds=120.0, clock=clock)
    try:
        with served(app) as server:
            if bots:
                bots.start()
            yield f"http://127.0.0.1:{server.port}", table, app, clock
    finally:
        if bots:
            bots.stop()
        table.close()


def four_at_the_table(url, table, new_phone):
    """Aki hosts on seat 0, Bo on seat 1, Chika (her phone in Japanese) on seat 2, a bot on seat 3."""
    table.start_game("lion-square", 4, seed=1, claim_host=True)
    tokens = {name: table.join(seat, name) for seat, name in enumerate(["Aki", "Bo", "Chika"])}
    table.join(3, "Bot 4 (Normal)", bot="normal")
    table.hand_over_host(0)
    phones = {}
    for name, token in tokens.items():
        lang = "?lang=ja" if name == "Chika" else ""
        phones[name] = new_phone(locale="ja-JP") if name == "Chika" else new_phone()
        phones[name].goto(f"{url}/R/{token}")
        phones[name].goto(f"{url}/play{lang}")
        shows_current(phones[name], table)
    return tokens, phones


def test_the_hosts_phone_closed_hosting_passes_to_a_person_here_with_a_notice_on_every_phone(tmp_path, browser, new_phone):
    with serving(tmp_path / "data") as (url, table, app, clock):
        tokens, phones = four_at_the_table(url, table, new_phone)
        events = app.extensions["companion"].events
        # The server's count of streams announces nothing: looked at every 10 ms.
        poll_until(lambda: events.open_streams == 3, what="three streams")
        clock.now += GONE_SECONDS  # past the minute every phone has after a start
        phones["Aki"].close()  # Aki goes home
        poll_until(lambda: events.open_streams == 2, what="Aki's stream to end")
        assert table.is_host(tokens["Aki"]), "a minute to come back"
        clock.now += GONE_SECONDS

        expect(phones["Bo"].locator("#status")).to_have_text(
            "You are the host now: the host tools are at the bottom of the page.")
        expect(phones["Bo"].locator("#host-link")).to_be_visible()
        expect(phones["Chika"].locator("#status")).to_have_text("Boさんがホストになりました。")
        expect(phones["Chika"].locator("#host-link")).to_be_hidden()
        assert table.is_host(tokens["Bo"]) and not table.is_host(tokens["Aki"]) and table.host_seat == 1

        phones["Bo"].goto(f"{url}/host")  # the tools work for Bo
        expect(phones["Bo"].locator("h1")).to_have_text("Host tools")


def test_a_bot_is_never_offered_as_host_and_refused_when_asked_for(tmp_path, browser, new_phone):
    with serving(tmp_path / "data") as (url, table, app, clock):
        tokens, phones = four_at_the_table(url, table, new_phone)
        aki = phones["Aki"]
        aki.goto(f"{url}/host")
        rows = aki.locator("#seats li")
        expect(rows).to_have_count(4)
        expect(rows.nth(1).get_by_role("button", name="Make host")).to_have_count(1)
        expect(rows.nth(3)).to_contain_text("Bot")
        expect(rows.nth(3).get_by_role("button", name="Make host")).to_have_count(0)

        version = table.version
        answer = aki.evaluate("""async () => {
            const response = await fetch("/api/host/hand-over", {method: "POST", credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-Requested-With": "companion"},
                body: JSON.stringify({seat: 3})});
            return {status: response.status, body: await response.json()};
        }""")
        assert answer["status"] == 409
        assert answer["body"]["error"] == "seat 4 is a bot: hosting can only go to a person"
        assert answer["body"]["error_ja"] == "4番の席はボットです。ホストは人にしか譲れません"
        assert table.version == version and table.is_host(tokens["Aki"])


def quick_bots(table):
    return BotSeats(table, table.data_dir, BotsConfig(pause_seconds=0), thinker=FirstAction())


def test_undo_after_two_bots_answered_takes_one_confirmation_and_the_bots_do_not_play_again_at_once(
        tmp_path, browser, new_phone):
    with serving(tmp_path / "data", quick_bots) as (url, table, app, clock):
        bots = app.extensions["companion"].bots
        table.start_game("swap5", 4, seed=1, claim_host=True)
        aki, bo = table.join(0, "Aki"), table.join(3, "Bo")
        table.hand_over_host(0)
        for seat in (1, 2):
            bots.seat(seat, "normal")
        assert table.view(None)["to_act"] == [0], "Aki starts with this seed"
        phones = {"Aki": new_phone(), "Bo": new_phone(locale="ja-JP")}
        phones["Aki"].goto(f"{url}/R/{aki}")
        phones["Bo"].goto(f"{url}/R/{bo}")
        phones["Bo"].goto(f"{url}/play?lang=ja")
        before = len(table.action_log())
        table.act(0, table.view(0)["actions"][0], table.version)  # Aki's misplay; the two bots answer
        until_the_table(table, lambda: len(table.action_log()) == before + 3 and table.view(None)["to_act"] == [3])
        undo = table.undoable()
        assert undo["moves"] == 3 and undo["seat"] == 0
        aki_said = undo["move"]["en"].replace("{s0}", "Aki").rstrip(".")

        phones["Aki"].goto(f"{url}/host")
        questions = []
        phones["Aki"].on("dialog", lambda dialog: (questions.append(dialog.message), dialog.accept()))
        phones["Aki"].locator("#undo").click()
        expect(phones["Aki"].locator("#status")).to_have_text("The last move was taken back.")
        assert questions == [f"Take back {aki_said}, with the bots' 2 replies after it?"], "one confirmation"
        assert [a["undone"] for a in table.action_log()][before:] == [True] * 3
        assert table.log(None)[-1]["text"]["en"] == "{s0} took back 3 moves"

        expect(phones["Bo"].get_by_test_id("log")).to_contain_text("Akiさんが3手戻しました")
        phones["Aki"].goto(f"{url}/play")
        shows_current(phones["Aki"], table)
        expect(phones["Aki"].get_by_test_id("turn")).to_have_text("Your turn!")
        expect(phones["Aki"].get_by_test_id("log")).to_contain_text("Aki took back 3 moves")
        assert len(table.action_log()) == before + 3 and table.view(None)["to_act"] == [0], "no bot played again"


def test_when_a_bot_is_awaited_after_an_undo_every_phone_says_the_bots_hold_still(tmp_path, browser, new_phone):
    def patient_bots(table):  # a pause long enough to look at; the unit tests time the real one
        return BotSeats(table, table.data_dir, BotsConfig(pause_seconds=0), thinker=FirstAction(), undo_pause_seconds=600)

    with serving(tmp_path / "data", patient_bots) as (url, table, app, clock):
        table.start_game("swap5", 2, seed=2)  # seat 0 starts: the bot
        aki = table.join(1, "Aki")
        app.extensions["companion"].bots.seat(0, "normal")
        until_the_table(table, lambda: len(table.action_log()) == 1)
        phone = new_phone(locale="ja-JP")
        phone.goto(f"{url}/R/{aki}")
        phone.goto(f"{url}/play?lang=ja")
        table.undo()  # the panel: only the bot had moved, so its move alone; its turn again
        shows_current(phone, table)
        expect(phone.get_by_test_id("bots-paused")).to_have_text("取り消しの後、ボットは少し待ってから指します。")
        assert [a["undone"] for a in table.action_log()] == [True], "the bot holds still"


def test_play_again_is_said_on_every_phone_in_its_language(tmp_path, browser, new_phone):
    with serving(tmp_path / "data") as (url, table, app, clock):
        host_token = table.start_game("swap5", 2, seed=4, claim_host=True)
        aki, bo = table.join(0, "Aki"), table.join(1, "Bo")
        table.hand_over_host(0)
        while not table.view(None)["over"]:  # the last action each time ends this deal quickly
            seat = table.view(None)["to_act"][0]
            table.act(seat, table.view(seat)["actions"][-1], table.version)
        phones = {"Aki": new_phone(), "Bo": new_phone(locale="ja-JP")}
        phones["Aki"].goto(f"{url}/R/{aki}")
        phones["Bo"].goto(f"{url}/R/{bo}")
        phones["Bo"].goto(f"{url}/play?lang=ja")
        for phone in phones.values():
            shows_current(phone, table)
        screen = new_phone(viewport={"width": 1280, "height": 800}, is_mobile=False, has_touch=False)
        screen.goto(f"{url}/table")
        shows_current(screen, table)
        finished = table.view(None)["play_id"]

        phones["Aki"].get_by_test_id("rematch").click()
        expect(phones["Bo"].locator("#status")).to_have_text("新しいゲームが始まりました（SWAP 5）。")
        expect(screen.locator("#status")).to_have_text("A new game has started: SWAP 5.")
        for phone in (*phones.values(), screen):
            shows_current(phone, table)
        assert table.view(None)["play_id"] != finished and not table.view(None)["over"]
        assert host_token and table.is_host(aki)


def test_with_no_host_here_a_seated_person_takes_hosting_in_one_tap(tmp_path, browser, new_phone):
    with serving(tmp_path / "data") as (url, table, app, clock):
        table.start_game("meow-oracle", 2, seed=1)  # started by the panel: nobody hosts
        bo = table.join(1, "Bo")
        phone = new_phone()
        phone.goto(f"{url}/R/{bo}")
        shows_current(phone, table)
        take = phone.get_by_test_id("take-host")
        expect(take).to_have_text("No host here: take hosting")
        expect(phone.locator("#host-link")).to_be_hidden()
        take.click()
        expect(phone.locator("#status")).to_have_text("You are the host now: the host tools are at the bottom of the page.")
        expect(phone.locator("#host-link")).to_be_visible()
        expect(take).to_be_hidden()
        assert table.is_host(bo) and table.host_seat == 1
