"""``gamesuite games``: list the registered games, their parameters and engines."""

from __future__ import annotations

import argparse
import json

from ..core.registry import engines_for, game_classes


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list the games, their parameters and engines",
                       description="List the registered games with their parameters and engines.")
    p.add_argument("--json", action="store_true", help="print one JSON object per game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for name, cls in game_classes().items():
        engines = engines_for(name)
        if args.json:
            print(json.dumps({
                "name": name,
                "long_name": cls.long_name,
                "params": {p.name: p.default for p in cls.params},
                "chance": cls.chance,
                "engines": [e.name for e in engines],
            }))
            continue
        print(f"{name}  —  {cls.long_name}")
        if cls.description:
            print(f"    {cls.description}")
        for p in cls.params:
            print(f"    {p.describe()}")
        print("    engines: " + ", ".join(e.name + (" (default)" if e.default else "") for e in engines))
    return 0
