"""A fifth game, tried (issue 34, point 2): a toy game registered here, in the tests only, is
offered everywhere a game is: the start form, the panel, the records, the statistics, the
exports, the bots and the hints. What the core knows of a game comes from the game object
(``docs/adding-a-game.md``), so nothing in the core may miss a game it was never told of (the
``KeyError``s of ``bots/greedy.py`` and ``records/exports.py`` before the games had homes).

High Card, the toy: each seat is dealt two of six numbered cards, the rest lie face down;
in turn each plays a card face up, and once every hand is empty the highest total wins.
Its hidden places (the other hands, the face-down pile) are declared once (``_hidden``), so
the contract's ``scramble_hidden`` and ``resample`` work for it as for the real games.
"""

from __future__ import annotations

import concurrent.futures
import csv
import io
import json
import re
from urllib.parse import unquote

import pytest

from companion import games
from companion.bots import LEVELS, Budget, choose
from companion.bots.seats import BotSeats
from companion.config import BotsConfig, load_config
from companion.games.base import UNSEEN, Box, Game, Hidden, Place, seat_list
from companion.games.knowledge import BotKnowledge
from companion.games.rng import Rng
from companion.table import Table
from hardware import create_panel
from web import create_app

DECK = tuple(f"card-{n}" for n in range(1, 7))
HAND = 2
NUMBER = {card: int(card.split("-")[1]) for card in DECK}
TOY = "high-card"
CSRF = {"X-Requested-With": "companion"}


class HighCard(Game):
    id = TOY
    title = {"en": "High Card", "ja": "ハイカード"}
    box = Box(TOY, "High Card (ハイカード)")
    bot_module = __name__  # this module's BOT: the defaults, which know nothing of the game
    min_players = 2
    max_players = 3
    action_fields = {"play": ("card",)}

    def _setup(self, state, rng):
        deck = list(DECK)
        rng.shuffle(deck)
        players = state["players"]
        state.update(turn=0, hands=[sorted(deck[seat * HAND:(seat + 1) * HAND]) for seat in range(players)],
                     played=[[] for _ in range(players)], pile=deck[players * HAND:])

    def _to_act(self, state):
        return [state["turn"]]

    def _legal_actions(self, state, seat):
        return [{"type": "play", "card": card} for card in state["hands"][seat]]

    def _apply(self, state, seat, action, rng):
        state["hands"] = [list(hand) for hand in state["hands"]]
        state["played"] = [list(cards) for cards in state["played"]]
        state["hands"][seat].remove(action["card"])
        state["played"][seat].append(action["card"])
        self.log(state, f"{{s{seat}}} plays {action['card']}.", f"{{s{seat}}}が{action['card']}を出しました。")
        state["turn"] = (seat + 1) % state["players"]
        if not any(state["hands"]):
            totals = [sum(NUMBER[card] for card in cards) for cards in state["played"]]
            winners = [seat for seat, total in enumerate(totals) if total == max(totals)]
            en, ja = seat_list(winners)
            self.finish(state, {"winners": winners, "scores": {str(seat): total for seat, total in enumerate(totals)},
                                "summary": {"en": f"{en} wins.", "ja": f"{ja}の勝ちです。"}})

    def _explain(self, state, seat, action):
        return ("play a card from your hand", "手札のカードを出してください")

    def _public_view(self, state):
        return {"turn": state["turn"], "played": state["played"], "hand_sizes": [len(hand) for hand in state["hands"]],
                "pile": len(state["pile"])}

    def _private_view(self, state, seat):
        return {"hand": state["hands"][seat]}

    def start_player(self, state):
        return 0

    def _components(self, state):
        return [card for hand in state["hands"] for card in hand] + [c for cards in state["played"] for c in cards] \
            + state["pile"]

    def _hidden(self, state, seat):
        hands = [Place(("hands", other), order=str) for other in range(state["players"]) if other != seat]
        return [Hidden((*hands, Place(("pile",))), cards=DECK)]

    def _restore(self, state, view, rng):
        public, me = view["public"], view["seat"]
        state.update(turn=public["turn"], played=[list(cards) for cards in public["played"]], pile=[UNSEEN] * public["pile"],
                     hands=[list(view["private"]["hand"]) if seat == me else [UNSEEN] * size
                            for seat, size in enumerate(public["hand_sizes"])])


GAME = HighCard()
BOT = BotKnowledge()


class InProcess:
    """A bot thinker choosing in this process (the worker process would not know the toy)."""

    def think(self, game_id, view, *, level, budget):
        future = concurrent.futures.Future()
        future.set_result(choose(games.get(game_id), view, budget=Budget.iterations(30), seed=1, level=level))
        return future

    def close(self):
        pass


@pytest.fixture
def toy():
    games.register(TOY, __name__)
    yield games.get(TOY)
    games.unregister(TOY)


@pytest.fixture
def table(toy, tmp_path):
    table = Table(tmp_path / "data")
    yield table
    table.close()


