"""A time limit on a piece of Python work: ``within(seconds, work)``.

Jinja compiles a template's loops and macros to plain Python, so no sandbox
hook sees ``{% for i in range(100000) %}{% for j in range(100000) %}`` spin:
the limit has to interrupt the running code. ``within`` raises ``TooSlow``
inside ``work`` once ``seconds`` have passed:

* **main thread** (the command line): ``signal.setitimer(ITIMER_REAL)`` and a
  ``SIGALRM`` handler that raises. The previous handler and any timer already
  running are put back on the way out, in every path: the remaining time of an
  outer timer is kept (one due during the work fires just after it).
* **any other thread**: a watchdog ``threading.Timer`` raises ``TooSlow`` in
  the working thread with ``PyThreadState_SetAsyncExc`` (CPython). A lock
  makes sure it is never raised once the work has returned: if it fired but
  was not delivered yet, it is withdrawn.
* Where neither exists (no ``setitimer`` and no ``ctypes.pythonapi``, i.e.
  not CPython, or no thread can start, as in CPython compiled to
  WebAssembly: the players' page of ``gm checker --python``), the work runs
  without a time limit.

Either way the exception lands between two Python steps, as Ctrl-C does: a
single built-in operation (joining a string, sorting a list) runs to its end
first, which the renderer's size limits keep short. ``TooSlow`` is a
``BaseException``, like ``KeyboardInterrupt``, so that no ``except
Exception`` on the way (in Jinja or in a filter) can swallow it.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import TypeVar

__all__ = ["TooSlow", "within"]

T = TypeVar("T")


class TooSlow(BaseException):
    """The work ran past its time limit."""


def within(seconds: float, work: Callable[[], T]) -> T:
    """``work()``, interrupted by ``TooSlow`` after ``seconds`` (see the module's doc)."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return _with_alarm(seconds, work)
    return _with_watchdog(seconds, work)


def _expired(signum: int, frame: FrameType | None) -> None:
    raise TooSlow


# The C functions under signal.getsignal and signal.signal, which convert
# handlers to and from enums: that costs 4 µs a call, this 0.3 (every render
# swaps the handler twice). Handlers go back exactly as they were read.
try:
    from _signal import getsignal as _get_handler
    from _signal import signal as _set_handler
except ImportError:  # not CPython
    _get_handler, _set_handler = signal.getsignal, signal.signal


def _with_alarm(seconds: float, work: Callable[[], T]) -> T:
    previous = _get_handler(signal.SIGALRM)
    outer = (0.0, 0.0)
    start = time.monotonic()
    try:
        _set_handler(signal.SIGALRM, _expired)
        outer = signal.setitimer(signal.ITIMER_REAL, seconds)
        return work()
    finally:
        # The alarm fires once at most. Nested so that, should it be handled at
        # the first call here, the handler and outer timer are still put back.
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            # None: a handler set from C, which Python cannot put back.
            _set_handler(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
            if outer[0] > 0:
                left = outer[0] - (time.monotonic() - start)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), outer[1])


def _with_watchdog(seconds: float, work: Callable[[], T]) -> T:
    raise_in = _async_raiser()
    if raise_in is None:
        return work()
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def expire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                raise_in(target, TooSlow)

    watchdog = threading.Timer(seconds, expire)
    watchdog.daemon = True
    try:
        watchdog.start()
    except RuntimeError:  # no thread can start: CPython in WebAssembly (the players' page)
        return work()
    try:
        return work()
    finally:
        # TooSlow may be delivered anywhere up to the end of this block, and
        # then propagates from here as it would from the work; never later.
        with lock:
            state["done"] = True
            if state["fired"]:
                raise_in(target, None)  # fired but not delivered yet: withdraw it
        watchdog.cancel()


_raiser: list[Callable[[int, type[BaseException] | None], int] | None] = []


def _async_raiser() -> Callable[[int, type[BaseException] | None], int] | None:
    """``PyThreadState_SetAsyncExc`` (``None`` withdraws), or ``None`` if not on CPython."""
    if not _raiser:
        try:
            import ctypes

            api = ctypes.pythonapi.PyThreadState_SetAsyncExc
        except (ImportError, AttributeError):
            _raiser.append(None)
        else:
            api.argtypes = (ctypes.c_ulong, ctypes.py_object)
            api.restype = ctypes.c_int

            def raise_in(ident: int, exc: type[BaseException] | None) -> int:
                # A NULL py_object clears a pending exception; None would set None.
                return int(api(ident, ctypes.py_object() if exc is None else exc))

            _raiser.append(raise_in)
    return _raiser[0]
