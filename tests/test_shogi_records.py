"""Shogi game records: KIF (UTF-8 and Shift-JIS) and CSA read, written and read back."""

import random
import re
from pathlib import Path

import pytest

from gamesuite.core import InvalidRecordError, load_game
from gamesuite.games.shogi.records import (
    KIF_HANDICAPS,
    GameRecord,
    detect_format,
    read_record,
    record_from_state,
    save_record,
    write_csa,
    write_kif,
)
from gamesuite.games.shogi.rules import HANDICAPS, MINI_START, STANDARD_START

SAMPLE_KIF = """#KIF version=2.0 encoding=UTF-8
# ---- sample ----
開始日時：2020/01/01 10:00:00
棋戦：テスト棋戦
手合割：平手
先手：羽生
後手：谷川
手数----指手---------消費時間--
*before the first move
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ２二角成(88) ( 1:03/00:01:04)
*a comment after move 3
   4 同　銀(31)   ( 0:04/00:00:06)
   5 ５五角打     ( 0:05/00:01:09)
   6 投了         ( 0:10/00:00:16)
まで5手で先手の勝ち
"""

SAMPLE_MOVES = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"]

SAMPLE_CSA = """'CSA sample
V2.2
N+Habu
N-Tanigawa
$EVENT:Test
$START_TIME:2020/01/01 10:00:00
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA *
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI *
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU,T1
-3334FU
T2
+8822UM
T63
'*a comment after move 3
-3122GI,T4
+0055KA
T5
%TORYO
"""


def random_game(start: str, plies: int, seed: int, variant: str = "standard"):
    game = load_game(f"shogi(variant={variant},impasse=off)")
    state = game.state_from_text(start)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


def test_sample_kif_utf8():
    rec = read_record(SAMPLE_KIF)
    assert rec.moves == SAMPLE_MOVES and rec.start_sfen == STANDARD_START
    assert rec.metadata["sente"] == "羽生" and rec.metadata["gote"] == "谷川"
    assert rec.metadata["event"] == "テスト棋戦" and rec.metadata["start_time"] == "2020/01/01 10:00:00"
    assert rec.result == "sente" and rec.termination == "resign"
    assert rec.times == [1.0, 2.0, 63.0, 4.0, 5.0]
    assert rec.comments == {0: ["before the first move"], 3: ["a comment after move 3"]}
    assert rec.state().sfen() == "lnsgkg1nl/1r5s1/pppppp1pp/6p2/4B4/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"


@pytest.mark.parametrize("encode", [
    lambda t: t.encode("cp932"),
    lambda t: t.encode("utf-8"),
    lambda t: b"\xef\xbb\xbf" + t.encode("utf-8"),
    lambda t: t.replace("\n", "\r\n").encode("cp932"),
])
def test_sample_kif_encodings(encode, tmp_path):
    text = SAMPLE_KIF.replace("#KIF version=2.0 encoding=UTF-8\n", "")
    data = encode(text)
    assert read_record(data) == read_record(SAMPLE_KIF)
    path = tmp_path / "game.kif"
    path.write_bytes(data)
    with pytest.raises(InvalidRecordError):
        read_record(str(path))  # a str is the record's text, never a file name
    assert read_record(path) == read_record(SAMPLE_KIF)


def test_sample_csa_matches_the_kif():
    rec = read_record(SAMPLE_CSA)
    kif = read_record(SAMPLE_KIF)
    assert rec.moves == kif.moves and rec.start_sfen == kif.start_sfen
    assert rec.times == [1.0, 2.0, 63.0, 4.0, 5.0] and rec.comments == {3: ["a comment after move 3"]}
    assert (rec.result, rec.termination) == ("sente", "resign")
    assert rec.metadata["sente"] == "Habu" and rec.metadata["event"] == "Test" and rec.metadata["csa_version"] == "2.2"
    assert read_record(SAMPLE_CSA.encode("cp932")) == rec


