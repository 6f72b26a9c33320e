"""One checked path from text to value: integers, numbers, switches and choices.

Everything a user or a protocol can type that becomes a number or a setting goes
through here: engine options (declared with :class:`Option` in the engine
registry), game parameters, search limits, protocol options and command-line
flags. The rules are the same everywhere:

- integers are ASCII digits with an optional sign (no ``'²'``, no ``'١'``, no
  ``'1_000'``), at most :data:`MAX_DIGITS` of them, and within the declared range;
- numbers are ASCII decimals (``1``, ``-0.5``, ``2e3``), finite and within range;
- switches are ``true/false``, ``yes/no``, ``on/off`` or ``1/0`` (any case);
- choices are one of the declared words.

A value out of these rules raises ``InvalidOptionError`` (or the error class the
caller names) with one line that names the setting, what it accepts and the
offending input, quoted. Nothing is converted with a bare ``int()``/``float()``
of user text anywhere else.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import GameSuiteError, InvalidOptionError, quote

#: No integer the program accepts needs more digits (2**63 has 19); longer input is refused before
#: it is converted (Python's own limit is 4,300 digits, and it raises ``ValueError``, not our error).
MAX_DIGITS = 24
#: The longest number text accepted at all (``-1.2345678901234567e-300`` fits).
MAX_NUMBER_TEXT = 40

_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?", re.ASCII)
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f" in {lo:g}..{hi:g}" if isinstance(lo, float) or isinstance(hi, float) else f" in {lo}..{hi}"
    if lo is not None:
        return f" >= {lo}"
    if hi is not None:
        return f" <= {hi}"
    return ""


def parse_int(value: Any, what: str, lo: int | None = None, hi: int | None = None,
              error: type[GameSuiteError] = InvalidOptionError) -> int:
    """``value`` (text or int) as an int in ``lo..hi``; ``error`` quoting it otherwise."""
    if isinstance(value, bool):
        raise error(f"{what} must be an integer{_range_text(lo, hi)}, got {quote(value)}")
    if isinstance(value, int):
        v = value
    elif isinstance(value, str):
        t = value.strip()
        if not _INT.fullmatch(t) or len(t.lstrip("+-")) > MAX_DIGITS:
            raise error(f"{what} must be an integer{_range_text(lo, hi)}, got {quote(value)}")
        v = int(t)
    else:
        raise error(f"{what} must be an integer{_range_text(lo, hi)}, got {quote(value)}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise error(f"{what} must be an integer{_range_text(lo, hi)}, got {quote(value)}")
    return v


def parse_float(value: Any, what: str, lo: float | None = None, hi: float | None = None,
                error: type[GameSuiteError] = InvalidOptionError) -> float:
    """``value`` (text or number) as a finite float in ``[lo, hi]``; ``error`` quoting it otherwise."""
    msg = f"{what} must be a number{_range_text(lo, hi)}, got {quote(value)}"
    if isinstance(value, bool):
        raise error(msg)
    if isinstance(value, int):
        if abs(value) > 10 ** MAX_DIGITS:
            raise error(msg)
        v = float(value)
    elif isinstance(value, float):
        v = value
    elif isinstance(value, str):
        t = value.strip()
        if len(t) > MAX_NUMBER_TEXT or not _FLOAT.fullmatch(t):
            raise error(msg)
        v = float(t)
    else:
        raise error(msg)
    if not math.isfinite(v) or (lo is not None and v < lo) or (hi is not None and v > hi):
        raise error(msg)
    return v


def parse_bool(value: Any, what: str, error: type[GameSuiteError] = InvalidOptionError) -> bool:
    """``value`` as a switch: ``true/false``, ``yes/no``, ``on/off``, ``1/0``; ``error`` otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    raise error(f"{what} must be true or false, got {quote(value)}")


def parse_choice(value: Any, what: str, choices: tuple[Any, ...],
                 error: type[GameSuiteError] = InvalidOptionError) -> Any:
    """The member of ``choices`` that ``value`` names (compared as text); ``error`` otherwise."""
    for c in choices:
        if value == c or (isinstance(value, str) and value.strip() == str(c)):
            return c
    raise error(f"{what} must be one of {', '.join(map(str, choices))}; got {quote(value)}")


