"""``companion export`` / ``companion import``: every play, move and name as one JSON document.

The document (``FORMAT``, ``VERSION``, described by ``plays-schema.json`` beside this file)
holds each play as the database keeps it: the game's row (game id, players, seed, options,
times, result), who sat where, every action (undone ones with when they were taken back) and
the whole log. Importing adds the plays a data directory does not have yet (a play is known
by its game, seed and start time), so importing twice adds nothing twice.

A file is checked whole before anything is written: its size, its nesting depth, every field
against the schema (with ``jsonschema``: bounds on every number and length, ids within a
phone's safe integer range), the seats and move numbers against each other, and every play
replayed with its engine. A bad file is refused in plain words naming the first bad place.
The writing then goes in short transactions (``WRITE_SECONDS``), so a running companion's
moves wait a few milliseconds at most (``docs/records.md``, *Export and import*).
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path

import jsonschema

from .. import games
from ..games import IllegalAction
from ..store import Store

FORMAT = "tabletop-companion-plays"
VERSION = 1

SCHEMA_FILE = Path(__file__).with_name("plays-schema.json")

MAX_FILE_BYTES = 64 * 2**20
"""The largest file imported: about 2,000 plays (an export averages 28-33 KB a play). Reading
it takes about 7 times its size in memory (a 53 MB file: 360 MB at the peak)."""

MAX_DEPTH = 16
"""The deepest nesting of arrays and objects (an export nests 8 deep): deeper files are
refused before the schema is checked, whose checking recurses as deep as the file."""

KEPT_ID_LIMIT = 2**31
"""An imported play keeps its id when that id is free and below this, so the table's next
ids (each one more than the largest) stay far below 2^53 - 1, the largest whole number a
phone's JavaScript holds exactly; a larger id is given the next free one instead."""

WRITE_SECONDS = 0.05
"""How long one write transaction of an import may last before it commits and lets the
running companion save a move (it waits for SQLite's lock, for 5 s at most)."""


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
    """Add the plays of ``document`` that the data directory lacks; return (added, already there).

    Everything is checked before the first write. The plays are then written in
    transactions of at most ``WRITE_SECONDS`` each (a running companion's moves wait no
    longer than that); should the disk fail half-way, the plays written so far stay, and
    importing the file again adds the rest (plays already there are recognised)."""
    plays = _checked(document)
    store = Store(data_dir)
    try:
        added = known = 0
        waiting = iter(plays)
        play = next(waiting, None)
        while play is not None:
            with store.transaction():  # at least one play, then more while the time lasts
                began = time.monotonic()
                while play is not None:
                    if store.find_game(play["game"], play["seed"], play["started_at"]) is not None:
                        known += 1
                    else:
                        store.add_game_rows(_encoded(play), keep_id_below=KEPT_ID_LIMIT)
                        added += 1
                    play = next(waiting, None)
                    if time.monotonic() - began >= WRITE_SECONDS:
                        break
        return added, known
    finally:
        store.close()


def read_document(path: str | Path):
    """The JSON document in ``path``; a file that is not one, too large or nested too deep is refused."""
    try:
        size = Path(path).stat().st_size
    except OSError as error:
        raise BackupError(f"{path} cannot be read as a plays file ({error}); nothing was imported") from None
    if size > MAX_FILE_BYTES:
        raise BackupError(f"{path} is {size / 2**20:.0f} MB, more than the {MAX_FILE_BYTES // 2**20} MB "
                          "a plays file may have; nothing was imported")
    try:
        document = json.loads(Path(path).read_bytes().decode("utf-8"), parse_constant=_no_constant)
    except (OSError, UnicodeDecodeError, ValueError) as error:  # ValueError: not JSON, or a number of 4,300+ digits
        raise BackupError(f"{path} cannot be read as a plays file ({error}); nothing was imported") from None
    except RecursionError:
        raise BackupError(f"{path} is nested deeper than any plays file (at most {MAX_DEPTH} levels); "
                          "nothing was imported") from None
    if _depth(document) > MAX_DEPTH:
        raise BackupError(f"{path} is nested deeper than any plays file (more than {MAX_DEPTH} levels); "
                          "nothing was imported")
    return document


# ---------------------------------------------------------------------- inside

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
        raise BackupError(f"the plays file has no valid format version ({_short(version)}); nothing was imported")
    if version > VERSION:
        raise BackupError(f"the plays file has format version {version}, made by a newer companion "
                          f"(this one reads version {VERSION}); nothing was imported")
    whole, one_play = _validators()
    _refuse_first_error(whole, document, [])
    for index, play in enumerate(document["plays"]):  # play by play, so the first bad place is named
        _refuse_first_error(one_play, play, ["plays", index])
        try:
            _check_play(play)
        except BackupError as error:
            raise BackupError(f"play {index + 1} of the file (plays[{index}]) is damaged: {error}; nothing was imported") from None
    return document["plays"]


def _refuse_first_error(validator, value, path: list) -> None:
    first = next(iter(validator.iter_errors(value)), None)
    if first is not None:
        raise BackupError(f"{_place([*path, *first.absolute_path])}: {_plain(first)}; nothing was imported")


