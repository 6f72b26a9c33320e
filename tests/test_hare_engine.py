"""Hare and Hedgehog engine: every kernel against its plain-Python reference, pruned against plain search."""

import random

import numpy as np
import pytest
from numba import njit

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine, new_stop_flag
from gamesuite.games.hare import kernels as K
from gamesuite.games.hare import naive
from gamesuite.games.hare.config import EARLY, RACESCALE, WRITEUP_WEIGHTS, Weights, model_array
from gamesuite.games.hare.engine import HareEngine, search_root
from gamesuite.search import reference

W = Weights()
SPECS = ["hare", "hare(players=3)", "hare(players=6)", "hare(players=2,pieces=1)",
         "hare(players=3,board=1978,hare=1979)", "hare(players=4,hare=tournament)"]


def random_positions(spec, games=3, plies=160, seed=1):
    g = load_game(spec)
    rng = random.Random(f"{spec}{seed}")
    out = []
    for _ in range(games):
        s = g.new_state()
        for _ in range(plies):
            if s.is_terminal():
                break
            out.append(s.copy())
            if s.is_chance_node():
                o = s.chance_outcomes()
                s.play(rng.choices([m for m, _ in o], [p for _, p in o])[0])
            else:
                s.play(rng.choice(s.legal_moves()))
        out.append(s.copy())
    return g, out


