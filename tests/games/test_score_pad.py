"""The score pad (issue 36, point 2): rounds, steps, corrections kept, the turn marker, the
end with ties and "lowest score wins", and the game it names. The contract (random play,
views, refusals) is checked for every game in tests/test_games_contract.py."""

import pytest

from companion import games
from companion.games import IllegalAction
from companion.games.base import SetupError
from companion.games.score_pad.rules import STEPS

GAME = games.get("score-pad")


def play(state, *moves):
    """Apply ``(seat, action)`` moves in turn."""
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def add(seat, points):
    return {"type": "add", "seat": seat, "points": points}


def test_a_new_pad_has_one_round_of_zeros_open_and_the_first_seat_to_play():
    state = GAME.setup(3, 1, {"name": "Catan"})
    public = GAME.view(state, None)["public"]
    assert public["rounds"] == [[0, 0, 0]] and public["open"] == 0 and public["totals"] == [0, 0, 0]
    assert public["name"] == "Catan" and public["lowest_wins"] is False and public["step"] == "scoring"
    assert GAME.to_act(state) == [0, 1, 2]  # anyone writes on the pad
    assert GAME.waiting_for(state) == [0]  # the turn marker
    assert public["steps"] == list(STEPS)


def test_anyone_scores_anyone_by_steps_and_the_next_round_opens_a_new_column():
    state = play(GAME.setup(3, 1), (0, add(1, 10)), (2, add(1, 5)), (1, add(0, -1)))
    state = play(state, (1, {"type": "next-round"}), (0, add(2, 1)))
    public = GAME.view(state, None)["public"]
    assert public["rounds"] == [[-1, 15, 0], [0, 0, 1]]
    assert public["open"] == 1 and public["totals"] == [-1, 15, 1]
    assert public["corrections"] == []  # scoring the round in play corrects nothing


def test_a_change_to_an_earlier_round_is_a_correction_kept_with_who_and_when():
    state = play(GAME.setup(3, 1), (0, add(1, 10)), (0, add(1, 1)), (0, {"type": "next-round"}),
                 (0, {"type": "next-round"}))
    state = play(state, (2, {"type": "open", "round": 0}), (2, add(1, 5)), (2, add(1, -1)))
    public = GAME.view(state, None)["public"]
    assert public["rounds"][0] == [0, 15, 0]
    # Two steps in a row by the same seat on the same score: one correction, 11 -> 15.
    assert public["corrections"] == [{"round": 0, "seat": 1, "old": 11, "new": 15, "by": 2, "during": 2,
                                      "v": state["version"]}]
    assert "{s2} corrects {s1}'s round 1: 11 → 15" in GAME.view(state, None)["log"][-1]["text"]["en"]
    # Another hand on the same score, later: a second correction, the first kept as it was.
    state = play(state, (0, add(1, -5)))
    corrections = GAME.view(state, None)["public"]["corrections"]
    assert [(c["old"], c["new"], c["by"]) for c in corrections] == [(11, 15, 2), (15, 10, 0)]


def test_a_correction_is_not_merged_across_another_move():
    state = play(GAME.setup(2, 1), (0, {"type": "next-round"}), (0, {"type": "open", "round": 0}),
                 (0, add(0, 1)), (1, {"type": "pass"}), (0, add(0, 1)))
    assert [(c["old"], c["new"]) for c in GAME.view(state, None)["public"]["corrections"]] == [(0, 1), (1, 2)]


def test_the_open_round_cannot_be_opened_again_nor_a_round_that_is_not_there():
    state = GAME.setup(2, 1)
    with pytest.raises(IllegalAction, match="round 1 is open already") as refused:
        GAME.apply(state, 0, {"type": "open", "round": 0})
    assert refused.value.ja
    with pytest.raises(IllegalAction, match="from 0 .round 1. to 0"):
        GAME.apply(state, 0, {"type": "open", "round": 3})


def test_a_step_that_is_not_offered_is_refused_in_plain_words():
    state = GAME.setup(2, 1)
    with pytest.raises(IllegalAction, match=r"'points' is one step of -10, -5, -1, \+1, \+5, \+10, not 7"):
        GAME.apply(state, 0, add(1, 7))
    with pytest.raises(IllegalAction, match="'seat' must be a seat number from 0 to 1, not 2"):
        GAME.apply(state, 0, add(2, 1))


