"""SWAP 5: line up your colour on a 5 × 5 board by swapping pieces and whole rows.

Rules: ``/work/shared/seeds/swap5.ja.txt`` as settled by RULINGS.md §3; the rules as
implemented, with the action and view shapes, are in ``docs/rules/swap5.md``.

The board is a 25-character string, row 1 first and column A first inside each row, one
character per cell: ``R`` red, ``G`` green, ``Y`` yellow, ``B`` blue, ``.`` empty. Cell
``i`` of the string is named by its column letter and row number (``A1`` is 0, ``E1``
is 4, ``A2`` is 5 ... ``E5`` is 24), the names actions and views use.

The physical board is the mirror of this one: players move the real pieces and tap the
same move on a phone. So after every move the engine says whose score changed and which
runs (the cells of each line) made or broke it.

What the book leaves to lost figures (the back side's diagonal links, the points per
run length) is read from ``board.json``, so an owner of the game can correct it
without touching this file. The default fair layout lives there too.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import re
from collections import Counter
from pathlib import Path

from ..base import UNSEEN, Box, Game, Hidden, Option, Place, Words, seat_list, seat_ref
from ..rng import Rng

SIZE = 5
COLUMNS = "ABCDE"
ROWS = "12345"
COLOURS = "RGYB"
EMPTY = "."
PIECES_PER_COLOUR = 5
EMPTY_CELLS = SIZE * SIZE - len(COLOURS) * PIECES_PER_COLOUR
WINNING_SCORE = 5
"""Reaching this many points ends the game at once (the book: 5点以上)."""
TRUMPS_PER_PLAYER = 2

COLOUR_NAMES = {"R": ("red", "赤"), "G": ("green", "緑"), "Y": ("yellow", "黄"), "B": ("blue", "青")}

CELLS = tuple(column + row for row in ROWS for column in COLUMNS)
"""Cell names by board index: CELLS[0] == "A1", CELLS[4] == "E1", CELLS[24] == "E5"."""
CELL_INDEX = {name: index for index, name in enumerate(CELLS)}

OWNED_COLOURS = {
    4: (("R",), ("G",), ("Y",), ("B",)),
    # With two players each owns two colours that sit opposite each other in the turn of
    # the board (a half turn of the fair layout maps red onto yellow and green onto blue),
    # so the fair layout stays fair: each player's position is the other's turned round.
    2: (("R", "Y"), ("G", "B")),
}
"""Colours owned by each seat, per player count."""
_OWNER = {
    players: {colour: seat for seat, owned in enumerate(seats) for colour in owned}
    for players, seats in OWNED_COLOURS.items()
}
"""The seat owning each colour, per player count."""

def _load_data() -> dict:
    """The assumed parts of the game, from board.json (see its ``_assumed`` note)."""
    return json.loads((Path(__file__).parent / "board.json").read_text(encoding="utf-8"))


_DATA = _load_data()

RUN_POINTS = {int(length): points for length, points in _DATA["run_points"].items()}
"""Points scored by one maximal straight run of one colour, by its length (assumed)."""
SHORTEST_SCORING_RUN = min(length for length, points in RUN_POINTS.items() if points)


def _index(column: int, row: int) -> int:
    return row * SIZE + column


def _orthogonal_neighbours(index: int) -> list[int]:
    row, column = divmod(index, SIZE)
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    return [
        _index(column + dc, row + dr)
        for dr, dc in steps
        if 0 <= row + dr < SIZE and 0 <= column + dc < SIZE
    ]


def _back_diagonal_links() -> list[tuple[int, int]]:
    """The back side's diagonal links from the data file, as pairs of board indices."""
    links = []
    for link in _DATA["back_diagonals"]:
        first, second = (CELL_INDEX[name] for name in link.split("-"))
        (r1, c1), (r2, c2) = divmod(first, SIZE), divmod(second, SIZE)
        if abs(r1 - r2) != 1 or abs(c1 - c2) != 1:
            raise ValueError(f"board.json: back_diagonals entry {link!r} does not join diagonal neighbours")
        links.append((first, second))
    return links


BACK_DIAGONALS = _back_diagonal_links()

NEIGHBOURS = {
    "front": tuple(tuple(sorted(_orthogonal_neighbours(i))) for i in range(SIZE * SIZE)),
    "back": tuple(
        tuple(
            sorted(
                _orthogonal_neighbours(i)
                + [b for a, b in BACK_DIAGONALS if a == i]
                + [a for a, b in BACK_DIAGONALS if b == i]
            )
        )
        for i in range(SIZE * SIZE)
    ),
}
"""For each side of the board, the cells a piece on each cell may swap or move with."""

_STEPS = {
    side: tuple(
        tuple(
            (
                other,
                {"type": "move", "from": CELLS[index], "to": CELLS[other]},
                {"type": "swap", "from": CELLS[index], "to": CELLS[other]},
            )
            for other in cells
        )
        for index, cells in enumerate(table)
    )
    for side, table in NEIGHBOURS.items()
}
"""NEIGHBOURS with the move and the swap to each neighbour as actions, for _legal_actions
to copy (a dict's copy costs half a new dict): never hand these out themselves."""


