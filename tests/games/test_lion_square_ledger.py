"""Lion Square ledger: typed and helper entries, corrections, the secrecy of herds, the
round and game ends (a herd gone, round 3, ties, the lions' win) and the refusals.

Every state is reached by playing chosen actions from a fresh setup; every test asserts
exact outcomes worked out by hand from RULINGS.md §1 ("Damage", "Game end").
"""

from collections import Counter

import pytest

from companion.games import IllegalAction, get
from companion.games.lion_square import ledger

GAME = get("lion-square-ledger")


def play(state, *moves):
    """Apply ``(seat, action)`` pairs in order and return the final state."""
    for seat, action in moves:
        state = GAME.apply(state, seat, action)
    return state


def losses(*values):
    """The moves typing one loss per seat, seat 0 first."""
    return [(seat, {"type": "loss", "loss": value}) for seat, value in enumerate(values)]


def helper(seat, nearest, taken, gazelles):
    """The moves answering every question of the helper."""
    moves = [(seat, {"type": "nearest", "line": line, "n": n}) for line, n in enumerate(nearest)]
    return moves + [(seat, {"type": "taken", "count": taken}), (seat, {"type": "gazelles", "count": gazelles})]


def refused(state, seat, action, match):
    """Assert that ``action`` is refused with a message matching ``match``; state unchanged."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def private(state, seat):
    return GAME.view(state, seat)["private"]


def public(state):
    return GAME.view(state, None)["public"]


# ---------------------------------------------------------------------- the start


def test_herds_start_at_20_and_everyone_enters_at_once():
    state = GAME.setup(4, 1)
    assert public(state)["step"] == "entering"
    assert public(state)["round"] == 1
    assert public(state)["entered"] == [False] * 4
    assert GAME.to_act(state) == [0, 1, 2, 3]
    assert private(state, 2)["herd"] == 20
    assert private(state, 2)["entry"]["loss"] is None


def test_the_limits_follow_the_assumed_deck():
    # numbers 0-5; 30 carnivores + 2 gazelles, one always on the field; 3 x 5 + 16 + 2
    assert public(GAME.setup(3, 1))["limits"] == {"loss": 33, "nearest": [0, 1, 2, 3, 4, 5], "taken": 31, "gazelles": 2}


# ---------------------------------------------------------------------- entering


def test_a_typed_loss_is_an_entry():
    state = play(GAME.setup(3, 1), (1, {"type": "loss", "loss": 7}))
    assert public(state)["entered"] == [False, True, False]
    assert public(state)["waiting"] == [0, 2]
    assert private(state, 1)["entry"] == {
        "how": "typed", "typed": 7, "nearest": [None] * 3, "taken": None, "gazelles": None, "loss": 7
    }


def test_the_helper_computes_the_loss_with_the_damage_rules():
    # nearest cards 5, an empty line, 3: 8; 3 cards taken: ceil(3/2) = 2; 1 gazelle: 1
    state = play(GAME.setup(3, 1), *helper(0, [5, 0, 3], 3, 1))
    assert private(state, 0)["entry"]["how"] == "helper"
    assert private(state, 0)["entry"]["loss"] == 11
    assert public(state)["entered"] == [True, False, False]


def test_the_helper_enters_nothing_until_every_question_is_answered():
    moves = helper(0, [5, 0, 3], 3, 1)
    state = play(GAME.setup(3, 1), *moves[:-1])
    assert private(state, 0)["entry"]["loss"] is None
    assert public(state)["entered"] == [False, False, False]
    assert private(state, 0)["entry"]["taken"] == 3


def test_the_same_number_may_be_nearest_on_every_line():
    state = play(GAME.setup(3, 1), *helper(0, [5, 5, 5], 31, 2))
    assert private(state, 0)["entry"]["loss"] == ledger.MAX_LOSS == 33


def test_a_number_the_deck_holds_once_shows_on_one_line_only(monkeypatch):
    monkeypatch.setattr(ledger, "_CARDS_NUMBERED", Counter({1: 2, 5: 1}))
    monkeypatch.setattr(ledger, "NEAREST_NUMBERS", (0, 1, 5))
    assert ledger._nearest_choices([5, None, None], 1) == [0, 1]
    assert ledger._nearest_choices([5, 1, None], 0) == [0, 1, 5]
    assert ledger._nearest_choices([1, 1, None], 2) == [0, 5]
    state = play(GAME.setup(3, 1), (0, {"type": "nearest", "line": 0, "n": 5}))
    refused(state, 0, {"type": "nearest", "line": 1, "n": 5}, "the deck has only 1 card\\(s\\) numbered 5")


def test_typing_a_loss_discards_the_helper_answers():
    state = play(GAME.setup(3, 1), *helper(0, [5, 0, 3], 3, 1)[:2], (0, {"type": "loss", "loss": 4}))
    assert private(state, 0)["entry"] == {
        "how": "typed", "typed": 4, "nearest": [None] * 3, "taken": None, "gazelles": None, "loss": 4
    }


def test_the_helper_waits_until_a_typed_loss_is_cleared():
    state = play(GAME.setup(3, 1), (0, {"type": "loss", "loss": 4}))
    refused(state, 0, {"type": "taken", "count": 2}, "you typed a loss of 4: clear it first \\('clear-loss'\\)")
    state = play(state, (0, {"type": "clear-loss"}))
    assert public(state)["entered"] == [False, False, False]
    assert private(state, 0)["entry"]["how"] == "helper"
    assert GAME.view(state, 1)["log"][-1]["text"]["en"] == "{s0} withdrew their entry"
    state = play(state, (0, {"type": "taken", "count": 2}))
    assert private(state, 0)["entry"]["taken"] == 2


def test_an_entry_can_be_corrected_until_everyone_has_entered():
    state = play(GAME.setup(3, 1), (0, {"type": "loss", "loss": 9}), (1, {"type": "loss", "loss": 2}))
    state = play(state, (0, {"type": "loss", "loss": 6}))
    assert private(state, 0)["entry"]["loss"] == 6
    assert GAME.view(state, 1)["log"][-1]["text"]["en"] == "{s0} corrected their entry"
    assert GAME.view(state, 0)["log"][-1]["text"]["en"] == "Your loss this round: 6"
    state = play(state, (2, {"type": "loss", "loss": 3}))  # the last entry ends the round
    assert [private(state, s)["herd"] for s in range(3)] == [14, 18, 17]
    refused(state, 0, {"type": "loss", "loss": 5}, "'loss' is not possible now: the round is over")


def test_a_helper_entry_can_be_corrected_answer_by_answer():
    state = play(GAME.setup(3, 1), *helper(0, [5, 0, 3], 3, 1), (0, {"type": "gazelles", "count": 0}))
    assert private(state, 0)["entry"]["loss"] == 10
    assert public(state)["entered"] == [True, False, False]


# ---------------------------------------------------------------------- secrecy


def test_herds_and_losses_are_secret_until_the_end():
    state = play(GAME.setup(3, 1), *losses(4, 5, 6))
    assert public(state)["herds"] is None
    assert public(state)["losses"] is None
    assert GAME.view(state, 1)["private"] == {
        "herd": 15,
        "losses": [5],
        "entry": {"how": "helper", "typed": None, "nearest": [None] * 3, "taken": None, "gazelles": None, "loss": None},
    }
    texts = [entry["text"]["en"] for entry in GAME.view(state, 1)["log"]]
    assert texts[-1] == "Round 1: your herd loses 5 and is now 15"
    assert not any("16" in text or "14" in text for text in texts)  # the others' herds


# ---------------------------------------------------------------------- rounds and the end


def test_any_seat_starts_the_next_round():
    state = play(GAME.setup(3, 1), *losses(4, 5, 6))
    assert public(state)["step"] == "round-end"
    assert GAME.legal_actions(state, 2) == [{"type": "next-round"}]
    refused(state, 2, {"type": "taken", "count": 1}, "'taken' is not possible now: the round is over")
    state = play(state, (2, {"type": "next-round"}))
    assert (public(state)["round"], public(state)["step"]) == (2, "entering")
    assert public(state)["entered"] == [False] * 3
    assert private(state, 0)["entry"]["typed"] is None


def test_the_game_ends_after_round_three_and_the_highest_herd_wins():
    state = GAME.setup(3, 1)
    for round_losses in ((4, 5, 6), (4, 5, 6), (4, 1, 6)):
        if public(state)["step"] == "round-end":
            state = play(state, (0, {"type": "next-round"}))
        state = play(state, *losses(*round_losses))
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result["herds"] == [8, 9, 2]
    assert result["winners"] == [1]
    assert result["scores"] == {"0": 8, "1": 9, "2": 2}
    assert result["lions_win"] is False
    assert result["reason"] == "last-round"
    assert public(state)["herds"] == [8, 9, 2]
    assert public(state)["losses"] == [[4, 4, 4], [5, 5, 1], [6, 6, 6]]
    assert public(state)["step"] == "over"
    assert GAME.to_act(state) == []
    refused(state, 0, {"type": "next-round"}, "the game is over")


def test_a_herd_at_zero_ends_the_game_after_that_round():
    state = play(GAME.setup(4, 1), *losses(20, 3, 7, 3))
    result = GAME.result(state)
    assert result["herds"] == [0, 17, 13, 17]
    assert result["winners"] == [1, 3]  # a tie shares the win
    assert result["reason"] == "herd-gone"
    assert GAME.view(state, None)["log"][-1]["text"]["en"] == "{s1} and {s3} win ({s0} 0, {s1} 17, {s2} 13, {s3} 17)"


def test_the_lions_win_when_every_herd_is_gone():
    state = play(GAME.setup(3, 1), *losses(12, 12, 12), (1, {"type": "next-round"}), *losses(8, 10, 9))
    result = GAME.result(state)
    assert result["herds"] == [0, -2, -1]
    assert result["winners"] == []
    assert result["lions_win"] is True
    assert public(state)["lions_win"] is True
    assert GAME.view(state, 2)["log"][-1]["text"]["en"].startswith("Every herd is gone: the lions win")


# ---------------------------------------------------------------------- refusals


def test_bad_entries_are_refused_in_plain_words():
    state = GAME.setup(3, 1)
    refused(state, 0, {"type": "fly"}, "unknown action type 'fly' \\(allowed now: gazelles, loss, nearest, taken\\)")
    refused(state, 0, {"type": "loss", "loss": 34}, "'loss' must be the herd you lose: a whole number from 0 to 33")
    refused(state, 0, {"type": "loss", "loss": 3.0}, "not 3.0")
    refused(state, 0, {"type": "loss"}, "a 'loss' action needs the field 'loss'")
    refused(state, 0, {"type": "loss", "loss": 3, "why": "x"}, "a 'loss' action has no field 'why'")
    refused(state, 0, {"type": "clear-loss"}, "you have not typed a loss")
    refused(state, 0, {"type": "nearest", "line": 3, "n": 1}, "'line' must be a line \\(0 left, 1 middle, 2 right\\)")
    refused(state, 0, {"type": "nearest", "line": 0, "n": 6}, "'n' must be a card number \\(0, 1, 2, 3, 4, 5;")
    refused(state, 0, {"type": "taken", "count": 32}, "'count' must be the face-down cards you took")
    refused(state, 0, {"type": "gazelles", "count": 3}, "'count' must be the gazelles in your hand \\(there are 2\\)")
    refused(state, 0, {"type": "gazelles", "count": None}, "not None")
    refused(state, 0, {"type": "next-round"}, "'next-round' is not possible now: the losses of the round are being entered")


def test_refusals_come_in_japanese_too():
    state = play(GAME.setup(3, 1), (0, {"type": "loss", "loss": 7}))
    for action, ja in [
        ({"type": "loss", "loss": 34}, "'loss' には失う群れの数を0から33までの整数で入れてください"),
        ({"type": "nearest", "line": 0, "n": 1}, "被害7を直接入力済みです"),
        ({"type": "next-round"}, "いまは 'next-round' はできません"),
        ({"type": "fly"}, "'fly' という行動はありません"),
    ]:
        with pytest.raises(IllegalAction) as refused_action:
            GAME.apply(state, 0, action)
        assert refused_action.value.ja.startswith(ja)


# ---------------------------------------------------------------------- who is awaited, the summary


def test_waiting_for_names_only_the_seats_still_to_enter():
    state = GAME.setup(3, 1)
    assert GAME.view(state, 0)["waiting_for"] == [0, 1, 2]
    state = play(state, (1, {"type": "loss", "loss": 7}))
    view = GAME.view(state, 1)
    assert view["to_act"] == [0, 1, 2]  # seat 1 may still correct its entry ...
    assert view["waiting_for"] == [0, 2]  # ... but the round no longer waits for it
    state = play(state, (1, {"type": "clear-loss"}))  # a withdrawn entry is awaited again
    assert GAME.view(state, None)["waiting_for"] == [0, 1, 2]
    state = play(state, *helper(2, [5, 0, 3], 3, 1)[:-1])  # an incomplete helper entry is no entry
    assert GAME.view(state, None)["waiting_for"] == [0, 1, 2]


def test_nobody_is_awaited_at_the_round_end_pause_or_once_over():
    state = play(GAME.setup(3, 1), *losses(4, 5, 6))
    assert GAME.view(state, 0)["to_act"] == [0, 1, 2]
    assert GAME.view(state, 0)["waiting_for"] == []
    state = play(state, (0, {"type": "next-round"}))
    assert GAME.view(state, 0)["waiting_for"] == [0, 1, 2]
    state = play(GAME.setup(3, 1), *losses(20, 3, 7))
    assert GAME.view(state, 0)["waiting_for"] == []


def test_the_summary_names_the_winner_the_shared_win_and_the_lions_win():
    state = GAME.setup(3, 1)
    for round_losses in ((4, 5, 6), (4, 5, 6), (4, 1, 6)):
        if public(state)["step"] == "round-end":
            state = play(state, (0, {"type": "next-round"}))
        state = play(state, *losses(*round_losses))
    assert GAME.result(state)["summary"] == {
        "en": "{s1} wins with a herd of 9.",
        "ja": "{s1}が群れ9頭で勝ちました。",
    }
    shared = GAME.result(play(GAME.setup(4, 1), *losses(20, 3, 7, 3)))
    assert shared["summary"] == {
        "en": "{s1} and {s3} share the win with herds of 17 each.",
        "ja": "{s1}と{s3}が群れ17頭で並び、勝ちを分け合いました。",
    }
    lions = GAME.result(play(GAME.setup(3, 1), *losses(12, 12, 12), (1, {"type": "next-round"}), *losses(8, 10, 9)))
    assert lions["lions_win"] is True
    assert lions["summary"]["en"] == "The lions win: every herd fell to 0 or below. Nobody wins."
    assert lions["summary"]["ja"] == "ライオンの勝ち：すべての群れが0頭以下になりました。勝者はいません。"