def test_kif_handicap_with_uwate_and_shitate():
    text = """手合割：香落ち
下手：Shitate
上手：Uwate
手数----指手---------消費時間--
   1 ３四歩(33)
   2 ７六歩(77)
   3 ８八角成(22)
   4 同　銀(79)
   5 中断
まで4手で中断
"""
    rec = read_record(text)
    assert rec.start_sfen == HANDICAPS["lance"]
    assert rec.moves == ["3c3d", "7g7f", "2b8h+", "7i8h"]
    assert rec.metadata["sente"] == "Shitate" and rec.metadata["gote"] == "Uwate"
    assert rec.termination == "abort" and rec.result == ""
    assert rec.times == [None] * 4


def test_kif_handicap_first_move_belongs_to_gote():
    text = "手合割：角落ち\n   1 ７六歩(77)\n"
    with pytest.raises(InvalidRecordError, match=r"KIF line 2 '   1 ７六歩\(77\)': .*no piece of the side to move"):
        read_record(text)


def test_kif_board_diagram_start():
    text = """後手の持駒：飛　歩二　
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v桂v香|一
| ・ ・ ・ ・ ・ ・v金v玉 ・|二
| ・ ・ ・ ・ ・ ・v歩v歩v歩|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ 歩 歩 歩|七
| ・ ・ ・ ・ ・ ・ 金 銀 香|八
| ・ ・ ・ ・ ・ ・ ・ 玉 ・|九
+---------------------------+
先手の持駒：角　金二　銀十
後手番
手数----指手---------消費時間--
   1 ５八飛打
   2 ３一角打
"""
    with pytest.raises(InvalidRecordError, match=r"KIF line 3 '\+-+\+': bad start position: .*11 pieces of kind S"):
        read_record(text)  # ten silvers in hand: more than a set holds; the error quotes the diagram's first line
    text = text.replace("銀十", "銀")
    rec = read_record(text)
    assert rec.start_sfen == "7nl/6gk1/6ppp/9/9/9/6PPP/6GSL/7K1 w B2GSr2p 1"
    assert rec.moves == ["R*5h", "B*3a"]
    back = read_record(write_kif(rec))
    assert (back.start_sfen, back.moves, back.metadata["handicap"]) == (rec.start_sfen, rec.moves, "その他")
    assert "手合割：その他" in write_kif(rec) and "後手番" in write_kif(rec)


def test_csa_handicap_pi_and_hands():
    text = "V2.2\nPI82HI22KA\n-\n-5142OU\n+7776FU\n%TORYO\n"
    rec = read_record(text)
    assert rec.start_sfen == HANDICAPS["two"]
    assert rec.moves == ["5a4b", "7g7f"] and rec.result == "sente" and rec.termination == "resign"
    text = ("P1 *  *  *  *  *  *  * -KE-OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  *  *  * \n"
            "P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n"
            "P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  * +OU\n"
            "P+00KI13KI\nP-00AL\n+\n+0012KI\n%TSUMI\n")
    rec = read_record(text)
    assert rec.start_sfen == "7nk/9/8G/9/9/9/9/9/8K b G2r2b2g4s3n4l18p 1"
    assert rec.moves == ["G*1b"] and rec.result == "sente" and rec.termination == "checkmate"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("start", [STANDARD_START, *(KIF_HANDICAPS[k] for k in
                                                     ("香落ち", "飛車落ち", "二枚落ち", "六枚落ち", "右七枚落ち"))])
def test_round_trip_random_games(start, seed, tmp_path):
    state = random_game(start, 40 + 20 * seed, seed)
    rng = random.Random(seed)
    rec = record_from_state(state, {"sente": "先手さん", "gote": "Gote", "event": "round trip"})
    rec.times = [float(rng.randrange(0, 200)) if seed % 2 else None for _ in rec.moves]
    rec.comments = {rng.randrange(len(rec.moves) + 1): ["コメント"]}
    if not rec.result:
        loser = ("sente", "gote")[state.color]
        rec.result, rec.termination = rng.choice([("gote" if loser == "sente" else "sente", "resign"),
                                                 ("", "abort"), ("draw", "sennichite"), ("", "")])
    kif, csa = write_kif(rec), write_csa(rec)
    for text, fmt in ((kif, "kif"), (csa, "csa")):
        assert detect_format(text) == fmt
        back = read_record(text)
        assert back.moves == rec.moves and back.start_sfen == start
        assert back.times == rec.times and back.comments == rec.comments
        assert (back.result, back.termination) == (rec.result, rec.termination) or rec.termination == "perpetual-check"
        assert back.metadata["sente"] == "先手さん" and back.metadata["event"] == "round trip"
    for name in ("g.kif", "g.kifu", "g.csa"):
        save_record(rec, tmp_path / name)
        assert read_record(tmp_path / name).moves == rec.moves
    assert (tmp_path / "g.kif").read_bytes().decode("cp932") == kif.replace("\n", "\r\n")


