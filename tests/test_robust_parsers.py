"""Every parser accepts what its format defines or refuses it cleanly (issue 21, items 2, 6 and 8).

Property tests over every registered game's position text and move text, shogi KIF and
CSA, gomoku records and ``.psq``, the arena's engine specs, openings and SPRT bounds: for
any input the parser returns a value or raises the program's own error (a
``GameSuiteError``), never another exception. Inputs are random text, mutations of valid
inputs (a character replaced by a non-ASCII digit, a number made huge, a part cut off) and
the review's examples.

``FUZZ_EXAMPLES`` sets the examples per test (the default keeps the suite quick; the slow run
``pytest -m slow tests/test_robust_parsers.py`` takes 2,000 per format).
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamesuite.core import game_classes, load_game
from gamesuite.core.errors import GameSuiteError, InvalidRecordError

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SPECS = [spec for name, cls in game_classes().items() for spec in (name, *cls.test_specs)]

#: characters that look like digits or separators but are not ASCII digits
TRICKY = "²³¹١٣٠०੪１２３\u0663\u09e9\u00bd\u2155\u2460\u216b\u3007一十"
HUGE = ["9" * 30, "9" * 5000, "18446744073709551616", "-1", "0", "99999999999999999999"]


def _valid_texts(spec: str, n: int = 6, seed: int = 1) -> list[str]:
    """Position texts of random games of ``spec`` (the start and some later positions)."""
    game = load_game(spec)
    rng = random.Random(seed)
    out = [game.new_state().to_text()]
    for _ in range(n):
        s = game.new_state()
        for _ in range(rng.randrange(1, 30)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.play(rng.choice([m for m, _ in s.chance_outcomes()]))
            else:
                s.play(rng.choice(s.legal_moves()))
        out.append(s.to_text())
    return out


@st.composite
def mutated(draw, texts: list[str]) -> str:
    """A valid text with a few characters replaced, inserted or removed, or a number made huge."""
    t = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 4))
        i = draw(st.integers(0, max(0, len(t) - 1)))
        if kind == 0:
            t = t[:i] + draw(st.sampled_from(TRICKY)) + t[i + 1:]
        elif kind == 1:
            t = t[:i] + draw(st.sampled_from(HUGE)) + t[i:]
        elif kind == 2:
            t = t[:i] + t[i + 1:]
        elif kind == 3:
            t = t[:i] + draw(st.text(max_size=4)) + t[i:]
        else:
            t = t[:i]
    return t


def texts_for(valid: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(mutated(valid), st.text(max_size=80), st.sampled_from(valid))


def _clean(fn, text):
    """Call ``fn(text)``; a GameSuiteError is a clean refusal, anything else fails the test."""
    try:
        return fn(text)
    except GameSuiteError:
        return None


# -- every game's position and move text -------------------------------------------------------

@pytest.mark.parametrize("spec", SPECS)
def test_position_text_is_read_or_refused_cleanly(spec):
    game = load_game(spec)
    valid = _valid_texts(spec)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(texts_for(valid))
    def check(text):
        s = _clean(game.state_from_text, text)
        if s is not None:  # what was accepted is a position: it has moves or a result, and text
            s.legal_moves()
            s.to_text()

    check()


@pytest.mark.parametrize("spec", SPECS)
def test_move_text_is_read_or_refused_cleanly(spec):
    game = load_game(spec)
    state = game.new_state()
    if state.is_chance_node():
        state.play(state.chance_outcomes()[0][0])
    moves = [state.format_move(m) for m in state.legal_moves()] or ["a1"]

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(texts_for(moves))
    def check(text):
        m = _clean(state.parse_move, text)
        if m is not None:
            assert isinstance(m, int)

    check()


@pytest.mark.parametrize("sfen", [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN² b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - " + "1" * 5000,
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b " + "9" * 5000 + "P 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - ١",
    "lnsgkgsnl/1r5b1/ppppppppp/٩/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f" + " 3c3d" * 3,
    "position startpos moves ７g7f",
])
def test_the_reviews_sfen_examples_are_refused_cleanly(sfen):
    game = load_game("shogi")
    try:
        game.state_from_text(sfen)
    except GameSuiteError:
        pass


# -- record formats ------------------------------------------------------------------------------

def _shogi_records() -> tuple[list[str], list[str]]:
    from gamesuite.games.shogi.records import record_from_state, write_csa, write_kif

    game = load_game("shogi")
    kifs, csas = [], []
    rng = random.Random(5)
    for n in (0, 6, 25):
        s = game.new_state()
        for _ in range(n):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        rec = record_from_state(s, {"event": "fuzz"})
        kifs.append(write_kif(rec))
        csas.append(write_csa(rec))
    return kifs, csas


KIFS, CSAS = _shogi_records()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(KIFS))
def test_kif_is_read_or_refused_cleanly(text):
    from gamesuite.games.shogi.records import read_kif

    _clean(read_kif, text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(CSAS))
def test_csa_is_read_or_refused_cleanly(text):
    from gamesuite.games.shogi.records import read_csa

    _clean(read_csa, text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=400))
def test_record_bytes_are_read_or_refused_cleanly(data):
    from gamesuite.games.shogi.records import read_record

    _clean(read_record, data)


def test_a_record_never_opens_a_path_written_inside_it(tmp_path):
    """KIF/CSA import reads the text it is given: a file whose text is another file's path is a bad
    record, and the error does not quote that other file."""
    from gamesuite.gui.formats import formats_for, read_game

    secret = tmp_path / "secret.kif"
    secret.write_text("SECRET-FIRST-LINE\n", encoding="utf-8")
    for fmt in formats_for("shogi"):
        with pytest.raises(InvalidRecordError) as e:
            read_game(fmt, str(secret))
        assert "SECRET" not in str(e.value)


def _gomoku_records() -> tuple[list[str], list[str]]:
    from gamesuite.games.gomoku.records import save_record

    game = load_game("gomoku(size=15)")
    rng = random.Random(2)
    recs, psqs = [], []
    for n in (1, 9, 30):
        s = game.new_state()
        for _ in range(n):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        recs.append(save_record(s))
        psq = ["Piskvorky 15x15, 11:11, 0"] + [f"{m % 15 + 1},{m // 15 + 1},0" for m in s.history] + ["-1"]
        psqs.append("\n".join(psq) + "\n")
    return recs, psqs


GOMOKU_RECORDS, PSQS = _gomoku_records()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(GOMOKU_RECORDS))
def test_gomoku_records_are_read_or_refused_cleanly(text):
    from gamesuite.games.gomoku.records import load_record

    _clean(load_record, text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(PSQS))
def test_psq_is_read_or_refused_cleanly(text):
    from gamesuite.games.gomoku.records import load_psq

    _clean(load_psq, text)


# -- the arena's texts -------------------------------------------------------------------------

@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(["usi:/bin/engine,USI_Hash=256,label=x", "ours:mtdf,top=10", "gomocup:/x/pbrain,MAX_NODE=100",
                  "mcts,seed=3", "py:tests.fakes.engines:Scripted,mode=crash"]))
def test_engine_specs_are_read_or_refused_cleanly(text):
    from gamesuite.arena.spec import parse_engine_spec

    _clean(lambda t: parse_engine_spec(t, "gomoku"), text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(["0,5", "-1.5,3.5,0.05,0.05", "0,10,0.1,0.2"]))
def test_sprt_bounds_are_read_or_refused_cleanly(text):
    from gamesuite.arena.stats import Sprt

    _clean(Sprt.parse, text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(["startpos", "startpos moves 7g7f 3c3d", "h8 h9 i8", "60+0.5"]))
def test_openings_and_clocks_are_read_or_refused_cleanly(text):
    from gamesuite.arena.openings import parse_opening
    from gamesuite.core.limits import Limits

    _clean(parse_opening, text)
    _clean(Limits.parse_clock, text)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts_for(["tictactoe", "gomoku(size=15,rule=renju)", "hare(players=3)", "shogi(variant=mini)",
                  "tictactoe(m=4,n=4,k=3)"]))
def test_game_specs_are_read_or_refused_cleanly(text):
    _clean(load_game, text)
