"""Hare and Hedgehog: one test per rule of the spec (design/hare-and-hedgehog-rules.md), with its examples.

Positions are written in the position text of docs/hare.md:
``PIECES:CARROTS:LETTUCES[:FLAGS]`` per player, ``/`` between players, then the
player to move, the cards drawn since the last shuffle and what is pending.
"""

import random

import pytest

from gamesuite.core import CHANCE, TERMINAL, IllegalMoveError, InvalidMoveError, InvalidPositionError, load_game
from gamesuite.core.errors import InvalidGameSpecError
from gamesuite.games.hare import board as B
from gamesuite.games.hare.rules import format_study

G3 = load_game("hare(players=3)")


def pos(text, spec="hare(players=3)"):
    return load_game(spec).state_from_text(text)


def codes(state):
    return [state.format_move(m) for m in state.legal_moves()]


# -- the board -----------------------------------------------------------------

def test_boards_have_65_squares_and_the_2008_counts():
    k = list(B.board_kinds("2008"))
    assert len(k) == 65 and k[0] == B.START and k[64] == B.FINISH
    assert [i for i, v in enumerate(k) if v == B.HEDGEHOG] == [11, 15, 19, 24, 30, 37, 43, 50, 56]
    assert [i for i, v in enumerate(k) if v == B.LETTUCE] == [10, 22, 42, 57]
    counts = {kind: k.count(kind) for kind in set(k)}
    assert counts[B.HARE] == 12 and counts[B.CARROT] == 13 and counts[B.HEDGEHOG] == 9 and counts[B.LETTUCE] == 4
    assert counts[B.POS156] == 5 and counts[B.POS2] == 8 and counts[B.POS3] == 7 and counts[B.POS4] == 5
    assert len(B.board_kinds("1978")) == 65
    assert load_game("hare(board=1978)").kind[8] == B.HEDGEHOG


def test_reach_formula_matches_the_cost():
    for c in range(0, 3000):
        n = B.reach(c)
        assert B.cost(n) <= c < B.cost(n + 1)


# -- setup (rules 1-4) -------------------------------------------------------------

@pytest.mark.parametrize("spec,carrots,lettuces,pieces", [
    ("hare", 98, 5, 2), ("hare(players=2,pieces=1)", 68, 3, 1), ("hare(players=3)", 68, 3, 1),
    ("hare(players=4)", 68, 3, 1), ("hare(players=5)", 98, 3, 1), ("hare(players=6)", 98, 3, 1)])
def test_rule_2_3_setup(spec, carrots, lettuces, pieces):
    g = load_game(spec)
    s = g.new_state()
    assert s.car == [carrots] * g.n and s.let == [lettuces] * g.n
    assert s.sq == [0] * (g.n * pieces) and s.current_player == 0
    assert s.to_text() == "/".join([",".join(["0"] * pieces) + f":{carrots}:{lettuces}"] * g.n) + " 1 deck=-"


def test_pieces_2_needs_two_players():
    with pytest.raises(InvalidGameSpecError, match="two-player"):
        load_game("hare(players=3,pieces=2)")


def test_rule_1_start_and_finish_hold_many_other_squares_one():
    s = pos("0:68:3/0:68:3/1:68:3 1 deck=-")
    assert 1 not in s.legal_moves()  # square 1 is taken
    assert 2 in s.legal_moves()  # several pieces share square 0


def test_rule_4_fixed_turn_order_and_places_until_the_last_runner():
    s = pos("2:30:3/5:30:3/13:30:3 1 deck=-")
    order = []
    for _ in range(6):  # everyone stays on a carrot square
        order.append(s.current_player)
        s.play(1001)
    assert order == [0, 1, 2, 0, 1, 2]


# -- a turn (rules 5-8) ------------------------------------------------------------

def test_rule_5_6_forward_costs_jumps_and_forbidden_targets():
    s = pos("5:50:3/7:68:3/0:68:3 1 deck=-")
    # 6 hare ok, 7 taken, 8 (jumping 7) ok, 10 lettuce ok with lettuces, 11 hedgehog never; 9 squares cost 45
    assert codes(s) == ["1", "3", "4", "5", "7", "8", "9", "1001", "1002"]
    s.play(9)
    assert s.car[0] == 50 - 45 and s.sq[0] == 14
    no_lettuce = pos("5:50:0/7:68:3/0:68:3 1 deck=-")
    assert "5" not in codes(no_lettuce)  # square 10 is a lettuce square


