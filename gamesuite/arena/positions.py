"""Training positions from arena games: every position of the saved records with the game's result.

For fitting evaluation weights to outcomes (Texel-style tuning): play games
with ``gamesuite match ... --save DIR`` (or ``ladder``, ``tune --spsa --save``),
then::

    from gamesuite.arena.positions import positions

    for p in positions("runs/selfplay"):
        p.text, p.to_move, p.result      # the position, who moves, how the game ended for them

Each record is replayed (and checked) with ``record.load_record``. By default
the opening's positions are skipped (they were chosen, not played), and so are
games that an adjudication ended (a time loss or a crash says nothing about
the position) and records of games the arena itself failed. Chance nodes and
the final position are never yielded. From the command line, one position a
line, tab-separated (text, player to move, result for that player, ply,
record)::

    python -m gamesuite.arena.positions runs/selfplay > positions.tsv
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import InvalidRecordError, quote
from .record import load_record


@dataclass(frozen=True)
class TrainingPosition:
    """One position of a finished game and how that game ended."""

    text: str  # the position (``state.to_text()``; ``Game.state_from_text`` reads it back)
    to_move: int  # the player to move
    returns: tuple[float, ...]  # the game's result, one value per player in [-1, 1]
    ply: int  # plies played since the record's start position
    game: str  # the game spec (for ``load_game``)
    source: str  # the record's file

    @property
    def result(self) -> float:
        """The game's result for the player to move: 1 a win, 0 a draw, -1 a loss (between for more players)."""
        return self.returns[self.to_move]


def record_files(source: str | Path | Iterable[str | Path]) -> list[Path]:
    """The record files of a directory (``game-*.json``, in order), a file, or a list of either."""
    if isinstance(source, (str, Path)):
        p = Path(source)
        if p.is_dir():
            return sorted(p.glob("game-*.json"))
        if p.is_file():
            return [p]
        raise InvalidRecordError(f"no game records at {quote(str(p))}")
    out: list[Path] = []
    for s in source:
        out.extend(record_files(s))
    return out


def positions(source: str | Path | Iterable[str | Path], skip_opening: bool = True, adjudicated: bool = False,
              every: int = 1, dedupe: bool = False) -> Iterator[TrainingPosition]:
    """The positions of the records in ``source`` (a directory of ``--save`` records, files, or both).

    ``skip_opening``: leave out the positions of the opening (played before the
    engines took over); ``adjudicated``: include games ended by an adjudication
    (time, crash, ply limit ...); ``every``: keep every ``every``-th ply;
    ``dedupe``: each position once (by ``state.key`` and the result), the first
    time it is seen. A damaged record raises ``InvalidRecordError`` naming its file.
    """
    if every < 1:
        raise InvalidRecordError(f"every must be at least 1, got {every}")
    seen: set[tuple[int, tuple[float, ...]]] = set()
    for path in record_files(source):
        rec, game, start, moves = load_record(path)
        if rec.error or not rec.returns or (rec.adjudication and not adjudicated):
            continue
        returns = tuple(float(r) for r in rec.returns)
        s = start.copy()
        first = rec.opening_plies if skip_opening else 0
        for ply, m in enumerate(moves):
            if ply >= first and ply % every == 0 and not s.is_chance_node() and not s.is_terminal():
                key = (s.key, returns)
                if not dedupe or key not in seen:
                    seen.add(key)
                    yield TrainingPosition(s.to_text(), s.current_player, returns, ply, game.spec, str(path))
            s.play(m)


def main(argv: list[str] | None = None) -> int:
    """Print the positions of saved records as tab-separated lines."""
    ap = argparse.ArgumentParser(prog="python -m gamesuite.arena.positions", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", nargs="+", help="directories of saved records (match --save DIR) or record files")
    ap.add_argument("--with-opening", action="store_true", help="include the opening's positions")
    ap.add_argument("--adjudicated", action="store_true", help="include games ended by an adjudication")
    ap.add_argument("--every", type=int, default=1, metavar="N", help="every N-th ply only")
    ap.add_argument("--dedupe", action="store_true", help="each position (with its result) once")
    args = ap.parse_args(argv)
    try:
        for p in positions(args.source, not args.with_opening, args.adjudicated, args.every, args.dedupe):
            print(f"{p.text}\t{p.to_move}\t{p.result:g}\t{p.ply}\t{p.source}")
    except InvalidRecordError as e:
        print(f"positions: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
