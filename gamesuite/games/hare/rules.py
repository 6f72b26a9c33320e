"""Hare and Hedgehog (Hase und Igel) for 2-6 players: the rules, the notation, the position text.

This module is the plain-Python reference of the rules; the engine's numba
kernels (``kernels.py``) are tested against it. The rules, with our choices
where the rulebooks are silent, are described in ``docs/hare.md``.

Moves are integers: ``piece * 10000 + code`` where ``piece`` is 0 (or 1 for the
second piece of the two-pieces variant) and ``code`` is

- ``0``: stay (eat a lettuce, miss a turn, or "neither" after a take-or-give card),
- ``1..64``: forward that many squares,
- ``100 + k``: back ``k`` squares to the nearest hedgehog (written ``-k``),
- ``1001`` / ``1002``: stay on a carrot square and take / give 10 carrots,
- ``1003``: stuck, back to the start (or to a free hedgehog) with the starting carrots.

At a chance node (a hare card is drawn) the outcomes are card ids (``board.CARD_NAMES``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...core.errors import InvalidGameSpecError, InvalidMoveError, InvalidPositionError, quote
from ...core.registry import Game, Param, register_game
from ...core.state import CHANCE, TERMINAL, State
from . import board as B

PIECE_STRIDE = 10000
STAY = 0
BACK = 100
TAKE10 = 1001
GIVE10 = 1002
RESTART = 1003

# phases
MOVE, DRAW, CHOOSE, OVER = 0, 1, 2, 3

_MASK64 = (1 << 64) - 1


@register_game
class HareGame(Game):
    """Hare and Hedgehog: the 2008 Ravensburger edition by default."""

    name = "hare"
    long_name = "Hare and Hedgehog"
    description = ("A race for 2-6 players along 65 squares paid in carrots (n squares cost n(n+1)/2); "
                   "eat your lettuces, finish with few carrots. Hare squares draw a hare card.")
    chance = True
    zero_sum = False
    params = (
        Param("players", 2, "number of players", min=2, max=6),
        Param("board", "2008", "the track: 2008 edition or the 1978 one", choices=("2008", "1978")),
        Param("hare", "2008", "hare squares: the 2008 deck, the 1979 deck or the 2019 tournament rule "
              "(no cards)", choices=("2008", "1979", "tournament")),
        Param("pieces", 0, "pieces per player: 0 = the edition's (two each for two players, else one); "
              "1 = one piece each; 2 = two pieces each (two players only)", choices=(0, 1, 2)),
    )
    test_specs = (
        "hare(players=4)",
        "hare(players=6)",
        "hare(players=2,pieces=1)",
        "hare(players=3,board=1978,hare=1979)",
        "hare(players=5,hare=tournament)",
    )

    def validate(self) -> None:
        n = self["players"]
        if self["pieces"] == 2 and n != 2:
            raise InvalidGameSpecError(f"pieces=2 is the two-player variant; got players={n}")
        self.n = n
        self.ppp = 2 if n == 2 and self["pieces"] != 1 else 1
        self.npieces = n * self.ppp
        if self.ppp == 2:
            self.start_carrots, self.start_lettuces = 98, 5
        elif n <= 4:
            self.start_carrots, self.start_lettuces = 68, 3
        else:
            self.start_carrots, self.start_lettuces = 98, 3
        self.kinds = B.board_kinds(self["board"])
        self.kind = [int(k) for k in self.kinds]
        self.prev_hedgehog = [int(h) for h in B.previous_hedgehog(self.kinds)]
        self.deck = B.deck_counts(self["hare"]) if self["hare"] != "tournament" else B.deck_counts("")
        self.deck_list = [int(c) for c in self.deck]
        self.tournament = self["hare"] == "tournament"

    @property
    def num_players(self) -> int:
        return self.n

    def new_state(self) -> HareState:
        return HareState(self)

    def state_from_text(self, text: str) -> HareState:
        return _parse_position(self, text)

    def state_from_study(self, line: str) -> tuple[HareState, int]:
        """A position from a study line of the original write-up, and the judged winner (0-based).

        ``45;26;2;f;29;19;0;f;2``: per player square, carrots, lettuces and ``t``/``f``
        (misses its next turn), then the judged winner (1-based); player 1 to move.
        """
        return _parse_study(self, line)


class HareState(State):
    """A Hare and Hedgehog position: plain lists, one entry per piece or per player."""

    game: HareGame  # a state of this game (the State API types it as any Game)

    def __init__(self, game: HareGame) -> None:
        self.game = game
        n, k = game.n, game.npieces
        self.sq = [0] * k  # square of each piece
        self.eat = [0] * k  # 0, 1 must eat next turn (just arrived on lettuce), 2 has eaten
        self.fresh = [0] * k  # arrived on a position square during its owner's last turn (pays next turn)
        self.hmask = [-1] * k  # tournament rule: pieces behind when it landed on a hare square
        self.car = [game.start_carrots] * n
        self.let = [game.start_lettuces] * n
        self.skip = [0] * n  # misses its next turn
        self.place = [0] * n  # 0 while racing, else the final place
        self.turn = 0
        self.phase = MOVE
        self.pp = -1  # piece waiting for its hare card
        self.pc = 0  # what the move onto the hare square cost (free ride)
        self.known: list[int] = []  # cards drawn since the last shuffle, oldest first (the bottom of the deck)
        self._history: list[int] = []
        self._undo: list[tuple] = []
        self.last_card = -1  # the card drawn by the last move (for display)

    # -- snapshots ----------------------------------------------------------
    def _snap(self) -> tuple:
        return (self.sq[:], self.eat[:], self.fresh[:], self.hmask[:], self.car[:], self.let[:], self.skip[:],
                self.place[:], self.turn, self.phase, self.pp, self.pc, self.known[:], self.last_card)

    def _restore(self, t: tuple) -> None:
        (self.sq, self.eat, self.fresh, self.hmask, self.car, self.let, self.skip, self.place, self.turn,
         self.phase, self.pp, self.pc, self.known, self.last_card) = (
            t[0][:], t[1][:], t[2][:], t[3][:], t[4][:], t[5][:], t[6][:], t[7][:], t[8], t[9], t[10], t[11],
            t[12][:], t[13])

    # -- helpers ------------------------------------------------------------
    def owner(self, piece: int) -> int:
        return piece // self.game.ppp

    def pieces_of(self, player: int) -> range:
        ppp = self.game.ppp
        return range(player * ppp, player * ppp + ppp)

    def occupied(self, square: int) -> bool:
        """Whether a piece stands on ``square`` (the start and the finish never count)."""
        return 0 < square < B.LAST and square in self.sq

    def race_position(self, piece: int) -> int:
        """1 + pieces strictly ahead on the track + pieces already finished."""
        s = self.sq[piece]
        return 1 + sum(1 for j, t in enumerate(self.sq) if j != piece and (t == B.LAST or t > s))

    def finished_players(self) -> int:
        return sum(1 for p in self.place if p)

    def unknown_cards(self) -> list[int]:
        """How many of each card can still come next (the deck minus the cards drawn since the shuffle)."""
        out = list(self.game.deck_list)
        for c in self.known:
            out[c] -= 1
        return out

    def finish_limit(self, player: int) -> int:
        """Most carrots a piece of ``player`` may keep when entering the finish (-1: no limit)."""
        g = self.game
        if g.ppp == 2:
            return 20 if any(self.sq[j] == B.LAST for j in self.pieces_of(player)) else -1
        return 10 * (self.finished_players() + 1)

    # -- who moves ----------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase == DRAW:
            return CHANCE
        return self.turn

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        n = self.game.n
        if self.phase != OVER:
            return [0.0] * n
        return [1.0 - 2.0 * (pl - 1) / (n - 1) for pl in self.place]

    def result_text(self) -> str:
        if self.phase != OVER:
            return ""
        order = sorted(range(self.game.n), key=lambda p: self.place[p])
        return "finishing order: " + ", ".join(self.game.player_name(p) for p in order)

    # -- moves --------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        if self.phase == OVER or self.phase == DRAW:
            return []
        p = self.turn
        if self.phase == CHOOSE:
            base = PIECE_STRIDE * (self.pp % self.game.ppp)
            return [base + STAY, base + TAKE10] + ([base + GIVE10] if self.car[p] >= 10 else [])
        if self.skip[p]:
            return [STAY]
        g = self.game
        ppp = g.ppp
        eaters = [j for j in self.pieces_of(p) if self.eat[j] == 1 and self.sq[j] < B.LAST]
        if eaters:
            return [PIECE_STRIDE * (j % ppp) + STAY for j in eaters]
        out: list[int] = []
        car = self.car[p]
        kind = g.kind
        limit = self.finish_limit(p)
        for j in self.pieces_of(p):
            s = self.sq[j]
            if s == B.LAST:
                continue
            base = PIECE_STRIDE * (j % ppp)
            k = kind[s]
            if k == B.CARROT:
                out.append(base + TAKE10)
                if car >= 10:
                    out.append(base + GIVE10)
            h = g.prev_hedgehog[s]
            if h >= 0 and not self.occupied(h):
                out.append(base + BACK + (s - h))
            n = 1
            while s + n <= B.LAST and B.cost(n) <= car:
                t = s + n
                if t == B.LAST:
                    if self.let[p] == 0 and (limit < 0 or car - B.cost(n) <= limit):
                        out.append(base + n)
                elif not self.occupied(t) and kind[t] != B.HEDGEHOG and (kind[t] != B.LETTUCE or self.let[p] > 0):
                    out.append(base + n)
                n += 1
        if not out:
            out = [PIECE_STRIDE * (j % ppp) + RESTART for j in self.pieces_of(p) if self.sq[j] < B.LAST]
        out.sort()
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != DRAW:
            return []
        left = self.unknown_cards()
        total = sum(left)
        return [(c, n / total) for c, n in enumerate(left) if n > 0]

    def play(self, move: int) -> None:
        self._undo.append(self._snap())
        self._history.append(move)
        self.last_card = -1
        if self.phase == DRAW:
            self._draw(move)
            return
        p = self.turn
        g = self.game
        j = p * g.ppp + move // PIECE_STRIDE
        code = move % PIECE_STRIDE
        if self.phase == CHOOSE:
            if code == TAKE10:
                self.car[p] += 10
            elif code == GIVE10:
                self.car[p] -= 10
            self._end_turn(False)
            return
        if code == STAY:
            if self.skip[p]:
                self.skip[p] = 0
            else:  # eat a lettuce
                self.eat[j] = 2
                self.let[p] -= 1
                self.car[p] += 10 * self.race_position(j)
            self._end_turn(False)
        elif code <= B.LAST:
            c = B.cost(code)
            self.car[p] -= c
            t = self.sq[j] + code
            self.sq[j] = t
            self.eat[j] = 0
            self.fresh[j] = 1 if B.POS156 <= g.kind[t] <= B.POS4 else 0
            if t == B.LAST:
                self._finish_piece(j)
            elif g.kind[t] == B.LETTUCE:
                self.eat[j] = 1
            elif g.kind[t] == B.HARE:
                if g.tournament:
                    self.hmask[j] = self._behind_mask(j)
                else:
                    left = self.unknown_cards()
                    if sum(left) > 0:
                        self.phase, self.pp, self.pc = DRAW, j, c
                        return
                    # every card is known: the deck is a known queue
                    card = self.known.pop(0)
                    self.known.append(card)
                    self.pp, self.pc = j, c
                    self._card(card)
                    return
            self._end_turn(False)
        elif code < TAKE10:
            k = code - BACK
            self.sq[j] -= k
            self.car[p] += 10 * k
            self.eat[j] = 0
            self._end_turn(False)
        elif code == TAKE10:
            self.car[p] += 10
            self._end_turn(False)
        elif code == GIVE10:
            self.car[p] -= 10
            self._end_turn(False)
        else:  # RESTART
            h = g.prev_hedgehog[self.sq[j]]
            if h >= 0 and not self.occupied(h):
                self.sq[j] = h
            else:
                self.sq[j] = 0
                self.car[p] = g.start_carrots
            self.eat[j] = 0
            self._end_turn(False)

    def _behind_mask(self, piece: int) -> int:
        s, me = self.sq[piece], self.owner(piece)
        m = 0
        for q, t in enumerate(self.sq):
            if self.owner(q) != me and t < s:
                m |= 1 << q
        return m

    def _draw(self, card: int) -> None:
        if card == B.SHUFFLE:
            self.known = []
        else:
            self.known.append(card)
        self.phase = MOVE
        self._card(card)

    def _card_target_ok(self, t: int, player: int) -> bool:
        if t == 0:
            return True
        k = self.game.kind[t]
        return 0 < t < B.LAST and not self.occupied(t) and k != B.HEDGEHOG and (k != B.LETTUCE or self.let[player] > 0)

    def _put(self, piece: int, t: int) -> None:
        self.sq[piece] = t
        self.fresh[piece] = 1 if B.POS156 <= self.game.kind[t] <= B.POS4 else 0
        self.eat[piece] = 1 if self.game.kind[t] == B.LETTUCE else 0

    def _card(self, card: int) -> None:
        """Carry out ``card`` for the pending piece, then end the turn."""
        self.last_card = card
        j = self.pp
        p = self.owner(j)
        s = self.sq[j]
        again = False
        if card == B.GIVE10:
            behind = [q for q, t in enumerate(self.sq) if self.owner(q) != p and t < s]
            if self.car[p] >= 10 * len(behind):
                for q in behind:
                    self.car[p] -= 10
                    self.car[self.owner(q)] += 10
        elif card == B.MISS_OR_AGAIN:
            n_behind = sum(1 for q, t in enumerate(self.sq) if q != j and t < s)
            if n_behind > self.race_position(j) - 1:  # more pieces behind than ahead
                self.skip[p] = 1
            else:
                again = True
        elif card == B.SET65:
            self.car[p] = 65
        elif card == B.LETTUCE10:
            if self.let[p] > 0:
                self.car[p] += 10 * self.let[p]
            else:
                self.skip[p] = 1
        elif card == B.HALVE:
            self.car[p] = (self.car[p] + 1) // 2
        elif card == B.FREE_RIDE:
            self.car[p] += self.pc
        elif card == B.SHUFFLE:
            for q in range(self.game.n):
                if q != p and self.place[q] == 0 and self.car[q] >= 1:
                    self.car[q] -= 1
                    self.car[p] += 1
        elif card == B.TAKE_GIVE:
            self.phase = CHOOSE
            self.pc = 0
            return
        elif card == B.FALL_BACK:
            behind = [t for q, t in enumerate(self.sq) if q != j and t < s]
            if behind:
                for t in range(max(behind) - 1, -1, -1):
                    if self._card_target_ok(t, p):
                        self._put(j, t)
                        break
        elif card == B.MOVE_UP:
            ahead = [t for q, t in enumerate(self.sq) if q != j and s < t < B.LAST]
            if ahead:
                for t in range(min(ahead) + 1, B.LAST):
                    if self._card_target_ok(t, p):
                        self._put(j, t)
                        break
        elif card == B.MISS:
            self.skip[p] = 1
        elif card == B.EAT:
            if self.let[p] > 0:
                self.let[p] -= 1
                self.car[p] += 10 * self.race_position(j)
        elif card == B.AGAIN:
            again = True
        elif card == B.NEXT_CARROT:
            for t in range(s + 1, B.LAST):
                if self.game.kind[t] == B.CARROT and not self.occupied(t):
                    self._put(j, t)
                    break
        elif card == B.PREV_CARROT:
            for t in range(s - 1, 0, -1):
                if self.game.kind[t] == B.CARROT and not self.occupied(t):
                    self._put(j, t)
                    break
        self._end_turn(again)

    def _finish_piece(self, piece: int) -> None:
        p = self.owner(piece)
        if all(self.sq[q] == B.LAST for q in self.pieces_of(p)):
            self.place[p] = self.finished_players() + 1

    def _end_turn(self, again: bool) -> None:
        g = self.game
        self.phase = MOVE
        self.pp, self.pc = -1, 0
        racing = [q for q in range(g.n) if self.place[q] == 0]
        if len(racing) <= 1:
            for q in racing:
                self.place[q] = g.n
            self.phase = OVER
            self.turn = 0
            return
        p = self.turn
        if not (again and self.place[p] == 0):
            p = (p + 1) % g.n
            while self.place[p]:
                p = (p + 1) % g.n
        self.turn = p
        self._begin_turn(p)

    def _begin_turn(self, p: int) -> None:
        """Rules 11 and the tournament rule: what a player receives or pays before moving."""
        g = self.game
        for j in self.pieces_of(p):
            if self.fresh[j]:
                self.fresh[j] = 0
                self.car[p] += B.position_bonus(g.kind[self.sq[j]], self.race_position(j))
            if self.hmask[j] >= 0:
                s = self.sq[j]
                passers = sum(1 for q, t in enumerate(self.sq) if (self.hmask[j] >> q) & 1 and t > s)
                if passers == 0:
                    self.car[p] += 10
                else:
                    self.car[p] -= min(self.car[p], 10 * passers)
                self.hmask[j] = -1

    def undo(self) -> None:
        if not self._history:
            raise IndexError("no move to take back")
        self._history.pop()
        self._restore(self._undo.pop())

    def why_illegal(self, move: int) -> str:
        if self.phase == OVER:
            return "the game is over"
        if self.phase == DRAW:
            return "a hare card is to be drawn"
        if self.phase == CHOOSE:
            return "after the take-or-give card: take 10 (1001), give 10 (1002) or neither (0)"
        p = self.turn
        if self.skip[p]:
            return "the player misses this turn (0)"
        code = move % PIECE_STRIDE
        piece = p * self.game.ppp + move // PIECE_STRIDE
        if move // PIECE_STRIDE >= self.game.ppp:
            return "no such piece"
        if any(self.eat[q] == 1 for q in self.pieces_of(p)):
            return "a lettuce must be eaten (0)"
        s = self.sq[piece]
        if s == B.LAST:
            return "that piece has finished"
        if 1 <= code <= B.LAST:
            t = s + code
            if t > B.LAST:
                return "past the finish"
            if B.cost(code) > self.car[p]:
                return f"{code} squares cost {B.cost(code)} carrots; the player has {self.car[p]}"
            if t == B.LAST:
                if self.let[p]:
                    return "lettuces must all be eaten before finishing"
                return f"too many carrots left to finish (at most {self.finish_limit(p)})"
            k = self.game.kind[t]
            if k == B.HEDGEHOG:
                return "forward moves may not end on a hedgehog square"
            if k == B.LETTUCE and not self.let[p]:
                return "no lettuce left for a lettuce square"
            if self.occupied(t):
                return "the square is taken"
        if BACK < code < TAKE10:
            return "back moves go only to the nearest hedgehog square behind, when it is free"
        if code in (TAKE10, GIVE10):
            return "staying with 1001/1002 needs a carrot square (and 10 carrots to give)"
        if code == STAY:
            return "staying needs a lettuce to eat or a missed turn"
        return ""

    # -- identity -----------------------------------------------------------
    def _tuple(self) -> tuple:
        return (tuple(self.sq), tuple(self.eat), tuple(self.fresh), tuple(self.hmask), tuple(self.car),
                tuple(self.let), tuple(self.skip), tuple(self.place), self.turn, self.phase, self.pp, self.pc,
                tuple(self.known))

    @property
    def key(self) -> int:
        return hash(self._tuple()) & _MASK64

    @property
    def history(self) -> list[int]:
        return list(self._history)

    def last_card_drawn(self) -> tuple[int, bool]:
        """The most recent hare card drawn in this game (-1: none yet) and whether the last move drew it."""
        if self.last_card >= 0:
            return self.last_card, True
        # one snapshot per move played: a move played in the DRAW phase was a card
        for move, snap in zip(reversed(self._history), reversed(self._undo)):
            if snap[9] == DRAW:
                return move, False
        return -1, False

    def copy(self) -> HareState:
        s = HareState.__new__(HareState)
        s.game = self.game
        s._restore(self._snap())
        s._history = list(self._history)
        s._undo = list(self._undo)
        return s

    # -- notation -----------------------------------------------------------
    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if self.phase == DRAW or t.startswith("card:"):
            name = t[5:] if t.startswith("card:") else t
            if name in B.CARD_NAMES:
                return B.CARD_NAMES.index(name)
            raise InvalidMoveError(f"move {quote(text)} is not a hare card like card:halve "
                                   f"(one of {', '.join(B.CARD_NAMES)})")
        m = re.fullmatch(r"(?:([ab]):?)?(-?[0-9]{1,4}|r|restart)", t)
        if not m:
            raise InvalidMoveError(f"move {quote(text)} is not a move code like 0, 5, -3, 1001, 1002 "
                                   f"or 1003 (optionally after a piece letter a/b)")
        piece = 0 if m.group(1) in (None, "a") else 1
        if piece >= self.game.ppp:
            raise InvalidMoveError(f"move {quote(text)} names piece b, but each player has one piece")
        body = m.group(2)
        if body in ("r", "restart"):
            code = RESTART
        else:
            v = int(body)
            if body.startswith("-"):
                if not 1 <= -v <= 63:
                    raise InvalidMoveError(f"move {quote(text)}: back moves are -1 to -63")
                code = BACK - v
            elif v <= B.LAST or v in (TAKE10, GIVE10, RESTART):
                code = v
            else:
                raise InvalidMoveError(f"move {quote(text)}: codes are 0, 1..64, -k, 1001, 1002, 1003")
        return piece * PIECE_STRIDE + code

    def format_move(self, move: int) -> str:
        if self.phase == DRAW:
            if 0 <= move < B.N_CARDS:
                return "card:" + B.CARD_NAMES[move]
            raise InvalidMoveError(f"{move} is not a hare card")
        piece, code = divmod(move, PIECE_STRIDE)
        if move < 0 or piece >= self.game.ppp or not (code <= B.LAST or BACK < code < BACK + 64
                                                     or code in (TAKE10, GIVE10, RESTART)):
            raise InvalidMoveError(f"{move} is not a Hare and Hedgehog move")
        body = f"-{code - BACK}" if BACK < code < TAKE10 else str(code)
        return ("ab"[piece] if self.game.ppp == 2 else "") + body

    def describe_move(self, move: int) -> str:
        """A sentence for a move or a card in this position."""
        if self.phase == DRAW:
            return B.CARD_TEXT[move]
        code = move % PIECE_STRIDE
        if self.phase == CHOOSE:
            return {STAY: "neither", TAKE10: "take 10 carrots", GIVE10: "give 10 carrots"}[code]
        if code == STAY:
            return "miss the turn" if self.skip[self.turn] else "eat a lettuce"
        if code <= B.LAST:
            return f"forward {code} for {B.cost(code)} carrots"
        if code < TAKE10:
            return f"back {code - BACK} to the hedgehog, receiving {10 * (code - BACK)} carrots"
        return {TAKE10: "stay and take 10 carrots", GIVE10: "stay and give 10 carrots",
                RESTART: "stuck: back to the start"}[code]

    def to_text(self) -> str:
        return _format_position(self)

    def diagram(self) -> str:
        """The position for a terminal: each player's pieces, carrots, lettuces and race position."""
        g = self.game
        rows = []
        for p in range(g.n):
            pieces = []
            for j in self.pieces_of(p):
                sq = self.sq[j]
                where = B.KIND_NAMES[g.kind[sq]]
                extra = " (eats next turn)" if self.eat[j] == 1 else ""
                rank = "" if sq == B.LAST else f" in position {self.race_position(j)}"
                pieces.append(f"square {sq} ({where}){extra}{rank}")
            status = f"finished, place {self.place[p]}" if self.place[p] else ("misses a turn" if self.skip[p] else "")
            mark = ">" if self.phase != OVER and p == self.turn else " "
            rows.append(f"{mark} {g.player_name(p)}: {'; '.join(pieces)}; {self.car[p]} carrots, "
                        f"{self.let[p]} lettuces" + (f"; {status}" if status else ""))
        if g.deck_list and sum(g.deck_list):
            rows.append("  hare cards drawn since the shuffle: "
                        + (", ".join(B.CARD_NAMES[c] for c in self.known) or "none"))
        if self.phase == DRAW:
            rows.append("  a hare card is drawn next")
        return "\n".join(rows)

    def canonical_text(self) -> str:
        return self.to_text()


