"""Game records of the arena: one JSON file per game, in the window's format (``play.record``).

A file is a ``"gamesuite-game"`` record (version 2, ``docs/game-json.md``): the
players (each an engine with its label), every move from ``start`` (the
opening's first, chance outcomes included), the result (``returns``,
``result``: ``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or places ``"1,2,2"``, ``reason``,
``adjudication``) and the match's data under ``"match"`` (``opening_plies``,
``engine_index``, ``round``, ``opening_index``, ``rotation``, ``seed``,
``time_control``, ``limits`` (each seat's, as played), ``plies``, ``duration_s``,
``swap`` after a swap opening, ``error`` when the arena itself failed). The
window opens it (and replays it); the arena's old version-1 files are still read.

``GameRecord`` here is the arena's flat view of one game (what tables and
statistics need); ``load_record`` checks every move against the rules while it
replays.
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
from ..play.record import ARENA_MATCH_FIELDS, FORMAT, READ_VERSIONS, VERSION, PlayerSpec, from_arena_v1


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
        """The record in the window's format (``play.record``, version 2)."""
        match = {k: v for k, v in asdict(self).items() if k in ARENA_MATCH_FIELDS}
        if match["swap"] is None:
            del match["swap"]
        if not match["error"]:
            del match["error"]
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "start": self.start or None,
            # the window plays an engine's seat with the game's default engine (a label is no spec)
            "players": [{"kind": "engine", "engine": "", "name": e} for e in self.engines],
            "metadata": {"date": self.date} if self.date else {},
            "moves": [{"move": m} for m in self.moves],
            "result": {"returns": self.returns, "result": self.result, "reason": self.reason,
                       "adjudication": self.adjudication},
            "match": match,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        """Read a record of the arena (version 2, or the old flat version 1)."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            found = d.get("format") if isinstance(d, dict) else d
            raise InvalidRecordError(f"not a gamesuite game record (format {quote(found)})")
        if d.get("version") not in READ_VERSIONS:
            raise InvalidRecordError(f"unsupported record version {quote(d.get('version'))}")
        if "engines" in d and "players" not in d:
            d = from_arena_v1(d)
        missing = [k for k in ("game", "moves", "players") if k not in d]
        if missing:
            raise InvalidRecordError(f"game record lacks {', '.join(missing)}")
        entries = d["moves"]
        moves = [m.get("move") if isinstance(m, dict) else m for m in entries] if isinstance(entries, list) else None
        if moves is None or not all(isinstance(m, str) for m in moves):
            raise InvalidRecordError(f"record moves must be a list of moves, got {quote(d['moves'])}")
        players, result = d["players"], d.get("result") or {}
        if not isinstance(players, list) or not isinstance(result, dict):
            raise InvalidRecordError(f"record players must be a list and its result an object: {quote(d)}")
        match = d.get("match") or {}
        known = set(cls.__dataclass_fields__)
        kwargs = {k: v for k, v in match.items() if k in known}
        return cls(game=str(d["game"]), start=d.get("start") or "", moves=[str(m) for m in moves],
                   engines=[_player_name(p) for p in players],
            returns=list(result.get("returns") or []), result=str(result.get("result", "")),
            reason=str(result.get("reason", "")), adjudication=result.get("adjudication"),
            date=str((d.get("metadata") or {}).get("date", "")), **{"opening_plies": 0, **kwargs})

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
        start = game.state_from_text(rec.start) if rec.start else game.new_state()
        s = start.copy()
        moves = []
        for text in rec.moves:
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


def _player_name(d: Any) -> str:
    """The name of a record's player: its ``name``, else how the window describes it."""
    p = PlayerSpec.from_json(d)
    return p.name or p.label()