def _lines() -> tuple[tuple[int, ...], ...]:
    """Every straight line a run can lie on: rows, columns and both diagonal directions,
    keeping only the lines long enough to hold a scoring run."""
    lines = [tuple(_index(c, r) for c in range(SIZE)) for r in range(SIZE)]
    lines += [tuple(_index(c, r) for r in range(SIZE)) for c in range(SIZE)]
    for offset in range(-(SIZE - 1), SIZE):
        lines.append(tuple(_index(r + offset, r) for r in range(SIZE) if 0 <= r + offset < SIZE))  # ↘
        lines.append(tuple(_index(SIZE - 1 - r + offset, r) for r in range(SIZE) if 0 <= SIZE - 1 - r + offset < SIZE))  # ↙
    return tuple(line for line in lines if len(line) >= SHORTEST_SCORING_RUN)


LINES = _lines()

# Scoring reads the board line by line: each line is a slice of the board string, and a
# table made at import gives the runs of every text a line can hold. Speed matters: bots
# and the random playouts score the board after every move.
_RUN = re.compile("([%s])\\1{%d,}" % (COLOURS, SHORTEST_SCORING_RUN - 1))


def line_slice(line: tuple[int, ...]) -> slice:
    """A line's cells as a slice of the board string (every line is evenly spaced)."""
    step = line[1] - line[0]
    if any(later - earlier != step for earlier, later in zip(line, line[1:])):
        raise ValueError(f"line {line} is not evenly spaced")
    return slice(line[0], line[-1] + 1, step)


def _line_runs() -> dict[str, tuple[tuple[str, int, int], ...]]:
    """The scoring runs of every text a line can hold that has any, as ``(colour, start,
    end)`` inside the line's text; a text without a scoring run is not listed."""
    table = {}
    for length in {len(line) for line in LINES}:
        for pieces in itertools.product(COLOURS + EMPTY, repeat=length):
            text = "".join(pieces)
            runs = tuple(
                (match.group(1), match.start(), match.end())
                for match in _RUN.finditer(text)
                if RUN_POINTS.get(match.end() - match.start(), 0)
            )
            if runs:
                table[text] = runs
    return table


LINE_RUNS = _line_runs()
"""The scoring runs of every text a line can hold, as ``(colour, start, end)`` inside the
text (texts without one are not listed). Public: the two-player bot's search
(:mod:`.search`) scores its boards with the engine's own tables."""
LINE_SLICES = tuple((line_slice(line), line) for line in LINES)
"""Every line as (its slice of the board string, its cells)."""


def _lines_through_steps() -> dict[tuple[str, str], tuple[slice, ...]]:
    """For each step a swap or move can take (from, to), on either side of the board, the
    lines through either cell as slices: the only lines whose runs the step can change."""
    through = [[line for line, cells in LINE_SLICES if index in cells] for index in range(SIZE * SIZE)]
    steps = {}
    for index, neighbours in enumerate(NEIGHBOURS["back"]):  # the back's steps include the front's
        for other in neighbours:
            lines = through[index] + [line for line in through[other] if line not in through[index]]
            steps[CELLS[index], CELLS[other]] = tuple(lines)
    return steps


LINES_THROUGH_STEP = _lines_through_steps()
"""For each step (from cell, to cell), the slices of the lines whose runs it can change."""


def _same_runs(before: str, after: str, lines: tuple[slice, ...]) -> bool:
    """Whether ``before`` and ``after`` have the same runs on ``lines``."""
    runs_of = LINE_RUNS.get
    for line in lines:
        if runs_of(before[line]) != runs_of(after[line]):
            return False
    return True


def _trump_cards() -> dict[str, tuple[int, ...]]:
    """The 10 trump cards (book: 1↔2 ... 5↔1, A↔B ... E↔A), each as the permutation
    that plays it: the new board's cell i holds the old board's cell ``perm[i]``."""
    cards = {}
    for first in range(SIZE):
        second = (first + 1) % SIZE
        rows = list(range(SIZE))
        rows[first], rows[second] = second, first
        cards[f"row-{ROWS[first]}-{ROWS[second]}"] = tuple(
            _index(c, rows[r]) for r in range(SIZE) for c in range(SIZE)
        )
    for first in range(SIZE):
        second = (first + 1) % SIZE
        columns = list(range(SIZE))
        columns[first], columns[second] = second, first
        cards[f"col-{COLUMNS[first]}-{COLUMNS[second]}"] = tuple(
            _index(columns[c], r) for r in range(SIZE) for c in range(SIZE)
        )
    return cards


TRUMP_CARDS = _trump_cards()
_DEALT_ORDER = tuple(sorted(TRUMP_CARDS))  # the order resample deals unseen cards from
_TRUMPED_CELLS = {card: operator.itemgetter(*cells) for card, cells in TRUMP_CARDS.items()}


