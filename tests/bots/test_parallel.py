"""Root-parallel search (companion/bots/parallel.py): one worker searches as the single search
did; several workers' root statistics are summed; the search and its helper processes stop
when told, and helpers end with their asker. No test here measures time: stops are told by
events, and the process tests wait for the processes' own ends."""

import os
import select
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from companion import games
from companion.bots import choose
from companion.bots.arena import arena
from companion.bots.budget import Budget
from companion.bots.ismcts import action_key, search
from companion.bots.parallel import InProcessPool, ProcessPool, root_stats, summed, worker_seeds
from companion.bots.seats import WorkerThinker
from companion.config import ConfigError, default_bot_workers, load_config
from companion.games.rng import Rng

GAMES = [("lion-square", 3), ("meow-oracle", 3), ("swap5", 4)]


def seat_view(game_id, players, seed, moves=0):
    """A seat's view ``moves`` moves into a game dealt from ``seed``, the first moves taken."""
    game = games.get(game_id)
    state = game.setup(players, seed)
    for _ in range(moves):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[0])
    seat = game.to_act(state)[0]
    return game, game.view(state, seat) | {"actions": game.legal_actions(state, seat)}


def stop_after(checks: int):
    """A ``stop`` that tells the search to stop at its ``checks``-th look, by an event."""
    told, looked = threading.Event(), []

    def stop() -> bool:
        looked.append(1)
        if len(looked) >= checks:
            told.set()
        return told.is_set()

    return stop


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_one_worker_chooses_the_same_move_as_the_single_search(game_id, players):
    for seed in range(3):
        game, view = seat_view(game_id, players, seed, moves=seed)
        for level in ("easy", "normal", "strong"):
            alone = choose(game, view, budget=Budget.iterations(25), seed=seed, level=level)
            assert choose(game, view, budget=Budget.iterations(25), seed=seed, level=level, pool=InProcessPool(1)) == alone
            assert choose(game, view, budget=Budget.iterations(25), seed=seed, level=level, pool=ProcessPool(1)) == alone


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_one_worker_has_the_single_searchs_root(game_id, players):
    game, view = seat_view(game_id, players, 7, moves=2)
    single = root_stats(search(game, view, Rng.from_seed(3), Budget.iterations(40)))
    for pool in (InProcessPool(1), ProcessPool(1)):
        assert root_stats(pool.search(game, view, Rng.from_seed(3), Budget.iterations(40))) == single


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_three_workers_root_is_the_sum_of_three_searches_with_their_own_seeds(game_id, players):
    game, view = seat_view(game_id, players, 11, moves=1)
    rng = Rng.from_seed(5)
    seeds = worker_seeds(rng, 2)  # drawn from worker 0's generator before its search
    searches = [search(game, view, generator, Budget.iterations(30))
                for generator in (rng, Rng.from_seed(seeds[0]), Rng.from_seed(seeds[1]))]
    edges = InProcessPool(3).search(game, view, Rng.from_seed(5), Budget.iterations(30))
    assert sum(edge.visits for edge in edges) == 90
    for edge in edges:
        same = [found for root in searches for found in root if found.action == edge.action]
        assert edge.visits == sum(found.visits for found in same)
        assert edge.reward == pytest.approx(sum(found.reward for found in same))
        assert edge.available == sum(found.available for found in same)
    assert {action_key(edge.action) for edge in edges} == {action_key(found.action) for root in searches for found in root}


def test_summed_keeps_the_order_first_tried_and_adds_up():
    a, b, c = {"type": "a"}, {"type": "b"}, {"type": "c"}
    worker0 = [("A", a, 0, 5, 2.0, 9), ("B", b, 0, 3, 1.5, 9)]
    worker1 = [("C", c, 0, 7, 4.0, 8), ("A", a, 0, 1, 0.0, 8)]
    edges = summed([worker0, worker1])
    assert [(edge.action, edge.visits, edge.reward, edge.available) for edge in edges] == [
        (a, 6, 2.0, 17), (b, 3, 1.5, 9), (c, 7, 4.0, 8)]


class FakePool:
    """A pool whose workers' roots are given: worker 0 favours one move, the others another."""

    workers = 3

    def __init__(self, roots):
        self.roots = roots

    def search(self, game, view, rng, budget, **options):
        return summed(self.roots)


def test_the_bot_plays_the_move_visited_most_in_the_sum_not_worker_0s():
    game, view = seat_view("lion-square", 3, 4, moves=3)  # in the play, after the passes
    first, second = view["actions"][:2]
    key, me = action_key, view["seat"]
    roots = [[(key(first), first, me, 10, 6.0, 20), (key(second), second, me, 9, 5.0, 20)],
             [(key(second), second, me, 12, 7.0, 20), (key(first), first, me, 2, 0.0, 20)],
             [(key(second), second, me, 8, 4.0, 20)]]
    assert choose(games.get("lion-square"), view, budget=Budget.iterations(5), seed=1, level="normal", pool=FakePool(roots[:1])) == first
    assert choose(games.get("lion-square"), view, budget=Budget.iterations(5), seed=1, level="normal", pool=FakePool(roots)) == second


@pytest.mark.parametrize(("game_id", "players"), GAMES[:2])
def test_helper_processes_sum_what_the_in_process_workers_sum(game_id, players):
    game, view = seat_view(game_id, players, 3, moves=4)
    pool = ProcessPool(3)
    try:
        by_processes = root_stats(pool.search(game, view, Rng.from_seed(8), Budget.iterations(30)))
    finally:
        pool.close()
    assert by_processes == root_stats(InProcessPool(3).search(game, view, Rng.from_seed(8), Budget.iterations(30)))


