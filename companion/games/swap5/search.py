"""SWAP 5 for two players: a selective search over the bot's move and the other's reply.

Tree search with playouts judges SWAP 5 badly at a Raspberry Pi's budget: a playout's
players make runs and break them at random, and the game is decided by what neither
sees, the last trump card and a five made by a trump card. A person plays it by reading
two plies: "if I do this, what is the worst the other can do to me, and where does that
leave me?". So does this search:

1. each of the bot's moves (swaps, moves, its own trump cards) is played on the board;
2. the other player's every answer is played after it: its swaps and moves, and each
   trump card it may hold (it holds ``k`` of the cards the bot has not seen played or in
   its own hand, dealt alike): the move's value is the mean, over every hand it may hold,
   of the worst its answers leave for the bot (it answers as well as it can), but for one
   thing it cannot know: the bot's trump cards. Its last card, where no swap or move of the
   bot's would catch it, looks like a win to it; where one of the bot's cards does catch
   it, that is a trap it is taken to walk into half the time (:meth:`Search._last_cards`),
   unless it has been seen to pass over that card before (:meth:`Search.notice`);
3. where the game is not over, the position is judged from the rules
   (:meth:`Search.judge`): the points lead, a five the bot can make at once (with a swap
   or one of its trump cards: it is the bot's turn), two or more fives the other could
   make that one move cannot stop, the lines of five where either holds four pieces, and
   the bot's trump cards: what they could do, and each one kept (:data:`CARD_KEPT`).

The rules are played here on the board string with the engine's tables (lines, runs,
neighbours, trump cards), much faster than the engine's states, which a search at a
twentieth of a second could not afford; ``tests/games/test_swap5_search.py`` checks this
little engine against the real one. The moves are weighed best first by a one-move look
(:meth:`Search.first_look`), so a search cut short by its deadline has weighed the likely
best. Strong's larger budget lets it look one ply further for its best few moves: after
the other's answer, the bot's own best next move (:meth:`Search.value` with ``depth`` 3).
Reading stops where it cannot change the move (alpha-beta): a move once one answer leaves
it out of the running (``floor``), the bot's next moves once one is as good as the other's
worst answer found so far (``cap``); answers and next moves are read likeliest first, so
that these limits come early.

Two players who both always play the one best move go round in a circle (a threat made,
undone by a threat, and so on), and the bot, which must end its games, loses the level
game it ends. So of the moves nearly as good as the best one is drawn at random (seeded:
one seed, one answer), swapping back the other's last swap costs a little, and late in
the game a game going on is worth less and the draw is wider (:data:`LATE`).
"""

from __future__ import annotations

import itertools
import math

from . import rules as swap5

WIN = 100.0
"""A game won (its negative: lost), far above any points lead (at most 4)."""

DOUBLE_THREAT = 0.8 * WIN
"""Two fives the other can make next that no one move stops: nearly a loss."""

ONE_THREAT = 0.4
"""A five the other can make next: the bot's next move must stop it (a tempo lost)."""

FOUR_IN_LINE = 0.15
"""A line of five holding four of one's colour: a five one piece away (a threat to come,
and a trump card may line it up)."""

LAST_CARD_LEAD = 0.3 * WIN
"""The bot to move holding its last trump card, which would leave it two points ahead:
likely a win (the search weighs it exactly when it gets there)."""

CARD_OPTION = 0.3
"""What a trump card in hand adds per point of lead it could give at once."""

CARD_KEPT = 1.5
"""What each trump card in hand is worth, kept: a point one gives is seldom kept for long
(runs are made and broken every move), while a card held can catch the other's last card
(:data:`LURED`) and leaves the bot a choice of which card ends the game. Against the
greedy player (seeds 4000 - 4239) it took ``normal`` from 153 to 182 wins of 240; without
the traps it wins nothing (57 of 96 on seeds 4000 - 4095, as without it). So it counts only
in the share of the other's likely cards that it has not passed over (:meth:`Search.notice`)."""

