"""Lion Square (らいおんスクエア): push the carnivores onto the other herds.

The rules as implemented are in ``docs/rules/lion-square.md``; RULINGS.md section 1 settles
what the book leaves open. The deck is not printed in the book: it is a guess kept in
``deck.json`` so that an owner of the game can correct it.

Card ids are ``"<species>-<number>"`` (``"lion-3"``) and ``"gazelle-1"``, ``"gazelle-2"``.

The round-end damage is also offered on its own, as :func:`damage`, for the tracker that
follows a game played with the physical cards.
"""

from __future__ import annotations

import json
from bisect import insort
from dataclasses import dataclass
from pathlib import Path

from ..base import UNSEEN, Box, Game, Hidden, Place, Words, seat_list, seat_ref
from ..rng import Rng

_DECK_FILE = Path(__file__).parent / "deck.json"

CARNIVORE_COUNT = 30
"""The book: "30 carnivore cards". The deck file must add up to it."""

SIDES = ("S", "W", "N", "E")
"""The side of the field each seat faces, by seat number (RULINGS: seat 0 south, then
clockwise seen from above). With 3 players the east side faces nobody."""


def _load_deck(path: Path) -> tuple[list[dict], int]:
    """The species (each ``{"id", "en", "ja", "numbers"}``) and the gazelle count of the
    edition file, checked so that a mistyped correction fails loudly at import."""
    data = json.loads(path.read_text(encoding="utf-8"))
    species = data["species"]
    ids = [s["id"] for s in species]
    if len(set(ids)) != len(ids) or any(not isinstance(i, str) or not i or "-" in i or i == "gazelle" for i in ids):
        raise ValueError(f"{path.name}: species ids must be distinct words without '-', other than 'gazelle'")
    for s in species:
        numbers = s["numbers"]
        if len(set(numbers)) != len(numbers) or any(type(n) is not int or n < 0 for n in numbers):
            raise ValueError(f"{path.name}: the numbers of {s['id']} must be distinct whole numbers of 0 or more")
    total = sum(len(s["numbers"]) for s in species)
    if total != CARNIVORE_COUNT:
        raise ValueError(f"{path.name}: the book has {CARNIVORE_COUNT} carnivore cards, the file lists {total}")
    gazelles = data["gazelles"]
    if type(gazelles) is not int or gazelles < 0:
        raise ValueError(f"{path.name}: 'gazelles' must be a whole number of 0 or more")
    return species, gazelles


SPECIES, GAZELLE_COUNT = _load_deck(_DECK_FILE)
_NUMBERS = {s["id"]: frozenset(s["numbers"]) for s in SPECIES}

CARNIVORES = tuple(f"{s['id']}-{n}" for s in SPECIES for n in s["numbers"])
GAZELLES = tuple(f"gazelle-{k}" for k in range(1, GAZELLE_COUNT + 1))

_COLOR = {card: card.split("-")[0] for card in CARNIVORES} | {card: None for card in GAZELLES}
"""Card id -> its colour (species); None for a gazelle, which has no colour."""
CARD_VALUE = {card: int(card.split("-")[1]) for card in CARNIVORES} | {card: 0 for card in GAZELLES}
"""Card id -> the number it adds to the damage when nearest to a side (a gazelle: 0)."""
DECK_ORDER = CARNIVORES + GAZELLES
"""Every card, in the order the engine keeps hands in (and resample deals unseen cards from)."""
_ORDER = {card: i for i, card in enumerate(DECK_ORDER)}
"""Hands are kept in this order, so a hand's order says nothing about where a card came from."""
_NAMES = {s["id"]: (s["en"], s["ja"]) for s in SPECIES}


# --------------------------------------------------------------------------- damage


def herd_winners(herds: list[int]) -> tuple[list[int], bool]:
    """Who wins with these final herds, and whether the lions do: the highest herd wins and
    ties share the win; when every herd is at 0 or below the lions win and no player does."""
    best = max(herds)
    if best <= 0:
        return [], True
    return [seat for seat, herd in enumerate(herds) if herd == best], False


def damage(field: list, side: str, taken: int, gazelles: int) -> int:
    """The herd a player loses at the end of a round (RULINGS 1, "Damage").

    ``field`` is the 3 × 3 square as 3 rows of 3 cells, rows top to bottom and cells left to
    right as seen from the south side; a cell is ``None``, ``{"color": "lion", "n": 3}`` or
    ``{"gazelle": True}``. The field need not be full nor packed into a corner. ``side`` is
    the player's side, one of ``"S" "W" "N" "E"``; ``taken`` the number of face-down cards
    the player took this round; ``gazelles`` the gazelle cards left in the player's hand.

    The loss is the sum of:

    1. for each of the 3 lines running away from the player, the number on the card nearest
       to the player (an empty line adds nothing; a gazelle counts 0);
    2. half the taken cards, rounded up;
    3. one per gazelle left in hand.

    >>> lion = lambda n: {"color": "lion", "n": n}
    >>> damage([[lion(5), None, None], [lion(1), lion(2), None], [None, None, None]], "S", 3, 1)
    6

    (From the south: column 1 shows lion 1, column 2 lion 2, column 3 nothing: 3; three taken
    cards: 2; one gazelle: 1.) Bad input raises ValueError saying what is wrong.
    """
    grid, gazelles_on_field = _checked_field(field)
    if side not in SIDES:
        raise ValueError(f"the side must be one of {', '.join(SIDES)}, not {side!r}")
    if type(taken) is not int or taken < 0:
        raise ValueError(f"the number of taken cards must be a whole number of 0 or more, not {taken!r}")
    if type(gazelles) is not int or not 0 <= gazelles <= GAZELLE_COUNT:
        raise ValueError(
            f"the gazelles left in hand must be a whole number from 0 to {GAZELLE_COUNT}, not {gazelles!r}"
        )
    if gazelles_on_field + gazelles > GAZELLE_COUNT:
        raise ValueError(
            f"there are only {GAZELLE_COUNT} gazelle cards, but {gazelles_on_field} are on the field "
            f"and {gazelles} in hand"
        )
    return _loss(grid, side, taken, gazelles)


def _loss(grid: list[list[int | None]], side: str, taken: int, gazelles: int) -> int:
    """The damage (see :func:`damage`) of a grid of values already known to be sound: the
    engine's own field needs no checking, and skipping it keeps round ends cheap."""
    return _nearest_sum(grid, side) + (taken + 1) // 2 + gazelles


