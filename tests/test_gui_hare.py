"""The Hare and Hedgehog board in the window, and hare cards drawn by the controller."""

import random

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from gamesuite.core.registry import load_game
from gamesuite.gui.boards import HareBoard, board_class_for
from gamesuite.gui.boards.hare import PLAYER_COLOURS
from gamesuite.gui.controller import GameController
from gamesuite.gui.mainwindow import MainWindow
from gamesuite.play.record import GameRecord, PlayerSpec


def make_window(qtbot, tmp_path, game="hare", players=None):
    g = load_game(game)
    win = MainWindow(data_dir=tmp_path, restore=False, game_spec=game,
                     players=players or [PlayerSpec("human") for _ in range(g.num_players)])
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.ready, timeout=60_000)
    return win


def click_square(qtbot, win, square):
    qtbot.mouseClick(win.board, Qt.MouseButton.LeftButton, pos=win.board.square_center(square).toPoint())


def close_to(c: QColor, hex_colour: str) -> bool:
    want = QColor(hex_colour)
    return abs(c.red() - want.red()) + abs(c.green() - want.green()) + abs(c.blue() - want.blue()) < 40


def card_moves(record: GameRecord) -> list[str]:
    """The hare cards drawn along the main line, as written in the record."""
    out = []
    st = record.start_state()
    for node in record.mainline()[1:]:
        if st.is_chance_node():
            out.append(st.format_move(node.move))
        st.play(node.move)
    return out


def test_hare_games_get_the_hare_board():
    assert board_class_for(load_game("hare")) is HareBoard
    assert board_class_for(load_game("hare(players=5,board=1978,hare=1979)")) is HareBoard


@pytest.mark.parametrize("spec,players", [("hare", 2), ("hare(players=6)", 6)])
def test_the_board_renders_every_player(qtbot, tmp_path, spec, players):
    win = make_window(qtbot, tmp_path, spec)
    b = win.board
    assert isinstance(b, HareBoard)
    lines = b.panel_lines()
    assert len([ln for ln in lines if "carrots" in ln and "lettuces" in ln]) == players
    assert "98 carrots" in lines[0]
    # legal targets of the first move, with the carrot cost n(n+1)/2
    targets = b.targets()
    assert targets[1] == 1 and targets[4] == 10 and 11 not in targets  # 11 is a hedgehog square
    img = b.render_image(620, 640)
    # every player's piece is drawn on the start square in the player's colour
    r = b.square_rect(0, b.rect().toRectF().adjusted(0, 0, 620 - b.width(), 640 - b.height()))
    colours = {img.pixelColor(x, y).name() for x in range(int(r.left()), int(r.right()))
               for y in range(int(r.top()), int(r.bottom()))}
    for pl in range(players):
        assert any(close_to(QColor(c), PLAYER_COLOURS[pl]) for c in colours), pl
    # square kinds have their own colours: a carrot square (2) and a lettuce square (10)
    for sq, fill in ((2, "#f08a24"), (10, "#7cc450")):
        rr = b.square_rect(sq, b.rect().toRectF().adjusted(0, 0, 620 - b.width(), 640 - b.height()))
        assert close_to(img.pixelColor(int(rr.left()) + 4, int(rr.bottom()) - 4), fill)


def test_a_click_on_a_square_moves_the_piece(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, "hare(players=3)")
    click_square(qtbot, win, 2)  # a carrot square: forward 2 costs 3 carrots
    st = win.controller.state
    assert st.sq[0] == 2 and st.car[0] == 65 and st.current_player == 1
    assert win.controller.record.mainline()[1].move == 2
    assert "▶ Blue" in win.board.panel_lines()[1]
    # the piece is drawn on square 2 in player 1's colour
    img = win.board.grab().toImage()
    r = win.board.square_rect(2)
    assert close_to(img.pixelColor(int(r.center().x() - r.width() * 0.25), int(r.center().y())), PLAYER_COLOURS[0])


def test_an_illegal_click_is_refused_with_a_reason(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, "hare(players=3)")
    messages = []
    win.controller.message.connect(messages.append)
    before = win.controller.state.to_text()
    click_square(qtbot, win, 11)  # a hedgehog square, never a forward target
    click_square(qtbot, win, 30)  # 465 carrots: too far
    assert win.controller.state.to_text() == before
    assert len(messages) == 2 and all("not allowed" in m for m in messages), messages
    assert "hedgehog" in messages[0].lower(), messages[0]


