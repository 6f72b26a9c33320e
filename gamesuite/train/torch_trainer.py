"""Training the policy-value network with PyTorch (the optional ``gamesuite[train]`` extra).

torch is imported inside the functions, so this module loads without it; the
weights go back into a numpy :class:`PolicyValueNet` by name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import InvalidOptionError
from ..search.network import PolicyValueNet
from .selfplay import Examples


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

    class Net(nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(c, f, 3, padding=1)
            self.blocks = nn.ModuleList(
                nn.ModuleList([nn.Conv2d(f, f, 3, padding=1), nn.Conv2d(f, f, 3, padding=1)])
                for _ in range(meta["blocks"]))
            self.policy_conv = nn.Conv2d(f, 2, 1)
            self.policy_fc = nn.Linear(2 * h * w, meta["moves"])
            self.value_conv = nn.Conv2d(f, 1, 1)
            self.value_fc1 = nn.Linear(h * w, meta["hidden"])
            self.value_fc2 = nn.Linear(meta["hidden"], 1)

        def forward(self, x: Any) -> tuple[Any, Any]:
            x = fn.relu(self.stem(x))
            for conv1, conv2 in self.blocks:
                x = fn.relu(x + conv2(fn.relu(conv1(x))))
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
    for ours, theirs in (("policy.conv", "policy_conv"), ("policy.fc", "policy_fc"), ("value.conv", "value_conv"),
                         ("value.fc1", "value_fc1"), ("value.fc2", "value_fc2")):
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
    return PolicyValueNet({ours: sd[theirs].detach().cpu().numpy() for ours, theirs in _names(meta).items()}, meta)


def train(net: PolicyValueNet, data: Examples, epochs: int = 10, batch: int = 64, lr: float = 2e-3,
          weight_decay: float = 1e-4, seed: int = 0, threads: int = 1) -> tuple[PolicyValueNet, dict[str, float]]:
    """Fit ``net`` to ``data`` (value: squared error; policy: cross-entropy with the visit shares)."""
    torch = _torch()
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    model = to_torch(net)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    x, pi, z = (torch.from_numpy(np.ascontiguousarray(a)) for a in (data.x, data.pi, data.z))
    gen = torch.Generator().manual_seed(seed)
    last = {}
    for _ in range(epochs):
        order = torch.randperm(len(z), generator=gen)
        tv = tp = 0.0
        for start in range(0, len(z), batch):
            idx = order[start:start + batch]
            logits, v = model(x[idx])
            lv = torch.mean((v - z[idx]) ** 2)
            lp = -torch.mean(torch.sum(pi[idx] * torch.log_softmax(logits, dim=1), dim=1))
            loss = lv + lp
            opt.zero_grad()
            loss.backward()
            opt.step()
            tv += float(lv.detach()) * len(idx)
            tp += float(lp.detach()) * len(idx)
        last = {"value_loss": tv / len(z), "policy_loss": tp / len(z)}
    return from_torch(model, net.meta), last