LAST_CALL = 240
"""From this many moves on the bot plays only its trump cards, so that every game ends
(by move 243): after 240 moves it is not going anywhere. Until then its search plays its
last card when that wins, and not otherwise (the tie goes against the player who ends the
game, so a bot made to play its cards early loses a level game)."""

FIRST_CALL = 200
"""From this many moves on a bot still holding both its trump cards plays one, so that it
can choose when to play the last one before :data:`LAST_CALL`."""

LATE = 150
"""From this many moves on, a game that goes on is worth less and less to the bot (down
to :data:`STALLING` at :data:`LAST_CALL`): an opponent that never ends a level game wins
it when the bot must play its last card, so the bot had better play it at the moment it
is likeliest to win, before it must."""

STALLING = 0.5 * WIN

NEAR = 0.45
"""Moves worth this little less than the best are played as often as the best: two
players who both play the one best move go round in a circle (one makes a threat, the
other undoes it with a threat of its own, and so on), and the first to vary wins nothing
by waiting."""

LATE_NEAR = 1.5
"""How much wider :data:`NEAR` grows from move :data:`LATE` to :data:`LAST_CALL`: a game
still going on then is going round in circles and will be lost at the last call, so the
bot varies its play to reach a position where its last card wins."""

LURED = 0.5
"""How likely the other is taken to play its last trump card when none of the bot's swaps
and moves would then catch it, though one of the bot's own trump cards would: it cannot
see the bot's cards, so to it the card looks like a win. A player who weighs only what it
can see always plays it; a careful one never does. Half won more games against the greedy
player than always (30 against 25 of 48) or a quarter of the time (36 against 35 of 48,
with :data:`CARD_KEPT`); counting on it always makes the bot chase traps. Once the other
has passed over such a card, the bot counts on it no more (:meth:`Search.notice`)."""

UNDOING = 0.5
"""What swapping back the two pieces the other just swapped costs: against a player who
does the same, that goes round in a circle for ever (a threat made, undone by a threat,
and so on), and the game is lost when the bot must play its cards; a person would try
something else when there is something nearly as good."""

_PLAYERS = 2
_COLOURS = swap5.OWNED_COLOURS[_PLAYERS]
_OWNER = {colour: seat for seat, owned in enumerate(_COLOURS) for colour in owned}
_LINE_CELLS = [cells for _, cells in swap5.LINE_SLICES]
_FIVE_LINES = [cells for cells in _LINE_CELLS if len(cells) == swap5.SIZE]


def _line_points(text: str) -> tuple[int, int]:
    points = [0, 0]
    for colour, start, end in swap5.LINE_RUNS.get(text, ()):
        points[_OWNER[colour]] += swap5.RUN_POINTS[end - start]
    return points[0], points[1]


_POINTS_OF_TEXT = {text: _line_points(text) for text in swap5.LINE_RUNS}
_SLICES = [line for line, _ in swap5.LINE_SLICES]


def points(board: str) -> tuple[int, int]:
    """Each seat's score on ``board`` (two players), as :func:`swap5.seat_scores`."""
    first = second = 0
    get = _POINTS_OF_TEXT.get
    for line in _SLICES:
        found = get(board[line])
        if found:
            first += found[0]
            second += found[1]
    return first, second


def _gaps_table() -> dict[str, tuple[tuple[str, int], ...]]:
    """For every text of a line of five holding four pieces of one colour: (colour, the
    place of the fifth cell in the line)."""
    table = {}
    for pieces in itertools.product(swap5.COLOURS + swap5.EMPTY, repeat=swap5.SIZE):
        text = "".join(pieces)
        found = tuple((colour, text.index(next(c for c in text if c != colour)))
                      for colour in swap5.COLOURS if text.count(colour) == swap5.SIZE - 1)
        if found:
            table[text] = found
    return table


_FOURS = _gaps_table()
_FIVE_SLICES = [(swap5.line_slice(cells), cells) for cells in _FIVE_LINES]


