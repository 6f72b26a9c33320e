"""Game clocks: time controls, what a clock reads, and which clock is running.

One ``TimeControl`` serves the window and the arena. This module does not import
Qt, so the clock rules can be tested anywhere. Times are integer milliseconds.
A clock's stored value (``ClockValue``) is its state
between moves; what it reads while its player thinks is ``reading(control, value,
spent)``. The time source is any callable returning milliseconds, so tests drive
the clocks with a fake one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..core.errors import InvalidOptionError, InvalidRecordError, quote

#: A time source: the current time in milliseconds (monotonic).
TimeSource = Callable[[], int]


def monotonic_ms() -> int:
    """The default time source."""
    return time.monotonic_ns() // 1_000_000


@dataclass(frozen=True)
class TimeControl:
    """One player's time control: a base time, then an increment per move *or* byoyomi periods.

    Fischer: ``base`` then ``increment`` added after every move (the increment may be 0,
    sudden death). Byoyomi: ``base`` then ``periods`` periods of ``byoyomi`` ms; a move
    made within a period keeps it, a period used up entirely is lost, losing the last
    one loses the game. ``base`` may be 0 with byoyomi ("30 s per move").
    """

    base: int
    increment: int = 0
    byoyomi: int = 0
    periods: int = 1

    def __post_init__(self) -> None:
        for name in ("base", "increment", "byoyomi", "periods"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise InvalidRecordError(f"clock {name} must be a non-negative integer, got {quote(v)}")
        if self.increment and self.byoyomi:
            raise InvalidRecordError(f"a clock has an increment or a byoyomi, not both: {self._desc()}")
        if self.byoyomi and self.periods < 1:
            raise InvalidRecordError(f"a byoyomi clock needs at least one period: {self._desc()}")
        if not self.base and not self.byoyomi:
            raise InvalidRecordError(f"a clock needs a base time or a byoyomi: {self._desc()}")

    def _desc(self) -> str:
        return quote(self.to_json())

    @property
    def kind(self) -> str:
        """``"byoyomi"`` or ``"fischer"``."""
        return "byoyomi" if self.byoyomi else "fischer"

    def start(self) -> ClockValue:
        """The clock's value before the first move."""
        return ClockValue(self.base, self.periods if self.byoyomi else 0)

    def text(self) -> str:
        """Short text: ``5 min + 3 s``, ``10 min + 30 s byoyomi``, ``30 s byoyomi ×5``."""
        parts = [_dur(self.base)] if self.base or not self.byoyomi else []
        if self.byoyomi:
            parts.append(f"{_dur(self.byoyomi)} byoyomi" + (f" ×{self.periods}" if self.periods > 1 else ""))
        elif self.increment:
            parts.append(_dur(self.increment))
        return " + ".join(parts)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """A time control from text, in seconds: ``BASE+INC`` (``"60+0.5"``; ``"300+0"`` is sudden
        death) or ``BASE+BYOb[PERIODS]`` with byoyomi (``"600+30b"``, ``"0+10b"`` ten seconds a move,
        ``"60+5b3"`` three periods). ``InvalidOptionError`` quoting the text."""
        m = _TEXT.match(text) if isinstance(text, str) else None
        if not m:
            raise InvalidOptionError(f"a clock must look like BASE+INC or BASE+BYOb[PERIODS] in seconds "
                                     f"(60+0.5, 600+30b, 60+5b3), got {quote(text)}")
        base, extra = round(float(m.group(1)) * 1000), round(float(m.group(2) or 0) * 1000)
        try:
            if m.group(3) is None:
                return cls(base, increment=extra)
            return cls(base, byoyomi=extra, periods=int(m.group(4) or 1))
        except InvalidRecordError as e:
            raise InvalidOptionError(f"clock {quote(text)}: {e}") from None

    def spec(self) -> str:
        """The text ``parse`` reads back: ``"60+0.5"``, ``"600+30b"``, ``"60+5b3"``."""
        def sec(ms: int) -> str:
            return f"{ms / 1000:g}"

        if self.byoyomi:
            return f"{sec(self.base)}+{sec(self.byoyomi)}b" + (str(self.periods) if self.periods > 1 else "")
        return f"{sec(self.base)}+{sec(self.increment)}"

    def to_json(self) -> dict[str, int]:
        d = {"base": self.base}
        if self.byoyomi:
            d["byoyomi"] = self.byoyomi
            d["periods"] = self.periods
        else:
            d["increment"] = self.increment
        return d

    @classmethod
    def from_json(cls, d: Any) -> TimeControl:
        """Read ``{"base": MS, "increment": MS}`` or ``{"base": MS, "byoyomi": MS, "periods": N}``."""
        if not isinstance(d, dict) or "base" not in d or set(d) - {"base", "increment", "byoyomi", "periods"}:
            raise InvalidRecordError(
                f"a clock must be {{'base': MS, 'increment': MS}} or {{'base': MS, 'byoyomi': MS, 'periods': N}},"
                f" got {quote(d)}")
        try:
            return cls(d["base"], d.get("increment", 0), d.get("byoyomi", 0), d.get("periods", 1))
        except InvalidRecordError as e:
            raise InvalidRecordError(f"{e} (in clock {quote(d)})") from None


