"""The game record: a tree of moves with variations, and its JSON file format (``"gamesuite-game"``).

One model for the window, the arena and the command line: the window edits a
record (variations, comments, scores, clocks), the arena writes one per game
(its players, the result and how it was reached, the match's data under
``"match"``), and either opens the other's files. This module does not import
Qt. The file format is documented in ``docs/game-json.md``; version 2 is
written, and both version-1 layouts are still read (the window's, and the
arena's flat one with ``"engines"`` and moves as strings).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameSuiteError, InvalidRecordError, quote
from ..core.files import parse_json_text
from ..core.gameinfo import GameInfo
from ..core.registry import Game, load_game
from ..core.score import Score
from ..core.state import State
from .clock import ClockValue, TimeControl

FORMAT = "gamesuite-game"
VERSION = 2
#: The versions this module reads.
READ_VERSIONS = (1, 2)
#: Metadata the window keeps for itself, not written into other formats' files.
INTERNAL_METADATA = ("source",)

_ids = itertools.count(1)


@dataclass
class PlayerSpec:
    """Who plays one side: a human, or an engine with its spec and strength."""

    kind: str = "human"  # "human" or "engine"
    engine: str = ""  # engine spec, e.g. "solver,hash=16" ("" = the game's default engine)
    movetime: int | None = 1000  # ms per move
    depth: int | None = None  # fixed depth instead of a time
    #: The player's game clock (None: no clock; an engine then thinks ``movetime`` or ``depth``).
    clock: TimeControl | None = None
    #: The player's name ("" none given: files are written without it), e.g. from an imported KIF, or
    #: the arena's label of the engine that played.
    name: str = ""

    @property
    def is_engine(self) -> bool:
        return self.kind == "engine"

    def label(self) -> str:
        if not self.is_engine:
            return "Human"
        if self.clock is not None:
            strength = self.clock.text()
        else:
            strength = f"depth {self.depth}" if self.depth else f"{(self.movetime or 0) / 1000:g} s"
        return f"Computer ({self.engine or 'default'}, {strength})"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.is_engine:
            d["engine"] = self.engine
            if self.depth:
                d["depth"] = self.depth
            else:
                d["movetime"] = self.movetime
        if self.clock is not None:
            d["clock"] = self.clock.to_json()
        if self.name:
            d["name"] = self.name
        return d

    @classmethod
    def from_json(cls, d: Any) -> PlayerSpec:
        if not isinstance(d, dict) or d.get("kind") not in ("human", "engine"):
            raise InvalidRecordError(f"player must be {{'kind': 'human'|'engine', ...}}, got {quote(d)}")
        depth = d.get("depth")
        movetime = d.get("movetime", None if depth else 1000)
        for name, v in (("depth", depth), ("movetime", movetime)):
            if v is not None and (not isinstance(v, int) or v <= 0):
                raise InvalidRecordError(f"player {name} must be a positive integer, got {quote(v)}")
        engine = d.get("engine", "")
        if not isinstance(engine, str):
            raise InvalidRecordError(f"player engine must be a string, got {quote(engine)}")
        clock = TimeControl.from_json(d["clock"]) if d.get("clock") is not None else None
        name = d.get("name", "")
        if not isinstance(name, str):
            raise InvalidRecordError(f"player name must be a string, got {quote(name)}")
        return cls(d["kind"], engine, movetime, depth, clock, name)


class Node:
    """One position of the record: the move that led to it and its continuations.

    ``children[0]`` is the main continuation; the others are variations.
    ``score`` is an engine's view of this position, always from player 0's view.
    ``clocks`` are the players' clocks when this position arose (``None`` for a player
    without a clock; ``None`` altogether when not recorded); ``timeout`` is the player
    whose time ran out in this position (the game ended there). ``spent`` is the time the
    move took, in ms (None: not known), as the clocks measured it or a file recorded it.
    """

    __slots__ = ("move", "parent", "children", "comment", "score", "id", "clocks", "timeout", "spent")

    def __init__(self, move: int | None = None, parent: Node | None = None) -> None:
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.comment = ""
        self.score: Score | None = None
        self.id = next(_ids)
        self.clocks: tuple[ClockValue | None, ...] | None = None
        self.timeout: int | None = None
        self.spent: int | None = None

    @property
    def ply(self) -> int:
        n, node = 0, self
        while node.parent is not None:
            n, node = n + 1, node.parent
        return n

    def path(self) -> list[Node]:
        """The nodes from the first move to this one (the root excluded)."""
        out: list[Node] = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def moves(self) -> list[int]:
        return [n.move for n in self.path()]  # type: ignore[misc]

    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True

    def __repr__(self) -> str:
        return f"<Node {self.id} move={self.move} ply={self.ply}>"


@dataclass
class GameRecord:
    """A game: the game spec, the start position, the move tree, players and metadata."""

    game: Game
    start_text: str | None = None  # None: the game's start position
    root: Node = field(default_factory=Node)
    players: list[PlayerSpec] = field(default_factory=list)
    metadata: dict[str, str] = field(default_factory=dict)
    #: How the game ended, when a referee says so: ``returns`` (one per player), ``result``
    #: (``"1-0"``...), ``reason``, ``adjudication`` (``{"seat", "kind", "detail"}`` or None).
    result: dict[str, Any] | None = None
    #: What a match knows of the game (the arena's round, opening, seed, limits, swap...).
    match: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.players:
            self.players = [PlayerSpec() for _ in range(self.game.num_players)]
        self._start = self._make_start()

    def _make_start(self) -> State:
        return self.game.new_state() if self.start_text is None else self.game.state_from_text(self.start_text)

    # -- clocks -----------------------------------------------------------------
    def controls(self) -> list[TimeControl | None]:
        """Each player's time control (None: no clock)."""
        return [p.clock for p in self.players]

    @property
    def has_clocks(self) -> bool:
        return any(p.clock is not None for p in self.players)

    def initial_clocks(self) -> tuple[ClockValue | None, ...]:
        return tuple(None if c is None else c.start() for c in self.controls())

    def clocks_at(self, node: Node) -> tuple[ClockValue | None, ...]:
        """The clocks when ``node``'s position arose: its own, else the nearest recorded above it."""
        n: Node | None = node
        while n is not None:
            if n.clocks is not None and len(n.clocks) == len(self.players):
                return n.clocks
            n = n.parent
        return self.initial_clocks()

    def timeout_text(self, node: Node) -> str | None:
        """``"O loses on time"`` when the game ended on time at ``node``."""
        if node.timeout is None:
            return None
        return f"{self.game.player_name(node.timeout)} loses on time"

    def start_state(self) -> State:
        """A fresh copy of the start position."""
        return self._start.copy()

    def state_at(self, node: Node) -> State:
        """The position at ``node`` (a new state)."""
        s = self.start_state()
        for m in node.moves():
            s.play(m)
        return s

    def add_move(self, parent: Node, move: int) -> Node:
        """The child of ``parent`` reached by ``move``: the existing one, or a new variation."""
        for child in parent.children:
            if child.move == move:
                return child
        child = Node(move, parent)
        parent.children.append(child)
        return child

    def mainline(self) -> list[Node]:
        """The root and every main continuation after it."""
        out, node = [self.root], self.root
        while node.children:
            node = node.children[0]
            out.append(node)
        return out

    def promote(self, node: Node) -> None:
        """Make the line through ``node`` the main line at every branching above it."""
        while node.parent is not None:
            sibs = node.parent.children
            sibs.remove(node)
            sibs.insert(0, node)
            node = node.parent

    def delete(self, node: Node) -> Node:
        """Remove ``node`` and everything after it; returns its parent."""
        if node.parent is None:
            raise ValueError("cannot delete the start position")
        node.parent.children.remove(node)
        return node.parent

    def nodes(self) -> Iterator[Node]:
        stack = [self.root]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children))

    def find(self, node_id: int) -> Node | None:
        return next((n for n in self.nodes() if n.id == node_id), None)

    # -- names, times and comments for other file formats ----------------------------------
    def info_at(self, node: Node) -> GameInfo:
        """The players' names, the moves' times, the comments and the metadata of the line to ``node``
        (for a game file of another format: ``gui/formats.py``)."""
        path = node.path()
        comments = {i + 1: n.comment for i, n in enumerate(path) if n.comment}
        if self.root.comment:
            comments[0] = self.root.comment
        meta = {k: v for k, v in self.metadata.items() if k not in INTERNAL_METADATA}
        return GameInfo(names=[p.name for p in self.players],
                        times=[None if n.spent is None else n.spent / 1000 for n in path],
                        comments=comments, metadata=meta, timeout=node.timeout)

    def apply_info(self, node: Node, info: GameInfo) -> None:
        """Put ``info`` (from a file of another format) on the line to ``node``: names, times, comments."""
        for p, player in enumerate(self.players):
            if info.name(p):
                player.name = info.name(p)
        self.metadata.update({k: str(v) for k, v in info.metadata.items()})
        path = node.path()
        for i, n in enumerate(path):
            t = info.time(i)
            n.spent = None if t is None else max(0, round(t * 1000))
        for i, text in info.comments.items():
            target = self.root if i == 0 else (path[i - 1] if 0 < i <= len(path) else None)
            if target is not None and text:
                target.comment = text
        if info.timeout is not None and 0 <= info.timeout < len(self.players):
            node.timeout = info.timeout

    # -- JSON -------------------------------------------------------------
    def to_json(self, current: Node | None = None) -> dict[str, Any]:
        """The record as a JSON-ready dict (see docs/game-json.md)."""
        start = self.start_state()

        def out_with(entries: list, first: Node, state: State) -> list[dict[str, Any]]:
            node: Node | None = first
            s = state.copy()
            while node is not None:
                assert node.move is not None
                entry: dict[str, Any] = {"move": s.format_move(node.move)}
                if node.score is not None:
                    entry["score"] = node.score.to_json()
                if node.comment:
                    entry["comment"] = node.comment
                if node.spent is not None:
                    entry["spent"] = node.spent
                entry.update(self._clock_json(node))
                sibs = node.parent.children if node.parent is not None else []
                if sibs and node is sibs[0] and len(sibs) > 1:
                    entry["variations"] = [out_with([], alt, s) for alt in sibs[1:]]
                entries.append(entry)
                s.play(node.move)
                node = node.children[0] if node.children else None
            return entries

        d: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.spec,
            "start": self.start_text,
            "players": [p.to_json() for p in self.players],
            "metadata": dict(self.metadata),
        }
        if self.root.score is not None:
            d["start_score"] = self.root.score.to_json()
        if self.root.comment:
            d["start_comment"] = self.root.comment
        if self.root.timeout is not None:
            d["start_result"] = self._clock_json(self.root)["result"]
        d["moves"] = out_with([], self.root.children[0], start) if self.root.children else []
        if self.result is not None:
            d["result"] = dict(self.result)
        if self.match:
            d["match"] = dict(self.match)
        if current is not None:
            d["current"] = current_path(current)
        return d

    def _clock_json(self, node: Node) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if node.clocks is not None:
            out["clock"] = [None if v is None else v.main for v in node.clocks]
            if any(v is not None and v.periods for v in node.clocks) or any(
                    c is not None and c.byoyomi for c in self.controls()):
                out["periods"] = [None if v is None else v.periods for v in node.clocks]
        if node.timeout is not None:
            out["result"] = {"reason": "time", "loser": node.timeout, "text": self.timeout_text(node)}
        return out

    def dumps(self, current: Node | None = None) -> str:
        return json.dumps(self.to_json(current), indent=1, ensure_ascii=False) + "\n"

    @staticmethod
    def game_of(d: Any) -> Game:
        """The game of a record dict, checking only its header (no move is read)."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise InvalidRecordError(f"not a gamesuite game file (format is not {FORMAT!r})")
        if d.get("version") not in READ_VERSIONS:
            raise InvalidRecordError(f"unsupported gamesuite game file version {quote(d.get('version'))}")
        try:
            return load_game(str(d.get("game", "")))
        except GameSuiteError as e:
            raise InvalidRecordError(f"bad game file: {e}") from None

    @classmethod
    def from_json(cls, d: Any) -> tuple[GameRecord, Node]:
        """Read a record dict; returns the record and the node to show. ``InvalidRecordError``."""
        game = cls.game_of(d)
        if "engines" in d and "players" not in d:
            d = from_arena_v1(d)
        try:
            start = d.get("start")
            if start is not None and not isinstance(start, str):
                raise InvalidRecordError(f"start must be position text or null, got {quote(start)}")
            players_raw = d.get("players") or []
            if not isinstance(players_raw, list):
                raise InvalidRecordError(f"players must be a list, got {quote(players_raw)}")
            players = [PlayerSpec.from_json(p) for p in players_raw]
            if players and len(players) != game.num_players:
                raise InvalidRecordError(f"{game.spec} has {game.num_players} players, the file lists {len(players)}")
            meta = d.get("metadata") or {}
            if not isinstance(meta, dict):
                raise InvalidRecordError(f"metadata must be an object, got {quote(meta)}")
            rec = cls(game, start, Node(), players, {str(k): str(v) for k, v in meta.items()})
            rec.result = _result_from_json(d.get("result"), game.num_players)
            match = d.get("match") or {}
            if not isinstance(match, dict):
                raise InvalidRecordError(f"match must be an object, got {quote(match)}")
            rec.match = dict(match)
            if "start_score" in d:
                rec.root.score = score_from_json(d["start_score"], game.num_players)
            if d.get("start_comment"):
                rec.root.comment = str(d["start_comment"])
            if "start_result" in d:
                rec.root.timeout = _timeout_from_json(d["start_result"], game.num_players)
            state = rec.start_state()
            _read_line(rec, rec.root, d.get("moves") or [], state)
        except InvalidRecordError:
            raise
        except GameSuiteError as e:
            raise InvalidRecordError(f"bad game file: {e}") from None
        node = rec.root
        path = d.get("current")
        for i in path if isinstance(path, list) else []:  # the node shown: a bad path shows the start
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(node.children):
                break
            node = node.children[i]
        return rec, node

    @classmethod
    def loads(cls, text: str) -> tuple[GameRecord, Node]:
        return cls.from_json(parse_json(text))


def parse_json(text: str) -> Any:
    """``json.loads`` raising ``InvalidRecordError`` for every failure (see ``core.files.parse_json_text``)."""
    return parse_json_text(text, "the game file")


def current_path(node: Node) -> list[int]:
    """Child indices from the root to ``node``."""
    return [n.parent.children.index(n) for n in node.path()]  # type: ignore[union-attr]


def _read_line(rec: GameRecord, parent: Node, entries: Any, state: State) -> None:
    if not isinstance(entries, list):
        raise InvalidRecordError(f"a line of moves must be a list, got {quote(entries)}")
    node = parent
    for k, e in enumerate(entries):
        if isinstance(e, str):
            e = {"move": e}  # a bare move text
        if not isinstance(e, dict) or not isinstance(e.get("move"), str):
            raise InvalidRecordError(f"a move entry must be {{'move': TEXT, ...}}, got {quote(e)}")
        # Variations are alternatives to this entry: they start from the same position.
        variations = e.get("variations") or []
        move = state.parse_move(e["move"])
        if not state.is_legal(move):
            raise InvalidRecordError(
                f"illegal move {quote(e['move'])} (move {k + 1} of a line) in position {quote(state.to_text())}"
            )
        child = rec.add_move(node, move)
        if "score" in e:
            child.score = score_from_json(e["score"], len(rec.players))
        if "comment" in e:
            child.comment = str(e["comment"])
        if e.get("spent") is not None:
            spent = e["spent"]
            if not isinstance(spent, int) or isinstance(spent, bool) or spent < 0:
                raise InvalidRecordError(f"spent must be a time in ms, got {quote(spent)}")
            child.spent = spent
        if e.get("clock") is not None:
            child.clocks = _clocks_from_json(e["clock"], e.get("periods"), len(rec.players))
        if "result" in e:
            child.timeout = _timeout_from_json(e["result"], len(rec.players))
        for alt in variations:
            _read_line(rec, node, alt, state.copy())
        state.play(move)
        node = child


def _result_from_json(d: Any, n: int) -> dict[str, Any] | None:
    """A record's ``result``: ``{"returns": [n values], "result": TEXT, "reason": TEXT, "adjudication"}``."""
    if d is None:
        return None
    if not isinstance(d, dict):
        raise InvalidRecordError(f"result must be an object, got {quote(d)}")
    returns = d.get("returns") or None  # an arena error record has none
    if returns is not None and (not isinstance(returns, list) or len(returns) != n or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and -1 <= v <= 1 for v in returns)):
        raise InvalidRecordError(f"result returns must be {n} numbers in [-1, 1], got {quote(returns)}")
    adj = d.get("adjudication")
    if adj is not None and (not isinstance(adj, dict) or not {"seat", "kind", "detail"} <= set(adj)):
        raise InvalidRecordError(f"an adjudication is {{'seat', 'kind', 'detail'}}, got {quote(adj)}")
    return {"returns": returns, "result": str(d.get("result", "")), "reason": str(d.get("reason", "")),
            "adjudication": adj}


