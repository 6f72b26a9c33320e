"""Studies: positions with the move a good player makes and why, shipped with the program.

``studies.toml`` beside this module holds them (``[[study]]`` tables with ``name``,
``game``, ``position``, ``best``: the good moves, ``avoid``: tempting moves that are
wrong, ``why``, ``turns``: the horizon the answer was checked to, ``tags``). ``gamesuite tune hare``
scores weight sets by how many studies the engine solves, and the tests assert the engine's move in each.

``finish_chances`` is the checker the answers were verified with: for every move of
the player to move, the probability of finishing within a number of its own turns when
every other player moves against it and the hare cards come as the deck says.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from ...core.errors import InvalidPositionError, quote
from ...core.registry import load_game
from .rules import HareState

STUDIES_FILE = "studies.toml"


@dataclass(frozen=True)
class MoveStudy:
    """A position, the moves a good player makes there (any of ``best``), tempting wrong ones, and why."""

    name: str
    state: HareState
    best: tuple[int, ...]
    avoid: tuple[int, ...]
    why: str
    tags: tuple[str, ...] = ()
    turns: int = 0  # the horizon of the check: own turns within which ``best`` finish soonest (0: not given)

    @property
    def players(self) -> int:
        return self.state.game.n

    def solved_by(self, move: int | None) -> bool:
        return move in self.best


def parse_studies(text: str, source: str = "studies") -> list[MoveStudy]:
    """Studies from TOML text (``[[study]]`` tables); every position and move is checked."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InvalidPositionError(f"{source}: not valid TOML: {e}") from None
    out: list[MoveStudy] = []
    names: set[str] = set()
    for i, d in enumerate(data.get("study", []), 1):
        where = f"{source}: study {i}"
        try:
            name, spec, position, _ = d["name"], d["game"], d["position"], d["best"]
        except (KeyError, TypeError):
            raise InvalidPositionError(f"{where} needs name, game, position and best") from None
        if name in names:
            raise InvalidPositionError(f"{where}: the name {quote(name)} is used twice")
        names.add(name)
        where = f"{source}: study {quote(name)}"
        try:
            game = load_game(spec)
            state = game.state_from_text(position)
        except Exception as e:  # noqa: BLE001 - any fault of the file is reported with its place
            raise InvalidPositionError(f"{where}: {e}") from None
        if not isinstance(state, HareState) or not state.legal_moves():
            raise InvalidPositionError(f"{where}: a Hare and Hedgehog position with a player to move is needed")

        b, a = _study_moves(d, "best", state, where, position), _study_moves(d, "avoid", state, where, position)
        if not b or set(b) & set(a):
            raise InvalidPositionError(f"{where}: best must name at least one move and none of avoid")
        tags = d.get("tags", [])
        turns = d.get("turns", 0)
        if not isinstance(turns, int) or isinstance(turns, bool) or not 0 <= turns <= 6:
            raise InvalidPositionError(f"{where}: turns must be a number of turns 0..6, got {quote(turns)}")
        out.append(MoveStudy(name, state, b, a, str(d.get("why", "")).strip(),
                             tuple(tags.split() if isinstance(tags, str) else tags), turns))
    if not out:
        raise InvalidPositionError(f"{source}: no [[study]] found")
    return out


def _study_moves(d: dict, field: str, state: HareState, where: str, position: str) -> tuple[int, ...]:
    """The moves a study lists under ``field`` (a list or a space-separated text), each checked legal."""
    raw = d.get(field, [])
    if isinstance(raw, str):
        raw = raw.split()
    got = []
    for text in raw:
        try:
            m = state.parse_move(str(text))
        except Exception as e:  # noqa: BLE001 - any fault of the file is reported with its place
            raise InvalidPositionError(f"{where}: {field} {quote(text)}: {e}") from None
        if m not in state.legal_moves():
            raise InvalidPositionError(f"{where}: {field} {quote(text)} is not legal in {quote(position)}")
        got.append(m)
    return tuple(got)


