"""SWAP 5: every rule, ending and tie rule, the layouts, and the error messages for bad input.

Positions are built by writing a board (five row strings, row 1 first, column A first)
and the trump hands into a fresh setup with :func:`position`, then playing chosen
actions; every test asserts exact outcomes.
"""

import json
import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from companion.games import IllegalAction
from companion.games.swap5.rules import (
    CELLS,
    FAIR_LAYOUT,
    GAME,
    TRUMP_CARDS,
    parse_layout,
    score_board,
)

EMPTY_BOARD = [".....", ".....", ".....", ".....", "....."]


def position(players=4, rows=None, hands=None, turn=0, **options):
    """A fresh game with ``rows`` on the board, ``hands`` ({seat: [cards]}) dealt and the
    cards nobody holds out of the game, and ``turn`` to act."""
    state = GAME.setup(players, 11, options or None)
    if rows is not None:
        state["board"] = "".join(rows)
    if hands is not None:
        state["hands"] = {str(seat): sorted(hands.get(seat, [])) for seat in range(players)}
        held = {card for hand in state["hands"].values() for card in hand}
        state["out"] = sorted(set(TRUMP_CARDS) - held)
    state["turn"] = turn
    return state


def play(state, seat, **action):
    return GAME.apply(state, seat, action)


