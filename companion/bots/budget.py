"""What a bot may spend on one decision: its budget, one value from the settings to the search.

A :class:`Budget` is wall-clock ``seconds`` (a bot at the table, a hint), a number of
``iterations`` (tests and measurements: with a seed, the same move every time, on any
machine) or ``processor seconds`` (the arena's ``--scale``: a machine busy with other jobs
does not shorten it). :meth:`Budget.for_level` makes it from a level's settings (the
configuration's ``[bots]``) and from the arena's options; it crosses to the worker process
as it is; the search starts it (:meth:`Budget.start`, which sets its deadline) and asks
:meth:`Budget.left` whether there is time left:

>>> from companion.config import BotsConfig
>>> Budget.for_level("strong", BotsConfig(normal_seconds=0.5, strong_seconds=2.5))
Budget(unit='seconds', amount=2.5)
>>> Budget.for_level("strong", BotsConfig(normal_seconds=0.5, strong_seconds=2.5), normal=Budget.iterations(30))
Budget(unit='iterations', amount=150)
>>> now = [100.0]
>>> started = Budget.seconds(2).start(clock=lambda: now[0])
>>> started.left(), started.deadline
(True, 102.0)
>>> now[0] = 102.0
>>> started.left()
False
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # imported when a level's budget is asked for: a search helper needs no configuration (2 MB)
    from ..config import BotsConfig

SECONDS = "seconds"
ITERATIONS = "iterations"
PROCESSOR_SECONDS = "processor seconds"

LEVELS = {
    "easy": {"en": "Easy", "ja": "かんたん"},
    "normal": {"en": "Normal", "ja": "ふつう"},
    "strong": {"en": "Strong", "ja": "つよい"},
}
"""The levels, named in both languages. Their budgets are in the configuration ([bots]):
:meth:`Budget.for_level` reads them."""

_CLOCKS = {SECONDS: time.monotonic, PROCESSOR_SECONDS: time.process_time}


@dataclass(frozen=True)
class Budget:
    """One decision's budget: ``amount`` of ``unit`` (seconds, iterations or processor
    seconds). Make it with :meth:`seconds`, :meth:`iterations`, :meth:`processor_seconds` or
    :meth:`for_level`; a bad amount raises ValueError saying what is wrong.

    ``deadline`` (on ``clock``) is set by :meth:`start`: None until then, and always for
    iterations, which no clock counts."""

    unit: str
    amount: float | int
    deadline: float | None = field(default=None, repr=False)
    clock: Callable[[], float] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.unit == ITERATIONS:
            if type(self.amount) is not int or self.amount < 1:
                raise ValueError(f"iterations must be a whole number of 1 or more, not {self.amount!r}")
        elif self.unit in _CLOCKS:
            if not _positive(self.amount):
                raise ValueError(f"{self.unit} must be a positive number, not {self.amount!r}")
        else:
            raise ValueError(f"a budget is in {SECONDS}, {ITERATIONS} or {PROCESSOR_SECONDS}, not {self.unit!r}")

    @classmethod
    def seconds(cls, seconds: float) -> Budget:
        """``seconds`` of wall-clock time (the monotonic clock)."""
        return cls(SECONDS, seconds)

    @classmethod
    def iterations(cls, iterations: int) -> Budget:
        """``iterations`` of the search, however long they take: with a seed, the same move
        every time. SWAP 5's two-player search counts none: it reads ``iterations`` of
        strong's best moves a ply deeper (``companion.bots.choose``) and never runs out."""
        return cls(ITERATIONS, iterations)

    @classmethod
    def processor_seconds(cls, seconds: float) -> Budget:
        """``seconds`` of this process's processor time (``time.process_time``)."""
        return cls(PROCESSOR_SECONDS, seconds)

    @classmethod
    def for_level(
        cls, level: str, config: BotsConfig | None = None, *, normal: Budget | None = None, scale: float | None = None
    ) -> Budget:
        """``level``'s budget, from the seconds ``config`` gives it (the built-in defaults
        when None): those seconds of wall-clock time, as a bot at the table thinks.

        With ``normal``, the ``normal`` level's budget (an arena's ``--seconds`` or
        ``--iterations``): the level's share of it, in the ratio of its configured seconds
        to normal's (strong's is five times normal's by default; iterations are rounded,
        1 at least). With ``scale`` (the arena's ``--scale``): ``scale`` times its configured
        seconds, of processor time (0.1: what a Raspberry Pi Zero 2 W, about a tenth as fast,
        does in the configured time). Not both."""
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (levels: {', '.join(LEVELS)})")
        if normal is not None and scale is not None:
            raise ValueError("give a level's budget as a share of normal's or as a scale, not both")
        if config is None:
            from ..config import BotsConfig

            config = BotsConfig()
        seconds = getattr(config, f"{level}_seconds")
        if scale is not None:
            if not _positive(scale):
                raise ValueError(f"the scale must be a positive number, not {scale!r}")
            return cls.processor_seconds(scale * seconds)
        if normal is None:
            return cls.seconds(seconds)
        if not isinstance(normal, Budget):
            raise ValueError(f"normal's budget must be a Budget, not {normal!r}")
        share = seconds / config.normal_seconds
        if normal.unit == ITERATIONS:
            return cls.iterations(max(1, round(normal.amount * share)))
        return cls(normal.unit, normal.amount * share)

    def start(self, clock: Callable[[], float] | None = None) -> Budget:
        """This budget with its deadline set from now: what a search spends. ``clock``
        (seconds, for tests) replaces the unit's own: the monotonic clock for seconds, this
        process's processor time for processor seconds. Iterations need no clock."""
        if self.unit == ITERATIONS:
            return self
        clock = clock or _CLOCKS[self.unit]
        return replace(self, deadline=clock() + self.amount, clock=clock)

    def left(self, done: int = 0) -> bool:
        """Is there time left, ``done`` iterations into the search? Fewer than the budget's
        iterations are done, or its clock is short of its deadline. A budget of time must
        be started (:meth:`start`) first."""
        if self.unit == ITERATIONS:
            return done < self.amount
        if self.deadline is None:
            raise RuntimeError("the budget's clock has not been started: start() it before asking for time left")
        return self.clock() < self.deadline


def _positive(number) -> bool:
    return not isinstance(number, bool) and isinstance(number, (int, float)) and 0 < number < math.inf
