"""How the window writes a game's players, moves, scores and results for a person.

The rules' own notation (``State.format_move``) is made for files and engine
protocols: ``7g7f`` in shogi is fine, ``1001`` in Hare and Hedgehog is not.
Everything the window writes for a person (the move list, the analysis panel's
lines and score columns, the banner, the graph's legend) goes through one
``Notation``; a game whose codes are not readable gets its own subclass here
(``notation_for`` picks it). A game written in several ways by its players
lists them in ``STYLES`` (shogi: Japanese ``▲７六歩``, western ``P-7f``, USI
``7g7f``); the window offers the choice. ``parse`` reads a move typed by a person
(keyboard entry) in any of the game's ways. No Qt in this module.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import GameSuiteError, IllegalMoveError, quote
from ..core.registry import Game
from ..core.score import Score
from ..core.state import State
from .fmt import score_text


class Notation:
    """The default: the rules' move text and player names, one score column."""

    #: Whether the move list numbers every move (games of more than two players, or with chance moves)
    #: rather than move pairs (``1. b2 a1``).
    numbers_each_move = False
    #: Written between the moves of a line.
    separator = " "
    #: Whether the move list gives each move of the main line its own line (long move texts).
    move_per_line = False
    #: The ways of writing this game's moves (the first is the default); empty when there is one.
    STYLES: tuple[str, ...] = ()

    def __init__(self, game: Game, style: str | None = None) -> None:
        self.game = game
        #: One of ``STYLES`` ("" when the game has one way); an unknown style is the default.
        self.style = style if style in self.STYLES else (self.STYLES[0] if self.STYLES else "")

    def player(self, player: int) -> str:
        """A player's name as the window writes it (in the window's language: ``gui/i18n.py``)."""
        return _player_name(self.game.player_name(player))

    def move(self, state: State, move: int) -> str:
        """``move`` played in ``state``, for a person."""
        return state.format_move(move)

    def parse(self, state: State, text: str) -> int:
        """The legal move a person typed (``h8``, ``7g7f``, ``P*5e``...); ``GameSuiteError`` quoting it if
        it is not one."""
        move = state.parse_move(text.strip())
        if move not in state.legal_moves():
            why = getattr(state, "why_illegal", lambda m: "")(move) or "not a legal move here"
            raise IllegalMoveError(f"{quote(text.strip())} is not allowed: {why}")
        return move

    def line(self, state: State, moves: Sequence[int]) -> list[str]:
        """A line of moves played one after the other from ``state``; raw numbers past a move the
        position refuses (a line of another position should never come here, but nothing breaks)."""
        s = state.copy()
        out: list[str] = []
        for k, m in enumerate(moves):
            try:
                out.append(self.move(s, m))
                s.play(m)
            except (GameSuiteError, ValueError, IndexError, KeyError):
                out.extend(str(x) for x in moves[k:])
                break
        return out

    def score_headers(self) -> list[str]:
        """The headers of the score columns of the analysis panel."""
        return ["Score"]

    def score_cells(self, score: Score) -> list[str]:
        """``score`` in the score columns (from the first player's view: ``+0.35`` favours X/Black)."""
        return [score_text(score, self.game)]

    def result(self, state: State) -> str:
        """Why the game is over at ``state`` ("" while it goes on)."""
        return state.result_text() if state.is_terminal() else ""

    def timeout(self, player: int) -> str:
        return f"{self.player(player)} loses on time"