# -- position text ----------------------------------------------------------

def _format_position(s: HareState) -> str:
    g = s.game
    players = []
    for p in range(g.n):
        pieces = []
        for j in s.pieces_of(p):
            t = str(s.sq[j]) + ("", "e", "a")[s.eat[j]] + ("f" if s.fresh[j] else "")
            if s.hmask[j] >= 0:
                t += f"h{s.hmask[j]}"
            pieces.append(t)
        flags = ("s" if s.skip[p] else "") + (f"p{s.place[p]}" if s.place[p] else "")
        players.append(",".join(pieces) + f":{s.car[p]}:{s.let[p]}" + (f":{flags}" if flags else ""))
    turn = "-" if s.phase == OVER else str(s.turn + 1)
    deck = "deck=" + ("".join(B.CARD_LETTERS[c] for c in s.known) or "-")
    out = "/".join(players) + " " + turn + " " + deck
    if s.phase == DRAW:
        out += f" draw={s.pp % g.ppp + 1},{s.pc}"
    elif s.phase == CHOOSE:
        out += f" choose={s.pp % g.ppp + 1}"
    return out


_PIECE = re.compile(r"^([0-9]{1,3})(e|a)?(f)?(?:h([0-9]{1,5}))?$")  # ASCII digits, bounded
_FLAGS = re.compile(r"^(s)?(?:p([0-9]{1,2}))?$")


