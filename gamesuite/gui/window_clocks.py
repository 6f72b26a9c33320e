"""The window's game clocks: which clock runs, what each reads, flag fall, and the engine's limits under them.

The window keeps the time spent per position of the record (``play.clock.ClockRunner``: browsing and
variations pause and resume the clocks); everything else is the arena's play session's: the session of
the position shown (``_session``) says what each clock reads, whether the mover's flag fell, and the
engine's ``Limits`` under the clocks, and charging a move to the clock is ``PlaySession.charge``.
"""

from __future__ import annotations

from PySide6.QtCore import Slot

from ..core.limits import Limits
from ..play.clock import ClockValue, Reading
from ..play.record import Node
from ..play.session import PlaySession
from .window_parts import WindowParts

#: How often the clocks are redrawn and checked for a fallen flag while one runs (ms).
CLOCK_TICK_MS = 100
#: An engine is told this much less time than its clock shows (at most a tenth of it), for the
#: moments between its search ending and its move reaching the window.
ENGINE_CLOCK_MARGIN_MS = 100
#: A move the window records was made before the flag fell (the flag is the clock tick's to see): charging
#: it never loses on time, and one that came a moment late counts as made in the last millisecond.
_NO_LOSS_MS = 1 << 40


class ClocksMixin(WindowParts):
    """Part of ``MainWindow`` (``gui/mainwindow.py``); its methods use the window's widgets and state."""

    # -- clocks ------------------------------------------------------------------------------------
    def _clock_player(self) -> int | None:
        """The player whose clock should run now, or None (no clock, analyse or setup mode,
        browsing the past, game over, engines still loading)."""
        c = self.controller
        if not c.record.has_clocks or self.mode != "play" or self.setup_active or not self.engines_ready:
            return None
        if not c.at_end_of_line() or c.over_text() is not None:
            return None
        if self.swap_pending():  # the clocks start with the game proper, once the swap opening is settled
            return None
        p = c.state.current_player
        return p if 0 <= p < len(c.players) and c.players[p].clock is not None else None

    def _sync_clock(self) -> None:
        """Record the clocks of positions just reached, then run or pause the clock for the one shown."""
        c = self.controller
        if self._clock_record is not c.record:
            self._clock_record = c.record
            self.clock.reset()
        if c.record.has_clocks and self.ready:  # (replaying moves needs the game's rules loaded)
            self._record_clocks(c.current)
        p = self._clock_player()
        if p is None:
            self.clock.pause()
            self.clock_timer.stop()
        else:
            self.clock.start(c.current.id, p)
            self.clock_timer.start()
        self._show_clocks()

    def _record_clocks(self, node: Node) -> None:
        """Give ``node`` and the new positions above it their clocks: the move that left a
        position is charged the time spent there and gets its increment; a move made where
        the clock never ran (analyse mode, an earlier position, an imported game) changes nothing."""
        todo: list[Node] = []
        n: Node | None = node
        while n is not None and n.parent is not None and n.clocks is None:
            todo.append(n)
            n = n.parent
        if not todo:
            return
        rec = self.controller.record
        controls = rec.controls()
        first = todo[-1].parent
        assert first is not None  # (the loop stops below the root)
        state = rec.state_at(first)
        for n in reversed(todo):
            parent = n.parent
            assert parent is not None and n.move is not None
            session = PlaySession(state, controls, clocks=rec.clocks_at(parent), grace_ms=_NO_LOSS_MS)
            mover = state.current_player
            spent = self.clock.take(parent.id)
            if spent is not None:
                n.spent = spent  # the time the move took (written into KIF/CSA/.psq exports)
            if spent is not None and 0 <= mover < len(controls):
                session.charge(mover, spent)
            n.clocks = tuple(session.clocks)
            state.play(n.move)

    def _session(self) -> PlaySession:
        """The play session of the position shown: the clocks as they were there, and the mover's time
        running for as long as the clock ran there (``ClockRunner``)."""
        c = self.controller
        session = PlaySession(c.state, c.record.controls(), clocks=c.record.clocks_at(c.current), now=self.clock.now)
        if 0 <= c.state.current_player < len(session.controls):
            session.begin_turn(spent_ms=self.clock.spent(c.current.id))
        return session

    def clock_readings(self) -> list[Reading | None]:
        """Every player's clock at the position shown, as it reads now."""
        c = self.controller
        session = self._session()
        return [Reading(0, 0, 0, True) if c.current.timeout == i and session.reading(i) is not None
                else session.reading(i) for i in range(len(session.controls))]

    def _show_clocks(self) -> None:
        c = self.controller
        self.clock_panel.setVisible(c.record.has_clocks)
        if not c.record.has_clocks:
            return
        names = [self.notation.player(i) for i in range(len(c.players))]
        self.clock_panel.show_clocks(names, c.record.controls(), self.clock_readings(), self.clock.player)

    @Slot()
    def clock_tick(self) -> None:
        """Redraw the clocks; the player whose time is up loses."""
        c = self.controller
        run = self.clock
        if run.running and run.node_id == c.current.id and run.player is not None:
            session = self._session()
            if session.flag_fell():
                self._flag(c.current, run.player)
                return
            r = session.reading(run.player)
            cur = self.host.current
            if (r is not None and r.left <= ENGINE_CLOCK_MARGIN_MS and cur is not None and cur.purpose == "move"
                    and cur.node_id == c.current.id):
                self.host.move_now()  # an engine that overran the time it was given: its best move so far
        self._show_clocks()

    def _flag(self, node: Node, player: int) -> None:
        c = self.controller
        self.clock.take(node.id)
        self.clock_timer.stop()
        clocks = list(c.record.clocks_at(node))
        clocks[player] = ClockValue(0, 0)
        cur = self.host.current
        if cur is not None and cur.purpose == "move":
            self.host.stop()
        c.set_timeout(node, player, tuple(clocks))

    def clock_limits(self) -> Limits:
        """The limits of the engine to move under its clock: every player's time left and
        increment, the mover's byoyomi (a margin kept back for the move to reach the window)."""
        return self._session().limits(self.controller.state.current_player, margin_ms=ENGINE_CLOCK_MARGIN_MS)
