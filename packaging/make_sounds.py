"""Make the window's sounds (``gamesuite/resources/sounds/*.wav``) from numbers alone.

Each sound is synthesised here (no recording, no sample library): a move is a short
wooden knock (a few decaying partials and a click of noise), a capture two knocks,
lower and louder, and the end of a game a two-note chime. 22050 Hz, 16-bit mono WAV.
The files are gamesuite's own, under its MIT licence (``gamesuite/resources/sounds/README.md``).

    python packaging/make_sounds.py
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22050
OUT = Path(__file__).resolve().parents[1] / "gamesuite" / "resources" / "sounds"


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def knock(pitch: float = 1.0, length: float = 0.09, seed: int = 1) -> np.ndarray:
    """A piece set down on a wooden board: decaying inharmonic partials and a click."""
    t = _t(length)
    out = np.zeros_like(t)
    for f, a, tau in ((620, 1.0, 0.018), (1130, 0.6, 0.012), (1790, 0.35, 0.008), (2650, 0.2, 0.005)):
        out += a * np.sin(2 * np.pi * f * pitch * t) * np.exp(-t / tau)
    rng = np.random.default_rng(seed)
    click = rng.standard_normal(t.size) * np.exp(-t / 0.0015)
    click = np.convolve(click, np.ones(4) / 4, mode="same")  # a little softer than white
    out += 0.5 * click
    fade = np.minimum(1.0, (t[-1] - t) / 0.01)  # no click at the end
    return out * fade


def chime() -> np.ndarray:
    """Two notes, G5 then C6, bell-like (a few harmonics, long decay)."""
    t = _t(0.75)
    out = np.zeros_like(t)
    for start, f in ((0.0, 783.99), (0.16, 1046.5)):
        tt = np.clip(t - start, 0, None)
        on = (t >= start).astype(float)
        env = on * np.exp(-tt / 0.22) * np.minimum(1.0, tt / 0.004)
        for h, a in ((1, 1.0), (2, 0.35), (3, 0.12), (4.2, 0.06)):
            out += a * env * np.sin(2 * np.pi * f * h * tt)
    fade = np.minimum(1.0, (t[-1] - t) / 0.05)
    return out * fade


def write(name: str, signal: np.ndarray, peak: float) -> Path:
    data = (signal / np.abs(signal).max() * peak * 32767).astype("<i2")
    path = OUT / f"{name}.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())
    return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    gap = np.zeros(int(RATE * 0.045))
    sounds = {
        "move": (knock(), 0.55),
        "capture": (np.concatenate([knock(0.8, 0.06, 2) * 0.8, gap, knock(0.72, 0.1, 3)]), 0.7),
        "end": (chime(), 0.45),
    }
    for name, (sig, peak) in sounds.items():
        path = write(name, sig, peak)
        print(f"{path.name}: {sig.size / RATE:.3f} s, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
