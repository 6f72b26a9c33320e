"""The gomoku engine's ``threads`` option: MTD(f)'s null-window passes shared by threads."""

import threading

import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine
from gamesuite.core.info import new_stop_flag
from gamesuite.core.score import WIN
from gamesuite.games.gomoku import engine as E
from gamesuite.games.gomoku.parallel import SplitSearch
from gamesuite.games.gomoku.reference import evaluate_ref
from gamesuite.search.reference import alphabeta

MIDDLE = [
    "h8 g10 f8 f9 h11 g8 h7 h9 g9 i10 j11 f10 h10 i11 f7 e7 j7 i7 i8 i13 i12 h12 g11 j10 g13 k10 k9 f12 g6 f5",
    "h8 f6 f8 g8 e6 e7 g5 f5 f4 h6 i6 g7 h7 g10 g9 f10 h10 h9 f11 i11 i10 c7 d7 h11 i8 i12 i7 i9 i5 i4",
]


def _ref_eval(state, pov):
    v = evaluate_ref([int(x) for x in state.board], state.game.size, state.game.rule_id)
    return v if state.current_player == pov else -v


@pytest.mark.parametrize("text", MIDDLE)
def test_one_thread_through_the_shared_passes_searches_the_same_tree(monkeypatch, text):
    """With a single worker the shared passes must do exactly what the kernels do alone."""
    game = load_game("gomoku")
    state = game.state_from_text(text)
    plain = make_engine(game, "mtdf,hash=16").search(state, Limits(depth=6))
    used = []

    def one_worker(self, searcher):
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor
            self._pool = ThreadPoolExecutor(1)
        split = SplitSearch(searcher, self._pool, 1)
        used.append(split)
        return split

    monkeypatch.setattr(E.GomokuEngine, "_split_search", one_worker)
    shared = make_engine(game, "mtdf,hash=16,threads=2").search(state, Limits(depth=6))
    assert used, "the shared passes were not used"
    assert shared.nodes == plain.nodes
    assert shared.score == plain.score
    assert shared.pv == plain.pv


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("text", ["c3 b2", "c3 c4 b3 d3",
                                  # about 15 s of plain-Python reference search each
                                  pytest.param("a1 b2 c3 d4", marks=pytest.mark.slow)])
def test_pure_mtdf_finds_the_minimax_value_at_depth_4(text, threads):
    game = load_game("gomoku(size=5)")
    state = game.state_from_text(text)
    expected = alphabeta(state.copy(), -WIN - 1, WIN + 1, depth=4, evaluate=_ref_eval)
    r = E.GomokuEngine(game, algo="mtdf", top=0, hash=1, pure=True, threads=threads).search(state, Limits(depth=4))
    assert r.depth == 4
    assert r.score.kind == "eval" and r.score.value == expected


def test_two_threads_search_a_middle_game_to_depth_8():
    game = load_game("gomoku")
    state = game.state_from_text(MIDDLE[1])
    infos = []
    r = make_engine(game, "mtdf,threads=2").search(state, Limits(depth=8), on_info=infos.append)
    assert r.depth == 8 and [i.depth for i in infos] == [2, 4, 6, 8]
    assert r.best_move in state.legal_moves()
    assert r.pv[0] == r.best_move and len(r.pv) >= 2
    assert r.nodes > 0


def test_stop_flag_ends_a_two_thread_search():
    g = load_game("gomoku")
    s = g.state_from_text(MIDDLE[0])
    e = make_engine(g, "mtdf,threads=2")
    stop = new_stop_flag()
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("r", e.search(s, Limits(infinite=True), stop)))
    t.start()
    t.join(0.5)
    stop[0] = 1
    t.join(30)
    assert not t.is_alive()
    assert box["r"].best_move in s.legal_moves()
    # the engine is usable again after a stop
    assert e.search(s, Limits(depth=4)).depth == 4


def test_threads_option_is_checked():
    g = load_game("gomoku")
    assert make_engine(g, "mtdf,threads=2").threads == 2
    assert make_engine(g, "pvs,threads=2").search(g.state_from_text("h8 i9"), Limits(depth=4)).depth == 4
    for bad in ("mtdf,threads=0", "mtdf,threads=x", "mtdf,threads=100000"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


@pytest.mark.parametrize("text", ["a1 a6 b1 b6 c1", "c3 d4 c4 d3", "a1 b2 c3 d4 e5"])
def test_pure_search_with_two_threads_agrees_with_one_deeper_down(text):
    """Exact searches (no threat rules, reductions or width limit) must agree whatever the threads
    do; depth 6 splits below the first moves, and the first line can make a five."""
    game = load_game("gomoku(size=6)")
    state = game.state_from_text(text)
    values = []
    for threads in (1, 2):
        r = E.GomokuEngine(game, algo="mtdf", top=0, hash=4, pure=True, threads=threads).search(
            state, Limits(depth=6))
        assert r.depth == 6
        values.append((r.score.kind, r.score.value))
    assert values[0] == values[1]


@pytest.mark.parametrize("spec", ["mtdf,threads=2", "mtdf", "pvs", "negamax"])
@pytest.mark.parametrize("text", MIDDLE)
def test_a_node_limit_holds(spec, text):
    """Every node counts, the threat searches' too (a full-width search's VCTs inside the tree once
    ran to 2.7 times the limit), and the threads share what is left."""
    g = load_game("gomoku")
    s = g.state_from_text(text)
    r = make_engine(g, spec).search(s, Limits(nodes=30000))
    assert r.best_move in s.legal_moves()
    # the kernels look at the limit every 1024 nodes, each thread on its own; the leaves' VCFs
    # (a few fours each) are counted but not checked
    assert 0 < r.nodes <= 1.1 * 30000 + 2 * 1024
