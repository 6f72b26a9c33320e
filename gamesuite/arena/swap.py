"""Swap openings for gomoku-like games: swap1 and swap2, the rules and an engine's decisions.

The first player's edge in gomoku is large, so tournaments let the players
negotiate the opening (the Gomocup ``SWAP2BOARD`` protocol, Rapfi's and
Yixin-Board's ``INFO rule`` 5 and 6):

- The *proposer* places three stones: black, white, black.
- The *chooser* answers ``swap`` (takes black; the proposer, now white, plays
  the 4th stone), or one stone (stays white, plays the 4th; the proposer is
  black), or — in **swap2** only — two stones (a white 4th and a black 5th),
  handing the choice back.
- After two more stones the proposer answers ``swap`` (takes black; the chooser
  plays white's 6th) or one stone (takes white and plays the 6th).

Every answer is a list of moves or ``SWAP``; ``options`` says which are
allowed and ``check_answer`` checks one against the rules. The game proper
then goes on from the stones placed; whoever ended up with black is player 0.
Swap openings are for freestyle and standard gomoku (renju has openings of
its own) and any other two-player placement game.

The decisions of an engine of ours (``propose``, ``choose``): the proposer
draws a few random openings near the centre and keeps the one the engine's
search finds nearest to even (so that neither colour is worth taking); the
chooser searches the position (white to move) and takes the side the search
prefers: ``swap`` when black is ahead, else white with the search's best
move. It never hands the choice back with two stones: an engine that can
judge the position does at least as well (by its own judgement) choosing
itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameSuiteError, InvalidMoveError, InvalidOptionError, InvalidRecordError, quote
from ..core.limits import Limits
from ..core.registry import Game
from ..core.state import State
from .boards import is_placement_game

SWAP_RULES = ("swap1", "swap2")
SWAP = "swap"
#: ``INFO rule`` values of swap openings as Rapfi and Yixin-Board read them (freestyle underneath).
GOMOCUP_RULES = {"swap1": 5, "swap2": 6}


def check_rule(game: Game, rule: str) -> None:
    """``InvalidOptionError`` unless ``rule`` is a swap rule that ``game`` can be opened with."""
    if rule not in SWAP_RULES:
        raise InvalidOptionError(f"unknown opening rule {quote(rule)}; opening rules: {', '.join(SWAP_RULES)}")
    if not is_placement_game(game):
        raise InvalidOptionError(f"{rule} openings need a two-player placement game (gomoku), not {game.spec}")
    if str(getattr(game, "values", {}).get("rule", "")).lower() == "renju":
        raise InvalidOptionError(f"{rule} openings are for freestyle and standard gomoku; renju has its own")


def options(rule: str, stones: int) -> tuple[str, ...]:
    """What an answer may be with ``stones`` on the board: ``"3"`` stones, ``"swap"``, ``"1"`` or ``"2"`` stones."""
    if stones == 0:
        return ("3",)
    if stones == 3:
        return (SWAP, "1", "2") if rule == "swap2" else (SWAP, "1")
    if stones == 5 and rule == "swap2":
        return (SWAP, "1")
    raise InvalidOptionError(f"no {rule} decision is made with {stones} stones on the board")


def check_answer(state: State, rule: str, answer: str | list[int]) -> str | list[int]:
    """``answer`` checked against the rules in ``state`` (the stones so far); ``InvalidMoveError`` if wrong."""
    stones = len(state.history)
    allowed = options(rule, stones)
    if answer == SWAP:
        if SWAP not in allowed:
            raise InvalidMoveError(f"{rule}: no swap with {stones} stones on the board")
        return SWAP
    if not isinstance(answer, list) or str(len(answer)) not in allowed:
        n = len(answer) if isinstance(answer, list) else answer
        raise InvalidMoveError(f"{rule}: with {stones} stones on the board the answer is "
                               f"{' or '.join(a if a == SWAP else a + ' stone(s)' for a in allowed)}, not {n!r}")
    s = state.copy()
    for m in answer:
        if s.is_terminal() or not s.is_legal(m):
            try:
                text = s.format_move(m)
            except Exception:  # noqa: BLE001 - a number that is no move
                text = str(m)
            raise InvalidMoveError(f"{rule}: stone {quote(text)} cannot be placed in {quote(s.to_text())}")
        s.play(m)
    return list(answer)


def answer_text(state: State, answer: str | list[int]) -> str:
    """An answer in the game's notation (``swap`` or ``h8 g7 h6``)."""
    return answer if isinstance(answer, str) else " ".join(state.format_line(answer))


# -- an engine's decisions --------------------------------------------------------


