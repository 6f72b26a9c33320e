"""The policy-value network as an ONNX model, run by onnxruntime when it is installed.

onnxruntime's convolutions run the gomoku network two to three times faster
than the numpy inference on one core (figures in ``docs/mcts.md``), so the
engine uses it when it can; the numpy forward pass stays the reference the
tests compare it with, and the fallback.

The model is written here straight from the weights in the protobuf wire
format (the handful of ONNX messages the graph needs), so neither PyTorch nor
the ``onnx`` package is needed to play: only ``onnxruntime``.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

#: The operator set the graph is written for (ReduceMean/ReduceMax take ``axes`` as an attribute up to 17).
OPSET = 13
IR_VERSION = 7

# -- protobuf wire format -------------------------------------------------------


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # int64 as two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint((field << 3) | wire)


def _int(field: int, n: int) -> bytes:
    return _key(field, 0) + _varint(n)


def _bytes(field: int, data: bytes) -> bytes:
    return _key(field, 2) + _varint(len(data)) + data


def _str(field: int, text: str) -> bytes:
    return _bytes(field, text.encode())


def _float(field: int, x: float) -> bytes:
    return _key(field, 5) + struct.pack("<f", x)


# -- ONNX messages ----------------------------------------------------------------

_FLOAT = 1  # TensorProto.FLOAT
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7


def _attr(name: str, value: int | float | list[int]) -> bytes:
    if isinstance(value, list):
        body = _str(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTR_INTS)
    elif isinstance(value, float):
        body = _str(1, name) + _float(2, value) + _int(20, _ATTR_FLOAT)
    else:
        body = _str(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    return body


def _node(op: str, inputs: list[str], outputs: list[str], **attrs: int | float | list[int]) -> bytes:
    body = b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs)
    body += _str(3, outputs[0]) + _str(4, op)
    body += b"".join(_bytes(5, _attr(k, v)) for k, v in attrs.items())
    return body


def _tensor(name: str, array: np.ndarray) -> bytes:
    a = np.ascontiguousarray(array, dtype="<f4")
    return b"".join(_int(1, d) for d in a.shape) + _int(2, _FLOAT) + _str(8, name) + _bytes(9, a.tobytes())


def _value_info(name: str, dims: list[int | str]) -> bytes:
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _str(2, d)) for d in dims)
    tensor_type = _int(1, _FLOAT) + _bytes(2, shape)
    return _str(1, name) + _bytes(2, _bytes(1, tensor_type))


def model_bytes(params: dict[str, np.ndarray], meta: dict[str, Any]) -> bytes:
    """The serialized ONNX model of a network (``PolicyValueNet.params`` and ``meta``).

    Input ``x [batch, planes, height, width]`` (height and width free for a fully
    convolutional network); outputs ``logits [batch, moves]`` and ``value [batch, 1]``.
    """
    nodes: list[bytes] = []
    conv_head = meta.get("head", "dense") == "conv"

    def conv(x: str, name: str, out: str, k: int) -> str:
        nodes.append(_node("Conv", [x, name + ".w", name + ".b"], [out], kernel_shape=[k, k],
                           pads=[k // 2] * 4, strides=[1, 1]))
        return out

    def relu(x: str, out: str) -> str:
        nodes.append(_node("Relu", [x], [out]))
        return out

    def dense(x: str, name: str, out: str) -> str:
        nodes.append(_node("Gemm", [x, name + ".w", name + ".b"], [out], transB=1))
        return out

    h = relu(conv("x", "stem", "stem", 3), "stem.relu")
    for i in range(meta["blocks"]):
        y = relu(conv(h, f"block{i}.conv1", f"b{i}.c1", 3), f"b{i}.r1")
        y = conv(y, f"block{i}.conv2", f"b{i}.c2", 3)
        nodes.append(_node("Add", [h, y], [f"b{i}.add"]))
        h = relu(f"b{i}.add", f"b{i}.out")
    if conv_head:
        conv(h, "policy.conv", "policy.map", 1)
        nodes.append(_node("Flatten", ["policy.map"], ["logits"], axis=1))
        v = relu(conv(h, "value.conv", "value.map", 1), "value.relu")
        nodes.append(_node("ReduceMean", [v], ["value.mean"], axes=[2, 3], keepdims=0))
        nodes.append(_node("ReduceMax", [v], ["value.max"], axes=[2, 3], keepdims=0))
        nodes.append(_node("Concat", ["value.mean", "value.max"], ["value.pool"], axis=1))
        pooled = "value.pool"
    else:
        ph = relu(conv(h, "policy.conv", "policy.map", 1), "policy.relu")
        nodes.append(_node("Flatten", [ph], ["policy.flat"], axis=1))
        dense("policy.flat", "policy.fc", "logits")
        v = relu(conv(h, "value.conv", "value.map", 1), "value.relu")
        nodes.append(_node("Flatten", [v], ["value.flat"], axis=1))
        pooled = "value.flat"
    vh = relu(dense(pooled, "value.fc1", "value.fc1"), "value.hidden")
    nodes.append(_node("Tanh", [dense(vh, "value.fc2", "value.fc2")], ["value"]))

    hw: list[int | str] = ["height", "width"] if conv_head else [meta["height"], meta["width"]]
    graph = b"".join(_bytes(1, n) for n in nodes) + _str(2, "policy_value")
    graph += b"".join(_bytes(5, _tensor(k, v)) for k, v in params.items())
    graph += _bytes(11, _value_info("x", ["batch", meta["planes"], *hw]))
    graph += _bytes(12, _value_info("logits", ["batch", "moves"]))
    graph += _bytes(12, _value_info("value", ["batch", 1]))
    return (_int(1, IR_VERSION) + _str(2, "gamesuite") + _bytes(7, graph)
            + _bytes(8, _str(1, "") + _int(2, OPSET)))


def available() -> bool:
    """Whether onnxruntime can be imported."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def session(params: dict[str, np.ndarray], meta: dict[str, Any],
            threads: int = 1) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A function ``x [B, planes, H, W] -> (logits [B, moves], values [B])`` run by onnxruntime
    (``ImportError`` when it is not installed)."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.log_severity_level = 3
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")  # no busy threads on a shared machine
    sess = ort.InferenceSession(model_bytes(params, meta), so, providers=["CPUExecutionProvider"])

    def run(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, value = sess.run(None, {"x": np.ascontiguousarray(x, dtype=np.float32)})
        return logits, value[:, 0]

    return run
