"""Bots and hints work from every view the table can produce: after undos (whose log entry
is the table's own, with no game version), after a rematch and after a restart. The real
search (a few iterations, in this process) chooses, so the sampler reads each view."""

from __future__ import annotations

import concurrent.futures
import random
import time

import pytest

from companion import games
from companion.bots import NoBot, choose
from companion.bots.budget import Budget
from companion.bots.seats import BotSeats, HintOutdated
from companion.config import BotsConfig
from companion.table import Conflict, Table

QUICK = BotsConfig(pause_seconds=0)
GAMES = [("swap5", 2), ("swap5", 4), ("lion-square", 3), ("meow-oracle", 2), ("meow-oracle", 4)]


class SearchHere:
    """The real choice (a few iterations of the search), in this process and at once."""

    def __init__(self, seed: int = 0):
        self.seed = seed

    def think(self, game_id, view, *, level, budget):
        future = concurrent.futures.Future()
        self.seed += 1
        try:
            future.set_result(choose(games.get(game_id), view, budget=Budget.iterations(3), seed=self.seed, level=level))
        except Exception as error:  # noqa: BLE001 - handed on as the worker hands it on
            future.set_exception(error)
        return future

    def close(self):
        pass


def test_a_hint_after_an_undo_is_one_of_the_seats_actions(tmp_path):
    table = Table(tmp_path)
    bots = BotSeats(table, tmp_path, QUICK, thinker=SearchHere())
    try:
        table.start_game("swap5", 2, seed=2)
        view = table.view(0)
        table.act(0, view["actions"][0], view["version"])
        table.undo()
        assert table.view(0)["log"][-1]["kind"] == "undo"
        assert bots.hint(0) in table.view(0)["actions"]
    finally:
        bots.stop()
        table.close()


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_bots_play_to_the_end_while_the_host_undoes_at_random_moments(tmp_path, game_id, players):
    chance = random.Random(f"{game_id}-{players}")
    table = Table(tmp_path)
    # Bots only: each undo takes back one bot move, and the bots hold still a moment after it.
    bots = BotSeats(table, tmp_path, QUICK, thinker=SearchHere(), undo_pause_seconds=0.2)
    try:
        for played in range(2):  # the second game is a rematch of the first
            if played:
                table.rematch()
            else:
                table.start_game(game_id, players, seed=chance.randrange(1000))
                for seat in range(players):
                    bots.seat(seat, chance.choice(["easy", "normal", "strong"]))
                bots.start()
            undos = 0
            deadline = time.monotonic() + 120
            version = table.version
            while True:
                assert time.monotonic() < deadline, f"the bots stopped after {undos} undos"
                over = table.view(None)["over"]
                if over and undos:
                    break
                if not over:
                    version = table.wait(version, timeout=1.0)
                    if undos >= 12 or chance.random() >= 0.15:
                        continue
                # The host undoes at a random moment, or takes back the last move of a game the
                # bots finished before any random moment came (fast bots can play a whole game
                # of SWAP 5 between two of this loop's turns): either way the bots play on.
                try:
                    table.undo()
                except Conflict:  # nothing to undo yet
                    continue
                undos += 1
                seat = next(iter(table.view(None)["to_act"]), None)
                if seat is not None and not table.view(None)["over"]:
                    view = table.view(seat)
                    if view["actions"]:  # a hint from a log that ends with the undo
                        try:
                            hinted = bots.hint(seat)
                        except NoBot:  # the bot on that seat moved meanwhile: nothing left to hint
                            continue
                        except HintOutdated:  # it moved while the hint was thought: refused, never stale
                            continue
                        assert hinted in view["actions"] or table.version != view["version"]
    finally:
        bots.stop()
        table.close()


def test_after_a_restart_with_an_undo_in_the_log_the_bot_moves(tmp_path):
    table = Table(tmp_path)
    table.start_game("swap5", 2, seed=3)
    bots = BotSeats(table, tmp_path, QUICK, thinker=SearchHere())
    bots.seat(1, "normal")
    view = table.view(0)
    table.act(0, view["actions"][0], view["version"])
    table.undo()
    table.act(0, table.view(0)["actions"][0], table.version)
    bots.stop()
    table.close()

    table = Table(tmp_path)  # the log, undo entry included, comes back from SQLite
    bots = BotSeats(table, tmp_path, QUICK, thinker=SearchHere())
    bots.start()
    try:
        deadline = time.monotonic() + 30
        while len(table.action_log()) < 3:
            assert time.monotonic() < deadline, "the bot did not move after the restart"
            table.wait(table.version, timeout=0.5)
        assert table.action_log()[-1]["seat"] == 1
    finally:
        bots.stop()
        table.close()
