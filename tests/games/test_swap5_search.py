"""The two-player SWAP 5 search (companion/games/swap5/search.py): its little engine on board
strings agrees with the real one, it reads the endings the book describes, it sees only
the seat's view, it ends its games, and what it leaves unread changes no move it may play."""

import itertools
import json
import math

import pytest

from companion import games
from companion.bots import choose
from companion.bots.budget import Budget
from companion.games.swap5 import search as swap5_search
from companion.bots.greedy import greedy_action
from companion.bots.ismcts import action_key
from companion.games.swap5 import rules as swap5
from companion.games.rng import Rng
from companion.table import Table


def seat_view(game, state, seat):
    return game.view(state, seat) | {"actions": game.legal_actions(state, seat)}


def positions(count, board="front", seed=0):
    """States of two-player games played at random from random layouts."""
    game = games.get("swap5")
    rng = Rng.from_seed(seed)
    found = []
    while len(found) < count:
        state = game.setup(2, rng.next64() >> 1, {"layout": "random", "board": board})
        for _ in range(rng.randbelow(40)):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if not game.is_over(state):
            found.append(state)
    return game, found


@pytest.mark.parametrize("board", ["front", "back"])
def test_its_moves_boards_and_scores_are_the_engines(board):
    """Every move it lists is a legal action, in the engine's own order, and leaves the board
    and the scores the engine's move leaves; it sees a five in one exactly where one of the
    seat's swaps or moves scores five (test_it_takes_a_five_and_stops_the_others has one)."""
    game, states = positions(25, board)
    for state in states:
        seat = game.to_act(state)[0]
        search = swap5_search.Search(game.view(state, seat))
        moves = search.mine()
        assert [action for action, *_ in moves] == game.legal_actions(state, seat)
        five_in_one = False
        for action, after, scores, hand in moves:
            played = game.apply(state, seat, action)
            assert after == played["board"] and scores == swap5.seat_scores(played["board"], 2)
            assert hand == tuple(played["hands"][str(seat)])
            five_in_one |= action["type"] != "trump" and scores[seat] >= swap5.WINNING_SCORE
        ready, _ = search.rules.fours(state["board"], seat)
        assert bool(ready) == five_in_one


def test_a_tie_goes_to_the_first_to_act_in_the_last_lap():
    """RULINGS §3: the start player (whoever it is) before any last card, else the seat after
    the one who played their last card."""
    assert swap5_search.ended((2, 1), None, 1) == 0 and swap5_search.ended((1, 2), 0, 0) == 1
    assert swap5_search.ended((1, 1), None, 0) == 0 and swap5_search.ended((1, 1), None, 1) == 1
    assert swap5_search.ended((1, 1), 0, 0) == 1 and swap5_search.ended((1, 1), 1, 1) == 0


def test_it_takes_a_five_and_stops_the_others():
    """A five in one is taken; the other's five in one is blocked."""
    game = games.get("swap5")
    state = game.setup(2, 1, {"layout": "typed", "typed_layout": "RRRR./GYBGR/BG.YB/YB.GY/GYB.."})
    search = swap5_search.Search(game.view(state, 0))
    assert search.rules.fours(state["board"], 0) == ({swap5.CELL_INDEX["E1"]}, 1)  # red E2 up to E1
    assert search.rules.fours(state["board"], 1) == (set(), 0)
    after = game.apply(state, 0, choose(game, seat_view(game, state, 0), budget=Budget.iterations(1), seed=1))
    assert game.result(after)["winners"] == [0]
    # Green (seat 1) to move could make five in row 1 next: red must stop it.
    state = game.setup(2, 1, {"layout": "typed", "typed_layout": "GGGG./RYBRG/BR.YB/YB.RY/RYB.."})
    after = game.apply(state, 0, choose(game, seat_view(game, state, 0), budget=Budget.iterations(1), seed=1))
    seat = game.to_act(after)[0]
    assert not any(game.apply(after, seat, action)["result"] for action in game.legal_actions(after, seat)
                   if action["type"] != "trump")