def load_studies(path: str | None = None) -> list[MoveStudy]:
    """The shipped studies, or those of the TOML file ``path``."""
    if path is None:
        text = resources.files(__package__).joinpath(STUDIES_FILE).read_text(encoding="utf-8")
        return parse_studies(text, STUDIES_FILE)
    with open(path, encoding="utf-8") as f:
        return parse_studies(f.read(), path)


# -- the checker -------------------------------------------------------------------

class _Budget(Exception):
    pass


def finish_chances(state: HareState, turns: int, moves: Iterable[int] | None = None, others: str = "against",
                   max_nodes: int = 2_000_000) -> dict[int, float]:
    """For each move of the player to move: the probability that it finishes within ``turns`` of its own
    moves (this one included), when every other player moves to stop it (``others="against"``) or to
    help it (``"for"``: what the move can hope for at best), the cards coming by their probabilities.
    Exhaustive (with a node cap: ``RuntimeError`` past ``max_nodes``)."""
    if others not in ("against", "for"):
        raise ValueError(f"others must be 'against' or 'for', got {others!r}")
    helping = others == "for"
    me = state.current_player
    if me < 0:
        raise InvalidPositionError(f"no player to move in {quote(state.to_text())}")
    memo: dict[tuple, float] = {}
    count = [0]

    def value(s: HareState, k: int) -> float:
        if s.place[me]:
            return 1.0
        if s.is_terminal() or k <= 0:
            return 0.0
        key = (s._tuple(), k)
        got = memo.get(key)
        if got is not None:
            return got
        count[0] += 1
        if count[0] > max_nodes:
            raise _Budget
        if s.is_chance_node():
            v = 0.0
            for card, p in s.chance_outcomes():
                s.play(card)
                v += p * value(s, k)
                s.undo()
        elif s.current_player == me:
            v = 0.0
            for m in s.legal_moves():
                s.play(m)
                x = value(s, k - 1)
                s.undo()
                if x > v:
                    v = x
                    if v >= 1.0:
                        break
        elif helping:
            v = 0.0
            for m in s.legal_moves():
                s.play(m)
                x = value(s, k)
                s.undo()
                if x > v:
                    v = x
                    if v >= 1.0:
                        break
        else:
            v = 1.0
            for m in s.legal_moves():
                s.play(m)
                x = value(s, k)
                s.undo()
                if x < v:
                    v = x
                    if v <= 0.0:
                        break
        memo[key] = v
        return v

    s = state.copy()
    out = {}
    try:
        for m in (state.legal_moves() if moves is None else moves):
            s.play(m)
            out[m] = value(s, turns - 1)
            s.undo()
    except _Budget:
        raise RuntimeError(f"finish_chances: more than {max_nodes} positions") from None
    return out


def check_study(study: MoveStudy, max_nodes: int = 2_000_000) -> list[str]:
    """What is wrong with the claims of ``study`` (empty: nothing), by ``finish_chances`` to ``study.turns``:
    every best move has the highest chance of finishing within that many turns against any play of the
    others, the same for all of them; every avoid move has a lower chance even when the others help."""
    if study.turns <= 0:
        return [f"{study.name}: no turns given to check"]
    s = study.state
    against = finish_chances(s, study.turns, max_nodes=max_nodes)
    top = max(against.values())
    problems = []
    if top <= 0:
        problems.append(f"{study.name}: no move finishes within {study.turns} turns")
    for m in study.best:
        if against[m] < top - 1e-9:
            problems.append(f"{study.name}: best {s.format_move(m)} finishes with {against[m]:.3f} "
                            f"< {top:.3f} within {study.turns}")
    if study.avoid:
        helped = finish_chances(s, study.turns, moves=study.avoid, others="for", max_nodes=max_nodes)
        for m in study.avoid:
            if helped[m] >= top - 1e-9:
                problems.append(f"{study.name}: avoid {s.format_move(m)} finishes with {helped[m]:.3f} "
                                f">= {top:.3f} when helped")
    return problems
