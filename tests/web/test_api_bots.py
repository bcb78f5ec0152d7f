"""POST /api/seats/<n>/bot and GET /api/hint: the host seats bots, phones ask for hints,
and refusals say why in both languages. One game is played to the end over HTTP by two
bots in the real worker process, with a person's phone in the third seat."""

from __future__ import annotations

import concurrent.futures
import time

import pytest

from companion.bots.budget import Budget
from companion.bots.seats import BotSeats, WorkerThinker
from companion.config import BotsConfig
from thinkers import FirstAction
from web import create_app


def bot_app(table, data_dir, thinker):
    bots = BotSeats(table, data_dir, BotsConfig(pause_seconds=0), thinker=thinker)
    app = create_app(table, bots=bots, keepalive_seconds=0.2, stream_seconds=2.0)
    return app, bots


@pytest.fixture
def bots_api(api, table, tmp_path):
    """The api fixture's client, on an app that has bots (not started: nobody moves)."""
    api.thinker = FirstAction()
    app, bots = bot_app(table, tmp_path, api.thinker)
    api.client = app.test_client()
    api.bots = bots
    yield api
    bots.stop()
    app.extensions["companion"].events.stop()


def start(api, game, players):
    answer = api.post("/api/game", {"game": game, "players": players, "seed": 3})
    assert answer.status_code == 200, answer.json
    return answer.json["host_token"]


def test_the_host_seats_a_bot_on_a_free_seat(bots_api):
    host = start(bots_api, "swap5", 2)
    answer = bots_api.post("/api/seats/1/bot", {"level": "strong"}, token=host)
    assert answer.status_code == 200
    assert answer.json["seats"][1] == {"seat": 1, "name": "Bot 2 (Strong)", "taken": True, "bot": "strong", "trouble": None}
    assert bots_api.bots.levels() == {1: "strong"}
    freed = bots_api.post("/api/seats/1/free", token=host)
    assert freed.status_code == 200 and bots_api.bots.levels() == {}


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"level": "hard"}, 400, "the level must be one of easy, normal, strong"),
    ({}, 400, "lacks the field level"),
    ({"level": "easy", "name": "X"}, 400, "unknown field"),
])
def test_a_bad_bot_request_is_refused(bots_api, body, status, words):
    host = start(bots_api, "swap5", 2)
    answer = bots_api.post("/api/seats/0/bot", body, token=host)
    assert answer.status_code == status and words in answer.json["error"] and answer.json["error_ja"]
    assert bots_api.bots.levels() == {}


def test_only_the_host_seats_bots_and_only_on_free_seats(bots_api):
    host = start(bots_api, "swap5", 2)
    player = bots_api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
    assert bots_api.post("/api/seats/1/bot", {"level": "easy"}, token=player).status_code == 403
    taken = bots_api.post("/api/seats/0/bot", {"level": "easy"}, token=host)
    assert taken.status_code == 409 and "taken" in taken.json["error"]
    assert bots_api.post("/api/seats/5/bot", {"level": "easy"}, token=host).status_code == 404
    assert bots_api.bots.levels() == {}


def test_trackers_have_no_bots_and_no_hints(bots_api):
    host = start(bots_api, "lion-square-ledger", 3)
    answer = bots_api.post("/api/seats/1/bot", {"level": "easy"}, token=host)
    assert answer.status_code == 409 and "no bots" in answer.json["error"] and answer.json["error_ja"]
    player = bots_api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
    hint = bots_api.get("/api/hint", token=player)
    assert hint.status_code == 409 and "no bots or hints" in hint.json["error"] and hint.json["error_ja"]


def test_a_hint_is_one_of_the_callers_actions_from_its_own_view(bots_api, table):
    start(bots_api, "swap5", 2)
    aki = bots_api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
    ben = bots_api.post("/api/seats/1/join", {"name": "Ben"}).json["token"]
    view = bots_api.get("/api/view", token=aki).json
    answer = bots_api.get("/api/hint?seconds=0.3", token=aki)
    assert answer.status_code == 200 and answer.json == {"action": view["actions"][0]}
    # Exactly the caller's view (without what the web adds: is_host, whether the host is here, the turn clock):
    # nothing else reaches the bot.
    page_own = {key: value for key, value in view.items() if key not in ("is_host", "clock")}
    page_own["host"] = {key: value for key, value in view["host"].items() if key != "present"}
    assert bots_api.thinker.views == [page_own]
    not_yours = bots_api.get("/api/hint", token=ben)
    assert not_yours.status_code == 409 and "nothing to hint" in not_yours.json["error"] and not_yours.json["error_ja"]
    bots_api.forget_cookies()
    assert bots_api.get("/api/hint").status_code == 401
    for seconds in ("0", "9", "soon", "nan"):
        bad = bots_api.get(f"/api/hint?seconds={seconds}", token=aki)
        assert bad.status_code == 400 and "from 0.1 to 5.0" in bad.json["error"] and bad.json["error_ja"]
    assert table.action_log() == []


