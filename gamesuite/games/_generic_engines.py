"""Engines that play every game, registered when the games are discovered.

(The registry imports every module of ``gamesuite.games``; this one brings in
the game-independent engines of ``gamesuite.search``.)
"""

from ..search import (
    mcts,  # noqa: F401  (registers "mcts" and "puct")
    reference,  # noqa: F401  (registers "reference")
)
