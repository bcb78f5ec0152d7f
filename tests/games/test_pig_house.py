"""Pig House tracker: every rule of RULINGS.md section 4, both endings, the ranking and its
tie-breakers, the edition file, and the error messages for bad input.

Most tests build a state by hand from a fresh setup (stacking the virtual wolf deck, placing
wolves, filling the attack schedule) and then play chosen actions through ``apply``.
"""

import json
import random

import pytest

from companion import games
from companion.games import IllegalAction
from companion.games.pig_house.rules import load_edition, validate_edition

GAME = games.get("pig-house")

# Die faces of the shipped edition, by index.
ONE_PIG, ONE_PIG_POT, TWO_PIGS, TWO_PIGS_POT, THREE_PIGS = 0, 1, 2, 3, 4


def new(players=2, **options):
    return GAME.setup(players, 7, options)


def act(state, seat, type, **fields):
    return GAME.apply(state, seat, {"type": type, **fields})


def refused(state, seat, action, match):
    """Assert that ``action`` is refused with a message matching ``match``; state unchanged."""
    before = GAME.dump(state)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action)
    assert GAME.dump(state) == before


def stack_deck(state, *ids):
    """Put these wolf cards on top of the virtual deck, in this order."""
    state["deck"] = list(ids) + [card for card in state["deck"] if card not in ids]


def fill_schedule(state, *ids):
    """Put these wolf cards on the chips, from the action chip up, taking them out of the deck."""
    state["deck"] = [card for card in state["deck"] if card not in ids]
    numbers = {card["id"]: card["number"] for card in state["edition"]["wolf_cards"]}
    entries = [{"card": card, "number": numbers[card], "mark": None} for card in ids]
    state["schedule"] = entries + [None] * (state["players"] - len(entries))


def building(state, seat=0):
    """Switch a fresh state to chaotic building at ``seat``'s roll."""
    state["phase"] = "building"
    state["turn"]["seat"] = seat
    state["turn"]["step"] = "roll"
    return state


def happening_on_top(state, card):
    """Put this happening card on top of the happening deck, swapping it out of a corner if there."""
    for corner, held in state["corner_cards"].items():
        if held == card:
            state["corner_cards"][corner] = state["happening_deck"].pop()
    if card in state["happening_deck"]:
        state["happening_deck"].remove(card)
    state["happening_deck"].insert(0, card)


def put_wolves(state, *squares):
    state["wolves"] = [{"id": i + 1, "square": square} for i, square in enumerate(squares)]
    state["next_wolf_id"] = len(squares) + 1


def to_attack(state, seat=0):
    """From a building roll step with the physical die: one pig action, then the wolves move."""
    state = act(state, seat, "die_face", face=ONE_PIG)
    state = act(state, seat, "pig_action", kind="move")
    return act(state, seat, "move_wolves")


def schedule_ids(state):
    return [None if entry is None else entry["card"] for entry in state["schedule"]]


# ---------------------------------------------------------------------------- the edition


def test_the_shipped_edition_is_valid_and_says_it_is_assumed():
    edition = load_edition()
    assert validate_edition(edition) is edition
    assert "GUESS" in edition["_assumed"]
    state = new()
    assert state["edition"] == edition


def _edition_with(change):
    edition = load_edition()
    change(edition)
    return edition


BAD_EDITIONS = [
    (lambda e: e.update(name=""), "'name'"),
    (lambda e: e.update(colour="red"), "unknown key"),
    (lambda e: e["track"].update(length=2), "'track.length'"),
    (lambda e: e["track"].update(events=[3, 0]), r"'track.events\[1\]'.*0 is the forest"),
    (lambda e: e["track"].update(events=[3, 3]), "'track.events'.*twice"),
    (lambda e: e["track"].update(corners={"top_right": 6}), "'track.corners'"),
    (lambda e: e["track"]["corners"].update(bottom_left=99), "'track.corners.bottom_left'"),
    (lambda e: e["track"]["corners"].update(bottom_left=6), "'track.corners'.*two different"),
    (lambda e: e.update(die=[]), "'die'"),
    (lambda e: e["die"][2].update(pot="yes"), r"'die\[2\].pot'"),
    (lambda e: e["die"][0].update(pigs=-1), r"'die\[0\].pigs'"),
    (lambda e: e.update(wolf_cards=e["wolf_cards"][:5]), "'wolf_cards'.*at least 6"),
    (lambda e: e["wolf_cards"][4].update(number=0), r"'wolf_cards\[4\].number'"),
    (lambda e: e["wolf_cards"][4].update(kind="bite"), r"'wolf_cards\[4\].kind'"),
    (lambda e: e["wolf_cards"][1].update(id="tackle-1"), r"'wolf_cards\[1\].id'.*twice"),
    (lambda e: e["wolf_cards"][0].update(name={"en": "Tackle"}), r"'wolf_cards\[0\].name'"),
    (lambda e: e["happenings"][0].pop("square"), r"'happenings\[0\].square'"),
    (lambda e: e["happenings"][3].update(square=1), r"'happenings\[3\].square'.*only for add_wolf"),
    (lambda e: e["happenings"][0].update(effect="storm"), r"'happenings\[0\].effect'"),
    (lambda e: e.update(happenings=e["happenings"][:1]), "'happenings'"),
    (lambda e: e.pop("happening_reshuffle"), "'happening_reshuffle'"),
]