def refused(state, seat, action):
    """The message of the IllegalAction ``action`` raises; the state must not change."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before
    return str(error.value)


def rows_of(state):
    return GAME.view(state, None)["public"]["board"]


# ---------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    "rows, expected",
    [
        (["RR...", ".....", ".....", ".....", "....."], {"R": 0}),  # two in a row score nothing
        (["RRR..", ".....", ".....", ".....", "....."], {"R": 1}),  # row of 3
        (["G....", "G....", "G....", "G....", "....."], {"G": 1}),  # column of 4
        (["YYYYY", ".....", ".....", ".....", "....."], {"Y": 5}),  # five in a row
        (["B....", ".B...", "..B..", ".....", "....."], {"B": 1}),  # diagonal ↘ of 3
        (["....R", "...R.", "..R..", ".R...", "R...."], {"R": 5}),  # diagonal ↙ of 5
        (["..G..", "...G.", "....G", ".....", "....."], {"G": 1}),  # the short diagonal C1-E3
        (["RRR.R", ".....", ".....", ".....", "....."], {"R": 1}),  # a gap splits the line
        (["RRRG.", "GGG..", ".....", ".....", "....."], {"R": 1, "G": 1}),
    ],
)
def test_score_board_counts_runs_of_each_colour(rows, expected):
    assert score_board(rows) == {"R": 0, "G": 0, "Y": 0, "B": 0, **expected}


def test_score_board_counts_every_line_through_a_piece():
    # a column, a row and a diagonal sharing C3: 7 pieces, more than a colour has in a game
    rows = ["B....", ".B...", "BBB..", "..B..", "..B.."]
    assert score_board(rows) == {"R": 0, "G": 0, "Y": 0, "B": 3}


def test_the_rules_doc_lists_every_score_five_pieces_of_a_colour_can_make():
    # RULINGS §3: no 3-point shape of 5 pieces; the book's 合計3点 figure shows separate runs
    possible = set()
    for cells in combinations(range(25), 5):  # all 53,130 placements
        board = ["."] * 25
        for cell in cells:
            board[cell] = "R"
        board = "".join(board)
        possible.add(score_board([board[row : row + 5] for row in range(0, 25, 5)])["R"])
    assert possible == {0, 1, 2, 5}
    listed = ", ".join(map(str, sorted(possible)[:-1])) + f" or {max(possible)}"
    doc = " ".join((Path(__file__).parents[2] / "docs" / "rules" / "swap5.md").read_text(encoding="utf-8").split())
    assert f"with its 5 pieces a colour scores **{listed}**" in doc


def test_score_board_counts_a_run_once_however_long():
    assert score_board(["GGGG.", ".....", ".....", ".....", "....."])["G"] == 1


@pytest.mark.parametrize(
    "rows, message",
    [
        ("RRR..", "a list of 5 rows"),
        (["RRR..", ".....", ".....", "....."], "a list of 5 rows"),
        (["RRR..", ".....", ".....", ".....", "...."], "row 5 must be a string of 5 characters"),
        (["RRR..", ".....", 12345, ".....", "....."], "row 3 must be a string of 5 characters"),
        (["RRR..", ".....", ".....", ".X...", "....."], "'X' at B4 is not a piece"),
        (["rrr..", ".....", ".....", ".....", "....."], "'r' at A1 is not a piece"),
    ],
)
def test_score_board_refuses_bad_boards(rows, message):
    with pytest.raises(ValueError, match=message):
        score_board(rows)


# ---------------------------------------------------------------------- layouts


def _turned(board):
    """The board turned a quarter clockwise: the cell at (row r, column c) goes to (c, 4 - r)."""
    cells = ["?"] * 25
    for index, piece in enumerate(board):
        row, column = divmod(index, 5)
        cells[column * 5 + (4 - row)] = piece
    return "".join(cells)


def test_fair_layout_is_the_same_for_every_colour_and_scores_nothing():
    recoloured = _turned(FAIR_LAYOUT).translate(str.maketrans("RGYB", "GYBR"))
    assert recoloured == FAIR_LAYOUT  # a quarter turn maps each colour onto the next
    assert FAIR_LAYOUT[12] == "."  # C3, the centre
    assert Counter(FAIR_LAYOUT) == {"R": 5, "G": 5, "Y": 5, "B": 5, ".": 5}
    assert score_board([FAIR_LAYOUT[r * 5 : r * 5 + 5] for r in range(5)]) == {"R": 0, "G": 0, "Y": 0, "B": 0}
    for index, piece in enumerate(FAIR_LAYOUT):  # no two pieces of one colour touch
        right = FAIR_LAYOUT[index + 1] if index % 5 < 4 else "."
        below = FAIR_LAYOUT[index + 5] if index < 20 else "."
        assert piece == "." or piece not in (right, below), CELLS[index]


@pytest.mark.parametrize("side", ["front", "back"])
def test_fair_layout_gives_nobody_a_point_in_one_step(side):
    state = GAME.setup(4, 1, {"board": side})
    for seat in range(4):
        state["turn"] = seat
        for action in GAME.legal_actions(state, seat):
            if action["type"] != "trump":
                after = GAME.apply(state, seat, action)
                assert set(GAME.view(after, None)["public"]["scores"].values()) == {0}, action


def test_the_default_setup_uses_the_fair_layout():
    state = GAME.setup(4, 3)
    assert state["options"] == {"board": "front", "direction": "clockwise", "layout": "fair", "typed_layout": ""}
    assert state["board"] == FAIR_LAYOUT
    assert rows_of(state) == [".RBR.", "BYGBG", "YR.YR", "BGBRG", ".YGY."]


def test_random_layout_follows_the_seed_and_starts_without_runs():
    boards = [GAME.setup(2, seed, {"layout": "random"})["board"] for seed in range(30)]
    assert boards[0] == GAME.setup(2, 0, {"layout": "random"})["board"]
    assert len(set(boards)) == 30
    for board in boards:
        assert Counter(board) == {"R": 5, "G": 5, "Y": 5, "B": 5, ".": 5}
        assert set(score_board([board[r * 5 : r * 5 + 5] for r in range(5)]).values()) == {0}


def test_typed_layout_in_rows_or_in_one_string():
    rows = "RGYB./GYBR./YBRG./BRGY./RGYB."
    state = GAME.setup(2, 1, {"layout": "typed", "typed_layout": rows})
    assert rows_of(state) == rows.split("/")
    same = GAME.setup(2, 1, {"layout": "typed", "typed_layout": rows.replace("/", "").lower()})
    assert same["board"] == state["board"]


def test_typed_layout_may_start_with_some_points():
    rows = "RGYB./GYBR./YBRG./BRGY./RGYB."  # each colour holds one diagonal run
    state = GAME.setup(4, 1, {"layout": "typed", "typed_layout": rows})
    assert GAME.view(state, None)["public"]["scores"] == {"0": 1, "1": 1, "2": 1, "3": 1}
    state = GAME.setup(2, 1, {"layout": "typed", "typed_layout": rows})
    assert GAME.view(state, None)["public"]["scores"] == {"0": 2, "1": 2}


@pytest.mark.parametrize(
    "typed, message",
    [
        ("RGYB./GYBR.", "needs 5 rows joined by '/', not 2"),
        ("RGYB./GYBR/YBRG./BRGY./RGYB.", "row 2 of the typed layout has 4 cells, not 5"),
        ("RGYB.GYBR.YBRG.BRGY.RGYB", "needs 25 cells .or 5 rows of 5 joined by '/'., not 24"),
        ("RGYB./GYBR./YBXG./BRGY./RGYB.", "'X' at C3 is not a piece: use R, G, Y, B or . .empty."),
        ("RRGGY/YBBR./RGYB./RGYB./GYBB.", "has 6 blue, 4 empty: it needs 5 pieces of each colour and 5 empty cells"),
        ("RRRRR/GGGGG/YYYYY/BBBBB/GYB..", "has 6 green, 6 yellow, 6 blue, 2 empty:"),
        (12345, "a typed layout must be text"),
    ],
)
def test_typed_layout_errors_say_what_is_wrong(typed, message):
    with pytest.raises(ValueError, match=message):
        GAME.setup(4, 1, {"layout": "typed", "typed_layout": typed})
    with pytest.raises(ValueError, match=message):
        parse_layout(typed)


def test_typed_layout_option_goes_with_the_typed_layout_choice():
    with pytest.raises(ValueError, match="layout 'typed' needs the layout itself"):
        GAME.setup(4, 1, {"layout": "typed"})
    with pytest.raises(ValueError, match="only used with layout 'typed'"):
        GAME.setup(4, 1, {"layout": "fair", "typed_layout": FAIR_LAYOUT})


def test_a_typed_layout_already_won_is_refused():
    rows = "RRRRR/GGGG./YYYY./BBBB./GYB.."  # red starts with five in a row
    with pytest.raises(ValueError, match="seat 1 already has 5 points"):
        GAME.setup(4, 1, {"layout": "typed", "typed_layout": rows})
    # with two players seat 1 plays red and yellow: 5 + 1
    with pytest.raises(ValueError, match="seat 1 already has 6 points"):
        GAME.setup(2, 1, {"layout": "typed", "typed_layout": rows})


def test_other_options_are_checked():
    with pytest.raises(ValueError, match="option 'board' must be one of"):
        GAME.setup(4, 1, {"board": "middle"})
    with pytest.raises(ValueError, match="option 'direction' must be one of"):
        GAME.setup(4, 1, {"direction": "left"})
    with pytest.raises(ValueError, match="option 'layout' must be one of"):
        GAME.setup(4, 1, {"layout": "mine"})


def test_only_two_or_four_players():
    with pytest.raises(ValueError, match="SWAP 5 is for 2 or 4 players, not 3"):
        GAME.setup(3, 1)


# ---------------------------------------------------------------------- colours and cards


def test_colours_owned_four_players_one_each_two_players_two_each():
    four = GAME.view(GAME.setup(4, 1), 2)
    assert four["public"]["colours"] == {"0": ["R"], "1": ["G"], "2": ["Y"], "3": ["B"]}
    assert four["private"]["colours"] == ["Y"]
    two = GAME.view(GAME.setup(2, 1), 1)
    assert two["public"]["colours"] == {"0": ["R", "Y"], "1": ["G", "B"]}
    assert two["private"]["colours"] == ["G", "B"]


@pytest.mark.parametrize("players, out", [(2, 6), (4, 2)])
def test_two_trump_cards_each_the_rest_out_of_the_game(players, out):
    state = GAME.setup(players, 5)
    hands = [state["hands"][str(s)] for s in range(players)]
    assert all(len(hand) == 2 for hand in hands)
    assert len(state["out"]) == out
    assert sorted(sum(hands, []) + state["out"]) == sorted(TRUMP_CARDS)
    assert sorted(TRUMP_CARDS) == sorted(
        ["row-1-2", "row-2-3", "row-3-4", "row-4-5", "row-5-1", "col-A-B", "col-B-C", "col-C-D", "col-D-E", "col-E-A"]
    )
    assert GAME.components(state) == sorted(["piece-" + c for c in "RGYB" * 5] + list(TRUMP_CARDS))


def test_unplayed_cards_are_secret_played_cards_public():
    state = GAME.setup(4, 3)
    card = state["hands"]["0"][0]
    state = play(state, 0, type="trump", card=card)
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(state, seat)
        text = json.dumps(view)
        hidden = state["out"] + [c for other in range(4) if other != seat for c in state["hands"][str(other)]]
        assert not [c for c in hidden if c in text]
        assert view["public"]["trumps_played"] == [{"seat": 0, "card": card}]
        assert view["public"]["trumps_in_hand"] == {"0": 1, "1": 2, "2": 2, "3": 2}
        assert view["public"]["trumps_out_of_game"] == 2
    for seat in range(4):
        assert GAME.view(state, seat)["private"]["hand"] == state["hands"][str(seat)]
    assert len(state["hands"]["0"]) == 1


def test_setup_log_tells_each_seat_its_own_cards_only():
    state = GAME.setup(2, 9)
    mine = GAME.view(state, 0)["log"][0]["text"]
    theirs = GAME.view(state, 1)["log"][0]["text"]
    assert state["hands"]["0"] == ["col-C-D", "row-4-5"]  # named in words, never by id
    assert mine["en"].endswith("your trump cards: the column swap C <-> D and the row swap 4 <-> 5.")
    assert mine["ja"].endswith("トランプカードは「C列とD列の入れ替え」と「4行目と5行目の入れ替え」。")
    assert "the column swap C <-> D" not in theirs["en"] and "C列とD列" not in theirs["ja"]
    assert "You play red and yellow" in mine["en"]


def test_scramble_keeps_what_a_seat_sees():
    state = GAME.setup(4, 2)
    scrambled = GAME.scramble_hidden(state, 1, 77)
    assert scrambled["hands"]["1"] == state["hands"]["1"]
    assert GAME.view(scrambled, 1) == GAME.view(state, 1)
    assert GAME.components(scrambled) == GAME.components(state)


# ---------------------------------------------------------------------- swaps and moves


def test_swap_with_an_orthogonal_neighbour_of_any_colour():
    state = position(4, [".....", ".RG..", ".Y...", ".....", "....."])
    legal = GAME.legal_actions(state, 0)
    assert legal == [
        {"type": "move", "from": "B2", "to": "B1"},
        {"type": "move", "from": "B2", "to": "A2"},
        {"type": "swap", "from": "B2", "to": "C2"},
        {"type": "swap", "from": "B2", "to": "B3"},
    ] + [{"type": "trump", "card": card} for card in state["hands"]["0"]]
    after = play(state, 0, type="swap", **{"from": "B2", "to": "C2"})
    assert rows_of(after)[1] == ".GR.."
    after = play(state, 0, type="swap", **{"from": "B2", "to": "B3"})
    assert rows_of(after)[1:3] == [".YG..", ".R..."]


def test_move_into_an_empty_neighbour():
    state = position(4, [".....", ".R...", ".....", ".....", "....."])
    after = play(state, 0, type="move", **{"from": "B2", "to": "A2"})
    assert rows_of(after)[1] == "R...."


def test_two_players_may_swap_their_own_two_colours():
    state = position(2, [".....", ".RY..", ".....", ".....", "....."])
    assert {"type": "swap", "from": "B2", "to": "C2"} in GAME.legal_actions(state, 0)
    assert {"type": "swap", "from": "C2", "to": "B2"} in GAME.legal_actions(state, 0)
    assert rows_of(play(state, 0, type="swap", **{"from": "C2", "to": "B2"}))[1] == ".YR.."


def test_pieces_of_one_colour_are_not_swapped():
    state = position(4, [".....", ".RR..", ".....", ".....", "....."])
    assert {"type": "swap", "from": "B2", "to": "C2"} not in GAME.legal_actions(state, 0)
    message = refused(state, 0, {"type": "swap", "from": "B2", "to": "C2"})
    assert message == "B2 and C2 both hold red pieces: swapping them would change nothing"


def test_front_side_has_no_diagonal_steps():
    state = position(4, [".....", ".RG..", "..G..", ".....", "....."])
    message = refused(state, 0, {"type": "swap", "from": "B2", "to": "C3"})
    assert message == (
        "C3 is not next to B2: on the front board a piece only goes up, down, left or right "
        "(from B2: B1, A2, C2, B3)"
    )


def test_back_side_steps_along_the_alquerque_diagonals():
    state = position(4, [".....", ".RG..", "..G..", ".....", "....."], board="back")
    targets = sorted(a["to"] for a in GAME.legal_actions(state, 0) if a["type"] != "trump")
    assert targets == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"]  # B2: row 2 + column B is even
    assert rows_of(play(state, 0, type="swap", **{"from": "B2", "to": "C3"}))[1:3] == [".GG..", "..R.."]


def test_back_side_has_no_diagonal_from_an_odd_cell():
    state = position(4, [".R...", ".....", ".....", ".....", "....."], board="back")  # B1: 0 + 1 is odd
    targets = sorted(a["to"] for a in GAME.legal_actions(state, 0) if a["type"] != "trump")
    assert targets == ["A1", "B2", "C1"]
    message = refused(state, 0, {"type": "move", "from": "B1", "to": "C2"})
    assert message.startswith("C2 is not next to B1: on the back board a piece goes up, down, left, right or along")


def test_back_side_diagonals_are_the_even_cells_in_the_public_view():
    view = GAME.view(position(4, board="back"), None)["public"]
    assert len(view["diagonals"]) == 16
    for first, second in view["diagonals"]:
        for cell in (first, second):
            column, row = "ABCDE".index(cell[0]), int(cell[1]) - 1
            assert (column + row) % 2 == 0
    assert GAME.view(position(4), None)["public"]["diagonals"] == []


# ---------------------------------------------------------------------- trump cards


def test_row_trump_swaps_two_whole_rows_gaps_included():
    state = position(4, ["R.G..", "..YB.", ".....", ".....", "....."], hands={0: ["row-1-2"]})
    after = play(state, 0, type="trump", card="row-1-2")
    assert rows_of(after)[:2] == ["..YB.", "R.G.."]
    assert after["hands"]["0"] == []


def test_trump_cards_wrap_round_from_row_5_to_row_1_and_column_e_to_a():
    rows = ["R....", ".....", ".....", ".....", "G...Y"]
    state = position(4, rows, hands={0: ["row-5-1", "col-E-A"]})
    after = play(state, 0, type="trump", card="row-5-1")
    assert rows_of(after) == ["G...Y", ".....", ".....", ".....", "R...."]
    after = play(state, 0, type="trump", card="col-E-A")
    assert rows_of(after) == ["....R", ".....", ".....", ".....", "Y...G"]


def test_column_trump_swaps_two_whole_columns():
    rows = ["RG...", "Y....", ".B...", ".....", "....."]
    state = position(4, rows, hands={0: ["col-A-B"]})
    assert rows_of(play(state, 0, type="trump", card="col-A-B"))[:3] == ["GR...", ".Y...", "B...."]


# ---------------------------------------------------------------------- turns


@pytest.mark.parametrize("direction, order", [("clockwise", [0, 1, 2, 3, 0]), ("counterclockwise", [0, 3, 2, 1, 0])])
def test_turn_direction(direction, order):
    state = GAME.setup(4, 4, {"direction": direction})
    seen = []
    for _ in range(5):
        seat = GAME.to_act(state)[0]
        seen.append(seat)
        move = next(a for a in GAME.legal_actions(state, seat) if a["type"] != "trump")
        state = GAME.apply(state, seat, move)
    assert seen == order
    assert GAME.view(state, None)["public"]["turn_order"] == order[:4]


def test_a_player_may_only_act_on_their_turn():
    state = position(4, [".....", ".R...", ".....", ".....", "....."], turn=1)
    assert GAME.legal_actions(state, 0) == []
    assert refused(state, 0, {"type": "move", "from": "B2", "to": "A2"}) == "it is not your turn (waiting for {s1})"


# ---------------------------------------------------------------------- scores and their reasons


def test_a_move_reports_whose_score_changed_and_which_runs():
    rows = ["GG.G.", "RRYR.", ".....", ".....", "....."]
    state = position(4, rows)
    after = play(state, 0, type="swap", **{"from": "D2", "to": "C2"})
    public = GAME.view(after, None)["public"]
    assert public["board"][1] == "RRRY."
    assert public["scores"] == {"0": 1, "1": 0, "2": 0, "3": 0}
    assert public["runs"] == [{"colour": "R", "cells": ["A2", "B2", "C2"], "points": 1}]
    assert public["last_move"] == {
        "seat": 0,
        "type": "swap",
        "from": "D2",
        "to": "C2",
        "changes": [
            {
                "seat": 0,
                "before": 0,
                "after": 1,
                "made": [{"colour": "R", "cells": ["A2", "B2", "C2"], "points": 1}],
                "broken": [],
            }
        ],
    }
    assert GAME.view(after, None)["log"][-1]["text"]["en"] == (
        "{s0} swapped red D2 with yellow C2. {s0}: 0 → 1 point (made red A2 B2 C2)."
    )


def test_a_move_can_score_for_someone_else():
    state = position(4, ["GGR..", "..G..", ".....", ".....", "....."])
    after = play(state, 0, type="swap", **{"from": "C1", "to": "C2"})  # red lets green into C1
    public = GAME.view(after, None)["public"]
    assert public["board"][:2] == ["GGG..", "..R.."]
    assert public["scores"] == {"0": 0, "1": 1, "2": 0, "3": 0}
    assert public["last_move"]["changes"] == [
        {"seat": 1, "before": 0, "after": 1, "made": [{"colour": "G", "cells": ["A1", "B1", "C1"], "points": 1}], "broken": []}
    ]
    assert GAME.view(after, 2)["log"][-1]["text"]["en"] == (
        "{s0} swapped red C1 with green C2. {s1}: 0 → 1 point (made green A1 B1 C1)."
    )


def test_a_broken_run_is_reported_even_when_the_score_stays():
    # red moves its C1 down: the row A1-C1 breaks, the column C2-C4 forms
    rows = ["RRR..", ".....", "..R..", "..R..", "....."]
    state = position(4, rows)
    after = play(state, 0, type="move", **{"from": "C1", "to": "C2"})
    change = GAME.view(after, None)["public"]["last_move"]["changes"]
    assert change == [
        {
            "seat": 0,
            "before": 1,
            "after": 1,
            "made": [{"colour": "R", "cells": ["C2", "C3", "C4"], "points": 1}],
            "broken": [{"colour": "R", "cells": ["A1", "B1", "C1"], "points": 1}],
        }
    ]


def test_two_player_scores_add_both_colours():
    rows = ["RRR..", "YYY..", ".....", "GGG..", "....."]
    view = GAME.view(position(2, rows), None)["public"]
    assert view["scores"] == {"0": 2, "1": 1}


# ---------------------------------------------------------------------- endings


def test_five_points_end_the_game_at_once():
    rows = ["RRRR.", "....R", ".....", ".....", "....."]
    state = position(4, rows)
    after = play(state, 0, type="move", **{"from": "E2", "to": "E1"})
    assert GAME.is_over(after)
    assert GAME.to_act(after) == []
    assert GAME.result(after) == {
        "winners": [0],
        "scores": {"0": 5, "1": 0, "2": 0, "3": 0},
        "ending": "five-points",
        "tie_broken": False,
        "summary": {"en": "{s0} wins with 5 points.", "ja": "{s0}が5点で勝ちました。"},
    }
    assert GAME.view(after, None)["public"]["step"] == "over"
    assert GAME.view(after, None)["log"][-1]["text"]["en"] == "Game over: {s0} reached 5 points. {s0} wins with 5 points."


def test_five_points_scored_by_someone_else_end_the_game_for_them():
    state = position(4, ["GGGGR", "....G", ".....", ".....", "....."])
    after = play(state, 0, type="swap", **{"from": "E1", "to": "E2"})
    assert GAME.result(after)["winners"] == [1]
    assert GAME.result(after)["scores"] == {"0": 0, "1": 5, "2": 0, "3": 0}


def test_five_or_more_counts_both_colours_of_a_two_player_seat():
    rows = ["RRRR.", "....R", "YYY..", ".....", "....."]  # red 1 + yellow 1
    state = position(2, rows)
    after = play(state, 0, type="move", **{"from": "E2", "to": "E1"})
    assert GAME.result(after)["scores"] == {"0": 6, "1": 0}
    assert GAME.result(after)["ending"] == "five-points"


def test_four_points_do_not_end_the_game():
    rows = ["RRR..", "R....", "....Y", "R...Y", "..YYY"]  # red 1, yellow 2
    state = position(2, rows)
    after = play(state, 0, type="move", **{"from": "A4", "to": "A3"})  # red's column A1-A3
    assert GAME.view(after, None)["public"]["scores"] == {"0": 4, "1": 0}
    assert not GAME.is_over(after)
    assert GAME.to_act(after) == [1]


def test_last_trump_card_gives_every_other_player_one_more_turn():
    hands = {0: ["row-1-2"], 1: ["row-2-3", "row-3-4"], 2: ["row-4-5", "col-A-B"], 3: ["col-B-C", "col-C-D"]}
    state = position(4, hands=hands, turn=1)
    state = play(state, 1, type="trump", card="row-2-3")  # seat 1 keeps one card: play goes on
    assert state["final_lap"] is None
    state = play(state, 2, type="trump", card="row-4-5")
    state = play(state, 3, type="trump", card="col-B-C")
    state = play(state, 0, type="trump", card="row-1-2")  # seat 0's last card
    public = GAME.view(state, None)["public"]
    assert public["phase"] == "final-lap"
    assert public["final_lap"] == {"trigger": 0, "remaining": [1, 2, 3]}
    assert "{s0} played their last trump card" in GAME.view(state, None)["log"][-1]["text"]["en"]
    for seat in (1, 2, 3):
        assert GAME.to_act(state) == [seat]
        move = next(a for a in GAME.legal_actions(state, seat) if a["type"] != "trump")
        state = GAME.apply(state, seat, move)
    assert GAME.is_over(state)  # seat 0, who played the last card, is skipped
    assert GAME.result(state)["ending"] == "last-trump"


def test_a_second_last_card_in_the_final_lap_does_not_extend_it():
    state = position(2, hands={0: ["row-1-2"], 1: ["row-2-3"]})
    state = play(state, 0, type="trump", card="row-1-2")
    assert GAME.view(state, None)["public"]["final_lap"] == {"trigger": 0, "remaining": [1]}
    state = play(state, 1, type="trump", card="row-2-3")
    assert GAME.is_over(state)
    assert GAME.result(state)["ending"] == "last-trump"


def test_final_lap_runs_counterclockwise_when_play_does():
    hands = {0: ["row-1-2"], 1: ["row-2-3"], 2: ["row-3-4"], 3: ["row-4-5"]}
    state = position(4, hands=hands, direction="counterclockwise", turn=2)
    state = play(state, 2, type="trump", card="row-3-4")
    assert GAME.view(state, None)["public"]["final_lap"] == {"trigger": 2, "remaining": [1, 0, 3]}
    assert GAME.to_act(state) == [1]


def test_five_points_in_the_final_lap_end_it_at_once():
    rows = ["RRRR.", "....R", ".....", ".....", "....."]
    state = position(4, rows, hands={3: ["row-3-4"]}, turn=3)
    state = play(state, 3, type="trump", card="row-3-4")  # blue's last card: rows 3 and 4 are empty
    assert GAME.view(state, None)["public"]["final_lap"] == {"trigger": 3, "remaining": [0, 1, 2]}
    state = play(state, 0, type="move", **{"from": "E2", "to": "E1"})
    assert GAME.is_over(state)
    assert GAME.result(state)["ending"] == "five-points"


# green (seat 1) and blue (seat 3) end on one run each; red plays its last card, the
# column swap D<->E turning the board into the one below, then each other seat moves once
TIE_BOARD = ["GGG.G", ".....", "BBB.Y", "....B", "R...."]
AFTER_RED = ["GGGG.", ".....", "BBBY.", "...B.", "R...."]
FINAL_MOVES = {1: ("D1", "E1"), 2: ("D3", "D2"), 3: ("D4", "D5")}


@pytest.mark.parametrize("direction, order, winner", [("clockwise", [1, 2, 3], 1), ("counterclockwise", [3, 2, 1], 3)])
def test_tie_goes_to_the_first_tied_player_of_the_extra_lap_after_the_start_players_last_card(direction, order, winner):
    state = position(4, TIE_BOARD, hands={0: ["col-D-E"]}, direction=direction)
    state = play(state, 0, type="trump", card="col-D-E")
    assert rows_of(state) == AFTER_RED
    for seat in order:
        start, end = FINAL_MOVES[seat]
        state = play(state, seat, type="move", **{"from": start, "to": end})
    result = GAME.result(state)
    assert result == {
        "winners": [winner], "scores": {"0": 0, "1": 1, "2": 0, "3": 1}, "ending": "last-trump", "tie_broken": True,
        "summary": {
            "en": f"{{s1}} and {{s3}} tied on 1 point; {{s{winner}}} wins by acting first in the last lap.",
            "ja": f"{{s1}}と{{s3}}が1点で並び、最後の一巡で先に行動した{{s{winner}}}の勝ちです。",
        },
    }
    last_line = GAME.view(state, None)["log"][-1]["text"]["en"]
    assert last_line.endswith(f"(tied on points: first to act in the last lap, which began with {{s{order[0]}}}).")
    assert f"{{s{winner}}} wins with 1 point (" in last_line  # not "1 points" (issue #33, point 12)


def quiet_move(state, seat):
    """A swap or move of ``seat``'s that changes nobody's score."""
    scores = GAME.view(state, None)["public"]["scores"]
    for action in GAME.legal_actions(state, seat):
        if action["type"] != "trump":
            after = GAME.apply(state, seat, action)
            if GAME.view(after, None)["public"]["scores"] == scores:
                return after
    raise AssertionError(f"seat {seat} has no quiet move")


def end_by_last_trump(state, trigger, card):
    """``trigger`` plays its last trump card (one that changes no score); every other seat
    then makes a quiet move in the extra lap. Returns the final state and the lap's order."""
    state["turn"] = trigger
    state = play(state, trigger, type="trump", card=card)
    lap = list(state["final_lap"]["remaining"])
    for seat in lap:
        assert GAME.to_act(state) == [seat]
        state = quiet_move(state, seat)
    return state, lap


