"""Ladders: one engine against an anchor limited to a rising number of nodes a move.

A match lost 0-40 says little; a ladder says where an engine stands. The
anchor (usually a strong external program) plays at each *step* of node
counts, e.g. ``10000, 30000, 100000, 300000, none``; the node limit goes to
the anchor as its own option: ``MAX_NODE`` for a Gomocup brain (``INFO
MAX_NODE n``), ``NodesLimit`` for a USI engine (``setoption``), and the
arena's per-engine ``@nodes`` limit for one of ours (``--step-option`` picks
another). ``none`` is the anchor with no node limit, under the match's time
control. The engine under test plays by its own limits (``@nodes=300000``)
or the match's.

Every step plays the same openings, colours swapped; the steps are played one
after another (each worker keeps only the anchor of its current step). Each
step gets a row: games, W/D/L, the score and Elo with 95% intervals, and the
pentanomial pair interval; over the node-limited steps ``stats.fit_ladder``
fits where the engine would score 50%.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InvalidOptionError, quote
from ..core.files import write_atomic
from ..core.registry import Game
from .game import MatchLimits
from .match import Tally
from .openings import Opening
from .record import GameRecord
from .report import _pct, limits_text
from .session import Outcome, Session, run_session
from .spec import EngineSpec, parse_engine_spec
from .stats import Estimate, LadderFit, elo_interval, fit_ladder, pentanomial_elo, pentanomial_interval, score_interval

#: The anchor option that limits its nodes, by spec kind; other kinds use the per-engine ``@nodes``.
STEP_OPTIONS = {"gomocup": "MAX_NODE", "usi": "NodesLimit"}

_STEP = re.compile(r"^([0-9]{1,15}(?:\.[0-9]{1,6})?)\s*([kKmM]?)$")


def parse_steps(text: str) -> list[int | None]:
    """``10000,30000,100k,1M,none`` -> node counts (``None``: no node limit), as given.

    >>> parse_steps("10k, 30000, 1M, none")
    [10000, 30000, 1000000, None]
    """
    out: list[int | None] = []
    for raw in text.split(","):
        item = raw.strip()
        if item.lower() in ("none", "unlimited"):
            value: int | None = None
        else:
            m = _STEP.match(item)
            if not m:
                raise InvalidOptionError(f"--steps: {quote(item)} is not a node count (10000, 30k, 1M) or 'none'")
            value = int(round(float(m.group(1)) * {"": 1, "k": 1000, "m": 1_000_000}[m.group(2).lower()]))
            if value <= 0:
                raise InvalidOptionError(f"--steps: node counts must be positive, got {quote(item)}")
        if value in out:
            raise InvalidOptionError(f"--steps names {quote(item)} twice")
        out.append(value)
    if not out:
        raise InvalidOptionError(f"--steps gives no steps: {quote(text)}")
    return out


def default_step_option(anchor: EngineSpec) -> str:
    """``MAX_NODE`` for Gomocup brains, ``NodesLimit`` for USI engines, ``@nodes`` for the others."""
    return STEP_OPTIONS.get(anchor.kind, "@nodes")


def step_name(option: str, nodes: int | None) -> str:
    return "none" if nodes is None else f"{option}={nodes}"


def step_spec(anchor: EngineSpec, option: str, nodes: int | None) -> EngineSpec:
    """The anchor at one step: its spec with ``option=nodes`` added (unchanged for ``None``)."""
    if option.startswith("@"):
        if option != "@nodes":
            raise InvalidOptionError(
                f"--step-option {quote(option)}: the only per-engine limit a ladder steps is @nodes")
        if any(k == "nodes" for k, _ in anchor.limits):
            raise InvalidOptionError(f"the anchor {quote(anchor.text)} has @nodes already; the ladder sets it")
    elif any(k == option for k, _ in anchor.options) or (
            anchor.kind == "ours" and re.search(rf"(^|,)\s*{re.escape(option)}\s*=", anchor.target)):
        raise InvalidOptionError(f"the anchor {quote(anchor.text)} sets {option} already; the ladder sets it")
    text = anchor.text if nodes is None else f"{anchor.text},{option}={nodes}"
    sp = parse_engine_spec(text)
    return sp.with_label(f"{anchor.label} {step_name(option, nodes)}")


@dataclass
class Ladder:
    """What to play: the engine, the anchor, the steps, games per step, and where."""

    game: Game
    engine: EngineSpec
    anchor: EngineSpec
    steps: list[int | None]
    games: int
    tc: MatchLimits
    option: str = ""  # "": default_step_option(anchor)
    openings: list[Opening] | None = None
    seed: int = 0
    concurrency: int = 1
    cluster: str | None = None
    save_dir: Path | None = None
    max_plies: int = 0
    swap_rule: str = ""  # "swap1"/"swap2": every opening negotiated (``arena.swap``)
    fresh_engines: bool = False  # every engine started afresh for every game (``Session.fresh_engines``)
    step_specs: list[EngineSpec] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.game.num_players != 2:
            raise InvalidOptionError(f"a ladder needs a two-player game; {self.game.spec} has "
                                     f"{self.game.num_players} players")
        self.option = self.option or default_step_option(self.anchor)
        self.step_specs = [step_spec(self.anchor, self.option, n) for n in self.steps]

    def session(self) -> Session:
        """The games as a session: the engine against every step, each step's games together."""
        engines = [self.engine, *self.step_specs]
        return Session(self.game, engines, self.games, self.tc, mode="ladder", openings=self.openings,
                       seed=self.seed, concurrency=self.concurrency, cluster=self.cluster,
                       save_dir=self.save_dir, max_plies=self.max_plies,
                       pairings=[(0, i) for i in range(1, len(engines))], by_pairing=True, exclusive=True,
                       swap_rule=self.swap_rule, fresh_engines=self.fresh_engines)

    def describe(self) -> str:
        """One line: who plays whom, the steps, the limits."""
        steps = ", ".join("none" if n is None else str(n) for n in self.steps)
        swap = f"; {self.swap_rule} openings" if self.swap_rule else ""
        return (f"{self.game.spec}: {self.engine.label} against {self.anchor.label}, {self.option} steps {steps}; "
                f"{self.games} games a step; {limits_text(self.tc, [self.engine, self.anchor])}{swap}; "
                f"seed {self.seed}")


