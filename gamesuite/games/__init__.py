"""One package per game; each registers itself with ``gamesuite.core.registry``."""
