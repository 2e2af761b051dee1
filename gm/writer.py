"""Every file gm writes, whole or not at all; and standard output that fails cleanly.

A file gm writes (an export, a backup, a chronicle, a picture, a chart, the
checker page) is made under a temporary name in the folder it goes to,
flushed to the disk (``fsync``), then given its name in one step (a rename,
or a hard link when nothing may be overwritten), and the folder is flushed
too. A kill or a full disk at any moment leaves the old file or the new one
under that name, never half of one; at worst a ``.NAME.*.partial`` file is
left beside it.

Standard output is wrapped once (``guard_stdout``, by the console script):
a write that fails (``gm post > /dev/full``) raises ``OutputError``, a
one-line error with its exit code, instead of a traceback; a closed pipe
(``gm … | head``) still ends quietly, as Unix tools do.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from gm.errors import InputError, OutputError, quoted

TEST_NO_FSYNC = "GM_TEST_NO_FSYNC"
"""A test-only environment variable: ``GM_TEST_NO_FSYNC=1`` makes gm stop
waiting for the disk at each commit (SQLite ``synchronous=OFF``, PostgreSQL
``synchronous_commit=off`` for gm's sessions) and each file it writes. A
killed gm still loses nothing, but a power cut or an OS crash may lose the
last commands, or, on SQLite, damage the file. The test suite sets it
(``tests/conftest.py``) for every test but those marked ``durable``
(crashes, a full disk, these settings), where durability is what is
tested; never set it for a real game. Any other value, or none, keeps the
production settings."""


def skips_fsync() -> bool:
    """Whether ``GM_TEST_NO_FSYNC=1`` (tests only) asks gm not to wait for the disk."""
    return os.environ.get(TEST_NO_FSYNC) == "1"


def _sync(fd: int) -> None:
    if not skips_fsync():
        os.fsync(fd)


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a new name in it) to the disk, where the OS allows."""
    if skips_fsync():
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # not on this system (Windows): the rename is what there is
    try:
        with contextlib.suppress(OSError):  # some file systems refuse fsync on a folder
            os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def partial(path: Path, *, replace: bool, mode: int | None = None) -> Iterator[Path]:
    """A temporary file beside ``path`` for the caller to fill; when the block
    ends, it is flushed to the disk and becomes ``path``, atomically. If the
    block raises, it is removed and ``path`` is untouched.

    ``replace``: whether an existing ``path`` may be replaced; if not, the new
    name is made with a hard link, which fails if ``path`` appeared meanwhile
    (``FileExistsError``), where the file system has them. The new file is
    readable by its owner only (``mkstemp``'s 0600: an export holds the
    seeds), unless ``mode`` says otherwise.

    :raises OSError: the file cannot be made, written or named.
    """
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    tmp = Path(name)
    try:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)
        os.close(fd)
        fd = -1
        yield tmp
        with open(tmp, "rb+") as done:
            _sync(done.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise
            except OSError:  # no hard links here (FAT, some network shares)
                if path.exists():
                    raise FileExistsError(path) from None
                os.rename(tmp, path)
            else:
                tmp.unlink()
        sync_folder(path.parent)
    finally:
        if fd >= 0:
            os.close(fd)
        tmp.unlink(missing_ok=True)


def write_file(path: Path, data: str | bytes, *, force: bool, command: str) -> None:
    """Write ``data`` (text as UTF-8, or bytes: an image) to the MJ's file ``path``.

    An existing file is kept unless ``force``: last week's export is a record
    too. A device or a pipe (``/dev/stdout``) is written through, never
    replaced.

    :raises InputError: ``<command>/exists`` or ``<command>/unwritable``.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    shown = quoted(str(path), 200)

    def unwritable(err: OSError) -> InputError:
        return InputError(f"cannot write {shown}: {err.strerror}", code=f"{command}/unwritable")

    exists, regular = _where_to(path, force=force, command=command)
    if exists and not regular:  # /dev/stdout, a pipe: nothing to keep or swap
        try:
            with open(path, "wb") as out:
                out.write(raw)
        except OSError as err:
            raise unwritable(err) from err
        return
    try:
        with partial(path, replace=force) as tmp:
            tmp.write_bytes(raw)
    except FileExistsError:
        raise InputError(
            f"{shown} was created meanwhile; give --force to replace it, or choose another name",
            code=f"{command}/exists",
        ) from None
    except OSError as err:
        raise unwritable(err) from err


def check_target(path: Path, *, force: bool, command: str) -> None:
    """Refuse now, as ``write_file`` would, a file it would refuse to write
    (it exists and no ``force``, a folder, a folder that does not exist, a
    name the file system refuses): for a command that must record something
    only if its file is written.

    :raises InputError: ``<command>/exists`` or ``<command>/unwritable``.
    """
    exists, _ = _where_to(path, force=force, command=command)
    shown = quoted(str(path), 200)
    if exists and path.is_dir():
        raise InputError(f"cannot write {shown}: it is a folder", code=f"{command}/unwritable")
    if not exists and not path.parent.is_dir():
        raise InputError(
            f"cannot write {shown}: its folder does not exist", code=f"{command}/unwritable"
        )


def _where_to(path: Path, *, force: bool, command: str) -> tuple[bool, bool]:
    """Whether ``path`` exists and is a regular file; refused if it exists and
    is one to keep (no ``force``), or if its name cannot be a file's."""
    shown = quoted(str(path), 200)
    try:
        exists, regular = path.exists(), path.is_file()
    except OSError as err:  # a name too long for the file system, say
        raise InputError(
            f"cannot write {shown}: {err.strerror}", code=f"{command}/unwritable"
        ) from err
    except ValueError:  # a NUL byte in the name
        raise InputError(
            f"cannot write {shown}: the name holds a NUL byte", code=f"{command}/unwritable"
        ) from None
    if exists and regular and not force:
        raise InputError(
            f"{shown} exists; give --force to replace it, or choose another name",
            code=f"{command}/exists",
        )
    return exists, regular


def write_stdout(data: str | bytes) -> None:
    """``data`` on standard output (``-o -``): bytes as they are, text as UTF-8."""
    stream = sys.stdout
    if isinstance(data, bytes):
        binary = getattr(stream, "buffer", None)
        stream.flush()
        if binary is not None:
            binary.write(data)
            binary.flush()
            return
        data = data.decode("utf-8")
    stream.write(data)
    stream.flush()


class _Output(io.RawIOBase):
    """File descriptor 1, whose write errors become one ``OutputError``."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if self._failed:  # said once; what follows has nowhere to go
            return len(data)
        try:
            return os.write(self._fd, data)
        except BrokenPipeError:
            self._failed = True
            raise
        except OSError as err:
            self._failed = True
            raise OutputError(
                f"cannot write to standard output: {err.strerror}; what gm printed is"
                " incomplete (anything recorded is kept: print it again with gm post or"
                " gm history once there is room)",
            ) from None


def guard_stdout(reopen: Callable[[int], _Output] = _Output) -> None:
    """Put standard output behind ``_Output``, keeping its encoding and buffering."""
    current = sys.stdout
    try:
        fd = current.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (an embedding program's stream): leave it
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(reopen(fd)),
        encoding=current.encoding,
        errors=current.errors,
        newline=None,
        line_buffering=bool(current.line_buffering),
    )
