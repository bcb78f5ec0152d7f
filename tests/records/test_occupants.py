"""Everyone who played a seat (issue 33, point 7): a seat taken over mid-game keeps each
occupant with the moves they made, the play says who finished the seat and who played it
before, and the statistics and BG Stats count one player per seat: the one who made most of
its moves (docs/records.md, "Who played a seat")."""

from __future__ import annotations

import json
import re
from collections import Counter
from html import unescape

import pytest

from companion.cli import main
from companion.records.exports import bgstats_payload, plays_csv
from companion.records.plays import Records

from .conftest import play, play_on


def moves_by_seat(table, upto: int | None = None) -> Counter:
    """seat -> its moves in force (those numbered up to ``upto``)."""
    return Counter(a["seat"] for a in table.action_log() if not a["undone"] and (upto is None or a["n"] <= upto))


def test_a_seat_handed_from_one_person_to_another_keeps_both_with_their_moves(table, records):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=3, moves=9)
    before = moves_by_seat(table)
    table.free_seat(0)
    table.join(0, "Dai")
    play_on(table)
    after = moves_by_seat(table)
    (finished,) = records.plays()
    aki, dai = finished["players"][0]["occupants"]
    assert (aki["name"], aki["moves"], aki["finished"]) == ("Aki", before[0], False)
    assert (dai["name"], dai["moves"], dai["finished"]) == ("Dai", after[0] - before[0], True)
    assert [o["name"] for o in finished["players"][1]["occupants"]] == ["Bo"]  # a seat never handed on
    # the seat counts for whoever made most of its moves
    assert finished["players"][0]["name"] == ("Aki" if aki["moves"] > dai["moves"] else "Dai")
    movers = Counter((a["seat"], a["name"]) for a in records.play(finished["id"])["actions"] if not a["undone"])
    assert movers[(0, "Aki")] == before[0] and movers[(0, "Dai")] == after[0] - before[0]


def test_a_person_replaced_by_a_bot_late_keeps_the_seat_in_the_statistics(table, records):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=5, moves=30)
    table.free_seat(1)
    table.join(1, "Bot 2 (Normal)", bot="normal")
    play_on(table)
    (finished,) = records.plays()
    bo, bot = finished["players"][1]["occupants"]
    assert bo["name"] == "Bo" and bo["bot_level"] is None and not bo["finished"]
    assert bot["bot_level"] == "normal" and bot["finished"]
    credited = bo if bo["moves"] >= bot["moves"] else bot
    player = finished["players"][1]
    assert (player["name"], player["bot"]) == (credited["name"], credited["bot_level"] is not None)
    outcome = records.outcomes()[0]["players"][1]
    assert outcome["name"] == credited["name"]  # the statistics read the same one player
    assert len(bgstats_payload(finished)["players"]) == 3  # BG Stats: one player per seat


def test_a_play_abandoned_after_every_seat_was_freed_names_who_played(table, records):
    play(table, "lion-square", ["Bo", "Bot 2 (Normal)", "Bot 3 (Easy)"], seed=4, moves=10,
         bots={1: "normal", 2: "easy"})
    table.free_all_seats()
    table.start_game("swap5", 2)  # abandons the Lion Square, whose seats are all free
    (abandoned,) = records.plays()
    assert abandoned["abandoned"]
    seats = abandoned["players"]
    assert [seat["name"] for seat in seats] == ["Bo", "Bot 2 (Normal)", "Bot 3 (Easy)"]
    assert [seat["bot_level"] for seat in seats] == [None, "normal", "easy"]
    assert all(not o["finished"] for seat in seats for o in seat["occupants"]), "nobody was there at the end"
    assert [len(seat["occupants"]) for seat in seats] == [1, 1, 1]


def test_an_occupant_who_left_without_moving_is_not_listed(table, records):
    table.start_game("swap5", 2, seed=2)
    table.join(0, "Aki")
    table.join(1, "Eve")
    table.free_seat(1)  # Eve left before her first move
    table.join(1, "Ben")
    play_on(table)
    (finished,) = records.plays()
    assert [o["name"] for o in finished["players"][1]["occupants"]] == ["Ben"]
    assert finished["players"][1]["name"] == "Ben"


def test_players_who_play_on_in_a_new_game_are_its_first_occupants(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=1)
    table.rematch()
    play_on(table)
    newest = records.plays()[0]
    assert [[o["name"] for o in p["occupants"]] for p in newest["players"]] == [["Aki"], ["Ben"]]
    assert all(p["occupants"][0]["finished"] for p in newest["players"])


def test_moves_taken_back_are_nobodys(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=1, moves=4)
    table.undo()
    table.free_seat(0)
    table.join(0, "Cy")
    play_on(table)
    (finished,) = records.plays()
    occupants = finished["players"][0]["occupants"]
    assert sum(o["moves"] for o in occupants) == moves_by_seat(table)[0]


