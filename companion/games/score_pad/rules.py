"""Score pad: the scores of any game played with its own box, round by round (issue 36).

The companion knows nothing of the game on the table; the pad is a sheet of paper with
a column per round and a row per player, and a turn marker. It keeps

- **every round's score** of every seat, a column per round; a score is changed by steps
  (:data:`STEPS`: one tap of ``+5`` on a phone, one press of ``up`` on the panel), as
  KeepScore and BoardGamesCompanion count, so every list of moves stays short and a
  number is never typed;
- **every correction**: a change to a round other than the one being scored is kept as
  ``old -> new``, with who made it (the seat that changed it) and when (the round in play
  then, and the game version, which the records turn into a clock time), and shown on
  every screen; nothing is overwritten silently. Steps in a row on the same score by the
  same seat are one correction (``12 -> 27``, not ``12 -> 22 -> 27``);
- **the turn marker**: the seat whose turn it is in the game on the table; ``pass`` hands
  the turn to the next seat clockwise. The table waits for that seat (``waiting_for``), so
  the turn clock times every turn as in the games it knows;
- **the end**: ``finish`` totals the rounds; the highest total wins, or the lowest when the
  group chose so at the start (``wins``: ``"lowest"``); tied totals share the place and the win.

Its options name the game being played (``name``, typed once on the start form, then
chosen from the names used before): the records, the statistics and BG Stats keep the
play under that name (:meth:`ScorePad.box_of`), not as "Score pad".

Anyone may act at any time: the pad lies in the middle of the table, so every seat (and
the panel) enters every seat's score. Nothing is secret. What a UI needs is documented in
``docs/trackers.md``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..base import Box, Game, Option, Words, copy_json, seat_list, seat_ref
from ..rng import Rng

STEPS = (-10, -5, -1, 1, 5, 10)
"""The changes a tap makes to a score (a phone's buttons; the panel's up and down are ±1)."""

NAME_MAX = 40
"""The longest game name the pad keeps, in characters."""

BOX_PREFIX = "score-pad:"
"""The records' board-game id of a named play is this and the name, folded (see :func:`name_key`)."""

TITLE = {"en": "Score pad", "ja": "スコアパッド"}


def name_key(name: str) -> str:
    """The form under which two game names are one game: NFKC, then case folding ("catan",
    "CATAN" and full-width "ＣＡＴＡＮ" are one), as players' names are matched."""
    return unicodedata.normalize("NFKC", name).casefold()


def _name_problem(value: Any) -> Words | None:
    """Why ``value`` cannot name the game being played, or None. "" leaves it unnamed."""
    if not isinstance(value, str):
        return ("the game's name must be text", "ゲーム名は文字で入力してください")
    if value != value.strip():
        return ("the game's name must not begin or end with a space", "ゲーム名の最初と最後に空白は入れられません")
    if len(value) > NAME_MAX:
        return (f"the game's name can have at most {NAME_MAX} characters", f"ゲーム名は{NAME_MAX}文字までです")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") for char in value):
        return ("the game's name must be one line of visible characters", "ゲーム名は見える文字の1行にしてください")
    return None


