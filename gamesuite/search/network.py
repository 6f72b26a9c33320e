"""A small residual policy-value network with numpy inference, stored as a plain ``.npz``.

The network (after AlphaZero, without batch normalisation) maps ``planes x
height x width`` inputs to move logits and a value in [-1, 1] for the side to
move:

    stem      conv 3x3 (planes -> filters) + ReLU
    blocks    (conv 3x3 + ReLU, conv 3x3, + input, ReLU) x blocks
    policy    conv 1x1 (filters -> 2) + ReLU, dense -> moves
    value     conv 1x1 (filters -> 1) + ReLU, dense -> hidden + ReLU, dense -> 1, tanh

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
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ..core.errors import InvalidOptionError, quote
from ..core.registry import Game
from ..core.state import State

FORMAT = "gamesuite-pv-1"
Encoder = Callable[[State], np.ndarray]

_ENCODERS: dict[str, Callable[[Game], Encoder]] = {}


def register_encoder(game_name: str, factory: Callable[[Game], Encoder]) -> None:
    """Let networks play ``game_name``: ``factory(game)(state)`` gives the input planes."""
    _ENCODERS[game_name] = factory


def encoder_for(game: Game) -> Encoder:
    """The registered encoder of ``game``, or ``InvalidOptionError``."""
    if game.name not in _ENCODERS:
        raise InvalidOptionError(
            f"{game.name} has no network encoder; games with one: {', '.join(sorted(_ENCODERS)) or 'none'}")
    return _ENCODERS[game.name](game)


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
                fn = getattr(ctypes.CDLL(path), "openblas_set_num_threads_local")
            except (OSError, AttributeError):
                continue
            fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
            _BLAS_LOCAL = fn
            break
    if _BLAS_LOCAL is False:
        return False
    _BLAS_LOCAL(1)
    return True


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)


def param_shapes(meta: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The name and shape of every weight array of a network described by ``meta``."""
    c, f, h, w = meta["planes"], meta["filters"], meta["height"], meta["width"]
    shapes: dict[str, tuple[int, ...]] = {"stem.w": (f, c, 3, 3), "stem.b": (f,)}
    for i in range(meta["blocks"]):
        for j in (1, 2):
            shapes[f"block{i}.conv{j}.w"] = (f, f, 3, 3)
            shapes[f"block{i}.conv{j}.b"] = (f,)
    shapes.update({
        "policy.conv.w": (2, f, 1, 1), "policy.conv.b": (2,),
        "policy.fc.w": (meta["moves"], 2 * h * w), "policy.fc.b": (meta["moves"],),
        "value.conv.w": (1, f, 1, 1), "value.conv.b": (1,),
        "value.fc1.w": (meta["hidden"], h * w), "value.fc1.b": (meta["hidden"],),
        "value.fc2.w": (1, meta["hidden"]), "value.fc2.b": (1,),
    })
    return shapes


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
        self.params = {k: np.asarray(params[k], dtype=np.float32) for k in shapes}

    @classmethod
    def random(cls, game: str, height: int, width: int, planes: int = 3, filters: int = 32, blocks: int = 2,
               hidden: int = 32, moves: int | None = None, seed: int = 0) -> "PolicyValueNet":
        """A freshly initialised network (He-normal weights, zero biases)."""
        meta = {"format": FORMAT, "game": game, "height": height, "width": width, "planes": planes,
                "filters": filters, "blocks": blocks, "hidden": hidden,
                "moves": moves if moves is not None else height * width}
        rng = np.random.default_rng(seed)
        params = {}
        for k, shape in param_shapes(meta).items():
            if k.endswith(".b"):
                params[k] = np.zeros(shape, dtype=np.float32)
            else:
                fan_in = int(np.prod(shape[1:]))
                params[k] = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
        return cls(params, meta)

    # -- files ----------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the weights and ``meta`` to ``path`` (a plain ``.npz``)."""
        import io

        from ..core.files import write_atomic

        buf = io.BytesIO()  # (a file object: numpy adds no ".npz" to the name)
        np.savez_compressed(buf, meta=np.array(json.dumps(self.meta, sort_keys=True)), **self.params)
        write_atomic(path, buf.getvalue())

    @classmethod
    def load(cls, path: str | Path) -> "PolicyValueNet":
        """Read a network written by :meth:`save`; ``InvalidOptionError`` quoting the path if it is not one."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError) as e:
            raise InvalidOptionError(f"cannot read network {quote(str(path))}: {e}") from None
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
    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Move logits ``[B, moves]`` and values ``[B]`` of inputs ``x [B, planes, height, width]``."""
        m, p = self.meta, self.params
        if x.ndim != 4 or x.shape[1:] != (m["planes"], m["height"], m["width"]):
            raise ValueError(f"input shape {x.shape} does not fit planes x height x width = "
                             f"{m['planes']} x {m['height']} x {m['width']}")
        x = x.astype(np.float32, copy=False)
        h = _relu(conv2d(x, p["stem.w"], p["stem.b"]))
        for i in range(m["blocks"]):
            y = _relu(conv2d(h, p[f"block{i}.conv1.w"], p[f"block{i}.conv1.b"]))
            y = conv2d(y, p[f"block{i}.conv2.w"], p[f"block{i}.conv2.b"])
            h = _relu(h + y)
        bsz = x.shape[0]
        ph = _relu(conv2d(h, p["policy.conv.w"], p["policy.conv.b"])).reshape(bsz, -1)
        logits = ph @ p["policy.fc.w"].T + p["policy.fc.b"]
        vh = _relu(conv2d(h, p["value.conv.w"], p["value.conv.b"])).reshape(bsz, -1)
        vh = _relu(vh @ p["value.fc1.w"].T + p["value.fc1.b"])
        value = np.tanh(vh @ p["value.fc2.w"].T + p["value.fc2.b"])[:, 0]
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
        logits, values = self.net.forward(x)
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


def network_evaluator(game: Game, path: str | None = None) -> NetworkEvaluator:
    """An evaluator from the network at ``path`` (default: the one shipped for ``game``)."""
    if path is None:
        name = default_net_name(game)
        found = [d / name for d in resource_dirs() if (d / name).is_file()]
        if not found:
            raise InvalidOptionError(f"no network is shipped for {game.spec} (looked for {name}); give net=PATH")
        path = str(found[0])
    net = PolicyValueNet.load(path)
    if net.meta.get("game") != game.spec:
        raise InvalidOptionError(f"network {quote(path)} was trained for {net.meta.get('game')}, not {game.spec}")
    return NetworkEvaluator(net, encoder_for(game), game.num_players)
