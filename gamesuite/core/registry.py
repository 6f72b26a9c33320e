"""Games and engines by name: ``load_game("gomoku(size=15,rule=renju)")``.

Game packages under ``gamesuite.games`` register themselves when imported; the
registry imports every such package the first time a name is looked up, so a
new game joins by existing. Engines register per game (or for every game with
``game="*"``) and are built from specs such as ``"mtdf,top=10,hash=64"``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import InvalidGameSpecError, InvalidOptionError, quote
from .info import Engine
from .options import Option, as_option, convert, parse_float, parse_int
from .state import State

#: The longest game or engine spec read (a spec is a name and a few options; longer text is refused
#: before it is split or looked up).
MAX_SPEC_LENGTH = 1000


@dataclass(frozen=True)
class Param:
    """A game parameter: name, default and the values it accepts."""

    name: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None

    def convert(self, text: str | Any) -> Any:
        """Convert ``text`` to this parameter's type, or raise ``InvalidGameSpecError``."""
        return convert(text, type(self.default), f"parameter {self.name}", self.min, self.max, self.choices,
                       error=InvalidGameSpecError)

    def describe(self) -> str:
        rng = ""
        if self.choices:
            rng = " one of " + "|".join(map(str, self.choices))
        elif self.min is not None or self.max is not None:
            rng = f" in {self.min}..{self.max}"
        return f"{self.name}={self.default}{rng}" + (f"  {self.help}" if self.help else "")


@dataclass(frozen=True)
class FileFormat:
    """A game's file format: a name, file extensions (no dot), a reader and/or a writer."""

    name: str
    extensions: tuple[str, ...]
    load: Callable[[str], State] | None  # text -> the final state (its history: the game's moves)
    save: Callable[[State], str] | None  # the line that led to a state -> text
    #: the same with the players' names, the moves' times and the comments (``core.gameinfo.GameInfo``)
    load_info: Callable[[str], tuple[State, Any]] | None = None
    save_info: Callable[[State, Any], str] | None = None


class Game(ABC):
    """A game with its parameters fixed: the factory of its states.

    Subclasses set the class attributes and implement ``new_state`` and
    ``state_from_text``.
    """

    name: ClassVar[str]
    long_name: ClassVar[str]
    description: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    chance: ClassVar[bool] = False
    zero_sum: ClassVar[bool] = True
    #: Extra specs the conformance suite also plays (besides the defaults).
    test_specs: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **values: Any) -> None:
        known = {p.name: p for p in self.params}
        for k in values:
            if k not in known:
                raise InvalidGameSpecError(
                    f"{self.name} has no parameter {quote(k)}; it has: "
                    + (", ".join(known) or "none")
                )
        self.values: dict[str, Any] = {
            p.name: p.convert(values[p.name]) if p.name in values else p.default for p in self.params
        }
        self.validate()

    def validate(self) -> None:  # noqa: B027 - a hook: most games have nothing to check
        """Check parameter combinations; raise ``InvalidGameSpecError``."""

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def spec(self) -> str:
        """The canonical spec, e.g. ``gomoku(size=15,rule=renju)``."""
        if not self.values:
            return self.name
        return self.name + "(" + ",".join(f"{k}={v}" for k, v in self.values.items()) + ")"

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many players this game (with these parameters) has."""

    def player_name(self, player: int) -> str:
        return f"player {player + 1}"

    @abstractmethod
    def new_state(self) -> State:
        """The start position."""

    @abstractmethod
    def state_from_text(self, text: str) -> State:
        """A state from position text; ``InvalidPositionError`` quoting the text."""

    @classmethod
    def file_formats(cls) -> list[FileFormat]:
        """The game's own file formats, besides gamesuite's JSON record (``play.record``).

        By default those its package lists in ``gamesuite.games.<name>.records.FILE_FORMATS`` as
        ``(name, extensions, load, save[, load_info, save_info])`` with ``load(text) -> State`` and
        ``save(state) -> str`` (either may be None; the ``_info`` pair also reads and writes a
        ``core.gameinfo.GameInfo``); a game class may also override this."""
        try:
            mod = importlib.import_module(f"{cls.__module__.rpartition('.')[0]}.records")
        except ImportError:
            return []
        out = []
        for name, exts, load, save, *rich in getattr(mod, "FILE_FORMATS", ()):
            load_info, save_info = (list(rich) + [None, None])[:2]
            out.append(FileFormat(str(name), tuple(str(e).lstrip(".") for e in exts), load, save, load_info,
                                  save_info))
        return out

    def __repr__(self) -> str:
        return f"<Game {self.spec}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)


_GAMES: dict[str, type[Game]] = {}
_discovered = False

_SPEC = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$")


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: make ``cls`` loadable by its ``name``."""
    _GAMES[cls.name] = cls
    return cls


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import gamesuite.games as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{mod.name}")


def game_classes() -> dict[str, type[Game]]:
    """Every registered game class by name."""
    _discover()
    return dict(sorted(_GAMES.items()))


def parse_params(text: str, what: str) -> dict[str, str]:
    """Parse ``a=1,b=x`` into a dict of strings; ``what`` names it in errors."""
    out: dict[str, str] = {}
    if not text.strip():
        return out
    for part in text.split(","):
        k, eq, v = part.partition("=")
        if not eq or not k.strip():
            raise InvalidGameSpecError(f"{what}: expected name=value, got {quote(part)}")
        if k.strip() in out:
            raise InvalidGameSpecError(f"{what}: {quote(k.strip())} is given twice")
        out[k.strip()] = v.strip()
    return out