# one run each for green (seat 1) and blue (seat 3), none for red and yellow; row swaps keep them
TWO_RUNS = ["GGG.G", ".....", "BBB.B", ".....", "R...Y"]


@pytest.mark.parametrize(
    "direction, trigger, lap, winner",
    [
        ("clockwise", 2, [3, 0, 1], 3),  # the extra lap begins after yellow: blue acts before green
        ("counterclockwise", 2, [1, 0, 3], 1),  # ... and the other way round
        ("clockwise", 1, [2, 3, 0], 3),  # green emptied their hand: they come after every tied player
        ("counterclockwise", 3, [2, 1, 0], 1),  # blue emptied their hand
    ],
)
def test_a_last_trump_tie_goes_to_the_tied_player_who_acted_first_in_the_extra_lap(direction, trigger, lap, winner):
    state = position(4, TWO_RUNS, hands={trigger: ["row-1-2"]}, direction=direction)
    state, played = end_by_last_trump(state, trigger, "row-1-2")
    assert played == lap
    result = GAME.result(state)
    assert result.pop("summary")["en"] == f"{{s1}} and {{s3}} tied on 1 point; {{s{winner}}} wins by acting first in the last lap."
    assert result == {"winners": [winner], "scores": {"0": 0, "1": 1, "2": 0, "3": 1}, "ending": "last-trump", "tie_broken": True}


