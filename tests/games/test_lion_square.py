"""Lion Square: every rule, ending and tie rule, and the refusals of bad input.

States are built by hand with the helpers below (``_state``), so each test shows exactly
the table it is about. Card ids are ``"<species>-<n>"`` and ``"gazelle-1"``/``"gazelle-2"``.
"""

import json
import random
import re
from pathlib import Path

import pytest

from companion.games import IllegalAction
from companion.games.lion_square import rules as lion_square
from companion.games.lion_square.rules import damage
from companion.simulate import random_playout


def _c(color, n):
    return {"color": color, "n": n}


G = {"gazelle": True}


# --------------------------------------------------------------------------- damage()


def test_damage_sums_the_nearest_card_of_each_line_from_every_side():
    field = [
        [_c("lion", 1), _c("lion", 2), _c("lion", 3)],
        [_c("hyena", 4), None, _c("hyena", 5)],
        [_c("cheetah", 0), G, None],
    ]
    # South sees, per column from the bottom: cheetah 0, gazelle 0, hyena 5.
    assert damage(field, "S", 0, 0) == 5
    # North sees the top row: 1 + 2 + 3.
    assert damage(field, "N", 0, 0) == 6
    # West sees, per row from the left: lion 1, hyena 4, cheetah 0.
    assert damage(field, "W", 0, 0) == 5
    # East sees, per row from the right: lion 3, hyena 5, gazelle 0.
    assert damage(field, "E", 0, 0) == 8


def test_damage_of_a_field_that_is_not_lined_up_uses_whatever_card_is_nearest():
    field = [[None, None, None], [None, _c("lion", 4), None], [None, None, None]]
    for side in "SWNE":
        assert damage(field, side, 0, 0) == 4
    assert damage([[None] * 3 for _ in range(3)], "S", 0, 0) == 0


def test_damage_adds_half_the_taken_cards_rounded_up_and_one_per_gazelle_in_hand():
    empty = [[None] * 3 for _ in range(3)]
    assert [damage(empty, "S", taken, 0) for taken in range(6)] == [0, 1, 1, 2, 2, 3]
    assert damage(empty, "S", 0, 2) == 2
    field = [[_c("lion", 5), None, None], [_c("lion", 1), _c("lion", 2), None], [None, None, None]]
    assert damage(field, "S", 3, 1) == 3 + 2 + 1


@pytest.mark.parametrize(
    "field, side, taken, gazelles, message",
    [
        ("field", "S", 0, 0, "3 rows of 3 cells"),
        ([[None] * 3] * 2, "S", 0, 0, "3 rows of 3 cells"),
        ([[None] * 3, [None] * 3, [None] * 2], "S", 0, 0, "3 rows of 3 cells"),
        ([[7, None, None], [None] * 3, [None] * 3], "S", 0, 0, "row 1, cell 1: a cell must be null"),
        ([[None, {"gazelle": 1}, None], [None] * 3, [None] * 3], "S", 0, 0, "row 1, cell 2: a cell must be"),
        ([[None] * 3, [None, _c("tiger", 1), None], [None] * 3], "S", 0, 0, "row 2, cell 2: unknown colour 'tiger'"),
        ([[None] * 3, [None] * 3, [None, None, _c("lion", 9)]], "S", 0, 0, "row 3, cell 3: there is no lion 9"),
        ([[_c("lion", True), None, None], [None] * 3, [None] * 3], "S", 0, 0, "there is no lion True"),
        ([[_c("lion", 1), _c("lion", 1), None], [None] * 3, [None] * 3], "S", 0, 0, "lion 1 is on the field twice"),
        ([[G, G, G], [None] * 3, [None] * 3], "S", 0, 0, "only 2 gazelle cards, but 3 are on the field"),
        ([[G, G, None], [None] * 3, [None] * 3], "S", 0, 1, "2 are on the field and 1 in hand"),
        ([[None] * 3] * 3, "south", 0, 0, "side must be one of S, W, N, E"),
        ([[None] * 3] * 3, "S", -1, 0, "taken cards must be a whole number of 0 or more"),
        ([[None] * 3] * 3, "S", 1.5, 0, "taken cards must be a whole number"),
        ([[None] * 3] * 3, "S", 0, 3, "gazelles left in hand must be a whole number from 0 to 2"),
        ([[None] * 3] * 3, "S", 0, True, "gazelles left in hand must be a whole number"),
    ],
)
def test_damage_refuses_bad_input_in_plain_words(field, side, taken, gazelles, message):
    with pytest.raises(ValueError, match=message):
        damage(field, side, taken, gazelles)


def test_the_deck_file_is_the_assumed_deck_of_the_rulings():
    assert [s["id"] for s in lion_square.SPECIES] == ["lion", "leopard", "cheetah", "hyena", "lycaon"]
    assert all(s["numbers"] == [0, 1, 2, 3, 4, 5] for s in lion_square.SPECIES)
    assert lion_square.GAZELLE_COUNT == 2


