"""Random legal games over HTTP for every game id: no seat ever reads another seat's secret.

Every seat joins; then random legal actions are posted, each by a seat whose turn it is,
with the version of its own view. After every step each seat's responses (its view, the
action's answer, the public table, ``/api/me``) and a visitor's view are searched for the
secrets that reader must not know.

What counts as a secret is derived from the engine itself at that moment:

- for seat *s*: every string (value or key) in another seat's engine view (its hand,
  its private log lines...) that does not also appear in *s*'s own engine view;
- for everybody: every component id (card) that appears in no view at all: face-down
  cards, the deck.

A number (a hidden herd of 17, say) cannot be told apart from a count that reads 17
anywhere, so numbers are checked by structure, where they can be recognised: every view
answered over HTTP (``/api/view``, an action's answer, the public table's ``view``) must be
exactly its reader's engine view, value by value, plus only the table's own fields
(``version``, ``title``, ``names``, and ``actions``, which must be the engine's legal
actions for that reader). Whether the engine's views themselves hide what they should is
each engine's scramble test (``tests/test_games_contract.py``).

``test_the_check_catches_a_leak`` proves the check can fail: a table that slips its whole
state into the views is caught, for every game that has secrets; and
``test_the_check_catches_a_numeric_leak`` plants only another seat's numbers (a herd, a
typed loss) in place of the reader's own, which no string search could see.
"""

from __future__ import annotations

import random

import pytest

from companion import games
from companion.games import Game

STEPS = 60
"""Steps per game: enough to pass through every kind of step, small enough for ~30 s in all."""


