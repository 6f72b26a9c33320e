"""``gamesuite ladder``: steps, the anchor's node option, the table, the fit, and the CLI."""

from __future__ import annotations

import json
import math

import pytest

from gamesuite.arena.game import MatchLimits, _close_external
from gamesuite.arena.ladder import Ladder, ladder_table, parse_steps, run_ladder, step_spec
from gamesuite.arena.record import load_record
from gamesuite.arena.spec import parse_engine_spec
from gamesuite.arena.stats import fit_ladder, score_from_elo
from gamesuite.core.errors import InvalidOptionError
from gamesuite.core.registry import load_game

from .test_arena import SCRIPTED, gomocup, usi

FIRST = SCRIPTED + ",label=first"


@pytest.fixture(autouse=True)
def _no_processes_left():
    yield
    _close_external()


def test_steps_parse_with_suffixes_and_none():
    assert parse_steps("10000, 30k,1.5M,none") == [10000, 30000, 1500000, None]
    assert parse_steps("unlimited") == [None]
    for bad, fragment in (("10,x", "'x' is not a node count"), ("0", "positive"), ("5,5", "twice"),
                          ("1k,1000", "twice"), ("-3", "not a node count")):
        with pytest.raises(InvalidOptionError, match=fragment):
            parse_steps(bad)


def test_the_node_count_goes_to_each_kind_of_anchor_its_own_way():
    sp = step_spec(parse_engine_spec("gomocup:/x/pbrain-rapfi,label=rapfi"), "MAX_NODE", 10000)
    assert sp.options == (("MAX_NODE", "10000"),) and sp.label == "rapfi MAX_NODE=10000" and sp.limits == ()
    sp = step_spec(parse_engine_spec("usi:/x/yane,Threads=1"), "NodesLimit", 300)
    assert sp.options == (("Threads", "1"), ("NodesLimit", "300")) and sp.label == "usi:yane NodesLimit=300"
    sp = step_spec(parse_engine_spec("tictactoe:mcts,label=m"), "@nodes", 64)
    assert sp.target == "mcts" and sp.limits == (("nodes", "64"),) and sp.label == "m @nodes=64"
    sp = step_spec(parse_engine_spec("usi:/x/yane,label=y"), "NodesLimit", None)
    assert sp.options == () and sp.label == "y none"
    with pytest.raises(InvalidOptionError, match="sets MAX_NODE already"):
        step_spec(parse_engine_spec("gomocup:/x/b,MAX_NODE=5"), "MAX_NODE", 10)
    with pytest.raises(InvalidOptionError, match="has @nodes already"):
        step_spec(parse_engine_spec("solver,@nodes=5"), "@nodes", 10)
    with pytest.raises(InvalidOptionError, match="only per-engine limit"):
        step_spec(parse_engine_spec("solver"), "@depth", 10)
    with pytest.raises(InvalidOptionError, match="two-player"):
        Ladder(load_game("hare(players=3)"), parse_engine_spec("maxn"), parse_engine_spec("maxn"), [1], 2,
               MatchLimits(depth=1))


def test_a_gomocup_ladder_plays_each_step_in_turn_with_max_node(tmp_path):
    game = load_game("tictactoe")
    log = tmp_path / "brain.log"
    anchor = parse_engine_spec(gomocup(f"--log {log} --smart-at 1000") + ",label=brain")
    lad = Ladder(game, parse_engine_spec(FIRST), anchor, [10, 10000, None], 8, MatchLimits(depth=3), seed=1,
                 save_dir=tmp_path / "runs")
    out = run_ladder(lad)
    rows = out.rows
    assert [r["step"] for r in rows] == ["MAX_NODE=10", "MAX_NODE=10000", "none"]
    assert all(r["games"] == 8 and r["pairs"] == 4 for r in rows)
    # the fake brain plays "smart" from 1000 nodes up, and with no limit: the weak step is the easy one
    assert rows[0]["score"] > rows[1]["score"] and rows[1]["score"] == rows[2]["score"]
    lines = log.read_text().splitlines()
    # the steps were played one after another, each by a process of its own, closed before the next began
    assert lines.count("#started") == 3 and lines.count("END") == 2
    starts = [i for i, ln in enumerate(lines) if ln == "#started"]
    assert "INFO MAX_NODE 10" in lines[starts[0]:starts[1]] and "INFO MAX_NODE 10000" in lines[starts[1]:starts[2]]
    assert not any("MAX_NODE" in ln for ln in lines[starts[2]:])
    assert sum(1 for ln in lines if ln.startswith("BEGIN") or ln.startswith("TURN") or ln == "DONE") > 0
    # the records name the step; ladder.json has the rows
    recs = [load_record(f)[0] for f in sorted((tmp_path / "runs").glob("game-*.json"))]
    assert len(recs) == 24 and [r.round for r in recs] == list(range(1, 25))
    assert {r.engines[r.engine_index.index(1)] for r in recs if 1 in r.engine_index} == {"brain MAX_NODE=10"}
    summary = json.loads((tmp_path / "runs" / "ladder.json").read_text())
    assert [s["step"] for s in summary["steps"]] == ["MAX_NODE=10", "MAX_NODE=10000", "none"]
    assert summary["steps"][0]["wins"] == rows[0]["wins"] and summary["option"] == "MAX_NODE"
    assert summary["engine"]["label"] == "first" and summary["anchor"]["spec"] == anchor.text
    text = ladder_table(rows)
    assert text.splitlines()[1].startswith("MAX_NODE=10 ") and "95% CI" in text and "pair Elo" in text


