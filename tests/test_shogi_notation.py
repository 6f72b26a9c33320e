"""Shogi moves in Japanese and western notation, against a table of known moves."""

import pytest

from gamesuite.core.errors import IllegalMoveError, InvalidMoveError
from gamesuite.core.registry import load_game
from gamesuite.games.shogi import notation as N

GAME = load_game("shogi")


def position(pieces: str, side: str = "b", hand: str = "-"):
    """A position from ``"5c:G 4c:G 1a:k 9i:K"``-style text: USI square, colon, SFEN piece (``+R``,
    lowercase for Gote). The kings default to 1a (Gote) and 9i (Sente)."""
    cells: dict[str, str] = {}
    for item in pieces.split():
        sq, piece = item.split(":")
        cells[sq] = piece
    if not any(p.lower() == "k" and p.isupper() for p in cells.values()):
        cells.setdefault("9i", "K")
    if not any(p == "k" for p in cells.values()):
        cells.setdefault("1a", "k")
    rows = []
    for rank in "abcdefghi":
        row, empty = "", 0
        for f in range(9, 0, -1):
            p = cells.get(f"{f}{rank}")
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return GAME.state_from_text(f"{'/'.join(rows)} {side} {hand} 1")


# (position, side to move, hand, USI move, Japanese, western)
KNOWN = [
    # the openings everyone knows, 同 and 成
    ("startpos", "b", "-", "7g7f", "▲７六歩", "P-7f"),
    ("startpos moves 7g7f", "w", "-", "3c3d", "△３四歩", "P-3d"),
    ("startpos moves 7g7f 3c3d", "b", "-", "8h2b+", "▲２二角成", "Bx2b+"),
    ("startpos moves 7g7f 3c3d 8h2b+", "w", "-", "3a2b", "△同銀", "Sx2b"),
    ("startpos moves 7g7f 3c3d 8h2b+ 3a2b", "b", "-", "B*4e", "▲４五角", "B*4e"),
    ("startpos moves 7g7f 3c3d 2g2f", "w", "-", "2b8h+", "△８八角成", "Bx8h+"),
    ("startpos moves 7g7f 3c3d 2g2f 2b8h+", "b", "-", "7i8h", "▲同銀", "Sx8h"),
    ("startpos", "b", "-", "6i7h", "▲７八金", "G-7h"),
    ("startpos", "b", "-", "4i5h", "▲５八金右", "G4i-5h"),
    ("startpos", "b", "-", "6i5h", "▲５八金左", "G6i-5h"),
    ("startpos", "b", "-", "3i3h", "▲３八銀", "S-3h"),
    ("startpos", "b", "-", "5i5h", "▲５八玉", "K-5h"),
    # three golds in a row moving up to 5b: left, straight, right (JSA)
    ("6c:G 5c:G 4c:G", "b", "-", "6c5b", "▲５二金左", "G6c-5b"),
    ("6c:G 5c:G 4c:G", "b", "-", "5c5b", "▲５二金直", "G5c-5b"),
    ("6c:G 5c:G 4c:G", "b", "-", "4c5b", "▲５二金右", "G4c-5b"),
    # the same for Gote, seen from Gote's side of the board
    ("4g:g 5g:g 6g:g", "w", "-", "4g5h", "△５八金左", "G4g-5h"),
    ("4g:g 5g:g 6g:g", "w", "-", "5g5h", "△５八金直", "G5g-5h"),
    ("4g:g 5g:g 6g:g", "w", "-", "6g5h", "△５八金右", "G6g-5h"),
    # motion first: up, sideways, back
    ("6c:G 4b:G", "b", "-", "6c5b", "▲５二金上", "G6c-5b"),
    ("6c:G 4b:G", "b", "-", "4b5b", "▲５二金寄", "G4b-5b"),
    ("5a:G 6c:S", "b", "-", "5a5b", "▲５二金", "G-5b"),  # a gold and a silver: different kinds
    ("4e:S 6g:S", "b", "-", "4e5f", "▲５六銀引", "S4e-5f"),
    ("4e:S 6g:S", "b", "-", "6g5f", "▲５六銀上", "S6g-5f"),
    ("4a:S 6c:S", "b", "-", "4a5b", "▲５二銀引不成", "S4a-5b="),  # in the zone: 不成 after the words
    # motion and place together when neither alone tells
    ("6c:G 6b:G 4b:G", "b", "-", "6b5b", "▲５二金左寄", "G6b-5b"),
    ("6c:G 6b:G 4b:G", "b", "-", "6c5b", "▲５二金上", "G6c-5b"),
    ("6c:G 6b:G 4b:G", "b", "-", "4b5b", "▲５二金右", "G4b-5b"),
    ("6g:S 4g:S 6e:S", "b", "-", "6g5f", "▲５六銀左上", "S6g-5f"),
    ("6g:S 4g:S 6e:S", "b", "-", "4g5f", "▲５六銀右", "S4g-5f"),
    ("6g:S 4g:S 6e:S", "b", "-", "6e5f", "▲５六銀引", "S6e-5f"),
    # 直 for a silver moving straight up
    ("5g:S 6g:S", "b", "-", "5g5f", "▲５六銀直", "S5g-5f"),
    ("5g:S 6g:S", "b", "-", "6g5f", "▲５六銀左", "S6g-5f"),
    # knights: left or right
    ("9e:N 7e:N", "b", "-", "9e8c+", "▲８三桂左成", "N9e-8c+"),
    ("9e:N 7e:N", "b", "-", "7e8c", "▲８三桂右不成", "N7e-8c="),
    # rooks, dragons and horses tell each other apart by place, never 直
    ("2h:R 8h:R", "b", "-", "2h5h", "▲５八飛右", "R2h-5h"),
    ("2h:R 8h:R", "b", "-", "8h5h", "▲５八飛左", "R8h-5h"),
    ("5d:R 5i:R", "b", "-", "5d5f", "▲５六飛引", "R5d-5f"),
    ("5d:R 5i:R", "b", "-", "5i5f", "▲５六飛上", "R5i-5f"),
    ("5b:R 5i:R", "b", "-", "5b5e+", "▲５五飛引成", "R5b-5e+"),  # leaving the zone: it may promote
    ("1c:+R 2b:+R 9a:k", "b", "-", "1c2d", "▲２四龍右", "+R1c-2d"),  # (Wikipedia's example: both move back)
    ("1c:+R 2b:+R 9a:k", "b", "-", "2b2d", "▲２四龍左", "+R2b-2d"),
    ("9a:+B 8a:+B", "b", "-", "9a8b", "▲８二馬左", "+B9a-8b"),
    ("9a:+B 8a:+B", "b", "-", "8a8b", "▲８二馬右", "+B8a-8b"),
    # drops: 打 only when a piece on the board could go there too
    ("4c:G", "b", "G", "G*5b", "▲５二金打", "G*5b"),
    ("4c:G", "b", "G", "4c5b", "▲５二金", "G-5b"),
    ("9a:k", "b", "P", "P*5e", "▲５五歩", "P*5e"),
    # promotion: 成, 不成, and nothing where it is not possible
    ("3d:S", "b", "-", "3d3c+", "▲３三銀成", "S-3c+"),
    ("3d:S", "b", "-", "3d3c", "▲３三銀不成", "S-3c="),
    ("3d:S 3c:p", "b", "-", "3d3c", "▲３三銀不成", "Sx3c="),
    ("2c:+P", "b", "-", "2c2b", "▲２二と", "+P-2b"),
    ("5c:+S 4c:+S", "b", "-", "5c5b", "▲５二成銀直", "+S5c-5b"),
    ("9b:L", "b", "-", "9b9a+", "▲９一香成", "L-9a+"),
]