@pytest.mark.parametrize("change,field", BAD_EDITIONS)
def test_a_bad_edition_is_refused_naming_the_field(change, field):
    with pytest.raises(ValueError, match=field):
        validate_edition(_edition_with(change))


def test_an_owner_edition_file_is_used_and_copied_into_the_state(tmp_path):
    path = tmp_path / "mine.json"
    edition = _edition_with(lambda e: e.update(name="My copy", die=[{"pigs": 2, "pot": True}]))
    path.write_text(json.dumps(edition), encoding="utf-8")
    state = new(edition=load_edition(str(path)))
    assert state["edition"]["name"] == "My copy"
    path.unlink()  # the game needs the file no more: its content is in the options and the state
    again = GAME.setup(state["players"], state["seed"], state["options"])
    assert again == GAME.load(GAME.dump(state)) and again["edition"]["name"] == "My copy"


def test_the_edition_option_takes_content_never_a_path(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(load_edition()), encoding="utf-8")
    with pytest.raises(ValueError, match="not a path"):
        new(edition=str(path))
    with pytest.raises(ValueError, match="refused.*'track.length'"):
        new(edition=_edition_with(lambda e: e["track"].update(length="long")))


def test_a_bad_edition_file_is_refused_when_loaded(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_edition_with(lambda e: e["track"].update(length="long"))), encoding="utf-8")
    with pytest.raises(ValueError, match="refused.*'track.length'"):
        load_edition(str(path))
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_edition(str(path))
    with pytest.raises(ValueError, match="cannot read"):
        load_edition(str(tmp_path / "missing.json"))


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="wolf_deck"):
        new(wolf_deck="paper")
    with pytest.raises(ValueError, match="edition"):
        new(edition=42)
    with pytest.raises(ValueError, match="edition"):
        new(edition="  ")


# ---------------------------------------------------------------------------- setup and scouting


def test_setup_puts_wolf_at_forest_and_one_chip_per_player():
    state = new(3)
    view = GAME.view(state, None)["public"]
    assert view["phase"] == "scouting" and view["step"] == "pig_action" and view["seat"] == 0
    assert view["wolves"] == [{"id": 1, "square": 0, "leader": True}]
    assert [chip["chip"] for chip in view["schedule"]] == [1, 2, 3]
    assert view["pigs"] == [3, 3, 3] and view["pots"] == 0
    assert view["wolf_deck"]["left"] == 18
    assert view["happening_deck"]["left"] == 8  # 10 cards, one on each corner
    assert view["corners_flipped"] == {"top_right": False, "bottom_left": False}


def test_scouting_turn_is_one_pig_action_then_the_wolf_moves():
    state = new()
    assert GAME.legal_actions(state, 0) == [
        {"type": "pig_action", "kind": "tile"},
        {"type": "pig_action", "kind": "move"},
    ]
    refused(state, 0, {"type": "pig_action", "kind": "pass"}, "no passing while scouting")
    refused(state, 0, {"type": "roll"}, "no die while scouting")
    state = act(state, 0, "pig_action", kind="tile")
    assert state["turn"]["step"] == "wolf_move"
    stack_deck(state, "tackle-3", "scratch-2")
    state = act(state, 0, "move_wolves")
    assert state["wolves"][0]["square"] == 5  # 3 on the placed card + 2 on the new top card
    assert state["last_move"] == {"numbers": [3, 2], "distance": 5}
    assert schedule_ids(state) == [None, "tackle-3"]  # revealed onto the highest chip
    assert state["deck"][0] == "scratch-2"  # the top card stays on the deck
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "pig_action"
    assert GAME.view(state, None)["public"]["last_event"]["en"] == "Refill the tiles on offer to 5."


def test_the_schedule_slides_down_and_a_full_action_chip_is_discarded():
    state = new(2)
    stack_deck(state, "tackle-1", "scratch-1", "huff-1", "water-1")
    for seat in (0, 1, 0):
        state = act(state, seat, "pig_action", kind="move")
        state = act(state, seat, "move_wolves")
    assert schedule_ids(state) == ["scratch-1", "huff-1"]
    assert state["discard"] == ["tackle-1"]
    assert state["wolves"][0]["square"] == 6  # 1+1, 1+1, 1+1


def test_scouting_ends_when_the_wolf_passes_the_forest_and_building_starts_next_turn():
    state = new(2)
    put_wolves(state, 20)
    state["scout_distance"] = 20
    stack_deck(state, "tackle-3", "scratch-2")
    state = act(state, 0, "pig_action", kind="move")
    state = act(state, 0, "move_wolves")  # 20 + 5 = 25 > 24: past the forest
    assert state["wolves"][0]["square"] == 1
    assert state["phase"] == "building"
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "roll"


def test_landing_exactly_on_the_forest_does_not_end_scouting():
    state = new(2)
    put_wolves(state, 19)
    state["scout_distance"] = 19
    stack_deck(state, "tackle-3", "scratch-2")
    state = act(state, 0, "pig_action", kind="move")
    state = act(state, 0, "move_wolves")  # 19 + 5 = 24: on the forest, not past it
    assert state["wolves"][0]["square"] == 0
    assert state["phase"] == "scouting" and state["turn"]["step"] == "pig_action"


