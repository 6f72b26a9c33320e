"""External engines for the window, without Qt: what a program says about itself, and the window's
reading of engine specs.

- ``probe_engine(protocol, command)`` starts a USI or Gomocup program, reads its name and (USI) its
  ``option`` lines, and ends it: the engine manager keeps what it learnt.
- The engines themselves are ``arena.external``'s: the window's worker builds every engine with
  ``arena.external.open_engine`` (ours, ``UsiEngine``, ``GomocupEngine``), as the command line does.
  The engine's own limits in a spec (``@depth=8``) are the window's business (``spec_limits``).
"""

from __future__ import annotations

import re
import shlex
import time
from dataclasses import dataclass, field
from typing import Any

from ..arena.external import EngineProcess
from ..arena.spec import parse_engine_spec
from ..core.errors import EngineFailure, GameSuiteError, InvalidOptionError, quote
from ..core.limits import Limits

PROTOCOLS = ("usi", "gomocup")
#: The games each protocol plays in the window.
PROTOCOL_GAMES = {"usi": ("shogi",), "gomocup": ("gomoku",)}


# -- what a program says about itself ------------------------------------------------------------------

@dataclass
class EngineOption:
    """One setting of an external program: a USI ``option`` line, or a Gomocup ``INFO`` key."""

    name: str
    type: str  # "spin", "check", "combo", "string", "filename" (USI's types; "button" is not kept)
    default: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""  # (built-in engines' options: their help line)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "type": self.type, "default": self.default}
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        if self.choices:
            d["choices"] = list(self.choices)
        return d

    @classmethod
    def from_json(cls, d: Any) -> EngineOption:
        if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not isinstance(d.get("type"), str):
            raise InvalidOptionError(f"an engine option must be {{'name': ..., 'type': ...}}, got {quote(d)}")
        return cls(d["name"], d["type"], str(d.get("default", "")),
                   d.get("min") if isinstance(d.get("min"), int) else None,
                   d.get("max") if isinstance(d.get("max"), int) else None,
                   tuple(str(c) for c in d.get("choices", ()) if isinstance(c, str)))


_OPTION_WORDS = ("name", "type", "default", "min", "max", "var")


def parse_usi_option(line: str) -> EngineOption | None:
    """The option a USI ``option name N type T [default D] [min a] [max b] [var v]...`` line declares
    (``None`` for a ``button``, which has no value to keep, or a line that is not one).

    >>> parse_usi_option("option name USI_Hash type spin default 256 min 1 max 33554432")
    EngineOption(name='USI_Hash', type='spin', default='256', min=1, max=33554432, choices=())
    """
    words = line.split()
    if len(words) < 5 or words[0] != "option" or words[1] != "name":
        return None
    fields: dict[str, list[str]] = {}
    key = ""
    vars_: list[str] = []
    for w in words[1:]:
        if w in _OPTION_WORDS and not (key == "name" and not fields.get("name")):
            key = w
            if key == "var":
                vars_.append("")
            else:
                fields.setdefault(key, [])
            continue
        if key == "var":
            vars_[-1] = (vars_[-1] + " " + w).strip()
        elif key:
            fields[key].append(w)
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or kind not in ("spin", "check", "combo", "string", "filename"):
        return None
    default = " ".join(fields.get("default", []))
    if default == "<empty>":
        default = ""

    def num(k: str) -> int | None:
        try:
            return int(fields[k][0])
        except (KeyError, IndexError, ValueError):
            return None

    return EngineOption(name, kind, default, num("min"), num("max"), tuple(v for v in vars_ if v))


#: The Gomocup ``INFO`` keys the settings dialog offers (Gomocup's own and Yixin-Board's); ``MAX_NODE``
#: and ``MAX_DEPTH`` are limits, set with the limits.
GOMOCUP_OPTIONS = (
    EngineOption("thread_num", "spin", "1", 1, 256),
    EngineOption("max_memory", "spin", "0", 0, 2**31 - 1),
)


