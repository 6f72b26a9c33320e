"""Statistics of the arena against values derived by hand and closed forms."""

from __future__ import annotations

import math

import pytest

from gamesuite.arena.stats import (
    Sprt,
    elo_from_score,
    elo_interval,
    llr_normal,
    llr_trinomial,
    los,
    mle_trinomial,
    score_from_elo,
    score_interval,
    sprt_bounds,
)
from gamesuite.core.errors import InvalidOptionError


def test_logistic_elo_known_values():
    # 60% is +70.4 Elo; 75% is 400*log10(3) = +190.8; +100 Elo expects 64.0%.
    assert elo_from_score(0.6) == pytest.approx(70.437, abs=1e-3)
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert score_from_elo(100) == pytest.approx(0.640065, abs=1e-6)
    assert elo_from_score(0.5) == 0 and elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    for e in (-500, -35.5, 0, 12, 400):
        assert elo_from_score(score_from_elo(e)) == pytest.approx(e)


def test_score_and_elo_interval_by_hand():
    # 50 wins, 50 losses: s = 0.5, per-game sd 0.5, standard error 0.05, 95%: ±1.95996*0.05 = ±0.0980.
    sc = score_interval(50, 0, 50)
    assert sc.value == 0.5 and sc.lo == pytest.approx(0.401998, abs=1e-5) and sc.hi == pytest.approx(0.598002, abs=1e-5)
    # Elo of 0.598002: 400 log10(0.598002/0.401998) = 400 * 0.172480 = 68.99; symmetric around 0.
    el = elo_interval(50, 0, 50)
    assert el.value == 0 and el.hi == pytest.approx(68.99, abs=0.01) and el.error == pytest.approx(68.99, abs=0.01)
    # 30 wins, 40 draws, 30 losses: var = (30*.25 + 30*.25)/100 = 0.15, se = sqrt(0.15/100) = 0.03873.
    sc = score_interval(30, 40, 30)
    assert sc.error == pytest.approx(1.959964 * 0.0387298, abs=1e-6)
    # all draws: no spread
    sc = score_interval(0, 10, 0)
    assert (sc.value, sc.lo, sc.hi) == (0.5, 0.5, 0.5)
    # a clean sweep: score 1, Elo +inf, text says so
    assert elo_interval(10, 0, 0).text() == "+inf"


def test_los_by_hand():
    assert los(10, 10) == 0.5
    # (w - l)/sqrt(w + l) = 20/sqrt(100) = 2 standard deviations: Φ(2) = 0.97725
    assert los(60, 40) == pytest.approx(0.977250, abs=1e-6)


def test_sprt_bounds_known_values():
    lo, hi = sprt_bounds(0.05, 0.05)
    assert hi == pytest.approx(math.log(19)) and lo == pytest.approx(-math.log(19))  # ±2.944
    lo, hi = sprt_bounds(0.05, 0.1)
    assert lo == pytest.approx(math.log(0.1 / 0.95)) and hi == pytest.approx(math.log(0.9 / 0.05))


