"""Lion Square ledger: the herd cards of a Lion Square game played with the real cards.

It replaces each player's herd card and paperclip. The players play the rounds with the
physical cards; at the end of each round every player enters, on their own phone, the
herd they lose (RULINGS.md §1, "Damage"), either

* as one number they worked out themselves (``loss``), or
* through the helper, which asks for what the table shows and computes the loss with
  :func:`lion_square.damage`, the one place the damage rules live: the number on the card
  nearest to them on each of the three lines running away from them (``nearest``), how
  many face-down cards they took this round (``taken``) and the gazelles left in their
  hand (``gazelles``).

An entry can be corrected by its owner until the last player has entered; that entry
ends the round at once: every herd loses its entry. The game ends when a herd is at 0 or
below, or after round 3, and only then are the herds revealed, with the winners (the
highest herd, ties sharing the win) or, when every herd is at 0 or below, the lions.

Flow (the public view's ``step``)::

    entering    every seat enters its loss; who has entered is public, the losses not
    round-end   the round is over and no herd is gone; any seat starts the next round
    over        the herds, the losses and the winners are revealed

Herds and losses are secret to their owner until the game ends, as the herd card is
(RULINGS §1, "Hidden information"): a loss is the change of a herd, so it is as secret.
What the UI needs is documented in ``docs/trackers.md``.
"""

from __future__ import annotations

from collections import Counter

from ..base import FIRST_PLAYER, Game, Hidden, Place, Words, seat_list, seat_ref, whole_number_problem
from .rules import (
    BOX,
    CARNIVORE_COUNT,
    GAZELLE_COUNT,
    HERD_START,
    ROUNDS,
    SPECIES,
    damage,
    herd_winners,
    result_summary,
)
from ..rng import Rng

LINES = 3
"""Lines running away from each player across the 3 × 3 square."""

_CARDS_NUMBERED = Counter(n for species in SPECIES for n in species["numbers"])
"""How many carnivore cards of the (assumed) deck carry each number."""

NEAREST_NUMBERS = tuple(sorted({0, *_CARDS_NUMBERED}))
"""What the helper accepts as the nearest number on a line: every number in the deck file,
and 0, which also stands for an empty line or a gazelle (both count nothing)."""

MAX_TAKEN = CARNIVORE_COUNT + GAZELLE_COUNT - 1
"""The most face-down cards one player can have taken in a round: every card but the one
the field always keeps (a take is always followed by placing a card)."""


def _helper_field(nearest: list[int]) -> list[list[dict | None]]:
    """A field that shows ``nearest`` to the south side, for :func:`lion_square.damage`.

    The player reads the three lines from their own side; seen from the south those lines
    are the columns, and the card nearest to the south is the bottom row. A 0 becomes an
    empty line (a 0 card or a gazelle would count the same); any other number becomes a
    real card of the deck with that number, each card used once."""
    used: set[tuple[str, int]] = set()
    bottom_row: list[dict | None] = []
    for number in nearest:
        if number == 0:
            bottom_row.append(None)
            continue
        colour = next(s["id"] for s in SPECIES if number in s["numbers"] and (s["id"], number) not in used)
        used.add((colour, number))
        bottom_row.append({"color": colour, "n": number})
    return [[None] * LINES, [None] * LINES, bottom_row]


def _helper_loss(nearest: list[int], taken: int, gazelles: int) -> int:
    """The loss the helper computes: the damage of a player on the south side."""
    return damage(_helper_field(nearest), "S", taken, gazelles)


MAX_LOSS = _helper_loss(sorted(_CARDS_NUMBERED.elements())[-LINES:], MAX_TAKEN, GAZELLE_COUNT)
"""The largest loss the helper can give (the three highest cards nearest, every card but
one taken, every gazelle in hand): the upper bound of a typed loss too."""

_HELPER_TYPES = ("nearest", "taken", "gazelles")

_STEP_NOW = {
    "entering": ("the losses of the round are being entered", "このラウンドの被害を入力しているところです"),
    "round-end": (
        "the round is over; start the next one first ('next-round')",
        "ラウンドが終わりました。先に次のラウンドを始めてください('next-round')",
    ),
}
"""What is going on in each step, for error messages."""


