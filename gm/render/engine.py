"""The template engine: where templates are found, how they run, what their errors say.

``Renderer`` owns one sandboxed Jinja environment per (game, language,
override folder). A post kind such as ``"results"`` is looked up as
``<game>/<lang>/results.md.j2`` and then ``common/<lang>/results.md.j2``,
first in the MJ's override folder, then in the templates shipped with gm: a
game's own in its package (``<package>/templates/<lang>/``, found through
``importlib.resources``, so a game installed from another distribution brings
its templates along), the platform's in ``gm/render/templates/<lang>/``.

MJs edit templates, so everything a template can get wrong (syntax, an
undefined variable, an unsafe attribute, a filter given the wrong value) is a
``TemplateError``: a user error naming the file and line, with no traceback.

What an edited template can reach and spend is bounded: it reads only files
inside its own folder (``gm.render.loader``: no link or ``..`` out of it),
writes at most ``MAX_OUTPUT`` characters, and takes at most ``budget.MAX_STEPS``
loop turns and calls and ``MAX_SECONDS`` of processor time
(``gm.render.budget``): the work it does, never the wall clock, so a busy or
paused machine cannot fail a render. Templates are compiled before the
budget starts.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
import jinja2.meta
import jinja2.runtime
from jinja2.compiler import CodeGenerator, Frame
from jinja2.sandbox import SandboxedEnvironment

from gm.errors import InputError, NotFoundError
from gm.paths import expand
from gm.render import budget
from gm.render.budget import MAX_CPU_SECONDS, TooSlow, counted, spend, tick
from gm.render.cache import default_folder, template_cache
from gm.render.charts import FILTERS as CHART_FILTERS
from gm.render.escape import Raw
from gm.render.filters import FILTERS, FilterError, finalize
from gm.render.grammar import FILTERS as GRAMMAR_FILTERS
from gm.render.loader import (
    ConfinedLoader,
    ShippedLoader,
    TemplateOutsideFolder,
    TemplateUnreadable,
)
from gm.render.presets import to_forum
from gm.render.typography import finish

__all__ = [
    "PLATFORM",
    "TEMPLATE_SUFFIX",
    "Renderer",
    "TemplateError",
    "game_templates_dir",
    "templates_dir",
]

TEMPLATE_SUFFIX = ".md.j2"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
# Errors a template can cause at run time besides Jinja's own (1/0, "a" + 1, a bad filter value).
_TEMPLATE_RUNTIME_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


class TemplateError(InputError):
    """A template cannot be rendered: syntax, undefined variable, unsafe access, bad value."""

    code = "template/error"


PLATFORM = "common"
"""Whose templates are the platform's: ``common/<lang>/<kind>.md.j2`` names them."""


def templates_dir() -> Path:
    """The platform's own templates: the posts every game makes, in
    ``gm/render/templates/<lang>/`` and named ``common/<lang>/<kind>.md.j2``."""
    folder = _package_folder("gm.render")
    assert folder is not None, "gm/render/templates is missing from this installation"
    return folder


def game_templates_dir(game_id: str) -> Path | None:
    """The templates a game ships in its own package, ``<package>/templates/<lang>/``,
    named ``<id>/<lang>/<kind>.md.j2``; None when no game ``game_id`` is
    registered (a test's made-up game) or its package ships no templates."""
    from gm import games

    try:
        package = games.package(game_id)
    except NotFoundError:
        return None
    return _package_folder(package)


def _package_folder(package: str) -> Path | None:
    # importlib.resources finds the package wherever it was installed from (a
    # game may come from another distribution); Jinja's loader and the
    # confinement then need it as a real folder, which every installed
    # package is (pip unpacks wheels).
    folder = importlib.resources.files(package).joinpath("templates")
    if not isinstance(folder, Path):
        raise NotFoundError(
            f"the templates of {package} are not a folder on disk ({folder})",
            code="template/folder-not-found",
        )
    return folder if folder.is_dir() else None


MAX_OUTPUT = 1_000_000
"""Characters a template may write, for one post or for any macro or block in it.

Far above any real post (a 20-player, 100-round disclosure is a few hundred
thousand characters; forums refuse posts over 60 000), it bounds the memory
and time an edited template can take: ``{% for i in range(99999) %}`` nested
twice is refused as soon as it has written too much, not after filling the
memory. The same bound applies to a string or list made with ``*`` and to
the size of a number made with ``**``.
"""