def test_rule_7_back_only_to_the_nearest_free_hedgehog_pays_10_per_square():
    s = pos("21:0:3/0:68:3/0:68:3 1 deck=-")
    assert codes(s) == ["-2", "1001"]  # 19 is the nearest hedgehog; 15 is never offered
    s.play_text("-2")
    assert s.sq[0] == 19 and s.car[0] == 20
    blocked = pos("21:0:3/19:68:3/0:68:3 1 deck=-")
    assert codes(blocked) == ["1001"]
    with pytest.raises(IllegalMoveError, match="nearest hedgehog"):
        blocked.play_text("-6")


def test_rule_8_hare_square_draws_a_card_and_no_staying_there():
    s = pos("0:68:3/0:68:3/0:68:3 1 deck=-")
    s.play(1)
    assert s.current_player == CHANCE and s.legal_moves() == []
    outcomes = dict(s.chance_outcomes())
    assert len(outcomes) == 8 and outcomes[B.SHUFFLE] == pytest.approx(1 / 15)
    assert outcomes[B.HALVE] == pytest.approx(2 / 15)
    assert s.to_text() == "1:67:3/0:68:3/0:68:3 1 deck=- draw=1,1"
    s.play_text("card:halve")
    assert s.car[0] == 34 and s.current_player == 1 and s.to_text().endswith("deck=h")
    s.play(2)
    s.play(3)  # player 3 forward 3 to square 3 (hare)
    assert dict(s.chance_outcomes())[B.HALVE] == pytest.approx(1 / 14)
    s.play(B.SHOW)
    assert 0 not in s.legal_moves() and 1001 not in s.legal_moves()  # player 1 may not stay on square 1


def test_rule_8_the_deck_is_a_counted_queue():
    s = pos("0:68:3/30:68:3/40:68:3 1 deck=gmxlhfsgmxlhfs draw=1,1".replace("0:68", "1:68", 1))
    assert s.chance_outcomes() == [(B.SHUFFLE, 1.0)]  # every other card is at the bottom
    s.play(B.SHUFFLE)
    assert s.known == [] and s.car == [70, 67, 67]  # one carrot from each other player
    with pytest.raises(InvalidPositionError, match="deck"):
        pos("1:68:3/30:68:3/40:68:3 1 deck=ggg")


def test_1979_deck_wraps_as_a_known_queue():
    g = load_game("hare(players=3,hare=1979)")
    s = g.state_from_text("0:68:3/30:68:3/40:68:3 1 deck=fftbbuneacpt")
    s.play(1)  # every card drawn: the next is the oldest, no chance node
    assert s.current_player == 1 and s.known == [B.FREE_RIDE, B.TAKE_GIVE, B.FALL_BACK, B.FALL_BACK, B.MOVE_UP,
                                                  B.MISS, B.EAT, B.AGAIN, B.NEXT_CARROT, B.PREV_CARROT,
                                                  B.TAKE_GIVE, B.FREE_RIDE]
    assert s.car[0] == 68  # the free ride refunded the move


# -- squares (rules 9-11) ----------------------------------------------------------

def test_rule_9_carrot_square_take_or_give_10_turn_after_turn():
    s = pos("2:15:3/30:68:3/40:68:3 1 deck=-")
    assert "1001" in codes(s) and "1002" in codes(s)
    s.play_text("1002")
    assert s.car[0] == 5
    s.play(1), s.play(2)  # the others move (onto 31, a hare square, draws)
    while s.current_player != 0:
        s.play(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_moves()[0])
    assert "1001" in codes(s) and "1002" not in codes(s)  # fewer than 10 carrots to give


def test_rule_10_lettuce_stay_eat_then_leave():
    s = pos("5:50:3/30:68:3/12:68:3 1 deck=-")
    s.play(5)  # onto 10, a lettuce square
    assert s.to_text().startswith("10e:35:3")
    s.play(1)  # player 2 to 31 (hare)
    s.play(B.SHOW)
    s.play(1)  # player 3 to 13
    assert s.legal_moves() == [0]
    s.play(0)  # eat: race position 3 pays 30
    assert s.let[0] == 2 and s.car[0] == 35 + 30 and s.to_text().startswith("10a:65:2")
    while s.current_player != 0:
        s.play(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_moves()[0])
    assert 0 not in s.legal_moves()  # must leave, may not eat twice in a row


