"""Meow Oracle (the publisher's name for the book's オラクルカード game): the rules engine.

Each player builds a 3 × 3 area of face-up cards out of cards that others reveal and hand
out; at the end of each of the two rounds the area scores for an ascending snake path and
for lines of one colour, and every player compares their total with both neighbours.
The rules as implemented are in ``docs/rules/meow-oracle.md``; RULINGS.md §2 settles what
the book leaves open.

:func:`score_area` is the round scoring on its own, for anyone scoring a physical table; the
engine scores its card ids with the same core (:func:`_score`), without building grids.
"""

from __future__ import annotations

from functools import cache
from itertools import chain, compress
from operator import not_
from typing import Any

from ..base import UNSEEN, Box, Game, Hidden, Place, Words, seat_list, seat_ref
from ..rng import Rng

COLOURS = ("red", "blue", "green")
"""The three ordinary colours; each has the numbers 0–10 once."""

WILD = "wild"
"""The grey cards' colour: wild, it is every colour at once."""

WILD_NUMBERS = (3, 4, 5)
"""The numbers the three grey (wild) cards carry."""

HIGHEST = 10

CELLS = 9

SNAKE = (0, 1, 2, 5, 4, 3, 6, 7, 8)
"""The scoring path over the cells (numbered row by row, 0 = top left, as the owner sees
them): top row left→right, middle row right→left, bottom row left→right (RULINGS §2,
reconstructed from the book's worked example)."""

RUN_BONUS = {8: 10, 9: 15}
"""A run of 8 cards scores 10 (8 + 2 bonus) and a full run of 9 scores 15 (9 + 6)."""

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)
"""The eight lines of a 3 × 3 area, as cell numbers."""

POINTS_PER_LINE = 2


def score_area(grid: Any) -> dict:
    """The round points of one finished area.

    ``grid`` is 3 rows of 3 cards as the owner sees them (top row first), each card
    ``{"n": int, "color": "red" | "blue" | "green" | "wild"}`` (other keys, such as an
    ``"id"``, are ignored). Returns ``{"run": int, "lines": int, "total": int}``:

    * ``run``: along the snake path (:data:`SNAKE`), the number of cards from the first
      one that keep a non-decreasing order, stopping at the first drop; one point each,
      except that 8 cards score 10 and 9 cards score 15;
    * ``lines``: 2 points for each row, column or diagonal whose three cards share a
      colour, a wild card counting as every colour;
    * ``total``: their sum.

    The book's example ``0 1 3 / 8 5 5 / 3 8 4`` reads 0,1,3,5,5,8,3,8,4 and scores a run
    of 6. Raises ValueError, in plain words, for anything that is not a grid of real card
    faces (a wild 7, a number 11, a purple card...). The same face twice is accepted: the
    book's own example needs two green 3s, which the deck does not have.
    """
    cards = _cells_of(grid)
    return _score([number for number, _ in cards], [COLOUR_BITS[colour] for _, colour in cards])


COLOUR_BITS = {"red": 1, "blue": 2, "green": 4, WILD: 7}
"""Each colour as a bit, a wild card as all three: three cards share a colour when the
bits of all three have one in common."""


def _score(numbers: list[int], colour_bits: list[int]) -> dict:
    """:func:`score_area` of nine real cards, given in row order as their numbers and
    their :data:`COLOUR_BITS`."""
    length = 1
    while length < CELLS and numbers[SNAKE[length]] >= numbers[SNAKE[length - 1]]:
        length += 1
    run = RUN_BONUS.get(length, length)
    lines = 0
    for a, b, c in LINES:  # a plain loop: the engine scores every area at every round end
        if colour_bits[a] & colour_bits[b] & colour_bits[c]:
            lines += POINTS_PER_LINE
    return {"run": run, "lines": lines, "total": run + lines}


def _cells_of(grid: Any) -> list[tuple[int, str]]:
    """The grid's nine cards as ``(number, colour)`` in row order; ValueError if malformed."""
    if not isinstance(grid, (list, tuple)) or len(grid) != 3:
        raise ValueError("an area must be a list of 3 rows of 3 cards")
    cells = []
    for r, row in enumerate(grid):
        if not isinstance(row, (list, tuple)) or len(row) != 3:
            raise ValueError(f"row {r + 1} of the area must be a list of 3 cards")
        for c, card in enumerate(row):
            where = f"the card at row {r + 1}, column {c + 1}"
            cells.append(_card_value(card, where))
    return cells


