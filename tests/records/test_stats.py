"""The statistics (``companion/records/stats.py``) on hand-made plays, ``GET /api/stats`` and
its refusals, and the ``/records`` page in both languages with well-formed charts."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

import pytest

from companion.records.stats import h_index, spread, stats

from .conftest import play as play_through_the_table

HOUR = 3600


def made_play(play_id, game, seats, *, minutes=30, abandoned=False, lions_win=False, start=0, options=None):
    """A play as Records.outcomes() lists it. ``seats``: (name, score, winner) or (name, score,
    winner, bot level); ``start``: the seat that started, None when the game does not say."""
    players = []
    for seat, (name, score, winner, *bot) in enumerate(seats):
        players.append({"seat": seat, "name": name, "bot": bool(bot), "bot_level": bot[0] if bot else None,
                        "start_player": seat == start,
                        "score": None if abandoned else score, "winner": winner and not abandoned})
    return {"game": game, "options": options or {}, "ended_at": play_id * HOUR + minutes * 60, "duration_min": minutes, "abandoned": abandoned,
            "lions_win": lions_win, "players": players}


@pytest.fixture
def plays():
    """Newest first, as Records.outcomes() lists them."""
    return list(reversed([
        made_play(1, "swap5", [("aki", 5, True), ("Ben", 3, False)], minutes=20),
        # a shared win: a win for each
        made_play(2, "meow-oracle", [("Ben", 2, True), ("ＡＫＩ", 2, True), ("Cy", 1, False)], minutes=40, start=1),
        # the lions win: nobody does
        made_play(3, "lion-square", [("Aki", -1, False), ("Ben", -2, False), ("Cy", 0, False)], lions_win=True, start=2),
        # abandoned: no winner, no score; counts in hours only
        made_play(4, "swap5", [("Ben", 0, False), ("Dee", 0, False)], minutes=30, abandoned=True),
        # a bot wins; the ledger does not know who started
        made_play(5, "lion-square-ledger", [("Bot 1 (Normal)", 4, True, "normal"), ("aKi", 1, False)],
                  start=None, minutes=30),
    ]))


def test_totals_count_finished_plays_and_every_hour(plays):
    answer = stats(plays)
    assert (answer["plays"], answer["abandoned"], answer["hours"]) == (4, 1, 2.5)
    # board games: lion square 2 (the full game and the ledger), swap5 1, meow oracle 1
    assert answer["h_index"] == 1


def test_players_matched_by_name_shown_as_last_spelled_ties_win_for_each(plays):
    players = {player["name"] or player["key"]: player for player in stats(plays)["players"]}
    assert list(players) == ["aKi", "Ben", "Cy", "bot:normal", "Dee"]
    aki, ben, cy, bot, dee = players.values()
    assert (aki["plays"], aki["wins"], aki["win_rate"], aki["abandoned"], aki["bot"]) == (4, 2, 0.5, 0, False)
    assert (ben["plays"], ben["wins"], ben["win_rate"], ben["abandoned"]) == (3, 1, 0.3333, 1)
    assert (cy["plays"], cy["wins"], cy["win_rate"]) == (2, 0, 0.0)  # the lions' win is not Cy's
    assert (bot["bot"], bot["plays"], bot["wins"]) == (True, 1, 1)
    assert (dee["plays"], dee["wins"], dee["win_rate"], dee["abandoned"]) == (0, 0, None, 1)
    assert aki["last_played"] == 5 * HOUR + 30 * 60 and dee["last_played"] == 4 * HOUR + 30 * 60
    assert aki["h_index"] == 1 and dee["h_index"] == 0  # aki: lion square twice, once each the others


def test_a_bot_is_one_player_per_level_whatever_its_seat_and_a_person_is_never_one():
    answer = stats([
        made_play(2, "swap5", [("Aki", 1, False), ("Bot 2 (Normal)", 5, True, "normal")]),
        made_play(1, "meow-oracle", [("Bot 1 (Normal)", 2, True, "normal"), ("bot:normal", 1, False),
                                     ("Bot 3 (Strong)", 0, False, "strong")]),
    ])
    players = {(player["bot_level"], player["key"]): player for player in answer["players"]}
    # most plays, then wins; a person who calls themself "bot:normal" stays a person
    assert list(players) == [("normal", "bot:normal"), (None, "aki"), (None, "bot:normal"), ("strong", "bot:strong")]
    normal = players["normal", "bot:normal"]
    assert (normal["plays"], normal["wins"], normal["name"], normal["bot"]) == (2, 2, None, True)
    assert not players[None, "bot:normal"]["bot"] and players[None, "bot:normal"]["name"] == "bot:normal"


def test_per_game_plays_hours_lions_and_scores(plays):
    by_game = {entry["game"]: entry for entry in stats(plays)["games"]}
    assert list(by_game) == ["swap5", "lion-square", "lion-square-ledger", "meow-oracle"]
    swap5 = by_game["swap5"]
    assert (swap5["plays"], swap5["abandoned"], swap5["hours"], swap5["lions_wins"]) == (1, 1, 0.83, 0)
    assert swap5["scores"] == {"n": 2, "min": 3, "q1": 3.5, "median": 4.0, "q3": 4.5, "max": 5}  # not the abandoned zeros
    assert by_game["lion-square"]["lions_wins"] == 1
    assert by_game["lion-square"]["scores"] == {"n": 3, "min": -2, "q1": -1.5, "median": -1, "q3": -0.5, "max": 0}


def test_seat_positions_count_from_the_start_player(plays):
    by_game = {entry["game"]: entry for entry in stats(plays)["games"]}
    # seat 1 started: Ben (seat 0) sat last (position 3), ＡＫＩ (seat 1) first; both won
    assert by_game["meow-oracle"]["seats"] == [{"players": 3, "n": 1, "positions": [
        {"position": 1, "wins": 1, "share": 1.0}, {"position": 2, "wins": 0, "share": 0.0},
        {"position": 3, "wins": 1, "share": 1.0}]}]
    assert by_game["lion-square"]["seats"][0]["positions"] == [{"position": p, "wins": 0, "share": 0.0} for p in (1, 2, 3)]
    assert by_game["lion-square-ledger"]["seats"] == []  # nobody knows who started
    assert by_game["swap5"]["seats"][0]["n"] == 1  # the abandoned play is not behind it


def test_seat_positions_follow_a_counterclockwise_swap5s_turn_order():
    # Four players, seat 0 starts, counterclockwise: seat 3 moves second and seat 1 last.
    seats = [("Aki", 1, False), ("Ben", 0, False), ("Cy", 2, False), ("Dee", 5, True)]
    answer = stats([made_play(1, "swap5", seats, options={"direction": "counterclockwise"}),
                    made_play(2, "swap5", seats[:1] + [("Ben", 5, True)] + seats[2:3] + [("Dee", 0, False)],
                              options={"direction": "clockwise"})])
    [four] = answer["games"][0]["seats"]
    assert [position["wins"] for position in four["positions"]] == [0, 2, 0, 0]


def test_no_plays_no_figures():
    assert stats([]) == {"plays": 0, "abandoned": 0, "hours": 0, "h_index": 0, "games": [], "players": [],
                         "longest_turn": None}


@pytest.mark.parametrize("counts, h", [([], 0), ([1], 1), ([5], 1), ([3, 3, 3], 3), ([10, 4, 2, 1], 2), ([0, 0], 0)])
def test_h_index(counts, h):
    assert h_index(counts) == h


def test_spread_of_one_score_and_of_none():
    assert spread([7]) == {"n": 1, "min": 7, "q1": 7, "median": 7, "q3": 7, "max": 7}
    assert spread([]) is None


# ---------------------------------------------------------------------- the route


@pytest.fixture
def stored(table):
    play_through_the_table(table, "swap5", ["ＡＫＩ", "Ben"], seed=1)
    play_through_the_table(table, "pig-house", ["Ben", "aki"], seed=2)
    play_through_the_table(table, "swap5", ["Aki", "Ben"], seed=3, moves=2)
    table.start_game("swap5", 2)  # abandons the third (it had moves), Aki and Ben still seated


def test_the_stats_route_answers_the_stored_plays(client, stored):
    answer = client.get("/api/stats")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    body = answer.get_json()
    assert (body["plays"], body["abandoned"]) == (2, 1)
    aki = next(player for player in body["players"] if player["key"] == "aki")
    assert (aki["name"], aki["plays"], aki["abandoned"]) == ("Aki", 2, 1)
    only_swap5 = client.get("/api/stats?game=swap5").get_json()
    assert [entry["game"] for entry in only_swap5["games"]] == ["swap5"] and only_swap5["plays"] == 1


@pytest.mark.parametrize("query, status", [("game=chess", 404), ("game=", 404), ("gmae=swap5", 400),
                                           ("game=swap5&game=pig-house", 400)])
def test_bad_stats_queries_are_refused(client, query, status):
    answer = client.get(f"/api/stats?{query}")
    assert answer.status_code == status, answer.get_json()


def test_outcomes_are_the_plays_without_their_words(records, stored):
    plays = records.plays()
    assert records.outcomes() == [
        {"id": play["id"], "game": play["game"], "options": play["options"], "ended_at": play["ended_at"],
         "duration_min": play["duration_min"], "abandoned": play["abandoned"], "lions_win": play["lions_win"],
         "players": [{**{k: v for k, v in player.items() if k not in ("rank", "occupants", "turn_time")}, "turns": []}
                     for player in play["players"]]}
        for play in plays]
    assert [outcome["game"] for outcome in records.outcomes("swap5")] == ["swap5", "swap5"]


# ---------------------------------------------------------------------- the page

SVG = re.compile(r"<svg\b.*?</svg>", re.S)


@pytest.mark.parametrize("lang, words", [("en", "Plays per game"), ("ja", "ゲームごとの回数")])
def test_the_records_page_in_both_languages_with_well_formed_charts(client, stored, lang, words):
    answer = client.get(f"/records?lang={lang}")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert words in html and f'<html lang="{lang}">' in html
    charts = SVG.findall(html)
    assert len(charts) >= 4
    for chart in charts:
        svg = ElementTree.fromstring(chart)  # raises when not well formed
        assert svg.get("role") == "img" and svg.get("aria-label")
    finished = [p["id"] for p in client.get("/api/plays").get_json()["plays"] if not p["abandoned"]]
    for play_id in finished:
        assert f'href="/replay/{play_id}"' in html
    assert html.count('href="https://app.bgstatsapp.com/createPlay.html?data=') == len(finished)
    assert html.count("/replay/") == len(finished)  # not for the abandoned play


def test_the_even_share_mark_crosses_no_words(client, stored):
    """The seat charts' even-share mark stands beside each bar, below its label, and the
    figure comes after both (a line across the chart ran through the words)."""
    html = client.get("/records?lang=en").get_data(as_text=True)
    marked = 0
    for chart in SVG.findall(html):
        svg = ElementTree.fromstring(chart)
        marks = svg.findall("{http://www.w3.org/2000/svg}line[@class='chart-even']")
        labels = svg.findall("{http://www.w3.org/2000/svg}text[@class='chart-label']")
        values = svg.findall("{http://www.w3.org/2000/svg}text[@class='chart-value']")
        if not marks:
            continue
        assert len(marks) == len(labels) == len(values), "one mark per bar"
        for mark, label, value in zip(marks, labels, values):
            marked += 1
            assert float(mark.get("y1")) > float(label.get("y")), "the mark reaches up into the label's line"
            assert float(value.get("x")) > float(mark.get("x1")), "the figure starts before the mark"
    assert marked, "no seat chart drawn"


def test_the_records_page_filters_by_game(client, stored):
    html = client.get("/records?game=pig-house&lang=en").get_data(as_text=True)
    assert "Pig House" in html and "/replay/" in html
    assert client.get("/records?game=chess&lang=en").status_code == 404
    assert "no game" in client.get("/records?game=chess&lang=en").get_data(as_text=True)


@pytest.mark.parametrize("lang, words", [("en", "No plays yet"), ("ja", "まだ記録がありません")])
def test_the_records_page_says_what_will_appear_when_empty(client, lang, words):
    html = client.get(f"/records?lang={lang}").get_data(as_text=True)
    assert words in html and "<svg" not in html