def test_corners_do_not_flip_while_scouting():
    state = new(2)
    stack_deck(state, "tackle-3", "scratch-3")
    state = act(state, 0, "pig_action", kind="move")
    state = act(state, 0, "move_wolves")  # 0 -> 6: over the top-right corner
    assert state["corner_cards"]["top_right"] is not None


# ---------------------------------------------------------------------------- chaotic building


def test_the_die_gives_the_pig_actions_and_pass_is_allowed():
    state = building(new(2, die="physical"))
    assert GAME.legal_actions(state, 0) == [{"type": "die_face", "face": i} for i in range(6)]
    state = act(state, 0, "die_face", face=TWO_PIGS)
    assert state["turn"]["pigs_left"] == 2
    assert {"type": "pig_action", "kind": "pass"} in GAME.legal_actions(state, 0)
    refused(state, 0, {"type": "pot", "action": "place"}, "only when the die shows a pot")
    state = act(state, 0, "pig_action", kind="pass")
    assert state["turn"]["step"] == "pigs"
    state = act(state, 0, "pig_action", kind="tile")
    assert state["turn"]["step"] == "wolf_move" and state["turn"]["tiles"] == 1


def test_the_virtual_die_rolls_a_face_of_the_edition():
    state = building(new(2))
    state = act(state, 0, "roll")
    face = GAME.view(state, None)["public"]["die"]
    assert face == {"face": face["face"], **state["edition"]["die"][face["face"]]}
    assert state["turn"]["pigs_left"] == face["pigs"]


def test_a_pot_face_places_a_pot_before_or_after_the_pig_actions():
    state = building(new(2, die="physical"))
    state = act(state, 0, "die_face", face=ONE_PIG_POT)
    state = act(state, 0, "pig_action", kind="move")
    assert state["turn"]["step"] == "pigs"  # the pot may still come after the pig action
    assert GAME.legal_actions(state, 0) == [{"type": "pot", "action": "place"}, {"type": "pot", "action": "skip"}]
    state = act(state, 0, "pot", action="place")
    assert state["pots"] == 1 and state["turn"]["step"] == "wolf_move"


def test_at_most_three_pots_with_three_down_one_is_moved():
    state = building(new(2, die="physical"))
    state["pots"] = 3
    state = act(state, 0, "die_face", face=TWO_PIGS_POT)
    refused(state, 0, {"type": "pot", "action": "place"}, "3 of 3 pots down you may move one")
    state = act(state, 0, "pot", action="move")
    assert state["pots"] == 3


def test_the_wolves_all_move_the_same_distance_and_the_leader_is_nearest_the_forest():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    put_wolves(state, 0, 10, 13)
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    assert [w["square"] for w in state["wolves"]] == [2, 12, 15]
    public = GAME.view(state, None)["public"]
    assert public["leader"] == 3 and [w["leader"] for w in public["wolves"]] == [False, False, True]


def test_a_wolf_on_the_forest_is_a_whole_lap_from_it():
    state = new(2)
    put_wolves(state, 0, 1)
    assert GAME.view(state, None)["public"]["leader"] == 2


# ---------------------------------------------------------------------------- happenings


def test_a_corner_flips_its_card_the_first_time_a_wolf_passes_it_and_never_again():
    state = building(new(2, die="physical"))
    put_wolves(state, 4)
    corner_card = state["corner_cards"]["top_right"]
    state["corner_cards"]["bottom_left"] = None
    stack_deck(state, "tackle-1", "scratch-1", "huff-3", "water-3")
    deck_before = list(state["happening_deck"])
    state = to_attack(state)  # 4 -> 6: onto the corner
    assert state["corner_cards"]["top_right"] is None
    assert state["turn"]["happenings"] == [corner_card]
    assert state["turn"]["step"] == "happening"
    assert state["happening_deck"] == deck_before
    state = act(state, 0, "happenings_done")
    assert state["turn"]["seat"] == 1  # empty action chip: no attack, next player
    put_wolves(state, 4)
    state = to_attack(state, seat=1)  # passes square 6 again: nothing to flip
    assert state["turn"]["happenings"] == []


def test_a_wolf_stopping_on_an_event_square_draws_a_happening():
    state = building(new(2, die="physical"))
    put_wolves(state, 7)
    top = state["happening_deck"][0]
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)  # 7 -> 9, a "!" square
    assert state["turn"]["happenings"] == [top]
    assert state["happening_discard"] == [top]


def test_a_corner_flip_replaces_the_draw_for_a_wolf_stopping_on_an_event_square():
    state = building(new(2, die="physical"))
    put_wolves(state, 5)
    corner_card = state["corner_cards"]["top_right"]
    stack_deck(state, "tackle-1", "scratch-3")
    deck_before = list(state["happening_deck"])
    state = to_attack(state)  # 5 -> 9: passes the corner 6 and stops on "!" 9
    assert state["turn"]["happenings"] == [corner_card]
    assert state["happening_deck"] == deck_before