def test_its_last_trump_card_is_worth_what_the_others_answers_leave():
    """Its last card ends the game after the other's one answer (the tie against it): the
    move's value is, over every hand the other may hold, a win when no answer of the other
    (swaps, moves, its trump cards) leaves the bot short, played out by the real engine."""
    game, states = positions(400, seed=5)
    checked = 0
    for state in states:
        seat = game.to_act(state)[0]
        other = str(1 - seat)
        if len(state["hands"][str(seat)]) != 1 or state["final_lap"] is not None or checked == 12:
            continue
        card = state["hands"][str(seat)][0]
        search = swap5_search.Search(game.view(state, seat))
        ((action, after, scores, hand),) = [move for move in search.mine() if move[0]["type"] == "trump"]
        found = search.value(after, scores, hand, True, 2)
        unseen = sorted(state["hands"][other] + state["out"])
        outcomes = []
        for dealt in itertools.combinations(unseen, len(state["hands"][other])):
            dealt_state = dict(state, hands={str(seat): [card], other: sorted(dealt)},
                               out=[c for c in unseen if c not in dealt])
            played = game.apply(dealt_state, seat, action)
            if game.is_over(played):
                outcomes.append(swap5_search.WIN if game.result(played)["winners"] == [seat] else -swap5_search.WIN)
                continue
            answers = [game.apply(played, int(other), answer) for answer in game.legal_actions(played, int(other))]
            assert all(game.is_over(answered) for answered in answers)
            won = all(game.result(answered)["winners"] == [seat] for answered in answers)
            outcomes.append(swap5_search.WIN if won else -swap5_search.WIN)
        assert found == pytest.approx(sum(outcomes) / len(outcomes))
        checked += 1
    assert checked == 12


def unnoticed(view):
    """``view`` with no last move: a bot that has noticed nothing of the other's play (see
    Search.notice), as at its first decision."""
    return view | {"public": view["public"] | {"last_move": None}}


def last_card_positions(count, traps, seed=11):
    """States of random games where the seat to move holds a trump card, the other holds
    one (its last), and no last card has been played: the first ``count``, then as many of
    those after them as it takes to have ``traps`` moves leaving a trap (see the test below)."""
    game, states = positions(800, seed=seed)
    found, trapped = [], 0
    for state in states:
        seat = game.to_act(state)[0]
        if state["final_lap"] is not None or not state["hands"][str(seat)] or len(state["hands"][str(1 - seat)]) != 1:
            continue
        if len(found) >= count:
            search = swap5_search.Search(unnoticed(game.view(state, seat)))
            leaving = sum(trap for _, board, _, hand in search.mine() for _, trap in search._last_cards(board, hand))
            if not leaving:
                continue
            trapped += leaving
        found.append(state)
        if len(found) >= count and trapped >= traps:
            return game, found
    raise AssertionError("too few traps in the random positions")


