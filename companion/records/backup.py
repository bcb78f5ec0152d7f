"""``companion export`` / ``companion import``: every play, move and name as one JSON document.

The document (``FORMAT``, ``VERSION``, described by ``plays-schema.json`` beside this file)
holds each play as the database keeps it: the game's row (game id, players, seed, options,
times, result), who sat where, every action (undone ones with when they were taken back),
each turn's time and the whole log. Importing adds the plays a data directory does not have yet (a play is known
by its game, seed and start time), so importing twice adds nothing twice.

A file is read piece by piece, never whole, so an import's memory stays bounded whatever
the file holds (``_PlaysFile``), and checked whole before anything is written: its size, the
size of each play, its nesting depth, every field
against the schema (with ``jsonschema``: bounds on every number and length, ids within a
phone's safe integer range), the seats and move numbers against each other, and every play
replayed with its engine. A bad file is refused in plain words naming the first bad place.
The writing then goes in short transactions (``WRITE_SECONDS``), so a running companion's
moves wait a few milliseconds at most (``docs/records.md``, *Export and import*).
"""

from __future__ import annotations

import codecs
import json
import re
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

MAX_PLAY_CHARS = 1_000_000
"""The longest value in a file (a play, or a field beside the plays), in characters: the
longest play seen in an export (a 4-player Meow Oracle) had 56,000. A value is refused before
it is built, past this many; built, the worst shapes take about 25 bytes a character (a list
of empty objects), so one value stays under 25 MB in memory."""

MAX_KEY_CHARS = 1000
"""The longest name of a field of the file's outer object ("exported_at" is the longest known)."""

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
    """Add the plays of the in-memory ``document`` that the data directory lacks; return
    (added, already there). Everything is checked before the first write."""
    _check_head(document)
    for index, play in enumerate(document["plays"]):
        _check_one(index, play)
    return _write(data_dir, document["plays"])


def import_file(data_dir: str | Path, path: str | Path) -> tuple[int, int]:
    """Add the plays of the file ``path`` that the data directory lacks; return (added, already there).

    The file is read twice, piece by piece, never whole (:class:`_PlaysFile`): once to
    check every play, then to write them. The writing goes in transactions of at most
    ``WRITE_SECONDS`` each (a running companion's moves wait no longer than that); should
    the disk fail half-way, the plays written so far stay, and importing the file again adds
    the rest (plays already there are recognised)."""
    plays_file = _PlaysFile(path)
    plays_file.check()
    return _write(data_dir, plays_file.plays())


def _write(data_dir: str | Path, plays) -> tuple[int, int]:
    """Write the checked ``plays`` (an iterable) the data directory lacks, in short transactions."""
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


# ---------------------------------------------------------------------- reading a file piece by piece

_SPACE = re.compile(r"[ \t\n\r]*")


