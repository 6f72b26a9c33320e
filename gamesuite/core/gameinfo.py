"""What a game file says about a game besides its moves: who played, how long each move took, comments.

Game packages read and write it with their file formats (KIF, CSA, gomoku records,
``.psq``: ``FILE_FORMATS`` in a game's ``records`` module), and the window fills it
from its game record, so an exported file keeps the players' names, the times and
the comments, and an imported one gives them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class GameInfo:
    """The players' names, each move's time and the comments of one line of a game.

    ``names[p]`` is player ``p``'s name ("" unknown); ``times[i]`` the seconds move ``i``
    took (``None`` unknown); ``comments[i]`` the comment after ``i`` moves (0: before
    the first move; lines separated by ``\\n``); ``metadata`` the file's other headers
    (``event``, ``site``, ``start_time``...); ``timeout`` the player whose time ran out
    at the end of the line (None: the game did not end on time).
    """

    names: list[str] = field(default_factory=list)
    times: list[float | None] = field(default_factory=list)
    comments: dict[int, str] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    timeout: int | None = None

    def name(self, player: int) -> str:
        return self.names[player] if 0 <= player < len(self.names) else ""

    def time(self, ply: int) -> float | None:
        return self.times[ply] if 0 <= ply < len(self.times) else None
