from gamesuite.cli import entry_point

entry_point()
