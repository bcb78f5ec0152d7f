"""Meow Oracle: every rule, ending and tie rule, and the error messages for bad input.

States are built by playing chosen actions from a seeded setup, or by writing the few
keys a rule reads into a fresh setup (the helpers below), and every test asserts exact
outcomes.
"""

import json
import re

import pytest

from companion.games import IllegalAction
from companion.simulate import random_playout
from companion.games.meow_oracle.rules import (
    CARD_EN,
    CARD_JA,
    DECK,
    GAME,
    game_winners,
    next_start_player,
    round_wins,
    score_area,
)


def card(text):
    """``"r5"`` → red 5, ``"b0"`` blue 0, ``"g10"`` green 10, ``"w4"`` wild 4."""
    colour = {"r": "red", "b": "blue", "g": "green", "w": "wild"}[text[0]]
    return {"n": int(text[1:]), "color": colour}


def grid(text):
    """A grid from three rows of card codes, e.g. ``"b0 r1 g3 / r8 w5 g5 / g3 r8 b4"``."""
    return [[card(code) for code in row.split()] for row in text.split("/")]


# The book's worked example, coloured as its text says: the diagonal 0,5,4 blue, the
# anti-diagonal 3,5,3 green, the centre column 1,5,8 red, the centre 5 wild; the two
# cards the text does not name (middle-row 8 and 5) break every other line. (It needs
# two green 3s, which the deck does not have: score_area scores faces, not a deck.)
BOOK_EXAMPLE = "b0 r1 g3 / r8 w5 g5 / g3 r8 b4"


def test_score_area_book_example():
    assert score_area(grid(BOOK_EXAMPLE)) == {"run": 6, "lines": 6, "total": 12}


@pytest.mark.parametrize(
    "rows, run",
    [
        ("r5 r0 r1 / b1 b2 b3 / g4 g5 g6", 1),  # drop at once: the first card alone counts
        ("r0 r1 r2 / b5 b4 b3 / g6 g7 g8", 9 + 6),  # snake: the middle row reads right to left
        ("r0 r1 r2 / b3 b4 b5 / g6 g7 g8", 4),  # read left to right it would be a full run
        ("r0 r1 r2 / b5 b4 b3 / g6 g9 g8", 8 + 2),  # 8 cards: 10 points
        ("r0 r1 r2 / b5 b4 b3 / g2 g9 g10", 6),
        ("r3 w3 b3 / g4 w4 b4 / g5 r1 w5", 7),  # equal numbers count as ascending
        ("r0 r1 r2 / b5 b4 b3 / g6 g7 g0", 8 + 2),
    ],
)
def test_run_follows_the_snake_from_the_first_card(rows, run):
    assert score_area(grid(rows))["run"] == run


@pytest.mark.parametrize(
    "rows, lines",
    [
        ("r0 r1 r2 / b0 b1 b2 / g0 g1 g2", 3),  # three one-colour rows
        ("r0 b0 g0 / r1 b1 g1 / r2 b2 g2", 3),  # three one-colour columns
        ("r0 b0 g0 / b1 r1 g1 / g2 b2 r2", 1),  # the main diagonal only
        ("r0 b0 g0 / r1 g1 b1 / g2 b2 r2", 1),  # the anti-diagonal only
        ("w3 w4 w5 / r0 b0 g0 / g1 r1 r2", 1),  # three wilds make a line of every colour
        ("r0 b0 g0 / b1 r1 g1 / g2 g3 b2", 0),
        ("r0 r1 r2 / r3 r4 r5 / r6 r7 r8", 8),  # every line
    ],
)
def test_lines_of_one_colour_score_two_each_wild_counts_as_any(rows, lines):
    assert score_area(grid(rows))["lines"] == 2 * lines


def test_total_is_run_plus_lines():
    assert score_area(grid("r0 r1 r2 / r5 r4 r3 / r6 r7 r8")) == {"run": 15, "lines": 16, "total": 31}


def test_score_area_ignores_extra_keys_such_as_ids():
    rows = grid(BOOK_EXAMPLE)
    for row in rows:
        for c in row:
            c["id"] = f"{c['color']}-{c['n']}"
    assert score_area(rows)["total"] == 12


@pytest.mark.parametrize(
    "bad, message",
    [
        (None, "3 rows of 3 cards"),
        ([[card("r0")] * 3] * 2, "3 rows of 3 cards"),
        ([["x", "y", "z"]] * 3, "row 1, column 1 must be an object"),
        ("r0 r1 r2 / r3 r4 / r6 r7 r8", "row 2 of the area must be a list of 3 cards"),
        ("r0 r1 r2 / r3 r4 r11 / r6 r7 r8", "row 2, column 3 has the number 11"),
        ("r0 r1 r2 / r3 r4 r5 / r6 r7 w7", "wild 7, but the only wild cards are 3, 4 and 5"),
    ],
)
def test_score_area_refuses_what_is_not_an_area_of_real_cards(bad, message):
    if isinstance(bad, str):
        rows = [row.split() for row in bad.split("/")]
        bad = [[card(code) for code in row] for row in rows]
    with pytest.raises(ValueError, match=message):
        score_area(bad)


