"""Training the policy-value network with PyTorch (the optional ``gamesuite[train]`` extra).

torch is imported inside the functions, so this module loads without it; the
weights go back into a numpy :class:`PolicyValueNet` by name.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InvalidOptionError
from ..search.network import PolicyValueNet
from .data import Positions, transform


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise InvalidOptionError("training needs PyTorch: pip install 'gamesuite[train]'") from None
    return torch


def build_model(meta: dict[str, Any]) -> Any:
    """The network of ``meta`` as a ``torch.nn.Module`` (the same layers as the numpy inference)."""
    torch = _torch()
    nn, fn = torch.nn, torch.nn.functional
    c, f, h, w = meta["planes"], meta["filters"], meta["height"], meta["width"]
    conv_head = meta.get("head", "dense") == "conv"

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(c, f, 3, padding=1)
            self.blocks = nn.ModuleList(
                nn.ModuleList([nn.Conv2d(f, f, 3, padding=1), nn.Conv2d(f, f, 3, padding=1)])
                for _ in range(meta["blocks"]))
            if conv_head:
                v = meta["value_planes"]
                self.policy_conv = nn.Conv2d(f, 1, 1)
                self.value_conv = nn.Conv2d(f, v, 1)
                self.value_fc1 = nn.Linear(2 * v, meta["hidden"])
            else:
                self.policy_conv = nn.Conv2d(f, 2, 1)
                self.policy_fc = nn.Linear(2 * h * w, meta["moves"])
                self.value_conv = nn.Conv2d(f, 1, 1)
                self.value_fc1 = nn.Linear(h * w, meta["hidden"])
            self.value_fc2 = nn.Linear(meta["hidden"], 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            x = fn.relu(self.stem(x))
            for conv1, conv2 in self.blocks:
                x = fn.relu(x + conv2(fn.relu(conv1(x))))
            if conv_head:
                p = self.policy_conv(x).flatten(1)
                v = fn.relu(self.value_conv(x)).flatten(2)
                v = torch.cat([v.mean(dim=2), v.amax(dim=2)], dim=1)
            else:
                p = self.policy_fc(fn.relu(self.policy_conv(x)).flatten(1))
                v = fn.relu(self.value_conv(x)).flatten(1)
            v = torch.tanh(self.value_fc2(fn.relu(self.value_fc1(v))))[:, 0]
            return p, v

    return Net()


def _names(meta: dict[str, Any]) -> dict[str, str]:
    """numpy weight name -> torch parameter name."""
    out = {"stem.w": "stem.weight", "stem.b": "stem.bias"}
    for i in range(meta["blocks"]):
        for j in (1, 2):
            out[f"block{i}.conv{j}.w"] = f"blocks.{i}.{j - 1}.weight"
            out[f"block{i}.conv{j}.b"] = f"blocks.{i}.{j - 1}.bias"
    layers = [("policy.conv", "policy_conv"), ("value.conv", "value_conv"), ("value.fc1", "value_fc1"),
              ("value.fc2", "value_fc2")]
    if meta.get("head", "dense") != "conv":
        layers.append(("policy.fc", "policy_fc"))
    for ours, theirs in layers:
        out[ours + ".w"] = theirs + ".weight"
        out[ours + ".b"] = theirs + ".bias"
    return out


def to_torch(net: PolicyValueNet) -> Any:
    """A torch model holding ``net``'s weights."""
    torch = _torch()
    model = build_model(net.meta)
    state = {theirs: torch.from_numpy(net.params[ours].copy()) for ours, theirs in _names(net.meta).items()}
    model.load_state_dict(state)
    return model


def from_torch(model: Any, meta: dict[str, Any]) -> PolicyValueNet:
    """The numpy network of a trained torch ``model``."""
    sd = model.state_dict()
    return PolicyValueNet({ours: sd[theirs].detach().cpu().contiguous().numpy()
                           for ours, theirs in _names(meta).items()}, meta)


BoardEncoder = Callable[[np.ndarray, np.ndarray], np.ndarray]


def _batches(n: int, batch: int, rng: np.random.Generator) -> list[np.ndarray]:
    order = rng.permutation(n)
    return [order[i:i + batch] for i in range(0, n, batch)]


def fit(net: PolicyValueNet, data: Positions, encode: BoardEncoder, epochs: int = 4, batch: int = 256,
        lr: float = 2e-3, weight_decay: float = 1e-4, seed: int = 0, threads: int = 1,
        checkpoint: str | Path | None = None, progress: Callable[[str], None] | None = None,
        ) -> tuple[PolicyValueNet, dict[str, float]]:
    """Fit ``net`` to positions (boards encoded a minibatch at a time by ``encode(boards, stones)``, each
    minibatch turned by a random board symmetry): squared error of the value, cross-entropy of the policy,
    AdamW with a cosine decay of the rate to a tenth.

    With ``checkpoint`` the model and optimizer are saved after every epoch and a run that finds the
    file (for the same network shape and data size) goes on from there.
    """
    torch = _torch()
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    model = to_torch(net).to(memory_format=torch.channels_last)  # a quarter faster on a CPU (measured)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    n = len(data)
    steps_per_epoch = -(-n // batch)
    total = max(1, epochs * steps_per_epoch)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda t: 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(t, total) / total)))
    start = 0
    tag = {"meta": net.meta, "n": n, "epochs": epochs, "batch": batch}
    if checkpoint is not None and Path(checkpoint).exists():
        saved = torch.load(checkpoint, weights_only=False)
        if saved.get("tag") == tag:
            model.load_state_dict(saved["model"])
            opt.load_state_dict(saved["opt"])
            sched.load_state_dict(saved["sched"])
            start = saved["epoch"]
            if progress:
                progress(f"resuming the fit after epoch {start}")
    h, w = net.meta["height"], net.meta["width"]
    last: dict[str, float] = {}
    for epoch in range(start, epochs):
        rng = np.random.default_rng([seed, epoch])
        tv = tp = 0.0
        model.train()
        for idx in _batches(n, batch, rng):
            k = int(rng.integers(8)) if h == w else int(rng.choice([0, 2, 4, 6]))
            x = transform(encode(data.boards[idx], data.stones[idx]), k)
            pi = transform(data.pi[idx].reshape(-1, h, w), k).reshape(len(idx), -1)
            xt = torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32)).contiguous(
                memory_format=torch.channels_last)
            pt = torch.from_numpy(np.ascontiguousarray(pi, dtype=np.float32))
            zt = torch.from_numpy(np.ascontiguousarray(data.z[idx], dtype=np.float32))
            logits, v = model(xt)
            lv = torch.mean((v - zt) ** 2)
            lp = -torch.mean(torch.sum(pt * torch.log_softmax(logits, dim=1), dim=1))
            loss = lv + lp
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tv += float(lv.detach()) * len(idx)
            tp += float(lp.detach()) * len(idx)
        last = {"value_loss": tv / n, "policy_loss": tp / n}
        if checkpoint is not None:
            tmp = Path(str(checkpoint) + ".tmp")
            torch.save({"tag": tag, "model": model.state_dict(), "opt": opt.state_dict(),
                        "sched": sched.state_dict(), "epoch": epoch + 1}, tmp)
            os.replace(tmp, checkpoint)
        if progress:
            progress(f"epoch {epoch + 1}/{epochs}: value loss {last['value_loss']:.3f}, "
                     f"policy loss {last['policy_loss']:.3f}")
    return from_torch(model, net.meta), last
