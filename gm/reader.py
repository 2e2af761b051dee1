"""Every byte gm reads from outside, decoded and bounded once, where it enters.

gm reads files (an export, a scenario, a board, a template, the players'
checker's sources), standard input (a pasted message, an export piped to
``gm import -``), what the MJ's editor wrote, and text the operating system
hands over (arguments, environment variables), which Python decodes with
``surrogateescape``. This module is the one place that turns them into
``str``, so that no code below it ever sees:

* a byte sequence that is not UTF-8 (a lone surrogate): the error names the
  byte, where it is, and that the text must be UTF-8;
* an unbounded size: each kind of file has its limit (``KINDS``, printed in
  the README), checked before and while reading;
* something that is not a regular file: a FIFO or a device (``/dev/zero``,
  even behind a symbolic link) is refused without blocking on it;
* an unbounded depth: JSON and TOML nest at most ``MAX_DEPTH`` levels, and a
  TOML dotted key has at most ``MAX_DEPTH`` parts (the standard parser is
  quadratic in them).

Errors are ``gm.errors`` types whose codes start with the kind's prefix
(``scenario/too-large``, ``import/not-utf8``…).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from gm.errors import InputError, NotFoundError, quoted

KiB = 1024
MiB = 1024 * KiB

MAX_DEPTH = 32
"""Levels a JSON or TOML document may nest (arrays, tables, dotted-key parts).
gm's own files nest at most 6."""


@dataclass(frozen=True)
class Kind:
    """What a file is to gm: how it is named in errors, its size limit, its codes."""

    noun: str
    """How errors name it: « scenario file », « export »."""
    limit: int
    """Bytes it may have."""
    prefix: str
    """Its errors' codes start with this: ``scenario`` gives ``scenario/too-large``."""
    missing: str = "not-found"
    """The code's end when the file does not exist."""

    def code(self, problem: str) -> str:
        return f"{self.prefix}/{problem}"


EXPORT = Kind("export", 64 * MiB, "import", missing="file-not-found")
SCENARIO = Kind("scenario file", 4 * MiB, "scenario")
BOARD = Kind("option file", 1 * MiB, "option-file")
TEMPLATE = Kind("template", 1 * MiB, "template")
RULES = Kind("rules page", 1 * MiB, "docs")
MESSAGE = Kind("message", 1 * MiB, "input")
"""A player's message from standard input or the editor (the rules' own limit,
4 000 characters, is checked after: this one only bounds the read)."""

KINDS = (EXPORT, SCENARIO, BOARD, TEMPLATE, RULES, MESSAGE)


def _size(n: int) -> str:
    return f"{n // MiB} MiB" if n % MiB == 0 else f"{n // KiB} KiB"


# -- text -------------------------------------------------------------------


FILE_HINT = "gm reads text as UTF-8 only (save or convert it as UTF-8)"


def decode(data: bytes, what: str, code: str = "input/not-utf8", hint: str = FILE_HINT) -> str:
    """``data`` as text: UTF-8 (a leading byte-order mark dropped), or an
    ``InputError`` naming the first byte that is not, and where.

    ``what`` names the text in the error: « the message on standard input ».
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise not_utf8(data, err.start, what, code, hint) from None


def not_utf8(data: bytes, start: int, what: str, code: str, hint: str = FILE_HINT) -> InputError:
    """The error for the byte at ``start`` of ``data``, the first that is not UTF-8."""
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    where = f"at byte {start + 1}" + (f" (line {line}, column {column})" if line > 1 else "")
    return InputError(
        f"{what} is not valid UTF-8: byte 0x{data[start]:02X} {where} is not part of a"
        f" UTF-8 character; {hint}",
        code=code,
        params={"byte": data[start], "position": start + 1},
    )


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate: no encoding can write it."""
    return _SURROGATE.search(text) is not None


