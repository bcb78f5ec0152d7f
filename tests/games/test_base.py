"""The base's shape check (``Game.action_fields``) and, for every game, the agreement of
``_is_legal`` with ``_legal_actions`` on random states and near-miss actions."""

import json
import random

import pytest

from companion import games
from companion.games import Game, IllegalAction
from companion.games.base import LOG_KEEP, _same_types


class Toy(Game):
    """A game whose only moves are ``play`` (a card and a cell), ``take`` (a row or a
    column) and ``done``; it records every action its rules are asked about."""

    id = "toy"
    title = {"en": "Toy", "ja": "おもちゃ"}
    min_players = 1
    max_players = 1
    action_fields = {"play": ("card", "cell"), "take": (("row", "column"),), "done": ()}

    def __init__(self):
        self.asked = []

    def _setup(self, state, rng):
        pass

    def _to_act(self, state):
        return [0]

    def _legal_actions(self, state, seat):
        return [{"type": "take", "row": 0}, {"type": "done"}]

    def _is_legal(self, state, seat, action):
        self.asked.append(action)
        return super()._is_legal(state, seat, action)

    def _explain(self, state, seat, action):
        self.asked.append(action)
        return "a rule says no", "ルールによりできません"

    def _apply(self, state, seat, action, rng):
        state["last"] = action


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "fly"}, "unknown action type 'fly' (allowed now: done, take)"),
        ({"type": "play", "card": "x", "cell": [0, 0], "why": 1}, "a 'play' action has no field 'why' (its fields: card, cell)"),
        ({"type": "play", "card": "x"}, "a 'play' action needs the field 'cell' (its fields: card, cell)"),
        ({"type": "take"}, "a 'take' action needs the field 'row' or 'column' (its fields: row or column)"),
        ({"type": "take", "row": 0, "column": 1}, "a 'take' action takes only one of 'row' and 'column' (its fields: row or column)"),
        ({"type": "take", "card": "x"}, "a 'take' action has no field 'card' (its fields: row or column)"),
        ({"type": "done", "now": True}, "a 'done' action has no field 'now' (its fields: none)"),
    ],
)
def test_a_malformed_action_is_refused_before_the_rules_see_it(action, message):
    game = Toy()
    state = game.setup(1, 0)
    with pytest.raises(IllegalAction) as refused:
        game.check(state, 0, action)
    assert str(refused.value) == message
    assert game.asked == []


def test_a_well_shaped_action_goes_to_the_rules():
    game = Toy()
    state = game.setup(1, 0)
    game.check(state, 0, {"type": "take", "row": 0})
    with pytest.raises(IllegalAction, match="a rule says no"):
        game.check(state, 0, {"type": "take", "column": 0})
    with pytest.raises(IllegalAction, match="a rule says no"):
        game.check(state, 0, {"type": "play", "card": "x", "cell": [0, 0]})
    assert game.asked == [
        {"type": "take", "row": 0},
        {"type": "take", "column": 0},
        {"type": "take", "column": 0},
        {"type": "play", "card": "x", "cell": [0, 0]},
        {"type": "play", "card": "x", "cell": [0, 0]},
    ]


def test_apply_listed_skips_the_check_that_apply_makes():
    game = Toy()
    state = game.setup(1, 0)
    listed = game.legal_actions(state, 0)[0]
    assert game.apply_listed(state, 0, listed) == game.apply(state, 0, listed)
    assert game.asked == [listed]  # asked by apply only
    assert "last" not in state  # neither touched the state it was given


@pytest.mark.parametrize("game_id", games.ids())
def test_apply_listed_gives_the_state_apply_gives_for_every_listed_action(game_id):
    game = games.get(game_id)
    for players in game.player_counts:
        chooser = random.Random(players)
        state = game.setup(players, players)
        for _ in range(12):
            if game.is_over(state):
                break
            seat = chooser.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            assert game.listed_actions(state, seat) == legal
            for action in legal:
                assert game.dump(game.apply_listed(state, seat, action)) == game.dump(game.apply(state, seat, action))
            state = game.apply(state, seat, chooser.choice(legal))


def test_a_random_playout_does_not_check_the_actions_it_takes_from_the_list_nor_the_seats(monkeypatch):
    from companion.simulate import random_playout

    game = games.get("swap5")
    expected, actions = random_playout(game, 2, 7)

    def refuse(*args):
        raise AssertionError("a listed action or a seat from to_act was checked again")

    monkeypatch.setattr(game, "check", refuse)
    monkeypatch.setattr(game, "legal_actions", refuse)
    state, again = random_playout(game, 2, 7)
    assert game.dump(state) == game.dump(expected) and again == actions


def test_an_unlogged_state_plays_on_without_wording_and_cannot_be_shown_or_saved():
    game = games.get("lion-square")
    state = game.setup(3, 5)
    searched = game.unlogged(state)
    assert state["log"] and searched["log"] is None and game.keeps_log(state) and not game.keeps_log(searched)
    seat = game.to_act(searched)[0]
    action = game.legal_actions(searched, seat)[0]
    after = game.apply(searched, seat, action)
    assert after["log"] is None
    assert {**after, "log": None} == {**game.apply(state, seat, action), "log": None}
    with pytest.raises(ValueError, match="search state .* cannot be viewed"):
        game.view(after, seat)
    with pytest.raises(ValueError, match="search state .* cannot be saved"):
        game.dump(after)
    assert state["log"] == game.setup(3, 5)["log"], "unlogged() changed the state it copied"


