"""Engine specs of the arena: which program plays a seat, and with which settings.

A spec is one string:

- ``GAME:ENGINE[,opt=val...]`` or ``ENGINE[,opt=val...]``: one of ours, built by
  ``gamesuite.core.make_engine`` (``gomoku:mtdf,top=10,hash=64``, ``tictactoe:solver``);
- ``usi:COMMAND[,opt=val...]``: an external USI program (options become
  ``setoption name OPT value VAL``);
- ``gomocup:COMMAND[,opt=val...]``: an external Gomocup (``pbrain-``) program
  (options become ``INFO OPT VAL``);
- ``py:MODULE:ATTR[,opt=val...]``: a Python engine class or factory
  ``ATTR(game, **options)`` importable as ``MODULE.ATTR`` (one's own engine
  without registering it; the arena's tests use it for scripted fakes).

``COMMAND`` is split like a shell command line (``usi:python3 my_engine.py``);
options start at the first ``,`` followed by ``name=``. Every kind accepts
``label=NAME``, the name shown in tables and records.

**Per-engine limits** are items that start with ``@`` (no engine option can,
so they never clash): ``@nodes=N``, ``@depth=N``, ``@movetime=MS``,
``@clock=BASE+INC`` or ``@clock=BASE+BYOb`` (seconds; ``play.clock.TimeControl.parse``).
An engine with limits of its own plays by them
instead of the match's time control; one time limit (``movetime`` or
``clock``) and one work limit (``depth`` or ``nodes``) may be combined, and
the engine stops at whichever comes first: ``gomoku:mtdf,@nodes=300000``,
``usi:/opt/yane/engine,NodesLimit=10000,@movetime=1000``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field, replace

from ..core.errors import InvalidOptionError, quote

#: Spec kinds that are not game names.
EXTERNAL_KINDS = ("usi", "gomocup", "py")

_PREFIX = re.compile(r"^([A-Za-z_][\w-]*):(.*)$", re.S)
_OPTION_START = re.compile(r",(?=\s*@?[\w.-]+\s*=)")

#: The keys of per-engine limits (``@nodes=N`` ...), in the order they are shown.
LIMIT_KEYS = ("movetime", "clock", "depth", "nodes")


@dataclass(frozen=True)
class EngineSpec:
    """A parsed engine spec (picklable: it travels to worker processes)."""

    text: str
    kind: str  # "ours", "usi", "gomocup" or "py"
    target: str  # ours: the engine spec for make_engine; usi/gomocup: the command; py: MODULE:ATTR
    options: tuple[tuple[str, str], ...] = ()
    label: str = ""
    game: str = ""  # ours: the game name given in the spec (may be empty)
    command: tuple[str, ...] = field(default=())
    #: The engine's own limits (``@nodes=300000`` ...): ``(key, value)`` in ``LIMIT_KEYS`` order.
    limits: tuple[tuple[str, str], ...] = ()

    @property
    def is_external(self) -> bool:
        return self.kind in ("usi", "gomocup")

    def with_label(self, label: str) -> EngineSpec:
        return replace(self, label=label)

    def limits_text(self) -> str:
        """The engine's own limits as written in a spec (``@nodes=300000,@movetime=1000``), or ``""``."""
        return ",".join(f"@{k}={v}" for k, v in self.limits)


def _check_limit(key: str, value: str, spec: str) -> tuple[str, str]:
    """One ``@key=value`` item, checked: ``(key, value)`` with the value normalized."""
    if key not in LIMIT_KEYS:
        raise InvalidOptionError(f"engine spec {quote(spec)}: unknown limit {quote('@' + key)}; "
                                 f"limits are {', '.join('@' + k for k in LIMIT_KEYS)}")
    if key == "clock":
        from ..play.clock import TimeControl

        try:
            return key, TimeControl.parse(value).spec()
        except InvalidOptionError as e:
            raise InvalidOptionError(f"engine spec {quote(spec)}: @clock: {e}") from None
    try:
        v = int(value)
    except ValueError:
        v = 0
    if v <= 0:
        raise InvalidOptionError(f"engine spec {quote(spec)}: @{key} must be a positive integer, got {quote(value)}")
    return key, str(v)


def _take_limits(items: list[tuple[str, str]], spec: str) -> tuple[list[tuple[str, str]], tuple[tuple[str, str], ...]]:
    """Split ``(key, value)`` items into engine options and checked ``@`` limits."""
    opts, lims = [], {}
    for k, v in items:
        if not k.startswith("@"):
            opts.append((k, v))
            continue
        key, val = _check_limit(k[1:].strip(), v.strip(), spec)
        if key in lims:
            raise InvalidOptionError(f"engine spec {quote(spec)} gives @{key} twice")
        lims[key] = val
    if "movetime" in lims and "clock" in lims or "depth" in lims and "nodes" in lims:
        raise InvalidOptionError(f"engine spec {quote(spec)}: combine at most one time limit (@movetime or "
                                 "@clock) with one work limit (@depth or @nodes)")
    return opts, tuple((k, lims[k]) for k in LIMIT_KEYS if k in lims)


