"""The contract every game meets, checked by random play (as OpenSpiel does for its games).

For every game id and every player count, seeded random games run through
``legal_actions``/``apply`` only. On every step:

* the components are conserved (the same cards, wherever they are);
* no view leaks: a seat's view does not change when everything hidden from it (other
  seats' secrets, face-down cards, the RNG: the engine's ``_hidden`` places) is shuffled
  among itself;
* a seat's view of a state resampled from its view (``resample``: the bots' sampler,
  OpenSpiel's ``ResampleFromInfostate``) is that view;
* the RNG state never appears in a view;
* ``load(dump(s)) == s`` and views are JSON;
* listed actions apply, and a sample of unlisted ones is refused with IllegalAction,
  saying why in English and in Japanese, without changing the state;
* ``random_action`` picks what one draw from the list would pick, at every index;
* ``waiting_for`` is a part of ``to_act``;

and every game ends with a result whose summary is in both languages, replaying its
seed and actions gives the same game, and so does playing it unlogged, as a search does.

The deep per-step checks are costly, so they run on DEEP_GAMES games per player count;
the rest of the GAMES games get the cheap checks. Set COMPANION_RANDOM_GAMES to play more
(1,000 a game before issue #34: 44% of the suite's time; 400 and 25 deep ones per player
count keep every deep check and most of the random reach). Each player count's games are
played in PARTS tests of their own (every PARTS-th game, deep ones in each): the same games,
but no single test of minutes that keeps one core busy while the other has nothing left.
"""

import json
import marshal
import os
import random

import pytest

from companion import games
from companion.games import Game, IllegalAction
from companion.games.rng import Rng
from companion.simulate import MAX_STEPS, random_playout

GAMES = int(os.environ.get("COMPANION_RANDOM_GAMES", "400"))  # per game id
DEEP_GAMES = min(GAMES, 25)  # per game id and player count
PARTS = 5  # tests per game id and player count; each plays every PARTS-th game

CASES = [
    (game_id, players)
    for game_id in games.ids()
    for players in games.get(game_id).player_counts
]


def _counts(game_id):
    return len(games.get(game_id).player_counts)


def _unlisted_candidates(legal, chooser):
    """Actions near the legal ones (one value changed, a key dropped or added) and junk."""
    candidates = [None, [], "play", 7, {}, {"type": 3}, {"type": "no-such-move"}]
    for action in chooser.sample(legal, min(3, len(legal))):
        for key, value in action.items():
            if key == "type":
                continue
            for other in (None, True, "x", -1, 99, 1.5, [], {}):
                candidates.append({**action, key: other})
            if isinstance(value, int) and not isinstance(value, bool):
                candidates.append({**action, key: value + 1})
                candidates.append({**action, key: float(value)})
            candidates.append({k: v for k, v in action.items() if k != key})
        candidates.append({**action, "extra": 1})
    listed = {_exactly(action) for action in legal}
    return [c for c in candidates if _exactly(c) not in listed]


def _exactly(value) -> bytes:
    """``value`` (a state, an action) as bytes that differ for any change in it, even of a
    type (1, 1.0 and True differ) or of its keys' order, at a tenth of a JSON dump's cost."""
    return marshal.dumps(value, 2)


def _refusal(game, state: dict, seat: int, action) -> IllegalAction:
    """The IllegalAction that ``seat``'s ``action`` meets: it must meet one. (Not
    pytest.raises: a run refuses tens of thousands, and that costs more than the engine's check.)"""
    try:
        game.apply(state, seat, action)
    except IllegalAction as refused:
        return refused
    pytest.fail(f"seat {seat} was let take {action!r}")