def _parse_position(g: HareGame, text: str) -> HareState:
    def bad(why: str) -> InvalidPositionError:
        return InvalidPositionError(f"position {quote(text)}: {why} (see docs/hare.md for the format)")

    parts = text.split()
    if len(parts) not in (3, 4):
        raise bad("expected PLAYERS TURN deck=CARDS [draw=P,COST|choose=P]")
    players = parts[0].split("/")
    if len(players) != g.n:
        raise bad(f"{len(players)} players given, the game has {g.n}")
    s = HareState(g)
    for p, ptext in enumerate(players):
        fields = ptext.split(":")
        if len(fields) not in (3, 4):
            raise bad(f"player {p + 1} {quote(ptext)} must be PIECES:CARROTS:LETTUCES[:FLAGS]")
        pieces = fields[0].split(",")
        if len(pieces) != g.ppp:
            raise bad(f"player {p + 1} has {len(pieces)} pieces; this game has {g.ppp} each")
        for k, ptx in enumerate(pieces):
            m = _PIECE.match(ptx)
            if not m:
                raise bad(f"piece {quote(ptx)} must be SQUARE then marks e/a, f, hMASK")
            j = p * g.ppp + k
            sq = int(m.group(1))
            if sq > B.LAST:
                raise bad(f"square {sq} is off the track (0..64)")
            s.sq[j] = sq
            s.eat[j] = {None: 0, "e": 1, "a": 2}[m.group(2)]
            s.fresh[j] = 1 if m.group(3) else 0
            s.hmask[j] = int(m.group(4)) if m.group(4) is not None else -1
            if s.eat[j] and g.kind[sq] != B.LETTUCE:
                raise bad(f"piece {quote(ptx)}: marks e/a need a lettuce square")
            if s.fresh[j] and not B.POS156 <= g.kind[sq] <= B.POS4:
                raise bad(f"piece {quote(ptx)}: mark f needs a position square")
            if s.hmask[j] >= 0 and (not g.tournament or g.kind[sq] != B.HARE or s.hmask[j] >= 1 << g.npieces):
                raise bad(f"piece {quote(ptx)}: mark h needs the tournament rule, a hare square and a valid mask")
        if not all(f.isascii() and f.isdigit() and len(f) <= 6 for f in fields[1:3]):
            raise bad(f"player {p + 1}: carrots and lettuces must be numbers (0..999999), got {quote(ptext)}")
        s.car[p], s.let[p] = int(fields[1]), int(fields[2])
        if s.let[p] > g.start_lettuces:
            raise bad(f"player {p + 1} holds {s.let[p]} lettuces; at most {g.start_lettuces}")
        if len(fields) == 4:
            m = _FLAGS.match(fields[3])
            if not m or not fields[3]:
                raise bad(f"player {p + 1}: flags {quote(fields[3])} must be s and/or pPLACE")
            s.skip[p] = 1 if m.group(1) else 0
            s.place[p] = int(m.group(2)) if m.group(2) else 0
    occupied = [t for t in s.sq if 0 < t < B.LAST]
    if len(set(occupied)) != len(occupied):
        raise bad("two pieces share a square")
    for p in range(g.n):
        done = all(s.sq[j] == B.LAST for j in s.pieces_of(p))
        if done and not s.place[p] or s.place[p] and not done and s.place[p] != g.n:
            raise bad(f"player {p + 1}: a place (p) goes with every piece on 64 (or the last place)")
    places = sorted(q for q in s.place if q)
    racing = [q for q in range(g.n) if s.place[q] == 0]
    all_placed = len(racing) == 0 and sorted(s.place) == list(range(1, g.n + 1))
    if places != list(range(1, len(places) + 1)) and not all_placed:
        raise bad("places must be 1, 2, ... in finishing order")
    known = parts[2]
    if not known.startswith("deck="):
        raise bad("the third field must be deck=CARDS")
    cards = known[5:]
    if cards != "-":
        for ch in cards:
            if ch not in B.CARD_LETTERS:
                raise bad(f"unknown card letter {quote(ch)}")
            s.known.append(B.CARD_LETTERS.index(ch))
    if any(n < 0 for n in s.unknown_cards()) or B.SHUFFLE in s.known:
        raise bad("the cards drawn since the shuffle are not in this game's deck")
    if parts[1] == "-":
        if len(racing) > 0 or len(parts) == 4:
            raise bad("turn '-' means the game is over: every player has a place")
        s.phase = OVER
        return s
    if len(racing) == 0 or not (parts[1].isascii() and parts[1].isdigit() and len(parts[1]) <= 2) \
            or not 1 <= int(parts[1]) <= g.n:
        raise bad(f"turn {quote(parts[1])} must be a racing player's number 1..{g.n} (or - when over)")
    if len(racing) == 1:
        raise bad("a single runner left has the last place: the game is over")
    s.turn = int(parts[1]) - 1
    if s.place[s.turn]:
        raise bad(f"player {s.turn + 1} has finished and cannot be to move")
    if len(parts) == 4:
        m = re.fullmatch(r"draw=([0-9]),([0-9]{1,4})|choose=([0-9])", parts[3])
        if not m:
            raise bad(f"pending {quote(parts[3])} must be draw=PIECE,COST or choose=PIECE")
        k = int(m.group(1) or m.group(3)) - 1
        if not 0 <= k < g.ppp:
            raise bad(f"no piece {k + 1}")
        s.pp = s.turn * g.ppp + k
        if g.kind[s.sq[s.pp]] != B.HARE:
            raise bad("a pending hare card needs the piece on a hare square")
        if m.group(1):
            if g.tournament or sum(s.unknown_cards()) == 0:
                raise bad("nothing to draw from")
            s.phase, s.pc = DRAW, int(m.group(2))
        else:
            if g["hare"] != "1979":
                raise bad("choose= belongs to the 1979 deck's take-or-give card")
            s.phase = CHOOSE
    return s


