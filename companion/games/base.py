"""The one contract every game meets, and the plumbing every engine shares.

A game object is stateless: all it knows lives in a *state*, a plain JSON value (dicts
with string keys, lists, strings, numbers, booleans, None). That makes dump/load
trivial and exact, lets the table keep states in SQLite, and lets tests compare
states with ``==``.

Every state carries the keys this module owns::

    game     the game id                     players  the number of seats
    seed     the seed it was set up with     options  the options, defaults filled in
    version  grows by one per applied action rng      the hidden random state (see rng.py)
    log      recent events (see Game.log)    result   None while playing, then the result

(``log`` is None in a search state, see :meth:`Game.unlogged`: nobody reads the moves a
search plays, so they are not worded.)

An engine subclasses :class:`Game` and writes the underscored hooks. The public
methods wrap them with the checks every game needs (whose turn, is the action well
formed, is it legal), so no engine can forget one.

Seats are numbered 0..N-1 clockwise. Text meant for people is given in English and
Japanese, and refers to seats with :func:`seat_ref` placeholders that the web and
the panel replace with the players' names (:func:`render_text`).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import re
import reprlib
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Callable

from .rng import Rng

LOG_KEEP = 40
"""How many log entries a state keeps. The full history is the table's action log."""

LOG_SHOWN = 15
"""How many of them a view shows."""

LARGEST_SEED = 2**63 - 1
"""Seeds are 63 bits: the table draws them so, and a chosen one is at most this."""

FIRST_PLAYER = "first_player"
"""The one option every game takes besides its own: the seat that takes the first turn (every
rule book leaves who starts to the players; without it, the first seat). It is no field of
the start forms: the first-player draw (``companion/first_player.py``) sets it, and it is
kept with the play's options only when set, so the play is replayed with the same start."""

_BASE_KEYS = ("game", "players", "seed", "options", "version", "rng", "log", "result")


Words = tuple[str, str]
"""A text for people as ``(english, japanese)``."""


class IllegalAction(ValueError):
    """An action the rules do not allow, saying why in plain words: ``.en`` in English and
    ``.ja`` in Japanese. ``str()`` is the English, so callers that only know one language
    keep working. Seats are named with :func:`seat_ref` placeholders, as in log texts: whoever
    shows a refusal to a person renders it with :func:`render_text`, as it does log texts."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en = en
        self.ja = ja

    @classmethod
    def because(cls, why: Words) -> "IllegalAction":
        """The refusal for a reason given as ``(en, ja)`` words."""
        return cls(*why)


def seat_ref(seat: int) -> str:
    """A placeholder for a seat's name inside log text, e.g. ``"{s2} takes a row"``."""
    return "{s%d}" % seat


_SEAT_REF = re.compile(r"\{s(\d+)\}")


def render_text(text: str, names: list[str] | None = None) -> str:
    """Replace seat placeholders with names (``Seat 1``, ``Seat 2``... when none given)."""

    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        if names and seat < len(names) and names[seat]:
            return names[seat]
        return f"Seat {seat + 1}"

    return _SEAT_REF.sub(name, text)


