"""Benchmarks for ``gamesuite bench NAME``: one module per name with ``main(argv)``."""
