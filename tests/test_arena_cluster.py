"""The Dask executor against a real local cluster (skipped without the ``cluster`` extra)."""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from gamesuite.arena.cluster import DaskExecutor  # noqa: E402
from gamesuite.arena.game import MatchLimits  # noqa: E402
from gamesuite.arena.match import Tally, run_games, schedule  # noqa: E402
from gamesuite.arena.openings import builtin_openings  # noqa: E402
from gamesuite.arena.spec import parse_engine_spec  # noqa: E402
from gamesuite.cli import main  # noqa: E402
from gamesuite.core.errors import InvalidOptionError  # noqa: E402
from gamesuite.core.registry import load_game  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None, silence_logs=40) as c:
        yield c


def test_a_small_match_on_a_local_dask_cluster(cluster):
    game = load_game("tictactoe")
    specs = [parse_engine_spec("solver"), parse_engine_spec("reference")]
    tasks = schedule(game, specs, 6, builtin_openings(game, 3, seed=4), MatchLimits(depth=9))
    ex = DaskExecutor(cluster.scheduler_address)
    try:
        assert ex.threads() == 2
        recs = run_games(tasks, ex)
    finally:
        ex.close()
    assert sorted(r.round for r in recs) == [1, 2, 3, 4, 5, 6]
    assert not any(r.error for r in recs)
    # perfect players from balanced 3x3 openings: every game a draw, whoever has which colour
    assert Tally(["solver", "reference"]).add_all(recs).total(0) == [0, 6, 0]


def test_match_command_with_cluster_and_sprt_stop(cluster, capsys):
    status = main(["match", "tictactoe", "--engine", "solver",
                   "--engine", "py:tests.fakes.engines:Scripted,label=first",
                   "--games", "60", "--depth", "9", "--seed", "1", "--sprt", "0,100", "--quiet",
                   "--cluster", cluster.scheduler_address])
    out = capsys.readouterr().out
    assert status == 0
    assert "H1 accepted" in out and "stopped after" in out


def test_unreachable_scheduler_is_a_clear_error():
    with pytest.raises(InvalidOptionError, match="cannot reach the Dask scheduler"):
        DaskExecutor("tcp://127.0.0.1:9", connect_timeout_s=1)


def test_a_ladder_on_the_cluster(cluster):
    from gamesuite.arena.ladder import Ladder, run_ladder

    lad = Ladder(load_game("tictactoe"), parse_engine_spec("solver"), parse_engine_spec("reference,label=ref"),
                 [2, 200], 4, MatchLimits(depth=9), seed=5, cluster=cluster.scheduler_address)
    out = run_ladder(lad)
    assert [r["games"] for r in out.rows] == [4, 4] and not out.outcome.tally.errors
    assert {tuple(r.limits) for r in out.outcome.records} >= {("depth 9", "nodes 2"), ("nodes 200", "depth 9")}


def test_spsa_batches_on_the_cluster(cluster):
    from gamesuite.arena.spsa import Spsa, parse_param, run_spsa
    from gamesuite.core.registry import _GAMES, register_game

    from .fakes.duel import Duel

    register_game(Duel)  # the cluster's workers are threads of this process: they see it too
    try:
        s = Spsa(load_game("duel"), parse_engine_spec("py:tests.fakes.duel:Noisy,@depth=1"),
                 [parse_param("x,2.0,0.0,20.0,1.0,0.05")], pairs=40, seed=1, cluster=cluster.scheduler_address)
        state = run_spsa(s)
    finally:
        _GAMES.pop(Duel.name, None)
    assert s.batch == 1 and state["k"] == 40  # two worker threads: one pair a batch
    assert all(sum(h["result"]) == 2 and h["errors"] == 0 for h in state["history"])
    assert state["theta"]["x"] > 4  # well on its way from 2 to 7