@pytest.mark.parametrize("trigger, winner", [(0, 1), (1, 0)])
def test_two_players_tied_on_both_colours_the_one_who_did_not_empty_their_hand_wins(trigger, winner):
    rows = ["RRR.R", "YYY.Y", "GGG.G", "BBB.B", "....."]  # seat 0: red 1 + yellow 1; seat 1: green 1 + blue 1
    state = position(2, rows, hands={trigger: ["row-5-1"]})
    state, lap = end_by_last_trump(state, trigger, "row-5-1")
    assert lap == [winner]
    result = GAME.result(state)
    assert result.pop("summary")["en"] == f"{{s0}} and {{s1}} tied on 2 points; {{s{winner}}} wins by acting first in the last lap."
    assert result == {"winners": [winner], "scores": {"0": 2, "1": 2}, "ending": "last-trump", "tie_broken": True}


def test_a_tie_at_zero_after_the_last_trump_card_goes_to_the_other_player():
    state = position(2, hands={0: ["row-1-2"], 1: []})
    state = play(state, 0, type="trump", card="row-1-2")
    state = play(state, 1, **next(a for a in GAME.legal_actions(state, 1)))
    assert GAME.result(state)["scores"] == {"0": 0, "1": 0}
    assert GAME.result(state)["winners"] == [1]