class HareNotation(Notation):
    """Hare and Hedgehog: players by colour, moves as the square reached and its kind, hare cards by
    what they do, one score column per player."""

    numbers_each_move = True
    separator = " · "
    move_per_line = True
    COLOURS = ("Red", "Blue", "Yellow", "Green", "White", "Purple")
    CARDS = {
        "give10": "give 10 to each behind", "missoragain": "miss a turn or move again",
        "set65": "carrots set to 65", "lettuce10": "10 per lettuce", "halve": "lose half the carrots",
        "freeride": "free ride", "show": "show the carrots", "shuffle": "shuffle",
        "takegive": "take or give 10", "fallback": "fall back one place", "moveup": "move up one place",
        "miss": "miss a turn", "eat": "eat a lettuce now", "again": "move again",
        "nextcarrot": "on to the next carrot square", "prevcarrot": "back to the previous carrot square",
    }

    def player(self, player: int) -> str:
        return _player_name(self.COLOURS[player % len(self.COLOURS)] if player >= 0 else "Chance")

    def move(self, state: State, move: int) -> str:
        from ..games.hare import board as B
        from ..games.hare import rules as R

        st = state
        text = st.format_move(move)  # raises for a move that is no move here
        if st.is_chance_node():
            name = B.CARD_NAMES[move]
            return f"card: {self.CARDS.get(name, name)}"
        p = st.current_player
        ppp = int(self.game.ppp)  # type: ignore[attr-defined]
        piece, code = divmod(move, R.PIECE_STRIDE)
        who = self.player(p) + (f" {'ab'[piece]}" if ppp == 2 else "")
        if st.phase == R.CHOOSE:  # type: ignore[attr-defined]
            return f"{who} " + {R.STAY: "takes nothing", R.TAKE10: "takes 10 carrots",
                                R.GIVE10: "gives 10 carrots"}.get(code, text)
        here = st.sq[p * ppp + piece]  # type: ignore[attr-defined]
        kinds = self.game.kind  # type: ignore[attr-defined]
        if code == R.STAY:
            return f"{who} misses a turn" if st.skip[p] else f"{who} eats a lettuce"  # type: ignore[attr-defined]
        if 1 <= code <= B.LAST:
            to = here + code
            return f"{who} to {to} ({B.KIND_NAMES[int(kinds[to])]})"
        if R.BACK < code < R.TAKE10:
            return f"{who} back to {here - (code - R.BACK)} (hedgehog)"
        return f"{who} " + {R.TAKE10: "takes 10 carrots", R.GIVE10: "gives 10 carrots",
                            R.RESTART: "is stuck: back to the hedgehog or the start"}.get(code, text)

    def score_headers(self) -> list[str]:
        return [self.player(p) for p in range(self.game.num_players)]

    def score_cells(self, score: Score) -> list[str]:
        n = self.game.num_players
        if score.kind != "vector":  # a two-player score: each player's view of it
            return [score.for_player(p).text() for p in range(n)]
        vals = list(score.values)[:n]
        return [f"{v:+.1f}" for v in vals] + [""] * (n - len(vals))

    def result(self, state: State) -> str:
        if not state.is_terminal():
            return ""
        place = list(state.place)  # type: ignore[attr-defined]
        order = sorted(range(len(place)), key=lambda p: place[p])
        return "finishing order: " + ", ".join(f"{k + 1}. {self.player(p)}" for k, p in enumerate(order))


class ShogiNotation(Notation):
    """Shogi in Japanese (``▲７六歩 △３四歩 ▲２二角成 △同銀``, each move numbered and on a line of its
    own, as KIF and ShogiHome list them), western (``P-7f``) or USI (``7g7f``) notation; any of them is
    read."""

    STYLES = ("japanese", "western", "usi")

    def __init__(self, game: Game, style: str | None = None) -> None:
        super().__init__(game, style)
        self.numbers_each_move = self.style != "usi"
        # one move a line, as KIF files and ShogiHome list them (and a line may break between any two
        # kanji: a move written inline could be cut in two)
        self.move_per_line = self.style == "japanese"

    def move(self, state: State, move: int) -> str:
        from ..games.shogi import notation as ja

        if self.style == "japanese":
            return ja.japanese(state, move)  # type: ignore[arg-type]
        if self.style == "western":
            return ja.western(state, move)  # type: ignore[arg-type]
        return state.format_move(move)

    def parse(self, state: State, text: str) -> int:
        from ..games.shogi import notation as ja

        return ja.parse_any(state, text.strip())  # type: ignore[arg-type]


NOTATIONS: dict[str, type[Notation]] = {"hare": HareNotation, "shogi": ShogiNotation}


def notation_for(game: Game, style: str | None = None) -> Notation:
    """The notation the window uses for ``game`` (``style``: one of its ``STYLES``; None: the default)."""
    return NOTATIONS.get(game.name, Notation)(game, style)


def styles_of(game: Game) -> tuple[str, ...]:
    """The ways ``game``'s moves can be written (empty when there is one)."""
    return NOTATIONS.get(game.name, Notation).STYLES


def _player_name(name: str) -> str:
    """``name`` in the window's language (the games' player names are listed in ``gui/i18n.py``)."""
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("Players", name)
