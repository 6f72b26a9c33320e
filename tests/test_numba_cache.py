"""Every game's own engines survive a run that loads their kernels from numba's cache.

A kernel can compile and run fine and still crash when its cached machine code
is loaded by the next process (numba issue 6713: a recursive kernel called
with other argument types than it calls itself with). So each engine searches
a little in two fresh processes: the second one loads what the first cached.
"""

import subprocess
import sys

SCRIPT = r"""
from gamesuite.core import Limits, engines_for, game_classes, load_game, make_engine
done = 0
for name in game_classes():
    game = load_game(name)
    state = game.new_state()
    while state.is_chance_node():
        state.play(state.chance_outcomes()[0][0])
    for entry in engines_for(game):
        if entry.game != name:
            continue  # generic engines are tested on their own
        result = make_engine(game, entry.name).search(state, Limits(depth=2, movetime=3000))
        assert result.best_move in state.legal_moves(), (name, entry.name, result)
        done += 1
print("searched", done)
"""


def test_engines_run_twice_from_the_cache():
    outputs = []
    for run in (1, 2):
        r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"run {run} exited {r.returncode}: {r.stderr[-2000:]}"
        outputs.append(r.stdout.strip())
    assert outputs[0] == outputs[1] and int(outputs[0].split()[1]) >= 1
