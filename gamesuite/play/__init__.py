"""Playing a game, below the window and the arena: time controls and clocks, a game in progress, records.

- ``clock``: one ``TimeControl`` (sudden death, increment, byoyomi) and what a clock reads;
- ``session``: ``PlaySession``, a game in progress: turns, clocks, flag fall, adjudication, move-now.

Nothing here imports Qt; the window (``gui``) and the referee of the arena (``arena.game``) both play
their games through these.
"""
