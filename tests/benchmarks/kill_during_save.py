"""Kill the program while it saves a game, many times, and count the game files it ruined.

    python tests/benchmarks/kill_during_save.py [--kills 150] [--method atomic|inplace] [--seed 1]

The parent writes a game record (a long gomoku game with scores and comments, as
the window's Save writes it: ``GameRecord.dumps``) and starts a child that saves
two versions of it in turn, as fast as it can, with the chosen method:
``atomic`` is ``core.files.write_atomic`` (what Save, Export and autosave use),
``inplace`` is ``Path.write_text`` (what Save and Export did before issue 21).
After a random delay the parent kills the child with SIGKILL and reads the file
back: it must be exactly one of the two versions and read as a game record.
Prints how many files were empty, truncated (or otherwise not one of the
versions) and how many stale temporaries ``clean_stale_temporaries`` removed.
Exits 1 if any file was lost. POSIX only (SIGKILL).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import sys
from pathlib import Path
from gamesuite.core.files import write_atomic
path, method = Path(sys.argv[1]), sys.argv[2]
texts = [Path(sys.argv[3]).read_text(encoding="utf-8"), Path(sys.argv[4]).read_text(encoding="utf-8")]
print("ready", flush=True)
i = 0
while True:
    i ^= 1
    if method == "atomic":
        write_atomic(path, texts[i])
    else:
        path.write_text(texts[i], encoding="utf-8")
"""


def make_versions() -> tuple[str, str]:
    """Two saved versions of one long game (the second with one comment edited), as the window writes them."""
    from gamesuite.core.registry import load_game
    from gamesuite.core.score import Score
    from gamesuite.gui.record import GameRecord

    game = load_game("gomoku(size=15)")
    rec = GameRecord(game)
    rng = random.Random(7)
    state = game.new_state()
    node = rec.root
    while len(state.history) < 150 and not state.is_terminal():
        m = rng.choice(state.legal_moves())
        node = rec.add_move(node, m)
        node.score = Score.eval(rng.randint(-500, 500), 0)
        node.comment = "a note on this move; " * 40
        state.play(m)
    a = rec.dumps(node)
    node.comment += " (edited)"
    b = rec.dumps(node)
    return a, b


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kills", type=int, default=150)
    p.add_argument("--method", choices=("atomic", "inplace"), default="atomic")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-delay-ms", type=float, default=60.0)
    args = p.parse_args(argv)
    from gamesuite.core.files import clean_stale_temporaries
    from gamesuite.gui.record import GameRecord

    rng = random.Random(args.seed)
    a, b = make_versions()
    empty = truncated = other = kept_a = kept_b = stale = 0
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        fa, fb = folder / "a.txt", folder / "b.txt"
        fa.write_text(a, encoding="utf-8")
        fb.write_text(b, encoding="utf-8")
        games = folder / "games"
        games.mkdir()
        path = games / "game.json"
        for _ in range(args.kills):
            path.write_text(a, encoding="utf-8")
            child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), args.method, str(fa), str(fb)],
                                     stdout=subprocess.PIPE, text=True)
            assert child.stdout is not None
            child.stdout.readline()  # "ready": the child is in its save loop
            time.sleep(rng.uniform(0, args.max_delay_ms) / 1000)
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            child.stdout.close()
            text = path.read_text(encoding="utf-8") if path.exists() else ""
            if not text:
                empty += 1
            elif text == a:
                kept_a += 1
            elif text == b:
                kept_b += 1
            elif a.startswith(text) or b.startswith(text):
                truncated += 1
            else:
                other += 1
            if text in (a, b):
                GameRecord.loads(text)  # and it reads back as a game
            stale += len(clean_stale_temporaries(games))
    lost = empty + truncated + other
    print(f"method {args.method}: {args.kills} kills during Save of a {len(a) // 1024} KB game: "
          f"{lost} files lost ({empty} empty, {truncated} truncated, {other} mixed), "
          f"{kept_a} old version, {kept_b} new version; {stale} stale temporaries cleaned")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
