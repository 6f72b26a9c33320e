"""The Dask cluster is documented to bind to loopback, and a plain remote address is warned about (issue 21)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gamesuite.arena.cluster import insecure_remote

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("address,insecure", [
    ("tcp://10.0.0.5:8786", True), ("192.168.1.2:8786", True), ("tcp://scheduler.example:8786", True),
    ("tcp://127.0.0.1:8786", False), ("tcp://localhost:8786", False), ("tcp://[::1]:8786", False),
    ("tls://10.0.0.5:8786", False), ("inproc://x", False),
])
def test_plain_tcp_to_another_machine_is_insecure(address, insecure):
    assert insecure_remote(address) is insecure


def test_the_docs_start_every_scheduler_on_loopback_or_with_tls():
    lines = [ln for ln in (ROOT / "docs" / "arena.md").read_text(encoding="utf-8").splitlines()
             if re.match(r"\s*dask scheduler\b", ln)]
    assert lines
    for ln in lines:
        assert "--host 127.0.0.1" in ln or "--protocol tls" in ln, ln
        assert "--dashboard-address 127.0.0.1" in ln, ln