def test_a_search_stops_when_told():
    game, view = seat_view("meow-oracle", 3, 2)
    edges = search(game, view, Rng.from_seed(1), Budget.iterations(10**9), stop=stop_after(25))
    assert sum(edge.visits for edge in edges) == 25  # the first iteration runs before the first look


def test_in_process_workers_stop_when_told():
    game, view = seat_view("meow-oracle", 3, 2)
    edges = InProcessPool(3).search(game, view, Rng.from_seed(1), Budget.iterations(10**9), stop=stop_after(25))
    assert sum(edge.visits for edge in edges) == 25 + 1 + 1  # once told, the others run their one iteration


def test_helpers_stop_their_search_when_told():
    """Without the stop each helper would search 10**9 iterations: the test would never end."""
    game, view = seat_view("lion-square", 3, 2)
    pool = ProcessPool(3)
    try:
        edges = pool.search(game, view, Rng.from_seed(1), Budget.iterations(10**9), stop=stop_after(40))
        assert sum(edge.visits for edge in edges) >= 40 + 2  # the helpers' shares are in the sum
        # and they take the next question as usual
        again = pool.search(game, view, Rng.from_seed(1), Budget.iterations(5))
        assert sum(edge.visits for edge in again) == 15
    finally:
        pool.close()


def wait_for_exit(pid: int) -> None:
    """Block until process ``pid`` (not our child) has ended: its pidfd becomes readable."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # ended already
    try:
        select.select([handle], [], [])
    finally:
        os.close(handle)


ASKER = textwrap.dedent("""
    import sys
    from companion import games
    from companion.bots.budget import Budget
    from companion.bots.parallel import ProcessPool
    from companion.games.rng import Rng
    game = games.get("meow-oracle")
    state = game.setup(3, 1)
    view = game.view(state, 0) | {"actions": game.legal_actions(state, 0)}
    pool = ProcessPool(3)
    pool.start()
    print(*pool.pids, flush=True)
    pool.search(game, view, Rng.from_seed(1), Budget.iterations(10**9))  # for ever, unless killed
""")


def test_helpers_end_when_their_asker_is_killed_mid_search():
    asker = subprocess.Popen([sys.executable, "-c", ASKER], stdout=subprocess.PIPE, text=True)
    try:
        helpers = [int(pid) for pid in asker.stdout.readline().split()]
        assert len(helpers) == 2
    finally:
        asker.kill()
        asker.wait()
        asker.stdout.close()
    for pid in helpers:
        wait_for_exit(pid)  # the kernel kills them with their asker (PR_SET_PDEATHSIG)


def test_the_bot_worker_searches_on_three_processes_and_its_helpers_end_with_it():
    thinker = WorkerThinker(Budget.iterations(10), workers=3)
    game, view = seat_view("lion-square", 3, 6, moves=3)
    try:
        assert thinker.think(game.id, view, level="normal", budget=Budget.seconds(1.0)).result(timeout=120) in view["actions"]
        helpers = _helpers_of(thinker.pid)
        assert len(helpers) == 2
    finally:
        thinker.close()
    for pid in helpers:
        wait_for_exit(pid)


def _helpers_of(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as file:
            found += [int(child) for child in file.read().split()]
    return [child for child in found if "companion.bots.helper" in open(f"/proc/{child}/cmdline").read()]


def test_the_arena_with_workers_is_reproducible_and_one_worker_is_the_arena_as_before():
    game = games.get("meow-oracle")
    seats = ["normal", "greedy", "greedy"]
    alone = arena(game, seats, 3, 40, budget=Budget.iterations(6))
    assert arena(game, seats, 3, 40, budget=Budget.iterations(6), workers=1) == alone
    three = arena(game, seats, 3, 40, budget=Budget.iterations(6), workers=3)
    assert arena(game, seats, 3, 40, budget=Budget.iterations(6), workers=3) == three


@pytest.mark.parametrize("workers", [0, 4, "2"])
def test_the_arena_and_the_pools_refuse_a_bad_number_of_workers(workers):
    with pytest.raises(ValueError, match="1 to 3 workers"):
        arena(games.get("swap5"), ["normal", "random"], 2, 1, budget=Budget.iterations(2), workers=workers)
    for pool in (InProcessPool, ProcessPool):
        with pytest.raises(ValueError, match="1 to 3 workers"):
            pool(workers)


def test_the_workers_setting_defaults_to_the_cores_but_one_at_most_three(tmp_path):
    assert [default_bot_workers(cores) for cores in (1, 2, 3, 4, 8)] == [1, 1, 2, 3, 3]
    assert load_config(None).bots.workers == default_bot_workers(os.cpu_count())
    path = tmp_path / "config.toml"
    path.write_text("[bots]\nworkers = 2\n")
    assert load_config(path).bots.workers == 2
    for bad in ("0", "4", '"3"', "2.5"):
        path.write_text(f"[bots]\nworkers = {bad}\n")
        with pytest.raises(ConfigError, match="bots.workers"):
            load_config(path)


def test_the_arena_command_takes_workers(capsys):
    from companion.cli import main

    assert main(["arena", "swap5", "--seats", "easy,random", "--games", "2", "--iterations", "3",
                 "--workers", "2", "--json"]) == 0
    assert '"wins"' in capsys.readouterr().out
