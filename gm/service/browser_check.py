"""The players' checker as one web page that runs gm's own Python (``gm checker``).

One checker, two doors: the Python that ``gm check`` runs on the command
line (``gm.check.main``) also runs in the page, in Pyodide (CPython compiled to
WebAssembly). This module owns that page: where Pyodide comes from, what
Python goes in, and the HTML around them.

* **Pyodide** is the npm package ``pyodide`` at ``PYODIDE_VERSION``, its
  tarball checked against ``PYODIDE_INTEGRITY`` (the registry's own
  ``sha512`` integrity). gm downloads it once from the npm registry into the
  user cache folder (``platformdirs``), or takes the file ``npm pack
  pyodide@<version>`` wrote (``--pyodide FILE``). The page carries the
  tarball's exact bytes: it unpacks them in memory and runs Pyodide's two
  scripts from them.
* **The Python** is one zip: ``gm/__init__.py``, ``gm/errors.py``, ``gm/reader.py``,
  ``gm/paths.py``, the players' checker ``gm.check`` and the few modules of
  ``gm.service`` and ``gm.store`` it runs (``GM_FILES``), the pure packages
  ``gm.core`` and ``gm.games`` (with their data files and templates, without
  their rules pages), the renderer ``gm.render`` and its templates, the
  packages of games from other distributions, every game's ``gm.games``
  entry point (a metadata folder per distribution, so that the page finds
  the games as the command line does), the
  pure-Python distributions Jinja2, MarkupSafe (its pure-Python fallback:
  the C speedups are left out) and Markdown as installed
  (``importlib.metadata``: their code, metadata and licences), and the
  entry module ``ENTRY_MODULE`` with what it needs.
* **The contract**: the page calls ``ENTRY_MODULE.main(argv: list[str],
  stdin: str) -> tuple[int, str]``, the exit code and the text the command
  line prints; the page's « Vérifier » is ``main(["-"], thread)``, what
  ``gm check -`` prints.

The page is one HTML file that loads nothing, from ``file://`` or from a
static host. Its Content-Security-Policy is ``default-src 'none'`` and
exactly what the page needs (see ``csp``). The build is deterministic: the
same gm, the same installed Jinja2, MarkupSafe and Markdown and the same
Pyodide give the same bytes (no date, names in order, fixed zip metadata;
the zip is gzipped by Python's zlib, whose output the usual zlib builds
agree on, and Pyodide's tarball goes in as the registry serves it).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import gm
from gm.errors import InputError

PYODIDE_VERSION = "0.29.5"
"""The npm package ``pyodide`` the page runs: CPython 3.13 in WebAssembly."""
PYODIDE_INTEGRITY = "sha512-TkYrUv9m8QmfImADKRmpwZulL48E0uUaBSO+dvRQKyAJc0qh9gu7jn8btyHPh3NZm1r2IH2YrJhIr7Q2B9urAw=="
"""The registry's integrity of ``pyodide-<PYODIDE_VERSION>.tgz`` (``npm view pyodide@0.29.5 dist.integrity``)."""
PYODIDE_PYTHON = "3.13"
REGISTRY_URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"

PYODIDE_SCRIPTS = ("pyodide.asm.js", "pyodide.js")
"""The tarball's scripts the page runs, in order: the interpreter's module
factory (``_createPyodideModule``), then ``loadPyodide``."""
PYODIDE_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The tarball's files Pyodide asks for: they must be in it."""
PYODIDE_INDEX = "gm-page:/pyodide/"
"""Where Pyodide believes its files are: a URL no browser can fetch, which
the page answers from the tarball (a request anywhere else is refused)."""

ENTRY_MODULE = "gm.check"
"""The module whose ``main(argv, stdin) -> (code, text)`` the page calls: the
players' checker itself (``gm check`` calls the same function)."""
ENTRY_FILES: tuple[str, ...] = ()
"""Files of ``tools/`` put at the zip's top for the entry module (none: it is in gm)."""
PYTHON_PATH = "/gm"
"""Where the zip is unpacked in the page's file system (put first on ``sys.path``)."""

