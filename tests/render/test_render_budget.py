"""A render's budget counts the work, not the wall clock (``gm.render.budget``).

Every loop turn and every call of a template is a step; a render may take
``MAX_STEPS`` of them and ``MAX_CPU_SECONDS`` of its thread's processor
time. The busy machine is simulated by clocks, never by sleeping: a fake
processor clock shows what the budget reads, a wall clock made to leap shows
what it does not. The paused process is in tests/cli/test_busy_machine.py.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest

from gm.render import Renderer, TemplateError, budget, engine

Folder = Callable[..., Path]
STEPS = 1000  # a small budget for the tests: what a runaway loop reaches at once

LOOPS = "début\n{% for i in range(100000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}\n"
MACRO = (
    "début\n{% macro split(n) %}{% if n %}{{ split(n - 1) }}{{ split(n - 1) }}{% endif %}"
    "{% endmacro %}{{ split(22) }}\n"
)
FILTERED = "début\n{% for i in range(100000) if i < 0 %}{{ i }}{% endfor %}\n"
RECURSIVE = (
    "début\n{% for row in [[1]] recursive %}{% if loop.depth < 3 %}"
    "{{ loop(range(100000)) }}{% endif %}{% endfor %}\n"
)
STEPS_MESSAGE = (
    f"line 2: the template took more than {STEPS:,} steps (loop turns and calls); no post"
    " takes that much (look for a loop over a large range, or a macro that calls itself)"
)


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(budget, "MAX_STEPS", STEPS)


@pytest.fixture
def renderer(template_folder: Folder) -> Renderer:
    return Renderer(
        "demo",
        override=template_folder(
            **{
                "demo/fr/loops": LOOPS,
                "demo/fr/macro": MACRO,
                "demo/fr/filtered": FILTERED,
                "demo/fr/recursive": RECURSIVE,
                "demo/fr/ok": "{% for i in range(500) %}{% endfor %}ok\n",
                "demo/fr/uses": '{% import "demo/fr/_m.md.j2" as m %}{{ m.hello() }}\n',
                "demo/fr/_m": "{% macro hello() %}bonjour{% endmacro %}",
            }
        ),
    )


def refusal(renderer: Renderer, kind: str) -> TemplateError:
    with pytest.raises(TemplateError) as caught:
        renderer.render(kind, {})
    assert caught.value.code == "template/too-slow"
    return caught.value


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("kind", ["loops", "macro", "filtered", "recursive"])
def test_every_loop_turn_and_call_is_a_step(
    renderer: Renderer, template_folder: Folder, kind: str
) -> None:
    # A loop that writes nothing, a macro that calls itself twice per call, a
    # loop whose test refuses every item, a recursive loop: all stop, the same
    # way on every machine, naming the line.
    error = refusal(renderer, kind)
    assert str(error) == f"{template_folder() / f'demo/fr/{kind}.md.j2'}, {STEPS_MESSAGE}"
    assert renderer.render("ok", {}) == "ok\n"  # each render has its own budget


def test_the_default_budget_stops_a_runaway_loop(renderer: Renderer) -> None:
    assert "took more than 500,000 steps" in str(refusal(renderer, "loops"))


@pytest.fixture
def fake_cpu(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """A processor clock that advances one second at each reading."""
    readings: list[float] = []

    def clock() -> float:
        readings.append(float(len(readings)))
        return readings[-1]

    monkeypatch.setattr(budget, "CLOCK", clock)
    yield readings


def test_the_budget_reads_the_processor_clock(renderer: Renderer, fake_cpu: list[float]) -> None:
    # 500 loop turns read the clock once (every 256 steps): one second later
    # by that clock, within the budget; the runaway loop is stopped by it.
    assert renderer.render("ok", {}) == "ok\n"
    error = refusal(renderer, "loops")
    assert f"used more than {budget.MAX_CPU_SECONDS:g} seconds of processor time" in str(error)
    assert len(fake_cpu) <= 8  # the start of each render, then every 256 steps


def test_the_wall_clock_is_never_read(renderer: Renderer, monkeypatch: pytest.MonkeyPatch) -> None:
    # A machine so busy that an hour passes between two lines of Python: the
    # budget does not see it.
    hour = iter(range(0, 10**9, 3600))
    for name in ("time", "monotonic", "perf_counter"):
        monkeypatch.setattr(time, name, lambda: float(next(hour)))
    assert renderer.render("ok", {}) == "ok\n"
    assert renderer.render("uses", {}) == "bonjour\n"


def test_templates_are_compiled_before_the_budget_starts(
    renderer: Renderer, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled_during_a_render: list[str] = []
    real = jinja2.Environment.compile

    def compile(
        self: jinja2.Environment, source: Any, name: Any = None, *args: Any, **kw: Any
    ) -> Any:
        if budget._CURRENT.get() is not None:
            compiled_during_a_render.append(str(name))
        return real(self, source, name, *args, **kw)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    assert renderer.render("uses", {}) == "bonjour\n"  # it imports demo/fr/_m.md.j2
    assert compiled_during_a_render == []


@pytest.mark.usefixtures("small_budget")
def test_threads_have_their_own_budgets(renderer: Renderer) -> None:
    results: list[Any] = []

    def work(kind: str) -> None:
        try:
            results.append(renderer.render(kind, {}))
        except TemplateError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=work, args=(k,)) for k in ("loops", "ok") * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["ok\n"] * 3 + ["template/too-slow"] * 3


def test_outside_a_render_nothing_is_counted() -> None:
    budget.tick()
    assert list(budget.counted(range(3))) == [0, 1, 2]
    assert budget._CURRENT.get() is None


@pytest.mark.usefixtures("small_budget")
def test_work_that_swallows_exceptions_is_still_stopped() -> None:
    """TooSlow is a BaseException: an ``except Exception`` on the way does not stop it."""

    def stubborn() -> None:
        for _ in budget.counted(range(10 * STEPS)):
            try:
                budget.tick()
            except Exception:  # the point: a handler that swallows every Exception
                continue

    with pytest.raises(budget.TooSlow):
        budget.spend(stubborn)


def test_a_budget_leaves_nothing_behind(renderer: Renderer) -> None:
    with pytest.raises(ZeroDivisionError):
        budget.spend(lambda: 1 // 0)
    assert budget.spend(lambda: 42) == 42
    assert budget._CURRENT.get() is None
    assert engine.MAX_SECONDS == budget.MAX_CPU_SECONDS
