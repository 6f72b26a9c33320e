"""A transposition table for numba kernels: one structured numpy array.

Entries are replaced "deeper or newer wins". Mate scores are stored relative to
the node (``value_to_tt`` / ``value_from_tt``) so they stay true when the same
position is reached at another distance from the root.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..core.errors import InvalidOptionError
from ..core.options import MAX_MEMORY_MB, parse_float
from ..core.score import WIN_THRESHOLD

EXACT = 0
LOWER = 1  # value is a lower bound (fail high)
UPPER = 2  # value is an upper bound (fail low)

# One row per slot, all int64 (plain arrays load safely from numba's cache):
KEY, VALUE, MOVE, DEPTH, FLAG, AGE = range(6)
COLUMNS = 6


def new_table(megabytes: float = 16.0) -> np.ndarray:
    """An empty table of about ``megabytes`` (rounded down to a power of two slots).

    ``InvalidOptionError`` for a size that is not a number in (0, ``MAX_MEMORY_MB``]: checked here,
    before anything is allocated, whatever the caller did.
    """
    megabytes = parse_float(megabytes, "hash (MB)", 0, MAX_MEMORY_MB)
    if megabytes <= 0:
        raise InvalidOptionError(f"hash (MB) must be a number in 0..{MAX_MEMORY_MB} above 0, got {megabytes!r}")
    n = max(1024, int(megabytes * 1024 * 1024) // (8 * COLUMNS))
    n = 1 << (n.bit_length() - 1)
    t = np.zeros((n, COLUMNS), dtype=np.int64)
    clear_table(t)
    return t


def clear_table(t: np.ndarray) -> None:
    """Empty ``t`` in place."""
    t[:] = 0
    t[:, MOVE] = -1
    t[:, DEPTH] = -1


def hashfull(t: np.ndarray, age: int = -1) -> int:
    """Per mille of the first 1000 slots in use (of the given age, if any)."""
    head = t[:1000]
    used = head[:, DEPTH] >= 0
    if age >= 0:
        used &= head[:, AGE] == age
    return int(used.sum() * 1000 // len(head))


@njit(cache=True, nogil=True)
def value_to_tt(v: int, ply: int) -> int:
    if v > WIN_THRESHOLD:
        return v + ply
    if v < -WIN_THRESHOLD:
        return v - ply
    return v


@njit(cache=True, nogil=True)
def value_from_tt(v: int, ply: int) -> int:
    if v > WIN_THRESHOLD:
        return v - ply
    if v < -WIN_THRESHOLD:
        return v + ply
    return v


@njit(cache=True, nogil=True)
def tt_probe(t, key) -> int:
    """Row of ``key``'s entry (a uint64 Zobrist key), or -1."""
    i = np.int64(key & np.uint64(t.shape[0] - 1))
    if t[i, KEY] == np.int64(key) and t[i, DEPTH] >= 0:
        return int(i)
    return -1


@njit(cache=True, nogil=True)
def tt_store(t, key, depth, flag, value, move, ply, age) -> None:
    """Store a result unless a deeper entry of the current age holds the slot."""
    i = np.int64(key & np.uint64(t.shape[0] - 1))
    k = np.int64(key)
    same = t[i, KEY] == k
    if same or t[i, AGE] != age or depth >= t[i, DEPTH]:
        if same and move < 0:
            move = t[i, MOVE]
        t[i, KEY] = k
        t[i, VALUE] = value_to_tt(value, ply)
        t[i, MOVE] = move
        t[i, DEPTH] = depth
        t[i, FLAG] = flag
        t[i, AGE] = age


@intrinsic
def _prefetch_row(typingctx, table, row):  # type: ignore[no-untyped-def]
    """A hint to the processor to start loading row ``row`` of a C-contiguous 2-D array (no effect
    on any result; a prefetch never faults)."""
    sig = types.void(table, row)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer2(context, builder, data=ary.data,
                                        shape=cgutils.unpack_tuple(builder, ary.shape),
                                        strides=cgutils.unpack_tuple(builder, ary.strides), layout=aryty.layout,
                                        inds=[args[1], ir.Constant(ir.IntType(64), 0)], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch")
        # a read, kept in every cache level, of data
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, nogil=True)
def tt_prefetch(t, key) -> None:
    """Start loading ``key``'s slot ahead of a ``tt_probe`` of it (a speed hint only)."""
    _prefetch_row(t, np.int64(key & np.uint64(t.shape[0] - 1)))
