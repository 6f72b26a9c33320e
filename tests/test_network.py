"""The policy-value network: numpy inference against plain references and torch, files, the evaluator,
self-play pieces and the shipped tic-tac-toe network."""

import json
import random

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine
from gamesuite.search.network import (
    NetworkEvaluator,
    PolicyValueNet,
    conv2d,
    default_net_name,
    encoder_for,
    network_evaluator,
    reference_conv2d,
    resource_dirs,
)
from gamesuite.search.reference import solve_all
from gamesuite.train.selfplay import SelfPlaySettings, exact_check, self_play_game, symmetries

TTT = load_game("tictactoe")


@pytest.mark.parametrize("shape,k", [((2, 3, 3, 3), 3), ((1, 2, 4, 5), 3), ((3, 4, 5, 4), 1), ((1, 2, 6, 6), 5)])
def test_conv2d_matches_the_loop_reference(shape, k):
    rng = np.random.default_rng(sum(shape) + k)
    x = rng.standard_normal(shape)
    w = rng.standard_normal((4, shape[1], k, k))
    b = rng.standard_normal(4)
    assert np.allclose(conv2d(x, w, b), reference_conv2d(x, w, b), atol=1e-12)


def _reference_forward(net, x):
    """The network written out layer by layer with the loop convolution and plain Python dense layers."""
    p, m = net.params, net.meta

    def relu(a):
        return np.maximum(a, 0)

    def dense(v, w, b):
        return np.array([[sum(float(v[n, i]) * float(w[o, i]) for i in range(w.shape[1])) + float(b[o])
                          for o in range(w.shape[0])] for n in range(v.shape[0])])

    h = relu(reference_conv2d(x, p["stem.w"], p["stem.b"]))
    for i in range(m["blocks"]):
        y = relu(reference_conv2d(h, p[f"block{i}.conv1.w"], p[f"block{i}.conv1.b"]))
        h = relu(h + reference_conv2d(y, p[f"block{i}.conv2.w"], p[f"block{i}.conv2.b"]))
    n = x.shape[0]
    pol = dense(relu(reference_conv2d(h, p["policy.conv.w"], p["policy.conv.b"])).reshape(n, -1),
                p["policy.fc.w"], p["policy.fc.b"])
    v = relu(dense(relu(reference_conv2d(h, p["value.conv.w"], p["value.conv.b"])).reshape(n, -1),
                   p["value.fc1.w"], p["value.fc1.b"]))
    return pol, np.tanh(dense(v, p["value.fc2.w"], p["value.fc2.b"]))[:, 0]


def test_forward_matches_the_layer_by_layer_reference():
    net = PolicyValueNet.random("tictactoe(m=4,n=3,k=3)", 3, 4, planes=3, filters=4, blocks=2, hidden=5, seed=3)
    x = np.random.default_rng(1).random((3, 3, 3, 4)).astype(np.float32)
    logits, value = net.forward(x)
    ref_logits, ref_value = _reference_forward(net, x.astype(np.float64))
    assert logits.shape == (3, 12) and value.shape == (3,)
    assert np.allclose(logits, ref_logits, atol=1e-4) and np.allclose(value, ref_value, atol=1e-5)
    with pytest.raises(ValueError, match="input shape"):
        net.forward(np.zeros((1, 3, 3, 3)))


def test_forward_matches_torch():
    torch = pytest.importorskip("torch")
    from gamesuite.train.torch_trainer import from_torch, to_torch

    net = PolicyValueNet.random("tictactoe(m=3,n=3,k=3)", 3, 3, filters=8, blocks=1, hidden=8, seed=2)
    x = np.random.default_rng(0).random((5, 3, 3, 3)).astype(np.float32)
    model = to_torch(net)
    with torch.no_grad():
        tl, tv = model(torch.from_numpy(x))
    logits, value = net.forward(x)
    assert np.allclose(logits, tl.numpy(), atol=1e-5) and np.allclose(value, tv.numpy(), atol=1e-5)
    back = from_torch(model, net.meta)
    assert all(np.array_equal(back.params[k], net.params[k]) for k in net.params)


