"""The gomoku network: the encoder against its plain-Python definition, the symmetries, the fully
convolutional network on numpy / onnxruntime / torch, the training pieces, and ``gomoku:puct``."""

import random
from pathlib import Path

import numpy as np
import pytest

from gamesuite.core import InvalidOptionError, Limits, load_game, make_engine
from gamesuite.games.gomoku.net import PLANES, encode, encode_boards, reference_planes
from gamesuite.search import network_onnx
from gamesuite.search.network import (
    PolicyValueNet,
    board_encoder_for,
    encoder_for,
    network_evaluator,
    plays,
    reference_conv2d,
    shipped_network,
)
from gamesuite.train.bootstrap import BootstrapSettings, generate_chunk, load_positions, policy_target
from gamesuite.train.data import Positions, transform
from gamesuite.train.selfplay import selfplay_chunk

GOMOKU = load_game("gomoku")
REFERENCE = Path(__file__).parent / "data" / "network_torch_reference.npz"


def random_states(spec, count, seed, max_fill=0.5):
    game = load_game(spec)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new_state()
        for _ in range(rng.randrange(0, int(game.cells * max_fill))):
            if s.is_terminal():
                break
            s.play(rng.choice(s.legal_moves()))
        if not s.is_terminal():
            out.append(s)
    return out


@pytest.mark.parametrize("spec", ["gomoku", "gomoku(size=9,rule=renju)", "gomoku(size=7,rule=standard)",
                                  "gomoku(size=6)"])
def test_encoder_matches_the_plain_python_definition(spec):
    forbidden_seen = 0
    for s in random_states(spec, 25, seed=len(spec)):
        planes = encode(s)
        ref = reference_planes(list(s.board), s.game.size, s.to_move_stone, s.forbidden_moves())
        assert planes.shape == (PLANES, s.game.size, s.game.size)
        assert np.array_equal(planes, ref), s.to_text()
        forbidden_seen += int(planes[4].sum())
    if "renju" in spec:
        assert forbidden_seen > 0  # the renju plane was exercised


def test_window_planes_on_a_known_position():
    s = GOMOKU.state_from_text("h8 a1 i8 a3 j8 a5 k8")  # black h8-k8: four in a row, white to move
    p = encode(s)
    cell = GOMOKU.parse_cell
    rc = [divmod(cell(t), 15) for t in ("g8", "l8")]
    for r, c in rc:
        assert p[8, r, c] == 1.0 and p[5, r, c] == 0.0  # the opponent (black) makes five there; white does not
    assert p[3].sum() == 0 and p[0].sum() == 3 and p[1].sum() == 4  # white to move: own = the 3 white stones
    r, c = divmod(cell("m8"), 15)
    assert p[8, r, c] == 0.0 and p[9, r, c] > 0  # m8 with h8-k8 is not a five window, but l8-m8 windows hold 3


def test_batch_and_board_encoders_equal_the_state_encoder():
    for spec in ("gomoku", "gomoku(size=9,rule=renju)"):
        states = random_states(spec, 12, seed=3)
        game = states[0].game
        boards = np.stack([s.board for s in states])
        stones = np.array([s.to_move_stone for s in states])
        want = np.stack([encode(s) for s in states])
        assert np.array_equal(board_encoder_for(game)(boards, stones), want)
        assert np.array_equal(np.stack([encoder_for(game)(s) for s in states]), want)
    with pytest.raises(ValueError, match="stones"):
        encode_boards(boards, 9, np.zeros(len(boards)))


def test_planes_turn_with_the_board():
    for s in random_states("gomoku(size=9,rule=renju)", 6, seed=11):
        size = s.game.size
        board = s.board.reshape(size, size)
        planes = encode(s)
        for k in range(8):
            turned = np.ascontiguousarray(transform(board, k)).reshape(1, -1)
            forb = np.ascontiguousarray(transform(planes[4], k)).reshape(1, -1)
            got = encode_boards(turned, size, np.array([s.to_move_stone]), forb)[0]
            assert np.array_equal(got, transform(planes, k)), k


