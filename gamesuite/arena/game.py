"""One game between engines: the referee.

``play_game(task)`` builds the players of every seat, plays the opening's
position to the end, resolves chance nodes with a seeded RNG, times every
answer and adjudicates: an illegal move, a crash, a hang, a time loss, a
resignation or no move at all loses the game for the engine at fault, and
the reason goes into the record. ``run_task`` is the spawn-safe entry point
for worker processes and cluster workers (a module-level function of
picklable data that never raises).
"""

from __future__ import annotations

import atexit
import datetime
import random
import threading
import time
import traceback
from dataclasses import dataclass, replace
from typing import Any

from ..core.errors import EngineFailure, GameSuiteError, InvalidOptionError
from ..core.limits import Limits
from ..core.registry import Game, load_game
from ..core.state import State
from ..play import clock as play_clock
from ..play.session import PlaySession
from .external import GomocupPlayer, UsiPlayer
from .openings import Opening
from .players import LocalPlayer, MoveRequest, Player, SwapRequest, build_local_engine
from .record import GameRecord, result_string
from .spec import EngineSpec


@dataclass(frozen=True)
class MatchLimits:
    """How long engines may think, and how the referee judges it (all in ms).

    A time limit, ``movetime`` (per move) or ``clock`` (a game clock, ``play.clock.TimeControl``:
    sudden death, an increment or byoyomi), and a work limit, ``depth`` or ``nodes`` (no clock:
    fixed-work games, reproducible); at most one of each, and the engine stops at whichever comes
    first. A match's limits may set none when every engine brings its own (``@nodes=N`` in its
    spec; ``for_engine``). External programs have ``startup`` to say they are ready. An answer later
    than the allowed time plus ``margin`` loses on time; past that plus ``hang`` the referee stops
    waiting and calls it a hang. A seat with no time limit (a work limit alone) is waited for
    ``work_hang`` instead: its fixed work may take long on a loaded machine, and a stop before it is
    done would make the game depend on the machine's load.
    """

    movetime: int | None = None
    clock: play_clock.TimeControl | None = None
    depth: int | None = None
    nodes: int | None = None
    margin: int = 500
    hang: int = 5000
    startup: int = 30_000  # how long an external program may take to say it is ready
    work_hang: int = 600_000  # how long a move of a seat with no time limit may take before it is a hang

    def __post_init__(self) -> None:
        if self.movetime is not None and self.clock is not None or self.depth is not None and self.nodes is not None:
            raise InvalidOptionError("a match has at most one of movetime and clock, and one of depth and nodes")
        set_ = [x for x in (self.movetime, self.depth, self.nodes) if x is not None]
        if any(x <= 0 for x in set_) or self.margin < 0 or self.hang < 0 or self.work_hang < 0:
            raise InvalidOptionError(f"match limits must be positive: {self}")

    @property
    def base(self) -> int | None:
        """The clock's base time (``None``: no clock)."""
        return None if self.clock is None else self.clock.base

    @property
    def increment(self) -> int:
        return 0 if self.clock is None else self.clock.increment

    @property
    def is_set(self) -> bool:
        """True when it limits the engine at all (a time or a work limit)."""
        return any(x is not None for x in (self.movetime, self.clock, self.depth, self.nodes))

    @classmethod
    def with_clock(cls, text: str, **kw: Any) -> MatchLimits:
        """A clock from text (``"10+0.1"``, ``"60+5b"``: ``TimeControl.parse``) and other limits."""
        return cls(clock=play_clock.TimeControl.parse(text), **kw)

    def for_engine(self, spec: EngineSpec) -> MatchLimits:
        """The limits of ``spec``: its own ``@`` limits if it has any, else these."""
        if not spec.limits:
            return self
        kw: dict[str, Any] = {"movetime": None, "clock": None, "depth": None, "nodes": None}
        for k, v in spec.limits:
            kw[k] = play_clock.TimeControl.parse(v) if k == "clock" else int(v)
        return replace(self, **kw)

    def describe(self) -> str:
        parts = []
        if self.movetime is not None:
            parts.append(f"movetime {self.movetime} ms")
        if self.clock is not None:
            c = self.clock
            parts.append(f"clock {c.text()}" if c.byoyomi else f"clock {c.base / 1000:g}+{c.increment / 1000:g} s")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes {self.nodes}")
        return ", ".join(parts) or "per engine"

    def work(self) -> Limits:
        """The engine's ``Limits`` besides its clock (``PlaySession.limits`` adds the clock)."""
        return Limits(movetime=self.movetime, depth=self.depth, nodes=self.nodes)