def _check_spec_text(spec: Any, what: str, error: type[InvalidGameSpecError] | type[InvalidOptionError]) -> str:
    if not isinstance(spec, str):
        raise error(f"{what} must be text, got {quote(spec)}")
    if len(spec) > MAX_SPEC_LENGTH:
        raise error(f"{what} is longer than {MAX_SPEC_LENGTH} characters: {quote(spec)}")
    return spec


def load_game(spec: str) -> Game:
    """The game named by ``spec``: ``"tictactoe"``, ``"gomoku(size=15,rule=renju)"``."""
    _check_spec_text(spec, "a game spec", InvalidGameSpecError)
    m = _SPEC.match(spec)
    if not m:
        raise InvalidGameSpecError(f"malformed game spec {quote(spec)}; expected name(param=value,...)")
    name, args = m.group(1), m.group(2) or ""
    classes = game_classes()
    if name not in classes:
        raise InvalidGameSpecError(
            f"unknown game {quote(name)} in {quote(spec)}; known: {', '.join(classes)}"
        )
    return classes[name](**parse_params(args, f"game spec {spec!r}"))


# -- engines --------------------------------------------------------------

#: ``factory(game, **options)`` builds an engine of ``game``.
EngineFactory = Callable[..., Engine]


@dataclass(frozen=True)
class EngineEntry:
    """A registered engine: its name, the game it plays and how to build it."""

    name: str
    game: str  # a game name, or "*" for every game
    factory: EngineFactory  # factory(game: Game, **options) -> Engine
    help: str = ""
    default: bool = False
    #: The options ``factory`` accepts, each declared with its type and range (``core.options.Option``).
    options: dict[str, Option] = field(default_factory=dict)
    supports: Callable[[Game], bool] | None = None  # for "*" engines: which games they can play

    def defaults(self) -> dict[str, Any]:
        """Each option's default value."""
        return {k: o.default for k, o in self.options.items()}

    def convert_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """``given`` (text or values) checked against the declarations; ``InvalidOptionError`` quoting the
        first unknown or bad one. Nothing is built before every option has passed."""
        out: dict[str, Any] = {}
        for k, v in given.items():
            if k not in self.options:
                raise InvalidOptionError(
                    f"engine {self.name} has no option {quote(k)}; it has: {', '.join(self.options) or 'none'}")
            out[k] = self.options[k].convert(v, k)
        return out


_ENGINES: list[EngineEntry] = []


def register_engine(
    game: str,
    name: str,
    factory: EngineFactory,
    help: str = "",
    default: bool = False,
    options: dict[str, Any] | None = None,
    supports: Callable[[Game], bool] | None = None,
) -> None:
    """Register ``factory`` as engine ``name`` of ``game`` (``"*"``: every game ``supports`` accepts).

    ``options`` declares every option ``factory`` takes: name -> ``Option(default, min=, max=,
    choices=, help=)`` (a bare default is a declaration without a range; numbers need one, and a
    test checks that every registered engine gives it). ``make_engine`` checks a spec against them.
    """
    _ENGINES.append(EngineEntry(name, game, factory, help, default,
                                {k: as_option(v) for k, v in (options or {}).items()}, supports))


def engines_for(game: Game | str) -> list[EngineEntry]:
    """Engines that play ``game`` (a game or a name: its default parameters), own ones first."""
    _discover()
    if isinstance(game, str):
        game = load_game(game)
    own = [e for e in _ENGINES if e.game == game.name]
    generic = [
        e
        for e in _ENGINES
        if e.game == "*" and e.name not in {o.name for o in own} and (e.supports is None or e.supports(game))
    ]
    return sorted(own, key=lambda e: not e.default) + generic


def _convert_option(value: str) -> Any:
    """An undeclared option's text as a switch, an integer, a number or else the text (``py:`` engines)."""
    low = value.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for parse in (parse_int, parse_float):
        try:
            return parse(value, "option")
        except InvalidOptionError:
            pass
    return value


def engine_entry(game: Game, spec: str = "") -> EngineEntry:
    """The registered engine that ``spec`` names (its part before the first comma; empty: the default)."""
    entries = engines_for(game)
    if not entries:
        raise InvalidOptionError(f"no engine plays {game.spec}")
    name = spec.partition(",")[0].strip()
    if not name:
        return entries[0]
    for e in entries:
        if e.name == name:
            return e
    raise InvalidOptionError(
        f"unknown engine {quote(name)} for {game.name}; known: {', '.join(e.name for e in entries)}"
    )


def check_engine_spec(game: Game, spec: str = "") -> tuple[EngineEntry, dict[str, Any]]:
    """The engine ``spec`` names and its options converted, building nothing; ``InvalidOptionError``
    quoting what is wrong (for a form to check a spec as it is typed)."""
    _check_spec_text(spec, "an engine spec", InvalidOptionError)
    entry = engine_entry(game, spec)
    rest = spec.partition(",")[2]
    try:
        given = parse_params(rest, f"engine spec {quote(spec)}")
    except InvalidGameSpecError as e:
        raise InvalidOptionError(str(e)) from None
    return entry, entry.convert_options(given)


def make_engine(game: Game, spec: str = "") -> Engine:
    """Build the engine named by ``spec`` (``"mtdf,top=10,hash=64"``; empty: the default).

    Every engine keeps the contract of ``core.Engine``; ``tests/test_engines.py`` checks it for
    every registered game and engine."""
    entry, opts = check_engine_spec(game, spec)
    try:
        return entry.factory(game, **opts)
    except TypeError as e:
        raise InvalidOptionError(f"bad options for engine {entry.name} in {quote(spec)}: {e}") from None
