"""Matches between engines, ratings, tournaments.

- ``spec``: engine specs (ours, ``usi:``, ``gomocup:``, ``py:``);
- ``players`` / ``external``: our engines in a thread, external programs over USI and Gomocup;
- ``game``: the referee of one game (``MatchLimits``, ``GameTask``, ``play_game``, ``run_task``);
- ``openings``, ``boards``: opening sets, and what the arena learns about board games;
- ``match``: pairings, the schedule, executors (serial, processes), the tally;
- ``cluster``: the Dask executor (optional extra ``gamesuite[cluster]``);
- ``stats``: score/Elo intervals, LOS, pentanomial pairs, the trinomial GSPRT;
- ``record``: JSON game records; ``report``: tables; ``session``: a whole match or tournament;
- ``ladder``: an engine against a node-limited ladder of an anchor; ``spsa``: tuning engine options
  by SPSA through the arena; ``positions``: training positions (with results) from saved records.

See docs/arena.md.
"""
