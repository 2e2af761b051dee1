"""The players' checker as one web page (``gm checker``): build it, and its digests.

The page checks a game with nothing but a browser: it carries the JavaScript
port of ``tools/gm_check.py`` (``tools/checker/*.js``, put together by
``tools/checker/assemble.py``, loaded by path as ``gm.service.check`` loads
``gm_check.py``), its interface (``ui.js``, ``style.css``, the French and
English words of ``strings.json``) and nothing else: no request of any kind
leaves it, and its Content-Security-Policy (``default-src 'none'``, the
script and the style allowed by their SHA-256 only) forbids any.

The build is pure and deterministic: the same gm gives the same bytes (no
date, LF line ends, inputs in a fixed order), so a player can compare the
file's SHA-256 with the one the MJ published. Two digests:

* the file's SHA-256, what ``sha256sum``, ``shasum -a 256`` or ``certutil
  -hashfile FILE SHA256`` print: the only proof the page is genuine;
* the script's SHA-256 (the one ``<script>`` element's text, the value in
  the CSP), which the page recomputes live and shows in its header: it
  catches a damaged script, never a forged page (which can print anything).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import gm
from gm.errors import GMError
from gm.reader import CHECKER, read_text


class CheckerPageError(Exception):
    """The checker's sources are missing or cannot make a safe page."""


def folder() -> Path:
    """``tools/checker``: in the installed package, or the source tree."""
    package = Path(gm.__file__).parent
    for path in (package / "tools" / "checker", package.parent / "tools" / "checker"):
        if (path / "assemble.py").exists():
            return path
    raise CheckerPageError("tools/checker is missing from this installation of gm")


@functools.cache
def _assemble(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("gm_checker_assemble", path / "assemble.py")
    if spec is None or spec.loader is None:  # pragma: no cover - the file exists
        raise CheckerPageError(f"cannot load {path / 'assemble.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(path: Path) -> str:
    try:
        return read_text(path, CHECKER)
    except GMError as err:  # the installation is damaged: the CLI says so
        raise CheckerPageError(err.message) from None


def _b64(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


# An HTML parser ends a script at « </script », and after « <!-- » a
# « <script » keeps it open past its real end. Such a « < » is written
# « \u003c », which means « < » wherever the port has these words: in a
# string, a template, a regular expression (its own or RegExp's, where the
# port's String.raw patterns go), and in a comment it means nothing; so the
# script runs as the files say and the browser ends it where the page does.
_TAG_START = re.compile(r"<(?=!--|/?script)", re.IGNORECASE)


def script(path: Path | None = None) -> str:
    """The page's one script: the port, then the interface with its words."""
    path = path or folder()
    strings = json.loads(_text(path / "strings.json"))
    port = _assemble(path).script(path)
    ui = (
        "(function () {\n"
        '"use strict";\n'
        f"const STRINGS = {json.dumps(strings, ensure_ascii=False, sort_keys=True, indent=1)};\n"
        f"{_text(path / 'ui.js').rstrip()}\n"
        "})();\n"
    )
    text = _TAG_START.sub(r"\\u003c", port + ui)
    return text


def _escape(text: str) -> str:
    """Text for an element or a double-quoted attribute, apostrophes kept as typed."""
    return html.escape(text, quote=False).replace('"', "&quot;")


@dataclass(frozen=True)
class Page:
    body: bytes
    script: str

    @property
    def sha256(self) -> str:
        """The file's SHA-256 (hex), as ``sha256sum`` prints it."""
        return hashlib.sha256(self.body).hexdigest()

    @property
    def script_sha256(self) -> str:
        """The script's SHA-256 (hex), as the page shows it in its header."""
        return hashlib.sha256(self.script.encode("utf-8")).hexdigest()


def page(path: Path | None = None) -> Page:
    path = path or folder()
    code = script(path)
    style = _text(path / "style.css")
    strings = json.loads(_text(path / "strings.json"))["fr"]
    csp = (
        f"default-src 'none'; script-src 'sha256-{_b64(code)}'; style-src 'sha256-{_b64(style)}';"
        " base-uri 'none'; form-action 'none'"
    )
    values = {"CSP": csp, "VERSION": gm.__version__}

    def fill(m: re.Match[str]) -> str:
        key = m[1]
        if key.startswith("s:"):
            if key[2:] not in strings:
                raise CheckerPageError(f"page.html names {key[2:]!r}, which strings.json lacks")
            return _escape(strings[key[2:]])
        if key in values:
            return _escape(values[key])
        return m[0]

    template = _text(path / "page.html")
    head, sep, tail = template.partition("{{SCRIPT}}")
    if not sep:
        raise CheckerPageError("page.html has no {{SCRIPT}} place")
    # the style and script are put in last, as they are: no placeholder is read inside them
    head = re.sub(r"\{\{([A-Za-z_:]+)\}\}", fill, head).replace("{{STYLE}}", style)
    tail = re.sub(r"\{\{([A-Za-z_:]+)\}\}", fill, tail)
    return Page((head + code + tail).encode("utf-8"), code)


def build() -> bytes:
    """The page's bytes: the same for the same gm."""
    return page().body


def default_name() -> str:
    return f"gm-verif-{gm.__version__}.html"