def test_two_pieces_a_click_on_the_other_piece_selects_it(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, "hare")  # two players, two pieces each
    click_square(qtbot, win, 2)  # piece a of player 1 to square 2
    click_square(qtbot, win, 4)  # player 2, piece a
    b = win.board
    assert b.selected == 0
    # player 1's piece a is on square 2, piece b on the start: a click on the start selects b
    click_square(qtbot, win, 0)
    assert b.selected == 1 and len(win.controller.record.mainline()) == 3
    click_square(qtbot, win, 1)  # piece b forward 1 (a hare square: a card is drawn)
    st = win.controller.state
    assert st.sq[1] == 1
    assert win.controller.record.mainline()[3].move == 10001  # "b1"


def test_buttons_play_the_moves_that_are_not_a_square(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, "hare(players=3)")
    b = win.board
    assert win.set_position_text("10e:45:3/0:68:3/0:68:3 1 deck=-")  # player 1 must eat
    assert b.button_moves() == [0] and "must eat a lettuce" in b.panel_lines()[0]
    assert win.set_position_text("2:65:3/0:68:3/0:68:3 1 deck=-")  # player 1 on a carrot square
    assert set(b.button_moves()) == {1001, 1002}
    b.repaint()
    qtbot.waitUntil(lambda: b.button_center(1001) is not None)
    qtbot.mouseClick(b, Qt.MouseButton.LeftButton, pos=b.button_center(1001).toPoint())
    assert win.controller.state.car[0] == 75


def test_the_controller_draws_a_hare_card_and_records_it():
    g = load_game("hare(players=3)")
    c = GameController(GameRecord(g, players=[PlayerSpec("human")] * 3))
    c.rng = random.Random(7)
    assert c.play(1)  # square 1 is a hare square
    assert not c.state.is_chance_node() and c.state.current_player >= 0
    cards = card_moves(c.record)
    assert len(cards) == 1 and cards[0].startswith("card:")
    # playing the move again from the start repeats the recorded card: no new variation
    c.to_start()
    assert c.play(1)
    assert len(c.record.root.children) == 1 and len(c.record.root.children[0].children) == 1
    # the draws follow chance_outcomes(): over many draws each card of the deck comes up
    seen = set()
    for seed in range(60):
        c2 = GameController(GameRecord(g))
        c2.rng = random.Random(seed)
        c2.play(1)
        seen.update(card_moves(c2.record))
    assert seen == {"card:" + n for n in ("give10", "missoragain", "set65", "lettuce10", "halve", "freeride",
                                           "show", "shuffle")}


def test_computers_play_through_a_hare_card(qtbot, tmp_path):
    engine = PlayerSpec("engine", "maxn", None, 1)
    win = make_window(qtbot, tmp_path, "hare(players=3)", players=[PlayerSpec("human"), engine, engine])
    win.controller.rng = random.Random(0)  # draws "show": the turn passes on
    click_square(qtbot, win, 1)  # the human lands on a hare square: the controller draws the card
    rec = win.controller.record
    assert card_moves(rec) == ["card:show"]
    assert "must eat" not in win.board.panel_lines()[0]
    assert "Hare card" in win.board.last_card_text()
    # then both computers move (with a card already in the line), and it is the human's turn again
    qtbot.waitUntil(lambda: win.controller.state.current_player == 0 and len(rec.mainline()) >= 4, timeout=60_000)
    assert win.board.targets() or win.board.button_moves()
    assert all(isinstance(line, str) for line in win.board.panel_lines())


def test_the_last_hare_card_stays_shown_after_later_moves(qtbot):
    g = load_game("hare(players=3)")
    b = HareBoard(g)
    qtbot.addWidget(b)
    st = g.state_from_text("1:67:3/0:68:3/0:68:3 1 deck=- draw=1,1")  # player 1 waits for its card
    st.play(st.parse_move("card:shuffle"))  # the shuffle card empties the list of cards drawn
    b.set_state(st)
    assert b.last_card() == (7, True) and "(just drawn): shuffle" in b.last_card_text()
    st.play(2)  # player 2 moves on
    b.set_state(st)
    assert b.last_card() == (7, False) and "Hare card: shuffle" in b.last_card_text()
    b.set_state(g.new_state())
    assert b.last_card() == (-1, False) and "none drawn yet" in b.panel_lines()[3]


