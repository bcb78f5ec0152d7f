"""Pig House (絶対安全‼3匹のこぶたハウス): a tracker for the physical game.

The rule book describes the board, the tiles and the wolves' attack ranges only in
pictures we do not have, so the companion does not model the house. The players
place tiles, move pigs and decide what an attack hits on the real board; the tracker
runs everything else (RULINGS.md section 4): whose turn and which step, the phase
switch from scouting to chaotic building, the die, the wolves on their track, the
wolf cards and the attack schedule, happenings, pots, pigs left, invincibility, both
endings and the ranking with its tie-breakers.

The components the book does not list (the track layout, the die faces, the wolf and
happening decks) come from an *edition*: the shipped, assumed one
(``edition.json``) or the owner's own, whose content (read with
:func:`load_edition`) is given in the ``edition`` option. :func:`validate_edition`
refuses a bad one naming the field. The option holds the content, never a path: a
game's options are recorded with it, so it replays the same even if the file changes
or goes, and a phone starting a game cannot make the companion read a file.

A turn walks through ``step`` values (the public view carries the current one):

scouting (下見)           pig_action -> wolf_move | key_wolf_card
chaotic building (ドタバタ建築)
                          roll -> pigs -> wolf_move | key_wolf_card
                          -> [happening] -> [attack]
end of game               [tiebreak_ground] -> [tiebreak_outer]

``docs/rules/pig-house.md`` lists every action and view key.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ..base import UNSEEN, Box, Game, Hidden, Option, Place, Words, seat_list, seat_ref
from ..rng import Rng

PIGS_PER_PLAYER = 3
MAX_WOLVES = 3
MAX_POTS = 3
TILES_ON_OFFER = 5
FOREST = 0
"""The forest square: where the first wolf starts and where a lone wolf that fell in a pot reappears."""

CORNERS = ("top_right", "bottom_left")
"""The two corner squares that hold a face-down happening card each, in the order they are resolved."""

WOLF_KINDS = ("direct", "floor", "water", "dig", "flying")
"""Attack kinds of wolf cards. Only a direct attack (the fist icon) can drop a wolf into a pot;
a dig card marks the floor under the leading wolf when it is revealed."""

HAPPENING_EFFECTS = ("add_wolf", "table")
"""What a happening does to the tracker: ``add_wolf`` puts a wolf on ``square`` (unless 3 are
out); ``table`` changes nothing the tracker follows: the players do what its text says."""

PIG_ACTIONS = ("tile", "move")
MIN_WOLF_CARDS = 6
"""The largest table (4 chips) plus the two cards a movement needs from the reshuffled discards."""

_SHARED_ON_COPY = frozenset(("edition", "options", "last_move", "result", "log"))
_FLAT_ON_COPY = frozenset(
    ("schedule", "deck", "discard", "movement_pile", "happening_deck", "happening_discard", "pigs", "invincibility_used")
)
"""How PigHouse._copy treats state keys: shared as they are, or copied as flat lists."""

_NO_PIG_LEFT = (
    "you have no pig left to lose or to protect: the game ends when this attack is declared done",
    "あなたにはやられる・守るこぶたが残っていません。この攻撃の終了が宣言されるとゲームが終わります",
)

_KEYING_WORDS = {
    "placed": ("the card just placed beside the deck", "山札の横に置いたカード"),
    "top": ("the new top card of the deck", "山札の新しい一番上のカード"),
    "first": ("the first card from the reshuffled discards", "捨て札を混ぜ直した山の1枚目"),
    "second": ("the second card from the reshuffled discards", "捨て札を混ぜ直した山の2枚目"),
}
"""Which physical wolf card is keyed in next (see PigHouse._keying), in words."""

STEP_TEXT = {
    "pig_action": ("the one pig action of a scouting turn", "下見の手番のこぶたアクション1回"),
    "roll": ("rolling the die", "サイコロを振るところ"),
    "pigs": ("the pig actions (and the pot) after the roll", "サイコロのあとのこぶたアクション(となべ)"),
    "wolf_move": ("moving the wolves", "オオカミの移動"),
    "key_wolf_card": ("keying in the wolf card numbers", "オオカミカードの数字の入力"),
    "happening": ("resolving the happenings", "ハプニングの処理"),
    "attack": ("the wolf attack", "オオカミの攻撃"),
    "tiebreak_ground": ("keying in the pigs standing on the ground", "地面に足がついているこぶたの数の入力"),
    "tiebreak_outer": ("keying in the pigs on outer squares", "外側のマスにいるこぶたの数の入力"),
    "over": ("nothing: the game is over", "なし(ゲームは終了しています)"),
}


# ---------------------------------------------------------------------------- editions


def _field_error(field: str, problem: str, value: Any) -> ValueError:
    return ValueError(f"edition field '{field}' {problem}, not {json.dumps(value, ensure_ascii=False)}")


def _whole(data: dict, key: str, field: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _field_error(field, f"must be a whole number from {low} to {high}", value)
    return value


def _text(value: Any, field: str) -> None:
    if not isinstance(value, dict) or not all(isinstance(value.get(lang), str) and value[lang] for lang in ("en", "ja")):
        raise _field_error(field, 'must be {"en": "...", "ja": "..."} with both texts filled in', value)


def _only_keys(data: dict, field: str, allowed: set[str]) -> None:
    unknown = sorted(k for k in data if k not in allowed and not k.startswith("_"))
    if unknown:
        raise ValueError(f"edition field '{field}' has unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")


def _list(data: dict, key: str, minimum: int) -> list:
    value = data.get(key)
    if not isinstance(value, list) or len(value) < minimum:
        raise _field_error(key, f"must be a list of at least {minimum} entries", value)
    return value


def validate_edition(data: Any) -> dict:
    """Check an edition (the parsed JSON of an edition file); return it, or raise ValueError
    naming the first bad field and saying why. Keys starting with ``_`` are notes and ignored."""
    if not isinstance(data, dict):
        raise ValueError("an edition must be a JSON object")
    _only_keys(data, "(top level)", {"name", "track", "die", "wolf_cards", "happenings", "happening_reshuffle"})
    if not isinstance(data.get("name"), str) or not data["name"].strip():
        raise _field_error("name", "must be a non-empty text", data.get("name"))

    track = data.get("track")
    if not isinstance(track, dict):
        raise _field_error("track", "must be an object with length, events and corners", track)
    _only_keys(track, "track", {"length", "events", "corners"})
    length = _whole(track, "length", "track.length", 4, 200)
    events = track.get("events")
    if not isinstance(events, list):
        raise _field_error("track.events", "must be a list of square numbers", events)
    for index, square in enumerate(events):
        if not isinstance(square, int) or isinstance(square, bool) or not 1 <= square < length:
            raise _field_error(f"track.events[{index}]", f"must be a square from 1 to {length - 1} (0 is the forest)", square)
    if len(set(events)) != len(events):
        raise _field_error("track.events", "must not list a square twice", events)
    corners = track.get("corners")
    if not isinstance(corners, dict) or set(corners) != set(CORNERS):
        raise _field_error("track.corners", f"must be an object with exactly the keys {' and '.join(CORNERS)}", corners)
    for name in CORNERS:
        _whole(corners, name, f"track.corners.{name}", 1, length - 1)
    if corners[CORNERS[0]] == corners[CORNERS[1]]:
        raise _field_error("track.corners", "must name two different squares", corners)

    die = _list(data, "die", 1)
    for index, face in enumerate(die):
        if not isinstance(face, dict):
            raise _field_error(f"die[{index}]", 'must be an object like {"pigs": 2, "pot": false}', face)
        _only_keys(face, f"die[{index}]", {"pigs", "pot"})
        _whole(face, "pigs", f"die[{index}].pigs", 0, 9)
        if not isinstance(face.get("pot"), bool):
            raise _field_error(f"die[{index}].pot", "must be true or false", face.get("pot"))

    cards = _list(data, "wolf_cards", MIN_WOLF_CARDS)
    ids: set[str] = set()
    for index, card in enumerate(cards):
        field = f"wolf_cards[{index}]"
        if not isinstance(card, dict):
            raise _field_error(field, "must be an object with id, number, kind and name", card)
        _only_keys(card, field, {"id", "number", "kind", "name"})
        _check_id(card, field, ids)
        _whole(card, "number", f"{field}.number", 1, 20)
        if card.get("kind") not in WOLF_KINDS:
            raise _field_error(f"{field}.kind", f"must be one of {', '.join(WOLF_KINDS)}", card.get("kind"))
        _text(card.get("name"), f"{field}.name")

    happenings = _list(data, "happenings", len(CORNERS))
    for index, card in enumerate(happenings):
        field = f"happenings[{index}]"
        if not isinstance(card, dict):
            raise _field_error(field, "must be an object with id, effect, name and text", card)
        _only_keys(card, field, {"id", "effect", "square", "name", "text"})
        _check_id(card, field, ids)
        if card.get("effect") not in HAPPENING_EFFECTS:
            raise _field_error(f"{field}.effect", f"must be one of {', '.join(HAPPENING_EFFECTS)}", card.get("effect"))
        if card["effect"] == "add_wolf":
            _whole(card, "square", f"{field}.square", 0, length - 1)
        elif "square" in card:
            raise _field_error(f"{field}.square", "is only for add_wolf happenings", card["square"])
        _text(card.get("name"), f"{field}.name")
        _text(card.get("text"), f"{field}.text")

    if not isinstance(data.get("happening_reshuffle"), bool):
        raise _field_error("happening_reshuffle", "must be true or false", data.get("happening_reshuffle"))
    return data


def _check_id(card: dict, field: str, seen: set[str]) -> None:
    card_id = card.get("id")
    if not isinstance(card_id, str) or not card_id:
        raise _field_error(f"{field}.id", "must be a non-empty text", card_id)
    if card_id in seen:
        raise _field_error(f"{field}.id", "is used twice (ids must be unique across wolf and happening cards)", card_id)
    seen.add(card_id)


def load_edition(path: str | None = None) -> dict:
    """The validated edition in the file at ``path``, or the shipped (assumed) one for None."""
    if path is None:
        return _clone(_shipped_edition())
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise ValueError(f"cannot read the edition file {path!r}: {error.strerror or error}") from None
    return _parse_edition(text, repr(path))


@lru_cache(maxsize=1)
def _shipped_edition() -> dict:
    text = resources.files(__package__).joinpath("edition.json").read_text(encoding="utf-8")
    return _parse_edition(text, "shipped with the companion")


def _parse_edition(text: str, where: str) -> dict:
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ValueError(f"the edition file {where} is not valid JSON: {error}") from None
    try:
        return validate_edition(data)
    except ValueError as error:
        raise ValueError(f"the edition file {where} is refused: {error}") from None


def _check_edition_option(value: Any) -> Words | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        given = json.dumps(value, ensure_ascii=False)[:80]
        return ("option 'edition' must be null (the shipped edition) or the content of an edition file "
                f"(a JSON object, not a path), not {given}",
                "設定 'edition' は null（同梱の版）か、版ファイルの中身（パスではなく JSON オブジェクト）にしてください"
                f"（{given} は使えません）")
    try:
        validate_edition(_clone(value))
    except ValueError as error:
        return f"option 'edition' is refused: {error}", f"設定 'edition' の版ファイルは使えません: {error}"
    return None


def _clone(value: Any) -> Any:
    """A deep copy of plain JSON, several times faster than a JSON round trip."""
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


# ---------------------------------------------------------------------------- the tracker


class PigHouse(Game):
    id = "pig-house"
    title = {"en": "Pig House (tracker)", "ja": "絶対安全‼3匹のこぶたハウス(トラッカー)"}
    box = Box("pig-house", "Pig House (絶対安全‼3匹のこぶたハウス)")
    min_players = 2
    max_players = 4
    action_fields = {
        "pig_action": ("kind",),
        "roll": (),
        "die_face": ("face",),
        "pot": ("action",),
        "move_wolves": (),
        "wolf_card": ("card", "number"),
        "happenings_done": (),
        "pig_lost": (),
        "invincible": (),
        "wolf_potted": ("wolf",),
        "attack_done": (),
        "ground_pigs": ("count",),
        "outer_pigs": ("count",),
    }
    options = (
        Option(
            "wolf_deck",
            "virtual",
            {"en": "Wolf cards", "ja": "オオカミカード"},
            choices=("virtual", "physical"),
            help={
                "en": "virtual: the companion shuffles and draws the edition's wolf deck; "
                "physical: you draw the real cards and key in their two numbers",
                "ja": "virtual: コンパニオンが山札を引く / physical: 実物のカードを引き、2枚の数字を入力する",
            },
        ),
        Option(
            "die",
            "virtual",
            {"en": "Die", "ja": "サイコロ"},
            choices=("virtual", "physical"),
            help={"en": "virtual: the companion rolls; physical: roll the real die and key in its face",
                  "ja": "virtual: コンパニオンが振る / physical: 実物を振って出目を入力する"},
        ),
        Option(
            "edition",
            None,
            {"en": "Edition file", "ja": "エディションファイル"},
            check=_check_edition_option,
            help={"en": "null for the shipped (assumed) track, die and decks, or the content of your own edition file",
                  "ja": "null で同梱の推定データ、または自分のエディションファイルの内容(JSON)"},
        ),
    )

    # ------------------------------------------------------------------ setup

    def _setup(self, state: dict, rng: Rng) -> None:
        chosen = state["options"]["edition"]
        edition = _clone(_shipped_edition() if chosen is None else chosen)
        players = state["players"]
        virtual = state["options"]["wolf_deck"] == "virtual"
        happenings = [card["id"] for card in edition["happenings"]]
        rng.shuffle(happenings)
        state.update(
            edition=edition,
            phase="scouting",
            turn=None,
            scout_distance=0,
            wolves=[{"id": 1, "square": FOREST}],
            next_wolf_id=2,
            schedule=[None] * players,
            reshuffled=False,
            last_move=None,
            corner_cards={name: happenings.pop() for name in CORNERS},
            happening_deck=happenings,
            happening_discard=[],
            pots=0,
            pigs=[PIGS_PER_PLAYER] * players,
            invincibility_used=[False] * players,
            ending=None,
            tiebreak=None,
        )
        if virtual:
            deck = [card["id"] for card in edition["wolf_cards"]]
            rng.shuffle(deck)
            state.update(deck=deck, discard=[], movement_pile=[])
        else:
            state["deck_left"] = len(edition["wolf_cards"])
        first = self.first_seat(state)
        self.log(
            state,
            f"Scouting begins; {seat_ref(first)} starts. Wolves at the forest, {players} attack chips.",
            f"下見開始。スタートプレイヤーは{seat_ref(first)}。オオカミは森のマス、攻撃予定チップ{players}枚。",
        )
        self._begin_turn(state, first, number=1)

    # ------------------------------------------------------------------ whose turn, what is legal

    def _to_act(self, state: dict) -> list[int]:
        turn = state["turn"]
        step = turn["step"]
        if step == "attack":
            return [s for s in range(state["players"]) if s == turn["seat"] or self._may_lose_pigs(state, s)]
        if step in ("tiebreak_ground", "tiebreak_outer"):
            return sorted(state["tiebreak"]["waiting"])
        return [turn["seat"]]

    def _waiting_for(self, state: dict) -> list[int]:
        # An attack ends when the player whose turn it is declares it done; the others may
        # report a pig lost or invincibility meanwhile, but the attack does not wait for them.
        turn = state["turn"]
        if turn["step"] == "attack":
            return [turn["seat"]]
        return self._to_act(state)

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        turn = state["turn"]
        step = turn["step"]
        if step == "pig_action":
            return [{"type": "pig_action", "kind": kind} for kind in PIG_ACTIONS]
        if step == "roll":
            if state["options"]["die"] == "virtual":
                return [{"type": "roll"}]
            return [{"type": "die_face", "face": i} for i in range(len(state["edition"]["die"]))]
        if step == "pigs":
            actions = []
            if turn["pigs_left"]:
                actions += [{"type": "pig_action", "kind": kind} for kind in (*PIG_ACTIONS, "pass")]
            if turn["pot_pending"]:
                place = "move" if state["pots"] == MAX_POTS else "place"
                actions += [{"type": "pot", "action": place}, {"type": "pot", "action": "skip"}]
            return actions
        if step == "wolf_move":
            return [{"type": "move_wolves"}]
        if step == "key_wolf_card":
            card = self._keying(state)
            return [{"type": "wolf_card", "card": card, "number": n} for n in self._wolf_numbers(state)]
        if step == "happening":
            return [{"type": "happenings_done"}]
        if step == "attack":
            return self._attack_actions(state, seat)
        if step == "tiebreak_ground":
            return [{"type": "ground_pigs", "count": n} for n in range(state["pigs"][seat] + 1)]
        if step == "tiebreak_outer":
            return [{"type": "outer_pigs", "count": n} for n in range(state["pigs"][seat] + 1)]
        raise AssertionError(f"unknown step {step!r}")

    def _attack_actions(self, state: dict, seat: int) -> list[dict]:
        attack = state["turn"]["attack"]
        actions = []
        if seat == state["turn"]["seat"]:
            actions.append({"type": "attack_done"})
            if self._can_pot(state):
                actions += [{"type": "wolf_potted", "wolf": wolf} for wolf in attack["attackers"]]
        if self._may_lose_pigs(state, seat):
            actions.append({"type": "pig_lost"})
            if not state["invincibility_used"][seat] and str(seat) not in attack["lost"]:
                actions.append({"type": "invincible"})
        return actions

    def _may_lose_pigs(self, state: dict, seat: int) -> bool:
        """Whether ``seat`` can still report a pig lost to this attack: it has a pig left
        and has not made its pigs invincible against it."""
        return state["pigs"][seat] > 0 and seat not in state["turn"]["attack"]["invincible"]

    def _can_pot(self, state: dict) -> bool:
        """A wolf can fall into a pot only if a pot is down and the attack is direct (the fist icon).
        With the physical deck the tracker does not know the kind, so the players judge."""
        card = state["turn"]["attack"]["card"]["card"]
        return state["pots"] > 0 and (card is None or self._wolf_card(state, card)["kind"] == "direct")

    def _keying(self, state: dict) -> str:
        """Which physical wolf card's number is keyed in next: the card just placed beside the
        deck and the deck's new top card, or (once the deck is spent) two cards from the
        reshuffled discards."""
        turn = state["turn"]
        if turn["placed"] is not None:
            return "top"
        if turn["keyed"]:
            return "second"
        return "placed" if state["deck_left"] else "first"

    def _wolf_numbers(self, state: dict) -> list[int]:
        numbers = {card["number"] for card in state["edition"]["wolf_cards"]}
        return list(range(min(numbers), max(numbers) + 1))

    # ------------------------------------------------------------------ applying actions

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        kind = action["type"]
        turn = state["turn"]
        if kind == "pig_action":
            self._pig_action(state, action["kind"])
        elif kind == "roll":
            self._set_face(state, rng.randbelow(len(state["edition"]["die"])), "rolls")
        elif kind == "die_face":
            self._set_face(state, action["face"], "keys in")
        elif kind == "pot":
            self._pot(state, action["action"])
        elif kind == "move_wolves":
            self._draw_and_move(state, rng)
        elif kind == "wolf_card":
            self._key_wolf_card(state, action["card"], action["number"], rng)
        elif kind == "happenings_done":
            self._start_attack(state)
        elif kind == "pig_lost":
            self._pig_lost(state, seat)
        elif kind == "invincible":
            state["invincibility_used"][seat] = True
            turn["attack"]["invincible"].append(seat)
            self.log(state, f"{seat_ref(seat)} makes their pigs invincible against this attack (once per game).",
                     f"{seat_ref(seat)}が無敵を宣言(ゲーム中1回)。この攻撃ではこぶたはやられない。")
        elif kind == "wolf_potted":
            self._wolf_potted(state, action["wolf"])
        elif kind == "attack_done":
            self._end_building_turn(state)
        elif kind in ("ground_pigs", "outer_pigs"):
            self._tiebreak_count(state, seat, kind, action["count"])

    def _begin_turn(self, state: dict, seat: int, number: int) -> None:
        state["turn"] = {
            "number": number,
            "seat": seat,
            "step": "pig_action" if state["phase"] == "scouting" else "roll",
            "face": None,
            "pigs_left": 0,
            "pot_pending": False,
            "tiles": 0,
            "placed": None,
            "keyed": [],
            "happenings": [],
            "attack": None,
        }

    def _wolf_step(self, state: dict) -> str:
        return "wolf_move" if state["options"]["wolf_deck"] == "virtual" else "key_wolf_card"

    def _pig_action(self, state: dict, kind: str) -> None:
        turn = state["turn"]
        seat = turn["seat"]
        if kind == "tile":
            turn["tiles"] += 1
            self.log(state, f"{seat_ref(seat)} places a tile.", f"{seat_ref(seat)}がタイルを配置。")
        elif kind == "move":
            self.log(state, f"{seat_ref(seat)} moves a pig one square.", f"{seat_ref(seat)}がこぶたを1マス移動。")
        else:
            self.log(state, f"{seat_ref(seat)} passes a pig action (neither a tile nor a move is possible).",
                     f"{seat_ref(seat)}はこぶたの行動をパス(タイルも移動もできない)。")
        if turn["step"] == "pig_action":
            turn["step"] = self._wolf_step(state)
            return
        turn["pigs_left"] -= 1
        self._after_pig_step(state)

    def _after_pig_step(self, state: dict) -> None:
        turn = state["turn"]
        if not turn["pigs_left"] and not turn["pot_pending"]:
            turn["step"] = self._wolf_step(state)

    def _set_face(self, state: dict, index: int, verb: str) -> None:
        turn = state["turn"]
        face = state["edition"]["die"][index]
        turn.update(face=index, pigs_left=face["pigs"], pot_pending=face["pot"], step="pigs")
        pot_en, pot_ja = (" and a pot", "となべ") if face["pot"] else ("", "")
        self.log(state, f"{seat_ref(turn['seat'])} {verb} the die: {face['pigs']} pig action(s){pot_en}.",
                 f"{seat_ref(turn['seat'])}のサイコロ: こぶたの行動{face['pigs']}回{pot_ja}。")
        self._after_pig_step(state)

    def _pot(self, state: dict, choice: str) -> None:
        turn = state["turn"]
        seat = turn["seat"]
        turn["pot_pending"] = False
        if choice == "place":
            state["pots"] += 1
            self.log(state, f"{seat_ref(seat)} places a pot ({state['pots']} on the board).",
                     f"{seat_ref(seat)}がなべを配置(ボード上に{state['pots']}個)。")
        elif choice == "move":
            self.log(state, f"{seat_ref(seat)} moves one of the {MAX_POTS} pots to another square.",
                     f"{seat_ref(seat)}がなべ{MAX_POTS}個のうち1つを別の場所へ移動。")
        else:
            self.log(state, f"{seat_ref(seat)} places no pot (no tile square without a door is free).",
                     f"{seat_ref(seat)}はなべを置けない(ドアのないタイルのマスが空いていない)。")
        self._after_pig_step(state)

    # ------------------------------------------------------------------ wolf cards and movement

    def _wolf_card(self, state: dict, card_id: str) -> dict:
        return next(card for card in state["edition"]["wolf_cards"] if card["id"] == card_id)

    def _draw_and_move(self, state: dict, rng: Rng) -> None:
        """Virtual deck: place the top card beside the deck and add its number to the new top
        card's; once the deck is spent, turn two cards of the reshuffled discards instead."""
        turn = state["turn"]
        deck = state["deck"]
        numbers = []
        turned = []
        if deck:
            turn["placed"] = deck.pop(0)
            numbers.append(self._wolf_card(state, turn["placed"])["number"])
            if deck:
                numbers.append(self._wolf_card(state, deck[0])["number"])
            else:
                turned.append(self._turn_from_discards(state, rng))
        else:
            turned = [self._turn_from_discards(state, rng), self._turn_from_discards(state, rng)]
        numbers += [self._wolf_card(state, card)["number"] for card in turned]
        state["discard"] += turned  # only now, so that one movement never turns the same card twice
        self._move_wolves(state, numbers, rng)

    def _turn_from_discards(self, state: dict, rng: Rng) -> str:
        if not state["movement_pile"]:
            pile = state["discard"]
            rng.shuffle(pile)
            state["movement_pile"], state["discard"] = pile, []
            self._note_reshuffle(state)
        return state["movement_pile"].pop(0)

    def _note_reshuffle(self, state: dict) -> None:
        state["reshuffled"] = True
        self.log(state, "The wolf deck is spent: the discards are shuffled and used for movement only.",
                 "山札切れ: 捨て札をシャッフルして移動にのみ使う。")

    def _key_wolf_card(self, state: dict, card: str, number: int, rng: Rng) -> None:
        turn = state["turn"]
        turn["keyed"].append(number)
        if card == "placed":
            turn["placed"] = number
            state["deck_left"] -= 1
            if not state["deck_left"]:
                self._note_reshuffle(state)
        if card in ("placed", "first"):
            return
        self._move_wolves(state, turn["keyed"], rng)

    def _move_wolves(self, state: dict, numbers: list[int], rng: Rng) -> None:
        """Move every wolf the same distance clockwise; note the corners passed for the first
        time, the lap of scouting, and go on to happenings (chaotic building) or end the turn."""
        turn = state["turn"]
        distance = sum(numbers)
        length = state["edition"]["track"]["length"]
        corners = state["edition"]["track"]["corners"]
        state["last_move"] = {"numbers": list(numbers), "distance": distance}
        flipped = []  # the corners whose face-down card a wolf passes, in CORNERS order
        spared = []  # the wolves that pass such a corner: the deck is spared for them alone
        for wolf in state["wolves"]:
            start = wolf["square"]
            for name in CORNERS:
                # A wolf passes a square when it enters it during the move, last square included.
                if (corners[name] - start - 1) % length < distance and state["corner_cards"][name] is not None:
                    spared.append(wolf["id"])
                    if name not in flipped:
                        flipped.append(name)
            wolf["square"] = (start + distance) % length
        flipped.sort(key=CORNERS.index)
        squares = ", ".join(str(w["square"]) for w in state["wolves"])
        self.log(state, f"The wolves move {' + '.join(map(str, numbers))} = {distance} squares (now on {squares}).",
                 f"オオカミが{' + '.join(map(str, numbers))} = {distance}マス移動(現在 {squares})。")
        if state["phase"] == "scouting":
            state["scout_distance"] += distance
            if turn["placed"] is not None:
                self._advance_schedule(state, turn["placed"])
            self._next_turn(state)
            return
        events = state["edition"]["track"]["events"]
        draws = any(wolf["square"] in events and wolf["id"] not in spared for wolf in state["wolves"])
        self._happenings(state, flipped, draws, rng)

    def _advance_schedule(self, state: dict, placed: str | int | None) -> None:
        """The card on the action chip goes to the discards, every card slides one chip lower,
        and the card placed beside the deck is revealed onto the highest chip."""
        schedule = state["schedule"]
        done = schedule.pop(0)
        if done is not None and done["card"] is not None:
            state["discard"].append(done["card"])
        schedule.append(None if placed is None else self._reveal(state, placed))

    def _reveal(self, state: dict, placed: str | int) -> dict:
        if isinstance(placed, int):  # physical deck: the tracker only knows the number
            self.log(state, f"A wolf card numbered {placed} joins the attack schedule.",
                     f"数字{placed}のオオカミカードが攻撃予定に並ぶ。")
            return {"card": None, "number": placed, "mark": None}
        card = self._wolf_card(state, placed)
        entry = {"card": placed, "number": card["number"], "mark": None}
        self.log(state, f"Revealed for the attack schedule: {card['name']['en']} ({card['number']}).",
                 f"攻撃予定に公開: {card['name']['ja']}({card['number']})。")
        if card["kind"] == "dig":
            entry["mark"] = self._leader(state)["square"]
            self.log(state, f"Digging: put a ground chip on the card to mark the floor beside square {entry['mark']} "
                            "(the leading wolf's).",
                     f"あなほり: 地面チップをカードに置き、先頭のオオカミがいるマス{entry['mark']}の床の目印にする。")
        return entry

    def _leader(self, state: dict) -> dict:
        """The wolf that would reach the forest first: the highest square, the forest itself
        (square 0) being a whole lap away. Ties go to the wolf that came out first."""
        return max(state["wolves"], key=lambda wolf: wolf["square"])

    # ------------------------------------------------------------------ happenings and attacks

    def _happenings(self, state: dict, corners: list[str], draws: bool, rng: Rng) -> None:
        """The ``corners`` passed for the first time flip their card; with ``draws`` (a wolf
        that passed no such corner stopped on a "!" square: RULINGS section 4) one card is
        drawn from the happening deck too, however many such wolves stopped on "!"."""
        turn = state["turn"]
        cards = []
        for name in corners:
            cards.append(state["corner_cards"][name])
            state["corner_cards"][name] = None
        if draws:
            card = self._draw_happening(state, rng)
            if card is not None:
                cards.append(card)
        for card_id in cards:
            self._resolve_happening(state, card_id)
        turn["happenings"] = cards
        if cards:
            turn["step"] = "happening"
        else:
            self._start_attack(state)

    def _draw_happening(self, state: dict, rng: Rng) -> str | None:
        deck = state["happening_deck"]
        if not deck and state["edition"]["happening_reshuffle"] and state["happening_discard"]:
            deck += state["happening_discard"]
            state["happening_discard"] = []
            rng.shuffle(deck)
        if not deck:
            self.log(state, "A wolf stopped on '!', but the happening deck is empty.",
                     "オオカミが!マスに止まったが、ハプニングカードの山札がない。")
            return None
        return deck.pop(0)

    def _resolve_happening(self, state: dict, card_id: str) -> None:
        card = next(c for c in state["edition"]["happenings"] if c["id"] == card_id)
        state["happening_discard"].append(card_id)
        self.log(state, f"Happening: {card['name']['en']}: {card['text']['en']}",
                 f"ハプニング: {card['name']['ja']}: {card['text']['ja']}")
        if card["effect"] != "add_wolf":
            return
        if len(state["wolves"]) >= MAX_WOLVES:
            self.log(state, f"{MAX_WOLVES} wolves are already out: the new wolf does not come.",
                     f"オオカミはすでに{MAX_WOLVES}匹いるので、このハプニングは起こらない。")
            return
        self._add_wolf(state, card["square"])

    def _add_wolf(self, state: dict, square: int) -> None:
        state["wolves"].append({"id": state["next_wolf_id"], "square": square})
        state["next_wolf_id"] += 1
        self.log(state, f"A wolf appears on square {square}.", f"オオカミがマス{square}に現れる。")

    def _start_attack(self, state: dict) -> None:
        turn = state["turn"]
        entry = state["schedule"][0]
        if entry is None:
            self.log(state, "No card on the action chip: no attack this turn.", "行動チップにカードがない: この手番は攻撃なし。")
            self._end_building_turn(state)
            return
        turn["step"] = "attack"
        turn["attack"] = {
            "card": entry,
            "attackers": [wolf["id"] for wolf in state["wolves"]],
            "invincible": [],
            "lost": {},
        }
        name = self._entry_name(state, entry)
        self.log(state, f"The wolves attack: {name['en']}. Resolve it on the board.",
                 f"オオカミの攻撃: {name['ja']}。ボード上で処理する。")

    def _entry_name(self, state: dict, entry: dict) -> dict:
        if entry["card"] is None:
            return {"en": f"wolf card {entry['number']}", "ja": f"オオカミカード{entry['number']}"}
        return self._wolf_card(state, entry["card"])["name"]

    def _pig_lost(self, state: dict, seat: int) -> None:
        state["pigs"][seat] -= 1
        lost = state["turn"]["attack"]["lost"]
        lost[str(seat)] = lost.get(str(seat), 0) + 1
        left = state["pigs"][seat]
        self.log(state, f"{seat_ref(seat)} loses a pig ({left} left).", f"{seat_ref(seat)}のこぶたがやられた(残り{left}匹)。")
        # A last pig does not end the game here: the attack hits every player at once, so the
        # others' losses to it still count, whoever taps first. attack_done ends the game.

    def _wolf_potted(self, state: dict, wolf_id: int) -> None:
        attack = state["turn"]["attack"]
        state["pots"] -= 1
        attack["attackers"].remove(wolf_id)
        state["wolves"] = [wolf for wolf in state["wolves"] if wolf["id"] != wolf_id]
        self.log(state, "A wolf falls into a pot and is beaten; the pot chip is removed (and the tile, if this attack breaks it).",
                 "オオカミがなべに落ちて倒れた。なべチップを取り除く(この攻撃で壊せるタイルならタイルも)。")
        if not state["wolves"]:
            self._add_wolf(state, FOREST)

    def _end_building_turn(self, state: dict) -> None:
        turn = state["turn"]
        if 0 in state["pigs"]:  # pigs are lost only to attacks, and every loss to this one is in
            self._start_ranking(state, "last_pig")
            return
        self._advance_schedule(state, turn["placed"])
        if turn["tiles"]:
            self.log(state, f"Refill the tiles on offer to {TILES_ON_OFFER}.", f"出ているタイルを{TILES_ON_OFFER}枚に補充する。")
        if not self._deck_left(state) and all(entry is None for entry in state["schedule"]):
            self._start_ranking(state, "last_attack")
            return
        self._next_turn(state)

    def _deck_left(self, state: dict) -> int:
        return len(state["deck"]) if "deck" in state else state["deck_left"]

    def _next_turn(self, state: dict) -> None:
        turn = state["turn"]
        if state["phase"] == "scouting":
            if turn["tiles"]:
                self.log(state, f"Refill the tiles on offer to {TILES_ON_OFFER}.", f"出ているタイルを{TILES_ON_OFFER}枚に補充する。")
            if state["scout_distance"] > state["edition"]["track"]["length"]:
                state["phase"] = "building"
                self.log(state, "The wolf has passed the forest after a lap: chaotic building starts with the next turn.",
                         "オオカミが1周して森のマスを通り過ぎた: 次の手番からドタバタ建築。")
        seat = (turn["seat"] + 1) % state["players"]
        self._begin_turn(state, seat, turn["number"] + 1)

    # ------------------------------------------------------------------ the end and the ranking

    def _start_ranking(self, state: dict, ending: str) -> None:
        state["phase"] = "ranking"
        state["ending"] = ending
        if ending == "last_pig":
            self.log(state, "A player has lost their last pig: the game ends.", "こぶたが0匹になったプレイヤーがいる: ゲーム終了。")
        else:
            self.log(state, "The last wolf card has attacked: the game ends.", "最後のオオカミカードの攻撃が終わった: ゲーム終了。")
        state["tiebreak"] = {"ground": {}, "outer": {}, "waiting": []}
        self._ask_or_finish(state, "ground")

    def _ranking_key(self, state: dict, seat: int) -> tuple:
        tiebreak = state["tiebreak"]
        return (state["pigs"][seat], tiebreak["ground"].get(str(seat), -1), tiebreak["outer"].get(str(seat), -1))

    def _ask_or_finish(self, state: dict, count: str) -> None:
        """Ask for ``count`` ("ground" then "outer") from the players still tied, or finish.
        A player with no pig left has nothing to count and is never asked."""
        levels = {"ground": 1, "outer": 2}
        keys = {s: self._ranking_key(state, s)[: levels[count]] for s in range(state["players"])}
        waiting = [s for s in keys if state["pigs"][s] and sum(k == keys[s] for k in keys.values()) > 1]
        if not waiting:
            self._finish(state)
            return
        state["tiebreak"]["waiting"] = waiting
        state["turn"]["step"] = f"tiebreak_{count}"
        who = ", ".join(seat_ref(s) for s in waiting)
        if count == "ground":
            self.log(state, f"Tie on pigs alive: {who}, key in how many of your pigs stand on the ground.",
                     f"無事なこぶたが同数: {who}は地面に足がついているこぶたの数を入力。")
        else:
            self.log(state, f"Still tied: {who}, key in how many of your pigs stand on the outer squares of the house.",
                     f"まだ同数: {who}は敷地内の外側のマスにいるこぶたの数を入力。")

    def _tiebreak_count(self, state: dict, seat: int, kind: str, count: int) -> None:
        tiebreak = state["tiebreak"]
        which = "ground" if kind == "ground_pigs" else "outer"
        tiebreak[which][str(seat)] = count
        tiebreak["waiting"].remove(seat)
        where = ("on the ground", "地面に足がついている") if which == "ground" else ("on outer squares", "外側にいる")
        self.log(state, f"{seat_ref(seat)}: {count} pig(s) {where[0]}.", f"{seat_ref(seat)}: {where[1]}こぶた{count}匹。")
        if not tiebreak["waiting"]:
            if which == "ground":
                self._ask_or_finish(state, "outer")
            else:
                self._finish(state)

    def _finish(self, state: dict) -> None:
        """Rank by pigs alive, then pigs on the ground, then pigs on outer squares; players
        equal on all three share the place (1, 1, 3...)."""
        players = range(state["players"])
        keys = {s: self._ranking_key(state, s) for s in players}
        tiebreak = state["tiebreak"]
        ranking = []
        for seat in sorted(players, key=lambda s: (tuple(-k for k in keys[s]), s)):
            ranking.append({
                "seat": seat,
                "place": 1 + sum(keys[other] > keys[seat] for other in players),
                "pigs": state["pigs"][seat],
                "ground": tiebreak["ground"].get(str(seat)),
                "outer": tiebreak["outer"].get(str(seat)),
            })
        winners = [entry["seat"] for entry in ranking if entry["place"] == 1]
        state["turn"]["step"] = "over"
        tiebreak["waiting"] = []
        en, ja = self._summary(state, winners)
        self.finish(state, {
            "winners": winners,
            "scores": {str(s): state["pigs"][s] for s in players},
            "ranking": ranking,
            "ending": state["ending"],
            "summary": {"en": en, "ja": ja},
        })
        names = ", ".join(seat_ref(s) for s in winners)
        self.log(state, f"First place: {names}.", f"1位: {names}。")

    def _summary(self, state: dict, winners: list[int]) -> Words:
        """The result in a sentence or two: the most pigs alive and, when that was tied, the
        count that broke the tie (pigs on the ground, then on outer squares) or the shared place."""
        en, ja = seat_list(winners)
        pigs = state["pigs"][winners[0]]
        tied = [s for s in range(state["players"]) if state["pigs"][s] == pigs]
        if len(tied) == 1:
            return f"{en} wins with the most pigs alive ({pigs}).", f"無事なこぶたが最も多い({pigs}匹){ja}が1位です。"
        tied_en, tied_ja = seat_list(tied)
        if not pigs:  # nobody has a pig left to count: nothing breaks the tie
            return (
                f"{tied_en} have no pig left and share first place.",
                f"{tied_ja}は無事なこぶたが0匹で並び、1位を分け合いました。",
            )
        ground = state["tiebreak"]["ground"]
        outer = state["tiebreak"]["outer"]
        g = ground[str(winners[0])]
        most_ground = [s for s in tied if ground[str(s)] == g]
        if len(most_ground) == 1:
            return (
                f"{tied_en} tied on {pigs} pigs alive; {en} wins with more pigs standing on the ground ({g}).",
                f"{tied_ja}が無事なこぶた{pigs}匹で並び、地面に足がついているこぶたの多い{ja}が1位です({g}匹)。",
            )
        o = outer[str(winners[0])]
        if len(winners) == 1:
            return (
                f"{tied_en} tied on {pigs} pigs alive and {seat_list(most_ground)[0]} also on {g} on the ground; "
                f"{en} wins with more pigs on outer squares ({o}).",
                f"{tied_ja}が無事なこぶた{pigs}匹で並び、{seat_list(most_ground)[1]}は地面に足がついているこぶた({g}匹)も同じでした。"
                f"外側のマスのこぶたが多い{ja}が1位です({o}匹)。",
            )
        return (
            f"{tied_en} tied on {pigs} pigs alive; {en} are also tied on the ground ({g}) and on outer squares ({o}) "
            "and share first place.",
            f"{tied_ja}が無事なこぶた{pigs}匹で並び、{ja}は地面に足がついているこぶた({g}匹)も外側のマスのこぶた({o}匹)も同じなので、"
            "1位を分け合いました。",
        )

    # ------------------------------------------------------------------ explaining refusals

    def _explain(self, state: dict, seat: int, action: dict) -> Words:
        kind = action["type"]
        legal = self._legal_actions(state, seat)
        allowed = sorted({a["type"] for a in legal})
        now = (f"(allowed now: {', '.join(allowed)})", f"(いまできる行動: {', '.join(allowed)})")
        if kind not in allowed:
            why = self._why_not_now(state, seat, kind)
            return f"{why[0]} {now[0]}", f"{why[1]} {now[1]}"
        same = [a for a in legal if a["type"] == kind]
        for field in self.action_fields[kind]:
            choices = [a[field] for a in same]
            value = action[field]
            if not any(value == c and type(value) is type(c) for c in choices):
                listed = ", ".join(json.dumps(c) for c in dict.fromkeys(choices))
                why = self._field_reason(state, seat, kind, field, value)
                return (
                    f"{why[0]}: '{field}' must be one of {listed}, not {json.dumps(value)}",
                    f"{why[1]}。'{field}' は {listed} のどれかです({json.dumps(value)} は使えません)",
                )
        return f"that {kind} action is not allowed now {now[0]}", f"いまその {kind} はできません {now[1]}"

    def _explain_not_your_turn(self, state: dict, seat: int) -> Words:
        if state["turn"]["step"] == "attack" and not state["pigs"][seat]:
            return _NO_PIG_LEFT
        return super()._explain_not_your_turn(state, seat)

    def _why_not_now(self, state: dict, seat: int, kind: str) -> Words:
        """Why an action of a known type cannot be taken at this moment, naming the rule."""
        turn = state["turn"]
        step = turn["step"]
        doing = (f"now it is {STEP_TEXT[step][0]}", f"いまは{STEP_TEXT[step][1]}です")
        virtual_die = state["options"]["die"] == "virtual"
        virtual_deck = state["options"]["wolf_deck"] == "virtual"
        if kind == "roll" and not virtual_die:
            return (
                "the die is physical at this table (option die = physical): key in its face with die_face",
                "この卓では本物のサイコロを使います(die = physical)。出た面を die_face で入力してください",
            )
        if kind == "die_face" and virtual_die:
            return (
                "the companion rolls the die at this table (option die = virtual): use roll",
                "この卓ではコンパニオンがサイコロを振ります(die = virtual)。roll を使ってください",
            )
        if kind == "move_wolves" and not virtual_deck:
            return (
                "the wolf cards are physical at this table (option wolf_deck = physical): key in their numbers with wolf_card",
                "この卓では本物のオオカミカードを使います(wolf_deck = physical)。数字を wolf_card で入力してください",
            )
        if kind == "wolf_card" and virtual_deck:
            return (
                "the companion draws the wolf cards at this table (option wolf_deck = virtual): use move_wolves",
                "この卓ではコンパニオンがオオカミカードを引きます(wolf_deck = virtual)。move_wolves を使ってください",
            )
        if kind in ("roll", "die_face"):
            if state["phase"] == "scouting":
                return (
                    "there is no die while scouting (rule 3: one pig action, then the wolf moves)",
                    "下見の間はサイコロを使いません(ルール3: こぶたアクション1回のあとオオカミが移動)",
                )
            return (
                f"the die is rolled once, at the start of a chaotic-building turn (rule 4.1); {doing[0]}",
                f"サイコロはドタバタ建築の手番の始めに1回だけ振ります(ルール4.1)。{doing[1]}",
            )
        if kind == "pig_action":
            if step == "pigs":
                return (
                    "no pig action is left this turn: only the pot remains (rule 4.2)",
                    "この手番のこぶたアクションは残っていません。残りはなべだけです(ルール4.2)",
                )
            return (
                f"pig actions come before the wolves move (rules 3.1 and 4.3); {doing[0]}",
                f"こぶたアクションはオオカミの移動の前に行います(ルール3.1と4.3)。{doing[1]}",
            )
        if kind == "pot":
            if step == "pigs" or (step == "roll" and state["phase"] == "building"):
                return (
                    "a pot is placed only when the die shows a pot, once per turn (rule 4.2)",
                    "なべはサイコロでなべの面が出たときだけ、手番に1回置けます(ルール4.2)",
                )
            return (
                f"a pot is placed with the pig actions of a chaotic-building turn (rule 4.2); {doing[0]}",
                f"なべはドタバタ建築の手番のこぶたアクションと一緒に置きます(ルール4.2)。{doing[1]}",
            )
        if kind in ("move_wolves", "wolf_card"):
            return (
                f"the wolves move after the pig actions (rules 3.2 and 4.4); {doing[0]}",
                f"オオカミはこぶたアクションのあとに移動します(ルール3.2と4.4)。{doing[1]}",
            )
        if kind == "happenings_done":
            return f"no happening is waiting to be resolved; {doing[0]}", f"処理を待つハプニングはありません。{doing[1]}"
        if kind in ("pig_lost", "invincible", "wolf_potted", "attack_done"):
            if step != "attack":
                return (
                    "pigs are lost, invincibility is declared and wolves fall into pots only during a wolf attack "
                    f"(rule 4.6); {doing[0]}",
                    f"こぶたがやられる、無敵を宣言する、オオカミがなべに落ちるのはオオカミの攻撃中だけです(ルール4.6)。{doing[1]}",
                )
            if kind in ("pig_lost", "invincible") and not state["pigs"][seat]:
                return _NO_PIG_LEFT
            if kind == "pig_lost":
                return "your pigs are invincible against this attack", "この攻撃ではあなたのこぶたは無敵です"
            if kind == "invincible" and state["invincibility_used"][seat]:
                return (
                    "invincibility can be used only once per game, and you have used it",
                    "無敵はゲーム中1回だけで、もう使いました",
                )
            if kind == "invincible":  # rule 4.6 (無敵): it keeps every pig of the seat from the whole attack
                return (
                    "you have reported a pig lost to this attack, and invincibility keeps all your pigs from the "
                    "whole attack: it is used before any is lost (if the loss was a mistake, the host can undo it)",
                    "この攻撃でこぶたを失ったと報告済みです。無敵は攻撃全体からすべてのこぶたを守るので、失う前に使います"
                    "(報告が間違いならホストが取り消せます)",
                )
            if seat != turn["seat"]:
                who = seat_ref(turn["seat"])
                return (
                    f"only the player whose turn it is ({who}) runs the wolves' attack",
                    f"オオカミの攻撃を進めるのは手番のプレイヤー({who})だけです",
                )
            if state["pots"] == 0:
                return (
                    "there is no pot on the board for a wolf to fall into (rule 4.6)",
                    "ボードにオオカミが落ちるなべがありません(ルール4.6)",
                )
            return (
                "only a direct attack (the fist icon) can drop a wolf into a pot; this card attacks regardless of pots (rule 4.6)",
                "オオカミをなべに落とせるのは直接攻撃(こぶしのアイコン)だけです。このカードはなべに関係なく攻撃します(ルール4.6)",
            )
        if kind in ("ground_pigs", "outer_pigs"):
            if step in ("tiebreak_ground", "tiebreak_outer"):
                return (
                    f"the count asked for now is the other one: {STEP_TEXT[step][0]}",
                    f"いま聞いているのはもう一方の数です: {STEP_TEXT[step][1]}",
                )
            return (
                f"the tie-break counts are keyed in only at the end, by players still tied (rule 6); {doing[0]}",
                f"同点の決着に使う数は、ゲームの最後に同点のプレイヤーだけが入力します(ルール6)。{doing[1]}",
            )
        return doing

    def _field_reason(self, state: dict, seat: int, kind: str, field: str, value: Any) -> Words:
        if kind == "pig_action" and value == "pass" and state["phase"] == "scouting":
            return (
                "no passing while scouting (rule 3.1: place a tile or move a pig)",
                "下見の間はパスできません(ルール3.1: タイルを置くか、こぶたを動かす)",
            )
        if kind == "pig_action":
            return (
                "a pig action places a tile or moves a pig; pass only when neither is possible (rule 4.3)",
                "こぶたアクションはタイルを置くか、こぶたを動かすかです。どちらもできないときだけパスします(ルール4.3)",
            )
        if kind == "die_face":
            faces = len(state["edition"]["die"])
            return (
                f"the die of this edition has {faces} faces, numbered from 0",
                f"このエディションのサイコロの面は{faces}つで、0から番号が付いています",
            )
        if kind == "pot":
            pots = state["pots"]
            if pots == MAX_POTS:
                return (
                    f"with {pots} of {MAX_POTS} pots down you may move one (rule 4.2), or skip when no square can take it",
                    f"なべが{MAX_POTS}個すべて置かれているので、1個を動かせます(ルール4.2)。置けるマスがなければスキップします",
                )
            return (
                f"with {pots} of {MAX_POTS} pots down you may place one (rule 4.2), or skip when no square can take it",
                f"なべは{MAX_POTS}個中{pots}個置かれているので、1個置けます(ルール4.2)。置けるマスがなければスキップします",
            )
        if kind == "wolf_card" and field == "card":
            en, ja = _KEYING_WORDS[self._keying(state)]
            return f"the card to key in now is {en}", f"いま入力するのは{ja}です"
        if kind == "wolf_card":
            numbers = self._wolf_numbers(state)
            return (
                f"the wolf cards of this edition are numbered {numbers[0]} to {numbers[-1]}",
                f"このエディションのオオカミカードの数字は{numbers[0]}から{numbers[-1]}までです",
            )
        if kind == "wolf_potted":
            return (
                "only a wolf that is attacking this turn can fall into a pot",
                "なべに落ちるのは、この手番に攻撃しているオオカミだけです",
            )
        if kind in ("ground_pigs", "outer_pigs"):
            pigs = state["pigs"][seat]
            return f"you have {pigs} pig(s) alive", f"あなたの無事なこぶたは{pigs}匹です"
        return f"that is not a valid {field}", f"その {field} は使えません"

    # ------------------------------------------------------------------ views

    def _public_view(self, state: dict) -> dict:
        turn = state["turn"]
        edition = state["edition"]
        over = turn["step"] == "over"
        leader = self._leader(state)["id"]
        face = turn["face"]
        attack = turn["attack"]
        virtual = "deck" in state
        last_event = next((entry["text"] for entry in reversed(state["log"]) if entry["text"] is not None), None)
        return {
            "edition": edition["name"],
            "phase": state["phase"],
            "step": turn["step"],
            "turn": turn["number"],
            "seat": None if state["phase"] == "ranking" else turn["seat"],
            "keying": self._keying(state) if turn["step"] == "key_wolf_card" else None,
            "die": None if face is None else {"face": face, **edition["die"][face]},
            "die_faces": edition["die"],
            "pig_actions_left": turn["pigs_left"],
            "pot_pending": turn["pot_pending"],
            "tiles_placed": turn["tiles"],
            "pots": state["pots"],
            "max_pots": MAX_POTS,
            "pigs": state["pigs"],
            "invincibility_used": state["invincibility_used"],
            "wolves": [{**wolf, "leader": wolf["id"] == leader} for wolf in state["wolves"]],
            "leader": leader,
            "max_wolves": MAX_WOLVES,
            "track": edition["track"],
            "corners_flipped": {name: state["corner_cards"][name] is None for name in CORNERS},
            "scout_distance": state["scout_distance"],
            "wolf_deck": {
                "source": state["options"]["wolf_deck"],
                "left": self._deck_left(state),
                "top_number": self._wolf_card(state, state["deck"][0])["number"] if virtual and state["deck"] else None,
                "discard": len(state["discard"]) if virtual else None,
                "movement_pile": len(state["movement_pile"]) if virtual else None,
                "reshuffled": state["reshuffled"],
            },
            "placed_number": self._placed_number(state),
            "last_move": state["last_move"],
            "schedule": [
                {"chip": chip, "action": chip == 1, "card": None if entry is None else self._entry_view(state, entry)}
                for chip, entry in enumerate(state["schedule"], start=1)
            ],
            "happenings": [self._happening_view(state, card) for card in turn["happenings"]],
            "happening_deck": {"left": len(state["happening_deck"]), "discard": len(state["happening_discard"])},
            "attack": None if attack is None or over else {
                "card": self._entry_view(state, attack["card"]),
                "attackers": attack["attackers"],
                "invincible": attack["invincible"],
                "lost": attack["lost"],
            },
            "tiebreak": state["tiebreak"],
            "ending": state["ending"],
            "last_event": last_event,
        }

    def _placed_number(self, state: dict) -> int | None:
        placed = state["turn"]["placed"]
        if placed is None or isinstance(placed, int):
            return placed
        return self._wolf_card(state, placed)["number"]

    def _entry_view(self, state: dict, entry: dict) -> dict:
        """A card on the schedule: face up, so everything about it is public."""
        shown = {"number": entry["number"], "mark": entry["mark"], "id": entry["card"], "kind": None, "name": None}
        if entry["card"] is not None:
            card = self._wolf_card(state, entry["card"])
            shown.update(kind=card["kind"], name=card["name"])
        return shown

    def _happening_view(self, state: dict, card_id: str) -> dict:
        card = next(c for c in state["edition"]["happenings"] if c["id"] == card_id)
        return {"id": card_id, "name": card["name"], "text": card["text"], "effect": card["effect"]}

    def _private_view(self, state: dict, seat: int) -> dict:
        """Nothing in Pig House is secret to one seat; this is the seat's own summary for its phone."""
        return {"pigs": state["pigs"][seat], "invincibility_used": state["invincibility_used"][seat]}

    # ------------------------------------------------------------------ test hooks and copying

    def start_player(self, state: dict) -> int:
        return self.first_seat(state)  # scouting begins with it

    def _components(self, state: dict) -> list | None:
        """The happening cards always, and the wolf cards when the companion holds the deck."""
        found = [*state["happening_deck"], *state["happening_discard"], *(c for c in state["corner_cards"].values() if c)]
        if "deck" in state:
            placed = state["turn"]["placed"]
            found += state["deck"] + state["discard"] + state["movement_pile"]
            found += [entry["card"] for entry in state["schedule"] if entry is not None]
            found += [placed] if placed is not None else []
        return found

    def _hidden(self, state: dict, seat: int | None) -> list[Hidden]:
        """Every card whose face the views do not show: the happening deck with the unflipped
        corner cards and the discards (the views count them; the happenings of the turn, shown,
        stay where they are), and (virtual deck) the wolf cards of the deck, the discards, the
        movement pile and the card placed beside the deck. The number on a wolf card's back is
        public, so the placed card and the deck's top card only trade with cards of their number."""
        corners = [Place(("corner_cards", name)) for name in CORNERS if state["corner_cards"][name] is not None]
        shown = len(state["turn"]["happenings"])
        discards = [Place(("happening_discard", index)) for index in range(len(state["happening_discard"]) - shown)]
        happenings = tuple(card["id"] for card in state["edition"]["happenings"])
        hidden = [Hidden((Place(("happening_deck",)), *corners, *discards), cards=happenings)]
        if "deck" not in state:
            return hidden
        number = {card["id"]: card["number"] for card in state["edition"]["wolf_cards"]}
        deck = state["deck"]
        places = [Place(("deck", index), back=number[deck[index]] if index == 0 else None) for index in range(len(deck))]
        places += [Place(("movement_pile",)), Place(("discard",))]
        placed = state["turn"]["placed"]
        if placed is not None:
            places.append(Place(("turn", "placed"), back=number[placed]))
        return [*hidden, Hidden(tuple(places), cards=tuple(number), back=number.__getitem__)]

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """What the view shows; the virtual deck's top card and the card placed beside it, whose
        numbers show, are drawn among the unseen wolf cards of those numbers. What no view
        shows and no rule reads again is taken plainly: the wolf numbers keyed this turn."""
        public = view["public"]
        numbers = {card["id"]: card["number"] for card in state["edition"]["wolf_cards"]}
        turn_happenings = [card["id"] for card in public["happenings"]]
        happening_counts = public["happening_deck"]
        schedule = [None if chip["card"] is None else _entry(chip["card"]) for chip in public["schedule"]]
        attack = public["attack"]
        state.update(
            phase=public["phase"],
            scout_distance=public["scout_distance"],
            wolves=[{"id": wolf["id"], "square": wolf["square"]} for wolf in public["wolves"]],
            next_wolf_id=max(wolf["id"] for wolf in public["wolves"]) + 1,
            schedule=schedule,
            reshuffled=public["wolf_deck"]["reshuffled"],
            last_move=public["last_move"],
            corner_cards={name: None if public["corners_flipped"][name] else UNSEEN for name in CORNERS},
            happening_deck=[UNSEEN] * happening_counts["left"],
            happening_discard=[UNSEEN] * (happening_counts["discard"] - len(turn_happenings)) + turn_happenings,
            pots=public["pots"],
            pigs=list(public["pigs"]),
            invincibility_used=list(public["invincibility_used"]),
            ending=public["ending"],
            tiebreak=public["tiebreak"],
        )
        placed = public["placed_number"]
        keyed = {"top": [placed], "second": [min(numbers.values())]}.get(public["keying"], [])
        if "deck" in state:
            counts = public["wolf_deck"]
            seen = {entry["card"] for entry in schedule if entry is not None}
            free = [card for card in numbers if card not in seen]
            rng.shuffle(free)
            top = [] if counts["top_number"] is None else [_take(free, numbers, counts["top_number"])]
            placed = None if placed is None else _take(free, numbers, placed)
            state.update(deck=top + [UNSEEN] * (counts["left"] - len(top)), discard=[UNSEEN] * counts["discard"],
                         movement_pile=[UNSEEN] * counts["movement_pile"])
        else:
            state["deck_left"] = public["wolf_deck"]["left"]
        state["turn"] = {
            "number": public["turn"],
            "seat": 0 if public["seat"] is None else public["seat"],  # the ranking reads no seat on turn
            "step": public["step"],
            "face": None if public["die"] is None else public["die"]["face"],
            "pigs_left": public["pig_actions_left"],
            "pot_pending": public["pot_pending"],
            "tiles": public["tiles_placed"],
            "placed": placed,
            "keyed": keyed,
            "happenings": turn_happenings,
            "attack": None if attack is None else {"card": _entry(attack["card"]), "attackers": list(attack["attackers"]),
                                                   "invincible": list(attack["invincible"]), "lost": dict(attack["lost"])},
        }

    def _copy(self, state: dict) -> dict:
        """A copy as deep as this engine's mutations: the edition, the options, the log,
        schedule entries and the last move are never changed once made, so the copy shares
        them; the lists of ids and counts are copied flat; everything else is cloned deeply."""
        new = {}
        for key, value in state.items():
            if key in _SHARED_ON_COPY:
                new[key] = value
            elif key in _FLAT_ON_COPY:
                new[key] = list(value)
            else:
                new[key] = _clone(value)
        return new


GAME = PigHouse()


def _entry(shown: dict) -> dict:
    """A schedule entry from its view (see PigHouse._entry_view)."""
    return {"card": shown["id"], "number": shown["number"], "mark": shown["mark"]}


def _take(free: list[str], numbers: dict[str, int], number: int) -> str:
    """The first card of ``free`` (shuffled) with ``number`` on its back, taken out of it."""
    return free.pop(next(index for index, card in enumerate(free) if numbers[card] == number))