@pytest.mark.parametrize("w, l, elo0, elo1", [(60, 40, 0, 10), (13, 27, -5, 5), (500, 480, 0, 5), (3, 1, 0, 50)])
def test_gsprt_without_draws_is_walds_binomial_sprt(w, l, elo0, elo1):
    # With no draws the constrained MLE is the binomial (1 - s_k, s_k), so the LLR is Wald's closed form.
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    wald = w * math.log(s1 / s0) + l * math.log((1 - s1) / (1 - s0))
    assert llr_trinomial(w, 0, l, elo0, elo1) == pytest.approx(wald, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("counts, s", [((40, 80, 60), 0.5), ((10, 5, 30), 0.6), ((100, 300, 90), 0.52)])
def test_constrained_mle_matches_a_brute_force_maximum(counts, s):
    # The distributions with mean s form a line: p = (1 - s - t/2, t, s - t/2); maximise the log-likelihood on it.
    l, d, w = counts

    def loglik(t: float) -> float:
        p = (1 - s - t / 2, t, s - t / 2)
        return l * math.log(p[0]) + d * math.log(p[1]) + w * math.log(p[2])

    hi = 2 * min(s, 1 - s)
    best_t = max((hi * k / 200000 for k in range(1, 200000)), key=loglik)
    p = mle_trinomial((float(l), float(d), float(w)), s)
    assert sum(p) == pytest.approx(1) and p[1] + 2 * p[2] == pytest.approx(2 * s)
    assert p[1] == pytest.approx(best_t, abs=2e-5)


def test_constrained_mle_puts_mass_on_outcomes_not_yet_seen():
    # 11 wins, 1 draw, no loss, mean 0.5: maximise log t + 11 log(1/2 - t/2): 1/t = 11/(1 - t), t = 1/12,
    # so p = (11/24, 1/12, 11/24): the losses H0 needs get mass although none was seen.
    p = mle_trinomial((0.0, 1.0, 11.0), 0.5)
    assert p == pytest.approx((11 / 24, 1 / 12, 11 / 24), abs=1e-9)
    # and a one-sided result is evidence for the stronger hypothesis, never against it
    assert llr_trinomial(11, 1, 0, 0, 100) > 0 and llr_trinomial(0, 1, 11, 0, 100) < 0
    assert llr_trinomial(0, 12, 0, 0, 100) < 0  # draws only: score 1/2 exactly, against +100 Elo


def test_gsprt_symmetry_and_normal_approximation():
    # Mirroring the results and the hypotheses (elo -> -elo) leaves the LLR unchanged;
    # exchanging H0 and H1 negates it.
    assert llr_trinomial(70, 100, 50, 0, 10) == pytest.approx(llr_trinomial(50, 100, 70, 0, -10))
    assert llr_trinomial(70, 100, 50, 0, 10) == pytest.approx(-llr_trinomial(70, 100, 50, 10, 0))
    # For many games and close hypotheses the normal approximation agrees closely.
    exact, approx = llr_trinomial(2100, 4000, 1900, 0, 5), llr_normal(2100, 4000, 1900, 0, 5)
    assert approx == pytest.approx(exact, rel=0.01)
    # At the midpoint score the approximation is zero (2s = s0 + s1).
    s_mid = (score_from_elo(0) + score_from_elo(20)) / 2
    assert s_mid > 0.5
    assert llr_normal(1, 0, 1, -20, 20) == pytest.approx(0.0)


def test_sprt_decides_on_clear_evidence_and_waits_on_little():
    t = Sprt(0, 50, 0.05, 0.05)
    assert t.decision(5, 5, 5) is None
    assert t.decision(300, 100, 100) == "H1"
    assert t.decision(100, 100, 300) == "H0"
    assert "H1 accepted" in t.text(300, 100, 100) and "LLR" in t.text(1, 1, 1)
    assert Sprt.parse("0,5,0.05,0.1") == Sprt(0, 5, 0.05, 0.1)
    assert Sprt.parse("-3,2") == Sprt(-3, 2)


@pytest.mark.parametrize("bad", ["0", "a,b", "5,0", "0,5,0,0.1", "0,5,0.05"])
def test_bad_sprt_specs(bad):
    with pytest.raises(InvalidOptionError):
        Sprt.parse(bad)


def test_pentanomial_by_hand():
    from gamesuite.arena.stats import pentanomial_elo, pentanomial_interval

    # every pair 1-1: the engines are equal and the pairs say so without noise
    e = pentanomial_interval([0, 0, 7, 0, 0])
    assert (e.value, e.lo, e.hi) == (0.5, 0.5, 0.5)
    # 10 pairs won 2-0, 10 lost 0-2: s = 1/2, var = 1/4, se = sqrt(0.25/20) = 0.111803, 95%: ±0.219129
    e = pentanomial_interval([10, 0, 0, 0, 10])
    assert e.value == 0.5 and e.error == pytest.approx(1.959964 * 0.111803, abs=1e-6)
    # the same 40 games counted one by one (20 wins, 20 losses) give the trinomial ±1.96*0.5/sqrt(40)
    assert score_interval(20, 0, 20).error == pytest.approx(1.959964 * 0.5 / math.sqrt(40), abs=1e-6)
    assert pentanomial_elo([0, 0, 0, 3, 1]).value == pytest.approx(elo_from_score((3 * 0.75 + 1) / 4))
    with pytest.raises(InvalidOptionError):
        pentanomial_interval([1, 2, 3])


def test_tally_pairs_the_two_colours_of_an_opening():
    from gamesuite.arena.match import Tally
    from gamesuite.arena.record import GameRecord

    def rec(seed, idx, returns):
        return GameRecord("tictactoe", "", [], 0, ["a", "b"], returns, "", "", engine_index=list(idx), seed=seed)

    t = Tally(["a", "b"]).add_all([
        rec(1, (0, 1), [1.0, -1.0]), rec(1, (1, 0), [1.0, -1.0]),  # each wins with X: 1-1 pair
        rec(2, (0, 1), [1.0, -1.0]), rec(2, (1, 0), [-1.0, 1.0]),  # a wins both: 2-0
        rec(3, (0, 1), [0.0, 0.0]), rec(3, (1, 0), [-1.0, 1.0]),   # a: draw and win: 1.5
        rec(4, (0, 1), [0.0, 0.0]),                                  # its partner has not arrived
    ])
    assert t.pentanomial[0][1] == [0, 0, 1, 1, 1] and t.pentanomial[1][0] == [1, 1, 1, 0, 0]
    assert t.wdl[0][1] == [4, 2, 1]
