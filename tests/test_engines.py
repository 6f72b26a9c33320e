"""The engine contract, checked over every registered game x engine (OpenSpiel's ``games_sim_test`` idea).

Every engine ``make_engine`` builds is a ``core.Engine`` and, from a position a few
random moves into the game:

- returns a legal move when its stop flag is already set (and does not hang);
- ends by itself under a depth, a node or a movetime limit alone;
- chooses only among ``Limits.searchmoves`` (the answer and every reported line);
- gives ``multipv`` lines with distinct first moves, numbered 1..k in order;
- reports in order: one search id, time and nodes never going back, line numbers
  within ``multipv``;
- leaves the state it was given unchanged.

An engine joins by being registered; exclusions are listed below with a reason.
"""

from __future__ import annotations

import random
import threading

import pytest

from gamesuite.core import Engine, Limits, engines_for, load_game, make_engine, new_stop_flag

#: One spec per game family, small where the game has a size (the contract does not depend on it).
SPECS = ["tictactoe", "tictactoe(m=4,n=4,k=3)", "gomoku(size=9)", "shogi(variant=mini)", "shogi", "hare",
         "hare(players=3)"]

#: Engines too slow for a spec at contract-sized limits, with the reason.
EXCLUDED: dict[tuple[str, str], str] = {
    ("shogi", "reference"): "plain-Python alpha-beta over 9x9 shogi: minutes for the checks below",
}

#: How long a search may run before the suite calls it a hang (a guard, not a speed check: the first
#: search of an engine may compile its kernels on a loaded machine).
HANG_S = 600.0
#: The node limit of the checks; plain-Python tree searches with random playouts of long games get fewer.
NODES = 300
FEWER_NODES = {("shogi", "mcts"): 40, ("shogi", "puct"): 40, ("shogi(variant=mini)", "mcts"): 60,
               ("shogi(variant=mini)", "puct"): 60, ("hare", "puct"): 30, ("hare(players=3)", "puct"): 30}


def _nodes(spec: str, name: str) -> int:
    return FEWER_NODES.get((spec, name), NODES)


def _cases() -> list[tuple[str, str]]:
    out = []
    for spec in SPECS:
        for entry in engines_for(load_game(spec)):
            if (spec, entry.name) not in EXCLUDED:
                out.append((spec, entry.name))
    return out


CASES = _cases()

#: Engines that break a clause of the contract today, with the reason; the suite expects them to fail
#: (strictly: a fix must remove the entry).
BROKEN: dict[tuple[str, str], str] = {}


def _params(check: str) -> list:
    out = []
    for spec, name in CASES:
        why = BROKEN.get((check, spec, name))
        marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
        out.append(pytest.param(spec, name, marks=marks, id=f"{spec}-{name}"))
    return out


def _position(game, plies: int = 4):
    """A decision position ``plies`` random moves (and cards) into the game, with at least 3 legal moves."""
    for seed in range(7, 100):
        s = _random_position(game, random.Random(seed), plies)
        if not s.is_terminal() and len(s.legal_moves()) >= 3:
            return s
    raise AssertionError(f"no position with 3 legal moves {plies} plies into {game.spec}")


def _random_position(game, rng: random.Random, plies: int):
    s = game.new_state()
    played = 0
    while played < plies:
        if s.is_chance_node():
            s.play(rng.choice([m for m, _ in s.chance_outcomes()]))
            continue
        moves = s.legal_moves()
        if s.is_terminal() or len(moves) < 3:
            break
        s.play(rng.choice(moves))
        played += 1
    while s.is_chance_node():
        s.play(rng.choice([m for m, _ in s.chance_outcomes()]))
    return s


def _snapshot(state):
    return state.to_text(), state.key, list(state.history), state.current_player


def _search(engine, state, limits: Limits, stop=None):
    """Search in a thread with a hang guard; returns (result, infos) and checks the state is unchanged."""
    before = _snapshot(state)
    infos: list = []
    box: dict = {}

    def work() -> None:
        try:
            box["result"] = engine.search(state, limits, stop, infos.append)
        except BaseException as e:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = e

    t = threading.Thread(target=work, daemon=True)
    t.start()
    t.join(HANG_S)
    if t.is_alive():
        pytest.fail(f"{engine.name}: search under {limits} did not end within {HANG_S:.0f} s")
    if "error" in box:
        raise box["error"]
    assert _snapshot(state) == before, "the search changed the state it was given"
    return box["result"], infos


def _check_reports(infos, multipv: int = 1) -> None:
    """One search id; time and nodes never go back; line numbers within ``multipv``."""
    if not infos:
        return
    assert len({i.search_id for i in infos}) == 1, "reports of one search carry one search id"
    for a, b in zip(infos, infos[1:]):
        assert b.time_ms >= a.time_ms, f"time went back: {a} then {b}"
        assert b.nodes >= a.nodes, f"nodes went back: {a} then {b}"
    assert all(1 <= i.multipv <= multipv for i in infos)


