"""Imports only point down: everything below the GUI works without Qt."""

import pkgutil
import subprocess
import sys

import gamesuite

BLOCK_QT = """
import sys, importlib.abc
class _NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "PySide6" or name.startswith("PySide6."):
            raise ImportError("PySide6 is blocked in this test")
        return None
sys.meta_path.insert(0, _NoQt())
"""


def _modules_below_gui():
    out = []
    for mod in pkgutil.walk_packages(gamesuite.__path__, "gamesuite."):
        name = mod.name
        if name.startswith("gamesuite.gui") or name == "gamesuite.__main__":
            continue
        out.append(name)
    return out


def test_everything_but_the_gui_imports_without_qt():
    modules = _modules_below_gui()
    assert "gamesuite.core" in modules and "gamesuite.search" in modules
    assert any(m.startswith("gamesuite.games.") for m in modules)
    code = BLOCK_QT + f"import importlib\nfor m in {modules!r}:\n    importlib.import_module(m)\nprint('ok')\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("ok")


def test_qt_is_really_blocked():
    r = subprocess.run([sys.executable, "-c", BLOCK_QT + "import PySide6"], capture_output=True, text=True)
    assert r.returncode != 0 and "blocked" in r.stderr


def test_no_game_imports_another_game_and_search_imports_no_game():
    import ast
    import pathlib

    root = pathlib.Path(gamesuite.__file__).parent
    games = [p.name for p in (root / "games").iterdir() if p.is_dir() and not p.name.startswith("_")]
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).parts
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names.append(("." * node.level) + (node.module or ""))
            elif isinstance(node, ast.Import):
                names.extend(a.name for a in node.names)
        text = " ".join(names)
        if rel[0] == "search" or rel[0] == "core":
            for game in games:
                assert f"games.{game}" not in text, f"{path} imports the game {game}"
        if rel[0] == "games" and len(rel) > 2:
            for other in games:
                if other != rel[1]:
                    assert f"games.{other}" not in text and f"..{other}" not in text, f"{path} imports {other}"


def test_gamesuite_never_imports_a_gpl_oracle():
    import pathlib

    root = pathlib.Path(gamesuite.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import cshogi" not in text and "from cshogi" not in text, f"{path} imports cshogi (GPL)"
