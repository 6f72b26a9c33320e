"""SPSA tuning through the arena: numeric engine options tuned by self-play or against fixed opponents.

Simultaneous perturbation stochastic approximation (Spall 1992), as fishtest
runs it for Stockfish: every parameter ``θ_i`` is pushed by ``±c_k`` at once
(a random sign ``Δ_i`` each), the engine with ``θ + c_k Δ`` plays the engine
with ``θ - c_k Δ`` a mini-match (openings paired, colours swapped), and
``θ_i += a_k / c_k · (wins - losses of θ+) · Δ_i``, clipped to the
parameter's range. The gains fall as the run goes on::

    c_k = c / k^γ             c = c_end · N^γ         (so c_N = c_end)
    a_k = a / (A + k)^α       a = r_end · c_end² · (A + N)^α
    α = 0.602, γ = 0.101, A = N / 10 by default

with ``k`` counting game pairs (``N`` of them in all), as fishtest does; a
batch of ``P`` pairs plays at one ``θ±`` and makes one update with the batch's
summed result. A parameter is given the fishtest way,
``NAME,START,MIN,MAX,C_END,R_END``; ``c_end`` is the last perturbation (in the
option's units) and ``r_end`` the last learning rate ``a_end / c_end²``. An
option whose start, minimum and maximum are written as integers is passed
rounded.

The engines are ordinary engine specs with the tuned options appended
(``gomoku:mtdf,w_f4=812``, ``usi:PATH,Eval_x=3``, ``gomocup:PATH,x=3``), so
anything with numeric options can be tuned; their limits are their own
(``@nodes=N`` in the spec). Games run through the arena's executors: in this
process, in local worker processes, or on a Dask cluster.

**Against fixed opponents** (``opponents``: engine specs, e.g. Rapfi at a node
limit, or two bots in a three-player game). The game then has
``1 + len(opponents)`` players. A pair is two games: ``θ+`` plays the
opponents, and ``θ-`` plays them again from the same opening, in the same
seat, with the same seed for chance (the referee's RNG deals Hare's cards from
it), the opponents in the same seats, every engine started afresh for every
game (a kept one carries its hash table from the game before: Rapfi played
the same position differently in the two games). The tuned engine's seat rotates over the
pairs (pair ``j`` sits in seat ``j mod players``: every seat equally often,
colours alternating in a two-player game), and the opponents' order in the
other seats turns by one every ``players`` pairs. Each game is scored for the tuned
engine by ``score``: ``"first"`` (1 for first place, ties for first split
evenly, else 0) or ``"place"`` (linear in the place, ``(return + 1) / 2``: 1
first, 0 last; win/draw/loss 1/½/0 with two players, the same as ``"first"``
there); the default is ``"first"`` with more than two players, ``"place"``
with two. The pair's result is ``2 · (score(θ+) − score(θ-))``: a pair counts
as two games on each side, so it lies in ``[-2, 2]`` like self-play's
``wins − losses`` of ``θ+`` over its two games, and the same ``C_END, R_END``
give steps of the same size for the same result. (The expected result of a
small perturbation is smaller against opponents than in self-play, where
both sides of the difference are played against each other.)

After every batch the state — pairs played, θ, and the history of every
batch (θ, the signs, c_k, the result) — is written atomically to a JSON
file; a run started again with the same state file continues where it
stopped (the signs and openings of a batch come from ``seed`` and ``k``, so
the continued run is the one that would have been played).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.errors import InvalidOptionError, quote
from ..core.files import write_atomic
from ..core.options import parse_float
from ..core.registry import Game
from .game import GameTask, MatchLimits
from .match import Executor, Tally, check_specs, make_executor, run_games, schedule
from .openings import Opening, builtin_openings
from .record import GameRecord, save_record
from .spec import EngineSpec, parse_engine_spec

FORMAT = "gamesuite-spsa"
VERSION = 1

_INT = re.compile(r"^[+-]?[0-9]+$")
#: How a game against opponents is scored for the tuned engine (``game_score``).
SCORE_RULES = ("first", "place")


@dataclass(frozen=True)
class SpsaParam:
    """One tuned option: its name, start, range, last perturbation and last learning rate."""

    name: str
    start: float
    lo: float
    hi: float
    c_end: float
    r_end: float
    integer: bool = False  # passed to the engine rounded

    def __post_init__(self) -> None:
        if not re.match(r"^[A-Za-z_][\w.-]*$", self.name):
            raise InvalidOptionError(f"SPSA parameter name {quote(self.name)} is not an option name")
        if not (self.lo < self.hi and self.lo <= self.start <= self.hi):
            raise InvalidOptionError(f"SPSA parameter {self.name}: needs min < max and min <= start <= max, "
                                     f"got start {self.start:g}, min {self.lo:g}, max {self.hi:g}")
        if not (self.c_end > 0 and self.r_end > 0):
            raise InvalidOptionError(f"SPSA parameter {self.name}: c_end and r_end must be positive, "
                                     f"got {self.c_end:g}, {self.r_end:g}")

    def value_text(self, value: float) -> str:
        """``value`` as the engine gets it (rounded for an integer option)."""
        v = min(max(value, self.lo), self.hi)
        return str(int(round(v))) if self.integer else f"{v:.6g}"


def parse_param(text: str) -> SpsaParam:
    """``NAME,START,MIN,MAX,C_END,R_END`` (fishtest's line; spaces allowed).

    >>> parse_param("w_four, 800, 0, 2000, 40, 0.002")
    SpsaParam(name='w_four', start=800.0, lo=0.0, hi=2000.0, c_end=40.0, r_end=0.002, integer=True)
    """
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 6:
        raise InvalidOptionError(f"SPSA parameter {quote(text)}: expected NAME,START,MIN,MAX,C_END,R_END")
    name = parts[0]
    try:
        start, lo, hi, c_end, r_end = (parse_float(p, "a value") for p in parts[1:])
    except InvalidOptionError as e:
        raise InvalidOptionError(f"SPSA parameter {quote(text)}: START, MIN, MAX, C_END and R_END must be "
                                 f"numbers ({e})") from None
    integer = all(_INT.match(p) for p in parts[1:4])
    return SpsaParam(name, start, lo, hi, c_end, r_end, integer)


def read_params(path: str | Path) -> list[SpsaParam]:
    """One parameter per line (``#`` comments, blank lines skipped); errors name the line."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise InvalidOptionError(f"cannot read SPSA parameters {quote(str(p))}: {e}") from None
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append(parse_param(line))
        except InvalidOptionError as e:
            raise InvalidOptionError(f"{p} line {n}: {e}") from None
    return out


def option_names(spec: EngineSpec) -> list[str]:
    """The engine options a spec sets."""
    if spec.kind == "ours":
        return [part.partition("=")[0].strip() for part in spec.target.split(",")[1:]]
    return [k for k, _ in spec.options]


def with_options(spec: EngineSpec, values: dict[str, str], label: str) -> EngineSpec:
    """``spec`` with ``NAME=VALUE`` options appended, labelled ``label``."""
    text = spec.text + "".join(f",{k}={v}" for k, v in values.items())
    return parse_engine_spec(text).with_label(label)


@dataclass
class Spsa:
    """An SPSA run: what to tune, how long, with which gains, where the games run."""

    game: Game
    engine: EngineSpec  # the engine whose options are tuned (with its own limits, e.g. @nodes=N)
    params: list[SpsaParam]
    pairs: int  # N: game pairs in all
    batch: int = 0  # pairs played at one θ± per update (0: half the workers, at least 1)
    tc: MatchLimits = field(default_factory=MatchLimits)  # margins; limits come from the engine spec
    seed: int = 0
    openings: list[Opening] | None = None  # None: the built-in set (a pool drawn at random)
    concurrency: int = 1
    cluster: str | None = None
    max_plies: int = 0
    alpha: float = 0.602
    gamma: float = 0.101
    A: float | None = None  # None: pairs / 10
    state_path: Path | None = None
    save_dir: Path | None = None  # every game's record, if given
    opponents: tuple[EngineSpec, ...] = ()  # empty: self-play (θ+ against θ-); else θ± each against these
    score: str = ""  # with opponents: "first" or "place" ("": first with more than two players, else place)

    def __post_init__(self) -> None:
        self.opponents = tuple(self.opponents)
        n = self.game.num_players
        if not self.opponents:
            if n != 2:
                raise InvalidOptionError(f"SPSA by self-play plays two engines; {self.game.spec} has {n} players "
                                         f"(give it {n - 1} opponents: --opponent SPEC)")
            if self.score:
                raise InvalidOptionError("an SPSA score rule (--score) needs opponents (--opponent SPEC)")
        else:
            if 1 + len(self.opponents) != n:
                raise InvalidOptionError(f"{self.game.spec} has {n} players: SPSA needs {n - 1} opponent(s) "
                                         f"beside the tuned engine, got {len(self.opponents)}")
            if not self.score:
                self.score = "first" if n > 2 else "place"
            if self.score not in SCORE_RULES:
                raise InvalidOptionError(f"SPSA score rule must be one of {', '.join(SCORE_RULES)}, "
                                         f"got {quote(self.score)}")
            for o in self.opponents:
                if not self.tc.for_engine(o).is_set:
                    raise InvalidOptionError(f"opponent {quote(o.text)} has no limit: give it its own in its spec, "
                                             f"e.g. {o.text},@nodes=20000 (or MAX_NODE=N for a Gomocup program)")
        if not self.params:
            raise InvalidOptionError("SPSA needs at least one parameter (--param NAME,START,MIN,MAX,C_END,R_END)")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise InvalidOptionError(f"SPSA parameters repeat a name: {', '.join(names)}")
        already = sorted(set(names) & set(option_names(self.engine)))
        if already:
            raise InvalidOptionError(f"engine spec {quote(self.engine.text)} sets {', '.join(already)} itself; "
                                     "leave tuned options out of it")
        if self.pairs < 1 or self.batch < 0:
            raise InvalidOptionError(f"SPSA needs a positive number of pairs and batch, got {self.pairs}, {self.batch}")
        if not self.tc.for_engine(self.engine).is_set:
            raise InvalidOptionError(f"engine {quote(self.engine.text)} has no limit: give it its own in its spec, "
                                     f"e.g. {self.engine.text},@nodes=20000 (or @depth=N, @movetime=MS)")

    @property
    def big_a(self) -> float:
        return self.pairs / 10.0 if self.A is None else self.A

    def c_k(self, p: SpsaParam, k: int) -> float:
        """The perturbation of ``p`` at pair ``k`` (1-based)."""
        return p.c_end * self.pairs**self.gamma / k**self.gamma

    def a_k(self, p: SpsaParam, k: int) -> float:
        """The step size of ``p`` at pair ``k`` (1-based)."""
        a = p.r_end * p.c_end**2 * (self.big_a + self.pairs) ** self.alpha
        return a / (self.big_a + k) ** self.alpha

    def fingerprint(self) -> dict[str, Any]:
        """What a state file must match to be continued."""
        d = {"game": self.game.spec, "engine": self.engine.text, "params": [asdict(p) for p in self.params],
             "pairs": self.pairs, "alpha": self.alpha, "gamma": self.gamma, "A": self.big_a, "seed": self.seed}
        if self.opponents:  # self-play keeps the keys of the first version's state files
            d["opponents"] = [o.text for o in self.opponents]
            d["score"] = self.score
        return d

    def spec_for(self, theta: dict[str, float], label: str) -> EngineSpec:
        return with_options(self.engine, {p.name: p.value_text(theta[p.name]) for p in self.params}, label)


def new_state(spsa: Spsa) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, **spsa.fingerprint(), "k": 0,
            "theta": {p.name: p.start for p in spsa.params}, "history": []}


def load_state(path: Path, spsa: Spsa) -> dict[str, Any]:
    """The saved state of ``spsa`` at ``path``; ``InvalidOptionError`` if it is another run's or unreadable."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InvalidOptionError(f"cannot read the SPSA state {quote(str(path))}: {e}") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT or d.get("version") != VERSION:
        raise InvalidOptionError(f"{quote(str(path))} is not a gamesuite SPSA state file")
    want = spsa.fingerprint()
    keys = list(want) + [k for k in ("opponents", "score") if k not in want]
    differ = [k for k in keys if json.dumps(d.get(k), sort_keys=True) != json.dumps(want.get(k), sort_keys=True)]
    if differ:
        detail = ""
        if "opponents" in differ:
            def who(x: Any) -> str:
                return ", ".join(map(str, x)) if x else "none (self-play)"

            detail = f"; its opponents: {who(d.get('opponents'))}, this run's: {who(want.get('opponents'))}"
        raise InvalidOptionError(f"the SPSA state {quote(str(path))} belongs to another run (its {', '.join(differ)} "
                                 f"differ{detail}); give another --state file or the same settings")
    theta = d.get("theta")
    if not isinstance(theta, dict) or set(theta) != {p.name for p in spsa.params} or not isinstance(d.get("k"), int):
        raise InvalidOptionError(f"the SPSA state {quote(str(path))} is damaged (theta or k)")
    return d


def save_state(path: Path, state: dict[str, Any]) -> None:
    """Write ``state`` atomically (a crash mid-write leaves the previous one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(state, indent=1) + "\n")


def default_batch(concurrency: int, executor: Executor | None) -> int:
    """About one game per worker: half the workers, in pairs."""
    threads = getattr(executor, "threads", None)
    workers = threads() if callable(threads) else concurrency
    return max(1, workers // 2)


def game_score(returns: list[float], seat: int, rule: str) -> float:
    """The score of ``seat`` in a game with ``returns``: ``first`` (1 for first place, shared evenly by a tie for
    first, else 0) or ``place`` (``(return + 1) / 2``: 1 for first to 0 for last; 1/½/0 with two players)."""
    if rule == "first":
        top = max(returns)
        return 1.0 / sum(1 for r in returns if r == top) if returns[seat] == top else 0.0
    if rule == "place":
        return min(max((returns[seat] + 1.0) / 2.0, 0.0), 1.0)
    raise InvalidOptionError(f"SPSA score rule must be one of {', '.join(SCORE_RULES)}, got {quote(rule)}")


def seat_of_pair(spsa: Spsa, j: int) -> int:
    """The tuned engine's seat in pair ``j`` (0-based, counted over the whole run)."""
    return j % spsa.game.num_players


def opponents_of_pair(spsa: Spsa, j: int) -> list[int]:
    """The opponents (indices into ``opponents``) in the other seats of pair ``j``, in seat order: their order
    turns by one every ``players`` pairs, so each opponent sits in every seat equally often."""
    m = len(spsa.opponents)
    r = (j // spsa.game.num_players) % m
    return [(x + r) % m for x in range(m)]


def opponent_tasks(spsa: Spsa, plus: EngineSpec, minus: EngineSpec, k0: int, openings: list[Opening],
                   seeds: list[int], opening_indices: list[int] | None = None) -> list[GameTask]:
    """The games of pairs ``k0 + 1 ...`` against the opponents: per pair θ+'s game, then θ-'s.

    Both games of a pair share the opening, the tuned engine's seat, the opponents' seats and the seed of
    chance, and every game starts fresh engines (a kept opponent would carry its hash table or other state from
    the game before, so θ- would meet another opponent than θ+: Rapfi does). Engine indices: 0 θ+, 1 θ-,
    2... the opponents. Rounds: ``2j + 1`` and ``2j + 2`` for pair ``j``.
    """
    if len(openings) != len(seeds):
        raise ValueError("one opening and one seed per pair")
    tasks = []
    for i, (opening, seed) in enumerate(zip(openings, seeds)):
        j = k0 + i
        seat = seat_of_pair(spsa, j)
        others = [2 + x for x in opponents_of_pair(spsa, j)]
        for side, spec in enumerate((plus, minus)):
            index = tuple(others[:seat]) + (side,) + tuple(others[seat:])
            specs = tuple(spec if e < 2 else spsa.opponents[e - 2] for e in index)
            tasks.append(GameTask(game=spsa.game.spec, specs=specs, engine_index=index, opening=opening, tc=spsa.tc,
                                  round=2 * j + 1 + side,
                                  opening_index=opening_indices[i] if opening_indices else 0, rotation=seat, seed=seed,
                                  max_plies=spsa.max_plies, exclusive=True, reuse_engines=False))
    return tasks


def pair_results(spsa: Spsa, records: list[GameRecord]) -> tuple[list[tuple[float, float]], int]:
    """Against opponents: ``(score of θ+, score of θ-)`` of every pair whose two games were played (in pair
    order), and the number of games lost to errors (their pairs count for nothing)."""
    by_round: dict[int, GameRecord] = {}
    errors = 0
    for r in records:
        if r.error or not r.returns or r.round < 1:
            errors += 1
        else:
            by_round[r.round] = r
    out = []
    for rnd in sorted(x for x in by_round if x % 2 == 1):
        a, b = by_round[rnd], by_round.get(rnd + 1)
        if b is None:
            continue
        seat_a, seat_b = list(a.engine_index).index(0), list(b.engine_index).index(1)
        out.append((game_score(a.returns, seat_a, spsa.score), game_score(b.returns, seat_b, spsa.score)))
    return out, errors


def play_batch(spsa: Spsa, state: dict[str, Any], executor: Executor) -> dict[str, Any]:
    """Play one batch at the current θ, update θ in ``state``; the history entry of the batch."""
    k0 = state["k"]
    n = min(spsa.batch, spsa.pairs - k0)
    k = k0 + 1  # the gains of the batch's first pair
    rng = random.Random(f"{spsa.seed}:{k0}")
    delta = {p.name: rng.choice((-1, 1)) for p in spsa.params}
    ck = {p.name: spsa.c_k(p, k) for p in spsa.params}
    theta = state["theta"]
    plus = {p.name: min(max(theta[p.name] + ck[p.name] * delta[p.name], p.lo), p.hi) for p in spsa.params}
    minus = {p.name: min(max(theta[p.name] - ck[p.name] * delta[p.name], p.lo), p.hi) for p in spsa.params}
    engines = [spsa.spec_for(plus, "plus"), spsa.spec_for(minus, "minus")]
    pool = spsa.openings or [Opening()]
    picks = [rng.randrange(len(pool)) for _ in range(n)]
    chosen = [pool[i] for i in picks]
    if spsa.opponents:
        seeds = [rng.getrandbits(63) for _ in range(n)]
        tasks = opponent_tasks(spsa, engines[0], engines[1], k0, chosen, seeds, picks)
    else:
        tasks = schedule(spsa.game, engines, 2 * n, chosen, spsa.tc, [(0, 1)], seed=rng.getrandbits(62),
                         max_plies=spsa.max_plies)
        tasks = [replace(t, round=2 * k0 + i + 1, exclusive=True) for i, t in enumerate(tasks)]

    def keep(rec: GameRecord) -> None:
        if spsa.save_dir is not None:
            save_record(rec, spsa.save_dir)

    records = run_games(tasks, executor, keep)
    extra: dict[str, Any] = {}
    if spsa.opponents:
        pairs, errors = pair_results(spsa, records)
        sp, sm = sum(a for a, _ in pairs), sum(b for _, b in pairs)
        result: float = 2.0 * (sp - sm)  # a pair counts as two games a side: the scale of self-play's W - L
        w = sum(1 for a, b in pairs if a > b)
        l = sum(1 for a, b in pairs if a < b)
        d = len(pairs) - w - l
        extra = {"scores": [round(sp, 6), round(sm, 6)], "pairs": len(pairs)}
        total = state.setdefault("vs", {"pairs": 0, "plus": 0.0, "minus": 0.0})
        total["pairs"] += len(pairs)
        total["plus"] = round(total["plus"] + sp, 6)
        total["minus"] = round(total["minus"] + sm, 6)
    else:
        tally = Tally(["plus", "minus"]).add_all(records)
        w, d, l = tally.wdl[0][1]
        errors = tally.errors
        result = w - l
    new_theta = {}
    for p in spsa.params:
        step = spsa.a_k(p, k) / ck[p.name] * result * delta[p.name]
        new_theta[p.name] = min(max(theta[p.name] + step, p.lo), p.hi)
    state["theta"] = new_theta
    state["k"] = k0 + n
    entry = {"k": state["k"], "delta": delta, "c": {x: round(v, 6) for x, v in ck.items()},
             "plus": {p.name: p.value_text(plus[p.name]) for p in spsa.params},
             "minus": {p.name: p.value_text(minus[p.name]) for p in spsa.params},
             "result": [w, d, l], **extra, "errors": errors, "theta": dict(new_theta)}
    state["history"].append(entry)
    return entry


def run_spsa(spsa: Spsa, on_batch: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
             should_stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Run (or continue, from ``state_path``) until ``pairs`` pairs are played; the final state.

    ``on_batch(entry, state)`` hears every batch after the state is saved.
    """
    if spsa.state_path is not None and Path(spsa.state_path).exists():
        state = load_state(Path(spsa.state_path), spsa)
    else:
        state = new_state(spsa)
    if state["k"] >= spsa.pairs:
        return state
    check_specs(spsa.game, [spsa.spec_for(state["theta"], "theta"), *spsa.opponents])
    if spsa.openings is None:
        spsa.openings = builtin_openings(spsa.game, min(spsa.pairs, 100), seed=spsa.seed)
    executor = make_executor(spsa.concurrency, spsa.cluster)
    if spsa.batch == 0:
        spsa.batch = default_batch(spsa.concurrency, executor)
    try:
        while state["k"] < spsa.pairs and not (should_stop and should_stop()):
            entry = play_batch(spsa, state, executor)
            if spsa.state_path is not None:
                save_state(Path(spsa.state_path), state)
            if on_batch is not None:
                on_batch(entry, state)
    finally:
        executor.close()
    return state


def theta_text(spsa: Spsa, theta: dict[str, float]) -> str:
    """``name=value`` for every parameter (unrounded, 4 significant digits past the point)."""
    return ", ".join(f"{p.name}={theta[p.name]:.4g}" if not p.integer else f"{p.name}={theta[p.name]:.2f}"
                     for p in spsa.params)


def final_spec(spsa: Spsa, theta: dict[str, float]) -> str:
    """The engine spec with the tuned values (as the engine gets them), e.g. ``gomoku:mtdf,w=812``."""
    return spsa.engine.text + "".join(f",{p.name}={p.value_text(theta[p.name])}" for p in spsa.params)


__all__ = ["Spsa", "SpsaParam", "SCORE_RULES", "game_score", "opponent_tasks", "pair_results",
           "parse_param", "read_params", "run_spsa", "load_state", "save_state",
           "new_state", "final_spec", "theta_text", "default_batch"]
