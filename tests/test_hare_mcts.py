"""The numba max^n-style UCT of Hare and Hedgehog against its plain-Python reference; engine behaviour."""

import random
import threading

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine, new_stop_flag
from gamesuite.games.hare import mcts as H
from gamesuite.games.hare.config import Weights
from gamesuite.search import mcts_kernels as T
from gamesuite.search import reference


def _random_state(spec, plies, seed, stop_at_chance=False, stop_at_finish=False):
    """A position after up to ``plies`` random moves and cards (stops early at the end of the race)."""
    g = load_game(spec)
    s = g.new_state()
    rnd = random.Random(seed)
    for _ in range(plies):
        if s.is_terminal() or (stop_at_finish and any(s.place)):
            break
        if s.is_chance_node():
            if stop_at_chance:
                return s
            cards, probs = zip(*s.chance_outcomes())
            s.play(rnd.choices(cards, probs)[0])
        else:
            s.play(rnd.choice(s.legal_moves()))
    return s


def _chance_state(spec, seed):
    for k in range(50):
        s = _random_state(spec, 400, seed + 1000 * k, stop_at_chance=True)
        if s.is_chance_node():
            return s
    raise AssertionError("no hare card drawn in 50 random games")


def _compare(state, sims, c, expand_at, horizon, seed, capacity):
    nodes, stats = T.new_tree(capacity)
    wsum = H.new_returns(capacity, state.game.n)
    assert H.run(state, nodes, wsum, stats, 0, sims, c, expand_at, horizon, T.new_random(seed)) == sims
    rows, ws = H.reference_run(state, sims, c, expand_at, horizon, seed, capacity)
    used = int(stats[T.USED])
    assert used == len(rows) and used <= capacity
    assert np.array_equal(nodes[:used], np.array(rows, dtype=np.int32))
    assert np.array_equal(wsum[:used], np.array(ws))
    assert nodes[0, T.N] == sims and stats[T.SIMS] == sims
    return nodes[:used], wsum[:used]


@pytest.mark.parametrize("spec,plies", [("hare", 0), ("hare(players=3)", 0), ("hare(players=6)", 30),
                                        ("hare(players=4,hare=tournament)", 10),
                                        ("hare(players=3,board=1978,hare=1979)", 20)])
@pytest.mark.parametrize("expand_at,capacity", [(1, 100_000), (3, 100_000), (1, 80)])
def test_kernel_builds_the_same_tree_as_the_reference(spec, plies, expand_at, capacity):
    state = _random_state(spec, plies, 7)
    _compare(state, 150, 1.0, expand_at, 25, 11, capacity)


@pytest.mark.parametrize("spec", ["hare", "hare(players=3)", "hare(players=5)"])
def test_kernel_matches_the_reference_through_hare_cards(spec):
    state = _chance_state(spec, 3)
    nodes, _ = _compare(state, 200, 1.4, 1, 20, 5, 100_000)
    cards = [m for m, _ in state.chance_outcomes()]
    assert nodes[0, T.COUNT] == len(cards) and list(nodes[1:1 + len(cards), T.MOVE]) == cards


def test_kernel_matches_the_reference_with_full_playouts_near_the_end():
    for seed in range(40):
        state = _random_state("hare(players=3)", 20000, seed, stop_at_finish=True)
        if any(state.place) and not state.is_terminal():
            break
    else:
        raise AssertionError("no random race with a finished player")
    _compare(state, 40, 1.0, 1, 0, 3, 100_000)


def test_playouts_match_the_reference_game_by_game():
    rng = T.new_random(9)
    rnd = T.ReferenceRandom(int(rng[0]))
    w = Weights()
    for spec, horizon in (("hare", 0), ("hare(players=4)", 60), ("hare(players=6)", 0)):
        state = _random_state(spec, 50, 2)
        for _ in range(3 if horizon == 0 else 20):
            got, plies = H.playout(state, rng, horizon)
            s = state.copy()
            assert H.reference_playout(s, rnd, horizon) == plies
            assert got == H.reference_returns(s, w)
            assert (s.is_terminal() and got == s.returns()) or (horizon and plies == horizon)
            assert sorted(got) == sorted(1 - 2 * k / (state.game.n - 1) for k in range(state.game.n))


def test_cards_are_drawn_by_the_counted_deck():
    state = _chance_state("hare(players=3)", 21)
    nodes, stats = T.new_tree(200_000)
    wsum = H.new_returns(200_000, 3)
    H.run(state, nodes, wsum, stats, 0, 8000, 1.0, 1, 10, T.new_random(4))
    first, count = nodes[0, T.FIRST], nodes[0, T.COUNT]
    got = {int(nodes[r, T.MOVE]): nodes[r, T.N] / 8000 for r in range(first, first + count)}
    for card, p in state.chance_outcomes():
        assert abs(got[card] - p) < 0.03


