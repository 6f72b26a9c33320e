"""gamesuite: play and analyse board games against a strong computer opponent."""

__version__ = "0.1.0"
