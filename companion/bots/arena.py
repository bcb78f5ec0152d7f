"""Bots against bots: the strength measurements behind ``companion arena`` and docs/bots.md.

Each entry of ``seats`` is a bot level, ``greedy`` (the yardstick of :mod:`.greedy`: the
move that leaves its own score margin highest, from its own seat's view), ``ahead`` (the
stronger yardsticks of :mod:`.ahead`, greedy players that think ahead: Meow Oracle's by
expected points, Lion Square's with a weighted margin and a deliberate pass, SWAP 5's
careful one) or ``random`` (uniform among the legal actions).
The entries rotate over the table's seats from game to game (entry ``i`` sits at seat
``(i + game) % players``), so no entry is favoured by where it sits. Everything follows
from ``seed``: the deals, the random players and the bots' searches (with a budget of
iterations the whole run is reproducible).

``workers`` stands for the processes a level's search runs on (``[bots] workers``): their
searches are made one after the other here, each with the level's budget of its own
(:class:`.parallel.InProcessPool`), and summed, as a Pi's workers do at once on cores of
their own; a decision's processor time counts the longest worker only.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Iterator

from ..config import BotsConfig
from ..games import Game
from ..games.rng import Rng
from . import LEVELS, choose, supported
from .ahead import ahead_action
from .budget import Budget
from .greedy import greedy_action
from .parallel import InProcessPool

RANDOM = "random"
GREEDY = "greedy"
AHEAD = "ahead"
PLAYERS = (RANDOM, GREEDY, AHEAD)
"""The arena's entries that are not bot levels."""


@dataclass
class ArenaResult:
    game: str
    seats: list[str]
    games: int
    wins: list[float]  # per entry of seats, shared wins split
    lions: int  # games nobody won
    moves: list[int]  # per game, in the order played: how long the games ran
    # per entry of seats: its longest decision in processor seconds (None: not a bot level);
    # not compared, since times differ from run to run where the moves do not
    slowest: list[float | None] = field(default_factory=list, compare=False)

    def as_json(self) -> dict:
        return {"game": self.game, "seats": self.seats, "games": self.games, "wins": self.wins, "lions": self.lions,
                "moves": self.moves, "slowest": self.slowest}

    def report(self) -> str:
        lines = [f"{self.game}, {len(self.seats)} players, {self.games} games (entries rotate over the seats):"]
        for index, (entry, wins) in enumerate(zip(self.seats, self.wins)):
            low, high = wilson(wins, self.games)
            lines.append(f"  {index + 1}. {entry:<8} {wins:7.1f} wins  {100 * wins / self.games:5.1f}%"
                         f"  (95%: {100 * low:.0f}–{100 * high:.0f}%)")
        if self.lions:
            lines.append(f"  nobody (the lions) {self.lions} games")
        lines.append(f"  moves per game: median {statistics.median(self.moves):g}, longest {max(self.moves)}")
        for entry, slowest in zip(self.seats, self.slowest):
            if slowest is not None:
                lines.append(f"  {entry}'s longest decision: {slowest:.3f} s of processor time")
        return "\n".join(lines)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share of ``wins`` in ``games`` (shared wins count
    their share)."""
    share = wins / games
    centre = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass
class Played:
    """One game of an arena run, as :func:`played_games` yields it."""

    number: int  # the game's place in the run: dealt from ``seed + number``
    entries: list[str]  # per seat, the entry sitting there
    state: dict  # the finished game
    moves: list[tuple[int, dict]]  # (seat, action), in the order played
    slowest: dict[int, float]  # per bot seat: its longest decision in processor seconds

    def place(self, seat: int) -> int:
        """The place in the run's ``seats`` of the entry at ``seat`` (they turn a seat a game)."""
        return (seat - self.number) % len(self.entries)