def test_renaming_a_player_renames_them_as_an_occupant_too(table, records):
    play(table, "swap5", ["Aki", "Ben"], seed=1, moves=4)
    table.free_seat(0)
    table.join(0, "Cy")
    play_on(table)
    records.rename("aki", "Akiko")
    (finished,) = records.plays()
    assert [o["name"] for o in finished["players"][0]["occupants"]][0] == "Akiko"


def test_the_csv_names_who_played_a_seat_before(table, records):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=3, moves=9)
    table.free_seat(0)
    table.join(0, "Dai")
    play_on(table)
    rows = plays_csv(records.plays()).splitlines()
    header = rows[0].lstrip("\ufeff").split(",")
    first_seat = dict(zip(header, rows[1].split(",")))
    assert first_seat["seat"] == "1" and first_seat["occupants"] == "Aki > Dai"


def test_occupants_survive_an_export_and_import_and_an_old_file_still_imports(table, data_dir, tmp_path, capsys):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=3, moves=9)
    table.free_seat(0)
    table.join(0, "Dai", bot=None)
    play_on(table)
    backup = tmp_path / "plays.json"
    assert main(["export", str(backup), "--data", str(data_dir)]) == 0

    def plays_in(directory):
        records = Records(directory)
        try:
            return records.plays()
        finally:
            records.close()

    fresh = tmp_path / "fresh"
    assert main(["import", str(backup), "--data", str(fresh)]) == 0
    original, copied = plays_in(data_dir), plays_in(fresh)
    assert [p["players"] for p in copied] == [p["players"] for p in original]
    assert [o["name"] for o in copied[0]["players"][0]["occupants"]] == ["Aki", "Dai"]

    document = json.loads(backup.read_text(encoding="utf-8"))
    for old in document["plays"]:
        del old["occupants"]  # as a companion exported before occupants were kept
    backup.write_text(json.dumps(document), encoding="utf-8")
    older = tmp_path / "older"
    assert main(["import", str(backup), "--data", str(older)]) == 0, capsys.readouterr()
    (imported,) = plays_in(older)
    assert [p["name"] for p in imported["players"]] == [p["name"] for p in original[0]["players"]]
    assert all(p["occupants"] == [] for p in imported["players"])


def seat_histories(html: str) -> list[str]:
    return [unescape(text) for text in re.findall(r'data-testid="seat-history">([^<]*)<', html)]


def test_the_records_page_and_the_replay_say_who_finished_a_seat_and_who_played_it_before(client, table):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=3, moves=9)
    aki = moves_by_seat(table)[0]
    table.free_seat(0)
    table.join(0, "Bot 1 (Normal)", bot="normal")
    play_on(table)
    bot = moves_by_seat(table)[0] - aki
    (finished,) = client.get("/api/plays").get_json()["plays"]
    english = f"Seat 1: Aki ({aki} moves), then Bot 1 (normal) ({bot} moves, to the end)."
    japanese = f"1番の席：Aki（{aki}手） → ボット1（ふつう）（{bot}手・最後まで）"
    assert seat_histories(client.get("/records?lang=en").get_data(as_text=True)) == [english]
    assert seat_histories(client.get(f"/replay/{finished['id']}?lang=en").get_data(as_text=True)) == [english]
    assert seat_histories(client.get(f"/replay/{finished['id']}?lang=ja").get_data(as_text=True)) == [japanese]


def test_a_seat_played_by_one_person_needs_no_history(client, table):
    play(table, "swap5", ["Aki", "Ben"], seed=1)
    (finished,) = client.get("/api/plays").get_json()["plays"]
    assert seat_histories(client.get(f"/replay/{finished['id']}").get_data(as_text=True)) == []


@pytest.mark.parametrize("damage, reason", [
    (lambda occupants: occupants[0].update(seat=5), "its occupants name seat 5, but it has 3 players"),
    (lambda occupants: occupants.reverse(), "are not in the order they sat"),
    (lambda occupants: occupants[0].update(name=""), "occupants"),
])
def test_damaged_occupants_are_refused_and_nothing_is_imported(table, data_dir, tmp_path, capsys, damage, reason):
    play(table, "meow-oracle", ["Aki", "Bo", "Cy"], seed=3, moves=9)
    table.free_seat(0)
    table.join(0, "Dai")
    play_on(table)
    backup = tmp_path / "plays.json"
    main(["export", str(backup), "--data", str(data_dir)])
    document = json.loads(backup.read_text(encoding="utf-8"))
    seat_0 = [o for o in document["plays"][0]["occupants"] if o["seat"] == 0]
    others = [o for o in document["plays"][0]["occupants"] if o["seat"] != 0]
    damage(seat_0)
    document["plays"][0]["occupants"] = seat_0 + others
    backup.write_text(json.dumps(document), encoding="utf-8")
    capsys.readouterr()
    assert main(["import", str(backup), "--data", str(tmp_path / "fresh")]) != 0
    assert reason in capsys.readouterr().err
    records = Records(tmp_path / "fresh")
    try:
        assert records.plays() == []
    finally:
        records.close()
