"""The window's start-up probe for ``gamesuite bench startup --probe window`` (Qt lives in ``gui``)."""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ..core.registry import load_game
from ..play.record import PlayerSpec
from .mainwindow import MainWindow


def probe_window(game_spec: str, ms: int, t0: float, timeout_s: float) -> dict[str, Any]:
    """Open the window on ``game_spec`` with the computer moving first at ``ms`` a move; the times (on
    ``time.perf_counter`` since ``t0``) of its first move and of its answer to a click. Counts meanwhile
    any "thinking" text or running clock while the engines are prepared."""
    app = QApplication.instance() or QApplication([sys.argv[0]])
    g = load_game(game_spec)
    players = [PlayerSpec("engine", "", ms)] + [PlayerSpec("human") for _ in range(g.num_players - 1)]
    data = tempfile.mkdtemp(prefix="gamesuite-bench-")
    win = MainWindow(data_dir=data, restore=False, game_spec=g.spec, players=players)
    win.show()
    events: dict[str, float] = {"window shown": time.perf_counter() - t0}
    out: dict[str, Any] = {"events": events, "thinking_while_preparing": 0, "preparing_texts": []}
    depths: list[int] = []
    notes: list[str] = []  # the engine's remarks on its first move ("opening: the centre": no search needed)

    def on_info(sid: int, purpose: str, infos: Any) -> None:
        depths.extend(i.depth for i in infos if i.multipv == 1)
        notes.extend(i.text for i in infos if i.multipv == 1 and i.text and i.text not in notes)

    win.host.info.connect(on_info)
    state: dict[str, Any] = {"stage": 0, "click_at": 0.0, "answered": None}

    def on_result(sid: int, purpose: str, result: Any) -> None:
        if purpose == "move" and state["stage"] == 1 and state["answered"] is None:
            state["answered"] = (time.perf_counter(), result.depth)

    win.host.result.connect(on_result)

    def tick() -> None:
        now = time.perf_counter() - t0
        c = win.controller
        if win.ready and "rules ready" not in events:  # the board takes moves
            events["rules ready"] = now
        if not win.engines_ready:
            text = win.thinking_label.text() + " | " + win.banner.text()
            if "thinking" in text.lower() or win.clock_timer.isActive():
                out["thinking_while_preparing"] += 1
            if win.preparing_text and win.preparing_text not in out["preparing_texts"]:
                out["preparing_texts"].append(win.preparing_text)
        elif "engines ready" not in events:
            events["engines ready"] = now
        moves = len(c.record.main_line()) if hasattr(c.record, "main_line") else _plies(c)
        if state["stage"] == 0 and moves >= 1:
            events["first move"] = now
            out["depth"] = max(depths) if depths else None
            out["first move note"] = "; ".join(notes)
            depths.clear()
            state["stage"] = 1
            st = c.state
            if st.is_terminal() or g.num_players != 2 or st.is_chance_node():
                finish()
                return
            legal = st.legal_moves()
            after = st.copy()
            after.play(legal[len(legal) // 3])
            while after.is_chance_node():
                after.play(after.chance_outcomes()[0][0])
            out["answer choices"] = len(after.legal_moves())  # 1: a forced answer (depth 1 at once)
            state["click_at"] = time.perf_counter()
            win._on_board_move(legal[len(legal) // 3])  # what a click on the board does
        elif state["stage"] == 1 and state["answered"] is not None:
            at, depth = state["answered"]
            events["answer"] = at - t0
            out["click to answer"] = at - state["click_at"]
            out["depth2"] = depth
            finish()

    def finish() -> None:
        from .. import warmup

        out["cpu_self"] = time.process_time()
        for name, at in warmup.early_times().items():  # the compile started at launch (``warmup.start_early``)
            events[name] = at - t0
        timer.stop()
        win.close()
        app.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    QTimer.singleShot(int(timeout_s * 1000), finish)
    app.exec()
    shutil.rmtree(data, ignore_errors=True)
    return out


def _plies(c: Any) -> int:
    n, node = 0, c.current
    while node.parent is not None:
        n += 1
        node = node.parent
    return n
