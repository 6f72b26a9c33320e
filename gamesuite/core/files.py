"""Files the program writes and reads: atomic writes, stale temporaries, defensive reads.

``write_atomic`` is the only way gamesuite writes a file (saves, exports,
autosaves, arena records and tables, networks): the data goes to a temporary
file in the target's folder, is flushed and ``fsync``-ed, then renamed over the
target (``os.replace``: atomic on POSIX and Windows) and the folder is
``fsync``-ed so the rename itself survives a power cut. A crash or a kill at any
moment leaves either the old file or the new one, never an empty or half-written
file. The temporary's name carries the writer's process id, so
``clean_stale_temporaries`` can remove those left by dead processes without
touching a write in progress.

``read_text_file`` and ``parse_json_text`` read what a user chose to open and
turn every way it can fail (missing, a folder, too big, not text, JSON nested
100,000 deep, a 5,000-digit number, ``NaN``) into ``InvalidRecordError``;
``read_npz`` does the same for the ``.npz`` files an engine option names
(weights, tables, networks), with ``InvalidOptionError``. ``write_npz`` writes them.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import InvalidOptionError, InvalidRecordError, quote

#: Suffix of the temporary files of ``write_atomic``: ``.NAME.PID.RANDOM.tmp-gamesuite``.
TMP_SUFFIX = ".tmp-gamesuite"
_TMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[0-9a-f]{8}" + re.escape(TMP_SUFFIX) + "$")
#: The largest file ``read_text_file`` reads by default (a game record is a few hundred KB at most).
MAX_READ_BYTES = 64 * 1024 * 1024
#: A temporary this old is stale whoever wrote it (no save takes a day).
STALE_AFTER_S = 24 * 3600
#: How deep JSON may nest: a game record's variations nest one level per branching line.
MAX_JSON_DEPTH = 2000


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (not possible, nor needed, on Windows)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | os.PathLike[str], data: str | bytes, encoding: str = "utf-8",
                 newline: str | None = None) -> Path:
    """Write ``data`` to ``path`` so that the file is at every moment the old one or the new one.

    Text is encoded with ``encoding`` (``newline``: ``"\\r\\n"`` turns each ``"\\n"`` into it).
    The folder must exist. Raises ``OSError`` (the old file untouched) or ``UnicodeEncodeError``.
    """
    target = Path(path)
    if isinstance(data, str):
        if newline is not None:
            data = data.replace("\n", newline)
        payload = data.encode(encoding)
    else:
        payload = bytes(data)
    folder = target.parent
    tmp = folder / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}{TMP_SUFFIX}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        try:
            view = memoryview(payload)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if target.exists():
            try:
                os.chmod(tmp, target.stat().st_mode & 0o7777)  # keep the user's permissions
            except OSError:
                pass
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)
    return target


def write_npz(path: str | os.PathLike[str], arrays: Mapping[str, Any], compressed: bool = True,
              allow_pickle: bool = True) -> Path:
    """``numpy.savez_compressed`` (``compressed=False``: ``numpy.savez``) of ``arrays`` (name -> array) to
    ``path`` exactly (no ``.npz`` appended), through ``write_atomic``."""
    import io

    import numpy as np

    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, allow_pickle=allow_pickle, **arrays)
    return write_atomic(path, buf.getvalue())


def read_npz(path: str | os.PathLike[str], what: str) -> dict[str, Any]:
    """Every array of the ``.npz`` file ``path`` (name -> array), read without pickles. Every way it can fail
    (missing, a folder, not a zip archive, truncated, a damaged member, object arrays) is an
    ``InvalidOptionError`` ``cannot read WHAT 'PATH': REASON``."""
    import pickle
    import zipfile

    import numpy as np

    def fail(reason: object) -> InvalidOptionError:
        return InvalidOptionError(f"cannot read {what} {quote(str(path))}: {reason}")

    try:
        if Path(path).is_file() and not zipfile.is_zipfile(path):  # (numpy would try it as a pickle)
            reason: object = "not a .npz file (a zip archive of arrays), or cut short"
        else:
            with np.load(path, allow_pickle=False) as data:
                return {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, KeyError, pickle.UnpicklingError, zipfile.BadZipFile) as e:
        reason = e
    raise fail(reason)


def write_atomic_with(path: str | os.PathLike[str], write: Callable[[Path], None]) -> Path:
    """Let ``write(tmp_path)`` create the file (for writers that insist on a path, e.g.
    ``numpy.savez``), then fsync and rename it over ``path`` as ``write_atomic`` does."""
    target = Path(path)
    folder = target.parent
    tmp = folder / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}{TMP_SUFFIX}"
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)
    return target


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` may still be running (True where that cannot be told: not POSIX)."""
    if pid == os.getpid():
        return True
    if os.name != "posix":
        return True  # os.kill would end the process on Windows; old temporaries go by their age
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _age_s(path: Path) -> float:
    import time

    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return 0.0