# yellow's swap of E2 with green's E1 completes a yellow row and a green row at once
DOUBLE_FIVE = ["YYYYG", "GGGGY", ".....", ".....", "R...B"]


@pytest.mark.parametrize("direction, winner", [("clockwise", 1), ("counterclockwise", 2)])
def test_a_five_point_tie_goes_to_who_acted_first_in_the_lap_in_progress_from_the_start_player(direction, winner):
    # clockwise the lap runs 0, 1, 2: green acted before yellow; counterclockwise it runs
    # 0, 3, 2, 1: green had not acted yet, so comes after yellow
    state = position(4, DOUBLE_FIVE, turn=2, direction=direction)
    state = play(state, 2, type="swap", **{"from": "E2", "to": "E1"})
    result = GAME.result(state)
    assert result.pop("summary") == {
        "en": f"{{s1}} and {{s2}} tied on 5 points; {{s{winner}}} wins by acting first in the last lap.",
        "ja": f"{{s1}}と{{s2}}が5点で並び、最後の一巡で先に行動した{{s{winner}}}の勝ちです。",
    }
    assert result == {"winners": [winner], "scores": {"0": 0, "1": 5, "2": 5, "3": 0}, "ending": "five-points", "tie_broken": True}
    assert GAME.view(state, None)["log"][-1]["text"]["en"].endswith("which began with {s0}).")


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_a_five_point_tie_in_the_extra_lap_is_broken_by_the_extra_laps_order(direction):
    """RULINGS §3 (revised 2026-11-25), issue 23 point 10: green (seat 1) plays their last card;
    in the extra lap yellow (seat 2) acts and ties green on 5. Green acted in no part of the
    extra lap and comes last: yellow wins, whichever way turns go (the start player is not counted from)."""
    state = position(4, DOUBLE_FIVE, hands={1: ["row-3-4"]}, turn=1, direction=direction)
    state = play(state, 1, type="trump", card="row-3-4")  # green's last card; rows 3 and 4 are empty
    if direction == "counterclockwise":  # the extra lap runs 0, 3, 2: two quiet moves first
        state = quiet_move(quiet_move(state, 0), 3)
    assert GAME.to_act(state) == [2]
    state = play(state, 2, type="swap", **{"from": "E2", "to": "E1"})
    result = GAME.result(state)
    assert result["ending"] == "five-points" and result["winners"] == [2]
    assert result["summary"]["en"] == "{s1} and {s2} tied on 5 points; {s2} wins by acting first in the last lap."
    first = "{s2}" if direction == "clockwise" else "{s0}"
    assert GAME.view(state, None)["log"][-1]["text"]["en"].endswith(f"which began with {first}).")