def _reference_forward(net, x):
    """The fully convolutional network layer by layer with the loop convolution."""
    p, m = net.params, net.meta

    def relu(a):
        return np.maximum(a, 0)

    h = relu(reference_conv2d(x, p["stem.w"], p["stem.b"]))
    for i in range(m["blocks"]):
        y = relu(reference_conv2d(h, p[f"block{i}.conv1.w"], p[f"block{i}.conv1.b"]))
        h = relu(h + reference_conv2d(y, p[f"block{i}.conv2.w"], p[f"block{i}.conv2.b"]))
    n = x.shape[0]
    logits = reference_conv2d(h, p["policy.conv.w"], p["policy.conv.b"]).reshape(n, -1)
    v = relu(reference_conv2d(h, p["value.conv.w"], p["value.conv.b"])).reshape(n, m["value_planes"], -1)
    pooled = np.concatenate([v.mean(axis=2), v.max(axis=2)], axis=1)
    hid = relu(pooled @ p["value.fc1.w"].T.astype(np.float64) + p["value.fc1.b"])
    return logits, np.tanh(hid @ p["value.fc2.w"].T.astype(np.float64) + p["value.fc2.b"])[:, 0]


def _conv_net(seed=4, size=5):
    net = PolicyValueNet.random(f"gomoku(size={size},rule=freestyle)", size, size, planes=PLANES, filters=6,
                                blocks=2, hidden=5, head="conv", value_planes=3, seed=seed)
    rng = np.random.default_rng(seed)
    for k, v in net.params.items():  # non-zero biases, so that they are checked too
        if k.endswith(".b"):
            v[:] = rng.standard_normal(v.shape) * 0.1
    return PolicyValueNet(net.params, net.meta)


@pytest.mark.parametrize("shape", [(2, 5, 5), (1, 7, 4)])  # another size too: the network is fully convolutional
def test_conv_head_forward_matches_the_layer_by_layer_reference(shape):
    net = _conv_net()
    x = np.random.default_rng(1).random((shape[0], PLANES, *shape[1:])).astype(np.float32)
    logits, value = net.forward(x)
    ref_logits, ref_value = _reference_forward(net, x.astype(np.float64))
    assert logits.shape == (shape[0], shape[1] * shape[2]) and value.shape == (shape[0],)
    assert np.allclose(logits, ref_logits, atol=1e-4) and np.allclose(value, ref_value, atol=1e-5)
    with pytest.raises(ValueError, match="input shape"):
        net.forward(np.zeros((1, 3, 5, 5), np.float32))


@pytest.mark.skipif(not network_onnx.available(), reason="onnxruntime is not installed")
@pytest.mark.parametrize("head", ["conv", "dense"])
def test_onnxruntime_runs_the_same_network(head):
    net = _conv_net() if head == "conv" else PolicyValueNet.random("tictactoe(m=5,n=4,k=3)", 4, 5, filters=6,
                                                                    blocks=2, hidden=5, seed=2)
    shapes = [(3, 5, 5), (1, 9, 6)] if head == "conv" else [(3, 4, 5)]
    for b, h, w in shapes:
        x = np.random.default_rng(b).random((b, net.meta["planes"], h, w)).astype(np.float32)
        want = net.forward(x)
        got = net.use_backend("onnxruntime").predict(x)
        assert net.runs_on == "onnxruntime"
        assert np.allclose(got[0], want[0], atol=1e-5) and np.allclose(got[1], want[1], atol=1e-6)
        net.use_backend("numpy")
        assert net.runs_on == "numpy" and np.array_equal(net.predict(x)[0], want[0])


def test_backend_option_is_checked():
    with pytest.raises(InvalidOptionError, match="backend"):
        _conv_net().use_backend("gpu")


def test_numpy_and_onnxruntime_equal_torch_outputs_stored_in_the_repository():
    """CI installs no torch: a file made by ``tests/data/make_network_reference.py`` keeps a random network,
    inputs and torch's outputs for them."""
    with np.load(REFERENCE, allow_pickle=False) as d:
        import json

        meta = json.loads(str(d["meta"]))
        params = {k[len("param."):]: d[k] for k in d.files if k.startswith("param.")}
        x, logits, value = d["x"], d["logits"], d["value"]
    net = PolicyValueNet(params, meta)
    got = net.forward(x)
    assert np.allclose(got[0], logits, atol=2e-5) and np.allclose(got[1], value, atol=2e-6)
    if network_onnx.available():
        got = net.use_backend("onnxruntime").predict(x)
        assert np.allclose(got[0], logits, atol=2e-5) and np.allclose(got[1], value, atol=2e-6)


