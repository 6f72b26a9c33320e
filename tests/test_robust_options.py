"""Options, limits and numbers: one checked path from text to value (issue 21, items 3 and 4).

Property tests: any text given to an option, a game parameter, a limit flag or an engine spec
is either accepted or refused with the clean error (``GameSuiteError``), never anything else.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamesuite.core.errors import GameSuiteError, InvalidGameSpecError, InvalidOptionError
from gamesuite.core.limits import MAX_NODES, Limits
from gamesuite.core.options import MAX_MEMORY_MB, Option, parse_bool, parse_float, parse_int
from gamesuite.core.registry import _ENGINES, _discover, load_game, make_engine

# text a user could type: digits of every script, signs, dots, exponents, letters, huge numbers
NUMBERISH = st.one_of(
    st.text(alphabet="0123456789+-.eE _,²³١٣٠०੪１２xabc∞", max_size=30),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(max_size=20),
    st.sampled_from(["1e309", "-1e309", "nan", "inf", "9" * 5000, "0x10", "1_000", "٣", "²", "１２", " 7 ", ""]),
)


def _all_option_specs() -> list[tuple[str, str, str, Option]]:
    _discover()
    out = []
    for e in _ENGINES:
        for k, o in e.options.items():
            out.append((e.game, e.name, k, o))
    return out


def test_every_registered_numeric_option_declares_a_range():
    missing = [f"{g}/{n}:{k}" for g, n, k, o in _all_option_specs()
               if o.type in (int, float) and not o.choices and (o.min is None or o.max is None)]
    assert not missing, f"numeric engine options without min and max: {missing}"
    big = [f"{g}/{n}:{k}" for g, n, k, o in _all_option_specs()
           if k in ("hash", "memory") and (o.max is None or o.max > MAX_MEMORY_MB)]
    assert not big


@settings(max_examples=300)
@given(NUMBERISH)
def test_parse_int_accepts_ascii_integers_in_range_or_refuses_cleanly(text):
    try:
        v = parse_int(text, "n", -1000, 10**6)
    except InvalidOptionError as e:
        assert "n must be" in str(e)
        return
    assert isinstance(v, int) and -1000 <= v <= 10**6
    assert text.strip().lstrip("+-").isascii() and text.strip().lstrip("+-").isdigit()


@settings(max_examples=300)
@given(NUMBERISH)
def test_parse_float_gives_finite_numbers_in_range_or_refuses_cleanly(text):
    try:
        v = parse_float(text, "x", 0, 4096)
    except InvalidOptionError:
        return
    assert math.isfinite(v) and 0 <= v <= 4096


@settings(max_examples=100)
@given(NUMBERISH)
def test_parse_bool_only_takes_the_switch_words(text):
    try:
        v = parse_bool(text, "b")
    except InvalidOptionError:
        return
    assert text.strip().lower() in ("true", "false", "yes", "no", "on", "off", "1", "0") and isinstance(v, bool)


@pytest.mark.parametrize("spec,game,word", [
    ("solver,hash=abc", "tictactoe", "'abc'"),
    ("solver,hash=1e309", "tictactoe", "'1e309'"),
    ("solver,hash=65536", "tictactoe", "'65536'"),
    ("mtdf,top=9223372036854775808", "gomoku", "'9223372036854775808'"),
    ("maxn,kc=1.o", "hare", "'1.o'"),
    ("pvs,pure=flase", "gomoku", "'flase'"),
    ("mcts,seed=1²", "tictactoe", "'1²'"),
    ("mcts,memory=100000", "gomoku", "'100000'"),
    ("solver,hash=1,hash=2", "tictactoe", "'hash'"),
    ("reference,depth=3", "tictactoe", "'depth'"),
])
def test_the_reviews_bad_engine_options_are_refused_before_anything_is_built(spec, game, word):
    with pytest.raises(InvalidOptionError) as e:
        make_engine(load_game(game), spec)
    assert word in str(e.value)


def test_an_overlong_engine_spec_is_refused_before_it_is_looked_up():
    with pytest.raises(InvalidOptionError, match="longer than"):
        make_engine(load_game("tictactoe"), "mcts," + "a" * 5000)


def test_declared_options_convert_text_to_their_type():
    g = load_game("gomoku(size=9)")
    e = make_engine(g, "pvs,top=5,hash=0.5,pure=no")
    assert e.top == 5 and e.pure is False
    m = make_engine(load_game("tictactoe"), "mcts,seed=none,c=2")
    assert m.c == 2.0


def test_game_parameters_take_the_same_path():
    with pytest.raises(InvalidGameSpecError):
        load_game("gomoku(size=１５)")
    with pytest.raises(InvalidGameSpecError):
        load_game("gomoku(size=" + "9" * 5000 + ")")
    assert load_game("gomoku(size= 9 )")["size"] == 9


@pytest.mark.parametrize("kw", [{"nodes": 2**64}, {"nodes": 99999999999999999999}, {"depth": -1},
                                {"movetime": 10**20}, {"multipv": 0}, {"time_left": (10**30, 0)},
                                {"nodes": True}])
def test_limits_are_bounded(kw):
    with pytest.raises(InvalidOptionError):
        Limits(**kw)
    Limits(nodes=MAX_NODES)


@pytest.mark.parametrize("clock", ["1e999+0", "nan+1", "60+٣", "x", "-5+1", "9" * 5000])
def test_a_bad_clock_is_refused(clock):
    with pytest.raises(InvalidOptionError):
        Limits.parse_clock(clock)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamesuite", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args,quoted", [
    (("perft", "tictactoe", "--depth", "18446744073709551616"), "'18446744073709551616'"),
    (("analyse", "shogi", "--nodes", "18446744073709551616"), "'18446744073709551616'"),
    (("analyse", "tictactoe", "--engine", "solver,hash=abc", "--depth", "1"), "'abc'"),
    (("match", "tictactoe", "--engine", "solver", "--engine", "mcts", "--nodes", "10", "--games", "٣"), "'٣'"),
])
def test_the_cli_refuses_bad_numbers_with_one_line_and_status_2(args, quoted):
    r = _cli(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and quoted in lines[0] and "Traceback" not in r.stderr


# -- generated option specs: every registered engine's declarations, USI's options, game parameters --------

import os  # noqa: E402

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
VALUES = st.one_of(NUMBERISH, st.sampled_from(["true", "false", "none", "pvs", "selective", "maxn", "sample",
                                               "standard", "mini", "27", "off", "0/0/8/8/4", "1,2"]))


def _option_specs() -> dict[str, tuple[list[str], object]]:
    """name -> (option names, convert(dict of texts)) for every option declaration there is."""
    from gamesuite.core.registry import game_classes
    from gamesuite.protocols.usi import USI_OPTIONS

    _discover()
    out: dict[str, tuple[list[str], object]] = {}
    for e in _ENGINES:
        out[f"engine {e.game}/{e.name}"] = (list(e.options), e.convert_options)
    def usi(d: dict) -> None:
        for k, v in d.items():
            if k not in USI_OPTIONS:
                raise InvalidOptionError(f"unknown option {k!r}")
            USI_OPTIONS[k].convert(v, k)

    out["USI setoption"] = (list(USI_OPTIONS), usi)
    for name, cls in game_classes().items():
        params = {p.name: p for p in cls.params}
        out[f"game {name}"] = (list(params), lambda d, cls=cls: cls(**d))
    return out


OPTION_SPECS = _option_specs()


def _run_spec(name: str, examples: int) -> tuple[int, int]:
    names, convert = OPTION_SPECS[name]
    counts = [0, 0]

    @settings(max_examples=examples, deadline=None, database=None)
    @given(st.dictionaries(st.sampled_from(names + ["bogus"]) if names else st.just("bogus"), VALUES, max_size=3))
    def check(given_):
        try:
            convert(given_)
            counts[0] += 1
        except GameSuiteError:
            counts[1] += 1

    check()
    return counts[0], counts[1]


@pytest.mark.parametrize("name", sorted(OPTION_SPECS))
def test_every_option_spec_accepts_or_refuses_cleanly(name):
    accepted, refused = _run_spec(name, EXAMPLES)
    assert accepted + refused > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OPTION_SPECS))
def test_2000_inputs_per_option_spec(name):
    accepted, refused = _run_spec(name, 2000)
    print(f"{name}: {accepted + refused} inputs, {accepted} accepted, {refused} refused cleanly, 0 other")
    assert accepted + refused >= 2000


def test_the_new_game_dialog_refuses_a_bad_engine_spec_before_anything_is_built(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog
    from gamesuite.gui.record import PlayerSpec

    dlg = NewGameDialog(None, load_game("tictactoe"),
                        [PlayerSpec("engine", "solver,hash=65536", None, 4), PlayerSpec("human")])
    qtbot.addWidget(dlg)
    dlg._accept()
    assert "Player 1" in dlg.error.text() and "'65536'" in dlg.error.text() and dlg.result() == 0
