"""The search core: reference alpha-beta equals minimax; the driver and time manager."""

import threading
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamesuite.core import Limits, new_stop_flag
from gamesuite.core.score import WIN
from gamesuite.search.driver import StopWatch
from gamesuite.search.reference import ReferenceEngine, alphabeta, minimax
from gamesuite.search.timeman import allocate
from tests.trees import TreeGame, leaf_eval


@given(st.integers(1, 4), st.integers(1, 6), st.integers(0, 10_000))
def test_alphabeta_equals_minimax_on_random_trees(branching, depth, seed):
    state = TreeGame(branching=branching, depth=depth, seed=seed).new_state()
    assert alphabeta(state, -WIN - 1, WIN + 1) == minimax(state)


@given(st.integers(2, 4), st.integers(2, 6), st.integers(1, 5), st.integers(0, 10_000))
def test_alphabeta_with_evaluation_equals_minimax(branching, depth, cut, seed):
    state = TreeGame(branching=branching, depth=depth, seed=seed).new_state()
    assert alphabeta(state, -WIN - 1, WIN + 1, depth=cut, evaluate=leaf_eval) == minimax(
        state, depth=cut, evaluate=leaf_eval
    )


def test_alphabeta_prunes():
    state = TreeGame(branching=4, depth=6, seed=3).new_state()
    counter = [0]
    alphabeta(state, -WIN - 1, WIN + 1, depth=6, evaluate=leaf_eval, counter=counter)
    assert counter[0] < 4**6  # far fewer nodes than the full tree


@given(st.integers(2, 4), st.integers(2, 6), st.integers(0, 10_000))
def test_reference_engine_returns_minimax_value(branching, depth, seed):
    game = TreeGame(branching=branching, depth=depth, seed=seed)
    state = game.new_state()
    result = ReferenceEngine(game).search(state, Limits())
    value = minimax(state)
    assert result.score.kind in ("mate", "draw")
    if value == 0:
        assert result.score.kind == "draw"
    else:
        assert result.score.value == (WIN - abs(value)) * (1 if value > 0 else -1)
    # the chosen move achieves the value
    state.play(result.best_move)
    assert minimax(state, pov=0, ply=1) == value


def test_driver_multipv_gives_distinct_first_moves():
    game = TreeGame(branching=4, depth=4, seed=11)
    infos = []
    r = ReferenceEngine(game).search(game.new_state(), Limits(depth=3, multipv=3), on_info=infos.append)
    last = [i for i in infos if i.depth == 3]
    assert [i.multipv for i in last] == [1, 2, 3]
    assert len({i.pv[0] for i in last}) == 3
    assert last[0].score.sort_key() >= last[1].score.sort_key() >= last[2].score.sort_key()
    assert r.best_move == last[0].pv[0]
    assert len(r.lines) == 3


def test_driver_reports_each_depth_in_order():
    game = TreeGame(branching=3, depth=8, seed=5)
    infos = []
    ReferenceEngine(game).search(game.new_state(), Limits(depth=5), on_info=infos.append)
    depths = [i.depth for i in infos]
    assert depths == sorted(depths) and depths[-1] <= 5
    assert len({i.search_id for i in infos}) == 1


def test_stop_flag_ends_an_infinite_search_with_a_legal_move():
    game = TreeGame(branching=6, depth=10, seed=1)
    state = game.new_state()
    stop = new_stop_flag()
    threading.Timer(0.2, lambda: stop.__setitem__(0, 1)).start()
    r = ReferenceEngine(game).search(state, Limits(infinite=True), stop)
    assert r.best_move in state.legal_moves()
    assert stop[0] == 1


def test_stopwatch_sets_flag_at_deadline_and_leaves_callers_flag_alone():
    stop = new_stop_flag()
    with StopWatch(stop, hard_ms=30) as w:
        deadline = time.perf_counter() + 5
        while not w.flag[0] and time.perf_counter() < deadline:
            time.sleep(0.001)
        assert w.flag[0] == 1
    assert stop[0] == 0


def test_time_manager():
    b = allocate(Limits(movetime=1000), 0)
    assert b.hard_ms is not None and b.hard_ms <= 1000
    b = allocate(Limits(time_left=(60_000, 1_000), increment=(0, 0)), 1)
    assert b.hard_ms is not None and b.hard_ms < 1_000
    b = allocate(Limits(time_left=(0, 0), byoyomi=3000), 0)
    assert b.hard_ms is not None and 2000 < b.hard_ms < 3000
    assert allocate(Limits(infinite=True), 0).hard_ms is None
    assert allocate(Limits(depth=3), 0).soft_ms is None


def test_time_manager_spends_per_move_time_and_saves_a_bank():
    b = allocate(Limits(time_left=(0, 0), byoyomi=1000), 0)  # byoyomi alone: use it all
    assert b.per_move and b.soft_ms == b.hard_ms and 950 <= b.hard_ms < 1000
    assert allocate(Limits(movetime=500), 1).per_move
    b = allocate(Limits(time_left=(60_000, 60_000), byoyomi=1000), 0)  # a bank and byoyomi: a share of each
    assert not b.per_move and 1000 < b.soft_ms < b.hard_ms < 60_000
    b = allocate(Limits(time_left=(60_000, 60_000), increment=(1000, 1000)), 0)
    assert not b.per_move and b.soft_ms < b.hard_ms