def clean_stale_temporaries(folder: str | os.PathLike[str], legacy: tuple[str, ...] = ()) -> list[Path]:
    """Remove the temporaries of ``write_atomic`` in ``folder`` whose writer is no longer running (or
    that are older than a day), and files matching the glob patterns ``legacy``; the removed paths."""
    d = Path(folder)
    removed: list[Path] = []
    if not d.is_dir():
        return removed
    try:
        entries = list(d.iterdir())
    except OSError:
        return removed
    for p in entries:
        m = _TMP.match(p.name)
        if m and (not process_alive(int(m.group("pid"))) or _age_s(p) > STALE_AFTER_S) or any(
                p.match(g) for g in legacy):
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
    return removed


def decode_text(data: bytes, fallbacks: tuple[str, ...] = ()) -> str:
    """``data`` as text: UTF-8 (with or without a byte-order mark), else each of ``fallbacks`` in
    turn; ``InvalidRecordError`` for binary data (a NUL byte) or bytes no encoding reads."""
    if b"\x00" in data[:65536]:
        raise InvalidRecordError("the file is binary, not text (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        err = e
    for enc in fallbacks:
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            pass
    names = " nor ".join(["UTF-8", *fallbacks])
    raise InvalidRecordError(f"the file is not {names} text: bytes {data[err.start:err.start + 4]!r} "
                             f"at offset {err.start}")


def read_text_file(path: str | os.PathLike[str], limit: int = MAX_READ_BYTES,
                   fallbacks: tuple[str, ...] = ()) -> str:
    """The text of the file a user chose; ``InvalidRecordError`` (quoting the path) for every failure."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InvalidRecordError(f"cannot read {quote(str(p))}: {e.strerror or e}") from None
    if len(data) > limit:
        raise InvalidRecordError(f"{quote(str(p))} is larger than {limit // (1024 * 1024)} MB")
    try:
        return decode_text(data, fallbacks)
    except InvalidRecordError as e:
        raise InvalidRecordError(f"cannot read {quote(str(p))}: {e}") from None


def _depth(text: str) -> int:
    """The deepest nesting of brackets in ``text`` outside strings (a quick pre-check for json)."""
    depth = best = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > best:
                best = depth
                if best > MAX_JSON_DEPTH:
                    return best
        elif ch in "]}":
            depth -= 1
    return best


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json_text(text: str, what: str = "the file",
                    error: type[InvalidRecordError] = InvalidRecordError) -> Any:
    """``json.loads(text)`` with every failure an ``error`` naming ``what``: malformed JSON, nesting
    deeper than ``MAX_JSON_DEPTH``, numbers longer than Python converts, ``NaN``/``Infinity``."""
    if not isinstance(text, str):
        raise error(f"{what} is not text")
    if ("[" in text or "{" in text) and _depth(text) > MAX_JSON_DEPTH:
        raise error(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise error(f"{what} is not valid JSON: {e}") from None
    except (ValueError, RecursionError) as e:  # a number longer than 4,300 digits, NaN, ...
        raise error(f"{what} is not valid JSON: {str(e)[:200]}") from None


__all__ = ["MAX_JSON_DEPTH", "MAX_READ_BYTES", "TMP_SUFFIX", "clean_stale_temporaries", "decode_text",
           "process_alive",
           "parse_json_text", "read_text_file", "write_atomic", "write_atomic_with", "write_npz"]