class _PlaysFile:
    """A plays file read piece by piece, so memory stays bounded whatever the file holds.

    Reading ``json.loads`` of a whole file builds every value at once, 7 to 25 times the
    file's size in memory (a 16 MB hostile file took 602 MB, issue #33). Here the outer object
    and the ``plays`` list are walked with a small buffer, and each value in them (a play, or
    a field beside the plays) is parsed on its own, once complete, by the standard library's
    decoder; a value of more than ``MAX_PLAY_CHARS`` characters is refused before it is
    built (its buffer stops growing there). Peak memory: ``benchmarks/import_memory.py``."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            size = self.path.stat().st_size
        except OSError as error:
            raise self._unreadable(error) from None
        if size > MAX_FILE_BYTES:
            raise BackupError(f"{path} is {size / 2**20:.0f} MB, more than the {MAX_FILE_BYTES // 2**20} MB "
                              "a plays file may have; nothing was imported")

    def check(self) -> None:
        """Check the whole file: its fields beside the plays, then each play (the first bad
        place is named). The format and version are judged before the plays when they stand
        before them, as an export writes them, so a foreign file is not replayed first."""
        head, count, first_error = {}, 0, None
        for kind, key, value in self._walk():
            if kind == "field":
                head[key] = value
                continue
            if count == 0 and "format" in head:
                _check_format(head)
            if count == _most_plays():
                raise BackupError(f"the file has more than {count:,} plays, more than a plays file may have; "
                                  "nothing was imported")
            if first_error is None:
                try:
                    _check_one(count, value)
                except BackupError as error:
                    first_error = error
            count += 1
        if self._plays_listed:
            head["plays"] = _Counted(count)
        _check_head(head)
        if first_error is not None:
            raise first_error

    def plays(self):
        """Each play of the file, in order (checked by :meth:`check` before)."""
        return (value for kind, _, value in self._walk() if kind == "play")

    def _walk(self):
        """("field", name, value) for each field of the file's outer object but a ``plays``
        list, and ("play", index, play) for each play of that list."""
        self._plays_listed = False
        try:
            with self.path.open("rb") as file:
                reader = _Reader(file)
                if reader.peek() != "{":
                    raise BackupError(f"this is not a plays file of the Tabletop Companion (not a JSON object with "
                                      f"\"format\": \"{FORMAT}\"); nothing was imported")
                reader.take()
                names = set()
                while reader.within() != "}":
                    if names:
                        reader.expect(",")
                    name = reader.value(MAX_KEY_CHARS, MAX_DEPTH)
                    if not isinstance(name, str):
                        raise _Unreadable("a field's name is not text")
                    if name in names:
                        raise BackupError(f"{self.path} has the field {_short(name)} twice; nothing was imported")
                    names.add(name)
                    reader.expect(":")
                    if name == "plays" and reader.peek() == "[":
                        self._plays_listed = True
                        reader.take()
                        index = 0
                        while reader.within() != "]":
                            if index:
                                reader.expect(",")
                            yield "play", index, reader.value(MAX_PLAY_CHARS, MAX_DEPTH - 2)
                            index += 1
                        reader.take()
                    else:
                        yield "field", name, reader.value(MAX_PLAY_CHARS, MAX_DEPTH - 1)
                reader.take()
                if reader.peek() != "":
                    raise _Unreadable("more follows the end of its JSON object")
        except _Unreadable as error:
            raise self._unreadable(error.reason) from None
        except OSError as error:
            raise self._unreadable(error) from None

    def _unreadable(self, reason) -> BackupError:
        return BackupError(f"{self.path} cannot be read as a plays file ({reason}); nothing was imported")


class _Counted(list):
    """Stands for the ``plays`` list when the head is checked against the schema: a list of
    as many items as the file has plays, holding none of them (they are checked one by one)."""

    def __init__(self, count: int):
        super().__init__()
        self.count = count

    def __len__(self) -> int:
        return self.count


class _Unreadable(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _Reader:
    """The text of a binary file as UTF-8, buffered a piece at a time; whole JSON values
    taken from it with the standard library's decoder, each at most ``limit`` characters."""

    PIECE = 256 * 1024

    def __init__(self, file):
        self.file, self.decoder = file, codecs.getincrementaldecoder("utf-8")()
        self.text, self.at, self.ended = "", 0, False

    def _more(self, at_least: int = 0) -> bool:
        """Read another piece (at least ``at_least`` bytes) after what is left; False at the end."""
        if self.ended:
            return False
        chunk = self.file.read(max(self.PIECE, at_least))
        try:
            more = self.decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as error:
            raise _Unreadable(f"it is not UTF-8 text: {error.reason}") from None
        self.text, self.at, self.ended = self.text[self.at:] + more, 0, not chunk
        return True

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the file)."""
        while True:
            self.at = _SPACE.match(self.text, self.at).end()
            if self.at < len(self.text) or not self._more():
                return self.text[self.at:self.at + 1]

    def within(self) -> str:
        """The next character that is not white space, which the file cannot lack there."""
        found = self.peek()
        if not found:
            raise _Unreadable("it ends too early: cut short?")
        return found

    def take(self) -> None:
        self.at += 1

    def expect(self, character: str) -> None:
        found = self.within()
        if found != character:
            raise _Unreadable(f"expected {character!r}, found {found!r}")
        self.take()

    def value(self, limit: int, depth: int):
        """The JSON value that comes next, of at most ``limit`` characters, nested at most ``depth`` deep."""
        self.within()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.at)
            except json.JSONDecodeError as error:
                if not _cut_short(error):
                    raise _Unreadable(f"it is not JSON: {error.msg}") from None
                value, end = error, None  # the value goes on after the buffer's end: read on
            except RecursionError:
                raise BackupError(f"the file is nested deeper than any plays file (more than {MAX_DEPTH} levels); "
                                  "nothing was imported") from None
            except ValueError as error:  # NaN or Infinity, or a number of 4,300+ digits
                raise _Unreadable(_short(str(error), 120)) from None
            if end is not None and end - self.at > limit:
                raise _too_large(limit)
            if end is not None and (end < len(self.text) or self.ended):  # a number may go on in the next piece
                self.at = end
                if _depth(value) > depth:
                    raise BackupError(f"the file is nested deeper than any plays file (more than {MAX_DEPTH} levels); "
                                      "nothing was imported")
                return value
            begun = len(self.text) - self.at
            if begun > limit:
                raise _too_large(limit)
            # the piece read doubles what was begun, up to the limit: a long value is parsed a few times only
            if not self._more(at_least=min(begun, limit + 1 - begun)):
                raise _Unreadable(f"it is not JSON: {value.msg}")


def _cut_short(error: json.JSONDecodeError) -> bool:
    """Whether a decoding error may only say that the text ends too early: it is at the
    text's last few characters (a truncated word, number or escape), or in a string that
    runs to the end."""
    return error.pos >= len(error.doc) - 8 or error.msg.startswith("Unterminated string")


def _too_large(limit: int) -> BackupError:
    return BackupError(f"the file has a value (a play or a field) of more than {limit:,} characters, far more than "
                       "any play; nothing was imported")


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


def _check_format(head) -> None:
    """A plays file's outer object (``head``) names the format, in a version this companion reads."""
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise BackupError(f"this is not a plays file of the Tabletop Companion (no \"format\": \"{FORMAT}\"); nothing was imported")
    version = head.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise BackupError(f"the plays file has no valid format version ({_short(version)}); nothing was imported")
    if version > VERSION:
        raise BackupError(f"the plays file has format version {version}, made by a newer companion "
                          f"(this one reads version {VERSION}); nothing was imported")


def _check_head(head) -> None:
    """The file's outer object, whose plays are checked one by one (:func:`_check_one`)."""
    _check_format(head)
    whole, _ = _validators()
    _refuse_first_error(whole, head, [])


def _check_one(index: int, play) -> None:
    """The ``index``-th play of a file, refused naming its first bad place."""
    _, one_play = _validators()
    _refuse_first_error(one_play, play, ["plays", index])
    try:
        _check_play(play)
    except BackupError as error:
        raise BackupError(f"play {index + 1} of the file (plays[{index}]) is damaged: {error}; nothing was imported") from None


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
    turns = play.get("turns", [])
    if any(turn["seat"] >= players for turn in turns):
        raise BackupError(f"its turns name seat {max(turn['seat'] for turn in turns)}, but it has {players} players")
    if not {turn["action"] for turn in turns} <= {None, *numbers}:
        raise BackupError("its turns name a move it does not have")
    if len({turn["seq"] for turn in turns}) != len(turns):
        raise BackupError("two of its turns have the same number seq")
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
def _most_plays() -> int:
    """The most plays a file may have, as the schema says."""
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["properties"]["plays"]["maxItems"]


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


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
