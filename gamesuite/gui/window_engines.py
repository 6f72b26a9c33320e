"""The window's engines: preparing them, deciding what they think about, and the user's engine actions.

``MainWindow`` mixes this in; the searches themselves run in ``worker.EngineHost``.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Slot

from ..core.info import SearchResult
from ..core.limits import Limits
from ..core.registry import Game
from ..core.score import Score
from ..play.record import PlayerSpec
from .engine_external import spec_label, spec_limits
from .fmt import score_text
from .window_parts import WindowParts

HINT_MS = 1000



class EnginesMixin(WindowParts):
    """Part of ``MainWindow`` (``gui/mainwindow.py``); its methods use the window's widgets and state."""

    # -- engines: preparation ---------------------------------------------------------
    def analysis_spec(self) -> str:
        """The engine spec used for analysis and hints: the one chosen in Engine › Engine settings for the
        game, else the first computer player's, else the default."""
        chosen = str(self.storage.get(f"analysis_engine/{self.controller.game.name}", "") or "")
        if chosen:  # Engine › Engine settings
            return chosen
        for p in self.controller.players:
            if p.is_engine:
                return p.engine
        return ""

    def _prepare_engines(self, game: Game | None = None, players: list[PlayerSpec] | None = None) -> None:
        """Have the worker load ``game``'s rule kernels and build and warm up its engines.

        Until the rules are loaded (``rulesReady``) the window is not ``ready``: the board
        takes no moves and nothing on the GUI thread calls into the game's rules beyond
        ``new_state``; searches asked for later wait in the worker behind the warm-up.
        """
        game = game or self.controller.game
        players = players if players is not None else self.controller.players
        engines = [p.engine for p in players if p.is_engine]
        specs = set(engines) | {engines[0] if engines else ""}
        self.ready = False
        self.engines_ready = False
        self.board.rules_ready = False
        self._preparing_spec = game.spec
        self.prepare_progress = (0, 0)
        self.preparing_text = self.tr("Preparing the {0} engine").format(game.name)
        self._ready_token = self.host.prepare([(game, s) for s in sorted(specs)])
        self.banner.setText(self.preparing_text + "…")
        self._show_thinking()

    @Slot(int, int, int, str)
    def _on_prepare_progress(self, token: int, done: int, total: int, what: str) -> None:
        """Real progress of the engines' compilation: "Preparing the gomoku engine (12 of 35)"."""
        if token != self._ready_token or self.engines_ready:
            return
        self.prepare_progress = (done, total)
        what = what or self.tr("the {0} engine").format(self.controller.game.name)
        self.preparing_text = self.tr("Preparing {0}").format(what) + (
            self.tr(" ({0} of {1})").format(min(done, total), total) if total else "")
        self._show_thinking()

    @Slot(int)
    def _on_rules_ready(self, token: int) -> None:
        if token != self._ready_token:
            return
        self.ready = True
        self.board.rules_ready = True
        self._warmed.add(self._preparing_spec)
        todo, self._after_rules = self._after_rules, []
        for fn in todo:
            fn()
        self._sync_clock()
        self._refresh()
        self._update_engine()
        if not self._was_interactive:
            self._was_interactive = True
            self.interactive.emit()

    @Slot(int, str)
    def _on_ready(self, token: int, errors: str) -> None:
        if token != self._ready_token:
            return
        self.engines_ready = True
        if errors:
            self.report(self.tr("Engine problem: {0}").format(errors))
        self._sync_clock()
        cur = self.host.current
        if cur is not None and cur.purpose == "move":  # a move asked for meanwhile starts now, in the worker
            self.panel.set_running(True, self._search_label)
        self._show_thinking()

    # -- engines: what to think about ------------------------------------------------------
    def _update_engine(self, force: bool = False) -> None:
        if not self.ready or self.setup_active:
            return
        c = self.controller
        node, st = c.current, c.state
        cur = self.host.current
        p = self._player_to_act()  # (in a swap opening: the role whose answer is due)
        purpose = None
        if self.mode == "play" and p is not None and p.is_engine and c.over_text() is None and c.at_end_of_line():
            purpose = "swap" if self.swap_pending() else "move"
        elif self.analysing and not st.is_terminal():
            purpose = "analysis"
        if purpose is None:
            if cur is not None and not (cur.purpose == "hint" and cur.node_id == node.id):
                self._stop_search()
            self._show_thinking()
            return
        if not force and cur is not None and cur.purpose == purpose and cur.node_id == node.id:
            return
        if purpose == "analysis" and not force and self._analysis_done_node == node.id and cur is None:
            return
        if purpose in ("move", "swap"):
            assert p is not None
            own = spec_limits(p.engine)  # the engine's own limits (``@depth=8``) before the player's
            if p.clock is not None and purpose == "move":  # (the clocks start after a swap opening)
                limits = self.clock_limits()
            elif own is not None:
                limits = own
            else:
                limits = Limits(depth=p.depth) if p.depth else Limits(movetime=p.movetime or 1000)
            spec = p.engine
            who = p.label().replace(p.engine, spec_label(p.engine)) if p.engine else p.label()
            label = (self.tr("{0}: {1} is thinking").format(self.notation.player(st.current_player), who)
                     if purpose == "move" else
                     self.tr("{0} opening: {1} is deciding").format(self.swap_rule, who))
        else:
            spec = self.analysis_spec()
            own = spec_limits(spec)
            limits = (replace(own, multipv=self.panel.multipv.value()) if own is not None
                      else Limits(infinite=True, multipv=self.panel.multipv.value()))
            label = self.tr("Analysing with {0}").format(spec_label(spec) or self.tr("the default engine"))
        self._analysis_done_node = None
        swap = (self.swap_rule, self.swap_seed()) if purpose == "swap" else None
        self.host.start(purpose, c.game, st, spec, limits, new_game=self._new_game_pending, node_id=node.id,
                        swap=swap)
        self._new_game_pending = False
        self._search_label = label
        # a search asked for while the engines load waits in the worker: say what happens, not "thinking"
        waiting = not self.engines_ready and purpose in ("move", "swap")
        self.panel.begin(st, self.preparing_text + "…" if waiting else label, node.id, c.record, purpose)
        self.panel.set_running(True)
        self._show_thinking()

    def _stop_search(self, label: str | None = None) -> None:
        """Stop the running search (its late reports are dropped); the panel says it stopped."""
        label = self.tr("Stopped") if label is None else label
        cur = self.host.current
        self.host.stop()
        if cur is not None:
            self.panel.flush()
            self.panel.set_running(False, label if self.panel.state is not None else None)
        self._sync_panel()

    def _sync_panel(self) -> None:
        """Keep the analysis panel about the position shown: a panel about another position is
        cleared (a new game, an opened file, a pasted or set-up position, a step elsewhere), except
        the computer's thoughts about the move it just played."""
        c = self.controller
        p = self.panel
        if p.state is not None:
            here = p.is_about(c.record, c.current.id)
            just_played = (p.purpose == "move" and c.current.parent is not None
                           and p.is_about(c.record, c.current.parent.id))
            if not here and not just_played:
                p.clear()
        if p.state is None and self.host.current is None:
            over = c.over_text() if self.ready else None
            p.title.setText(self.tr("Game over: {0}").format(over) if over else self.tr("Engine idle"))

    def _show_thinking(self) -> None:
        cur = self.host.current
        if not self.engines_ready:  # never "thinking" while the engines load: their real progress
            done, total = self.prepare_progress
            self.thinking.setRange(0, total)  # (0, 0): a busy bar while the total is not known
            self.thinking.setValue(min(done, total))
            self.thinking_label.setText(self.preparing_text)
            if cur is not None and cur.purpose in ("move", "swap"):  # (a hint or an analysis keeps its own title)
                self.panel.set_running(True, self.preparing_text + "…")
        else:
            self.thinking.setRange(0, 0)
            if cur is not None and cur.purpose in ("move", "swap"):
                self.thinking_label.setText(self.tr("Computer is thinking"))
            elif cur is not None and cur.purpose == "analysis":
                self.thinking_label.setText(self.tr("Analysing"))
            elif cur is not None and cur.purpose == "hint":
                self.thinking_label.setText(self.tr("Looking for a hint"))
            else:
                self.thinking_label.setText("")
        self.thinking.setVisible(cur is not None or not self.engines_ready)
        self.panel.set_running(cur is not None)
        self._update_banner()
        self._update_interactive()

    @Slot(int, str, object)
    def _on_info(self, sid: int, purpose: str, infos: list) -> None:
        cur = self.host.current
        if cur is not None and self.panel.is_about(self.controller.record, cur.node_id):
            self.panel.add_infos(infos)
        tops = [i for i in infos if i.multipv == 1]
        if tops and cur is not None and purpose in ("analysis", "move"):
            node = self.controller.record.find(cur.node_id) if cur.node_id is not None else None
            if node is not None:
                self.controller.set_score(node, tops[-1].score)

    @Slot(int, str, object)
    def _on_result(self, sid: int, purpose: str, result: SearchResult) -> None:
        self.panel.flush()
        c = self.controller
        req = self.host.finished_request
        req_node = c.record.find(req.node_id) if req is not None and req.node_id is not None else None
        if req_node is None:  # a search of a game no longer shown
            self._show_thinking()
            return
        if purpose == "swap":  # a swap opening's answer, not a search result
            self.panel.set_running(False, self.tr("{0} opening: the computer answered").format(self.swap_rule))
            self._on_swap_answer(req_node, result)
            self._show_thinking()
            return
        if result.lines or result.depth:
            c.set_score(req_node, result.score)
        score = self._score_words(result.score)
        if purpose == "move":
            self.clock_tick()  # a flag that fell before the move came in
            if result.best_move is not None and req_node is c.current and c.over_text() is None:
                text = self.notation.move(c.state, result.best_move)
                self.panel.set_running(False, self.tr("{0} played {1} ({2}, depth {3})").format(
                    self.notation.player(c.state.current_player), text, score, result.depth))
                c.play(result.best_move)
        elif purpose == "hint":
            if result.best_move is not None and req_node is c.current:
                self.board.set_hint(result.best_move)
                hint = self.tr("Hint: {0} ({1})").format(self.notation.move(c.state, result.best_move), score)
                self.panel.set_running(False, hint)
                self.show_message(hint, 8000)
            self._show_thinking()
            self._update_engine()
        else:
            self._analysis_done_node = req_node.id
            if self.panel.is_about(c.record, req_node.id):
                self.panel.set_running(False, self.tr("Analysis complete: {0} at depth {1}").format(
                    score, result.depth))
            self._show_thinking()

    def _score_words(self, score: Score) -> str:
        """A score for a sentence: ``+0.35``, ``X wins in 3``, or one value per player (``Red +1.2, …``)."""
        if score.kind == "vector":
            return ", ".join(f"{self.notation.player(i)} {v}" for i, v in enumerate(self.notation.score_cells(score)))
        return score_text(score, self.controller.game)

    @Slot(int, str, str)
    def _on_engine_error(self, sid: int, purpose: str, message: str) -> None:
        self.report(self.tr("The engine failed: {0}").format(message))
        self.panel.set_running(False, self.tr("The engine failed"))
        # Do not ask a broken engine again by itself: the computers stop playing
        # (analyse mode, engine off) until the user starts something.
        self.analysing = False
        if purpose in ("move", "swap"):
            self.mode = "analyse"
            self.act_analyse.setChecked(True)
            self._sync_clock()
            self._refresh_labels()
        self._show_thinking()

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self._show_thinking()

    # -- user actions: engine ----------------------------------------------------------------
    @Slot()
    def toggle_engine(self) -> None:
        """Space: move now (computer's turn), or start/stop the analysis."""
        cur = self.host.current
        if cur is not None and cur.purpose in ("move", "swap"):
            self.host.move_now()
            return
        if self.analysing:
            self.stop_analysis()
        else:
            self.start_analysis()

    def start_analysis(self) -> None:
        self.analysing = True
        self._analysis_done_node = None
        self._update_engine(force=True)
        self._show_thinking()

    def stop_analysis(self) -> None:
        self.analysing = False
        cur = self.host.current
        if cur is not None and cur.purpose == "analysis":
            self._stop_search(self.tr("Analysis stopped"))
        self._show_thinking()

    def set_mode(self, mode: str) -> None:
        """``"play"``: computers move for their sides; ``"analyse"``: the engine follows the position."""
        self.mode = mode
        (self.act_play if mode == "play" else self.act_analyse).setChecked(True)
        self._sync_clock()  # the clocks run in play mode only
        if mode == "analyse":
            self.start_analysis()
        else:
            self.analysing = False
            cur = self.host.current
            if cur is not None and cur.purpose == "analysis":
                self._stop_search(self.tr("Analysis stopped"))
            self._update_engine()
        self._refresh_labels()

    @Slot()
    def hint(self) -> None:
        c = self.controller
        if not self.ready or c.state.is_terminal():
            return
        cur = self.host.current
        if cur is not None and cur.purpose in ("move", "swap"):
            return
        self.host.start("hint", c.game, c.state, self.analysis_spec(), Limits(movetime=HINT_MS),
                        node_id=c.current.id)
        self.panel.begin(c.state, self.tr("Looking for a hint"), c.current.id, c.record, "hint")
        self.panel.set_running(True)
        self._show_thinking()

    @Slot(int)
    def _multipv_changed(self, n: int) -> None:
        self.storage.set("multipv", n)
        if self.analysing:
            self._update_engine(force=True)