def convert(value: Any, kind: type, what: str, lo: float | None = None, hi: float | None = None,
            choices: tuple[Any, ...] = (), nullable: bool = False, max_len: int = 200,
            error: type[GameSuiteError] = InvalidOptionError) -> Any:
    """``value`` as a ``kind`` (``bool``, ``int``, ``float`` or ``str``) under the given rules.

    ``nullable``: ``None`` (or the text ``none``) is also accepted and gives ``None``.
    """
    if nullable and (value is None or (isinstance(value, str) and value.strip().lower() in ("none", ""))):
        return None
    if choices:
        return parse_choice(value, what, choices, error)
    if kind is bool:
        return parse_bool(value, what, error)
    if kind is int:
        return parse_int(value, what, None if lo is None else math.ceil(lo), None if hi is None else math.floor(hi),
                         error)
    if kind is float:
        return parse_float(value, what, lo, hi, error)
    if kind is str:
        if not isinstance(value, str):
            raise error(f"{what} must be text, got {quote(value)}")
        if len(value) > max_len or not value.isprintable():
            raise error(f"{what} must be printable text of at most {max_len} characters, got {quote(value)}")
        return value.strip()
    raise TypeError(f"cannot convert to {kind!r}")  # a declaration error, not an input error


@dataclass(frozen=True)
class Option:
    """An engine option's declaration: its default, type, range or choices, and a help line.

    The type is the default's (``bool``, ``int``, ``float``, ``str``) unless ``kind``
    says otherwise; a ``None`` default needs ``kind`` and makes the option nullable
    (``seed=none``). A ``float`` option also accepts integers. Numbers need ``min`` and ``max`` (a test checks
    every registered engine), text options ``choices`` unless they are free text
    (a file name) of at most ``max_len`` characters.

    >>> Option(16, min=1, max=4096, help="MB of hash table").convert("64", "hash")
    64
    """

    default: Any
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] = ()
    help: str = ""
    kind: type | None = None
    max_len: int = 200

    @property
    def type(self) -> type:
        if self.kind is not None:
            return self.kind
        if self.default is None:
            raise TypeError("an Option with a None default needs kind=")
        return type(self.default)

    @property
    def nullable(self) -> bool:
        return self.default is None

    def convert(self, value: Any, name: str) -> Any:
        """``value`` (text, or a value from Python) checked and converted; ``InvalidOptionError``."""
        return convert(value, self.type, f"option {name}", self.min, self.max, self.choices, self.nullable,
                       self.max_len)

    def describe(self, name: str) -> str:
        """``name=default`` with the accepted values, for help texts."""
        if self.choices:
            rng = " one of " + "|".join(map(str, self.choices))
        elif self.type is bool:
            rng = " true|false"
        else:
            rng = _range_text(self.min, self.max)
        return f"{name}={self.default}{rng}" + (f"  {self.help}" if self.help else "")


#: The most memory (MB) one engine's table or tree may take: the USI maximum of ``USI_Hash``.
MAX_MEMORY_MB = 4096
#: Seeds are 63-bit (numpy and the numba generators take them as int64).
MAX_SEED = 2**63 - 1


def memory_option(default: float, what: str = "MB of transposition table") -> Option:
    """A table or tree size in MB, from 0.01 to :data:`MAX_MEMORY_MB`."""
    return Option(default, 0.01, MAX_MEMORY_MB, kind=float, help=what)


def seed_option() -> Option:
    """A random seed (``none``: a fresh one each time)."""
    return Option(None, 0, MAX_SEED, kind=int, help="random seed (none: a fresh one)")


def int_arg(lo: int | None = -(2**63 - 1), hi: int | None = 2**63 - 1) -> Any:
    """An ``argparse`` type: ASCII digits in ``lo..hi``, else argparse's error (status 2) quoting the input."""
    import argparse

    def parse(text: str) -> int:
        try:
            return parse_int(text, "the value", lo, hi)
        except InvalidOptionError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    parse.__name__ = "integer"
    return parse


def as_option(value: Any) -> Option:
    """A declaration from a registry entry: an ``Option`` as it is, a bare default wrapped."""
    return value if isinstance(value, Option) else Option(value)


__all__ = ["MAX_DIGITS", "MAX_MEMORY_MB", "MAX_SEED", "Option", "as_option", "int_arg", "memory_option",
           "seed_option", "convert", "parse_bool", "parse_choice", "parse_float",
           "parse_int"]