def test_each_player_selects_by_its_own_return():
    # a fixed two-child tree: the child better for player 1 is worse for player 0
    nodes, _ = T.new_tree(10)
    nodes[0] = (20, 0, 1, 2, -1)
    nodes[1] = (10, 0, -1, 0, 5)
    nodes[2] = (10, 0, -1, 0, 6)
    wsum = np.zeros((10, 3))
    wsum[1] = (8.0, -8.0, 0.0)
    wsum[2] = (-8.0, 8.0, 0.0)
    rng = T.new_random(1)
    assert H._select(nodes, wsum, 0, 0, 1.0, rng) == 1
    assert H._select(nodes, wsum, 0, 1, 1.0, rng) == 2


@pytest.mark.parametrize("spec", ["hare", "hare(players=3)", "hare(players=6)"])
def test_engine_returns_legal_moves_in_random_positions(spec):
    engine = make_engine(load_game(spec), "mcts,seed=3,memory=4")
    for seed in range(4):
        state = _random_state(spec, 40 * seed + 5, seed)
        if state.is_chance_node() or state.is_terminal():
            continue
        r = engine.search(state, Limits(nodes=300))
        assert r.best_move in state.legal_moves()
        assert len(r.score.values) == state.game.n and r.nodes >= 300
        assert r.pv[0] == r.best_move


@pytest.mark.parametrize("spec", ["hare(players=3)", "hare(players=2,pieces=1)"])
def test_engine_takes_the_finish_when_it_wins_the_race(spec):
    g = load_game(spec)  # one piece each: finishing first is a certain first place
    rnd = random.Random(5)
    for _ in range(300):
        s = g.new_state()
        while not s.is_terminal() and not any(s.place):
            if s.is_chance_node():
                cards, probs = zip(*s.chance_outcomes())
                s.play(rnd.choices(cards, probs)[0])
                continue
            p = s.current_player
            finishing = [m for m in s.legal_moves() if 0 < m % 10000 <= 64 and s.sq[p] + m % 10000 == 64]
            if finishing and len(s.legal_moves()) > 1:
                break
            s.play(rnd.choice(s.legal_moves()))
        else:
            continue
        state = s
        break
    else:
        raise AssertionError("no position with a finishing move in 300 random races")
    r = make_engine(g, "mcts,seed=1,memory=8").search(state, Limits(nodes=3000))
    assert r.best_move in finishing
    me = state.current_player
    assert r.score.values[me] == 1.0  # every simulation through a finish gives first place
    if g.n == 2:  # the race ends at once: plain max^n to depth 1 agrees
        assert reference.maxn(state.copy(), 1)[me] == 1.0
        after = state.copy()
        after.play(r.best_move)
        assert after.is_terminal() and after.returns()[me] == 1.0


def test_registration_options_reuse_and_stop():
    g = load_game("hare(players=3)")
    assert isinstance(make_engine(g, "mcts"), H.HareMCTS)
    for bad in ("mcts,c=-1", "mcts,expand=-1", "mcts,horizon=-5", "mcts,memory=0", "mcts,horizon=x"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)
    engine = make_engine(g, "mcts,seed=2,memory=16")
    state = g.new_state()
    r = engine.search(state, Limits(nodes=3000))
    child = engine.child_row(engine.root, r.best_move)
    kept = engine.nodes[child].copy()
    kept_w = engine.wsum[child].copy()
    state.play(r.best_move)
    assert engine.set_root(state) and engine.root == child
    assert np.array_equal(engine.nodes[child], kept) and np.array_equal(engine.wsum[child], kept_w)
    assert engine.search(state, Limits(nodes=500)).nodes == kept[T.N] + 500
    # the stop flag ends an infinite search
    stop = new_stop_flag()
    infos = []

    def on_info(info):
        infos.append(info)
        if len(infos) == 2:
            stop[0] = 1

    e2 = make_engine(g, "mcts,seed=0,info_ms=20,memory=8")
    r = e2.search(g.new_state(), Limits(infinite=True), stop, on_info)
    assert r.best_move in g.new_state().legal_moves() and len(infos) >= 3
    # and a kernel run with full playouts from another thread
    nodes, stats = T.new_tree(1 << 16)
    wsum = H.new_returns(1 << 16, 3)
    flag = new_stop_flag()
    box = {}
    t = threading.Thread(target=lambda: box.setdefault(
        "done", H.run(g.new_state(), nodes, wsum, stats, 0, 10**9, 1.0, 1, 0, T.new_random(1), flag)))
    t.start()
    flag[0] = 1
    t.join(60)
    assert not t.is_alive() and box["done"] < 10**9
    # bad input
    with pytest.raises(ValueError):
        H.run(g.new_state(), nodes, np.zeros((10, 3)), stats, 0, 10, 1.0, 1, 10, T.new_random(1))
    with pytest.raises(ValueError):
        H.run(g.new_state(), nodes, wsum, stats, 0, 10, 1.0, 1, -1, T.new_random(1))
    with pytest.raises(ValueError):
        H.run("not a state", nodes, wsum, stats, 0, 10, 1.0, 1, 10, T.new_random(1))


def test_bench_rows_for_hare(capsys):
    from gamesuite.bench import mcts as bench

    bench._row("x", bench._hare_rate(2, 50, 200, 1, 1))
    bench._row("y", bench._hare_rate(4, 5, 0, 1, 1))
    out = capsys.readouterr().out
    assert out.startswith("x") and "y" in out