@pytest.mark.parametrize("spec", SPECS)
def test_move_generation_moves_and_cards_match_the_rules(spec):
    g, states = random_positions(spec)
    t = K.Tables(g)
    for s in states:
        st = K.pack(s)
        assert K.unpack(st, g).to_text() == s.to_text()
        assert K.gen_moves(st, t) == s.legal_moves(), s.to_text()
        choices = [c for c, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_moves()
        for m in choices:
            child = K.apply(st, t, m)
            s.play(m)
            assert np.array_equal(child, K.pack(s)), (s.to_text(), m)
            s.undo()


@pytest.mark.parametrize("spec", SPECS)
def test_evaluation_kernel_matches_reference(spec):
    g, states = random_positions(spec, games=2, seed=2)
    t = K.Tables(g)
    for w in (Weights(ks=1.3, kc=0.7, kp=1.1, due=0.0, percarrot=0.0, tight=0.0),
              Weights(ks=0.8, kc=1.2, due=0.7, percarrot=3.0, tight=45.0, finishable=20.0, skip=10.0, turns=7.0),
              Weights(race=35.0, racescale=1.5)):
        for s in states:
            got = list(K.evaluate(K.pack(s), t, w.array()))
            assert got == pytest.approx(naive.evaluate(s, w), rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("spec", ["hare(players=3)", "hare(players=4,hare=tournament)"])
def test_evaluation_with_an_opponent_model_matches_reference(spec):
    g, states = random_positions(spec, games=1, seed=4)
    t = K.Tables(g)
    mine, others = Weights(race=30.0, turns=20.0), WRITEUP_WEIGHTS
    for me in range(g.n):
        w = model_array(mine, others, me)
        for s in states:
            got = list(K.evaluate(K.pack(s), t, w))
            want = naive.evaluate(s, (mine, others, me, False))
            assert got == pytest.approx(want, rel=1e-12, abs=1e-9)
            assert want[me] == pytest.approx(naive.evaluate(s, mine)[me], rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("spec", SPECS)
def test_race_tanh_table_gives_the_same_bits_as_tanh(spec):
    # the race term reads tanh from a table made for its racescale (B_TH); without the table (B_TH = 0) the
    # kernel calls np.tanh: the values must be the same to the last bit (the search's trees stay the same)
    g, states = random_positions(spec, games=2, seed=5)
    t = K.Tables(g)
    looked_up = 0
    for w in (Weights(race=35.0, racescale=1.5), model_array(Weights(race=9.3, turns=22.0), WRITEUP_WEIGHTS, 1),
              model_array(Weights(race=20.0, racescale=0.7), Weights(race=5.0, racescale=2.0), 0)):
        wa = w if isinstance(w, np.ndarray) else w.array()
        b = t.board(wa)
        assert b[K.B_TH] > 0 and b.view(np.float64)[K.B_RS] == wa[RACESCALE]
        plain = b.copy()
        plain[K.B_TH] = 0
        for s in states:
            st = K.pack(s)
            if st[K.PHASE] == K.OVER:
                continue
            got, want = np.zeros(K.MAXP), np.zeros(K.MAXP)
            K._evaluate(st, t.cfg, t.kinds, b, wa, got)
            K._evaluate(st, t.cfg, t.kinds, plain, wa, want)
            assert np.array_equal(got.view(np.int64), want.view(np.int64)), s.to_text()
            looked_up += 1
    assert looked_up > 100
    # the whole table against numba's np.tanh of the kernel's expression (math.tanh and numba's are libm's;
    # numpy's own np.tanh may differ from both in the last bit)
    for n, rs in ((3, 1.5), (2, 1.0), (6, 0.8)):
        tab = K.race_tanh_table(n, rs)
        assert np.array_equal(tab.view(np.int64), _numba_tanh_table(n, rs, K.RACE_TM).view(np.int64))


def test_race_boards_are_made_per_scale_and_kept_few():
    t = K.Tables(load_game("hare(players=3)"))
    for k in range(K.RACE_BOARDS_KEPT + 3):
        w = Weights(race=10.0, racescale=0.5 + k / 7).array()
        b = t.board(w)
        assert b.view(np.float64)[K.B_RS] == w[RACESCALE] and b[K.B_TH] == b.shape[0] - K.RACE_TM ** 2 * 9
        assert np.array_equal(b[b[K.B_TH]:].view(np.float64), K.race_tanh_table(3, w[RACESCALE]))
        solo = t.board(Weights(turns=5.0).array())  # the same board, without the tanh table
        assert solo[K.B_TH] == 0 and b[K.B_TH] == solo.shape[0]
        assert np.array_equal(b[:K.B_TH], solo[:K.B_TH]) and np.array_equal(b[K.B_SOLO:solo.shape[0]], solo[K.B_SOLO:])
        assert len(K._RACE_BOARDS) <= K.RACE_BOARDS_KEPT
    assert t.board(Weights(race=10.0, racescale=0.0).array())[K.B_TH] == 0


@njit(nogil=True)
def _numba_tanh_table(n, rs, tm):  # type: ignore[no-untyped-def]
    out = np.empty(tm * n * tm * n)
    for tb in range(tm):
        for jb in range(n):
            best = tb + jb / n
            for t in range(tm):
                for jo in range(n):
                    out[((tb * n + jb) * tm + t) * n + jo] = np.tanh((best - (t + jo / n)) / rs)
    return out


@pytest.mark.parametrize("spec", ["hare(players=2,pieces=1)", "hare(players=3)", "hare"])
def test_solo_table_equals_a_breadth_first_search(spec):
    g = load_game(spec)
    w = Weights(turns=1.0)
    btab = K.Tables(g).board(w.array())
    P, LK, C, H = K.solo_layout(g)
    rng = random.Random(spec)
    for _ in range(40):
        pos, lk = rng.randint(1, P), rng.randrange(LK)
        sq, c, h = rng.randint(35, 63), rng.randint(0, 160), rng.randint(0, min(2, H - 1))
        limit = (20 if lk == 0 else K.NO_LIMIT) if g.ppp == 2 else 10 * (lk + 1)
        assert K._solo(btab, pos, lk, sq, c, h) == naive.solo_turns(g, pos, limit, sq, c, h), (pos, lk, sq, c, h)
    # by hand: on 59 (carrot) with 15 carrots and no lettuce, first place: 5 squares for 15, home in 1
    assert naive.solo_turns(load_game("hare(players=2,pieces=1)"), 1, 10, 59, 15, 0) == 1
    # 26 carrots: 11 would remain; give 10 on the carrot square, then home: 2
    assert naive.solo_turns(load_game("hare(players=2,pieces=1)"), 1, 10, 59, 26, 0) == 2
    # a lettuce left on 52: 5 to the lettuce square 57 with the eating turn (2), then home (1)
    assert naive.solo_turns(load_game("hare(players=2,pieces=1)"), 1, 10, 52, 42, 1) == 3


def test_evaluation_terms_by_hand():
    g = load_game("hare(players=3)")
    w = Weights(ks=1, kc=1, kp=1, c0=6, c1=8, need_per_square=5, excess=1.5, finishable=60, percarrot=2,
                lettuce=40, behind=60, tight=30, due=1, skip=25, turns=0)
    # player 1 on the 1/5/6 square 60 (reached last turn, leads: 10 due), 25 carrots, no lettuce
    s = g.state_from_text("60f:25:0/30:50:2/42e:20:2 2 deck=-")
    v = naive.evaluate(s, w)
    c = 25 + 10  # due: the leader's 10
    need = 5 * 4
    over = c - 10 - 10  # finishing costs 10 and first place keeps 10
    expect = 8 * need ** 0.5 - 1.5 * max(0, c - need - 10) - 2 * over + 3 * 60
    assert v[0] == pytest.approx(expect)
    # player 3 on the lettuce square 42 must eat: counted as eaten (1 left), 10 x race position 2 due;
    # one lettuce square ahead of 42 (57): a = 1, h = 1: -40 - 0 - 30 * 1 / (1 + 0)
    expect3 = -40 - 30 + 8 * (20 + 20) ** 0.5 + 3 * 42
    assert v[2] == pytest.approx(expect3)
    assert list(K.evaluate(K.pack(s), K.Tables(g), w.array())) == pytest.approx(v)
    # finished players: far above any racing value, the last place far below
    done = g.state_from_text("64:3:0:p1/64:15:0:p2/50:40:1:p3 - deck=-")
    vals = naive.evaluate(done, w)
    assert vals[0] > vals[1] > 1e8 > -1e8 > vals[2]


def test_kernel_wrappers_validate_input():
    g = load_game("hare(players=3)")
    t = K.Tables(g)
    with pytest.raises(ValueError, match="int64"):
        K.gen_moves(np.zeros(5, dtype=np.int64), t)
    st = K.pack(g.new_state())
    with pytest.raises(ValueError, match="not legal"):
        K.apply(st, t, 11)  # square 11 is a hedgehog
    with pytest.raises(ValueError, match="weights"):
        K.evaluate(st, t, np.zeros(3))


POSITIONS = [
    ("hare(players=3)", "40:20:0/45:15:1/38:30:1 1 deck=gm"),
    ("hare(players=3)", "57:12:0/55:9:0/60:18:0 2 deck=-"),
    ("hare(players=3)", "20:30:2/24:25:2/18:20:3 3 deck=hsg"),
    ("hare(players=4)", "50:15:0/52:9:1/60:18:0/64:3:0:p1 1 deck=x"),
    ("hare(players=2,pieces=1)", "44:22:1/41:30:1 1 deck=lf"),
    ("hare", "44,50:22:1/41,46:30:1 2 deck=-"),
]


def _leaf(x):
    """The engine resolves a hare card even at the horizon: the expectation over the cards."""
    if not x.is_chance_node():
        return naive.evaluate(x, W)
    total = [0.0] * x.game.n
    for card, p in x.chance_outcomes():
        x.play(card)
        total = [a + p * b for a, b in zip(total, naive.evaluate(x, W))]
        x.undo()
    return total


def _kernel_maxn(s, depth, **kw):
    return search_root(s, depth, algorithm="maxn", **kw)


class StopWhenFinished:
    """A position for ``reference.maxn`` where the search rule "stop below a node where the mover has
    finished" is spelt out: such a node is terminal, its returns the static values with ``EARLY`` per
    ply left to the horizon (``depth`` plies from the root) for the player who just finished."""

    def __init__(self, state, depth, transform=None):
        self.s, self.depth, self.plies, self.movers = state, depth, 0, []
        self.transform = transform or (lambda v: v)

    def is_terminal(self):
        return self.s.is_terminal() or bool(self.movers and self.movers[-1] >= 0 and self.s.place[self.movers[-1]])

    def returns(self):
        v = naive.evaluate(self.s, W)
        mover = self.movers[-1] if self.movers else -1
        if mover >= 0 and self.s.place[mover]:
            v[mover] += EARLY * (self.depth - self.plies)
        return self.transform(v)

    def is_chance_node(self):
        return self.s.is_chance_node()

    def chance_outcomes(self):
        return self.s.chance_outcomes()

    def legal_moves(self):
        return self.s.legal_moves()

    @property
    def current_player(self):
        return self.s.current_player

    @property
    def num_players(self):
        return self.s.game.n

    def play(self, m):
        chance = self.s.is_chance_node()
        self.movers.append(-1 if chance else self.s.current_player)
        self.plies += 0 if chance else 1
        self.s.play(m)

    def undo(self):
        self.s.undo()
        self.plies -= 0 if self.movers.pop() < 0 else 1


def _plain_leaf(x):
    return _leaf(x.s)


@pytest.mark.parametrize("spec,text", POSITIONS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_maxn_equals_the_plain_reference_maxn(spec, text, depth):
    s = load_game(spec).state_from_text(text)
    want = reference.maxn(StopWhenFinished(s.copy(), depth), depth, _plain_leaf)
    r = _kernel_maxn(s, depth, widths=(0,), ordering=False)
    assert r.values == pytest.approx(want, rel=1e-9, abs=1e-9)
    v, line = naive.maxn(s.copy(), depth, W)
    assert r.pv[0] == line[0] and r.values == pytest.approx(v, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("spec,text", [POSITIONS[1], POSITIONS[3],
                                       ("hare(players=3)", "24:83:1/37:14:3/19:47:2 2 deck=-"),
                                       ("hare(players=3)", "36:9:2/33:30:2/22a:39:2 1 deck=hmsh"),
                                       ("hare(players=3)", "14:15:2/11:36:3/10e:4:3 1 deck=mhh")])
def test_maxn_with_race_card_risk_and_opponent_model_matches_reference(spec, text):
    """The third and fourth positions' values change with ``risk`` (a card is drawn on the principal line),
    the last one's with the model's worst cards (an opponent draws), the first two reach a finish."""
    s = load_game(spec).state_from_text(text)
    w = Weights(race=40.0, racescale=0.8, risk=0.35)
    widths = (0, 3, 2)
    r = _kernel_maxn(s, 3, widths=widths, ordering=True, weights=w)
    v, line = naive.maxn(s.copy(), 3, w, widths=widths, ordering=True)
    assert r.values == pytest.approx(v, rel=1e-9, abs=1e-9)
    assert r.pv == line[: len(r.pv)] and r.pv[0] == line[0]
    # the others valued with the write-up's weights (an opponent model)
    for cards in (False, True):  # ... and judging their own cards by the worst outcome
        r = _kernel_maxn(s, 3, widths=widths, ordering=True, weights=w, model=WRITEUP_WEIGHTS, model_cards=cards)
        v, line = naive.maxn(s.copy(), 3, (w, WRITEUP_WEIGHTS, s.current_player, cards), widths=widths,
                             ordering=True)
        assert r.values == pytest.approx(v, rel=1e-9, abs=1e-9)
        assert r.pv == line[: len(r.pv)] and r.pv[0] == line[0]


@pytest.mark.parametrize("spec,text", POSITIONS[:4])
@pytest.mark.parametrize("rule", ["absolute", "relative", "sum"])
@pytest.mark.parametrize("worst", [False, True])
def test_maxn_with_ordering_widths_rules_and_worst_card_matches_reference(spec, text, rule, worst):
    s = load_game(spec).state_from_text(text)
    widths = (0, 3, 2)
    r = _kernel_maxn(s, 3, rule=rule, widths=widths, ordering=True, worst=worst)
    v, line = naive.maxn(s.copy(), 3, W, rule=rule, widths=widths, ordering=True, worst=worst)
    assert r.values == pytest.approx(v, rel=1e-9, abs=1e-9)
    assert r.pv == line[: len(r.pv)] and r.pv[0] == line[0]


@pytest.mark.parametrize("spec,text", POSITIONS[:4])
@pytest.mark.parametrize("rule", ["absolute", "relative", "sum"])
def test_paranoid_pruned_equals_unpruned_and_reference(spec, text, rule):
    s = load_game(spec).state_from_text(text)
    me = s.current_player
    for depth, widths, ordering in ((3, (0,), False), (3, (0,), True), (4, (0, 0, 3, 2), True)):
        pruned = search_root(s, depth, algorithm="paranoid", rule=rule, widths=widths, ordering=ordering, prune=True)
        plain = search_root(s, depth, algorithm="paranoid", rule=rule, widths=widths, ordering=ordering, prune=False)
        v, line = naive.paranoid(s.copy(), depth, me, W, rule=rule, widths=widths, ordering=ordering)
        assert pruned.values[0] == pytest.approx(plain.values[0], rel=1e-9, abs=1e-9)
        assert pruned.values[0] == pytest.approx(v, rel=1e-9, abs=1e-9)
        assert pruned.move == plain.move == line[0]
        assert pruned.nodes <= plain.nodes
    # paranoid is max^n on the vector (f for the root, -f for the others)
    def spread(v):
        f = naive.decision(v, me, rule)
        return [f if q == me else -f for q in range(len(v))]

    def vec(x):
        x = x.s
        if x.is_chance_node():
            f = 0.0
            for card, p in x.chance_outcomes():
                x.play(card)
                f += p * naive.decision(naive.evaluate(x, W), me, rule)
                x.undo()
        else:
            f = naive.decision(naive.evaluate(x, W), me, rule)
        return [f if q == me else -f for q in range(x.game.n)]
    want = reference.maxn(StopWhenFinished(s.copy(), 3, spread), 3, vec)
    assert search_root(s, 3, algorithm="paranoid", rule=rule, widths=(0,), ordering=False).values[0] == \
        pytest.approx(want[me], rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("spec,text,worst", [
    # POSITIONS[4] with worst=False is about 15 s of reference search (the slowest case of the default run in the
    # fifteenth session): its worst=True case stays in the default run
    pytest.param(*POSITIONS[4], False, marks=pytest.mark.slow), (*POSITIONS[4], True),
    # expectimax over every card with two pieces each: 20-40 s of plain-Python reference search
    pytest.param(*POSITIONS[5], False, marks=pytest.mark.slow),
    pytest.param(*POSITIONS[5], True, marks=pytest.mark.slow),
    (*POSITIONS[3], False), (*POSITIONS[3], True),
])
def test_alphabeta_with_two_left_equals_plain_search(spec, text, worst):
    s = load_game(spec).state_from_text(text)
    me = s.current_player
    if spec.startswith("hare(players=4"):
        s = s.game.state_from_text("50:15:0:/52:9:1/64:18:0:p2/64:3:0:p1 1 deck=x".replace(":/", "/"))
    racing = [p for p in range(s.game.n) if not s.place[p]]
    other = racing[0] if racing[1] == me else racing[1]
    for depth in (2, 4):
        ab = search_root(s, depth, algorithm="alphabeta", widths=(0, 0, 8, 8, 4), worst=worst, prune=True)
        plain = search_root(s, depth, algorithm="alphabeta", widths=(0, 0, 8, 8, 4), worst=worst, prune=False)
        v, line = naive.paranoid(s.copy(), depth, me, W, rule="versus", other=other, widths=(0, 0, 8, 8, 4),
                                 ordering=True, worst=worst)
        assert ab.values[0] == pytest.approx(plain.values[0], rel=1e-9, abs=1e-9) == v
        assert ab.move == plain.move == line[0]
        assert ab.nodes < plain.nodes or depth == 2


def test_alphabeta_needs_two_racing_and_options_are_checked():
    g = load_game("hare(players=3)")
    with pytest.raises(InvalidOptionError, match="two players"):
        search_root(g.new_state(), 2, algorithm="alphabeta")
    for spec in ("maxn,rule=best", "maxn,chance=maybe", "maxn,widths=a/b", "maxn,algorithm=mcts", "maxn,maxdepth=99"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, spec)


def test_engine_reports_each_depth_and_returns_a_legal_move():
    g = load_game("hare(players=4)")
    s = g.state_from_text("20:30:2/24:25:2/18:20:3/10e:40:3 1 deck=hsg")
    eng = make_engine(g, "maxn,widths=0/0/4")
    infos = []
    r = eng.search(s, Limits(depth=3), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3]
    assert r.best_move in s.legal_moves() and r.depth == 3 and r.score.kind == "vector"
    assert len(r.score.values) == 4 and infos[-1].pv[0] == r.best_move
    assert s.to_text() == "20:30:2/24:25:2/18:20:3/10e:40:3 1 deck=hsg"  # the state is left alone
    two = load_game("hare")
    r2 = make_engine(two).search(two.new_state(), Limits(depth=2))
    assert r2.best_move in two.new_state().legal_moves() and r2.score.kind == "eval"


def test_engine_honours_the_stop_flag_and_node_limit():
    g = load_game("hare(players=3)")
    s = g.new_state()
    stop = new_stop_flag()
    stop[0] = 1
    r = HareEngine(g).search(s, Limits(infinite=True), stop)
    assert r.best_move in s.legal_moves()
    r2 = HareEngine(g).search(s, Limits(nodes=5000))
    assert r2.best_move in s.legal_moves() and r2.nodes < 5000 * 20


@pytest.mark.parametrize("spec,text", [
    ("hare(players=2,pieces=1)", "59:22:0/58:65:2 1 deck=xfsx"),  # issue 22: played 1002 at depth 6
    ("hare(players=3)", "64:4:0:p1/63:18:2/59:21:0 3 deck=mgfxgll"),  # issue 22: played 1001
])
def test_the_engine_takes_its_finish(spec, text):
    g = load_game(spec)
    s = g.state_from_text(text)
    for engine in ("maxn", "maxn,rule=relative", "maxn,rule=sum", "maxn,twoplayer=same", "writeup",
                   "maxn,algorithm=paranoid"):
        for limits in (Limits(depth=6), Limits(depth=1), Limits(nodes=5000)):
            r = make_engine(g, engine).search(s, limits)
            assert r.best_move == 5, (engine, limits, s.format_move(r.best_move))


def _random_end_position(rng, n, ppp):
    """A random position where the player to move can finish at once (None if the draw fails)."""
    g = load_game(f"hare(players={n},pieces={ppp})")
    me = rng.randrange(n)
    done = rng.randrange(0, n - 1)  # players already home (not the mover)
    others = [p for p in range(n) if p != me]
    rng.shuffle(others)
    home = others[:done]
    used = set()
    entries = {}
    for place, p in enumerate(home, 1):
        entries[p] = ",".join(["64"] * ppp) + f":{rng.randrange(0, 11)}:0:p{place}"
    def square(lo, hi):
        for _ in range(50):
            t = rng.randrange(lo, hi)
            if t not in used and g.kind[t] not in (3, 4):  # no hedgehog, no lettuce square
                used.add(t)
                return t
        return None
    pieces = [square(50, 64) for _ in range(ppp)]
    if ppp == 2 and rng.random() < 0.7:
        pieces[0] = 64
    if None in pieces:
        return None
    limit = 20 if ppp == 2 else 10 * (done + 1)
    last = max(t for t in pieces if t < 64) if any(t < 64 for t in pieces) else None
    if last is None:
        return None
    cost = (64 - last) * (65 - last) // 2
    car = cost + rng.randrange(0, limit + 1) if (ppp == 1 or pieces.count(64) == 1) else cost + rng.randrange(0, 60)
    entries[me] = ",".join(map(str, pieces)) + f":{car}:0"
    for p in others[done:]:
        sq = [square(1, 64) for _ in range(ppp)]
        if None in sq:
            return None
        entries[p] = ",".join(map(str, sq)) + f":{rng.randrange(0, 120)}:{rng.randrange(0, 3)}"
    deck = "".join(rng.sample("gmxlhfsgmxlhfs", rng.randrange(0, 8))) or "-"
    try:
        s = g.state_from_text("/".join(entries[p] for p in range(n)) + f" {me + 1} deck={deck}")
    except Exception:  # noqa: BLE001 - a drawn position the rules refuse is skipped
        return None
    finishing = []
    for m in s.legal_moves():
        c = s.copy()
        c.play(m)
        if c.place[me]:
            finishing.append(m)
    return (s, finishing) if finishing else None


@pytest.mark.parametrize("n,ppp", [(2, 1), (2, 2), (3, 1), (4, 1), (5, 1), (6, 1)])
def test_the_search_never_prefers_racing_on_to_a_finish(n, ppp):
    rng = random.Random(f"end{n}{ppp}")
    engines = ["maxn", "maxn,rule=relative", "maxn,rule=sum", "maxn,chance=worst,widths=0",
               "maxn,algorithm=paranoid,rule=sum", "maxn,twoplayer=same,rule=relative", "writeup",
               "maxn,chanceplies=1,robust=false", "maxn,race=40,risk=0.3,model=writeup,modelchance=worst"]
    found = 0
    while found < 12:
        got = _random_end_position(rng, n, ppp)
        if got is None:
            continue
        s, finishing = got
        found += 1
        for spec in engines:
            for limits in (Limits(depth=1), Limits(depth=2), Limits(depth=4)):
                r = make_engine(s.game, spec).search(s, limits)
                assert r.best_move in finishing, (spec, limits, s.to_text(), s.format_move(r.best_move))


def test_writeup_preset_and_engine_name():
    g = load_game("hare(players=3)")
    w = make_engine(g, "writeup")
    assert (w.rule, w.worst, w.widths, w.robust) == ("absolute", True, (0, 0, 8, 8, 4), False)
    assert w.weights.due == 1.0 and w.weights.finishable == 0.0 and w.weights.tight > 0
    same = make_engine(g, "maxn,preset=writeup")
    assert same.weights == w.weights and same.worst
    mixed = make_engine(g, "writeup,chance=expect,ks=1.5")
    assert not mixed.worst and mixed.weights.ks == 1.5 and mixed.weights.due == 1.0
    for bad in ("maxn,preset=nope", "maxn,ks=abc", "maxn,chanceplies=-2", "maxn,robust=2", "maxn,nosuch=1"):
        with pytest.raises(InvalidOptionError):
            make_engine(g, bad)


def test_default_with_three_players_is_the_three_preset():
    from gamesuite.games.hare.config import THREE_WEIGHTS

    three = make_engine(load_game("hare(players=3)"), "maxn")
    assert three.weights == THREE_WEIGHTS and three.model == WRITEUP_WEIGHTS
    assert three.weights == make_engine(load_game("hare(players=3)"), "maxn,preset=three").weights
    mine = make_engine(load_game("hare(players=3)"), "maxn,ks=2,model=self")  # options given still override it
    assert mine.weights == THREE_WEIGHTS.replace(ks=2.0) and mine.model is None
    for spec in ("hare(players=2,pieces=1)", "hare(players=4)"):  # measured with three players only
        other = make_engine(load_game(spec), "maxn")
        assert other.weights == Weights() and other.model is None


def test_weights_are_numeric_engine_options():
    from gamesuite.core.registry import engine_entry

    g = load_game("hare")
    entry = engine_entry(g, "maxn")
    for name in Weights.names():
        assert entry.options[name].type is float and isinstance(entry.options[name].default, float)
        e = make_engine(g, f"maxn,{name}=0.5")
        assert getattr(e.weights, name) == 0.5


def test_bench_hare_prints_its_figures(capsys):
    from gamesuite.bench import hare as bench

    assert bench.main(["--rounds", "10", "--depth", "3", "--repeat", "1", "--budget", "0.01", "--studies", "500",
                       "--answers", "4", "--movetime", "20"]) == 0
    out = capsys.readouterr().out
    assert "M/s" in out and "2p one piece, alpha-beta, worst card" in out and "load average" in out
    assert "shipped studies solved" in out and "writeup" in out
    assert "4 answers at 20 ms" in out and "as the referee times it" in out and "a loss on time" in out


def test_tune_on_studies_and_self_play(tmp_path, capsys):
    from gamesuite.cli import main
    from gamesuite.games.hare.tuning import MatchResult, grid, read_studies, tune_on_studies

    f = tmp_path / "studies.txt"
    f.write_text("# judged studies\n45;26;2;f;29;19;0;f;2\n60;10;0;f;40;60;1;f;1\n\n20;40;1;f;35;80;3;f;1\n")
    studies = read_studies(f.read_text().splitlines())
    assert [s.winner for s in studies] == [1, 0, 0]
    res = tune_on_studies(studies, grid(0.5, 1.5, 0.5))
    assert len(res) == 27 and res[0][0] == max(h for h, _ in res)
    # the count is honest: recount the best triple by hand
    best = res[0][1]
    hand = sum(1 for s in studies if int(np.argmax(naive.evaluate(s.state, best))) == s.winner)
    assert hand == res[0][0]
    assert main(["tune", "hare", "--studies", str(f), "--grid", "0.5:1.5:0.5", "--selfplay", "2",
                 "--selfplay-depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "27 weight triples" in out and "95% interval" in out
    r = MatchResult(6, 2, 2)
    lo, hi = r.interval()
    assert r.score == 0.7 and lo < 0.7 < hi and r.elo() > 0
    bad = tmp_path / "bad.txt"
    bad.write_text("45;26;2;f;29\n")
    assert main(["tune", "hare", "--studies", str(bad)]) == 2
    assert main(["tune", "hare", "--studies", str(tmp_path / "missing.txt")]) == 2
    assert main(["tune", "chess", "--studies", str(f)]) == 2


@pytest.mark.parametrize("spec", SPECS)
def test_every_engine_setting_returns_a_legal_move_in_random_positions(spec):
    g, states = random_positions(spec, games=2, plies=300, seed=9)
    engines = [HareEngine(g), HareEngine(g, algorithm="paranoid", chance="worst", rule="sum"),
               HareEngine(g, rule="relative", twoplayer="same", widths="2")]
    for s in states[::7]:
        if s.legal_moves():
            for e in engines:
                assert e.search(s, Limits(depth=2)).best_move in s.legal_moves(), s.to_text()


def test_lateness_keeps_back_what_searches_overran():
    from gamesuite.search.timeman import SAFETY_MS, Lateness, allocate

    late = Lateness(factor=1.5, window=10, rank=2, cap_ms=400)
    assert late.reserve_ms() == SAFETY_MS
    late.record(-5)  # on time: nothing changes
    assert late.reserve_ms() == SAFETY_MS
    late.record(170)  # one late answer alone (a single preemption) keeps nothing back
    assert late.reserve_ms() == SAFETY_MS
    late.record(60)  # a second: keep 1.5 x the second largest back
    assert late.reserve_ms() == pytest.approx(90)
    for _ in range(8):
        late.record(0)
    assert late.reserve_ms() == pytest.approx(90)  # both still among the last ten searches
    late.record(0)
    assert late.reserve_ms() == SAFETY_MS  # the 170 has left the window: one overrun of 60 remains
    late.record(10_000)
    late.record(10_000)
    assert late.reserve_ms() == pytest.approx(600)  # wild overruns count at most cap_ms each
    assert allocate(Limits(movetime=1000), 0, late.reserve_ms()).hard_ms == pytest.approx(400)
    assert allocate(Limits(movetime=100), 0, 600).hard_ms == pytest.approx(20)  # never below a fifth
    assert allocate(Limits(movetime=100), 0).hard_ms == 100 - SAFETY_MS
    with pytest.raises(ValueError):
        Lateness(window=3, rank=4)


def test_engine_answers_within_its_move_time_and_records_its_overrun():
    g = load_game("hare(players=3)")
    e = HareEngine(g)
    s = g.new_state()
    r = e.search(s, Limits(movetime=50))
    assert r.best_move in s.legal_moves() and e.lateness.searches == 1


@pytest.mark.parametrize("spec,text,algorithm", [
    (*POSITIONS[0], "maxn"), (*POSITIONS[2], "maxn"), (*POSITIONS[0], "paranoid"), (*POSITIONS[2], "paranoid"),
    (*POSITIONS[4], "maxn"), (*POSITIONS[4], "alphabeta"),
])
def test_root_lines_rank_every_root_move_by_its_own_search(spec, text, algorithm):
    """Multi-PV: each root move's line holds the value a search of that move alone gives; the lines are
    ranked by the mover's decision; the first is the unrestricted search's value; ``only`` keeps to its moves."""
    s = load_game(spec).state_from_text(text)
    me = s.current_player
    legal = s.legal_moves()
    for depth in (1, 3):
        whole = search_root(s, depth, algorithm=algorithm, robust=False)
        lines = search_root(s, depth, algorithm=algorithm, robust=False, multipv=len(legal)).lines
        assert sorted(m for m, _, _ in lines) == sorted(legal)
        assert all(pv[0] == m and all(isinstance(x, int) for x in pv) for m, _, pv in lines)

        def decide(values):
            return values[me] if algorithm == "maxn" else values[0]

        assert decide(lines[0][1]) == pytest.approx(decide(whole.values), rel=1e-9, abs=1e-9)
        assert [decide(v) for _, v, _ in lines] == sorted((decide(v) for _, v, _ in lines), reverse=True)
        for m, values, _ in lines[:4]:
            alone = search_root(s, depth, algorithm=algorithm, robust=False, only=[m])
            assert alone.move == m and alone.values == pytest.approx(values, rel=1e-9, abs=1e-9)
    with pytest.raises(InvalidOptionError, match="no legal move"):
        search_root(s, 2, algorithm=algorithm, only=[777])


def test_engine_keeps_to_searchmoves_and_gives_ranked_lines():
    g = load_game("hare(players=3)")
    s = g.state_from_text(POSITIONS[2][1])
    legal = s.legal_moves()
    for spec in ("maxn", "writeup", "maxn,algorithm=paranoid"):
        e = make_engine(g, spec)
        infos = []
        r = e.search(s, Limits(depth=3, multipv=3), on_info=infos.append)
        assert [ln.multipv for ln in r.lines] == [1, 2, 3] and r.lines[0].pv[0] == r.best_move
        assert len({ln.pv[0] for ln in r.lines}) == 3
        assert {i.multipv for i in infos} == {1, 2, 3}
        allowed = tuple(m for m in legal if m not in {ln.pv[0] for ln in r.lines})[:2]
        r2 = e.search(s, Limits(depth=3, multipv=5, searchmoves=allowed))
        assert r2.best_move in allowed and sorted(ln.pv[0] for ln in r2.lines) == sorted(allowed)
        with pytest.raises(InvalidOptionError, match="none is legal"):
            e.search(s, Limits(depth=1, searchmoves=(777,)))


def test_the_kernels_clock_is_time_monotonic_ns():
    import time

    if not K.KERNEL_CLOCK:
        pytest.skip("no clock in the kernels on this platform")
    for _ in range(3):
        a = time.monotonic_ns()
        b = int(K._now_ns())
        c = time.monotonic_ns()
        assert a <= b <= c


def test_a_deadline_stops_the_kernels_without_the_stop_flag(monkeypatch):
    import time

    from gamesuite.games.hare import engine as E

    if not K.KERNEL_CLOCK:
        pytest.skip("no clock in the kernels on this platform")
    g = load_game("hare(players=3)")
    s = g.new_state()
    free = search_root(s, 3, deadline_ns=time.monotonic_ns() + 3_600 * 10**9)
    assert not free.aborted and free.nodes > 100
    for algorithm in ("maxn", "paranoid"):
        late = search_root(s, 3, algorithm=algorithm, deadline_ns=time.monotonic_ns() - 1)
        assert late.aborted and late.nodes < free.nodes
    # an engine on a move time reads its deadline in the kernels: no watcher thread to wake up
    monkeypatch.setattr(E, "StopWatch", None)
    r = HareEngine(g).search(s, Limits(movetime=30))
    assert r.best_move in s.legal_moves()


def test_tune_on_move_studies(tmp_path, capsys):
    from gamesuite.cli import main
    from gamesuite.games.hare.studies import load_studies
    from gamesuite.games.hare.tuning import coordinate_search, solved, weights_spec

    f = tmp_path / "studies.toml"
    f.write_text('[[study]]\nname = "trap"\ngame = "hare(players=2,pieces=1)"\n'
                 'position = "58:20:0/30:40:1 1 deck=s"\nbest = ["1", "3", "5", "-2"]\navoid = ["4", "2"]\n'
                 'turns = 2\n\n[[study]]\nname = "finish"\ngame = "hare(players=3)"\n'
                 'position = "64:4:0:p1/63:18:2/59:21:0 3 deck=mgfxgll"\nbest = ["5"]\nturns = 1\n')
    assert main(["tune", "hare", "--studies", str(f), "--weights", "ks", "--rounds", "1", "--depth", "1",
                 "--selfplay", "2", "--selfplay-depth", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 studies" in out and "solved" in out and "engine: hare:maxn" in out and "95% interval" in out
    studies = load_studies()[:6]
    hits = solved(studies, "maxn", Limits(depth=1))
    # the count is honest: recount by hand
    by_hand = [st.solved_by(make_engine(st.state.game).search(st.state, Limits(depth=1)).best_move)
               for st in studies]
    assert hits == by_hand
    w, n = coordinate_search(studies, ["kc"], limits=Limits(depth=1), rounds=1, steps=(0.5, 2.0))
    assert n >= sum(hits) and n == sum(solved(studies, weights_spec("maxn", w), Limits(depth=1)))
    assert weights_spec("maxn", Weights()) == "maxn" and weights_spec("x", Weights(ks=2)) == "x,ks=2"
    with pytest.raises(InvalidOptionError):
        coordinate_search(studies, ["nope"])


def test_random_openings_are_legal_varied_and_loadable(tmp_path):
    from gamesuite.arena.openings import load_openings
    from gamesuite.games.hare.tuning import main as tuning_main
    from gamesuite.games.hare.tuning import random_openings

    lines = random_openings("hare(players=3)", 12, rounds=2, top=4, seed=5)
    assert len(lines) == 12 == len(set(lines))
    f = tmp_path / "open.txt"
    f.write_text("\n".join(lines) + "\n")
    ops = load_openings(f, load_game("hare(players=3)"))
    for op in ops:
        start, moves = op.build(load_game("hare(players=3)"))
        assert len([m for m in op.moves if not m.startswith("card:")]) >= 6
    assert random_openings("hare(players=3)", 12, rounds=2, top=4, seed=5) == lines  # the seed decides
    assert tuning_main(["openings", "hare", "3"]) == 0 and tuning_main(["nope"]) == 2
    with pytest.raises(InvalidOptionError):
        random_openings("gomoku", 3)


def test_the_kernels_load_from_the_numba_cache_in_a_fresh_process():
    # a recursive kernel whose arguments change type between calls (a literal False against a bool) compiles
    # and runs, but crashed when loaded from the cache by the next process: run one in a fresh process
    import subprocess
    import sys

    code = ("from gamesuite.core import load_game, Limits, make_engine\n"
            "for spec in ('hare(players=2,pieces=1)', 'hare(players=3)'):\n"
            "    g = load_game(spec)\n"
            "    for e in ('maxn', 'writeup', 'maxn,algorithm=paranoid'):\n"
            "        make_engine(g, e).search(g.new_state(), Limits(depth=3))\n"
            "print('ok')\n")
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
        assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_option_help_names_the_three_player_defaults():
    """The window shows one default per option (the two-player one); the help of maxn's weights says the
    three-player default where preset ``three`` changes it, and the writeup engine's says nothing of it."""
    from gamesuite.core.registry import engines_for
    from gamesuite.games.hare.config import THREE_WEIGHTS

    entries = {e.name: e for e in engines_for("hare(players=3)")}
    maxn, writeup = entries["maxn"].options, entries["writeup"].options
    assert f"{THREE_WEIGHTS.race:g}" in maxn["race"].help and "writeup" in maxn["model"].help
    assert "three players" not in maxn["kp"].help  # the same with three players
    assert all("three players" not in o.help for o in writeup.values() if getattr(o, "help", None))


def test_copy_kernel_equals_slice_assignment():
    """``K._copy`` (the kernels' row copy without numba's runtime) does what ``dst[:] = src`` does."""
    rng = np.random.default_rng(5)
    for dtype in (np.int64, np.float64):
        src = rng.integers(-1000, 1000, size=(3, K.SIZE)).astype(dtype)
        dst, ref = np.zeros_like(src), np.zeros_like(src)
        K._copy(dst[1], src[2])
        ref[1, :] = src[2, :]
        assert np.array_equal(dst, ref)


@pytest.mark.parametrize("spec, plies", [("hare(players=2,pieces=1)", 1), ("hare", 1), ("hare(players=3)", 1),
                                         ("hare(players=4)", 3)])
def test_one_round_of_cards_is_the_movers_own_card_with_two_players(spec, plies):
    """``chanceplies=-1`` (the default): with two players 1, every card below the root the worst for its drawer
    (alpha-beta does not prune through a chance node; docs/hare.md, seventh session); with more, a round of at
    most three plies. With three players the default (preset ``three``) is 1 as well (eighth session)."""
    g = load_game(spec)
    assert make_engine(g, "maxn").chance_plies == plies
    if g.num_players == 3:
        assert make_engine(g, "maxn,chanceplies=-1").chance_plies == 3  # asked for: a round, three plies
    assert make_engine(g, "maxn,chanceplies=2").chance_plies == 2  # an explicit value is kept
    if g.num_players == 2:
        _, states = random_positions(spec, games=1, plies=40, seed=7)
        s = next(x for x in states[12:] if not x.is_terminal() and not x.is_chance_node())
        default, one, two = (make_engine(g, e).search(s, Limits(depth=4))
                             for e in ("maxn", "maxn,chanceplies=1", "maxn,chanceplies=2"))
        assert (default.best_move, default.nodes, default.score) == (one.best_move, one.nodes, one.score)
        assert two.nodes != one.nodes  # the opponent's card branched on at ply 2 is another tree
