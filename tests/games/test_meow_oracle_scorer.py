"""Meow Oracle scorer: entering areas and totals, corrections, the round scoring, the wins,
the round-2 start player, the final ranking with its tie rules, and the refusals.

Every state is reached by playing chosen actions from a fresh setup; every test asserts
exact outcomes worked out by hand from the book's rules (RULINGS.md §2).
"""

import pytest

from companion.games import IllegalAction, get
from companion.games.meow_oracle.scorer import MAX_TOTAL

GAME = get("meow-oracle-scorer")


def play(state, *moves):
    """Apply ``(seat, action)`` pairs in order and return the final state."""
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def started(players, start_player=0):
    """A game whose round 1 is being entered, ``start_player`` starting it."""
    return play(GAME.setup(players, 1), (0, {"type": "start-player", "seat": start_player}))


def card(code):
    """``"r5"`` → the action entering red 5; ``b`` blue, ``g`` green, ``w`` wild (grey)."""
    colour = {"r": "red", "b": "blue", "g": "green", "w": "wild"}[code[0]]
    return {"type": "card", "color": colour, "n": int(code[1:])}


def cards(seat, codes):
    """The moves entering an area as it lies, e.g. ``"r0 r1 r2 / r5 r4 r3 / r6 r7 r8"``."""
    return [(seat, card(code)) for code in codes.replace("/", " ").split()]


def totals(*values):
    """The moves typing one round total per seat, seat 0 first."""
    return [(seat, {"type": "total", "total": value}) for seat, value in enumerate(values)]


