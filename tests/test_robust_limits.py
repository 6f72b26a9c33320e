"""Node limits are honoured by every engine of every game (issue 21, item 9).

The stated tolerance: a search limited to N nodes reports at most ``N + NODE_SLACK``
(MCTS engines count simulations and stop at N exactly; alpha-beta kernels check the limit
at every node, the few extra nodes being threat searches that finish their step). Time
limits are measured, not asserted (no timing asserts in the suite):
``tests/benchmarks/limits_tolerance.py`` prints each engine's overshoot of ``movetime``.
"""

from __future__ import annotations

import pytest

from gamesuite.core.limits import Limits
from gamesuite.core.registry import engines_for, load_game, make_engine

#: Nodes a search may report beyond its limit.
NODE_SLACK = 16
SPECS = ["tictactoe", "tictactoe(m=5,n=5,k=4)", "gomoku(size=9)", "gomoku(size=15)", "shogi(variant=mini)", "shogi",
         "hare", "hare(players=3)"]
#: Engines whose simulations are whole random games played through the Python State API: a few
#: nodes only (a random game of shogi is ~400 plies, of Hare and Hedgehog thousands).
SLOW = {("shogi", "mcts"), ("shogi", "puct"), ("shogi(variant=mini)", "puct"), ("shogi(variant=mini)", "mcts"),
        ("hare", "puct"), ("hare(players=3)", "puct"), ("gomoku(size=15)", "puct"), ("gomoku(size=9)", "puct")}
#: Fixed on the branches of the helpers who own these engines (issue 21 leaves the kernels to them):
#: ``shogi`` (the search's and the root mate search's nodes within the limit).
ELSEWHERE = {("shogi", "alphabeta"): "fixed on branch 'shogi' (the node-limit poll of search.py)",
             ("shogi(variant=mini)", "alphabeta"): "fixed on branch 'shogi' (the node-limit poll of search.py)"}
CASES = [(spec, e.name) for spec in SPECS for e in engines_for(spec)]


def _start(spec: str):
    g = load_game(spec)
    if spec.startswith("gomoku"):
        return g, g.state_from_text("h8 h9 i8" if "15" in spec else "e5 e6 f5")
    return g, g.new_state()


def _small(entry_name: str, game) -> str:
    entry = next(e for e in engines_for(game) if e.name == entry_name)
    extra = {"hash": "hash=1", "memory": "memory=4"}
    return ",".join([entry_name] + [v for k, v in extra.items() if k in entry.options])


@pytest.mark.parametrize("spec,name", CASES)
def test_a_node_limit_is_honoured(spec, name):
    if (spec, name) in ELSEWHERE:
        pytest.xfail(ELSEWHERE[(spec, name)])
    game, state = _start(spec)
    limits = (8, 20) if (spec, name) in SLOW else (50, 700)
    for n in limits:
        engine = make_engine(game, _small(name, game))  # a fresh one: nothing kept from an earlier search
        r = engine.search(state, Limits(nodes=n))
        assert r.best_move in state.legal_moves()
        assert r.nodes <= n + NODE_SLACK, f"{spec} {name}: {r.nodes} nodes for a limit of {n}"


def test_a_stopped_playout_gives_no_value():
    import numpy as np

    from gamesuite.search.mcts import RolloutEvaluator, random_playout

    g = load_game("shogi")
    stop = np.ones(1, dtype=np.uint8)
    assert random_playout(g.new_state(), np.random.default_rng(1), stop=stop) is None
    ev = RolloutEvaluator(np.random.default_rng(1))
    ev.stop = stop
    assert ev.evaluate([g.new_state(), g.new_state()]) == [None, None]


def test_mcts_out_of_time_before_its_first_playout_still_moves():
    """The stop flag set before any playout ends: the search answers a legal move with no playout."""
    import numpy as np

    g = load_game("shogi")
    engine = make_engine(g, "mcts,seed=1")
    stop = np.ones(1, dtype=np.uint8)
    r = engine.search(g.new_state(), Limits(infinite=True), stop)
    assert r.best_move in g.new_state().legal_moves()