def test_random_four_player_ties_are_spread_over_the_seats_and_never_go_to_who_emptied_their_hand():
    from companion.simulate import random_playout

    tie_winners = Counter()
    for seed in range(200):
        state, _ = random_playout(GAME, 4, seed)
        result = GAME.result(state)
        if result["tie_broken"]:
            tie_winners[result["winners"][0]] += 1
            if result["ending"] == "last-trump":
                assert result["winners"][0] != state["final_lap"]["trigger"], seed
    ties = sum(tie_winners.values())
    assert ties > 60  # random games end tied about half the time
    assert max(tie_winners.values()) < ties / 2, tie_winners  # the old reading gave seat 0 nearly all


def test_highest_score_wins_without_tie_break():
    rows = ["GGG..", "G....", "G...Y", ".....", "BBB.R"]  # green: row A1-C1 and column A1-A3
    state = position(4, rows, hands={0: ["col-D-E"], 1: ["row-4-5"], 3: ["row-2-3"]})
    state = play(state, 0, type="trump", card="col-D-E")
    state = play(state, 1, type="trump", card="row-4-5")
    state = play(state, 2, type="move", **{"from": "D3", "to": "D2"})
    state = play(state, 3, type="trump", card="row-2-3")
    assert rows_of(state) == ["GGG..", "G....", "G..Y.", "BBBR.", "....."]
    result = GAME.result(state)
    assert result.pop("summary") == {"en": "{s1} wins with 2 points.", "ja": "{s1}が2点で勝ちました。"}
    assert result == {"winners": [1], "scores": {"0": 0, "1": 2, "2": 0, "3": 1}, "ending": "last-trump", "tie_broken": False}


