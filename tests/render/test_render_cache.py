"""Compiled templates kept between processes (``gm.render.cache``).

The same post and fingerprint with the cache, without it and from it (with
nothing compiled); an edited template, another compiler or a damaged file is
compiled again; a folder that cannot be made or written is no cache, never
an error; confinement still applies to a template the cache knows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import pytest

from gm.render import Renderer, TemplateError, engine
from gm.render.cache import compiler_key

Folder = Callable[..., Path]
TEMPLATES = {
    "demo/fr/post": (
        '{% import "demo/fr/_macros.md.j2" as m %}{{ m.hello(name) }} :'
        ' {% include "common/fr/sign.md.j2" %}\n'
    ),
    "demo/fr/_macros": "{% macro hello(who) %}Salut {{ who | upper }}{% endmacro %}",
    "common/fr/sign": "le MJ{% for i in range(3) %}.{% endfor %}",
}
CONTEXT = {"name": "ana"}


@pytest.fixture
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder every Renderer of the test keeps its compiled templates in."""
    folder = tmp_path_factory.mktemp("cache") / "gm" / "templates"
    monkeypatch.setattr(engine, "default_folder", lambda: folder)
    return folder


def compiling_forbidden(renderer: Renderer, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("compiled or parsed a template the cache holds")

    monkeypatch.setattr(renderer.env, "compile", refuse)
    monkeypatch.setattr(renderer.env, "_parse", refuse)


def without_cache(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Renderer:
    with monkeypatch.context() as patch:
        patch.setattr(engine, "default_folder", lambda: None)
        renderer = Renderer("demo", override=folder)
    assert renderer.env.bytecode_cache is None
    return renderer


def test_a_cached_template_renders_the_same_post_without_compiling(
    template_folder: Folder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = template_folder(**TEMPLATES)
    first = Renderer("demo", override=folder)
    post, fingerprint = first.render("post", CONTEXT), first.fingerprint("post")
    assert "Salut ANA" in post
    assert len(list(cache.iterdir())) == 3  # the post, the macros it imports, what it includes
    # Another process: every template comes from the cache, references included.
    second = Renderer("demo", override=folder)
    compiling_forbidden(second, monkeypatch)
    assert second.fingerprint("post") == fingerprint
    assert second.render("post", CONTEXT) == post
    plain = without_cache(folder, monkeypatch)
    assert plain.render("post", CONTEXT) == post
    assert plain.fingerprint("post") == fingerprint


def test_an_edited_template_is_compiled_again(
    template_folder: Folder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = template_folder(**TEMPLATES)
    before = Renderer("demo", override=folder)
    post, fingerprint = before.render("post", CONTEXT), before.fingerprint("post")
    template_folder(**{"demo/fr/_macros": "{% macro hello(who) %}Adieu {{ who }}{% endmacro %}"})
    after = Renderer("demo", override=folder)
    assert after.render("post", CONTEXT) == post.replace("Salut ANA", "Adieu ana")
    assert after.fingerprint("post") != fingerprint
    assert after.fingerprint("post") == without_cache(folder, monkeypatch).fingerprint("post")


def test_another_compiler_never_reads_the_cache(
    template_folder: Folder,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    folder = template_folder(**TEMPLATES)

    def shout(value: str) -> str:
        return value.upper()

    plain = Renderer("demo", override=folder, filters={"shout": shout})
    given_context = Renderer(
        "demo", override=folder, filters={"shout": jinja2.pass_context(lambda c, v: v)}
    )
    # Jinja compiles a call to a filter that takes the context differently.
    assert compiler_key(plain.env) != compiler_key(given_context.env)
    # gm's code generator and environment: any change to gm/render/engine.py.
    edited = tmp_path_factory.mktemp("engine") / "engine.py"
    edited.write_bytes(Path(engine.__file__).read_bytes() + b"\n# another gm\n")
    key = compiler_key(plain.env)
    monkeypatch.setattr(engine, "__file__", str(edited))
    assert compiler_key(plain.env) not in (key, None)
    # A game's own filter is part of the compiler: its files are its own.
    plain.render("post", CONTEXT)
    Renderer("demo", override=folder).render("post", CONTEXT)
    assert len({p.name.split("-")[0] for p in cache.iterdir()}) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],
        lambda data: data[:-3],
        lambda data: data[:10] + b"\xff" * 40 + data[50:],
        lambda data: b"\x00" * len(data),
    ],
    ids=["empty", "half", "no-references", "garbled", "zeros"],
)
def test_a_damaged_file_is_compiled_again(
    template_folder: Folder,
    cache: Path,
    monkeypatch: pytest.MonkeyPatch,
    damage: Callable[[bytes], bytes],
) -> None:
    folder = template_folder(**TEMPLATES)
    post = Renderer("demo", override=folder).render("post", CONTEXT)
    for path in cache.iterdir():
        path.write_bytes(damage(path.read_bytes()))
    assert Renderer("demo", override=folder).render("post", CONTEXT) == post
    mended = Renderer("demo", override=folder)  # the files were written again, whole
    compiling_forbidden(mended, monkeypatch)
    assert mended.render("post", CONTEXT) == post


def test_a_folder_that_cannot_be_made_is_no_cache(
    template_folder: Folder, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    in_the_way = tmp_path_factory.mktemp("cache") / "gm"
    in_the_way.write_text("a file where the folder would be\n", encoding="utf-8")
    monkeypatch.setattr(engine, "default_folder", lambda: in_the_way / "templates")
    folder = template_folder(**TEMPLATES)
    renderer = Renderer("demo", override=folder)
    assert renderer.env.bytecode_cache is None
    assert renderer.render("post", CONTEXT) == without_cache(folder, monkeypatch).render(
        "post", CONTEXT
    )


def test_a_folder_gm_cannot_write_to_is_no_cache(
    template_folder: Folder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    # Jinja writes a temporary file beside the cache file, then renames it.
    monkeypatch.setattr(jinja2.bccache.tempfile, "NamedTemporaryFile", refused)
    folder = template_folder(**TEMPLATES)
    post = Renderer("demo", override=folder).render("post", CONTEXT)
    assert post == without_cache(folder, monkeypatch).render("post", CONTEXT)
    assert list(cache.iterdir()) == []


def test_a_read_only_folder_is_no_cache(
    template_folder: Folder, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes to a read-only folder; the test above refuses the write itself")
    cache.mkdir(parents=True)
    cache.chmod(0o500)
    try:
        folder = template_folder(**TEMPLATES)
        renderer = Renderer("demo", override=folder)
        assert renderer.env.bytecode_cache is None
        assert renderer.render("post", CONTEXT) == without_cache(folder, monkeypatch).render(
            "post", CONTEXT
        )
    finally:
        cache.chmod(0o700)


def test_a_template_the_cache_knows_is_still_confined(
    template_folder: Folder, cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    secret = tmp_path_factory.mktemp("mj") / "export.json"
    secret.write_text("seed = graine-secrète-77\n", encoding="utf-8")
    folder = template_folder(**TEMPLATES)
    Renderer("demo", override=folder).render("post", CONTEXT)
    sign = folder / "common" / "fr" / "sign.md.j2"
    sign.unlink()
    sign.symlink_to(secret)
    with pytest.raises(TemplateError) as caught:
        Renderer("demo", override=folder).render("post", CONTEXT)
    assert caught.value.code == "template/outside-folder"
    assert "graine" not in str(caught.value)
