"""Which game actions the panel's buttons offer, and their labels.

The panel offers a seat's actions only where physical play needs them AND where the
list of legal actions reveals nothing secret: the trackers, whose whole state is on the
table. For a card game the legal moves would show a hand (Lion Square's "pass lion-3"),
so card games get no action buttons here — phones play them — only undo and the menu.

Each offered type has a label template in the word list (``action.<type>`` in
``hardware/words.py``) filled from the action's fields (``{name}``: the acting seat's name).
``personal`` types belong to one seat (Pig House: "Taro: pig lost"), so each seat's copy is
listed; the others are table-wide steps anyone may take and are listed once. ``confirm`` types ask first on the panel, "No" highlighted, exactly those the
phones ask to confirm (web/static/games/*.js ``confirm``): what only the host's undo could
take back. ``ends_step`` types close a step in which others may still act (the end of an
attack while losses are being entered): they are listed after everything else, so the
game menu never opens on them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .fonts import fit
from .words import WORDS, counted, word


@dataclass(frozen=True)
class ActionKind:
    label: str  # a key of the word list (hardware/words.py): the label's template
    personal: bool = False
    confirm: bool = False
    ends_step: bool = False


PIG_HOUSE = {
    "pig_action": ActionKind("action.pig_action"),
    "roll": ActionKind("action.roll"),
    "die_face": ActionKind("action.die_face", confirm=True),
    "pot": ActionKind("action.pot"),
    "move_wolves": ActionKind("action.move_wolves"),
    "wolf_card": ActionKind("action.wolf_card", confirm=True),
    "happenings_done": ActionKind("action.happenings_done", ends_step=True),
    "attack_done": ActionKind("action.attack_done", confirm=True, ends_step=True),
    "wolf_potted": ActionKind("action.wolf_potted", confirm=True),
    "pig_lost": ActionKind("action.pig_lost", personal=True, confirm=True),
    "invincible": ActionKind("action.invincible", personal=True, confirm=True),
    "ground_pigs": ActionKind("action.ground_pigs", personal=True, confirm=True),
    "outer_pigs": ActionKind("action.outer_pigs", personal=True, confirm=True),
}

BACK_TO_ROUND = ActionKind("action.back_to_round")
"""The score pad's ``open`` label for the round in play: back from correcting an earlier one."""

WOLF_POTTED_SHARING = ActionKind("action.wolf_potted_sharing", confirm=True)
"""The wolf_potted label when wolves share a square (a happening can add one where another
stands): they are numbered in the order they came out, so each button still differs."""

LEDGER = {
    "start-player": ActionKind("action.start-player", confirm=True),
    "next-round": ActionKind("action.next-round"),
}

SCORE_PAD = {
    "pass": ActionKind("action.pass"),
    "next-round": ActionKind("action.next-round", confirm=True),
    "open": ActionKind("action.open"),
    "finish": ActionKind("action.finish", confirm=True, ends_step=True),
}
"""The score pad's steps: a seat's points are not menu items (six steps a seat) but a page of
their own, where up and down step them (:data:`STEPPED`)."""

STEPPED = {"score-pad": "add"}
"""Per game id, the action type that steps a seat's number (``{"seat", "points"}``): the game
menu offers a page per seat where ``up`` adds 1 and ``down`` takes 1 away, each press one move."""

WORDED_FIELDS = ("kind", "action", "card")
"""The id-valued fields of offered actions, shown in words (``field.<value>`` in the word list)."""

OFFERED: dict[str, dict[str, ActionKind]] = {
    "pig-house": PIG_HOUSE,
    "meow-oracle-scorer": LEDGER,
    # The ledger's entries concern secret herds: only moving on to the next round is offered.
    "lion-square-ledger": {"next-round": LEDGER["next-round"]},
    "score-pad": SCORE_PAD,
}
"""Per game id, the action types the buttons offer (a game not listed gets none)."""

PLAYS_EVERY_STEP = frozenset({"pig-house", "score-pad"})
"""The games whose every action the panel offers, for every seat: there a free seat stalls
nothing (the panel acts for it), so the status screen does not call it empty."""


@dataclass(frozen=True)
class PanelAction:
    """One button-driven action: the seat that does it, the action, and its label."""

    seat: int
    action: dict
    label: str
    confirm: bool = False  # ask first, "No" highlighted
    ends_step: bool = False  # listed after everything else (see ActionKind)


def offered_actions(game_id: str, actions_by_seat: dict[int, list[dict]], public: dict,
                    names: list[str], language: str) -> list[PanelAction]:
    """The panel's list for ``game_id`` from each acting seat's legal actions, in seat order;
    table-wide actions once (done by the first seat that may), personal ones per seat."""
    kinds = OFFERED.get(game_id, {})
    offered: list[tuple[tuple[bool, bool], PanelAction]] = []
    seen: set[str] = set()
    for seat, actions in sorted(actions_by_seat.items()):
        for action in actions:
            kind = kinds.get(action.get("type"))
            if kind is None:
                continue
            key = repr(sorted(action.items())) + (f"@{seat}" if kind.personal else "")
            if key in seen:
                continue
            seen.add(key)
            label = _label(kind, action, seat, public, names, language)
            offered.append(((kind.ends_step, kind.personal), PanelAction(seat, action, label, kind.confirm, kind.ends_step)))
    # The step's table-wide actions first (roll, move the wolves...): the usual next step is
    # then the game menu's first item, two presses from the status screen. What ends a step
    # others may still act in (attack done) comes last, after their own actions.
    return [action for _, action in sorted(offered, key=lambda pair: pair[0])]


def _label(kind: ActionKind, action: dict, seat: int, public: dict, names: list[str], language: str) -> str:
    fields = {key: value for key, value in action.items() if key != "type"}
    for key in WORDED_FIELDS:
        if isinstance(fields.get(key), str) and f"field.{fields[key]}" in WORDS:
            fields[key] = word(f"field.{fields[key]}", language)
    # A label wraps over at most two rows of the panel's list: a name takes at most half a row.
    fields["name"] = fit(names[seat], 64)
    if "seat" in action and isinstance(action["seat"], int) and action["seat"] < len(names):
        fields["seat_name"] = fit(names[action["seat"]], 64)
    if action.get("type") == "die_face":
        face = public["die_faces"][action["face"]]
        fields["pigs"] = counted("field.pigs", face["pigs"], language)
        fields["pot"] = word("field.pot", language) if face["pot"] else ""
    if action.get("type") == "wolf_potted":
        fields["square"] = next(wolf["square"] for wolf in public["wolves"] if wolf["id"] == action["wolf"])
        sharing = [wolf["id"] for wolf in public["wolves"] if wolf["square"] == fields["square"]]
        if len(sharing) > 1:
            kind, fields["n"], fields["count"] = WOLF_POTTED_SHARING, sharing.index(action["wolf"]) + 1, len(sharing)
    if action.get("type") == "open":  # a round by its number, the round in play said so
        fields["number"] = action["round"] + 1
        if action["round"] == len(public["rounds"]) - 1:
            kind = BACK_TO_ROUND
    return word(kind.label, language, **fields)  # names are values here: a name like "{s0}" stays as typed