def _card_value(card: Any, where: str) -> tuple[int, str]:
    """``(number, colour)`` of a card given as ``{"n": ..., "color": ...}``; ValueError if it is no real card."""
    if not isinstance(card, dict) or "n" not in card or "color" not in card:
        raise ValueError(f'{where} must be an object like {{"n": 3, "color": "red"}}, not {card!r}')
    number, colour = card["n"], card["color"]
    if colour not in (*COLOURS, WILD):
        raise ValueError(f"{where} has the colour {colour!r}; the colours are red, blue, green and wild")
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= HIGHEST:
        raise ValueError(f"{where} has the number {number!r}; numbers are whole numbers from 0 to {HIGHEST}")
    if colour == WILD and number not in WILD_NUMBERS:
        raise ValueError(f"{where} is a wild {number}, but the only wild cards are 3, 4 and 5")
    return number, colour


# ---------------------------------------------------------------------------- the engine

ROUNDS = 2

COLOUR_JA = {"red": "赤", "blue": "青", "green": "緑", WILD: "灰（オールマイティ）"}

CARD = {
    **{f"{colour}-{n}": {"n": n, "color": colour} for colour in COLOURS for n in range(HIGHEST + 1)},
    **{f"{WILD}-{n}": {"n": n, "color": WILD} for n in WILD_NUMBERS},
}
"""Every card of the deck by id (``"red-0"`` … ``"green-10"``, ``"wild-3"`` … ``"wild-5"``): 36 cards."""

DECK = tuple(CARD)


def _card_view(card_id: str) -> dict:
    return {"id": card_id, **CARD[card_id]}


# Names for log and messages, made once: logging happens on every action of every playout.
CARD_EN = {card_id: f"{card['color']} {card['n']}" for card_id, card in CARD.items()}
CARD_JA = {card_id: f"{COLOUR_JA[card['color']]}の{card['n']}" for card_id, card in CARD.items()}
CELL_EN = tuple(f"row {cell // 3 + 1}, column {cell % 3 + 1}" for cell in range(CELLS))
CELL_JA = tuple(f"{cell // 3 + 1}行{cell % 3 + 1}列" for cell in range(CELLS))
SEATS = range(4)
"""Every seat a table can have (4 players at most)."""

