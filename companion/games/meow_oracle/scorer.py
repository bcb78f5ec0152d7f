"""Meow Oracle scorer: the scoring of a Meow Oracle game played with the real cards.

The players deal, reveal and place the physical cards themselves. At the end of each of
the two rounds every player enters their finished 3 × 3 area on their phone, card by
card as it lies (number and colour), or simply types their round total. Once everyone
has entered, the scorer works out the round points with :func:`meow_oracle.score_area`
(the one place the scoring rules live), the wins against the neighbours, the round-2
start player and, after round 2, the final ranking with the book's tie rules
(RULINGS.md §2).

Flow (the public view's ``step``)::

    start-player  any seat names who starts round 1 (the round-2 tie rule needs it)
    entering      every seat enters its area or its total; entries can be corrected
                  until the last seat has entered, which scores the round at once
    round-end     round 1 scored; any seat moves on to round 2
    over          round 2 scored: wins, totals and the ranking are final

Nothing is secret: the areas are face up on the table, so entries are public as they
are made. Showing them lets the table spot a mistyped card before the round is scored.
What the UI needs is documented in ``docs/trackers.md``.
"""

from __future__ import annotations

from typing import Any

from . import rules as meow_oracle
from ..base import FIRST_PLAYER, Game, Words, copy_json, seat_list, seat_ref, whole_number_problem
from ..rng import Rng

ROUNDS = meow_oracle.ROUNDS

CARDS = tuple(
    [(colour, n) for colour in meow_oracle.COLOURS for n in range(meow_oracle.HIGHEST + 1)]
    + [(meow_oracle.WILD, n) for n in meow_oracle.WILD_NUMBERS]
)
"""Every oracle card as ``(colour, number)``: each exists once."""

MAX_TOTAL = meow_oracle.RUN_BONUS[9] + meow_oracle.POINTS_PER_LINE * len(meow_oracle.LINES)
"""The highest round total an area can score: a full run of 9 and all 8 lines in one
colour (red 0–8 laid along the path does it). A typed total must lie in 0..MAX_TOTAL."""

CELLS = tuple((row, col) for row in range(3) for col in range(3))

_STEP_OF = {
    "start-player": "start-player",
    "card": "entering",
    "clear": "entering",
    "total": "entering",
    "clear-total": "entering",
    "next-round": "round-end",
}
"""The step in which each action type belongs."""

_STEP_NOW = {
    "start-player": ("first name who starts round 1", "先に1ラウンド目のスタートプレイヤーを決めてください"),
    "entering": ("the areas of the round are being entered", "このラウンドのエリアを入力しているところです"),
    "round-end": ("round 1 is scored; move on to round 2 first", "1ラウンド目の得点が出ました。先に2ラウンド目へ進んでください"),
}
"""What is going on in each step, for error messages."""