@pytest.mark.parametrize("square,others,paid", [
    (8, (20, 2), 20),  # a "2" square in race position 2 pays 20
    (8, (20, 30), 0),  # in position 3 it pays nothing
    (4, (20, 30), 30),  # a "3" square in position 3 pays 30
    (7, (2, 3), 10),  # "1/5/6" in first place pays 10
])
def test_rule_11_position_squares_pay_at_the_start_of_the_next_turn(square, others, paid):
    a, b = others
    s = pos(f"0:68:3/{a}:68:3/{b}:68:3 1 deck=-")
    s.play(square)
    before = s.car[0]
    for _who in (1, 2):  # the others stay or go back, so that the order is unchanged
        legal = s.legal_moves()
        stay = [m for m in legal if m in (1001, 1002)] or [m for m in legal if 100 < m < 1001]
        s.play(stay[0] if stay else legal[0])
    assert s.current_player == 0
    assert s.car[0] - before == paid


def test_rule_11_five_and_six_on_the_1_5_6_square():
    s = pos("60f:50:0/61:9:0/62:9:0/63:9:0/59:9:0/0:98:3 1 deck=-", "hare(players=6)")
    s._begin_turn(0)
    assert s.car[0] == 50 and s.fresh[0] == 0  # race position 4: nothing
    t = pos("60f:50:0/61:9:0/62:9:0/63:9:0/64:9:0:p1/59:98:3 1 deck=-", "hare(players=6)")
    t._begin_turn(0)
    assert t.car[0] == 50 + 50  # three ahead on the track and one finished: position 5
    u = pos("48f:50:0/61:9:0/62:9:0/63:9:0/64:9:0:p1/59:98:3 1 deck=-", "hare(players=6)")
    u._begin_turn(0)
    assert u.car[0] == 50 + 60  # sixth


def test_rule_12_race_position():
    s = pos("64:5:0:p1/20:68:3/10:68:3/0:68:3 2 deck=-", "hare(players=4)")
    assert [s.race_position(j) for j in range(4)] == [1, 2, 3, 4]
    t = pos("0:68:3/0:68:3/0:68:3 1 deck=-")
    assert [t.race_position(j) for j in range(3)] == [1, 1, 1]


# -- finishing and getting stuck (rules 13-15) -------------------------------------

def test_rule_13_finishing_needs_no_lettuce_and_few_carrots():
    assert "4" in codes(pos("60:20:0/30:68:3/40:68:3 1 deck=-"))  # pays 10, keeps 10
    assert "4" not in codes(pos("60:21:0/30:68:3/40:68:3 1 deck=-"))  # would keep 11
    assert "4" not in codes(pos("60:20:1/30:68:3/40:68:3 1 deck=-"))  # a lettuce left
    second = pos("60:30:0/64:5:0:p1/40:68:3 1 deck=-")
    assert "4" in codes(second)  # the second home keeps up to 20
    second.play(4)
    assert second.place == [2, 1, 3] and second.is_terminal()
    assert second.returns() == [0.0, 1.0, -1.0]


def test_rule_13_two_pieces_second_home_keeps_at_most_20():
    g = load_game("hare")
    s = g.state_from_text("60,30:60:0/40,41:68:3 1 deck=-")
    assert "a4" in codes(s)  # the first piece home may keep any number
    s.play_text("a4")
    assert s.place == [0, 0]
    t = g.state_from_text("64,61:25:0:/40,41:68:3 1 deck=-".replace(":/", "/"))
    assert "b3" in codes(t)  # keeps 25 - 6 = 19 <= 20
    t.play_text("b3")
    assert t.place == [1, 2] and t.is_terminal()
    t2 = g.state_from_text("64,61:30:0/40,41:68:3 1 deck=-")
    assert "b3" not in codes(t2)  # 30 - 6 = 24 > 20


def test_rule_14_stuck_returns_to_the_start_with_the_starting_carrots():
    s = pos("12:0:2/11:68:3/0:68:3 1 deck=-")  # no carrots, the hedgehog behind is taken
    assert codes(s) == ["1003"]
    s.play_text("1003")
    assert s.sq[0] == 0 and s.car[0] == 68 and s.let[0] == 2 and s.current_player == 1


