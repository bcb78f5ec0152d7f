"""Render every panel screen of docs/panel.md as a PNG, from the real panel code.

    python docs/panel/render.py      (with the project installed: pip install -e .)

Writes ``docs/panel/<name>.png`` (the 128 × 64 frame scaled 4×, one-bit as on the OLED).
Games are played with fixed seeds, so the pictures only change when the panel does.
"""

from __future__ import annotations

import queue
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

from PIL import Image

from companion import games
from companion.bots.seats import BotSeats
from companion.clock import TurnClock
from companion.first_player import draw_first_player
from companion.table import Table
from hardware.display import Display
from hardware import commands, menus
from hardware.menus import BOTS_MENU, GAME_MENU, MAIN_MENU, open_menu
from hardware.pages import ConfirmPage, HomePage, InfoPage, JoinPage
from hardware.panel import Panel
from hardware.screens import Screen, render, stopped_screen

SCALE = 4
NAMES = ["Taro", "Hanako", "Alexandria", "けんた"]


def save(name: str, screen: Screen, size=(128, 64)) -> None:
    image = render(screen, *size).resize((size[0] * SCALE, size[1] * SCALE), Image.NEAREST)
    image.save(HERE / f"{name}.png", optimize=True)
    print(f"docs/panel/{name}.png")


