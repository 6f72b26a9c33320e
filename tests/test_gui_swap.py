"""Swap openings in the window (issue 15): the New game dialog's choice, each flow (human or computer
proposer and chooser, two humans), the colours after, the record round trip, refusals and take back."""

import random

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from gamesuite.core.registry import load_game
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.play.record import GameRecord, PlayerSpec

from .gui_fakes import Factory

GAME = "gomoku(size=9)"
HUMAN = PlayerSpec("human")
COMPUTER = PlayerSpec("engine", "", movetime=40)


def make_window(qtbot, tmp_path, players, rule="swap2", sign=1, game=GAME):
    factory = Factory(step_s=0.005, sign=sign)
    win = MainWindow(data_dir=tmp_path, engine_factory=factory, restore=False, game_spec=game,
                     players=[HUMAN, HUMAN])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=60_000)
    win.controller.rng = random.Random(7)
    assert win.new_game(load_game(game), [PlayerSpec.from_json(p.to_json()) for p in players], rule)
    qtbot.waitUntil(lambda: win.ready and win.engines_ready, timeout=60_000)
    return win


def cell(win, text):
    return win.controller.state.parse_move(text)


def click(qtbot, win, text):
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.point_of(cell(win, text)).toPoint())


def texts(win):
    rec = win.controller.record
    return rec.start_state().format_line(win.controller.current.moves())


def wait_stones(qtbot, win, n):
    qtbot.waitUntil(lambda: len(win.controller.record.mainline()) - 1 >= n and win.host.current is None,
                    timeout=20_000)


# -- the dialog ---------------------------------------------------------------------------------


def test_the_dialog_offers_swap_openings_for_freestyle_and_standard_gomoku_only(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(None, load_game("gomoku(size=15,rule=standard)"), opening="swap2")
    qtbot.addWidget(dlg)
    assert not dlg.opening_box.isHidden() and dlg.opening.isEnabled()
    assert dlg.result_opening() == "swap2"
    assert "the proposer chooses" in dlg.opening_help.text()
    assert [r.label.text() for r in dlg.rows] == ["Black (proposer)", "White (chooser)"]  # who is who, said
    dlg._set_param(load_game("gomoku").params[1], "renju")
    assert not dlg.opening.isEnabled() and dlg.result_opening() == ""
    assert "renju" in dlg.opening_help.text()  # the reason, from arena.swap.check_rule
    assert [r.label.text() for r in dlg.rows] == ["Black", "White"]
    dlg.game_box.setCurrentIndex(dlg.game_box.findData("tictactoe"))
    assert dlg.opening_box.isHidden()


# -- a human proposes, the computer chooses ---------------------------------------------------------


def test_human_proposer_computer_stays_white_and_plays(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, COMPUTER], sign=1)
    assert "stone 1 of 3" in win.banner.text() and "Black" in win.banner.text()
    click(qtbot, win, "e5")
    assert "stone 2 of 3" in win.banner.text() and "White" in win.banner.text()
    click(qtbot, win, "d4")
    assert win.host.current is None  # the computer does not answer the proposer's stones one by one
    click(qtbot, win, "f6")
    wait_stones(qtbot, win, 4)
    assert texts(win)[:3] == ["e5", "d4", "f6"]
    fourth = texts(win)[3]
    assert win.message_bar.text() == f"The computer stays White and plays {fourth}"
    assert [p.kind for p in win.controller.players] == ["human", "engine"]  # the human keeps Black
    assert not win.swap_pending() and win.opening_plies() == 4
    d = win.controller.record.match["swap"]
    assert d["rule"] == "swap2" and [s["answer"] for s in d["steps"]] == ["e5 d4 f6", fourth]
    assert d["black"] == "Human" and win.controller.record.match["opening_plies"] == 4
    assert win.board.interactive  # Black (the human) to move: an ordinary game from here
    click(qtbot, win, "c3")
    wait_stones(qtbot, win, 6)  # and the computer answers as White
    win.close()


def test_human_proposer_computer_swaps_and_the_human_plays_white(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, COMPUTER], sign=-1)
    for t in ("e5", "d4", "f6"):
        click(qtbot, win, t)
    qtbot.waitUntil(lambda: not win.swap_pending(), timeout=20_000)
    assert win.message_bar.text() == "The computer swaps: it takes Black; you play White"
    assert [p.kind for p in win.controller.players] == ["engine", "human"]  # by colour: the computer is Black
    assert win.controller.state.current_player == 1 and win.board.interactive  # the human plays White's 4th
    assert win.controller.record.match["swap"]["steps"][1]["answer"] == "swap"
    click(qtbot, win, "e6")
    wait_stones(qtbot, win, 5)  # the computer (Black) answers
    win.close()


