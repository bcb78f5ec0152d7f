"""Determinization: a full game state drawn at random among those a seat's view allows.

ISMCTS searches over states it cannot see. Each iteration asks :func:`sample_state` for
one: every card the seat cannot see is dealt at random among the places it could be
(other hands, the face-down piles, the deck), keeping every count the view shows, and
the rest is copied from the view. The seat's own view of the sample equals the view it
was given, public part and private part alike (``tests/bots/test_sampling.py`` checks it
over many positions), so a bot never knows more than its phone shows.

A sampler knows the layout of its engine's state (that is what building a state takes);
it starts from ``game.setup`` with the view's options so that every key the engine owns
exists, then overwrites what the view decides. Only the full games have one: the
trackers follow physical games and get no bot.
"""

from __future__ import annotations

from itertools import islice

from ..games import Game
from ..games import lion_square, meow_oracle, swap5
from ..games.rng import Rng


class NoBot(ValueError):
    """The game has no bot, or the view is not one a bot can play from."""


def bare_view(view: dict) -> dict:
    """``view`` without the table's envelope (see Table._envelope): the game's own view,
    with the game's version in ``version``. A bare ``game.view`` comes back unchanged."""
    bare = {key: value for key, value in view.items() if key not in ("game_version", "title", "names", "actions")}
    if "game_version" in view:
        bare["version"] = view["game_version"]
    return bare


def supported(game_id: str) -> bool:
    return game_id in _SAMPLERS


def sample_state(game: Game, view: dict, rng: Rng) -> dict:
    """A full state of ``game`` whose view for ``view["seat"]`` is ``view`` (envelope
    aside), the unseen cards dealt at random by ``rng``. NoBot for a game without a bot."""
    sampler = _SAMPLERS.get(game.id)
    if sampler is None:
        raise NoBot(f"{game.title['en']} has no bot (bots play {', '.join(_SAMPLERS)})")
    view = bare_view(view)
    state = game.setup(view["players"], rng.next64() >> 1, view["options"])
    state["version"] = view["version"]
    # The engine's own entries only: the table adds its own (an undo's, kind "undo"), which
    # carry no game version and are no part of the game's state.
    state["log"] = [{"v": entry["v"], "text": entry["text"]} for entry in view["log"] if "v" in entry]
    state["result"] = view["result"]
    sampler(state, view, rng)
    state["rng"] = rng.next64()  # the engine's hidden randomness (e.g. a blind pick) is unseen too
    return state


def _dealer(cards: list[str], rng: Rng):
    """A function dealing ``count`` cards at a time from ``cards`` shuffled."""
    cards = list(cards)
    rng.shuffle(cards)
    stream = iter(cards)
    return lambda count: list(islice(stream, count))


def _check_pool(game_id: str, unseen: list[str], places: int) -> None:
    if len(unseen) != places:
        raise NoBot(
            f"this {game_id} view does not add up: {len(unseen)} cards are unseen but it shows "
            f"{places} hidden places; was it made by this version of the game?"
        )


# --------------------------------------------------------------------------- Lion Square

_LION_CARDS = lion_square.CARNIVORES + lion_square.GAZELLES
_LION_ORDER = {card: index for index, card in enumerate(_LION_CARDS)}  # the engine keeps hands in deck order


def _lion_cell(card: str | None) -> dict | None:
    """A card id as lion_square.damage reads a cell (ids are "<species>-<number>", "gazelle-<k>")."""
    if card is None:
        return None
    species, number = card.split("-")
    return {"gazelle": True} if species == "gazelle" else {"color": species, "n": int(number)}


def _public_loss(last_round: dict, seat: int) -> int:
    """What ``seat`` lost in the last round, as far as the table saw: the field and the
    taken cards (the gazelles left in its hand were secret)."""
    cells = [[_lion_cell(card) for card in row] for row in last_round["grid"]]
    return lion_square.damage(cells, lion_square.SIDES[seat], last_round["taken"][seat], 0)