#: The arena's version-1 fields that become the record's ``match`` data.
ARENA_MATCH_FIELDS = ("opening_plies", "engine_index", "round", "opening_index", "rotation", "seed", "time_control",
                      "limits", "plies", "duration_s", "swap", "error")


def from_arena_v1(d: dict[str, Any]) -> dict[str, Any]:
    """The arena's version-1 layout (``engines``, moves as strings, the result at the top) as version 2."""
    engines = d.get("engines")
    if not isinstance(engines, list) or not all(isinstance(e, str) for e in engines):
        raise InvalidRecordError(f"record engines must be a list of names, got {quote(engines)}")
    out: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": d.get("game"), "start": d.get("start") or None,
        "players": [{"kind": "engine", "engine": "", "name": e} for e in engines],
        "metadata": {"date": str(d["date"])} if d.get("date") else {},
        "moves": d.get("moves") or [],
        "result": {k: d.get(k) for k in ("returns", "result", "reason", "adjudication")},
        "match": {k: d[k] for k in ARENA_MATCH_FIELDS if k in d and d[k] not in (None, "")},
    }
    return out


def _clocks_from_json(clock: Any, periods: Any, n: int) -> tuple[ClockValue | None, ...]:
    """A move entry's ``clock`` (main ms per player) and ``periods`` (byoyomi periods per player)."""
    def ok(v: Any) -> bool:
        return v is None or isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if not isinstance(clock, list) or len(clock) != n or not all(ok(v) for v in clock):
        raise InvalidRecordError(f"clock must be a list of {n} times in ms (or null), got {quote(clock)}")
    if periods is None:
        periods = [None if v is None else 0 for v in clock]
    if not isinstance(periods, list) or len(periods) != n or not all(ok(v) for v in periods):
        raise InvalidRecordError(f"periods must be a list of {n} counts (or null), got {quote(periods)}")
    return tuple(None if v is None else ClockValue(v, p or 0) for v, p in zip(clock, periods))