def test_written_kif_quotes_promotion_choices():
    s = load_game("shogi").state_from_text("4k4/9/9/9/9/9/9/9/4K3L b S 1")
    for mt in ("S*3d", "5a4a", "3d2c"):
        s.play_text(mt)
    rec = record_from_state(s)
    text = write_kif(rec)
    assert "２三銀不成(34)" in text and "３四銀打" in text
    rec2 = read_record(text.replace("２三銀不成(34)", "２三銀成(34)"))
    assert rec2.moves[-1] == "3d2c+"


@pytest.mark.parametrize("seed", range(4))
def test_minishogi_csa_round_trip_and_no_kif(seed):
    state = random_game(MINI_START, 60, seed, "mini")
    rec = record_from_state(state, result="", termination="")
    text = write_csa(rec)
    assert "P5+OU+KI+GI+KA+HI" in text
    back = read_record(text)
    assert back.variant == "mini" and back.moves == rec.moves and back.start_sfen == MINI_START
    with pytest.raises(InvalidRecordError, match="minishogi"):
        write_kif(rec)


KIF_HEAD = "手合割：平手\n手数----指手---------消費時間--\n"


@pytest.mark.parametrize("body, line, reason", [
    ("   1 ７六歩(77)\n   2 ７六歩(77)\n", 4, "names 歩 on 77 but the square holds nothing"),
    ("   1 ７五歩(77)\n", 3, "illegal move 7g7e"),
    ("   1 ７六歩(77)\n   3 ３四歩(33)\n", 4, "expected move number 2"),
    ("   1 ７六金(77)\n", 3, "names 金 on 77 but the square holds 歩"),
    ("   1 ５五角打\n", 3, "no B in hand"),
    ("   1 同　歩(77)\n", 3, "without a previous move"),
    ("   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n", 5, "after the game ended"),
    ("   1 ７六歩(77)\n   2 ３四歩(33)\nまで3手で先手の勝ち\n", 5, "says 3 moves but the record has 2"),
    ("   1 ７X歩(77)\n", 3, "is not a KIF move"),
    ("   1 ７六歩(77)\nなにか\n", 4, "not a KIF header, move"),
    ("   1 ２二角成(88)\n", 3, "illegal move 8h2b\\+"),
    ("   1 ７六と(77)\n", 3, "holds 歩"),
])
def test_malformed_kif(body, line, reason):
    text = KIF_HEAD + body
    bad = text.splitlines()[line - 1]
    with pytest.raises(InvalidRecordError) as e:
        read_record(text)
    msg = str(e.value)
    assert msg.startswith(f"KIF line {line} {bad!r}: ") and pytest.importorskip("re").search(reason, msg), msg


def test_malformed_kif_headers():
    with pytest.raises(InvalidRecordError, match=r"KIF line 1 '手合割：九枚落ち': unknown handicap"):
        read_record("手合割：九枚落ち\n   1 ７六歩(77)\n")
    with pytest.raises(InvalidRecordError, match="neither UTF-8 nor Shift-JIS"):
        read_record(b"\x81\x00\xff\xfe\x80")
    with pytest.raises(InvalidRecordError, match="empty"):
        read_record("\n\n")


