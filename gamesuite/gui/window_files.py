"""The window's files: the one question before unsaved moves are lost, new games, open/save, import/export,
diagrams, and positions through the clipboard.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QMessageBox,
)

from ..core.errors import GameSuiteError, quote
from ..core.files import write_atomic, write_atomic_with
from ..core.registry import Game, load_game
from ..play.record import GameRecord, Node, PlayerSpec, parse_json
from .boards import board_class_for
from .dialogs import NewGameDialog
from .messages import error_box
from .window_parts import WindowParts


def default_players(game: Game) -> list[PlayerSpec]:
    """Human against the default engine (the computer plays the second side)."""
    players = [PlayerSpec("human") for _ in range(game.num_players)]
    for p in players[1:]:
        p.kind = "engine"
    return players



class FilesMixin(WindowParts):
    """Part of ``MainWindow`` (``gui/mainwindow.py``); its methods use the window's widgets and state."""

    # -- replacing the game: the one question before unsaved moves are lost ---------------------
    def ask_save_changes(self, action: str) -> str:
        """Ask what to do with the unsaved moves before ``action``: ``"save"``, ``"discard"`` or ``"cancel"``."""
        B = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, "The game is not saved",
                          f"The game has moves that are in no file. Save them before {action}?",
                          B.Save | B.Discard | B.Cancel, self)
        box.setDefaultButton(B.Save)
        box.setEscapeButton(B.Cancel)
        self.question_box = box
        answer = box.exec()
        self.question_box = None
        return {B.Save: "save", B.Discard: "discard"}.get(B(answer), "cancel")

    def may_replace_game(self, action: str) -> bool:
        """Whether the game shown may be replaced: asks *Save / Discard / Cancel* when it has moves that are
        in no file (``SaveState`` decides); every action that replaces the game asks this first."""
        if not self.save_state.is_unsaved(self.controller.record):
            return True
        answer = self.ask_save_changes(action)
        if answer == "save":
            return self.save()
        return answer == "discard"

    # -- new game, files ------------------------------------------------------------------------
    @Slot()
    def new_game_dialog(self) -> None:
        dlg = NewGameDialog(self, self.controller.game, self.swap_players(), book=self.engine_book,
                            opening=self.swap_rule)
        if dlg.exec() and self.may_replace_game("starting a new game"):
            self.new_game(dlg.result_game(), dlg.result_players(), dlg.result_opening())

    def new_game(self, game: Game, players: list[PlayerSpec] | None = None, opening_rule: str = "") -> bool:
        """Start a new game (engines of a new game or player get prepared first).

        ``opening_rule``: ``"swap1"`` or ``"swap2"`` for a swap opening (``arena.swap.check_rule`` says
        which games may have one); the first player proposes, the second chooses.

        Refused (False, with a message) for a game no board widget can show. Does not ask about
        unsaved moves: the actions that call it do (``may_replace_game``).
        """
        try:
            board_class_for(game)
        except ValueError:
            self.report(f"The window has no board for {game.long_name} ({game.spec!r}) yet")
            return False
        if opening_rule:
            from ..arena.swap import check_rule

            try:
                check_rule(game, opening_rule)
            except GameSuiteError as e:
                self.report(str(e))
                return False
        self._replaced = True
        self.end_setup(apply=False)
        self._stop_search()
        self.message_bar.dismiss()
        players = players or default_players(game)
        old_specs = (self.controller.game.spec, [p.to_json() for p in self.controller.players])
        self._new_game_pending = True
        self.save_state.new_game()
        self._analysis_done_node = None
        self.storage.set("game", game.spec)
        self.storage.set("players", json.dumps([p.to_json() for p in players]))
        self.storage.set("opening", opening_rule)  # (a relaunch starts the same kind of game)
        if old_specs != (game.spec, [p.to_json() for p in players]):
            self._prepare_engines(game, players)
        self.controller.new_game(game, players, match=self.new_record_match(opening_rule))
        return True

    def _load_record(self, rec: GameRecord, current: Node | None) -> None:
        self.end_setup(apply=False)
        self._stop_search()
        self.message_bar.dismiss()
        same = rec.game == self.controller.game and rec.players == self.controller.players
        self._new_game_pending = True
        self._analysis_done_node = None
        if not same:
            self._prepare_engines(rec.game, rec.players)
        self._loading = True
        try:
            self.controller.load(rec, current)
        finally:
            self._loading = False
        self._refresh()
        self._sync_panel()

    def error_dialog(self, title: str, text: str) -> None:
        """An error that must be read: a dialog (it does not block the window's event loop)."""
        self.error_box = error_box(self, title, text)

    def report(self, text: str, kind: str = "error") -> None:
        """A message that stays above the board until the user closes it or a newer one comes."""
        self.message_bar.show_message(text, kind)

    @Slot(str)
    def _report_refusal(self, text: str) -> None:
        """Why a click or a move was refused: shown until the position changes or the user closes it."""
        self.report(text, "warning")

    def _cannot_open(self, path: Path, why: str) -> bool:
        self.error_dialog("Cannot open the game", f"Cannot open {quote(str(path))}: {why}")
        return False

    def load_from(self, path: Path | str) -> bool:
        """Open a saved game; an unreadable file gets a dialog quoting it, and False.

        A game whose rules the worker has not loaded yet is read once it has (reading
        checks every move with the rules, which may be numba kernels).
        """
        path = Path(path)
        self._replaced = True
        try:
            text = path.read_bytes().decode("utf-8")
        except OSError as e:
            return self._cannot_open(path, e.strerror or str(e))
        except UnicodeDecodeError:
            return self._cannot_open(path, "it is not a gamesuite game (not UTF-8 text; Import… reads "
                                           "other formats)")
        try:
            game = GameRecord.game_of(parse_json(text))
        except ValueError as e:
            return self._cannot_open(path, str(e))
        try:
            board_class_for(game)
        except ValueError:
            return self._cannot_open(path, f"the window has no board for {game.long_name} yet")
        if game.spec not in self._warmed:
            self._after_rules.append(lambda: self._finish_load(path, text))
            self._prepare_engines(game, [])
            return True
        return self._finish_load(path, text)

    def _finish_load(self, path: Path, text: str) -> bool:
        try:
            rec, node = GameRecord.loads(text)
        except ValueError as e:
            return self._cannot_open(path, str(e))
        self._load_record(rec, node)
        self.save_state.saved(rec, path)
        self._refresh_labels()
        self.show_message(f"Opened {path}")
        return True

    def save_to(self, path: Path | str) -> bool:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, self.controller.record.dumps(self.controller.current))
        except OSError as e:
            self.error_dialog("Cannot save the game", f"Cannot save to {quote(str(path))}: {e.strerror or e}")
            return False
        self.save_state.saved(self.controller.record, path)
        self._refresh_labels()
        self._autosave()
        self.show_message(f"Saved {path}")
        return True

    @Slot()
    def open_dialog(self) -> None:
        if not self.may_replace_game("opening another game"):
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open a game", str(self.storage.games_dir),
                                              "gamesuite games (*.json);;All files (*)")
        if path:
            self.load_from(path)

    @Slot()
    def save(self) -> bool:
        """Save to the game's file, or ask for one; False when it was not saved."""
        if self.save_state.file is None:
            return self.save_as_dialog()
        return self.save_to(self.save_state.file)

    @Slot()
    def save_as_dialog(self) -> bool:
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", str(self.storage.games_dir / "game.json"),
                                              "gamesuite games (*.json)")
        if not path:
            return False
        return self.save_to(path if path.endswith(".json") else path + ".json")

    def import_from(self, path: Path | str) -> bool:
        """Open a game in its own format (gomoku record, .psq, ...); an unreadable file gets a dialog."""
        from .formats import decode, format_for_path, read_game_info

        path = Path(path)
        self._replaced = True
        fmt = format_for_path(str(path))
        if fmt is None or fmt.load is None:
            return self._cannot_open(path, "no game format reads this kind of file")
        try:
            text = decode(path.read_bytes())
        except OSError as e:
            return self._cannot_open(path, e.strerror or str(e))
        except ValueError as e:
            return self._cannot_open(path, str(e))
        if not any(load_game(s).name == fmt.game for s in self._warmed):
            # reading checks every move with the rules: let the worker load them first
            self._after_rules.append(lambda: self.import_from(path))
            self._prepare_engines(load_game(fmt.game), [])
            return True
        try:
            game, start, moves, info = read_game_info(fmt, text)
        except ValueError as e:
            return self._cannot_open(path, str(e))
        players = self.controller.players if game == self.controller.game else \
            [PlayerSpec("human") for _ in range(game.num_players)]
        rec = GameRecord(game, start_text=start, players=[PlayerSpec.from_json(p.to_json()) for p in players],
                         metadata={"source": path.name})
        node = rec.root
        for m in moves:
            node = rec.add_move(node, m)
        rec.apply_info(node, info)  # the players' names, the moves' times, the comments
        self._load_record(rec, node)
        self.save_state.saved(rec, None)  # its moves are in the imported file; Save asks for a new one
        self._refresh_labels()
        self.show_message(f"Imported {path} ({fmt.name}, {len(moves)} moves)")
        return True

    def export_game(self, path: Path | str) -> bool:
        """Save the line up to the position shown in the game's own format (chosen by the extension)."""
        from .formats import format_for_path, formats_for

        path = Path(path)
        fmt = format_for_path(str(path), [f for f in formats_for(self.controller.game.name) if f.save])
        if fmt is None or fmt.save is None:
            self.error_dialog("Cannot export the game", f"Cannot save {quote(path.name)}: "
                              f"{self.controller.game.long_name} has no format for this kind of file")
            return False
        try:
            c = self.controller
            text = fmt.write(c.state, c.record.info_at(c.current))  # with names, times and comments
            write_atomic(path, text)
        except GameSuiteError as e:
            self.error_dialog("Cannot export the game", f"Cannot save {quote(path.name)}: {e}")
            return False
        except OSError as e:
            self.error_dialog("Cannot export the game", f"Cannot save to {quote(str(path))}: {e.strerror or e}")
            return False
        self.show_message(f"Saved {path} ({fmt.name})")
        return True

    @Slot()
    def import_dialog(self) -> None:
        from .formats import all_formats

        fmts = [f for f in all_formats() if f.load]
        if not fmts:
            self.report(self.tr("No game has a file format to import"), "info")
            return
        if not self.may_replace_game("importing another game"):
            return
        exts = " ".join(sorted({"*." + e for f in fmts for e in f.extensions}))
        filters = ";;".join([f"Game records ({exts})"] + [f.filter() for f in fmts] + ["All files (*)"])
        path, _ = QFileDialog.getOpenFileName(self, "Import a game", str(self.storage.games_dir), filters)
        if path:
            self.import_from(path)

    @Slot()
    def export_game_dialog(self) -> None:
        from .formats import formats_for

        fmts = [f for f in formats_for(self.controller.game.name) if f.save]
        if not fmts:
            self.report(f"{self.controller.game.long_name} has no file format of its own: use Save (JSON)"
                        " or Copy position", "info")
            return
        self.storage.games_dir.mkdir(parents=True, exist_ok=True)
        default = str(self.storage.games_dir / f"game.{fmts[0].extensions[0]}")
        path, _ = QFileDialog.getSaveFileName(self, "Export the game", default, ";;".join(f.filter() for f in fmts))
        if path:
            self.export_game(path)

    def export_diagram(self, path: Path | str, size: int = 600) -> bool:
        path = str(path)

        def write(tmp: Path) -> None:  # a temporary beside the file, renamed over it when complete
            if path.lower().endswith(".svg"):
                self.board.save_svg(str(tmp), size)
            elif not self.board.save_png(str(tmp), size):
                raise OSError(f"cannot write {path}")

        try:
            write_atomic_with(path, write)
            ok = True
        except OSError:
            ok = False
        if ok:
            self.show_message(f"Diagram saved to {path}")
        else:
            self.error_dialog("Cannot export the diagram", f"Cannot write {quote(path)}")
        return ok

    @Slot()
    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export diagram", str(Path.home() / "diagram.png"),
                                              "PNG image (*.png);;SVG drawing (*.svg)")
        if path:
            self.export_diagram(path)

    @Slot()
    def copy_position(self) -> None:
        text = self.controller.state.to_text()
        QGuiApplication.clipboard().setText(text)
        self.show_message(f"Copied: {text}")

    @Slot()
    def paste_position(self) -> None:
        text = QGuiApplication.clipboard().text().strip()
        if self._position_record(text) is not None and self.may_replace_game("starting from the pasted position"):
            self.set_position_text(text)

    def _position_record(self, text: str) -> tuple[GameRecord, Node] | None:
        """A new record from position text: moves in the text (``startpos moves 7g7f``, a gomoku move
        list) become moves of the record, from the position before them. A bad text is reported
        (quoted) and gives None."""
        if not self.ready:
            self.show_message(self.tr("Preparing engines…"))
            return None
        game = self.controller.game
        try:
            state = game.state_from_text(text)
        except GameSuiteError as e:
            self.report(f"Not a {game.long_name} position: {e}")
            return None
        moves = list(state.history)
        start_text: str | None = text
        if moves:  # the position before them starts the record
            start = state.copy()
            for _ in moves:
                start.undo()
            start_text = start.to_text()
            if start_text == game.new_state().to_text():
                start_text = None
        players = [PlayerSpec.from_json(p.to_json()) for p in self.controller.players]
        rec = GameRecord(game, start_text, players=players, metadata=dict(self.controller.record.metadata))
        node = rec.root
        for m in moves:
            node = rec.add_move(node, m)
        return rec, node

    def set_position_text(self, text: str) -> bool:
        """Start a new record from position text (with its moves, if it has any); a bad text is refused
        with the reason. Does not ask about unsaved moves: its callers do."""
        made = self._position_record(text)
        if made is None:
            return False
        self._replaced = True
        self._load_record(*made)
        self.save_state.new_game()
        self._refresh_labels()
        return True