def test_the_deck_file_says_it_is_a_guess():
    text = (Path(lion_square.__file__).parent / "deck.json").read_text(encoding="utf-8")
    assert "(assumed)" in json.loads(text)["_assumed"]


# --------------------------------------------------------------------------- the engine

GAME = lion_square.GAME
ORDER = {card: i for i, card in enumerate(lion_square.CARNIVORES + lion_square.GAZELLES)}


def _table(players=3, hands=(), field=None, step="turn", turn=0, pile=(), taken=None, herds=None, round=1):
    """A hand-built table in the middle of a round. ``field`` maps (row, column) to a card;
    seats not given a hand hold nothing."""
    state = GAME.setup(players, 1)
    hands = [list(h) for h in hands] + [[] for _ in range(players - len(hands))]
    state.update(
        round=round,
        step=step,
        turn=turn,
        hands=[sorted(h, key=ORDER.__getitem__) for h in hands],
        field=[[r, c, card] for (r, c), card in (field or {}).items()],
        pile=list(pile),
        taken=[list(t) for t in taken] if taken else [[] for _ in range(players)],
        herds=list(herds) if herds else [20] * players,
        passes=[None] * players,
    )
    return state


def _do(state, seat, kind, **fields):
    return GAME.apply(state, seat, {"type": kind, **fields})


