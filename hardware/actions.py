"""Which game actions the panel's buttons offer, and their labels.

The panel offers a seat's actions only where physical play needs them AND where the
list of legal actions reveals nothing secret: the trackers, whose whole state is on the
table. For a card game the legal moves would show a hand (Lion Square's "pass lion-3"),
so card games get no action buttons here — phones play them — only undo and the menu.

Each offered type has a label template filled from the action's fields (``{name}``: the
acting seat's name). ``personal`` types belong to one seat (Pig House: "Taro: pig lost"),
so each seat's copy is listed; the others are table-wide steps anyone may take and are
listed once. ``confirm`` types ask first on the panel, "No" highlighted, exactly those the
phones ask to confirm (web/static/games/*.js ``confirm``): what only the host's undo could
take back. ``ends_step`` types close a step in which others may still act (the end of an
attack while losses are being entered): they are listed after everything else, so the
game menu never opens on them.
"""

from __future__ import annotations

from dataclasses import dataclass


from .fonts import fit


@dataclass(frozen=True)
class ActionKind:
    en: str
    ja: str
    personal: bool = False
    confirm: bool = False
    ends_step: bool = False


PIG_HOUSE = {
    "pig_action": ActionKind("Pig action: {kind}", "こぶたアクション: {kind}"),
    "roll": ActionKind("Roll the die", "サイコロを振る"),
    "die_face": ActionKind("Die shows {pigs}{pot}", "出目: {pigs}{pot}", confirm=True),
    "pot": ActionKind("Pot: {action}", "なべ: {action}"),
    "move_wolves": ActionKind("Move the wolves", "オオカミを動かす"),
    "wolf_card": ActionKind("Wolf card ({card}): {number}", "オオカミカード({card}): {number}", confirm=True),
    "happenings_done": ActionKind("Happenings done", "ハプニング終了", ends_step=True),
    "attack_done": ActionKind("Attack done", "攻撃終了", confirm=True, ends_step=True),
    # The wolf pieces carry no numbers: a wolf is named by the square it stands on.
    "wolf_potted": ActionKind("Wolf in a pot (square {square})", "マス{square}のオオカミがなべに落ちた", confirm=True),
    "pig_lost": ActionKind("{name}: pig lost", "{name}: こぶたを失う", personal=True, confirm=True),
    "invincible": ActionKind("{name}: use invincibility", "{name}: 無敵を使う", personal=True, confirm=True),
    "ground_pigs": ActionKind("{name}: {count} on ground floor", "{name}: 1階に{count}", personal=True, confirm=True),
    "outer_pigs": ActionKind("{name}: {count} on outer ring", "{name}: 外周に{count}", personal=True, confirm=True),
}

WOLF_POTTED_SHARING = ActionKind("Square {square}: wolf {n} of {count} in a pot", "なべ:マス{square}の{count}匹中{n}匹目",
                                 confirm=True)
"""The wolf_potted label when wolves share a square (a happening can add one where another
stands): they are numbered in the order they came out, so each button still differs."""

LEDGER = {
    "start-player": ActionKind("Start player: {seat_name}", "スタートプレイヤー: {seat_name}", confirm=True),
    "next-round": ActionKind("Next round", "次のラウンドへ"),
}

FIELD_WORDS = {
    # Pig House's pig actions, pot actions and which physical wolf card is keyed in.
    "tile": {"en": "place a tile", "ja": "タイルを置く"},
    "move": {"en": "move", "ja": "移動"},
    "pass": {"en": "pass", "ja": "パス"},
    "place": {"en": "place", "ja": "置く"},
    "skip": {"en": "skip", "ja": "置かない"},
    "top": {"en": "new top", "ja": "新しい山札の一番上"},
    "second": {"en": "second", "ja": "2枚目"},
    "placed": {"en": "placed", "ja": "置いたカード"},
    "first": {"en": "first", "ja": "1枚目"},
}
"""Words for the id-valued fields of offered actions (``kind``, ``action``, ``card``)."""

WORDED_FIELDS = ("kind", "action", "card")

OFFERED: dict[str, dict[str, ActionKind]] = {
    "pig-house": PIG_HOUSE,
    "meow-oracle-scorer": LEDGER,
    # The ledger's entries concern secret herds: only moving on to the next round is offered.
    "lion-square-ledger": {"next-round": LEDGER["next-round"]},
}
"""Per game id, the action types the buttons offer (a game not listed gets none)."""

PLAYS_EVERY_STEP = frozenset({"pig-house"})
"""The games whose every action the panel offers, for every seat: there a free seat stalls
nothing (the panel acts for it), so the status screen does not call it empty."""


@dataclass(frozen=True)
class PanelAction:
    """One button-driven action: the seat that does it, the action, and its label."""

    seat: int
    action: dict
    label: str
    confirm: bool = False  # ask first, "No" highlighted


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
            offered.append(((kind.ends_step, kind.personal), PanelAction(seat, action, label, kind.confirm)))
    # The step's table-wide actions first (roll, move the wolves...): the usual next step is
    # then the game menu's first item, two presses from the status screen. What ends a step
    # others may still act in (attack done) comes last, after their own actions.
    return [action for _, action in sorted(offered, key=lambda pair: pair[0])]


def _label(kind: ActionKind, action: dict, seat: int, public: dict, names: list[str], language: str) -> str:
    fields = {key: value for key, value in action.items() if key != "type"}
    for key in WORDED_FIELDS:
        if fields.get(key) in FIELD_WORDS:
            fields[key] = FIELD_WORDS[fields[key]][language]
    # A label wraps over at most two rows of the panel's list: a name takes at most half a row.
    fields["name"] = fit(names[seat], 64)
    if "seat" in action and isinstance(action["seat"], int) and action["seat"] < len(names):
        fields["seat_name"] = fit(names[action["seat"]], 64)
    if action.get("type") == "die_face":
        face = public["die_faces"][action["face"]]
        count = face["pigs"]
        fields["pigs"] = f"こぶた{count}" if language == "ja" else f"{count} pig{'' if count == 1 else 's'}"
        fields["pot"] = (" + pot" if language == "en" else "+なべ") if face["pot"] else ""
    if action.get("type") == "wolf_potted":
        fields["square"] = next(wolf["square"] for wolf in public["wolves"] if wolf["id"] == action["wolf"])
        sharing = [wolf["id"] for wolf in public["wolves"] if wolf["square"] == fields["square"]]
        if len(sharing) > 1:
            kind, fields["n"], fields["count"] = WOLF_POTTED_SHARING, sharing.index(action["wolf"]) + 1, len(sharing)
    template = kind.ja if language == "ja" else kind.en
    return template.format(**fields)  # names are values here: a name like "{s0}" stays as typed
