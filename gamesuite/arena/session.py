"""A whole match or tournament: openings, the schedule, the executor, saving, SPRT stop.

The command line (``gamesuite match`` / ``gamesuite tournament``) is a thin
front end over ``run_session``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.errors import InvalidOptionError
from ..core.files import write_atomic
from ..core.registry import Game, load_game
from .game import MatchLimits, check_limits
from .match import Tally, check_specs, make_executor, pairings_for, run_games, schedule
from .openings import Opening, builtin_openings
from .record import GameRecord, save_record
from .report import tally_json
from .spec import EngineSpec, parse_engine_spec, unique_labels
from .stats import Sprt


@dataclass
class Session:
    """What to play: the game, the engines, how many games, how fast, where."""

    game: Game
    engines: list[EngineSpec]
    games: int
    tc: MatchLimits
    mode: str = "match"  # or "tournament" (round robin; ``games`` per pairing)
    openings: list[Opening] | None = None  # None: the built-in set
    seed: int = 0
    concurrency: int = 1
    cluster: str | None = None
    sprt: Sprt | None = None
    save_dir: Path | None = None
    max_plies: int = 0
    check: bool = True  # build every engine once before starting, for early errors
    pairings: list[tuple[int, ...]] | None = None  # None: from ``mode``; a ladder gives its own
    by_pairing: bool = False  # play each pairing's games together (else opening by opening)
    exclusive: bool = False  # each game releases the worker's other engines (``GameTask.exclusive``)
    swap_rule: str = ""  # "swap1"/"swap2": the engines negotiate every opening (``arena.swap``)
    #: Start every engine afresh for every game (``GameTask.reuse_engines`` off): nothing (a hash table,
    #: learned state) carries from one game to the next, so node-limited games replay at any concurrency.
    fresh_engines: bool = False

    @classmethod
    def from_texts(cls, game_spec: str, engine_texts: list[str], **kw: object) -> Session:
        game = load_game(game_spec)
        engines = unique_labels([parse_engine_spec(t, game.name) for t in engine_texts])
        return cls(game, engines, **kw)  # type: ignore[arg-type]


@dataclass
class Outcome:
    """What happened: every record (in finishing order), the tally, and whether SPRT stopped it."""

    records: list[GameRecord]
    tally: Tally
    planned: int
    sprt_decision: str | None = None
    stopped_early: bool = False
    files: list[Path] = field(default_factory=list)


def plan(session: Session) -> list:
    """The games of ``session`` (``GameTask`` list), openings built or read."""
    pairings = session.pairings or pairings_for(len(session.engines), session.game.num_players, session.mode)
    rotations = max(len(p) for p in pairings)
    needed = -(-session.games // rotations)
    if session.swap_rule:
        from .swap import check_rule

        check_rule(session.game, session.swap_rule)
        if session.openings is not None:
            raise InvalidOptionError(f"under {session.swap_rule} the engines make the openings: no --openings")
        openings = [Opening()] * needed  # the proposer's role rotates like the colours would
    else:
        openings = session.openings if session.openings is not None else builtin_openings(
            session.game, needed, seed=session.seed)
    tasks = schedule(session.game, session.engines, session.games, openings, session.tc, pairings,
                     seed=session.seed, max_plies=session.max_plies)
    if session.by_pairing:
        order = {frozenset(p): i for i, p in enumerate(pairings)}
        tasks.sort(key=lambda t: order[frozenset(t.engine_index)])  # stable: openings stay in order
    if session.by_pairing or session.exclusive or session.swap_rule:
        tasks = [replace(t, round=i + 1, exclusive=session.exclusive, swap_rule=session.swap_rule)
                 for i, t in enumerate(tasks)]
    if session.fresh_engines:
        tasks = [replace(t, reuse_engines=False) for t in tasks]
    return tasks


def run_session(session: Session, on_progress: Callable[[Tally, GameRecord, int, int], None] | None = None
                ) -> Outcome:
    """Play the session; records are saved as they finish; SPRT (two engines) may stop it early."""
    if session.sprt is not None and len(session.engines) != 2:
        raise InvalidOptionError("--sprt needs exactly two engines")
    check_limits(session.tc, session.engines)
    if session.swap_rule:
        from .swap import check_rule

        check_rule(session.game, session.swap_rule)
    if session.check:
        check_specs(session.game, session.engines)
    tasks = plan(session)
    tally = Tally([e.label for e in session.engines])
    files: list[Path] = []
    state: dict[str, object] = {"decision": None}
    done = 0

    def on_record(rec: GameRecord) -> None:
        nonlocal done
        done += 1
        tally.add(rec)
        if session.save_dir is not None:
            files.append(save_record(rec, session.save_dir))
        if session.sprt is not None:
            w, d, l = tally.wdl[0][1]
            state["decision"] = session.sprt.decision(w, d, l)
        if on_progress is not None:
            on_progress(tally, rec, done, len(tasks))

    executor = make_executor(session.concurrency, session.cluster)
    try:
        records = run_games(tasks, executor, on_record, lambda: state["decision"] is not None)
    finally:
        executor.close()
    outcome = Outcome(records, tally, len(tasks), state["decision"],  # type: ignore[arg-type]
                      stopped_early=len(records) < len(tasks), files=files)
    if session.save_dir is not None:
        summary = {
            **tally_json(tally),
            "game": session.game.spec, "mode": session.mode, "time_control": session.tc.describe(),
            "opening_rule": session.swap_rule or None,
            # (this replaces tally_json's list of labels: each engine's label, spec and limits)
            "engines": [{"label": e.label, "spec": e.text, "limits": session.tc.for_engine(e).describe()}
                        for e in session.engines],
            "games_planned": len(tasks), "games_played": len(records), "seed": session.seed,
            "sprt": None if session.sprt is None else {
                "elo0": session.sprt.elo0, "elo1": session.sprt.elo1, "alpha": session.sprt.alpha,
                "beta": session.sprt.beta, "decision": outcome.sprt_decision},
        }
        p = Path(session.save_dir) / f"{session.mode}.json"
        write_atomic(p, json.dumps(summary, indent=1) + "\n")
        files.append(p)
    return outcome