GM_FILES = (
    "__init__.py",
    "discovery.py",
    "errors.py",
    "paths.py",
    "reader.py",
    "service/__init__.py",
    "service/deciding.py",
    "service/loading.py",
    "service/posts.py",
    "service/proving.py",
    "service/replaying.py",
    "service/secrets.py",
    "service/timeline.py",
    "store/__init__.py",
    "store/draft.py",
    "store/records.py",
)
"""gm's modules outside its pure packages that a check runs: the replay walk
``gm verify`` shares with the checker, the fold, the post renderer, the
record types and how an append's records are chained (``store/draft.py``;
none imports the database, Click or the store's engine)."""
GM_PACKAGES = ("check", "core", "games", "render")
DISTRIBUTIONS = {"Jinja2": "jinja2", "MarkupSafe": "markupsafe", "Markdown": "markdown"}
"""The pure-Python distributions gm.render needs, by their import name."""
_DIST_INFO = re.compile(
    r"[^/]+\.dist-info/(METADATA|entry_points\.txt|top_level\.txt|licen[cs]es?/.+|LICEN[CS]E.*)"
)
"""What of a distribution's metadata goes in: enough for importlib.metadata
(Markdown finds its extensions by their entry points) and the licences."""

_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_TAG_START = re.compile(r"<(?=!--|/?script)", re.IGNORECASE)
"""What would end a ``<script>`` early, or keep it open past its end."""


class BrowserCheckError(InputError):
    """Pyodide or the page's sources cannot be had, or cannot make a safe page."""

    code = "checker/python"


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def _verified(data: bytes, where: str) -> bytes:
    got = _integrity(data)
    if not hmac.compare_digest(got, PYODIDE_INTEGRITY):
        raise BrowserCheckError(
            f"{where} is not pyodide {PYODIDE_VERSION} as the npm registry publishes it:"
            f" its integrity is {got}, not {PYODIDE_INTEGRITY}",
            code="checker/pyodide-integrity",
        )
    return data


def cache_path() -> Path:
    """Where gm keeps the Pyodide tarball it downloaded: the user cache folder."""
    import platformdirs

    return platformdirs.user_cache_path("gm", appauthor=False) / f"pyodide-{PYODIDE_VERSION}.tgz"


def _remedy() -> str:
    return (
        f"connect to the network once (gm keeps the file in {cache_path()}), or run"
        f" `npm pack pyodide@{PYODIDE_VERSION}` where there is a network and give its file:"
        f" gm checker --pyodide pyodide-{PYODIDE_VERSION}.tgz"
    )


def pyodide_tarball(source: Path | None = None, *, url: str | None = None) -> bytes:
    """The bytes of ``pyodide-<PYODIDE_VERSION>.tgz``, checked against ``PYODIDE_INTEGRITY``.

    From ``source`` if given; else from the cache, else downloaded from ``url``
    (default ``REGISTRY_URL``, the npm registry) and cached. A cached file that does not verify is
    downloaded again.

    :raises BrowserCheckError: ``checker/pyodide`` (cannot be read or
        downloaded: the message says the remedy) or
        ``checker/pyodide-integrity`` (not the published file).
    """
    if source is not None:
        try:
            return _verified(source.read_bytes(), str(source))
        except OSError as err:
            raise BrowserCheckError(
                f"cannot read {str(source)!r}: {err.strerror}", code="checker/pyodide"
            ) from err
    url = url or REGISTRY_URL
    cached = cache_path()
    with contextlib.suppress(OSError, BrowserCheckError):
        return _verified(cached.read_bytes(), str(cached))
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            data = answer.read()
    except (OSError, urllib.error.URLError, ValueError) as err:
        reason = getattr(err, "reason", None) or err
        raise BrowserCheckError(
            f"cannot download pyodide {PYODIDE_VERSION} from {url} ({reason}): {_remedy()}",
            code="checker/pyodide",
        ) from err
    _verified(data, url)
    with contextlib.suppress(OSError):  # no cache folder: it is downloaded again next time
        cached.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=".pyodide-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.chmod(tmp, 0o644)  # mkstemp's 0600: a cache file like any other
            os.replace(tmp, cached)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    return data


def _tarball_members(data: bytes) -> dict[str, bytes]:
    """The regular files of the tarball under ``package/``, by their name there."""
    out: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith("package/"):
                handle = tar.extractfile(member)
                assert handle is not None  # a regular file
                out[member.name.removeprefix("package/")] = handle.read()
    missing = [n for n in (*PYODIDE_SCRIPTS, *PYODIDE_FILES) if n not in out]
    if missing:
        raise BrowserCheckError(f"the pyodide tarball lacks {', '.join(missing)}")
    return out