@dataclass
class LadderOutcome:
    outcome: Outcome
    rows: list[dict[str, Any]]
    fit: LadderFit | None


def ladder_rows(ladder: Ladder, tally: Tally) -> list[dict[str, Any]]:
    """One row per step: the engine's games, W/D/L, score and Elo with 95% intervals, and its pairs."""
    rows = []
    for i, nodes in enumerate(ladder.steps, 1):
        w, d, l = tally.wdl[0][i]
        penta = list(tally.pentanomial[0][i])
        sc, el = score_interval(w, d, l), elo_interval(w, d, l)
        ps, pe = pentanomial_interval(penta), pentanomial_elo(penta)
        rows.append({
            "step": step_name(ladder.option, nodes), "nodes": nodes, "anchor": tally.labels[i],
            "games": w + d + l, "wins": w, "draws": d, "losses": l,
            "score": sc.value, "score_lo": sc.lo, "score_hi": sc.hi,
            "elo": el.value, "elo_lo": el.lo, "elo_hi": el.hi,
            "pairs": sum(penta), "pentanomial": penta, "pair_score": ps.value, "pair_score_lo": ps.lo,
            "pair_score_hi": ps.hi, "pair_elo": pe.value, "pair_elo_lo": pe.lo, "pair_elo_hi": pe.hi,
        })
    return rows


def ladder_fit(rows: list[dict[str, Any]]) -> LadderFit | None:
    """``fit_ladder`` over the node-limited steps."""
    return fit_ladder([(r["nodes"], r["wins"], r["draws"], r["losses"]) for r in rows if r["nodes"] is not None])