def _sample_lion_square(state: dict, view: dict, rng: Rng) -> None:
    public, private, me = view["public"], view["private"], view["seat"]
    players = view["players"]
    field = [[entry["cell"][0], entry["cell"][1], entry["card"]] for entry in public["field"]]
    passing = private["passing"]
    chosen = public["chosen"] or [False] * players
    seen = set(private["hand"]) | {card for _, _, card in field} | ({passing} if passing else set())
    unseen = [card for card in _LION_CARDS if card not in seen]
    others = [seat for seat in range(players) if seat != me]
    # A seat that has chosen its pass holds one card fewer in hand; the chosen card is hidden too.
    places = sum(public["hand_sizes"][s] + chosen[s] for s in others) + sum(public["taken"]) + public["pile"]
    _check_pool("lion-square", unseen, places)
    sizes = {seat: public["hand_sizes"][seat] + chosen[seat] for seat in others}
    known = _place_my_passes(private["passed"], set(unseen), public, me, players, sizes, rng)
    placed = {card for cards in known.values() for card in cards}
    deal = _dealer([card for card in unseen if card not in placed], rng)

    hands = [[] for _ in range(players)]
    hands[me] = list(private["hand"])
    for seat in others:
        held = known.get(seat, []) + deal(sizes[seat] - len(known.get(seat, [])))
        hands[seat] = sorted(held, key=_LION_ORDER.__getitem__)
    taken = []
    for seat, count in enumerate(public["taken"]):
        mine = known.get(("taken", seat), [])
        taken.append(mine + deal(count - len(mine)))
    passed = [[] for _ in range(players)]  # what the others passed this round is unknown, and no rule reads it
    received = [[] for _ in range(players)]
    passed[me], received[me] = list(private["passed"]), list(private["received"])
    state.update(
        round=public["round"],
        start_player=public["start_player"],
        step=public["step"],
        turn=public["turn"],
        adjustment=public["adjustment"] or lion_square.ADJUSTMENTS,
        field=field,
        hands=hands,
        taken=taken,
        pile=deal(public["pile"]),
        passes=[None] * players,
        passed=passed,
        received=received,
        last_round=public["last_round"],
        # Read only when a round ends, and written just before by the card that ends it.
        last_placer=None,
        herds=_estimated_herds(public, private, me, players),
    )
    # Other seats' hidden passes: a legal pass out of the hand they held before choosing.
    for seat in others:
        if chosen[seat]:
            state["passes"][seat] = rng.choice(lion_square.GAME.legal_actions(state, seat))["card"]
            state["hands"][seat].remove(state["passes"][seat])
    state["passes"][me] = passing


def _place_my_passes(
    passed: list[str], unseen: set[str], public: dict, me: int, players: int, sizes: dict, rng: Rng
) -> dict:
    """Where the cards this seat passed this round may be, and one such place for each that
    it cannot see, as ``{seat: [cards]}`` (hands, a chosen pass included) and ``{("taken",
    seat): [cards]}``. A card passed in adjustment ``a`` went to the left neighbour; each
    adjustment finished since may have moved it one seat further left (the holder chose it).
    Until the round's first card is put down it is still in one of those hands; after that
    it may also have been played and taken face down. It is never in the Square pile.
    The latest passes, the most constrained, are placed first: their places are nested
    within those of earlier passes, so a free slot is always left (see test_sampling)."""
    finished = len(passed)
    playing = public["step"] not in ("pass", "start")
    room = dict(sizes) | ({("taken", seat): count for seat, count in enumerate(public["taken"])} if playing else {})
    placed: dict = {}
    for adjustment in range(finished, 0, -1):
        card = passed[adjustment - 1]
        if card not in unseen:
            continue
        hops = 1 + finished - adjustment
        holders = [(me + step) % players for step in range(1, hops + 1)]
        places = [seat for seat in dict.fromkeys(holders) if seat != me]
        if playing:
            places += [("taken", seat) for seat in range(players)]
        slots = [place for place in places for _ in range(room[place])]
        if not slots:
            raise NoBot("this lion-square view does not add up: a card this seat passed has nowhere to be")
        place = rng.choice(slots)
        room[place] -= 1
        placed.setdefault(place, []).append(card)
    return placed


def _estimated_herds(public: dict, private: dict, me: int, players: int) -> list[int]:
    """Herds are secret until the end. The seat knows its own; for the others it assumes the
    same losses as its own except for the last round's public damage, the one difference the
    view shows (see docs/bots.md: the view keeps no earlier rounds)."""
    herds = [private["herd"]] * players
    last = public["last_round"]
    if last is not None:
        mine = _public_loss(last, me)
        herds = [private["herd"] + mine - _public_loss(last, seat) for seat in range(players)]
    herds[me] = private["herd"]
    return herds


# --------------------------------------------------------------------------- Meow Oracle