def _tools() -> Path:
    """``tools/``: in the installed package (``gm/tools``), or the source tree."""
    package = Path(gm.__file__).parent
    for path in (package / "tools", package.parent / "tools"):
        if (path / "pyodide" / "page.html").exists():
            return path
    raise BrowserCheckError("tools/pyodide is missing from this installation of gm")


def _gm_sources() -> Iterator[tuple[str, Path]]:
    from gm.rulebook import RULES_PAGE

    package = Path(gm.__file__).parent
    for name in GM_FILES:
        yield f"gm/{name}", package / name
    # The packages come whole, data files with them: the platform's templates
    # (gm/render/templates) and each game's (gm/games/<id>/templates). Not the
    # games' rules pages: a check never prints them, and they weigh 100 kB.
    for sub in GM_PACKAGES:
        for path in (package / sub).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                relative = path.relative_to(package)
                if sub == "games" and len(relative.parts) == 3 and path.name == RULES_PAGE:
                    continue
                yield f"gm/{relative.as_posix()}", path


def _game_registrations() -> Iterator[tuple[str, bytes]]:
    """Every registered game, registered again in the zip: one metadata
    folder per distribution, with its ``gm.games`` entry points, so that the
    page's ``gm.games`` finds them as the command line does (gm's own
    metadata is not gm's code, and a source tree has none to copy)."""
    from gm import games
    from gm.discovery import GAMES

    by_dist: dict[str, list[str]] = {}
    for game_id in games.ids():
        point = games.entry(game_id)
        by_dist.setdefault(point.distribution, []).append(f"{point.name} = {point.value}\n")
    for dist, lines in sorted(by_dist.items()):
        folder = f"{dist}.dist-info"
        yield f"{folder}/METADATA", f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0\n".encode()
        yield f"{folder}/entry_points.txt", f"[{GAMES}]\n{''.join(lines)}".encode()


def _third_party_games() -> Iterator[tuple[str, Path]]:
    """The packages of the games from other distributions, whole: their code,
    templates and data (gm's own are in ``gm/games``)."""
    from gm import games

    for top in sorted({games.package(g).split(".")[0] for g in games.ids()} - {"gm"}):
        spec = importlib.util.find_spec(top)
        folders = (spec.submodule_search_locations or []) if spec is not None else []
        if not folders:
            raise BrowserCheckError(f"the game package {top} is not a folder on disk")
        root = Path(folders[0])
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield f"{top}/{path.relative_to(root).as_posix()}", path


def _distribution_sources() -> Iterator[tuple[str, Path]]:
    for name, top in DISTRIBUTIONS.items():
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError as err:
            raise BrowserCheckError(f"{name} is not installed: pip install {name}") from err
        for file in dist.files or ():
            posix = file.as_posix()
            code = file.parts[0] == top and file.suffix == ".py"
            if code or _DIST_INFO.fullmatch(posix):
                yield posix, Path(str(dist.locate_file(file)))


def python_sources() -> dict[str, bytes]:
    """Every file of the page's Python, by its path in the zip."""
    tools = _tools()
    sources = [
        *_gm_sources(),
        *_third_party_games(),
        *_distribution_sources(),
        *((Path(f).name, tools / f) for f in ENTRY_FILES),
    ]
    out: dict[str, bytes] = {}
    for name, path in sources:
        try:
            out[name] = path.read_bytes()
        except OSError as err:
            raise BrowserCheckError(f"cannot read {path}: {err.strerror}") from err
    out.update(_game_registrations())
    return out


def python_zip(sources: dict[str, bytes] | None = None) -> bytes:
    """The zip of the page's Python: names in order, no date, no owner.

    Stored, not deflated: the page gzips it whole, which packs the files
    together better (538 kB against 629 kB for the files deflated one by one).
    """
    sources = python_sources() if sources is None else sources
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(sources):
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3  # Unix, whatever machine builds it
            info.external_attr = 0o644 << 16
            archive.writestr(info, sources[name])
    return buffer.getvalue()


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9, mtime=0)


