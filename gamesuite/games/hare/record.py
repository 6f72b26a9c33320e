"""Hare and Hedgehog game records: the game spec, the start position and every move and card.

```
game hare(players=3,board=2008,hare=2008,pieces=0)
start 0:68:3/0:68:3/0:68:3 1 deck=-
moves 10 4 card:halve 0 ...
```

Lines starting with ``#`` are comments. Cards drawn are written as moves
(``card:NAME``) where they happened, so a record replays exactly.
"""

from __future__ import annotations

from ...core.errors import GameSuiteError, InvalidRecordError, quote
from ...core.registry import load_game
from .rules import HareGame, HareState


def format_record(state: HareState, start: str | None = None) -> str:
    """The record of the game that led to ``state`` (from the start position, or from ``start``)."""
    g = state.game
    first = g.new_state() if start is None else g.state_from_text(start)
    moves = first.format_line(state.history)
    return f"game {g.spec}\nstart {first.to_text()}\nmoves {' '.join(moves)}\n"


def parse_record(text: str) -> HareState:
    """Replay a record, checking every move; ``InvalidRecordError`` quoting the line that fails."""
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key not in ("game", "start", "moves") or key in fields:
            raise InvalidRecordError(f"record line {quote(line)}: expected one each of game, start, moves")
        fields[key] = rest.strip()
    if "game" not in fields:
        raise InvalidRecordError("a record needs a 'game SPEC' line")
    try:
        game = load_game(fields["game"])
    except GameSuiteError as e:
        raise InvalidRecordError(f"record game: {e}") from None
    if not isinstance(game, HareGame):
        raise InvalidRecordError(f"record game {quote(fields['game'])} is not Hare and Hedgehog")
    try:
        state = game.state_from_text(fields["start"]) if fields.get("start") else game.new_state()
    except GameSuiteError as e:
        raise InvalidRecordError(f"record start: {e}") from None
    for k, tok in enumerate(fields.get("moves", "").split()):
        try:
            state.play_text(tok)
        except GameSuiteError as e:
            raise InvalidRecordError(f"record move {k + 1} {quote(tok)}: {e}") from None
    return state
