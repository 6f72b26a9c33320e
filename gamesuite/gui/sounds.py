"""Sounds for a move, a capture and the end of a game.

The sounds are short WAV files in ``resources/sounds`` (synthesised by
``packaging/make_sounds.py``, MIT). They are played with **miniaudio** (the
``miniaudio`` package: a 0.6 MB wheel, 3.7 MB installed with the cffi it needs,
no system library; it finds PulseAudio/PipeWire, ALSA, CoreAudio or WASAPI at
run time).
Qt's own ``QSoundEffect`` is in ``QtMultimedia``, which PySide6-Essentials does
not include: it comes only with PySide6-Addons, a 175 MB wheel (438 MB installed).

``SoundPlayer`` (no Qt) plays on a thread of its own, so the window never waits
for the audio device, nor for miniaudio's import: the thread loads it and the
sounds at the first sound and opens the device then; the device is stopped
when each sound ends and closed with the window. Without miniaudio or without
an output device the window is silent (``SoundPlayer.error`` says why) and
nothing else changes.
``MoveSounds`` listens to the game controller: a move forward by one (a move
played, or a step forward through the game) plays *move* or *capture*; reaching
an end of the game (the rules' or a clock's) plays *end*. The window's
**View › Sounds** switches them on and off (remembered).
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Slot

from ..core.state import State

SOUND_DIR = Path(__file__).resolve().parents[1] / "resources" / "sounds"
SOUNDS = ("move", "capture", "end")
RATE = 22050

#: Makes the output device (tests pass a fake): an object with ``start(generator)``, ``stop()``, ``close()``.
DeviceFactory = Callable[[], Any]


def _miniaudio_device() -> Any:
    import miniaudio

    with _quiet_stderr():  # ALSA writes a page of complaints to stderr on a machine without sound
        return miniaudio.PlaybackDevice(output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                                        sample_rate=RATE, app_name="gamesuite")


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 sent to the null device for a moment (what C libraries print there is lost;
    so is anything else printed to stderr in those milliseconds)."""
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def load_samples(directory: Path = SOUND_DIR) -> dict[str, Any]:
    """Each sound's samples (16-bit mono at ``RATE``) by name; {} without miniaudio. A missing or
    unreadable file is left out."""
    try:
        import miniaudio
    except ImportError:
        return {}
    out: dict[str, Any] = {}
    for name in SOUNDS:
        try:
            out[name] = miniaudio.decode_file(str(directory / f"{name}.wav"),
                                              output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                                              sample_rate=RATE).samples
        except (OSError, miniaudio.MiniaudioError):
            continue
    return out


def _stream(samples: Any) -> Iterator[Any]:
    """miniaudio's generator protocol: receives the number of frames wanted, yields them."""
    wanted = yield b""
    pos = 0
    while pos < len(samples):
        end = pos + max(1, int(wanted or 1024))
        wanted = yield samples[pos:end]
        pos = end


