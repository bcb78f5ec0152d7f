"""``companion export`` / ``companion import``: every play, move and name as one JSON document.

The document (``FORMAT``, ``VERSION``) holds each play as the database keeps it: the game's
row (game id, players, seed, options, times, result), who sat where, every action (undone
ones with when they were taken back) and the whole log. Importing adds the plays a data
directory does not have yet (a play is known by its game, seed and start time), so importing
twice adds nothing twice; a damaged or foreign file is refused, with the reason, before
anything is written, and every play is replayed with its engine before it is accepted.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from .. import games
from ..games import IllegalAction
from ..store import Store

FORMAT = "tabletop-companion-plays"
VERSION = 1


class BackupError(ValueError):
    """A file that cannot be imported, and why. Nothing was changed."""


def export_plays(data_dir: str | Path) -> dict:
    """Every play of the data directory, oldest first, as one document."""
    store = Store(data_dir)
    try:
        plays = [_decoded(store.game_rows(record.id)) for record in reversed(store.plays())]
    finally:
        store.close()
    return {"format": FORMAT, "version": VERSION, "exported_at": time.time(), "plays": plays}


def import_plays(data_dir: str | Path, document) -> tuple[int, int]:
    """Add the plays of ``document`` that the data directory lacks; return (added, already there)."""
    plays = _checked(document)
    store = Store(data_dir)
    try:
        added = known = 0
        with store.transaction():
            for play in plays:
                if store.find_game(play["game"], play["seed"], play["started_at"]) is not None:
                    known += 1
                else:
                    store.add_game_rows(_encoded(play))
                    added += 1
        return added, known
    finally:
        store.close()


def read_document(path: str | Path):
    """The JSON document in ``path``; a file that is not one is refused."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise BackupError(f"{path} cannot be read as a plays file ({error}); nothing was imported") from None


# ---------------------------------------------------------------------- inside

_FIELDS = {
    "game": {"id": int, "game": str, "players": int, "seed": int, "options": dict, "started_at": (int, float),
             "ended_at": (int, float), "result": (dict, type(None)), "abandoned": int,
             "seating": list, "actions": list, "log": list},
    "seating": {"seat": int, "name": (str, type(None)), "bot": int, "start_player": int},
    "actions": {"n": int, "seat": int, "action": dict, "at": (int, float), "undone_at": (int, float, type(None))},
    "log": {"seq": int, "action": (int, type(None)), "entry": dict},
}


def _decoded(game: dict) -> dict:
    """A game's rows with their JSON texts as JSON values."""
    game = dict(game, options=json.loads(game["options"]),
                result=None if game["result"] is None else json.loads(game["result"]))
    game["actions"] = [dict(a, action=json.loads(a["action"])) for a in game["actions"]]
    game["log"] = [dict(e, entry=json.loads(e["entry"])) for e in game["log"]]
    return game


def _encoded(game: dict) -> dict:
    """The reverse of :func:`_decoded`, as the store keeps it."""
    def text(value) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)

    game = dict(game, options=text(game["options"]), result=None if game["result"] is None else text(game["result"]))
    game["actions"] = [dict(a, action=text(a["action"])) for a in game["actions"]]
    game["log"] = [dict(e, entry=text(e["entry"])) for e in game["log"]]
    return game


def _checked(document) -> list[dict]:
    """The plays of a document that passed every check."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(f"this is not a plays file of the Tabletop Companion (no \"format\": \"{FORMAT}\"); nothing was imported")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BackupError(f"the plays file has no valid format version ({version!r}); nothing was imported")
    if version > VERSION:
        raise BackupError(f"the plays file has format version {version}, made by a newer companion "
                          f"(this one reads version {VERSION}); nothing was imported")
    plays = document.get("plays")
    if not isinstance(plays, list):
        raise BackupError("the plays file has no list of \"plays\"; nothing was imported")
    for index, play in enumerate(plays, start=1):
        try:
            _check_play(play)
        except BackupError as error:
            raise BackupError(f"play {index} of the file is damaged: {error}; nothing was imported") from None
    return plays


def _check_play(play) -> None:
    _check_fields(play, "game")
    for part in ("seating", "actions", "log"):
        for row in play[part]:
            _check_fields(row, part)
    for row in play["seating"]:  # a bot's level: in files made since levels were kept
        level = row.get("bot_level")
        if level is not None and not (isinstance(level, str) and level.isascii() and level.isalpha()):
            raise BackupError(f"a seat's bot_level is {level!r}, not a word")
    if play["game"] not in games.ids():
        raise BackupError(f"it is of the game {play['game']!r}, which this companion does not know")
    game = games.get(play["game"])
    try:  # the moves in force must still be legal, in order: the play can then be replayed
        state = game.setup(play["players"], play["seed"], play["options"])
        for action in sorted(play["actions"], key=lambda a: a["n"]):
            if action["undone_at"] is None:
                state = game.apply(state, action["seat"], action["action"])
    except (IllegalAction, ValueError, KeyError, TypeError) as error:
        raise BackupError(f"its moves cannot be replayed ({error})") from None


def _check_fields(row, part: str) -> None:
    if not isinstance(row, dict):
        raise BackupError(f"an entry of its {part} is not an object")
    for name, kinds in _FIELDS[part].items():
        value = row.get(name)
        if name not in row or not isinstance(value, kinds) or isinstance(value, bool):
            raise BackupError(f"its {part} field {name!r} is missing or not of the right kind ({value!r})")