def _timeout_from_json(d: Any, n: int) -> int:
    """A ``result`` object: only ``{"reason": "time", "loser": PLAYER}`` is recorded (for now)."""
    if not isinstance(d, dict) or d.get("reason") != "time":
        raise InvalidRecordError(f"result must be {{'reason': 'time', 'loser': PLAYER}}, got {quote(d)}")
    loser = d.get("loser")
    if not isinstance(loser, int) or isinstance(loser, bool) or not 0 <= loser < n:
        raise InvalidRecordError(f"result loser must be a player from 0 to {n - 1}, got {quote(loser)}")
    return loser


#: The largest score value a file may hold (evaluations are centi-units, mates plies).
MAX_SCORE = 1e12


def _score_number(v: Any, whole: bool = False) -> float:
    """A JSON number that a score may hold: finite, within ``MAX_SCORE``, whole for mates."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not abs(v) <= MAX_SCORE:
        raise ValueError(v)  # NaN fails the comparison too
    if whole and v != int(v):
        raise ValueError(v)
    return int(v) if whole else v


def score_from_json(d: Any, players: int = 64) -> Score:
    """The inverse of ``Score.to_json``; ``InvalidRecordError`` on a malformed score (an unknown kind, a
    value that is not a finite number such as ``1e999`` or ``"abc"``, a bad ``pov``)."""
    try:
        if not isinstance(d, dict):
            raise TypeError(d)
        kind = d["kind"]
        if kind == "vector":
            values = d["values"]
            if not isinstance(values, list) or not 1 <= len(values) <= players:
                raise ValueError(values)
            return Score.vector([float(_score_number(v)) for v in values])
        if kind not in ("eval", "mate", "draw", "winrate"):
            raise KeyError(kind)
        value = _score_number(d.get("value", 0), whole=kind == "mate")
        if kind == "winrate" and not 0 <= value <= 1:
            raise ValueError(value)
        pov = d.get("pov", 0)
        if isinstance(pov, bool) or not isinstance(pov, int) or not 0 <= pov < players:
            raise ValueError(pov)
        return Score(kind, value, pov)
    except (KeyError, TypeError, ValueError):
        raise InvalidRecordError(f"malformed score {quote(d)}") from None