def test_save_load_round_trip_and_bad_files(tmp_path):
    net = PolicyValueNet.random("tictactoe(m=3,n=3,k=3)", 3, 3, filters=4, blocks=1, hidden=4, seed=0)
    path = tmp_path / "net.npz"
    net.save(path)
    again = PolicyValueNet.load(path)
    assert again.meta == net.meta and all(np.array_equal(again.params[k], net.params[k]) for k in net.params)
    with np.load(path, allow_pickle=False) as data:  # a plain npz: no pickled objects
        assert json.loads(str(data["meta"]))["format"] == "gamesuite-pv-1"
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(InvalidOptionError, match="bad.npz"):
        PolicyValueNet.load(bad)
    np.savez(tmp_path / "nometa.npz", a=np.zeros(2))
    with pytest.raises(InvalidOptionError, match="no meta"):
        PolicyValueNet.load(tmp_path / "nometa.npz")
    params = dict(net.params)
    params["stem.w"] = np.zeros((1, 1, 3, 3), np.float32)
    np.savez(tmp_path / "shape.npz", meta=np.array(json.dumps(net.meta)), **params)
    with pytest.raises(InvalidOptionError, match="stem.w"):
        PolicyValueNet.load(tmp_path / "shape.npz")
    with pytest.raises(InvalidOptionError, match="missing.npz"):
        PolicyValueNet.load(tmp_path / "missing.npz")


def test_evaluator_gives_legal_priors_and_side_to_move_values():
    net = PolicyValueNet.random(TTT.spec, 3, 3, filters=4, blocks=1, hidden=4, seed=5)
    ev = NetworkEvaluator(net, encoder_for(TTT))
    states = [TTT.state_from_text(t) for t in ("x........", "xo.......", "xo.x.o...")]
    out = ev.evaluate(states)
    logits, values = net.forward(np.stack([encoder_for(TTT)(s) for s in states]))
    for s, (priors, vec), lg, v in zip(states, out, logits, values):
        legal = s.legal_moves()
        assert priors.shape == (len(legal),) and abs(priors.sum() - 1) < 1e-9
        assert np.argmax(priors) == np.argmax(lg[legal])
        assert vec[s.current_player] == pytest.approx(v, abs=1e-5)
        assert vec[1 - s.current_player] == pytest.approx(-v, abs=1e-5)
    planes = encoder_for(TTT)(states[1])  # X to move: own stones first
    assert planes[0].sum() == 1 and planes[1].sum() == 1 and planes[0, 0, 0] == 1 and planes[2].all()


def test_symmetries_move_the_policy_with_the_stones():
    x = np.zeros((3, 3, 3), np.float32)
    x[0, 0, 1] = 1  # a stone at b3
    pi = np.zeros(9, np.float32)
    pi[1] = 1  # the policy points at the stone's cell
    pairs = symmetries(x, pi, 3, 3)
    assert len(pairs) == 8 and len({xa.tobytes() for xa, _ in pairs}) == 4  # the edge cell has 4 images
    for xa, pa in pairs:
        assert np.array_equal(xa[0].reshape(-1), pa)


def test_self_play_game_records_every_move():
    net = PolicyValueNet.random(TTT.spec, 3, 3, filters=4, blocks=1, hidden=4, seed=1)
    pos, returns = self_play_game(TTT, net, SelfPlaySettings(sims=16, alpha=1.0, temperature_plies=2), seed=0)
    assert 5 <= len(pos) <= 9 and sum(returns) == 0
    for board, stone, pi, z in zip(pos.boards, pos.stones, pos.pi, pos.z):
        assert abs(pi.sum() - 1) < 1e-5 and stone in (1, 2)
        assert not pi[board != 0].any()  # no visits to taken cells
        assert z == returns[stone - 1]
        assert (board != 0).sum() % 2 == stone - 1  # X (1) moves on even stone counts