def refused(state, seat, action, match):
    """Assert that ``action`` is refused with a message matching ``match``; state unchanged."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


# ---------------------------------------------------------------------- the start player


def test_the_game_begins_by_naming_the_start_player():
    state = GAME.setup(3, 1)
    view = GAME.view(state, None)
    assert view["public"]["step"] == "start-player"
    assert view["to_act"] == [0, 1, 2]
    assert GAME.legal_actions(state, 1) == [{"type": "start-player", "seat": s} for s in range(3)]
    refused(state, 0, card("r1"), "'card' is not possible now: first name who starts round 1")
    state = play(state, (1, {"type": "start-player", "seat": 2}))
    assert GAME.view(state, None)["public"]["start_player"] == 2
    assert GAME.view(state, None)["public"]["step"] == "entering"


def test_a_start_player_outside_the_table_is_refused():
    state = GAME.setup(3, 1)
    refused(state, 0, {"type": "start-player", "seat": 3}, "'seat' must be a seat number: a whole number from 0 to 2")
    refused(state, 0, {"type": "start-player", "seat": "1"}, "not '1'")


# ---------------------------------------------------------------------- entering


def test_cards_fill_the_area_in_reading_order():
    state = play(started(2), *cards(0, "r7 b2 w4"))
    public = GAME.view(state, None)["public"]
    assert public["areas"][0] == [
        [{"color": "red", "n": 7}, {"color": "blue", "n": 2}, {"color": "wild", "n": 4}],
        [None, None, None],
        [None, None, None],
    ]
    assert public["next_cell"] == [[1, 0], [0, 0]]
    assert public["entered"] == [False, False]
    assert public["waiting"] == [0, 1]


def test_a_cleared_cell_is_the_next_one_filled():
    state = play(started(2), *cards(0, "r7 b2 w4 g0"))
    state = play(state, (0, {"type": "clear", "row": 0, "col": 1}), (0, card("b3")))
    area = GAME.view(state, None)["public"]["areas"][0]
    assert area[0] == [{"color": "red", "n": 7}, {"color": "blue", "n": 3}, {"color": "wild", "n": 4}]
    assert area[1][0] == {"color": "green", "n": 0}


def test_nine_cards_enter_an_area_and_the_log_says_so():
    state = play(started(2), *cards(0, "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"))
    view = GAME.view(state, None)
    assert view["public"]["entered"] == [True, False]
    assert view["public"]["waiting"] == [1]
    assert view["public"]["next_cell"][0] is None
    assert view["log"][-1]["text"]["en"] == "{s0} entered all 9 cards"


def test_a_full_area_takes_no_more_cards():
    state = play(started(2), *cards(0, "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"))
    assert not any(a["type"] == "card" for a in GAME.legal_actions(state, 0))
    refused(state, 0, card("g9"), "all 9 cells of your area are filled: clear a cell first")


def test_a_card_entered_by_another_seat_is_refused():
    state = play(started(3), *cards(1, "b0 b1 g6"))
    refused(state, 0, card("g6"), "green 6 is already entered in {s1}'s area at row 1, column 3")
    assert card("g6") not in GAME.legal_actions(state, 0)


def test_a_card_cleared_by_its_owner_can_be_entered_by_another():
    state = play(started(3), *cards(1, "g6"), (1, {"type": "clear", "row": 0, "col": 0}), (0, card("g6")))
    assert GAME.view(state, None)["public"]["areas"][0][0][0] == {"color": "green", "n": 6}


def test_cards_that_do_not_exist_are_refused():
    state = started(2)
    refused(state, 0, card("w7"), "there is no wild 7: the only wild")
    refused(state, 0, card("r11"), "'n' must be a whole number from 0 to 10, not 11")
    refused(state, 0, {"type": "card", "color": "grey", "n": 3}, "'color' must be one of red, blue, green, wild")
    refused(state, 0, {"type": "card", "color": "red", "n": 3.0}, "not 3.0")


def test_a_typed_total_enters_at_once_and_discards_the_cards():
    state = play(started(2), *cards(0, "r7 b2"), (0, {"type": "total", "total": 14}))
    public = GAME.view(state, None)["public"]
    assert public["typed"] == [14, None]
    assert public["entered"] == [True, False]
    assert public["areas"][0] == [[None] * 3] * 3
    # red 7 is free again for the other seat
    assert card("r7") in GAME.legal_actions(state, 1)


def test_cards_wait_until_a_typed_total_is_cleared():
    state = play(started(2), (0, {"type": "total", "total": 14}))
    refused(state, 0, card("r1"), "you typed a total of 14: clear it first \\('clear-total'\\)")
    state = play(state, (0, {"type": "clear-total"}), (0, card("r1")))
    public = GAME.view(state, None)["public"]
    assert public["typed"] == [None, None]
    assert public["entered"] == [False, False]
    assert public["areas"][0][0][0] == {"color": "red", "n": 1}
    assert GAME.view(state, None)["log"][-1]["text"]["en"] == "{s0}'s entry is no longer complete"


def test_typed_totals_are_bounded_by_the_best_possible_area():
    state = started(2)
    assert MAX_TOTAL == 31
    refused(state, 0, {"type": "total", "total": 32}, "'total' must be a round total: a whole number from 0 to 31")
    refused(state, 0, {"type": "total", "total": -1}, "not -1")
    refused(state, 0, {"type": "total", "total": True}, "not True")


def test_the_best_area_reaches_the_typed_bound():
    # Red 0-8 laid along the snake path: a full run (15) and all 8 lines red (16).
    state = play(started(2), *cards(0, "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"), (1, {"type": "total", "total": 0}))
    assert GAME.view(state, None)["public"]["results"][0]["totals"] == [MAX_TOTAL, 0]


def test_an_entry_can_be_corrected_until_everyone_has_entered():
    state = play(started(3), (0, {"type": "total", "total": 14}), (1, {"type": "total", "total": 9}))
    state = play(state, (0, {"type": "total", "total": 4}))  # seat 0 corrects its total
    assert GAME.view(state, None)["public"]["typed"] == [4, 9, None]
    state = play(state, (2, {"type": "total", "total": 7}))  # the last entry scores the round
    assert GAME.view(state, None)["public"]["results"][0]["totals"] == [4, 9, 7]
    refused(state, 0, {"type": "total", "total": 5}, "'total' is not possible now: round 1 is scored")


def test_bad_fields_are_named():
    state = started(2)
    refused(state, 0, {"type": "fly"}, "unknown action type 'fly' \\(allowed now: card, total\\)")
    refused(state, 0, {"type": "total"}, "a 'total' action needs the field 'total'")
    refused(state, 0, {"type": "total", "total": 3, "extra": 1}, "a 'total' action has no field 'extra'")
    refused(state, 0, {"type": "clear-total"}, "you have not typed a total")
    refused(state, 0, {"type": "clear", "row": 0, "col": 0}, "there is no card to clear at row 1, column 1")
    refused(state, 0, {"type": "clear", "row": 3, "col": 0}, "'row' must be a row \\(0 top to 2 bottom\\)")
    refused(state, 0, {"type": "clear", "row": 0, "col": None}, "'col' must be a column")
    refused(state, 0, {"type": "next-round"}, "'next-round' is not possible now: the areas of the round are being entered")


# ---------------------------------------------------------------------- scoring and wins


def test_the_round_is_scored_with_score_area():
    # The book's example with real cards: the snake reads 0,1,3,5,5,8 then drops to 4, a
    # run of 6; with the centre 5 wild, the centre column (red 1, 2), the diagonal (blue 0,
    # 4) and the anti-diagonal (green 3, 4) are one colour each: 3 lines, 6 points.
    state = play(started(2), *cards(0, "b0 r1 g3 / r8 w5 b5 / g4 r2 b4"), (1, {"type": "total", "total": 9}))
    record = GAME.view(state, None)["public"]["results"][0]
    assert record["runs"] == [6, None]
    assert record["lines"] == [6, None]
    assert record["totals"] == [12, 9]


def test_two_players_compare_once_and_a_tie_wins_for_both():
    state = play(started(2), *totals(10, 10))
    assert GAME.view(state, None)["public"]["results"][0]["wins"] == [1, 1]
    state = play(started(2), *totals(10, 11))
    assert GAME.view(state, None)["public"]["results"][0]["wins"] == [0, 1]


def test_each_seat_compares_with_both_neighbours():
    state = play(started(3), *totals(12, 8, 15))
    assert GAME.view(state, None)["public"]["results"][0]["wins"] == [1, 0, 2]
    state = play(started(4), *totals(10, 10, 5, 12))
    public = GAME.view(state, None)["public"]
    assert public["results"][0]["wins"] == [1, 2, 0, 2]
    assert public["wins"] == [1, 2, 0, 2]
    assert public["step"] == "round-end"


@pytest.mark.parametrize(
    "start_player, round_totals, next_start",
    [
        (0, (9, 5, 7, 8), 1),  # the lowest total starts
        (2, (5, 9, 5, 7), 0),  # tie: going clockwise from seat 3, seat 0 comes before seat 2
        (0, (5, 9, 5, 7), 2),  # tie with the start player: it comes last
        (1, (9, 5, 9, 9), 1),  # the start player alone lowest starts again
        (0, (10, 10, 10, 10), 1),  # all tied: the start player's left neighbour
    ],
)
def test_the_lowest_total_starts_round_two(start_player, round_totals, next_start):
    state = play(started(4, start_player), *totals(*round_totals))
    assert GAME.view(state, None)["public"]["results"][0]["next_start_player"] == next_start
    state = play(state, (3, {"type": "next-round"}))
    public = GAME.view(state, None)["public"]
    assert (public["round"], public["step"], public["start_player"]) == (2, "entering", next_start)
    assert public["typed"] == [None] * 4
    assert public["entered"] == [False] * 4


def test_round_two_clears_the_areas():
    state = play(started(2), *cards(0, "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"), (1, {"type": "total", "total": 3}))
    state = play(state, (1, {"type": "next-round"}))
    public = GAME.view(state, None)["public"]
    assert public["areas"] == [[[None] * 3] * 3] * 2
    assert card("r0") in GAME.legal_actions(state, 1)


# ---------------------------------------------------------------------- the end


def test_most_wins_wins():
    state = play(started(3), *totals(10, 5, 10), (0, {"type": "next-round"}), *totals(7, 7, 9))
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result["wins"] == [3, 1, 4]
    assert result["winners"] == [2]
    assert result["scores"] == {"0": 3, "1": 1, "2": 4}
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(2, 1), (0, 2), (1, 3)]
    public = GAME.view(state, 1)["public"]
    assert public["step"] == "over"
    assert public["ranking"] == result["ranking"]
    assert GAME.to_act(state) == []


def test_tied_wins_go_to_the_higher_round_two_total():
    state = play(started(4), *totals(10, 10, 10, 10), (2, {"type": "next-round"}), *totals(12, 11, 13, 3))
    result = GAME.result(state)
    assert result["wins"] == [4, 2, 4, 2]
    assert result["winners"] == [2]
    assert result["ranking"] == [
        {"seat": 2, "place": 1, "wins": 4, "last_total": 13},
        {"seat": 0, "place": 2, "wins": 4, "last_total": 12},
        {"seat": 1, "place": 3, "wins": 2, "last_total": 11},
        {"seat": 3, "place": 4, "wins": 2, "last_total": 3},
    ]


def test_still_tied_players_share_the_win():
    state = play(started(4), *totals(10, 10, 10, 10), (2, {"type": "next-round"}), *totals(12, 11, 12, 3))
    result = GAME.result(state)
    assert result["winners"] == [0, 2]
    assert [(r["seat"], r["place"]) for r in result["ranking"]] == [(0, 1), (2, 1), (1, 3), (3, 4)]
    assert GAME.view(state, None)["log"][-1]["text"]["en"] == "{s0} and {s2} win the game"


def test_nothing_is_secret():
    state = play(started(3), *cards(0, "r1 g2"), (1, {"type": "total", "total": 8}))
    assert GAME.view(state, 2)["private"] == {}
    assert GAME.view(state, 2)["public"] == GAME.view(state, 0)["public"]
    assert GAME.view(state, 2)["public"]["areas"][0][0][:2] == [{"color": "red", "n": 1}, {"color": "green", "n": 2}]


def test_waiting_for_names_only_the_seats_still_to_enter():
    state = GAME.setup(3, 1)
    assert GAME.view(state, 0)["waiting_for"] == [0, 1, 2]  # anyone may name the start player
    state = play(started(3), *cards(0, "r0 r1 r2 / r5 r4 r3 / r6 r7 r8"), (2, {"type": "total", "total": 4}))
    view = GAME.view(state, 0)
    assert view["to_act"] == [0, 1, 2]  # those who entered may still correct ...
    assert view["waiting_for"] == [1]  # ... but only seat 1 is awaited
    state = play(state, (0, {"type": "clear", "row": 2, "col": 2}))
    assert GAME.view(state, 0)["waiting_for"] == [0, 1]


def test_nobody_is_awaited_between_the_rounds_or_once_over():
    state = play(started(3), *totals(10, 5, 10))
    assert GAME.view(state, 1)["waiting_for"] == []
    state = play(state, (0, {"type": "next-round"}))
    assert GAME.view(state, 1)["waiting_for"] == [0, 1, 2]
    state = play(state, *totals(7, 7, 9))
    assert GAME.view(state, 1)["waiting_for"] == []


@pytest.mark.parametrize(
    "round_two, en, ja",
    [
        ((12, 11, 13, 3),
         "{s0} and {s2} tied on 4 wins; {s2} wins with the higher round-2 total (13 to 12).",
         "{s0}と{s2}が4勝で並び、2ラウンド目の合計が高い{s2}の勝ちです(13対12)。"),
        ((12, 11, 12, 3),
         "{s0} and {s2} tied on 4 wins and on the round-2 total (12) and share the win.",
         "{s0}と{s2}が4勝で並び、2ラウンド目の合計(12)も同じなので勝ちを分け合いました。"),
    ],
)
def test_the_summary_says_how_a_tie_on_wins_was_settled(round_two, en, ja):
    state = play(started(4), *totals(10, 10, 10, 10), (2, {"type": "next-round"}), *totals(*round_two))
    assert GAME.result(state)["summary"] == {"en": en, "ja": ja}


def test_the_summary_says_when_the_round_two_total_leaves_some_tied_players_sharing_the_win():
    state = play(started(4), *totals(10, 10, 11, 11), (2, {"type": "next-round"}), *totals(11, 11, 10, 10))
    assert GAME.result(state)["winners"] == [0, 1]
    assert GAME.result(state)["summary"] == {
        "en": "{s0}, {s1}, {s2} and {s3} tied on 3 wins; "
        "{s0} and {s1} share the win with the higher round-2 total (11 to 10).",
        "ja": "{s0}と{s1}と{s2}と{s3}が3勝で並び、2ラウンド目の合計が高い{s0}と{s1}が勝ちを分け合いました(11対10)。",
    }


def test_the_summary_names_a_clear_winner():
    state = play(started(3), *totals(10, 5, 10), (0, {"type": "next-round"}), *totals(7, 7, 9))
    assert GAME.result(state)["summary"] == {"en": "{s2} wins with 4 wins, more than anyone.", "ja": "{s2}が最多の4勝で勝ちました。"}


def test_refusals_come_in_japanese_too():
    state = play(started(3), *cards(1, "b0 b1 g6"))
    with pytest.raises(IllegalAction) as refused_action:
        GAME.apply(state, 0, card("g6"))
    assert refused_action.value.ja.startswith("緑の6はすでに{s1}のエリアの1行目・3列目に入力されています。")
    with pytest.raises(IllegalAction) as refused_action:
        GAME.apply(state, 0, card("w7"))
    assert refused_action.value.ja == "灰色(オールマイティ)の7はありません。灰色のカードは 3, 4, 5 だけです"