def test_conv_head_matches_torch():
    torch = pytest.importorskip("torch")
    from gamesuite.train.torch_trainer import from_torch, to_torch

    net = _conv_net(seed=7, size=6)
    for shape in [(4, 6, 6), (2, 8, 5)]:
        x = np.random.default_rng(0).random((shape[0], PLANES, *shape[1:])).astype(np.float32)
        with torch.no_grad():
            tl, tv = to_torch(net)(torch.from_numpy(x))
        logits, value = net.forward(x)
        assert np.allclose(logits, tl.numpy(), atol=1e-5) and np.allclose(value, tv.numpy(), atol=1e-6)
    back = from_torch(to_torch(net), net.meta)
    assert all(np.array_equal(back.params[k], net.params[k]) for k in net.params)


def test_a_fully_convolutional_network_plays_other_sizes_of_the_same_rules(tmp_path):
    net = _conv_net(size=15)
    assert plays(net, GOMOKU) and plays(net, load_game("gomoku(size=9)"))
    assert not plays(net, load_game("gomoku(size=9,rule=renju)")) and not plays(net, load_game("tictactoe"))
    path = tmp_path / "n.npz"
    net.save(path)
    g9 = load_game("gomoku(size=9)")
    r = make_engine(g9, f"puct,net={path},seed=0").search(g9.state_from_text("e5 d4"), Limits(nodes=16))
    assert r.best_move is not None and g9.state_from_text("e5 d4").is_legal(r.best_move)
    with pytest.raises(InvalidOptionError, match="trained for"):
        network_evaluator(load_game("gomoku(size=9,rule=renju)"), str(path))


def test_puct_options_presets_and_errors(tmp_path):
    path = tmp_path / "n.npz"
    _conv_net(size=15).save(path)
    engine = make_engine(GOMOKU, f"puct,preset=writeup,seed=1,net={path}")
    cfg = engine.tree.config
    assert (cfg.c, cfg.noise, cfg.dirichlet_alpha, cfg.batch, cfg.temperature) == (5.0, 0.25, 0.03, 8, 0.001)
    # an option beats the preset; gomoku:puct plays without root noise
    assert make_engine(GOMOKU, f"puct,preset=writeup,noise=0,net={path}").tree.config.noise == 0
    assert make_engine(GOMOKU, f"puct,net={path}").tree.config.noise == 0
    with pytest.raises(InvalidOptionError, match="preset"):
        make_engine(GOMOKU, f"puct,preset=nosuch,net={path}")
    with pytest.raises(InvalidOptionError, match="nowhere.npz"):
        make_engine(GOMOKU, f"puct,net={tmp_path / 'nowhere.npz'}")
    with pytest.raises(InvalidOptionError, match="backend"):
        make_engine(GOMOKU, f"puct,backend=abacus,net={path}")


SHIPPED = shipped_network(GOMOKU)


@pytest.mark.skipif(SHIPPED is None, reason="no shipped gomoku network")
def test_the_shipped_network_is_small_convolutional_and_the_default():
    net = PolicyValueNet.load(SHIPPED)
    assert net.meta["game"] == GOMOKU.spec and net.fully_convolutional
    assert SHIPPED.stat().st_size < 4_000_000
    engine = make_engine(GOMOKU, "puct")
    assert engine.tree.evaluator.net.meta == net.meta


@pytest.mark.skipif(SHIPPED is None, reason="no shipped gomoku network")
@pytest.mark.parametrize("text,answers", [
    ("h8 a1 i8 a3 j8 a5 k8 a7", {"g8", "l8"}),  # black makes five
    ("h8 h9 a1 i9 a3 j9 a5 k9", {"g9", "l9"}),  # black blocks white's open four... one end at least
    ("h8 g7 i8 a1 j8", {"g8", "k8", "f8", "l8"}),  # white blocks black's open three
])
def test_the_shipped_network_makes_and_stops_fives(text, answers):
    s = GOMOKU.state_from_text(text)
    r = make_engine(GOMOKU, "puct,seed=0,vcf=false,guard=0").search(s, Limits(nodes=64))  # the network alone
    assert s.format_move(r.best_move) in answers
    assert r.lines and "visits" in r.lines[0].text and r.lines[0].score.kind == "winrate"