def _refused(state, seat, action, message, ja=None):
    """Assert ``action`` is refused with ``message`` (a regular expression), and with Japanese
    matching ``ja`` when given (some Japanese in any case), and changes nothing."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=message) as refused:
        GAME.apply(state, seat, action)
    assert refused.value.ja and re.search(ja or ".", refused.value.ja), refused.value.ja
    assert GAME.dump(state) == before


def _cards_on_field(state):
    return {(r, c): card for r, c, card in state["field"]}


# ------------------------------------------------------------------ setup


@pytest.mark.parametrize("players, hand, pile", [(3, 8, 6 + 2), (4, 7, 2 + 2)])
def test_setup_deals_the_hands_and_shuffles_the_rest_with_the_gazelles_into_the_square_pile(players, hand, pile):
    state = GAME.setup(players, 7)
    assert [len(h) for h in state["hands"]] == [hand] * players
    assert all(not card.startswith("gazelle") for h in state["hands"] for card in h)
    assert len(state["pile"]) == pile and {"gazelle-1", "gazelle-2"} <= set(state["pile"])
    assert state["herds"] == [20] * players
    assert GAME.to_act(state) == list(range(players))
    public = GAME.view(state, None)["public"]
    assert public["step"] == "pass" and public["adjustment"] == 1 and public["round"] == 1
    assert public["start_player"] == 0
    assert GAME.components(state) == sorted(lion_square.CARNIVORES + lion_square.GAZELLES)


# ------------------------------------------------------------------ hand adjustment


def test_hand_adjustment_must_pass_a_card_of_the_colour_held_most():
    state = _table(step="pass", turn=None, hands=[["lion-1", "lion-2", "hyena-0"], ["hyena-1"], ["hyena-2"]])
    assert GAME.legal_actions(state, 0) == [{"type": "pass", "card": "lion-1"}, {"type": "pass", "card": "lion-2"}]
    _refused(
        state,
        0,
        {"type": "pass", "card": "hyena-0"},
        "must pass a card of the colour you hold most .Lion, 2 cards each.; Hyena 0 is not one",
        "もっとも多い色.*ライオン、各2枚.*ハイエナの0はそうではありません",
    )


def test_hand_adjustment_with_tied_colours_allows_any_of_them():
    state = _table(step="pass", turn=None, hands=[["lion-1", "hyena-0", "hyena-3", "lion-4", "cheetah-2"]])
    assert {a["card"] for a in GAME.legal_actions(state, 0)} == {"lion-1", "lion-4", "hyena-0", "hyena-3"}


def test_hand_adjustment_choices_are_simultaneous_and_secret_until_all_have_chosen():
    state = _table(step="pass", turn=None, hands=[["lion-1"], ["hyena-1"], ["cheetah-1"]])
    state = _do(state, 1, "pass", card="hyena-1")
    assert GAME.to_act(state) == [0, 2]
    public = GAME.view(state, None)["public"]
    assert public["chosen"] == [False, True, False]
    assert GAME.view(state, 1)["private"]["passing"] == "hyena-1"
    for seat in (None, 0, 2):
        assert "hyena-1" not in json.dumps(GAME.view(state, seat)), f"seat {seat} sees the choice"
    _refused(state, 1, {"type": "pass", "card": "hyena-1"}, "not your turn")


def test_each_seat_keeps_what_it_passed_and_received_this_round_and_nobody_else_sees_it():
    state = _table(
        step="pass",
        turn=None,
        hands=[["lion-1", "lion-2"], ["hyena-1", "hyena-2"], ["cheetah-1", "cheetah-2"]],
    )
    for seat, card in enumerate(["lion-1", "hyena-1", "cheetah-1"]):
        state = _do(state, seat, "pass", card=card)
    for seat, card in enumerate(["cheetah-1", "lion-1", "hyena-1"]):  # each passes on what it got
        state = _do(state, seat, "pass", card=card)
    mine = GAME.view(state, 0)["private"]
    assert mine["passed"] == ["lion-1", "cheetah-1"] and mine["received"] == ["cheetah-1", "hyena-1"]
    assert GAME.view(state, 1)["private"]["passed"] == ["hyena-1", "lion-1"]
    for seat in (None, 1, 2):
        view = GAME.view(state, seat)
        assert view["private"] is None or view["private"]["passed"] != mine["passed"]
        assert "lion-1" not in json.dumps(view["public"])


def test_what_was_passed_is_forgotten_when_the_next_round_is_dealt():
    hands = [["cheetah-3", "gazelle-1"], ["leopard-5"], ["gazelle-2"]]
    state = _table(3, hands=hands, field=EIGHT, taken=[[], ["leopard-0", "leopard-1", "leopard-2"], []])
    state.update(passed=[["lycaon-5"], ["hyena-5"], ["lion-5"]], received=[["lion-5"], ["lycaon-5"], ["hyena-5"]])
    assert GAME.view(state, 0)["private"]["passed"] == ["lycaon-5"]
    state = _do(state, 0, "play", card="cheetah-3", cell=[2, 2])
    assert state["round"] == 2
    assert GAME.view(state, 0)["private"]["passed"] == [] and GAME.view(state, 0)["private"]["received"] == []


def test_every_text_names_cards_in_words_never_by_id():
    card_id = re.compile(r"\b(lion|leopard|cheetah|hyena|lycaon|gazelle)-\d")
    chooser = random.Random(5)
    for seed in range(3):
        state = GAME.setup(3 + seed % 2, seed)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            for entry in state["log"]:
                texts = [entry["text"] or {}] + list(entry.get("to", {}).values())
                assert not any(card_id.search(text) for words in texts for text in words.values()), entry
            state = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))
    assert state["result"]["summary"]["en"]


def test_hand_adjustment_passes_left_three_times_then_the_start_player_starts():
    state = _table(
        step="pass",
        turn=None,
        hands=[
            ["lion-1", "lion-2", "lion-3"],
            ["hyena-1", "hyena-2", "hyena-3"],
            ["cheetah-1", "cheetah-2", "cheetah-3"],
        ],
    )
    state = _do(state, 0, "pass", card="lion-1")
    state = _do(state, 2, "pass", card="cheetah-1")
    state = _do(state, 1, "pass", card="hyena-1")
    assert state["hands"] == [
        ["lion-2", "lion-3", "cheetah-1"],
        ["lion-1", "hyena-2", "hyena-3"],
        ["cheetah-2", "cheetah-3", "hyena-1"],
    ]
    assert GAME.view(state, 1)["log"][-1]["text"]["en"] == "You passed Hyena 1 to {s2} and received Lion 1 from {s0}"
    assert state["adjustment"] == 2 and GAME.to_act(state) == [0, 1, 2]
    for _ in range(2):
        for seat in range(3):
            state = _do(state, seat, "pass", card=GAME.legal_actions(state, seat)[0]["card"])
    assert state["step"] == "start" and GAME.to_act(state) == [0]


# ------------------------------------------------------------------ the first card and rules [1]-[4]


def test_the_start_player_puts_any_card_in_the_centre_then_the_left_neighbour_plays():
    state = _table(step="start", hands=[["lion-1", "hyena-2"], ["lion-3"]])
    assert GAME.legal_actions(state, 0) == [
        {"type": "place", "card": "lion-1", "cell": [0, 0]},
        {"type": "place", "card": "hyena-2", "cell": [0, 0]},
    ]
    _refused(state, 0, {"type": "place", "card": "lion-1", "cell": [1, 0]}, r"the first card goes at \[0, 0\]")
    _refused(state, 0, {"type": "play", "card": "lion-1", "cell": [0, 0]}, "start player first puts any card")
    state = _do(state, 0, "place", card="hyena-2", cell=[0, 0])
    assert _cards_on_field(state) == {(0, 0): "hyena-2"}
    assert state["step"] == "turn" and GAME.to_act(state) == [1]


def test_rule_1_a_card_goes_next_to_a_card_and_never_on_one():
    state = _table(hands=[["lion-2"]], field={(0, 0): "lion-1"})
    assert [a["cell"] for a in GAME.legal_actions(state, 0) if a["type"] == "play"] == [
        [-1, 0],
        [0, -1],
        [0, 1],
        [1, 0],
    ]
    _refused(state, 0, {"type": "play", "card": "lion-2", "cell": [0, 0]}, r"rule \[1\]: .* already holds Lion 1")
    _refused(
        state, 0, {"type": "play", "card": "lion-2", "cell": [1, 1]}, r"rule \[1\]: the cell \[1, 1\] touches no card"
    )


def test_rule_2_the_box_floats_but_never_grows_past_three_by_three():
    field = {(0, 0): "lion-1", (0, 1): "lion-2"}
    state = _table(hands=[["lion-3", "lion-4"], ["lion-5"], ["hyena-0"]], field=field)
    cells = [a["cell"] for a in GAME.legal_actions(state, 0) if a.get("card") == "lion-3" and a["type"] == "play"]
    assert [0, -1] in cells and [0, 2] in cells  # the box may still grow either way
    state = _do(state, 0, "play", card="lion-3", cell=[0, -1])
    _refused(
        state,
        1,
        {"type": "play", "card": "lion-5", "cell": [0, 2]},
        r"rule \[2\]: .* 1 tall and 4 wide; it must fit in a 3×3",
    )
    state = _do(state, 1, "play", card="lion-5", cell=[-1, -1])  # growing upwards is fine
    assert _cards_on_field(state)[(-1, -1)] == "lion-5"
    public = GAME.view(state, None)["public"]
    assert public["grid_origin"] == [-1, -1]
    assert public["grid"] == [["lion-5", None, None], ["lion-3", "lion-1", "lion-2"], [None, None, None]]


def test_rule_3_only_a_colour_already_on_the_field_may_be_played():
    state = _table(hands=[["hyena-2", "lion-2"]], field={(0, 0): "lion-1"})
    assert all(a.get("card") != "hyena-2" for a in GAME.legal_actions(state, 0))
    _refused(state, 0, {"type": "play", "card": "hyena-2", "cell": [0, 1]}, r"rule \[3\]: no Hyena is on the field", r"ルール\[3\]：場にハイエナがありません")


def test_rule_4_a_card_must_touch_a_card_of_its_own_colour():
    state = _table(hands=[["hyena-2"]], field={(0, 0): "hyena-1", (0, 1): "lion-1"})
    assert [a["cell"] for a in GAME.legal_actions(state, 0) if a["type"] == "play"] == [[-1, 0], [0, -1], [1, 0]]
    _refused(
        state, 0, {"type": "play", "card": "hyena-2", "cell": [0, 2]}, r"rule \[4\]: Hyena 2 must touch a Hyena card", r"ルール\[4\]：ハイエナの2は"
    )


# ------------------------------------------------------------------ gazelles


def test_a_gazelle_ignores_rule_3_and_gives_another_turn():
    state = _table(hands=[["gazelle-1", "lion-2"], ["lion-3"]], field={(0, 0): "lion-1"})
    assert {tuple(a["cell"]) for a in GAME.legal_actions(state, 0) if a.get("card") == "gazelle-1"} == {
        (-1, 0),
        (0, -1),
        (0, 1),
        (1, 0),
    }
    state = _do(state, 0, "play", card="gazelle-1", cell=[0, 1])
    assert state["step"] == "turn" and GAME.to_act(state) == [0]
    assert GAME.view(state, None)["log"][-1]["text"]["en"] == "{s0} plays a Gazelle and takes another turn"


def test_a_gazelle_on_the_field_never_satisfies_rule_4():
    state = _table(hands=[["lion-2"]], field={(0, 0): "lion-1", (0, 1): "gazelle-1"})
    _refused(state, 0, {"type": "play", "card": "lion-2", "cell": [0, 2]}, r"rule \[4\]: Lion 2 must touch a Lion card")
    assert {"type": "play", "card": "lion-2", "cell": [1, 0]} in GAME.legal_actions(state, 0)


# ------------------------------------------------------------------ taking a line


def test_with_no_legal_play_the_only_moves_are_taking_a_row_or_column_that_holds_a_card():
    state = _table(hands=[["hyena-1"]], field={(0, 0): "lion-1", (0, 1): "lion-2", (1, 1): "lion-3"})
    assert GAME.legal_actions(state, 0) == [
        {"type": "take", "row": 0},
        {"type": "take", "row": 1},
        {"type": "take", "column": 0},
        {"type": "take", "column": 1},
    ]
    _refused(state, 0, {"type": "take", "row": 2}, r"row 2 of the field holds no card.*\(rows now: \[0, 1\]\)")


def test_taking_is_allowed_even_when_a_play_exists():
    state = _table(hands=[["lion-2"]], field={(0, 0): "lion-1"})
    assert {"type": "take", "row": 0} in GAME.legal_actions(state, 0)


def test_taking_three_cards_draws_from_the_square_pile_then_any_card_is_placed_obeying_only_rules_1_and_2():
    field = {(0, 0): "lion-1", (0, 1): "lion-2", (0, 2): "lion-3", (1, 0): "hyena-1"}
    state = _table(hands=[["cheetah-4"], ["lion-4"]], field=field, pile=["leopard-0", "gazelle-2"])
    state = _do(state, 0, "take", row=0)
    assert _cards_on_field(state) == {(1, 0): "hyena-1"}
    assert state["taken"][0] == ["lion-1", "lion-2", "lion-3"]
    assert state["hands"][0] == ["cheetah-4", "gazelle-2"] and state["pile"] == ["leopard-0"]
    public = GAME.view(state, None)["public"]
    assert public["taken"] == [3, 0, 0] and public["pile"] == 1 and public["hand_sizes"] == [2, 1, 0]
    assert public["step"] == "place" and GAME.to_act(state) == [0]
    assert "lion-1" not in json.dumps(public)  # taken cards lie face down
    assert "you drew Gazelle; now place" in GAME.view(state, 0)["log"][-1]["text"]["en"]
    # A new colour may come in now, next to any card, but [1] and [2] still hold.
    assert GAME.legal_actions(state, 0) == [
        {"type": "place", "card": card, "cell": cell}
        for card in ("cheetah-4", "gazelle-2")
        for cell in ([0, 0], [1, -1], [1, 1], [2, 0])
    ]
    _refused(state, 0, {"type": "place", "card": "cheetah-4", "cell": [3, 0]}, r"rule \[1\]")
    _refused(state, 0, {"type": "take", "row": 1}, "you took a line: now place any card")
    state = _do(state, 0, "place", card="cheetah-4", cell=[1, 1])
    assert _cards_on_field(state) == {(1, 0): "hyena-1", (1, 1): "cheetah-4"}
    assert state["step"] == "turn" and GAME.to_act(state) == [1]


@pytest.mark.parametrize(
    "line, pile, drawn",
    [({"column": 0}, ["leopard-0"], False), ({"row": 0}, [], False), ({"row": 0}, ["leopard-0"], True)],
)
def test_a_card_is_drawn_only_after_taking_exactly_three_and_only_from_a_pile_that_has_one(line, pile, drawn):
    field = {(0, 0): "lion-1", (0, 1): "lion-2", (0, 2): "lion-3", (1, 0): "hyena-1"}
    state = _do(_table(hands=[["cheetah-4"]], field=field, pile=pile), 0, "take", **line)
    assert ("leopard-0" in state["hands"][0]) == drawn
    assert ("the Square pile is empty" in GAME.view(state, None)["log"][-1]["text"]["en"]) == (
        line == {"row": 0} and not pile
    )
    assert len(state["pile"]) == len(pile) - drawn


def test_a_take_that_empties_the_field_lets_the_placed_card_start_a_new_field():
    state = _table(hands=[["cheetah-4", "hyena-2"], ["lion-3"]], field={(5, 7): "lion-1", (5, 8): "lion-2"})
    state = _do(state, 0, "take", row=5)
    assert state["field"] == [] and state["hands"][0] == ["cheetah-4", "hyena-2"]  # two taken: no draw
    assert GAME.legal_actions(state, 0) == [
        {"type": "place", "card": "cheetah-4", "cell": [0, 0]},
        {"type": "place", "card": "hyena-2", "cell": [0, 0]},
    ]
    _refused(
        state,
        0,
        {"type": "place", "card": "hyena-2", "cell": [5, 7]},
        r"the field is empty: the first card goes at \[0, 0\]",
    )
    state = _do(state, 0, "place", card="hyena-2", cell=[0, 0])
    assert _cards_on_field(state) == {(0, 0): "hyena-2"} and GAME.to_act(state) == [1]


def test_a_gazelle_placed_after_a_take_also_gives_another_turn():
    state = _table(hands=[["gazelle-1", "lion-5"]], field={(0, 0): "lion-1", (1, 0): "lion-2"})
    state = _do(state, 0, "take", row=0)
    state = _do(state, 0, "place", card="gazelle-1", cell=[1, 1])
    assert state["step"] == "turn" and GAME.to_act(state) == [0]


# ------------------------------------------------------------------ round end and damage

# A field one card short of full, as seen from the south (grid coordinates = field coordinates):
#   lion-1    lion-2    lion-3
#   hyena-1   hyena-2   hyena-3
#   cheetah-1 cheetah-2 (empty)
EIGHT = {
    (0, 0): "lion-1", (0, 1): "lion-2", (0, 2): "lion-3",
    (1, 0): "hyena-1", (1, 1): "hyena-2", (1, 2): "hyena-3",
    (2, 0): "cheetah-1", (2, 1): "cheetah-2",
}  # fmt: skip


def _ninth_card(players=3, herds=None, round=1):
    """Seat 0 completes the square with cheetah-3. Then seat 0 (south) loses 1+2+3 from the
    bottom row and 1 for the gazelle in hand: 7; seat 1 (west) the left column 1+1+1 and
    half its 3 taken cards rounded up, 2: 5; seat 2 (north) the top row 1+2+3 and a gazelle:
    7; with 4 players seat 3 (east) the right column 3+3+3: 9."""
    hands = [["cheetah-3", "gazelle-1"], ["leopard-5"], ["gazelle-2"], ["leopard-4"]][:players]
    taken = [[], ["leopard-0", "leopard-1", "leopard-2"], [], []][:players]
    state = _table(players, hands=hands, field=EIGHT, taken=taken, herds=herds, round=round)
    return _do(state, 0, "play", card="cheetah-3", cell=[2, 2])


def test_the_round_ends_when_the_square_is_full_and_each_side_takes_its_damage():
    state = _ninth_card(3)
    assert state["herds"] == [13, 15, 13]
    assert GAME.view(state, 1)["private"]["herd"] == 15
    entry = next(e for e in reversed(GAME.view(state, 1)["log"]) if e["text"]["en"].startswith("Round 1:"))
    assert entry["text"]["en"] == (
        "Round 1: you lose 5 = field 3 + 2 for 3 taken cards + 0 for gazelles in hand; your herd is now 15"
    )
    last = GAME.view(state, None)["public"]["last_round"]
    assert last == {
        "round": 1,
        "grid": [
            ["lion-1", "lion-2", "lion-3"],
            ["hyena-1", "hyena-2", "hyena-3"],
            ["cheetah-1", "cheetah-2", "cheetah-3"],
        ],
        "taken": [0, 3, 0],
    }


def test_with_four_players_the_east_side_takes_damage_too():
    assert _ninth_card(4)["herds"] == [13, 15, 13, 11]


def _damage_cell(card):
    """A field card as damage() reads it."""
    if card is None:
        return None
    color, n = card.split("-")
    return {"gazelle": True} if color == "gazelle" else {"color": color, "n": int(n)}


@pytest.mark.parametrize("players", [3, 4])
def test_every_round_end_of_random_games_costs_each_side_what_damage_says(players):
    # The engine works the loss out from its own field without checking that field again;
    # the public damage() (which the ledger and the bots use) must agree on every round end.
    chooser = random.Random(players)
    ends = 0
    for seed in range(12):
        state = GAME.setup(players, seed)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            action = chooser.choice(GAME.legal_actions(state, seat))
            new = GAME.apply(state, seat, action)
            if new["last_round"] != state["last_round"]:  # this move ended the round
                ends += 1
                field = [[_damage_cell(card) for card in row] for row in new["last_round"]["grid"]]
                for side in range(players):
                    hand = [card for card in state["hands"][side] if card != action.get("card")]
                    gazelles = sum(card.startswith("gazelle") for card in hand)
                    loss = damage(field, lion_square.SIDES[side], len(state["taken"][side]), gazelles)
                    assert state["herds"][side] - new["herds"][side] == loss, (seed, side)
            state = new
    assert ends >= 24


def test_the_next_round_is_reshuffled_and_started_by_the_player_after_the_last_to_put_a_card_down():
    state = _ninth_card(3)
    assert state["round"] == 2 and state["start_player"] == 1 and state["result"] is None
    assert state["step"] == "pass" and GAME.to_act(state) == [0, 1, 2]
    assert [len(h) for h in state["hands"]] == [8, 8, 8] and len(state["pile"]) == 8
    assert state["field"] == [] and state["taken"] == [[], [], []]
    assert GAME.components(state) == sorted(lion_square.CARNIVORES + lion_square.GAZELLES)
    assert state["hands"] != GAME.setup(3, 1)["hands"]


def test_the_round_ends_when_a_turn_starts_with_an_empty_hand():
    state = _table(hands=[["lion-2"], [], ["gazelle-1"]], field={(0, 0): "lion-1"})
    state = _do(state, 0, "play", card="lion-2", cell=[0, 1])
    # South sees lion-1 and lion-2 (3); seat 2 still holds a gazelle (1).
    assert state["round"] == 2 and state["herds"] == [17, 20 - 1, 20 - 3 - 1]
    assert state["start_player"] == 1


def test_the_extra_turn_of_a_last_gazelle_starts_with_an_empty_hand_and_ends_the_round():
    state = _table(hands=[["gazelle-1"], ["lion-5"], ["lion-4"]], field={(0, 0): "lion-1"})
    state = _do(state, 0, "play", card="gazelle-1", cell=[0, 1])
    assert state["round"] == 2 and state["start_player"] == 1


# ------------------------------------------------------------------ game end


def test_the_game_ends_after_round_three_and_the_biggest_herd_wins():
    state = _ninth_card(3, round=3)
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert GAME.result(state) == {
        "winners": [1],
        "scores": {"0": 13, "1": 15, "2": 13},
        "lions_win": False,
        "rounds": 3,
        "summary": {"en": "{s1} wins with a herd of 15.", "ja": "{s1}が群れ15頭で勝ちました。"},
    }
    assert GAME.view(state, None)["public"]["step"] == "over"
    assert GAME.view(state, 2)["result"]["scores"]["1"] == 15  # herds are revealed at the end


def test_the_game_ends_early_when_a_herd_is_gone_and_ties_share_the_win():
    state = _ninth_card(3, herds=[10, 8, 6])
    assert GAME.result(state) == {
        "winners": [0, 1],
        "scores": {"0": 3, "1": 3, "2": -1},
        "lions_win": False,
        "rounds": 1,
        "summary": {
            "en": "{s0} and {s1} share the win with herds of 3 each.",
            "ja": "{s0}と{s1}が群れ3頭で並び、勝ちを分け合いました。",
        },
    }


def test_a_herd_at_exactly_zero_ends_the_game():
    state = _ninth_card(3, herds=[20, 20, 7])
    assert GAME.result(state)["winners"] == [1] and GAME.result(state)["scores"]["2"] == 0


def test_when_every_herd_is_gone_the_lions_win_and_nobody_else():
    state = _ninth_card(3, herds=[7, 5, 6])
    assert GAME.result(state) == {
        "winners": [],
        "scores": {"0": 0, "1": 0, "2": -1},
        "lions_win": True,
        "rounds": 1,
        "summary": {
            "en": "The lions win: every herd fell to 0 or below. Nobody wins.",
            "ja": "ライオンの勝ち：すべての群れが0頭以下になりました。勝者はいません。",
        },
    }
    assert "the lions win" in GAME.view(state, None)["log"][-1]["text"]["en"]


def test_after_the_game_nobody_may_act():
    state = _ninth_card(3, round=3)
    _refused(state, 0, {"type": "pass", "card": "lion-1"}, "the game is over")


# ------------------------------------------------------------------ what each seat sees


def test_hands_and_herds_are_private_and_the_rest_is_public():
    state = _table(
        hands=[["lion-2", "gazelle-1"], ["hyena-3"], ["cheetah-4"]],
        field={(0, 0): "lion-1"},
        pile=["leopard-0"],
        taken=[[], ["lycaon-5"], []],
        herds=[20, 11, 9],
    )
    public = GAME.view(state, None)["public"]
    assert public["hand_sizes"] == [2, 1, 1] and public["taken"] == [0, 1, 0] and public["pile"] == 1
    assert public["field"] == [{"cell": [0, 0], "card": "lion-1"}] and public["grid"][0][0] == "lion-1"
    assert public["sides"] == ["S", "W", "N"] and public["turn"] == 0 and public["step"] == "turn"
    mine = GAME.view(state, 1)
    assert mine["private"] == {
        "hand": ["hyena-3"], "herd": 11, "passing": None, "passed": [], "received": [], "side": "W"
    }
    text = json.dumps(GAME.view(state, 1))
    for secret in ("lion-2", "gazelle-1", "cheetah-4", "leopard-0", "lycaon-5", '"herd": 9', '"herd": 20'):
        assert secret not in text


def test_the_pile_order_and_everything_else_a_seat_cannot_see_may_change_without_changing_its_view():
    start = GAME.setup(3, 4)
    state = _do(start, 1, "pass", card=GAME.legal_actions(start, 1)[0]["card"])
    scrambled = [GAME.scramble_hidden(state, 0, seed) for seed in range(5)]
    assert any(s["pile"] != state["pile"] for s in scrambled)
    assert any(s["passes"][1] != state["passes"][1] for s in scrambled)
    assert all(s["hands"][0] == state["hands"][0] for s in scrambled)
    assert all(GAME.view(s, 0) == GAME.view(state, 0) for s in scrambled)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "fly"}, r"unknown action type 'fly' \(allowed now: play, take\)"),
        ({"type": "pass", "card": "lion-2"}, "the hand adjustment is over"),
        ({"type": "place", "card": "lion-2", "cell": [0, 1]}, "only right after taking a line"),
        ({"type": "play", "cell": [0, 1]}, r"a 'play' action needs the field 'card' \(its fields: card, cell\)"),
        ({"type": "play", "card": None, "cell": [0, 1]}, 'needs "card"'),
        ({"type": "play", "card": "tiger-1", "cell": [0, 1]}, "there is no card 'tiger-1'"),
        ({"type": "play", "card": "lion-3", "cell": [0, 1]}, "you do not hold Lion 3"),
        ({"type": "play", "card": "lion-2"}, "a 'play' action needs the field 'cell'"),
        ({"type": "play", "card": "lion-2", "cell": [0]}, r'the "cell" must be \[row, column\]'),
        ({"type": "play", "card": "lion-2", "cell": [0.0, 1]}, "two whole numbers"),
        ({"type": "play", "card": "lion-2", "cell": [True, 1]}, "two whole numbers"),
        ({"type": "play", "card": "lion-2", "cell": "0,1"}, "two whole numbers"),
        ({"type": "play", "card": "lion-2", "cell": [0, 1], "extra": 1}, "a 'play' action has no field 'extra'"),
        ({"type": "take"}, r"a 'take' action needs the field 'row' or 'column' \(its fields: row or column\)"),
        ({"type": "take", "row": 0, "column": 0}, "a 'take' action takes only one of 'row' and 'column'"),
        ({"type": "take", "row": "0"}, "the row must be a whole number"),
        ({"type": "take", "column": None}, "the column must be a whole number"),
    ],
)
def test_bad_actions_are_refused_with_a_reason_and_change_nothing(action, message):
    state = _table(hands=[["lion-2"]], field={(0, 0): "lion-1"})
    _refused(state, 0, action, message)


@pytest.mark.parametrize(
    "step, action, message",
    [
        (
            "pass",
            {"type": "play", "card": "lion-2", "cell": [0, 1]},
            "the hand adjustment comes first.*now pass 2 of 3",
        ),
        ("place", {"type": "play", "card": "lion-2", "cell": [0, 1]}, "you took a line: now place any card"),
        ("start", {"type": "take", "row": 0}, "the start player first puts any card"),
    ],
)
def test_an_action_of_another_step_is_refused_saying_what_is_expected_now(step, action, message):
    state = _table(hands=[["lion-2"]], field={} if step == "start" else {(0, 0): "lion-1"}, step=step)
    if step == "pass":
        state.update(turn=None, adjustment=2)
    _refused(state, 0, action, message)


def test_junk_is_refused_with_a_reason():
    state = _table(hands=[["lion-2"]], field={(0, 0): "lion-1"})
    for junk in (None, 3, [], {"type": None}, {"type": "play", "card": ["x"], "cell": {}}, {"type": "take", "row": []}):
        with pytest.raises(IllegalAction) as refused:
            GAME.check(state, 0, junk)
        assert str(refused.value)


# ------------------------------------------------------------------ speed without changing a rule


def test_a_play_copies_only_what_it_changes_and_leaves_the_old_state_as_it_was():
    state = _table(hands=[["lion-1", "lion-2"], ["hyena-1"], ["cheetah-1"]], field={(0, 0): "lion-3"}, pile=["hyena-2"])
    before = GAME.dump(state)
    new = _do(state, 0, "play", card="lion-1", cell=[0, 1])
    assert GAME.dump(state) == before
    for unchanged in ("pile", "taken", "herds", "passes", "options"):
        assert new[unchanged] is state[unchanged], f"{unchanged} was copied though the play did not change it"
    assert new["hands"][1] is state["hands"][1] and new["hands"][0] is not state["hands"][0]


def test_the_quick_cell_check_agrees_with_the_worded_rules_on_every_cell_near_the_field():
    # _may_put (the tables _legal_actions uses) decides legality; _cell_problem words refusals.
    chooser = random.Random(3)
    for seed in range(6):
        state = GAME.setup(4, seed)
        while not GAME.is_over(state):
            seat = chooser.choice(GAME.to_act(state))
            field = state["field"]
            rows = [r for r, _, _ in field] or [0]
            cols = [c for _, c, _ in field] or [0]
            for card in state["hands"][seat][:2]:
                for kind in ("play", "place"):
                    for r in range(min(rows) - 3, max(rows) + 4):
                        for c in range(min(cols) - 3, max(cols) + 4):
                            worded_ok = lion_square._cell_problem(field, kind, card, [r, c]) is None
                            assert lion_square._may_put(field, kind, card, [r, c]) == worded_ok, (field, kind, card, r, c)
            state = GAME.apply(state, seat, chooser.choice(GAME.legal_actions(state, seat)))


def test_an_unlogged_game_words_nothing_and_plays_as_the_logged_one(monkeypatch):
    # A search plays unlogged states by the thousand and nobody reads their moves: the
    # engine must not even word them (base.log would only throw the words away).
    logged, actions = random_playout(GAME, 4, 7)
    searched = GAME.unlogged(GAME.setup(4, 7))
    worded = []
    monkeypatch.setattr(lion_square.LionSquare, "log", lambda self, state, *words, **private: worded.append(words))
    for seat, action in actions:
        searched = GAME.apply(searched, seat, action)
    assert worded == []
    assert searched["log"] is None and {**searched, "log": logged["log"]} == logged
