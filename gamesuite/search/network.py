"""A small residual policy-value network with numpy inference, stored as a plain ``.npz``.

The network (after AlphaZero, without batch normalisation) maps ``planes x
height x width`` inputs to move logits and a value in [-1, 1] for the side to
move. The trunk is

    stem      conv 3x3 (planes -> filters) + ReLU
    blocks    (conv 3x3 + ReLU, conv 3x3, + input, ReLU) x blocks

and one of two pairs of heads (``meta["head"]``):

- ``dense`` (the default; tic-tac-toe's network)::

    policy    conv 1x1 (filters -> 2) + ReLU, dense -> moves
    value     conv 1x1 (filters -> 1) + ReLU, dense -> hidden + ReLU, dense -> 1, tanh

- ``conv``, fully convolutional, so one network plays every board size::

    policy    conv 1x1 (filters -> 1): one logit per cell
    value     conv 1x1 (filters -> value_planes) + ReLU, mean and max over the board,
              dense -> hidden + ReLU, dense -> 1, tanh

Weights follow PyTorch's layouts (conv ``[out, in, kh, kw]``, dense ``[out,
in]``), so a trained torch model exports by name. The ``.npz`` holds the
arrays and a JSON string ``meta`` (format, game spec, sizes); nothing is
pickled.

A game joins by registering an *encoder* (``state -> planes``); the policy
index of a move is the move itself (board games whose moves are cells).
"""

from __future__ import annotations

import ctypes
import glob
import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InvalidOptionError, quote
from ..core.files import read_npz, write_npz
from ..core.registry import Game
from ..core.state import State
from . import network_onnx

FORMAT = "gamesuite-pv-1"
Encoder = Callable[[State], np.ndarray]
#: ``encode(boards [B, cells] int8, stones [B] int8) -> planes [B, C, H, W]`` (stone games; training)
BoardEncoder = Callable[[np.ndarray, np.ndarray], np.ndarray]

_ENCODERS: dict[str, Callable[[Game], Encoder]] = {}
_BOARD_ENCODERS: dict[str, Callable[[Game], BoardEncoder]] = {}


def register_encoder(game_name: str, factory: Callable[[Game], Encoder]) -> None:
    """Let networks play ``game_name``: ``factory(game)(state)`` gives the input planes."""
    _ENCODERS[game_name] = factory


def encoder_for(game: Game) -> Encoder:
    """The registered encoder of ``game``, or ``InvalidOptionError``."""
    if game.name not in _ENCODERS:
        raise InvalidOptionError(
            f"{game.name} has no network encoder; games with one: {', '.join(sorted(_ENCODERS)) or 'none'}")
    return _ENCODERS[game.name](game)


def register_board_encoder(game_name: str, factory: Callable[[Game], BoardEncoder]) -> None:
    """Let ``python -m gamesuite.train`` fit networks of a stone game: ``factory(game)(boards, stones)``
    gives the planes of many boards at once (0 empty, 1 and 2 the players' stones; ``stones``: the stone to
    move), exactly what the state encoder gives for the same positions."""
    _BOARD_ENCODERS[game_name] = factory


def board_encoder_for(game: Game) -> BoardEncoder:
    """The registered board encoder of ``game``, or ``InvalidOptionError``."""
    if game.name not in _BOARD_ENCODERS:
        raise InvalidOptionError(
            f"{game.name} has no board encoder for training; games with one: {', '.join(sorted(_BOARD_ENCODERS))}")
    return _BOARD_ENCODERS[game.name](game)


def stone_planes(board: np.ndarray, height: int, width: int, me: int) -> np.ndarray:
    """Planes of a stone game for the side with stone ``me``: own stones, the opponent's, ones."""
    b = board.reshape(height, width)
    out = np.empty((3, height, width), dtype=np.float32)
    out[0] = b == me
    out[1] = (b != me) & (b != 0)
    out[2] = 1.0
    return out


# -- layers (numpy) -------------------------------------------------------------


_WINDOWS: dict[tuple[int, int, int], np.ndarray] = {}


