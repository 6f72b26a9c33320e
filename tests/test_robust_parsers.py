"""Every parser accepts what its format defines or refuses it cleanly (issue 21, items 2, 6 and 8).

Property tests over every registered game's position text and move text, shogi KIF and
CSA, gomoku records and ``.psq``, the arena's engine specs, openings and SPRT bounds: for
any input the parser returns a value or raises the program's own error (a
``GameSuiteError``), never another exception. Inputs are random text, mutations of valid
inputs (a character replaced by a non-ASCII digit, a number made huge, a part cut off) and
the review's examples.

Every format is in ``FORMATS``: the normal run tries ``FUZZ_EXAMPLES`` inputs each (60 by
default, to keep the suite quick); ``pytest -m slow -s tests/test_robust_parsers.py`` tries
2,000 each and prints how many were accepted and how many refused.
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


def _position_reader(spec: str):
    game = load_game(spec)

    def read(text: str):
        s = game.state_from_text(text)
        s.legal_moves()  # what was accepted is a position: it has moves or a result, and text
        s.to_text()
        return s
    return read


def _move_reader(spec: str):
    game = load_game(spec)
    state = game.new_state()
    if state.is_chance_node():
        state.play(state.chance_outcomes()[0][0])

    def read(text: str):
        m = state.parse_move(text)
        assert isinstance(m, int)
        return m
    return read, [state.format_move(m) for m in state.legal_moves()] or ["a1"]


# -- the formats: (name, strategy of inputs, reader) -----------------------------------------------

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


def _game_record_texts() -> list[str]:
    from gamesuite.core.score import Score
    from gamesuite.gui.record import GameRecord

    out = []
    for spec in ("tictactoe", "hare(players=3)"):
        game = load_game(spec)
        rec = GameRecord(game)
        s, node = game.new_state(), rec.root
        rng = random.Random(1)
        for _ in range(4):
            if s.is_terminal():
                break
            m = rng.choice([o for o, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_moves())
            node = rec.add_move(node, m)
            node.score = Score.eval(10, 0) if game.num_players == 2 else Score.vector([1.0] * game.num_players)
            s.play(m)
        out.append(rec.dumps(node))
    return out


def _formats() -> dict[str, tuple[st.SearchStrategy, object]]:
    from gamesuite.arena.openings import parse_opening
    from gamesuite.arena.spec import parse_engine_spec
    from gamesuite.arena.stats import Sprt
    from gamesuite.core.files import parse_json_text
    from gamesuite.core.limits import Limits
    from gamesuite.games.gomoku.records import load_psq, load_record
    from gamesuite.games.shogi.records import read_csa, read_kif, read_record
    from gamesuite.gui.record import GameRecord

    kifs, csas = _shogi_records()
    recs, psqs = _gomoku_records()
    out: dict[str, tuple[st.SearchStrategy, object]] = {}
    for spec in SPECS:
        out[f"position {spec}"] = (texts_for(_valid_texts(spec)), _position_reader(spec))
        read, moves = _move_reader(spec)
        out[f"move {spec}"] = (texts_for(moves), read)
    from gamesuite.games.shogi.notation import japanese, parse_japanese, parse_western, western

    sg = load_game("shogi")
    s0 = sg.state_from_text("startpos moves 7g7f 3c3d 8h2b+")
    out["shogi Japanese move"] = (texts_for([japanese(s0, m) for m in s0.legal_moves()[:30]] + ["同銀", "７六歩"]),
                                  lambda t: parse_japanese(s0, t))
    out["shogi western move"] = (texts_for([western(s0, m) for m in s0.legal_moves()[:30]]),
                                 lambda t: parse_western(s0, t))
    out["KIF"] = (texts_for(kifs), read_kif)
    out["CSA"] = (texts_for(csas), read_csa)
    encoded = texts_for(kifs + csas).map(lambda t: t.encode("cp932", "replace"))
    out["KIF/CSA bytes"] = (st.binary(max_size=400) | encoded, read_record)
    out["gomoku record"] = (texts_for(recs), load_record)
    out["psq"] = (texts_for(psqs), load_psq)
    out["game file (JSON)"] = (texts_for(_game_record_texts()), GameRecord.loads)
    out["JSON text"] = (texts_for(['{"cmd": "think", "depth": 3, "id": [1, {"a": null}]}', "[[[]]]", "1e5"]),
                        parse_json_text)
    out["engine spec (arena)"] = (texts_for(["usi:/bin/engine,USI_Hash=256,label=x", "ours:mtdf,top=10",
                                              "gomocup:/x/pbrain,MAX_NODE=100", "mcts,seed=3@nodes=100",
                                              "py:tests.fakes.engines:Scripted,mode=crash"]),
                                  lambda t: parse_engine_spec(t, "gomoku"))
    out["SPRT bounds"] = (texts_for(["0,5", "-1.5,3.5,0.05,0.05", "0,10,0.1,0.2"]), Sprt.parse)
    out["opening"] = (texts_for(["startpos", "startpos moves 7g7f 3c3d", "h8 h9 i8"]), parse_opening)
    out["clock"] = (texts_for(["60+0.5", "1+0", "0.5"]), Limits.parse_clock)
    out["game spec"] = (texts_for(["tictactoe", "gomoku(size=15,rule=renju)", "hare(players=3)",
                                   "shogi(variant=mini)", "tictactoe(m=4,n=4,k=3)"]), load_game)
    return out


FORMATS = _formats()


def _run_format(name: str, examples: int) -> tuple[int, int]:
    """Feed ``examples`` generated inputs to the format's reader; (accepted, refused cleanly)."""
    strategy, reader = FORMATS[name]
    counts = [0, 0]

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def check(text):
        try:
            reader(text)
            counts[0] += 1
        except GameSuiteError:
            counts[1] += 1

    check()
    return counts[0], counts[1]


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_reads_or_refuses_cleanly(name):
    accepted, refused = _run_format(name, EXAMPLES)
    assert accepted + refused >= min(EXAMPLES, 20)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FORMATS))
def test_2000_inputs_per_format(name):
    accepted, refused = _run_format(name, 2000)
    print(f"{name}: {accepted + refused} inputs, {accepted} accepted, {refused} refused cleanly, 0 other")
    assert accepted + refused >= 2000


@pytest.mark.parametrize("sfen", [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN² b - 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - " + "1" * 5000,
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b " + "9" * 5000 + "P 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - ١",
    "lnsgkgsnl/1r5b1/ppppppppp/٩/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "position startpos moves ７g7f",
])
def test_the_reviews_sfen_examples_are_refused_cleanly(sfen):
    with pytest.raises(GameSuiteError):
        load_game("shogi").state_from_text(sfen)


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


@pytest.mark.parametrize("text", [
    "V2.2\nN+\nN-\n$EVENT:fuzz\nPI0:00\n+\n",  # found by the 2,000-input run: a PI item with a ':' for a digit
    "V2.2\nP+0\u0661KI\n+\n",
    "'\n$\x00:\nPI\x00\x00\x00\x00\n+",
])
def test_csa_items_need_ascii_digits(text):
    from gamesuite.games.shogi.records import read_csa

    with pytest.raises(InvalidRecordError):
        read_csa(text)