@dataclass
class ProbeResult:
    """What a program said about itself."""

    name: str
    author: str = ""
    options: list[EngineOption] = field(default_factory=list)


def probe_engine(protocol: str, command: list[str] | tuple[str, ...], timeout_ms: float = 15_000) -> ProbeResult:
    """Start ``command``, ask it who it is and which options it has, and end it.

    ``EngineFailure`` when it cannot start, exits, or does not answer within ``timeout_ms``;
    ``InvalidOptionError`` for an unknown protocol."""
    if protocol not in PROTOCOLS:
        raise InvalidOptionError(f"unknown engine protocol {quote(protocol)}; known: {', '.join(PROTOCOLS)}")
    if not command:
        raise InvalidOptionError("no program given")
    prog = str(command[-1] if command[0].startswith("python") and len(command) > 1 else command[0])
    fallback = prog.replace("\\", "/").rsplit("/", 1)[-1]
    proc = EngineProcess(tuple(command), fallback)
    deadline = time.perf_counter() * 1000 + timeout_ms
    try:
        if protocol == "usi":
            proc.send("usi")
            result = ProbeResult(fallback)
            while True:
                line = proc.read(deadline - time.perf_counter() * 1000)
                if line is None:
                    raise EngineFailure("hang", f"{fallback}: no 'usiok' within {timeout_ms / 1000:.0f} s "
                                                f"(is it a USI engine?)")
                if line.startswith("id name "):
                    result.name = line[8:].strip() or fallback
                elif line.startswith("id author "):
                    result.author = line[10:].strip()
                elif line.startswith("option "):
                    opt = parse_usi_option(line)
                    if opt is not None:
                        result.options.append(opt)
                elif line.strip() == "usiok":
                    proc.send("quit")
                    return result
        proc.send("ABOUT")
        while True:
            line = proc.read(deadline - time.perf_counter() * 1000)
            if line is None:
                raise EngineFailure("hang", f"{fallback}: no answer to ABOUT within {timeout_ms / 1000:.0f} s "
                                            f"(is it a Gomocup brain?)")
            word = line.split(" ", 1)[0].upper()
            if word in ("MESSAGE", "DEBUG", ""):
                continue
            if word in ("UNKNOWN", "ERROR"):
                proc.send("END")
                return ProbeResult(fallback, "", list(GOMOCUP_OPTIONS))
            about = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', line))
            proc.send("END")
            return ProbeResult(about.get("name") or fallback, about.get("author", ""), list(GOMOCUP_OPTIONS))
    finally:
        proc.close(500)


def spec_limits(spec: str) -> Limits | None:
    """The engine's own limits in a spec (``mtdf,@depth=8``: ``Limits(depth=8)``), or None: none given
    (or a spec that does not parse: the engine's factory reports that)."""
    try:
        parsed = parse_engine_spec(spec) if spec.strip() else None
    except GameSuiteError:
        return None
    if parsed is None or not parsed.limits:
        return None
    d = dict(parsed.limits)
    kw: dict[str, Any] = {k: int(d[k]) for k in ("depth", "nodes", "movetime") if k in d}
    if "clock" in d:  # a clock of its own is a time per move in the window: its base, shared out
        from ..play.clock import TimeControl

        tc = TimeControl.parse(d["clock"])
        kw["movetime"] = max(10, tc.base // 30 + (tc.increment or tc.byoyomi or 0))
    return Limits(**kw)


def spec_command_text(command: list[str] | tuple[str, ...]) -> str:
    """A command line as written in a spec."""
    return shlex.join(command)


def spec_label(spec: str) -> str:
    """The short name of the engine a spec names (its ``label=``, the program's name, or the spec)."""
    try:
        return parse_engine_spec(spec).label if spec.strip() else ""
    except GameSuiteError:
        return spec
