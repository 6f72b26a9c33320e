"""Game files keep the players' names, the moves' times and the comments (``core.gameinfo``): KIF, KI2,
CSA and Gomocup ``.psq``, written and read back without the window."""

import pytest

from gamesuite.core.errors import InvalidRecordError
from gamesuite.core.gameinfo import GameInfo
from gamesuite.core.registry import load_game
from gamesuite.games.gomoku.records import load_psq, save_psq
from gamesuite.games.shogi import records as R

SHOGI = load_game("shogi")


def _formats():
    return {entry[0]: entry for entry in R.FILE_FORMATS}


@pytest.mark.parametrize("name", ["KIF", "KI2", "CSA"])
def test_names_times_comments_and_a_loss_on_time_round_trip(name):
    state = SHOGI.state_from_text("startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f")
    info = GameInfo(names=["先手の人", "Gote Player"], times=[1.0, 2.5, 3.0, 64.0, 5.0],
                    comments={0: "before", 2: "two lines\nof comment"}, metadata={"event": "club"}, timeout=1)
    _, _, _, _, load_info, save_info = _formats()[name]
    text = save_info(state, info)
    again, back = load_info(text)
    assert again.history == state.history
    assert back.names == info.names and back.comments == info.comments and back.timeout == 1
    assert back.metadata.get("event") == "club"
    if name == "KI2":
        assert back.times == [None] * 5  # KI2 keeps no times
    elif name == "KIF":
        assert back.times == [1.0, 2.0, 3.0, 64.0, 5.0]  # KIF keeps whole seconds
    else:
        assert back.times == [1.0, 2.5, 3.0, 64.0, 5.0]


def test_ki2_writes_the_words_that_tell_pieces_apart_and_is_read_back():
    state = SHOGI.state_from_text("startpos moves 7g7f 3c3d 6i5h 4a3b 4i4h")
    text = R.write_ki2(R.record_from_state(state))
    assert "▲７六歩    △３四歩    ▲５八金左  △３二金    ▲４八金" in text  # Shift-JIS widths: 12 each
    again = R.read_record(text, fmt="kif")
    assert again.moves == ["7g7f", "3c3d", "6i5h", "4a3b", "4i4h"]


def test_ki2_after_a_capture_writes_dou_with_a_full_width_space():
    state = SHOGI.state_from_text("startpos moves 7g7f 3c3d 8h2b+ 3a2b")
    text = R.write_ki2(R.record_from_state(state))
    assert "△同　銀" in text and "▲２二角成" in text


def test_a_bad_ki2_move_is_refused_with_its_line():
    text = "手合割：平手\n▲７六歩    △５五歩\n"
    with pytest.raises(InvalidRecordError, match="KI2 line 2 .*'△５五歩' is no legal move"):
        R.read_record(text, fmt="kif")
    with pytest.raises(InvalidRecordError, match="Gote"):
        R.read_record("手合割：平手\n▲７六歩    ▲２六歩\n", fmt="kif")


def test_the_window_files_say_they_are_utf8():
    state = SHOGI.state_from_text("startpos moves 7g7f")
    assert _formats()["KIF"][3](state).startswith("#KIF version=2.0 encoding=UTF-8\n")
    assert R.read_record(_formats()["KIF"][3](state)).moves == ["7g7f"]


def test_psq_round_trip_with_times_and_names():
    g = load_game("gomoku(size=15)")
    st = g.new_state()
    for m in ("h8", "i9", "h9", "a1"):
        st.play(st.parse_move(m))
    text = save_psq(st, [1.5, 0.25, None, 12.0], ["black brain", "white brain"])
    lines = text.splitlines()
    assert lines[0] == "Piskvorky 15x15, 11:11, 0"
    assert lines[1:5] == ["8,8,1500", "9,7,250", "8,7,0", "1,15,12000"]  # x from the left, y from the top
    assert lines[5:] == ["black brain", "white brain"]
    back = load_psq(text)
    assert back.state.history == st.history
    assert back.times == [1.5, 0.25, 0.0, 12.0]


def test_psq_of_a_diagram_position_is_refused():
    g = load_game("gomoku(size=15)")
    rows = ["." * 15] * 15
    rows[7] = ".......x......."
    st = g.state_from_text("/".join(rows))  # a set-up position: no move list
    with pytest.raises(InvalidRecordError, match="no move list"):
        save_psq(st)
