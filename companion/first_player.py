"""Who starts: a fair random draw among the seats of the table's game.

Every rule book leaves the start player to the players ("the fastest runner", "whoever ate
pork last", or "any suitable way"); this is the suitable way. Anyone at the table asks for it
(a phone, the panel) before the first move, or the host asks for it on the start form. One
seat is drawn, each with the same chance: the draw is among the game's seats, not the
players seated so far, so a seat still free takes part for whoever sits there next, and
nobody has to wait for friends still joining (nor for a bot that would move first). The game
is then set up again from its own seed with that seat first (:meth:`Table.set_first_player`),
so nobody's cards change; drawn on the start form, it is set up so from the start
(:func:`start_with_draw`), before any bot can move, and "play again" draws anew
(:func:`rematch`). The play keeps them as its start player,
the records with it (``docs/records.md``).

The draw comes from the operating system's randomness (``secrets``), not from the game's
seed: a seed chosen to replay a deal does not also choose who starts. It happens once per
game (a second draw would let the table draw until it liked the answer); a rematch draws again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from .games.base import FIRST_PLAYER, seat_ref
from .table import Conflict, NotFound, Table

RandBelow = Callable[[int], int]
"""``randbelow(n)``: a whole number in [0, n), each equally likely (``secrets.randbelow``)."""


def draw(players: int, randbelow: RandBelow = secrets.randbelow) -> int:
    """One of the seats of a game of ``players``, each as likely as any other: ``randbelow(players)``."""
    if players < 1:
        raise ValueError(f"a draw needs at least one seat, not {players}")
    return randbelow(players)


def _draw_with_note(players: int, randbelow: RandBelow) -> tuple[int, dict]:
    """One of the seats of a game of ``players`` (:func:`draw`), and the log's words saying so
    (seats as placeholders)."""
    seat = draw(players, randbelow)
    who = seat_ref(seat)
    return seat, {"en": f"{who} starts (drawn at random among {players} players)",
                  "ja": f"{who}から始めます（{players}人からランダムに選びました）"}


def drawn(table: Table) -> int | None:
    """The seat drawn to start the table's current game, or None (no game, or not drawn)."""
    state = table.state()
    return None if state is None else state["options"].get(FIRST_PLAYER)


def draw_first_player(table: Table, randbelow: RandBelow = secrets.randbelow) -> int:
    """Draw who starts the table's current game among its seats and make them its first
    player; returns their seat. Refused in plain words when it was drawn already and once a
    move has been made."""
    if table.game_id is None:
        raise NotFound("no game has been started at this table yet", "このテーブルではまだゲームが始まっていません")
    seat, note = _draw_with_note(len(table.names()), randbelow)
    table.set_first_player(seat, note)
    return seat


def start_with_draw(table: Table, game_id: str, players: int, seed: int | None = None, options: dict | None = None,
                    claim_host: bool = False, randbelow: RandBelow = secrets.randbelow) -> str | None:
    """:meth:`Table.start_game` with who starts drawn first (the start form's "draw at
    random"): the game is dealt with the drawn seat first and its log says so from the start,
    so a bot on that seat plays only once the draw is known. Returns what ``start_game`` does."""
    if isinstance(players, bool) or not isinstance(players, int) or players < 1 or not isinstance(options, dict | None):
        # Nothing to draw for: the engine refuses these players or options, in plain words.
        return table.start_game(game_id, players, seed, options, claim_host=claim_host)
    if FIRST_PLAYER in (options or {}):
        raise Conflict("the start form chose who starts already: draw or choose, not both",
                       "最初の手番はもう選ばれています。くじ引きか指定のどちらかにしてください")
    seat, note = _draw_with_note(players, randbelow)
    return table.start_game(game_id, players, seed, {**(options or {}), FIRST_PLAYER: seat}, claim_host=claim_host,
                            first_player_note=note)


def rematch(table: Table, randbelow: RandBelow = secrets.randbelow) -> None:
    """:meth:`Table.rematch`, drawing who starts again when the finished play's start was
    drawn, so "play again" beside a bot is as fair as the first play."""
    state = table.state()
    if state is None or FIRST_PLAYER not in state["options"]:
        table.rematch()
        return
    table.rematch(*_draw_with_note(len(table.names()), randbelow))
