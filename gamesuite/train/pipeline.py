"""The training run: bootstrap from an alpha-beta engine, then gated self-play generations; resumable.

Everything lives in one directory (``--dir``):

- ``settings.json``: the settings of the run (written by the first call; later calls read it);
- ``bootstrap/chunk-NNNNN.npz``: the alpha-beta engine's games (``bootstrap.py``);
- ``net-000.npz``: generation 0, the network fitted to the bootstrap positions (random weights without);
- ``selfplay/gen-NNN/chunk-NNNNN.npz``: the self-play positions of generation N, played by the best network
  so far;
- ``cand-NNN.npz``: generation N's candidate, fitted to the window of recent positions from the best network;
- ``fit-NNN.pt``: the optimizer's checkpoint of a fit in progress (a killed fit goes on from its last epoch);
- ``log.jsonl``: one line per finished step (bootstrap fit, each generation with its gate match);
- ``best.json``: which generation is the best network.

A generation's candidate plays the best network so far in an arena match (fixed simulations a move,
colours swapped, the arena's built-in openings); it becomes the best when it scores at least
``gate_threshold``. Every step checks what is on disk first, so a run that was killed is resumed by the same
command. Self-play games and bootstrap chunks are independent tasks, run in worker processes
(``workers``) or on the arena's Dask cluster (``cluster``).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import InvalidOptionError
from ..core.files import write_atomic
from ..core.registry import load_game
from ..search.network import PolicyValueNet, board_encoder_for, encoder_for
from .bootstrap import BootstrapSettings, generate_chunk, load_positions
from .data import Positions
from .selfplay import SelfPlaySettings, exact_check, selfplay_chunk


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides the trained network (saved as ``settings.json`` of the run)."""

    game: str
    # the network
    filters: int = 32
    blocks: int = 3
    hidden: int = 32
    head: str = "conv"
    value_planes: int = 8
    # the alpha-beta bootstrap (0 chunks: none, generation 0 is random)
    bootstrap_chunks: int = 0
    bootstrap: dict[str, Any] = field(default_factory=dict)  # BootstrapSettings fields
    bootstrap_epochs: int = 6
    bootstrap_holdout: int = 1  # chunks kept out of the fit to measure it
    policy_temperature: float = 100.0  # policy target from the engine's lines (bootstrap.policy_target)
    best_weight: float = 0.5
    score_weight: float = 0.0  # value target: 0 = the game's result only
    # self-play generations
    generations: int = 0
    games: int = 100  # self-play games per generation
    games_per_task: int = 4
    selfplay: dict[str, Any] = field(default_factory=dict)  # SelfPlaySettings fields
    window: int = 200_000  # newest self-play positions kept for fitting
    keep_bootstrap: bool = True  # fit every generation on the bootstrap positions too
    epochs: int = 2
    batch: int = 256
    lr: float = 2e-3
    bootstrap_lr: float = 2e-3
    weight_decay: float = 1e-4
    # the gate
    gate_games: int = 20
    gate_nodes: int = 200
    gate_threshold: float = 0.5
    check: bool = False  # small games: compare with the exact values after each step
    seed: int = 1

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainSettings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionError(f"unknown training settings: {', '.join(unknown)}")
        s = cls(**data)
        replace(BootstrapSettings(), **s.bootstrap)  # unknown fields fail here, before any work
        replace(SelfPlaySettings(), **s.selfplay)
        return s

    def bootstrap_settings(self) -> BootstrapSettings:
        return replace(BootstrapSettings(game=self.game, seed=self.seed), **self.bootstrap)

    def selfplay_settings(self) -> dict[str, Any]:
        return asdict(replace(SelfPlaySettings(), **self.selfplay))


# -- running tasks ------------------------------------------------------------------


def run_tasks(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]], workers: int = 1,
              cluster: str | None = None) -> list[Any]:
    """``fn(*args)`` for every ``args`` in ``calls``: here, in ``workers`` processes, or on the Dask
    cluster at ``cluster`` (through the arena's executor's connection). Results in call order."""
    if not calls:
        return []
    if cluster:
        from ..arena.cluster import DaskExecutor

        ex = DaskExecutor(cluster)
        try:
            futures = [ex.client.submit(fn, *args, pure=False) for args in calls]
            return list(ex.client.gather(futures))
        finally:
            ex.close()
    if workers <= 1 or len(calls) == 1:
        return [fn(*args) for args in calls]
    import multiprocessing

    with ProcessPoolExecutor(min(workers, len(calls)), mp_context=multiprocessing.get_context("spawn")) as pool:
        return list(pool.map(fn, *zip(*calls)))


# -- the run --------------------------------------------------------------------------


