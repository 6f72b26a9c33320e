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

And a recursive kernel's return type is deduced once per state of its typing,
not once per recursive call per pass. numba types a call of a kernel from
inside its own compilation by ``TypeInferer.return_types_from_partial``: it
copies the caller's typing (the variables' types so far), builds every
constraint of the function again and propagates them, which is a whole typing
of the function each time. It does so for each recursive call site on each pass
of the propagation, and the later passes ask with exactly the same types: shogi's
``_negamax`` (five recursive calls) typed itself twelve times for seven distinct
states, 1.4 s of its 1.6 s of type inference. ``install()`` memoizes the answer
on the inferer, keyed by exactly what numba copies (the name and type of each
variable that is defined and not locked): the method has no side effect on the
inferer ("No side-effect to `self`", numba's docstring) and its answer depends
on nothing else that changes during one function's typing. Checked for numba
0.68 (the code it wraps must read as there, else numba is left alone);
``GAMESUITE_NUMBA_PARTIAL_MEMO=0`` turns it off. Measured: docs/startup.md.
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
    _install_partial_memo()
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


_partial_memo = False
#: Return types of recursive calls answered from the memo and worked out (``return_types_from_partial``).
partial_stats = {"hits": 0, "misses": 0}
#: numba versions (major, minor) whose ``TypeInferer`` the partial-typing memo was checked against.
_PARTIAL_MEMO_NUMBA = ((0, 68),)


def partial_memo_installed() -> bool:
    """Whether a recursive kernel's partial typing is memoized per typing state."""
    return _partial_memo


def _numba_version() -> tuple[int, int]:
    import numba

    try:
        major, minor = (int(x) for x in numba.__version__.split(".")[:2])
    except ValueError:  # pragma: no cover - an odd version string: unknown
        return (0, 0)
    return (major, minor)


def _install_partial_memo() -> None:
    global _partial_memo
    if _partial_memo or os.environ.get("GAMESUITE_NUMBA_PARTIAL_MEMO", "1") == "0":
        return
    if _numba_version() not in _PARTIAL_MEMO_NUMBA:
        return  # another numba: its inferer may copy other state; leave it alone
    try:
        from numba.core.typeinfer import TypeInferer
    except ImportError:  # pragma: no cover
        return
    original = getattr(TypeInferer, "return_types_from_partial", None)
    copy = getattr(TypeInferer, "copy", None)
    code = getattr(original, "__code__", None)
    copy_code = getattr(copy, "__code__", None)
    if original is None or code is None or copy_code is None:  # pragma: no cover
        return
    # what the memo relies on: the answer is computed on a copy that takes only the defined, unlocked types
    if code.co_varnames[:1] != ("self",) or code.co_argcount != 1 or \
            not {"copy", "build_constraint", "propagate", "_get_return_vars"} <= set(code.co_names) or \
            not {"typevars", "locked", "defined", "getone", "arg_names"} <= set(copy_code.co_names):
        return  # pragma: no cover - numba's code reads otherwise: leave it alone

    def return_types_from_partial(self: Any) -> Any:
        try:
            key = tuple(sorted((name, tv.type) for name, tv in self.typevars.items() if tv.defined and not tv.locked))
            memo = self.__dict__.get("_gamesuite_partial")
            if memo is None:
                memo = self.__dict__["_gamesuite_partial"] = {}
            found = key in memo
        except TypeError:  # an unhashable or unorderable type: as numba does
            return original(self)
        if found:
            partial_stats["hits"] += 1
            return memo[key]
        partial_stats["misses"] += 1
        memo[key] = answer = original(self)
        return answer

    return_types_from_partial.__wrapped__ = original  # type: ignore[attr-defined]
    return_types_from_partial.__doc__ = original.__doc__
    TypeInferer.return_types_from_partial = return_types_from_partial  # type: ignore[method-assign]  # wraps numba's
    _partial_memo = True
