"""Supervised bootstrap data from an alpha-beta engine: its games, moves and multi-PV scores.

An engine of the game (gomoku's ``mtdf`` by default) plays itself from random
openings under a node limit with ``multipv`` lines. Every position keeps the
first moves of the lines and their scores (policy targets, see
:func:`policy_target`) and the game's result (the value target). Early in a
game the move is drawn among the lines close to the best, so games differ.

Games are written in chunks (``chunk-00000.npz``, a plain ``.npz``) as they are
finished; a run that is stopped and started again skips the chunks already on
disk, so generation is resumable and can be split over processes by chunk.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.files import write_atomic, write_npz
from ..core.limits import Limits
from ..core.registry import Game, load_game, make_engine
from ..core.score import Score
from ..core.state import State
from .data import Positions

#: Mate scores are stored as ``±(MATE - plies)`` so they sort above every evaluation.
MATE = 30_000


@dataclass(frozen=True)
class BootstrapSettings:
    """How the alpha-beta games are generated."""

    game: str = "gomoku(size=15,rule=freestyle)"
    engine: str = "mtdf"
    nodes: int = 20_000  # nodes per move for each search
    multipv: int = 4
    games_per_chunk: int = 25
    opening_min: int = 1  # random stones before the engine plays
    opening_max: int = 6
    opening_radius: int = 3  # random opening stones within this distance of the centre
    explore_plies: int = 12  # plies after the opening whose move is drawn among the good lines
    explore_margin: int = 150  # ... among lines within this many units of the best
    explore_temperature: float = 60.0  # ... with weights exp((score - best) / T)
    max_plies: int = 225
    seed: int = 1


def score_units(score: Score) -> float:
    """A search score as one number from the mover's view: evaluation units, ``±(MATE - plies)`` for mates."""
    if score.kind == "mate":
        plies = int(score.value)
        return float(MATE - abs(plies)) * (1 if plies > 0 else -1)
    if score.kind in ("eval", "draw"):
        return float(score.value)
    if score.kind == "winrate":
        return float(score.value) * 2000.0 - 1000.0
    raise ValueError(f"cannot turn a {score.kind} score into units")


def _opening(game: Game, rng: np.random.Generator, s: BootstrapSettings) -> State:
    state = game.new_state()
    size = int(getattr(game, "size", 0)) or int(math.isqrt(len(state.legal_moves())))
    centre = size // 2
    k = int(rng.integers(s.opening_min, s.opening_max + 1))
    near = [r * size + c for r in range(size) for c in range(size)
            if max(abs(r - centre), abs(c - centre)) <= s.opening_radius]
    for _ in range(k):
        legal = set(state.legal_moves())
        choices = [m for m in near if m in legal]
        if not choices or state.is_terminal():
            break
        state.play(int(choices[int(rng.integers(len(choices)))]))
    return state


def play_game(game: Game, engine: Any, s: BootstrapSettings, rng: np.random.Generator) -> dict[str, Any]:
    """One engine-against-itself game: moves, opening length, per-position lines and scores, result."""
    state = _opening(game, rng, s)
    opening = len(state.history)
    if hasattr(engine, "new_game"):
        engine.new_game()
    lines_moves: list[list[int]] = []
    lines_scores: list[list[float]] = []
    plies: list[int] = []
    while not state.is_terminal() and len(state.history) < s.max_plies:
        r = engine.search(state, Limits(nodes=s.nodes, multipv=s.multipv))
        lines = [ln for ln in r.lines if ln.pv] or []
        moves = [int(ln.pv[0]) for ln in lines]
        scores = [score_units(ln.score) for ln in lines]
        if not moves:
            moves, scores = [int(r.best_move)], [score_units(r.score)]
        move = moves[0]
        if len(state.history) - opening < s.explore_plies and len(moves) > 1:
            best = max(scores)
            ok = [i for i, v in enumerate(scores) if v >= best - s.explore_margin]
            w = np.array([math.exp((scores[i] - best) / s.explore_temperature) for i in ok])
            move = moves[ok[int(rng.choice(len(ok), p=w / w.sum()))]]
        plies.append(len(state.history))
        lines_moves.append(moves)
        lines_scores.append(scores)
        state.play(move)
    returns = state.returns() if state.is_terminal() else [0.0, 0.0]
    return {"moves": list(state.history), "opening": opening, "plies": plies,
            "lines_moves": lines_moves, "lines_scores": lines_scores, "result": float(returns[0])}