def _deep_checks(game, state, chooser, hidden_seen):
    players = state["players"]
    dumped = game.dump(state)
    assert game.load(dumped) == state, "load(dump(state)) differs from state"
    unchanged = _exactly(state)
    secret_rng = str(state["rng"])
    views = {seat: game.view(state, seat) for seat in [None, *range(players)]}
    public = views[None]["public"]
    for seat, view in views.items():
        text = json.dumps(view, ensure_ascii=False)
        assert json.loads(text) == view, f"seat {seat}'s view holds what JSON does not (a tuple, a key not a string)"
        assert secret_rng not in text, f"the RNG state appears in seat {seat}'s view"
        scrambled = game.scramble_hidden(state, seat, chooser.randrange(1 << 30))
        if seat is None and {k: v for k, v in scrambled.items() if k != "rng"} != {
            k: v for k, v in state.items() if k != "rng"
        }:
            hidden_seen.append(True)
        assert game.view(scrambled, seat) == view, f"seat {seat}'s view depends on what it cannot see"
        assert game.components(scrambled) == game.components(state), "scrambling lost or made components"
        if seat is not None:
            assert view["public"] == public, "the public part differs between seats"
            resampled = game.resample(view, Rng.from_seed(state["version"] * 8 + seat))  # chooser left as it was
            assert game.view(resampled, seat) == view, f"seat {seat}'s view of a state resampled from it differs"
        assert set(view["waiting_for"]) <= set(view["to_act"]), "a seat is awaited that may not act"
    for seat in game.to_act(state):
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        assert all(game._is_legal(state, seat, action) for action in legal), "a listed action is not legal"
        for index, action in enumerate(legal):  # random_action picks as a draw from the list would
            draws = []
            picked = game.random_action(state, seat, lambda n: draws.append(n) or index)
            assert draws == [len(legal)], f"random_action drew {draws} for a list of {len(legal)}"
            assert _exactly(picked) == _exactly(action), f"random_action picked {picked} for {action}"
        for action in chooser.sample(legal, min(4, len(legal))):
            json.dumps(action)
            assert isinstance(action.get("type"), str)
            game.apply(state, seat, action)  # must not raise
        for junk in _unlisted_candidates(legal, chooser):
            refused = _refusal(game, state, seat, junk)
            assert str(refused), "an IllegalAction must say why"
            assert refused.ja, f"the refusal of {junk} has no Japanese: {refused}"
        assert _exactly(state) == unchanged, "a refused action changed the state"
    waiting = set(game.to_act(state))
    for seat in range(players):
        if seat not in waiting:
            assert game.legal_actions(state, seat) == []
            some = next((game.legal_actions(state, s) for s in waiting), [])
            for action in some[:2]:
                _refusal(game, state, seat, action)
            assert _exactly(state) == unchanged, "a move out of turn changed the state"


def _play(game, players, seed, deep, hidden_seen):
    chooser = random.Random(seed)
    state = game.setup(players, seed)
    components = game.components(state)
    history = []
    first = None  # the start player, once the game knows it: it never changes afterwards
    while not game.is_over(state):
        assert len(history) < MAX_STEPS, "the game did not end"
        first = _checked_start_player(game, state, players, first)
        assert game.components(state) == components, "components were lost or made"
        if deep:
            _deep_checks(game, state, chooser, hidden_seen)
        seat = chooser.choice(game.to_act(state))
        action = chooser.choice(game.legal_actions(state, seat))
        before = _exactly(state)
        new = game.apply(state, seat, action)
        assert _exactly(state) == before, "apply changed the state it was given"
        assert new["version"] == state["version"] + 1
        history.append((seat, action))
        state = new
    assert game.components(state) == components
    _checked_start_player(game, state, players, first)
    assert game.to_act(state) == []
    result = game.result(state)
    assert set(result) >= {"winners", "scores"}
    assert all(0 <= w < players for w in result["winners"])
    summary = result["summary"]
    assert set(summary) == {"en", "ja"} and summary["en"].strip() and summary["ja"].strip(), summary
    assert all(games.base.seat_ref(w) in summary["en"] and games.base.seat_ref(w) in summary["ja"] for w in result["winners"])
    assert game.view(state, None)["waiting_for"] == []
    json.dumps(game.view(state, None))
    return state, history