# -- the computer proposes, a human chooses -------------------------------------------------------


def test_computer_proposer_human_swaps(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [COMPUTER, HUMAN], sign=1)
    wait_stones(qtbot, win, 3)
    assert win.message_bar.text().startswith("The computer placed the opening: ")
    assert win.swap_bar.isVisible() and win.swap_bar.two_button.isVisible()
    assert "your choice: swap" in win.banner.text()
    win.swap_bar.swap_button.click()
    assert [p.kind for p in win.controller.players] == ["human", "engine"]  # the human took Black
    wait_stones(qtbot, win, 4)  # the computer, now White, plays the 4th stone
    assert not win.swap_bar.isVisible()
    assert win.controller.record.match["swap"]["black"] == "Human"
    win.close()


def test_computer_proposer_human_stays_white_by_placing_the_fourth_stone(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [COMPUTER, HUMAN], rule="swap1", sign=1)
    wait_stones(qtbot, win, 3)
    assert not win.swap_bar.two_button.isVisible()  # swap1: no two stones
    free = next(t for t in ("a1", "b2", "c3", "i9") if t not in texts(win))
    win.swap_bar.stay_button.click()
    click(qtbot, win, free)
    assert not win.swap_pending() and texts(win)[3] == free
    assert win.statusBar().currentMessage() == f"You stay White and play {free}"
    assert [p.kind for p in win.controller.players] == ["engine", "human"]
    wait_stones(qtbot, win, 5)  # the proposer (Black) plays on
    win.close()


@pytest.mark.parametrize("sign,black", [(1, "human"), (-1, "engine")])
def test_computer_proposer_human_places_two_stones_then_the_computer_chooses(qtbot, tmp_path, sign, black):
    win = make_window(qtbot, tmp_path, [COMPUTER, HUMAN], sign=sign)
    wait_stones(qtbot, win, 3)
    win.swap_bar.two_button.click()
    assert "stone 1 of 2" in win.banner.text()
    free = [t for t in ("a1", "b2", "c3", "i9", "a9") if t not in texts(win)]
    click(qtbot, win, free[0])
    assert win.host.current is None and "stone 2 of 2" in win.banner.text()
    click(qtbot, win, free[1])
    qtbot.waitUntil(lambda: not win.swap_pending(), timeout=20_000)
    steps = win.controller.record.match["swap"]["steps"]
    assert [s["stones"] for s in steps] == [0, 3, 5] and steps[1]["answer"] == f"{free[0]} {free[1]}"
    assert win.controller.players[0].kind == black
    if sign == 1:  # the computer took White and played the 6th stone: the human is Black, to move
        assert win.message_bar.text().startswith("The computer takes White and plays ")
        assert len(texts(win)) == 6 and win.board.interactive
    else:
        assert win.message_bar.text() == "The computer swaps: it takes Black; you play White"
        assert len(texts(win)) == 5 and win.board.interactive  # the human plays White's 6th
    win.close()


# -- two humans, two computers ---------------------------------------------------------------------


def test_two_humans_are_guided_through_swap2(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, PlayerSpec("human", name="Bob")])
    for t in ("e5", "d4", "f6"):
        assert "The proposer places" in win.banner.text()
        click(qtbot, win, t)
    assert "the chooser chooses" in win.banner.text() and win.swap_bar.isVisible()
    win.swap_bar.two_button.click()
    click(qtbot, win, "e6")
    click(qtbot, win, "d5")
    assert "the proposer chooses" in win.banner.text() and not win.swap_bar.two_button.isVisible()
    win.move_entry.moveTyped.emit("swap")  # typed, as the buttons
    assert not win.swap_pending()
    assert [p.name for p in win.controller.players] == ["", "Bob"]  # the proposer took Black again
    assert win.controller.state.current_player == 1  # Bob (White) plays the 6th stone
    win.close()


def test_two_computers_negotiate_by_themselves(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [COMPUTER, COMPUTER], sign=-1)
    qtbot.waitUntil(lambda: not win.swap_pending() and len(texts(win)) >= 5, timeout=30_000)
    assert [s["answer"] for s in win.controller.record.match["swap"]["steps"]][1] == "swap"
    win.close()


# -- refusals and take back ---------------------------------------------------------------------------