# ---------------------------------------------------------------------- bad input


def _explained_position():
    state = position(4, [".....", ".RG..", "..R..", ".....", "....."], hands={0: ["row-1-2"], 1: ["col-A-B"]})
    state["out"].remove("col-C-D")
    state["played"] = [{"seat": 2, "card": "col-C-D"}]
    return state


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "fly"}, "unknown action type 'fly' (allowed now: move, swap, trump)"),
        ({"type": "swap", "from": "B2", "to": "C2", "extra": 1}, "a 'swap' action has no field 'extra' (its fields: from, to)"),
        ({"type": "swap", "to": "C2"}, "a 'swap' action needs the field 'from' (its fields: from, to)"),
        ({"type": "move", "from": "B2"}, "a 'move' action needs the field 'to'"),
        ({"type": "move", "from": "B2", "to": None}, "None is not a cell: cells are A1 to E5"),
        ({"type": "swap", "from": "F7", "to": "C2"}, "'F7' is not a cell: cells are A1 to E5"),
        ({"type": "swap", "from": "b2", "to": "C2"}, "'b2' is not a cell"),
        ({"type": "swap", "from": 7, "to": "C2"}, "7 is not a cell"),
        ({"type": "swap", "from": "B2", "to": ["C2"]}, "['C2'] is not a cell"),
        ({"type": "move", "from": "A1", "to": "A2"}, "A1 is empty: a move starts from one of your own pieces"),
        ({"type": "swap", "from": "C2", "to": "B2"}, "C2 holds a green piece, and you play red: you may only swap your own pieces"),
        ({"type": "swap", "from": "B2", "to": "B2"}, '"from" and "to" are both B2: pick a neighbouring cell'),
        ({"type": "swap", "from": "B2", "to": "D2"}, "D2 is not next to B2: on the front board"),
        ({"type": "swap", "from": "B2", "to": "B1"}, "B1 is empty: going there is a move, not a swap"),
        ({"type": "move", "from": "B2", "to": "C2"}, "C2 holds a green piece: exchanging with it is a swap, not a move"),
        ({"type": "trump"}, "a 'trump' action needs the field 'card' (its fields: card)"),
        ({"type": "trump", "card": "row-1-3"}, "'row-1-3' is not a trump card (the cards swap rows 1 <-> 2, 2 <-> 3, "
         "3 <-> 4, 4 <-> 5, 5 <-> 1 or columns A <-> B, B <-> C, C <-> D, D <-> E, E <-> A)"),
        ({"type": "trump", "card": 12}, "12 is not a trump card"),
        ({"type": "trump", "card": "col-C-D"}, "the column swap C <-> D has already been played"),
        ({"type": "trump", "card": "col-A-B"}, "you do not hold the column swap A <-> B (your cards: the row swap 1 <-> 2)"),
        ({"type": "trump", "card": "row-1-2", "cell": "A1"}, "a 'trump' action has no field 'cell' (its fields: card)"),
    ],
)
def test_illegal_actions_are_refused_with_the_reason(action, message):
    assert refused(_explained_position(), 0, action).startswith(message)