def test_new_game_dialog_gives_one_player_row_per_hare_player(qtbot):
    from gamesuite.gui.dialogs import NewGameDialog

    dlg = NewGameDialog(None, load_game("hare"))
    qtbot.addWidget(dlg)
    assert len(dlg.rows) == 2
    dlg.param_widgets["players"].setValue(6)
    assert len(dlg.rows) == 6 and dlg.spec_text().startswith("hare(players=6")
    for i in (0, 2, 5):
        dlg.rows[i].kind.setCurrentIndex(0)  # human
    players = dlg.result_players()
    assert len(players) == 6
    assert [p.is_engine for p in players] == [False, True, False, True, True, False]
    assert dlg.result_game().num_players == 6
    # a dialog opened on a 4-player game keeps the given players
    specs = [PlayerSpec("engine", "maxn", None, 2), PlayerSpec("human"), PlayerSpec("human"),
             PlayerSpec("engine", "maxn", None, 1)]
    dlg2 = NewGameDialog(None, load_game("hare(players=4)"), specs)
    qtbot.addWidget(dlg2)
    got = dlg2.result_players()
    assert [(p.kind, p.depth) for p in got] == [("engine", 2), ("human", None), ("human", None), ("engine", 1)]


@pytest.mark.parametrize("spec", ["hare", "hare(players=6)"])
def test_computers_alone_race_until_a_hare_card(qtbot, tmp_path, spec):
    g = load_game(spec)
    # cards branched on (at depth 1 the two-player default takes every card as the worst for its drawer, as the
    # write-up does, and then never chooses a hare square: docs/hare.md, seventh session)
    engine = PlayerSpec("engine", "maxn,chanceplies=2", None, 1)
    win = make_window(qtbot, tmp_path, spec, players=[engine] * g.num_players)
    win.controller.rng = random.Random(1)
    rec = win.controller.record
    qtbot.waitUntil(lambda: bool(card_moves(rec)) or win.controller.state.is_terminal(), timeout=90_000)
    assert card_moves(rec), "the computers never landed on a hare square"
    st = win.controller.state
    assert not st.is_chance_node()
    # and the race goes on after the card
    n = len(rec.mainline())
    qtbot.waitUntil(lambda: len(rec.mainline()) >= n + 2 or win.controller.state.is_terminal(), timeout=90_000)
    assert "Hare card" in win.board.last_card_text()


def test_a_position_waiting_for_its_hare_card_gets_it_drawn(qtbot, tmp_path):
    win = make_window(qtbot, tmp_path, "hare(players=3)")
    assert win.set_position_text("1:67:3/0:68:3/0:68:3 1 deck=- draw=1,1")
    c = win.controller
    assert not c.state.is_chance_node()
    assert len(card_moves(c.record)) == 1 and c.current is c.record.root.children[0]
    assert "(just drawn)" in win.board.last_card_text()


def test_evaluation_graph_draws_one_curve_per_player(qtbot):
    from gamesuite.core.score import Score
    from gamesuite.gui.evalgraph import EvalGraph
    from gamesuite.gui.themes import PLAYER_LINE_COLOURS

    g = load_game("hare(players=3)")
    rec = GameRecord(g)
    st = g.new_state()
    node = rec.root
    for _ in range(3):
        move = (st.legal_moves() or [c for c, _ in st.chance_outcomes()])[0]
        st.play(move)
        node = rec.add_move(node, move)
    line = rec.mainline()
    line[1].score = Score.vector([-20.0, -40.0, -80.0])
    line[3].score = Score.vector([10.0, 0.0, -5.0])
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(300, 120)
    graph.show_record(rec, line[-1])
    curves = graph.series()
    assert len(curves) == 3 and all(len(c) == len(line) for c in curves)
    assert curves[2][1] == -1.0 and curves[0][1] == pytest.approx(-0.25) and curves[0][3] == pytest.approx(0.125)
    assert curves[1][0] is None and curves[1][2] is None
    image = graph.grab().toImage()
    colours = {image.pixelColor(x, y).name() for x in range(image.width()) for y in range(image.height())}
    assert PLAYER_LINE_COLOURS[0] in colours and PLAYER_LINE_COLOURS[2] in colours


def test_evaluation_graph_keeps_one_curve_for_two_players(qtbot):
    from gamesuite.core.score import Score
    from gamesuite.gui.evalgraph import EvalGraph

    g = load_game("tictactoe")
    rec = GameRecord(g)
    node = rec.add_move(rec.root, 4)
    node.score = Score.eval(400, pov=1)
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.show_record(rec, node)
    curves = graph.series()
    assert len(curves) == 1 and curves[0][0] is None and curves[0][1] < -0.7