def test_the_other_may_walk_into_a_trap_its_last_card_looks_like_a_win():
    """The other holding its last trump card: played, it ends the game after the bot's last
    turn. Where none of the bot's swaps and moves would catch it but one of the bot's trump
    cards does (the real engine plays it all out), the other, which cannot see the bot's
    cards, sees a win: a trap. Each hand of the other's that is a trap counts LURED of a win;
    a move that leaves no trap is worth the same whatever LURED is."""
    game, states = last_card_positions(6, traps=20)
    traps_seen = 0
    for state in states:
        seat = game.to_act(state)[0]
        other = 1 - seat
        view = unnoticed(game.view(state, seat))
        search = swap5_search.Search(view)
        unseen = sorted(state["hands"][str(other)] + state["out"])
        assert list(search.unseen) == unseen
        for action, board, scores, hand in search.mine():
            if action["type"] == "trump" and not hand:
                continue  # the bot's own last card: the other has the last turn
            played = game.apply(state, seat, action)
            expected = []
            for card in unseen:
                dealt = dict(played, hands={str(seat): played["hands"][str(seat)], str(other): [card]},
                             out=[c for c in unseen if c != card])
                ended = game.apply(dealt, other, {"type": "trump", "card": card})
                if game.is_over(ended):
                    expected.append((swap5_search.WIN if game.result(ended)["winners"] == [seat] else -swap5_search.WIN, False))
                    continue
                won = {kind: any(game.result(game.apply(ended, seat, last))["winners"] == [seat]
                                 for last in game.legal_actions(ended, seat) if (last["type"] == "trump") == (kind == "card"))
                       for kind in ("step", "card")}
                expected.append((swap5_search.WIN if won["step"] or won["card"] else -swap5_search.WIN,
                                 won["card"] and not won["step"]))
            assert search._last_cards(board, hand) == expected
            traps = sum(trap for _, trap in expected)
            traps_seen += traps
            worth = {}
            for lured in (0.0, 0.5, 1.0):
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(swap5_search, "LURED", lured)
                    worth[lured] = swap5_search.Search(view).value(board, scores, hand, False, 2)
            if not traps:
                assert worth[0.0] == worth[0.5] == worth[1.0]
            else:
                # LURED of a win, in place of the worst of the other's other answers
                assert worth[1.0] - worth[0.0] == pytest.approx(2 * (worth[0.5] - worth[0.0]))
                assert worth[0.5] > worth[0.0] or worth[0.0] == swap5_search.WIN
    assert traps_seen >= 20


def shown_by_passing(game, state):
    """The seat to move in ``state`` holding its last trump card: the cards it may hold
    (those the other seat has not seen) that it declines by not playing it, and those it
    passes over, each played out by the real engine (see the test below)."""
    other = game.to_act(state)[0]
    bot = 1 - other
    unseen = sorted(state["hands"][str(other)] + state["out"])
    shown = {"passed": [], "declined": []}
    for card in unseen:
        dealt = dict(state, hands={str(bot): state["hands"][str(bot)], str(other): [card]},
                     out=[c for c in unseen if c != card])
        ended = game.apply(dealt, other, {"type": "trump", "card": card})
        if game.is_over(ended):
            if game.result(ended)["winners"] == [other]:
                shown["declined"].append(card)
            continue
        won = {kind: any(game.result(game.apply(ended, bot, last))["winners"] == [bot]
                         for last in game.legal_actions(ended, bot) if (last["type"] == "trump") == (kind == "card"))
               for kind in ("step", "card")}
        if not won["step"]:
            shown["passed" if won["card"] else "declined"].append(card)
    return shown


def test_it_notes_the_last_cards_the_other_passed_over():
    """The other, holding its last trump card, swaps or moves instead of playing it. A card
    it may hold that would have won it the game whatever the bot did, it declined: it does
    not hold it. One that would have looked like a win to a player who cannot see the
    bot's cards, though one of them would have caught it, it passed over: if it holds it,
    it does not walk into traps. The bot notes both (the real engine plays each card out),
    keeps what it noted before, and starts again for other played cards (a new play)."""
    game, states = positions(800, seed=17)
    noted = {"passed": 0, "declined": 0}
    for state in states:
        other = game.to_act(state)[0]
        if state["final_lap"] is not None or len(state["hands"][str(other)]) != 1:
            continue
        bot = 1 - other
        played = [entry["card"] for entry in state["played"] if entry["seat"] == other]
        expected = shown_by_passing(game, state)
        steps = [action for action in game.legal_actions(state, other) if action["type"] != "trump"]
        first, second = (game.view(game.apply(state, other, step), bot) for step in (steps[0], steps[-1]))
        notes = {"played": played + ["row-1-2"], "passed": ["col-1-2"], "declined": []}  # another play's
        swap5_search.Search(first, notes)
        assert notes == {"played": played, **expected}
        notes["declined"].insert(0, "noted before")
        swap5_search.Search(second, notes)  # the same cards shown again: noted once
        assert notes == {"played": played, "passed": expected["passed"], "declined": ["noted before", *expected["declined"]]}
        noted = {kind: count + len(expected[kind]) for kind, count in noted.items()}
    assert noted["passed"] >= 5 and noted["declined"] >= 5


