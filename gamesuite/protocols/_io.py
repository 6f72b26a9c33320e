"""Standard input and output for the protocol loops: no byte a client sends can end the engine.

A protocol reads lines from a client that may send anything: a stray Latin-1 byte,
a lone ``0xff`` under ``PYTHONIOENCODING=utf-8:strict``, a 10 MB line. ``lines``
decodes each line on its own, replacing what is not UTF-8 (U+FFFD), so the line
reaches the protocol's parser and gets an error reply like any other malformed
line. ``lenient_stdout`` makes the replies encodable whatever the locale (an echo
of that U+FFFD on an ASCII terminal becomes ``\\ufffd``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import IO, TextIO, cast

#: The longest line read as one command; the rest of a longer line is read and dropped.
MAX_LINE_BYTES = 1 << 20


def lines(stream: TextIO | IO[bytes] | None = None) -> Iterator[str]:
    """The lines of ``stream`` (default: standard input) as text, decoded leniently.

    A text stream with a binary buffer (``sys.stdin``) is read through the buffer; a plain
    text stream (a test's ``StringIO``) is read as it is. A line longer than
    ``MAX_LINE_BYTES`` is cut there (the rest of it is skipped).
    """
    stream = sys.stdin if stream is None else stream
    raw = getattr(stream, "buffer", None)
    if raw is None and isinstance(stream, (bytes, bytearray)):
        raise TypeError("lines() reads a stream, not bytes")
    if raw is None and not _is_binary(stream):
        for line in stream:
            yield line if isinstance(line, str) else line.decode("utf-8", "replace")
        return
    source = cast("IO[bytes]", raw if raw is not None else stream)  # a binary stream: text ones returned above
    while True:
        chunk = source.readline(MAX_LINE_BYTES)
        if not chunk:
            return
        if len(chunk) >= MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            while True:  # drop the rest of an overlong line
                more = source.readline(MAX_LINE_BYTES)
                if not more or more.endswith(b"\n"):
                    break
        yield chunk.decode("utf-8", "replace")


def _is_binary(stream: object) -> bool:
    mode = getattr(stream, "mode", "")
    return "b" in mode if isinstance(mode, str) else False


def lenient_stdout() -> None:
    """Let standard output write any text: characters the encoding lacks become escapes."""
    try:
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    except (AttributeError, ValueError):  # not a TextIOWrapper (a test's capture)
        pass


__all__ = ["MAX_LINE_BYTES", "lenient_stdout", "lines"]