def _nearest_sum(grid: list[list[int | None]], side: str) -> int:
    """Part 1 of the damage: the values of the cards nearest to ``side`` on each line
    running away from it. ``grid`` holds values (a gazelle is 0) or None, seen from the south."""
    cells = grid[0] + grid[1] + grid[2]
    total = 0
    for line in _LINES_FROM[side]:
        for at in line:
            if cells[at] is not None:
                total += cells[at]
                break
    return total


_LINES_FROM = {
    "S": ((6, 3, 0), (7, 4, 1), (8, 5, 2)),
    "N": ((0, 3, 6), (1, 4, 7), (2, 5, 8)),
    "W": ((0, 1, 2), (3, 4, 5), (6, 7, 8)),
    "E": ((2, 1, 0), (5, 4, 3), (8, 7, 6)),
}
"""Side -> the 3 lines running away from it, each as the numbers of its cells (row by row
from the top-left, seen from the south), nearest first."""


def _checked_field(field) -> tuple[list[list[int | None]], int]:
    """The field as 3 × 3 values (None: empty; a gazelle: 0) and the number of gazelles on
    it; ValueError saying what is wrong when it is malformed."""
    if not isinstance(field, list) or len(field) != 3 or any(not isinstance(r, list) or len(r) != 3 for r in field):
        raise ValueError("the field must be 3 rows of 3 cells each (as seen from the south side)")
    grid = []
    seen = set()
    gazelles = 0
    for r, row in enumerate(field):
        values = []
        for c, cell in enumerate(row):
            where = f"row {r + 1}, cell {c + 1}"
            if cell is None:
                values.append(None)
            elif isinstance(cell, dict) and cell.keys() == {"gazelle"} and cell["gazelle"] is True:
                gazelles += 1
                values.append(0)
            elif isinstance(cell, dict) and cell.keys() == {"color", "n"}:
                color, n = cell["color"], cell["n"]
                if not isinstance(color, str) or color not in _NUMBERS:
                    raise ValueError(f"{where}: unknown colour {color!r} (colours: {', '.join(_NUMBERS)})")
                if type(n) is not int or n not in _NUMBERS[color]:
                    numbers = ", ".join(str(x) for x in sorted(_NUMBERS[color]))
                    raise ValueError(f"{where}: there is no {color} {n!r} in the deck ({color} numbers: {numbers})")
                if (color, n) in seen:
                    raise ValueError(f"{where}: {color} {n} is on the field twice, but the deck has only one")
                seen.add((color, n))
                values.append(n)
            else:
                raise ValueError(
                    f'{where}: a cell must be null, {{"color": ..., "n": ...}} or {{"gazelle": true}}, not {cell!r}'
                )
        grid.append(values)
    if gazelles > GAZELLE_COUNT:
        raise ValueError(f"there are only {GAZELLE_COUNT} gazelle cards, but {gazelles} are on the field")
    return grid, gazelles


def _card_names(card: str) -> tuple[str, str]:
    """A card as people say it: ``("Lion 3", "ライオンの3")``, ``("Gazelle", "ガゼル")``."""
    color = _COLOR[card]
    if color is None:
        return "Gazelle", "ガゼル"
    en, ja = _NAMES[color]
    return f"{en} {CARD_VALUE[card]}", f"{ja}の{CARD_VALUE[card]}"


_CARD_NAMES = {card: _card_names(card) for card in _COLOR}
"""Every card's names, made once: the log names cards on nearly every move of every playout."""


def _cards_en(cards: list[str]) -> str:
    return ", ".join([_CARD_NAMES[c][0] for c in cards])


def _cards_ja(cards: list[str]) -> str:
    return "、".join([_CARD_NAMES[c][1] for c in cards])


# --------------------------------------------------------------------------- the engine

HAND_SIZES = {3: 8, 4: 7}
"""Cards dealt to each player, by number of players (the book)."""
HERD_START = 20
"""Every herd card starts at 20 (the book)."""
ROUNDS = 3
"""The game ends after round 3 at the latest (the book)."""
ADJUSTMENTS = 3
"""How many times per round every player passes a card to the left."""
STEPS = {"pass": ("pass",), "start": ("place",), "turn": ("play", "take"), "place": ("place",), "over": ()}
"""The step a round is in -> the action types it accepts."""
_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


BOX = Box("lion-square", "Lion Square (らいおんスクエア)")
"""The box, which the ledger follows too."""


