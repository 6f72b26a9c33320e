"""An opening book for the shogi engine, made from our own games, so that games do not repeat.

The book maps a position (its SFEN without the move number) to the moves
played from it in the games it was made from, each with how often it was
played and how often the side that played it won. The engine (option
``book``) plays a book move when the position is in the book, drawn at random
in proportion to how often it was played among the moves that won at least
``MIN_SCORE`` of their games; out of the book it searches.

File format (UTF-8 text, ``#`` comments): one position a line,
``SFEN | move played won, move played won, ...``.

    python -m gamesuite.games.shogi.book DIR [DIR ...] [--plies 16] [--min-games 2] [--out FILE]

makes one from arena game records (``gamesuite match ... --save DIR``).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from pathlib import Path

from ...core.errors import InvalidOptionError, quote
from ...core.files import write_atomic

#: The book shipped with the package (made from our self-play games).
BOOK_FILE = Path(__file__).with_name("shogi_book.txt")
#: Book moves that scored less than this (wins / games for the side that played them) are not played.
MIN_SCORE = 0.35


def _key(state) -> str:  # type: ignore[no-untyped-def]
    return state.sfen(with_number=False)


class Book:
    """Positions and the moves played from them: ``{sfen: {usi move: (played, won)}}``."""

    def __init__(self, entries: dict[str, dict[str, tuple[int, int]]] | None = None) -> None:
        self.entries = entries or {}

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def load(cls, path: str | Path) -> Book:
        """Read a book file; a malformed line is an ``InvalidOptionError`` naming the file and line."""
        p = Path(path)
        try:
            lines = p.read_text(encoding="utf-8").splitlines()
        except OSError as e:
            raise InvalidOptionError(f"cannot read the opening book {quote(str(p))}: {e.strerror or e}") from None
        entries: dict[str, dict[str, tuple[int, int]]] = {}
        for n, line in enumerate(lines, 1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                sfen, _, rest = line.partition("|")
                moves = {}
                for item in rest.split(","):
                    move, played, won = item.split()
                    moves[move] = (int(played), int(won))
                entries[sfen.strip()] = moves
            except ValueError:
                raise InvalidOptionError(f"opening book {quote(str(p))} line {n}: {quote(line)} is not "
                                         f"'SFEN | move played won, ...'") from None
        return cls(entries)

    def save(self, path: str | Path) -> None:
        rows = [f"{sfen} | " + ", ".join(f"{m} {p} {w}" for m, (p, w) in sorted(moves.items()))
                for sfen, moves in sorted(self.entries.items())]
        write_atomic(path, "# gamesuite shogi opening book: SFEN | move played won, ...\n" + "\n".join(rows) + "\n")

    def moves(self, state) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
        """The playable book moves of ``state`` (legal, scored well enough) as ``(move, times played)``."""
        entry = self.entries.get(_key(state))
        if not entry:
            return []
        legal = set(state.legal_moves())
        out = []
        for text, (played, won) in entry.items():
            try:
                m = state.parse_move(text)
            except ValueError:
                continue
            if m in legal and played > 0 and won / played >= MIN_SCORE:
                out.append((m, played))
        return out

    def choose(self, state, rng: random.Random) -> int | None:  # type: ignore[no-untyped-def]
        """A book move of ``state`` drawn in proportion to how often it was played, or None."""
        moves = self.moves(state)
        if not moves:
            return None
        return rng.choices([m for m, _ in moves], weights=[w for _, w in moves])[0]


def build(dirs: list[str], plies: int = 16, min_games: int = 2) -> Book:
    """A book from the first ``plies`` moves of the games recorded under ``dirs`` (moves played at least
    ``min_games`` times from their position; games the arena adjudicated are left out)."""
    from ...arena.positions import record_files
    from ...arena.record import load_record

    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for path in record_files(dirs):
        rec, _game, start, moves = load_record(path)
        if rec.error or rec.adjudication or not rec.returns:
            continue
        s = start.copy()
        for m in moves[:plies]:
            c = counts[_key(s)][s.format_move(m)]
            c[0] += 1
            c[1] += rec.returns[s.current_player] > 0  # (a position with a move after it is not terminal)
            s.play(m)
    entries = {sfen: {m: (c[0], c[1]) for m, c in moves.items() if c[0] >= min_games}
               for sfen, moves in counts.items()}
    return Book({k: v for k, v in entries.items() if v})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gamesuite.games.shogi.book", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", help="directories of arena game records")
    ap.add_argument("--plies", type=int, default=16, help="book depth in plies (default 16)")
    ap.add_argument("--min-games", type=int, default=2, help="moves played at least this often (default 2)")
    ap.add_argument("--out", default=str(BOOK_FILE))
    args = ap.parse_args(argv)
    book = build(args.dirs, args.plies, args.min_games)
    book.save(args.out)
    print(f"wrote {args.out}: {len(book)} positions, {sum(len(m) for m in book.entries.values())} moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