def test_rule_15_no_carrot_cap():
    s = pos("59:990:0/30:68:3/40:68:3 1 deck=-")
    s.play(1001)
    assert s.car[0] == 1000


def test_places_are_decided_until_the_last_runner():
    s = pos("60:20:0/61:19:0/0:68:3/0:68:3 1 deck=-", "hare(players=4)")
    s.play(4)  # player 1 home first
    assert s.place == [1, 0, 0, 0] and s.current_player == 1
    s.play(3)  # player 2 home second (19 - 6 = 13 <= 20)
    assert s.place == [1, 2, 0, 0] and s.current_player == 2
    s.play(2)
    assert s.current_player == 3  # finished players are skipped
    s.play(2 + 3)
    assert s.current_player == 2
    assert not s.is_terminal()
    s2 = pos("64:0:0:p1/64:0:0:p2/63:5:0/0:68:3 3 deck=-", "hare(players=4)")
    s2.play(1)
    assert s2.is_terminal() and s2.current_player == TERMINAL and s2.place == [1, 2, 3, 4]
    assert s2.returns() == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])
    assert s2.to_text().endswith(" - deck=-")


# -- the 2008 hare cards -----------------------------------------------------------

def drawn(card, text="6:50:2/20:68:3/2:68:3 1 deck=- draw=1,21", spec="hare(players=3)"):
    s = pos(text, spec)
    s.play(card)
    return s


def test_card_give_10_to_each_player_behind():
    s = drawn(B.GIVE10)
    assert s.car == [40, 68, 78]
    poor = drawn(B.GIVE10, "6:5:2/20:68:3/2:68:3 1 deck=- draw=1,21")
    assert poor.car == [5, 68, 68]  # ours: cannot pay everyone, pays nothing


def test_card_more_behind_than_ahead():
    even = drawn(B.MISS_OR_AGAIN)  # one ahead, one behind: move again
    assert even.current_player == 0 and not even.skip[0]
    lead = drawn(B.MISS_OR_AGAIN, "6:50:2/3:68:3/2:68:3 1 deck=- draw=1,21")
    assert lead.current_player == 1 and lead.skip[0]
    while lead.current_player != 0:
        lead.play(lead.chance_outcomes()[0][0] if lead.is_chance_node() else lead.legal_moves()[0])
    assert lead.legal_moves() == [0]
    lead.play(0)
    assert not lead.skip[0] and lead.sq[0] == 6


def test_cards_set65_lettuce10_halve_freeride_show():
    assert drawn(B.SET65).car[0] == 65
    assert drawn(B.LETTUCE10).car[0] == 70
    none = drawn(B.LETTUCE10, "6:50:0/20:68:3/2:68:3 1 deck=- draw=1,21")
    assert none.car[0] == 50 and none.skip[0] == 1
    assert drawn(B.HALVE, "6:51:2/20:68:3/2:68:3 1 deck=- draw=1,21").car[0] == 26
    assert drawn(B.FREE_RIDE).car[0] == 71
    assert drawn(B.SHOW).car == [50, 68, 68]


def test_card_shuffle():
    s = drawn(B.SHUFFLE, "6:50:2/20:0:3/2:68:3 1 deck=gmx draw=1,21")
    assert s.known == [] and s.car == [51, 0, 67]


# -- the 1979 deck -----------------------------------------------------------------

S79 = "hare(players=3,hare=1979)"


def test_1979_take_give_is_a_choice():
    s = drawn(B.TAKE_GIVE, "6:5:2/20:68:3/2:68:3 1 deck=- draw=1,21", S79)
    assert s.current_player == 0 and codes(s) == ["0", "1001"]
    assert s.to_text().endswith("deck=t choose=1")
    s.play(1001)
    assert s.car[0] == 15 and s.current_player == 1