def _window_index(height: int, width: int, k: int) -> np.ndarray:
    """For each output cell, the flat indices of its ``k x k`` window in the padded board."""
    key = (height, width, k)
    if key not in _WINDOWS:
        pw = width + k - 1
        _WINDOWS[key] = np.array([[(i + di) * pw + j + dj for di in range(k) for dj in range(k)]
                                  for i in range(height) for j in range(width)], dtype=np.intp)
    return _WINDOWS[key]


def conv2d(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """'Same' convolution of ``x [B, C, H, W]`` with odd square kernels ``w [F, C, k, k]``."""
    f, c, k, _ = w.shape
    bsz, _, hh, ww = x.shape
    if k == 1:
        out = np.tensordot(w[:, :, 0, 0], x, axes=([1], [1]))  # [F, B, H, W]
        return out.transpose(1, 0, 2, 3) + b[None, :, None, None]
    pad = k // 2
    xp = np.zeros((bsz, c, hh + 2 * pad, ww + 2 * pad), dtype=x.dtype)
    xp[:, :, pad:pad + hh, pad:pad + ww] = x
    cols = xp.reshape(bsz, c, -1)[:, :, _window_index(hh, ww, k)]  # [B, C, H*W, k*k]
    cols = cols.transpose(0, 2, 1, 3).reshape(bsz * hh * ww, c * k * k)
    out = cols @ w.reshape(f, -1).T + b
    return out.reshape(bsz, hh, ww, f).transpose(0, 3, 1, 2)


def reference_conv2d(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``conv2d`` by plain loops (the test oracle)."""
    bsz, c, hh, ww = x.shape
    f, _, k, _ = w.shape
    pad = k // 2
    out = np.zeros((bsz, f, hh, ww))
    for n in range(bsz):
        for o in range(f):
            for i in range(hh):
                for j in range(ww):
                    s = float(b[o])
                    for ci in range(c):
                        for di in range(k):
                            for dj in range(k):
                                y, xx = i + di - pad, j + dj - pad
                                if 0 <= y < hh and 0 <= xx < ww:
                                    s += float(x[n, ci, y, xx]) * float(w[o, ci, di, dj])
                    out[n, o, i, j] = s
    return out


_BLAS_LOCAL: Any = None


def blas_single_thread() -> bool:
    """Ask numpy's bundled OpenBLAS to run single-threaded *in the calling thread*; whether it could.

    A network this small gains nothing from BLAS threads, and on a busy machine
    their spinning made one convolution 100 times slower (measured: 15 us
    single-threaded, 1-10 ms with two threads). Other threads keep their setting.
    """
    global _BLAS_LOCAL
    if _BLAS_LOCAL is None:
        _BLAS_LOCAL = False
        libs = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
        for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
            try:
                fn = ctypes.CDLL(path).openblas_set_num_threads_local
            except (OSError, AttributeError):
                continue
            fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
            _BLAS_LOCAL = fn
            break
    if _BLAS_LOCAL is False:
        return False
    _BLAS_LOCAL(1)
    return True


HEADS = ("dense", "conv")
BACKENDS = ("auto", "onnxruntime", "numpy")


def param_shapes(meta: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The name and shape of every weight array of a network described by ``meta``."""
    c, f, h, w = meta["planes"], meta["filters"], meta["height"], meta["width"]
    shapes: dict[str, tuple[int, ...]] = {"stem.w": (f, c, 3, 3), "stem.b": (f,)}
    for i in range(meta["blocks"]):
        for j in (1, 2):
            shapes[f"block{i}.conv{j}.w"] = (f, f, 3, 3)
            shapes[f"block{i}.conv{j}.b"] = (f,)
    head = meta.get("head", "dense")
    if head == "conv":
        v = meta["value_planes"]
        shapes.update({
            "policy.conv.w": (1, f, 1, 1), "policy.conv.b": (1,),
            "value.conv.w": (v, f, 1, 1), "value.conv.b": (v,),
            "value.fc1.w": (meta["hidden"], 2 * v), "value.fc1.b": (meta["hidden"],),
            "value.fc2.w": (1, meta["hidden"]), "value.fc2.b": (1,),
        })
        return shapes
    if head != "dense":
        raise InvalidOptionError(f"network head must be one of {', '.join(HEADS)}, got {quote(str(head))}")
    shapes.update({
        "policy.conv.w": (2, f, 1, 1), "policy.conv.b": (2,),
        "policy.fc.w": (meta["moves"], 2 * h * w), "policy.fc.b": (meta["moves"],),
        "value.conv.w": (1, f, 1, 1), "value.conv.b": (1,),
        "value.fc1.w": (meta["hidden"], h * w), "value.fc1.b": (meta["hidden"],),
        "value.fc2.w": (1, meta["hidden"]), "value.fc2.b": (1,),
    })
    return shapes


def _conv3x3_nhwc(x: np.ndarray, w2: np.ndarray, b: np.ndarray) -> np.ndarray:
    """'Same' 3x3 convolution of ``x [B, H, W, C]`` by ``w2 [9C, F]`` (rows in (kh, kw, C) order).

    The 3x3 windows are gathered by nine strided copies into ``[B*H*W, 9C]``
    (each copies whole channel vectors) and multiplied once.
    """
    bsz, hh, ww, c = x.shape
    xp = np.zeros((bsz, hh + 2, ww + 2, c), dtype=np.float32)
    xp[:, 1:hh + 1, 1:ww + 1, :] = x
    cols = np.empty((bsz, hh, ww, 9 * c), dtype=np.float32)
    k = 0
    for di in range(3):
        for dj in range(3):
            cols[..., k * c:(k + 1) * c] = xp[:, di:di + hh, dj:dj + ww, :]
            k += 1
    out = cols.reshape(-1, 9 * c) @ w2
    out += b
    return out.reshape(bsz, hh, ww, -1)


class PolicyValueNet:
    """The network's weights and numpy inference."""

    def __init__(self, params: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        shapes = param_shapes(meta)
        missing = [k for k in shapes if k not in params]
        if missing:
            raise InvalidOptionError(f"network weights lack {', '.join(missing[:3])}")
        for k, shape in shapes.items():
            if tuple(params[k].shape) != shape:
                raise InvalidOptionError(f"network weight {k} has shape {tuple(params[k].shape)}, expected {shape}")
        self.meta = dict(meta)
        self.head = str(meta.get("head", "dense"))
        self.params = {k: np.ascontiguousarray(params[k], dtype=np.float32) for k in shapes}
        # the weights laid out for channels-last inference
        self._w3 = {k: np.ascontiguousarray(v.transpose(2, 3, 1, 0).reshape(-1, v.shape[0]))
                    for k, v in self.params.items() if v.ndim == 4 and v.shape[2] == 3}
        self._w1 = {k: np.ascontiguousarray(v[:, :, 0, 0].T) for k, v in self.params.items()
                    if v.ndim == 4 and v.shape[2] == 1}
        self._fc = {k: np.ascontiguousarray(v.T) for k, v in self.params.items() if v.ndim == 2}
        self._runner: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None
        self.backend = "auto"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_runner"] = None  # an onnxruntime session does not pickle; it is made again
        return state

    @classmethod
    def random(cls, game: str, height: int, width: int, planes: int = 3, filters: int = 32, blocks: int = 2,
               hidden: int = 32, moves: int | None = None, seed: int = 0, head: str = "dense",
               value_planes: int = 8) -> PolicyValueNet:
        """A freshly initialised network (He-normal weights, zero biases)."""
        meta: dict[str, Any] = {"format": FORMAT, "game": game, "height": height, "width": width, "planes": planes,
                                "filters": filters, "blocks": blocks, "hidden": hidden,
                                "moves": moves if moves is not None else height * width}
        if head != "dense":
            meta.update(head=head, value_planes=value_planes)
        rng = np.random.default_rng(seed)
        params = {}
        for k, shape in param_shapes(meta).items():
            if k.endswith(".b"):
                params[k] = np.zeros(shape, dtype=np.float32)
            else:
                fan_in = int(np.prod(shape[1:]))
                params[k] = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        return cls(params, meta)

    @property
    def fully_convolutional(self) -> bool:
        """Whether the network takes boards of any size (its heads are convolutional)."""
        return self.head == "conv"

    def weights(self) -> int:
        """How many numbers the network has."""
        return sum(int(v.size) for v in self.params.values())

    # -- files ----------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the weights and ``meta`` to ``path`` (a plain ``.npz``)."""
        write_npz(path, {"meta": np.array(json.dumps(self.meta, sort_keys=True)), **self.params},
                  allow_pickle=False)

    @classmethod
    def load(cls, path: str | Path) -> PolicyValueNet:
        """Read a network written by :meth:`save`; ``InvalidOptionError`` quoting the path if it is not one."""
        arrays = read_npz(path, "network")
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (KeyError, ValueError):
            raise InvalidOptionError(f"{quote(str(path))} is not a gamesuite network (no meta)") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise InvalidOptionError(f"{quote(str(path))} is not a {FORMAT} network")
        try:
            return cls(arrays, meta)
        except InvalidOptionError as e:
            raise InvalidOptionError(f"{quote(str(path))}: {e}") from None
        except (KeyError, TypeError):
            raise InvalidOptionError(f"{quote(str(path))} has incomplete metadata") from None

    # -- inference --------------------------------------------------------------
    def use_backend(self, backend: str) -> PolicyValueNet:
        """Choose how :meth:`predict` runs: ``onnxruntime``, ``numpy`` or ``auto`` (onnxruntime when installed)."""
        if backend not in BACKENDS:
            raise InvalidOptionError(f"backend must be one of {', '.join(BACKENDS)}, got {quote(str(backend))}")
        if backend == "onnxruntime" and not network_onnx.available():
            raise InvalidOptionError("backend onnxruntime is not installed: pip install onnxruntime")
        self.backend = backend
        self._runner = None
        return self

    @property
    def runs_on(self) -> str:
        """The backend :meth:`predict` uses: ``onnxruntime`` or ``numpy``."""
        if self.backend == "auto":
            return "onnxruntime" if network_onnx.available() else "numpy"
        return self.backend

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`forward` run by the chosen backend (onnxruntime's is two to three times faster on a CPU)."""
        if self._runner is None:
            if self.runs_on == "onnxruntime":
                self._runner = network_onnx.session(self.params, self.meta)
            else:
                self._runner = self.forward
        return self._runner(x)

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Move logits ``[B, moves]`` and values ``[B]`` of inputs ``x [B, planes, height, width]``.

        A fully convolutional network takes any height and width (``moves`` is then
        ``height * width`` of the input).
        """
        m = self.meta
        if x.ndim != 4 or x.shape[1] != m["planes"] or (
                not self.fully_convolutional and x.shape[2:] != (m["height"], m["width"])):
            raise ValueError(f"input shape {x.shape} does not fit planes x height x width = "
                             f"{m['planes']} x {m['height']} x {m['width']}")
        return self.forward_nhwc(np.ascontiguousarray(x.transpose(0, 2, 3, 1), dtype=np.float32))

    def forward_nhwc(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`forward` of channels-last inputs ``x [B, height, width, planes]`` (float32)."""
        m, p, w3, w1, fc = self.meta, self.params, self._w3, self._w1, self._fc
        bsz, hh, ww, _ = x.shape
        h = _conv3x3_nhwc(x, w3["stem.w"], p["stem.b"])
        np.maximum(h, 0.0, out=h)
        for i in range(m["blocks"]):
            y = _conv3x3_nhwc(h, w3[f"block{i}.conv1.w"], p[f"block{i}.conv1.b"])
            np.maximum(y, 0.0, out=y)
            y = _conv3x3_nhwc(y, w3[f"block{i}.conv2.w"], p[f"block{i}.conv2.b"])
            h += y
            np.maximum(h, 0.0, out=h)
        flat = h.reshape(bsz * hh * ww, -1)
        if self.head == "conv":
            logits = (flat @ w1["policy.conv.w"] + p["policy.conv.b"]).reshape(bsz, hh * ww)
            v = flat @ w1["value.conv.w"] + p["value.conv.b"]
            np.maximum(v, 0.0, out=v)
            v = v.reshape(bsz, hh * ww, -1)
            pooled = np.concatenate([v.mean(axis=1), v.max(axis=1)], axis=1)
        else:
            ph = flat @ w1["policy.conv.w"] + p["policy.conv.b"]
            np.maximum(ph, 0.0, out=ph)
            ph = ph.reshape(bsz, hh * ww, 2).transpose(0, 2, 1).reshape(bsz, -1)  # torch's flatten order
            logits = ph @ fc["policy.fc.w"] + p["policy.fc.b"]
            pooled = flat @ w1["value.conv.w"] + p["value.conv.b"]
            np.maximum(pooled, 0.0, out=pooled)
            pooled = pooled.reshape(bsz, hh * ww)
        vh = pooled @ fc["value.fc1.w"] + p["value.fc1.b"]
        np.maximum(vh, 0.0, out=vh)
        value = np.tanh(vh @ fc["value.fc2.w"] + p["value.fc2.b"])[:, 0]
        return logits, value


class NetworkEvaluator:
    """PUCT priors (softmax over the legal moves) and values from a network, a batch at a time."""

    def __init__(self, net: PolicyValueNet, encoder: Encoder, players: int = 2) -> None:
        if players != 2:
            raise InvalidOptionError(f"the policy-value network plays two-player games, not {players}-player ones")
        self.net = net
        self.encoder = encoder

    def evaluate(self, states: Sequence[State]) -> list[tuple[np.ndarray, np.ndarray]]:
        if not states:
            return []
        blas_single_thread()
        x = np.stack([self.encoder(s) for s in states])
        logits, values = self.net.predict(x)
        out = []
        for s, lg, v in zip(states, logits, values):
            legal = s.legal_moves()
            z = lg[legal].astype(np.float64)
            e = np.exp(z - z.max())
            me = s.current_player
            vec = np.zeros(2)
            vec[me], vec[1 - me] = float(v), -float(v)
            out.append((e / e.sum(), vec))
        return out


def resource_dirs() -> list[Path]:
    """Where shipped networks are looked for: the package's ``resources/nets`` (installed with it)."""
    return [Path(__file__).resolve().parents[1] / "resources" / "nets"]


def default_net_name(game: Game) -> str:
    """The file name of the shipped network of ``game``: its spec in safe characters, ``.npz``."""
    return re.sub(r"[^A-Za-z0-9]+", "_", game.spec).strip("_") + ".npz"


#: Game parameters that only set the board's size: a fully convolutional network plays any of them.
SIZE_PARAMS = ("size", "m", "n", "width", "height")


def plays(net: PolicyValueNet, game: Game) -> bool:
    """Whether ``net`` can play ``game``: trained for it, or fully convolutional and trained for the same
    game with the same rules on another board size."""
    if net.meta.get("game") == game.spec:
        return True
    if not net.fully_convolutional:
        return False
    from ..core.registry import load_game

    try:
        trained = load_game(str(net.meta.get("game")))
    except ValueError:
        return False
    return trained.name == game.name and all(
        trained.values.get(k) == v for k, v in game.values.items() if k not in SIZE_PARAMS)


def shipped_network(game: Game) -> Path | None:
    """The network shipped for ``game``: the file named for its spec, else a fully convolutional one
    trained for the same rules on another board size (``None`` if neither)."""
    name = default_net_name(game)
    for d in resource_dirs():
        if (d / name).is_file():
            return d / name
    for d in resource_dirs():
        for path in sorted(d.glob("*.npz")):
            try:
                if plays(PolicyValueNet.load(path), game):
                    return path
            except InvalidOptionError:
                continue
    return None


def network_evaluator(game: Game, path: str | None = None, backend: str = "auto") -> NetworkEvaluator:
    """An evaluator from the network at ``path`` (default: the one shipped for ``game``)."""
    if path is None:
        found = shipped_network(game)
        if found is None:
            raise InvalidOptionError(f"no network is shipped for {game.spec} (looked for {default_net_name(game)}); "
                                     "give net=PATH")
        path = str(found)
    net = PolicyValueNet.load(path).use_backend(backend)
    if not plays(net, game):
        raise InvalidOptionError(f"network {quote(path)} was trained for {net.meta.get('game')}, not {game.spec}")
    return NetworkEvaluator(net, encoder_for(game), game.num_players)
