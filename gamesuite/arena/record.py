"""Game records of the arena: one JSON file per game that the app (or anyone) can replay.

The format (``"format": "gamesuite-game"``, ``"version": 1``)::

    {
      "format": "gamesuite-game", "version": 1,
      "game": "tictactoe(m=4,n=4,k=3)",       # a spec for load_game
      "start": "................",             # position text (Game.state_from_text)
      "moves": ["b2", "c3", ...],              # every move from "start" in the game's notation,
                                                # the opening's first, chance outcomes included
      "opening_plies": 2,                       # how many of "moves" were the opening
      "engines": ["solver", "reference"],       # the engine of each seat (player 0 first)
      "returns": [1.0, -1.0],                   # one value per player in [-1, 1]
      "result": "1-0",                          # "1-0", "0-1", "1/2-1/2"; places "1,2,2" for more players
      "reason": "X wins",                       # how it ended, e.g. "O loses: illegal move 'b2' ..."
      "adjudication": null | {"seat": 1, "kind": "illegal", "detail": "..."},
      "round": 3, "opening_index": 1, "rotation": 1, "seed": 123,
      "time_control": "movetime 100 ms",       # the match's ("per engine" when it set none)
      "limits": ["movetime 100 ms", "nodes 5000"],  # what each seat played by (its own @ limits or the match's)
      "plies": 11, "duration_s": 1.2,
      "date": "2026-11-22T14:00:00Z",
      "swap": {...}                             # only after a swap opening (arena.swap)
    }

``load_record`` checks every move against the rules while it replays.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import GameSuiteError, InvalidRecordError, quote
from ..core.files import write_atomic
from ..core.registry import Game, load_game
from ..core.state import State

FORMAT = "gamesuite-game"
VERSION = 1


@dataclass
class GameRecord:
    """One finished (or adjudicated) game of a match."""

    game: str
    start: str
    moves: list[str]
    opening_plies: int
    engines: list[str]
    returns: list[float]
    result: str
    reason: str
    adjudication: dict[str, Any] | None = None
    engine_index: list[int] = field(default_factory=list)  # index of each seat's engine in the match
    round: int = 0
    opening_index: int = 0
    rotation: int = 0
    seed: int = 0
    time_control: str = ""
    limits: list[str] = field(default_factory=list)  # each seat's limits, as played
    plies: int = 0
    duration_s: float = 0.0
    date: str = ""
    #: a swap opening: {"rule", "proposer", "steps": [{"by", "stones", "answer"}], "black"} (arena.swap)
    swap: dict[str, Any] | None = None
    error: str = ""  # set when the arena itself failed (the game counts for nobody)

    def to_json(self) -> dict[str, Any]:
        d = {"format": FORMAT, "version": VERSION}
        d.update(asdict(self))
        if not d["error"]:
            del d["error"]
        if d["swap"] is None:
            del d["swap"]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "GameRecord":
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise InvalidRecordError(f"not a gamesuite game record (format {quote(d.get('format') if isinstance(d, dict) else d)})")
        if d.get("version") != VERSION:
            raise InvalidRecordError(f"unsupported record version {quote(d.get('version'))}")
        known = set(cls.__dataclass_fields__)
        missing = [k for k in ("game", "start", "moves", "engines", "returns", "result", "reason") if k not in d]
        if missing:
            raise InvalidRecordError(f"game record lacks {', '.join(missing)}")
        if not isinstance(d["moves"], list) or not all(isinstance(m, str) for m in d["moves"]):
            raise InvalidRecordError(f"record moves must be a list of strings, got {quote(d['moves'])}")
        kwargs = {k: v for k, v in d.items() if k in known}
        kwargs.setdefault("opening_plies", 0)
        return cls(**kwargs)

    @property
    def filename(self) -> str:
        return f"game-{self.round:05d}.json"


def save_record(record: GameRecord, directory: str | Path) -> Path:
    """Write ``record`` into ``directory`` (created if needed); returns the file."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    path = d / record.filename
    write_atomic(path, json.dumps(record.to_json(), indent=1) + "\n")
    return path


def load_record(path: str | Path) -> tuple[GameRecord, Game, State, list[int]]:
    """Read a record and replay it: ``(record, game, start state, moves as numbers)``.

    Raises ``InvalidRecordError`` quoting what is wrong (unreadable file, bad JSON,
    an unknown game, a bad position or an illegal move).
    """
    p = Path(path)
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise InvalidRecordError(f"cannot read {quote(str(p))}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise InvalidRecordError(f"{quote(str(p))} is not a JSON game record: {e}") from None
    rec = GameRecord.from_json(d)
    try:
        game = load_game(rec.game)
        start = game.state_from_text(rec.start)
        s = start.copy()
        moves = []
        for i, text in enumerate(rec.moves):
            moves.append(s.play_text(text))
    except GameSuiteError as e:
        raise InvalidRecordError(f"record {quote(str(p))}: {e}") from None
    return rec, game, start, moves


def result_string(returns: list[float]) -> str:
    """``1-0``/``0-1``/``1/2-1/2`` for two players; places (``1,2,2``) for more."""
    if len(returns) == 2:
        a, b = returns
        return "1-0" if a > b else "0-1" if b > a else "1/2-1/2"
    return ",".join(str(1 + sum(1 for o in returns if o > r)) for r in returns)