def _sha256_b64(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8").replace("\r\n", "\n")


def csp(scripts: list[str], style: str) -> str:
    """The page's Content-Security-Policy; each source is there for one reason:

    * ``default-src 'none'``: nothing may be loaded or sent (no fetch, image,
      font, frame, worker, form);
    * ``script-src 'sha256-…'``: the page's own script and Pyodide's two
      scripts, which it adds to the page from the tarball, each by its hash;
      no other script, no ``eval``;
    * ``'wasm-unsafe-eval'``: compiling WebAssembly (the interpreter, and
      Pyodide's small sentinel module), which browsers put under
      ``script-src``; it allows no JavaScript ``eval``;
    * ``style-src 'sha256-…'``: the one style sheet;
    * ``base-uri 'none'; form-action 'none'``: not covered by ``default-src``.
    """
    hashes = " ".join(f"'sha256-{_sha256_b64(s)}'" for s in scripts)
    return (
        f"default-src 'none'; script-src {hashes} 'wasm-unsafe-eval';"
        f" style-src 'sha256-{_sha256_b64(style)}'; base-uri 'none'; form-action 'none'"
    )


def _escape(text: str) -> str:
    import html

    return html.escape(text, quote=False).replace('"', "&quot;")


def _data_block(block_id: str, text: str, kind: str = "application/octet-stream") -> str:
    return f'<script type="{kind}" id="{block_id}">{text}</script>'


@dataclass(frozen=True)
class Page:
    body: bytes
    python_zip: bytes

    @property
    def sha256(self) -> str:
        """The file's SHA-256 (hex), as ``sha256sum`` prints it."""
        return hashlib.sha256(self.body).hexdigest()


def page(tarball: bytes) -> Page:
    """The page, from the bytes of Pyodide's tarball (``pyodide_tarball()``)."""
    _verified(tarball, "the pyodide tarball")
    members = _tarball_members(tarball)
    folder = _tools() / "pyodide"
    try:
        template = _text(folder / "page.html")
        style = _text(folder / "style.css")
        code = _text(folder / "ui.js")
        words = json.loads(_text(folder / "strings.json"))
    except (OSError, ValueError) as err:
        raise BrowserCheckError(f"cannot read the page's sources in {folder}: {err}") from err
    scripts = []
    for name in PYODIDE_SCRIPTS:
        try:
            scripts.append(members[name].decode("utf-8"))
        except UnicodeDecodeError as err:
            raise BrowserCheckError(f"pyodide's {name} is not UTF-8") from err
    if _TAG_START.search(code) or _TAG_START.search(style):
        raise BrowserCheckError("ui.js or style.css has « </script » or « <!-- »")
    archive = python_zip()
    config = {
        "entry": ENTRY_MODULE,
        "path": PYTHON_PATH,
        "pyodide": {"index": PYODIDE_INDEX, "scripts": list(PYODIDE_SCRIPTS)},
        "strings": words,
    }
    # « < » as \u003c: the JSON cannot end its block
    config_text = json.dumps(config, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    data = "\n".join(
        (
            _data_block("config", config_text, "application/json"),
            _data_block("pyodide", base64.b64encode(tarball).decode("ascii")),
            _data_block("python", base64.b64encode(_gzip(archive)).decode("ascii")),
        )
    )
    values = {
        "CSP": csp([*scripts, code], style),
        "VERSION": gm.__version__,
        "PYODIDE": PYODIDE_VERSION,
        "PYTHON": PYODIDE_PYTHON,
    }

    def fill(m: re.Match[str]) -> str:
        key = m[1]
        if key.startswith("s:"):
            if key[2:] not in words:
                raise BrowserCheckError(f"page.html names {key[2:]!r}, which strings.json lacks")
            return _escape(words[key[2:]])
        if key not in values:
            raise BrowserCheckError(f"page.html names {{{{{key}}}}}, which the builder lacks")
        return _escape(values[key])

    places = ("{{STYLE}}", "{{DATA}}", "{{SCRIPT}}")
    if [template.count(p) for p in places] != [1, 1, 1]:
        raise BrowserCheckError("page.html must have {{STYLE}}, {{DATA}} and {{SCRIPT}} once each")
    head, _, rest = template.partition(places[0])
    middle, _, rest = rest.partition(places[1])
    between, _, tail = rest.partition(places[2])
    # the style, the data and the script go in as they are: nothing is read inside them
    parts = [re.sub(r"\{\{([A-Za-z_:]+)\}\}", fill, t) for t in (head, middle, between, tail)]
    body = parts[0] + style + parts[1] + data + parts[2] + code + parts[3]
    return Page(body.encode("utf-8"), archive)


def default_name() -> str:
    return f"gm-verif-{gm.__version__}.html"