def test_the_deck_is_spared_only_for_the_wolf_that_passed_the_corner():
    """RULINGS section 4 (2026-11-25), issue 23 point 9: wolves on 4 and 12 move 3 to 7 and 15;
    the first passes the top-right corner (6), the second stops on "!" (15): both cards."""
    state = building(new(2, die="physical"))
    state["corner_cards"]["bottom_left"] = None
    put_wolves(state, 4, 12)
    corner_card, top = state["corner_cards"]["top_right"], state["happening_deck"][0]
    stack_deck(state, "tackle-1", "scratch-2")
    state = to_attack(state)
    assert [w["square"] for w in state["wolves"]] == [7, 15]
    assert state["turn"]["happenings"] == [corner_card, top]
    assert state["corner_cards"]["top_right"] is None and top not in state["happening_deck"]


def test_a_wolf_passing_a_corner_already_flipped_is_not_spared_the_deck():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    put_wolves(state, 5)
    top = state["happening_deck"][0]
    stack_deck(state, "tackle-1", "scratch-3")
    state = to_attack(state)  # 5 -> 9: over the corner 6, whose card is gone, onto "!" 9
    assert state["turn"]["happenings"] == [top]


def test_an_add_wolf_happening_adds_a_wolf_that_attacks_at_once():
    state = building(new(2, die="physical"))
    put_wolves(state, 7)
    happening_on_top(state, "another-wolf-3")
    fill_schedule(state, "tackle-2")
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    assert state["wolves"] == [{"id": 1, "square": 9}, {"id": 2, "square": 12}]
    state = act(state, 0, "happenings_done")
    assert state["turn"]["attack"]["attackers"] == [1, 2]


def test_a_happening_adding_a_fourth_wolf_does_nothing():
    state = building(new(2, die="physical"))
    put_wolves(state, 7, 1, 2)
    happening_on_top(state, "another-wolf-1")
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    assert len(state["wolves"]) == 3
    assert "3 wolves are already out" in GAME.view(state, None)["public"]["last_event"]["en"]


def test_the_happening_deck_is_reshuffled_from_its_discards_when_empty():
    state = building(new(2, die="physical"))
    put_wolves(state, 7)
    state["happening_discard"] = state["happening_deck"]
    state["happening_deck"] = []
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    assert len(state["turn"]["happenings"]) == 1
    assert len(state["happening_deck"]) == 7 and len(state["happening_discard"]) == 1


# ---------------------------------------------------------------------------- attacks, pigs, invincibility, pots


def attack_state(card="tackle-2", players=3, seat=0):
    state = building(new(players, die="physical"), seat)
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    put_wolves(state, 10)
    fill_schedule(state, card)
    stack_deck(state, "tackle-1", "scratch-1")
    return to_attack(state, seat)  # 10 -> 12: no happening


def test_the_card_on_the_action_chip_attacks_and_every_seat_may_report_losses():
    state = attack_state()
    assert state["turn"]["step"] == "attack"
    assert GAME.to_act(state) == [0, 1, 2]
    assert GAME.legal_actions(state, 1) == [{"type": "pig_lost"}, {"type": "invincible"}]
    refused(state, 1, {"type": "attack_done"}, r"only the player whose turn it is \(\{s0\}\)")
    state = act(state, 2, "pig_lost")
    assert state["pigs"] == [3, 3, 2] and state["turn"]["attack"]["lost"] == {"2": 1}
    state = act(state, 0, "attack_done")
    assert schedule_ids(state) == [None, None, "tackle-1"]  # attacked card discarded, placed card revealed
    assert "tackle-2" in state["discard"]
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "roll"


def test_an_empty_action_chip_means_no_attack():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    put_wolves(state, 10)
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    assert state["turn"]["seat"] == 1 and state["turn"]["step"] == "roll"


def test_losing_the_last_pig_ends_the_game_when_the_attack_is_declared_done():
    state = attack_state()
    state["pigs"] = [3, 1, 2]
    state = act(state, 1, "pig_lost")
    assert not GAME.is_over(state) and state["turn"]["step"] == "attack"
    assert GAME.to_act(state) == [0, 2]  # seat 1 has nothing left to report
    refused(state, 1, {"type": "pig_lost"}, "no pig left to lose")
    state = act(state, 0, "attack_done")
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result["ending"] == "last_pig"
    assert result["winners"] == [0] and result["scores"] == {"0": 3, "1": 0, "2": 2}
    assert [(e["seat"], e["place"]) for e in result["ranking"]] == [(0, 1), (2, 2), (1, 3)]


def play_to_attack_of_turn(state, number):
    """Play the first legal action of whoever's turn it is until the attack of turn
    ``number``; the attacks on the way hit nobody."""
    while not (state["turn"]["step"] == "attack" and state["turn"]["number"] == number):
        seat = state["turn"]["seat"]
        step = state["turn"]["step"]
        state = GAME.apply(state, seat, {"type": "attack_done"} if step == "attack" else GAME.legal_actions(state, seat)[0])
    return state


