"""Players of the arena: one of our engines in this process, or an external program.

A player is asked for one move at a time (``move(request)``) and answers with
a move number or raises ``EngineFailure`` saying what went wrong. The arena
times every answer itself and checks its legality, so a player need not.
"""

from __future__ import annotations

import importlib
import sys
import threading
from dataclasses import dataclass
from typing import Any

from ..core.errors import FAILURE_KINDS, EngineFailure, InvalidOptionError, quote
from ..core.info import Engine, new_stop_flag
from ..core.limits import Limits
from ..core.registry import Game, make_engine
from ..core.state import State
from .spec import EngineSpec

__all__ = ["FAILURE_KINDS", "EngineFailure", "LocalPlayer", "MoveRequest", "Player", "SwapRequest",
           "build_local_engine"]


@dataclass
class MoveRequest:
    """What a player gets when it is to move."""

    state: State  # the current position (the player's own copy)
    start: State  # the record's start position (before the opening moves)
    moves: list[int]  # every move since ``start``: opening, chance outcomes, game
    seat: int
    limits: Limits  # the time control as the engine is told it
    wait_ms: float  # how long the arena waits for an answer before calling it a hang


@dataclass
class SwapRequest:
    """A decision of a swap opening (``arena.swap``): the stones so far, and what the rule is."""

    state: State  # the stones placed so far (the player's own copy)
    rule: str  # "swap1" or "swap2"
    limits: Limits  # the player's limits, for the whole decision
    wait_ms: float
    seed: int  # for an engine that draws among openings


class Player:
    """Base of every player; subclasses implement ``move``."""

    label: str = "?"
    broken: bool = False  # set when the player cannot be trusted for another game

    def start_game(self, game: Game, start: State, seat: int, opening_rule: str = "") -> None:
        """Get ready for a new game from ``start`` playing ``seat`` (``opening_rule``: a swap
        opening comes first); may raise ``EngineFailure``."""

    def move(self, request: MoveRequest) -> int:
        """Choose a move (its number in ``request.state``) or raise ``EngineFailure``."""
        raise NotImplementedError

    def swap_answer(self, request: SwapRequest) -> str | list[int]:
        """A swap-opening answer: ``"swap"`` or stones (see ``arena.swap``); or ``EngineFailure``."""
        raise EngineFailure("protocol", f"{self.label} cannot play {request.rule} openings")

    def game_over(self, state: State, seat: int) -> None:
        """Hear how the game ended (``state`` is final, or abandoned after an adjudication)."""

    def close(self) -> None:
        """Release the player's resources (processes, threads)."""


def build_local_engine(game: Game, spec: EngineSpec) -> Engine:
    """Build the engine object of an ``ours`` or ``py`` spec; ``InvalidOptionError`` when it cannot."""
    if spec.kind == "ours":
        return make_engine(game, spec.target)
    if spec.kind == "py":
        module, _, attr = spec.target.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise InvalidOptionError(
                f"engine spec {quote(spec.text)}: cannot import {quote(spec.target)} ({e})") from None
        from ..core.registry import _convert_option

        opts = {k: _convert_option(v) for k, v in spec.options}
        try:
            return factory(game, **opts)
        except TypeError as e:
            raise InvalidOptionError(f"bad options in engine spec {quote(spec.text)}: {e}") from None
    raise InvalidOptionError(f"engine spec {quote(spec.text)} is not a local engine")


_WARMED: set = set()  # engine modules whose warm_up() ran in this process


