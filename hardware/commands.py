"""What the menus' items do: the questions they ask first and the table's methods they call.

Each command is a function of the panel it runs on (``hardware/menus.py`` names them in its
menus, as PiFinder's menu structure names its callbacks). The panel acts only through the
methods the web calls for the phones — ``table.start_game``, ``act``, ``undo``,
``free_seat``, ``first_player``'s draw and rematch, and the bots' ``BotSeats.seat`` — so
buttons and phones never disagree (the turn clock's pause, in ``pages.py``, likewise). A
refusal (someone acted from a phone at the same moment, a full disk) is shown in the table's
own words and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from companion import first_player
from companion.bots import LEVELS as BOT_LEVELS
from companion.games import render_text
from companion.table import StorageError, TableError

from .actions import PanelAction
from .pages import ConfirmPage, InfoPage, Panel, access_point, base_url
from .screens import seat_names
from .words import counted, word


def refusal(panel: Panel, error: Exception) -> str:
    """A refusal in the panel's language (the table's and engines' refusals carry ``ja``),
    its seat placeholders replaced by names."""
    japanese = getattr(error, "ja", None) if panel.language == "ja" else None
    return render_text(japanese or str(error), seat_names(panel.public, panel.language))


def refused(panel: Panel, title: str, error: Exception) -> None:
    """Show why the table refused (``title``: a key of the word list)."""
    panel.push(InfoPage(word(title, panel.language), refusal(panel, error), "error"))


# ------------------------------------------------------------------ starting a game


def confirm_start(panel: Panel, title: str, question: str, then: Callable[[], None]) -> ConfirmPage:
    """The question before a new game: over a game still running it says that game ends,
    and starts on "No", as the phones ask before abandoning one."""
    running = panel.public.get("game")
    if running and not running["over"]:
        question = word("running_game_ends", panel.language, question=question)
        return ConfirmPage(title, question, then, default=False)
    return ConfirmPage(title, question, then)


def ask_start(panel: Panel, game: dict, players: int, options: dict) -> None:
    title = game["title"][panel.language]
    question = word("start_question", panel.language, title=title, players=players)
    panel.push(confirm_start(panel, word("start", panel.language), question,
                             lambda: start(panel, game["id"], players, options)))


def ask_new_game(panel: Panel) -> None:
    """The same game, players and options again (the main menu's "New game")."""
    game = panel.public["game"]
    title = game["title"][panel.language]
    question = word("new_game_question", panel.language, title=title, players=game["players"])
    panel.push(confirm_start(panel, word("new_game", panel.language), question,
                             lambda: start(panel, game["id"], game["players"], dict(game["options"]))))


def start(panel: Panel, game_id: str, players: int, options: dict) -> None:
    try:
        panel.table.start_game(game_id, players, options=options or None)
    except (TableError, ValueError, StorageError) as error:
        refused(panel, "not_started", error)
        return
    panel.home()


def ask_rematch(panel: Panel) -> None:
    # "No" first: a run of ok presses at the end must not deal a new game over the result.
    panel.push(ConfirmPage(word("play_again", panel.language), word("rematch_question", panel.language),
                           lambda: rematch(panel), default=False))


def rematch(panel: Panel) -> None:
    """The finished game again: same game, options, players and seats, a new seed (and a new
    draw of who starts if the finished play's was drawn)."""
    try:
        first_player.rematch(panel.table)
    except (TableError, StorageError) as error:
        refused(panel, "not_started", error)
        return
    panel.home()


# ------------------------------------------------------------------ undo


def ask_undo(panel: Panel) -> None:
    """Ask first, naming what the undo takes back (the table's ``undo``: the last person's
    move, with the bots' replies after it); the question starts on "No"."""
    language = panel.language
    undo = panel.public.get("undo") or {}
    last = undone_move(panel, undo).rstrip(".。")  # the question adds its own "?": "…a tile?", not "…a tile.?"
    replies = undo.get("moves", 1) - 1
    if last and replies:
        question = counted("undo_with_replies", replies, language, last=last)
    elif last:
        question = word("undo_move", language, last=last)
    else:
        question = word("undo_action", language)
    panel.push(ConfirmPage(word("undo", language), question, lambda: undo_last(panel), default=False, holds_clock=True))


def undone_move(panel: Panel, undo: dict) -> str:
    if not undo.get("move"):
        return ""
    return render_text(undo["move"][panel.language], seat_names(panel.public, panel.language))


def undo_last(panel: Panel) -> None:
    try:
        panel.table.undo()
    except (TableError, StorageError) as error:
        refused(panel, "cannot_undo", error)
        return
    panel.home()


# ------------------------------------------------------------------ a game's actions


def choose_action(panel: Panel, offered: PanelAction, version: int) -> None:
    """Do a game menu's action; one the phones ask to confirm asks here too, "No" first."""
    if not offered.confirm:
        act(panel, offered.seat, offered.action, version)
        return
    question = word("action_question", panel.language, action=offered.label)
    panel.push(ConfirmPage(panel.public["game"]["title"][panel.language], question,
                           lambda: act(panel, offered.seat, offered.action, version), default=False))


def step(panel: Panel, seat: int, action: dict) -> None:
    """One press on a :class:`~.pages.StepPage`: act for ``seat`` on the table as it is now
    (the page shows it as it is now), and stay on the page; a refusal says why."""
    try:
        panel.table.act(seat, action, panel.table.version)
    except (TableError, ValueError, StorageError) as error:  # IllegalAction is a ValueError
        refused(panel, "refused", error)


def act(panel: Panel, seat: int, action: dict, version: int) -> None:
    """Act for ``seat`` with an action read at table ``version``: if what that seat may
    do changed since, the table refuses it as stale rather than doing something else."""
    try:
        panel.table.act(seat, action, version)
    except (TableError, ValueError, StorageError) as error:  # IllegalAction is a ValueError
        refused(panel, "refused", error)
        return
    panel.pop()


# ------------------------------------------------------------------ who starts


def draw_first_player(panel: Panel) -> None:
    """Draw who starts among the game's seats, at once (one press: before the first move
    it changes no card, and the status screen then names them, as every phone does)."""
    try:
        first_player.draw_first_player(panel.table)
    except (TableError, StorageError) as error:  # a phone drew first, a move was made, a full disk
        refused(panel, "not_drawn", error)
        return
    panel.home()


# ------------------------------------------------------------------ bots


def seat_bot(panel: Panel, seat: int, level: str, home: bool = False) -> None:
    try:
        panel.bots.seat(seat, level)
    except (TableError, ValueError, StorageError) as error:  # taken meanwhile, a full disk...
        refused(panel, "not_seated", error)
        return
    if home:
        panel.home()
    else:
        panel.pop()


def ask_remove_bot(panel: Panel, seat: int, level: str) -> None:
    """Ask first ("No" highlighted): the bot leaves the game and its seat waits for someone."""
    language = panel.language
    question = word("remove_bot_question", language, level=BOT_LEVELS[level][language], number=seat + 1)
    panel.push(ConfirmPage(word("remove_bot", language), question, lambda: remove_bot(panel, seat), default=False))


def remove_bot(panel: Panel, seat: int) -> None:
    try:
        panel.table.free_seat(seat)
    except (TableError, StorageError) as error:
        refused(panel, "not_removed", error)


# ------------------------------------------------------------------ the address


def show_address(panel: Panel) -> None:
    wifi = access_point(panel)
    if wifi is not None:
        text = f"IP {wifi.address}\nWi-Fi {wifi.ssid}\n{base_url(panel)}"
    else:
        text = f"IP {panel.lan_address}\n{panel.public_url}" if panel.public_url else f"IP {panel.lan_address}"
    panel.push(InfoPage(word("ip_address", panel.language), text))
