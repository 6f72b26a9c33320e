"""Swap openings in the window (swap1, swap2 for freestyle and standard gomoku): who places what, the
choice to swap, the computer's decisions in the worker, and the negotiation kept in the game record.

``MainWindow`` mixes this in. The rules are ``arena.swap``'s (``due``, ``check_answer``,
``roles_after``...): this module only asks them. The players of the New game dialog are by role
until the opening is settled: the first (Black) is the *proposer*, the second the *chooser*; once a
player has taken Black the record's players are by colour again (the arena does the same), so the
game after the opening is an ordinary game. The negotiation is kept as the arena records it, in the
record's ``match["swap"]`` (``arena.swap.log``); a record opened again reads it back
(``steps_from_log``) and goes on where it stopped.

Stones are placed by clicking or typing as in any game; the choices (swap, stay, two stones) are the
buttons of ``SwapBar`` above the board, or ``swap`` typed in the move entry. Take back removes the
stones of the answer being placed; the answers given stand (a new game negotiates again).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from ..arena import swap as rules
from ..core.errors import GameSuiteError, quote
from ..play.record import Node, PlayerSpec
from .window_parts import WindowParts

#: The keys of the choices: swap, stay (one stone), two stones.
SWAP_KEYS = ("Alt+S", "Alt+T", "Alt+W")


class SwapBar(QFrame):
    """The choices of a swap opening, above the board: swap, stay (one stone), two stones."""

    swapClicked = Signal()
    stayClicked = Signal()
    twoClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.swap_button = QPushButton()
        self.stay_button = QPushButton()
        self.two_button = QPushButton()
        self.swap_button.clicked.connect(self.swapClicked)
        self.stay_button.clicked.connect(self.stayClicked)
        self.two_button.clicked.connect(self.twoClicked)
        box = QHBoxLayout(self)
        box.setContentsMargins(6, 3, 6, 3)
        for b in (self.swap_button, self.stay_button, self.two_button):  # (the banner says what is due)
            box.addWidget(b)
        box.addStretch(1)
        self.setVisible(False)


class SwapMixin(WindowParts):
    """Part of ``MainWindow`` (``gui/mainwindow.py``): the swap opening of the game shown."""

    swap_rule: str = ""  # "" (no swap opening), "swap1" or "swap2"
    swap_steps: list[rules.SwapStep]
    swap_bar: SwapBar
    _swap_two = False  # the chooser said it places two stones (none of them is down yet)
    _swap_black = 0  # the role whose player is the record's players[0] now (1 after a swap)

    def _build_swap_bar(self) -> None:
        self.swap_steps = []
        self.swap_bar = SwapBar()
        self.swap_bar.swapClicked.connect(self.swap_take)
        self.swap_bar.stayClicked.connect(self.swap_stay)
        self.swap_bar.twoClicked.connect(self.swap_two)
        # the same from the keyboard, whatever has the focus (enabled while an opening is negotiated)
        self.swap_actions: list[QAction] = []
        for key, slot, button in ((SWAP_KEYS[0], self.swap_take, self.swap_bar.swap_button),
                                  (SWAP_KEYS[1], self.swap_stay, self.swap_bar.stay_button),
                                  (SWAP_KEYS[2], self.swap_two, self.swap_bar.two_button)):
            a = QAction(self)
            a.setShortcut(QKeySequence(key))
            a.triggered.connect(slot)
            a.setEnabled(False)
            self.addAction(a)
            self.swap_actions.append(a)
            button.setToolTip(key)

    # -- what is due ---------------------------------------------------------------------------
    def swap_pending(self) -> bool:
        """A swap opening is being negotiated (the game proper has not begun)."""
        return bool(self.swap_rule) and not rules.finished(self.swap_steps)

    def _main_end(self) -> Node:
        return self.controller.record.mainline()[-1]

    def swap_due(self) -> rules.Due | None:
        """What the negotiation waits for at the end of the main line (None: no negotiation now)."""
        if not self.swap_pending():
            return None
        try:
            return rules.due(self.swap_rule, self.swap_steps, self._main_end().ply)
        except GameSuiteError:
            return None

    def swap_players(self) -> list[PlayerSpec]:
        """The players by role: the proposer, the chooser."""
        players = list(self.controller.players)
        return players[::-1] if self._swap_black == 1 else players

    def _player_to_act(self) -> PlayerSpec | None:
        """Who acts at the position shown: the role due in a negotiation, else the side to move."""
        d = self.swap_due()
        if d is not None:
            return self.swap_players()[d.role]
        return self.controller.player_to_move()

    def opening_plies(self) -> int:
        """How many of the game's first stones the negotiation placed (0 without a settled swap opening)."""
        return rules.stones_after(self.swap_steps) if self.swap_rule and not self.swap_pending() else 0

    def _role_name(self, role: int) -> str:
        return self.tr("the proposer") if role == 0 else self.tr("the chooser")

    def _who(self, role: int) -> str:
        """A player by role in a sentence: "you", "the computer" or the role's name (two humans, two computers)."""
        players = self.swap_players()
        p, other = players[role], players[1 - role]
        if p.is_engine != other.is_engine:
            return self.tr("the computer") if p.is_engine else self.tr("you")
        return self._role_name(role)

    # -- the record ----------------------------------------------------------------------------
    def _swap_from_record(self) -> None:
        """Read the negotiation of the record just shown (``match["swap"]``); a wrong one is reported
        and left out (the stones stay, as an ordinary game)."""
        rec = self.controller.record
        self.swap_rule, self.swap_steps, self._swap_two, self._swap_black = "", [], False, 0
        d = rec.match.get("swap")
        if d is None:
            return
        try:
            moves = self._main_end().moves()
            rule, steps = rules.steps_from_log(d, rec.start_state(), moves)
            rules.check_rule(rec.game, rule)
            if not rules.finished(steps):
                rules.due(rule, steps, len(moves))
        except GameSuiteError as e:
            rec.match.pop("swap", None)
            self.report(self.tr("The game's swap opening is left out: {0}").format(e))
            return
        self.swap_rule, self.swap_steps = rule, steps
        # a settled opening's players are by colour: players[0] is the role that took black
        self._swap_black = rules.roles_after(steps)[0] if rules.finished(steps) else 0
        rec.match["swap"] = self._swap_log()  # (a new game's: with the players' labels from the start)

    def _swap_log(self) -> dict[str, Any]:
        labels = tuple(p.name or p.label() for p in self.swap_players())  # (the arena's: its engines' names)
        return rules.log(self.swap_rule, self.swap_steps, self.controller.record.start_state(),
                         self._main_end().moves(), (labels[0], labels[1]))

    def _swap_changed(self) -> None:
        """The negotiation moved on (or back): the record, the players' colours, the window."""
        rec = self.controller.record
        self._swap_two = False
        if not self.swap_rule:
            return
        rec.match["swap"] = self._swap_log()
        if self.swap_pending():
            rec.match.pop("opening_plies", None)
        else:
            rec.match["opening_plies"] = rules.stones_after(self.swap_steps)
        black = rules.roles_after(self.swap_steps)[0] if not self.swap_pending() else 0
        if black != self._swap_black:  # the chooser took black (or a rewind undid it): players by colour
            self._swap_black = black
            self.controller.set_players(list(reversed(self.controller.players)))  # (emits changed)
        else:
            self._refresh()
            self._sync_clock()
            self._update_engine()
            self._autosave()

    @Slot()
    def _swap_tree_changed(self) -> None:
        """Stones of the opening were deleted (the move list): the answers that placed them are undone."""
        if not self.swap_rule:
            return
        n = self._main_end().ply
        if rules.stones_after(self.swap_steps) <= n:
            return
        while self.swap_steps and rules.stones_after(self.swap_steps) > n:
            self.swap_steps.pop()
        self._swap_changed()

    def new_record_match(self, opening_rule: str) -> dict[str, Any]:
        """The ``match`` of a new game with ``opening_rule`` ("" none)."""
        if not opening_rule:
            return {}
        return {"swap": {"rule": opening_rule, "proposer": "", "steps": []}}

    # -- the user's answers --------------------------------------------------------------------
    def _swap_refuse(self, text: str) -> None:
        self.report(text, "warning")

    def _may_answer(self, what: str) -> rules.Due | None:
        """The negotiation's due answer if the user may give one now, else None (with a message)."""
        if not self.swap_rule:
            self._swap_refuse(self.tr("{0}: this game has no swap opening").format(quote(what)))
            return None
        if not self.ready:
            return None
        d = self.swap_due()
        if d is None:
            self._swap_refuse(self.tr("{0}: the {1} opening is settled").format(quote(what), self.swap_rule))
            return None
        if self.controller.current is not self._main_end():
            self._swap_refuse(self.tr("{0}: the {1} opening is not settled; go to the last stone to go on")
                              .format(quote(what), self.swap_rule))
            return None
        p = self.swap_players()[d.role]
        if self.mode == "play" and p.is_engine:
            self._swap_refuse(self.tr("{0}: the computer answers here (Space makes it answer now)").format(quote(what)))
            return None
        return d

    @Slot()
    def swap_take(self) -> None:
        """The player due swaps: takes Black (refused with the rules' reason where no swap is allowed)."""
        d = self._may_answer(rules.SWAP)
        if d is None:
            return
        try:
            rules.check_answer(self.controller.state, self.swap_rule, rules.SWAP)
        except GameSuiteError as e:
            self._swap_refuse(self.tr("{0} is not allowed now: {1}").format(quote(rules.SWAP), e))
            return
        self.swap_steps.append(rules.SwapStep(d.role, d.at, rules.SWAP))
        self._announce(d.role, rules.SWAP)
        self._swap_changed()

    @Slot()
    def swap_stay(self) -> None:
        """The player due places one stone (the 4th, or the 6th): the next click or typed move."""
        d = self._may_answer(self.tr("stay"))
        if d is None:
            return
        if not d.choosing:
            self._swap_refuse(self.tr("Place the stones of the answer begun first"))
            return
        self._swap_two = False
        self._update_banner()

    @Slot()
    def swap_two(self) -> None:
        """swap2, after three stones: the chooser places two stones and hands the choice back."""
        d = self._may_answer(self.tr("two stones"))
        if d is None:
            return
        if not d.choosing or "2" not in d.allowed:
            self._swap_refuse(self.tr("Two stones are not allowed now: {0} allows {1}").format(
                self.swap_rule, ", ".join(d.allowed)))
            return
        self._swap_two = True
        self._update_banner()

    def _swap_board_move(self, move: int) -> bool:
        """A stone clicked or typed while a swap opening is in the game: True when handled here
        (placed as part of an answer, or refused), False when it is an ordinary move."""
        if not self.swap_rule:
            return False
        c = self.controller
        if not self.swap_pending():
            if c.current.ply < self.opening_plies() and c.current.is_mainline():
                text = self.notation.move(c.state, move) if c.state.is_legal(move) else str(move)
                self._swap_refuse(self.tr("{0}: the first {1} stones were agreed in the {2} opening; "
                                          "variations begin after them").format(
                    quote(text), self.opening_plies(), self.swap_rule))
                return True
            return False
        why = c.refusal(move)
        if why is not None:
            self._swap_refuse(why)
            return True
        text = self.notation.move(c.state, move)
        d = self._may_answer(text)
        if d is None:
            return True
        want = rules.answer_due(self.swap_rule, self.swap_steps, c.current.ply, self._swap_two)
        assert want is not None
        if d.placed + 1 < want:
            c.play(move)  # one stone of the answer; the rest follows
            return True
        answer = c.current.moves()[d.at:] + [move]
        start = c.record.state_at(self._main_end().path()[d.at - 1]) if d.at else c.record.start_state()
        try:
            answer = rules.check_answer(start, self.swap_rule, answer)  # type: ignore[assignment]
        except GameSuiteError as e:
            self._swap_refuse(self.tr("{0} is not allowed: {1}").format(quote(text), e))
            return True
        self.swap_steps.append(rules.SwapStep(d.role, d.at, answer))
        c.play(move)
        self._announce(d.role, answer, start)
        self._swap_changed()
        return True

    def _swap_takeback(self) -> bool:
        """Take back in a swap opening: True when handled here. The stones of the answer being placed
        are taken back one by one; the answers given, and the opening's stones once it is settled, stand."""
        if not self.swap_rule:
            return False
        c = self.controller
        if not self.swap_pending():
            before = c.current
            if not c.takeback():
                return False
            if c.current.ply < self.opening_plies() and before.ply >= self.opening_plies():
                c.go_to(before)
                self._swap_refuse(self.tr("The {0} opening stands: take back reaches back to its last stone, "
                                          "not into it").format(self.swap_rule))
            return True
        d = self.swap_due()
        if d is not None and d.placed > 0 and c.current is self._main_end():
            c.delete_from(c.current)
            self.show_message(self.tr("Took back the last stone of the answer"))
        elif d is not None and d.choosing and self._swap_two:
            self._swap_two = False
            self._update_banner()
        else:
            self._swap_refuse(self.tr("The answers given in the {0} opening stand (a new game negotiates again)")
                              .format(self.swap_rule))
        return True

    # -- the computer's answers ----------------------------------------------------------------
    def swap_seed(self) -> int:
        """The seed of a computer proposer's draw (the controller's generator: tests seed it)."""
        return self.controller.rng.randrange(1 << 31)

    def _on_swap_answer(self, node: Node, answer: object) -> None:
        """The computer's answer came from the worker: checked by the rules, recorded and played."""
        c = self.controller
        d = self.swap_due()
        if d is None or node is not c.current or node is not self._main_end() or d.placed:
            return  # the game moved on meanwhile
        state = c.state.copy()
        try:
            checked = rules.check_answer(state, self.swap_rule, answer)  # type: ignore[arg-type]
        except GameSuiteError as e:
            self.report(self.tr("The computer's answer in the {0} opening is against the rules: {1}").format(
                self.swap_rule, e))
            self.set_mode("analyse")
            return
        self.swap_steps.append(rules.SwapStep(d.role, d.at, checked))
        if isinstance(checked, list):
            c.blockSignals(True)  # the stones of one answer appear at once
            try:
                for m in checked:
                    c.play(m)
            finally:
                c.blockSignals(False)
            c.treeChanged.emit()
            c.changed.emit()
        self._announce(d.role, checked, state)
        self._swap_changed()

    def _announce(self, role: int, answer: str | list[int], state: Any = None) -> None:
        """Say above the board what ``role`` answered and who plays what now."""
        players = self.swap_players()
        me, other = players[role], players[1 - role]
        who = self._who(role)
        Who = who[:1].upper() + who[1:]
        stones = "" if isinstance(answer, str) else " ".join(self.notation.line(state, answer))
        if answer == rules.SWAP:
            if me.is_engine and not other.is_engine:
                text = self.tr("The computer swaps: it takes Black; you play White")
            elif other.is_engine and not me.is_engine:
                text = self.tr("You swap: you take Black; the computer plays White")
            else:
                text = self.tr("{0} swaps: takes Black; {1} plays White").format(Who, self._who(1 - role))
        elif len(answer) == 3:
            text = self.tr("{0} placed the opening: {1}").format(Who, stones)
        elif who == self.tr("you"):  # (a sentence of its own: "you stay", not "you stays")
            text = (self.tr("You placed two stones ({0}); the computer chooses").format(stones) if len(answer) == 2
                    else self.tr("You take White and play {0}").format(stones) if self.swap_steps[-1].stones == 5
                    else self.tr("You stay White and play {0}").format(stones))
        elif len(answer) == 2:
            text = self.tr("{0} placed two stones ({1}) and hands the choice back").format(Who, stones)
        elif self.swap_steps and self.swap_steps[-1].stones == 5:
            text = self.tr("{0} takes White and plays {1}").format(Who, stones)
        else:
            text = self.tr("{0} stays White and plays {1}").format(Who, stones)
        if me.is_engine:
            self.report(text, "info")  # stays above the board until the next message
        else:
            self.message_bar.dismiss("info")  # (the computer's last answer is no news now)
            self.show_message(text, 8000)

    # -- what the window shows -----------------------------------------------------------------
    def swap_banner(self) -> str | None:
        """The banner's text in a negotiation (None: not in one)."""
        d = self.swap_due()
        if d is None:
            return None
        c = self.controller
        rule = self.swap_rule
        p = self.swap_players()[d.role]
        who = self._who(d.role)
        Who = who[:1].upper() + who[1:]
        if c.current is not self._main_end():
            return self.tr("{0} opening: go to the last stone to go on").format(rule)
        cur = self.host.current
        if p.is_engine and self.mode == "play":
            if cur is not None and cur.purpose == "swap":
                return (self.tr("{0}: the computer is proposing the opening…").format(rule) if d.at == 0
                        else self.tr("{0}: the computer is deciding: swap, or stay and play…").format(rule))
            return self.tr("{0}: the computer answers ({1})").format(rule, self._role_name(d.role))
        colour = self.notation.player(c.state.current_player)
        you = who == self.tr("you")
        if d.at == 0:
            if you:
                return self.tr("{0}: you propose: place stone {1} of 3 ({2})").format(rule, d.placed + 1, colour)
            return self.tr("{0}: {1} places the opening: stone {2} of 3 ({3})").format(
                rule, Who, d.placed + 1, colour)
        if d.want == 2 or self._swap_two:
            if you:
                return self.tr("{0}: place two stones: stone {1} of 2 ({2}); then the computer chooses").format(
                    rule, d.placed + 1, colour)
            return self.tr("{0}: {1} places two stones: stone {2} of 2 ({3}); then {4} chooses").format(
                rule, Who, d.placed + 1, colour, self._who(1 - d.role))
        Who = self.tr("your choice") if you else self.tr("{0} chooses").format(who)
        if d.at == 3:
            return (self.tr("{0}: {1}: swap (take Black), stay White and place the 4th stone, "
                            "or place two stones").format(rule, Who) if "2" in d.allowed else
                    self.tr("{0}: {1}: swap (take Black) or stay White and place the 4th stone")
                    .format(rule, Who))
        return self.tr("{0}: {1}: swap (take Black) or take White and place the 6th stone").format(rule, Who)

    def _show_swap_bar(self) -> None:
        """The choice buttons while a human's choice is due at the last stone."""
        bar = self.swap_bar
        d = self.swap_due()
        human = d is not None and not (self.mode == "play" and self.swap_players()[d.role].is_engine)
        show = (d is not None and human and d.choosing and self.ready and not self.setup_active
                and self.controller.current is self._main_end())
        bar.setVisible(bool(show))
        for a in self.swap_actions:
            a.setEnabled(bool(show))
        if not show or d is None:
            return
        other = self._who(1 - d.role)
        bar.swap_button.setText(self.tr("Swap: take Black"))  # (the keys are in the tooltips and the help)
        if d.at == 3:
            bar.stay_button.setText(self.tr("Stay White: place the 4th stone"))
        else:
            bar.stay_button.setText(self.tr("Take White: place the 6th stone"))
        bar.two_button.setText(self.tr("Place two stones (4th and 5th) and let {0} choose").format(other))
        bar.two_button.setVisible("2" in d.allowed)
        bar.two_button.setEnabled(not self._swap_two)
        bar.stay_button.setEnabled(True)