def _with_limits(label: str, limits: tuple[tuple[str, str], ...]) -> str:
    return label + "@" + ",".join(f"{k}={v}" for k, v in limits) if limits else label


def _split_options(rest: str, spec: str) -> tuple[str, list[tuple[str, str]]]:
    parts = _OPTION_START.split(rest)
    head, opts = parts[0], []
    for p in parts[1:]:
        k, _, v = p.partition("=")
        if not k.strip():
            raise InvalidOptionError(f"engine spec {quote(spec)}: empty option name in {quote(p)}")
        opts.append((k.strip(), v.strip()))
    return head.strip(), opts


def parse_engine_spec(text: str, game_name: str | None = None) -> EngineSpec:
    """Parse an engine spec; ``game_name`` (if given) must match a ``GAME:`` prefix.

    >>> parse_engine_spec("tictactoe:solver,hash=16").target
    'solver,hash=16'
    >>> parse_engine_spec("usi:/opt/yane/engine,USI_Hash=256,label=yane").options
    (('USI_Hash', '256'),)
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidOptionError(f"empty engine spec {quote(text)}")
    s = text.strip()
    m = _PREFIX.match(s)
    prefix = m.group(1) if m and "," not in m.group(1) else None
    if prefix in EXTERNAL_KINDS:
        assert m is not None
        head, opts = _split_options(m.group(2), s)
        opts, limits = _take_limits(opts, s)
        if not head:
            raise InvalidOptionError(f"engine spec {quote(s)} names no {'module' if prefix == 'py' else 'program'}")
        label = ""
        kept = []
        for k, v in opts:
            if k == "label":
                label = v
            else:
                kept.append((k, v))
        if prefix == "py":
            if head.count(":") != 1 or not all(head.split(":")):
                raise InvalidOptionError(f"engine spec {quote(s)}: expected py:MODULE:ATTR")
            command: tuple[str, ...] = ()
            default_label = head.split(":")[1]
        else:
            try:
                command = tuple(shlex.split(head))
            except ValueError as e:
                raise InvalidOptionError(f"engine spec {quote(s)}: bad command line ({e})") from None
            if not command:
                raise InvalidOptionError(f"engine spec {quote(s)} names no program")
            prog = command[0].rsplit("/", 1)[-1]
            if prog.startswith("python") and len(command) > 1:
                prog = command[1].rsplit("/", 1)[-1]
            default_label = f"{prefix}:{prog}"
        return EngineSpec(s, prefix, head, tuple(kept), label or _with_limits(default_label, limits), "", command,
                          limits)
    game = ""
    body = s
    if prefix is not None:
        assert m is not None
        game, body = prefix, m.group(2).strip()
        if game_name is not None and game != game_name:
            raise InvalidOptionError(f"engine spec {quote(s)} is for {quote(game)}, but the game is {quote(game_name)}")
    # ours: pull out label=..., keep the rest for make_engine
    name, _, rest = body.partition(",")
    label = ""
    kept_parts = []
    limit_items = []
    if rest.strip():
        for part in rest.split(","):
            k, eq, v = part.partition("=")
            if eq and k.strip() == "label":
                label = v.strip()
            elif k.strip().startswith("@"):
                limit_items.append((k.strip(), v if eq else ""))
            else:
                kept_parts.append(part.strip())
    if name.strip().startswith("@"):  # ``@nodes=1000`` alone: the default engine with a limit
        limit_items.insert(0, tuple(p.strip() for p in name.partition("=")[::2]))  # type: ignore[arg-type]
        name = ""
    _, limits = _take_limits(limit_items, s)
    target = ",".join([name.strip()] + kept_parts) if kept_parts else name.strip()
    if not name.strip() and not kept_parts and not label:
        target = ""
    return EngineSpec(s, "ours", target, (), label or _with_limits(target or "default", limits), game, (), limits)


def unique_labels(specs: list[EngineSpec]) -> list[EngineSpec]:
    """The specs with labels made unique (``solver``, ``solver#2``...)."""
    seen: dict[str, int] = {}
    out = []
    for sp in specs:
        n = seen.get(sp.label, 0) + 1
        seen[sp.label] = n
        out.append(sp if n == 1 else sp.with_label(f"{sp.label}#{n}"))
    return out