MAX_SECONDS = MAX_CPU_SECONDS
"""Seconds of processor time one post may take to render (``gm.render.budget``).

A real post takes well under a millisecond (the whole example game, 71 posts
and replies, about 7 ms), so this and ``MAX_STEPS`` stop only a runaway
template: a loop that writes nothing,
``{% for i in range(100000) %}{% for j in range(100000) %}``, or a macro that
calls itself twice per call, would otherwise run for hours without ever
reaching ``MAX_OUTPUT``. Each render has its own budget; compiling the
templates is outside it.
"""


class OutputTooLong(Exception):
    """A template wrote (or computed) more than ``MAX_OUTPUT`` characters."""


def _bounded(parts: Iterable[str]) -> Iterable[str]:
    size = 0
    for part in parts:
        size += len(part)
        if size > MAX_OUTPUT:
            raise OutputTooLong
        yield part


class _BoundedBuffer(list[str]):
    """The output buffer of a macro, ``{% set %}`` block, ``caller()`` or filter
    block: Jinja appends to it, and it refuses to grow past ``MAX_OUTPUT``."""

    size = 0

    def append(self, part: str) -> None:
        self._count(len(part))
        super().append(part)

    def extend(self, parts: Iterable[str]) -> None:
        parts = tuple(parts)
        self._count(sum(len(p) for p in parts))
        super().extend(parts)

    def _count(self, n: int) -> None:
        self.size += n
        if self.size > MAX_OUTPUT:
            raise OutputTooLong


class _CodeGenerator(CodeGenerator):
    def visit_For(self, node: jinja2.nodes.For, frame: Frame) -> None:
        # Every item a loop takes is a step of the render's budget: Jinja's
        # ``for x in <iter>`` is written ``for x in environment.counted(<iter>)``,
        # and a recursive loop's ``reciter`` (what ``loop(…)`` passes) as well.
        saved = {k: self.__dict__[k] for k in ("visit", "write") if k in self.__dict__}
        outer_visit, outer_write = self.visit, self.write

        def visit(child: jinja2.nodes.Node, *args: Any, **kwargs: Any) -> None:
            if child is node.iter and not node.recursive:
                outer_write("environment.counted(")
                outer_visit(child, *args, **kwargs)
                outer_write(")")
            else:
                outer_visit(child, *args, **kwargs)

        def write(text: str) -> None:
            outer_write("environment.counted(reciter)" if text == "reciter" else text)

        self.visit, self.write = visit, write  # type: ignore[method-assign,assignment]
        try:
            super().visit_For(node, frame)
        finally:
            for name in ("visit", "write"):
                if name in saved:
                    setattr(self, name, saved[name])
                else:
                    delattr(self, name)

    def buffer(self, frame: Frame) -> None:
        # Jinja writes ``t_1 = []``; a bounded buffer stops a runaway loop
        # inside a macro before it fills the memory (``environment`` is a
        # name every compiled template has).
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.output_buffer()")


def _raw_concat(parts: Iterable[str]) -> Raw:
    # Jinja joins the output of a template, a macro, a {% set %} block or a caller() with
    # `environment.concat` (NativeEnvironment overrides it the same way). That output is
    # Markdown the template wrote, already escaped where it printed data: marking it Raw
    # keeps `{{ macro(...) }}` from being escaped a second time. Every join is bounded,
    # so no macro or block can grow past MAX_OUTPUT either.
    return Raw("".join(_bounded(parts)))


_SEQUENCES = (str, list, tuple)
MAX_EXPONENT_BITS = 64 * 1024
"""Bits a number made with ``**`` may have: a million digits is no post's business."""


