"""Faster numba compilation: call typing memoized, no per-constant copies, no string helpers for slices.

numba's type inference runs every constraint of a function again on each pass
until the types settle, and each run of a call constraint asks the callee's
typing templates anew: ``a + b`` on two ``int64`` goes through every template
of ``operator.add`` (numbers, arrays, NumPy ufuncs, with and without literal
arguments) on every pass. Measured on gomoku's ``_vct`` kernel, 10,961 such
resolutions had only 214 distinct questions, and they took two thirds of its
type inference; compiling it went from 3.6 to 1.9 s of CPU.

``install()`` wraps ``BaseFunction.get_call_type`` (the typing of calls to
numba's own functions and overloads; calls of our kernels, ``Dispatcher``
types, are not touched) with a memo keyed by the function type, the typing
context, the target and the argument types. Only answers are kept, never
failures, so an error is reported as numba reports it. A template's answer
depends on nothing else: the templates of a function type are fixed when it is
made, and what a template registers the first time (an overload's compiled
implementation) stays registered. The compiled code is the same: the node
counts of the engines' fixed-depth searches are unchanged (tests/test_warmup.py).

``GAMESUITE_NUMBA_TYPING_MEMO=0`` turns it off (a numba version it does not
know is left alone too).

It also compiles gamesuite's kernels once per argument type, not once per
constant: numba compiles a kernel called with a literal argument
(``tt_store(tt, key, v, 2, 0, -1, d, 0)``) for those literal values, so gomoku
compiled ``tt_store`` four times, shogi ``_attacked`` three times. A kernel of
the package called with literals is now compiled for their plain types (and
for the literals only if it cannot be typed without them). Measured on the
three games' engines: 4-10% less compile CPU, the same node counts at fixed
depths and the same speed within noise (docs/startup.md). It also removes the
second specialisation of a recursive kernel that another kernel calls with a literal, which
numba could not load back from its cache (issue 6713, docs/DEVELOPING.md).
``GAMESUITE_NUMBA_UNLITERAL=0`` turns it off.

And a slice assignment (``stack[lvl + 1, :] = stack[lvl, :]``) no longer
compiles numba's string formatting: numba's CPU error for mismatched shapes
formats both shapes into its message, which made every kernel with such an
assignment compile numba's ``str``/unicode helpers (2.2 s of Hare's 10 s cold
compile). ``install()`` gives it numba's own plain message ("cannot assign
slice from input of different size", what numba says on targets without
strings). ``GAMESUITE_NUMBA_SHAPE_MESSAGE=1`` keeps numba's message.
"""

from __future__ import annotations

import os
from typing import Any

_installed = False
_unliteral = False
#: Resolutions answered from the memo and worked out, for ``gamesuite bench startup``.
stats = {"hits": 0, "misses": 0}


def install() -> bool:
    """Wrap numba's call typing with the memo, and make gamesuite's kernels compile for plain types
    rather than literal values (idempotent); False if the memo is off or numba is unknown."""
    global _installed
    _install_unliteral()
    _install_plain_shape_message()
    if _installed:
        return True
    if os.environ.get("GAMESUITE_NUMBA_TYPING_MEMO", "1") == "0":
        return False
    try:
        from numba.core.target_extension import get_local_target
        from numba.core.types import functions
    except ImportError:  # pragma: no cover - a numba without these modules: leave it alone
        return False
    original = getattr(functions.BaseFunction, "get_call_type", None)
    if original is None or getattr(original, "__code__", None) is None:  # pragma: no cover
        return False
    if original.__code__.co_varnames[:4] != ("self", "context", "args", "kws"):  # pragma: no cover
        return False

    def get_call_type(self: Any, context: Any, args: Any, kws: Any) -> Any:
        try:
            key = (context, get_local_target(context), tuple(args), tuple(sorted(kws.items())) if kws else ())
            memo = self.__dict__.get("_gamesuite_memo")
            if memo is None:
                memo = self.__dict__["_gamesuite_memo"] = {}
            sig = memo.get(key)
        except TypeError:  # an unhashable argument type: no memo for it
            return original(self, context, args, kws)
        if sig is not None:
            stats["hits"] += 1
            return sig
        stats["misses"] += 1
        sig = original(self, context, args, kws)
        if sig is not None:
            memo[key] = sig
        return sig

    get_call_type.__wrapped__ = original  # type: ignore[attr-defined]
    get_call_type.__doc__ = original.__doc__
    functions.BaseFunction.get_call_type = get_call_type  # type: ignore[method-assign]  # the memo wraps numba's method
    _installed = True
    return True


def installed() -> bool:
    """Whether the memo is in place."""
    return _installed


def unliteral_installed() -> bool:
    """Whether gamesuite's kernels are compiled for plain types when called with literals."""
    return _unliteral


def _install_unliteral() -> None:
    global _unliteral
    if _unliteral or os.environ.get("GAMESUITE_NUMBA_UNLITERAL", "1") == "0":
        return
    try:
        from numba.core import errors, types
        from numba.core.dispatcher import Dispatcher
        from numba.core.types.misc import unliteral
    except ImportError:  # pragma: no cover
        return
    original = getattr(Dispatcher, "get_call_template", None)
    if original is None or getattr(original, "__code__", None) is None:  # pragma: no cover
        return
    if original.__code__.co_varnames[:3] != ("self", "args", "kws"):  # pragma: no cover
        return

    def get_call_template(self: Any, args: Any, kws: Any) -> Any:
        if any(isinstance(a, types.Literal) for a in args) and \
                getattr(self.py_func, "__module__", "").startswith("gamesuite."):
            try:
                return original(self, tuple(unliteral(a) for a in args), kws)
            except errors.TypingError:  # a kernel that needs the literal value: as numba would
                pass
        return original(self, args, kws)

    get_call_template.__wrapped__ = original  # type: ignore[attr-defined]
    get_call_template.__doc__ = original.__doc__
    Dispatcher.get_call_template = get_call_template  # type: ignore[method-assign]  # wraps numba's method
    _unliteral = True


_plain_shape_message = False


def plain_shape_message_installed() -> bool:
    """Whether slice assignments compile without numba's string formatting."""
    return _plain_shape_message


def _install_plain_shape_message() -> None:
    global _plain_shape_message
    if _plain_shape_message or os.environ.get("GAMESUITE_NUMBA_SHAPE_MESSAGE", "0") == "1":
        return
    try:
        from numba.np import arrayobj
    except ImportError:  # pragma: no cover
        return
    cpu = getattr(arrayobj, "ol_raise_with_shape_context_cpu", None)
    generic = getattr(arrayobj, "ol_raise_with_shape_context_generic", None)
    if cpu is None or generic is None:  # pragma: no cover - another numba: leave it alone
        return
    if cpu.__code__.co_freevars or generic.__code__.co_freevars or \
            cpu.__code__.co_varnames[:2] != generic.__code__.co_varnames[:2]:  # pragma: no cover
        return
    cpu.__code__ = generic.__code__  # the overload numba registered for the CPU now gives the plain one
    _plain_shape_message = True
