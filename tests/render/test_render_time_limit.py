"""The time limit of a render: on the main thread (SIGALRM) and off it (a watchdog).

The command line renders on the main thread (see tests/cli/test_template_time_limit.py);
a program that uses ``gm.render`` from another thread gets the watchdog instead.
Either way the limit must stop a runaway template, never fire once the render is
over, and leave any timer or handler of the caller as it was.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gm.render import Renderer, TemplateError, engine
from gm.render.timer import TooSlow, within

Folder = Callable[..., Path]
LIMIT = 0.3
# 10^9 turns: half a minute or more without the limit (finite, so a broken limit fails).
SLOW = "début\n{% for i in range(100000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}\n"


@pytest.fixture(autouse=True)
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_SECONDS", LIMIT)


@pytest.fixture
def renderer(template_folder: Folder) -> Renderer:
    return Renderer(
        "demo", override=template_folder(**{"demo/fr/slow": SLOW, "demo/fr/ok": "ok\n"})
    )


@pytest.fixture
def outer_alarm() -> Iterator[list[float]]:
    """A SIGALRM handler of the caller's own, recording when it fires; removed after."""
    fired: list[float] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(time.monotonic()))
    yield fired
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def in_thread(work: Callable[[], Any]) -> Any:
    """``work()`` on another thread; its result, or the exception it raised."""
    out: list[Any] = []

    def target() -> None:
        try:
            out.append(work())
        except BaseException as exc:
            out.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    return out[0]


def too_slow(renderer: Renderer, path: Path, render: Callable[[], Any]) -> float:
    start = time.monotonic()
    error = render()
    took = time.monotonic() - start
    assert isinstance(error, TemplateError)
    assert error.code == "template/too-slow"
    assert str(error) == (
        f"{path}, line 2: the template ran for more than {LIMIT:g} seconds; no post takes"
        " that long (look for a loop over a large range, or a macro that calls itself)"
    )
    return took


def catch(work: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        try:
            return work()
        except TemplateError as exc:
            return exc

    return run


def test_main_thread(renderer: Renderer, template_folder: Folder) -> None:
    path = template_folder() / "demo/fr/slow.md.j2"
    took = too_slow(renderer, path, catch(lambda: renderer.render("slow", {})))
    assert LIMIT <= took < LIMIT + 1
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert renderer.render("ok", {}) == "ok\n"  # the renderer still works


def test_other_thread(renderer: Renderer, template_folder: Folder) -> None:
    path = template_folder() / "demo/fr/slow.md.j2"
    took = too_slow(renderer, path, lambda: in_thread(catch(lambda: renderer.render("slow", {}))))
    assert LIMIT <= took < LIMIT + 1


def test_other_threads_at_once(renderer: Renderer) -> None:
    errors: list[Any] = []
    threads = [
        threading.Thread(target=lambda: errors.append(catch(lambda: renderer.render("slow", {}))()))
        for _ in range(5)
    ]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [e.code for e in errors] == ["template/too-slow"] * 5
    assert time.monotonic() - start < LIMIT + 2


def test_no_late_exception_after_a_render_in_a_thread(renderer: Renderer) -> None:
    """A render that ends in time is never interrupted later: the watchdog is disarmed."""

    def work() -> str:
        out = renderer.render("ok", {})
        for _ in range(60):  # well past the limit, busy in Python code
            time.sleep(0.01)
            sum(range(1000))
        return out

    assert in_thread(work) == "ok\n"


def test_a_watchdog_that_fires_as_the_render_ends_raises_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The watchdog goes off just as the work returns (here: while it is being
    cancelled): too late, it must not raise into the thread, now doing other work."""

    class LastMoment(threading.Timer):
        def start(self) -> None:
            pass

        def cancel(self) -> None:
            self.function()

    monkeypatch.setattr(threading, "Timer", LastMoment)

    def work() -> str:
        out = within(LIMIT, lambda: "ok")
        sum(range(100_000))  # Python code after it, where a late exception would land
        return out

    assert in_thread(work) == "ok"


def test_the_callers_alarm_is_kept(renderer: Renderer, outer_alarm: list[float]) -> None:
    handler = signal.getsignal(signal.SIGALRM)
    signal.setitimer(signal.ITIMER_REAL, 30)
    with pytest.raises(TemplateError):
        renderer.render("slow", {})
    assert signal.getsignal(signal.SIGALRM) is handler
    left = signal.getitimer(signal.ITIMER_REAL)[0]
    assert 28 < left < 30 - LIMIT + 0.01  # the time spent counts
    assert renderer.render("ok", {}) == "ok\n"
    assert signal.getsignal(signal.SIGALRM) is handler
    assert outer_alarm == []


def test_a_callers_alarm_due_during_the_render_fires_after_it(
    renderer: Renderer, outer_alarm: list[float]
) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    start = time.monotonic()
    with pytest.raises(TemplateError):
        renderer.render("slow", {})
    done = time.monotonic()
    time.sleep(0.1)
    assert len(outer_alarm) == 1
    assert done - start >= LIMIT and outer_alarm[0] >= done - 0.01


def test_work_that_swallows_exceptions_is_still_stopped() -> None:
    """TooSlow is a BaseException: an ``except Exception`` on the way does not stop it."""

    def stubborn() -> None:
        while True:
            try:
                time.sleep(0.01)
            except Exception:  # the point: a handler that swallows every Exception
                continue

    for run in (
        lambda: within(LIMIT, stubborn),
        lambda: in_thread(lambda: within(LIMIT, stubborn)),
    ):
        start = time.monotonic()
        try:
            outcome = run()
        except TooSlow as exc:
            outcome = exc
        assert isinstance(outcome, TooSlow)
        assert time.monotonic() - start < LIMIT + 1


def test_within_returns_the_result_and_passes_errors_through() -> None:
    assert within(LIMIT, lambda: 42) == 42
    assert in_thread(lambda: within(LIMIT, lambda: 42)) == 42
    with pytest.raises(ZeroDivisionError):
        within(LIMIT, lambda: 1 // 0)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert isinstance(in_thread(lambda: within(LIMIT, lambda: 1 // 0)), ZeroDivisionError)