def test_a_player_seen_passing_over_every_trap_is_counted_on_to_walk_into_none():
    """Once the other has passed over every card it may hold, no trap counts, and the bot's
    cards kept are worth nothing more (they are kept for the traps): every move is worth
    what it is with LURED and CARD_KEPT at 0."""
    game, states = last_card_positions(0, traps=10)
    changed = 0
    for state in states:
        seat = game.to_act(state)[0]
        view = unnoticed(game.view(state, seat))
        played = [entry["card"] for entry in state["played"] if entry["seat"] == 1 - seat]
        unseen = list(swap5_search.Search(view).unseen)
        wary = swap5_search.Search(view, {"played": played, "passed": unseen, "declined": []})
        trusting = swap5_search.Search(view)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(swap5_search, "LURED", 0.0)
            patch.setattr(swap5_search, "CARD_KEPT", 0.0)
            plain = swap5_search.Search(view)
        for action, board, scores, hand in wary.mine():
            worth = wary.value(board, scores, hand, action["type"] == "trump" and not hand, 2)
            assert worth == pytest.approx(plain.value(board, scores, hand, action["type"] == "trump" and not hand, 2))
            changed += worth != pytest.approx(trusting.value(board, scores, hand, action["type"] == "trump" and not hand, 2))
    assert changed >= 10


def test_after_an_undo_the_bots_notes_keep_what_still_stands(tmp_path):
    """The notes against the table's undo. Taking back the other's swap keeps them: it did
    pass over its cards there, and a person at the table remembers that too. Taking back
    the other's trump card starts them again: the cards it may hold are no longer those
    they were written about."""
    table = Table(tmp_path)
    try:
        table.start_game("swap5", 2, seed=2)
        game, bot, other = games.get("swap5"), 0, 1
        notes = {}

        def step(seat, last=False):
            view = table.view(seat)
            steps = [action for action in view["actions"] if action["type"] != "trump"]
            table.act(seat, steps[-1 if last else 0], view["version"])

        def bot_thinks():
            view = table.view(bot)
            assert view["to_act"] == [bot]
            choose(game, view, budget=Budget.iterations(1), seed=1, notes=notes)  # for the notes it keeps

        step(bot)
        view = table.view(other)
        card = next(action for action in view["actions"] if action["type"] == "trump")
        table.act(other, card, view["version"])
        step(bot)
        step(other)  # holding its last card, it swaps or moves instead
        bot_thinks()
        assert notes["played"] == [card["card"]]
        notes["passed"].append("noted before")  # stands for what its play showed
        table.undo()  # the other's swap taken back; it swaps otherwise
        step(other, last=True)
        bot_thinks()
        assert notes["played"] == [card["card"]] and "noted before" in notes["passed"]
        for _ in range(3):  # back before its card; it swaps instead
            table.undo()
        step(other)
        bot_thinks()
        assert notes == {"played": [], "passed": [], "declined": []}
    finally:
        table.close()


def test_it_keeps_its_trump_cards_rather_than_spend_one_for_a_point(monkeypatch):
    """A card kept is worth CARD_KEPT: holding both its cards, it plays one in few of the
    positions where it would if a card kept were worth nothing (a point a card gives is
    seldom kept for long)."""
    game, states = positions(120, seed=13)
    both = [(state, seat_view(game, state, game.to_act(state)[0])) for state in states
            if len(state["hands"][str(game.to_act(state)[0])]) == 2]

    def spent(views):
        return sum(choose(game, view, budget=Budget.iterations(1), seed=1, level="normal")["type"] == "trump" for _, view in views)
    kept = spent(both)
    monkeypatch.setattr(swap5_search, "CARD_KEPT", 0.0)
    unkept = spent(both)
    assert len(both) >= 50 and unkept >= 10 and 4 * kept <= unkept


