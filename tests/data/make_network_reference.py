"""Make ``network_torch_reference.npz``: a random fully convolutional network, inputs, and PyTorch's outputs.

The test suite compares the numpy and onnxruntime inference with these outputs, so the comparison with
torch runs where torch is not installed (CI). Run again (with torch) after changing the network's layers:

    python tests/data/make_network_reference.py
"""

import json
from pathlib import Path

import numpy as np
import torch

from gamesuite.search.network import PolicyValueNet
from gamesuite.train.torch_trainer import to_torch

net = PolicyValueNet.random("gomoku(size=7,rule=freestyle)", 7, 7, planes=11, filters=8, blocks=2, hidden=6,
                            head="conv", value_planes=4, seed=2026)
rng = np.random.default_rng(2026)
for k, v in net.params.items():
    if k.endswith(".b"):
        v[:] = rng.standard_normal(v.shape) * 0.1
x = rng.random((3, 11, 7, 7)).astype(np.float32)
with torch.no_grad():
    logits, value = to_torch(net)(torch.from_numpy(x))
np.savez_compressed(Path(__file__).with_name("network_torch_reference.npz"), meta=np.array(json.dumps(net.meta)),
                    x=x, logits=logits.numpy(), value=value.numpy(),
                    **{"param." + k: v for k, v in net.params.items()})