def test_the_toy_keeps_the_contract_its_hidden_places_included(toy):
    """Random plays of the toy: every seat's view of a scrambled and of a resampled state is
    its view of the true one (the same checks the contract test makes of every game)."""
    rng = Rng.from_seed(5)
    for seed in range(20):
        state = toy.setup(2 + seed % 2, seed)
        while not toy.is_over(state):
            for seat in [None, *range(state["players"])]:
                view = toy.view(state, seat)
                assert toy.view(toy.scramble_hidden(state, seat, seed), seat) == view
                if seat is not None:
                    assert toy.view(toy.resample(view, rng), seat) == view
            seat = toy.to_act(state)[0]
            state = toy.apply(state, seat, toy.legal_actions(state, seat)[rng.randbelow(len(toy.legal_actions(state, seat)))])


def test_the_toy_is_offered_everywhere_a_game_is(toy, table, tmp_path):
    bots = BotSeats(table, tmp_path, BotsConfig(pause_seconds=0), thinker=InProcess())
    app = create_app(table, bots=bots, keepalive_seconds=0.2, stream_seconds=2.0)
    phone = app.test_client()
    try:
        # The start form offers it, with bots.
        offered = {game["id"]: game for game in phone.get("/api/table").get_json()["offered_games"]}
        assert offered[TOY]["title"] == HighCard.title and offered[TOY]["player_counts"] == [2, 3]
        assert TOY in app.extensions["companion"].table.offered_games
        page = phone.get("/host?lang=en").get_data(as_text=True)
        assert TOY in json.loads(re.search(r'id="page-data"[^>]*>(.*?)</script>', page, re.S).group(1))["bot_games"]
        started = phone.post("/api/game", json={"game": TOY, "players": 2, "seed": 3}, headers=CSRF)
        assert started.status_code == 200 and "host_token" in started.get_json(), started.get_json()
        sent = CSRF  # the phone keeps its seat and host tokens as cookies
        assert phone.post("/api/seats/0/join", json={"name": "Aki"}, headers=sent).status_code == 200, "seat 0"

        # A bot takes seat 2; a hint for seat 1 is one of its actions, and so is every level's choice.
        assert phone.post("/api/seats/1/bot", json={"level": "normal"}, headers=sent).status_code == 200
        hint = phone.get("/api/hint", headers=sent)
        assert hint.status_code == 200, hint.get_json()
        assert hint.get_json()["action"] in table.view(0)["actions"]
        for level in LEVELS:
            assert choose(toy, table.view(0), budget=Budget.iterations(20), seed=2, level=level) in table.view(0)["actions"]

        # Played to the end (the bot's moves chosen by the bot), it is recorded.
        while not table.public()["game"]["over"]:
            seat = table.view(None)["to_act"][0]
            view = table.view(seat)
            action = choose(toy, view, budget=Budget.iterations(20), seed=seat) if seat == 1 else view["actions"][0]
            table.act(seat, action, table.version)
        plays = phone.get(f"/api/plays?game={TOY}").get_json()["plays"]
        assert len(plays) == 1 and plays[0]["title"] == HighCard.title

        # The statistics count it, as its own board game.
        stats = phone.get("/api/stats").get_json()
        assert [entry["game"] for entry in stats["games"]] == [TOY] and stats["h_index"] == 1

        # The exports carry it: the spreadsheet and BG Stats, by its box.
        rows = list(csv.DictReader(io.StringIO(phone.get("/api/plays.csv").get_data(as_text=True).lstrip("\ufeff"))))
        assert {row["game"] for row in rows} == {"High Card"} and len(rows) == 2
        link = phone.get(f"/api/plays/{plays[0]['id']}").get_json()["bgstats_url"]
        payload = json.loads(unquote(link.split("data=", 1)[1]))
        assert payload["game"]["sourceGameId"] == TOY and payload["game"]["name"] == "High Card (ハイカード)"

        # The records page offers it among its games.
        assert "High Card" in phone.get("/records?lang=en").get_data(as_text=True)
    finally:
        bots.stop()
        app.extensions["companion"].events.stop()


def test_the_panel_starts_the_toy_and_shows_its_status(toy, tmp_path):
    """The panel's game list offers it; started there, its status screen (the generic one:
    the panel's own renderers know only the four) says whose turn it is."""
    config = load_config(None, {"hardware": "mock", "data_dir": str(tmp_path / "panel")})
    table = Table(config.data_dir)
    panel = create_panel(config, table, public_url="http://192.168.1.20:8000/")
    panel.start()
    try:
        for label in ("Start a game", "High Card", "2 players", "Yes"):
            press_on(panel, label)
        assert table.game_id == TOY and table.players == 2
        table.join(0, "Aki")
        table.join(1, "Ben")
        assert panel.settle()
        assert panel.text_lines()[0] == "Aki's turn", panel.text_lines()
    finally:
        panel.stop()
        table.close()


def press_on(panel, label: str) -> None:
    """Open the panel's menu if it shows none, move down to the line starting with ``label``
    and press ok."""
    if not any(line.startswith("> ") for line in panel.text_lines()):
        panel.press("ok")
        assert panel.settle()
    for _ in range(40):
        chosen = [line[2:] for line in panel.text_lines() if line.startswith("> ")]
        if chosen and chosen[0].startswith(label):
            panel.press("ok")
            assert panel.settle()
            return
        panel.press("down")
        assert panel.settle()
    raise AssertionError(f"no menu line {label!r} in {panel.text_lines()}")