def test_passing_moves_the_turn_marker_clockwise_from_the_drawn_first_player():
    state = GAME.setup(3, 1, {"first_player": 2})
    assert GAME.waiting_for(state) == [2] and GAME.start_player(state) == 2
    state = play(state, (0, {"type": "pass"}))  # anyone passes the turn: a tap on any phone
    assert GAME.waiting_for(state) == [0]
    state = play(state, (0, {"type": "pass"}), (0, {"type": "pass"}))
    assert GAME.waiting_for(state) == [2]
    assert GAME.start_player(state) == 2


def test_the_highest_total_wins_and_ties_share_the_win():
    state = play(GAME.setup(3, 1), (0, add(0, 10)), (0, add(1, 5)), (0, {"type": "next-round"}),
                 (0, add(1, 5)), (0, add(2, 1)), (0, {"type": "finish"}))
    result = GAME.result(state)
    assert result["winners"] == [0, 1] and result["scores"] == {"0": 10, "1": 10, "2": 1}
    assert [(e["seat"], e["place"]) for e in result["ranking"]] == [(0, 1), (1, 1), (2, 3)]
    assert result["summary"]["en"] == "{s0} and {s1} tie on 10 points and share the win after 2 rounds (highest total wins)."
    assert "{s0}と{s1}" in result["summary"]["ja"]
    assert GAME.waiting_for(state) == [] and GAME.to_act(state) == []


def test_lowest_wins_when_the_group_chose_it():
    state = play(GAME.setup(3, 1, {"wins": "lowest"}), (0, add(0, 10)), (0, add(1, 5)), (0, add(2, 5)),
                 (0, add(2, 1)), (0, {"type": "finish"}))
    result = GAME.result(state)
    assert result["winners"] == [1] and result["lowest_wins"] is True
    assert [(e["seat"], e["place"]) for e in result["ranking"]] == [(1, 1), (2, 2), (0, 3)]
    assert result["summary"]["en"] == "{s1} wins with 5 points after 1 round (lowest total wins)."


def test_the_result_keeps_every_round_and_every_correction():
    state = play(GAME.setup(2, 1), (0, add(0, 5)), (0, {"type": "next-round"}), (1, {"type": "open", "round": 0}),
                 (1, add(0, -1)), (1, {"type": "finish"}))
    result = GAME.result(state)
    assert result["rounds"] == [[4, 0], [0, 0]]
    assert [(c["round"], c["seat"], c["old"], c["new"], c["by"]) for c in result["corrections"]] == [(0, 0, 5, 4, 1)]


def test_the_game_played_names_the_records_box_and_title():
    assert GAME.box_of({"name": "", "wins": "highest"}) == GAME.box  # unnamed: "Score pad"
    assert GAME.title_of({"name": "", "wins": "highest"}) == {"en": "Score pad", "ja": "スコアパッド"}
    box = GAME.box_of({"name": "Ｃａｔａｎ", "wins": "lowest"})
    assert box.id == "score-pad:catan" and box.name == "Ｃａｔａｎ" and box.highest_wins is False
    assert GAME.box_of({"name": "CATAN", "wins": "highest"}).id == box.id  # one game however it is typed
    assert GAME.title_of({"name": "ごきぶりポーカー", "wins": "highest"}) == {"en": "ごきぶりポーカー", "ja": "ごきぶりポーカー"}


@pytest.mark.parametrize(("name", "why"), [
    (3, "must be text"),
    (" Catan", "must not begin or end with a space"),
    ("x" * 41, "at most 40 characters"),
    ("Cat\nan", "one line of visible characters"),
    ("Cat\u200ban", "one line of visible characters"),
])
def test_a_bad_game_name_is_refused_in_both_languages(name, why):
    with pytest.raises(SetupError, match=why) as refused:
        GAME.setup(2, 1, {"name": name})
    assert refused.value.ja


def test_its_options_are_asked_at_the_start():
    described = {option["name"]: option for option in GAME.describe_options()}
    assert described["name"]["asked"] and described["wins"]["asked"]
    assert described["wins"]["choices"] == ["highest", "lowest"]