class Run:
    """A training run in ``directory`` (see the module docstring)."""

    def __init__(self, directory: str | Path, settings: TrainSettings, workers: int = 1, cluster: str | None = None,
                 say: Callable[[str], None] = print) -> None:
        self.dir = Path(directory)
        self.settings = settings
        self.workers = workers
        self.cluster = cluster
        self.say = say
        self.game = load_game(settings.game)
        self.encode = board_encoder_for(self.game)
        encoder_for(self.game)
        board = getattr(self.game.new_state(), "board", None)  # a board game's cells (board_encoder_for checked)
        assert isinstance(board, np.ndarray)
        planes, self.height, self.width = self.encode(np.zeros((1, board.size), np.int8), np.ones(1, np.int8)).shape[1:]
        self.planes = int(planes)
        self.cells = self.height * self.width

    @classmethod
    def open(cls, directory: str | Path, settings: TrainSettings | None, workers: int = 1, cluster: str | None = None,
             say: Callable[[str], None] = print, generations: int | None = None) -> Run:
        """The run in ``directory``: its saved settings (``generations`` may be raised to go on), or new ones."""
        d = Path(directory)
        path = d / "settings.json"
        if path.exists():
            saved = TrainSettings.from_dict(json.loads(path.read_text()))
            if settings is not None and asdict(replace(settings, generations=saved.generations)) != asdict(saved):
                raise InvalidOptionError(f"{path} holds other settings; use another --dir or the same settings")
        elif settings is None:
            raise InvalidOptionError(f"no training run in {d} (no settings.json)")
        else:
            saved = settings
            d.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps(asdict(saved), indent=1, sort_keys=True) + "\n")
        if generations is not None and generations != saved.generations:
            saved = replace(saved, generations=generations)
            write_atomic(path, json.dumps(asdict(saved), indent=1, sort_keys=True) + "\n")
        return cls(d, saved, workers, cluster, say)

    # -- files ----------------------------------------------------------------------
    def net_path(self, gen: int) -> Path:
        return self.dir / (f"net-{gen:03d}.npz" if gen == 0 else f"cand-{gen:03d}.npz")

    def log_entries(self) -> list[dict[str, Any]]:
        path = self.dir / "log.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def _log(self, entry: dict[str, Any]) -> None:
        with open(self.dir / "log.jsonl", "a") as f:
            f.write(json.dumps(entry, sort_keys=True) + "\n")
        self.say(format_entry(entry))

    def best(self) -> int:
        path = self.dir / "best.json"
        return int(json.loads(path.read_text())["generation"]) if path.exists() else 0

    def _set_best(self, gen: int) -> None:
        write_atomic(self.dir / "best.json", json.dumps({"generation": gen}) + "\n")

    def best_net(self) -> Path:
        return self.net_path(self.best())

    # -- steps ----------------------------------------------------------------------
    def run(self) -> Path:
        """Do whatever is not done yet; the path of the best network."""
        s = self.settings
        done = {e["generation"] for e in self.log_entries()}
        if 0 not in done:
            self.generation_zero()
        for gen in range(1, s.generations + 1):
            if gen not in done:
                self.generation(gen)
        return self.best_net()

    def _bootstrap_paths(self) -> list[Path]:
        s = self.settings
        if s.bootstrap_chunks <= 0:
            return []
        d = self.dir / "bootstrap"
        d.mkdir(parents=True, exist_ok=True)
        bs = s.bootstrap_settings()
        write_atomic(d / "settings.json", json.dumps(asdict(bs), indent=1, sort_keys=True) + "\n")
        todo = [(bs, i, str(d)) for i in range(s.bootstrap_chunks) if not (d / f"chunk-{i:05d}.npz").exists()]
        if todo:
            self.say(f"bootstrap: {len(todo)} chunks of {bs.games_per_chunk} games by {bs.engine} "
                     f"({bs.nodes} nodes, {bs.multipv} lines)")
            run_tasks(generate_chunk, todo, self.workers, self.cluster)
        return [d / f"chunk-{i:05d}.npz" for i in range(s.bootstrap_chunks)]

    def _bootstrap_positions(self, paths: Sequence[Path]) -> Positions:
        s = self.settings
        if not paths:
            return Positions.empty(self.cells)
        return load_positions(paths, self.cells, s.policy_temperature, s.best_weight, s.score_weight)

    def generation_zero(self) -> None:
        s = self.settings
        t0 = time.perf_counter()
        net = PolicyValueNet.random(self.game.spec, self.height, self.width, self.planes, s.filters, s.blocks,
                                    s.hidden, moves=self.cells, seed=s.seed, head=s.head,
                                    value_planes=s.value_planes)
        entry: dict[str, Any] = {"generation": 0, "weights": net.weights()}
        given = self.net_path(0).exists()  # --resume put it there (or a fit finished just before a stop)
        paths = [] if given else self._bootstrap_paths()
        if given:
            net = PolicyValueNet.load(self.net_path(0))
            entry["weights"] = net.weights()
        elif paths:
            from .torch_trainer import fit

            hold = max(0, min(s.bootstrap_holdout, len(paths) - 1))
            train = self._bootstrap_positions(paths[:len(paths) - hold])
            t1 = time.perf_counter()
            net, losses = fit(net, train, self.encode, epochs=s.bootstrap_epochs, batch=s.batch, lr=s.bootstrap_lr,
                              weight_decay=s.weight_decay, seed=s.seed, checkpoint=self.dir / "fit-000.pt",
                              progress=self.say)
            entry.update(bootstrap_games=len(paths) * s.bootstrap_settings().games_per_chunk,
                         positions=len(train), fit_s=round(time.perf_counter() - t1), **losses)
            if hold:
                entry["holdout"] = measure(net, self._bootstrap_positions(paths[-hold:]), self.encode)
        if s.check:
            entry["check"] = exact_check(self.game, net)
        net.save(self.net_path(0))
        self._set_best(0)
        entry["wall_s"] = round(time.perf_counter() - t0)
        self._log(entry)

    def _selfplay(self, gen: int, net_path: Path) -> list[Path]:
        s = self.settings
        d = self.dir / "selfplay" / f"gen-{gen:03d}"
        d.mkdir(parents=True, exist_ok=True)
        tasks = -(-s.games // s.games_per_task)
        calls = []
        for i in range(tasks):
            n = min(s.games_per_task, s.games - i * s.games_per_task)
            out = d / f"chunk-{i:05d}.npz"
            if not out.exists():
                calls.append((self.game.spec, str(net_path), s.selfplay_settings(), n,
                              s.seed * 1_000_003 + gen * 10_007 + i * s.games_per_task, str(out)))
        if calls:
            self.say(f"generation {gen}: {len(calls)} self-play tasks ({s.games} games, "
                     f"{s.selfplay_settings()['sims']} simulations a move)")
            run_tasks(selfplay_chunk, calls, self.workers, self.cluster)
        return [d / f"chunk-{i:05d}.npz" for i in range(tasks)]

    def _window(self, gen: int) -> Positions:
        s = self.settings
        parts = []
        total = 0
        for g in range(gen, 0, -1):
            for path in sorted((self.dir / "selfplay" / f"gen-{g:03d}").glob("chunk-*.npz"), reverse=True):
                if total >= s.window:
                    break
                p = Positions.load(path)
                parts.append(p)
                total += len(p)
        pos = Positions.concat(parts[::-1]) if parts else Positions.empty(self.cells)
        pos = pos.last(s.window)
        if s.keep_bootstrap and s.bootstrap_chunks > 0:
            pos = Positions.concat([self._bootstrap_positions(self._bootstrap_paths()), pos])
        return pos

    def generation(self, gen: int) -> None:
        from .torch_trainer import fit

        s = self.settings
        t0 = time.perf_counter()
        best = self.best()
        best_path = self.net_path(best)
        chunks = self._selfplay(gen, best_path)
        t1 = time.perf_counter()
        new = [Positions.load(p) for p in chunks]
        selfplay_positions = sum(len(p) for p in new)
        means = []
        for p in chunks:
            with np.load(p, allow_pickle=False) as d:
                means.append(d["mean_returns"])
        cand_path = self.net_path(gen)
        if not cand_path.exists():
            window = self._window(gen)
            net, losses = fit(PolicyValueNet.load(best_path), window, self.encode, epochs=s.epochs, batch=s.batch,
                              lr=s.lr, weight_decay=s.weight_decay, seed=s.seed + gen,
                              checkpoint=self.dir / f"fit-{gen:03d}.pt", progress=self.say)
            net.save(cand_path)
        else:
            window, losses = None, {}
        t2 = time.perf_counter()
        gate = gate_match(self.game.spec, cand_path, best_path, s, gen, self.workers, self.cluster)
        accepted = gate["score"] >= s.gate_threshold
        entry: dict[str, Any] = {
            "generation": gen, "played_by": best, "selfplay_games": s.games, "selfplay_positions": selfplay_positions,
            "first_player_mean": round(float(np.mean([m[0] for m in means])) if means else 0.0, 3),
            "window": len(window) if window is not None else None, **losses, "gate": gate, "accepted": accepted,
            "selfplay_s": round(t1 - t0), "fit_s": round(t2 - t1), "gate_s": round(time.perf_counter() - t2)}
        if s.check:
            entry["check"] = exact_check(self.game, PolicyValueNet.load(cand_path))
        if accepted:
            self._set_best(gen)
        entry["best"] = self.best()
        entry["wall_s"] = round(time.perf_counter() - t0)
        self._log(entry)


def measure(net: PolicyValueNet, data: Positions, encode: Callable[[np.ndarray, np.ndarray], np.ndarray],
            batch: int = 512) -> dict[str, float]:
    """Held-out figures: value squared error, policy cross-entropy, and how often the network's top legal
    move is the target's top move."""
    if len(data) == 0:
        return {}
    mse = ce = top = 0.0
    for i in range(0, len(data), batch):
        part = data.take(slice(i, i + batch))
        logits, v = net.predict(encode(part.boards, part.stones))
        logits = np.where(part.boards == 0, logits, -np.inf)
        z = logits - logits.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        ce += float(-(part.pi * np.where(np.isfinite(logp), logp, 0.0)).sum())
        mse += float(((v - part.z) ** 2).sum())
        top += float((logits.argmax(axis=1) == part.pi.argmax(axis=1)).sum())
    n = len(data)
    return {"value_loss": round(mse / n, 4), "policy_loss": round(ce / n, 4), "top1": round(top / n, 4)}


def gate_match(spec: str, cand: Path, best: Path, s: TrainSettings, gen: int, workers: int = 1,
               cluster: str | None = None) -> dict[str, Any]:
    """The candidate against the best network so far: an arena match at ``gate_nodes`` simulations a
    move, colours swapped; the candidate's score with its 95% interval."""
    from ..arena.game import TimeControl
    from ..arena.session import Session, run_session
    from ..arena.stats import score_interval
    from ..core.registry import engine_entry

    c = s.selfplay_settings()["c"]
    base = f"puct,evaluator=net,noise=0,c={c}"
    if "guard" in engine_entry(load_game(spec), "puct").options:
        base += ",vcf=false,guard=0"  # the networks alone, as self-play uses them
    engines = [f"{base},net={cand},label=cand-{gen}", f"{base},net={best},label=best"]
    session = Session.from_texts(spec, engines, games=s.gate_games, tc=TimeControl(nodes=s.gate_nodes),
                                 seed=s.seed * 7919 + gen, concurrency=max(1, workers), cluster=cluster)
    out = run_session(session)
    w, d, l_ = out.tally.total(0)[:3]
    n = w + d + l_
    score = (w + d / 2) / n if n else 0.0
    est = score_interval(w, d, l_)
    lo, hi = est.lo, est.hi
    return {"games": n, "wins": w, "draws": d, "losses": l_, "score": round(score, 4),
            "ci95": [round(lo, 4), round(hi, 4)], "nodes": s.gate_nodes}


def format_entry(e: dict[str, Any]) -> str:
    """One log entry as a line of text."""
    if e["generation"] == 0:
        parts = [f"generation 0: {e.get('weights', 0)} weights"]
        if "positions" in e:
            parts.append(f"bootstrap {e['bootstrap_games']} games, {e['positions']} positions, fit {e['fit_s']} s, "
                         f"value loss {e['value_loss']:.3f}, policy loss {e['policy_loss']:.3f}")
        if "holdout" in e:
            h = e["holdout"]
            parts.append(f"held out: value loss {h['value_loss']:.3f}, policy loss {h['policy_loss']:.3f}, "
                         f"top move {100 * h['top1']:.1f}%")
    else:
        g = e["gate"]
        parts = [f"generation {e['generation']}: {e['selfplay_games']} self-play games by generation "
                 f"{e['played_by']} ({e['selfplay_positions']} positions, {e['selfplay_s']} s)"]
        if "value_loss" in e:
            parts.append(f"fit on {e['window']} positions {e['fit_s']} s, value loss {e['value_loss']:.3f}, "
                         f"policy loss {e['policy_loss']:.3f}")
        parts.append(f"gate +{g['wins']} ={g['draws']} -{g['losses']} score {100 * g['score']:.1f}% "
                     f"[{100 * g['ci95'][0]:.1f}, {100 * g['ci95'][1]:.1f}] at {g['nodes']} nodes: "
                     f"{'accepted' if e['accepted'] else 'rejected'}, best {e['best']}")
    if "check" in e:
        c = e["check"]
        parts.append(f"exact check over {c['positions']} positions: top move keeps the result "
                     f"{100 * c['policy_keeps_result']:.1f}%, value right {100 * c['value_right']:.1f}%")
    parts.append(f"wall {e.get('wall_s', 0)} s")
    return "; ".join(parts)


def export(run: Run, out: Path) -> Path:
    """Copy the best network of ``run`` to ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run.best_net(), out)
    return out


__all__ = ["TrainSettings", "Run", "run_tasks", "gate_match", "measure", "format_entry", "export"]