def _parse_study(g: HareGame, line: str) -> tuple[HareState, int]:
    fields = [f.strip() for f in line.strip().split(";")]
    n = (len(fields) - 1) // 4
    if len(fields) < 9 or (len(fields) - 1) % 4:
        raise InvalidPositionError(f"study {quote(line)} must be SQUARE;CARROTS;LETTUCES;t|f per player "
                                   "and the judged winner")
    if n != g.n or g.ppp != 1:
        raise InvalidPositionError(f"study {quote(line)} has {n} players with one piece each; "
                                   f"load it into hare(players={n},pieces=1), not {g.spec}")
    s = HareState(g)
    try:
        for p in range(n):
            sq, car, let, skip = fields[4 * p: 4 * p + 4]
            s.sq[p], s.car[p], s.let[p] = int(sq), int(car), int(let)
            if skip.lower() not in ("t", "f"):
                raise ValueError(skip)
            s.skip[p] = 1 if skip.lower() == "t" else 0
        winner = int(fields[-1]) - 1
    except ValueError:
        raise InvalidPositionError(f"study {quote(line)}: squares, carrots, lettuces and the winner are numbers; "
                                   "the skip field is t or f") from None
    if not 0 <= winner < n:
        raise InvalidPositionError(f"study {quote(line)}: the winner must be 1..{n}")
    for p in range(n):
        if not 0 <= s.sq[p] < B.LAST or s.car[p] < 0 or not 0 <= s.let[p] <= g.start_lettuces:
            raise InvalidPositionError(f"study {quote(line)}: player {p + 1} is off the track (0..63) or holds "
                                       "an impossible number of carrots or lettuces")
        if g.kind[s.sq[p]] == B.LETTUCE and s.let[p] > 0:
            s.eat[p] = 1  # ours: a piece found on a lettuce square has just arrived and eats next
    occupied = [t for t in s.sq if t > 0]
    if len(set(occupied)) != len(occupied):
        raise InvalidPositionError(f"study {quote(line)}: two pieces share a square")
    return s, winner


def format_study(state: HareState, winner: int) -> str:
    """The study line of a one-piece position (the inverse of ``state_from_study``)."""
    g = state.game
    if g.ppp != 1:
        raise InvalidPositionError("study lines hold one piece per player")
    parts: list[str] = []
    for p in range(g.n):
        parts += [str(state.sq[p]), str(state.car[p]), str(state.let[p]), "t" if state.skip[p] else "f"]
    return ";".join(parts + [str(winner + 1)])


def move_codes(moves: Sequence[int]) -> list[str]:
    """The write-up's codes of one-piece moves (``5``, ``-3``, ``1001``)."""
    return [f"-{m - BACK}" if BACK < m < TAKE10 else str(m) for m in moves]