def os_text(value: str, what: str, hint: str = FILE_HINT) -> str:
    """``value`` (an argument, an environment variable) as the operating system
    gave it: unchanged if it was UTF-8, else an ``InputError`` naming the byte.

    Python decodes those with ``surrogateescape``: a byte that is not UTF-8
    becomes a lone surrogate, which nothing downstream could encode.
    """
    found = _SURROGATE.search(value)
    if found is None:
        return value
    data = value.encode("utf-8", "surrogateescape")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise not_utf8(data, err.start, what, "input/not-utf8", hint) from None
    # a surrogate typed as such (by a caller of cli()), not a byte the OS gave
    raise InputError(
        f"{what} holds the character U+{ord(found.group()):04X} at position"
        f" {found.start() + 1}, which is no text: gm reads text as UTF-8 only",
        code="input/not-utf8",
    )


# -- files ------------------------------------------------------------------

_NOT_REGULAR = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_bytes(path: str | Path, kind: Kind) -> bytes:
    """The bytes of the regular file ``path``, at most ``kind.limit`` of them.

    Opened without blocking (a FIFO opens at once, and is then refused), so
    nothing waits on a pipe nobody writes or reads a device without end.

    :raises NotFoundError: ``<prefix>/not-found``.
    :raises InputError: ``<prefix>/unreadable`` (not a regular file, no
        permission…), ``<prefix>/too-large``.
    """
    shown = quoted(str(path), 200)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise NotFoundError(f"no {kind.noun} {shown}", code=kind.code(kind.missing)) from None
    except (OSError, ValueError) as err:  # ValueError: a NUL in the path
        reason = err.strerror if isinstance(err, OSError) else "the path holds a NUL byte"
        raise InputError(
            f"cannot read the {kind.noun} {shown}: {reason}", code=kind.code("unreadable")
        ) from None
    try:
        return read_fd(fd, kind, shown)
    finally:
        os.close(fd)


def read_fd(fd: int, kind: Kind, shown: str) -> bytes:
    """The bytes of the open file ``fd`` (see ``read_bytes``); ``shown`` names it."""
    try:
        info = os.fstat(fd)
    except OSError as err:
        raise InputError(
            f"cannot read the {kind.noun} {shown}: {err.strerror}", code=kind.code("unreadable")
        ) from None
    for test, name in _NOT_REGULAR:
        if test(info.st_mode):
            raise InputError(
                f"cannot read the {kind.noun} {shown}: it is {name}, not a file;"
                f" give the path of a regular file",
                code=kind.code("unreadable"),
            )
    if info.st_size > kind.limit:
        raise too_large(kind, shown, info.st_size)
    chunks: list[bytes] = []
    size = 0
    try:
        while True:  # a file may grow while it is read: stop past the limit
            chunk = os.read(fd, min(kind.limit + 1 - size, MiB))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > kind.limit:
                raise too_large(kind, shown, size)
    except OSError as err:
        raise InputError(
            f"cannot read the {kind.noun} {shown}: {err.strerror}", code=kind.code("unreadable")
        ) from None
    return b"".join(chunks)


def too_large(kind: Kind, shown: str, size: int) -> InputError:
    more = "" if size <= kind.limit + 1 else f" ({size:,} bytes)"
    return InputError(
        f"the {kind.noun} {shown} is too large{more}: gm reads {kind.noun}s of at most"
        f" {_size(kind.limit)}",
        code=kind.code("too-large"),
    )


def read_text(path: str | Path, kind: Kind) -> str:
    """The text of the regular file ``path`` (see ``read_bytes``), decoded as UTF-8
    (``<prefix>/not-utf8``), line ends as ``\\n``."""
    data = read_bytes(path, kind)
    text = decode(data, f"the {kind.noun} {quoted(str(path), 200)}", kind.code("not-utf8"))
    return text.replace("\r\n", "\n")


