"""Who starts: a fair random draw among the players seated at the table.

Every rule book leaves the start player to the players ("the fastest runner", "whoever ate
pork last", or "any suitable way"); this is the suitable way. Anyone at the table asks for it
(a phone, the panel) once every seat is taken and before the first move; one player is drawn,
each with the same chance (a seat still free would leave out whoever sits there next), and the game is set up again from its own seed with that player
first (:meth:`Table.set_first_player`), so nobody's cards change. The play keeps them as its
start player, the records with it (``docs/records.md``).

The draw comes from the operating system's randomness (``secrets``), not from the game's
seed: a seed chosen to replay a deal does not also choose who starts. It happens once per
game (a second draw would let the table draw until it liked the answer); a rematch draws again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence

from .games.base import FIRST_PLAYER, seat_ref
from .table import Conflict, NotFound, Table

RandBelow = Callable[[int], int]
"""``randbelow(n)``: a whole number in [0, n), each equally likely (``secrets.randbelow``)."""


def draw(seated: Sequence[int], randbelow: RandBelow = secrets.randbelow) -> int:
    """One of the ``seated`` seats, each as likely as any other: ``seated[randbelow(len(seated))]``."""
    if not seated:
        raise Conflict("nobody is seated yet: who starts is drawn among the seated players",
                       "まだ誰も席に着いていません。最初の手番は席に着いたプレイヤーから選びます")
    return seated[randbelow(len(seated))]


def drawn(table: Table) -> int | None:
    """The seat drawn to start the table's current game, or None (no game, or not drawn)."""
    state = table.state()
    return None if state is None else state["options"].get(FIRST_PLAYER)


def draw_first_player(table: Table, randbelow: RandBelow = secrets.randbelow) -> int:
    """Draw who starts the table's current game among its players (people and bots) and make
    them its first player; returns their seat. Refused in plain words while a seat is free,
    when it was drawn already, and once a move has been made."""
    if table.game_id is None:
        raise NotFound("no game has been started at this table yet", "このテーブルではまだゲームが始まっていません")
    names = table.names()
    free = [seat + 1 for seat, name in enumerate(names) if name is None]
    if free and len(free) < len(names):
        listed = ", ".join(map(str, free))
        raise Conflict(f"seat {listed} is free: who starts is drawn once everyone is seated",
                       f"{listed}番の席が空いています。最初の手番は全員が席に着いてから決めます")
    seated = [seat for seat, name in enumerate(names) if name is not None]
    seat = draw(seated, randbelow)
    who = seat_ref(seat)
    table.set_first_player(seat, {
        "en": f"{who} starts (drawn at random among {len(seated)} players)",
        "ja": f"{who}から始めます（{len(seated)}人からランダムに選びました）",
    })
    return seat
