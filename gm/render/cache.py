"""Compiled templates kept between processes: Jinja's bytecode cache, made safe.

Compiling a template (reading its source into a tree, writing Python from
it, compiling that) is the first render's cost: about a tenth of a ``gm
order`` (issue 26), paid by every command again, since each is a process of
its own. ``TemplateCache`` keeps what Jinja compiled in gm's user cache
folder (``platformdirs``: ``~/.cache/gm/templates`` on Linux), one file per
template, and the next process loads it instead of compiling.

**It never changes a post.** A file is used only for the very source it was
compiled from (Jinja checks the source's SHA-1 on load: an edited template
is compiled again) and by the very compiler that wrote it: its name holds
``compiler_key``, a digest of Jinja's and Python's versions, gm's version,
``gm/render/engine.py`` (the code generator that counts loop turns and
bounds output, and the environment's settings), the environment's syntax
settings, and every filter and test a template may name with the way it is
called (Jinja decides when compiling whether a filter gets the context).
Anything else that changes is another file: never code another gm compiled.

**It never fails a command.** No folder (it cannot be made, or ``platformdirs``
is missing, as in the players' checker page), a folder gm may not write to,
a file it cannot read, a damaged or truncated file: each is the same as no
cache, silently, and the template is compiled as it would be without one.
Deleting the folder is always safe. Files are written whole or not at all
(a temporary file renamed, as Jinja does), so two gm at once never read half
a file.

Besides the code, each file keeps the templates the source names (imports,
includes, extends: ``_Environment.references``), which
``Renderer.fingerprint`` and the warming of a post's includes would
otherwise parse the source again to find.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from contextlib import suppress
from pathlib import Path
from typing import IO, Any, BinaryIO

import jinja2
from jinja2.bccache import Bucket, FileSystemBytecodeCache

FOLDER = "templates"
"""The cache's folder inside gm's user cache folder."""


def default_folder() -> Path | None:
    """Where compiled templates are kept: ``<user cache folder>/gm/templates``;
    None where there is none (no ``platformdirs``, a browser)."""
    if sys.platform == "emscripten":  # the players' checker page: no disk to keep
        return None
    try:
        import platformdirs
    except ImportError:
        return None
    return platformdirs.user_cache_path("gm", appauthor=False) / FOLDER


def compiler_key(environment: jinja2.Environment) -> str | None:
    """A digest of everything the compiled code of a template depends on
    besides its source (see the module's docstring); None if gm's engine
    cannot be read (then no cache)."""
    import gm
    from gm.render import engine

    try:
        engine_source = Path(engine.__file__).read_bytes()
    except OSError:
        return None

    def calls(functions: dict[str, Any]) -> list[tuple[str, str]]:
        return sorted((n, repr(getattr(f, "jinja_pass_arg", None))) for n, f in functions.items())

    env = environment
    settings = (
        env.block_start_string,
        env.block_end_string,
        env.variable_start_string,
        env.variable_end_string,
        env.comment_start_string,
        env.comment_end_string,
        env.line_statement_prefix,
        env.line_comment_prefix,
        env.trim_blocks,
        env.lstrip_blocks,
        env.newline_sequence,
        env.keep_trailing_newline,
        env.optimized,
        env.is_async,
        repr(env.autoescape) if isinstance(env.autoescape, bool) else "function",
        repr(getattr(env.finalize, "jinja_pass_arg", None)) if env.finalize else None,
        sorted(env.extensions),
        sorted(getattr(env, "intercepted_binops", ())),
        sorted(getattr(env, "intercepted_unops", ())),
        type(env).__qualname__,
        env.code_generator_class.__qualname__,
    )
    digest = hashlib.sha256()
    for part in (
        jinja2.__version__,
        sys.version,
        gm.__version__,
        repr(settings),
        repr(calls(env.filters)),
        repr(calls(env.tests)),
    ):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(engine_source)
    return digest.hexdigest()[:32]


class _Bucket(Bucket):
    """One template's compiled code, and the templates its source names."""

    def __init__(
        self, environment: jinja2.Environment, key: str, checksum: str, name: str, source: str
    ) -> None:
        self.name = name
        self.source = source
        super().__init__(environment, key, checksum)

    def reset(self) -> None:
        super().reset()
        self.references: tuple[str | None, ...] | None = None

    def load_bytecode(self, f: BinaryIO) -> None:
        try:
            super().load_bytecode(f)
            if self.code is None:
                return
            references = marshal.load(f)
        except Exception:  # a damaged file (unpickling, unmarshalling): as if none
            self.reset()
            return
        if not isinstance(references, tuple) or not all(
            r is None or isinstance(r, str) for r in references
        ):
            self.reset()
            return
        self.references = references

    def write_bytecode(self, f: IO[bytes]) -> None:
        super().write_bytecode(f)
        marshal.dump(self.references, f)


class TemplateCache(FileSystemBytecodeCache):
    """Jinja's file system bytecode cache, for one environment's compiler
    (``compiler_key``), that keeps each template's references and never
    raises for a file or folder it cannot use."""

    def __init__(self, folder: Path, key: str) -> None:
        super().__init__(str(folder), f"{key}-%s.cache")

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> Bucket:
        bucket = _Bucket(
            environment,
            self.get_cache_key(name, filename),
            self.get_source_checksum(source),
            name,
            source,
        )
        self.load_bytecode(bucket)
        if bucket.code is not None and bucket.references is not None:
            known = getattr(environment, "references", None)
            if isinstance(known, dict):  # what compiling it would have noted
                known[name] = (source, bucket.references)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except OSError:
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        if not isinstance(bucket, _Bucket):
            return
        known = getattr(bucket.environment, "references", {}).get(bucket.name)
        if known is None or known[0] != bucket.source:
            return  # compiled without noting its references: keep nothing
        bucket.references = tuple(known[1])
        with suppress(OSError):  # a folder gm may not write to, a full disk: no cache
            super().dump_bytecode(bucket)


def template_cache(environment: jinja2.Environment, folder: Path | None) -> TemplateCache | None:
    """The cache for ``environment``'s compiled templates in ``folder``
    (created, for its owner only), or None when there can be none."""
    if folder is None:
        return None
    key = compiler_key(environment)
    if key is None:
        return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK | os.X_OK):
        return None  # reading another's files only: compile as without a cache
    return TemplateCache(folder, key)
