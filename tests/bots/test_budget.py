"""The bots' budget: made from a level's settings or the arena's options, started by the
search, asked whether time is left. Time comes from an injected clock."""

import doctest
import pickle

import pytest

from companion import games
from companion.bots import budget as budget_module
from companion.bots.budget import Budget
from companion.bots.ismcts import search
from companion.config import BotsConfig, load_config
from companion.games.rng import Rng

CONFIG = BotsConfig(easy_seconds=0.2, normal_seconds=0.6, strong_seconds=3.0)


class Clock:
    """A clock that moves only when told, or by ``tick`` at every reading."""

    def __init__(self, now: float = 1000.0, tick: float = 0.0):
        self.now, self.tick = now, tick

    def __call__(self) -> float:
        now = self.now
        self.now += self.tick
        return now


def test_a_level_thinks_for_the_seconds_its_settings_give_it(tmp_path):
    assert Budget.for_level("strong", CONFIG) == Budget.seconds(3.0)
    assert Budget.for_level("normal") == Budget.seconds(BotsConfig().normal_seconds)  # the built-in defaults
    path = tmp_path / "config.toml"
    path.write_text("[bots]\neasy_seconds = 0.3\n")
    assert Budget.for_level("easy", load_config(path).bots) == Budget("seconds", 0.3)


def test_normals_budget_gives_every_level_its_share_in_the_configured_ratio():
    assert Budget.for_level("strong", CONFIG, normal=Budget.iterations(30)) == Budget.iterations(150)
    assert Budget.for_level("easy", CONFIG, normal=Budget.iterations(30)) == Budget.iterations(10)
    assert Budget.for_level("easy", CONFIG, normal=Budget.iterations(1)) == Budget.iterations(1)  # 1 at least
    assert Budget.for_level("normal", CONFIG, normal=Budget.seconds(1.2)) == Budget.seconds(1.2)
    strong = Budget.for_level("strong", CONFIG, normal=Budget.seconds(1.2))
    assert strong.unit == "seconds" and strong.amount == pytest.approx(6.0)


def test_a_scale_gives_every_level_that_share_of_its_seconds_in_processor_time():
    strong = Budget.for_level("strong", CONFIG, scale=0.1)
    assert strong.unit == "processor seconds" and strong.amount == pytest.approx(0.3)
    assert Budget.for_level("easy", CONFIG, scale=0.1).amount == pytest.approx(0.02)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Budget.seconds(0), "seconds must be a positive number, not 0"),
        (lambda: Budget.seconds(float("inf")), "seconds must be a positive number"),
        (lambda: Budget.seconds(True), "seconds must be a positive number, not True"),
        (lambda: Budget.processor_seconds(-1), "processor seconds must be a positive number"),
        (lambda: Budget.iterations(0), "iterations must be a whole number of 1 or more, not 0"),
        (lambda: Budget.iterations(2.5), "iterations must be a whole number"),
        (lambda: Budget("minutes", 1), "a budget is in seconds, iterations or processor seconds, not 'minutes'"),
        (lambda: Budget.for_level("expert"), "unknown bot level 'expert'"),
        (lambda: Budget.for_level("pause"), "unknown bot level 'pause'"),
        (lambda: Budget.for_level("normal", scale=0), "the scale must be a positive number, not 0"),
        (lambda: Budget.for_level("normal", scale="1"), "the scale must be a positive number"),
        (lambda: Budget.for_level("normal", normal=Budget.iterations(3), scale=0.1), "not both"),
        (lambda: Budget.for_level("normal", normal=30), "normal's budget must be a Budget"),
    ],
)
def test_a_bad_budget_is_refused_in_plain_words(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_time_is_left_until_the_clock_reaches_the_deadline():
    clock = Clock()
    started = Budget.seconds(0.5).start(clock)
    assert started.deadline == 1000.5 and started.left()
    clock.now = 1000.4999
    assert started.left(done=10**6)  # time, not iterations, ends it
    clock.now = 1000.5
    assert not started.left()


def test_processor_seconds_run_out_the_same_way_on_their_own_clock():
    clock = Clock(3.0)
    started = Budget.processor_seconds(0.25).start(clock)
    assert started.left()
    clock.now = 3.25
    assert not started.left()


def test_the_default_clocks_are_the_monotonic_clock_and_this_processs_processor_time():
    import time

    assert Budget.seconds(1).start().clock is time.monotonic
    assert Budget.processor_seconds(1).start().clock is time.process_time


def test_iterations_are_left_until_that_many_are_done_whatever_the_clock():
    budget = Budget.iterations(3)
    assert budget.start() is budget  # no clock counts iterations
    assert [budget.left(done) for done in range(5)] == [True, True, True, False, False]
    assert budget.left()  # a search that counts none (SWAP 5's) never runs out


def test_a_budget_of_time_is_started_before_anyone_asks_for_time_left():
    with pytest.raises(RuntimeError, match="start"):
        Budget.seconds(1).left()


def test_starting_leaves_the_budget_as_it_was_and_starting_again_sets_a_new_deadline():
    clock = Clock()
    budget = Budget.seconds(2)
    first = budget.start(clock)
    clock.now += 5
    second = budget.start(clock)
    assert budget.deadline is None and (first.deadline, second.deadline) == (1002.0, 1007.0)
    assert first.unit == second.unit == budget.unit and first.amount == second.amount == budget.amount


def test_the_search_stops_when_its_budgets_clock_reaches_the_deadline():
    """ISMCTS asks the budget after every iteration: read at 0.25, 0.5, 0.75 (time left) and
    1.0 (none), a second's budget started at 0 on a clock a quarter of a second a reading
    makes four iterations."""
    game = games.get("swap5")
    view = game.view(game.setup(2, 3), 0)
    budget = Budget.seconds(1).start(Clock(0.0, tick=0.25))
    edges = search(game, view, Rng.from_seed(1), budget)
    assert sum(edge.visits for edge in edges) == 4


def test_a_budget_is_a_frozen_value_that_crosses_to_the_worker_process_as_it_is():
    budget = Budget.for_level("strong", CONFIG)
    with pytest.raises(AttributeError):
        budget.amount = 60
    assert pickle.loads(pickle.dumps(budget)) == budget
    assert {Budget.iterations(3), Budget.iterations(3)} == {Budget.iterations(3)}  # hashable, equal by value


def test_the_modules_examples_run_as_written():
    assert doctest.testmod(budget_module).failed == 0