def _check_play(play: dict) -> None:
    """What the schema cannot say: seats within the play's players (occupants of a seat in
    the order they sat), numbers that must be
    unique, a log that names only its own moves, and moves its engine accepts in order."""
    players = play["players"]
    seats = [row["seat"] for row in play["seating"]]
    if sorted(seats) != list(range(len(seats))) or len(seats) not in (0, players):
        raise BackupError(f"its seating has the seats {seats}, not each of 0 to {players - 1} once")
    result = play["result"] or {}
    occupied = [occupant["seat"] for occupant in play.get("occupants", [])]
    if any(seat >= players for seat in occupied):
        raise BackupError(f"its occupants name seat {max(occupied)}, but it has {players} players")
    for seat in set(occupied):
        since = [occupant["since"] for occupant in play["occupants"] if occupant["seat"] == seat]
        if since != sorted(since):
            raise BackupError(f"the occupants of seat {seat} are not in the order they sat")
    named = [*result.get("winners", []), *(int(seat) for seat in result.get("scores", {})),
             *(entry["seat"] for entry in result.get("ranking", [])), *(action["seat"] for action in play["actions"])]
    if any(seat >= players for seat in named):
        raise BackupError(f"its result or moves name seat {max(named)}, but it has {players} players")
    numbers = [action["n"] for action in play["actions"]]
    if len(set(numbers)) != len(numbers):
        raise BackupError("two of its moves have the same number n")
    sequence = [entry["seq"] for entry in play["log"]]
    if len(set(sequence)) != len(sequence):
        raise BackupError("two of its log entries have the same number seq")
    if not {entry["action"] for entry in play["log"]} <= {None, *numbers}:
        raise BackupError("its log names a move it does not have")
    if (play["result"] is None) != bool(play["abandoned"]):
        raise BackupError("a finished play must have a result, and an abandoned one none")
    if play["game"] not in games.ids():
        raise BackupError(f"it is of the game {_short(play['game'])}, which this companion does not know")
    game = games.get(play["game"])
    try:  # the moves in force must still be legal, in order: the play can then be replayed
        state = game.setup(players, play["seed"], play["options"])
        for action in sorted(play["actions"], key=lambda a: a["n"]):
            if action["undone_at"] is None:
                state = game.apply(state, action["seat"], action["action"])
    except (IllegalAction, ValueError, KeyError, TypeError) as error:
        raise BackupError(f"its moves cannot be replayed ({_short(str(error))})") from None


@cache
def _validators() -> tuple[jsonschema.protocols.Validator, jsonschema.protocols.Validator]:
    """The schema's validators of the document without its plays' insides, and of one play;
    with JSON's own idea of an integer: 1.0 is no id, and True no number."""
    schema = _inlined(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    base = jsonschema.validators.validator_for(schema)
    types = base.TYPE_CHECKER.redefine_many({
        "integer": lambda _, value: isinstance(value, int) and not isinstance(value, bool),
        "number": lambda _, value: isinstance(value, (int, float)) and not isinstance(value, bool),
    })
    validator = jsonschema.validators.extend(base, type_checker=types)
    plays = schema["properties"]["plays"]
    document = {**schema, "properties": {**schema["properties"], "plays": {k: v for k, v in plays.items() if k != "items"}}}
    return validator(document), validator(plays["items"])


def _inlined(schema: dict) -> dict:
    """The schema with each local ``{"$ref": "#/$defs/name"}`` replaced by its definition (the
    schema has no recursion): looking references up took a third of the checking time."""
    definitions = schema["$defs"]

    def inline(part):
        if isinstance(part, dict):
            if set(part) == {"$ref"}:
                return inline(definitions[part["$ref"].removeprefix("#/$defs/")])
            return {key: inline(value) for key, value in part.items() if key != "$defs"}
        if isinstance(part, list):
            return [inline(value) for value in part]
        return part

    return inline(schema)


def _plain(error: jsonschema.ValidationError) -> str:
    """A schema error in words; the value quoted short (it may be a huge one)."""
    value = _short(error.instance)
    if error.validator == "required":
        missing = [name for name in error.validator_value if name not in error.instance]
        return f"the field {missing[0]!r} is missing"
    if error.validator == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        return f"{value} should be {' or '.join(_KINDS[kind] for kind in kinds)}"
    if error.validator in ("minimum", "maximum"):
        bound = "at least" if error.validator == "minimum" else "at most"
        return f"{value} should be {bound} {error.validator_value}"
    if error.validator in ("maxItems", "maxProperties", "maxLength"):
        return f"there are more than {error.validator_value} (of items, fields or characters)"
    if error.validator in ("anyOf", "enum", "const"):
        return f"{value} is not of the kind or value this field holds"
    return _short(error.message)


_KINDS = {"object": "an object", "array": "a list", "string": "text", "integer": "a whole number",
          "number": "a number", "boolean": "true or false", "null": "null"}


def _place(path) -> str:
    """A place in the document as people can find it: plays[2].actions[0].seat (play 3)."""
    text = "the file"
    parts = list(path)
    if parts:
        text = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts).lstrip(".")
        if parts[0] == "plays" and len(parts) > 1:
            text += f" (play {parts[1] + 1} of the file)"
    return f"at {text}"


def _short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _depth(document) -> int:
    """How deep ``document`` nests (counted level by level, without recursion; it stops
    counting past MAX_DEPTH)."""
    deepest, level = 0, [document] if isinstance(document, (dict, list)) else []
    while level and deepest <= MAX_DEPTH:
        deepest += 1
        children = (value.values() if isinstance(value, dict) else value for value in level)
        level = [child for values in children for child in values if isinstance(child, (dict, list))]
    return deepest


def _no_constant(name: str):
    raise ValueError(f"{name} is no number a plays file holds")
