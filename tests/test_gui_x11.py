"""The program under a real X server: started as the ``gamesuite`` command starts it, moves played by
mouse clicks (xdotool), the theme switched through the menu, screenshots taken from the screen.

The driver is ``tests/benchmarks/screenshots.py --check`` (the same code makes the README's
pictures). It needs ``Xvfb`` and ``xdotool``; ``.ci/run`` installs them, so in CI a missing one
is a failure, elsewhere a skip.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from PySide6.QtGui import QImage

SCRIPT = Path(__file__).parent / "benchmarks" / "screenshots.py"


def mean_lightness(img: QImage, step: int = 7) -> float:
    values = [img.pixelColor(x, y).lightness() for x in range(0, img.width(), step)
              for y in range(0, img.height(), step)]
    return sum(values) / len(values)


def test_the_program_under_x_plays_clicks_and_switches_theme(tmp_path):
    missing = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"{', '.join(missing)} not installed: .ci/run installs them")
        pytest.skip(f"{', '.join(missing)} not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, str(SCRIPT), "--check", "--out", str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    # the clicks played our moves, and the computer answered each
    assert report["moves"][0::2] == report["clicked"] == ["b2", "a1"]
    assert len(report["moves"]) == 4
    assert report["theme"] == "dark" and report["message"] == ""
    light, dark = (QImage(report["shots"][k]) for k in ("light", "dark"))
    for img in (light, dark):
        assert (img.width(), img.height()) == tuple(report["window"])
    assert mean_lightness(light) > 170 and mean_lightness(dark) < 90, (mean_lightness(light), mean_lightness(dark))