class SetupError(ValueError):
    """A game that cannot be set up as asked (players, seed, options), saying why in plain
    words: ``.en`` in English (also ``str()``) and ``.ja`` in Japanese."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en = en
        self.ja = ja


@dataclass(frozen=True)
class Option:
    """One setup option of a game, described well enough for a form to be drawn from it.

    ``choices`` lists the allowed values; without it, ``check`` (value -> ``(en, ja)``
    words saying what is wrong, or None) decides. ``label`` and ``help`` are ``{"en": ..., "ja": ...}``.
    ``asked``: the start forms show it unfolded, beside the player count, rather than among the
    options that keep their defaults unless opened (the score pad's game name).
    """

    name: str
    default: Any
    label: dict
    choices: tuple | None = None
    check: Callable[[Any], Words | None] | None = None
    help: dict = field(default_factory=dict)
    asked: bool = False

    def problem(self, value: Any) -> Words | None:
        """What is wrong with ``value`` for this option, as ``(en, ja)`` words, or None."""
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                allowed = ", ".join(json.dumps(c, ensure_ascii=False) for c in self.choices)
                given = json.dumps(value, ensure_ascii=False)
                return (f"option '{self.name}' must be one of {allowed}, not {given}",
                        f"設定 '{self.name}' は {allowed} のどれかにしてください（{given} は使えません）")
            return None
        if self.check is not None:
            return self.check(value)
        return None

    def describe(self) -> dict:
        return {
            "name": self.name,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "label": self.label,
            "help": self.help,
            "asked": self.asked,
        }


@dataclass(frozen=True)
class Box:
    """The board game in the box, as the records and the rules pages know it: a full game
    and its tracker play one box. ``id`` names it (BG Stats' ``sourceGameId``, the rules
    page's ``web/rulebook/<id>.<lang>.md``), ``name`` is BG Stats' name for it, and
    ``highest_wins`` tells BG Stats which way its scores count."""

    id: str
    name: str
    highest_wins: bool = True


UNSEEN = "?"
"""What :meth:`Game._restore` leaves in a hidden place for :meth:`Game.resample` to deal into."""


@dataclass(frozen=True)
class Place:
    """A hidden place of a state: ``path`` leads to it through keys and indexes, e.g.
    ``("pile",)``, ``("hands", 2)``, ``("down", 0, 4)``. It holds one thing, or a list of
    them (a pile). ``order``: a list the engine keeps sorted by this key; ``back``: what the
    back of the one card here shows to everyone (only a card with this back may lie here)."""

    path: tuple
    order: Callable[[Any], Any] | None = None
    back: Any = None


@dataclass(frozen=True)
class Hidden:
    """A group of hidden places whose contents trade places only among themselves.
    ``cards``: the components that may lie there, in the order :meth:`Game.resample` deals
    them; None for secrets that are not components (a herd's value, a record). ``back``: a
    card's back, for places that show one."""

    places: tuple[Place, ...]
    cards: tuple[str, ...] | None = None
    back: Callable[[Any], Any] | None = None


def whole_number_problem(name: str, value: Any, low: int, high: int, what: Words) -> Words | None:
    """Why a field's ``value`` is not a whole number in ``low..high`` (in words for
    ``_explain``; ``what`` says what the number counts), or None when it is. ``true``
    and ``3.0`` are not whole numbers here."""
    if type(value) is not int or not low <= value <= high:
        return (
            f"{name!r} must be {what[0]}: a whole number from {low} to {high}, not {value!r}",
            f"{name!r} には{what[1]}を{low}から{high}までの整数で入れてください({value!r} は使えません)",
        )
    return None


def seat_list(seats: list[int]) -> Words:
    """Seats as placeholders joined in words: ``("{s0} and {s2}", "{s0}と{s2}")``."""
    refs = [seat_ref(seat) for seat in seats]
    english = refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " and " + refs[-1]
    return english, "と".join(refs)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Game:
    """Base class of every engine and tracker. Subclasses set the class attributes and
    write the ``_hooks``; callers use only the public methods."""

    id: str = ""
    title: dict = {}
    min_players: int = 0
    max_players: int = 0
    options: tuple[Option, ...] = ()
    box: Box | None = None
    """The board game in the box (see :class:`Box`); by default the game is its own box,
    named by its title."""
    bot_module: str | None = None
    """The module whose ``BOT`` is what a bot knows of the game (see :attr:`bot`), relative to
    the engine's package (``".bot"``: the ``bot.py`` beside its ``rules.py``); None for a game
    without a bot."""
    action_fields: dict[str, tuple[str | tuple[str, ...], ...]] = {}
    """Every action type the game knows -> the fields its actions carry besides ``"type"``,
    e.g. ``{"play": ("card", "cell"), "take": (("row", "column"),)}``. A tuple among the
    fields is a choice: an action carries exactly one of them (a take names a row or a
    column). :meth:`check` refuses any other shape in plain words before the rules are
    asked, so ``_is_legal`` and ``_explain`` only ever see well-shaped actions."""
    _action_shapes: dict[str, frozenset[frozenset[str]]] = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        for kind, fields in cls.action_fields.items():
            if not isinstance(fields, tuple):  # ("card") is a string, not a tuple of one field
                raise TypeError(f"{cls.__name__}.action_fields[{kind!r}] must be a tuple of field names")
        # Every key set a well-shaped action of each type may have ("type" included),
        # worked out once: check() compares an action's keys with them on every move.
        cls._action_shapes = {kind: _key_sets(fields) for kind, fields in cls.action_fields.items()}
        if cls.box is None and cls.id:
            title = cls.title
            cls.box = Box(cls.id, title["en"] if title["en"] == title["ja"] else f"{title['en']} ({title['ja']})")

    def box_of(self, options: dict) -> Box:
        """The board game a play with ``options`` is of, for the records, the statistics and
        BG Stats: :attr:`box`, unless the game is a pad for any other (the score pad: the
        game the players named)."""
        return self.box

    def title_of(self, options: dict) -> dict:
        """What the records call a play with ``options`` (``{"en", "ja"}``): :attr:`title`,
        unless the game follows another that it names (the score pad)."""
        return dict(self.title)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every number of players the game allows: min to max, unless a game says
        otherwise (SWAP 5 is for 2 or 4)."""
        return tuple(range(self.min_players, self.max_players + 1))

    # ------------------------------------------------------------------ setup

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        """A new game for ``players`` seats. All randomness flows from ``seed``."""
        if not _is_int(players):
            raise SetupError(f"the number of players must be a whole number, not {players!r}",
                             f"人数は整数にしてください（{players!r} は使えません）")
        if players not in self.player_counts:
            counts = self.player_counts
            allowed = f"{counts[0]} to {counts[-1]}" if len(counts) == counts[-1] - counts[0] + 1 else (
                ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
            )
            allowed_ja = "・".join(map(str, counts))
            raise SetupError(f"{self.title['en']} is for {allowed} players, not {players}",
                             f"{self.title['ja']}は{allowed_ja}人で遊ぶゲームです（{players}人では遊べません）")
        if not _is_int(seed) or not 0 <= seed <= LARGEST_SEED:
            shown = reprlib.repr(seed)  # a typed seed may be thousands of characters long
            raise SetupError(f"the seed must be a whole number from 0 to {LARGEST_SEED}, not {shown}",
                             f"シードは 0 から {LARGEST_SEED} までの整数にしてください（{shown} は使えません）")
        first = options.get(FIRST_PLAYER) if isinstance(options, dict) else None
        if isinstance(options, dict) and FIRST_PLAYER in options:
            options = {name: value for name, value in options.items() if name != FIRST_PLAYER}
        chosen = self.check_options(options)
        if first is not None:
            if not _is_int(first) or not 0 <= first < players:
                raise SetupError(f"the first player must be a seat number from 0 to {players - 1}, not {reprlib.repr(first)}",
                                 f"最初の手番の席は 0 から {players - 1} までの番号にしてください（{reprlib.repr(first)} は使えません）")
            chosen[FIRST_PLAYER] = first
        rng = Rng.from_seed(seed)
        state = {
            "game": self.id,
            "players": players,
            "seed": seed,
            "options": chosen,
            "version": 0,
            "log": [],
            "result": None,
        }
        self._setup(state, rng)
        state["rng"] = rng.state
        return state

    def check_options(self, options: dict | None) -> dict:
        """The options with defaults filled in; SetupError naming the first bad one."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise SetupError("options must be an object of name: value pairs",
                             "設定は「名前: 値」の組のオブジェクトにしてください")
        known = {o.name: o for o in self.options}
        for name in options:
            if name not in known:
                names = ", ".join(known) or "none"
                raise SetupError(f"{self.title['en']} has no option '{name}' (its options: {names})",
                                 f"{self.title['ja']}に設定 '{name}' はありません（設定: {', '.join(known) or 'なし'}）")
        chosen = {}
        for option in self.options:
            value = options.get(option.name, option.default)
            problem = option.problem(value)
            if problem:
                raise SetupError(*problem)
            chosen[option.name] = value
        return chosen

    def describe_options(self) -> list[dict]:
        return [o.describe() for o in self.options]

    # ------------------------------------------------------------------ play

    def to_act(self, state: dict) -> list[int]:
        """The seats that may act now; several during a simultaneous step; [] once over."""
        if state["result"] is not None:
            return []
        return self._to_act(state)

    def waiting_for(self, state: dict) -> list[int]:
        """The seats whose input the current step still needs, a part of ``to_act``: a seat
        that has entered and may only correct its entry is not in it, and at a pause that
        any seat may end (a round end) nobody is. [] once over."""
        if state["result"] is not None:
            return []
        return self._waiting_for(state)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        """Every action ``seat`` may take now, each a JSON dict with a ``"type"``."""
        self._check_seat(state, seat)
        if seat not in self.to_act(state):
            return []
        return self._legal_actions(state, seat)

    def listed_actions(self, state: dict, seat: int) -> list[dict]:
        """:meth:`legal_actions` for a ``seat`` taken from :meth:`to_act` of this very state:
        the same list, without checking the seat and asking ``to_act`` again, which such a
        seat passes by construction. Playouts and searches ask thousands of times (the
        checks were an eighth of a playout); a seat from anywhere else goes through
        :meth:`legal_actions`."""
        return self._legal_actions(state, seat)

    def random_action(self, state: dict, seat: int, randbelow: Callable[[int], int]) -> dict:
        """One of :meth:`listed_actions` picked uniformly at random: exactly
        ``listed[randbelow(len(listed))]``, the same action for the same single draw.
        ``randbelow(n)`` gives a whole number in [0, n) (``Rng.randbelow``, or
        ``random.Random.randrange``, which draws as ``choice`` does). Random playouts pick
        a move at every step; an engine whose lists are long may override this to count its
        moves and build only the one drawn, in the order :meth:`_legal_actions` lists them.
        The contract tests hold every engine to this definition."""
        listed = self._legal_actions(state, seat)
        return listed[randbelow(len(listed))]

    def check(self, state: dict, seat: int, action: Any) -> None:
        """Raise IllegalAction, saying why, unless ``action`` is one of ``legal_actions``.

        Equal is not enough: the types must match too, so that ``true`` or ``1.0`` from
        a phone never passes for the seat number ``1``.
        """
        self._check_seat(state, seat)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(
                'an action must be an object with a "type", such as {"type": "play", ...}',
                '行動は "type" を持つオブジェクトで送ってください(例: {"type": "play", ...})',
            )
        if state["result"] is not None:
            raise IllegalAction("the game is over", "ゲームは終了しています")
        if seat not in self._to_act(state):
            raise IllegalAction.because(self._explain_not_your_turn(state, seat))
        shapes = self._action_shapes.get(action["type"])
        if shapes is None or frozenset(action) not in shapes:
            raise IllegalAction(*self._explain_shape(state, seat, action))
        if not self._is_legal(state, seat, action):
            why = self._explain(state, seat, action) or ("that move is not allowed now", "いまその行動はできません")
            raise IllegalAction.because(why)

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        """The state after ``seat`` takes ``action``. ``state`` itself is left untouched."""
        self.check(state, seat, action)
        return self.apply_listed(state, seat, action)

    def apply_listed(self, state: dict, seat: int, action: dict) -> dict:
        """:meth:`apply` for an action taken, unchanged, from ``legal_actions(state, seat)``
        of this very state: the same new state, without :meth:`check`, which such an action
        passes by construction (the contract tests hold every engine to that). Playouts and
        searches apply thousands of their own listed actions; an action from anywhere else
        (a phone, a saved log, a person) goes through :meth:`apply`."""
        new = self._copy(state)
        new["version"] += 1
        rng = Rng(new["rng"])
        self._apply(new, seat, action, rng)
        new["rng"] = rng.state
        return new

    def is_over(self, state: dict) -> bool:
        return state["result"] is not None

    def result(self, state: dict) -> dict | None:
        """``{"winners": [seats], "scores": {"0": ...}, ...}`` once over, else None."""
        return copy_json(state["result"])

    def first_seat(self, state: dict) -> int:
        """The seat that takes the first turn: the :data:`FIRST_PLAYER` option, else the first seat."""
        return state["options"].get(FIRST_PLAYER, 0)

    def start_player(self, state: dict) -> int | None:
        """The seat that took the play's first turn (not a later round's start player), or
        None while the game does not know it (a tracker learns it from an entry) or never
        does (a tracker that does not follow turns). The records keep it with every play."""
        raise NotImplementedError(f"{type(self).__name__} must say who started a play (start_player)")

    def turn_order(self, players: int, start: int, options: dict) -> list[int]:
        """The seats in the order they take turns, from ``start``, for a play with ``options``:
        clockwise (up the seat numbers) unless the game says otherwise. Position 1 is ``start``."""
        return [(start + step) % players for step in range(players)]

    # ------------------------------------------------------------------ views

    def view(self, state: dict, seat: int | None) -> dict:
        """What ``seat`` may see; ``seat=None`` is the public table.

        ``public`` is the same for every seat; ``private`` is what only this seat sees.
        """
        if seat is not None:
            self._check_seat(state, seat)
        self._require_log(state, "viewed")
        # A copy: engines may build views from pieces of the state, and no caller may reach back into it.
        return copy_json({
            "game": self.id,
            "version": state["version"],
            "players": state["players"],
            "seat": seat,
            "options": state["options"],
            "to_act": self.to_act(state),
            "waiting_for": self.waiting_for(state),
            "over": state["result"] is not None,
            "result": state["result"],
            "log": self._log_for(state, seat),
            "public": self._public_view(state),
            "private": None if seat is None else self._private_view(state, seat),
        })

    def seat_digest(self, state: dict, seat: int) -> str:
        """A hash of what ``seat`` may do now and what only it sees. Two states with the
        same digest offer that seat the same choices (the table's test for a stale view)."""
        mine = [self._private_view(state, seat), self.legal_actions(state, seat)]
        return hashlib.sha256(json.dumps(mine, sort_keys=True).encode()).hexdigest()

    def log(self, state: dict, en: str | None, ja: str | None, private: dict | None = None) -> None:
        """Record an event. ``en``/``ja`` is what everyone reads (None: nothing);
        ``private`` maps a seat to its own ``(en, ja)`` wording, e.g. which card it got.

        The log list is replaced, never changed in place, so an engine's ``_copy`` shares it
        with the state it copies. A search state (:meth:`unlogged`) records nothing; an engine
        whose wording costs may skip it there with :meth:`keeps_log`."""
        log = state["log"]
        if log is None:
            return
        entry = {"v": state["version"], "text": None if en is None else {"en": en, "ja": ja}}
        if private:
            entry["to"] = {str(s): {"en": e, "ja": j} for s, (e, j) in private.items()}
        state["log"] = [*log[-(LOG_KEEP - 1) :], entry]

    def unlogged(self, state: dict) -> dict:
        """A copy of ``state`` for a search: the moves applied to it and to the states that
        follow from it are not worded in the log (a search plays thousands of moves that
        nobody reads; wording them costs a fifth of a playout or more). Such a state plays exactly as
        ``state`` does, but it cannot be viewed or saved (ValueError)."""
        new = dict(state)
        new["log"] = None
        return new

    @staticmethod
    def keeps_log(state: dict) -> bool:
        """Whether ``state`` words its moves: False for a search state (:meth:`unlogged`)."""
        return state["log"] is not None

    def _require_log(self, state: dict, doing: str) -> None:
        if state["log"] is None:
            raise ValueError(f"a search state (Game.unlogged) keeps no log, so it cannot be {doing}")

    def _log_for(self, state: dict, seat: int | None) -> list[dict]:
        """The last :data:`LOG_SHOWN` lines ``seat`` may read, oldest first. Read from the
        end: a long game's log is read at every view."""
        shown = []
        mine = None if seat is None else str(seat)
        for entry in reversed(state["log"]):
            text = entry["text"]
            if mine is not None and mine in entry.get("to", {}):
                text = entry["to"][mine]
            if text is not None:
                shown.append({"v": entry["v"], "text": text})
                if len(shown) == LOG_SHOWN:
                    break
        shown.reverse()
        return shown

    # ------------------------------------------------------------------ persistence

    def dump(self, state: dict) -> str:
        self._require_log(state, "saved")
        return json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    def load(self, text: str) -> dict:
        try:
            state = json.loads(text)
        except (TypeError, ValueError) as error:
            raise ValueError(f"not a saved game: {error}") from None
        if not isinstance(state, dict) or any(key not in state for key in _BASE_KEYS):
            raise ValueError("not a saved game: keys are missing")
        if state["game"] != self.id:
            raise ValueError(f"this is a saved {state['game']!r} game, not {self.id!r}")
        return state

    # ------------------------------------------------------------------ test hooks

    def components(self, state: dict) -> list | None:
        """Every physical component in the game as a sorted list of ids, wherever it is;
        the same list for the whole game. None for games that own no components."""
        found = self._components(state)
        return None if found is None else sorted(found)

    def hidden(self, state: dict, seat: int | None) -> list["Hidden"]:
        """What ``seat`` (None: the public table) cannot see in ``state``: the engine's one
        declaration of its hidden places (see :class:`Hidden`)."""
        return self._hidden(state, seat)

    def scramble_hidden(self, state: dict, seat: int | None, seed: int) -> dict:
        """A copy of ``state`` in which everything ``seat`` cannot see (its :meth:`_hidden`
        places, and the RNG) is shuffled among itself. ``seat``'s view of it must equal its
        view of ``state``: that is how the tests prove views leak nothing."""
        new = copy_json(state)
        rng = Rng.from_seed(seed)
        for group in self._hidden(new, seat):
            slots = _slots(new, group)
            found = [container[key] for container, key, _ in slots]
            rng.shuffle(found)
            _lay(new, group, slots, found)
        new["rng"] = rng.next64()
        return new

    # ------------------------------------------------------------------ bots

    def resample(self, view: dict, rng: Rng) -> dict:
        """A full state whose view for ``view["seat"]`` is ``view`` (a bare ``view``: the
        game's own, without the table's envelope), everything that seat cannot see drawn at
        random by ``rng`` (OpenSpiel's ``ResampleFromInfostate``): the engine writes what
        the view shows (:meth:`_restore`), leaving :data:`UNSEEN` in its :meth:`_hidden`
        places, and the components nobody placed are dealt into them, each group's from its
        ``cards`` that the state does not show elsewhere (:meth:`components`). ValueError
        for a view that does not add up. The bots search over such states."""
        state = self.setup(view["players"], rng.next64() >> 1, view["options"])
        state["version"] = view["version"]
        # The engine's own entries only: the table adds its own (an undo's, kind "undo"), which
        # carry no game version and are no part of the game's state.
        state["log"] = [{"v": entry["v"], "text": entry["text"]} for entry in view["log"] if "v" in entry]
        state["result"] = view["result"]
        self._restore(state, view, rng)
        seen = set(self._components(state) or ())
        for group in self._hidden(state, view["seat"]):
            slots = [slot for slot in _slots(state, group) if slot[0][slot[1]] == UNSEEN]
            if not slots:
                continue
            if group.cards is None:
                raise ValueError(f"{self.id}: _restore left a hidden place that holds no component unfilled")
            unseen = [card for card in group.cards if card not in seen]
            if len(unseen) != len(slots):
                raise ValueError(f"this {self.id} view does not add up: {len(unseen)} cards are unseen but it "
                                 f"shows {len(slots)} hidden places; was it made by this version of the game?")
            rng.shuffle(unseen)
            _lay(state, group, slots, unseen)
        self._restore_after_deal(state, view, rng)
        state["rng"] = rng.next64()  # the engine's hidden randomness (e.g. a blind pick) is unseen too
        return state

    @property
    def has_bot(self) -> bool:
        """Whether bots play this game (without loading what they know of it)."""
        return self.bot_module is not None

    @property
    def bot(self) -> Any:
        """What a bot knows of this game (:class:`companion.games.knowledge.BotKnowledge`), or
        None for a game without a bot (the trackers follow physical games). Loaded on first
        use from :attr:`bot_module`, so a table without bots never imports it."""
        if self.bot_module is None:
            return None
        return import_module(self.bot_module, type(self).__module__.rpartition(".")[0]).BOT

    # ------------------------------------------------------------------ helpers for engines

    def finish(self, state: dict, result: dict) -> None:
        """End the game with ``result``. It must hold ``winners`` and ``scores``, and
        ``summary``: ``{"en": ..., "ja": ...}``, one or two sentences naming the winners
        (with :func:`seat_list`) and, when a tie-break decided, the tie and what broke it;
        ``lions_win: true`` too where the lions won."""
        assert "winners" in result and "scores" in result
        state["result"] = result

    def _check_seat(self, state: dict, seat: Any) -> None:
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise IllegalAction(
                f"there is no seat {seat!r} at this {state['players']}-player table",
                f"この{state['players']}人の卓に席 {seat!r} はありません",
            )

    def _explain_not_your_turn(self, state: dict, seat: int) -> Words:
        """Why ``seat``, not among ``to_act``, cannot act, naming whom the step waits for."""
        waiting = self._waiting_for(state) or self._to_act(state)
        if not waiting:
            return "nobody can act now", "いまは誰も行動できません"
        en, ja = seat_list(waiting)
        return f"it is not your turn (waiting for {en})", f"あなたの番ではありません({ja}を待っています)"

    def _explain_shape(self, state: dict, seat: int, action: dict) -> Words:
        """Why ``action`` is not shaped like any action of its type (see action_fields):
        an unknown type, a field its type does not have, or a missing field."""
        kind = action["type"]
        if kind not in self.action_fields:
            allowed = ", ".join(sorted({legal["type"] for legal in self._legal_actions(state, seat)}))
            return (
                f"unknown action type {kind!r} (allowed now: {allowed})",
                f"{kind!r} という行動はありません(いまできる行動: {allowed})",
            )
        fields = self.action_fields[kind]
        described = ", ".join(" or ".join(_choices(field)) for field in fields) or "none"
        described_ja = "、".join(" か ".join(_choices(field)) for field in fields) or "なし"
        known = {name for field in fields for name in _choices(field)}
        extra = [key for key in action if key != "type" and key not in known]
        if extra:
            return (
                f"a {kind!r} action has no field {extra[0]!r} (its fields: {described})",
                f"{kind!r} の行動に {extra[0]!r} という項目はありません(項目: {described_ja})",
            )
        # No stray key, so some field is missing or, for a choice, given twice.
        wrong = next(field for field in fields if sum(name in action for name in _choices(field)) != 1)
        given = [name for name in _choices(wrong) if name in action]
        if given:
            names = " and ".join(repr(name) for name in given)
            names_ja = "と".join(repr(name) for name in given)
            return (
                f"a {kind!r} action takes only one of {names} (its fields: {described})",
                f"{kind!r} の行動には {names_ja} のどちらか一つだけを入れてください(項目: {described_ja})",
            )
        names = " or ".join(repr(name) for name in _choices(wrong))
        names_ja = " か ".join(repr(name) for name in _choices(wrong))
        return (
            f"a {kind!r} action needs the field {names} (its fields: {described})",
            f"{kind!r} の行動には {names_ja} の項目が必要です(項目: {described_ja})",
        )

    def _copy(self, state: dict) -> dict:
        """A deep copy. Engines with hot playout paths override it with a cheaper one."""
        return copy_json(state)

    # ------------------------------------------------------------------ what engines write

    def _setup(self, state: dict, rng: Rng) -> None:
        raise NotImplementedError

    def _to_act(self, state: dict) -> list[int]:
        raise NotImplementedError

    def _waiting_for(self, state: dict) -> list[int]:
        """The seats whose input the step still needs (see waiting_for). Every seat that may
        act, unless a game with simultaneous steps lets a seat that has entered correct its
        entry, or lets any seat end a pause: such a game overrides this."""
        return self._to_act(state)

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        raise NotImplementedError

    def _apply(self, state: dict, seat: int, action: dict, rng: Rng) -> None:
        """Carry out a legal action on ``state`` (a private copy: mutate it)."""
        raise NotImplementedError

    def _is_legal(self, state: dict, seat: int, action: dict) -> bool:
        """Whether ``action`` is one of ``_legal_actions(state, seat)``, JSON types included
        (``seat`` may act now, and ``action`` has the keys of its type: see action_fields).
        An engine may answer directly, without listing every move, when that is faster;
        the contract test checks that the two agree."""
        legal = self._legal_actions(state, seat)
        try:
            found = legal[legal.index(action)]  # list.index compares in C
        except ValueError:
            return False
        return _same_types(found, action)

    def _explain(self, state: dict, seat: int, action: dict) -> Words | None:
        """Why ``action`` is illegal for ``seat``, naming the rule it breaks, as ``(en, ja)``
        words.
        ``action`` is well shaped (see action_fields): what is left to explain is a field's
        value (say so plainly when it has the wrong JSON type, e.g. "'cell' must be [row,
        column]") or the rule it breaks."""
        raise NotImplementedError

    def _public_view(self, state: dict) -> dict:
        raise NotImplementedError

    def _private_view(self, state: dict, seat: int) -> dict:
        raise NotImplementedError

    def _components(self, state: dict) -> list | None:
        return None

    def _hidden(self, state: dict, seat: int | None) -> list["Hidden"]:
        """The places of ``state`` whose contents ``seat`` cannot see (None: the public
        table), in groups whose contents trade places only among themselves: the one
        declaration :meth:`scramble_hidden` and :meth:`resample` work from. None hidden by
        default."""
        return []

    def _restore(self, state: dict, view: dict, rng: Rng) -> None:
        """Write into ``state`` (fresh from :meth:`setup`) what ``view`` shows, with
        :data:`UNSEEN` in each :meth:`_hidden` place holding a component nobody has placed
        (a list of them for a pile), and a likely value in each other hidden place (see
        :meth:`resample`). ``rng`` may place what the seat knows more of than the table."""
        raise NotImplementedError(f"{type(self).__name__} cannot rebuild a state from a view (_restore)")

    def _restore_after_deal(self, state: dict, view: dict, rng: Rng) -> None:
        """What :meth:`resample` decides once the unseen components are dealt (a hidden
        choice made from a hand dealt, say). Nothing by default."""


def _same_types(a: Any, b: Any) -> bool:
    """``==`` says True == 1 == 1.0; an action from outside must match types too."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_types(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return all(_same_types(x, y) for x, y in zip(a, b))
    return True


def _choices(field: str | tuple[str, ...]) -> tuple[str, ...]:
    """The names a field of ``action_fields`` may go by: one, or the alternatives of a choice."""
    return (field,) if isinstance(field, str) else field


def _key_sets(fields: tuple[str | tuple[str, ...], ...]) -> frozenset[frozenset[str]]:
    """Every set of keys an action with these fields may have, ``"type"`` included."""
    sets = [frozenset({"type"})]
    for entry in fields:
        sets = [keys | {name} for keys in sets for name in _choices(entry)]
    return frozenset(sets)


def _slots(state: dict, group: "Hidden") -> list[tuple[Any, Any, "Place"]]:
    """Each single place of ``group`` as ``(container, key, place)``: a list place gives one
    per element."""
    slots = []
    for place in group.places:
        container: Any = state
        for key in place.path[:-1]:
            container = container[key]
        held = container[place.path[-1]]
        if isinstance(held, list):
            slots.extend((held, index, place) for index in range(len(held)))
        else:
            slots.append((container, place.path[-1], place))
    return slots


def _lay(state: dict, group: "Hidden", slots: list, things: list) -> None:
    """Put ``things`` (shuffled) into ``slots``: a place showing a back first takes the first
    of a matching back, the others take the rest in order; then sort the ordered places."""
    things = list(things)
    backed = [slot for slot in slots if slot[2].back is not None]
    for container, key, place in backed:
        container[key] = things.pop(next(i for i, thing in enumerate(things) if group.back(thing) == place.back))
    for (container, key, place), thing in zip((slot for slot in slots if slot[2].back is None), things):
        container[key] = thing
    for place in group.places:
        if place.order is not None:
            container = state
            for key in place.path[:-1]:
                container = container[key]
            container[place.path[-1]].sort(key=place.order)


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (a state, a view or a part of one): every list and dict
    copied on its own, as a round trip through JSON would, at a third of its cost (a view
    is made for every phone at every version). marshal's format 2 is the one without shared
    references. It keeps what JSON would not (a tuple, a key that is not a string): the
    contract tests hold every state and view to JSON's own types."""
    return marshal.loads(marshal.dumps(value, 2))