def test_refusals_quote_the_move_and_lose_nothing(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, HUMAN], rule="swap1")
    win.move_entry.moveTyped.emit("swap")
    assert win.message_bar.text() == "'swap' is not allowed now: swap1: no swap with 0 stones on the board"
    click(qtbot, win, "e5")
    click(qtbot, win, "e5")
    assert win.message_bar.text().startswith("e5 is not allowed") and texts(win) == ["e5"]
    win.move_entry.moveTyped.emit("e5")
    assert "e5" in win.message_bar.text() and texts(win) == ["e5"]
    win.swap_two()
    assert win.message_bar.text() == "Two stones are not allowed now: swap1 allows 3"
    assert texts(win) == ["e5"] and win.swap_pending()
    win.close()
    plain = make_window(qtbot, tmp_path / "plain", [HUMAN, HUMAN], rule="")
    plain.move_entry.moveTyped.emit("swap")
    assert plain.message_bar.text() == "'swap': this game has no swap opening"
    plain.close()


def test_takeback_in_the_negotiation_removes_the_stones_of_the_answer_begun_only(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, HUMAN])
    click(qtbot, win, "e5")
    click(qtbot, win, "d4")
    win.takeback()
    assert texts(win) == ["e5"] and len(win.controller.record.mainline()) == 2  # gone from the record too
    assert "stone 2 of 3" in win.banner.text()
    click(qtbot, win, "c3")
    click(qtbot, win, "f6")
    win.takeback()  # the proposer's answer was given: it stands
    assert texts(win) == ["e5", "c3", "f6"] and "stand" in win.message_bar.text()
    win.swap_take()
    win.takeback()  # after the opening: no take back into it
    assert texts(win) == ["e5", "c3", "f6"]
    win.controller.back()
    click(qtbot, win, "a1")  # no variation inside the agreed opening
    assert "agreed" in win.message_bar.text() and len(win.controller.record.root.children) == 1
    win.close()


def test_deleting_opening_stones_in_the_move_list_rewinds_the_negotiation(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, PlayerSpec("human", name="Bob")])
    for t in ("e5", "d4", "f6"):
        click(qtbot, win, t)
    win.swap_take()
    assert [p.name for p in win.controller.players] == ["Bob", ""]
    third = win.controller.record.mainline()[3]
    win.controller.delete_from(third)
    assert win.swap_pending() and win.swap_steps == []
    assert [p.name for p in win.controller.players] == ["", "Bob"]  # the roles are back as they were
    assert "stone 3 of 3" in win.banner.text()
    win.close()


# -- the record ------------------------------------------------------------------------------------------


def test_a_saved_game_opens_with_the_same_players_stones_and_negotiation(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, COMPUTER], sign=-1)
    for t in ("e5", "d4", "f6"):
        click(qtbot, win, t)
    qtbot.waitUntil(lambda: not win.swap_pending(), timeout=20_000)
    click(qtbot, win, "e6")
    wait_stones(qtbot, win, 5)
    path = tmp_path / "swap.json"
    assert win.save_to(path)
    moves, players = texts(win), [p.to_json() for p in win.controller.players]
    win.close()
    rec, _ = GameRecord.loads(path.read_text())
    assert rec.match["swap"]["black"] == rec.players[0].label() and rec.match["opening_plies"] == 3
    again = make_window(qtbot, tmp_path / "again", [HUMAN, HUMAN], rule="")
    assert again.load_from(path)
    qtbot.waitUntil(lambda: bool(again.controller.record.root.children), timeout=10_000)
    assert texts(again) == moves and [p.to_json() for p in again.controller.players] == players
    assert again.swap_rule == "swap2" and not again.swap_pending() and again.opening_plies() == 3
    assert [p.kind for p in again.swap_players()] == ["human", "engine"]  # the New game dialog's order
    again.close()


def test_a_game_saved_in_the_negotiation_goes_on_where_it_stopped(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, HUMAN])
    for t in ("e5", "d4", "f6", "e6"):
        if t == "e6":
            win.swap_two()
        click(qtbot, win, t)
    path = tmp_path / "half.json"
    assert win.save_to(path)
    win.close()
    again = make_window(qtbot, tmp_path / "again", [HUMAN, HUMAN], rule="")
    assert again.load_from(path)
    qtbot.waitUntil(lambda: bool(again.controller.record.root.children), timeout=10_000)
    assert again.swap_pending() and "stone 2 of 2" in again.banner.text()
    click(qtbot, again, "d5")
    assert "the proposer chooses" in again.banner.text()
    again.close()