class Board:
    """The board side's neighbours and what follows from them."""

    def __init__(self, side: str):
        self.neighbours = swap5.NEIGHBOURS[side]
        cells, through = swap5.CELLS, swap5.LINES_THROUGH_STEP
        self.pairs = {(index, other): through[cells[index], cells[other]]
                      for index, others in enumerate(self.neighbours) for other in others}

    def steps(self, board: str, seat: int) -> list[tuple[int, int]]:
        """The swaps and moves of ``seat``: (its piece's cell, the neighbouring cell)."""
        own = _COLOURS[seat]
        neighbours = self.neighbours
        return [(index, other) for index, piece in enumerate(board) if piece in own
                for other in neighbours[index] if board[other] != piece]

    def fours(self, board: str, seat: int) -> tuple[set[int], int]:
        """``seat``'s fives in one swap or move: the cells that would complete them, and
        how many lines of five hold four of its colour (ready or not)."""
        own = _COLOURS[seat]
        ready, lines = set(), 0
        for line, cells in _FIVE_SLICES:
            for colour, place in _FOURS.get(board[line], ()):
                if colour not in own:
                    continue
                lines += 1
                gap = cells[place]
                if any(board[other] == colour and other not in cells for other in self.neighbours[gap]):
                    ready.add(gap)
        return ready, lines


def stepped(board: str, a: int, b: int) -> str:
    if a > b:
        a, b = b, a
    return board[:a] + board[b] + board[a + 1:b] + board[a] + board[b + 1:]


def step_points(board: str, after: str, scores: tuple[int, int], lines) -> tuple[int, int]:
    """The scores after a step, from the scores before: only the lines through its cells change."""
    first, second = scores
    get = _POINTS_OF_TEXT.get
    for line in lines:
        old, new = get(board[line]), get(after[line])
        if old is not new:
            if old:
                first -= old[0]
                second -= old[1]
            if new:
                first += new[0]
                second += new[1]
    return first, second


def ended(scores: tuple[int, int], trigger: int | None, start: int) -> int:
    """The winner of a game that ends with ``scores``: the highest score; a tie goes to the
    first to act in the last lap (RULINGS §3): the seat after ``trigger``, who played their
    last trump card, or the ``start`` player when nobody has."""
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    return start if trigger is None else 1 - trigger


class _OutOfTime(Exception):
    """The deadline passed in the middle of weighing a move three plies deep."""


