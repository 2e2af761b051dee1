"""What one render may spend, measured in the work it does, not in the machine's time.

Jinja compiles a template's loops and macros to plain Python, so no sandbox
hook sees ``{% for i in range(100000) %}{% for j in range(100000) %}`` spin.
The renderer's code generator (``gm.render.engine``) makes every loop turn
(each item any ``{% for %}`` takes, recursive loops included) and every call
(a macro, ``caller()``, a function) a *step* that goes through ``tick``. A
render may take ``MAX_STEPS`` steps and ``MAX_CPU_SECONDS`` of the
processor's time spent by its own thread: the first is the same on every
machine, the second bounds a step that is slow by itself (sorting a large
list in a loop). Neither counts the time the process waits: six busy
processes on one core, a process paused and resumed (``SIGSTOP``), a laptop
asleep, leave both unchanged, so a post that rendered once renders again.

Each render has its own ``Budget`` (a context variable: threads and
renders never share one). ``TooSlow`` is a ``BaseException``, like
``KeyboardInterrupt``, so that no ``except Exception`` on the way (in Jinja
or in a filter) can swallow it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import TypeVar

__all__ = ["MAX_CPU_SECONDS", "MAX_STEPS", "Budget", "TooSlow", "counted", "spend", "tick"]

T = TypeVar("T")

MAX_STEPS = 500_000
"""Loop turns and calls one render may take. The posts of the example games
take at most a few dozen, a 20-player, 100-round disclosure a few thousand;
a runaway loop reaches this in a tenth of a second, a macro that calls
itself without writing in about a second."""

MAX_CPU_SECONDS = 2.0
"""Seconds of processor time one render may use (its own thread's)."""

CHECK_EVERY = 256
"""Steps between two readings of the clock (reading it costs more than a step)."""


def _cpu_clock() -> Callable[[], float]:
    try:
        time.thread_time()
    except (AttributeError, OSError):  # not on this system: the whole process's time
        return time.process_time
    return time.thread_time


CLOCK: Callable[[], float] = _cpu_clock()
"""The processor-time clock a budget reads; a test may put a fake one here."""


class TooSlow(BaseException):
    """A render went past its budget: ``why`` is ``"steps"`` or ``"cpu"``."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Budget:
    """The steps and processor time left to one render."""

    __slots__ = ("clock", "limit", "start", "steps")

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock if clock is not None else CLOCK
        self.steps = 0
        self.start = self.clock()
        self.limit = MAX_CPU_SECONDS

    def step(self) -> None:
        self.steps += 1
        if self.steps % CHECK_EVERY == 0:
            if self.steps > MAX_STEPS:
                raise TooSlow("steps")
            if self.clock() - self.start > self.limit:
                raise TooSlow("cpu")


_CURRENT: ContextVar[Budget | None] = ContextVar("gm_render_budget", default=None)


def tick() -> None:
    """One step of the render in progress (nothing outside a render)."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.step()


def counted(items: Iterable[T]) -> Iterator[T]:
    """``items``, one step each: what every ``{% for %}`` iterates over."""
    budget = _CURRENT.get()
    if budget is None:
        yield from items
        return
    for item in items:
        budget.step()
        yield item


def spend(work: Callable[[], T], clock: Callable[[], float] | None = None) -> T:
    """``work()`` under a fresh budget (``TooSlow`` past it)."""
    token = _CURRENT.set(Budget(clock))
    try:
        return work()
    finally:
        _CURRENT.reset(token)