def _meow_turn_size(players: int, turns_done: int) -> int:
    """Cards a turn hands out (RULINGS §2): 3, but 2 with 2 players after a seat's first turn."""
    return 2 if players == 2 and turns_done > 0 else 3


def _meow_turns(public: dict, players: int) -> list[int]:
    """The turns each seat has finished this round, counted back from the cards handed out
    (the engine keeps the count; the view shows only the cards)."""
    handed = sum(cell.get("face") == "up" for area in public["areas"] for row in area for cell in row if cell)
    handed += sum(len(cards) for cards in public["to_place"]) + len(public["revealed"])
    turns = [0] * players
    seat, done = public["start_player"], 0
    while True:
        size = _meow_turn_size(players, turns[seat])
        if public["step"] == "reveal" and done == handed - len(public["revealed"]):
            break
        if public["step"] != "reveal" and done + size == handed:
            break
        if done > handed:
            raise NoBot("this meow-oracle view does not add up: its cards match no number of finished turns")
        done += size
        turns[seat] += 1
        seat = (seat + 1) % players
    if seat != public["turn"]:
        raise NoBot("this meow-oracle view does not add up: the cards handed out do not lead to the seat on turn")
    return turns


def _sample_meow_oracle(state: dict, view: dict, rng: Rng) -> None:
    public, players = view["public"], view["players"]
    cells = [[cell for row in area for cell in row] for area in public["areas"]]
    up = [[cell["id"] if cell and cell["face"] == "up" else None for cell in area] for area in cells]
    revealed = [card["id"] for card in public["revealed"]]
    to_place = [[card["id"] for card in cards] for cards in public["to_place"]]
    seen = {card for area in up for card in area if card} | set(revealed) | {c for cards in to_place for c in cards}
    unseen = [card for card in meow_oracle.DECK if card not in seen]
    face_down = sum(1 for area in cells for cell in area if cell and cell["face"] == "down")
    _check_pool("meow-oracle", unseen, face_down + sum(public["aside"]) + public["unused"])
    deal = _dealer(unseen, rng)

    turns = _meow_turns(public, players)
    turn = public["turn"]
    recipients = [turn, (turn + 1) % players, (turn + 2) % players]
    if players == 2:
        recipients = [turn, turn, 1 - turn] if turns[turn] == 0 else [turn, 1 - turn]
    still = list(public["owed"])
    owed = []
    for seat in recipients:
        if still[seat]:
            owed.append(seat)
            still[seat] -= 1
    state.update(
        round=public["round"],
        start=public["start_player"],
        turn=turn,
        step=public["step"],
        up=up,
        down=[[deal(1)[0] if cell and cell["face"] == "down" else None for cell in area] for area in cells],
        aside=[deal(count) for count in public["aside"]],
        unused=deal(public["unused"]),
        revealed=revealed,
        owed=owed,
        to_place=to_place,
        turns=turns,
        wins=list(public["wins"]),
        history=[
            {
                "round": record["round"],
                "start": record["start_player"],
                "areas": [[card["id"] for row in area for card in row] for area in record["areas"]],
                "points": record["points"],
                "wins": record["wins"],
            }
            for record in public["history"]
        ],
    )


# --------------------------------------------------------------------------- SWAP 5


def _sample_swap5(state: dict, view: dict, rng: Rng) -> None:
    public, private, me = view["public"], view["private"], view["seat"]
    played = [entry["card"] for entry in public["trumps_played"]]
    unseen = [card for card in sorted(swap5.TRUMP_CARDS) if card not in private["hand"] and card not in played]
    counts = public["trumps_in_hand"]
    others = [seat for seat in sorted(counts, key=int) if seat != str(me)]
    _check_pool("swap5", unseen, sum(counts[seat] for seat in others) + public["trumps_out_of_game"])
    deal = _dealer(unseen, rng)
    hands = {seat: list(private["hand"]) if seat == str(me) else sorted(deal(counts[seat])) for seat in sorted(counts, key=int)}
    state.update(
        board="".join(public["board"]),
        turn=public["turn"],
        hands=hands,
        out=sorted(deal(public["trumps_out_of_game"])),
        played=[dict(entry) for entry in public["trumps_played"]],
        final_lap=public["final_lap"],
        last_move=public["last_move"],
    )


_SAMPLERS = {
    "lion-square": _sample_lion_square,
    "meow-oracle": _sample_meow_oracle,
    "swap5": _sample_swap5,
}