def test_1979_fall_back_and_move_up():
    s = drawn(B.FALL_BACK, "14:50:2/13:68:3/2:68:3 1 deck=- draw=1,21", S79)
    assert s.sq[0] == 12  # behind the next piece behind (13): 12 is free
    t = drawn(B.FALL_BACK, "14:50:2/12:68:3/2:68:3 1 deck=- draw=1,21", S79)
    assert t.sq[0] == 10 and t.eat[0] == 1  # 11 is a hedgehog; 10 a lettuce square, eaten next turn
    u = drawn(B.MOVE_UP, "6:50:2/9:68:3/2:68:3 1 deck=- draw=1,21", S79)
    assert u.sq[0] == 10
    lead = drawn(B.MOVE_UP, "6:50:2/3:68:3/2:68:3 1 deck=- draw=1,21", S79)
    assert lead.sq[0] == 6


def test_1979_miss_eat_again_and_carrot_squares():
    assert drawn(B.MISS, spec=S79).skip[0] == 1
    eat = drawn(B.EAT, spec=S79)
    assert eat.let[0] == 1 and eat.car[0] == 50 + 20  # race position 2
    again = drawn(B.AGAIN, spec=S79)
    assert again.current_player == 0
    assert drawn(B.NEXT_CARROT, spec=S79).sq[0] == 13
    assert drawn(B.PREV_CARROT, spec=S79).sq[0] == 5


# -- the 2019 tournament rule ----------------------------------------------------

def test_tournament_hare_rule():
    g = load_game("hare(players=3,hare=tournament)")
    s = g.state_from_text("5:50:3/0:68:3/2:68:3 1 deck=-")
    s.play(1)  # onto 6, a hare square: nothing at once
    assert not s.is_chance_node() and s.car[0] == 49 and s.hmask[0] == 0b110
    s.play(2), s.play(1001)
    assert s.car[0] == 59  # nobody passed: +10
    t = g.state_from_text("5:50:3/0:68:3/2:68:3 1 deck=-")
    t.play(1)
    t.play(9)  # player 2 passes to 9
    t.play(1001)
    assert t.car[0] == 49 - 10


# -- notation, text and studies ----------------------------------------------------

def test_move_codes_of_the_write_up():
    s = pos("21:20:3/0:68:3/0:68:3 1 deck=-")
    assert [s.parse_move(t) for t in ("0", "5", "-2", "1001", "1002", "1003", "r")] == [0, 5, 102, 1001, 1002,
                                                                                        1003, 1003]
    assert [s.format_move(m) for m in (0, 5, 102, 1001, 1002)] == ["0", "5", "-2", "1001", "1002"]
    for bad in ("x", "-0", "65", "1004", "b3", ""):
        with pytest.raises(InvalidMoveError) as e:
            s.parse_move(bad)
        assert repr(bad) in str(e.value)
    two = load_game("hare").new_state()
    assert two.parse_move("b5") == 10005 and two.format_move(10005) == "b5" and two.parse_move("5") == 5


def test_study_lines():
    g = load_game("hare(players=2,pieces=1)")
    s, winner = g.state_from_study("45;26;2;f;29;19;0;f;2")
    assert winner == 1 and s.sq == [45, 29] and s.car == [26, 19] and s.let == [2, 0] and s.skip == [0, 0]
    assert s.current_player == 0
    assert format_study(s, winner) == "45;26;2;f;29;19;0;f;2"
    for bad in ("45;26;2;f;29;19;0;f", "45;26;2;x;29;19;0;f;2", "45;26;2;f;45;19;0;f;2", "45;26;2;f;29;19;0;f;3",
                "70;26;2;f;29;19;0;f;1"):
        with pytest.raises(InvalidPositionError) as e:
            g.state_from_study(bad)
        assert repr(bad) in str(e.value)
    with pytest.raises(InvalidPositionError, match="pieces=1"):
        load_game("hare").state_from_study("45;26;2;f;29;19;0;f;2")


@pytest.mark.parametrize("text", [
    "", "0:68:3/0:68:3 1 deck=-", "0:68:3/0:68:3/0:68 1 deck=-", "0:68:3/0:68:3/0:68:3 4 deck=-",
    "5:68:3/5:68:3/0:68:3 1 deck=-", "0:68:3/0:68:3/0:68:3 1 deck=q", "0:68:3/0:68:3/0:68:3 1 cards",
    "70:68:3/0:68:3/0:68:3 1 deck=-", "0:68:9/0:68:3/0:68:3 1 deck=-", "5e:68:3/0:68:3/0:68:3 1 deck=-",
    "0:68:3/0:68:3/0:68:3 1 deck=- draw=1,3", "64:68:3/0:68:3/0:68:3 1 deck=-",
])
def test_bad_positions_quote_the_input(text):
    with pytest.raises(InvalidPositionError) as e:
        G3.state_from_text(text)
    assert repr(text) in str(e.value)


