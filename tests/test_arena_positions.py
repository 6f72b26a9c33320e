"""Training positions from saved arena records."""

from __future__ import annotations

import pytest

from gamesuite.arena.game import MatchLimits
from gamesuite.arena.match import run_games, schedule
from gamesuite.arena.openings import Opening, builtin_openings
from gamesuite.arena.positions import main, positions, record_files
from gamesuite.arena.record import save_record
from gamesuite.arena.spec import parse_engine_spec
from gamesuite.core.errors import InvalidRecordError
from gamesuite.core.registry import _GAMES, load_game, register_game

from .fakes.dice import DiceRace
from .test_arena import SCRIPTED


def _play(tmp_path, game_spec, specs, games, openings, tc=MatchLimits(depth=2)):
    game = load_game(game_spec)
    recs = run_games(schedule(game, [parse_engine_spec(s, game.name) for s in specs], games, openings, tc, seed=1))
    for r in recs:
        save_record(r, tmp_path)
    return recs


def test_every_played_position_with_the_result_for_the_side_to_move(tmp_path):
    game = load_game("tictactoe(m=4,n=4,k=3)")
    recs = _play(tmp_path, game.spec, ["solver", SCRIPTED + ",mode=random,seed=3"], 6,
                 builtin_openings(game, 3, seed=2))
    got = list(positions(tmp_path))
    assert len(got) == sum(r.plies for r in recs)  # every ply after the opening, none of the final positions
    for p in got:
        s = game.state_from_text(p.text)
        assert s.current_player == p.to_move and not s.is_terminal()
        assert p.ply >= 2 and p.game == game.spec and p.source.endswith(".json")
    by_file = {}
    for p in got:
        by_file.setdefault(p.source, []).append(p)
    for r in recs:
        ps = by_file[str(tmp_path / r.filename)]
        assert [p.ply for p in ps] == list(range(r.opening_plies, r.opening_plies + r.plies))
        for p in ps:
            assert p.returns == tuple(r.returns) and p.result == r.returns[p.to_move]
    # the opening's positions on request; every other ply; each position once
    assert len(list(positions(tmp_path, skip_opening=False))) == sum(r.plies + r.opening_plies for r in recs)
    assert all(p.ply % 2 == 0 for p in positions(tmp_path, every=2))
    once = list(positions(tmp_path, skip_opening=False, dedupe=True))
    keys = [(game.state_from_text(p.text).key, p.returns) for p in once]
    assert len(set(keys)) == len(keys)
    assert len(once) < len(list(positions(tmp_path, skip_opening=False)))  # the empty board starts all six


def test_adjudicated_games_are_left_out_unless_asked(tmp_path):
    recs = _play(tmp_path, "tictactoe", ["solver", SCRIPTED + ",mode=crash,at=2"], 2, [Opening()])
    assert all(r.adjudication["kind"] == "crash" for r in recs)
    assert list(positions(tmp_path)) == []
    assert len(list(positions(tmp_path, adjudicated=True))) == sum(r.plies for r in recs) > 0


def test_chance_nodes_are_skipped(tmp_path):
    register_game(DiceRace)
    try:
        recs = _play(tmp_path, "dicerace(players=2,goal=6)", [SCRIPTED + ",mode=random", SCRIPTED], 2, [Opening()])
        got = list(positions(tmp_path))
        assert got and all(p.to_move >= 0 for p in got)
        assert len(got) == sum(sum(1 for m in r.moves if not m.startswith("r")) for r in recs)
    finally:
        _GAMES.pop(DiceRace.name, None)


def test_sources_and_errors(tmp_path, capsys):
    _play(tmp_path, "tictactoe", ["solver", "solver"], 2, builtin_openings(load_game("tictactoe"), 1, seed=1))
    files = record_files(tmp_path)
    assert len(files) == 2 and record_files([files[0], files[1]]) == files
    with pytest.raises(InvalidRecordError, match="no game records"):
        record_files(tmp_path / "nothing")
    assert main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(list(positions(tmp_path)))
    text, to_move, result, ply, source = lines[0].split("\t")
    assert load_game("tictactoe").state_from_text(text).current_player == int(to_move) and result == "0"
    files[0].write_text("{broken")
    assert main([str(tmp_path)]) == 2 and "not a JSON game record" in capsys.readouterr().err