@pytest.mark.parametrize("text, line, reason", [
    ("PI\n+\n+7776FU\n+3334FU\n", 4, "it is Gote \\(-\\) to move"),
    ("PI\n+\n+7775FU\n", 3, "illegal move 7g7e"),
    ("PI\n+\n+7776KI\n", 3, "is FU, which cannot become KI"),
    ("PI\n+\n+5576FU\n", 3, "no piece on 55"),
    ("PI\n+\n+0055KA\n", 3, "no B in hand"),
    ("PI\n+\n+7776FU\n%TORYO\n-3334FU\n", 5, "nothing may follow"),
    ("PI\n+\n+7776FU\n%WHATEVER\n", 4, "unknown special"),
    ("PI\n+\nT10\n", 3, "must follow a move"),
    ("PI\n+7776FU\n", 2, "need a start position and a side"),
    ("PI\n", 1, "no start position with a side"),
    ("PI82HX\n+\n", 1, "bad removed piece"),
    ("PI82KA\n+\n", 1, "no KA on 82"),
    ("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n+\n", 1, "every rank"),
    ("P1-KY-KE-GI-KI-OU-KI-GI-KE-XX\n", 1, "unknown cell"),
    ("PI\n+\n+7776FU,T1x\n", 3, "T<seconds>"),
    ("V2.2\nhello\n", 2, "not a CSA"),
])
def test_malformed_csa(text, line, reason):
    text = "V2.2\n" + text if not text.startswith("V") else text
    line += 0 if text.startswith("V2.2\nhello") else 1
    bad = text.splitlines()[line - 1]
    with pytest.raises(InvalidRecordError) as e:
        read_record(text, fmt="csa")
    msg = str(e.value)
    assert msg.startswith(f"CSA line {line} {bad!r}: ") and pytest.importorskip("re").search(reason, msg), msg


def test_record_object_errors():
    with pytest.raises(InvalidRecordError, match="move 2 '7g7f'"):
        GameRecord(moves=["7g7f", "7g7f"]).state()
    with pytest.raises(InvalidRecordError, match="not 'float'"):
        read_record(3.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidRecordError, match="extension"):
        save_record(GameRecord(), "/tmp/x.txt")


def test_mate_and_repetition_results_come_from_the_rules():
    s = load_game("shogi").state_from_text("7nk/9/8G/9/9/9/9/9/8K b G 1")
    s.play_text("G*1b")
    rec = record_from_state(s)
    assert (rec.result, rec.termination) == ("sente", "checkmate")
    assert "詰み" in write_kif(rec) and "%TSUMI" in write_csa(rec)
    back = read_record(write_kif(rec).replace("   2 詰み\n", ""))
    assert (back.result, back.termination) == ("sente", "checkmate")


def _cshogi_usi(cshogi, moves):
    return [cshogi.move_to_usi(m) for m in moves]


@pytest.mark.parametrize("seed", range(8))
def test_cshogi_reads_what_we_write(seed):
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA  # noqa: F811 - the submodules, once importorskip found the package
    import cshogi.KIF
    start = [STANDARD_START, HANDICAPS["lance"], HANDICAPS["two"], HANDICAPS["six"]][seed % 4]
    state = random_game(start, 80, 100 + seed)
    rec = record_from_state(state, {"sente": "A", "gote": "B"})
    if not rec.result:
        rec.result, rec.termination = ("gote" if state.color == 0 else "sente"), "resign"
    csa = cshogi.CSA.Parser.parse_str(write_csa(rec))[0]
    assert csa.sfen.split()[:3] == start.split()[:3] and _cshogi_usi(cshogi, csa.moves) == rec.moves
    assert csa.names == ["A", "B"]
    winner = {"sente": cshogi.BLACK_WIN, "gote": cshogi.WHITE_WIN, "draw": cshogi.DRAW}[rec.result]
    assert csa.win == winner
    kif_text = write_kif(rec)
    if "不成" in kif_text or any(x in kif_text for x in ("成銀(", "成桂(", "成香(")):
        # cshogi's KIF reader knows neither 不成 nor the two-character promoted names of the KIF spec
        kif_text = kif_text.replace("不成", "").replace("成銀(", "全(").replace("成桂(", "圭(").replace("成香(", "杏(")
        assert read_record(kif_text).moves == rec.moves  # and ours reads those forms too
    kif = cshogi.KIF.Parser.parse_str(kif_text)
    assert _cshogi_usi(cshogi, kif.moves) == rec.moves and kif.sfen.split()[:3] == start.split()[:3]
    assert kif.win == winner and kif.names == ["A", "B"]


def test_handicap_table_agrees_with_cshogi():
    kif = pytest.importorskip("cshogi.KIF")
    for name, sfen in kif.Parser.HANDYCAP_SFENS.items():
        assert KIF_HANDICAPS.get(name) == sfen, name