def test_engine_options_for_networks(tmp_path):
    with pytest.raises(InvalidOptionError, match="nowhere.npz"):
        make_engine(TTT, f"puct,evaluator=net,net={tmp_path / 'nowhere.npz'}")
    other = PolicyValueNet.random("tictactoe(m=4,n=4,k=3)", 4, 4, filters=4, blocks=1, hidden=4)
    other.save(tmp_path / "four.npz")
    with pytest.raises(InvalidOptionError, match="trained for"):
        make_engine(TTT, f"puct,evaluator=net,net={tmp_path / 'four.npz'}")
    with pytest.raises(InvalidOptionError, match="no network is shipped"):
        network_evaluator(load_game("tictactoe(m=5,n=5,k=4)"))


SHIPPED = [d / default_net_name(TTT) for d in resource_dirs() if (d / default_net_name(TTT)).is_file()]


@pytest.mark.skipif(not SHIPPED, reason="no shipped tic-tac-toe network")
def test_the_shipped_network_knows_tictactoe():
    net = PolicyValueNet.load(SHIPPED[0])
    check = exact_check(TTT, net)
    assert check["positions"] == 4520
    assert check["policy_keeps_result"] > 0.9 and check["value_right"] > 0.6  # trained: 91.9% and 68.6%


@pytest.mark.skipif(not SHIPPED, reason="no shipped tic-tac-toe network")
def test_puct_with_the_shipped_network_keeps_the_result_against_the_solver():
    values = solve_all(TTT.new_state())
    rng = random.Random(0)
    for game_no in range(8):
        puct = make_engine(TTT, f"puct,evaluator=net,noise=0,seed={game_no}")
        solver = make_engine(TTT, "solver")
        s = TTT.new_state()
        for _ in range(game_no // 2):  # vary the opening with random moves
            s.play(rng.choice(s.legal_moves()))
        net_side = game_no % 2
        # what the network's side is owed from here with perfect play
        owed = values[s.key] * (1 if net_side == 0 else -1)
        owed = 0 if owed == 0 else (1 if owed > 0 else -1)
        while not s.is_terminal():
            engine = puct if s.current_player == net_side else solver
            s.play(engine.search(s, Limits(nodes=48) if engine is puct else Limits()).best_move)
        assert s.returns()[net_side] >= owed, (game_no, s.history)


def test_training_script_runs_end_to_end(tmp_path):
    pytest.importorskip("torch")
    from gamesuite.train.__main__ import main

    out = tmp_path / "tiny.npz"
    assert main(["tictactoe", "--generations", "1", "--games", "2", "--sims", "8", "--epochs", "1", "--head", "dense",
                 "--filters", "4", "--blocks", "1", "--hidden", "4", "--gate-games", "2", "--gate-nodes", "4",
                 "--dir", str(tmp_path / "run"), "--out", str(out)]) == 0
    net = PolicyValueNet.load(out)
    assert net.meta["game"] == TTT.spec and net.meta["filters"] == 4
    assert main(["tictactoe(m=4,n=4,k=3)", "--generations", "1", "--out", str(tmp_path / "four.npz"),
                 "--dir", str(tmp_path / "run4"),
                 "--resume", str(out)]) == 2  # a 3x3 network cannot go on learning 4x4
    assert not (tmp_path / "four.npz").exists()


def test_training_refuses_games_without_an_encoder(capsys):
    from gamesuite.train.__main__ import main

    assert main(["nosuchgame"]) == 2
    assert "nosuchgame" in capsys.readouterr().err


BLOCK_TORCH = """
import sys, importlib.abc
class _NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("torch is blocked in this test")
sys.meta_path.insert(0, _NoTorch())
from gamesuite.core import Limits, load_game, make_engine
game = load_game("tictactoe")
move = make_engine(game, "puct,evaluator=net,noise=0,seed=0").search(game.new_state(), Limits(nodes=20)).best_move
print("move", move)
from gamesuite.train.__main__ import main
print("exit", main(["tictactoe", "--generations", "1"]))
"""


@pytest.mark.skipif(not SHIPPED, reason="no shipped tic-tac-toe network")
def test_the_network_plays_without_torch_and_training_says_what_it_needs():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", BLOCK_TORCH], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "move " in r.stdout and "exit 2" in r.stdout
    assert "gamesuite[train]" in r.stderr
