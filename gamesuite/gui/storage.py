"""Where the window keeps things: settings (QSettings) and user files (platformdirs).

The autosave file holds the current game after every move, marked ``clean``
only when the window closed normally; an unclean autosave at launch means the
last session crashed or was killed, and the window offers to restore it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings

APP = "gamesuite"


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

    @property
    def autosave_path(self) -> Path:
        return self.data_dir / "autosave.json"

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
    def autosave(self, record_json: dict[str, Any], clean: bool = False) -> None:
        """Write the game atomically (a crash mid-write leaves the previous autosave)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        d = dict(record_json)
        d["session"] = {"clean": clean, "pid": os.getpid()}
        tmp = self.autosave_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.autosave_path)

    def mark_clean(self) -> None:
        """Record that the session ended normally."""
        d = self.read_autosave()
        if d is not None:
            d.pop("session", None)
            self.autosave(d, clean=True)

    def read_autosave(self) -> dict[str, Any] | None:
        try:
            d = json.loads(self.autosave_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return d if isinstance(d, dict) else None

    def unclean_autosave(self) -> dict[str, Any] | None:
        """The autosaved game of a session that did not end normally (with moves), else None."""
        d = self.read_autosave()
        if d is None or d.get("session", {}).get("clean", True):
            return None
        return d
