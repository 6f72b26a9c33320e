"""Hare and Hedgehog studies: the shipped set, its checker, and the engine's move in each."""

import re

import pytest

from gamesuite.core import InvalidPositionError, Limits, load_game, make_engine
from gamesuite.games.hare.studies import check_study, finish_chances, load_studies, parse_studies

STUDIES = load_studies()
BY_NAME = {s.name: s for s in STUDIES}


def test_the_shipped_set_covers_two_to_six_players_traps_and_finishes():
    assert len(STUDIES) >= 40
    assert {s.players for s in STUDIES} == {2, 3, 4, 5, 6}
    tags = {t for s in STUDIES for t in s.tags}
    assert {"finish", "trap", "lettuce", "position-square", "carrots", "two-pieces"} <= tags
    for s in STUDIES:
        assert s.why and s.turns >= 1 and s.best
        assert set(s.best) <= set(s.state.legal_moves()) and set(s.avoid) <= set(s.state.legal_moves())


def _racing(state):
    return sum(1 for p in state.place if not p)


# cheap claims are re-checked on every run; all of them with -m slow
QUICK = [s.name for s in STUDIES if s.turns <= 2 and _racing(s.state) <= 2][:20]


@pytest.mark.parametrize("name", QUICK)
def test_quick_study_claims_hold(name):
    assert check_study(BY_NAME[name]) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", [s.name for s in STUDIES])
def test_every_study_claim_holds(name):
    assert check_study(BY_NAME[name]) == []


@pytest.mark.parametrize("name", [s.name for s in STUDIES])
def test_a_paranoid_search_to_the_horizon_solves_every_study(name):
    # the studies' criterion (finish soonest whatever the others do) is what paranoid search with the
    # finishing values computes, once it sees one ply past the last own move of the horizon ("move again"
    # cards take a ply)
    st = BY_NAME[name]
    depth = (st.turns - 1) * _racing(st.state) + 2
    r = make_engine(st.state.game, "maxn,algorithm=paranoid,widths=0").search(st.state, Limits(depth=depth))
    assert st.solved_by(r.best_move), (st.state.format_move(r.best_move), [st.state.format_move(m) for m in st.best])


@pytest.mark.parametrize("name", [s.name for s in STUDIES])
def test_the_default_engine_solves_every_study_at_its_horizon(name):
    st = BY_NAME[name]
    depth = (st.turns - 1) * _racing(st.state) + 2
    r = make_engine(st.state.game).search(st.state, Limits(depth=depth))
    assert st.solved_by(r.best_move), (st.state.format_move(r.best_move), [st.state.format_move(m) for m in st.best])


def test_the_engine_avoids_the_hare_trap():
    st = BY_NAME["hare-trap-58"]
    s = st.state
    assert s.parse_move("4") in st.avoid  # the hare square on 62
    for spec in ("maxn", "maxn,chance=worst", "writeup", "maxn,algorithm=paranoid"):
        r = make_engine(s.game, spec).search(s, Limits(depth=3))
        assert r.best_move in st.best, (spec, s.format_move(r.best_move))
        r = make_engine(s.game, spec).search(s, Limits(nodes=20000))
        assert r.best_move in st.best, (spec, s.format_move(r.best_move))


def test_finish_chances_by_hand():
    g = load_game("hare(players=2,pieces=1)")
    s = g.state_from_text("58:20:0/30:40:1 1 deck=s")
    c = finish_chances(s, 2)
    assert c[s.parse_move("5")] == pytest.approx(1.0)  # 63 with 5 carrots, 1 square home
    assert c[s.parse_move("2")] == 0.0  # 60 pays the leader 10: 27, too many
    # 62 is a hare square with 10 carrots left, 3 needed: of the 14 cards left only halve x2 (5), show and
    # shuffle (11) keep the finish; give10 pays player 2 behind, set65 and freeride leave too many, and
    # missoragain (more behind than ahead) and lettuce10 (none held) cost the turn
    assert c[s.parse_move("4")] == pytest.approx(4 / 14)
    assert finish_chances(s, 1) == {m: 0.0 for m in s.legal_moves()}
    with pytest.raises(ValueError):
        finish_chances(s, 2, others="maybe")


def test_parse_studies_reports_bad_input_with_its_place():
    good = '[[study]]\nname = "a"\ngame = "hare(players=2,pieces=1)"\nposition = "59:22:0/58:65:2 1 deck=-"\n' \
           'best = ["5"]\nturns = 1\nwhy = "finish"\n'
    assert parse_studies(good)[0].best == (5,)
    for bad, words in [
        ("[[study]\n", "not valid TOML"),
        ('[[study]]\nname = "a"\n', "needs name, game, position and best"),
        (good.replace('best = ["5"]', 'best = ["7"]'), "is not legal"),
        (good.replace('best = ["5"]', 'best = ["x"]'), "best"),
        (good.replace('"hare(players=2,pieces=1)"', '"hare(players=9)"'), "study"),
        (good + good, "used twice"),
        (good.replace("turns = 1", "turns = 99"), "turns"),
        (good.replace('best = ["5"]', 'best = ["5"]\navoid = ["5"]'), "none of avoid"),
        ("", "no [[study]]"),
    ]:
        with pytest.raises(InvalidPositionError, match=re.escape(words)):
            parse_studies(bad)


def test_check_study_catches_a_wrong_answer():
    text = '[[study]]\nname = "wrong"\ngame = "hare(players=2,pieces=1)"\nposition = "58:20:0/30:40:1 1 deck=s"\n' \
           'best = ["4"]\navoid = ["5"]\nturns = 2\n'
    problems = check_study(parse_studies(text)[0])
    assert any("best 4" in p for p in problems) and any("avoid 5" in p for p in problems)