class MeowOracleScorer(Game):
    id = "meow-oracle-scorer"
    title = {"en": "Meow Oracle scorer", "ja": "オラクルカード 得点計算"}
    box = meow_oracle.BOX
    min_players = 2
    max_players = 4
    action_fields = {
        "start-player": ("seat",),
        "card": ("color", "n"),
        "clear": ("row", "col"),
        "total": ("total",),
        "clear-total": (),
        "next-round": (),
    }
    options = ()

    # ------------------------------------------------------------------ setup and turns

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        state["step"] = "start-player"
        state["round"] = 1
        state["start_player"] = None
        state["areas"] = [_empty_area() for _ in range(players)]
        state["typed"] = [None] * players
        state["rounds"] = []
        if FIRST_PLAYER in state["options"]:  # drawn before anyone entered it: nobody needs to name it
            self._name_start_player(state, state["options"][FIRST_PLAYER])

    def _to_act(self, state: dict) -> list[int]:
        # Every step is open to every seat: entries are simultaneous, and the table (or the
        # panel acting for any seat) may name the start player or move to round 2.
        return list(range(state["players"]))

    def _waiting_for(self, state: dict) -> list[int]:
        # Naming the start player is a question to the whole table; during the entries, those
        # who have entered may only correct; the round-end pause waits for the table.
        step = state["step"]
        if step == "start-player":
            return list(range(state["players"]))
        if step == "entering":
            return [seat for seat in range(state["players"]) if not _has_entered(state, seat)]
        return []

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        step = state["step"]
        if step == "start-player":
            return [{"type": "start-player", "seat": s} for s in range(state["players"])]
        if step == "round-end":
            return [{"type": "next-round"}]
        actions = [{"type": "total", "total": total} for total in range(MAX_TOTAL + 1)]
        if state["typed"][seat] is not None:
            # A typed total stands until it is cleared; the cards wait till then.
            actions.append({"type": "clear-total"})
            return actions
        area = state["areas"][seat]
        if _next_cell(area) is not None:
            entered = _entered_cards(state)
            actions.extend({"type": "card", "color": colour, "n": n} for colour, n in CARDS if (colour, n) not in entered)
        actions.extend({"type": "clear", "row": row, "col": col} for row, col in CELLS if area[row][col] is not None)
        return actions

    # ------------------------------------------------------------------ actions

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        if kind == "start-player":
            self._name_start_player(state, action["seat"])
            return
        if kind == "next-round":
            self._start_round_two(state)
            return
        was_entered = _has_entered(state, seat)
        area = state["areas"][seat]
        if kind == "total":
            # One way of entering at a time: a typed total discards any cards entered.
            state["typed"][seat] = action["total"]
            state["areas"][seat] = _empty_area()
        elif kind == "clear-total":
            state["typed"][seat] = None
        elif kind == "card":
            row, col = _next_cell(area)
            area[row][col] = {"color": action["color"], "n": action["n"]}
        else:
            area[action["row"]][action["col"]] = None
        self._log_entry_change(state, seat, was_entered)
        if all(_has_entered(state, s) for s in range(state["players"])):
            self._score_round(state)

    def _log_entry_change(self, state: dict, seat: int, was_entered: bool) -> None:
        """Log a seat's entry becoming complete or incomplete (single cards are not logged)."""
        now_entered = _has_entered(state, seat)
        who = seat_ref(seat)
        typed = state["typed"][seat]
        if now_entered and typed is not None:
            self.log(state, f"{who} entered a total of {typed}", f"{who}が合計{typed}点を入力しました")
        elif now_entered and not was_entered:
            self.log(state, f"{who} entered all 9 cards", f"{who}が9枚すべてを入力しました")
        elif was_entered and not now_entered:
            self.log(state, f"{who}'s entry is no longer complete", f"{who}の入力が未完了に戻りました")

    def _score_round(self, state: dict) -> None:
        """Everyone has entered: score the round, count the wins, and end the round or the game."""
        players = state["players"]
        scored = []
        for seat in range(players):
            typed = state["typed"][seat]
            if typed is not None:
                scored.append({"run": None, "lines": None, "total": typed})
            else:
                scored.append(meow_oracle.score_area(state["areas"][seat]))
        totals = [s["total"] for s in scored]
        wins = meow_oracle.round_wins(totals)
        number = state["round"]
        record = {
            "round": number,
            "start_player": state["start_player"],
            "runs": [s["run"] for s in scored],
            "lines": [s["lines"] for s in scored],
            "totals": totals,
            "wins": wins,
            "next_start_player": meow_oracle.next_start_player(totals, state["start_player"]) if number < ROUNDS else None,
        }
        state["rounds"].append(record)
        summary = ", ".join(f"{seat_ref(s)} {totals[s]}" for s in range(players))
        self.log(state, f"Round {number} scored: {summary}", f"{number}ラウンド目の得点: {summary}")
        if number < ROUNDS:
            state["step"] = "round-end"
            starter = seat_ref(record["next_start_player"])
            self.log(state, f"{starter} starts round 2", f"{starter}が2ラウンド目のスタートプレイヤーです")
            return
        self._finish_game(state)

    def _start_round_two(self, state: dict) -> None:
        players = state["players"]
        state["round"] = ROUNDS
        state["start_player"] = state["rounds"][-1]["next_start_player"]
        state["areas"] = [_empty_area() for _ in range(players)]
        state["typed"] = [None] * players
        state["step"] = "entering"
        self.log(state, "Round 2: enter your areas when it ends", "2ラウンド目: 終わったらエリアを入力してください")

    def _finish_game(self, state: dict) -> None:
        """The book: most wins; a tie goes to the higher last-round total; then a shared win."""
        players = state["players"]
        wins = _total_wins(state)
        last = state["rounds"][-1]["totals"]
        keys = [(wins[s], last[s]) for s in range(players)]
        ranking = [
            {"seat": s, "place": 1 + sum(1 for k in keys if k > keys[s]), "wins": wins[s], "last_total": last[s]}
            for s in sorted(range(players), key=lambda s: (-wins[s], -last[s], s))
        ]
        winners = [entry["seat"] for entry in ranking if entry["place"] == 1]
        state["step"] = "over"
        names_en, names = seat_list(winners)
        en, ja = _summary(winners, wins, last)
        self.log(
            state,
            f"{names_en} {'win' if len(winners) > 1 else 'wins'} the game",
            f"{names}の勝利です",
        )
        self.finish(
            state,
            {
                "winners": winners,
                "scores": {str(s): wins[s] for s in range(players)},
                "wins": wins,
                "last_totals": last,
                "ranking": ranking,
                "summary": {"en": en, "ja": ja},
            },
        )

    # ------------------------------------------------------------------ explanations

    def _explain(self, state: dict, seat: int, action: dict) -> Words | None:
        kind = action["type"]
        allowed = ", ".join(sorted({a["type"] for a in self._legal_actions(state, seat)}))
        step = state["step"]
        if step != _STEP_OF[kind]:
            now_en, now_ja = _STEP_NOW[step]
            return (
                f"{kind!r} is not possible now: {now_en} (allowed now: {allowed})",
                f"いまは {kind!r} はできません。{now_ja}(いまできる行動: {allowed})",
            )
        typed = state["typed"][seat]
        area = state["areas"][seat]
        if kind == "start-player":
            return whole_number_problem("seat", action["seat"], 0, state["players"] - 1, ("a seat number", "席の番号"))
        if kind == "total":
            return whole_number_problem("total", action["total"], 0, MAX_TOTAL, ("a round total", "ラウンドポイントの合計"))
        if kind == "clear-total":
            return ("you have not typed a total, so there is none to clear", "合計を直接入力していないので、取り消すものはありません")
        if typed is not None:
            return (
                f"you typed a total of {typed}: clear it first ('clear-total') to enter your cards instead",
                f"合計{typed}点を直接入力済みです。カードを入力するには、先にそれを取り消してください('clear-total')",
            )
        if kind == "clear":
            problem = whole_number_problem("row", action["row"], 0, 2, ("a row (0 top to 2 bottom)", "行(0 上から2 下まで)"))
            problem = problem or whole_number_problem(
                "col", action["col"], 0, 2, ("a column (0 left to 2 right)", "列(0 左から2 右まで)")
            )
            return problem or (
                f"there is no card to clear at row {action['row'] + 1}, column {action['col'] + 1}",
                f"{action['row'] + 1}行目・{action['col'] + 1}列目には取り消すカードがありません",
            )
        if _next_cell(area) is None:
            return (
                "all 9 cells of your area are filled: clear a cell first to change a card",
                "エリアの9マスはすべて埋まっています。カードを変えるには、先にマスを空けてください",
            )
        return _card_problem(state, action["color"], action["n"])

    def _copy(self, state: dict) -> dict:
        # Cards, the log and its entries, and scored rounds are replaced, never changed in place, so
        # they can be shared; only the containers an action mutates are copied.
        new = dict(state)
        new["areas"] = [[row[:] for row in area] for area in state["areas"]]
        new["typed"] = state["typed"][:]
        new["rounds"] = state["rounds"][:]
        return new

    def _name_start_player(self, state: dict, seat: int) -> None:
        state["start_player"] = seat
        state["step"] = "entering"
        self.log(state, f"{seat_ref(seat)} starts round 1", f"{seat_ref(seat)}が1ラウンド目のスタートプレイヤーです")

    # ------------------------------------------------------------------ views

    def start_player(self, state: dict) -> int | None:
        """The first round's start player, as entered (None until the first round's entry names it)."""
        return state["rounds"][0]["start_player"] if state["rounds"] else state["start_player"]

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """Nothing is hidden: the view shows the whole state."""
        public = view["public"]
        state.update(step=public["step"], round=public["round"], start_player=public["start_player"],
                     areas=copy_json(public["areas"]), typed=list(public["typed"]),
                     rounds=copy_json(public["results"]))

    def _public_view(self, state: dict) -> dict:
        players = state["players"]
        entered = [_has_entered(state, s) for s in range(players)]
        return {
            "step": state["step"],
            "round": state["round"],
            "rounds": ROUNDS,
            "start_player": state["start_player"],
            "entered": entered,
            "waiting": [s for s in range(players) if not entered[s]] if state["step"] == "entering" else [],
            "areas": state["areas"],
            "typed": state["typed"],
            "next_cell": [_cell_or_none(state["areas"][s]) for s in range(players)],
            "max_total": MAX_TOTAL,
            "results": state["rounds"],
            "wins": _total_wins(state),
            "ranking": state["result"]["ranking"] if state["result"] else None,
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        # Nothing is secret in Meow Oracle's scoring: every card counted lies face up.
        return {}


# ---------------------------------------------------------------------- helpers


def _empty_area() -> list[list[None]]:
    return [[None] * 3 for _ in range(3)]


def _next_cell(area: list[list]) -> tuple[int, int] | None:
    """The cell the next entered card fills: the first empty one in reading order (rows top
    to bottom, cells left to right, as the owner sees the area); None when all are filled."""
    return next(((row, col) for row, col in CELLS if area[row][col] is None), None)


def _cell_or_none(area: list[list]) -> list[int] | None:
    """:func:`_next_cell` as JSON: ``[row, col]`` or None."""
    cell = _next_cell(area)
    return None if cell is None else list(cell)


def _entered_cards(state: dict) -> set[tuple[str, int]]:
    """Every card some seat has entered this round, as ``(colour, number)``."""
    return {(card["color"], card["n"]) for area in state["areas"] for row in area for card in row if card}


def _has_entered(state: dict, seat: int) -> bool:
    """A seat has entered once it typed a total or filled all nine cells."""
    if state["typed"][seat] is not None:
        return True
    return all(card is not None for row in state["areas"][seat] for card in row)


def _total_wins(state: dict) -> list[int]:
    return [sum(record["wins"][s] for record in state["rounds"]) for s in range(state["players"])]


def _card_words(colour: str, number: int) -> Words:
    """A card in words: ``("red 5", "赤の5")``."""
    return f"{colour} {number}", f"{meow_oracle.COLOUR_JA[colour]}の{number}"


def _card_problem(state: dict, colour: Any, number: Any) -> Words:
    """Why ``colour`` ``number`` cannot be entered now: no such card, or entered already."""
    colours = (*meow_oracle.COLOURS, meow_oracle.WILD)
    if not isinstance(colour, str) or colour not in colours:
        return (
            f"'color' must be one of {', '.join(colours)}, not {colour!r}",
            f"'color' は {', '.join(colours)} のどれかです({colour!r} は使えません)",
        )
    if type(number) is not int or not 0 <= number <= meow_oracle.HIGHEST:
        return (
            f"'n' must be a whole number from 0 to {meow_oracle.HIGHEST}, not {number!r}",
            f"'n' には0から{meow_oracle.HIGHEST}までの整数を入れてください({number!r} は使えません)",
        )
    if (colour, number) not in CARDS:
        wild = ", ".join(str(n) for n in meow_oracle.WILD_NUMBERS)
        return (
            f"there is no wild {number}: the only wild (grey) cards are {wild}",
            f"灰色(オールマイティ)の{number}はありません。灰色のカードは {wild} だけです",
        )
    card_en, card_ja = _card_words(colour, number)
    for owner, area in enumerate(state["areas"]):
        for row, col in CELLS:
            card = area[row][col]
            if card and (card["color"], card["n"]) == (colour, number):
                who = seat_ref(owner)
                return (
                    f"{card_en} is already entered in {who}'s area at row {row + 1}, column {col + 1}, "
                    "and every card exists once; clear it there first if it was a mistake",
                    f"{card_ja}はすでに{who}のエリアの{row + 1}行目・{col + 1}列目に入力されています。"
                    "同じカードは1枚しかないので、間違いならそちらを先に消してください",
                )
    return f"{card_en} cannot be entered now", f"いまは{card_ja}を入力できません"


def _summary(winners: list[int], wins: list[int], last: list[int]) -> Words:
    """The result in a sentence or two: the most wins, and when that was tied, whether the
    round-2 total broke the tie (the book) or the tied players share the win."""
    en, ja = seat_list(winners)
    most = wins[winners[0]]
    wins_en = f"{most} win{'' if most == 1 else 's'}"
    tied = [seat for seat in range(len(wins)) if wins[seat] == most]
    if len(tied) == 1:
        return f"{en} wins with {wins_en}, more than anyone.", f"{ja}が最多の{most}勝で勝ちました。"
    tied_en, tied_ja = seat_list(tied)
    if len(winners) == 1:
        beaten = max(last[seat] for seat in tied if seat not in winners)
        return (
            f"{tied_en} tied on {wins_en}; {en} wins with the higher round-2 total ({last[winners[0]]} to {beaten}).",
            f"{tied_ja}が{most}勝で並び、2ラウンド目の合計が高い{ja}の勝ちです({last[winners[0]]}対{beaten})。",
        )
    if len(winners) == len(tied):
        return (
            f"{tied_en} tied on {wins_en} and on the round-2 total ({last[winners[0]]}) and share the win.",
            f"{tied_ja}が{most}勝で並び、2ラウンド目の合計({last[winners[0]]})も同じなので勝ちを分け合いました。",
        )
    beaten = max(last[seat] for seat in tied if seat not in winners)
    return (
        f"{tied_en} tied on {wins_en}; {en} share the win with the higher round-2 total ({last[winners[0]]} to {beaten}).",
        f"{tied_ja}が{most}勝で並び、2ラウンド目の合計が高い{ja}が勝ちを分け合いました({last[winners[0]]}対{beaten})。",
    )


GAME = MeowOracleScorer()