def played_games(
    game: Game,
    seats: list[str],
    games: int,
    seed: int,
    *,
    budget: Budget | None = None,
    scale: float | None = None,
    config: BotsConfig | None = None,
    workers: int = 1,
) -> Iterator[Played]:
    """The games of an arena run (see :func:`arena`), one by one as each ends: the run's
    checks are made before the first is played."""
    if not supported(game.id):
        raise ValueError(f"{game.title['en']} has no bots (an arena needs one of the full games)")
    for entry in seats:
        if entry not in PLAYERS and entry not in LEVELS:
            raise ValueError(f"unknown seat {entry!r}: use a bot level ({', '.join(LEVELS)}), {GREEDY!r}, {AHEAD!r} "
                             f"or {RANDOM!r}")
    if len(seats) not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise ValueError(f"{game.title['en']} is for {counts} players, but --seats names {len(seats)}")
    if type(games) is not int or games < 1:
        raise ValueError(f"the number of games must be a whole number of 1 or more, not {games!r}")
    budgets = {level: Budget.for_level(level, config, normal=budget, scale=scale) for level in LEVELS}
    pool = InProcessPool(workers)  # a ValueError for a bad number of workers, before any game
    return _play(game, seats, games, seed, budgets, pool)


def _play(game: Game, seats: list[str], games: int, seed: int, budgets: dict[str, Budget],
          pool: InProcessPool) -> Iterator[Played]:
    players = len(seats)
    rng = Rng.from_seed(seed)
    for number in range(games):
        entries = [seats[(seat - number) % players] for seat in range(players)]
        state = game.setup(players, seed + number)
        moves, slowest = [], {}
        notes = {seat: {} for seat in range(players)}  # what each bot remembers of this game
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            actions = game.legal_actions(state, seat)
            entry = entries[seat]
            if entry == RANDOM:
                action = rng.choice(actions)
            elif entry == GREEDY:
                action = greedy_action(game, _seat_view(game, state, seat, actions), rng)
            elif entry == AHEAD:
                action = ahead_action(game, _seat_view(game, state, seat, actions), rng)
            else:
                started = time.process_time()
                pool.overlap = 0.0  # stays 0 for a decision that makes no tree search
                action = choose(game, _seat_view(game, state, seat, actions), seed=rng.next64() >> 1, level=entry,
                                notes=notes[seat], budget=budgets[entry], pool=pool)
                took = time.process_time() - started - pool.overlap  # the other workers searched at once
                slowest[seat] = max(slowest.get(seat, 0.0), took)
            state = game.apply(state, seat, action)
            moves.append((seat, action))
        yield Played(number, entries, state, moves, slowest)


def arena(
    game: Game,
    seats: list[str],
    games: int,
    seed: int,
    *,
    budget: Budget | None = None,
    scale: float | None = None,
    config: BotsConfig | None = None,
    workers: int = 1,
) -> ArenaResult:
    """Play ``games`` games of ``game`` between the entries of ``seats``. ``budget`` is the
    ``normal`` level's (the other levels keep the ratio of their configured seconds to it);
    ``scale`` gives every level that share of its configured seconds, in processor time;
    with neither, every level thinks for its configured seconds (:meth:`.Budget.for_level`
    with ``config``, the built-in defaults when None). Each
    level's search runs on ``workers`` workers (see the module's doc)."""
    players = len(seats)
    wins = [0.0] * players
    lions = 0
    moves = []
    slowest = [None if entry in PLAYERS else 0.0 for entry in seats]
    for played in played_games(game, seats, games, seed, budget=budget, scale=scale, config=config,
                               workers=workers):
        moves.append(len(played.moves))
        for seat, seconds_taken in played.slowest.items():
            place = played.place(seat)
            slowest[place] = max(slowest[place], seconds_taken)
        winners = game.result(played.state)["winners"]
        if not winners:
            lions += 1
        for seat in winners:
            wins[played.place(seat)] += 1 / len(winners)
    return ArenaResult(game.id, list(seats), games, wins, lions, moves, slowest)


def _seat_view(game: Game, state: dict, seat: int, actions: list[dict]) -> dict:
    """What the seat's phone would get: its view and its actions."""
    return game.view(state, seat) | {"actions": actions}