def share(limits: Limits, parts: int, player: int) -> Limits:
    """A ``parts``-th of ``limits`` for one of several searches (a clock becomes a move time)."""
    parts = max(1, parts)
    movetime = limits.movetime
    if limits.time_left is not None and movetime is None:
        movetime = max(1, limits.time_left[player] // 30)
    return Limits(movetime=None if movetime is None else max(1, movetime // parts),
                  nodes=None if limits.nodes is None else max(1, limits.nodes // parts),
                  depth=limits.depth)


def _value(engine: Any, state: State, limits: Limits, stop: Any = None) -> tuple[float, int | None]:
    """The search's score of ``state`` for the player to move, and its best move."""
    if hasattr(engine, "new_game"):
        engine.new_game()
    result = engine.search(state.copy(), limits, stop, None)
    score = result.score.for_player(state.current_player)
    return score.sort_key(), result.best_move


def propose(engine: Any, state: State, limits: Limits, rng: random.Random, candidates: int = 4,
            stop: Any = None) -> list[int]:
    """Three stones (black, white, black) near the centre that the engine finds nearest to even."""
    from .openings import _centre

    centre = _centre(state.game)
    per = share(limits, candidates, state.current_player)
    best: tuple[float, list[int]] | None = None
    seen: set[int] = set()
    for _ in range(20 * candidates):
        if len(seen) >= candidates:
            break
        s = state.copy()
        moves: list[int] = []
        for _ in range(3):
            legal = s.legal_moves()
            near = [m for m in legal if centre is None or m in centre] or legal
            m = rng.choice(near)
            moves.append(m)
            s.play(m)
        if s.is_terminal() or s.key in seen:
            continue
        seen.add(s.key)
        value, _ = _value(engine, s, per, stop)
        if best is None or abs(value) < best[0]:
            best = (abs(value), moves)
    if best is None:
        raise InvalidMoveError(f"no three-stone opening can be placed in {quote(state.to_text())}")
    return best[1]


def choose(engine: Any, state: State, rule: str, limits: Limits, stop: Any = None) -> str | list[int]:
    """``SWAP`` (take black) when the search finds black ahead; else stay white with its best move."""
    options(rule, len(state.history))  # a decision is due here
    value, move = _value(engine, state, limits, stop)
    if value < 0 or move is None:
        return SWAP
    return [int(move)]


def decide(engine: Any, state: State, rule: str, limits: Limits, rng: random.Random,
           stop: Any = None) -> str | list[int]:
    """The engine's answer with ``state``'s stones on the board (0: propose, 3 or 5: choose)."""
    if not state.history:
        return propose(engine, state, limits, rng, stop=stop)
    return choose(engine, state, rule, limits, stop)


@dataclass
class SwapStep:
    """One answer of the negotiation."""

    role: int  # 0 the proposer, 1 the chooser
    stones: int  # stones on the board when it was asked
    answer: str | list[int]


def roles_after(steps: list[SwapStep]) -> tuple[int, int]:
    """``(black, white)``: which role plays which colour after the negotiation."""
    black = 0
    for st in steps:
        if st.answer == SWAP:
            black = st.role
        elif st.stones in (3, 5) and len(st.answer) == 1:
            black = 1 - st.role
    return black, 1 - black


def finished(steps: list[SwapStep]) -> bool:
    """True when the negotiation is over (a swap, or one stone after 3 or 5)."""
    if not steps:
        return False
    last = steps[-1]
    return last.stones > 0 and (last.answer == SWAP or len(last.answer) == 1)


def next_role(steps: list[SwapStep]) -> int:
    """Who answers next: the proposer first, then in turn."""
    return len(steps) % 2


# -- a negotiation in progress (the window, a record read back) ---------------------------


def stones_after(steps: list[SwapStep]) -> int:
    """How many stones the answers in ``steps`` placed (the opening's plies once it is finished)."""
    return sum(len(st.answer) for st in steps if not isinstance(st.answer, str))


@dataclass
class Due:
    """What the negotiation waits for with ``steps`` answered and ``stones`` on the board.

    ``role`` answers (0 the proposer, 1 the chooser); it was asked with ``at`` stones on the
    board and may answer one of ``allowed`` (``options``); ``placed`` stones of its answer are
    on the board already, and ``want`` is how many its answer has when that is settled (3 on the
    empty board; 2 once the first of two stones is down after 3), else None (a choice is due).
    """

    role: int
    at: int
    allowed: tuple[str, ...]
    placed: int
    want: int | None

    @property
    def choosing(self) -> bool:
        """A choice is due: ``swap`` or stones (nothing of the answer is on the board yet)."""
        return self.want is None


def due(rule: str, steps: list[SwapStep], stones: int) -> Due | None:
    """What is due now (None when the negotiation is over); ``InvalidMoveError`` when ``stones``
    cannot follow ``steps`` (fewer stones than the answers placed, or more than the answer due)."""
    if finished(steps):
        return None
    at = stones_after(steps)
    placed = stones - at
    allowed = options(rule, at)
    if placed < 0 or placed >= max(int(a) for a in allowed if a != SWAP):
        raise InvalidMoveError(f"{rule}: {stones} stones on the board, but the answers so far placed {at}")
    want = 3 if at == 0 else (2 if placed > 0 else None)
    return Due(next_role(steps), at, allowed, placed, want)


def answer_due(rule: str, steps: list[SwapStep], stones: int, two: bool = False) -> int | None:
    """How many stones the answer being placed has once ``stones`` are on the board: 3 on the
    empty board; after 3 stones 1 (stay) or, with ``two`` or once one of them is down, 2; None
    when the negotiation is over."""
    d = due(rule, steps, stones)
    if d is None:
        return None
    if d.want is not None:
        return d.want
    return 2 if two and "2" in d.allowed else 1


def log(rule: str, steps: list[SwapStep], start: State, moves: list[int],
        labels: tuple[str, str] = ("proposer", "chooser")) -> dict[str, Any]:
    """The negotiation as the arena records it (a game record's ``match["swap"]``): ``rule``,
    ``proposer``, ``steps`` (``by``, ``stones``, ``answer`` in the game's notation) and, once it is
    over, ``black`` (the label of the role that took black); ``moves`` are the game's stones."""
    out = []
    for st in steps:
        s = start.copy()
        for m in moves[:st.stones]:
            s.play(m)
        out.append({"by": labels[st.role], "stones": st.stones, "answer": answer_text(s, st.answer)})
    d: dict[str, Any] = {"rule": rule, "proposer": labels[0], "steps": out}
    if finished(steps):
        d["black"] = labels[roles_after(steps)[0]]
    return d


def steps_from_log(d: Any, start: State, moves: list[int]) -> tuple[str, list[SwapStep]]:
    """The rule and the steps of a recorded negotiation (``log``'s dict, or the arena's), checked
    against the rules and against the game's stones ``moves``; ``InvalidRecordError`` if wrong.

    The roles answer in turn (the proposer first), whatever the labels say: two players of the
    same name (two humans) read back the same."""
    if not isinstance(d, dict) or not isinstance(d.get("steps", []), list):
        raise InvalidRecordError(f"swap must be {{'rule': ..., 'steps': [...]}}, got {quote(d)}")
    rule = d.get("rule")
    if rule not in SWAP_RULES:
        raise InvalidRecordError(f"swap rule must be one of {', '.join(SWAP_RULES)}, got {quote(rule)}")
    steps: list[SwapStep] = []
    for i, e in enumerate(d.get("steps", [])):
        if finished(steps):
            raise InvalidRecordError(f"swap step {i + 1} comes after the negotiation was over")
        if not isinstance(e, dict) or not isinstance(e.get("answer"), str):
            raise InvalidRecordError(f"swap step {i + 1} must be {{'answer': TEXT, ...}}, got {quote(e)}")
        at = stones_after(steps)
        if e.get("stones", at) != at:
            raise InvalidRecordError(f"swap step {i + 1} was answered with {quote(e.get('stones'))} stones "
                                     f"on the board, but the answers before it placed {at}")
        s = start.copy()
        for m in moves[:at]:
            s.play(m)
        text = e["answer"].strip()
        try:
            answer: str | list[int] = SWAP if text.lower() == SWAP else _parse_stones(s, text)
            answer = check_answer(s, rule, answer)
        except GameSuiteError as err:
            raise InvalidRecordError(f"swap step {i + 1} ({quote(text)}): {err}") from err
        if isinstance(answer, list) and answer != moves[at:at + len(answer)]:
            raise InvalidRecordError(f"swap step {i + 1} ({quote(text)}) does not match the game's stones")
        steps.append(SwapStep(i % 2, at, answer))
    if len(moves) < stones_after(steps):
        raise InvalidRecordError("the game has fewer stones than its swap opening placed")
    return rule, steps


def _parse_stones(state: State, text: str) -> list[int]:
    """``"h8 g7 h6"``: stones played one after another from ``state``."""
    s = state.copy()
    out = []
    for word in text.split():
        m = s.parse_move(word)
        out.append(m)
        if s.is_legal(m):
            s.play(m)
    return out
