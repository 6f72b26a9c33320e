"""Where the window keeps things: settings (QSettings) and user files (platformdirs).

Each window autosaves its game after every move to a file of its own,
``autosave/<session>.json``, next to a lock file that the window holds while it
is open (``QLockFile``: the operating system's process table tells a live owner
from a dead one). A window that closes normally keeps its autosave, marked
``closed``, and lets go of the lock: the next window opens that game again. An
autosave not marked ``closed`` whose lock nobody holds was left by a session
that crashed or was killed, and the next window offers to restore it; two
windows open at once never overwrite each other's game.

Every file is written with ``core.files.write_atomic`` (a temporary in the same
folder, fsync, rename); a window cleans the temporaries of dead processes from
its folders when it starts. Settings go through ``QSettings``, which writes its
file through ``QSaveFile`` (the same temporary-and-rename) itself.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLockFile, QSettings

from ..core.errors import InvalidRecordError
from ..core.files import clean_stale_temporaries, parse_json_text, process_alive, write_atomic

APP = "gamesuite"
#: How many games of windows that closed normally are kept for later launches.
KEEP_CLOSED = 10


def default_data_dir() -> Path:
    """The platform's folder for gamesuite's user files (``GAMESUITE_DATA_DIR`` overrides it)."""
    env = os.environ.get("GAMESUITE_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, APP))


class Storage:
    """Settings and user files of one window."""

    def __init__(self, data_dir: Path | str | None = None) -> None:
        explicit = data_dir is not None or "GAMESUITE_DATA_DIR" in os.environ
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        if explicit:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self.settings = QSettings(str(self.data_dir / "settings.ini"), QSettings.Format.IniFormat)
        else:
            self.settings = QSettings(APP, APP)
        self.session = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self._lock: QLockFile | None = None
        self._claimed: tuple[Path, QLockFile | None, dict[str, Any]] | None = None
        self.clean_temporaries()

    def clean_temporaries(self) -> list[Path]:
        """Remove the temporary files that writers killed mid-write left in this window's folders
        (those of live processes stay: another window may be saving); the removed paths."""
        removed = []
        for folder in (self.data_dir, self.autosave_dir, self.games_dir):
            removed += clean_stale_temporaries(folder)
        if self.autosave_dir.is_dir():  # earlier versions' autosave temporaries: "<pid>-<id>.tmp"
            for p in self.autosave_dir.glob("*.tmp"):
                pid = p.name.partition("-")[0]
                if pid.isascii() and pid.isdigit() and not process_alive(int(pid)):
                    try:
                        p.unlink()
                        removed.append(p)
                    except OSError:
                        pass
        return removed

    @property
    def autosave_dir(self) -> Path:
        return self.data_dir / "autosave"

    @property
    def autosave_path(self) -> Path:
        """This window's autosave file."""
        return self.autosave_dir / f"{self.session}.json"

    @property
    def games_dir(self) -> Path:
        return self.data_dir / "games"

    # -- settings -------------------------------------------------------------------
    def get(self, key: str, default: Any = None) -> Any:
        v = self.settings.value(key, default)
        if isinstance(default, bool) and isinstance(v, str):
            return v.lower() in ("1", "true", "yes")
        if isinstance(default, int) and not isinstance(default, bool) and isinstance(v, str):
            try:
                return int(v)
            except ValueError:
                return default
        return v

    def set(self, key: str, value: Any) -> None:
        self.settings.setValue(key, value)

    # -- autosave ----------------------------------------------------------------
    def _hold_lock(self) -> None:
        if self._lock is None:
            self.autosave_dir.mkdir(parents=True, exist_ok=True)
            lock = QLockFile(str(self.autosave_dir / f"{self.session}.lock"))
            lock.setStaleLockTime(0)  # only a dead owner makes a lock stale, never its age
            if lock.tryLock(0):
                self._lock = lock

    def autosave(self, record_json: dict[str, Any], session: dict[str, Any] | None = None) -> None:
        """Write this window's game atomically (a crash mid-write leaves the previous autosave).

        ``session``: more to keep with it (the window's file, whether the game was saved, ``closed``).
        """
        self._hold_lock()
        d = dict(record_json)
        d["session"] = {"id": self.session, "pid": os.getpid(), **(session or {})}
        write_atomic(self.autosave_path, json.dumps(d, ensure_ascii=False))

    def read_autosave(self) -> dict[str, Any] | None:
        """This window's last autosave, or None."""
        return _read_json(self.autosave_path)

    def discard_autosave(self) -> None:
        """Delete this window's autosave and release its lock (nothing worth keeping)."""
        self.autosave_path.unlink(missing_ok=True)
        self.abandon()

    def abandon(self) -> None:
        """Let go of this window's lock and leave its autosave behind, as a crash would."""
        if self._lock is not None:
            self._lock.unlock()
            self._lock = None

    def unclean_autosave(self) -> dict[str, Any] | None:
        """The game autosaved by a window that is no longer open (else None): the newest of a session
        that crashed, else the newest of a window that closed normally (``session.closed``).

        The file is claimed (its lock taken) so that no other window offers the same game; call
        ``forget_unclean`` once it has been restored or declined, ``release_unclean`` to leave it
        for a later window. Autosaves of games without a move are deleted on the way, and only
        the newest ``KEEP_CLOSED`` games of closed windows are kept.
        """
        if self._claimed is not None:
            return self._claimed[2]
        candidates = []
        if self.autosave_dir.is_dir():
            for path in self.autosave_dir.glob("*.json"):
                if path != self.autosave_path:
                    candidates.append(path)
        legacy = self.data_dir / "autosave.json"  # the single autosave file of earlier versions
        if legacy.is_file():
            candidates.append(legacy)
        found = []
        closed = 0
        for path in sorted(candidates, key=_mtime, reverse=True):
            d = _read_json(path)
            if d is None or (path == legacy and d.get("session", {}).get("clean", True)):
                continue
            if path != legacy and _is_closed(d):
                closed += 1
                if not d.get("moves") and not d.get("start") or closed > KEEP_CLOSED:
                    path.unlink(missing_ok=True)  # an empty game, or one of too many old ones
                    continue
            found.append((path, d))
        # a crashed session's game first (it is in no file), then the newest of the windows closed normally
        for path, d in sorted(found, key=lambda pd: _is_closed(pd[1])):
            lock = None
            if path != legacy:
                lock = QLockFile(str(path.with_suffix(".lock")))
                lock.setStaleLockTime(0)
                if not lock.tryLock(0):
                    continue  # a window that is still open
            self._claimed = (path, lock, d)
            return d
        return None

    def release_unclean(self) -> None:
        """Leave the claimed autosave for a later window."""
        if self._claimed is not None and self._claimed[1] is not None:
            self._claimed[1].unlock()
        self._claimed = None

    def forget_unclean(self) -> None:
        """Delete the claimed autosave of a dead session (restored into this window, or declined)."""
        if self._claimed is None:
            return
        path, lock, _ = self._claimed
        path.unlink(missing_ok=True)
        if lock is not None:
            lock.unlock()  # removes the lock file
        self._claimed = None


def _is_closed(d: dict[str, Any]) -> bool:
    s = d.get("session")
    return isinstance(s, dict) and bool(s.get("closed"))


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        d = parse_json_text(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, InvalidRecordError):
        return None
    return d if isinstance(d, dict) else None