class _Environment(SandboxedEnvironment):
    concat = staticmethod(_raw_concat)
    code_generator_class = _CodeGenerator
    intercepted_binops = frozenset({"*", "**"})
    counted = staticmethod(counted)

    def call(
        __self,  # as Jinja names it: keyword arguments pass through
        __context: jinja2.runtime.Context,
        __obj: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        # Every call from a template (a macro, caller(), loop(…), a function)
        # is a step: a macro that calls itself twice per call runs out of them.
        tick()
        return super().call(__context, __obj, *args, **kwargs)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.references: dict[str, tuple[str, tuple[str | None, ...]]] = {}
        """Template name -> (the source it was compiled from, the templates it names)."""

    @staticmethod
    def output_buffer() -> _BoundedBuffer:
        return _BoundedBuffer()

    def _parse(self, source: str, name: str | None, filename: str | None) -> jinja2.nodes.Template:
        # Every template compiled notes the templates it names, from the tree
        # it was compiled from: ``Renderer.fingerprint`` then need not parse
        # the same source a second time (parsing is most of what a post costs
        # the first time its kind is published).
        tree = super()._parse(source, name, filename)
        if name is not None:
            refs = tuple(jinja2.meta.find_referenced_templates(tree))
            self.references[name] = (source, refs)
        return tree

    def referenced(self, name: str, source: str) -> tuple[str | None, ...]:
        """The templates ``source`` (the template ``name``) imports, includes or
        extends: from its compilation if that was of this very source."""
        known = self.references.get(name)
        if known is None and self.bytecode_cache is not None:
            # Loading it notes them, from the cache (gm.render.cache) or by
            # compiling, which its render will need anyway; an error is the
            # render's to report, and the parse below the fingerprint's.
            with suppress(jinja2.TemplateError, RecursionError, UnicodeDecodeError):
                self.get_template(name)
            known = self.references.get(name)
        if known is not None and known[0] == source:
            return tuple(known[1])
        return tuple(jinja2.meta.find_referenced_templates(self.parse(source)))

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if (
                    isinstance(seq, _SEQUENCES)
                    and isinstance(times, int)
                    and len(seq) * times > MAX_OUTPUT
                ):
                    raise OutputTooLong
        elif (
            operator == "**"
            and isinstance(left, int)
            and isinstance(right, int)
            and right > 0
            and abs(left) > 1
            and right * abs(left).bit_length() > MAX_EXPONENT_BITS
        ):
            raise OutputTooLong
        return super().call_binop(context, operator, left, right)


class Renderer:
    """Render the posts of one game in one language, from Markdown templates."""

    def __init__(
        self,
        game_id: str,
        lang: str = "fr",
        override: Path | None = None,
        filters: Mapping[str, Callable[..., Any]] | None = None,
    ) -> None:
        for what, value in (("game", game_id), ("language", lang)):
            if not _NAME.fullmatch(value):
                raise NotFoundError(f"invalid {what} name {value!r}", code="template/not-found")
        self.game_id = game_id
        self.lang = lang
        self.search_path: list[Path] = []
        if override is not None:
            override = expand(override, "templates folder")
            if not override.is_dir():
                raise NotFoundError(
                    f"template folder not found: {override}", code="template/folder-not-found"
                )
            self.search_path.append(override)
        loaders: list[jinja2.BaseLoader] = [ConfinedLoader(p) for p in self.search_path]
        shipped = {PLATFORM: templates_dir()}
        game = game_templates_dir(game_id)
        if game is not None:
            shipped = {game_id: game, **shipped}
            self.search_path.append(game)
        self.search_path.append(shipped[PLATFORM])
        loaders.append(ShippedLoader(shipped))
        self.env = _Environment(
            # One confined loader per folder: a template is read from inside the
            # folder it is found in, never through a link or ``..`` out of it.
            loader=jinja2.ChoiceLoader(loaders),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            finalize=finalize,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters.update(FILTERS)
        self.env.filters.update(GRAMMAR_FILTERS)
        self.env.filters.update(CHART_FILTERS)
        # The game's own filters (pure functions; what they return is escaped
        # like any value): they may add names, never replace gm's own.
        clash = sorted(set(filters or {}) & set(self.env.filters))
        if clash:
            raise ValueError(f"{game_id}: a game filter cannot replace {clash[0]!r}")
        self.env.filters.update(filters or {})
        # Compiled templates kept between processes (gm.render.cache): the
        # same code for the same source and compiler, or none at all.
        self.env.bytecode_cache = template_cache(self.env, default_folder())
        self._fingerprints: dict[str, str] = {}
        self._warmed: set[str] = set()

    def candidates(self, kind: str) -> list[str]:
        """Template names tried for ``kind``, in order."""
        return [
            f"{self.game_id}/{self.lang}/{kind}{TEMPLATE_SUFFIX}",
            f"common/{self.lang}/{kind}{TEMPLATE_SUFFIX}",
        ]

    def render(self, kind: str, context: Mapping[str, Any]) -> str:
        """Render the template for ``kind`` with ``context``: the post, in Markdown (NFC).

        At most ``MAX_OUTPUT`` characters and ``MAX_SECONDS`` seconds.
        """
        template: jinja2.Template | None = None

        def run() -> str:
            # generate() rather than render(): the top-level output is counted
            # as it is written, so a runaway loop stops at the limit.
            assert template is not None
            return "".join(_bounded(template.generate(dict(context))))

        try:
            # Compiled before the budget starts: it measures running, not loading.
            template = self._compiled(kind)
            out = spend(run)
        except TooSlow as exc:
            spent = (
                f"took more than {budget.MAX_STEPS:,} steps (loop turns and calls)"
                if exc.why == "steps"
                else f"used more than {budget.MAX_CPU_SECONDS:g} seconds of processor time"
            )
            raise TemplateError(
                f"{_where(exc, template, kind)}: the template {spent}; no post takes that"
                " much (look for a loop over a large range, or a macro that calls itself)",
                code="template/too-slow",
            ) from exc
        except RecursionError as exc:
            if _template_frame(exc.__traceback__) is None:
                raise  # not raised while running template code: a bug, keep the traceback
            raise TemplateError(
                f"{_where(exc, template, kind)}: macros or templates call each other more than"
                f" {sys.getrecursionlimit()} deep, or a template included here nests blocks"
                " too deeply (look for a macro or template that calls itself without end)",
                code="template/too-deep",
            ) from exc
        except TemplateOutsideFolder as exc:
            raise TemplateError(
                f"{_where(exc, template, kind)}: {exc.message}", code="template/outside-folder"
            ) from exc
        except OutputTooLong as exc:
            raise TemplateError(
                f"{_where(exc, template, kind)}: the template writes more than {MAX_OUTPUT:,}"
                " characters; no post is that long (look for a runaway loop, or a"
                " `*` or `**` on a large number)",
                code="template/too-long",
            ) from exc
        except jinja2.TemplateNotFound as exc:
            raise TemplateError(
                f"{_where(exc, template, kind)}: template {exc.name!r} not found"
                f" (looked in {_paths(self.search_path)})"
            ) from exc
        except jinja2.TemplateError as exc:
            raise TemplateError(f"{_where(exc, template, kind)}: {_message(exc)}") from exc
        except _TEMPLATE_RUNTIME_ERRORS as exc:
            if _template_frame(exc.__traceback__) is None:
                raise  # not raised while running template code: a bug, keep the traceback
            detail = str(exc) if isinstance(exc, FilterError) else f"{type(exc).__name__}: {exc}"
            raise TemplateError(f"{_where(exc, template, kind)}: {detail}") from exc
        # French spacing and hard line breaks, in the template's words only (see
        # gm.render.typography), then the data marks are gone.
        return str(unicodedata.normalize("NFC", finish(out)))

    def fingerprint(self, kind: str) -> str:
        """``sha256:<hex>`` of the template for ``kind`` and of every template it
        imports, includes or extends (by name and source, as this renderer finds
        them: an override folder counts). Equal fingerprints render alike.
        """
        if kind not in self._fingerprints:
            seen: dict[str, str] = {}
            todo = [(self._template(kind).name or "", "")]  # (name, the template naming it)
            while todo:
                name, parent = todo.pop()
                if name in seen:
                    continue
                try:
                    source = self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
                    refs = self.env.referenced(name, source)
                except jinja2.TemplateNotFound as exc:
                    raise TemplateError(f"{name}: template {exc.name!r} not found") from exc
                except TemplateOutsideFolder as exc:
                    where = f"{parent}: " if parent else ""
                    raise TemplateError(
                        f"{where}{exc.message}", code="template/outside-folder"
                    ) from exc
                except TemplateUnreadable as exc:
                    raise TemplateError(exc.message or name) from exc
                except jinja2.TemplateSyntaxError as exc:
                    raise TemplateError(f"{_syntax_where(exc)}: {exc.message}") from exc
                except RecursionError as exc:
                    raise TemplateError(
                        f"{name}: the template nests blocks or parentheses too deeply to compile",
                        code="template/too-deep",
                    ) from exc
                seen[name] = source
                # None: a name computed at run time
                todo.extend((r, name) for r in refs if r is not None)
            text = "".join(f"{len(n)}:{n}{len(s)}:{s}" for n, s in sorted(seen.items()))
            self._fingerprints[kind] = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        return self._fingerprints[kind]

    def render_as(
        self, kind: str, context: Mapping[str, Any], fmt: str, tables: str = "auto"
    ) -> str:
        """Render ``kind`` for the forum of preset ``fmt`` (``gm.render.presets.to_forum``)."""
        return to_forum(self.render(kind, context), fmt, tables)

    def _compiled(self, kind: str) -> jinja2.Template:
        """The template for ``kind``, with every template it names statically
        compiled too (cached by Jinja), so that no render spends its budget
        compiling. A template that fails to compile is left for the render,
        which reports it where it is used."""
        template = self._template(kind)
        if kind not in self._warmed:
            self._warmed.add(kind)
            todo = [template.name or ""]
            seen: set[str] = set()
            while todo:
                name = todo.pop()
                if name in seen:
                    continue
                seen.add(name)
                try:
                    source = self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
                    self.env.get_template(name)
                    todo.extend(r for r in self.env.referenced(name, source) if r is not None)
                except (jinja2.TemplateError, RecursionError, UnicodeDecodeError):
                    continue
        return template

    def _template(self, kind: str) -> jinja2.Template:
        if not _NAME.fullmatch(kind):
            raise NotFoundError(f"invalid template kind {kind!r}", code="template/not-found")
        names = self.candidates(kind)
        try:
            return self.env.select_template(names)
        except jinja2.TemplatesNotFound as exc:
            raise NotFoundError(
                f"no template for {kind!r}: looked for {' and '.join(names)}"
                f" in {_paths(self.search_path)}",
                code="template/not-found",
            ) from exc
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"{_syntax_where(exc)}: {exc.message}") from exc
        except TemplateOutsideFolder as exc:
            raise TemplateError(exc.message or "", code="template/outside-folder") from exc
        except TemplateUnreadable as exc:
            raise TemplateError(exc.message or "") from exc
        except UnicodeDecodeError as exc:
            raise TemplateError(f"a template for {kind!r} is not UTF-8 text: {exc}") from exc
        except RecursionError as exc:  # Jinja's parser and compiler recurse on nesting
            raise TemplateError(
                f"a template for {kind!r} nests blocks or parentheses too deeply to compile",
                code="template/too-deep",
            ) from exc


def _paths(paths: list[Path]) -> str:
    return ", ".join(str(p) for p in paths)


def _message(exc: jinja2.TemplateError) -> str:
    return exc.message or type(exc).__name__


def _syntax_where(exc: jinja2.TemplateSyntaxError) -> str:
    return f"{exc.filename or exc.name or 'template'}, line {exc.lineno}"


def _template_frame(tb: TracebackType | None) -> TracebackType | None:
    """The innermost traceback entry in a template file (Jinja rewrites them so)."""
    found = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(TEMPLATE_SUFFIX):
            found = tb
        tb = tb.tb_next
    return found


def _recurring_frame(tb: TracebackType | None) -> TracebackType | None:
    """For a template that calls itself without end: the innermost entry of
    the template line that recurs most (the call), not the line the stack
    happened to overflow on (a macro's first line, as it starts)."""
    entries: list[TracebackType] = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(TEMPLATE_SUFFIX):
            entries.append(tb)
        tb = tb.tb_next
    if not entries:
        return None
    counts = Counter((e.tb_frame.f_code.co_filename, e.tb_lineno) for e in entries)
    top = max(counts.values())
    return next(
        e
        for e in reversed(entries)
        if counts[e.tb_frame.f_code.co_filename, e.tb_lineno] == top
    )


def _where(exc: BaseException, template: jinja2.Template | None, kind: str) -> str:
    """``<file>, line <n>`` of the template line that raised ``exc``."""
    if isinstance(exc, jinja2.TemplateSyntaxError):  # an {% include %}d template is broken
        return _syntax_where(exc)
    frame = _template_frame(exc.__traceback__)
    if isinstance(exc, RecursionError):
        frame = _recurring_frame(exc.__traceback__) or frame
    if frame is None:
        if template is None:  # stopped while the template was being found or compiled
            return f"the template for {kind!r}"
        return str(template.filename or template.name)
    line = frame.tb_lineno
    # Jinja rewrites the traceback of an Exception to template lines; not that of
    # a BaseException (TooSlow), whose frames are still the compiled code's.
    compiled = frame.tb_frame.f_globals.get("__jinja_template__")
    if isinstance(compiled, jinja2.Template):
        line = compiled.get_corresponding_lineno(line)
    return f"{frame.tb_frame.f_code.co_filename}, line {line}"