ROW_COLUMN = tuple((cell // 3, cell % 3) for cell in range(CELLS))
"""Each cell's ``(row, column)``, as actions name it."""

CARD_NUMBER = {card_id: card["n"] for card_id, card in CARD.items()}
CARD_COLOUR_BITS = {card_id: COLOUR_BITS[card["color"]] for card_id, card in CARD.items()}


BOX = Box("meow-oracle", "Meow Oracle (オラクルカード)")
"""The box, which the scorer follows too."""


class MeowOracle(Game):
    """The rules engine. State keys besides the base's (seats index every per-seat list):

    ``round``     1 or 2                    ``start``     the round's start player
    ``turn``      whose turn it is          ``step``      "reveal", "give" or "place"
    ``down``      per seat, 9 cells: the id of the face-down card there, or None
    ``up``        per seat, 9 cells: the id of the face-up card there, or None
    ``aside``     per seat, the face-down cards set aside (their order means nothing)
    ``unused``    the face-down cards not dealt this round (2–3 players)
    ``revealed``  the cards the turn's player has revealed and not yet handed out
    ``owed``      the seats still to be handed a revealed card, once per card owed
    ``to_place``  per seat, the cards handed to it and not yet placed
    ``turns``     per seat, the turns it has finished this round
    ``wins``      per seat, the wins so far
    ``history``   one record per finished round: start player, final areas, points, wins

    Cells are numbered row by row from the owner's top left (0–8); actions name them
    ``[row, column]``.
    """

    id = "meow-oracle"
    title = {"en": "Meow Oracle", "ja": "オラクルカード"}
    box = BOX
    bot_module = ".bot"
    min_players = 2
    max_players = 4
    options = ()
    action_fields = {"reveal": (("cell", "from"),), "give": ("card", "to"), "place": ("card", "cell")}

    # ------------------------------------------------------------------ setup

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        state["wins"] = [0] * players
        state["history"] = []
        self._start_round(state, rng, round_number=1, start=self.first_seat(state))

    def _start_round(self, state: dict, rng: Rng, round_number: int, start: int) -> None:
        """Shuffle all 36 cards and deal 9 face down to each area; ``start`` goes first."""
        players = state["players"]
        deck = list(DECK)
        rng.shuffle(deck)
        state["round"] = round_number
        state["start"] = start
        state["turn"] = start
        state["step"] = "reveal"
        state["down"] = [deck[seat * CELLS:(seat + 1) * CELLS] for seat in range(players)]
        state["up"] = [[None] * CELLS for _ in range(players)]
        state["aside"] = [[] for _ in range(players)]
        state["unused"] = deck[players * CELLS:]
        state["revealed"] = []
        state["owed"] = []
        state["to_place"] = [[] for _ in range(players)]
        state["turns"] = [0] * players

    # ------------------------------------------------------------------ whose turn, what is legal

    def _to_act(self, state: dict) -> list[int]:
        if state["step"] == "place":
            return list(compress(SEATS, state["to_place"]))
        return [state["turn"]]

    def _reveal_count(self, state: dict, seat: int) -> int:
        """Cards to reveal on ``seat``'s turn (see :func:`_turn_size`)."""
        return _turn_size(state["players"], state["turns"][seat])

    def _recipients(self, state: dict, seat: int) -> list[int]:
        """Who is handed one revealed card, once per card: yourself, the next player and
        (3–4 players) the one after; 2 players: yourself and the opponent, and on your
        first turn yourself twice."""
        players = state["players"]
        following = (seat + 1) % players
        if players == 2:
            return [seat, seat, following] if state["turns"][seat] == 0 else [seat, following]
        return [seat, following, (seat + 2) % players]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        step = state["step"]
        if step == "reveal":
            actions = [{"type": "reveal", "cell": [row, column]} for row, column in _face_down(state["down"][seat])]
            if state["aside"][seat]:
                actions.append({"type": "reveal", "from": "aside"})
            return actions
        if step == "give":
            receivers = _receivers(state["owed"])
            return [{"type": "give", "card": card, "to": to} for card in state["revealed"] for to in receivers]
        up = state["up"][seat]
        return [
            {"type": "place", "card": card, "cell": [row, column]}
            for card in state["to_place"][seat]
            for row, column in _free(up)
        ]

    def random_action(self, state: dict, seat: int, randbelow) -> dict:
        # A playout takes one move of each list: draw first, then build only the move
        # drawn, in _legal_actions' order (each list is a product: cells, or cards by
        # receivers, or cards by free cells), instead of building every move to keep one.
        step = state["step"]
        if step == "reveal":
            cells = list(_face_down(state["down"][seat]))
            drawn = randbelow(len(cells) + (1 if state["aside"][seat] else 0))
            if drawn == len(cells):
                return {"type": "reveal", "from": "aside"}
            row, column = cells[drawn]
            return {"type": "reveal", "cell": [row, column]}
        if step == "give":
            receivers = list(_receivers(state["owed"]))
            drawn = randbelow(len(state["revealed"]) * len(receivers))
            card = state["revealed"][drawn // len(receivers)]
            return {"type": "give", "card": card, "to": receivers[drawn % len(receivers)]}
        cards = state["to_place"][seat]
        cells = list(_free(state["up"][seat]))
        drawn = randbelow(len(cards) * len(cells))
        row, column = cells[drawn % len(cells)]
        return {"type": "place", "card": cards[drawn // len(cells)], "cell": [row, column]}

    # ------------------------------------------------------------------ playing

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        if kind == "reveal":
            self._reveal(state, seat, action, rng)
        elif kind == "give":
            self._give(state, action["card"], action["to"])
        else:
            row, column = action["cell"]
            self._place(state, seat, action["card"], row * 3 + column, rng)

    def _reveal(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        if "cell" in action:
            row, column = action["cell"]
            cell = row * 3 + column
            down = _own(state, "down", seat)
            card = down[cell]
            down[cell] = None
        else:
            pile = _own(state, "aside", seat)
            card = pile.pop(rng.randbelow(len(pile)))  # a blind pick: nobody knows which is which
            cell = None
        revealed = state["revealed"] = [*state["revealed"], card]
        if self.keeps_log(state):
            self.log(state, *_reveal_words(seat, card, cell))
        if len(revealed) == self._reveal_count(state, seat):
            state["step"] = "give"
            state["owed"] = self._recipients(state, seat)

    def _give(self, state: dict, card: str, to: int) -> None:
        revealed = _own(state, "revealed")
        owed = _own(state, "owed")
        to_place = _own(state, "to_place")
        self._hand_over(state, revealed, owed, to_place, card, to)
        if owed and owed.count(owed[0]) == len(owed):
            # Only one player is still owed cards: the rest can only go to them.
            for card in revealed[:]:
                self._hand_over(state, revealed, owed, to_place, card, owed[0])
        if not revealed:
            state["step"] = "place"

    def _hand_over(self, state: dict, revealed: list, owed: list, to_place: list, card: str, to: int) -> None:
        """Hand ``card`` from ``revealed`` to ``to``, who is owed it: the three lists are
        this state's own (see :func:`_own`), the hands in ``to_place`` still shared."""
        revealed.remove(card)
        owed.remove(to)
        to_place[to] = [*to_place[to], card]
        if self.keeps_log(state):
            self.log(state, *_hand_over_words(state["turn"], card, to))

    def _place(self, state: dict, seat: int, card: str, cell: int, rng: Rng) -> None:
        to_place = _own(state, "to_place", seat)
        to_place.remove(card)
        covered = state["down"][seat][cell]
        if covered:
            _own(state, "down", seat)[cell] = None
            _own(state, "aside", seat).append(covered)
        _own(state, "up", seat)[cell] = card
        if self.keeps_log(state):
            self.log(state, *_place_words(seat, card, cell, bool(covered)))
        if not to_place and not any(state["to_place"]):
            self._end_turn(state, rng)

    def _end_turn(self, state: dict, rng: Rng) -> None:
        _own(state, "turns")[state["turn"]] += 1
        if None in chain.from_iterable(state["up"]):
            state["turn"] = (state["turn"] + 1) % state["players"]
            state["step"] = "reveal"
        else:
            self._end_round(state, rng)

    def _end_round(self, state: dict, rng: Rng) -> None:
        """Score every area, give the wins, then start round 2 or end the game."""
        players = state["players"]
        points = [_area_points(area) for area in state["up"]]
        totals = [p["total"] for p in points]
        won = round_wins(totals)
        wins = _own(state, "wins")
        for seat in range(players):
            wins[seat] += won[seat]
        if self.keeps_log(state):
            for seat in range(players):
                p = points[seat]
                self.log(
                    state,
                    f"Round {state['round']}: {seat_ref(seat)} scores {p['total']} "
                    f"(run {p['run']}, lines {p['lines']}) and takes {won[seat]} win(s)",
                    f"第{state['round']}ラウンド: {seat_ref(seat)}は{p['total']}点"
                    f"（並び{p['run']}点、ライン{p['lines']}点）で{won[seat]}勝",
                )
        state["history"] = [
            *state["history"],
            {
                "round": state["round"],
                "start": state["start"],
                "areas": [list(area) for area in state["up"]],
                "points": points,
                "wins": won,
            },
        ]
        if state["round"] == ROUNDS:
            self._end_game(state, totals)
            return
        start = next_start_player(totals, state["start"])
        self._start_round(state, rng, state["round"] + 1, start)
        if self.keeps_log(state):
            self.log(
                state,
                f"Round {state['round']} begins: {seat_ref(start)}, with the lowest total, starts",
                f"第{state['round']}ラウンド開始: 合計点がもっとも低い{seat_ref(start)}がスタートプレイヤー",
            )

    def _end_game(self, state: dict, last_totals: list[int]) -> None:
        wins = state["wins"]
        winners = game_winners(wins, last_totals)
        most = wins[winners[0]]
        if self.keeps_log(state):
            names = ", ".join(seat_ref(seat) for seat in winners)
            self.log(state, f"Game over: {names} won with {most} win{'' if most == 1 else 's'}",
                         f"ゲーム終了: 勝者は{names}（{most}勝）")
        en, ja = _summary(winners, wins, last_totals)
        self.finish(
            state,
            {
                "winners": winners,
                "scores": {str(seat): wins[seat] for seat in range(state["players"])},
                "totals": {
                    str(seat): [record["points"][seat]["total"] for record in state["history"]]
                    for seat in range(state["players"])
                },
                "summary": {"en": en, "ja": ja},
            },
        )

    # ------------------------------------------------------------------ explaining refusals

    def _is_legal(self, state: dict, seat: int, action: dict) -> bool:
        # Asked of the rules directly instead of looking the action up in _legal_actions:
        # a playout checks one action on every step.
        return self._problem(state, seat, action) is None

    def _explain(self, state: dict, seat: int, action: dict) -> Words:
        return self._problem(state, seat, action)

    def _problem(self, state: dict, seat: int, action: dict) -> Words | None:
        """Why the (well-shaped) ``action`` breaks the rules, naming the rule; None when it
        is legal. The one statement of what a single action must satisfy: _legal_actions
        lists exactly the actions this lets through (the tests check that the two agree).
        Each step is named after the one action type it takes."""
        kind = action["type"]
        if kind != state["step"]:
            now_en, now_ja = self._step_text(state)
            return f"you cannot {kind} now: {now_en}", f"いまは {kind!r} はできません：{now_ja}"
        if kind == "reveal":
            return self._reveal_problem(state, seat, action)
        if kind == "give":
            return self._give_problem(state, seat, action["card"], action["to"])
        return self._place_problem(state, seat, action["card"], action["cell"])

    def _step_text(self, state: dict) -> Words:
        """What the game is waiting for, in words."""
        turn = seat_ref(state["turn"])
        if state["step"] == "reveal":
            left = self._reveal_count(state, state["turn"]) - len(state["revealed"])
            return (
                f"{turn} is revealing cards ({left} more to reveal)",
                f"{turn}がカードを表にしているところです(あと{left}枚)",
            )
        if state["step"] == "give":
            return f"{turn} is handing out the revealed cards", f"{turn}が表にしたカードを配っているところです"
        return "the handed-out cards are being placed", "配られたカードをエリアに置いているところです"

    def _reveal_problem(self, state: dict, seat: int, action: dict) -> Words | None:
        if "from" in action:
            if action["from"] != "aside":
                return (
                    f'"from" can only be "aside" (your set-aside pile), not {action["from"]!r}',
                    f'"from" には "aside"(横によけたカード)しか入れられません({action["from"]!r} は使えません)',
                )
            if not state["aside"][seat]:
                return (
                    "rule 1: your set-aside pile is empty, so there is nothing to reveal from it",
                    "ルール1：横によけたカードがないので、そこから表にするカードはありません",
                )
            return None
        cell, problem = _parse_cell(action["cell"])
        if problem:
            return problem
        if state["down"][seat][cell]:
            return None
        if state["up"][seat][cell] is not None:
            return (
                f"rule 1: the card at {CELL_EN[cell]} is already face up; reveal a face-down card",
                f"ルール1：{CELL_JA[cell]}のカードはもう表向きです。裏向きのカードを選んでください",
            )
        return (
            f"the cell at {CELL_EN[cell]} is empty: there is no face-down card there to reveal",
            f"{CELL_JA[cell]}は空いています：表にする裏向きのカードがありません",
        )

    def _give_problem(self, state: dict, seat: int, card: Any, to: Any) -> Words | None:
        if type(card) is not str or card not in state["revealed"]:
            waiting_en = ", ".join(CARD_EN[c] for c in state["revealed"])
            waiting_ja = "、".join(CARD_JA[c] for c in state["revealed"])
            return (
                f"{card!r} is not among the revealed cards waiting to be handed out ({waiting_en})",
                f"{card!r} は配るのを待っている公開したカード({waiting_ja})の中にありません",
            )
        players = state["players"]
        if type(to) is not int or not 0 <= to < players:
            return (
                f'"to" must be a seat number from 0 to {players - 1}, not {to!r}',
                f'"to" には0から{players - 1}までの席番号を入れてください({to!r} は使えません)',
            )
        if to in state["owed"]:
            return None
        who = seat_ref(to)
        if to not in self._recipients(state, seat):  # only with 4 players: the seat before you
            return (
                f"rule 2: the revealed cards go to yourself, the next player and the one after; "
                f"{who} receives none on this turn",
                f"ルール2：公開したカードは自分、時計回りに次のプレイヤー、その次のプレイヤーに渡します。"
                f"この手番で{who}には渡しません",
            )
        return (
            f"rule 2: {who} has already been handed all the cards owed this turn",
            f"ルール2：{who}にはこの手番で渡す分をもう渡しました",
        )

    def _place_problem(self, state: dict, seat: int, card: Any, cell: Any) -> Words | None:
        mine = state["to_place"][seat]
        if type(card) is not str or card not in mine:
            return (
                f"you have no {card!r} to place (yours: {', '.join(CARD_EN[c] for c in mine)})",
                f"置くカードに {card!r} はありません(あなたが置くカード: {'、'.join(CARD_JA[c] for c in mine)})",
            )
        cell, problem = _parse_cell(cell)
        if problem:
            return problem
        if state["up"][seat][cell] is None:
            return None
        return (
            f"rule 3: a card may not go on a face-up card, and {CELL_EN[cell]} holds one",
            f"ルール3：表向きのカードの場所には置けません。{CELL_JA[cell]}には表向きのカードがあります",
        )

    # ------------------------------------------------------------------ views

    def _public_view(self, state: dict) -> dict:
        over = state["result"] is not None
        step = "over" if over else state["step"]
        reveal_left = self._reveal_count(state, state["turn"]) - len(state["revealed"]) if step == "reveal" else 0
        players = state["players"]
        return {
            "round": state["round"],
            "rounds": ROUNDS,
            "step": step,
            "start_player": state["start"],
            "turn": state["turn"],
            "reveal_left": reveal_left,
            "revealed": [_card_view(card) for card in state["revealed"]],
            "owed": [state["owed"].count(seat) for seat in range(players)],
            "to_place": [[_card_view(card) for card in cards] for cards in state["to_place"]],
            "areas": [_area_view(state["down"][seat], state["up"][seat]) for seat in range(players)],
            "aside": [len(pile) for pile in state["aside"]],
            "unused": len(state["unused"]),
            "wins": list(state["wins"]),
            "history": [
                {
                    "round": record["round"],
                    "start_player": record["start"],
                    "areas": [_grid(area) for area in record["areas"]],
                    "points": [dict(points) for points in record["points"]],
                    "wins": list(record["wins"]),
                }
                for record in state["history"]
            ],
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        # Nothing is private: face-down cards are hidden from their owner too.
        return {}

    # ------------------------------------------------------------------ test hooks and copying

    def start_player(self, state: dict) -> int:
        """The first round's start player (each round records its own)."""
        return state["history"][0]["start"] if state["history"] else state["start"]

    def _components(self, state: dict) -> list:
        found = [card for area in state["down"] for card in area if card]
        found += [card for area in state["up"] for card in area if card]
        for pile in state["aside"]:
            found += pile
        for cards in state["to_place"]:
            found += cards
        return found + state["unused"] + state["revealed"]

    def _hidden(self, state: dict, seat: int | None) -> list[Hidden]:
        """Face-down cards are hidden from every seat alike: the areas' face-down cards, the
        set-aside piles and the unused cards, whoever ``seat`` is."""
        places = [Place(("down", area, cell)) for area, cards in enumerate(state["down"])
                  for cell in range(CELLS) if cards[cell]]
        places += [Place(("aside", area)) for area in range(len(state["aside"]))]
        return [Hidden((*places, Place(("unused",))), cards=DECK)]

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        public, players = view["public"], view["players"]
        cells = [[cell for row in area for cell in row] for area in public["areas"]]
        turn = public["turn"]
        state["turns"] = turns = _turns_done(public, players)
        still = list(public["owed"])
        owed = []
        for seat in self._recipients(state, turn):
            if still[seat]:
                owed.append(seat)
                still[seat] -= 1
        state.update(
            round=public["round"],
            start=public["start_player"],
            turn=turn,
            step=public["step"],
            up=[[cell["id"] if cell and cell["face"] == "up" else None for cell in area] for area in cells],
            down=[[UNSEEN if cell and cell["face"] == "down" else None for cell in area] for area in cells],
            aside=[[UNSEEN] * count for count in public["aside"]],
            unused=[UNSEEN] * public["unused"],
            revealed=[card["id"] for card in public["revealed"]],
            owed=owed,
            to_place=[[card["id"] for card in cards] for cards in public["to_place"]],
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

    def _copy(self, state: dict) -> dict:
        """A copy that shares every value with ``state``: the engine changes no list of the
        state in place before taking its own copy (see :func:`_own`; the base replaces the
        log), so an action copies only what it changes."""
        return dict(state)


def _turn_size(players: int, turns_done: int) -> int:
    """Cards a turn reveals and hands out (RULINGS §2): 3; with 2 players 2, except 3 on a
    seat's first turn of the round."""
    return 2 if players == 2 and turns_done > 0 else 3


def _turns_done(public: dict, players: int) -> list[int]:
    """The turns each seat has finished this round, counted back from the cards handed out
    (the engine keeps the count; the view shows only the cards)."""
    handed = sum(cell.get("face") == "up" for area in public["areas"] for row in area for cell in row if cell)
    handed += sum(len(cards) for cards in public["to_place"]) + len(public["revealed"])
    turns = [0] * players
    seat, done = public["start_player"], 0
    while True:
        size = _turn_size(players, turns[seat])
        if public["step"] == "reveal" and done == handed - len(public["revealed"]):
            break
        if public["step"] != "reveal" and done + size == handed:
            break
        if done > handed:
            raise ValueError("this Meow Oracle view does not add up: its cards match no number of finished turns")
        done += size
        turns[seat] += 1
        seat = (seat + 1) % players
    if seat != public["turn"]:
        raise ValueError("this Meow Oracle view does not add up: the cards handed out do not lead to the seat on turn")
    return turns


def _face_down(down: list) -> compress:
    """The (row, column) of the cells of an area that still hold a face-down card."""
    return compress(ROW_COLUMN, down)


def _free(up: list) -> compress:
    """The (row, column) of the cells of an area without a face-up card."""
    return compress(ROW_COLUMN, map(not_, up))


def _receivers(owed: list[int]) -> dict[int, None]:
    """The seats still owed a revealed card, each once, in the order they are owed: the keys
    of a dict."""
    return dict.fromkeys(owed)


def _own(state: dict, key: str, seat: int | None = None) -> list:
    """``state[key]`` (with a seat: ``state[key][seat]``), first replaced by a copy that
    this state may change without touching the state it was copied from (copy on write:
    see MeowOracle._copy)."""
    mine = state[key] = state[key][:]
    if seat is None:
        return mine
    inner = mine[seat] = mine[seat][:]
    return inner


@cache
def _reveal_words(seat: int, card: str, cell: int | None) -> Words:
    """The log line of ``seat`` revealing ``card`` from ``cell`` (None: from its set-aside
    pile). Cached, like the other log lines below (a few thousand lines at most: one per
    seat, card and place): a playout logs every action."""
    if cell is None:
        where_en, where_ja = "from their set-aside pile", "よけたカードから"
    else:
        where_en, where_ja = f"from {CELL_EN[cell]}", f"{CELL_JA[cell]}から"
    who = seat_ref(seat)
    return f"{who} reveals {CARD_EN[card]} ({where_en})", f"{who}が{CARD_JA[card]}を公開（{where_ja}）"


@cache
def _hand_over_words(giver: int, card: str, to: int) -> Words:
    """The log line of ``giver`` keeping ``card`` or giving it to ``to``."""
    who = seat_ref(giver)
    if to == giver:
        return f"{who} keeps {CARD_EN[card]}", f"{who}は{CARD_JA[card]}を自分に"
    return f"{who} gives {CARD_EN[card]} to {seat_ref(to)}", f"{who}が{CARD_JA[card]}を{seat_ref(to)}に渡す"


@cache
def _place_words(seat: int, card: str, cell: int, covered: bool) -> Words:
    """The log line of ``seat`` placing ``card`` at ``cell``, on a face-down card when ``covered``."""
    who = seat_ref(seat)
    aside_en = " and sets the face-down card there aside" if covered else ""
    aside_ja = "（裏向きのカードは横によける）" if covered else ""
    return (
        f"{who} places {CARD_EN[card]} at {CELL_EN[cell]}{aside_en}",
        f"{who}が{CARD_JA[card]}を{CELL_JA[cell]}に置く{aside_ja}",
    )


def _area_points(area: list) -> dict:
    """:func:`score_area` of a finished area given as its nine face-up card ids."""
    return _score(list(map(CARD_NUMBER.__getitem__, area)), list(map(CARD_COLOUR_BITS.__getitem__, area)))


def _grid(area: list) -> list[list[dict]]:
    """Nine face-up card ids as a 3 × 3 grid of card views (with their ids), top row first."""
    return [[_card_view(area[row * 3 + column]) for column in range(3)] for row in range(3)]


def _area_view(down: list, up: list) -> list[list]:
    """An area as its owner sees it: None (empty), {"face": "down"}, or a face-up card."""

    def cell_view(cell: int):
        if up[cell] is not None:
            return {"face": "up", **_card_view(up[cell])}
        if down[cell] is not None:
            return {"face": "down"}
        return None

    return [[cell_view(row * 3 + column) for column in range(3)] for row in range(3)]


def round_wins(totals: list[int]) -> list[int]:
    """Each seat's wins for a round: one per neighbour (left and right; with 2 players the
    single opponent, compared once) whose total it beats or ties."""
    players = len(totals)
    return [
        sum(1 for other in {(seat - 1) % players, (seat + 1) % players} if totals[seat] >= totals[other])
        for seat in range(players)
    ]


def game_winners(wins: list[int], last_totals: list[int]) -> list[int]:
    """Most wins; a tie goes to the higher total of the last round; still tied, all share the win."""
    best = max(zip(wins, last_totals))
    return [seat for seat in range(len(wins)) if (wins[seat], last_totals[seat]) == best]


def next_start_player(totals: list[int], start: int) -> int:
    """The lowest total starts; among tied players, the first met going clockwise from the
    current start player's left neighbour, the current start player coming last."""
    players = len(totals)
    order = [(start + 1 + step) % players for step in range(players)]
    lowest = min(totals)
    return next(seat for seat in order if totals[seat] == lowest)


def _parse_cell(value: Any) -> tuple[int | None, Words | None]:
    """``(cell number, None)`` for a ``[row, column]`` inside the area, else ``(None, why not)``."""
    if type(value) is list and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        row, column = value
        if 0 <= row < 3 and 0 <= column < 3:
            return row * 3 + column, None
        return None, (
            f"the cell {value} is outside the 3 × 3 area (rows and columns are 0, 1 and 2)",
            f"マス {value} は3×3のエリアの外です(行と列は0、1、2)",
        )
    return None, (
        f"a cell is [row, column] with whole numbers 0 to 2, not {value!r}",
        f"マスは [行, 列] を0から2の整数で指定してください({value!r} は使えません)",
    )


def _summary(winners: list[int], wins: list[int], last_totals: list[int]) -> Words:
    """The result in a sentence or two: the most wins and, when several seats tied on them,
    what the round-2 total decided (a win for the highest, or a shared win)."""
    most = wins[winners[0]]
    best = last_totals[winners[0]]
    wins_en = f"{most} win{'' if most == 1 else 's'}"
    tied = [seat for seat, count in enumerate(wins) if count == most]
    who_en, who_ja = seat_list(winners)
    if len(tied) == 1:
        return f"{who_en} wins with {wins_en}.", f"{who_ja}が{most}勝で勝ちました。"
    tied_en, tied_ja = seat_list(tied)
    beaten = [seat for seat in tied if seat not in winners]
    if not beaten:
        return (
            f"{tied_en} tied on {wins_en} and on their round-2 totals of {best}, and share the win.",
            f"{tied_ja}が{most}勝で並び、2ラウンド目の合計点も{best}点で同じなので、ともに勝者です。",
        )
    beaten_en = " and ".join(f"{seat_ref(seat)}'s {last_totals[seat]}" for seat in beaten)
    beaten_ja = "、".join(f"{seat_ref(seat)}の{last_totals[seat]}点" for seat in beaten)
    if len(winners) == 1:
        return (
            f"{tied_en} tied on {wins_en}; {who_en}'s round-2 total of {best} beat {beaten_en}.",
            f"{tied_ja}が{most}勝で並び、2ラウンド目の合計点{best}点で{beaten_ja}を上回った{who_ja}の勝ちです。",
        )
    return (
        f"{tied_en} tied on {wins_en}; {who_en} share the win with round-2 totals of {best}, beating {beaten_en}.",
        f"{tied_ja}が{most}勝で並び、2ラウンド目の合計点{best}点で{beaten_ja}を上回った{who_ja}がともに勝者です。",
    )


GAME = MeowOracle()
