"""Random playouts: the balance check behind ``companion simulate`` and the engines' benchmark.

A random player picks, uniformly, one of the seats that may act and one of its legal
actions. That is a poor player but a thorough one: over thousands of games it walks
every rule, and the spread of wins over seats shows whether going first matters.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .games import Game

MAX_STEPS = 100_000
"""No game in the box lasts this long; a playout that does is a bug, not a long game."""


class GameDidNotEnd(RuntimeError):
    """A playout ran past MAX_STEPS."""


def random_playout(game: Game, players: int, seed: int, options: dict | None = None, *, logged: bool = True):
    """Play one random game; return ``(final_state, actions)`` (the actions as ``(seat, action)``).
    With ``logged=False`` the game is played as a search plays it, on an unlogged state
    (:meth:`Game.unlogged`): the same moves and result, nothing worded, nothing to view."""
    chooser = random.Random(seed)
    state = game.setup(players, seed, options)
    if not logged:
        state = game.unlogged(state)
    actions = []
    while not game.is_over(state):
        if len(actions) >= MAX_STEPS:
            raise GameDidNotEnd(f"{game.id} seed {seed} did not end after {MAX_STEPS} actions")
        seat = chooser.choice(game.to_act(state))
        action = game.random_action(state, seat, chooser.randrange)  # the seat comes from to_act
        state = game.apply_listed(state, seat, action)  # taken from the list: no need to check it
        actions.append((seat, action))
    return state, actions


@dataclass
class Summary:
    """What ``simulate`` found over many games."""

    game: str
    players: int
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    wins: Counter = field(default_factory=Counter)  # seat -> games won (shared wins count for each)
    no_winner: int = 0  # games nobody won (Lion Square's lions)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def average_length(self) -> float:
        return self.actions / self.games if self.games else 0.0

    def report(self) -> str:
        lines = [
            f"{self.game}, {self.players} players: {self.games} games in {self.seconds:.2f} s "
            f"({self.games_per_second:,.0f} games/s)",
            f"average length: {self.average_length:.1f} actions",
            "wins by seat (shared wins count for every winner):",
        ]
        for seat in range(self.players):
            share = self.wins[seat] / self.games if self.games else 0.0
            lines.append(f"  seat {seat + 1}: {self.wins[seat]:6d}  {share:6.1%}  {'#' * round(share * 40)}")
        if self.no_winner:
            lines.append(f"  no winner: {self.no_winner:5d}  {self.no_winner / self.games:6.1%}")
        return "\n".join(lines)


def simulate(game: Game, players: int, games: int, seed: int, options: dict | None = None, progress=None) -> Summary:
    """Play ``games`` random games with seeds ``seed``, ``seed+1``...; ``progress(n)`` is
    called after each game when given."""
    summary = Summary(game=game.id, players=players)
    started = time.perf_counter()
    for number in range(games):
        state, actions = random_playout(game, players, seed + number, options)
        summary.games += 1
        summary.actions += len(actions)
        winners = game.result(state)["winners"]
        summary.wins.update(winners)
        if not winners:
            summary.no_winner += 1
        if progress:
            progress(1)
    summary.seconds = time.perf_counter() - started
    return summary
