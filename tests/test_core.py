"""The core types: scores, limits, the registry and its errors."""

import pytest

from gamesuite.core import (
    WIN,
    InvalidGameSpecError,
    InvalidOptionError,
    Limits,
    Score,
    game_classes,
    load_game,
    make_engine,
)


def test_score_from_int_mate_and_eval():
    assert Score.from_int(WIN - 3, pov=0) == Score.mate(3, 0)
    assert Score.from_int(-(WIN - 4), pov=1) == Score.mate(-4, 1)
    assert Score.from_int(0, pov=0, exact=True).kind == "draw"
    assert Score.from_int(0, pov=0).kind == "eval"
    assert Score.from_int(125, pov=0).text() == "+1.25"


def test_score_text_and_flip():
    assert Score.mate(1, 0).text() == "win in 1"
    assert Score.mate(3, 0).text() == "win in 2"
    assert Score.mate(-2, 0).text() == "loss in 1"
    assert Score.mate(3, 0).flipped() == Score.mate(-3, 1)
    assert Score.winrate(0.25, 0).flipped().value == pytest.approx(0.75)
    assert Score.eval(50, 0).for_player(1).value == -50
    assert Score.vector([1, 0.5, 0]).text() == "(1.00, 0.50, 0.00)"


def test_score_sort_key_orders_wins_above_evals():
    ordered = [Score.mate(-2, 0), Score.mate(-6, 0), Score.eval(-300, 0), Score.draw(0), Score.eval(300, 0),
               Score.mate(7, 0), Score.mate(1, 0)]
    keys = [s.sort_key() for s in ordered]
    assert keys == sorted(keys)


def test_limits_validation():
    with pytest.raises(InvalidOptionError, match="-3"):
        Limits(depth=-3)
    with pytest.raises(InvalidOptionError):
        Limits(multipv=0)
    assert Limits().is_unlimited
    assert not Limits(depth=3).is_unlimited
    c = Limits.parse_clock("60+0.5")
    assert c.time_left == (60000, 60000) and c.increment == (500, 500)
    with pytest.raises(InvalidOptionError, match="'abc'"):
        Limits.parse_clock("abc")


def test_registry_knows_tictactoe():
    assert "tictactoe" in game_classes()
    g = load_game("tictactoe(m=4, n=4, k=3)")
    assert g.spec == "tictactoe(m=4,n=4,k=3)"
    assert load_game(g.spec) == g


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("nosuchgame", "'nosuchgame'"),
        ("tictactoe(m=2)", "'2'"),
        ("tictactoe(q=1)", "'q'"),
        ("tictactoe(m=x)", "'x'"),
        ("tictactoe(m)", "'m'"),
        ("tic tac toe", "'tic tac toe'"),
        ("tictactoe(m=3,n=3,k=5)", "k=5"),
    ],
)
def test_bad_game_specs_quote_the_input(spec, fragment):
    with pytest.raises(InvalidGameSpecError) as e:
        load_game(spec)
    assert fragment in str(e.value)


def test_make_engine_errors():
    g = load_game("tictactoe")
    with pytest.raises(InvalidOptionError, match="'nosuch'"):
        make_engine(g, "nosuch")
    with pytest.raises(InvalidOptionError, match="'colour'"):
        make_engine(g, "solver,colour=red")
    assert make_engine(g, "solver,hash=1").name == "solver"


def test_engine_errors_are_one_family():
    import pickle

    from gamesuite.core import EngineError, EngineFailure, GameSuiteError, ProtocolError
    from gamesuite.protocols import gomocup
    from gamesuite.protocols import json as json_protocol

    assert issubclass(ProtocolError, EngineError) and issubclass(EngineFailure, EngineError)
    assert issubclass(EngineError, GameSuiteError)
    assert gomocup.ProtocolError is ProtocolError and json_protocol.ProtocolError is ProtocolError
    e = pickle.loads(pickle.dumps(EngineFailure("hang", "no move after 5 s")))
    assert (e.kind, e.detail, str(e)) == ("hang", "no move after 5 s", "hang: no move after 5 s")
    with pytest.raises(ValueError, match="unknown failure kind 'sulk'"):
        EngineFailure("sulk", "x")


def test_legal_line_reads_a_reported_line_up_to_its_first_bad_move():
    from gamesuite.core.state import legal_line

    s = load_game("tictactoe").new_state()
    a, b, c = (s.format_move(m) for m in s.legal_moves()[:3])
    before = s.to_text()
    assert legal_line(s, [a, b, c]) == [s.parse_move(w) for w in (a, b, c)]
    assert legal_line(s, [a, a, b]) == [s.parse_move(a)]  # the second a is taken: the line stops there
    assert legal_line(s, [a, "zz9", b]) == [s.parse_move(a)]  # a word that is no move stops it too
    assert legal_line(s, [b], parse=lambda st, w: st.parse_move(a)) == [s.parse_move(a)]
    assert s.to_text() == before