def play(table: Table, game_id: str, players: int, moves: int, seed: int = 1, options=None) -> None:
    table.start_game(game_id, players, seed=seed, options=options)
    for seat in range(players):
        if table.names()[seat] is None:
            table.join(seat, NAMES[seat])
    chooser = random.Random(seed)
    for _ in range(moves):
        if table.public()["game"]["over"]:
            return
        seat = chooser.choice(table.public()["view"]["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)


def shots(language: str = "en"):
    """Every screen docs/panel.md shows, as ``(name, screen, size)``, in ``language`` (the
    panel's legibility test measures them all, in both languages)."""
    with tempfile.TemporaryDirectory() as folder:
        table = Table(folder)
        panel = Panel(table, Display(None), None, queue.Queue(), public_url="http://192.168.1.20:8000/",
                      lan_address="192.168.1.20", language=language)

        def shot(name, page, size=(128, 64)):
            panel.public = table.public()
            panel.width, panel.height = size
            screen = page.screen(panel)
            panel.width, panel.height = 128, 64
            return name, screen, size

        yield shot("idle", HomePage())
        yield shot("idle-32", HomePage(), (128, 32))
        yield shot("menu", open_menu(panel, MAIN_MENU))
        yield shot("choose-game", menus.game_list(panel))
        pig_house = next(game for game in table.public()["offered_games"] if game["id"] == "pig-house")
        yield shot("players", menus.player_count(panel, pig_house))
        yield shot("confirm-start", ConfirmPage("Start", "Start Pig House (tracker) for 3 players?", lambda: None))
        yield shot("ip-address", InfoPage("IP address", "IP 192.168.1.20\nhttp://192.168.1.20:8000/"))
        for game_id in games.ids():
            game = games.get(game_id)
            play(table, game_id, min(max(game.min_players, 3), game.max_players) if game_id != "swap5" else 2, 12)
            yield shot(f"status-{game_id}", HomePage())
        play(table, "lion-square", 4, 12)
        yield shot("status-four-players", HomePage())
        play(table, "score-pad", 3, 0, options={"name": "Catan", "wins": "highest"})
        for action in ({"type": "add", "seat": 0, "points": 10}, {"type": "add", "seat": 1, "points": 5},
                       {"type": "next-round"}, {"type": "add", "seat": 2, "points": 1}, {"type": "open", "round": 0}):
            table.act(0, action, table.version)
        yield shot("status-score-pad-correcting", HomePage())
        yield shot("game-menu-score-pad", open_menu(panel, GAME_MENU))
        panel.public = table.public()
        yield shot("score-pad-points", menus.step_page(panel, 1))
        play(table, "pig-house", 3, 0, seed=5)
        table.act(0, {"type": "pig_action", "kind": "tile"}, table.version)
        while table.public()["view"]["public"]["step"] != "roll":
            seat = table.public()["view"]["to_act"][0]
            table.act(seat, table.view(seat)["actions"][0], table.version)
        table.act(table.public()["view"]["to_act"][0], {"type": "roll"}, table.version)
        yield shot("status-pig-house-die", HomePage())
        yield shot("game-menu-pig-house", open_menu(panel, GAME_MENU))
        while table.public()["view"]["public"]["step"] != "attack":
            seat = table.public()["view"]["to_act"][0]
            table.act(seat, table.view(seat)["actions"][0], table.version)
        yield shot("status-pig-house-attack", HomePage())
        yield shot("game-menu-pig-house-attack", open_menu(panel, GAME_MENU))
        yield shot("status-pig-house-attack-32", HomePage(), (128, 32))
        done = next(a for a in menus.panel_actions(panel) if a.action["type"] == "attack_done")
        commands.choose_action(panel, done, table.version)
        yield shot("confirm-attack-done", panel.page)
        panel.home()
        yield shot("join-in-game", JoinPage())
        yield shot("confirm-undo", ConfirmPage("Undo", "Take back the last move: Taro rolls 2 pigs.", lambda: None,
                                         default=False))
        yield shot("refused", InfoPage("Cannot undo", "there is nothing to undo in this game", "error"))
        play(table, "swap5", 2, 10_000, seed=3)
        yield shot("game-over", HomePage())
        yield shot("game-menu-over", open_menu(panel, GAME_MENU))
        play(table, "lion-square-ledger", 3, 0)
        for seat in range(3):
            table.act(seat, {"type": "loss", "loss": 3}, table.version)
        yield shot("status-ledger-round-over", HomePage())
        table.act(0, {"type": "next-round"}, table.version)
        for seat in range(3):
            table.act(seat, {"type": "loss", "loss": 20}, table.version)
        yield shot("game-over-lions", HomePage())
        table._store.problem = "the companion cannot save its data (read-only file system)"
        yield shot("cannot-save", HomePage())
        table._store.problem = None
        panel.language = "ja"
        play(table, "meow-oracle", 4, 5, seed=2)
        yield shot("status-meow-oracle-ja", HomePage())
        panel.language = language
        # Bots (never started here: nobody thinks or moves).
        panel.bots = bots = BotSeats(table, folder)
        table.free_all_seats()
        table.start_game("meow-oracle", 3, seed=2)
        table.join(0, NAMES[0])
        bots.seat(2, "normal")
        yield shot("game-menu-bots", open_menu(panel, GAME_MENU))
        yield shot("bots", open_menu(panel, BOTS_MENU))
        yield shot("bot-level", menus.bot_levels(panel, 1))
        panel.public = table.public()
        commands.ask_remove_bot(panel, 2, "normal")
        yield shot("confirm-remove-bot", panel.page)
        table.free_all_seats()
        table.start_game("swap5", 2, seed=1)
        table.join(1, NAMES[1])
        yield shot("status-empty-seat", HomePage())
        yield shot("game-menu-empty-seat", open_menu(panel, GAME_MENU))
        table.join(0, NAMES[0])
        yield shot("game-menu-who-starts", open_menu(panel, GAME_MENU))
        draw_first_player(table, randbelow=lambda n: 1)
        yield shot("status-first-player", HomePage())
        bots.stop()
        # The turn clock, on a time the pictures set (42 s into Taro's turn).
        now = [0.0]
        panel.turn_clock = clock = TurnClock(table, clock=lambda: now[0])
        now[0] = 42.0
        for clock_language, suffix in ((language, ""), ("ja", "-ja")):  # docs/panel.md shows both
            panel.language = clock_language
            clock.set_target(None)
            yield shot(f"status-clock{suffix}", HomePage())
            clock.pause()
            yield shot(f"status-clock-paused{suffix}", HomePage())
            clock.resume()
            clock.set_target(30)
            yield shot(f"status-clock-over{suffix}", HomePage())
        panel.language = language
        yield "stopped", stopped_screen(language, 128), (128, 64)
        table.close()


def main() -> int:
    for name, screen, size in shots():
        save(name, screen, size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
