"""Mid-game tables for the phone-layout tests and the screenshots: each game played by
seeded random legal moves until the acting phone faces a typical turn.

(A module of its own, not ``conftest``, for the reason given in ``browser_support``.)
"""

from __future__ import annotations

import random

from companion.table import Table

# game id -> (players, seed, is this the typical turn? (public view, acting seat's actions))
TYPICAL_TURNS = {
    # Lion Square: a turn with plays and takes on a field of three cards or more.
    "lion-square": (3, 7, lambda public, actions: public["step"] == "turn" and len(public["field"]) >= 3
                    and any(a["type"] == "play" for a in actions)),
    # Meow Oracle: the turn's player hands out the revealed cards.
    "meow-oracle": (3, 7, lambda public, actions: public["step"] == "give" and len(public["revealed"]) >= 2),
    # SWAP 5: a few moves in, swaps, moves and trump cards on offer.
    "swap5": (2, 7, lambda public, actions: len(public["trumps_played"]) == 0 and public.get("last_move") is not None),
    # Pig House: the pig actions of a building turn, "pass" among them.
    "pig-house": (3, 7, lambda public, actions: public["step"] == "pigs"
                  and {"type": "pig_action", "kind": "pass"} in actions),
}


def play_to_typical_turn(table: Table, game_id: str) -> int:
    """Start ``game_id`` on ``table``, play seeded random moves until its typical turn,
    and return the acting seat."""
    players, seed, typical = TYPICAL_TURNS[game_id]
    table.start_game(game_id, players, seed=seed)
    choose = random.Random(seed)
    for _ in range(200):
        public = table.view(None)
        seat = public["to_act"][0]
        actions = table.view(seat)["actions"]
        if typical(public["public"], actions):
            return seat
        table.act(seat, choose.choice(actions), table.version)
    raise AssertionError(f"{game_id}: no typical turn within 200 moves")