def test_stability_scale_spends_more_on_an_unstable_best_move():
    from gamesuite.search.timeman import VALUE_DROP, TimeBudget, stability_scale

    assert stability_scale([7, 7, 7, 7, 7]) == 0.5  # obvious: half the budget
    assert stability_scale([7, 7, 7, 7, 9]) == 1.5  # changed last iteration
    assert stability_scale([7, 8, 9, 7]) == 2.0  # changing every time
    assert stability_scale([7, 9, 9, 9, 9]) < 0.7  # changed long ago
    assert stability_scale([7, 7], [100, 100 - VALUE_DROP]) == 1.0  # the value fell
    b = TimeBudget(1000, 3000)
    assert b.should_start_next(600, 150) and not b.should_start_next(600, 150, 0.5)
    assert b.should_start_next(1200, 300, 2.0) and not b.should_start_next(1200, 300)
    assert not b.should_start_next(2900, 300, 9.0)  # never past the hard limit


def test_driver_plays_a_usable_cut_short_iteration():
    from gamesuite.search.driver import DriverOptions, Iteration, iterative_deepening

    game = TreeGame(branching=3, depth=6, seed=1)
    state = game.new_state()
    moves = state.legal_moves()

    class Searcher:
        nodes = 0

        def __init__(self, usable):
            self.usable = usable

        def hashfull(self):
            return 0

        def iterate(self, depth, flag, excluded):
            if depth == 1:
                return Iteration(10, [moves[0]])
            return Iteration(20, [moves[1]], complete=False, usable=self.usable)  # cut short at depth 2

    for usable, want in ((True, moves[1]), (False, moves[0])):
        r = iterative_deepening(Searcher(usable), state, Limits(depth=5), options=DriverOptions())
        assert r.best_move == want and r.depth == 1


@pytest.mark.parametrize("limits", [Limits(nodes=50), Limits(movetime=50)])
def test_node_and_time_limits_end_the_search(limits):
    game = TreeGame(branching=6, depth=10, seed=2)
    r = ReferenceEngine(game).search(game.new_state(), limits)
    assert r.best_move is not None


class _NeverCompletes:
    """A searcher whose first iteration is always cut short."""

    nodes = 0

    def __init__(self, fallback=None):
        if fallback is not None:
            self.fallback_move = lambda: fallback

    def iterate(self, depth, flag, excluded):
        return None

    def hashfull(self):
        return 0


def test_driver_falls_back_to_the_searchers_choice_or_the_first_legal_move():
    from gamesuite.search.driver import iterative_deepening

    state = TreeGame(branching=4, depth=4, seed=1).new_state()
    assert iterative_deepening(_NeverCompletes(), state, Limits(depth=3)).best_move == 0
    assert iterative_deepening(_NeverCompletes(fallback=2), state, Limits(depth=3)).best_move == 2
    assert iterative_deepening(_NeverCompletes(fallback=99), state, Limits(depth=3)).best_move == 0  # not legal


@given(st.integers(2, 4), st.integers(2, 5), st.integers(0, 10_000), st.integers(1, 15))
def test_searchmoves_restricts_the_root_to_the_given_moves(branching, depth, seed, mask):
    game = TreeGame(branching=branching, depth=depth, seed=seed)
    state = game.new_state()
    legal = state.legal_moves()
    allowed = tuple(m for i, m in enumerate(legal) if (mask >> i) & 1) or (legal[-1],)
    result = ReferenceEngine(game).search(state, Limits(searchmoves=allowed))
    assert result.best_move in allowed
    values = {}
    for m in allowed:
        state.play(m)
        values[m] = minimax(state, pov=0, ply=1)
        state.undo()
    assert values[result.best_move] == max(values.values())  # the best of the allowed moves


def test_searchmoves_must_name_a_legal_move():
    from gamesuite.core.errors import InvalidOptionError

    game = TreeGame(branching=3, depth=3, seed=1)
    with pytest.raises(InvalidOptionError, match="99"):
        ReferenceEngine(game).search(game.new_state(), Limits(searchmoves=(99,)))
    with pytest.raises(InvalidOptionError, match="searchmoves"):
        Limits(searchmoves=())


def test_driver_ranks_multipv_lines_by_value():
    from gamesuite.search.driver import Iteration, iterative_deepening

    class Bracketed:
        """Values of the later lines come out above the first one's, as MTD(f)'s grain allows."""

        nodes = 0

        def __init__(self, values):
            self.values = values

        def iterate(self, depth, flag, excluded):
            self.nodes += 1
            move = [m for m in self.values if m not in excluded][0]
            return Iteration(self.values[move], [move])

        def hashfull(self):
            return 0

    game = TreeGame(branching=3, depth=3, seed=2)
    state = game.new_state()
    a, b, c = state.legal_moves()
    infos = []
    r = iterative_deepening(Bracketed({a: 10, b: 25, c: -5}), state, Limits(depth=1, multipv=3), on_info=infos.append)
    assert [(i.multipv, i.pv[0]) for i in infos] == [(1, b), (2, a), (3, c)]
    assert r.best_move == b and [ln.pv[0] for ln in r.lines] == [b, a, c]