def strings_in(value) -> set[str]:
    """Every string in a JSON value: values and keys."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def forbidden_strings(table) -> dict[int | None, set[str]]:
    """For each reader (a seat, or None for a visitor), the strings it must not see now."""
    game, state = games.get(table.game_id), table.state()
    seen = {seat: strings_in(game.view(state, seat)) for seat in range(table.players)}
    seen[None] = strings_in(game.view(state, None))
    seen_by_anyone = set().union(*seen.values())
    hidden_from_all = {str(c) for c in (game.components(state) or [])} - seen_by_anyone
    # The games' descriptions (names of options and their choices) are public words that
    # a private view may happen to use too, e.g. "typed".
    descriptions = strings_in(table.public()["offered_games"])
    forbidden = {}
    for reader in seen:
        others = set().union(*(seen[o] for o in seen if o is not None and o != reader))
        forbidden[reader] = ((others - seen[reader]) | hidden_from_all) - descriptions
    return forbidden


def string_leaks(table, answers: dict[int | None, list]) -> list[str]:
    """The secret strings found in what each reader received, as readable lines."""
    forbidden = forbidden_strings(table)
    found = []
    for reader, bodies in answers.items():
        for body in bodies:
            for secret in sorted(strings_in(body) & forbidden[reader]):
                found.append(f"{'a visitor' if reader is None else f'seat {reader}'} read {secret!r}")
    return found


TABLE_FIELDS = {"version", "title", "play_id", "names", "bots", "host", "troubles", "problem", "is_host", "seed_chosen",
                "clock"}
"""What the table adds to an engine view that holds no secret: its own version number
(the engine's moves to ``game_version``), the game's title, its id in the records (a play
is readable only once it is over), the seats' names and bot levels, who hosts (and whether they are here), what keeps a bot from
moving (the same words for everyone), why it cannot save (a full disk), if it cannot, whether the game was started with a chosen seed (the same for everyone),
the turn clock (every seat's turn times, the same for everyone), and (``GET /api/view``) whether the caller is the host."""

TABLE_LOG_FIELDS = {"seq"}
"""What the table adds to each log entry it keeps: its place in the game's whole log."""

_MISSING = object()


def differences(got, want, path: str) -> list[str]:
    """Every place, by path, where ``got`` is not ``want``: values, keys, list lengths."""
    if isinstance(got, dict) and isinstance(want, dict):
        return [line for key in sorted(set(got) | set(want), key=str)
                for line in differences(got.get(key, _MISSING), want.get(key, _MISSING), f"{path}.{key}")]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [line for n, (g, w) in enumerate(zip(got, want)) for line in differences(g, w, f"{path}[{n}]")]
    if got is _MISSING:
        return [f"{path} is missing"]
    if want is _MISSING:
        return [f"{path} = {got!r} is not in the reader's own view"]
    return [] if got == want and type(got) is type(want) else [f"{path} = {got!r} where the reader's own view has {want!r}"]


def view_leaks(table, reader: int | None, answered: dict, where: str) -> list[str]:
    """How an answered view differs from ``reader``'s engine view plus the table's fields."""
    game, state = games.get(table.game_id), table.state()
    want = game.view(state, reader)
    want["game_version"] = want.pop("version")
    want["actions"] = [] if reader is None else game.legal_actions(state, reader)
    got = {key: value for key, value in answered.items() if key not in TABLE_FIELDS}
    if isinstance(got.get("log"), list):  # the table's copy of the engine's entries, numbered
        got["log"] = [{key: value for key, value in entry.items() if key not in TABLE_LOG_FIELDS}
                      if isinstance(entry, dict) else entry for entry in got["log"]]
    who = "a visitor" if reader is None else f"seat {reader}"
    return [f"{who} read in {where}: {line}" for line in differences(got, want, "view")]


def leaks(table, answers: dict[int | None, list], views: dict[int | None, list]) -> list[str]:
    """Every secret string in ``answers`` and every departure of ``views`` from their
    readers' own engine views, as readable lines."""
    found = string_leaks(table, answers)
    for reader, answered in views.items():
        for where, view in answered:
            found += view_leaks(table, reader, view, where)
    return found


@pytest.fixture
def host(api):
    token = api.post("/api/host/claim").json["host_token"]
    api.forget_cookies()
    return token


def play_and_check(api, table, host: str, game_id: str, players: int, seed: int) -> list[str]:
    """Play one random game over HTTP; return every leak found (stops at the first step with one)."""
    for seat in api.get("/api/table").json["seats"]:  # seats stay held from game to game: start afresh
        if seat["taken"]:
            assert api.post(f"/api/seats/{seat['seat']}/free", token=host).status_code == 200
    assert api.post("/api/game", {"game": game_id, "players": players, "seed": seed}, token=host).status_code == 200
    tokens = [api.post(f"/api/seats/{s}/join", {"name": f"P{s}"}, token=host).json["token"] for s in range(players)]
    api.forget_cookies()
    pick = random.Random(seed)
    for _ in range(STEPS):
        public_view, public_table = api.get("/api/view").json, api.get("/api/table").json
        answers: dict[int | None, list] = {None: [public_view, public_table]}
        answered_views: dict[int | None, list] = {None: [("/api/view", public_view), ("/api/table", public_table["view"])]}
        views = {}
        for seat, token in enumerate(tokens):
            views[seat] = api.get("/api/view", token=token).json
            answers[seat] = [views[seat], api.get("/api/me", token=token).json]
            answered_views[seat] = [("/api/view", views[seat])]
        found = leaks(table, answers, answered_views)
        if found or views[0]["over"]:
            return found
        seat = pick.choice(views[0]["to_act"])
        action = pick.choice(views[seat]["actions"])
        response = api.post("/api/actions", {"action": action, "version": views[seat]["version"]}, token=tokens[seat])
        assert response.status_code == 200, (game_id, action, response.json)
        found = leaks(table, {seat: [response.json]}, {seat: [("the action's answer", response.json)]})
        if found:
            return found
    return []


@pytest.mark.parametrize("game_id", games.ids())
def test_random_games_over_http_leak_no_secret(api, table, host, game_id):
    game = games.get(game_id)
    for players in sorted({game.min_players, game.max_players}):
        assert play_and_check(api, table, host, game_id, players, seed=players) == []


WITH_SECRETS = [g for g in games.ids() if type(games.get(g))._hidden is not Game._hidden]


@pytest.mark.parametrize("game_id", WITH_SECRETS)
def test_the_check_catches_a_leak(api, table, host, monkeypatch, game_id):
    """A table that puts its full state into every view must be caught, for every game
    that has secrets (the scorer has none: every card it counts lies face up)."""
    game = games.get(game_id)
    table.start_game(game_id, game.max_players, seed=1)
    assert any(forbidden_strings(table).values())
    honest_view = table.view
    monkeypatch.setattr(table, "view", lambda seat: {**honest_view(seat), "debug": table.state()})
    assert play_and_check(api, table, host, game_id, game.max_players, seed=1) != []


def with_numbers_of(view, other):
    """``view`` with every number replaced by ``other``'s number at the same place (strings,
    keys and everything else left as they are)."""
    if isinstance(view, dict) and isinstance(other, dict):
        return {key: with_numbers_of(value, other.get(key)) for key, value in view.items()}
    if isinstance(view, list) and isinstance(other, list) and len(view) == len(other):
        return [with_numbers_of(v, o) for v, o in zip(view, other)]
    is_number = isinstance(view, int | float) and not isinstance(view, bool)
    return other if is_number and isinstance(other, int | float) and not isinstance(other, bool) else view


@pytest.mark.parametrize("game_id", ["lion-square-ledger"])
def test_the_check_catches_a_numeric_leak(api, table, host, monkeypatch, game_id):
    """Each seat is shown the next seat's secret numbers (its typed loss, its herd) in place
    of its own: no new string appears, so only the structural check can catch it."""
    players = games.get(game_id).max_players
    honest_view = table.view

    def leaky_view(seat):
        view = honest_view(seat)
        if seat is None:
            return view
        return {**view, "private": with_numbers_of(view["private"], honest_view((seat + 1) % players)["private"])}

    monkeypatch.setattr(table, "view", leaky_view)
    found = play_and_check(api, table, host, game_id, players, seed=1)
    assert found and all(".private." in line for line in found), found
    assert not any(" read '" in line for line in found)  # no string gave it away