class ScorePad(Game):
    id = "score-pad"
    title = TITLE
    box = Box("score-pad", "Score pad")
    min_players = 2
    max_players = 6
    options = (
        Option("name", "", {"en": "The game you play", "ja": "遊ぶゲームの名前"}, check=_name_problem, asked=True,
               help={"en": "Its plays are kept under this name.", "ja": "記録はこの名前で残ります。"}),
        Option("wins", "highest", {"en": "Who wins", "ja": "勝つのは"}, choices=("highest", "lowest"), asked=True),
    )
    action_fields = {
        "add": ("seat", "points"),
        "open": ("round",),
        "next-round": (),
        "pass": (),
        "finish": (),
    }

    # ------------------------------------------------------------------ the game being played

    def box_of(self, options: dict) -> Box:
        name = options.get("name") or ""
        if not name:
            return self.box
        return Box(BOX_PREFIX + name_key(name), name, highest_wins=options.get("wins") != "lowest")

    def title_of(self, options: dict) -> dict:
        name = options.get("name") or ""
        return {"en": name, "ja": name} if name else dict(self.title)

    # ------------------------------------------------------------------ setup and turns

    def _setup(self, state: dict, rng: Rng) -> None:
        players = state["players"]
        state["rounds"] = [[0] * players]
        state["open"] = 0  # the round the pad shows and the steps change (0-based)
        state["turn"] = self.first_seat(state)
        state["corrections"] = []

    def _to_act(self, state: dict) -> list[int]:
        # The pad lies in the middle of the table: anyone enters anyone's score at any time.
        return list(range(state["players"]))

    def _waiting_for(self, state: dict) -> list[int]:
        # The turn marker: the table (and the turn clock) waits for the seat whose turn it is.
        return [state["turn"]]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        # In the order a panel's menu offers them: the turn passed first (ok, ok), the end last.
        actions = [{"type": "pass"}]
        actions += [{"type": "add", "seat": s, "points": step} for s in range(state["players"]) for step in STEPS]
        actions.append({"type": "next-round"})
        actions += [{"type": "open", "round": r} for r in range(len(state["rounds"])) if r != state["open"]]
        actions.append({"type": "finish"})
        return actions

    def random_action(self, state: dict, seat: int, randbelow) -> dict:
        # The list's entry drawn, built alone (the contract's random playouts draw thousands).
        players, rounds = state["players"], len(state["rounds"])
        index = randbelow(1 + players * len(STEPS) + 1 + (rounds - 1) + 1)
        if index == 0:
            return {"type": "pass"}
        index -= 1
        if index < players * len(STEPS):
            return {"type": "add", "seat": index // len(STEPS), "points": STEPS[index % len(STEPS)]}
        index -= players * len(STEPS)
        if index == 0:
            return {"type": "next-round"}
        index -= 1
        if index < rounds - 1:
            return {"type": "open", "round": index + (index >= state["open"])}
        return {"type": "finish"}

    def _is_legal(self, state: dict, seat: int, action: dict) -> bool:
        kind = action["type"]
        if kind == "add":
            target, points = action["seat"], action["points"]
            return (type(target) is int and 0 <= target < state["players"]
                    and type(points) is int and points in STEPS)
        if kind == "open":
            wanted = action["round"]
            return type(wanted) is int and 0 <= wanted < len(state["rounds"]) and wanted != state["open"]
        return True  # pass, next-round, finish: always, for anyone

    # ------------------------------------------------------------------ actions

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        if kind == "add":
            self._add(state, seat, action["seat"], action["points"])
        elif kind == "open":
            state["open"] = action["round"]
            number = action["round"] + 1
            self.log(state, f"{seat_ref(seat)} turns the pad to round {number}",
                     f"{seat_ref(seat)}が{number}ラウンド目を開きました")
        elif kind == "next-round":
            state["rounds"].append([0] * state["players"])
            state["open"] = len(state["rounds"]) - 1
            number = len(state["rounds"])
            self.log(state, f"Round {number}", f"{number}ラウンド目")
        elif kind == "pass":
            state["turn"] = (state["turn"] + 1) % state["players"]
            self.log(state, f"{seat_ref(state['turn'])}'s turn", f"{seat_ref(state['turn'])}の番です")
        else:
            self._finish(state)

    def _add(self, state: dict, by: int, seat: int, points: int) -> None:
        """``by`` changes ``seat``'s score in the open round by ``points``; a change to a round
        before the newest is a correction, kept (one per run of steps by ``by`` on that score)."""
        index = state["open"]
        old = state["rounds"][index][seat]
        new = old + points
        state["rounds"][index][seat] = new
        number = index + 1
        sign = f"{points:+d}"
        who, whose = seat_ref(by), seat_ref(seat)
        newest = len(state["rounds"]) - 1
        if index == newest:
            self.log(state, f"{whose} {sign} in round {number}: {new}", f"{whose} {number}ラウンド目 {sign}: {new}点")
            return
        corrections = state["corrections"]
        last = corrections[-1] if corrections else None
        if last and last["v"] == state["version"] - 1 and (last["round"], last["seat"], last["by"]) == (index, seat, by):
            last.update(new=new, v=state["version"])  # the same hand still at work on the same score
        else:
            corrections.append({"round": index, "seat": seat, "old": old, "new": new, "by": by,
                                "during": newest, "v": state["version"]})
        before = corrections[-1]["old"]
        self.log(state, f"{who} corrects {whose}'s round {number}: {before} → {new}",
                 f"{who}が{whose}の{number}ラウンド目を訂正: {before} → {new}")

    def _finish(self, state: dict) -> None:
        players = state["players"]
        totals = _totals(state)
        lowest = state["options"]["wins"] == "lowest"
        better = (lambda a, b: a < b) if lowest else (lambda a, b: a > b)
        places = [1 + sum(1 for other in totals if better(other, totals[s])) for s in range(players)]
        ranking = [{"seat": s, "place": places[s], "total": totals[s]}
                   for s in sorted(range(players), key=lambda s: (places[s], s))]
        winners = [entry["seat"] for entry in ranking if entry["place"] == 1]
        names_en, names_ja = seat_list(winners)
        best = totals[winners[0]]
        rounds = len(state["rounds"])
        rule_en = "lowest total wins" if lowest else "highest total wins"
        rule_ja = "合計の少ない人の勝ち" if lowest else "合計の多い人の勝ち"
        if len(winners) == 1:
            en = f"{names_en} wins with {best} points after {rounds} round{'s' if rounds > 1 else ''} ({rule_en})."
            ja = f"{rounds}ラウンドの合計{best}点で{names_ja}の勝ち（{rule_ja}）。"
        else:
            en = f"{names_en} tie on {best} points and share the win after {rounds} round{'s' if rounds > 1 else ''} ({rule_en})."
            ja = f"{rounds}ラウンドの合計{best}点で{names_ja}が同点、勝ちを分け合います（{rule_ja}）。"
        self.log(state, en, ja)
        state["open"] = len(state["rounds"]) - 1  # the sheet as it ends: the round in play on top
        self.finish(state, {"winners": winners, "scores": {str(s): totals[s] for s in range(players)},
                            "ranking": ranking, "rounds": copy_json(state["rounds"]),
                            "corrections": copy_json(state["corrections"]),
                            "lowest_wins": lowest, "summary": {"en": en, "ja": ja}})

    # ------------------------------------------------------------------ explanations

    def _explain(self, state: dict, seat: int, action: dict) -> Words | None:
        kind = action["type"]
        if kind == "add":
            target, points = action["seat"], action["points"]
            if type(target) is not int or not 0 <= target < state["players"]:
                return (f"'seat' must be a seat number from 0 to {state['players'] - 1}, not {target!r}",
                        f"'seat' は 0 から {state['players'] - 1} までの席の番号です（{target!r} は使えません）")
            steps = ", ".join(f"{step:+d}" for step in STEPS)
            return (f"'points' is one step of {steps}, not {points!r}",
                    f"'points' は {steps} のどれかです（{points!r} は使えません）")
        if kind == "open":
            wanted, rounds = action["round"], len(state["rounds"])
            if wanted == state["open"]:
                return (f"round {wanted + 1} is open already", f"{wanted + 1}ラウンド目はもう開いています")
            return (f"'round' must be a round of the pad, from 0 (round 1) to {rounds - 1} (round {rounds}), not {wanted!r}",
                    f"'round' は 0（1ラウンド目）から {rounds - 1}（{rounds}ラウンド目）までです（{wanted!r} は使えません）")
        return None

    def start_player(self, state: dict) -> int | None:
        """The seat the turn marker started on."""
        return self.first_seat(state)

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """Nothing is hidden: the view shows the whole state."""
        public = view["public"]
        state.update(rounds=copy_json(public["rounds"]), open=public["open"], turn=public["turn"],
                     corrections=copy_json(public["corrections"]))

    def _public_view(self, state: dict) -> dict:
        return {
            "step": "over" if state["result"] else "scoring",
            "name": state["options"]["name"],
            "lowest_wins": state["options"]["wins"] == "lowest",
            "rounds": state["rounds"],
            "open": state["open"],
            "turn": state["turn"],
            "totals": _totals(state),
            "corrections": state["corrections"],
            "steps": list(STEPS),
            "ranking": state["result"]["ranking"] if state["result"] else None,
        }

    def _private_view(self, state: dict, seat: int) -> dict:
        return {}  # the pad lies face up on the table


def _totals(state: dict) -> list[int]:
    return [sum(column[seat] for column in state["rounds"]) for seat in range(state["players"])]


GAME = ScorePad()
