"""Shogi (9x9) and minishogi (5x5): the game, its states, SFEN positions and USI moves.

One game ``shogi`` with a ``variant`` parameter (``standard`` or ``mini``): the
two share every rule, the kernels and the notation, and differ only in the
geometry (board size, promotion zone, pieces), so one class keeps them from
drifting apart. Player 0 is Sente (black, ``b`` in SFEN, moves up the board),
player 1 Gote.

Game ends (``is_terminal``):

- the side to move has no legal move (checkmate; also the rare "stalemate"):
  it loses;
- the same position (board, hands, side to move) occurs for the fourth time:
  a draw, unless one side gave check with every one of its moves since the
  first occurrence, which then loses;
- entering-king declaration (standard variant): the side to move declares and
  wins when its king stands in the enemy camp, it is not in check, it has at
  least ten other pieces there, and its points (rook and bishop 5, other
  pieces 1; those in the enemy camp and in hand) reach 28 for Sente and 27
  for Gote (``impasse=27``) or 31 for either (``impasse=24``). A declaration
  is always to the declarer's advantage, so the state makes it automatically.

Resignation is not a move; front ends (USI ``bestmove resign``, the GUI) end
the game outside the state.
"""

from __future__ import annotations

import re

import numpy as np

from ...core.errors import InvalidGameSpecError, InvalidMoveError, InvalidPositionError, quote
from ...core.registry import Game, Param, register_game
from ...core.state import TERMINAL, State
from . import kernels
from .board import (
    BLACK_BIT,
    COLOR_BITS,
    FULL_SET,
    HAND_ORDER,
    IMPASSE_POINTS,
    KING,
    KNIGHT,
    LANCE,
    LETTERS,
    PAWN,
    PROMOTED,
    ROOK,
    Geometry,
    decode_move,
    encode_drop,
    encode_move,
    geometry,
    unpromoted,
)

STANDARD_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MINI_START = "rbsgk/4p/5/P4/KGSBR b - 1"