@pytest.mark.parametrize(
    "value, message",
    [
        ({"n": 3, "color": "purple"}, "colour 'purple'"),
        ({"n": True, "color": "red"}, "number True"),
        ({"n": 2.0, "color": "red"}, "number 2.0"),
        ({"n": -1, "color": "red"}, "number -1"),
        ({"color": "red"}, "must be an object like"),
    ],
)
def test_score_area_names_the_bad_card(value, message):
    rows = grid(BOOK_EXAMPLE)
    rows[2][1] = value
    with pytest.raises(ValueError, match=message) as refused:
        score_area(rows)
    assert "row 3, column 2" in str(refused.value)



# ---------------------------------------------------------------------------- the engine: helpers

COLOUR_OF = {"r": "red", "b": "blue", "g": "green", "w": "wild"}


def card_id(code):
    """``"r5"`` → ``"red-5"``."""
    return f"{COLOUR_OF[code[0]]}-{code[1:]}"


def area_ids(rows):
    """Nine card ids, row by row, from ``"r0 r1 r2 / ..."``."""
    return [card_id(code) for code in rows.replace("/", " ").split()]


def faces(ids):
    """Nine card ids, row by row, as the grid score_area takes."""
    cards = [{"n": int(number), "color": colour} for colour, number in (i.split("-") for i in ids)]
    return [cards[row * 3:row * 3 + 3] for row in range(3)]


def reveal(state, seat, *cells):
    for row, column in cells:
        state = GAME.apply(state, seat, {"type": "reveal", "cell": [row, column]})
    return state


def reveal_first(state, seat, count):
    """Reveal the first ``count`` face-down cells of ``seat``'s area."""
    cells = [divmod(cell, 3) for cell, card in enumerate(state["down"][seat]) if card]
    return reveal(state, seat, *cells[:count])


def place_all(state):
    """Every receiver places its cards on its first cells that are not face up."""
    for seat, cards in enumerate(state["to_place"]):
        for card in list(cards):
            free = next(cell for cell in range(9) if state["up"][seat][cell] is None)
            state = place(state, seat, card, *divmod(free, 3))
    return state


def give(state, seat, card, to):
    return GAME.apply(state, seat, {"type": "give", "card": card, "to": to})


def place(state, seat, card, row, column):
    return GAME.apply(state, seat, {"type": "place", "card": card, "cell": [row, column]})