@pytest.mark.parametrize("reports", [(1, 0), (0, 1)])
def test_one_attack_is_settled_together_whoever_reports_first(reports):
    """The issue's table: 3 players, seed 42, seat 0 down to 1 pig at the attack of turn 8,
    which takes a pig from seat 0 and one from seat 1. It used to end on seat 0's tap,
    refusing seat 1's loss when it came second (seats 1 and 2 then tied)."""
    state = play_to_attack_of_turn(GAME.setup(3, 42), 7)
    assert state["turn"]["seat"] == 0
    state = act(state, 0, "pig_lost")
    state = act(state, 0, "pig_lost")
    state = act(state, 0, "attack_done")
    state = play_to_attack_of_turn(state, 8)
    assert state["turn"]["seat"] == 1 and state["pigs"] == [1, 3, 3]
    for seat in reports:
        state = act(state, seat, "pig_lost")
    assert not GAME.is_over(state) and state["pigs"] == [0, 2, 3]
    state = act(state, 1, "attack_done")
    result = GAME.result(state)
    assert result["ending"] == "last_pig" and result["winners"] == [2]
    assert [(e["seat"], e["place"], e["pigs"]) for e in result["ranking"]] == [(2, 1, 3), (1, 2, 2), (0, 3, 0)]


def _reports(chooser, state, seat):
    """What ``seat`` reports to the attack in ``state``, in its own order: its invincibility
    or some pigs lost, and (the turn seat) perhaps a wolf in the pot."""
    if not state["invincibility_used"][seat] and chooser.random() < 0.3:
        reports = [{"type": "invincible"}]
    else:
        reports = [{"type": "pig_lost"}] * chooser.randint(0, state["pigs"][seat])
    if seat == state["turn"]["seat"] and state["pots"] and chooser.random() < 0.5:
        reports.insert(chooser.randint(0, len(reports)), {"type": "wolf_potted", "wolf": 1})
    return reports


def _interleaved(chooser, queues):
    """One random order of all the reports that keeps each seat's own order."""
    queues = {seat: list(reports) for seat, reports in queues.items() if reports}
    order = []
    while queues:
        seat = chooser.choice(sorted(queues))
        order.append((seat, queues[seat].pop(0)))
        if not queues[seat]:
            del queues[seat]
    return order


def test_every_report_order_of_an_attack_gives_the_same_outcome():
    chooser = random.Random(9)
    last_pig_endings = 0
    for _ in range(300):
        players = chooser.randint(2, 4)
        start = attack_state(players=players, seat=chooser.randrange(players))
        start["pigs"] = [chooser.randint(1, 3) for _ in range(players)]
        start["invincibility_used"] = [chooser.random() < 0.3 for _ in range(players)]
        start["pots"] = chooser.randint(0, 1)
        queues = {seat: _reports(chooser, start, seat) for seat in range(players)}
        outcomes = []
        for _ in range(4):
            state = start
            for seat, action in _interleaved(chooser, queues):
                state = GAME.apply(state, seat, action)  # every report is accepted, in any order
            state = GAME.apply(state, start["turn"]["seat"], {"type": "attack_done"})
            outcomes.append((state["pigs"], state["ending"], state["result"], state["tiebreak"], GAME.to_act(state)))
        assert all(outcome == outcomes[0] for outcome in outcomes), queues
        last_pig_endings += outcomes[0][1] == "last_pig"
    assert last_pig_endings > 50  # the case the property is about comes up often


def test_invincibility_protects_against_one_attack_and_is_used_only_once():
    state = attack_state(players=2)
    state = act(state, 1, "invincible")
    assert GAME.to_act(state) == [0]  # seat 1 has nothing left to do in this attack
    refused(state, 1, {"type": "pig_lost"}, "not your turn")
    state = act(state, 0, "attack_done")
    assert state["invincibility_used"] == [False, True]
    # next attack: seat 1 may lose pigs again but not declare invincibility again
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    fill_schedule(state, "huff-2")
    state = to_attack(state, seat=1)
    assert GAME.legal_actions(state, 1) == [{"type": "attack_done"}, {"type": "pig_lost"}]
    refused(state, 1, {"type": "invincible"}, "only once per game")
    assert {"type": "invincible"} in GAME.legal_actions(state, 0)


def test_invincibility_is_used_before_any_pig_is_lost_to_the_attack():
    """Rule 4.6 (無敵): it keeps all the seat's pigs from the whole attack, so "Bo lost 2" and
    "invincible this attack: Bo" never stand together (issue #33, point 3)."""
    state = attack_state(players=2)
    assert {"type": "invincible"} in GAME.legal_actions(state, 1)
    state = act(state, 1, "pig_lost")
    assert GAME.legal_actions(state, 1) == [{"type": "pig_lost"}]
    refused(state, 1, {"type": "invincible"}, "used before any is lost")
    assert {"type": "invincible"} in GAME.legal_actions(state, 0)  # the other seat's losses are its own


def test_invincibility_is_declared_only_against_an_attack():
    state = building(new(2, die="physical"))
    refused(state, 0, {"type": "invincible"}, "only during a wolf attack")


def test_a_wolf_falls_into_a_pot_only_on_a_direct_attack_with_a_pot_down():
    state = attack_state()
    refused(state, 0, {"type": "wolf_potted", "wolf": 1}, "no pot on the board")
    state["pots"] = 2
    assert {"type": "wolf_potted", "wolf": 1} in GAME.legal_actions(state, 0)
    water = attack_state(card="water-3")
    water["pots"] = 2
    refused(water, 0, {"type": "wolf_potted", "wolf": 1}, "only a direct attack")


