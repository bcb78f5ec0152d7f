"""``companion export`` and ``companion import``: a round trip onto a fresh SD card, and refusals."""

from __future__ import annotations

import json
import threading
import time

import pytest

from companion.cli import main
from companion.records.backup import FORMAT, VERSION
from companion.records.plays import Records

from .conftest import play, play_on


@pytest.fixture
def played(table, data_dir):
    """Three plays: finished ones, one with a move taken back, one abandoned after moves."""
    play(table, "swap5", ["ＡＫＩ", "Ben"], seed=1, moves=3)
    table.undo()
    play_on(table)
    play(table, "meow-oracle-scorer", ["あき", "Ben", "Cy"], seed=2)
    play(table, "lion-square", ["Aki", "Ben", "Cy"], seed=4, moves=10)
    table.start_game("swap5", 2)  # abandons the Lion Square
    return data_dir


def everything(data_dir) -> list[dict]:
    records = Records(data_dir)
    try:
        return [records.play(p["id"]) for p in records.plays()]
    finally:
        records.close()


def test_export_then_import_on_a_fresh_data_directory_gives_the_same_plays(played, tmp_path, capsys):
    backup, fresh = tmp_path / "plays.json", tmp_path / "fresh"
    assert main(["export", str(backup), "--data", str(played)]) == 0
    assert main(["import", str(backup), "--data", str(fresh)]) == 0
    assert "3 plays imported, 0 already there" in capsys.readouterr().out
    assert len(everything(fresh)) == 3 and everything(fresh) == everything(played)
    document = json.loads(backup.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT and document["version"] == VERSION


def test_importing_twice_adds_nothing_twice(played, tmp_path, capsys):
    backup, fresh = tmp_path / "plays.json", tmp_path / "fresh"
    main(["export", str(backup), "--data", str(played)])
    main(["import", str(backup), "--data", str(fresh)])
    before = everything(fresh)
    assert main(["import", str(backup), "--data", str(fresh)]) == 0
    assert "0 plays imported, 3 already there" in capsys.readouterr().out
    assert everything(fresh) == before
    assert main(["import", str(backup), "--data", str(played)]) == 0  # back onto the card it came from
    assert everything(played) == before


def damage(document: dict, how: str) -> object:
    if how == "not-a-plays-file":
        return {"hello": "world"}
    if how == "newer-version":
        return dict(document, version=VERSION + 1)
    if how == "no-version":
        return dict(document, version="one")
    play = document["plays"][0]
    if how == "missing-field":
        del play["seed"]
    elif how == "unknown-game":
        play["game"] = "chess"
    elif how == "illegal-move":
        play["actions"][0]["action"] = {"type": "fly"}
    elif how == "wrong-kind":
        play["seating"][0]["name"] = 7
    return document


@pytest.mark.parametrize("how, reason", [
    ("not-a-plays-file", "not a plays file"), ("newer-version", "newer companion"), ("no-version", "no valid format version"),
    ("missing-field", "'seed' is missing"), ("unknown-game", "does not know"), ("illegal-move", "cannot be replayed"),
    ("wrong-kind", "at plays[0].seating[0].name (play 1 of the file): 7 should be text or null"),
])
def test_a_damaged_or_foreign_file_is_refused_with_the_reason_and_changes_nothing(played, tmp_path, capsys, how, reason):
    backup, target = tmp_path / "plays.json", tmp_path / "target"
    main(["export", str(backup), "--data", str(played)])
    main(["import", str(backup), "--data", str(target)])
    before = everything(target)
    document = json.loads(backup.read_text(encoding="utf-8"))
    document["plays"].append(dict(document["plays"][0], seed=99999))  # a new play that would be added
    backup.write_text(json.dumps(damage(document, how)), encoding="utf-8")
    capsys.readouterr()
    assert main(["import", str(backup), "--data", str(target)]) == 2
    error = capsys.readouterr().err
    assert reason in error and "nothing was imported" in error
    assert everything(target) == before


def test_a_file_that_is_not_json_is_refused(tmp_path, capsys):
    backup = tmp_path / "plays.json"
    backup.write_bytes(b"\x00\xffnot json")
    assert main(["import", str(backup), "--data", str(tmp_path / "data")]) == 2
    assert "cannot be read as a plays file" in capsys.readouterr().err


# ---------------------------------------------------------------- hostile files (issue 23 point 6)

def exported(played, tmp_path) -> dict:
    backup = tmp_path / "plays.json"
    main(["export", str(backup), "--data", str(played)])
    return json.loads(backup.read_text(encoding="utf-8"))


def refused_import(tmp_path, capsys, content: str | bytes, target) -> str:
    """Import ``content`` into ``target``: refused with exit status 2, no traceback, nothing changed."""
    before = everything(target)
    hostile = tmp_path / "hostile.json"
    hostile.write_bytes(content if isinstance(content, bytes) else content.encode())
    capsys.readouterr()
    assert main(["import", str(hostile), "--data", str(target)]) == 2
    error = capsys.readouterr().err
    assert "nothing was imported" in error and "Traceback" not in error and len(error) < 600, error
    assert everything(target) == before
    return error


def mutated(document: dict, change) -> str:
    document = json.loads(json.dumps(document))
    play = document["plays"][0]
    document["plays"].append(json.loads(json.dumps(dict(play, started_at=play["started_at"] + 1))))  # a good play after: not added either
    change(play)
    return json.dumps(document)


def set_path(*path_and_value):
    *path, value = path_and_value

    def change(play):
        place = play
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
    return change


HOSTILE_PLAYS = {
    "id 2^63 - 1": (set_path("id", 2**63 - 1), "at plays[0].id (play 1 of the file): 9223372036854775807 should be at most 9007199254740991"),
    "id 2^64": (set_path("id", 2**64), "at plays[0].id"),
    "id 1.0": (set_path("id", 1.0), "at plays[0].id (play 1 of the file): 1.0 should be a whole number"),
    "seed 2^80": (set_path("seed", 2**80), "at plays[0].seed"),
    "a move's seat -1": (lambda play: play["actions"][0].update(seat=-1), "at plays[0].actions[0].seat"),
    "a move's time 1e300": (lambda play: play["actions"][0].update(at=1e300), "at plays[0].actions[0].at"),
    "result a list": (set_path("result", []), "at plays[0].result (play 1 of the file): [] should be an object or null"),
    "winners text": (set_path("result", {"winners": "all"}), "at plays[0].result.winners"),
    "winners of seat 99": (set_path("result", {"winners": [99]}), "at plays[0].result.winners[0]"),
    "a winner past the players": (set_path("result", {"winners": [5]}), "name seat 5, but it has 2 players"),
    "scores of a list": (set_path("result", {"scores": [1, 2]}), "at plays[0].result.scores"),
    "scores under a word": (set_path("result", {"scores": {"first": 1}}), "at plays[0].result.scores"),
    "a score of text": (set_path("result", {"scores": {"0": "many"}}), "at plays[0].result.scores.0"),
    "ranking without places": (set_path("result", {"ranking": [{"seat": 0}]}), "the field 'place' is missing"),
    "summary as text": (set_path("result", {"summary": "won"}), "at plays[0].result.summary"),
    "summary without Japanese": (set_path("result", {"summary": {"en": "won"}}), "the field 'ja' is missing"),
    "lions_win a number": (set_path("result", {"lions_win": 1}), "at plays[0].result.lions_win"),
    "a name of 10,000 characters": (lambda play: play["seating"][0].update(name="x" * 10_000), "at plays[0].seating[0].name"),
    "two moves numbered alike": (lambda play: play["actions"].append(dict(play["actions"][0])), "two of its moves have the same number"),
    "a seat twice": (lambda play: play["seating"].append(dict(play["seating"][0])), "its seating has the seats"),
    "a finished play without result": (set_path("result", None), "a finished play must have a result"),
}


@pytest.mark.parametrize("name", HOSTILE_PLAYS)
def test_a_hostile_play_is_refused_naming_the_first_bad_place(played, tmp_path, capsys, name):
    change, reason = HOSTILE_PLAYS[name]
    document = exported(played, tmp_path)
    assert reason in refused_import(tmp_path, capsys, mutated(document, change), tmp_path / "target")


@pytest.mark.parametrize("content, reason", [
    ("[" * 100_000 + "]" * 100_000, "not a plays file"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [{"a": ' + "[" * 100_000 + "]" * 100_000 + "}]}", "nested deeper"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [{"a": 1}, {"b" 2}, {"c": 3}]}', "it is not JSON"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": []} []', "more follows the end"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [], "plays": []}', "the field 'plays' twice"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [' + '{"a": 1}' * 2 + "]}", "expected ','"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [{}, ', "it ends too early"),
    ('{"version": 1, "plays": [{"game": "x"}], "format": "other"}', "not a plays file"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [' + "[" * 30 + "]" * 30 + "]}", "nested deeper"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [], "exported_at": ' + "9" * 5000 + "}", "cannot be read"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [], "exported_at": NaN}', "cannot be read"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": {}}', "at plays: {} should be a list"),
    ('{"format": "tabletop-companion-plays", "version": 1, "plays": [7]}', "at plays[0] (play 1 of the file): 7 should be an object"),
    ('{"format": "tabletop-companion-plays", "version": ' + str(2**64) + ', "plays": []}', "newer companion"),
])
def test_a_hostile_document_is_refused_in_plain_words(played, tmp_path, capsys, content, reason):
    assert reason in refused_import(tmp_path, capsys, content, played)


HOSTILE_SHAPES = {  # each a little over the largest value a file may hold
    "a huge string": lambda size: '"' + "x" * size + '"',
    "a huge list": lambda size: "[" + "1," * (size // 2) + "1]",
    "many empty objects": lambda size: "[" + "{}," * (size // 3) + "{}]",
}


@pytest.mark.parametrize("shape", HOSTILE_SHAPES)
@pytest.mark.parametrize("where", ["as a play", "beside the plays"])
def test_a_value_larger_than_any_play_is_refused_before_it_is_built(played, tmp_path, capsys, monkeypatch, shape, where):
    """Memory stays bounded: a value is refused by its size while still being read (the
    limit made small here; its memory at full size is measured by benchmarks/import_memory.py)."""
    from companion.records import backup

    monkeypatch.setattr(backup, "MAX_PLAY_CHARS", 20_000)
    monkeypatch.setattr(backup._Reader, "PIECE", 4096)
    built = []
    decode = backup._DECODER.raw_decode
    monkeypatch.setattr(backup, "_DECODER", type("Watched", (), {"raw_decode": staticmethod(
        lambda text, at: built.append(len(text) - at) or decode(text, at))}))
    value = HOSTILE_SHAPES[shape](30_000)
    head = '{"format": "tabletop-companion-plays", "version": 1, '
    content = head + (f'"plays": [{value}]}}' if where == "as a play" else f'"exported_at": {value}, "plays": []}}')
    error = refused_import(tmp_path, capsys, content, played)
    assert "more than 20,000 characters" in error
    assert max(built) <= 20_001 + 4096  # never more than the limit and a piece was handed to the decoder


def test_a_file_of_more_plays_than_any_is_refused_when_the_count_is_passed(played, tmp_path, capsys, monkeypatch):
    from companion.records import backup

    monkeypatch.setattr(backup, "_most_plays", lambda: 3)
    content = '{"format": "tabletop-companion-plays", "version": 1, "plays": [' + "{}," * 10 + "{}]}"
    assert "more than 3 plays" in refused_import(tmp_path, capsys, content, played)


def test_plays_across_many_pieces_are_read_whole(played, tmp_path, capsys, monkeypatch):
    """Small pieces cut plays, strings and numbers anywhere: the import reads them all the same."""
    from companion.records import backup

    monkeypatch.setattr(backup._Reader, "PIECE", 7)
    backup_file, fresh = tmp_path / "plays.json", tmp_path / "fresh"
    main(["export", str(backup_file), "--data", str(played)])
    document = json.loads(backup_file.read_text(encoding="utf-8"))
    backup_file.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    assert main(["import", str(backup_file), "--data", str(fresh)]) == 0
    assert everything(fresh) == everything(played)


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(played, tmp_path, capsys):
    from companion.records.backup import MAX_FILE_BYTES

    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:  # sparse: takes no room on the disk
        out.truncate(MAX_FILE_BYTES + 1)
    capsys.readouterr()
    assert main(["import", str(huge), "--data", str(played)]) == 2
    error = capsys.readouterr().err
    assert "more than the 64 MB" in error and "cannot be read" not in error


def test_a_large_free_id_is_not_kept_so_later_ids_stay_safe_for_phones(played, tmp_path, table):
    from companion.records.backup import KEPT_ID_LIMIT

    document = exported(played, tmp_path)
    document["plays"] = [dict(document["plays"][0], id=2**53 - 1, started_at=document["plays"][0]["started_at"] + 1)]
    backup = tmp_path / "big-id.json"
    backup.write_text(json.dumps(document), encoding="utf-8")
    assert main(["import", str(backup), "--data", str(played)]) == 0
    ids = [p["id"] for p in Records(played).plays()]
    assert max(ids) < KEPT_ID_LIMIT
    table.start_game("swap5", 2)
    assert table.view(None)["play_id"] < KEPT_ID_LIMIT


def test_an_import_beside_the_running_table_writes_in_short_transactions(played, tmp_path, table, monkeypatch):
    """The table keeps saving moves while an import writes: the import commits play by play
    here (WRITE_SECONDS 0), never holding SQLite's write lock for the whole file."""
    from companion import games
    from companion.records import backup as backup_module
    from companion.store import Store

    document = exported(played, tmp_path)
    document["plays"] = [dict(play, started_at=play["started_at"] + copy) for copy in range(5) for play in document["plays"]]
    monkeypatch.setattr(backup_module, "WRITE_SECONDS", 0.0)
    held, opened = [], Store.transaction

    def timed(store):
        transaction = opened(store)
        enter, leave = transaction.__enter__, transaction.__exit__

        class Timed:
            def __enter__(self):
                self.began = time.monotonic()
                return enter()

            def __exit__(self, *exc):
                held.append(time.monotonic() - self.began)
                return leave(*exc)
        return Timed()

    table.start_game("swap5", 2)
    game, moves, stop = games.get("swap5"), [], threading.Event()

    def play_moves():
        while not stop.is_set() and not game.is_over(table.state()):
            seat = game.to_act(table.state())[0]
            table.act(seat, game.legal_actions(table.state(), seat)[0], table.version)
            moves.append(seat)

    mover = threading.Thread(target=play_moves)
    monkeypatch.setattr(Store, "transaction", timed)
    mover.start()
    try:
        added, known = backup_module.import_plays(played, document)
    finally:
        stop.set()
        mover.join()
    assert (added, known) == (12, 3)
    assert len(held) >= added + 1  # one transaction per play (and the store's opening write)
    assert moves and table.problem is None