def test_trump_with_no_cards_left():
    state = _explained_position()
    state["turn"] = 2
    state["board"] = state["board"][:20] + "Y...."
    assert refused(state, 2, {"type": "trump", "card": "row-1-2"}) == "you have no trump cards left"
    assert refused(state, 2, {"type": "fly"}) == "unknown action type 'fly' (allowed now: move)"


def test_nothing_is_allowed_once_the_game_is_over():
    state = position(4, ["RRRR.", "....R", ".....", ".....", "....."])
    state = play(state, 0, type="move", **{"from": "E2", "to": "E1"})
    assert refused(state, 1, {"type": "move", "from": "E1", "to": "E2"}) == "the game is over"


def test_a_saved_game_loads_back_exactly():
    state = GAME.setup(2, 8, {"layout": "random", "board": "back"})
    seat = GAME.to_act(state)[0]
    state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    assert GAME.load(GAME.dump(state)) == state


def test_refusals_come_in_japanese_too():
    state = _explained_position()
    for action, ja in [
        ({"type": "trump", "card": "col-A-B"}, "「A列とB列の入れ替え」は持っていません(あなたのカード: 「1行目と2行目の入れ替え」)"),
        ({"type": "trump", "card": "col-C-D"}, "「C列とD列の入れ替え」はもう使われています"),
        ({"type": "swap", "from": "C2", "to": "B2"}, "C2 は緑の駒で、あなたの色は赤です。スワップできるのは自分の駒だけです"),
        ({"type": "move", "from": "B2", "to": "C2"}, "C2 には緑の駒があります。入れ替えるのは移動ではなくスワップです"),
    ]:
        with pytest.raises(IllegalAction) as refused_action:
            GAME.apply(state, 0, action)
        assert refused_action.value.ja == ja


def test_a_trump_card_is_logged_in_words_never_by_its_id():
    state = position(4, ["R.G..", "..YB.", ".....", ".....", "....."], hands={0: ["col-E-A", "row-1-2"]})
    text = GAME.view(play(state, 0, type="trump", card="col-E-A"), None)["log"][-1]["text"]
    assert text["en"].startswith("{s0} played the column swap E <-> A.")
    assert text["ja"].startswith("{s0}がトランプカード「E列とA列の入れ替え」を使いました。")
    assert "col-" not in text["en"] + text["ja"]


def test_a_search_state_words_no_move_and_plays_as_the_table_does(monkeypatch):
    """A search plays unlogged states (Game.unlogged) that nobody reads: the engine does
    not word their moves at all (wording was a sixth of a playout), whichever way the game
    goes on and ends."""
    worded = {"logged": 0, "unlogged": 0}
    log = type(GAME).log

    def counting_log(self, state, *words, **private):
        worded["logged" if GAME.keeps_log(state) else "unlogged"] += 1
        log(self, state, *words, **private)

    monkeypatch.setattr(type(GAME), "log", counting_log)
    games = [GAME.setup(players, seed) for players in (2, 4) for seed in range(12)]
    endings = set()
    for logged in games:
        searched = GAME.unlogged(logged)
        chooser = random.Random(logged["players"] * 100 + logged["seed"])
        while not GAME.is_over(searched):
            seat = GAME.to_act(searched)[0]
            action = chooser.choice(GAME.legal_actions(searched, seat))
            searched = GAME.apply(searched, seat, action)
            logged = GAME.apply(logged, seat, action)
            assert {**searched, "log": logged["log"]} == logged
        endings.add(searched["result"]["ending"])
    assert endings == {"five-points", "last-trump"}, "the games did not reach both endings"
    assert worded["unlogged"] == 0 and worded["logged"] > 500
