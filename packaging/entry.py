"""Entry point of the frozen program: the shipped kernels' CPU target, numba's cache locator, then the CLI.

The build compiles every game's default engine into ``<bundle>/kernels`` for a CPU
family (``kernels/target.json``: ``x86-64-v3`` by default, any x86-64 CPU since about
2015). On a CPU of that family this entry point tells numba to compile for the same
family (``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES``, before numba is imported) and
copies the shipped kernels into the user's cache folder on the first launch, so
nothing is compiled then. On another CPU numba compiles for the host, with the
progress the window and the protocols show.
"""

import json
import multiprocessing
import os
import sys


def _cpu_flags() -> set[str]:
    """The host CPU's feature flags as Linux names them (empty where /proc/cpuinfo cannot be read)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def _shipped_target() -> tuple[str, dict] | None:
    """The shipped kernels' folder and target when this CPU can run them, else None."""
    base = getattr(sys, "_MEIPASS", os.path.dirname(os.path.abspath(__file__)))
    folder = os.path.join(base, "kernels")
    try:
        with open(os.path.join(folder, "target.json"), encoding="utf-8") as f:
            target = json.load(f)
    except (OSError, ValueError):
        return None
    if not set(target.get("flags", [])) <= _cpu_flags():
        return None
    return folder, target


if __name__ == "__main__":
    multiprocessing.freeze_support()  # the compile pool's helper processes start here too
    shipped = _shipped_target()
    if shipped is not None and "NUMBA_CPU_NAME" not in os.environ:
        os.environ["NUMBA_CPU_NAME"] = shipped[1]["cpu_name"]
        os.environ["NUMBA_CPU_FEATURES"] = shipped[1].get("cpu_features", "")

    from gamesuite import numba_cache

    numba_cache.install()  # before any module with kernels is imported
    if shipped is not None and os.environ.get("NUMBA_CPU_NAME") == shipped[1]["cpu_name"]:
        numba_cache.seed_cache(shipped[0])

    from gamesuite.cli import entry_point

    entry_point()
