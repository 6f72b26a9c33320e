"""Games on a Dask cluster: ``gamesuite match ... --cluster tcp://scheduler:8786``.

Dask distributed is an optional extra (``pip install 'gamesuite[cluster]'``).
Every worker needs gamesuite installed (the same version) and any external
engine program at the same path. A game is one task (``run_task`` on a picklable
``GameTask``); the executor keeps about two games per worker thread in flight,
so an SPRT stop wastes little, and cancels the rest when it stops.

Why Dask rather than Ray: the arena's work is coarse, independent,
CPU-bound Python tasks of seconds to minutes each, with no shared state — a
plain task queue. ``distributed`` is pure Python (a wheel of a few MB with
small pure dependencies), starts with ``dask scheduler`` / ``dask worker ADDRESS``
on any machine with Python, and its futures follow ``concurrent.futures``, so
the local and the cluster executors share one loop. Ray brings a large
compiled core and its own object store, actors and dashboard that a queue of
games does not need, and ships wheels for fewer platforms.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..core.errors import InvalidOptionError, quote
from .game import GameTask, run_task
from .match import Executor, lost_record
from .record import GameRecord


def insecure_remote(address: str) -> bool:
    """Whether ``address`` is a plain ``tcp://`` (or scheme-less) address of another machine."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        return False  # tls://, inproc://, ucx://: not ours to judge
    host = rest.rsplit(":", 1)[0].strip("[]") if ":" in rest else rest
    return host not in ("127.0.0.1", "localhost", "::1", "") and not host.startswith("127.")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InvalidOptionError(
            "--cluster needs Dask distributed, the optional extra: pip install 'gamesuite[cluster]'") from None
    return distributed


class DaskExecutor(Executor):
    """Runs games on the Dask cluster whose scheduler is at ``address`` (or through a given ``Client``)."""

    def __init__(self, address: Any, connect_timeout_s: float = 10.0) -> None:
        distributed = _distributed()
        self._own = not isinstance(address, distributed.Client)
        if self._own and insecure_remote(str(address)):
            print(f"gamesuite: warning: {address} is reached over plain tcp:// on another machine: Dask's "
                  "connections are then neither encrypted nor authenticated (anyone who reaches the scheduler "
                  "runs code on the workers); see 'Securing a cluster' in docs/arena.md", file=sys.stderr)
        if self._own:
            try:
                self.client = distributed.Client(address, timeout=connect_timeout_s, set_as_default=False)
            except (OSError, TimeoutError, ValueError) as e:
                raise InvalidOptionError(f"cannot reach the Dask scheduler at {quote(str(address))}: {e}") from None
        else:
            self.client = address

    def threads(self) -> int:
        """Worker threads in the cluster right now (at least 1)."""
        try:
            return max(1, sum(self.client.nthreads().values()))
        except Exception:  # noqa: BLE001 - a guess is enough for the window
            return 1

    def run(self, tasks: Sequence[GameTask], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool]) -> None:
        with self.client.as_current():  # as_completed looks for the current client
            self._run(tasks, on_record, should_stop)

    def _run(self, tasks: Sequence[GameTask], on_record: Callable[[GameRecord], None],
             should_stop: Callable[[], bool]) -> None:
        distributed = _distributed()
        width = 2 * self.threads()
        todo = iter(tasks)
        futures = []
        for t in todo:
            futures.append(self.client.submit(run_task, t, pure=False))
            if len(futures) >= width:
                break
        pending = set(futures)
        ac = distributed.as_completed(futures)
        for f in ac:
            pending.discard(f)
            try:
                rec = f.result()
            except Exception as e:  # noqa: BLE001 - a lost worker loses the game for nobody
                rec = lost_record(e)
            on_record(rec)
            if should_stop():
                for p in pending:
                    p.cancel()
                return
            nxt = next(todo, None)
            if nxt is not None:
                nf = self.client.submit(run_task, nxt, pure=False)
                pending.add(nf)
                ac.add(nf)

    def close(self) -> None:
        if self._own:
            self.client.close()

