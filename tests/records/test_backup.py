"""``companion export`` and ``companion import``: a round trip onto a fresh SD card, and refusals."""

from __future__ import annotations

import json

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
    ("wrong-kind", "'name' is missing or not of the right kind"),
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