def refuse(state, seat, action, message, ja=None):
    """Assert ``action`` is refused with ``message`` (a regular expression), and with Japanese
    matching ``ja`` when given (some Japanese in any case), and changes nothing."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=message) as refused:
        GAME.apply(state, seat, action)
    assert refused.value.ja and re.search(ja or ".", refused.value.ja), refused.value.ja
    assert GAME.dump(state) == before


def ids_in(value):
    """Every card id a view shows, wherever it is."""
    if isinstance(value, dict):
        found = [value["id"]] if isinstance(value.get("id"), str) else []
        return found + [i for v in value.values() for i in ids_in(v)]
    if isinstance(value, list):
        return [i for v in value for i in ids_in(v)]
    return []


def face_down(state):
    """The ids of every face-down card: areas, set-aside piles, unused."""
    found = [card for area in state["down"] for card in area if card]
    return found + [card for pile in state["aside"] for card in pile] + state["unused"]


def assert_face_down_hidden(state):
    """No view of a round-1 state shows or names a face-down card (later rounds' logs may
    name cards of the round before, now dealt face down again)."""
    hidden = set(face_down(state))
    for seat in [None, *range(state["players"])]:
        view = GAME.view(state, seat)
        assert not hidden & set(ids_in(view)), f"seat {seat} sees a face-down card"
        log = json.dumps(view["log"], ensure_ascii=False)
        assert not any(re.search(rf"\b{CARD_EN[card]}\b", log) or CARD_JA[card] + "を" in log for card in hidden)


def play_first_actions_until(state, done):
    """Play the first legal action of the first seat to act until ``done(state)``."""
    while not done(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def at_last_placement(state, grids):
    """``state`` rewritten so that the areas hold ``grids`` face up, except that seat 0's
    bottom-right card is still in its hand to place: that placement ends the round."""
    state = json.loads(json.dumps(state))
    players = state["players"]
    up = [area_ids(grid) for grid in grids]
    used = {card for area in up for card in area}
    last = up[0][8]
    up[0][8] = None
    state.update(
        step="place",
        up=up,
        down=[[None] * 9 for _ in range(players)],
        aside=[[] for _ in range(players)],
        unused=[card for card in DECK if card not in used],
        revealed=[],
        owed=[],
        to_place=[[last]] + [[] for _ in range(players - 1)],
    )
    assert sorted(GAME.components(state)) == sorted(DECK)
    return state, last


# Four areas of distinct cards with known points.
GRID_31 = "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"  # run of 9: 15; every line red: 16
GRID_20 = "b0 b1 b2 / b5 b4 b3 / b6 b7 g0"  # run of 8: 10; rows 1-2, columns 1-2, anti-diagonal: 10
GRID_20_WILD = "g1 g2 g3 / g4 g5 g6 / w3 w4 w5"  # run 1,2,3,6 then 5: 4; all 8 lines green or wild: 16
GRID_31_BLUE = "b0 b1 b2 / b5 b4 b3 / b6 b7 b8"


def test_the_example_areas_score_as_their_comments_say():
    for rows, total in ((GRID_31, 31), (GRID_20, 20), (GRID_20_WILD, 20), (GRID_31_BLUE, 31)):
        assert score_area(grid(rows))["total"] == total


# ---------------------------------------------------------------------------- deal and secrecy


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_nine_face_down_cards_per_player_the_rest_unused(players):
    state = GAME.setup(players, 7)
    assert all(len(area) == 9 and all(area) for area in state["down"])
    assert all(card is None for area in state["up"] for card in area)
    assert len(state["unused"]) == 36 - 9 * players
    assert sorted(GAME.components(state)) == sorted(DECK) and len(set(DECK)) == 36
    public = GAME.view(state, None)["public"]
    assert public["areas"][0] == [[{"face": "down"}] * 3] * 3
    assert public["unused"] == 36 - 9 * players
    assert (public["round"], public["step"], public["turn"], public["reveal_left"]) == (1, "reveal", 0, 3)


def test_with_four_players_every_card_is_dealt():
    assert GAME.setup(4, 3)["unused"] == []


def test_nobody_sees_face_down_cards_not_even_their_owner():
    state = GAME.setup(3, 11)
    assert_face_down_hidden(state)
    assert GAME.view(state, 0)["private"] == {}
    state = reveal(state, 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(give(state, 0, a, 1), 0, b, 0)
    state = place(state, 1, a, 1, 1)  # covers a face-down card, which goes aside unseen
    assert len(state["aside"][1]) == 1
    assert GAME.view(state, None)["public"]["aside"] == [0, 1, 0]
    assert_face_down_hidden(state)


def test_cards_are_shuffled_by_the_seed():
    assert GAME.setup(3, 1)["down"] != GAME.setup(3, 2)["down"]
    assert GAME.setup(3, 1) == GAME.setup(3, 1)


# ---------------------------------------------------------------------------- a turn


def test_a_turn_reveals_three_hands_them_out_and_every_receiver_places():
    state = GAME.setup(3, 5)
    first_row = state["down"][0][:3]
    state = reveal(state, 0, (0, 0))
    assert state["down"][0][0] is None and state["revealed"] == first_row[:1]
    assert GAME.view(state, None)["public"]["areas"][0][0][0] is None  # revealing empties the cell
    assert GAME.view(state, None)["public"]["reveal_left"] == 2
    state = reveal(state, 0, (0, 1), (0, 2))
    assert state["revealed"] == first_row and state["step"] == "give"
    public = GAME.view(state, None)["public"]
    assert [c["id"] for c in public["revealed"]] == first_row  # revealed cards are public
    assert public["owed"] == [1, 1, 1]
    a, b, c = first_row
    assert {(x["card"], x["to"]) for x in GAME.legal_actions(state, 0)} == {(k, s) for k in first_row for s in (0, 1, 2)}

    state = give(state, 0, a, 1)
    assert state["to_place"] == [[], [a], []] and state["owed"] == [0, 2]
    state = give(state, 0, b, 0)  # only seat 2 is still owed: the last card goes to it by itself
    assert state["to_place"] == [[b], [a], [c]] and state["revealed"] == []
    assert state["step"] == "place" and GAME.to_act(state) == [0, 1, 2]  # receivers place at once

    state = place(state, 1, a, 1, 1)
    assert GAME.to_act(state) == [0, 2] and state["step"] == "place"
    state = place(state, 2, c, 2, 2)
    state = place(state, 0, b, 0, 0)
    assert state["up"][0][0] == b and state["aside"][0] == []  # an empty cell: nothing set aside
    assert (state["step"], state["turn"], GAME.to_act(state)) == ("reveal", 1, [1])  # clockwise
    assert state["turns"] == [1, 0, 0]


def test_placing_on_a_face_down_card_sets_it_aside_face_down():
    state = GAME.setup(3, 5)
    state = reveal(state, 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(give(state, 0, a, 1), 0, b, 0)
    covered = state["down"][1][4]
    state = place(state, 1, a, 1, 1)
    assert state["up"][1][4] == a and state["down"][1][4] is None
    assert state["aside"][1] == [covered]
    colour, number = a.split("-")
    assert GAME.view(state, None)["public"]["areas"][1][1][1] == {"face": "up", "id": a, "n": int(number), "color": colour}


def test_never_on_a_face_up_card():
    state = GAME.setup(3, 5)
    state = reveal(state, 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(give(state, 0, a, 1), 0, b, 0)
    state = place(state, 0, b, 1, 1)
    state = place(state, 2, c, 0, 0)
    state = place(state, 1, a, 2, 0)
    state = reveal(state, 1, (0, 0), (0, 1), (0, 2))
    d, e, f = state["revealed"]
    state = give(give(state, 1, d, 2), 1, e, 1)  # f goes to seat 0 by itself
    assert state["to_place"][0] == [f]
    assert {tuple(x["cell"]) for x in GAME.legal_actions(state, 0)} == {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    refuse(state, 0, {"type": "place", "card": f, "cell": [1, 1]}, r"rule 3: a card may not go on a face-up card, and row 2, column 2 holds one")


def test_reveal_from_the_set_aside_pile_is_a_blind_pick():
    state = GAME.setup(3, 5)
    state = reveal(state, 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(give(state, 0, a, 1), 0, b, 0)
    state = place(state, 0, b, 0, 0)
    state = place(state, 2, c, 0, 0)
    state = place(state, 1, a, 1, 1)  # seat 1 now has one set-aside card
    assert state["turn"] == 1
    aside = [x for x in GAME.legal_actions(state, 1) if "from" in x]
    assert aside == [{"type": "reveal", "from": "aside"}]  # one button: nobody knows which card it is
    covered = state["aside"][1][0]
    state = GAME.apply(state, 1, {"type": "reveal", "from": "aside"})
    assert state["revealed"] == [covered] and state["aside"][1] == []
    assert {"type": "reveal", "from": "aside"} not in GAME.legal_actions(state, 1)


def test_the_blind_pick_draws_any_card_of_the_pile():
    state = GAME.setup(3, 5)
    drawn = set()
    for seed in range(40):
        mixed = dict(state, rng=seed, aside=[[], ["red-1", "red-2", "red-3"], []], turn=1)
        mixed["down"] = [state["down"][0], state["down"][1][:6] + [None] * 3, state["down"][2]]
        after = GAME.apply(mixed, 1, {"type": "reveal", "from": "aside"})
        drawn.update(after["revealed"])
        assert sorted(after["aside"][1] + after["revealed"]) == ["red-1", "red-2", "red-3"]
    assert drawn == {"red-1", "red-2", "red-3"}


def test_four_players_give_to_self_next_and_the_one_after_not_the_fourth():
    state = GAME.setup(4, 9)
    state = reveal(state, 0, (2, 0), (2, 1), (2, 2))
    a, b, c = state["revealed"]
    assert {x["to"] for x in GAME.legal_actions(state, 0)} == {0, 1, 2}
    refuse(state, 0, {"type": "give", "card": a, "to": 3}, "rule 2: the revealed cards go to yourself, the next player and the one after; \\{s3\\} receives none", r"ルール2：.*この手番で\{s3\}には渡しません")
    state = give(give(state, 0, a, 2), 0, b, 1)
    assert state["to_place"] == [[c], [b], [a], []]
    assert GAME.to_act(state) == [0, 1, 2]


def test_the_turn_after_the_last_seat_is_the_first_seat_and_gives_wrap_around():
    state = GAME.setup(3, 4)
    state = dict(state, turn=2)
    state = reveal(state, 2, (0, 0), (0, 1), (0, 2))
    assert state["owed"] == [2, 0, 1]
    a, b, c = state["revealed"]
    state = give(give(state, 2, a, 0), 2, b, 1)
    assert state["to_place"] == [[a], [b], [c]]
    for seat in (0, 1, 2):
        state = place(state, seat, state["to_place"][seat][0], 0, 0)
    assert (state["turn"], state["step"]) == (0, "reveal")


def test_two_players_first_turn_three_cards_two_kept_one_given():
    state = GAME.setup(2, 3)
    state = reveal(state, 0, (0, 0), (0, 1))
    assert state["step"] == "reveal"  # the first turn reveals 3, not 2
    state = reveal(state, 0, (0, 2))
    assert state["step"] == "give" and GAME.view(state, None)["public"]["owed"] == [2, 1]
    a, b, c = state["revealed"]
    state = give(state, 0, b, 1)  # the opponent has their card: the other two are kept
    assert state["to_place"] == [[a, c], [b]] and state["step"] == "place"
    assert GAME.to_act(state) == [0, 1]
    state = place(state, 0, c, 2, 2)
    assert GAME.to_act(state) == [0, 1]  # the turn ends when every received card is placed
    state = place(state, 0, a, 2, 1)
    state = place(state, 1, b, 0, 0)
    assert (state["turn"], state["step"]) == (1, "reveal")


def test_two_players_keeping_first_still_leaves_a_choice():
    state = GAME.setup(2, 3)
    state = reveal(state, 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(state, 0, a, 0)
    assert state["step"] == "give" and state["owed"] == [0, 1]
    assert len(GAME.legal_actions(state, 0)) == 4  # 2 cards × 2 receivers
    state = give(state, 0, b, 0)
    assert state["to_place"] == [[a, b], [c]]
    refuse(state, 0, {"type": "give", "card": a, "to": 0}, "you cannot give now: the handed-out cards are being placed")


def test_two_players_later_turns_reveal_two_one_each():
    state = GAME.setup(2, 3)
    for seat in (0, 1):  # both first turns
        state = reveal_first(state, seat, 3)
        state = place_all(give(state, seat, state["revealed"][0], 1 - seat))
    assert state["turn"] == 0 and state["turns"] == [1, 1]
    state = reveal_first(state, 0, 1)
    assert GAME.view(state, None)["public"]["reveal_left"] == 1
    state = reveal_first(state, 0, 1)
    assert state["step"] == "give" and state["owed"] == [0, 1]
    a, b = state["revealed"]
    state = give(state, 0, a, 1)
    assert state["to_place"] == [[b], [a]]


# ---------------------------------------------------------------------------- round end, wins, game end


@pytest.mark.parametrize("players, turns", [(2, 8), (3, 9), (4, 12)])
def test_the_round_ends_when_every_area_holds_nine_face_up_cards(players, turns):
    state = GAME.setup(players, 21)
    turns_seen = 1
    while state["round"] == 1:
        assert not all(card for area in state["up"] for card in area)
        seat = GAME.to_act(state)[0]
        turn = state["turn"]
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        turns_seen += state["round"] == 1 and state["turn"] != turn
    assert turns_seen == turns  # 3 turns each (2 players: 4 each) reveal every dealt card
    (record,) = state["history"]
    assert all(all(area) for area in record["areas"])
    points = [score_area(faces(area)) for area in record["areas"]]
    assert record["points"] == points  # round points are score_area's
    assert record["wins"] == state["wins"] == round_wins([p["total"] for p in points])


def test_round_end_scores_gives_wins_and_deals_round_two_with_the_lowest_total_starting():
    state, last = at_last_placement(GAME.setup(3, 2), [GRID_31, GRID_20, GRID_20_WILD])
    state = place(state, 0, last, 2, 2)
    (record,) = state["history"]
    assert record["points"] == [
        {"run": 15, "lines": 16, "total": 31},
        {"run": 10, "lines": 10, "total": 20},
        {"run": 4, "lines": 16, "total": 20},
    ]
    assert record["wins"] == state["wins"] == [2, 1, 1]  # 1 and 2 tie: a win for both
    # Seats 1 and 2 share the lowest total; going clockwise from the start player's left, 1 comes first.
    assert (state["round"], state["start"], state["turn"], state["step"]) == (2, 1, 1, "reveal")
    assert GAME.to_act(state) == [1]
    # All 36 cards are gathered and dealt again.
    assert all(all(area) for area in state["down"]) and not any(any(area) for area in state["up"])
    assert state["aside"] == [[], [], []] and len(state["unused"]) == 9
    public = GAME.view(state, None)["public"]
    assert public["wins"] == [2, 1, 1]
    assert public["history"][0]["points"][0]["total"] == 31
    assert public["history"][0]["areas"][0][0][0] == {"id": "red-0", "n": 0, "color": "red"}


def test_round_two_start_tie_goes_clockwise_from_the_start_players_left():
    state, last = at_last_placement(dict(GAME.setup(3, 2), start=1), [GRID_31, GRID_20, GRID_20_WILD])
    state = place(state, 0, last, 2, 2)
    assert state["start"] == 2  # from seat 1's left: seat 2 before seat 1 itself


@pytest.mark.parametrize(
    "totals, start, expected",
    [
        ([5, 3, 7], 0, 1),  # the lowest total
        ([5, 3, 3, 7], 2, 1),  # tie of 1 and 2; from 2's left: 3, 0, 1 — seat 1 met first
        ([3, 5, 3], 0, 2),  # tie of 0 (the start player) and 2: the start player comes last
        ([3, 3], 0, 1),
        ([3, 3], 1, 0),
        ([4, 4, 4, 4], 3, 0),
    ],
)
def test_next_start_player(totals, start, expected):
    assert next_start_player(totals, start) == expected


@pytest.mark.parametrize(
    "totals, wins",
    [
        ([10, 20, 20, 5], [1, 2, 2, 0]),  # 4 players: left and right neighbours; a tie wins for both
        ([12, 8, 15], [1, 0, 2]),
        ([5, 5, 5], [2, 2, 2]),
        ([8, 7], [1, 0]),  # 2 players: one comparison, not two
        ([7, 7], [1, 1]),
    ],
)
def test_wins_against_each_neighbour_beaten_or_tied(totals, wins):
    assert round_wins(totals) == wins


@pytest.mark.parametrize(
    "wins, last_totals, winners",
    [
        ([2, 4, 1], [30, 0, 0], [1]),  # most wins
        ([3, 3, 1], [10, 12, 30], [1]),  # tie on wins: the higher round-2 total
        ([3, 3, 1], [12, 12, 30], [0, 1]),  # still tied: shared
        ([2, 2], [9, 9], [0, 1]),
    ],
)
def test_game_winners(wins, last_totals, winners):
    assert game_winners(wins, last_totals) == winners


def round_two(players, seed):
    """A real game played (first legal actions) into round 2."""
    return play_first_actions_until(GAME.setup(players, seed), lambda s: s["round"] == 2)


def test_the_game_ends_after_round_two_most_wins_winning():
    state = round_two(2, 8)
    state["wins"] = [1, 0]
    first_totals = [p["total"] for p in state["history"][0]["points"]]
    state, last = at_last_placement(state, [GRID_31, GRID_20])
    state = place(state, 0, last, 2, 2)
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert GAME.result(state) == {
        "winners": [0],
        "scores": {"0": 2, "1": 0},
        "totals": {"0": [first_totals[0], 31], "1": [first_totals[1], 20]},
        "summary": {"en": "{s0} wins with 2 wins.", "ja": "{s0}が2勝で勝ちました。"},
    }
    public = GAME.view(state, None)["public"]
    assert public["step"] == "over" and len(public["history"]) == 2
    refuse(state, 0, {"type": "reveal", "cell": [0, 0]}, "the game is over")


def test_a_tie_on_wins_goes_to_the_higher_round_two_total():
    state = round_two(2, 8)
    state["wins"] = [0, 1]
    state, last = at_last_placement(state, [GRID_31, GRID_20])
    state = place(state, 0, last, 2, 2)
    assert state["wins"] == [1, 1]
    assert GAME.result(state)["winners"] == [0]
    assert GAME.result(state)["summary"] == {
        "en": "{s0} and {s1} tied on 1 win; {s0}'s round-2 total of 31 beat {s1}'s 20.",
        "ja": "{s0}と{s1}が1勝で並び、2ラウンド目の合計点31点で{s1}の20点を上回った{s0}の勝ちです。",
    }


def test_still_tied_the_win_is_shared():
    state = round_two(2, 8)
    state["wins"] = [1, 1]
    state, last = at_last_placement(state, [GRID_31, GRID_31_BLUE])
    state = place(state, 0, last, 2, 2)
    assert state["wins"] == [2, 2]
    assert GAME.result(state)["winners"] == [0, 1]
    assert GAME.result(state)["summary"] == {
        "en": "{s0} and {s1} tied on 2 wins and on their round-2 totals of 31, and share the win.",
        "ja": "{s0}と{s1}が2勝で並び、2ラウンド目の合計点も31点で同じなので、ともに勝者です。",
    }


def test_four_player_game_end_compares_both_neighbours():
    state = round_two(4, 8)
    state["wins"] = [0, 0, 0, 0]
    # The fourth area: a run of 7, 8, 9, 10 then a drop (4) and one green row (2).
    grids = [GRID_20_WILD, GRID_31, GRID_20, "g7 g8 g9 / r9 b8 g10 / r10 b9 b10"]
    state, last = at_last_placement(state, grids)
    state = place(state, 0, last, 2, 2)
    assert [p["total"] for p in state["history"][1]["points"]] == [20, 31, 20, 6]
    assert state["wins"] == [1, 2, 1, 0]
    assert GAME.result(state)["winners"] == [1]
    assert GAME.result(state)["summary"]["en"] == "{s1} wins with 2 wins."


# ---------------------------------------------------------------------------- refusals in plain words


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "fly"}, r"unknown action type 'fly' \(allowed now: reveal\)"),
        ({"type": "give", "card": "red-1", "to": 1}, r"you cannot give now: \{s0\} is revealing cards \(3 more to reveal\)"),
        ({"type": "place", "card": "red-1", "cell": [0, 0]}, "you cannot place now"),
        ({"type": "reveal"}, r"a 'reveal' action needs the field 'cell' or 'from' \(its fields: cell or from\)"),
        ({"type": "reveal", "cell": [0, 0], "from": "aside"}, "a 'reveal' action takes only one of 'cell' and 'from'"),
        ({"type": "reveal", "cell": [0, 0], "extra": 1}, "a 'reveal' action has no field 'extra'"),
        ({"type": "reveal", "from": "deck"}, '"from" can only be "aside"'),
        ({"type": "reveal", "from": "aside"}, "your set-aside pile is empty"),
        ({"type": "reveal", "cell": [3, 0]}, r"the cell \[3, 0\] is outside the 3 × 3 area"),
        ({"type": "reveal", "cell": [0, -1]}, "outside the 3 × 3 area"),
        ({"type": "reveal", "cell": "a1"}, r"a cell is \[row, column\]"),
        ({"type": "reveal", "cell": [0, True]}, r"a cell is \[row, column\]"),
        ({"type": "reveal", "cell": [0.0, 1]}, r"a cell is \[row, column\]"),
        ({"type": "reveal", "cell": None}, r"a cell is \[row, column\]"),
        ({"type": "reveal", "cell": [1, 1, 1]}, r"a cell is \[row, column\]"),
    ],
)
def test_refusals_while_revealing(action, message):
    refuse(GAME.setup(3, 1), 0, action, message)


def test_refusals_of_cells_already_used():
    state = reveal(GAME.setup(3, 1), 0, (0, 0))
    refuse(state, 0, {"type": "reveal", "cell": [0, 0]}, "the cell at row 1, column 1 is empty")
    state = GAME.setup(3, 1)
    state["up"][0][4], state["down"][0][4] = state["down"][0][4], None
    refuse(state, 0, {"type": "reveal", "cell": [1, 1]}, "rule 1: the card at row 2, column 2 is already face up")


def test_it_is_not_your_turn():
    refuse(GAME.setup(3, 1), 1, {"type": "reveal", "cell": [0, 0]}, r"it is not your turn \(waiting for \{s0\}\)")


@pytest.fixture
def giving():
    """Seat 0 of 3 has revealed its top row and handed one card to seat 1."""
    state = reveal(GAME.setup(3, 1), 0, (0, 0), (0, 1), (0, 2))
    return give(state, 0, state["revealed"][0], 1)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"card": "red-99"}, r"'red-99' is not among the revealed cards waiting to be handed out"),
        ({"card": 3}, "3 is not among the revealed cards"),
        ({"to": 5}, '"to" must be a seat number from 0 to 2, not 5'),
        ({"to": "1"}, "\"to\" must be a seat number from 0 to 2, not '1'"),
        ({"to": True}, '"to" must be a seat number from 0 to 2, not True'),
        ({"to": 1}, "rule 2: \\{s1\\} has already been handed all the cards owed this turn"),
        ({"extra": 0}, r"a 'give' action has no field 'extra' \(its fields: card, to\)"),
    ],
)
def test_refusals_while_giving(giving, change, message):
    action = {"type": "give", "card": giving["revealed"][0], "to": 2, **change}
    refuse(giving, 0, action, message)


def test_a_give_without_a_card_is_refused(giving):
    refuse(giving, 0, {"type": "give", "to": 2}, "a 'give' action needs the field 'card'")


def test_no_reveal_while_giving(giving):
    refuse(giving, 0, {"type": "reveal", "cell": [1, 1]}, "you cannot reveal now: \\{s0\\} is handing out the revealed cards", "\\{s0\\}が表にしたカードを配っているところです")


@pytest.fixture
def placing():
    """Seat 0 of 3 has handed out its top row; seat 1 holds one card to place."""
    state = reveal(GAME.setup(3, 1), 0, (0, 0), (0, 1), (0, 2))
    state = give(give(state, 0, state["revealed"][0], 1), 0, state["revealed"][1], 0)
    return place(state, 1, state["to_place"][1][0], 0, 0)


@pytest.mark.parametrize(
    "seat, change, message",
    [
        (0, {"card": "nope"}, r"you have no 'nope' to place \(yours: "),
        (0, {"cell": [9, 9]}, "outside the 3 × 3 area"),
        (0, {"cell": {"row": 0}}, r"a cell is \[row, column\]"),
        (0, {"type": "give", "to": 0}, "a 'give' action has no field 'cell'"),
        (0, {"card": None, "cell": None, "extra": 1}, r"a 'place' action has no field 'extra' \(its fields: card, cell\)"),
        (1, {}, r"it is not your turn \(waiting for \{s0\} and \{s2\}\)"),
    ],
)
def test_refusals_while_placing(placing, seat, change, message):
    action = {"type": "place", "card": placing["to_place"][0][0], "cell": [2, 2], **change}
    refuse(placing, seat, action, message)


def test_no_give_while_placing(placing):
    action = {"type": "give", "card": placing["to_place"][0][0], "to": 0}
    refuse(placing, 0, action, "you cannot give now: the handed-out cards are being placed")


def test_a_card_handed_to_someone_else_cannot_be_placed_by_you(placing):
    other = placing["to_place"][2][0]
    refuse(placing, 0, {"type": "place", "card": other, "cell": [2, 2]}, f"you have no '{other}' to place")


# ---------------------------------------------------------------------------- views and log


JA_COLOUR = {"red": "赤", "blue": "青", "green": "緑", "wild": "灰（オールマイティ）"}


def test_the_log_tells_the_turn_in_both_languages():
    state = reveal(GAME.setup(3, 5), 0, (0, 0), (0, 1), (0, 2))
    a, b, c = state["revealed"]
    state = give(give(state, 0, a, 1), 0, b, 0)
    state = place(state, 1, a, 1, 1)
    texts = [entry["text"] for entry in GAME.view(state, None)["log"]]
    name = a.replace("-", " ")
    assert texts[0]["en"].startswith("{s0} reveals ") and texts[0]["en"].endswith("(from row 1, column 1)")
    assert texts[3]["en"] == f"{{s0}} gives {name} to {{s1}}"
    assert texts[3]["ja"] == f"{{s0}}が{JA_COLOUR[a.split('-')[0]]}の{a.split('-')[1]}を{{s1}}に渡す"
    assert texts[4]["en"] == f"{{s0}} keeps {b.replace('-', ' ')}"
    assert texts[5]["en"] == f"{{s0}} gives {c.replace('-', ' ')} to {{s2}}"
    assert texts[6]["en"] == f"{{s1}} places {name} at row 2, column 2 and sets the face-down card there aside"
    assert texts[6]["ja"].startswith("{s1}が") and "横によける" in texts[6]["ja"]


def test_the_public_view_shows_what_a_table_screen_needs():
    state = reveal(GAME.setup(4, 5), 0, (0, 0), (0, 1), (0, 2))
    state = give(state, 0, state["revealed"][0], 2)
    public = GAME.view(state, None)["public"]
    assert set(public) == {
        "round", "rounds", "step", "start_player", "turn", "reveal_left", "revealed", "owed",
        "to_place", "areas", "aside", "unused", "wins", "history",
    }
    assert (public["round"], public["rounds"], public["step"], public["turn"]) == (1, 2, "give", 0)
    assert public["owed"] == [1, 1, 0, 0] and len(public["revealed"]) == 2
    assert public["to_place"][2][0]["id"] == state["to_place"][2][0]
    assert public["areas"][0][0] == [None, None, None] and public["aside"] == [0, 0, 0, 0]
    assert public["wins"] == [0, 0, 0, 0] and public["history"] == []
    assert all(GAME.view(state, seat)["public"] == public for seat in range(4))


def test_a_reveal_copies_only_what_it_changes_and_leaves_the_old_state_as_it_was():
    state = GAME.setup(4, 1)
    before = GAME.dump(state)
    new = GAME.apply(state, 0, {"type": "reveal", "cell": [1, 1]})
    assert GAME.dump(state) == before
    for unchanged in ("up", "aside", "to_place", "unused", "wins", "history", "turns"):
        assert new[unchanged] is state[unchanged], f"{unchanged} was copied though the reveal did not change it"
    assert new["down"][1] is state["down"][1] and new["down"][0] is not state["down"][0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_unlogged_game_words_nothing(players, monkeypatch):
    """A search state (Game.unlogged) plays without a log: no move, round or ending is
    worded at all, since nobody reads it (the contract test checks it plays the same)."""

    def must_not_word(*args, **kwargs):
        raise AssertionError("an unlogged game worded a log line")

    for wording in ("_reveal_words", "_hand_over_words", "_place_words"):
        monkeypatch.setattr(f"companion.games.meow_oracle.rules.{wording}", must_not_word)
    monkeypatch.setattr(type(GAME), "log", must_not_word)
    for seed in range(5):
        state, _ = random_playout(GAME, players, seed, logged=False)
        assert state["result"] is not None and state["log"] is None