def test_the_threat_guard_plays_a_victory_and_avoids_losing_to_one(tmp_path):
    from gamesuite.games.gomoku.engine import GomokuEngine

    path = tmp_path / "n.npz"
    _conv_net(size=15).save(path)  # random weights: the search alone would not know what matters
    win = GOMOKU.state_from_text("h8 a1 i8 a3 j8 a5 g8 a14")  # black: an open four with one move
    r = make_engine(GOMOKU, f"puct,net={path},seed=0").search(win, Limits(nodes=32))
    assert win.format_move(r.best_move) in {"f8", "k8"} and r.score.kind == "mate" and r.score.value > 0
    plain = make_engine(GOMOKU, f"puct,net={path},seed=0,vcf=false,guard=0")
    assert not hasattr(plain, "guard")  # no guard: the generic engine itself
    solver = GomokuEngine(GOMOKU, hash=1)
    threat = GOMOKU.state_from_text("h8 a1 i8 a3 j8")  # white to move against an open three
    r = make_engine(GOMOKU, f"puct,net={path},seed=0,guard=225,vctnodes=5000").search(threat, Limits(nodes=300))
    after = threat.copy()
    after.play(r.best_move)
    assert solver.solve_vcf(after) is None and solver.solve_vct(after, budget=5000) is None, threat.format_move(
        r.best_move)
    with pytest.raises(InvalidOptionError, match="guard"):
        make_engine(GOMOKU, f"puct,net={path},guard=-1")


def test_bootstrap_and_selfplay_chunks_give_consistent_positions(tmp_path):
    settings = BootstrapSettings(game="gomoku(size=9)", nodes=300, multipv=3, games_per_chunk=2, opening_radius=2)
    path = generate_chunk(settings, 0, tmp_path)
    assert generate_chunk(settings, 0, tmp_path) == path  # kept, not played again
    pos = load_positions([path], 81)
    assert len(pos) > 4 and np.allclose(pos.pi.sum(axis=1), 1, atol=1e-5)
    assert set(np.unique(pos.z)) <= {-1.0, 0.0, 1.0}
    for board, stone, pi in zip(pos.boards, pos.stones, pos.pi):
        assert (board != 0).sum() % 2 == stone - 1 and not pi[board != 0].any()
    # the targets of a position: half on the best line, the rest by score
    t = policy_target(np.array([3, 5, -1]), np.array([100.0, 0.0, 0.0]), 9, temperature=100.0, best_weight=0.5)
    assert t[3] == pytest.approx(0.5 + 0.5 / (1 + np.exp(-1))) and t.sum() == pytest.approx(1)
    net = _conv_net(size=9)
    net_path = tmp_path / "net.npz"
    net.save(net_path)
    out = tmp_path / "sp.npz"
    selfplay_chunk("gomoku(size=9)", str(net_path), {"sims": 8, "opening_max": 2, "opening_min": 1}, 2, 5, str(out))
    sp = Positions.load(out)
    assert len(sp) >= 2 * 5 and np.allclose(sp.pi.sum(axis=1), 1, atol=1e-3)
    for board, _stone, pi in zip(sp.boards, sp.stones, sp.pi):
        assert not pi[board != 0].any()


def test_gomoku_training_runs_end_to_end_on_a_small_board(tmp_path):
    pytest.importorskip("torch")
    import json

    from gamesuite.train.__main__ import main

    settings = {"game": "gomoku(size=7)", "filters": 4, "blocks": 1, "hidden": 4, "value_planes": 2,
                "bootstrap_chunks": 2, "bootstrap": {"games_per_chunk": 1, "nodes": 200, "multipv": 2,
                                                     "opening_radius": 1},
                "bootstrap_epochs": 1, "generations": 1, "games": 2, "games_per_task": 1,
                "selfplay": {"sims": 8, "opening_min": 1, "opening_max": 2}, "epochs": 1, "batch": 32,
                "gate_games": 2, "gate_nodes": 8}
    (tmp_path / "s.json").write_text(json.dumps(settings))
    out = tmp_path / "g7.npz"
    args = ["gomoku(size=7)", "--settings", str(tmp_path / "s.json"), "--dir", str(tmp_path / "run"), "--out", str(out)]
    assert main(args) == 0
    log = [json.loads(x) for x in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert [e["generation"] for e in log] == [0, 1] and log[1]["gate"]["games"] == 2
    assert PolicyValueNet.load(out).meta["game"] == "gomoku(size=7,rule=freestyle)"
    # the same command again finds everything done; one more generation goes on from there
    assert main(args) == 0 and len((tmp_path / "run" / "log.jsonl").read_text().splitlines()) == 2
    assert main(args[:1] + ["--dir", str(tmp_path / "run"), "--out", str(out), "--generations", "2"]) == 0
    assert [json.loads(x)["generation"] for x in (tmp_path / "run" / "log.jsonl").read_text().splitlines()] == [0, 1, 2]
