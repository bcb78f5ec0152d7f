"""Who sat where when a game ended: the one hook the table calls (``record_seating``).

The table calls it inside the transaction that ends a game or abandons it, so a play is
never stored without its players. It keeps, per seat, the name shown then (seats are freed
and names change afterwards), whether a bot sat there, and whether that seat started.
"""

from __future__ import annotations

from ..games import Game
from ..store import GameRecord, Store


def record_seating(store: Store, game: Game, record: GameRecord, names: list[str | None]) -> None:
    """Store the seating of ``record`` (played with ``game``) as it is at its end."""
    starter = start_player(game, record, store.applied_actions(record.id))
    store.record_seating(record.id, [
        {"seat": seat, "name": name, "bot": is_bot(seat, name), "start_player": seat == starter}
        for seat, name in enumerate(names)
    ])


def is_bot(seat: int, name: str | None) -> bool:
    """Whether ``name`` on ``seat`` is a bot's: bots are seated under the name that says so
    (``companion.bots.seats.bot_name``); a person who types exactly that name counts as one."""
    return bot_player(seat, name) is not None


def bot_player(seat: int, name: str | None) -> str | None:
    """The player a bot's seat counts as in the records: its level's bot, whatever seat it
    sat on (``Bot Normal / ボット ふつう``); None for a person's ``name``."""
    from ..bots import LEVELS  # the bots import the table, which imports this module
    from ..bots.seats import bot_name

    level = next((level for level in LEVELS if name == bot_name(seat, level)), None)
    return None if level is None else bot_name(None, level)


def start_player(game: Game, record: GameRecord, actions: list[tuple[int, int, dict]]) -> int | None:
    """The seat that started the play, or None where the game does not say (the ledger).

    Engines name it differently (``start_player``, ``start``, or the first ``turn``); the
    scorer learns it from its first action, so the first moves are replayed until it shows."""
    state = game.setup(record.players, record.seed, record.options)
    for _, seat, action in actions:
        found = _named_start(state)
        if found is not None:
            return found
        state = game.apply(state, seat, action)
    return _named_start(state)


def _named_start(state: dict) -> int | None:
    for key in ("start_player", "start"):
        if isinstance(state.get(key), int):
            return state[key]
    turn = state.get("turn")
    if isinstance(turn, dict):
        turn = turn.get("seat")
    return turn if isinstance(turn, int) else None