def test_the_swap_texts_are_translated(qtbot, tmp_path):
    from gamesuite.gui import i18n
    from gamesuite.gui.storage import Storage

    Storage(tmp_path).set(i18n.SETTINGS_KEY, "ja")  # (the window installs the language it keeps)
    try:
        win = make_window(qtbot, tmp_path, [HUMAN, HUMAN])
        assert "提案者" in win.banner.text()
        for t in ("e5", "d4", "f6"):
            click(qtbot, win, t)
        assert win.swap_bar.swap_button.text() == "スワップ: 黒を取る" and "選択者" in win.banner.text()
        win.close()
    finally:
        i18n.install("en")


def test_a_relaunch_starts_the_same_kind_of_game(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, COMPUTER], rule="swap1")
    win.close()
    again = MainWindow(data_dir=tmp_path, engine_factory=Factory(step_s=0.005), restore=False)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitUntil(lambda: again.ready, timeout=60_000)
    assert again.controller.game.spec == load_game(GAME).spec and again.swap_rule == "swap1"
    assert again.swap_pending() and "stone 1 of 3" in again.banner.text()
    again.close()


def test_an_arena_record_opens_with_its_negotiation_as_the_arena_wrote_it(qtbot, tmp_path):
    from gamesuite.arena.swap import SWAP, SwapStep, log

    game = load_game(GAME)
    start = game.new_state()
    moves = [start.parse_move(t) for t in ("e5", "d4", "f6", "e6")]
    steps = [SwapStep(0, 0, moves[:3]), SwapStep(1, 3, SWAP)]
    d = log("swap1", steps, start, moves, ("mtdf", "rapfi"))
    # settled: by colour, the chooser (rapfi) took black
    players = [PlayerSpec("engine", "gomoku", name="rapfi"), PlayerSpec("engine", "gomoku", name="mtdf")]
    rec = GameRecord(game, players=players, match={"swap": d, "opening_plies": 3})
    node = rec.root
    for m in moves:
        node = rec.add_move(node, m)
    path = tmp_path / "arena.json"
    path.write_text(rec.dumps(node))
    win = make_window(qtbot, tmp_path / "w", [HUMAN, HUMAN], rule="")
    assert win.load_from(path)
    qtbot.waitUntil(lambda: bool(win.controller.record.root.children), timeout=10_000)
    assert win.swap_rule == "swap1" and win.opening_plies() == 3 and not win.swap_pending()
    assert win.controller.record.match["swap"] == d  # the arena's labels stay
    assert [p.name for p in win.swap_players()] == ["mtdf", "rapfi"]
    win.close()


def test_the_computers_decision_runs_in_the_worker_and_space_makes_it_decide_now(qtbot, tmp_path):
    slow = PlayerSpec("engine", "", movetime=60_000)
    win = make_window(qtbot, tmp_path, [slow, HUMAN])
    qtbot.waitUntil(lambda: win.host.current is not None and win.host.current.purpose == "swap", timeout=10_000)
    assert "proposing the opening" in win.banner.text() and not win.board.interactive
    click(qtbot, win, "e5")  # refused: the computer answers here
    assert "the computer answers here" in win.message_bar.text()
    win.toggle_engine()  # Space
    qtbot.waitUntil(lambda: len(texts(win)) == 3, timeout=5_000)
    engines = win.host.worker._engines.values()
    assert all(e.threads == {"worker"} for e in engines if getattr(e, "threads", None))
    win.close()


def test_the_choices_have_keys(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, [HUMAN, HUMAN])
    for t in ("e5", "d4", "f6"):
        click(qtbot, win, t)
    win.activateWindow()
    qtbot.waitUntil(lambda: win.isActiveWindow(), timeout=2_000)

    def alt(key):
        qtbot.keyClick(QApplication.focusWidget() or win.board, key, Qt.KeyboardModifier.AltModifier)

    alt(Qt.Key.Key_W)  # Place two stones
    assert "stone 1 of 2" in win.banner.text()
    alt(Qt.Key.Key_T)  # Stay White after all
    assert "the chooser chooses" in win.banner.text()
    alt(Qt.Key.Key_S)  # Swap
    assert not win.swap_pending() and win.controller.record.match["swap"]["steps"][1]["answer"] == "swap"
    win.close()


def test_the_clocks_start_once_the_opening_is_settled(qtbot, tmp_path):
    from gamesuite.play.clock import TimeControl

    tc = TimeControl(60_000, increment=1000)
    win = make_window(qtbot, tmp_path, [PlayerSpec("human", clock=tc), PlayerSpec("human", clock=tc)])
    click(qtbot, win, "e5")
    assert win._clock_player() is None  # the negotiation is not timed
    for t in ("d4", "f6"):
        click(qtbot, win, t)
    assert win._clock_player() is None
    win.swap_take()
    assert win._clock_player() == 1  # White (the proposer now) plays the 4th stone on its clock
    win.close()