_TEXT = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*(?:\+\s*(\d+(?:\.\d*)?)\s*(b(\d+)?)?)?\s*$")


def _dur(ms: int) -> str:
    s = ms / 1000
    if s >= 60 and s % 60 == 0:
        return f"{s / 60:g} min"
    return f"{s:g} s"


@dataclass(frozen=True)
class ClockValue:
    """A clock between moves: main time left and byoyomi periods left."""

    main: int
    periods: int = 0


class Reading(NamedTuple):
    """What a clock reads after its player has spent ``spent`` ms on the current move."""

    main: int  # main time left
    period: int  # ms left in the current byoyomi period (0 without byoyomi)
    periods: int  # byoyomi periods left, the current one included
    flagged: bool  # the time is up: the player has lost

    @property
    def in_byoyomi(self) -> bool:
        return self.main == 0 and self.periods > 0 and not self.flagged

    @property
    def left(self) -> int:
        """The time that can still be spent on this move before the flag falls."""
        return self.period if self.in_byoyomi else self.main


def reading(control: TimeControl, value: ClockValue, spent: int) -> Reading:
    """The clock of a player who has spent ``spent`` ms on the move since ``value``."""
    spent = max(0, spent)
    if not control.byoyomi:
        left = value.main - spent
        return Reading(max(0, left), 0, 0, left <= 0)
    if spent < value.main:
        return Reading(value.main - spent, control.byoyomi, value.periods, False)
    over = spent - value.main
    lost = over // control.byoyomi
    if lost >= value.periods:
        return Reading(0, 0, 0, True)
    return Reading(0, control.byoyomi - over % control.byoyomi, value.periods - lost, False)


def after_move(control: TimeControl, value: ClockValue, spent: int) -> ClockValue | None:
    """The clock after a move that took ``spent`` ms (``None``: the flag fell before it)."""
    r = reading(control, value, spent)
    if r.flagged:
        return None
    if control.byoyomi:
        return ClockValue(r.main, r.periods)  # a period in which a move was made starts afresh
    return ClockValue(r.main + control.increment, 0)


def available(control: TimeControl, value: ClockValue) -> int:
    """The most a player can spend on the next move before the flag falls."""
    return value.main + (value.periods * control.byoyomi if control.byoyomi else 0)


def format_ms(ms: int) -> str:
    """``1:05:00``, ``4:59``, ``0:09.3`` (tenths under 10 s)."""
    ms = max(0, ms)
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    s = ms // 1000
    h, m, s = s // 3600, s % 3600 // 60, s % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class ClockRunner:
    """Which clock runs: the record node (position) and the player to move there, since when.

    Time spent at a position is remembered when the clock pauses (browsing, analyse
    mode) and continues from there when the clock runs again at that position.
    """

    def __init__(self, now: TimeSource | None = None) -> None:
        self.now: TimeSource = now or monotonic_ms
        self.node_id: int | None = None
        self.player: int | None = None
        self._since = 0
        self._spent: dict[int, int] = {}  # node id -> ms spent there before the last pause

    @property
    def running(self) -> bool:
        return self.node_id is not None

    def start(self, node_id: int, player: int) -> None:
        """Run ``player``'s clock at ``node_id`` (nothing changes if it already runs)."""
        if self.node_id == node_id and self.player == player:
            return
        self.pause()
        self.node_id, self.player, self._since = node_id, player, self.now()

    def pause(self) -> None:
        if self.node_id is not None:
            self._spent[self.node_id] = self.spent(self.node_id)
        self.node_id = self.player = None

    def spent(self, node_id: int) -> int:
        """The time spent at ``node_id`` so far (running or paused)."""
        before = self._spent.get(node_id, 0)
        if node_id == self.node_id:
            return before + max(0, self.now() - self._since)
        return before

    def take(self, node_id: int) -> int | None:
        """The time spent at ``node_id``, which a move has just left (``None`` if the clock
        never ran there): stops and forgets it."""
        if node_id != self.node_id and node_id not in self._spent:
            return None
        spent = self.spent(node_id)
        if self.node_id == node_id:
            self.node_id = self.player = None
        self._spent.pop(node_id, None)
        return spent

    def reset(self) -> None:
        """Forget everything (a new game)."""
        self.node_id = self.player = None
        self._spent.clear()