def test_a_usi_ladder_sets_nodes_limit(tmp_path):
    log = tmp_path / "usi.log"
    anchor = parse_engine_spec(usi(f"--log {log}"))
    lad = Ladder(load_game("tictactoe"), parse_engine_spec(FIRST), anchor, [100, 5000], 4,
                 MatchLimits(movetime=200, margin=2000), seed=2)
    rows = run_ladder(lad).rows
    lines = log.read_text().splitlines()
    assert "setoption name NodesLimit value 100" in lines and "setoption name NodesLimit value 5000" in lines
    assert lines.count("#started") == 2
    assert rows[0]["score"] >= rows[1]["score"] and all(r["games"] == 4 for r in rows)


def test_our_own_anchor_steps_by_its_per_engine_node_limit():
    lad = Ladder(load_game("tictactoe"), parse_engine_spec("solver"), parse_engine_spec(SCRIPTED + ",label=s"),
                 [3, 30], 2, MatchLimits(depth=2), seed=3)
    assert lad.option == "@nodes"
    out = run_ladder(lad)
    limits = {tuple(r.limits) for r in out.outcome.records}
    assert limits == {("depth 2", "nodes 3"), ("nodes 3", "depth 2"), ("depth 2", "nodes 30"), ("nodes 30", "depth 2")}


def test_ladder_command_prints_the_table_and_the_fit(tmp_path, capsys):
    from gamesuite.cli import main

    status = main(["ladder", "tictactoe", "--engine", FIRST, "--anchor", gomocup(), "--steps", "10,5k",
                   "--games", "4", "--depth", "2", "--seed", "4", "--save", str(tmp_path), "--quiet"])
    out = capsys.readouterr()
    assert status == 0, out.err
    lines = out.out.splitlines()
    assert "first against gomocup:fake_gomocup.py, MAX_NODE steps 10, 5000" in lines[0]
    assert any(ln.startswith("MAX_NODE=10 ") for ln in lines) and any(ln.startswith("MAX_NODE=5000") for ln in lines)
    assert any(ln.startswith("fit") for ln in lines) and "adjudications: none" in out.out
    assert (tmp_path / "ladder.json").exists()
    status = main(["ladder", "tictactoe", "--engine", FIRST, "--engine", "solver", "--anchor", gomocup(),
                   "--steps", "10", "--depth", "2"])
    assert status == 2 and "one --engine" in capsys.readouterr().err


# -- the fit ------------------------------------------------------------------------


def _exact(c: float, b: float, nodes: list[int], n: int) -> list[tuple[int, int, int, int]]:
    out = []
    for x in nodes:
        w = round(n * score_from_elo(c - b * math.log2(x)))
        out.append((x, w, 0, n - w))
    return out


def test_the_fit_recovers_a_known_ladder():
    # the engine scores 50% at 2^13 = 8192 nodes; the anchor gains 100 Elo a doubling
    fit = fit_ladder(_exact(1300.0, 100.0, [1000, 3000, 10000, 30000, 100000], 100_000))
    assert fit is not None and not fit.extrapolated
    assert fit.slope.value == pytest.approx(100, rel=0.01) and fit.slope.lo < 100 < fit.slope.hi
    assert fit.even_nodes.value == pytest.approx(8192, rel=0.01)
    assert fit.even_nodes.lo < 8192 < fit.even_nodes.hi and fit.games == 500_000
    far = fit_ladder(_exact(1300.0, 100.0, [100, 200, 400], 100_000))
    assert far is not None and far.extrapolated


def test_the_fit_is_the_maximum_of_the_likelihood():
    steps = [(10000, 14, 2, 4), (30000, 10, 3, 7), (100000, 6, 2, 12), (300000, 2, 4, 14)]
    fit = fit_ladder(steps)
    assert fit is not None

    def ll(c: float, b: float) -> float:
        total = 0.0
        for x, w, d, l in steps:
            s = score_from_elo(c - b * math.log2(x))
            total += (w + d / 2) * math.log(s) + (l + d / 2) * math.log(1 - s)
        return total

    b = fit.slope.value
    c = b * math.log2(fit.even_nodes.value)
    best = ll(c, b)
    for dc in (-20, -5, 5, 20):
        for db in (-5, -1, 1, 5):
            assert ll(c + dc, b + db) < best
    assert 10000 < fit.even_nodes.value < 300000 and fit.slope.lo > 0


@pytest.mark.parametrize("steps", [
    [(1000, 5, 0, 5)],  # one node count
    [(1000, 5, 0, 0), (2000, 6, 0, 0)],  # won everything
    [(1000, 5, 0, 5), (2000, 5, 0, 5)],  # flat: no slope
    [(1000, 3, 0, 7), (2000, 7, 0, 3)],  # the anchor gets weaker with nodes
])
def test_no_fit_where_the_data_cannot_pin_it(steps):
    assert fit_ladder(steps) is None