def _state(pos: str, side: str, hand: str):
    if pos.startswith("startpos"):
        return GAME.state_from_text(pos)
    return position(pos, side, hand)


@pytest.mark.parametrize("pos,side,hand,usi,ja,west", KNOWN, ids=[f"{k[3]}-{k[4]}" for k in KNOWN])
def test_known_moves_in_japanese_and_western(pos, side, hand, usi, ja, west):
    st = _state(pos, side, hand)
    move = st.parse_move(usi)
    assert move in st.legal_moves(), usi
    assert N.japanese(st, move) == ja
    assert N.western(st, move) == west
    # and each reads back as that move
    assert N.parse_japanese(st, ja) == move
    assert N.parse_western(st, west) == move
    assert N.parse_any(st, usi) == move


def test_every_legal_move_reads_back_from_its_own_text():
    """Over a played-out game: each legal move's texts are distinct and parse back to it."""
    import random

    rng = random.Random(7)
    st = GAME.new_state()
    for _ in range(80):
        legal = st.legal_moves()
        if not legal:
            break
        ja = {N.japanese(st, m): m for m in legal}
        west = {N.western(st, m): m for m in legal}
        assert len(ja) == len(legal) and len(west) == len(legal)
        for text, m in ja.items():
            assert N.parse_japanese(st, text) == m
        for text, m in west.items():
            assert N.parse_western(st, text) == m
        st.play(rng.choice(legal))


