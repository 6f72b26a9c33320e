"""One suite over every registered game: the State API's invariants under random play.

A game joins by being registered; its ``test_specs`` add parameter sets.
"""

import random

import pytest

from gamesuite.core import game_classes, load_game

SPECS = [spec for name, cls in game_classes().items() for spec in (name, *cls.test_specs)]
GAMES_PER_SPEC = 12
MAX_PLIES = 400


def _check_state(state, game):
    legal = state.legal_moves()
    if state.is_terminal():
        assert legal == []
        r = state.returns()
        assert len(r) == game.num_players and all(-1.0 <= v <= 1.0 for v in r)
        return
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node needs outcomes"
        assert [m for m, _ in outcomes] == sorted({m for m, _ in outcomes})
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        return
    assert legal, "a non-terminal state needs legal moves"
    assert legal == sorted(set(legal)), "legal moves must be sorted and unique"
    assert 0 <= state.current_player < game.num_players
    for m in legal:
        assert state.parse_move(state.format_move(m)) == m


def _round_trip(state, game):
    again = game.state_from_text(state.to_text())
    assert again.to_text() == state.to_text()
    assert again.key == state.key
    assert again.current_player == state.current_player
    assert again.is_terminal() == state.is_terminal()
    assert again.legal_moves() == state.legal_moves()


def _canonical(state):
    canon = getattr(state, "canonical_text", None)
    return canon() if callable(canon) else state.to_text()


@pytest.mark.parametrize("spec", SPECS)
def test_random_games_keep_the_invariants(spec):
    game = load_game(spec)
    rng = random.Random(spec)
    keys: dict[str, int] = {}
    for _ in range(GAMES_PER_SPEC):
        state = game.new_state()
        trail = []
        for _ply in range(MAX_PLIES):
            _check_state(state, game)
            _round_trip(state, game)
            keys.setdefault(_canonical(state), state.key)
            assert keys[_canonical(state)] == state.key, "equal positions need equal keys"
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                move = rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                move = rng.choice(state.legal_moves())
            before = (state.to_text(), state.key, state.legal_moves())
            clone = state.copy()
            clone.play(move)
            assert (state.to_text(), state.key) == before[:2], "copy must be independent"
            state.play(move)
            assert state.key == clone.key and state.to_text() == clone.to_text()
            state.undo()
            assert (state.to_text(), state.key, state.legal_moves()) == before, "undo must restore"
            state.play(move)
            trail.append(before)
        # undo all the way back
        for text, key, _legal in reversed(trail):
            state.undo()
            assert (state.to_text(), state.key) == (text, key)
        assert len(state.history) == 0
