"""The same move posted twice (a retry, a double tap, a second tab) is applied once."""

import random

import pytest

from companion import games

REPEATABLE_MOVES = [  # moves that can leave the mover's options as they were
    ("meow-oracle", {"type": "reveal", "from": "aside"}),
    ("pig-house", {"type": "pig_action"}),
    ("meow-oracle-scorer", {"type": "total"}),
]


def reach_a_repeatable_move(table, wanted, seed=0):
    """Play randomly until some seat may make a move like ``wanted`` that leaves what it may
    do and see unchanged (so the rules would take it again); return the seat and the move."""
    chooser = random.Random(seed)
    game = games.get(table.game_id)
    for _ in range(500):
        state = table.state()
        for seat in table.view(None)["to_act"]:
            for action in table.view(seat)["actions"]:
                after = game.apply(state, seat, action) if wanted.items() <= action.items() else None
                if after and game.seat_digest(after, seat) == game.seat_digest(state, seat):
                    return seat, action
        seat = chooser.choice(table.view(None)["to_act"])
        table.act(seat, chooser.choice(table.view(seat)["actions"]), table.version)
    raise AssertionError(f"no repeatable {wanted} in 500 random moves")


@pytest.mark.parametrize("game_id,wanted", REPEATABLE_MOVES)
def test_the_same_move_posted_twice_is_applied_once(api, table, game_id, wanted):
    assert api.post("/api/game", {"game": game_id, "players": 2, "seed": 0}).status_code == 200
    tokens = [api.post(f"/api/seats/{seat}/join", {"name": f"P{seat}"}).json["token"] for seat in range(2)]
    seat, action = reach_a_repeatable_move(table, wanted)
    body = {"action": action, "version": table.version}
    moves = len(table.action_log())

    first = api.post("/api/actions", body, token=tokens[seat])
    second = api.post("/api/actions", body, token=tokens[seat])

    assert first.status_code == 200, first.json
    assert second.status_code == 409 and "changed since your view" in second.json["error"]
    assert len(table.action_log()) == moves + 1
    assert table.version == first.json["version"], "the refused copy changed nothing"