@pytest.mark.parametrize("spec", ["hare", "hare(players=4)", "hare(players=3,hare=1979)"])
def test_text_round_trip_keeps_the_deck(spec):
    g = load_game(spec)
    rng = random.Random(7)
    s = g.new_state()
    seen_cards = False
    for _ in range(300):
        if s.is_terminal():
            break
        again = g.state_from_text(s.to_text())
        assert again.to_text() == s.to_text() and again.key == s.key
        assert again.chance_outcomes() == s.chance_outcomes() and again.legal_moves() == s.legal_moves()
        seen_cards |= bool(s.known)
        if s.is_chance_node():
            o = s.chance_outcomes()
            s.play(rng.choices([m for m, _ in o], [p for _, p in o])[0])
        else:
            s.play(rng.choice(s.legal_moves()))
    assert seen_cards


def test_diagram_shows_every_player():
    d = pos("10e:35:3/31:67:3/13:65:3:s 3 deck=hs").diagram()
    assert "square 10 (lettuce) (eats next turn) in position 3; 35 carrots, 3 lettuces" in d
    assert "> player 3: square 13 (carrot) in position 2; 65 carrots, 3 lettuces; misses a turn" in d
    assert "halve, show" in d


def test_game_records_replay_exactly():
    from gamesuite.core.errors import InvalidRecordError
    from gamesuite.games.hare.record import format_record, parse_record

    for spec in ("hare(players=3)", "hare", "hare(players=3,hare=1979)"):
        g = load_game(spec)
        rng = random.Random(spec)
        s = g.new_state()
        for _ in range(120):
            if s.is_terminal():
                break
            if s.is_chance_node():
                o = s.chance_outcomes()
                s.play(rng.choices([m for m, _ in o], [p for _, p in o])[0])
            else:
                s.play(rng.choice(s.legal_moves()))
        text = format_record(s)
        again = parse_record("# a comment\n" + text)
        assert again.to_text() == s.to_text() and again.history == s.history
        assert format_record(again) == text
    start = "40:20:0/45:15:1/38:30:1 2 deck=gm"
    s = G3.state_from_text(start)
    s.play_text("4")
    assert parse_record(format_record(s, start)).to_text() == s.to_text()
    for bad, fragment in (("moves 1 2", "game"), ("game chess\n", "unknown game"),
                          ("game hare(players=3)\nmoves 1 11", "'11'"), ("game hare\nstart 1:2", "start"),
                          ("game hare\ngame hare", "one each"), ("game tictactoe", "not Hare")):
        with pytest.raises(InvalidRecordError, match=fragment):
            parse_record(bad)


def test_last_card_drawn_follows_play_and_undo():
    g = load_game("hare(players=3)")
    st = g.state_from_text("1:67:3/0:68:3/0:68:3 1 deck=- draw=1,1")  # player 1 waits for its card
    assert st.last_card_drawn() == (-1, False)
    st.play(st.parse_move("card:shuffle"))
    assert st.last_card_drawn() == (7, True)
    st.play(2)
    assert st.last_card_drawn() == (7, False)
    st.undo()
    assert st.last_card_drawn() == (7, True)
    st.undo()
    assert st.last_card_drawn() == (-1, False)


@pytest.mark.parametrize("spec,name", [("hare(players=2,pieces=1)", "2p"), ("hare(players=3)", "3p"),
                                       ("hare(players=4)", "4p")])
def test_shipped_openings_replay_and_differ(spec, name):
    """The match openings in tests/data replay move by move (the arena's reader builds each) and are
    all different: a match from them plays different games even where no card is drawn."""
    from pathlib import Path

    from gamesuite.arena.openings import load_openings

    g = load_game(spec)
    ops = load_openings(Path(__file__).parent / "data" / f"hare_openings_{name}.txt", g)
    assert len(ops) == 150
    assert len({op.text() for op in ops}) == 150
    for op in ops:
        start, moves = op.build(g)
        assert moves and not start.is_terminal()