@pytest.mark.parametrize("seed", range(6))
def test_we_read_what_cshogi_writes(seed, tmp_path):
    cshogi = pytest.importorskip("cshogi")
    import cshogi.CSA  # noqa: F811 - the submodules, once importorskip found the package
    import cshogi.KIF
    # a start position with pieces in hand (written by cshogi as a board diagram / P1..P9 + P+ P-)
    start = random_game(STANDARD_START, 30 + 2 * seed, 200 + seed).sfen() if seed % 3 else STANDARD_START
    handicap = None if seed % 3 else ("香落ち" if seed else None)
    if handicap:
        start = KIF_HANDICAPS[handicap]
    rec = record_from_state(random_game(start, 60, 300 + seed), {"sente": "A", "gote": "B"})
    board = cshogi.Board(start)
    kif = cshogi.KIF.Exporter(str(tmp_path / "c.kif"))
    kif.header(["A", "B"], handicap=handicap if handicap else ("sfen " + start if start != STANDARD_START else None))
    csa = cshogi.CSA.Exporter(str(tmp_path / "c.csa"))
    csa.info(init_board=cshogi.Board(start), names=["A", "B"])
    total = 0
    for i, usi in enumerate(rec.moves):
        m = board.move_from_usi(usi)
        total += i
        kif.move(m, i, total)
        csa.move(m, time=i)
        board.push(m)
    kif.close()
    csa.endgame("%CHUDAN")
    csa.close()
    for name in ("c.kif", "c.csa"):
        back = read_record(tmp_path / name)
        assert back.start_sfen.split()[:3] == start.split()[:3] and back.moves == rec.moves, name
        assert back.metadata["sente"] == "A" and back.metadata["gote"] == "B"
        assert back.times == [float(i) for i in range(len(rec.moves))]
    assert read_record(tmp_path / "c.csa").termination == "abort"


def test_csa_extras_multiple_games_and_missing_files():
    text = ("'CSA encoding=UTF-8\nV3.0\nN+先手\nPI\n+\n+7776FU,T1.5\n%TORYO\nT3\n"
            "$END_TIME:2020/01/01 11:00:00\n/\nPI\n+\n")
    rec = read_record(text.encode("utf-8"))
    assert rec.moves == ["7g7f"] and rec.times == [1.5] and rec.result == "sente"
    assert rec.metadata["end_time"] == "2020/01/01 11:00:00" and rec.metadata["sente"] == "先手"
    with pytest.raises(InvalidRecordError, match="cannot read record file 'missing.kif'"):
        read_record(Path("missing.kif"))
    with pytest.raises(InvalidRecordError, match="KIF line 1 'missing.kif'"):
        read_record("missing.kif")  # a str is the record's text, never a file name
    with pytest.raises(InvalidRecordError, match=r"CSA line 2 '\$EVENT': a '\$' line needs"):
        read_record("V2.2\n$EVENT\nPI\n+\n")


def test_kif_numbers_may_continue_after_a_board_diagram():
    rec = record_from_state(random_game(STANDARD_START, 30, 7), result="", termination="abort")
    start = read_record(write_kif(rec)).state()  # the position after 30 moves
    later = record_from_state(random_game(start.sfen(), 6, 8))
    text = write_kif(later)
    renumbered = re.sub(r"^ *([0-9]+) ", lambda m: f"{int(m.group(1)) + 30:>4} ", text, flags=re.M)
    assert "  31 " in renumbered
    assert read_record(renumbered).moves == later.moves
    with pytest.raises(InvalidRecordError, match="expected move number 32, got 33"):
        read_record(renumbered.replace("  32 ", "  33 ", 1))


def test_file_formats_hook_round_trips_a_game_through_kif_ki2_and_csa():
    import random

    from gamesuite.core import load_game
    from gamesuite.games.shogi.records import FILE_FORMATS

    state = load_game("shogi").new_state()
    rng = random.Random(7)
    for _ in range(30):
        if state.is_terminal():
            break
        state.play(rng.choice(state.legal_moves()))
    for name, _exts, load, save, *_ in FILE_FORMATS:
        again = load(save(state))
        assert again.to_text() == state.to_text(), name
        assert list(again.history) == list(state.history), name