def test_without_bots_the_routes_say_so(api):
    host = start(api, "swap5", 2)
    answer = api.post("/api/seats/1/bot", {"level": "easy"}, token=host)
    assert answer.status_code == 404 and "without bots" in answer.json["error"]


def test_two_bots_in_the_worker_process_and_a_phone_play_meow_oracle_to_the_end(api, table, tmp_path):
    app, bots = bot_app(table, tmp_path, WorkerThinker(Budget.iterations(3)))
    api.client = app.test_client()
    bots.start()
    try:
        host = start(api, "meow-oracle", 3)
        assert api.post("/api/seats/1/bot", {"level": "easy"}, token=host).status_code == 200
        assert api.post("/api/seats/2/bot", {"level": "normal"}, token=host).status_code == 200
        phone = api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
        deadline = time.monotonic() + 120
        while not (view := api.get("/api/view", token=phone).json)["over"]:
            assert time.monotonic() < deadline, "the game did not end in time"
            if view["actions"]:
                hint = api.get("/api/hint?seconds=0.1", token=phone).json["action"]
                assert hint in view["actions"]
                moved = api.post("/api/actions", {"action": hint, "version": view["version"]}, token=phone)
                assert moved.status_code == 200, moved.json
            else:  # the bots' turns: wait for the table to change
                table.wait(view["version"], deadline - time.monotonic())
    finally:
        bots.stop()
        app.extensions["companion"].events.stop()
    seats_that_moved = {entry["seat"] for entry in table.action_log()}
    assert seats_that_moved == {0, 1, 2}
    assert view["result"] is not None


# ---------------------------------------------------------------- bots in the new-game request


def test_a_new_game_seats_the_bots_it_asks_for(bots_api):
    answer = bots_api.post("/api/game", {"game": "meow-oracle", "players": 3, "seed": 3,
                                         "bots": [{"seat": 2, "level": "normal"}, {"seat": 1, "level": "easy"}]})
    assert answer.status_code == 200 and "bots_not_seated" not in answer.json
    assert [seat["name"] for seat in answer.json["seats"]] == [None, "Bot 2 (Easy)", "Bot 3 (Normal)"]
    assert bots_api.bots.levels() == {1: "easy", 2: "normal"}


@pytest.mark.parametrize(("bots", "words"), [
    ({"2": "normal"}, "bots must be a list"),
    ([{"seat": 2}], "bots must be a list"),
    ([{"seat": 2, "level": "normal", "name": "X"}], "bots must be a list"),
    ([{"seat": 2, "level": "hard"}], "the level must be one of easy, normal, strong"),
    ([{"seat": "2", "level": "easy"}], "must be a seat number"),
    ([{"seat": True, "level": "easy"}], "must be a seat number"),
    ([{"seat": -1, "level": "easy"}], "must be a seat number"),
    ([{"seat": 3, "level": "easy"}], "seat 4 is not part of a game for 3 players"),
    ([{"seat": 1, "level": "easy"}, {"seat": 1, "level": "strong"}], "seat 2 is given two bots"),
])
def test_a_new_game_with_a_bad_bot_request_does_not_start(bots_api, table, bots, words):
    host = start(bots_api, "swap5", 2)
    before = table.public()
    answer = bots_api.post("/api/game", {"game": "meow-oracle", "players": 3, "bots": bots}, token=host)
    assert answer.status_code == 400 and words in answer.json["error"] and answer.json["error_ja"], answer.json
    assert table.public() == before and bots_api.bots.levels() == {}


@pytest.mark.parametrize("seed", ["12a", 2**63, -1])
def test_a_new_game_with_bots_and_a_bad_seed_claims_nothing_and_seats_no_bot(bots_api, table, seed):
    """The engine refuses the seed after the bots were checked: nothing of either is kept, and
    nobody becomes host of the table that had none."""
    answer = bots_api.post("/api/game", {"game": "meow-oracle", "players": 3, "seed": seed,
                                         "bots": [{"seat": 1, "level": "easy"}]})
    assert answer.status_code == 400 and "the seed must be a whole number from 0 to 9223372036854775807" in answer.json["error"]
    assert "シード" in answer.json["error_ja"], answer.json
    assert table.game_id is None and not table.has_host and bots_api.bots.levels() == {}