class LionSquare(Game):
    """The Lion Square engine. The field is stored as ``[row, column, card]`` triples in the
    order the cards were put down. Coordinates are relative to the first card of the current
    field (it sits at ``[0, 0]``; rows grow towards the south, columns towards the east) and
    stay put while the field lives; when a take empties the field, the next card is the new
    ``[0, 0]``. The field floats: rule [2] only bounds the box around its cards."""

    id = "lion-square"
    title = {"en": "Lion Square", "ja": "らいおんスクエア"}
    box = BOX
    bot_module = ".bot"
    min_players = 3
    max_players = 4
    options = ()
    action_fields = {"pass": ("card",), "play": ("card", "cell"), "place": ("card", "cell"), "take": (("row", "column"),)}

    # ------------------------------------------------------------------ setup and rounds

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        state["round"] = 1
        state["herds"] = [HERD_START] * players
        state["start_player"] = self.first_seat(state)
        state["last_round"] = None
        self._deal(state, rng)

    def _deal(self, state: dict, rng: Rng) -> None:
        """Start a round: everything gathered and shuffled, hands dealt, the rest and the
        gazelles shuffled into the Square pile, then the hand adjustment."""
        players = state["players"]
        size = HAND_SIZES[players]
        carnivores = list(CARNIVORES)
        rng.shuffle(carnivores)
        state["hands"] = [sorted(carnivores[s * size : (s + 1) * size], key=_ORDER.__getitem__) for s in range(players)]
        pile = carnivores[players * size :] + list(GAZELLES)
        rng.shuffle(pile)
        state["pile"] = pile
        state["field"] = []
        state["taken"] = [[] for _ in range(players)]
        state["passes"] = [None] * players
        state["passed"] = [[] for _ in range(players)]
        state["received"] = [[] for _ in range(players)]
        state["adjustment"] = 1
        state["step"] = "pass"
        state["turn"] = None
        state["last_placer"] = None
        if not self.keeps_log(state):
            return
        start = _SEAT_REFS[state["start_player"]]
        number = state["round"]
        self.log(
            state,
            f"Round {number}: cards dealt, {start} is the start player. Hand adjustment: pass a card to the left",
            f"第{number}ラウンド：カードを配りました。スタートプレイヤーは{start}。手札の調整：左隣にカードを渡します",
        )

    def _end_round(self, state: dict, rng: Rng, why_en: str, why_ja: str) -> None:
        """Take the damage, then finish the game or deal the next round."""
        players = state["players"]
        grid = _south_grid(state["field"])
        values = [[None if card is None else CARD_VALUE[card] for card in row] for row in grid]
        number = state["round"]
        logged = self.keeps_log(state)
        private = {}
        herds = _own(state, "herds")
        for seat in range(players):
            taken = len(state["taken"][seat])
            gazelles = sum(1 for card in state["hands"][seat] if _COLOR[card] is None)
            loss = _loss(values, SIDES[seat], taken, gazelles)
            herds[seat] -= loss
            if logged:
                from_taken = (taken + 1) // 2
                from_field = loss - from_taken - gazelles
                herd = herds[seat]
                private[seat] = (
                    f"Round {number}: you lose {loss} = field {from_field} + {from_taken} for {taken} taken cards "
                    f"+ {gazelles} for gazelles in hand; your herd is now {herd}",
                    f"第{number}ラウンド：{loss}頭を失いました（場{from_field}＋取ったカード{taken}枚で{from_taken}"
                    f"＋手札のガゼル{gazelles}）。群れは{herd}頭",
                )
        if logged:
            self.log(state, f"Round {number} ends: {why_en}", f"第{number}ラウンド終了：{why_ja}", private=private)
        state["last_round"] = {"round": number, "grid": grid, "taken": [len(t) for t in state["taken"]]}
        if number == ROUNDS or min(state["herds"]) <= 0:
            self._end_game(state)
            return
        state["round"] = number + 1
        state["start_player"] = (state["last_placer"] + 1) % players
        self._deal(state, rng)

    def _end_game(self, state: dict) -> None:
        herds = state["herds"]
        scores = {str(seat): herd for seat, herd in enumerate(herds)}
        winners, lions_win = herd_winners(herds)
        state["step"] = "over"
        state["turn"] = None
        if self.keeps_log(state):
            self.log(state, *_game_over_words(winners, herds, lions_win))
        en, ja = result_summary(winners, herds, lions_win)
        self.finish(
            state,
            {
                "winners": winners,
                "scores": scores,
                "lions_win": lions_win,
                "rounds": state["round"],
                "summary": {"en": en, "ja": ja},
            },
        )

    # ------------------------------------------------------------------ whose move, which moves

    def _to_act(self, state: dict) -> list[int]:
        step = state["step"]
        if step == "pass":
            # A plain loop: over 3 or 4 seats it costs less than a comprehension, which
            # Python 3.11 runs as a function of its own.
            waiting = []
            for seat, card in enumerate(state["passes"]):
                if card is None:
                    waiting.append(seat)
            return waiting
        if step == "over":
            return []
        return [state["turn"]]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        step = state["step"]
        hand = state["hands"][seat]
        if step == "pass":
            return [{"type": "pass", "card": card} for card in _most_held(hand)]
        field = state["field"]
        if not field:  # the round's first card, or the placement after taking the last line
            return [{"type": "place", "card": card, "cell": [0, 0]} for card in hand]
        top, left, bits_at, shape = _placed(field)
        if step != "turn":  # "place": any card, obeying only [1] and [2]
            cells = [(top + row, left + column) for row, column in shape.open_cells]
            return [{"type": "place", "card": card, "cell": [r, c]} for card in hand for r, c in cells]
        # Rule [4] (which implies [3]): a card must touch its colour, i.e. share a bit with
        # the colours the cell touches (see _HAND_BIT: a gazelle in hand fits anywhere).
        # (Plain loops: in this hot path they cost less than nested comprehensions.)
        held = [(card, _HAND_BIT[card]) for card in hand]
        actions = []
        append = actions.append  # a playout lists some 600 plays and takes a game
        for (row, column), around in zip(shape.open_cells, shape.around):
            colours = _colours_around(bits_at, around)
            r, c = top + row, left + column
            for card, bit in held:
                if bit & colours:
                    append({"type": "play", "card": card, "cell": [r, c]})
        for row in shape.rows:
            append({"type": "take", "row": top + row})
        for column in shape.columns:
            append({"type": "take", "column": left + column})
        return actions

    def random_action(self, state: dict, seat: int, randbelow) -> dict:
        # A playout takes one move of each list, and the lists hold over a thousand moves
        # a game: draw first, then build only the move drawn, in _legal_actions' order. A
        # place step lists every card at every open cell (some 22 moves); a turn, open cell
        # by open cell, the held cards of a colour the cell touches (in hand order), then
        # the rows, then the columns: counted by colour (a table per mix of colours in
        # hand, see _by_mix), the cell drawn is found without building a move. A pass
        # draws among the cards of the colours held most, the round's first card among
        # the hand.
        field = state["field"]
        step = state["step"]
        hand = state["hands"][seat]
        if step == "pass":
            fits, most = _by_mix(hand)
            drawn = randbelow(fits[most])  # fits[most]: how many cards of the colours held most
            return {"type": "pass", "card": _nth_fitting(hand, most, drawn)}
        if not field:
            return {"type": "place", "card": hand[randbelow(len(hand))], "cell": [0, 0]}
        top, left, bits_at, shape = _placed(field)
        cells = shape.open_cells
        if step != "turn":
            drawn = randbelow(len(hand) * len(cells))
            row, column = cells[drawn % len(cells)]
            return {"type": "place", "card": hand[drawn // len(cells)], "cell": [top + row, left + column]}
        fits = _by_mix(hand)[0]
        # How many held cards fit each open cell: _colours_around written out, in a plain
        # loop, which spares a call per cell (a playout counts at nearly every turn).
        counts = []
        plays = 0
        for n, s, w, e in shape.around:
            count = fits[bits_at[n] | bits_at[s] | bits_at[w] | bits_at[e] | _ANYWHERE_BIT]
            counts.append(count)
            plays += count
        rows, columns = shape.rows, shape.columns
        drawn = randbelow(plays + len(rows) + len(columns))
        if drawn >= plays:
            drawn -= plays
            if drawn < len(rows):
                return {"type": "take", "row": top + rows[drawn]}
            return {"type": "take", "column": left + columns[drawn - len(rows)]}
        for index, count in enumerate(counts):
            if drawn >= count:
                drawn -= count
                continue
            card = _nth_fitting(hand, _colours_around(bits_at, shape.around[index]), drawn)
            row, column = cells[index]
            return {"type": "play", "card": card, "cell": [top + row, left + column]}
        raise AssertionError("the draw fell outside the plays counted")

    # ------------------------------------------------------------------ carrying out a move

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        if kind == "pass":
            self._choose_pass(state, seat, action["card"])
        elif kind == "take":
            self._take(state, seat, action)
        else:
            self._put(state, seat, action["card"], action["cell"], rng)

    def _choose_pass(self, state: dict, seat: int, card: str) -> None:
        players = state["players"]
        hands = _own(state, "hands")
        hands[seat] = _without(hands[seat], card)
        passes = _own(state, "passes")
        passes[seat] = card
        logged = self.keeps_log(state)
        if logged:
            left = _SEAT_REFS[(seat + 1) % players]
            en, ja = _CARD_NAMES[card]
            who = _SEAT_REFS[seat]
            self.log(
                state,
                f"{who} has chosen a card to pass",
                f"{who}が渡すカードを選びました",
                private={seat: (f"You chose {en} to pass to {left}", f"{left}に渡すカードに{ja}を選びました")},
            )
        if None in passes:
            return
        passed = _own(state, "passed")
        received = _own(state, "received")
        for giver, card in enumerate(passes):
            receiver = (giver + 1) % players
            hands[receiver] = _with(hands[receiver], card)
            passed[giver] = [*passed[giver], card]
            received[receiver] = [*received[receiver], card]
        number = state["adjustment"]
        if logged:
            private = {}
            for giver, card in enumerate(passes):
                receiver = (giver + 1) % players
                got_en, got_ja = _CARD_NAMES[card]
                gave_en, gave_ja = _CARD_NAMES[passes[receiver]]
                private[receiver] = (
                    f"You passed {gave_en} to {_SEAT_REFS[(receiver + 1) % players]} "
                    f"and received {got_en} from {_SEAT_REFS[giver]}",
                    f"{_SEAT_REFS[(receiver + 1) % players]}に{gave_ja}を渡し、{_SEAT_REFS[giver]}から{got_ja}を受け取りました",
                )
            self.log(
                state,
                f"Hand adjustment {number} of {ADJUSTMENTS}: everyone passed a card to the left",
                f"手札の調整 {number}/{ADJUSTMENTS}：全員が左隣にカードを渡しました",
                private=private,
            )
        state["passes"] = [None] * players
        if number < ADJUSTMENTS:
            state["adjustment"] = number + 1
            return
        state["step"] = "start"
        state["turn"] = state["start_player"]

    def _take(self, state: dict, seat: int, action: dict) -> None:
        if "row" in action:
            line, index = 0, action["row"]
        else:
            line, index = 1, action["column"]
        cards = []
        kept = []
        for entry in state["field"]:  # one pass: the line's cards leave, the rest stay in order
            if entry[line] == index:
                cards.append(entry[2])
            else:
                kept.append(entry)
        state["field"] = kept
        taken_cards = _own(state, "taken")
        taken_cards[seat] = taken_cards[seat] + cards
        count = len(cards)
        drew = count == 3 and bool(state["pile"])
        state["step"] = "place"
        if drew:
            card = state["pile"][-1]
            state["pile"] = state["pile"][:-1]
            hands = _own(state, "hands")
            hands[seat] = _with(hands[seat], card)
        if not self.keeps_log(state):
            return
        private = None
        who = _SEAT_REFS[seat]
        en = f"{who} takes {count} card{'s' if count > 1 else ''} ({_cards_en(cards)})"
        ja = f"{who}が{count}枚（{_cards_ja(cards)}）を取りました"
        if count == 3 and not drew:
            en += "; the Square pile is empty, so no card is drawn"
            ja += "。スクエア山札がないので引けません"
        if drew:
            en += " and draws from the Square pile"
            ja += "。スクエア山札から1枚引きます"
            drawn_en, drawn_ja = _CARD_NAMES[card]
            private = {
                seat: (
                    f"{en}: you drew {drawn_en}; now place a card of your choice",
                    f"{ja}：{drawn_ja}を引きました。好きなカードを1枚出します",
                )
            }
        self.log(
            state, en + "; now they place a card of their choice", ja + "。好きなカードを1枚出します", private=private
        )

    def _put(self, state: dict, seat: int, card: str, cell: list, rng: Rng) -> None:
        """A card goes on the field (a play, the round's first card, or the placement after
        a take); then the round ends, the same seat goes again (a gazelle) or the next does."""
        players = state["players"]
        hands = _own(state, "hands")
        hands[seat] = _without(hands[seat], card)
        state["field"] = [*state["field"], [cell[0], cell[1], card]]
        state["last_placer"] = seat
        gazelle = _COLOR[card] is None
        logged = self.keeps_log(state)
        if logged:
            who = _SEAT_REFS[seat]
            if gazelle:
                self.log(
                    state, f"{who} plays a Gazelle and takes another turn", f"{who}がガゼルを出し、もう1度手番を行います"
                )
            else:
                en, ja = _CARD_NAMES[card]
                self.log(state, f"{who} plays {en}", f"{who}が{ja}を出しました")
        if len(state["field"]) == 9:
            self._end_round(state, rng, "the square is full", "場に9枚並びました")
            return
        following = seat if gazelle else (seat + 1) % players
        if not state["hands"][following]:
            who = _SEAT_REFS[following]
            self._end_round(state, rng, f"{who} has no cards to start the turn", f"{who}の手番の最初に手札がありません")
            return
        state["step"] = "turn"
        state["turn"] = following

    # ------------------------------------------------------------------ legal, or why not

    def _is_legal(self, state: dict, seat: int, action: dict) -> bool:
        # Asked of the rules directly instead of looking the action up in _legal_actions:
        # a playout checks one action per step, and the list of plays is long.
        return self._problem(state, seat, action) is None

    def _explain(self, state: dict, seat: int, action: dict) -> Words:
        return self._problem(state, seat, action)

    def _problem(self, state: dict, seat: int, action: dict) -> Words | None:
        """Why the (well-shaped) ``action`` breaks the rules, naming the rule; None when it
        is legal. The one statement of what a single move must satisfy: _legal_actions lists
        exactly the actions this lets through (the tests check that the two agree)."""
        step = state["step"]
        kind = action["type"]
        if kind not in STEPS[step]:
            return _wrong_step(step, kind, state["adjustment"])
        if kind == "take":
            return _take_problem(state["field"], action)
        card = action["card"]
        if type(card) is not str:
            return (
                f'a {kind!r} action needs "card", a card id such as "lion-3", not {card!r}',
                f'{kind!r} の行動の "card" には "lion-3" のようなカードIDを入れてください({card!r} は使えません)',
            )
        if card not in _COLOR:
            return (
                f"there is no card {card!r} in Lion Square (card ids look like 'lion-3' or 'gazelle-1')",
                f"らいおんスクエアに {card!r} というカードはありません(カードIDは 'lion-3' や 'gazelle-1' の形です)",
            )
        hand = state["hands"][seat]
        if card not in hand:
            en, ja = _CARD_NAMES[card]
            return f"you do not hold {en}", f"{ja}は手札にありません"
        if kind == "pass":
            return _pass_problem(hand, card)
        cell = action["cell"]
        if type(cell) is list and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int:
            if _may_put(state["field"], kind, card, cell):
                return None
        return _cell_problem(state["field"], kind, card, cell)

    # ------------------------------------------------------------------ views

    def _public_view(self, state: dict) -> dict:
        field = state["field"]
        step = state["step"]
        last = state["last_round"]
        return {
            "round": state["round"],
            "rounds": ROUNDS,
            "step": step,
            "turn": state["turn"],
            "start_player": state["start_player"],
            "adjustment": state["adjustment"] if step == "pass" else None,
            "chosen": [card is not None for card in state["passes"]] if step == "pass" else None,
            "field": [{"cell": [r, c], "card": card} for r, c, card in field],
            "grid": _south_grid(field),
            "grid_origin": _origin(field),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "taken": [len(cards) for cards in state["taken"]],
            "pile": len(state["pile"]),
            "sides": list(SIDES[: state["players"]]),
            "last_round": (
                None
                if last is None
                else {
                    "round": last["round"],
                    "grid": [list(row) for row in last["grid"]],
                    "taken": list(last["taken"]),
                }
            ),
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        return {
            "hand": list(state["hands"][seat]),
            "herd": state["herds"][seat],
            "passing": state["passes"][seat],
            # This round's finished hand adjustments, in pass order: the log that says so scrolls away.
            "passed": list(state["passed"][seat]),
            "received": list(state["received"][seat]),
            "side": SIDES[seat],
        }

    # ------------------------------------------------------------------ test hooks and speed

    def start_player(self, state: dict) -> int:
        return self.first_seat(state)  # the first round's (later rounds start after the last placer)

    def _components(self, state: dict) -> list:
        found = list(state["pile"])
        for hand in state["hands"]:
            found.extend(hand)
        for cards in state["taken"]:
            found.extend(cards)
        found.extend(card for _, _, card in state["field"])
        found.extend(card for card in state["passes"] if card is not None)
        return found

    def _hidden(self, state: dict, seat: int | None) -> list[Hidden]:
        """The other seats' hands (kept in deck order) and chosen passes, the face-down taken
        cards (everyone's: only their counts show) and the Square pile; the cards the other
        seats passed and received this round (their records, not components); and, while
        the game is on, the other seats' herd values."""
        others = [other for other in range(state["players"]) if other != seat]
        cards = [Place(("hands", other), order=_ORDER.__getitem__) for other in others]
        cards += [Place(("taken", taker)) for taker in range(state["players"])]
        cards += [Place(("pile",))]
        cards += [Place(("passes", other)) for other in others if state["passes"][other] is not None]
        hidden = [Hidden(tuple(cards), cards=DECK_ORDER),
                  Hidden(tuple(Place((key, other)) for key in ("passed", "received") for other in others))]
        if state["result"] is None:
            hidden.append(Hidden(tuple(Place(("herds", other)) for other in others)))
        return hidden

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """What the view shows; the cards this seat passed this round placed where they may
        be (:func:`_place_my_passes`); the others' herds estimated (:func:`_estimated_herds`);
        a seat that has chosen its pass holds it in hand until :meth:`_restore_after_deal`."""
        public, private, me = view["public"], view["private"], view["seat"]
        players = view["players"]
        chosen = public["chosen"] or [False] * players
        others = [seat for seat in range(players) if seat != me]
        field = [[entry["cell"][0], entry["cell"][1], entry["card"]] for entry in public["field"]]
        passing = private["passing"]
        seen = set(private["hand"]) | {card for _, _, card in field} | ({passing} if passing else set())
        unseen = {card for card in DECK_ORDER if card not in seen}
        sizes = {seat: public["hand_sizes"][seat] + chosen[seat] for seat in others}
        known = _place_my_passes(private["passed"], unseen, public, me, players, sizes, rng)
        hands = [[] for _ in range(players)]
        hands[me] = list(private["hand"])
        for seat in others:
            mine = known.get(seat, [])
            hands[seat] = mine + [UNSEEN] * (sizes[seat] - len(mine))
        taken = []
        for seat, count in enumerate(public["taken"]):
            mine = known.get(("taken", seat), [])
            taken.append(mine + [UNSEEN] * (count - len(mine)))
        passed = [[] for _ in range(players)]  # what the others passed this round is unknown, and no rule reads it
        received = [[] for _ in range(players)]
        passed[me], received[me] = list(private["passed"]), list(private["received"])
        passes = [None] * players
        passes[me] = passing
        state.update(
            round=public["round"],
            start_player=public["start_player"],
            step=public["step"],
            turn=public["turn"],
            adjustment=public["adjustment"] or ADJUSTMENTS,
            field=field,
            hands=hands,
            taken=taken,
            pile=[UNSEEN] * public["pile"],
            passes=passes,
            passed=passed,
            received=received,
            last_round=public["last_round"],
            # Read only when a round ends, and written just before by the card that ends it.
            last_placer=None,
            herds=_estimated_herds(public, private, me, players),
        )

    def _restore_after_deal(self, state: dict, view: dict, rng: Rng) -> None:
        """Other seats' hidden passes: a legal pass out of the hand they held before choosing."""
        chosen = view["public"]["chosen"] or [False] * view["players"]
        for seat in range(view["players"]):
            if seat != view["seat"] and chosen[seat]:
                state["passes"][seat] = rng.choice(self.legal_actions(state, seat))["card"]
                state["hands"][seat].remove(state["passes"][seat])

    def _copy(self, state: dict) -> dict:
        """A copy that shares every value with ``state``: this engine never changes a list of
        the state in place, it replaces the list (see :func:`_own`; the base replaces the
        log), so an action copies only what it changes."""
        return dict(state)


# --------------------------------------------------------------------------- helpers

_SEAT_REFS = tuple(seat_ref(seat) for seat in range(LionSquare.max_players))
"""Every seat's :func:`seat_ref` placeholder, made once: nearly every move's log names a seat."""


def _own(state: dict, key: str) -> list:
    """``state[key]``, replaced by a copy of its own first (copy on write: see
    LionSquare._copy). Lists of lists (the hands, the taken cards) share their inner lists:
    replace the inner list that changes, too."""
    mine = state[key] = list(state[key])
    return mine


def _without(hand: list[str], card: str) -> list[str]:
    """A copy of ``hand`` without ``card`` (held once: every card of the deck is unique)."""
    new = hand.copy()
    new.remove(card)
    return new


def _with(hand: list[str], card: str) -> list[str]:
    """A copy of ``hand`` with ``card`` put in its place in deck order (see _ORDER)."""
    new = hand.copy()
    insort(new, card, key=_ORDER.__getitem__)
    return new


def _most_held(hand: list[str]) -> list[str]:
    """The cards of the colours held most (hand adjustment): any tied colour, any number;
    never a gazelle, which has no colour."""
    most = _by_mix(hand)[1]
    return [card for card in hand if _HAND_BIT[card] & most]


def _nth_fitting(hand: list[str], colours: int, drawn: int) -> str:
    """The card ``drawn`` (from 0, in hand order) among the cards of ``hand`` whose bit (see
    _HAND_BIT) is among the bits ``colours``: how a draw picks a pass or a play."""
    for card in hand:
        if _HAND_BIT[card] & colours:
            if not drawn:
                return card
            drawn -= 1
    raise AssertionError("the draw fell outside the cards counted")


def _box(cells) -> tuple[int, int, int, int]:
    rows = [r for r, c in cells]
    cols = [c for r, c in cells]
    return min(rows), max(rows), min(cols), max(cols)


# The field's cards always fit in a 3 × 3 box (rule [2]). Relative to the top-left corner of
# that box, a cell where a card may go lies in the window of rows and columns -1..2; the
# window's cells are numbered row by row. Which cells are open, and which cells around each
# may hold a card, depends only on where the cards lie in the box: the "shape". Every shape
# (at most 2**9) is worked out once here, so that a move asks a table instead of walking
# the field.

_WINDOW = 4
_CORNER = _WINDOW + 1
"""The window number of the box's top-left cell: a card at [row, column] of the box is
number ``row * _WINDOW + column + _CORNER``."""
_NEVER_A_CARD = 0
"""The window number of row -1, column -1, where no card ever lies: a side of an open cell
that lies outside the box is read there (see _Shape.around)."""

# Colours as bits, so that the colours a cell touches are one whole number and a card fits
# a cell when its bit is among them (rule [4]): a species i is bit i.
_ANYWHERE_BIT = 1 << len(SPECIES)
"""A bit that every open cell touches and only a gazelle in hand has: it needs no colour."""
_SPECIES_BIT = {s["id"]: 1 << i for i, s in enumerate(SPECIES)}
_FIELD_BIT = {card: _SPECIES_BIT[_COLOR[card]] for card in CARNIVORES} | {card: 0 for card in GAZELLES}
"""A card on the field -> its colour bit; a gazelle has no colour and lends none."""
_HAND_BIT = {card: _SPECIES_BIT[_COLOR[card]] for card in CARNIVORES} | {card: _ANYWHERE_BIT for card in GAZELLES}
"""A card in hand -> the bit a cell must touch for it: a gazelle's is at every cell."""

_MIX_BITS = CARNIVORE_COUNT.bit_length()
_MIX = {card: 1 << _MIX_BITS * (_HAND_BIT[card].bit_length() - 1) for card in _HAND_BIT}
"""A card -> its share of a hand's mix of colours: summed over a hand, field i of _MIX_BITS
bits counts its cards of colour bit i (the gazelles' field, the last, is unbounded)."""
_BY_MIX: dict[int, tuple[tuple[int, ...], int]] = {}
"""A hand's mix -> what :func:`_by_mix` says of it, worked out the first time the mix is
met. Bounded: a hand holds some ten cards at most, so with the 5 species and the gazelles
there are a few thousand mixes (640 playouts met 751), each 64 numbers."""


def _by_mix(hand: list[str]) -> tuple[tuple[int, ...], int]:
    """What the mix of colours in ``hand`` allows, counted once per mix so that a move is
    drawn without counting cards: how many of its cards fit a cell, by the colour bits the
    cell touches (with _ANYWHERE_BIT, which every cell touches), and the bits of the
    colours it holds most (hand adjustment; 0 when it holds only gazelles)."""
    mix = 0
    for card in hand:  # a plain loop: on hands of a few cards it costs less than sum(map(...))
        mix += _MIX[card]
    known = _BY_MIX.get(mix)
    if known is None:
        field = (1 << _MIX_BITS) - 1
        counts = [mix >> (_MIX_BITS * i) & field for i in range(len(SPECIES))] + [mix >> (_MIX_BITS * len(SPECIES))]
        fits = [0] * (_ANYWHERE_BIT << 1)
        for colours in range(1, len(fits)):  # each from the one without its lowest bit
            lowest = colours & -colours
            fits[colours] = fits[colours ^ lowest] + counts[lowest.bit_length() - 1]
        most = max(counts[:-1])  # gazelles have no colour: they never count
        most_bits = sum(1 << i for i, count in enumerate(counts[:-1]) if count == most) if most else 0
        known = _BY_MIX[mix] = (tuple(fits), most_bits)
    return known


@dataclass(frozen=True)
class _Shape:
    open_cells: tuple[tuple[int, int], ...]
    """The open cells, as (row, column) in the box."""
    around: tuple[tuple[int, int, int, int], ...]
    """For each open cell, in the same order, the window numbers of the cells north, south,
    west and east of it; one outside the box is _NEVER_A_CARD."""
    open_index: dict[tuple[int, int], int]
    """An open cell's (row, column) -> its place in open_cells."""
    rows: tuple[int, ...]
    """The rows of the box that hold a card (a take names one of them)."""
    columns: tuple[int, ...]


def _shape(cards: frozenset[tuple[int, int]]) -> _Shape:
    """The open cells of cards lying at these (row, column) places of their box: empty,
    next to a card, and keeping the box within 3 × 3 (rules [1] and [2])."""
    height = max(row for row, _ in cards)
    width = max(column for _, column in cards)
    open_cells = []
    around = []
    for row in range(max(height - 2, -1), 3):
        for column in range(max(width - 2, -1), 3):
            sides = [(row + dr, column + dc) for dr, dc in _NEIGHBOURS]
            if (row, column) not in cards and any(side in cards for side in sides):
                open_cells.append((row, column))
                around.append(
                    tuple(r * _WINDOW + c + _CORNER if 0 <= r < 3 and 0 <= c < 3 else _NEVER_A_CARD for r, c in sides)
                )
    return _Shape(
        open_cells=tuple(open_cells),
        around=tuple(around),
        open_index={cell: index for index, cell in enumerate(open_cells)},
        rows=tuple(sorted({row for row, _ in cards})),
        columns=tuple(sorted({column for _, column in cards})),
    )


_BOX = [(row, column) for row in range(3) for column in range(3)]
_SHAPES = {
    sum(1 << (row * _WINDOW + column + _CORNER) for row, column in cards): _shape(cards)
    for cards in (
        frozenset(cell for bit, cell in enumerate(_BOX) if mask >> bit & 1) for mask in range(1, 1 << len(_BOX))
    )
    if min(row for row, _ in cards) == 0 and min(column for _, column in cards) == 0
}
"""The window numbers of a box's cards, as the bits of one whole number -> their :class:`_Shape`."""
_NO_CARDS = [0] * (_WINDOW * _WINDOW)
"""Colour bits by window number before any card is put in."""


def _placed(field: list) -> tuple[int, int, list[int], _Shape]:
    """A non-empty field as the top-left corner of its box, its cards' colour bits by window
    number (a list, see _FIELD_BIT), and its :class:`_Shape`."""
    # Plain loops, a list and a bit mask: a turn asks this first, and the playouts ask it
    # at most of their steps (cheaper here than min() over the entries, a dict, a frozenset).
    top = left = 1 << 30
    for r, c, _ in field:
        if r < top:
            top = r
        if c < left:
            left = c
    corner = _CORNER - top * _WINDOW - left  # the window number of the field's cell [0, 0]
    bits_at = _NO_CARDS.copy()
    cards = 0
    for r, c, card in field:
        at = r * _WINDOW + c + corner
        bits_at[at] = _FIELD_BIT[card]
        cards |= 1 << at
    return top, left, bits_at, _SHAPES[cards]


def _colours_around(bits_at: list[int], around: tuple[int, int, int, int]) -> int:
    """The colour bits an open cell touches, with _ANYWHERE_BIT: those of the cards at its
    sides ``around`` (see _Shape.around) in ``bits_at`` (see _placed)."""
    north, south, west, east = around
    return bits_at[north] | bits_at[south] | bits_at[west] | bits_at[east] | _ANYWHERE_BIT


def _may_put(field: list, kind: str, card: str, cell: list) -> bool:
    """Whether ``card`` (held) may go on ``cell`` (two whole numbers): rules [1] and [2],
    and for a play [3] and [4]. The same tables as _legal_actions; :func:`_cell_problem`
    says what is wrong when this says no."""
    r, c = cell
    if not field:
        return r == 0 and c == 0
    top, left, bits_at, shape = _placed(field)
    index = shape.open_index.get((r - top, c - left))
    if index is None:
        return False
    return kind == "place" or bool(_HAND_BIT[card] & _colours_around(bits_at, shape.around[index]))


def _origin(field: list) -> list[int] | None:
    """The field coordinates of the normalized grid's top-left cell (None: empty field)."""
    if not field:
        return None
    top, _, left, _ = _box([(r, c) for r, c, _ in field])
    return [top, left]


def _south_grid(field: list) -> list[list[str | None]]:
    """The field as 3 rows of 3 card ids (None: empty) as seen from the south, its box's
    top-left corner in the top-left cell."""
    grid = [[None, None, None] for _ in range(3)]
    if field:
        top, left = _origin(field)
        for r, c, card in field:
            grid[r - top][c - left] = card
    return grid


def _game_over_words(winners: list[int], herds: list[int], lions_win: bool) -> Words:
    """The log's last line."""
    if lions_win:
        return "Game over: every herd is gone, the lions win", "ゲーム終了：すべての群れが食べ尽くされ、ライオンの勝ち"
    who = " & ".join(_SEAT_REFS[s] for s in winners)
    best = herds[winners[0]]
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"Game over: {who} {verb} with a herd of {best}", f"ゲーム終了：{who}の勝ち（群れ{best}頭）"


def result_summary(winners: list[int], herds: list[int], lions_win: bool) -> Words:
    """The result in a sentence or two: the lions' win, the winner, or the herds that tie for
    the lead (the book breaks no tie: tied players share the win)."""
    if lions_win:
        return (
            "The lions win: every herd fell to 0 or below. Nobody wins.",
            "ライオンの勝ち：すべての群れが0頭以下になりました。勝者はいません。",
        )
    en, ja = seat_list(winners)
    best = herds[winners[0]]
    if len(winners) == 1:
        return f"{en} wins with a herd of {best}.", f"{ja}が群れ{best}頭で勝ちました。"
    return (
        f"{en} share the win with herds of {best} each.",
        f"{ja}が群れ{best}頭で並び、勝ちを分け合いました。",
    )


def _wrong_step(step: str, kind: str, adjustment: int) -> Words:
    """Why an action of type ``kind`` is not what ``step`` asks for."""
    if step == "pass":
        return (
            f"the hand adjustment comes first: every player passes one card to the left, "
            f"{ADJUSTMENTS} times (now pass {adjustment} of {ADJUSTMENTS}); use 'pass'",
            f"まず手札の調整です：全員が左隣にカードを1枚渡します。これを{ADJUSTMENTS}回行います"
            f"(いまは{ADJUSTMENTS}回中{adjustment}回目)。'pass' を使ってください",
        )
    if step == "start":
        return (
            "the start player first puts any card from hand in the centre: use 'place' with the cell [0, 0]",
            "まずスタートプレイヤーが手札から好きなカードを1枚中央に出します：'place' でマス [0, 0] を指定してください",
        )
    if step == "place":
        return (
            "you took a line: now place any card from your hand next to the field, obeying only [1] and [2] ('place')",
            "列を取ったので、手札から好きなカードを1枚、[1]と[2]だけに従って場に出します('place')",
        )
    if kind == "place":
        return (
            "you may place a card of any colour only right after taking a line; "
            "now 'play' a card obeying [1]-[4] or 'take' a line",
            "どの色のカードでも出せるのは列を取った直後だけです。"
            "いまは[1]~[4]に従ってカードを出す('play')か、列を取って('take')ください",
        )
    return (
        "the hand adjustment is over: 'play' a card or 'take' a line",
        "手札の調整は終わりました：カードを出す('play')か、列を取って('take')ください",
    )


def _pass_problem(hand: list[str], card: str) -> Words | None:
    """Why passing ``card`` (held) breaks the hand adjustment's rule; None if it does not."""
    most = _most_held(hand)
    if card in most:
        return None
    colors = list(dict.fromkeys(_COLOR[c] for c in most))  # the hand is in deck order
    count = sum(1 for c in hand if _COLOR[c] == colors[0])
    card_en, card_ja = _CARD_NAMES[card]
    return (
        f"hand adjustment: you must pass a card of the colour you hold most "
        f"({' or '.join(_NAMES[c][0] for c in colors)}, {count} card{'s' if count > 1 else ''} each); "
        f"{card_en} is not one",
        f"手札の調整では、手札でもっとも多い色のカードを渡します"
        f"({'か'.join(_NAMES[c][1] for c in colors)}、各{count}枚)。{card_ja}はそうではありません",
    )


def _take_problem(field: list, action: dict) -> Words | None:
    """Why a take of ``action``'s row or column is not allowed; None if it is: the line
    must hold a card."""
    key = "row" if "row" in action else "column"
    key_ja = "行" if key == "row" else "列"
    index = action[key]
    if type(index) is not int:
        return (
            f"the {key} must be a whole number, not {index!r}",
            f"{key_ja}('{key}')は整数で指定してください({index!r} は使えません)",
        )
    axis = 0 if key == "row" else 1
    lines = [entry[axis] for entry in field]
    if index in lines:
        return None
    lines = sorted(set(lines))
    return (
        f"{key} {index} of the field holds no card; take a {key} that holds at least one ({key}s now: {lines})",
        f"場の{key_ja} {index} にはカードがありません。カードが1枚以上ある{key_ja}を取ってください"
        f"(いまある{key_ja}: {lines})",
    )


def _cell_problem(field: list, kind: str, card: str, cell) -> Words | None:
    """Which rule putting ``card`` (held) on ``cell`` breaks, in words; None if none does.
    A "place" obeys [1] and [2] only; a "play" also [3] and [4]."""
    if not (type(cell) is list and len(cell) == 2 and all(type(x) is int for x in cell)):
        return (
            f'the "cell" must be [row, column], two whole numbers, not {cell!r}',
            f'"cell" は [行, 列] の2つの整数で指定してください({cell!r} は使えません)',
        )
    r, c = cell
    if not field:
        if (r, c) == (0, 0):
            return None
        return (
            f"the field is empty: the first card goes at [0, 0], not [{r}, {c}]",
            f"場にカードがありません：最初のカードは [{r}, {c}] ではなく [0, 0] に出します",
        )
    where = {(fr, fc): fcard for fr, fc, fcard in field}
    if (r, c) in where:
        held_en, held_ja = _CARD_NAMES[where[(r, c)]]
        return (
            f"rule [1]: the cell [{r}, {c}] already holds {held_en}; cards are never stacked",
            f"ルール[1]：マス [{r}, {c}] にはもう{held_ja}があります。カードは重ねられません",
        )
    around = [where[(r + dr, c + dc)] for dr, dc in _NEIGHBOURS if (r + dr, c + dc) in where]
    if not around:
        return (
            f"rule [1]: the cell [{r}, {c}] touches no card; a card goes above, below, left or right of one",
            f"ルール[1]：マス [{r}, {c}] はどのカードにも隣接していません。場のカードの上下左右に出します",
        )
    top, bottom, left, right = _box([*where, (r, c)])
    if bottom - top >= 3 or right - left >= 3:
        return (
            f"rule [2]: a card at [{r}, {c}] would make the field {bottom - top + 1} tall and "
            f"{right - left + 1} wide; it must fit in a 3×3 square",
            f"ルール[2]：マス [{r}, {c}] に出すと場が縦{bottom - top + 1}枚、横{right - left + 1}枚になります。"
            f"場は縦横3枚までです",
        )
    color = _COLOR[card]
    if kind == "place" or color is None or any(_COLOR[x] == color for x in around):
        return None  # a gazelle needs no colour; rule [4] (touching its colour) implies [3]
    color_en, color_ja = _NAMES[color]
    if all(_COLOR[x] != color for x in where.values()):
        return (
            f"rule [3]: no {color_en} is on the field, and only colours already there may be played "
            f"(a new colour comes in only with the card placed after taking a line)",
            f"ルール[3]：場に{color_ja}がありません。場にある色のカードしか出せません"
            f"(新しい色を出せるのは列を取った後の1枚だけです)",
        )
    card_en, card_ja = _CARD_NAMES[card]
    return (
        f"rule [4]: {card_en} must touch a {color_en} card, and [{r}, {c}] does not",
        f"ルール[4]：{card_ja}は同じ色({color_ja})のカードに隣接させて出しますが、マス [{r}, {c}] は隣接していません",
    )


GAME = LionSquare()


# ---------------------------------------------------------------------- resampling a view


def _cell_of(card: str | None) -> dict | None:
    """A card id as damage reads a cell (ids are "<species>-<number>", "gazelle-<k>")."""
    if card is None:
        return None
    species, number = card.split("-")
    return {"gazelle": True} if species == "gazelle" else {"color": species, "n": int(number)}


def _public_loss(last_round: dict, seat: int) -> int:
    """What ``seat`` lost in the last round, as far as the table saw: the field and the
    taken cards (the gazelles left in its hand were secret)."""
    cells = [[_cell_of(card) for card in row] for row in last_round["grid"]]
    return damage(cells, SIDES[seat], last_round["taken"][seat], 0)


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
            raise ValueError("this lion-square view does not add up: a card this seat passed has nowhere to be")
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
