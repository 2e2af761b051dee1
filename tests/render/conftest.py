"""Shared helpers for the rendering tests: visible text of HTML, template folders."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pytest


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_html(html: str) -> tuple[str, list[str]]:
    """The visible text of ``html`` (whitespace collapsed, the invisible word
    joiners gm puts into names left out) and the tags it opens."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join("".join(parser.text).replace("\u2060", "").split()), parser.tags


@pytest.fixture(scope="session")
def html_text() -> Callable[[str], tuple[str, list[str]]]:
    """``parse_html`` as a fixture (test modules do not import conftest)."""
    return parse_html


@pytest.fixture
def template_folder(tmp_path: Path) -> Callable[..., Path]:
    """Write templates into an override folder: ``template_folder(**{"demo/fr/post": text})``."""

    def write(**templates: str) -> Path:
        for name, text in templates.items():
            path = tmp_path / f"{name}.md.j2"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return tmp_path

    return write