def _checked_start_player(game, state, players, known):
    """``game.start_player(state)``: a seat or None, and the same seat from when it is known;
    the turn order from it is every seat once, the start player first."""
    start = game.start_player(state)
    assert start is None or (type(start) is int and 0 <= start < players), start
    assert known is None or start == known, f"the start player changed from {known} to {start}"
    if start is not None:
        order = game.turn_order(players, start, state["options"])
        assert order[0] == start and sorted(order) == list(range(players)), order
    return start


@pytest.mark.parametrize(("direction", "order"), [("clockwise", [0, 1, 2, 3]), ("counterclockwise", [0, 3, 2, 1])])
def test_swap5s_turn_order_follows_its_direction(direction, order):
    game = games.get("swap5")
    state = game.setup(4, 1, {"direction": direction})
    assert game.turn_order(4, game.start_player(state), state["options"]) == order
    seen = []
    for _ in range(4):  # the first lap, as the engine plays it
        seat = game.to_act(state)[0]
        seen.append(seat)
        state = game.apply(state, seat, next(a for a in game.legal_actions(state, seat) if a["type"] != "trump"))
    assert seen == order


@pytest.mark.parametrize("part", range(PARTS), ids=lambda part: f"part{part + 1}of{PARTS}")
@pytest.mark.parametrize("game_id,players", CASES)
def test_random_games_keep_the_contract(game_id, players, part):
    game = games.get(game_id)
    count = max(DEEP_GAMES, GAMES // _counts(game_id))
    hidden_seen = []
    for number in range(part, count, PARTS):
        seed = 1000 * players + number
        state, history = _play(game, players, seed, number < DEEP_GAMES, hidden_seen)
        if number < DEEP_GAMES:
            replay = game.setup(players, seed)
            for seat, action in history:
                replay = game.apply(replay, seat, action)
            assert game.dump(replay) == game.dump(state), "the same seed and actions gave another game"
            again, actions = random_playout(game, players, seed)
            assert game.dump(again) == game.dump(random_playout(game, players, seed)[0])
            searched, searched_actions = random_playout(game, players, seed, logged=False)
            assert searched_actions == actions and searched["log"] is None, "an unlogged game went another way"
            assert {**searched, "log": again["log"]} == again, "an unlogged game ended in another state"
    if part < DEEP_GAMES and type(game)._hidden is not Game._hidden:  # deep games with secrets: the check must have bitten
        assert hidden_seen, f"{game_id} never had anything hidden to scramble: the leak check proved nothing"


@pytest.mark.parametrize("game_id", games.ids())
def test_game_describes_itself(game_id):
    game = games.get(game_id)
    assert game.id == game_id
    assert game.title["ja"] and game.title["en"]
    assert 1 <= game.min_players <= game.max_players
    json.dumps(game.describe_options())


@pytest.mark.parametrize("game_id", games.ids())
def test_bad_setup_is_refused(game_id):
    game = games.get(game_id)
    gaps = [n for n in range(game.min_players, game.max_players) if n not in game.player_counts]
    for players in (game.min_players - 1, game.max_players + 1, *gaps, "3", 2.0, None):
        with pytest.raises(ValueError):
            game.setup(players, 1)
    for seed in (-1, "x", 1.5, None):
        with pytest.raises(ValueError):
            game.setup(game.min_players, seed)
    with pytest.raises(ValueError, match="no option"):
        game.setup(game.min_players, 1, {"no-such-option": 1})
    with pytest.raises(ValueError):
        game.setup(game.min_players, 1, "fast")


@pytest.mark.parametrize("game_id", games.ids())
def test_bad_seats_and_saves_are_refused(game_id):
    game = games.get(game_id)
    state = game.setup(game.min_players, 5)
    seat = game.to_act(state)[0]
    action = game.legal_actions(state, seat)[0]
    for bad_seat in (-1, game.min_players, "0", None, True):
        with pytest.raises(IllegalAction, match="no seat"):
            game.apply(state, bad_seat, action)
    for text in ("", "{", "[]", '{"game": "x"}', json.dumps({**state, "game": "other"})):
        with pytest.raises(ValueError):
            game.load(text)


def test_unknown_game_id_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        games.get("chess")