class Search:
    """One decision of ``me`` (two players), from what its view shows."""

    def __init__(self, view: dict, notes: dict | None = None):
        public, private = view["public"], view["private"]
        self.me = view["seat"]
        self.other = 1 - self.me
        self.rules = Board(view["options"]["board"])
        self.board = "".join(public["board"])
        self.hand = tuple(private["hand"])
        played = {entry["card"] for entry in public["trumps_played"]}
        self.unseen = tuple(card for card in sorted(swap5.TRUMP_CARDS) if card not in played and card not in self.hand)
        self.held = public["trumps_in_hand"][str(self.other)]
        last = public["last_move"]
        # The other's last swap or move, undone by the same two cells swapped back.
        self.undo = None if not last or last["seat"] != self.other or last["type"] == "trump" else {last["from"], last["to"]}
        lap = public["final_lap"]
        self.trigger = None if lap is None else lap["trigger"]
        self.start = public["start_seat"]
        late = (view["version"] - LATE) / (LAST_CALL - LATE)
        self.budget = None  # set by run; None: no deadline (every move is read in full)
        self._judged_other = {}  # judge_other's values, by position
        self.lateness = min(1.0, max(0.0, late))
        self.stalling = STALLING * self.lateness  # what a game going on loses (see LATE)
        # The other's last trump card, as far as its play has shown it (see notice): for
        # each card it may hold (self.unseen), how likely it holds it, relatively, and how
        # likely it then walks into a trap.
        passed, declined = self.notice(public, {} if notes is None else notes)
        if all(card in declined for card in self.unseen):  # it has played as no player the bot knows
            passed, declined = set(), set()
        holding = tuple((0.0 if card in declined else 1 - LURED if card in passed else 1.0,
                         0.0 if card in passed else LURED) for card in self.unseen)
        self.holding, self.holding_total = holding, sum(weight for weight, _ in holding)
        # A card kept is worth keeping for the traps it may catch (see CARD_KEPT): as much as
        # the other's likely cards are ones it has not passed over.
        unguarded = sum(weight for (weight, _), card in zip(holding, self.unseen) if card not in passed)
        self.card_kept = CARD_KEPT * unguarded / self.holding_total if holding else CARD_KEPT

    # The two plies ---------------------------------------------------------

    def mine(self) -> list[tuple[dict, str, tuple[int, int], tuple[str, ...]]]:
        """The bot's moves as (action, board after, scores after, hand after)."""
        board, scores = self.board, points(self.board)
        found = []
        for a, b in self.rules.steps(board, self.me):
            after = stepped(board, a, b)
            kind = "move" if board[b] == swap5.EMPTY else "swap"
            action = {"type": kind, "from": swap5.CELLS[a], "to": swap5.CELLS[b]}
            found.append((action, after, step_points(board, after, scores, self.rules.pairs[a, b]), self.hand))
        for card in self.hand:
            after = swap5.trumped(board, card)
            found.append(({"type": "trump", "card": card}, after, points(after), tuple(c for c in self.hand if c != card)))
        return found

    def value(self, board: str, scores: tuple[int, int], hand: tuple[str, ...], played_last: bool, depth: int,
              floor: float = -math.inf) -> float:
        """The bot's move that left ``board`` (``scores``, its ``hand`` after it;
        ``played_last``: it was the bot's last trump card), worth the mean over the other's
        possible hands of the worst of its answers (see the module's description). A move
        worth less than ``floor`` may be given any value below ``floor``: once one answer
        leaves the bot that little, the rest need not be read."""
        me, other = self.me, self.other
        if max(scores) >= swap5.WINNING_SCORE:
            return self._won(ended(scores, self.trigger, self.start))
        trigger = self.trigger
        if trigger is not None:  # the bot was the last to move
            return self._won(ended(scores, trigger, self.start))
        if played_last:
            trigger = me
        rules = self.rules
        last_cards = self._last_cards(board, hand) if self.held == 1 and trigger is None else None
        # How likely the other walks into a trap (see _last_cards).
        lure = sum(weight * lured for (weight, lured), (_, trap) in zip(self.holding, last_cards) if trap
                   ) / self.holding_total if last_cards else 0.0
        answers = []
        for a, b in rules.steps(board, other):
            after = stepped(board, a, b)
            answers.append((after, step_points(board, after, scores, rules.pairs[a, b])))
        # Their likeliest answers first (the ones that leave them furthest ahead), so that
        # the worst is found early and the rest are cut short by it.
        answers.sort(key=lambda answer: answer[1][me] - answer[1][other])
        worst_step = math.inf
        for after, answered in answers:
            found = self._after_answer(after, answered, hand, trigger, self.held, self.unseen, depth, worst_step)
            if found < worst_step:
                worst_step = found
                # The most the move may now be worth: ``found`` in every hand but the traps.
                most = found + lure * (WIN - found)
                if most < floor or most <= -WIN:
                    return most
        if worst_step == math.inf:  # no swap or move at all (a board no layout leads to)
            worst_step = self.judge(board, scores, hand)
        if not self.held:
            return worst_step
        if last_cards:
            return sum(weight * (lured * WIN + (1 - lured) * worst_step if trap else min(worst_step, value))
                       for (weight, lured), (value, trap) in zip(self.holding, last_cards)) / self.holding_total
        # The other's cards before its last, or after the bot's last card (its last card
        # with the game going on was read above, in last_cards).
        cards = {}
        for card in self.unseen:
            after = swap5.trumped(board, card)
            cards[card] = self._after_answer(after, points(after), hand, trigger, self.held - 1,
                                             tuple(c for c in self.unseen if c != card), depth, worst_step)
        total = count = 0
        for dealt in itertools.combinations(self.unseen, self.held):
            total += min(worst_step, min(cards[card] for card in dealt))
            count += 1
        return total / count if count else worst_step

    def _won(self, winner: int) -> float:
        return WIN if winner == self.me else -WIN

    def _after_answer(self, board: str, scores: tuple[int, int], hand: tuple[str, ...], trigger: int | None,
                      held: int, unseen: tuple[str, ...], depth: int, cap: float) -> float:
        """The bot to move after the other's answer: the game's end, or the position judged
        (at depth 3, a value of ``cap`` or more may stand for any value above it)."""
        if max(scores) >= swap5.WINNING_SCORE:
            return self._won(ended(scores, trigger, self.start))
        if trigger == self.me:  # the other's answer was the last turn
            return self._won(ended(scores, trigger, self.start))
        if depth >= 3:
            return self._best_next(board, scores, hand, held, unseen, cap)
        return self.judge(board, scores, hand)

    def _last_cards(self, board: str, hand: tuple[str, ...]) -> list[tuple[float, bool]]:
        """The other holding one trump card, played as its last (the game ends, and the bot
        has the last turn, read exactly): for each card it may hold, the bot's value (a win
        or a loss) and whether the card is a trap. A trap is a card after which no swap or
        move of the bot's would catch the other, so that to the other, who cannot see the
        bot's cards, it looks like a win, but one of the bot's trump cards catches it: the
        other may well play it (:data:`LURED`), where reading as if it saw the bot's hand
        says it never would."""
        found = []
        for card in self.unseen:
            after = swap5.trumped(board, card)
            scores = points(after)
            if max(scores) >= swap5.WINNING_SCORE:
                found.append((self._won(ended(scores, self.other, self.start)), False))
            else:
                won_by = self._last_turn_won_by(after, scores, hand, self.other)
                found.append((WIN if won_by else -WIN, won_by == "card"))
        return found

    def notice(self, public: dict, notes: dict) -> tuple[set[str], set[str]]:
        """What the other's play has shown of its last trump card, kept in ``notes`` from one
        decision to the next (see :func:`companion.bots.choose`), as a person at the table
        would remember it: the cards it *passed* over, and the ones it *declined*.

        Holding its last card, the other swapped or moved instead of playing it. Every card
        it may hold that would then have won it the game whatever the bot did, it does not
        hold: anyone plays a sure win (declined). Every card that would have looked like a
        win to a player who cannot see the bot's cards, though one of them would have caught
        it (a trap), it holds only if it does not walk into traps (passed): so it is counted
        on to walk into none with that card, and holds it as likely as a careful player
        (1 - :data:`LURED`) does. The notes start again when the other's played cards are
        not those they were written with (a new play, or an undo before its first card)."""
        played = [entry["card"] for entry in public["trumps_played"] if entry["seat"] == self.other]
        if notes.get("played") != played:
            notes.clear()
            notes.update(played=played, passed=[], declined=[])
        last = public["last_move"]
        if self.held == 1 and self.trigger is None and last and last["seat"] == self.other and last["type"] != "trump":
            # The board the other moved from: the same two cells swapped back. The bot's hand
            # is the one it held then: only the other has moved since.
            # Each card it might hold, played there as its last: a loss for the bot is a
            # sure win it declined; a trap, one it passed over.
            before = stepped(self.board, swap5.CELL_INDEX[last["from"]], swap5.CELL_INDEX[last["to"]])
            for card, (value, trap) in zip(self.unseen, self._last_cards(before, self.hand)):
                shown = "passed" if trap else "declined" if value < 0 else None
                if shown and card not in notes[shown]:
                    notes[shown].append(card)
        return set(notes["passed"]), set(notes["declined"])

    def _last_turn_won_by(self, board: str, scores: tuple[int, int], hand: tuple[str, ...], trigger: int) -> str | None:
        """The bot's last turn: "step" when one of its swaps or moves wins, else "card"
        when one of its trump cards does, else None."""
        me = self.me
        for a, b in self.rules.steps(board, me):
            if ended(step_points(board, stepped(board, a, b), scores, self.rules.pairs[a, b]), trigger, self.start) == me:
                return "step"
        for card in hand:
            if ended(points(swap5.trumped(board, card)), trigger, self.start) == me:
                return "card"
        return None

    def _best_next(self, board, scores, hand, held, unseen, cap: float) -> float:
        """Depth 3: the bot's best next move, each judged with the other to move; once one
        is worth ``cap`` or more, the rest are not read (the answer that led here is not
        the other's worst for the bot)."""
        if self.budget is not None and not self.budget.left():
            raise _OutOfTime
        me, rules = self.me, self.rules
        if rules.fours(board, me)[0]:  # a five in one move
            return WIN
        nexts = []
        for a, b in rules.steps(board, me):
            after = stepped(board, a, b)
            nexts.append((after, step_points(board, after, scores, rules.pairs[a, b])))
        nexts.sort(key=lambda step: step[1][self.other] - step[1][me])  # the best-scoring first
        best = -math.inf
        for after, found in nexts:
            if max(found) >= swap5.WINNING_SCORE:
                value = self._won(ended(found, None, self.start))
            else:
                value = self.judge_other(after, found, hand, held, unseen)
            if value > best:
                best = value
                if best >= WIN or best >= cap:
                    return best
        return best

    # Judging a position -----------------------------------------------------

    def judge(self, board: str, scores: tuple[int, int], hand: tuple[str, ...]) -> float:
        """The bot to move, the game going on: a five it can make now wins; two fives the
        other can make that no move stops lose; else the points lead, the threats and what
        its trump cards could do (its last card, played with a lead of two, ends the game
        with a lead one answer seldom undoes)."""
        me, other, rules = self.me, self.other, self.rules
        mine, my_lines = rules.fours(board, me)
        if mine:
            return WIN
        lead = scores[me] - scores[other]
        best_card = -math.inf
        for card in hand:
            after = points(swap5.trumped(board, card))
            if after[me] >= swap5.WINNING_SCORE:
                return WIN
            best_card = max(best_card, after[me] - after[other])
        theirs, their_lines = rules.fours(board, other)
        value = lead + FOUR_IN_LINE * (my_lines - their_lines) + self.card_kept * len(hand) - self.stalling
        if len(theirs) >= 2:
            return value - DOUBLE_THREAT
        value -= ONE_THREAT * len(theirs)
        if len(hand) == 1 and best_card >= 2 and not theirs:
            value = max(value, LAST_CARD_LEAD)
        elif best_card > lead:
            value += CARD_OPTION * (best_card - lead)
        return value

    def judge_other(self, board, scores, hand, held, unseen) -> float:
        """The other to move, the game going on (depth 3's leaves): a five it can make
        with a swap loses; one its trump cards may make loses as likely as it holds one.
        A position reached again (the same moves in another order: a quarter of depth 3's
        leaves) is judged once."""
        key = board, hand, held, unseen  # the scores follow from the board
        value = self._judged_other.get(key)
        if value is None:
            value = self._judged_other[key] = self._judge_other(board, scores, hand, held, unseen)
        return value

    def _judge_other(self, board, scores, hand, held, unseen) -> float:
        me, other, rules = self.me, self.other, self.rules
        theirs, their_lines = rules.fours(board, other)
        if theirs:
            return -WIN
        mine, my_lines = rules.fours(board, me)
        value = scores[me] - scores[other] + FOUR_IN_LINE * (my_lines - their_lines) + self.card_kept * len(hand) - self.stalling
        if held and unseen:
            winning = sum(points(swap5.trumped(board, card))[other] >= swap5.WINNING_SCORE for card in unseen)
            if winning:
                # the chance that none of its held cards is one of the winning ones
                safe = math.comb(len(unseen) - winning, held) / math.comb(len(unseen), held)
                value = safe * value - (1 - safe) * WIN
        if len(mine) >= 2:
            value += DOUBLE_THREAT
        return value + ONE_THREAT * len(mine)


    def first_look(self, move) -> float:
        """A move's worth before the search: the points lead it leaves (a win first)."""
        action, board, scores, hand = move
        if max(scores) >= swap5.WINNING_SCORE:
            return self._won(ended(scores, self.trigger, self.start))
        return scores[self.me] - scores[self.other]

    def undoing(self, action: dict) -> float:
        """:data:`UNDOING` for the swap that swaps back the other's last one, else 0."""
        if self.undo is None or action["type"] == "trump" or {action["from"], action["to"]} != self.undo:
            return 0.0
        return UNDOING

    def _weigh(self, move, depth: int, floor: float) -> float:
        """One of the bot's moves (as :meth:`mine` lists it) read ``depth`` plies deep, less
        what undoing the other's last swap costs; below ``floor``, any value below it."""
        action, board, scores, hand = move
        cost = self.undoing(action)
        return self.value(board, scores, hand, action["type"] == "trump" and not hand, depth, floor + cost) - cost

    def run(self, keys: set[str] | None, key, budget, deeper: int, rng) -> dict:
        """The move to play: every move weighed two plies deep, best first by
        :meth:`first_look`, while ``budget`` has time left (at least one is weighed); then,
        while time is still left, the ``deeper`` best again three plies deep. Of the moves
        within :data:`NEAR` of the best (wider late in the game), one drawn by ``rng``
        (see the module's description). ``keys``: the actions allowed (by ``key``), None
        for all. ``budget``: a started ``companion.bots.budget.Budget`` (the search only asks
        its ``left()`` and counts no iterations), or None for no deadline."""
        self.budget = budget
        moves = [move for move in self.mine() if keys is None or key(move[0]) in keys]
        moves.sort(key=lambda move: -self.first_look(move))  # stable: the engine's order among equals
        near = NEAR + LATE_NEAR * self.lateness
        # A move worth less than the best so far by more than ``near`` is not played:
        # ``floor`` lets the search stop reading it as soon as that is sure.
        weighed, floor = [], -math.inf
        for move in moves:
            if weighed and budget is not None and not budget.left():
                break
            value = self._weigh(move, 2, floor)
            weighed.append((value, move))
            floor = max(floor, value - near)
        ranked = sorted(weighed, key=lambda found: -found[0])
        if deeper and len(ranked) > 1:
            # The deeper look re-ranks the best few it has time for, in their order: every
            # move it did not reach was worth less two plies deep than those it did.
            deepened, floor = [], -math.inf
            for value, move in ranked[:deeper]:
                if deepened and budget is not None and not budget.left():
                    break
                if abs(value) < WIN:  # a won or lost game stays so
                    try:
                        value = self._weigh(move, 3, floor)
                    except _OutOfTime:  # a move weighed in part is not weighed
                        break
                deepened.append((value, move))
                floor = max(floor, value - near)
            if len(deepened) > 1:
                ranked = sorted(deepened, key=lambda found: -found[0])
        best = ranked[0][0]
        ties = [move for value, move in ranked if value >= best - near]
        return ties[rng.randbelow(len(ties))][0]


def narrowed(game, view: dict, actions: list[dict]) -> list[dict]:
    """The actions the bot weighs: all of them, but only its trump cards after
    :data:`LAST_CALL` moves while it holds one, and after :data:`FIRST_CALL` while it holds
    two."""
    version, held = view["version"], len(view["private"]["hand"])
    if version < FIRST_CALL or version < LAST_CALL and held < swap5.TRUMPS_PER_PLAYER:
        return actions
    return [action for action in actions if action["type"] == "trump"] or actions
