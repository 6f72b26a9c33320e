"""USI (the Universal Shogi Interface): ``gamesuite engine usi``.

Speaks USI on standard input and output so that shogi GUIs (ShogiHome, ...)
and match runners can use the engine. Commands: ``usi``, ``setoption``,
``isready`` (answered at once, even while searching), ``usinewgame``,
``position startpos|sfen ... [moves ...]``, ``go`` (``btime wtime binc winc
byoyomi movetime depth nodes infinite ponder``, and ``go mate``), ``stop``,
``ponderhit`` (with or without a clock: ``ponderhit btime .. wtime .. byoyomi ..``), ``gameover``,
``quit``. The engine loads (compiles its kernels or reads them from numba's
cache) from start-up, and ``isready`` is answered ``readyok`` once it is ready
for the current options, so the first ``go`` is a full search. Every ``go`` gets exactly one
``bestmove`` (``resign`` when there is no legal move, ``win`` when the
entering-king declaration applies); ``go mate [ms|infinite]`` runs the df-pn
mate search (checks only, as in a tsume problem) and gets one ``checkmate
<moves>``, ``checkmate nomate`` (proven) or ``checkmate timeout`` line.
Unknown or malformed lines get an ``info string error: ...`` reply and never stop the
engine; input bytes that are not UTF-8 are replaced, not fatal. Options are checked
against the maxima ``usi`` advertises (``USI_Hash`` 1..4096, ``USI_MultiPV`` 1..32), and
``go`` numbers against the bounds of ``core.limits``. The engine is ready for the next
command the moment it has written ``bestmove`` or ``checkmate``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import numpy as np

from ..core.errors import GameSuiteError
from ..core.info import InfoCallback, SearchInfo, new_stop_flag
from ..core.limits import LIMIT_MAX, MAX_TIME_MS, Limits
from ..core.options import MAX_MEMORY_MB, Option, parse_int
from ..core.registry import Game, load_game, make_engine
from ..core.score import Score
from ._io import lenient_stdout, lines

if TYPE_CHECKING:
    from ..games.shogi.engine import ShogiEngine
    from ..games.shogi.rules import Shogi, ShogiState

PROTOCOL = True

NAME = "gamesuite-shogi"
#: The options ``usi`` advertises, declared once: the ``option`` lines and ``setoption``'s checks
#: both come from here.
USI_OPTIONS: dict[str, Option] = {
    "USI_Hash": Option(16, 1, MAX_MEMORY_MB, help="MB of transposition table"),
    "USI_Ponder": Option(False),
    "USI_MultiPV": Option(1, 1, 32),
    "USI_OwnBook": Option(False, help="play the package's opening book (shogi_book.txt) while in it"),
    "Variant": Option("standard", choices=("standard", "mini")),
    "EnteringKingRule": Option("27", choices=("27", "24", "off")),
}


def option_line(name: str, o: Option) -> str:
    """The ``option name ...`` line of ``usi`` for one declared option."""
    if o.choices:
        return f"option name {name} type combo default {o.default} " + " ".join(f"var {c}" for c in o.choices)
    if o.type is bool:
        return f"option name {name} type check default {str(o.default).lower()}"
    if o.type is int:
        return f"option name {name} type spin default {o.default} min {o.min} max {o.max}"
    return f"option name {name} type string default {o.default or '<empty>'}"


def _setting_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


OPTIONS = tuple(option_line(n, o) for n, o in USI_OPTIONS.items())
#: ``go`` words that take a number, and the largest each accepts.
_GO_NUMBERS = {"btime": MAX_TIME_MS, "wtime": MAX_TIME_MS, "binc": MAX_TIME_MS, "winc": MAX_TIME_MS,
               "byoyomi": MAX_TIME_MS, "movetime": MAX_TIME_MS, "depth": LIMIT_MAX["depth"],
               "nodes": LIMIT_MAX["nodes"], "movestogo": LIMIT_MAX["moves_to_go"]}


def usi_score(score: Score) -> str:
    """``cp N`` or ``mate N`` (plies, positive when the side to move wins; ``mate -0``: it is mated)."""
    if score.kind == "mate":
        # GUIs such as ShogiHome read "mate 0" as "the side to move mates"; 0 plies can only mean it is mated
        return "mate -0" if int(score.value) == 0 else f"mate {int(score.value)}"
    if score.kind == "draw":
        return "cp 0"
    return f"cp {int(round(score.value))}"


def info_line(info: SearchInfo, state: ShogiState) -> str:
    """The ``info`` line of one search report at ``state`` (the score for the side to move; no ``pv``
    word when the line is empty, since a GUI reads every word after it as a move)."""
    pv = " ".join(state.format_line(info.pv))
    sc = usi_score(info.score.for_player(state.color))
    return (f"info depth {info.depth} seldepth {info.seldepth} time {info.time_ms} nodes {info.nodes} "
            f"nps {info.nps} hashfull {info.hashfull} multipv {info.multipv} score {sc}" + (f" pv {pv}" if pv else ""))


class UsiSession:
    """One USI conversation; ``handle`` takes a line, ``write`` prints one."""

    def __init__(self, write: Callable[[str], None], load: bool = False) -> None:
        """``load``: start loading the engine at once, in a thread (``main`` does; ``isready`` waits for it)."""
        self._write_raw = write
        self._out_lock = threading.Lock()
        self.settings = {k: _setting_text(o.default) for k, o in USI_OPTIONS.items()}
        self._engine: ShogiEngine | None = None
        self._engine_key: tuple = ()
        self.state: ShogiState | None = None
        self._worker: threading.Thread | None = None
        #: set (under the output lock) as the search's answer is written: from then on the session
        #: takes new commands although the worker thread may not have returned yet
        self._answered = threading.Event()
        self._stop = new_stop_flag()
        self._pondering = False
        self._infinite = False
        self._silent = False
        self._ponder_go: list[str] = []
        self.quit = False
        self._engine_lock = threading.Lock()
        self._loader: threading.Thread | None = None
        if load:
            self._loader = threading.Thread(target=self._load, name="usi-load", daemon=True)
            self._loader.start()

    def _load(self) -> None:
        try:
            self._ready_engine()
        except Exception:  # noqa: BLE001 - isready tries again and reports the error
            pass

    # -- output -------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._out_lock:
            self._write_raw(line)

    def _answer(self, line: str) -> None:
        """Write the search's one answer (``bestmove`` / ``checkmate``); the session is free from now."""
        with self._out_lock:
            self._answered.set()
            self._write_raw(line)

    # -- the game and the engine ------------------------------------------
    def _game(self) -> Shogi:
        spec = f"shogi(variant={self.settings['Variant']},impasse={self.settings['EnteringKingRule']})"
        return cast("Shogi", load_game(spec))

    def _engine_for(self, game: Game) -> ShogiEngine:
        key = (game.spec, self.settings["USI_Hash"], self.settings["USI_OwnBook"])
        with self._engine_lock:
            if self._engine is None or key != self._engine_key:
                spec = f"alphabeta,hash={int(self.settings['USI_Hash'])}"
                if self.settings["USI_OwnBook"] == "true":
                    spec += ",book=true"
                self._engine = cast("ShogiEngine", make_engine(game, spec))
                self._engine_key = key
            return self._engine

    def _ready_engine(self, game: Game | None = None) -> ShogiEngine:
        """The engine for ``game`` (default: the current options') with every kernel it needs loaded
        (compiled if need be)."""
        from ..warmup import prepare

        game = game or self._game()
        engine = self._engine_for(game)
        prepare(game, engine)
        return engine

    # -- commands -------------------------------------------------------------
    def handle(self, line: str) -> None:
        words = line.strip().split()
        if not words:
            return
        cmd, args = words[0], words[1:]
        try:
            if cmd == "usi":
                self.write(f"id name {NAME}")
                self.write("id author the gamesuite authors")
                for o in OPTIONS:
                    self.write(o)
                self.write("usiok")
            elif cmd == "isready":
                if self._loader is not None:
                    self._loader.join()
                if not self.searching:
                    self._wait()  # a search that has answered: its thread is returning
                    self._ready_engine()
                self.write("readyok")
            elif cmd == "setoption":
                self._setoption(args)
            elif cmd == "usinewgame":
                self._halt()
                if self._engine is not None:
                    self._engine.new_game()
            elif cmd == "position":
                self._halt()
                self.state = self._game().state_from_text(" ".join(words))
            elif cmd == "go":
                self._go(args)
            elif cmd == "stop":
                self._halt()
            elif cmd == "ponderhit":
                self._ponderhit(args)
            elif cmd == "gameover":
                self._halt()
            elif cmd == "quit":
                self._halt()
                self.quit = True
            else:
                self.write(f"info string error: unknown command {_quote_line(line)}")
        except GameSuiteError as e:
            self.write(f"info string error: {_one_line(str(e))}")
        except Exception as e:  # noqa: BLE001 - never die on input; the fuzz tests count these as bugs
            self.write(f"info string error: internal error: {type(e).__name__}: {_one_line(str(e))}")

    @property
    def searching(self) -> bool:
        """A search runs that has not answered yet."""
        return self._worker is not None and self._worker.is_alive() and not self._answered.is_set()

    def _halt(self) -> None:
        """Stop a running search (it still answers its ``go``) and wait for it."""
        self._pondering = self._infinite = False
        self._stop[0] = 1
        self._wait()

    def _wait(self) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def _setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            raise GameSuiteError(f"setoption needs 'name': {' '.join(args)!r}")
        rest = " ".join(args[1:])
        name, _, value = rest.partition(" value ")
        name, value = name.strip(), value.strip()
        if name not in USI_OPTIONS:
            raise GameSuiteError(f"unknown option {_quote_line(name)}; known: {', '.join(USI_OPTIONS)}")
        self.settings[name] = _setting_text(USI_OPTIONS[name].convert(value, name))

    def _parse_go(self, args: list[str]) -> tuple[Limits, bool, int | None]:
        """(limits, ponder, mate time) from the words after ``go``."""
        nums: dict[str, int] = {}
        ponder = infinite = False
        mate: int | None = None
        i = 0
        while i < len(args):
            w = args[i]
            if w in ("ponder", "infinite"):
                ponder |= w == "ponder"
                infinite |= w == "infinite"
                i += 1
            elif w == "mate":
                v = args[i + 1] if i + 1 < len(args) else "infinite"
                mate = 0 if v == "infinite" else _nonneg(v, "mate", MAX_TIME_MS)
                i += 2
            elif w in _GO_NUMBERS:
                if i + 1 >= len(args):
                    raise GameSuiteError(f"go {w} needs a number")
                nums[w] = _nonneg(args[i + 1], w, _GO_NUMBERS[w])
                i += 2
            else:
                raise GameSuiteError(f"unknown go parameter {_quote_line(w)}")
        multipv = int(self.settings["USI_MultiPV"])
        time_left = (nums["btime"], nums["wtime"]) if "btime" in nums and "wtime" in nums else None
        inc = (nums.get("binc", 0), nums.get("winc", 0)) if time_left else None
        limits = Limits(
            depth=nums.get("depth") or None, nodes=nums.get("nodes") or None, movetime=nums.get("movetime") or None,
            time_left=time_left, increment=inc, byoyomi=nums.get("byoyomi") or None,
            moves_to_go=nums.get("movestogo") or None, infinite=infinite or ponder, multipv=multipv,
        )
        return limits, ponder, mate

    def _go(self, args: list[str]) -> None:
        if self.searching:
            raise GameSuiteError("go while searching (send stop first)")
        self._wait()  # a search that has answered: its thread is returning
        if self.state is None:
            self.state = self._game().new_state()
        limits, ponder, mate = self._parse_go(args)
        self._pondering = ponder
        self._infinite = "infinite" in args and mate is None  # a mate search answers when it is done
        self._ponder_go = [a for a in args if a != "ponder"]
        self._start(limits, mate)

    def _ponderhit(self, args: list[str]) -> None:
        """Search for real the pondered position: with the clock of ``go ponder``, or of ``ponderhit`` if it
        carries one (``ponderhit btime .. wtime .. byoyomi ..``, the "early ponder" of ShogiHome and
        YaneuraOu, whose ``go ponder`` has no clock)."""
        if not (self._pondering and self.searching):
            self.write("info string ponderhit without a ponder search")
            return
        go_args = args if args else self._ponder_go
        limits, ponder, mate = self._parse_go(go_args)  # a malformed clock is reported before the search stops
        if ponder:
            raise GameSuiteError(f"ponderhit cannot ponder again: {' '.join(args)!r}")
        # stop the ponder search without a bestmove and search for real (the hash table keeps its work)
        self._pondering = False
        self._silent = True
        self._stop[0] = 1
        self._wait()
        self._infinite = "infinite" in go_args and mate is None
        self._start(limits, mate)

    def _start(self, limits: Limits, mate: int | None) -> None:
        if self.state is None:  # go set it (to the start position when no position came first)
            self.state = self._game().new_state()
        state = self.state.copy()
        if self._loader is not None:
            self._loader.join()
        engine = self._ready_engine(state.game)  # loaded already after isready; a go without one loads here
        self._stop = stop = new_stop_flag()
        self._silent = False
        self._answered = threading.Event()
        if mate is not None:  # until a mate is proven or disproven, the time is up or stop
            limits = Limits(movetime=mate or None)

        def on_info(info: SearchInfo) -> None:
            if self._silent:
                return
            self.write(info_line(info, state))

        def work() -> None:
            try:
                self._search(engine, state, limits, stop, on_info, mate is not None)
            except Exception as e:  # noqa: BLE001 - never die in the worker: report and answer
                self.write(f"info string error: internal error while searching: {type(e).__name__}: {e}")
                if not self._silent and not self._answered.is_set():
                    self._answer("checkmate nomate" if mate is not None else "bestmove resign")

        self._worker = threading.Thread(target=work, name="usi-search", daemon=True)
        self._worker.start()

    def _search(self, engine: ShogiEngine, state: ShogiState, limits: Limits, stop: np.ndarray,
                on_info: InfoCallback, mate_mode: bool) -> None:
        if mate_mode:
            self._mate(engine, state, limits, stop)
            return
        if state._can_declare():
            if not self._silent:
                self._wait_ponder_end(stop)
                self._answer("bestmove win")
            return
        if state.is_terminal():
            if not self._silent:
                self._wait_ponder_end(stop)
                self._answer("bestmove resign")
            return
        r = engine.search(state, limits, stop, on_info)
        if self._silent:
            return
        self._wait_ponder_end(stop)
        if r.best_move is None:
            self._answer("bestmove resign")
            return
        text = f"bestmove {state.format_move(r.best_move)}"
        if r.ponder is not None:
            after = state.copy()
            after.play(r.best_move)
            text += f" ponder {after.format_move(r.ponder)}"
        self._answer(text)

    def _mate(self, engine: ShogiEngine, state: ShogiState, limits: Limits, stop: np.ndarray) -> None:
        """``go mate``: df-pn over checks; ``checkmate <moves>``, ``checkmate nomate`` or ``checkmate timeout``."""
        from ..games.shogi.mate import find_mate
        from ..search.driver import StopWatch

        if state.is_terminal():
            result = None
        else:
            with StopWatch(stop, limits.movetime) as watch:
                result = find_mate(state, stop=watch.flag, table=engine.mate_table)
        if self._silent:
            return
        if result is None or result.status == "nomate":
            self._answer("checkmate nomate")
        elif result.status == "mate":
            self.write(f"info string mate in {result.plies} plies, {result.nodes} nodes")
            self._answer("checkmate " + " ".join(state.format_line(result.pv)))
        else:
            self._answer("checkmate timeout")

    def _wait_ponder_end(self, stop: np.ndarray) -> None:
        """While pondering (or infinite), a bestmove may only follow ``stop`` or ``ponderhit``."""
        while (self._pondering or self._infinite) and not stop[0]:
            threading.Event().wait(0.01)


def _nonneg(text: str, what: str, hi: int) -> int:
    """A ``go`` number: ASCII digits in 0..``hi``."""
    return parse_int(text, f"go {what}", 0, hi, error=GameSuiteError)


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line, shortened: a reply never spans lines (a GUI would read them as commands)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _quote_line(text: str) -> str:
    return repr(_one_line(text.strip(), 200))


def main(argv: list[str] | None = None) -> int:
    """Run a USI session on stdin/stdout until ``quit`` or end of input."""
    lenient_stdout()

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    session = UsiSession(write, load=True)
    for line in lines(sys.stdin):
        session.handle(line)
        if session.quit:
            break
    else:
        session.handle("quit")
    return 0


def entry_point() -> None:
    """Console-script entry (``gamesuite-usi``)."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    entry_point()