def read_stream(stream: IO[Any], kind: Kind, what: str) -> str:
    """The text of a stream (standard input), at most ``kind.limit`` bytes, as UTF-8.

    ``what`` names it in errors: « the message on standard input ».
    """
    raw = getattr(stream, "buffer", None)
    if raw is None:  # a text stream only (a test's StringIO): encode it back
        data = stream.read(kind.limit + 1)
        data = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    else:
        data = raw.read(kind.limit + 1)
    if len(data) > kind.limit:
        raise InputError(
            f"{what} is too long: gm reads at most {_size(kind.limit)} there",
            code=kind.code("too-large"),
        )
    return decode(data, what, kind.code("not-utf8")).replace("\r\n", "\n")


def stdin_text(kind: Kind, what: str) -> str:
    """Standard input, as ``read_stream`` reads it."""
    return read_stream(sys.stdin, kind, what)


# -- structured text ----------------------------------------------------------


def depth(value: Any) -> int:
    """How deeply ``value`` (parsed JSON or TOML) nests; iterative, any depth."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 0)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            return level
        todo.extend((child, level) for child in children)
    return deepest


def _too_deep(kind: Kind, what: str, parts: str = "arrays and objects") -> InputError:
    return InputError(
        f"{what} nests too deeply: gm reads {kind.noun}s nested at most {MAX_DEPTH} levels"
        f" ({parts})",
        code=kind.code("too-deep"),
    )


_TOML_PARTS = "arrays, tables and the parts of a dotted key"


def load_json(text: str, kind: Kind, what: str, syntax: Callable[[ValueError], InputError]) -> Any:
    """``text`` parsed as JSON, at most ``MAX_DEPTH`` levels deep.

    ``syntax(err)`` is the error for text that is not JSON.
    """
    try:
        value = json.loads(text)
    except RecursionError:  # the C parser stops cleanly at Python's recursion limit
        raise _too_deep(kind, what) from None
    except ValueError as err:
        raise syntax(err) from None
    if depth(value) > MAX_DEPTH:
        raise _too_deep(kind, what)
    return value


def json_value(text: str) -> Any:
    """JSON text gm stored itself (an event's payload, in a database or an
    export), parsed; ``ValueError`` if it is not JSON or nests deeper than
    ``MAX_DEPTH``: a row edited in place must not crash or exhaust gm."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels") from None
    # A value cannot nest deeper than the brackets its text opens: counting
    # them (in C) spares the walk for nearly every payload a log holds.
    if (
        isinstance(value, dict | list)
        and text.count("[") + text.count("{") > MAX_DEPTH
        and depth(value) > MAX_DEPTH
    ):
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    return value


# Strings and comments, which may hold anything: taken out before measuring.
_TOML_SKIP = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*', re.DOTALL
)
_TOML_DOTTED = re.compile(r"[\w-]+(?:[ \t]*\.[ \t]*[\w-]+)+")


def toml_depth(text: str) -> int:
    """How deeply TOML ``text`` may nest, before parsing it: the deepest
    brackets, and the longest dotted key, outside strings and comments."""
    bare = _TOML_SKIP.sub('""', text)
    level = deepest = 0
    for char in re.findall(r"[\[\]{}]", bare):
        level += 1 if char in "[{" else -1
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
    dots = max((m.group().count(".") for m in _TOML_DOTTED.finditer(bare)), default=0)
    return max(deepest, dots + 1)


def load_toml(
    text: str, kind: Kind, what: str, syntax: Callable[[ValueError], InputError]
) -> dict[str, Any]:
    """``text`` parsed as TOML, at most ``MAX_DEPTH`` levels deep.

    ``syntax(err)`` is the error for text that is not TOML.
    """
    import tomllib

    if toml_depth(text) > MAX_DEPTH:
        raise _too_deep(kind, what, _TOML_PARTS)
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise _too_deep(kind, what, _TOML_PARTS) from None
    except tomllib.TOMLDecodeError as err:
        raise syntax(err) from None
    if depth(value) > MAX_DEPTH:
        raise _too_deep(kind, what, _TOML_PARTS)
    return value