class SoundPlayer:
    """Plays named sounds on a background thread; silent (with ``error`` set) when it cannot."""

    _MARK = "\0mark"

    def __init__(self, samples: dict[str, Any] | None = None, device_factory: DeviceFactory | None = None) -> None:
        #: The sounds' samples by name; None until the sound thread loads them (at the first sound: importing
        #: miniaudio takes a moment the window's start-up need not wait for).
        self.samples = samples
        self.device_factory = device_factory or _miniaudio_device
        self.error: str | None = None  # why the player is silent (set by the sound thread)
        self.played: list[str] = []  # what was sent to the device, in order (for tests)
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._marks: list[threading.Event] = []

    def play(self, name: str) -> None:
        """Play ``name`` (``move``, ``capture``, ``end``) now, cutting short a sound still playing."""
        if self.error is not None or name not in (SOUNDS if self.samples is None else self.samples):
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="gamesuite-sounds", daemon=True)
            self._thread.start()
        self._queue.put(name)

    def close(self, timeout: float = 1.0) -> None:
        """Stop the thread and close the device."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None

    def wait_idle(self, timeout: float = 2.0) -> bool:
        """Wait until every sound asked for so far has been sent to the device (tests)."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._marks.append(done)
        self._queue.put(self._MARK)
        return done.wait(timeout)

    def _run(self) -> None:
        device: Any = None  # made at the first sound (DeviceFactory)
        deadline: float | None = None  # when the sound playing now ends
        while True:
            try:
                wait = None if deadline is None else max(0.0, deadline - time.monotonic())
                name = self._queue.get(timeout=wait)
            except queue.Empty:  # the sound is over: let the device go quiet
                deadline = None
                try:
                    if device is not None:
                        device.stop()
                except Exception:  # noqa: BLE001 - a sound backend's fault must never reach the window
                    pass
                continue
            if name is None:
                break
            if name == self._MARK:
                while self._marks:
                    self._marks.pop(0).set()
                continue
            if self.samples is None:
                self.samples = load_samples()
                if not self.samples:
                    self.error = "no sounds (the miniaudio package is not installed)"
                    break
            samples = self.samples.get(name)
            if samples is None:
                continue
            try:
                if device is None:
                    device = self.device_factory()
                device.stop()
                stream = _stream(samples)
                next(stream)
                device.start(stream)
            except Exception as e:  # noqa: BLE001 - no device, a broken backend: silent from now on
                self.error = f"no sound: {e}"
                break
            self.played.append(name)
            deadline = time.monotonic() + len(samples) / RATE + 0.05
        if device is not None:
            try:
                device.close()
            except Exception:  # noqa: BLE001 - closing a broken device: nothing more to do
                pass
        while self._marks:
            self._marks.pop(0).set()


def default_player() -> SoundPlayer:
    """The window's player: miniaudio on the default device; silent on Qt's offscreen platforms (tests,
    screenshots), where there is no one to hear."""
    from PySide6.QtGui import QGuiApplication

    player = SoundPlayer()
    if QGuiApplication.platformName() in ("offscreen", "minimal"):
        player.error = f"no sound on the {QGuiApplication.platformName()} platform"
    return player


def sound_of(before: State, move: int) -> str:
    """``capture`` when ``move`` takes a piece in ``before`` (shogi), else ``move``."""
    if before.game.name == "shogi":
        from ..games.shogi.board import decode_move

        frm, to, _ = decode_move(int(move))
        g = before.g  # type: ignore[attr-defined]
        if frm < g.N and int(before.board[g.sq2p[to]]):  # type: ignore[attr-defined]
            return "capture"
    return "move"


class MoveSounds(QObject):
    """Plays the controller's moves and game ends on a ``SoundPlayer`` while ``enabled``."""

    def __init__(self, controller: Any, player: SoundPlayer | None = None, enabled: bool = True) -> None:
        super().__init__(controller)
        self.controller = controller
        self.player = player if player is not None else default_player()
        self.enabled = enabled
        self._record = controller.record
        self._node = controller.current
        self._state = controller.state.copy()
        self._ended = controller.current.id if controller.over_text() is not None else None
        controller.changed.connect(self._on_changed)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on

    @Slot()
    def _on_changed(self) -> None:
        c = self.controller
        cur = c.current
        node, before, record = self._node, self._state, self._record
        self._record, self._node, self._state = c.record, cur, c.state.copy()
        over = c.over_text() is not None
        if c.record is not record:  # a new or opened game: no sound
            self._ended = cur.id if over else None
            return
        first = cur  # the move made from the position shown before (chance outcomes may follow it)
        for _ in range(3):
            if first.parent is node or first.parent is None:
                break
            first = first.parent
        stepped = first.parent is node and first.move is not None
        name = None
        if over and cur.id != self._ended and (stepped or cur is node):
            name = "end"  # a move that ends the game, or a flag that fell here
            self._ended = cur.id
        elif stepped:
            try:
                name = sound_of(before, first.move)
            except (ValueError, IndexError, AttributeError):
                name = "move"
        if name is not None and self.enabled:
            self.player.play(name)

    def close(self) -> None:
        self.player.close()
