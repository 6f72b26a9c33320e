"""Opening sets: where the games of a match start.

An opening is a position text (or the game's start position) and moves played
from it. Built-in sets: for gomoku-like games (see ``boards.is_placement_game``)
random openings of a few stones of both colours near the centre, kept only when
a short search of the game's default engine finds no forced win for either
side; for every other game the start position. ``load_openings`` reads one's
own: one opening per line, in the USI style::

    startpos
    startpos moves 7g7f 3c3d
    lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
    x...o.... moves b2

(``#`` starts a comment line; blank lines are skipped.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import GameSuiteError, InvalidOptionError, InvalidPositionError, quote
from ..core.limits import Limits
from ..core.registry import Game, make_engine
from ..core.state import State
from .boards import board_dims, is_placement_game


@dataclass(frozen=True)
class Opening:
    """A start position text (``None``: the game's start position) and moves from it."""

    start: str | None = None
    moves: tuple[str, ...] = ()

    def build(self, game: Game) -> tuple[State, list[int]]:
        """The start state and the opening's moves as numbers (checked against the rules)."""
        start = game.new_state() if self.start is None else game.state_from_text(self.start)
        s = start.copy()
        out = []
        for text in self.moves:
            out.append(s.play_text(text))
        if s.is_terminal():
            raise InvalidPositionError(f"opening {quote(self.text())} is already over: {s.result_text()}")
        return start, out

    def text(self) -> str:
        """The opening as a line of an openings file."""
        head = "startpos" if self.start is None else self.start
        return head + (" moves " + " ".join(self.moves) if self.moves else "")


def parse_opening(line: str) -> Opening:
    """One line of an openings file (see the module docstring)."""
    line = line.strip()
    head, sep, tail = line.partition(" moves ")
    if not sep and line.endswith(" moves"):
        head = line[: -len(" moves")]
    head = head.strip()
    moves = tuple(tail.split()) if sep else ()
    return Opening(None if head in ("startpos", "") else head, moves)


def load_openings(path: str | Path, game: Game, first: int = 1) -> list[Opening]:
    """Read and check an openings file, from its ``first``-th opening on (1-based; the ones before it come
    last); errors name the file and line."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InvalidOptionError(f"cannot read openings file {quote(str(p))}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise InvalidOptionError(f"openings file {quote(str(p))} is not UTF-8 text") from None
    out = []
    for n, raw in enumerate(lines, 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        op = parse_opening(raw)
        try:
            op.build(game)
        except GameSuiteError as e:
            raise type(e)(f"openings file {quote(str(p))} line {n}: {e}") from None
        out.append(op)
    if not out:
        raise InvalidOptionError(f"openings file {quote(str(p))} has no openings")
    if not 1 <= first <= len(out):
        raise InvalidOptionError(f"--first-opening must be 1..{len(out)} (the openings in {quote(str(p))}), "
                                 f"got {first}")
    return out[first - 1:] + out[:first - 1]


def default_plies(game: Game) -> int:
    """Stones of a random opening: 2 on small boards; 3 (black, white, black) from 10x10 up."""
    dims = board_dims(game)
    cells = dims[0] * dims[1] if dims else 0
    return 2 if cells < 100 else 3


def _centre(game: Game) -> set[int] | None:
    dims = board_dims(game)
    if dims is None:
        return None
    w, h = dims
    r = max(1, min(w, h) // 4)
    s = game.new_state()
    cells = set()
    for m in s.legal_moves():
        text = s.format_move(m)
        try:
            col, row = ord(text[0].lower()) - ord("a"), int(text[1:])
        except (ValueError, IndexError):
            return None
        if abs(col - (w - 1) / 2) <= r and abs((h - row) - (h - 1) / 2) <= r:
            cells.add(m)
    return cells or None


def default_check_depth(game: Game) -> int:
    """Plies of the balance check: the whole game on boards of up to 16 cells, else 4."""
    dims = board_dims(game)
    cells = dims[0] * dims[1] if dims else 0
    return cells if 0 < cells <= 16 else 4


def random_openings(game: Game, count: int, seed: int = 0, plies: int | None = None,
                    check_depth: int | None = None, engine_spec: str = "", candidates: int = 3) -> list[Opening]:
    """``count`` random openings of a gomoku-like game, the most balanced of several candidates.

    Stones alternate colours on cells near the centre. Up to ``candidates *
    count`` distinct openings are drawn; the default engine (or ``engine_spec``)
    searches each ``check_depth`` plies (``default_check_depth``; a depth, not a
    time, so the set is reproducible). Openings where it finds a forced result
    are dropped, and of the rest the ``count`` with the scores nearest to even
    are kept, in the order drawn (``check_depth=0``: the first ``count``, no
    check). When the board has fewer balanced openings than asked for, decided
    ones make up the number (a board where the first player always wins has
    only those), and past that they repeat.
    """
    if count <= 0:
        return []
    plies = default_plies(game) if plies is None else plies
    check_depth = default_check_depth(game) if check_depth is None else check_depth
    centre = _centre(game)
    rng = random.Random(seed)
    checker = None
    if check_depth > 0:
        try:
            checker = make_engine(game, engine_spec)
        except GameSuiteError:
            checker = None
    want = count * (candidates if checker is not None else 1)
    balanced: list[tuple[float, int, Opening]] = []
    unbalanced: list[Opening] = []
    seen: set[int] = set()
    attempts = 0
    while len(balanced) < want and attempts < 30 * want + 100:
        attempts += 1
        s = game.new_state()
        texts = []
        for _ in range(plies):
            legal = s.legal_moves()
            near = [m for m in legal if centre is None or m in centre] or legal
            m = rng.choice(near)
            texts.append(s.format_move(m))
            s.play(m)
            if s.is_terminal():
                break
        if s.is_terminal() or s.key in seen:
            continue
        seen.add(s.key)
        op = Opening(None, tuple(texts))
        imbalance = 0.0
        if checker is not None:
            if hasattr(checker, "new_game"):
                checker.new_game()
            try:
                score = checker.search(s, Limits(depth=check_depth)).score
            except Exception:  # noqa: BLE001 - no verdict: keep the opening, as even
                score = None
            if score is not None and score.kind == "mate":
                unbalanced.append(op)
                continue
            imbalance = abs(score.sort_key()) if score is not None else 0.0
        balanced.append((imbalance, len(balanced), op))
    kept = sorted(sorted(balanced, key=lambda x: x[0])[:count], key=lambda x: x[1])
    pool = [op for _, _, op in kept] + unbalanced[: max(0, count - len(kept))]
    if not pool:
        return [Opening()] * count
    return [pool[i % len(pool)] for i in range(count)]


def builtin_openings(game: Game, count: int, seed: int = 0) -> list[Opening]:
    """The built-in set: random balanced openings for gomoku-like games, else the start position."""
    if is_placement_game(game):
        return random_openings(game, count, seed)
    return [Opening()] * max(count, 1)
