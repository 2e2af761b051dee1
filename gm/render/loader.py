"""Template folders are confined: a template is read only from inside its folder.

An MJ's override folder may come from someone else (a shared template pack,
an archive): a symbolic link in it to the MJ's export or to ``/etc/passwd``,
pulled in with ``{% include %}``, would print that file into a post. So
``ConfinedLoader``, a ``jinja2.FileSystemLoader`` for one folder, reads a
template only if its real path (every symbolic link and ``..`` resolved) lies
inside the real path of that folder, and refuses with ``TemplateOutsideFolder``
(never the file's content) a name that:

* is absolute (``/etc/passwd``), climbs with ``..``, or holds a backslash or
  a NUL character;
* resolves, through a symbolic link to a file or to a folder, outside the
  folder (a link that stays inside it, e.g. ``magot/en -> fr``, is fine).

Every way a template reaches another (``{% include %}``, ``{% import %}``,
``{% from %}``, ``{% extends %}``, and the renderer's own lookup) goes through
the loader's ``get_source``, so all of them are confined. The file is then
opened one folder at a time from the folder's root without following any
link (``O_NOFOLLOW`` on each step, where the system has it): a link swapped in
between the check and the read is refused too, not followed.

The templates shipped with gm live in more than one folder: the platform's
(``gm/render/templates/<lang>/``) and each game's, inside its package
(``<package>/templates/<lang>/``). ``ShippedLoader`` keeps the names an MJ's
override folder uses (``common/fr/x.md.j2``, ``magot/fr/x.md.j2``): the first
segment names the owner, the rest is read, confined, from the owner's folder.
Names are what ``Renderer.fingerprint`` hashes, so moving a folder changes no
post's ``rendered_by``.

The refusal is not a ``TemplateNotFound``: Jinja's ``ChoiceLoader``,
``select_template`` and ``include … ignore missing`` would take that for "try
the next one", and quietly fall back to another template.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from collections.abc import Callable, Mapping
from pathlib import Path

import jinja2

from gm.errors import InputError
from gm.reader import TEMPLATE, decode, read_fd

__all__ = ["ConfinedLoader", "ShippedLoader", "TemplateOutsideFolder", "TemplateUnreadable"]


class TemplateOutsideFolder(jinja2.TemplateError):
    """A template name or link leads outside its template folder."""

    def __init__(self, name: str, folder: str, reason: str) -> None:
        self.name = name
        self.folder = folder
        self.reason = reason
        super().__init__(
            f"template {name!r} is refused: {reason}; templates are read only from inside"
            f" their folder {folder}"
        )


class TemplateUnreadable(jinja2.TemplateError):
    """A template file inside its folder cannot be read (permissions, I/O, too
    large, not UTF-8: ``gm.reader``)."""


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO swapped in must not block the read
_WALK = bool(_NOFOLLOW and _DIRECTORY) and os.open in os.supports_dir_fd


def _pieces(name: str, folder: str) -> list[str]:
    """The path segments of template ``name``, or a refusal for a name that tries to leave."""
    if "\x00" in name:
        reason = "its name holds a NUL character"
    elif "\\" in name:
        reason = "its name holds a backslash (separate folders with /)"
    elif name.startswith("/"):
        reason = "it is an absolute path (name it from the template folder, e.g. magot/fr/x.md.j2)"
    elif ".." in name.split("/"):
        reason = "its name climbs out of the folder with '..'"
    else:
        return [p for p in name.split("/") if p and p != "."]
    raise TemplateOutsideFolder(name, folder, reason)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _open_inside(root: str, relative: str) -> int:
    """A descriptor for ``root/relative`` (both real paths), opened without following links."""
    flags = os.O_RDONLY | _NONBLOCK
    if not _WALK:  # no O_NOFOLLOW / dir_fd here: the real path was checked just before
        return os.open(os.path.join(root, relative), flags)
    parts = relative.split(os.sep)
    fd = os.open(root, os.O_RDONLY | _DIRECTORY)
    try:
        for part in parts[:-1]:
            inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = inner
        return os.open(parts[-1], flags | _NOFOLLOW, dir_fd=fd)
    finally:
        os.close(fd)


class ConfinedLoader(jinja2.FileSystemLoader):
    """A ``FileSystemLoader`` for one folder that reads only files really inside it."""

    def __init__(self, folder: Path, encoding: str = "utf-8") -> None:
        super().__init__(folder, encoding=encoding)
        self.folder = str(folder)
        self.root = os.path.realpath(folder)

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = _pieces(template, self.folder)
        if not pieces:
            raise jinja2.TemplateNotFound(template)
        # posixpath, as FileSystemLoader does: no "drive:" segment can restart the path.
        path = posixpath.join(self.folder, *pieces)
        real = os.path.realpath(path)
        if not _inside(real, self.root):
            raise TemplateOutsideFolder(
                template, self.folder, f"it leads through a link to {real!r}, outside the folder"
            )
        if not os.path.isfile(real):
            raise jinja2.TemplateNotFound(template)
        try:
            fd = _open_inside(self.root, os.path.relpath(real, self.root))
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):  # a link swapped in
                raise TemplateOutsideFolder(
                    template, self.folder, "it became a link while it was being read"
                ) from None
            raise TemplateUnreadable(f"cannot read template {path}: {exc.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):  # replaced by a FIFO or a device meanwhile
                raise jinja2.TemplateNotFound(template)
            # gm.reader: bounded, and a byte that is not UTF-8 is named
            contents = decode(read_fd(fd, TEMPLATE, path), f"the template {path}", TEMPLATE.code("not-utf8"))
        except InputError as exc:
            raise TemplateUnreadable(exc.message) from None
        finally:
            os.close(fd)
        contents = contents.replace("\r\n", "\n")
        read = (info.st_dev, info.st_ino, info.st_mtime_ns)

        def uptodate() -> bool:
            # Jinja asks before each use of the cached template. One stat, as
            # FileSystemLoader's getmtime: if the name now leads to another file
            # (a link swapped in) or the file changed, it is loaded and checked again.
            try:
                now = os.stat(path)
            except OSError:
                return False
            return (now.st_dev, now.st_ino, now.st_mtime_ns) == read

        return contents, os.path.normpath(path), uptodate


class ShippedLoader(jinja2.BaseLoader):
    """The shipped templates: ``<owner>/<rest>`` read as ``<rest>`` from the
    confined folder of ``owner`` (``common`` for the platform, a game's id)."""

    def __init__(self, folders: Mapping[str, Path]) -> None:
        self.loaders = {owner: ConfinedLoader(folder) for owner, folder in folders.items()}

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        # Checked on the whole name first, so that a refusal names what the
        # template wrote (``magot/../x``), not what is left once routed.
        pieces = _pieces(template, ", ".join(each.folder for each in self.loaders.values()))
        loader = self.loaders.get(pieces[0]) if len(pieces) > 1 else None
        if loader is None:
            raise jinja2.TemplateNotFound(template)
        try:
            return loader.get_source(environment, "/".join(pieces[1:]))
        except TemplateOutsideFolder as exc:
            raise TemplateOutsideFolder(template, exc.folder, exc.reason) from None
        except jinja2.TemplateNotFound:
            raise jinja2.TemplateNotFound(template) from None

    def list_templates(self) -> list[str]:
        return sorted(
            f"{owner}/{name}"
            for owner, loader in self.loaders.items()
            for name in loader.list_templates()
        )