def test_other_spellings_are_read():
    st = GAME.state_from_text("startpos moves 7g7f 3c3d 8h2b+")
    m = st.parse_move("3a2b")
    for text in ("△同銀", "同銀", "同　銀", "２２銀", "22銀", "2二銀", "▽２二銀"):
        assert N.parse_japanese(st, text) == m, text
    st = _state("6c:G 5c:G 4c:G", "b", "-")
    assert N.parse_japanese(st, "52金直") == st.parse_move("5c5b")
    st = _state("1c:+R 2b:+R 9a:k", "b", "-")
    assert N.parse_japanese(st, "２四竜左") == st.parse_move("2b2d")  # 竜 for 龍
    st = _state("3d:S", "b", "-")
    assert N.parse_japanese(st, "33銀生") == st.parse_move("3d3c")  # 生 for 不成
    assert N.parse_western(st, "s-3c=") == st.parse_move("3d3c")
    assert N.parse_western(st, "S3c+") == st.parse_move("3d3c+")


def test_missing_words_are_ambiguous_and_quoted():
    st = _state("6c:G 5c:G 4c:G", "b", "-")
    with pytest.raises(N.AmbiguousMoveError, match="'５二金' could be ▲５二金左 or ▲５二金直 or ▲５二金右"):
        N.parse_japanese(st, "５二金")
    with pytest.raises(N.AmbiguousMoveError, match="'G-5b'"):
        N.parse_western(st, "G-5b")
    st = _state("3d:S", "b", "-")  # promotion may be chosen: say which
    with pytest.raises(N.AmbiguousMoveError, match="'３三銀' could be ▲３三銀不成 or ▲３三銀成"):
        N.parse_japanese(st, "３三銀")
    with pytest.raises(N.AmbiguousMoveError, match="'S-3c' could be"):
        N.parse_western(st, "S-3c")


def test_bad_texts_are_refused_with_the_input_quoted():
    st = GAME.new_state()
    with pytest.raises(IllegalMoveError, match="'７五歩'"):
        N.parse_japanese(st, "７五歩")
    with pytest.raises(InvalidMoveError, match="'hello'"):
        N.parse_japanese(st, "hello")
    with pytest.raises(InvalidMoveError, match="'hello'"):
        N.parse_any(st, "hello")
    with pytest.raises(IllegalMoveError, match="'7g7e'"):
        N.parse_any(st, "7g7e")
    with pytest.raises(IllegalMoveError):
        N.parse_western(st, "P-7e")


def test_minishogi_squares():
    g = load_game("shogi(variant=mini)")
    st = g.new_state()
    assert N.japanese(st, st.parse_move("1e1d")) == "▲１四飛"  # files 5..1, ranks 一..五
    assert N.japanese(st, st.parse_move("5e4d")) == "▲４四玉"
    assert N.japanese(st, st.parse_move("3e4d")) == "▲４四銀"
    assert N.japanese(st, st.parse_move("2e4c")) == "▲４三角"  # the zone is the last rank only


def test_the_font_covers_every_character_japanese_notation_writes():
    assert {"▲", "△", "同", "打", "成", "不", "右", "左", "直", "上", "引", "寄", "７", "六", "龍"} <= N.JAPANESE_CHARS