def _pack(games: list[dict[str, Any]], k: int) -> dict[str, np.ndarray]:
    n = sum(len(g["plies"]) for g in games)
    pv_moves = np.full((n, k), -1, dtype=np.int16)
    pv_scores = np.zeros((n, k), dtype=np.float32)
    game_of = np.zeros(n, dtype=np.int32)
    ply = np.zeros(n, dtype=np.int16)
    row = 0
    for gi, g in enumerate(games):
        for p, ms, ss in zip(g["plies"], g["lines_moves"], g["lines_scores"]):
            pv_moves[row, :len(ms)] = ms[:k]
            pv_scores[row, :len(ss)] = ss[:k]
            game_of[row], ply[row] = gi, p
            row += 1
    lengths = np.array([len(g["moves"]) for g in games], dtype=np.int32)
    return {"moves": np.concatenate([np.asarray(g["moves"], dtype=np.int16) for g in games]),
            "game_len": lengths, "opening": np.array([g["opening"] for g in games], dtype=np.int16),
            "result": np.array([g["result"] for g in games], dtype=np.float32),
            "game_of": game_of, "ply": ply, "pv_moves": pv_moves, "pv_scores": pv_scores}


def generate_chunk(settings: BootstrapSettings, index: int, out_dir: str | Path) -> Path:
    """Play chunk ``index``'s games (seeded by the settings' seed and the index) and write it; skip if present."""
    out = Path(out_dir) / f"chunk-{index:05d}.npz"
    if out.exists():
        return out
    game = load_game(settings.game)
    engine = make_engine(game, settings.engine)
    rng = np.random.default_rng([settings.seed, index])
    games = [play_game(game, engine, settings, rng) for _ in range(settings.games_per_chunk)]
    arrays = _pack(games, settings.multipv)
    write_npz(out, {"settings": np.array(json.dumps(asdict(settings), sort_keys=True)), **arrays}, allow_pickle=False)
    return out


def generate(settings: BootstrapSettings, chunks: int, out_dir: str | Path,
             progress: Callable[[str], None] | None = None) -> list[Path]:
    """Chunks ``0 .. chunks-1`` of bootstrap games under ``out_dir`` (those already there are kept)."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    write_atomic(d / "settings.json", json.dumps(asdict(settings), indent=1, sort_keys=True) + "\n")
    paths = []
    for i in range(chunks):
        t0 = time.perf_counter()
        existed = (d / f"chunk-{i:05d}.npz").exists()
        paths.append(generate_chunk(settings, i, d))
        if progress is not None and not existed:
            progress(f"bootstrap chunk {i + 1}/{chunks}: {time.perf_counter() - t0:.0f} s")
    return paths


# -- reading ------------------------------------------------------------------


def policy_target(moves: np.ndarray, scores: np.ndarray, cells: int, temperature: float = 100.0,
                  best_weight: float = 0.5) -> np.ndarray:
    """A distribution over cells from an engine's lines: ``best_weight`` on the best move, the rest
    spread by ``exp((score - best) / temperature)`` over the lines (mates count as ``±MATE``)."""
    pi = np.zeros(cells, dtype=np.float32)
    ok = moves >= 0
    ms, ss = moves[ok].astype(np.int64), scores[ok].astype(np.float64)
    if len(ms) == 0:
        return pi
    ss = np.clip(ss, -MATE, MATE)
    w = np.exp((ss - ss.max()) / temperature)
    pi[ms] += (1.0 - best_weight) * (w / w.sum()).astype(np.float32)
    pi[ms[int(np.argmax(ss))]] += best_weight
    return pi


def load_positions(paths: Iterable[str | Path], cells: int, temperature: float = 100.0,
                   best_weight: float = 0.5, score_weight: float = 0.0, score_scale: float = 800.0) -> Positions:
    """Every position of the chunk files as boards with policy targets (:func:`policy_target`) and value
    targets: the game's result, mixed with ``score_weight`` of the best line's score as
    ``tanh(score / score_scale)`` (0: the result alone)."""
    parts = []
    for path in paths:
        with np.load(path, allow_pickle=False) as d:
            moves, lens, result = d["moves"], d["game_len"], d["result"]
            game_of, ply, pvm, pvs = d["game_of"], d["ply"], d["pv_moves"], d["pv_scores"]
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
        n = len(ply)
        boards = np.zeros((n, cells), dtype=np.int8)
        stones = (1 + ply % 2).astype(np.int8)
        pi = np.zeros((n, cells), dtype=np.float32)
        z = np.zeros(n, dtype=np.float32)
        for i in range(n):
            g, p = int(game_of[i]), int(ply[i])
            seq = moves[starts[g]:starts[g] + p].astype(np.int64)
            boards[i, seq[0::2]] = 1
            boards[i, seq[1::2]] = 2
            pi[i] = policy_target(pvm[i], pvs[i], cells, temperature, best_weight)
            r = result[g] if p % 2 == 0 else -result[g]
            best = float(np.max(pvs[i][pvm[i] >= 0])) if (pvm[i] >= 0).any() else 0.0
            z[i] = (1.0 - score_weight) * r + score_weight * math.tanh(best / score_scale)
        parts.append(Positions(boards, stones, pi, z))
    return Positions.concat(parts)