class LionSquareLedger(Game):
    id = "lion-square-ledger"
    title = {"en": "Lion Square ledger", "ja": "らいおんスクエア 群れ記録"}
    box = BOX
    min_players = 3
    max_players = 4
    action_fields = {
        "loss": ("loss",),
        "clear-loss": (),
        "nearest": ("line", "n"),
        "taken": ("count",),
        "gazelles": ("count",),
        "next-round": (),
    }
    options = ()

    # ------------------------------------------------------------------ setup and turns

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        state["step"] = "entering"
        state["round"] = 1
        state["losses"] = [[] for _ in range(players)]
        state["entries"] = [_blank_entry() for _ in range(players)]

    def _to_act(self, state: dict) -> list[int]:
        # Entries are simultaneous, and any seat (or the panel acting for one) may start
        # the next round once a round is over.
        return list(range(state["players"]))

    def _waiting_for(self, state: dict) -> list[int]:
        # Those who have entered may only correct; the round-end pause waits for the table.
        if state["step"] != "entering":
            return []
        return [seat for seat, entry in enumerate(state["entries"]) if _entry_loss(entry) is None]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        if state["step"] == "round-end":
            return [{"type": "next-round"}]
        entry = state["entries"][seat]
        actions = [{"type": "loss", "loss": loss} for loss in range(MAX_LOSS + 1)]
        if entry["typed"] is not None:
            # A typed loss stands until it is cleared; the helper waits till then.
            actions.append({"type": "clear-loss"})
            return actions
        for line in range(LINES):
            actions.extend({"type": "nearest", "line": line, "n": n} for n in _nearest_choices(entry["nearest"], line))
        actions.extend({"type": "taken", "count": count} for count in range(MAX_TAKEN + 1))
        actions.extend({"type": "gazelles", "count": count} for count in range(GAZELLE_COUNT + 1))
        return actions

    # ------------------------------------------------------------------ actions

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        if kind == "next-round":
            state["round"] += 1
            state["step"] = "entering"
            state["entries"] = [_blank_entry() for _ in range(state["players"])]
            number = state["round"]
            self.log(state, f"Round {number} begins", f"{number}ラウンド目を始めます")
            return
        entry = state["entries"][seat]
        before = _entry_loss(entry)
        if kind == "loss":
            # One way of entering at a time: a typed loss discards what the helper was given.
            state["entries"][seat] = {**_blank_entry(), "typed": action["loss"]}
        elif kind == "clear-loss":
            entry["typed"] = None
        elif kind == "nearest":
            entry["nearest"][action["line"]] = action["n"]
        else:
            entry[kind] = action["count"]
        self._log_entry_change(state, seat, before, _entry_loss(state["entries"][seat]))
        if all(_entry_loss(e) is not None for e in state["entries"]):
            self._end_round(state)

    def _log_entry_change(self, state: dict, seat: int, before: int | None, after: int | None) -> None:
        """Log an entry being made, changed or withdrawn: publicly that it happened, and to
        its owner what the loss now is. Helper answers that complete nothing are not logged."""
        who = seat_ref(seat)
        if before == after:
            return
        if before is None:
            public = (f"{who} has entered", f"{who}が入力しました")
        elif after is None:
            public = (f"{who} withdrew their entry", f"{who}が入力を取り消しました")
        else:
            public = (f"{who} corrected their entry", f"{who}が入力を訂正しました")
        if after is None:
            mine = ("You withdrew your entry", "入力を取り消しました")
        else:
            mine = (f"Your loss this round: {after}", f"このラウンドの被害: {after}")
        self.log(state, *public, private={seat: mine})

    def _end_round(self, state: dict) -> None:
        """Everyone has entered: every herd loses its entry; end the game or the round."""
        players = state["players"]
        number = state["round"]
        private = {}
        for seat in range(players):
            loss = _entry_loss(state["entries"][seat])
            state["losses"][seat].append(loss)
            herd = _herd(state, seat)
            private[seat] = (
                f"Round {number}: your herd loses {loss} and is now {herd}",
                f"{number}ラウンド目: 群れが{loss}減って{herd}になりました",
            )
        state["entries"] = [_blank_entry() for _ in range(players)]
        self.log(state, f"Round {number} is over: the herds are hunted", f"{number}ラウンド目終了: 群れが狩られました", private)
        herds = [_herd(state, seat) for seat in range(players)]
        herd_gone = any(herd <= 0 for herd in herds)
        if herd_gone or number == ROUNDS:
            self._finish_game(state, herds, "herd-gone" if herd_gone else "last-round")
        else:
            state["step"] = "round-end"

    def _finish_game(self, state: dict, herds: list[int], reason: str) -> None:
        """The highest herd wins and ties share the win; when every herd is at 0 or below,
        the lions win and nobody does (the book's last paragraph)."""
        players = state["players"]
        winners, lions_win = herd_winners(herds)
        state["step"] = "over"
        shown = ", ".join(f"{seat_ref(s)} {herds[s]}" for s in range(players))
        if lions_win:
            self.log(state, f"Every herd is gone: the lions win ({shown})", f"すべての群れが0以下: ライオンの勝ち ({shown})")
        else:
            en, ja = seat_list(winners)
            self.log(state, f"{en} {'win' if len(winners) > 1 else 'wins'} ({shown})", f"{ja}の勝ち ({shown})")
        en, ja = result_summary(winners, herds, lions_win)
        self.finish(
            state,
            {
                "winners": winners,
                "scores": {str(s): herds[s] for s in range(players)},
                "herds": herds,
                "losses": state["losses"],
                "lions_win": lions_win,
                "reason": reason,
                "summary": {"en": en, "ja": ja},
            },
        )

    # ------------------------------------------------------------------ explanations

    def _explain(self, state: dict, seat: int, action: dict) -> Words:
        kind = action["type"]
        allowed = ", ".join(sorted({a["type"] for a in self._legal_actions(state, seat)}))
        step = state["step"]
        if (step == "round-end") != (kind == "next-round"):
            now_en, now_ja = _STEP_NOW[step]
            return (
                f"{kind!r} is not possible now: {now_en} (allowed now: {allowed})",
                f"いまは {kind!r} はできません。{now_ja}(いまできる行動: {allowed})",
            )
        entry = state["entries"][seat]
        if kind == "loss":
            return whole_number_problem("loss", action["loss"], 0, MAX_LOSS, ("the herd you lose", "失う群れの数"))
        if kind == "clear-loss":
            return ("you have not typed a loss, so there is none to clear", "被害を直接入力していないので、取り消すものはありません")
        if entry["typed"] is not None:
            return (
                f"you typed a loss of {entry['typed']}: clear it first ('clear-loss') to use the helper instead",
                f"被害{entry['typed']}を直接入力済みです。計算の手伝いを使うには、先にそれを取り消してください('clear-loss')",
            )
        if kind == "taken":
            return whole_number_problem(
                "count", action["count"], 0, MAX_TAKEN,
                ("the face-down cards you took (one card always stays on the field)",
                 "取って裏向きに置いたカードの枚数(場には必ず1枚残ります)"),
            )
        if kind == "gazelles":
            return whole_number_problem(
                "count", action["count"], 0, GAZELLE_COUNT,
                (f"the gazelles in your hand (there are {GAZELLE_COUNT})",
                 f"手札に残ったガゼルカードの枚数(全部で{GAZELLE_COUNT}枚)"),
            )
        problem = whole_number_problem(
            "line", action["line"], 0, LINES - 1, ("a line (0 left, 1 middle, 2 right)", "列(0 左、1 中央、2 右)")
        )
        if problem:
            return problem
        number = action["n"]
        if type(number) is not int or number not in NEAREST_NUMBERS:
            shown = ", ".join(str(n) for n in NEAREST_NUMBERS)
            return (
                f"'n' must be a card number ({shown}; 0 also for an empty line or a gazelle), not {number!r}",
                f"'n' にはカードの数字({shown}。空の列やガゼルカードも0)を入れてください({number!r} は使えません)",
            )
        return (
            f"the deck has only {_CARDS_NUMBERED[number]} card(s) numbered {number}, "
            "and your other lines already show them all",
            f"数字{number}のカードは{_CARDS_NUMBERED[number]}枚しかなく、あなたのほかの列ですべて使われています",
        )

    # ------------------------------------------------------------------ views

    def start_player(self, state: dict) -> int | None:
        """The ledger follows herds and losses, not turns: who started is only known when it
        was drawn (the first-player draw), else never entered."""
        return state["options"].get(FIRST_PLAYER)

    def _public_view(self, state: dict) -> dict:
        players = state["players"]
        entered = [_entry_loss(e) is not None for e in state["entries"]]
        result = state["result"]
        return {
            "step": state["step"],
            "round": state["round"],
            "rounds": ROUNDS,
            "start_herd": HERD_START,
            "entered": entered,
            "waiting": [s for s in range(players) if not entered[s]] if state["step"] == "entering" else [],
            "limits": {
                "loss": MAX_LOSS,
                "nearest": list(NEAREST_NUMBERS),
                "taken": MAX_TAKEN,
                "gazelles": GAZELLE_COUNT,
            },
            "herds": result["herds"] if result else None,
            "losses": result["losses"] if result else None,
            "lions_win": result["lions_win"] if result else None,
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        entry = state["entries"][seat]
        return {
            "herd": _herd(state, seat),
            "losses": state["losses"][seat],
            "entry": {
                "how": "typed" if entry["typed"] is not None else "helper",
                "typed": entry["typed"],
                "nearest": entry["nearest"],
                "taken": entry["taken"],
                "gazelles": entry["gazelles"],
                "loss": _entry_loss(entry),
            },
        }

    # ------------------------------------------------------------------ plumbing

    def _copy(self, state: dict) -> dict:
        # The log (Game.log replaces it) and its entries are never changed in place, so they can be shared.
        new = dict(state)
        new["losses"] = [losses[:] for losses in state["losses"]]
        new["entries"] = [{**entry, "nearest": entry["nearest"][:]} for entry in state["entries"]]
        return new

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """The other seats' losses are taken as none (their sum is the secret the ledger
        keeps) unless the game is over, and an entry it shows as made as a typed loss of 0."""
        public, private, me = view["public"], view["private"], view["seat"]
        rounds = len(private["losses"])
        losses = public["losses"] or [list(private["losses"]) if seat == me else [0] * rounds
                                      for seat in range(view["players"])]
        mine = private["entry"]
        entries = [dict(_blank_entry(), typed=0) if entered else _blank_entry() for entered in public["entered"]]
        entries[me] = {"typed": mine["typed"], "nearest": list(mine["nearest"]), "taken": mine["taken"],
                       "gazelles": mine["gazelles"]}
        state.update(step=public["step"], round=public["round"], losses=[list(seat) for seat in losses], entries=entries)

    def _hidden(self, state: dict, seat: int | None) -> list[Hidden]:
        """While the game is on, the other seats' losses so far, and their entries: an entry
        trades places only with one filled in alike (who has entered what is public)."""
        if state["result"] is not None:
            return []  # the game is over: everything is revealed
        others = [other for other in range(state["players"]) if other != seat]
        alike: dict[tuple, list[Place]] = {}
        for other in others:
            shape = tuple(value is None for value in (*state["entries"][other]["nearest"], *(
                state["entries"][other][key] for key in ("typed", "taken", "gazelles"))))
            alike.setdefault(shape, []).append(Place(("entries", other)))
        return [Hidden(tuple(Place(("losses", other)) for other in others)),
                *(Hidden(tuple(places)) for places in alike.values())]


# ---------------------------------------------------------------------- helpers


def _blank_entry() -> dict:
    """A seat's entry before it enters anything: a typed loss, or the helper's answers."""
    return {"typed": None, "nearest": [None] * LINES, "taken": None, "gazelles": None}


def _entry_loss(entry: dict) -> int | None:
    """The loss an entry gives: the typed one, the helper's once it has every answer, else None."""
    if entry["typed"] is not None:
        return entry["typed"]
    if None in entry["nearest"] or entry["taken"] is None or entry["gazelles"] is None:
        return None
    return _helper_loss(entry["nearest"], entry["taken"], entry["gazelles"])


def _nearest_choices(nearest: list[int | None], line: int) -> list[int]:
    """The numbers ``line`` may show given the other lines: 0, and every number of which
    the deck holds more cards than the other lines already show."""
    others = Counter(n for i, n in enumerate(nearest) if i != line and n)
    return [n for n in NEAREST_NUMBERS if n == 0 or others[n] < _CARDS_NUMBERED[n]]


def _herd(state: dict, seat: int) -> int:
    return HERD_START - sum(state["losses"][seat])


GAME = LionSquareLedger()