#: The old name of ``MatchLimits`` (a game clock is ``play.clock.TimeControl``), kept only for the
#: branches in flight that still import it; to be removed once none does.
TimeControl = MatchLimits


def check_limits(tc: MatchLimits, specs: list[EngineSpec] | tuple[EngineSpec, ...]) -> None:
    """``InvalidOptionError`` unless every engine has a limit (the match's or its own)."""
    for sp in specs:
        if not tc.for_engine(sp).is_set:
            raise InvalidOptionError(
                f"engine {sp.label} has no limit: give the match --movetime, --clock, --depth or --nodes, "
                f"or the engine its own in its spec (e.g. {sp.text},@nodes=100000)")


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable)."""

    game: str
    specs: tuple[EngineSpec, ...]  # the engine of each seat
    engine_index: tuple[int, ...]  # each seat's engine as an index into the match's engines
    opening: Opening
    tc: MatchLimits
    round: int = 0
    opening_index: int = 0
    rotation: int = 0
    seed: int = 0
    max_plies: int = 0  # 0: no limit; else a draw by adjudication after this many plies
    reuse_engines: bool = True
    #: ``"swap1"``/``"swap2"``: the engines negotiate the opening first (``arena.swap``); the specs
    #: are then the proposer's and the chooser's, and the record's seats their colours after it.
    swap_rule: str = ""
    #: Release every engine this worker thread keeps that this game does not need (external
    #: processes are closed) before seating: for ladders and tuning, whose engines change.
    exclusive: bool = False


# Our engines kept between games, per worker process and thread (a Dask worker plays games in
# several threads at once): (thread, game spec, engine spec, instance) -> engine.
_LOCAL_ENGINES: dict[tuple[int, str, str, int], Any] = {}


# External programs kept running between games the same way (a USI engine gets usinewgame, a
# Gomocup brain START again), so that start-up and compilation are paid once per worker.
_EXTERNAL: dict[tuple[int, str, str, int], Player] = {}


def _close_external() -> None:
    for p in list(_EXTERNAL.values()):
        try:
            p.close()
        except Exception:  # noqa: BLE001 - the process is going away anyway
            pass
    _EXTERNAL.clear()


atexit.register(_close_external)


def make_player(game: Game, spec: EngineSpec, instance: int = 0, reuse: bool = True,
                hang_ms: float = 1000.0, startup_ms: float = 30_000.0) -> Player:
    """The player for ``spec``; with ``reuse`` from this process's (and thread's) cache."""
    key = (threading.get_ident(), game.spec, spec.text, instance)
    if spec.kind in ("usi", "gomocup"):
        player = _EXTERNAL.get(key) if reuse else None
        if player is None or player.broken:
            if player is not None:
                player.close()
            player = (UsiPlayer(spec, stop_grace_ms=hang_ms, startup_ms=startup_ms) if spec.kind == "usi"
                      else GomocupPlayer(spec, startup_ms=startup_ms))
            if reuse:
                _EXTERNAL[key] = player
        return player
    engine = _LOCAL_ENGINES.get(key) if reuse else None
    fresh = engine is None
    if engine is None:
        engine = build_local_engine(game, spec)
        if reuse:
            _LOCAL_ENGINES[key] = engine
    player = LocalPlayer(engine, spec.label, stop_grace_ms=hang_ms)
    player.fresh = fresh
    return player


def _forget(game: Game, spec: EngineSpec, instance: int) -> None:
    key = (threading.get_ident(), game.spec, spec.text, instance)
    _LOCAL_ENGINES.pop(key, None)
    p = _EXTERNAL.pop(key, None)
    if p is not None:
        p.close()


def release_others(game: Game, specs: tuple[EngineSpec, ...] | list[EngineSpec]) -> int:
    """Close this thread's kept engines that are not ``specs`` in ``game``; how many were released."""
    me = threading.get_ident()
    keep = {(me, game.spec, sp.text, sum(1 for o in specs[:i] if o.text == sp.text)) for i, sp in enumerate(specs)}
    released = 0
    for key in [k for k in _LOCAL_ENGINES if k[0] == me and k not in keep]:
        del _LOCAL_ENGINES[key]
        released += 1
    for key in [k for k in _EXTERNAL if k[0] == me and k not in keep]:
        p = _EXTERNAL.pop(key)
        try:
            p.close()
        except Exception:  # noqa: BLE001 - it is being dropped anyway
            pass
        released += 1
    return released


