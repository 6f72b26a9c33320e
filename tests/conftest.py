"""Test setup: Qt runs offscreen; hypothesis keeps to a CI-sized budget."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.load_profile("ci")


import sys  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _no_unexpected_save_question(monkeypatch):
    """A window's *Save / Discard / Cancel* question would wait for a click forever in a test: a test
    that expects it answers it (``win.ask_save_changes = ...``); any other fails at once."""
    mw = sys.modules.get("gamesuite.gui.mainwindow")
    if mw is not None:
        def unexpected(self, action):  # type: ignore[no-untyped-def]
            raise AssertionError(f"unexpected question: save the game before {action}?")

        monkeypatch.setattr(mw.MainWindow, "ask_save_changes", unexpected)


@pytest.fixture
def run(capsys):
    """The ``gamesuite`` command in this process (fast: numba kernels already loaded): (status, stdout, stderr)."""
    from gamesuite.cli import main

    def call(*args: str) -> tuple[int, str, str]:
        try:
            status = main(list(args))
        except SystemExit as e:
            status = int(e.code or 0)
        out = capsys.readouterr()
        return status, out.out, out.err

    return call