def ladder_table(rows: list[dict[str, Any]]) -> str:
    """The table: the engine's results against each step (Elo > 0: the engine is stronger)."""
    width = max(4, *(len(r["step"]) for r in rows))
    out = [f"{'step':<{width}} {'games':>5} {'W':>4} {'D':>4} {'L':>4} {'score':>7} {'95% CI':>15} {'Elo':>16}"
           f" {'pairs':>5} {'pair score':>10} {'pair 95% CI':>15} {'pair Elo':>16}"]
    for r in rows:
        ci = f"[{_pct(r['score_lo'])}, {_pct(r['score_hi'])}]" if r["games"] else "-"
        pci = f"[{_pct(r['pair_score_lo'])}, {_pct(r['pair_score_hi'])}]" if r["pairs"] else "-"
        out.append(
            f"{r['step']:<{width}} {r['games']:>5} {r['wins']:>4} {r['draws']:>4} {r['losses']:>4} "
            f"{_pct(r['score']) if r['games'] else '-':>7} {ci:>15} "
            f"{Estimate(r['elo'], r['elo_lo'], r['elo_hi']).text() if r['games'] else '-':>16} {r['pairs']:>5} "
            f"{_pct(r['pair_score']) if r['pairs'] else '-':>10} {pci:>15} "
            f"{Estimate(r['pair_elo'], r['pair_elo_lo'], r['pair_elo_hi']).text() if r['pairs'] else '-':>16}")
    return "\n".join(out)


def fit_text(fit: LadderFit | None, option: str) -> str:
    """The fit in words (or why there is none)."""
    if fit is None:
        return ("fit: none (it needs two or more node-limited steps, a score strictly between 0 and 100% "
                "over them, and scores that clearly fall as the anchor gets more nodes)")
    n, s = fit.even_nodes, fit.slope
    where = " (outside the steps played: extrapolated)" if fit.extrapolated else ""
    return (f"fit over the node-limited steps ({fit.games} games): even against the anchor at about "
            f"{n.value:,.0f} {option} (95% CI {n.lo:,.0f} to {n.hi:,.0f}){where}; the anchor gains "
            f"{s.value:+.0f} Elo per doubling of its nodes (95% CI [{s.lo:+.0f}, {s.hi:+.0f}]); "
            "games counted as independent")


def ladder_json(ladder: Ladder, rows: list[dict[str, Any]], fit: LadderFit | None) -> dict[str, Any]:
    def num(x: Any) -> Any:
        if isinstance(x, float):
            return round(x, 4) if x == x and abs(x) != float("inf") else ("inf" if x > 0 else "-inf")
        return x

    return {
        "engine": {"label": ladder.engine.label, "spec": ladder.engine.text,
                   "limits": ladder.tc.for_engine(ladder.engine).describe()},
        "anchor": {"label": ladder.anchor.label, "spec": ladder.anchor.text,
                   "limits": ladder.tc.for_engine(ladder.anchor).describe()},
        "option": ladder.option,
        "steps": [{k: ([num(v) for v in x] if isinstance(x, list) else num(x)) for k, x in r.items()} for r in rows],
        "fit": None if fit is None else {
            "even_nodes": num(fit.even_nodes.value), "even_nodes_lo": num(fit.even_nodes.lo),
            "even_nodes_hi": num(fit.even_nodes.hi), "elo_per_doubling": num(fit.slope.value),
            "elo_per_doubling_lo": num(fit.slope.lo), "elo_per_doubling_hi": num(fit.slope.hi),
            "extrapolated": fit.extrapolated, "games": fit.games},
    }


def run_ladder(ladder: Ladder, on_progress: Callable[[Tally, GameRecord, int, int], None] | None = None
               ) -> LadderOutcome:
    """Play the ladder; with ``save_dir`` the records, and ``ladder.json`` with the steps and the fit."""
    outcome = run_session(ladder.session(), on_progress)
    rows = ladder_rows(ladder, outcome.tally)
    fit = ladder_fit(rows)
    if ladder.save_dir is not None:
        p = Path(ladder.save_dir) / "ladder.json"
        summary = json.loads(p.read_text(encoding="utf-8")) if p.exists() else {}
        summary.update(ladder_json(ladder, rows, fit))
        write_atomic(p, json.dumps(summary, indent=1) + "\n")
    return LadderOutcome(outcome, rows, fit)


def progress_text(ladder: Ladder, tally: Tally, rec: GameRecord, done: int, total: int, width: int = 20) -> str:
    """One line: a bar, the games played, and the current step's W/D/L."""
    filled = int(width * done / total) if total else width
    text = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
    steps = [i for i in rec.engine_index if i > 0]
    if steps:
        i = steps[0]
        w, d, l = tally.wdl[0][i]
        text += f"  {step_name(ladder.option, ladder.steps[i - 1])}: +{w} ={d} -{l}"
    if tally.errors:
        text += f"  errors {tally.errors}"
    return text