def test_a_lone_potted_wolf_reappears_at_the_forest():
    state = attack_state()
    state["pots"] = 2
    state = act(state, 0, "wolf_potted", wolf=1)
    assert state["pots"] == 1
    assert state["wolves"] == [{"id": 2, "square": 0}]
    assert state["turn"]["attack"]["attackers"] == []  # the new wolf does not attack this turn
    assert GAME.legal_actions(state, 0) == [{"type": "attack_done"}, {"type": "pig_lost"}, {"type": "invincible"}]


def test_one_of_several_potted_wolves_is_simply_removed():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    state["pots"] = 1
    put_wolves(state, 10, 11)
    fill_schedule(state, "tackle-2")
    stack_deck(state, "tackle-1", "scratch-1")
    state = to_attack(state)
    state = act(state, 0, "wolf_potted", wolf=2)
    assert state["wolves"] == [{"id": 1, "square": 12}] and state["pots"] == 0
    assert {"type": "wolf_potted", "wolf": 1} not in GAME.legal_actions(state, 0)  # no pot left


def test_a_digging_card_marks_the_floor_of_the_leading_wolf_when_revealed():
    state = new(2)
    put_wolves(state, 2, 8)
    stack_deck(state, "dig-2", "scratch-1")
    state = act(state, 0, "pig_action", kind="move")
    state = act(state, 0, "move_wolves")
    assert state["schedule"][-1] == {"card": "dig-2", "number": 2, "mark": 11}
    said = next(entry["text"] for entry in reversed(state["log"]) if entry["text"] and "Digging" in entry["text"]["en"])
    assert "ground chip on the card" in said["en"] and "地面チップをカードに置き" in said["ja"]  # the book's words


# ---------------------------------------------------------------------------- the deck runs out, the second ending


def test_when_the_deck_runs_out_the_discards_are_reshuffled_for_movement_only():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    state["edition"] = {**state["edition"], "track": {**state["edition"]["track"], "events": []}}
    everything = list(state["deck"])
    fill_schedule(state, "tackle-2", "huff-2")
    state["discard"] = [c for c in everything if c not in ("tackle-2", "huff-2", "tackle-3")]
    state["deck"] = ["tackle-3"]
    state = to_attack(state)  # the last card is placed; its partner comes from the reshuffled discards
    assert state["reshuffled"] and state["deck"] == []
    assert len(state["movement_pile"]) == 14 and len(state["discard"]) == 1
    assert state["last_move"]["numbers"][0] == 3
    state = act(state, 0, "attack_done")
    assert schedule_ids(state) == ["huff-2", "tackle-3"]
    state = to_attack(state, seat=1)  # two cards from the movement pile, nothing new on the schedule
    assert len(state["last_move"]["numbers"]) == 2 and len(state["movement_pile"]) == 12
    state = act(state, 1, "attack_done")
    assert schedule_ids(state) == ["tackle-3", None]
    assert not GAME.is_over(state)
    state = to_attack(state, seat=0)
    state = act(state, 0, "attack_done")  # the last wolf card's attack is done
    assert state["ending"] == "last_attack" and state["phase"] == "ranking"
    wolf_cards = sorted(card["id"] for card in state["edition"]["wolf_cards"])
    assert [card for card in GAME.components(state) if card in wolf_cards] == wolf_cards