def _check_lines(result, legal, multipv: int) -> None:
    lines = result.lines
    assert [ln.multipv for ln in lines] == list(range(1, len(lines) + 1)), "lines are numbered 1..k in order"
    firsts = [ln.pv[0] for ln in lines if ln.pv]
    assert len(firsts) == len(lines), "every line has a move"
    assert len(set(firsts)) == len(firsts), f"lines start with distinct moves, got {firsts}"
    assert all(m in legal for m in firsts)
    if lines:
        assert lines[0].pv[0] == result.best_move or multipv == 1, "line 1 starts with the answer"


@pytest.fixture(scope="module")
def games():
    return {spec: load_game(spec) for spec in SPECS}


def _engine(games, spec: str, name: str):
    engine = make_engine(games[spec], name)
    assert isinstance(engine, Engine), f"{name} for {spec} is not a core.Engine"
    engine.new_game()
    return engine


@pytest.mark.parametrize("spec,name", CASES)
def test_preset_stop(games, spec, name):
    engine = _engine(games, spec, name)
    state = _position(games[spec])
    stop = new_stop_flag()
    stop[0] = 1
    result, infos = _search(engine, state, Limits(infinite=True), stop)
    assert result.best_move in state.legal_moves()
    assert stop[0] == 1, "the caller's flag is the caller's: the engine never clears it"
    _check_reports(infos)


@pytest.mark.parametrize("limit", ["depth", "nodes", "movetime"])
@pytest.mark.parametrize("spec,name", CASES)
def test_limits(games, spec, name, limit):
    engine = _engine(games, spec, name)
    state = _position(games[spec])
    limits = {"depth": Limits(depth=2), "nodes": Limits(nodes=_nodes(spec, name)),
              "movetime": Limits(movetime=50)}[limit]
    result, infos = _search(engine, state, limits)
    assert result.best_move in state.legal_moves()
    assert result.pv and result.pv[0] == result.best_move
    _check_reports(infos)
    _check_lines(result, state.legal_moves(), 1)


@pytest.mark.parametrize("spec,name", _params("searchmoves"))
def test_searchmoves(games, spec, name):
    engine = _engine(games, spec, name)
    state = _position(games[spec])
    legal = state.legal_moves()
    # two moves the engine does not like: outside the first lines of an unrestricted search
    free, _ = _search(engine, state, Limits(nodes=_nodes(spec, name), multipv=3))
    liked = {ln.pv[0] for ln in free.lines} | {free.best_move}
    others = [m for m in legal if m not in liked] or [m for m in legal if m != free.best_move]
    # the highest-numbered of them: an engine that ignores searchmoves ranks equal visits by the lower move
    allowed = tuple(sorted(others)[-2:] if len(others) >= 2 else [*others, free.best_move])
    engine.new_game()
    result, infos = _search(engine, state, Limits(nodes=_nodes(spec, name), multipv=2, searchmoves=allowed))
    shown = [state.format_move(m) for m in allowed]
    assert result.best_move in allowed, f"searchmoves {shown}: answered {state.format_move(result.best_move)}"
    assert result.pv[0] == result.best_move
    assert all(i.pv[0] in allowed for i in infos if i.pv), f"a reported line starts outside searchmoves {shown}"
    assert sorted(ln.pv[0] for ln in result.lines) == sorted(allowed), f"lines {result.lines} for {shown}"
    _check_reports(infos, 2)
    # the tree (or table) kept from a restricted search does not restrict the next one
    again, _ = _search(engine, state, Limits(nodes=_nodes(spec, name), multipv=3))
    assert len({ln.pv[0] for ln in again.lines}) == 3


@pytest.mark.parametrize("spec,name", _params("multipv"))
def test_multipv(games, spec, name):
    engine = _engine(games, spec, name)
    state = _position(games[spec])
    legal = state.legal_moves()
    result, infos = _search(engine, state, Limits(nodes=_nodes(spec, name), multipv=3))
    assert result.best_move in legal
    assert len(result.lines) == 3, f"asked for 3 lines of {len(legal)} moves, got {len(result.lines)}"
    _check_lines(result, legal, 3)
    _check_reports(infos, 3)
    # more lines than moves: one per legal move
    few = Limits(nodes=_nodes(spec, name), multipv=len(legal) + 2, searchmoves=tuple(legal[:2]))
    result, infos = _search(engine, state, few)
    assert sorted(ln.pv[0] for ln in result.lines) == legal[:2]
    _check_reports(infos, len(legal) + 2)