#: Handicap start positions (Gote, the stronger player, gives the pieces and moves first).
HANDICAPS = {
    "none": STANDARD_START,
    "lance": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "bishop": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "rook": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "rook-lance": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "two": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "four": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "six": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "eight": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ten": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}

_MOVE_RE = re.compile(r"^([1-9])([a-i])([1-9])([a-i])(\+?)$")
_DROP_RE = re.compile(r"^([PLNSGBR])\*([1-9])([a-i])$")


@register_game
class Shogi(Game):
    """Shogi on 9x9 or minishogi on 5x5, every rule included."""

    name = "shogi"
    long_name = "Shogi (9x9) and minishogi (5x5)"
    description = ("Japanese chess: captured pieces change sides and can be dropped back; "
                   "variant=mini is the 5x5 minishogi.")
    params = (
        Param("variant", "standard", "standard (9x9) or mini (5x5)", choices=("standard", "mini")),
        Param("handicap", "none", "handicap start (9x9): " + ", ".join(HANDICAPS), choices=tuple(HANDICAPS)),
        Param("impasse", "27", "entering-king declaration: 27-point rule, 24-point rule or off",
              choices=("27", "24", "off")),
    )
    test_specs = ("shogi(variant=mini)",)

    def validate(self) -> None:
        if self["variant"] == "mini" and self["handicap"] != "none":
            raise InvalidGameSpecError(f"minishogi has no handicaps; got handicap={self['handicap']}")
        self.geometry: Geometry = geometry(self["variant"])
        self.zob_board, self.zob_hand = _zobrist_lists(self.geometry)

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return "Sente" if player == 0 else "Gote"

    @property
    def start_sfen(self) -> str:
        if self["variant"] == "mini":
            return MINI_START
        return HANDICAPS[self["handicap"]]

    def new_state(self) -> ShogiState:
        return self.state_from_text(self.start_sfen)

    def state_from_text(self, text: str) -> ShogiState:
        """A state from SFEN, optionally ``sfen`` / ``startpos`` and ``moves ...`` as in USI ``position``."""
        if not isinstance(text, str):
            raise InvalidPositionError(f"position must be text, got {quote(text)}")
        words = text.split()
        if words and words[0] == "position":
            words = words[1:]
        moves: list[str] = []
        if "moves" in words:
            i = words.index("moves")
            words, moves = words[:i], words[i + 1:]
        if words and words[0] == "startpos":
            if len(words) != 1:
                raise InvalidPositionError(f"unexpected text after startpos in {quote(text)}")
            words = self.start_sfen.split()
        elif words and words[0] == "sfen":
            words = words[1:]
        state = ShogiState(self, _parse_sfen(self.geometry, " ".join(words), text))
        for mt in moves:
            try:
                state.play_text(mt)
            except ValueError as e:
                raise InvalidPositionError(f"in {quote(text)}: {e}") from None
        return state


_ZOBRIST_LISTS: dict[str, tuple[list[list[int]], list[list[list[int]]]]] = {}


def _zobrist_lists(g: Geometry) -> tuple[list[list[int]], list[list[list[int]]]]:
    """The Zobrist tables as Python ints (for the state's incremental key), built once per variant."""
    if g.variant not in _ZOBRIST_LISTS:
        _ZOBRIST_LISTS[g.variant] = ([[int(x) for x in row] for row in g.zob_board],
                                     [[[int(x) for x in k] for k in c] for c in g.zob_hand])
    return _ZOBRIST_LISTS[g.variant]


def _parse_sfen(g: Geometry, sfen: str, original: str) -> tuple:
    """Parse the four SFEN fields; return (board, hands, color, move_number)."""
    fields = sfen.split()
    if len(fields) not in (3, 4):
        raise InvalidPositionError(
            f"SFEN {quote(original)} needs 3 or 4 fields (board, side, hands[, move number]), got {len(fields)}")
    rows = fields[0].split("/")
    if len(rows) != g.ranks:
        raise InvalidPositionError(
            f"SFEN {quote(original)} has {len(rows)} ranks; {g.variant} shogi has {g.ranks}")
    board = g.empty_board.copy()
    kings = np.full(2, -1, dtype=np.int64)
    for r, row in enumerate(rows):
        c = 0
        promote = False
        for ch in row:
            if "0" <= ch <= "9":  # ASCII digits only: '²'.isdigit() is true too
                if promote:
                    raise InvalidPositionError(f"SFEN {quote(original)}: '+' must precede a piece in rank {r + 1}")
                c += int(ch)
                continue
            if ch == "+":
                if promote:
                    raise InvalidPositionError(f"SFEN {quote(original)}: '++' in rank {r + 1}")
                promote = True
                continue
            t = LETTERS.find(ch.upper())
            if t <= 0:
                raise InvalidPositionError(f"SFEN {quote(original)}: unknown piece {ch!r} in rank {r + 1}")
            if promote and not t <= ROOK:
                raise InvalidPositionError(f"SFEN {quote(original)}: {ch!r} cannot be promoted")
            if c >= g.files:
                raise InvalidPositionError(f"SFEN {quote(original)}: rank {r + 1} is longer than {g.files} squares")
            color = 0 if ch.isupper() else 1
            p = int(g.sq2p[g.sq(r, c)])
            board[p] = COLOR_BITS[color] | (t + PROMOTED if promote else t)
            if t == KING:
                if kings[color] >= 0:
                    raise InvalidPositionError(f"SFEN {quote(original)}: {'Sente' if color == 0 else 'Gote'} "
                                               "has two kings")
                kings[color] = p
            promote = False
            c += 1
        if promote:
            raise InvalidPositionError(f"SFEN {quote(original)}: '+' at the end of rank {r + 1}")
        if c != g.files:
            raise InvalidPositionError(
                f"SFEN {quote(original)}: rank {r + 1} ({row!r}) covers {c} squares, not {g.files}")
    if fields[1] not in ("b", "w"):
        raise InvalidPositionError(f"SFEN {quote(original)}: side to move must be 'b' or 'w', got {fields[1]!r}")
    color = 0 if fields[1] == "b" else 1
    hands = np.zeros((2, 8), dtype=np.int8)
    if fields[2] != "-":
        for m in re.finditer(r"([0-9]{0,3})(.)", fields[2]):  # at most 3 ASCII digits: 18 pawns
            num, ch = m.group(1), m.group(2)
            t = LETTERS.find(ch.upper())
            if t <= 0 or t == KING:
                raise InvalidPositionError(f"SFEN {quote(original)}: {ch!r} cannot be in hand")
            n = int(num) if num else 1
            if n <= 0 or (num and num.startswith("0")):
                raise InvalidPositionError(f"SFEN {quote(original)}: bad count {num!r} of {ch!r} in hand")
            hc = 0 if ch.isupper() else 1
            if hands[hc, t]:
                raise InvalidPositionError(f"SFEN {quote(original)}: {ch!r} listed twice in the hands")
            hands[hc, t] = min(n, 100)
    number = 1
    if len(fields) == 4:
        if not (fields[3].isascii() and fields[3].isdigit() and len(fields[3]) <= 9 and int(fields[3]) >= 1):
            raise InvalidPositionError(f"SFEN {quote(original)}: move number must be an integer in 1..999999999, "
                                       f"got {quote(fields[3])}")
        number = int(fields[3])
    _validate(g, board, hands, kings, color, original)
    return board, hands, kings, color, number


def _validate(g: Geometry, board: np.ndarray, hands: np.ndarray, kings: np.ndarray, color: int,
              original: str) -> None:
    counts = {t: int(hands[0, t]) + int(hands[1, t]) for t in range(1, 8)}
    pawn_files: set[tuple[int, int]] = set()
    for sq in range(g.N):
        v = int(board[g.sq2p[sq]])
        if not v:
            continue
        t = v & 15
        c = 0 if v & BLACK_BIT else 1
        if t != KING:
            counts[unpromoted(t)] += 1
        rr = int(g.relrank[c, g.sq2p[sq]])
        name = g.square_name(sq)
        if (t in (PAWN, LANCE) and rr == 0) or (t == KNIGHT and rr <= 1):
            raise InvalidPositionError(f"SFEN {quote(original)}: the {LETTERS[t]} on {name} could never move")
        if t == PAWN:
            f = sq % g.files
            if (c, f) in pawn_files:
                raise InvalidPositionError(f"SFEN {quote(original)}: two unpromoted pawns of one side on file "
                                           f"{g.files - f} (nifu)")
            pawn_files.add((c, f))
    for t, n in counts.items():
        if n > FULL_SET[g.variant][t]:
            raise InvalidPositionError(f"SFEN {quote(original)}: {n} pieces of kind {LETTERS[t]}; "
                                       f"{g.variant} shogi has {FULL_SET[g.variant][t]}")
    if kernels.in_check(g, board, kings, 1 - color):
        raise InvalidPositionError(f"SFEN {quote(original)}: the side not to move is in check")


class ShogiState(State):
    """A shogi position with its history: numpy arrays (padded board, hands, kings) and a Zobrist key."""

    game: Shogi  # a state of this game (the State API types it as any Game)

    def __init__(self, game: Shogi, parsed: tuple) -> None:
        self.game = game
        self.g = game.geometry
        board, hands, kings, color, number = parsed
        self.board: np.ndarray = board
        self.hands: np.ndarray = hands
        self.kings: np.ndarray = kings
        self.color: int = color
        self.root_number = number
        self.root_sfen = ""
        self._history: list[int] = []
        self._captures: list[int] = []
        self._key = self._compute_key()
        self._keys: list[int] = [self._key]
        self._checks: list[bool] = [self.in_check()]
        self._counts: dict[int, int] = {self._key: 1}
        self._repetition: list[list[float] | None] = [None]
        self._legal: list[int] | None = None
        self.root_sfen = self.sfen()

    # -- internals ----------------------------------------------------------
    def _compute_key(self) -> int:
        g, zb, zh = self.g, self.game.zob_board, self.game.zob_hand
        k = 0
        for p in g.sq2p:
            v = int(self.board[p])
            if v:
                k ^= zb[p][v]
        for c in (0, 1):
            for t in range(1, 8):
                k ^= zh[c][t][int(self.hands[c, t])]
        if self.color:
            k ^= g.zob_side
        return k

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        return kernels.in_check(self.g, self.board, self.kings, self.color)

    def perft(self, depth: int, stop: np.ndarray | None = None) -> tuple[int, bool]:
        """``(leaves of the legal move tree to depth, completed)`` by the numba kernel.

        Game ends by repetition or declaration are not applied inside the tree (as in the
        published perft figures); ``stop`` (a one-element ``uint8`` array) cuts it short.
        """
        if depth == 0:
            return 1, True
        board, hands, kings = self.board.copy(), self.hands.copy(), self.kings.copy()
        return kernels.perft(self.g, board, hands, kings, self.color, depth, stop)

    # -- State API ----------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.color

    def legal_moves(self) -> list[int]:
        if self._repetition[-1] is not None or self._can_declare():
            return []
        return list(self._moves())

    def _moves(self) -> list[int]:
        if self._legal is None:
            self._legal = kernels.generate(self.g, self.board, self.hands, self.kings, self.color).tolist()
        return self._legal

    def play(self, move: int) -> None:
        g, zb, zh = self.g, self.game.zob_board, self.game.zob_hand
        us = self.color
        ubit = COLOR_BITS[us]
        frm, to, promo = decode_move(move)
        tp = int(g.sq2p[to])
        key = self._key ^ g.zob_side
        if frm >= g.N:
            kind = frm - g.N + 1
            n = int(self.hands[us, kind])
            key ^= zh[us][kind][n] ^ zh[us][kind][n - 1] ^ zb[tp][ubit | kind]
            self.hands[us, kind] = n - 1
            self.board[tp] = ubit | kind
            cap = 0
        else:
            fp = int(g.sq2p[frm])
            v = int(self.board[fp])
            cap = int(self.board[tp])
            nv = v + PROMOTED if promo else v
            key ^= zb[fp][v] ^ zb[tp][nv]
            if cap:
                ct = unpromoted(cap & 15)
                n = int(self.hands[us, ct])
                key ^= zb[tp][cap] ^ zh[us][ct][n] ^ zh[us][ct][n + 1]
                self.hands[us, ct] = n + 1
            self.board[tp] = nv
            self.board[fp] = 0
            if v & 15 == KING:
                self.kings[us] = tp
        self.color = 1 - us
        self._key = key
        self._history.append(move)
        self._captures.append(cap)
        self._keys.append(key)
        self._checks.append(self.in_check())
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        self._repetition.append(self._repetition_result(key) if count >= 4 else None)
        self._legal = None

    def _repetition_result(self, key: int) -> list[float]:
        """Returns at a fourth occurrence: a draw, or a loss for the side that checked throughout."""
        first = self._keys.index(key)
        last = len(self._keys) - 1
        mover = 1 - self.color  # made the move that led to position ``last``
        mover_checks = all(self._checks[j] for j in range(last, first, -2))
        other_checks = all(self._checks[j] for j in range(last - 1, first, -2))
        if mover_checks:
            return [-1.0, 1.0] if mover == 0 else [1.0, -1.0]
        if other_checks:
            return [1.0, -1.0] if mover == 0 else [-1.0, 1.0]
        return [0.0, 0.0]

    def undo(self) -> None:
        if not self._history:
            raise IndexError("no move to take back")
        g = self.g
        move = self._history.pop()
        cap = self._captures.pop()
        key = self._keys.pop()
        self._checks.pop()
        self._repetition.pop()
        self._counts[key] -= 1
        if not self._counts[key]:
            del self._counts[key]
        self.color = us = 1 - self.color
        frm, to, promo = decode_move(move)
        tp = int(g.sq2p[to])
        if frm >= g.N:
            kind = frm - g.N + 1
            self.board[tp] = 0
            self.hands[us, kind] += 1
        else:
            fp = int(g.sq2p[frm])
            v = int(self.board[tp])
            if promo:
                v -= PROMOTED
            self.board[fp] = v
            self.board[tp] = cap
            if cap:
                self.hands[us, unpromoted(cap & 15)] -= 1
            if v & 15 == KING:
                self.kings[us] = fp
        self._key = self._keys[-1]
        self._legal = None

    def is_terminal(self) -> bool:
        return self._repetition[-1] is not None or self._can_declare() or not self._moves()

    def returns(self) -> list[float]:
        rep = self._repetition[-1]
        if rep is not None:
            return list(rep)
        if self._can_declare():
            return [1.0, -1.0] if self.color == 0 else [-1.0, 1.0]
        if not self._moves():
            return [-1.0, 1.0] if self.color == 0 else [1.0, -1.0]
        return [0.0, 0.0]

    def result_text(self) -> str:
        if not self.is_terminal():
            return ""
        rep = self._repetition[-1]
        if rep is not None:
            if rep == [0.0, 0.0]:
                return "draw by fourfold repetition (sennichite)"
            loser = 0 if rep[0] < 0 else 1
            return f"{self.game.player_name(1 - loser)} wins: {self.game.player_name(loser)} gave perpetual check"
        me = self.game.player_name(self.color)
        other = self.game.player_name(1 - self.color)
        if self._can_declare():
            return f"{me} wins by entering-king declaration"
        if self.in_check():
            return f"{other} wins by checkmate"
        return f"{other} wins: {me} has no legal move"

    def _can_declare(self) -> bool:
        """Whether the side to move may declare a win by the entering-king rule."""
        rule = self.game["impasse"]
        g = self.g
        if rule == "off" or g.variant != "standard":
            return False
        us = self.color
        k = int(self.kings[us])
        if k < 0 or g.relrank[us, k] >= g.zone:
            return False
        ubit = COLOR_BITS[us]
        pieces = 0
        points = 0
        for p in g.sq2p:
            v = int(self.board[p])
            if v & ubit and v & 15 != KING and g.relrank[us, p] < g.zone:
                pieces += 1
                points += IMPASSE_POINTS[v & 15]
        if pieces < 10:
            return False
        points += sum(IMPASSE_POINTS[t] * int(self.hands[us, t]) for t in range(1, 8))
        need = 31 if rule == "24" else (28 if us == 0 else 27)
        return points >= need and not self.in_check()

    def impasse_points(self, color: int) -> int:
        """Entering-king points of ``color``: its pieces in the enemy camp and in hand (king excluded)."""
        g = self.g
        pts = sum(IMPASSE_POINTS[int(self.board[p]) & 15] for p in g.sq2p
                  if int(self.board[p]) & COLOR_BITS[color] and int(self.board[p]) & 15 != KING
                  and g.relrank[color, p] < g.zone)
        return pts + sum(IMPASSE_POINTS[t] * int(self.hands[color, t]) for t in range(1, 8))

    def why_illegal(self, move: int) -> str:
        if self.is_terminal():
            return "the game is over"
        g = self.g
        frm, to, promo = decode_move(move)
        if to >= g.N or frm >= g.N + 7:
            return "not a move on this board"
        tp = int(g.sq2p[to])
        ubit = COLOR_BITS[self.color]
        if frm >= g.N:
            kind = frm - g.N + 1
            if self.hands[self.color, kind] == 0:
                return f"no {LETTERS[kind]} in hand"
            if self.board[tp]:
                return "a drop needs an empty square"
            if kind == PAWN and any(int(self.board[g.sq2p[r * g.files + to % g.files]]) == ubit | PAWN
                                    for r in range(g.ranks)):
                return "a second unpromoted pawn on the file (nifu)"
            rr = int(g.relrank[self.color, tp])
            if (kind in (PAWN, LANCE) and rr == 0) or (kind == KNIGHT and rr <= 1):
                return "the dropped piece could never move"
            if kind == PAWN and not self.in_check():
                return "checkmate by a pawn drop (uchifuzume)"
            return "it leaves the king in check"
        v = int(self.board[g.sq2p[frm]])
        if not v & ubit:
            return f"no piece of the side to move on {g.square_name(frm)}"
        if int(self.board[tp]) & ubit:
            return "the target square holds an own piece"
        t = v & 15
        if promo:
            if t > ROOK:
                return "this piece cannot promote"
            if g.relrank[self.color, tp] >= g.zone and g.relrank[self.color, g.sq2p[frm]] >= g.zone:
                return "promotion needs a move into, out of or inside the promotion zone"
        rr = int(g.relrank[self.color, tp])
        if not promo and ((t in (PAWN, LANCE) and rr == 0) or (t == KNIGHT and rr <= 1)):
            return "the piece must promote (it could never move again)"
        if kernels.in_check(self.g, self.board, self.kings, self.color):
            return "the king is in check and this move does not answer it, or the piece cannot move so"
        return "the piece cannot move so, or the move leaves the king in check"

    @property
    def key(self) -> int:
        return self._key

    @property
    def history(self) -> list[int]:
        return list(self._history)

    def copy(self) -> ShogiState:
        s = ShogiState.__new__(ShogiState)
        s.game = self.game
        s.g = self.g
        s.board = self.board.copy()
        s.hands = self.hands.copy()
        s.kings = self.kings.copy()
        s.color = self.color
        s.root_number = self.root_number
        s.root_sfen = self.root_sfen
        s._history = list(self._history)
        s._captures = list(self._captures)
        s._key = self._key
        s._keys = list(self._keys)
        s._checks = list(self._checks)
        s._counts = dict(self._counts)
        s._repetition = list(self._repetition)
        s._legal = None if self._legal is None else list(self._legal)
        return s

    # -- text -----------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        """Parse a USI move: ``7g7f``, ``8h2b+``, ``P*5e``."""
        g = self.g
        t = text.strip() if isinstance(text, str) else ""
        m = _MOVE_RE.match(t)
        if m:
            f1, r1, f2, r2 = int(m.group(1)), ord(m.group(2)) - 97, int(m.group(3)), ord(m.group(4)) - 97
            if max(f1, f2) > g.files or max(r1, r2) >= g.ranks:
                raise InvalidMoveError(f"move {quote(text)} is off the {g.files}x{g.ranks} board")
            frm, to = g.sq(r1, g.files - f1), g.sq(r2, g.files - f2)
            if frm == to:
                raise InvalidMoveError(f"move {quote(text)} does not move")
            return encode_move(frm, to, bool(m.group(5)))
        m = _DROP_RE.match(t)
        if m:
            kind = LETTERS.find(m.group(1))
            f, r = int(m.group(2)), ord(m.group(3)) - 97
            if f > g.files or r >= g.ranks:
                raise InvalidMoveError(f"move {quote(text)} is off the {g.files}x{g.ranks} board")
            return encode_drop(g.N, kind, g.sq(r, g.files - f))
        raise InvalidMoveError(f"move {quote(text)} is not a USI move like 7g7f, 8h2b+ or P*5e")

    def format_move(self, move: int) -> str:
        g = self.g
        if not isinstance(move, (int, np.integer)) or move < 0:
            raise InvalidMoveError(f"move {quote(move)} is not a shogi move number")
        frm, to, promo = decode_move(int(move))
        if to >= g.N or frm >= g.N + 7 or (frm >= g.N and promo):
            raise InvalidMoveError(f"move {move} is not a move on the {g.files}x{g.ranks} board")
        if frm >= g.N:
            return f"{LETTERS[frm - g.N + 1]}*{g.square_name(to)}"
        return g.square_name(frm) + g.square_name(to) + ("+" if promo else "")

    def sfen(self, with_number: bool = True) -> str:
        """The position in SFEN (with the move number unless ``with_number`` is false)."""
        g = self.g
        rows = []
        for r in range(g.ranks):
            row, empty = "", 0
            for c in range(g.files):
                v = int(self.board[g.sq2p[g.sq(r, c)]])
                if not v:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                t = v & 15
                letter = ("+" + LETTERS[t - PROMOTED]) if t > KING else LETTERS[t]
                row += letter if v & BLACK_BIT else letter.lower()
            rows.append(row + (str(empty) if empty else ""))
        hand = ""
        for c in (0, 1):
            for t in HAND_ORDER:
                n = int(self.hands[c, t])
                if n:
                    letter = LETTERS[t] if c == 0 else LETTERS[t].lower()
                    hand += (str(n) if n > 1 else "") + letter
        text = f"{'/'.join(rows)} {'bw'[self.color]} {hand or '-'}"
        if with_number:
            text += f" {self.root_number + len(self._history)}"
        return text

    def canonical_text(self) -> str:
        """SFEN without the move number: equal for equal positions."""
        return self.sfen(with_number=False)

    def to_text(self) -> str:
        """SFEN; when the position has occurred before, the start SFEN and ``moves ...`` (for repetition)."""
        if self._counts.get(self._key, 0) > 1:
            return f"sfen {self.root_sfen} moves " + " ".join(
                self._format_history())
        return self.sfen()

    def _format_history(self) -> list[str]:
        return [self.format_move(m) for m in self._history]

    def diagram(self) -> str:
        """The board as text, Gote's hand above and Sente's below."""
        g = self.g
        lines = ["  " + " ".join(f"{g.files - c:>2}" for c in range(g.files))]
        for r in range(g.ranks):
            cells = []
            for c in range(g.files):
                v = int(self.board[g.sq2p[g.sq(r, c)]])
                if not v:
                    cells.append(" .")
                    continue
                t = v & 15
                letter = ("+" + LETTERS[t - PROMOTED]) if t > KING else " " + LETTERS[t]
                cells.append(letter if v & BLACK_BIT else letter.lower())
            lines.append(f"{chr(97 + r)} " + " ".join(cells))

        def hand(c: int) -> str:
            return " ".join(f"{LETTERS[t]}{int(self.hands[c, t])}" for t in HAND_ORDER if self.hands[c, t]) or "-"

        return "\n".join([f"Gote hand: {hand(1)}", *lines, f"Sente hand: {hand(0)}",
                          f"{self.game.player_name(self.color)} to move"])