@pytest.mark.parametrize("depth", [2, 3])
def test_what_it_leaves_unread_changes_no_move_it_may_play(depth, monkeypatch):
    """The search stops reading a move once it is sure to be worth less than ``floor`` (an
    answer of the other's leaves the bot that little), and stops reading the bot's next
    moves once one is worth the other's worst answer so far (``cap``). Neither changes a
    value it gives at or above ``floor``: every move's value is the one read in full."""
    game, states = positions(8, seed=5)
    states += last_card_positions(0, traps=10)[1]  # the other may walk into a trap (see the test above)
    in_full = swap5_search.Search._best_next
    for state in states:
        seat = game.to_act(state)[0]
        search = swap5_search.Search(game.view(state, seat))
        for action, board, scores, hand in search.mine():
            played_last = action["type"] == "trump" and not hand
            with monkeypatch.context() as unpruned:
                unpruned.setattr(swap5_search.Search, "_best_next",
                                 lambda self, *args: in_full(self, *args[:-1], math.inf))
                whole = search.value(board, scores, hand, played_last, depth)
            assert search.value(board, scores, hand, played_last, depth) == pytest.approx(whole)
            for floor in (whole - 1, whole, whole + 0.01, whole + 1):
                cut = search.value(board, scores, hand, played_last, depth, floor)
                if whole >= floor:
                    assert cut == pytest.approx(whole)
                else:
                    assert cut < floor


def test_a_budget_that_has_run_out_leaves_it_the_move_it_looked_at_first():
    """Moves are weighed best first by their first look; the budget is asked before each
    move after the first, so one spent at once (a clock that reaches the deadline at its
    next reading) plays the first look's best."""
    game, states = positions(6, seed=7)
    read_on = 0
    for state in states:
        seat = game.to_act(state)[0]
        search = swap5_search.Search(game.view(state, seat))
        first = max(search.mine(), key=search.first_look)[0]  # max keeps the first of equals, as the stable sort
        readings = iter([0.0] + [1.0] * 1000)
        spent = Budget.seconds(1).start(lambda: next(readings))
        assert swap5_search.Search(game.view(state, seat)).run(None, None, spent, 8, Rng.from_seed(1)) == first
        read_on += swap5_search.Search(game.view(state, seat)).run(None, None, None, 8, Rng.from_seed(1)) != first
    assert read_on  # with no deadline it reads on, and plays another move in some of them


def test_it_sees_only_the_view_and_one_seed_gives_one_move():
    """The view as the phone gets it (through JSON) gives the same move for the same seed;
    the other's cards are never read (two states differing only there give one move)."""
    game, states = positions(6, seed=3)
    for state in states:
        seat = game.to_act(state)[0]
        view = seat_view(game, state, seat)
        move = choose(game, view, budget=Budget.iterations(1), seed=9)
        assert choose(game, json.loads(json.dumps(view)), budget=Budget.iterations(1), seed=9) == move
        other = str(1 - seat)
        swapped = dict(state, hands=dict(state["hands"]))
        pool = sorted(swapped["out"] + swapped["hands"][other])
        swapped["hands"][other], swapped["out"] = pool[-len(state["hands"][other]):] if state["hands"][other] else [], \
            pool[:len(pool) - len(state["hands"][other])]
        assert choose(game, seat_view(game, swapped, seat), budget=Budget.iterations(1), seed=9) == move


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_its_games_against_greedy_and_itself_end_within_300_moves(level):
    """No move cap: the last call makes it play its cards out by move 240."""
    game = games.get("swap5")
    for seed, opponent in ((1, "greedy"), (2, level)):
        state = game.setup(2, seed)
        rng = Rng.from_seed(seed)
        moves = 0
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            view = seat_view(game, state, seat)
            if seat == 1 and opponent == "greedy":
                action = greedy_action(game, view, rng)
            else:
                action = choose(game, view, budget=Budget.iterations(1), seed=rng.next64() >> 1, level=level)
            state = game.apply(state, seat, action)
            moves += 1
        assert moves <= swap5_search.LAST_CALL + 3 < 300
