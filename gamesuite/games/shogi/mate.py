"""A mate search for shogi: df-pn (depth-first proof-number search) as a numba kernel.

The attacker (the side to move at the root) plays only checking moves, the
defender every legal move (evasions, since it is in check). A position where
the defender has no legal move is mated; one where the attacker has no
checking move is not. Pawn-drop mate is excluded by the move generator, so a
mate found never ends with one. A repetition on the path counts as a failure
for the attacker (in shogi, perpetual check loses).

The kernel has its own transposition table (``MateTable``): per entry the
key, proof number, disproof number and, for a proven position, the length in
plies of the mate found. After a proof, ``MateSearch.solve`` walks the table
to a mating line (the attacker's shortest known mate, the defender's longest
resistance) and makes sure every step of it is proven, so the line is a
forced mate of the length reported.

The plain-Python reference is ``mate_reference`` (a depth-limited AND/OR
search); the tests compare the two.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .board import SLIDE_MASK, STEP_MASK
from .kernels import MAX_MOVES, SCRATCH, _generate, _in_check, _make, _unmake
from .search import _key_after

INF = 1 << 40
MAX_MATE_PLY = 96
#: Mates up to this many plies are looked for first by depth-limited searches.
SHORT_PLIES = 7
# stats slots
NODES, ABORTED, NODE_LIMIT = 0, 1, 2
STATS = 3
# table columns
PN, DN, LEN = 0, 1, 2
_ATTACKER_SALT = np.uint64(0x9E3779B97F4A7C15)
#: Keys of "plies left" for the depth-limited searches (entries of different depths must not mix).
_ZDEP = np.random.default_rng(0x3A7E).integers(1, 2**63 - 1, size=MAX_MATE_PLY + 2, dtype=np.int64).astype(np.uint64)


@njit(cache=True, nogil=True, _nrt=False)
def _checks_only(board, hands, kings, us, n, out, N, files, sq2p, p2sq, dirs, stepm, slidem, W) -> int:
    """Keep, in place, the moves of ``out[:n]`` that check the opponent; return how many.

    A drop far from every line and step to the king cannot check and is skipped without being made.
    """
    k = 0
    them = 1 - us
    ek = kings[them]
    if ek < 0:
        return 0
    kr, kc = divmod(p2sq[ek], files)
    fwd = -1 if us == 0 else 1  # the row step of ``us``'s forward direction
    for x in range(n):
        m = np.int64(out[x])
        frm = m >> 8
        if frm >= N:
            kind = frm - N + 1
            tr, tc = divmod((m >> 1) & 127, files)
            dr = kr - tr
            dc = kc - tc
            if kind == 2:  # lance: same file, king ahead
                ok = dc == 0 and dr * fwd > 0
            elif kind == 5:  # bishop
                ok = dr == dc or dr == -dc
            elif kind == 6:  # rook
                ok = dr == 0 or dc == 0
            elif kind == 3:  # knight
                ok = dr == 2 * fwd and (dc == 1 or dc == -1)
            else:  # pawn, silver, gold: next to the king
                ok = -1 <= dr <= 1 and -1 <= dc <= 1
            if not ok:
                continue
        cap = _make(board, hands, kings, us, m, N, sq2p)
        c = _in_check(board, kings, them, dirs, stepm, slidem, W)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        if c:
            out[k] = m
            k += 1
    return k


@njit(cache=True, nogil=True, _nrt=False)
def _mate_moves(board, hands, kings, us, attacker, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out,
                scratch) -> int:
    """The moves of a mate-search node: checks for the attacker, every legal move for the defender."""
    n = _generate(board, hands, kings, us, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab, out, scratch)
    if us != attacker:
        return n
    return _checks_only(board, hands, kings, us, n, out, geo[3], geo[0], sq2p, p2sq, dirs, stepm, slidem, geo[2])


@njit(cache=True, nogil=True, _nrt=False)
def _tt_index(tkey, key) -> np.int64:
    return np.int64(key & np.uint64(tkey.shape[0] - 1))


@njit(cache=True, nogil=True, _nrt=False)
def _tt_get(tkey, tval, key, out3) -> bool:
    """Copy the entry of ``key`` into ``out3`` (pn, dn, len); False when absent."""
    i = _tt_index(tkey, key)
    if tkey[i] != key:
        return False
    out3[0] = tval[i, PN]
    out3[1] = tval[i, DN]
    out3[2] = tval[i, LEN]
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _tt_put(tkey, tval, key, pn, dn, length) -> None:
    i = _tt_index(tkey, key)
    tkey[i] = key
    tval[i, PN] = pn
    tval[i, DN] = dn
    tval[i, LEN] = length


@njit(cache=True, nogil=True, _nrt=False)
def _mid(board, hands, kings, us, attacker, ply, maxply, thpn, thdn, key, salt, zdep, geo, sq2p, p2sq, rel, pfile,
         dirs, stepm, slidem, tab, zb, zh, zs, tkey, tval, path, buf, scratch, cpn, cdn, clen, ckey, res, stop,
         stats) -> int:
    """Expand the node at ``ply`` until its proof number reaches ``thpn`` or its disproof number ``thdn``.

    Leaves (pn, dn, mate length) in ``res[ply]`` and the table. ``path[:ply + 1]`` holds the keys of
    the path (for repetitions). Only mates within ``maxply`` plies count; when ``maxply`` is below
    ``MAX_MATE_PLY`` the table entries are keyed by the plies left too (``zdep``).
    """
    stats[NODES] += 1
    if (stats[NODES] & 1023) == 0 and (stop[0] != 0 or (stats[NODE_LIMIT] > 0 and stats[NODES] >= stats[NODE_LIMIT])):
        stats[ABORTED] = 1
    path[ply] = key
    or_node = us == attacker
    rem = maxply - ply
    limited = maxply < MAX_MATE_PLY
    if or_node and rem <= 0:  # too deep: no mate along this path (not stored)
        res[ply, 0] = INF
        res[ply, 1] = 0
        res[ply, 2] = 0
        return 0
    N = geo[3]
    n = _mate_moves(board, hands, kings, us, attacker, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
                    buf[ply], scratch[ply])
    if n > 0 and rem <= 0:  # the defender can still move when the plies are used up
        res[ply, 0] = INF
        res[ply, 1] = 0
        res[ply, 2] = 0
        return 0
    salt0 = salt
    csalt = salt ^ zdep[rem - 1] if limited else salt
    salt = salt ^ zdep[rem] if limited else salt
    if n == 0:
        if or_node:
            pn, dn = INF, 0
        else:
            pn, dn = 0, INF
        _tt_put(tkey, tval, key ^ salt, pn, dn, 0)
        res[ply, 0] = pn
        res[ply, 1] = dn
        res[ply, 2] = 0
        return 0
    tmp = res[ply]
    for x in range(n):
        m = np.int64(buf[ply, x])
        ck = _key_after(board, hands, us, m, key, N, sq2p, zb, zh, zs)
        ckey[ply, x] = ck
        rep = False
        j = ply - 1
        while j >= 0:
            if path[j] == ck:
                rep = True
                break
            j -= 2
        if rep:
            cpn[ply, x] = INF
            cdn[ply, x] = 0
            clen[ply, x] = 0
        elif _tt_get(tkey, tval, ck ^ csalt, tmp):
            cpn[ply, x] = tmp[0]
            cdn[ply, x] = tmp[1]
            clen[ply, x] = tmp[2]
        else:
            cpn[ply, x] = 1
            cdn[ply, x] = 1
            clen[ply, x] = 0
    pn = 0
    dn = 0
    while True:
        # the node's numbers from its children's, and the child to expand
        best = 0
        b1 = INF + 1
        b2 = INF + 1
        total = 0
        for x in range(n):
            a = cpn[ply, x] if or_node else cdn[ply, x]  # the number minimised
            s = cdn[ply, x] if or_node else cpn[ply, x]  # the number summed
            total = min(INF, total + s)
            if a < b1:
                b2 = b1
                b1 = a
                best = x
            elif a < b2:
                b2 = a
        if or_node:
            pn, dn = b1, total
        else:
            pn, dn = total, b1
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn or stats[ABORTED] != 0:
            break
        if or_node:
            c_thpn = min(thpn, b2 + 1)
            c_thdn = min(INF, thdn - dn + cdn[ply, best])
        else:
            c_thdn = min(thdn, b2 + 1)
            c_thpn = min(INF, thpn - pn + cpn[ply, best])
        m = np.int64(buf[ply, best])
        cap = _make(board, hands, kings, us, m, N, sq2p)
        _mid(board, hands, kings, np.int64(1 - us), attacker, np.int64(ply + 1), maxply, np.int64(c_thpn),
             np.int64(c_thdn), ckey[ply, best], salt0, zdep, geo, sq2p, p2sq, rel, pfile, dirs, stepm, slidem, tab,
             zb, zh, zs, tkey, tval, path, buf, scratch, cpn, cdn, clen, ckey, res, stop, stats)
        _unmake(board, hands, kings, us, m, cap, N, sq2p)
        cpn[ply, best] = res[ply + 1, 0]
        cdn[ply, best] = res[ply + 1, 1]
        clen[ply, best] = res[ply + 1, 2]
    length = 0
    if pn == 0:
        if or_node:
            length = INF
            for x in range(n):
                if cpn[ply, x] == 0 and clen[ply, x] + 1 < length:
                    length = clen[ply, x] + 1
        else:
            for x in range(n):
                length = max(length, clen[ply, x] + 1)
    _tt_put(tkey, tval, key ^ salt, pn, dn, length)
    res[ply, 0] = pn
    res[ply, 1] = dn
    res[ply, 2] = length
    return 0


def _table_size(mb: float) -> int:
    """Entries (a power of two) of a mate table of about ``mb`` megabytes (32 bytes each)."""
    n = max(1024, int(mb * 1024 * 1024 / 32))
    return 1 << (n.bit_length() - 1)


class MateTable:
    """The df-pn transposition table: keys and (pn, dn, length) per entry."""

    def __init__(self, mb: float = 16) -> None:
        if not mb > 0:
            raise ValueError(f"mate table size must be positive, got {mb!r} MB")
        size = _table_size(mb)
        self.keys = np.zeros(size, dtype=np.uint64)
        self.values = np.zeros((size, 3), dtype=np.int64)

    def clear(self) -> None:
        self.keys[:] = 0
        self.values[:] = 0


@dataclass(frozen=True)
class MateResult:
    """What a mate search found.

    ``status`` is ``"mate"`` (``pv`` is a forced mate of ``len(pv)`` plies),
    ``"nomate"`` (proven: no mate by checks), or ``"unknown"`` (the node
    limit or the stop flag came first).
    """

    status: str
    pv: tuple[int, ...]
    nodes: int

    @property
    def plies(self) -> int:
        return len(self.pv)


class MateSearch:
    """df-pn over the arrays of one position (``state`` is not changed)."""

    def __init__(self, state, table: MateTable | None = None) -> None:  # type: ignore[no-untyped-def]
        self.g = g = state.g
        self.board = state.board.copy()
        self.hands = state.hands.copy()
        self.kings = state.kings.copy()
        self.us = np.int64(state.color)
        self.key = np.uint64(state.key)
        self.table = table if table is not None else MateTable(4)
        self.salt = np.uint64(0) if state.color == 0 else _ATTACKER_SALT
        size = MAX_MATE_PLY + 2
        self.path = np.zeros(size, dtype=np.uint64)
        self.buf = np.zeros((size, MAX_MOVES), dtype=np.int32)
        self.scratch = np.zeros((size, SCRATCH), dtype=np.int64)
        self.cpn = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.cdn = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.clen = np.zeros((size, MAX_MOVES), dtype=np.int64)
        self.ckey = np.zeros((size, MAX_MOVES), dtype=np.uint64)
        self.res = np.zeros((size, 3), dtype=np.int64)
        self.stats = np.zeros(STATS, dtype=np.int64)
        self.total = 0
        self.budget = 0
        self.zs = np.array([g.zob_side], dtype=np.uint64)

    @property
    def nodes(self) -> int:
        """Nodes of the last df-pn run."""
        return int(self.stats[NODES])

    def _salt(self, maxply: int, rem: int) -> np.uint64:
        return self.salt ^ _ZDEP[rem] if maxply < MAX_MATE_PLY else self.salt

    def _prove(self, us: int, key: np.uint64, maxply: int, stop: np.ndarray) -> tuple[int, int, int]:
        """Run df-pn from the arrays' current position (``us`` to move) until solved or stopped."""
        g = self.g
        n0 = int(self.stats[NODES])
        _mid(self.board, self.hands, self.kings, np.int64(us), self.us, np.int64(0), np.int64(maxply), np.int64(INF),
             np.int64(INF), np.uint64(key), self.salt, _ZDEP, g.geo, g.sq2p, g.p2sq, g.rel, g.pfile, g.dirs,
             STEP_MASK, SLIDE_MASK, g.tab, g.zob_board, g.zob_hand, self.zs, self.table.keys, self.table.values,
             self.path, self.buf, self.scratch, self.cpn, self.cdn, self.clen, self.ckey, self.res, stop, self.stats)
        self.total += int(self.stats[NODES]) - n0
        return int(self.res[0, 0]), int(self.res[0, 1]), int(self.res[0, 2])

    def _lookup(self, key: np.uint64, salt: np.uint64) -> tuple[int, int, int] | None:
        out = np.zeros(3, dtype=np.int64)
        if _tt_get(self.table.keys, self.table.values, np.uint64(key) ^ salt, out):
            return int(out[0]), int(out[1]), int(out[2])
        return None

    def _moves(self, us: int) -> list[int]:
        g = self.g
        out = np.zeros(MAX_MOVES, dtype=np.int32)
        n = _mate_moves(self.board, self.hands, self.kings, np.int64(us), self.us, g.geo, g.sq2p, g.p2sq, g.rel,
                        g.pfile, g.dirs, STEP_MASK, SLIDE_MASK, g.tab, out, np.zeros(SCRATCH, dtype=np.int64))
        return [int(m) for m in out[:n]]

    def solve(self, nodes: int = 0, stop: np.ndarray | None = None) -> MateResult:
        """Search for a mate by the side to move; ``nodes`` limits the nodes (0: no limit).

        First df-pn limited to 1, 3, ..., ``SHORT_PLIES`` plies (so short mates are found, and found
        shortest, even where checks could go on for ever), then unlimited df-pn, whose mate, if any,
        is then shortened by limited searches from ``SHORT_PLIES + 2`` plies on.
        """
        if nodes < 0:
            raise ValueError(f"node limit must not be negative, got {nodes}")
        flag = stop if stop is not None else np.zeros(1, dtype=np.uint8)
        self.total = 0
        self.budget = nodes
        for d in range(1, SHORT_PLIES + 1, 2):
            pv = self._limited(d, flag, share=2)
            if pv is not None:
                return MateResult("mate", tuple(pv), self.total)
            if flag[0]:
                return MateResult("unknown", (), self.total)
        pn, dn = self._run(MAX_MATE_PLY, flag, share=1)
        if pn != 0 and dn != 0:
            return MateResult("unknown", (), self.total)
        if dn == 0:
            return MateResult("nomate", (), self.total)
        pv = self._line(MAX_MATE_PLY, flag)
        if pv is None:
            return MateResult("unknown", (), self.total)
        for d in range(SHORT_PLIES + 2, len(pv) - 1, 2):
            short = self._limited(d, flag, share=1)
            if short is not None:
                if len(short) < len(pv):
                    pv = short
                break
            if flag[0] or (self.budget and self.total >= self.budget):
                break
        return MateResult("mate", tuple(pv), self.total)

    def _run(self, maxply: int, flag: np.ndarray, share: int) -> tuple[int, int]:
        """df-pn from the root within ``maxply`` plies and 1/``share`` of the nodes left; (pn, dn)."""
        self.stats[:] = 0
        if self.budget:
            left = self.budget - self.total
            if left <= 0:
                return 1, 1
            self.stats[NODE_LIMIT] = max(1, left // share)
        pn, dn, _ = self._prove(int(self.us), self.key, maxply, flag)
        if self.stats[ABORTED]:
            return 1, 1
        return pn, dn

    def _limited(self, d: int, flag: np.ndarray, share: int) -> list[int] | None:
        """A mate within ``d`` plies, or None."""
        pn, _dn = self._run(d, flag, share)
        if pn != 0:
            return None
        return self._line(d, flag)

    def _line(self, maxply: int, flag: np.ndarray) -> list[int] | None:
        """A mating line through proven positions: the shortest known mate, the longest defence."""
        g = self.g
        us = int(self.us)
        attacker = int(self.us)
        self.stats[ABORTED] = 0  # proving the defences along the line gets a node limit of its own
        self.stats[NODE_LIMIT] = int(self.stats[NODES]) + self.budget if self.budget else 0
        key = self.key
        line: list[int] = []
        undo: list[tuple[int, int, int]] = []
        seen = {int(key)}
        try:
            while True:
                ply = len(line)
                moves = self._moves(us)
                if us != attacker and not moves:
                    return line  # the defender is mated
                if ply >= maxply or not moves:
                    return None
                csalt = self._salt(maxply, maxply - ply - 1)
                choice, choice_len = -1, -1
                for m in moves:
                    ck = _key_after(self.board, self.hands, np.int64(us), np.int64(m), np.uint64(key), np.int64(g.N),
                                    g.sq2p, g.zob_board, g.zob_hand, self.zs)
                    if int(ck) in seen:
                        entry = None if us == attacker else (1, 0, 0)  # a repetition is no mate
                    else:
                        entry = self._lookup(ck, csalt)
                        if us != attacker and (entry is None or entry[0] != 0):
                            entry = self._prove_child(us, m, ck, maxply - ply - 1, flag)  # every defence must be proven
                    if entry is None or entry[0] != 0:
                        if us != attacker:
                            return None
                        continue
                    length = entry[2]
                    if choice < 0 or (length < choice_len if us == attacker else length > choice_len):
                        choice, choice_len = m, length
                if choice < 0:
                    if self.stats[ABORTED] or flag[0]:
                        return None
                    # the attacker's proven child was overwritten: prove this position again
                    pn, _dn, _ = self._prove(us, key, maxply - ply, flag)
                    if pn != 0:
                        return None
                    continue
                ck = _key_after(self.board, self.hands, np.int64(us), np.int64(choice), np.uint64(key),
                                np.int64(g.N), g.sq2p, g.zob_board, g.zob_hand, self.zs)
                cap = _make(self.board, self.hands, self.kings, np.int64(us), np.int64(choice), np.int64(g.N), g.sq2p)
                undo.append((us, choice, cap))
                line.append(choice)
                key = ck
                seen.add(int(key))
                us = 1 - us
        finally:
            for u, m, cap in reversed(undo):
                _unmake(self.board, self.hands, self.kings, np.int64(u), np.int64(m), np.int64(cap), np.int64(g.N),
                        g.sq2p)

    def _prove_child(self, us: int, m: int, ck: np.uint64, maxply: int,
                     flag: np.ndarray) -> tuple[int, int, int] | None:
        if self.stats[ABORTED] or flag[0]:
            return None
        g = self.g
        cap = _make(self.board, self.hands, self.kings, np.int64(us), np.int64(m), np.int64(g.N), g.sq2p)
        try:
            r = self._prove(1 - us, ck, maxply, flag)
        finally:
            _unmake(self.board, self.hands, self.kings, np.int64(us), np.int64(m), np.int64(cap), np.int64(g.N),
                    g.sq2p)
        return None if self.stats[ABORTED] else r


def find_mate(state, nodes: int = 0, stop: np.ndarray | None = None,  # type: ignore[no-untyped-def]
              table: MateTable | None = None) -> MateResult:
    """df-pn mate search for the side to move of ``state`` (a ``ShogiState``)."""
    return MateSearch(state, table).solve(nodes, stop)


# -- the plain-Python reference -------------------------------------------------


def _checks(state) -> list[int]:  # type: ignore[no-untyped-def]
    out = []
    for m in state._moves():
        state.play(m)
        if state.in_check():
            out.append(m)
        state.undo()
    return out


def mate_reference(state, max_plies: int) -> int | None:  # type: ignore[no-untyped-def]
    """The length in plies of the shortest mate by checks within ``max_plies``, or None (plain Python).

    Depth-limited AND/OR search by iterative deepening over odd depths; repetitions are no mate.
    """
    state = state.copy()
    memo: dict[tuple[int, int], bool] = {}

    def attack(depth: int, path: set[int]) -> bool:
        if depth <= 0:
            return False
        k = (state.key, depth)
        if k in memo:
            return memo[k]
        ok = False
        for m in _checks(state):
            state.play(m)
            if state.key not in path:
                path.add(state.key)
                ok = defend(depth - 1, path)
                path.discard(state.key)
            state.undo()
            if ok:
                break
        memo[k] = ok
        return ok

    def defend(depth: int, path: set[int]) -> bool:
        moves = list(state._moves())
        if not moves:
            return True
        if depth <= 0:
            return False
        for m in moves:
            state.play(m)
            ok = state.key not in path
            if ok:
                path.add(state.key)
                ok = attack(depth - 1, path)
                path.discard(state.key)
            state.undo()
            if not ok:
                return False
        return True

    for d in range(1, max_plies + 1, 2):
        memo.clear()
        if attack(d, {state.key}):
            return d
    return None


def is_forced_mate(state, line, plies: int) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``line`` is legal, every attacker move checks, it ends in mate, and the root is mate in ``plies``.

    The last part uses ``mate_reference`` (the defender's alternatives are all refuted within ``plies``).
    """
    s = state.copy()
    for i, m in enumerate(line):
        if m not in s._moves():
            return False
        s.play(m)
        if i % 2 == 0 and not s.in_check():
            return False
    if len(line) % 2 != 1 or s._moves() or not s.in_check():
        return False
    found = mate_reference(state, plies)
    return found is not None and found <= plies


__all__ = ["INF", "MateResult", "MateSearch", "MateTable", "find_mate", "is_forced_mate", "mate_reference"]