def test_a_new_game_does_not_put_a_bot_on_a_seat_a_person_keeps(bots_api, table):
    host = start(bots_api, "swap5", 2)
    bots_api.post("/api/seats/1/join", {"name": "Aki"})
    before = table.public()
    answer = bots_api.post("/api/game", {"game": "meow-oracle", "players": 3, "bots": [{"seat": 1, "level": "easy"}]},
                           token=host)
    assert answer.status_code == 409 and "seat 2 is taken by Aki" in answer.json["error"] and answer.json["error_ja"]
    assert table.public() == before and bots_api.bots.levels() == {}


def test_a_tracker_does_not_start_with_bots(bots_api, table):
    answer = bots_api.post("/api/game", {"game": "pig-house", "players": 3, "bots": [{"seat": 1, "level": "easy"}]})
    assert answer.status_code == 409 and "no bots" in answer.json["error"] and answer.json["error_ja"]
    assert table.game_id is None and not table.has_host


def test_a_new_game_with_bots_on_a_companion_without_bots_does_not_start(api, table):
    answer = api.post("/api/game", {"game": "swap5", "players": 2, "bots": [{"seat": 1, "level": "easy"}]})
    assert answer.status_code == 404 and "without bots" in answer.json["error"]
    assert table.game_id is None and not table.has_host
    assert api.post("/api/game", {"game": "swap5", "players": 2, "bots": []}).status_code == 200


def test_a_bot_that_cannot_be_saved_is_reported_and_its_seat_left_free(bots_api, table):
    bots_api.bots._db.close()  # bots.sqlite refuses every write from now on
    answer = bots_api.post("/api/game", {"game": "swap5", "players": 2, "bots": [{"seat": 1, "level": "easy"}]})
    assert answer.status_code == 200 and table.game_id == "swap5"
    [refusal] = answer.json["bots_not_seated"]
    assert refusal["seat"] == 1 and refusal["error"] and refusal["error_ja"]
    assert answer.json["seats"][1]["taken"] is False


def test_a_bot_that_cannot_be_saved_is_refused_and_its_seat_left_free(bots_api, table):
    host = start(bots_api, "swap5", 2)
    bots_api.bots._db.close()  # bots.sqlite refuses every write from now on
    answer = bots_api.post("/api/seats/1/bot", {"level": "easy"}, token=host)
    assert answer.status_code == 503 and "nothing was changed" in answer.json["error"] and answer.json["error_ja"]
    assert table.public()["seats"][1]["taken"] is False


def test_a_hint_whose_phone_went_away_is_dropped(api, table, tmp_path):
    class NeverTaken(FirstAction):
        """Questions wait in line (the worker is busy elsewhere) until the test looks."""

        def think(self, game_id, view, *, level, budget):
            self.views.append(concurrent.futures.Future())
            return self.views[-1]

    hinter = NeverTaken()
    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=FirstAction(), hinter=hinter)
    app = create_app(table, bots=bots, keepalive_seconds=0.2, stream_seconds=2.0)
    try:
        api.client = app.test_client()
        start(api, "swap5", 2)
        phone = api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
        # waitress tells a request that its phone has closed the connection (see companion/serve.py)
        gone = api.client.get("/api/hint?seconds=5", headers={"Authorization": f"Bearer {phone}"},
                              environ_base={"waitress.client_disconnected": lambda: True})
        assert gone.status_code == 503
        [question] = hinter.views
        assert question.cancelled() and bots.hints_in_flight == []  # dropped: the worker never takes it
    finally:
        bots.stop()
        app.extensions["companion"].events.stop()


def test_a_hint_whose_worker_died_asks_to_try_again(api, table, tmp_path):
    from companion.bots.seats import WorkerDied

    class Dies(FirstAction):
        def think(self, game_id, view, *, level, budget):
            future = concurrent.futures.Future()
            future.set_exception(WorkerDied("the hint worker ended while choosing (exit code -9)"))
            return future

    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=FirstAction(), hinter=Dies())
    app = create_app(table, bots=bots, keepalive_seconds=0.2, stream_seconds=2.0)
    try:
        api.client = app.test_client()
        start(api, "swap5", 2)
        phone = api.post("/api/seats/0/join", {"name": "Aki"}).json["token"]
        answer = api.get("/api/hint", token=phone)
        assert answer.status_code == 503 and "try again" in answer.json["error"] and answer.json["error_ja"]
    finally:
        bots.stop()
        app.extensions["companion"].events.stop()