class LocalPlayer(Player):
    """One of our engines (or a ``py:`` engine), searching in a thread of this process.

    The search runs in a daemon thread so that a hang cannot block the arena: past
    the wait the stop flag is set, and an engine that still does not answer is
    abandoned (and marked ``broken`` so it is not reused).
    """

    def __init__(self, engine: Any, label: str, stop_grace_ms: float = 1000.0) -> None:
        self.engine = engine
        self.label = label
        self.stop_grace_ms = stop_grace_ms
        self.fresh = True  # not warmed up yet

    def start_game(self, game: Game, start: State, seat: int, opening_rule: str = "") -> None:
        try:
            self.engine.new_game()
        except Exception as e:  # noqa: BLE001 - an engine's bug is its loss, not ours
            raise EngineFailure("crash", f"new_game raised {type(e).__name__}: {e}") from None

    def warm_up(self, state: State, wait_ms: float = 60_000.0, game: Game | None = None) -> None:
        """Load compiled kernels before the clocks start; never fails.

        With ``game``: ``warmup.prepare`` (the one loader every front end uses: only what this
        engine needs, following its compile plan); without: the ``warm_up()`` of the engine's module
        (once per process), also where ``prepare`` fails. Then one depth-1 search of ``state``.
        """
        self.fresh = False
        prepared = False
        if game is not None:
            from ..warmup import prepare

            try:
                prepare(game, self.engine)
                prepared = True
            except Exception:  # noqa: BLE001 - e.g. no helper processes here: the module's hook below
                pass
        module = sys.modules.get(type(self.engine).__module__)
        hook = getattr(module, "warm_up", None)
        if not prepared and callable(hook) and module not in _WARMED:
            _WARMED.add(module)
            try:
                hook()
            except Exception:  # noqa: BLE001 - only a speed-up; a real fault shows in the game
                pass
        if state.is_terminal() or state.is_chance_node():
            return
        self._search(state.copy(), Limits(depth=1), wait_ms)

    def _search(self, state: State, limits: Limits, wait_ms: float) -> dict[str, Any]:
        """Search in a thread; the box holds ``result`` or ``error``, or ``hang`` when abandoned."""
        stop = new_stop_flag()
        return self._call(lambda: self.engine.search(state, limits, stop, None), stop, wait_ms)

    def _call(self, fn: Any, stop: Any, wait_ms: float) -> dict[str, Any]:
        """``fn()`` in a thread, ``stop`` set when it runs past ``wait_ms``; as ``_search``."""
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["result"] = fn()
            except BaseException as e:  # noqa: BLE001 - reported to the arena as a crash
                box["error"] = e

        t = threading.Thread(target=work, name=f"arena-{self.label}", daemon=True)
        t.start()
        t.join(wait_ms / 1000.0)
        if t.is_alive():
            stop[0] = 1
            t.join(self.stop_grace_ms / 1000.0)
            if t.is_alive():
                self.broken = True
                return {"hang": True}
        return box

    def move(self, request: MoveRequest) -> int:
        box = self._search(request.state, request.limits, request.wait_ms)
        if "hang" in box:
            raise EngineFailure("hang", f"no move {request.wait_ms / 1000:.1f} s after the search began, "
                                        "and none after being told to stop")
        if "error" in box:
            e = box["error"]
            raise EngineFailure("crash", f"search raised {type(e).__name__}: {e}")
        result = box["result"]
        move = getattr(result, "best_move", None)
        if move is None:
            raise EngineFailure("no move", "the engine returned no move")
        try:
            return int(move)
        except (TypeError, ValueError):
            raise EngineFailure("illegal", f"the engine returned {move!r}, not a move number") from None

    def swap_answer(self, request: SwapRequest) -> str | list[int]:
        """The engine's own ``swap_answer(state, rule, limits)`` if it has one, else a decision by its
        search (``arena.swap.decide``)."""
        import random

        from .swap import decide

        stop = new_stop_flag()
        own = getattr(self.engine, "swap_answer", None)
        if callable(own):
            box = self._call(lambda: own(request.state, request.rule, request.limits), stop, request.wait_ms)
        else:
            box = self._call(lambda: decide(self.engine, request.state, request.rule, request.limits,
                                            random.Random(request.seed), stop), stop, request.wait_ms)
        if "hang" in box:
            raise EngineFailure("hang", f"no {request.rule} answer {request.wait_ms / 1000:.1f} s after it was asked")
        if "error" in box:
            e = box["error"]
            raise EngineFailure("crash", f"{request.rule} decision raised {type(e).__name__}: {e}")
        return box["result"]