def _utc_now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def play_game(task: GameTask) -> GameRecord:
    """Play ``task`` to the end (or to an adjudication) and return its record.

    The game is a ``play.session.PlaySession``: it keeps the clocks and judges late and illegal
    moves; the referee seats the players, asks them for moves, and adds its own adjudications
    (an engine that cannot start, crashes, hangs or resigns loses)."""
    t_start = time.perf_counter()
    game = load_game(task.game)
    start, opening_moves = task.opening.build(game)
    n = game.num_players
    if len(task.specs) != n:
        raise InvalidOptionError(f"{game.spec} has {n} players but the task names {len(task.specs)} engines")
    rng = random.Random(task.seed)
    tc = task.tc
    check_limits(tc, task.specs)
    specs = list(task.specs)  # by seat (in a swap opening: by role, until the colours are settled)
    engine_index = list(task.engine_index)
    tcs = [tc.for_engine(sp) for sp in specs]  # each seat's own limits
    instances = [sum(1 for o in specs[:i] if o.text == sp.text) for i, sp in enumerate(specs)]
    session = PlaySession(start, [t.clock for t in tcs], grace_ms=tc.margin, labels=[sp.label for sp in specs])
    for m in opening_moves:
        session.place(m)
    state = session.state
    players: list[Player | None] = [None] * n

    if task.exclusive:
        release_others(game, task.specs)
    # Seat the players; a seat whose engine cannot start loses at once.
    for seat, sp in enumerate(specs):
        try:
            p = make_player(game, sp, instances[seat], task.reuse_engines, hang_ms=min(tc.hang, 1000),
                            startup_ms=tc.startup)
            players[seat] = p
            if isinstance(p, LocalPlayer) and p.fresh:
                p.warm_up(state, game=game)
            p.start_game(game, start, seat, opening_rule=task.swap_rule)
        except EngineFailure as e:
            session.adjudicate(seat, e.kind, e.detail)
            break
        except Exception as e:  # noqa: BLE001 - an engine that cannot start loses; the match goes on
            session.adjudicate(seat, "crash", f"could not be built: {type(e).__name__}: {e}")
            break

    opening_plies = len(opening_moves)
    swap_log: dict[str, Any] | None = None

    def timed(seat: int, own: bool = False) -> tuple[MatchLimits, float, Limits]:
        """The seat's limits now: its match limits, how long to wait for it, the engine's Limits.

        Seats without a clock show the mover's own (a USI engine is told both sides' times);
        with ``own`` every seat does (a swap decision is made by a role, not by the side to move).
        """
        mine = tcs[seat]
        allowed = mine.movetime if mine.movetime is not None else session.allowed(seat)
        # no time limit: a fixed amount of work, however long the machine takes for it (a stop would
        # cut the search short by the wall clock and make the game depend on the load)
        wait = allowed + tc.margin + tc.hang if allowed is not None else float(tc.work_hang)
        return mine, wait, session.limits(seat, mine.work(), own=own)

    try:
        if task.swap_rule and not session.over:
            from .swap import SwapStep, check_answer, finished, next_role, roles_after
            from .swap import log as swap_record

            steps: list[SwapStep] = []
            while not session.over and not finished(steps):
                role = next_role(steps)
                player = players[role]
                assert player is not None
                mine, wait, limits = timed(role, own=True)
                t0 = time.perf_counter()
                try:
                    answer = player.swap_answer(SwapRequest(state.copy(), task.swap_rule, limits, wait, task.seed))
                except EngineFailure as e:
                    session.adjudicate(role, e.kind, e.detail)
                    break
                elapsed = (time.perf_counter() - t0) * 1000.0
                if not session.charge(role, elapsed, mine.movetime, f" ({task.swap_rule})"):
                    break
                try:
                    answer = check_answer(state, task.swap_rule, answer)
                except GameSuiteError as e:
                    session.adjudicate(role, "illegal", str(e))
                    break
                steps.append(SwapStep(role, len(session.moves), answer))
                if not isinstance(answer, str):  # stones (the only text answer is SWAP)
                    for m in answer:
                        session.place(m)
            swap_log = swap_record(task.swap_rule, steps, start, session.moves, (specs[0].label, specs[1].label))
            if session.over:
                swap_log.pop("black", None)  # the game ended in the negotiation: nobody took a colour
            else:
                black, _ = roles_after(steps)
                if black == 1:  # the chooser plays black: seats follow the colours from here on
                    for xs in (players, specs, tcs, instances, engine_index):
                        xs.reverse()
                    session.reorder(list(range(n))[::-1])
                opening_plies = len(session.moves)
        while not session.over:
            if task.max_plies and len(session.moves) - opening_plies >= task.max_plies:
                session.draw("ply limit", f"{task.max_plies} plies played")
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                session.place(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            seat = state.current_player
            player = players[seat]
            assert player is not None
            mine, wait, limits = timed(seat)
            req = MoveRequest(state.copy(), start, list(session.moves), seat, limits, wait)
            t0 = time.perf_counter()
            try:
                move = player.move(req)
            except EngineFailure as e:
                session.adjudicate(seat, e.kind, e.detail)
                break
            session.play(move, spent=(time.perf_counter() - t0) * 1000.0, limit_ms=mine.movetime)
    finally:
        fault = session.outcome.adjudication.seat if session.outcome and session.outcome.adjudication else None
        for seat, q in enumerate(players):
            if q is None:
                continue
            try:
                q.game_over(state, seat)
            except Exception:  # noqa: BLE001 - the game is over; nothing to judge
                pass
            if isinstance(q, LocalPlayer):
                if q.broken or not task.reuse_engines:
                    _forget(game, specs[seat], instances[seat])
            elif q.broken or not task.reuse_engines or fault == seat:
                _forget(game, specs[seat], instances[seat])
                q.close()

    outcome = session.outcome
    assert outcome is not None
    adj = outcome.adjudication
    returns = list(outcome.returns)
    return GameRecord(
        game=game.spec,
        start=start.to_text(),
        moves=start.format_line(session.moves),
        opening_plies=opening_plies,
        engines=[sp.label for sp in specs],
        returns=returns,
        result=result_string(returns),
        reason=outcome.reason,
        adjudication=None if adj is None else {"seat": adj.seat, "kind": adj.kind, "detail": adj.detail},
        engine_index=engine_index,
        round=task.round,
        opening_index=task.opening_index,
        rotation=task.rotation,
        seed=task.seed,
        time_control=tc.describe(),
        swap=swap_log,
        limits=[t.describe() for t in tcs],
        plies=len(session.moves) - opening_plies,
        duration_s=round(time.perf_counter() - t_start, 3),
        date=_utc_now(),
    )


def run_task(task: GameTask) -> GameRecord:
    """Play ``task``; never raises: a failure of the arena itself becomes a record with ``error``."""
    try:
        return play_game(task)
    except Exception as e:  # noqa: BLE001 - one broken game must not stop the match
        return GameRecord(
            game=task.game, start="", moves=[], opening_plies=0, engines=[s.label for s in task.specs],
            returns=[], result="*", reason=f"arena error: {type(e).__name__}: {e}", adjudication=None,
            engine_index=list(task.engine_index), round=task.round, opening_index=task.opening_index,
            rotation=task.rotation, seed=task.seed, time_control=task.tc.describe(), date=_utc_now(),
            error=traceback.format_exc(limit=5),
        )


def state_after(record: GameRecord) -> State:
    """The final position of a record (replayed)."""
    game = load_game(record.game)
    s = game.state_from_text(record.start) if record.start else game.new_state()
    for m in record.moves:
        s.play_text(m)
    return s