def test_the_log_keeps_its_newest_entries_and_is_replaced_not_changed_in_place():
    game = Toy()
    state = game.setup(1, 1)
    before = state["log"]
    for number in range(LOG_KEEP + 5):
        game.log(state, f"event {number}", f"出来事 {number}")
    assert before == [] and len(state["log"]) == LOG_KEEP
    assert [entry["text"]["en"] for entry in state["log"][:1] + state["log"][-1:]] == ["event 5", f"event {LOG_KEEP + 4}"]


def test_fields_written_as_a_string_are_refused_when_the_game_is_defined():
    with pytest.raises(TypeError, match=r"action_fields\['play'\] must be a tuple"):

        class Careless(Toy):
            action_fields = {"play": ("card")}


# ---------------------------------------------------------------------------- every game

ENGINES = [(game_id, players) for game_id in games.ids() for players in games.get(game_id).player_counts]
PLAYOUTS = 12  # per game and player count; every step of each is checked


def _shape_fits(game, action):
    """Whether ``action`` has exactly the fields its type declares in ``action_fields``."""
    fields = game.action_fields.get(action["type"])
    if fields is None:
        return False
    given = set(action) - {"type"}
    chosen = set()
    for field in fields:
        names = {field} if isinstance(field, str) else set(field)
        if len(names & given) != 1:
            return False
        chosen |= names & given
    return chosen == given


def _listed(action, legal):
    return any(action == other and _same_types(action, other) for other in legal)


def _near_misses(legal, chooser):
    """Well-shaped actions close to the legal ones: one field's value replaced by another
    legal action's value for it, by a neighbouring number, by another JSON type, or (for
    a pair) by a neighbouring or re-typed pair."""
    values = {}
    for action in legal:
        for key, value in action.items():
            values.setdefault((action["type"], key), []).append(value)
    misses = []
    for action in chooser.sample(legal, min(6, len(legal))):
        for key, value in action.items():
            if key == "type":
                continue
            others = [chooser.choice(values[(action["type"], key)]) for _ in range(3)]
            others += [None, True, 1.0, "x", [], {}, json.loads(json.dumps(value)), str(value)]
            if type(value) is int:
                others += [value - 1, value + 1, float(value), value == 1]
            if type(value) is list and len(value) == 2 and all(type(x) is int for x in value):
                r, c = value
                others += [[r + 1, c], [r, c - 1], [r, c, 0], (r, c), [float(r), c], [r, c == 1]]
            misses += [{**action, key: other} for other in others]
    return misses


@pytest.mark.parametrize("game_id,players", ENGINES)
def test_every_listed_action_has_its_declared_fields_and_is_legal_agrees_with_the_list(game_id, players):
    game = games.get(game_id)
    # A game without its own _is_legal looks actions up in the list: nothing to compare.
    answers_directly = type(game)._is_legal is not Game._is_legal
    for seed in range(PLAYOUTS):
        chooser = random.Random(seed)
        state = game.setup(players, seed)
        while not game.is_over(state):
            for seat in game.to_act(state):
                legal = game.legal_actions(state, seat)
                for action in legal:
                    assert _shape_fits(game, action), f"{action} does not have the fields action_fields declares"
                if not answers_directly:
                    continue
                for action in legal:
                    assert game._is_legal(state, seat, action), f"{action} is listed but _is_legal refuses it"
                for action in _near_misses(legal, chooser):
                    if _shape_fits(game, action):  # check() refuses any other before the rules are asked
                        assert game._is_legal(state, seat, action) == _listed(action, legal), (
                            f"_is_legal and _legal_actions disagree about {action} (step {state.get('step')})"
                        )
            seat = chooser.choice(game.to_act(state))
            state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))


def test_a_refusal_speaks_english_and_japanese_and_str_stays_english():
    game = Toy()
    state = game.setup(1, 0)
    with pytest.raises(IllegalAction) as refused:
        game.check(state, 0, {"type": "fly"})
    assert str(refused.value) == refused.value.en == "unknown action type 'fly' (allowed now: done, take)"
    assert refused.value.ja == "'fly' という行動はありません(いまできる行動: done, take)"
    assert IllegalAction.because(("no", "だめ")).ja == "だめ"


def test_waiting_for_defaults_to_to_act_and_is_empty_once_over():
    game = Toy()
    state = game.setup(1, 0)
    assert game.waiting_for(state) == game.to_act(state) == [0]
    state["result"] = {"winners": [0], "scores": {"0": 1}}
    assert game.waiting_for(state) == []


@pytest.mark.parametrize("game_id, players, seed, options", [
    ("lion-square", 5, 1, None),  # too many players
    ("swap5", 3, 1, None),  # SWAP 5 is for 2 or 4
    ("meow-oracle", 2, -1, None),  # a seed below 0
    ("meow-oracle", 2, 1, ["not", "an", "object"]),
    ("meow-oracle", 2, 1, {"no_such_option": 1}),
    ("swap5", 2, 1, {"layout": "nowhere"}),  # not one of the choices
    ("swap5", 2, 1, {"layout": "typed", "typed_layout": "RRRRR"}),  # a typed board that is not a board
    ("pig-house", 3, 1, {"edition": "/etc/passwd"}),  # a path, not an edition's content
])
def test_a_game_that_cannot_be_set_up_says_why_in_both_languages(game_id, players, seed, options):
    from companion.games.base import SetupError

    with pytest.raises(SetupError) as refused:
        games.get(game_id).setup(players, seed, options)
    assert refused.value.en and refused.value.ja and refused.value.ja != refused.value.en
    assert any("\u3040" <= char <= "\u30ff" or "\u4e00" <= char <= "\u9fff" for char in refused.value.ja)