def test_the_movement_pile_is_rebuilt_from_the_discards_when_it_runs_out():
    state = building(new(2, die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    state["edition"] = {**state["edition"], "track": {**state["edition"]["track"], "events": []}}
    fill_schedule(state, "tackle-2", "huff-2")
    state["movement_pile"] = ["tackle-1"]
    state["discard"] = [c for c in state["deck"] if c != "tackle-1"]
    state["deck"] = []
    state = to_attack(state)
    assert state["last_move"]["numbers"][0] == 1  # the pile's last card first
    assert len(state["movement_pile"]) == 14 and len(state["discard"]) == 2  # 15 reshuffled, one turned


# ---------------------------------------------------------------------------- the physical wolf deck


def test_physical_wolf_cards_are_keyed_in_placed_then_top():
    state = new(2, wolf_deck="physical")
    state = act(state, 0, "pig_action", kind="move")
    assert state["turn"]["step"] == "key_wolf_card"
    assert GAME.legal_actions(state, 0) == [{"type": "wolf_card", "card": "placed", "number": n} for n in (1, 2, 3)]
    refused(state, 0, {"type": "move_wolves"}, "option wolf_deck = physical")
    refused(state, 0, {"type": "wolf_card", "card": "placed", "number": 4}, "numbered 1 to 3")
    state = act(state, 0, "wolf_card", card="placed", number=3)
    assert GAME.view(state, None)["public"]["keying"] == "top"
    assert GAME.view(state, None)["public"]["placed_number"] == 3
    state = act(state, 0, "wolf_card", card="top", number=1)
    assert state["wolves"][0]["square"] == 4 and state["deck_left"] == 17
    assert state["schedule"] == [None, {"card": None, "number": 3, "mark": None}]
    assert GAME.components(state) == sorted(c["id"] for c in state["edition"]["happenings"])


def test_a_spent_physical_deck_asks_for_two_movement_cards():
    state = building(new(2, wolf_deck="physical", die="physical"))
    state["corner_cards"] = {"top_right": None, "bottom_left": None}
    state["deck_left"] = 0
    state["reshuffled"] = True
    state["schedule"] = [{"card": None, "number": 2, "mark": None}, None]
    state = act(state, 0, "die_face", face=ONE_PIG)
    state = act(state, 0, "pig_action", kind="tile")
    assert GAME.legal_actions(state, 0)[0] == {"type": "wolf_card", "card": "first", "number": 1}
    state = act(state, 0, "wolf_card", card="first", number=2)
    state = act(state, 0, "wolf_card", card="second", number=2)
    assert state["wolves"][0]["square"] == 4
    assert state["turn"]["step"] == "attack"
    state["pigs"] = [3, 2]
    state = act(state, 0, "attack_done")
    assert GAME.result(state)["ending"] == "last_attack"
    assert GAME.result(state)["winners"] == [0]


# ---------------------------------------------------------------------------- ranking and tie-breakers


def ended(pigs, seat_losing=None):
    """A 4-player game whose attack (seat 0's) ends it by ``seat_losing`` losing its last pig."""
    state = attack_state(players=len(pigs))
    state["pigs"] = list(pigs)
    state["pigs"][seat_losing] = 1
    state = act(state, seat_losing, "pig_lost")
    return act(state, 0, "attack_done")


def test_ties_on_pigs_alive_are_broken_by_pigs_on_the_ground_keyed_by_the_tied_only():
    state = ended([2, 2, 3, None], seat_losing=3)
    assert not GAME.is_over(state)
    assert state["turn"]["step"] == "tiebreak_ground"
    assert GAME.to_act(state) == [0, 1]
    assert GAME.legal_actions(state, 0) == [{"type": "ground_pigs", "count": n} for n in (0, 1, 2)]
    refused(state, 0, {"type": "ground_pigs", "count": 3}, "you have 2 pig")
    state = act(state, 1, "ground_pigs", count=2)
    state = act(state, 0, "ground_pigs", count=1)
    result = GAME.result(state)
    assert result["winners"] == [2]
    assert [(e["seat"], e["place"], e["ground"]) for e in result["ranking"]] == [
        (2, 1, None), (1, 2, 2), (0, 3, 1), (3, 4, None)
    ]


def test_still_tied_players_key_in_pigs_on_outer_squares_then_share_the_place():
    state = ended([3, 3, 3, None], seat_losing=3)
    for seat in (0, 1, 2):
        state = act(state, seat, "ground_pigs", count=2)
    assert state["turn"]["step"] == "tiebreak_outer"
    state = act(state, 0, "outer_pigs", count=1)
    state = act(state, 1, "outer_pigs", count=2)
    state = act(state, 2, "outer_pigs", count=2)
    result = GAME.result(state)
    assert result["winners"] == [1, 2]
    assert [(e["seat"], e["place"]) for e in result["ranking"]] == [(1, 1), (2, 1), (0, 3), (3, 4)]


def test_only_players_still_tied_are_asked_for_outer_squares():
    state = ended([3, 3, 3, None], seat_losing=3)
    state = act(state, 0, "ground_pigs", count=3)
    state = act(state, 1, "ground_pigs", count=1)
    state = act(state, 2, "ground_pigs", count=1)
    assert GAME.to_act(state) == [1, 2]
    refused(state, 1, {"type": "ground_pigs", "count": 1}, "the other one")


# ---------------------------------------------------------------------------- views and messages


def test_the_view_hides_the_placed_card_and_the_deck_but_shows_the_numbers_on_their_backs():
    state = new(2, wolf_deck="virtual")
    stack_deck(state, "dig-3", "water-1")
    state = act(state, 0, "pig_action", kind="tile")
    state["turn"]["placed"] = state["deck"].pop(0)  # placed beside the deck, still face down
    public = GAME.view(state, 1)["public"]
    text = json.dumps(public)
    assert public["placed_number"] == 3 and public["wolf_deck"]["top_number"] == 1
    assert "dig-3" not in text and "water-1" not in text
    assert GAME.view(state, 1)["private"] == {"pigs": 3, "invincibility_used": False}


def test_bad_actions_get_plain_reasons():
    state = new(2)
    refused(state, 0, {"type": "fly"}, "unknown action type 'fly' \\(allowed now: pig_action\\)")
    refused(state, 0, {"type": "pig_action"}, "needs the field 'kind'")
    refused(state, 0, {"type": "pig_action", "kind": "tile", "cell": [1, 2]}, "a 'pig_action' action has no field 'cell' \\(its fields: kind\\)")
    refused(state, 0, {"type": "pig_action", "kind": None}, "'kind' must be one of")
    refused(state, 0, {"type": "move_wolves"}, "after the pig actions")
    refused(state, 0, {"type": "pig_lost"}, "only during a wolf attack")
    refused(state, 0, {"type": "ground_pigs", "count": 1}, "only at the end")
    refused(state, 1, {"type": "pig_action", "kind": "tile"}, "not your turn")
    refused(state, 0, {"type": "die_face", "face": 0}, "option die = virtual")
    physical = building(new(2, die="physical"))
    refused(physical, 0, {"type": "die_face", "face": 6}, "has 6 faces")
    refused(physical, 0, {"type": "die_face", "face": True}, "'face' must be one of")
    refused(physical, 0, {"type": "roll"}, "option die = physical")


@pytest.mark.parametrize("options", [{"wolf_deck": "physical"}, {"die": "physical"}, {"wolf_deck": "physical", "die": "physical"}])
def test_random_games_with_keyed_in_values_end_with_a_ranking(options):
    from companion.simulate import random_playout

    for seed in range(30):
        state, _ = random_playout(GAME, 2 + seed % 3, seed, options)
        result = GAME.result(state)
        assert sorted(e["seat"] for e in result["ranking"]) == list(range(state["players"]))
        assert result["winners"] == [e["seat"] for e in result["ranking"] if e["place"] == 1]


# ---------------------------------------------------------------------------- who is awaited, the summary, Japanese


def test_an_attack_waits_only_for_the_player_whose_turn_it_is():
    view = GAME.view(attack_state(seat=1), 2)
    assert view["to_act"] == [0, 1, 2]  # everyone may report a pig lost or invincibility ...
    assert view["waiting_for"] == [1]  # ... but only the turn's player must declare the attack done


def test_tie_break_counts_wait_for_every_tied_player_still_to_key_in():
    state = ended([2, 2, 3, None], seat_losing=3)
    assert GAME.view(state, None)["waiting_for"] == [0, 1]
    state = act(state, 1, "ground_pigs", count=2)
    assert GAME.view(state, None)["waiting_for"] == [0]


def _tie_broken(pigs, ground, outer=()):
    state = ended(pigs, seat_losing=3)
    for seat, count in ground:
        state = act(state, seat, "ground_pigs", count=count)
    for seat, count in outer:
        state = act(state, seat, "outer_pigs", count=count)
    return GAME.result(state)["summary"]


def test_the_summary_says_which_count_broke_the_tie():
    assert _tie_broken([2, 2, 3, None], [(0, 1), (1, 2)]) == {
        "en": "{s2} wins with the most pigs alive (3).",
        "ja": "無事なこぶたが最も多い(3匹){s2}が1位です。",
    }
    assert _tie_broken([3, 3, 2, None], [(0, 2), (1, 1)]) == {
        "en": "{s0} and {s1} tied on 3 pigs alive; {s0} wins with more pigs standing on the ground (2).",
        "ja": "{s0}と{s1}が無事なこぶた3匹で並び、地面に足がついているこぶたの多い{s0}が1位です(2匹)。",
    }
    assert _tie_broken([3, 3, 3, None], [(0, 2), (1, 2), (2, 1)], [(0, 1), (1, 2)]) == {
        "en": "{s0}, {s1} and {s2} tied on 3 pigs alive and {s0} and {s1} also on 2 on the ground; "
        "{s1} wins with more pigs on outer squares (2).",
        "ja": "{s0}と{s1}と{s2}が無事なこぶた3匹で並び、{s0}と{s1}は地面に足がついているこぶた(2匹)も同じでした。"
        "外側のマスのこぶたが多い{s1}が1位です(2匹)。",
    }
    assert _tie_broken([3, 3, 3, None], [(0, 2), (1, 2), (2, 2)], [(0, 1), (1, 2), (2, 2)]) == {
        "en": "{s0}, {s1} and {s2} tied on 3 pigs alive; {s1} and {s2} are also tied on the ground (2) "
        "and on outer squares (2) and share first place.",
        "ja": "{s0}と{s1}と{s2}が無事なこぶた3匹で並び、{s1}と{s2}は地面に足がついているこぶた(2匹)も"
        "外側のマスのこぶた(2匹)も同じなので、1位を分け合いました。",
    }


def test_the_summary_of_a_game_where_every_last_pig_fell_at_once():
    state = attack_state(players=2)
    state["pigs"] = [1, 1]
    state = act(act(act(state, 1, "pig_lost"), 0, "pig_lost"), 0, "attack_done")
    assert GAME.result(state)["winners"] == [0, 1]
    assert GAME.result(state)["summary"] == {
        "en": "{s0} and {s1} have no pig left and share first place.",
        "ja": "{s0}と{s1}は無事なこぶたが0匹で並び、1位を分け合いました。",
    }


def test_refusals_come_in_japanese_too():
    state = attack_state()
    with pytest.raises(IllegalAction) as refused_action:
        act(state, 1, "attack_done")
    assert refused_action.value.ja == "オオカミの攻撃を進めるのは手番のプレイヤー({s0})だけです (いまできる行動: invincible, pig_lost)"
    state = ended([2, 2, 3, None], seat_losing=3)
    with pytest.raises(IllegalAction) as refused_action:
        act(state, 0, "ground_pigs", count=3)
    assert refused_action.value.ja == "あなたの無事なこぶたは2匹です。'count' は 0, 1, 2 のどれかです(3 は使えません)"
    with pytest.raises(IllegalAction) as refused_action:
        act(state, 2, "ground_pigs", count=1)
    assert refused_action.value.ja == "あなたの番ではありません({s0}と{s1}を待っています)"
