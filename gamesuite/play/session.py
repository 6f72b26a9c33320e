"""A game in progress, below the window and the arena: turns, clocks, flag fall, adjudication, move-now.

``PlaySession`` keeps the position, every move since the start, each player's
clock (``play.clock.TimeControl``, or none) and, once the game is over, its
``Outcome``. Whoever drives it (the arena's referee, the window) asks it for the
mover's ``Limits`` under the clocks, tells it each move with the time it took,
and it judges: a move later than the clock allows (plus a grace for the
transport) loses on time, an illegal move loses, a fallen flag is seen on
``flag_fell``. ``move_now`` sets the stop flag of the turn in progress.

The time source is any callable returning milliseconds, so tests drive it with
a fake one. The window, whose game is a tree of positions, makes the session of
the position shown (``clocks`` as they were there, the mover's turn running for
as long as its clock ran there: ``begin_turn(spent_ms=...)``) and reads the
clocks, the engine's limits and a fallen flag from it (``gui/window_clocks.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..core.errors import GameSuiteError, InvalidOptionError
from ..core.info import new_stop_flag
from ..core.limits import Limits
from ..core.state import State
from .clock import ClockValue, Reading, TimeControl, TimeSource, after_move, available, monotonic_ms, reading


@dataclass(frozen=True)
class Adjudication:
    """Why a game was decided by the referee: the player at fault (-1: nobody), a kind, the detail."""

    seat: int
    kind: str  # one of core.errors.FAILURE_KINDS, or "ply limit"
    detail: str


@dataclass(frozen=True)
class Outcome:
    """How a game ended: one return per player in [-1, 1], a sentence, and the adjudication if any."""

    returns: tuple[float, ...]
    reason: str
    adjudication: Adjudication | None = None


class PlaySession:
    """One game being played from ``start`` with a clock per player (``None``: that player has none).

    ``grace_ms`` is how much later than its clock allows a move may come without losing (the time a
    move takes to travel); ``labels`` name the players in the reasons of adjudications; ``clocks`` are
    the clocks at ``start`` (default: each control's start, a game from its beginning).
    """

    def __init__(self, start: State, controls: Sequence[TimeControl | None] | None = None, *,
                 grace_ms: int = 0, labels: Sequence[str] | None = None, now: TimeSource | None = None,
                 clocks: Sequence[ClockValue | None] | None = None) -> None:
        n = start.num_players
        controls = list(controls) if controls is not None else [None] * n
        if len(controls) != n:
            raise InvalidOptionError(f"{start.game.spec} has {n} players, not {len(controls)} clocks")
        if clocks is not None and len(clocks) != n:
            raise InvalidOptionError(f"{start.game.spec} has {n} players, not {len(clocks)} clock values")
        self.start = start.copy()
        self.state = start.copy()
        self.moves: list[int] = []
        self.controls: list[TimeControl | None] = controls
        self.clocks: list[ClockValue | None] = (
            [None if c is None else c.start() for c in controls] if clocks is None
            else [None if c is None else v for c, v in zip(controls, clocks)])
        self.grace_ms = grace_ms
        self.labels = list(labels) if labels is not None else []
        self.now: TimeSource = now or monotonic_ms
        self.outcome: Outcome | None = None
        self.stop = new_stop_flag()
        self._turn: int | None = None  # the player whose time runs
        self._since = 0

    # -- whose turn ----------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the game has ended (by the rules or by an adjudication)."""
        return self.outcome is not None

    @property
    def to_move(self) -> int:
        return self.state.current_player

    def begin_turn(self, seat: int | None = None, spent_ms: int = 0) -> np.ndarray:
        """Start ``seat``'s time (default: the player to move), as if ``spent_ms`` ago; returns the turn's
        fresh stop flag."""
        self._turn = self.to_move if seat is None else seat
        self._since = self.now() - max(0, spent_ms)
        self.stop = new_stop_flag()
        return self.stop

    def spent(self) -> int:
        """Milliseconds since the turn began (0 when none runs)."""
        return 0 if self._turn is None else max(0, self.now() - self._since)

    def move_now(self) -> None:
        """Ask the engine of the turn in progress to move at once (sets the turn's stop flag)."""
        self.stop[0] = 1

    # -- clocks --------------------------------------------------------------------------------------
    def allowed(self, seat: int) -> int | None:
        """The most ``seat`` may spend on its next move before its flag falls (``None``: no clock)."""
        ctl, v = self.controls[seat], self.clocks[seat]
        return None if ctl is None or v is None else available(ctl, v)

    def reading(self, seat: int) -> Reading | None:
        """``seat``'s clock as it reads now (running if its turn is in progress)."""
        ctl, v = self.controls[seat], self.clocks[seat]
        if ctl is None or v is None:
            return None
        return reading(ctl, v, self.spent() if seat == self._turn else 0)

    def flag_fell(self) -> bool:
        """Whether the player whose turn runs has run out of time: its clock reads zero (as
        ``play.clock.reading`` has it) and the grace has passed too; it then loses."""
        if self.over or self._turn is None:
            return False
        allowed = self.allowed(self._turn)
        spent = self.spent()
        if allowed is not None and spent >= allowed + self.grace_ms:
            self.adjudicate(self._turn, "time", f"took {spent:.0f} ms with {allowed:.0f} ms allowed")
            return True
        return False

    def limits(self, seat: int, work: Limits | None = None, *, own: bool = False, margin_ms: int = 0) -> Limits:
        """The ``Limits`` of ``seat`` to move now: every player's clock (time left, increment, the
        mover's byoyomi) over ``work`` (its other limits: depth, nodes, movetime).

        Players without a clock show ``seat``'s own, as do all of them with ``own`` (a decision that is
        a role's, not a side's). ``margin_ms`` is kept back from the mover's time (at most a tenth of
        it) for its answer to arrive."""
        base = work or Limits()
        ctl, v = self.controls[seat], self.clocks[seat]
        if ctl is None or v is None:
            return base
        r = self.reading(seat)
        assert r is not None
        time_left, increment = [], []
        for s in range(len(self.controls)):
            c, cv = self.controls[s], self.clocks[s]
            if s == seat or own or c is None or cv is None:
                c, cv = ctl, v
            main = cv.main if s != seat else r.main
            if s == seat and margin_ms:
                main = max(0, main - min(margin_ms, main // 10))
            time_left.append(main)
            increment.append(c.increment)
        byoyomi = None
        if ctl.byoyomi and r.periods:
            period = r.period if r.in_byoyomi else ctl.byoyomi
            byoyomi = max(1, period - min(margin_ms, period // 10)) if margin_ms else period
        return replace(base, time_left=tuple(time_left), increment=tuple(increment), byoyomi=byoyomi)

    def charge(self, seat: int, spent: float, limit_ms: float | None = None, what: str = "") -> bool:
        """Charge ``seat``'s clock with ``spent`` ms (a move, or a decision such as a swap answer).

        ``limit_ms`` is a time limit per move besides the clock (a fixed movetime). Returns False, the
        game lost on time, when ``spent`` was more than allowed plus the grace; a move within the grace
        leaves the clock at its last millisecond."""
        allowed: float | None = self.allowed(seat)
        if limit_ms is not None:
            allowed = limit_ms if allowed is None else min(allowed, limit_ms)
        self._turn = None
        if allowed is not None and spent > allowed + self.grace_ms:
            self.adjudicate(seat, "time", f"took {spent:.0f} ms with {allowed:.0f} ms allowed" + what)
            return False
        ctl, v = self.controls[seat], self.clocks[seat]
        if ctl is not None and v is not None:
            self.clocks[seat] = after_move(ctl, v, int(min(spent, available(ctl, v) - 1))) or v
        return True

    # -- moves ---------------------------------------------------------------------------------------
    def place(self, move: int) -> None:
        """Play ``move`` (an opening's move, a chance outcome) without a clock or a judgement."""
        self.state.play(move)
        self.moves.append(move)
        self._check_end()

    def play(self, move: int, spent: float | None = None, limit_ms: float | None = None) -> bool:
        """The player to move plays ``move`` after ``spent`` ms (default: since ``begin_turn``).

        Returns False when the move lost the game instead: too late (see ``charge``) or illegal."""
        if self.over:
            raise InvalidOptionError(f"the game is over ({self.outcome.reason if self.outcome else ''})")
        seat = self.to_move
        if not self.charge(seat, self.spent() if spent is None else spent, limit_ms):
            return False
        if not self.state.is_legal(move):
            try:
                text = repr(self.state.format_move(move))
            except GameSuiteError:
                text = str(move)
            why = self.state.why_illegal(move)
            self.adjudicate(seat, "illegal", f"illegal move {text} in {self.state.to_text()!r}"
                            + (f": {why}" if why else ""))
            return False
        self.state.play(move)
        self.moves.append(move)
        self._check_end()
        return True

    def _check_end(self) -> None:
        if self.outcome is None and self.state.is_terminal():
            returns = tuple(float(r) for r in self.state.returns())
            self.outcome = Outcome(returns, self.state.result_text())

    # -- the end -------------------------------------------------------------------------------------
    def adjudicate(self, seat: int, kind: str, detail: str) -> Outcome:
        """``seat`` loses by adjudication (the others share the win: 1 each of two, 0 of more)."""
        if self.outcome is not None and self.outcome.adjudication is not None:
            return self.outcome  # the first fault decides
        n = len(self.controls)
        returns = [1.0 if n == 2 else 0.0] * n
        returns[seat] = -1.0
        name = self.start.game.player_name(seat)
        if seat < len(self.labels):
            name += f" ({self.labels[seat]})"
        self._turn = None
        self.outcome = Outcome(tuple(returns), f"{name} loses: {kind}: {detail}", Adjudication(seat, kind, detail))
        return self.outcome

    def draw(self, kind: str, detail: str) -> Outcome:
        """The game ends in a draw by adjudication (a ply limit, say)."""
        self._turn = None
        self.outcome = Outcome((0.0,) * len(self.controls), f"draw by adjudication: {detail}",
                               Adjudication(-1, kind, detail))
        return self.outcome

    def reorder(self, order: Sequence[int]) -> None:
        """Give seat ``i`` what seat ``order[i]`` had (clocks, controls, labels): players who swapped
        colours in a swap opening."""
        self.controls = [self.controls[i] for i in order]
        self.clocks = [self.clocks[i] for i in order]
        if self.labels:
            self.labels = [self.labels[i] for i in order]