def trumped(board: str, card: str) -> str:
    """``board`` (a board string) after the trump card ``card``: its two rows or columns
    exchanged. The bots' searches call this often: itemgetter reads the cells at three
    times a generator's speed."""
    return "".join(_TRUMPED_CELLS[card](board))


def board_after(board: str, action: dict) -> str:
    """``board`` after a legal ``action``: a swap or a move (two cells exchanged) or a
    trump card."""
    if action["type"] == "trump":
        return trumped(board, action["card"])
    cells = list(board)
    a, b = CELL_INDEX[action["from"]], CELL_INDEX[action["to"]]
    cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


# ---------------------------------------------------------------------- scoring


@functools.lru_cache(maxsize=1024)
def _runs(board: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every maximal straight run of one colour that scores, as ``(colour, cells)``.

    Cached: the board of a move that made or broke a run is scored again as the start
    of the next such move, and by every view of it."""
    return tuple(
        (colour, cells[start:end])
        for line, cells in LINE_SLICES
        for colour, start, end in LINE_RUNS.get(board[line], ())
    )


def _colour_scores(runs: tuple[tuple[str, tuple[int, ...]], ...]) -> dict[str, int]:
    scores = dict.fromkeys(COLOURS, 0)
    for colour, cells in runs:
        scores[colour] += RUN_POINTS[len(cells)]
    return scores


def seat_scores(board: str, players: int) -> tuple[int, ...]:
    """Each seat's score on ``board`` (the board string, as in the state): the sum of its
    colours' scores. Unchecked, unlike :func:`score_board`: the bots score every move they
    weigh with it."""
    scores = [0] * players
    owner = _OWNER[players]
    for colour, cells in _runs(board):
        scores[owner[colour]] += RUN_POINTS[len(cells)]
    return tuple(scores)


def score_board(rows) -> dict[str, int]:
    """The score of each colour on a board given as 5 strings of 5 characters from
    ``R G Y B .`` (row 1 first, column A first), e.g.::

        score_board(["RRR..", ".....", ".....", ".....", "....."]) == {"R": 1, "G": 0, "Y": 0, "B": 0}

    Any mix of pieces is accepted (this scores a position, it does not check a setup).
    ValueError, saying what is wrong, for anything else.
    """
    if not isinstance(rows, (list, tuple)) or len(rows) != SIZE:
        raise ValueError(f"a board is a list of {SIZE} rows, each a string of {SIZE} characters")
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, str) or len(row) != SIZE:
            raise ValueError(f"row {number} must be a string of {SIZE} characters, not {row!r}")
        for column, piece in zip(COLUMNS, row):
            if piece not in COLOURS + EMPTY:
                raise ValueError(f"{piece!r} at {column}{number} is not a piece: use R, G, Y, B or . (empty)")
    return _colour_scores(_runs("".join(rows)))


# ---------------------------------------------------------------------- layouts


def parse_layout(text) -> str:
    """A typed-in starting layout as a board string; ValueError naming what is wrong.

    ``text`` is 25 characters, or 5 rows of 5 joined by ``/`` (``".RBR./BYGBG/..."``),
    from ``R G Y B .`` (letters in either case), with 5 pieces of each colour and 5 empty cells.
    """
    if not isinstance(text, str):
        raise ValueError(f"a typed layout must be text such as '.RBR./BYGBG/YR.YR/BGBRG/.YGY.', not {text!r}")
    if "/" in text:
        rows = text.split("/")
        if len(rows) != SIZE:
            raise ValueError(f"a typed layout needs {SIZE} rows joined by '/', not {len(rows)}")
        for number, row in enumerate(rows, start=1):
            if len(row) != SIZE:
                raise ValueError(f"row {number} of the typed layout has {len(row)} cells, not {SIZE}")
        text = "".join(rows)
    elif len(text) != SIZE * SIZE:
        raise ValueError(
            f"a typed layout needs {SIZE * SIZE} cells (or {SIZE} rows of {SIZE} joined by '/'), not {len(text)}"
        )
    board = text.upper()
    for index, piece in enumerate(board):
        if piece not in COLOURS + EMPTY:
            raise ValueError(f"{text[index]!r} at {CELLS[index]} is not a piece: use R, G, Y, B or . (empty)")
    counts = Counter(board)
    wrong = [
        f"{counts[colour]} {COLOUR_NAMES[colour][0]}"
        for colour in COLOURS
        if counts[colour] != PIECES_PER_COLOUR
    ]
    if counts[EMPTY] != EMPTY_CELLS:
        wrong.append(f"{counts[EMPTY]} empty")
    if wrong:
        raise ValueError(
            f"the typed layout has {', '.join(wrong)}: it needs {PIECES_PER_COLOUR} pieces of each colour "
            f"and {EMPTY_CELLS} empty cells"
        )
    return board


FAIR_LAYOUT = parse_layout("/".join(_DATA["fair_layout"]))


def _random_layout(rng: Rng) -> str:
    """A shuffled layout in which no colour starts with a scoring run (drawn again until
    so: a layout that starts with points would hand them out for free)."""
    pieces = list(COLOURS * PIECES_PER_COLOUR + EMPTY * EMPTY_CELLS)
    while True:
        rng.shuffle(pieces)
        board = "".join(pieces)
        if not _runs(board):
            return board


def _typed_layout_problem(value) -> Words | None:
    if value == "":
        return None
    try:
        parse_layout(value)
    except ValueError as error:
        return f"option 'typed_layout': {error}", f"設定 'typed_layout'（入力した配置）を読めません: {error}"
    return None


# ---------------------------------------------------------------------- words


def _colour_words(colours) -> tuple[str, str]:
    return (" and ".join(COLOUR_NAMES[c][0] for c in colours), "と".join(COLOUR_NAMES[c][1] for c in colours))


def _run_words(colour: str, cells) -> tuple[str, str]:
    names = " ".join(CELLS[i] for i in cells)
    return f"{COLOUR_NAMES[colour][0]} {names}", f"{COLOUR_NAMES[colour][1]} {names}"


def _trump_words(card: str) -> Words:
    """A trump card as people name it: ``col-E-A`` is "the column swap E <-> A" / 「E列とA列の入れ替え」."""
    kind, first, second = card.split("-")
    if kind == "row":
        return f"the row swap {first} <-> {second}", f"{first}行目と{second}行目の入れ替え"
    return f"the column swap {first} <-> {second}", f"{first}列と{second}列の入れ替え"


def _cards_words(cards) -> Words:
    """Trump cards in words, joined: "the row swap 1 <-> 2 and the column swap E <-> A"."""
    names = [_trump_words(card) for card in cards]
    if not names:
        return "none", "なし"
    english = [en for en, _ in names]
    joined = english[0] if len(english) == 1 else ", ".join(english[:-1]) + " and " + english[-1]
    return joined, "と".join(f"「{ja}」" for _, ja in names)


@functools.cache
def _welcome_words(colours: tuple[str, ...], cards: tuple[str, ...]) -> Words:
    """A seat's own first log line: its colours and trump cards. Cached: there are a few
    hundred, and every game's setup words one per seat."""
    colours_en, colours_ja = _colour_words(colours)
    cards_en, cards_ja = _cards_words(cards)
    return (
        f"New game. You play {colours_en}; your trump cards: {cards_en}.",
        f"新しいゲーム。あなたの色は{colours_ja}、トランプカードは{cards_ja}。",
    )


_ALL_SWAPS = tuple(
    ", ".join(f"{first} <-> {second}" for kind, first, second in (card.split("-") for card in TRUMP_CARDS) if kind == wanted)
    for wanted in ("row", "col")
)
"""The pairs the trump cards swap, rows then columns, as the refusal of an unknown card lists them."""

_LAYOUT_JA = {"fair": "公平な配置", "random": "ランダムな配置", "typed": "入力した配置"}


# ---------------------------------------------------------------------- the game


class Swap5(Game):
    """SWAP 5 for 2 or 4 players. The state, beyond the base keys::

        board      the 25-character board string (see the module docstring)
        turn       the seat to act (while playing)
        hands      seat -> its unplayed trump cards, sorted (secret to that seat)
        out        the trump cards nobody was dealt, sorted (secret to everyone)
        played     [{"seat", "card"}] trump cards played, in order (public)
        final_lap  None, or {"trigger": seat who played their last trump card,
                   "remaining": seats still to take their last turn, in order}
        last_move  None, or what the last move did (see _describe_move)
    """

    id = "swap5"
    title = {"en": "SWAP 5", "ja": "SWAP 5"}
    box = Box("swap5", "SWAP 5")
    bot_module = ".bot"
    min_players = 2
    max_players = 4
    player_counts = (2, 4)  # one colour each, or two each: three players cannot share four colours
    action_fields = {"swap": ("from", "to"), "move": ("from", "to"), "trump": ("card",)}
    options = (
        Option(
            "board",
            "front",
            {"en": "Board side", "ja": "ボードの面"},
            choices=("front", "back"),
            help={
                "en": "front: pieces swap with orthogonal neighbours; back: also along the diagonal lines",
                "ja": "表: 縦横の隣とスワップ。裏: 斜めの線に沿ってもスワップできる",
            },
        ),
        Option(
            "direction",
            "clockwise",
            {"en": "Turn direction", "ja": "手番の向き"},
            choices=("clockwise", "counterclockwise"),
            help={"en": "clockwise passes the turn to the left", "ja": "時計回りは左隣へ手番を渡す"},
        ),
        Option(
            "layout",
            "fair",
            {"en": "Starting layout", "ja": "駒の初期配置"},
            choices=("fair", "random", "typed"),
            help={
                "en": "fair: the same pattern for every colour; random: shuffled from the seed; typed: the typed layout",
                "ja": "fair: 全色が同じ構図 / random: シードから無作為 / typed: 入力した配置",
            },
        ),
        Option(
            "typed_layout",
            "",
            {"en": "Typed layout", "ja": "入力する配置"},
            check=_typed_layout_problem,
            help={
                "en": "with layout 'typed': 5 rows of R G Y B . joined by '/', row 1 first, column A first",
                "ja": "配置 typed のとき: R G Y B . を5文字ずつ5行、'/' でつなぐ (1行目から、A列から)",
            },
        ),
    )

    # ------------------------------------------------------------------ setup

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        options = state["options"]
        if options["layout"] == "typed":
            if options["typed_layout"] == "":
                raise ValueError("layout 'typed' needs the layout itself in option 'typed_layout'")
            board = parse_layout(options["typed_layout"])
        elif options["typed_layout"] != "":
            raise ValueError(f"option 'typed_layout' is only used with layout 'typed', not {options['layout']!r}")
        elif options["layout"] == "random":
            board = _random_layout(rng)
        else:
            board = FAIR_LAYOUT
        scores = seat_scores(board, players)
        if max(scores) >= WINNING_SCORE:
            seat = scores.index(max(scores))
            raise ValueError(
                f"in this layout seat {seat + 1} already has {scores[seat]} points: "
                f"the game would be over before it starts"
            )

        deck = sorted(TRUMP_CARDS)
        rng.shuffle(deck)
        hands = {str(s): sorted(deck[s * TRUMPS_PER_PLAYER : (s + 1) * TRUMPS_PER_PLAYER]) for s in range(players)}
        first = self.first_seat(state)  # the book lets the players choose: who slipped last, the last winner...
        state.update(
            board=board,
            turn=first,
            hands=hands,
            out=sorted(deck[players * TRUMPS_PER_PLAYER :]),
            played=[],
            final_lap=None,
            last_move=None,
        )
        self.log(
            state,
            f"New game: {options['board']} board, {options['layout']} layout, {options['direction']}; "
            f"{seat_ref(first)} starts.",
            f"新しいゲーム: ボード{'表' if options['board'] == 'front' else '裏'}、{_LAYOUT_JA[options['layout']]}、"
            f"{'時計回り' if options['direction'] == 'clockwise' else '反時計回り'}。{seat_ref(first)}から。",
            private={s: _welcome_words(OWNED_COLOURS[players][s], tuple(hands[str(s)])) for s in range(players)},
        )

    # ------------------------------------------------------------------ turns

    def _to_act(self, state: dict) -> list[int]:
        return [state["turn"]]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        board = state["board"]
        own = OWNED_COLOURS[state["players"]][seat]
        steps = _STEPS[state["options"]["board"]]
        # a neighbour of another colour is a swap, an empty one a move; two pieces of one
        # colour are never swapped: that would change nothing
        listed = [
            move if target == EMPTY else swap
            for index, piece in enumerate(board)
            if piece in own
            for other, move, swap in steps[index]
            if (target := board[other]) != piece
        ]
        actions = list(map(dict.copy, listed))
        actions += [{"type": "trump", "card": card} for card in state["hands"][str(seat)]]
        return actions

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        before = state["board"]
        if action["type"] == "trump":
            card = action["card"]
            # copy on write (see _copy): new containers for what a trump card changes
            hands = state["hands"] = dict(state["hands"])
            hands[str(seat)] = [held for held in hands[str(seat)] if held != card]
            state["played"] = [*state["played"], {"seat": seat, "card": card}]
        after = state["board"] = board_after(before, action)
        move = self._describe_move(state, seat, action, before, after)
        state["last_move"] = move
        if self.keeps_log(state):  # a search state words nothing (Game.unlogged)
            self._log_move(state, seat, action, before, move)

        players = state["players"]
        final_lap = state["final_lap"]
        # A seat whose runs did not change kept its score: below WINNING_SCORE, as a game
        # ends the moment a score reaches it. So only a change can end the game here.
        if any(change["after"] >= WINNING_SCORE for change in move["changes"]):
            self._end(state, seat_scores(after, players), "five-points")
        elif final_lap is not None:
            remaining = final_lap["remaining"][1:]
            state["final_lap"] = {**final_lap, "remaining": remaining}
            if remaining:
                state["turn"] = remaining[0]
            else:
                self._end(state, seat_scores(after, players), "last-trump")
        elif action["type"] == "trump" and not state["hands"][str(seat)]:
            remaining = self._order_from(state, self._next_seat(state, seat))[: players - 1]
            state["final_lap"] = {"trigger": seat, "remaining": remaining}
            state["turn"] = remaining[0]
            if self.keeps_log(state):
                self.log(
                    state,
                    f"{seat_ref(seat)} played their last trump card: every other player takes one more turn, "
                    f"then the game ends.",
                    f"{seat_ref(seat)}がトランプカードを使い切りました。ほかのプレイヤーがあと1回ずつ手番を行って終了します。",
                )
        else:
            state["turn"] = self._next_seat(state, seat)

    def _next_seat(self, state: dict, seat: int) -> int:
        step = 1 if state["options"]["direction"] == "clockwise" else -1
        return (seat + step) % state["players"]

    def _order_from(self, state: dict, first: int) -> list[int]:
        """All seats in turn order, starting with ``first``."""
        order = [first]
        while len(order) < state["players"]:
            order.append(self._next_seat(state, order[-1]))
        return order

    def _end(self, state: dict, scores: tuple[int, ...], ending: str) -> None:
        """Finish: the highest score wins; among tied players the one who acted first in
        the last lap (RULINGS.md §3, see _last_lap)."""
        best = max(scores)
        lap = self._last_lap(state)
        winner = next(s for s in lap if scores[s] == best)
        tie_broken = scores.count(best) > 1
        en, ja = _summary(winner, best, [s for s in lap if scores[s] == best])
        self.finish(
            state,
            {
                "winners": [winner],
                "scores": {str(s): score for s, score in enumerate(scores)},
                "ending": ending,
                "tie_broken": tie_broken,
                "summary": {"en": en, "ja": ja},
            },
        )
        if not self.keeps_log(state):  # a search state words nothing (Game.unlogged)
            return
        why = (
            (f"{seat_ref(winner)} reached {best} points", f"{seat_ref(winner)}が{best}点に達しました")
            if ending == "five-points"
            else ("the last lap is over", "最後の一巡が終わりました")
        )
        first = seat_ref(lap[0])
        tie = (
            (
                f" (tied on points: first to act in the last lap, which began with {first})",
                f" (同点のため、{first}から始まった最後の一巡で先に行動したプレイヤー)",
            )
            if tie_broken
            else ("", "")
        )
        self.log(
            state,
            f"Game over: {why[0]}. {seat_ref(winner)} wins with {_points(best)}{tie[0]}.",
            f"ゲーム終了: {why[1]}。{seat_ref(winner)}の勝ち ({best}点){tie[1]}。",
        )

    def _last_lap(self, state: dict) -> list[int]:
        """Every seat in the order the book's tie-break reads them: 「最後の一巡で先に行動した
        プレイヤー」, the player who acted first in the last lap (RULINGS §3, revised 2026-11-23
        and 2026-11-25).

        Once someone has played their last trump card, the last lap is the extra lap, begun
        by the player after them, whether it ends by itself or by a score of 5 reached inside
        it: those who had acted in it, in turn order, then those who had not yet, in turn
        order, and the player who emptied their hand (who acts in no part of it) last; together
        simply the turn order from the next seat. Otherwise (five points before any last
        card) the last lap is the lap in progress, begun by the start player, read the same
        way: the turn order from the start player."""
        if state["final_lap"] is not None:
            return self._order_from(state, self._next_seat(state, state["final_lap"]["trigger"]))
        return self._order_from(state, self.first_seat(state))

    def _describe_move(self, state: dict, seat: int, action: dict, before: str, after: str) -> dict:
        """What a move did, for the table and the phones::

            {"seat", "type", "from", "to"} or {"seat", "type", "card"}, and
            "changes": [{"seat", "before", "after", "made": [run...], "broken": [run...]}]

        one change per seat whose runs changed (even when its score did not), each run as
        {"colour", "cells", "points"}.
        """
        players = state["players"]
        changes = []
        # The usual move makes or breaks no run. A swap or move changes two cells, so only
        # the lines through them need reading to see that (a trump card changes them all).
        if action["type"] != "trump":
            if _same_runs(before, after, LINES_THROUGH_STEP[action["from"], action["to"]]):
                return {"seat": seat, **action, "changes": changes}
        runs_before, runs_after = _runs(before), _runs(after)
        if runs_before == runs_after:  # a trump card that left every run as it was
            return {"seat": seat, **action, "changes": changes}
        made = [run for run in runs_after if run not in runs_before]
        broken = [run for run in runs_before if run not in runs_after]
        scores_before, scores_after = seat_scores(before, players), seat_scores(after, players)
        for s, owned in enumerate(OWNED_COLOURS[players]):
            mine_made = [_run_view(run) for run in made if run[0] in owned]
            mine_broken = [_run_view(run) for run in broken if run[0] in owned]
            if mine_made or mine_broken:
                changes.append(
                    {
                        "seat": s,
                        "before": scores_before[s],
                        "after": scores_after[s],
                        "made": mine_made,
                        "broken": mine_broken,
                    }
                )
        return {"seat": seat, **action, "changes": changes}

    def _log_move(self, state: dict, seat: int, action: dict, before: str, move: dict) -> None:
        who = seat_ref(seat)
        if action["type"] == "trump":
            en, ja = _trump_words(action["card"])
            text = [f"{who} played {en}.", f"{who}がトランプカード「{ja}」を使いました。"]
        else:
            mover = COLOUR_NAMES[before[CELL_INDEX[action["from"]]]]
            if action["type"] == "move":
                text = [
                    f"{who} moved {mover[0]} {action['from']} to {action['to']}.",
                    f"{who}が{action['from']}の{mover[1]}を{action['to']}へ動かしました。",
                ]
            else:
                other = COLOUR_NAMES[before[CELL_INDEX[action["to"]]]]
                text = [
                    f"{who} swapped {mover[0]} {action['from']} with {other[0]} {action['to']}.",
                    f"{who}が{action['from']}の{mover[1]}と{action['to']}の{other[1]}を入れ替えました。",
                ]
        for change in move["changes"]:
            made = [_run_words(r["colour"], [CELL_INDEX[c] for c in r["cells"]]) for r in change["made"]]
            broken = [_run_words(r["colour"], [CELL_INDEX[c] for c in r["cells"]]) for r in change["broken"]]
            parts_en = [f"made {en}" for en, _ in made] + [f"broke {en}" for en, _ in broken]
            parts_ja = [f"{ja}ができた" for _, ja in made] + [f"{ja}が崩れた" for _, ja in broken]
            s = seat_ref(change["seat"])
            text[0] += f" {s}: {change['before']} → {_points(change['after'])} ({'; '.join(parts_en)})."
            text[1] += f" {s}: {change['before']} → {change['after']}点 ({'、'.join(parts_ja)})。"
        self.log(state, text[0], text[1])

    # ------------------------------------------------------------------ explanations

    def _is_legal(self, state: dict, seat: int, action: dict) -> bool:
        # Asked of the rules directly instead of looking the action up in _legal_actions:
        # a playout checks one action on every step.
        return self._problem(state, seat, action) is None

    def _explain(self, state: dict, seat: int, action: dict) -> Words:
        return self._problem(state, seat, action)

    def _problem(self, state: dict, seat: int, action: dict) -> Words | None:
        """Why the (well-shaped) ``action`` breaks the rules, in plain words; None when it
        is legal. The one statement of what a single move must satisfy: _legal_actions
        lists exactly the actions this lets through (the tests check that the two agree)."""
        if action["type"] == "trump":
            return self._trump_problem(state, seat, action["card"])
        return self._step_problem(state, seat, action["type"], action["from"], action["to"])

    def _step_problem(self, state: dict, seat: int, kind: str, start, end) -> Words | None:
        for value in (start, end):
            if type(value) is not str or value not in CELL_INDEX:
                return (
                    f"{value!r} is not a cell: cells are A1 to E5 (column letter A-E, then row number 1-5)",
                    f"{value!r} はマスではありません。マスは A1 から E5 です(列の文字 A-E、行の数字 1-5)",
                )
        board = state["board"]
        players = state["players"]
        own = OWNED_COLOURS[players][seat]
        piece, target = board[CELL_INDEX[start]], board[CELL_INDEX[end]]
        kind_ja = _KIND_JA[kind]
        if piece == EMPTY:
            return (
                f"{start} is empty: a {kind} starts from one of your own pieces",
                f"{start} は空です。{kind_ja}は自分の駒から始めます",
            )
        if piece not in own:
            return (
                f"{start} holds a {COLOUR_NAMES[piece][0]} piece, and you play {_colour_words(own)[0]}: "
                f"you may only {kind} your own pieces",
                f"{start} は{COLOUR_NAMES[piece][1]}の駒で、あなたの色は{_colour_words(own)[1]}です。"
                f"{kind_ja}できるのは自分の駒だけです",
            )
        if start == end:
            return (
                f'"from" and "to" are both {start}: pick a neighbouring cell',
                f'"from" と "to" がどちらも {start} です。隣のマスを選んでください',
            )
        side = state["options"]["board"]
        neighbours = NEIGHBOURS[side][CELL_INDEX[start]]
        if CELL_INDEX[end] not in neighbours:
            rule = (
                ("on the front board a piece only goes up, down, left or right", "表の面では駒は上下左右にしか動けません")
                if side == "front"
                else (
                    "on the back board a piece goes up, down, left, right or along a printed diagonal line",
                    "裏の面では駒は上下左右か、印刷された斜めの線に沿って動きます",
                )
            )
            listed = ", ".join(CELLS[i] for i in neighbours)
            return (
                f"{end} is not next to {start}: {rule[0]} (from {start}: {listed})",
                f"{end} は {start} の隣ではありません。{rule[1]}({start} から: {listed})",
            )
        if kind == "swap" and target == EMPTY:
            return f"{end} is empty: going there is a move, not a swap", f"{end} は空です。そこへ行くのはスワップではなく移動です"
        if kind == "move" and target != EMPTY:
            return (
                f"{end} holds a {COLOUR_NAMES[target][0]} piece: exchanging with it is a swap, not a move",
                f"{end} には{COLOUR_NAMES[target][1]}の駒があります。入れ替えるのは移動ではなくスワップです",
            )
        if target == piece:
            return (
                f"{start} and {end} both hold {COLOUR_NAMES[piece][0]} pieces: swapping them would change nothing",
                f"{start} と {end} はどちらも{COLOUR_NAMES[piece][1]}の駒です。スワップしても何も変わりません",
            )
        return None

    def _trump_problem(self, state: dict, seat: int, card) -> Words | None:
        hand = state["hands"][str(seat)]
        if type(card) is not str or card not in TRUMP_CARDS:
            return (
                f"{card!r} is not a trump card (the cards swap rows {_ALL_SWAPS[0]} or columns {_ALL_SWAPS[1]})",
                f"{card!r} はトランプカードではありません(カードは {_ALL_SWAPS[0]} の行か、{_ALL_SWAPS[1]} の列を入れ替えます)",
            )
        if card in hand:
            return None
        en, ja = _trump_words(card)
        if any(entry["card"] == card for entry in state["played"]):
            return f"{en} has already been played", f"「{ja}」はもう使われています"
        if not hand:
            return "you have no trump cards left", "トランプカードはもう残っていません"
        held = _cards_words(hand)
        return f"you do not hold {en} (your cards: {held[0]})", f"「{ja}」は持っていません(あなたのカード: {held[1]})"

    # ------------------------------------------------------------------ views

    def _public_view(self, state: dict) -> dict:
        players = state["players"]
        runs = _runs(state["board"])
        over = state["result"] is not None
        return {
            "step": "over" if over else "turn",
            "phase": "over" if over else ("final-lap" if state["final_lap"] else "play"),
            "board": [state["board"][r * SIZE : (r + 1) * SIZE] for r in range(SIZE)],
            "diagonals": (
                [[CELLS[a], CELLS[b]] for a, b in BACK_DIAGONALS] if state["options"]["board"] == "back" else []
            ),
            "colours": {str(s): list(owned) for s, owned in enumerate(OWNED_COLOURS[players])},
            "turn": None if over else state["turn"],
            "start_seat": self.first_seat(state),
            "turn_order": self._order_from(state, self.first_seat(state)),
            "scores": {str(s): score for s, score in enumerate(seat_scores(state["board"], players))},
            "runs": [_run_view(run) for run in runs],
            "trumps_in_hand": {seat: len(hand) for seat, hand in state["hands"].items()},
            "trumps_played": [dict(entry) for entry in state["played"]],
            "trumps_out_of_game": len(state["out"]),
            "final_lap": None if state["final_lap"] is None else {
                "trigger": state["final_lap"]["trigger"],
                "remaining": list(state["final_lap"]["remaining"]),
            },
            "last_move": state["last_move"],  # Game.view copies the whole view
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        return {
            "colours": list(OWNED_COLOURS[state["players"]][seat]),
            "hand": list(state["hands"][str(seat)]),
        }

    # ------------------------------------------------------------------ test hooks and copying

    def start_player(self, state: dict) -> int:
        return self.first_seat(state)

    def turn_order(self, players: int, start: int, options: dict) -> list[int]:
        """From ``start``, the way the play's ``direction`` option turns."""
        step = 1 if options.get("direction", "clockwise") == "clockwise" else -1
        return [(start + step * count) % players for count in range(players)]

    def _components(self, state: dict) -> list:
        pieces = ["piece-" + piece for piece in state["board"] if piece != EMPTY]
        cards = [card for hand in state["hands"].values() for card in hand]
        return pieces + cards + state["out"] + [entry["card"] for entry in state["played"]]

    def _hidden(self, state: dict, seat: int | None) -> list[Hidden]:
        """The other seats' hands and the cards out of the game, each kept sorted."""
        places = [Place(("hands", key), order=str) for key in sorted(state["hands"], key=int) if key != str(seat)]
        return [Hidden((*places, Place(("out",), order=str)), cards=_DEALT_ORDER)]

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        public, private, me = view["public"], view["private"], str(view["seat"])
        counts = public["trumps_in_hand"]
        state.update(
            board="".join(public["board"]),
            turn=public["turn"],
            hands={seat: list(private["hand"]) if seat == me else [UNSEEN] * counts[seat] for seat in sorted(counts, key=int)},
            out=[UNSEEN] * public["trumps_out_of_game"],
            played=[dict(entry) for entry in public["trumps_played"]],
            final_lap=public["final_lap"],
            last_move=public["last_move"],
        )

    def _copy(self, state: dict) -> dict:
        """A copy for apply that shares every value: _apply gives the hands, the played cards and the final lap new containers when they change
        them (copy on write), Game.log replaces the log, and the rest is immutable (board,
        strings) or only ever replaced whole."""
        return dict(state)


_KIND_JA = {"swap": "スワップ", "move": "移動"}


def _points(n: int) -> str:
    """"1 point", "2 points"."""
    return f"{n} point{'' if n == 1 else 's'}"


def _summary(winner: int, best: int, tied: list[int]) -> Words:
    """The result in a sentence or two: the winner and, when points were tied, the tie and
    the book's tie-break (first to act in the last lap; ``tied`` is in that lap's order)."""
    who = seat_ref(winner)
    points = _points(best)
    if len(tied) == 1:
        return f"{who} wins with {points}.", f"{who}が{best}点で勝ちました。"
    tied_en, tied_ja = seat_list(sorted(tied))
    return (
        f"{tied_en} tied on {points}; {who} wins by acting first in the last lap.",
        f"{tied_ja}が{best}点で並び、最後の一巡で先に行動した{who}の勝ちです。",
    )


def _run_view(run: tuple[str, tuple[int, ...]]) -> dict:
    colour, cells = run
    return {"colour": colour, "cells": [CELLS[i] for i in cells], "points": RUN_POINTS[len(cells)]}


GAME = Swap5()
