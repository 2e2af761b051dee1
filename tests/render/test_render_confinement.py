"""The confined loader: a template is read only from inside the folder it is found in.

The attacks end to end are in tests/cli/test_template_confinement.py; here, the
cases the command line cannot set up: the shipped folder, a link swapped in
between the check and the read, special files, the fingerprint.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from gm.render import Renderer, TemplateError, engine
from gm.render.loader import ConfinedLoader, TemplateOutsideFolder

Folder = Callable[..., Path]
SECRET = "seed = graine-secrète-77"


@pytest.fixture
def secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mj") / "export.json"
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


def refused(renderer: Renderer, kind: str) -> TemplateError:
    with pytest.raises(TemplateError) as caught:
        renderer.render(kind, {})
    assert caught.value.code == "template/outside-folder"
    assert "graine" not in str(caught.value)
    return caught.value


def test_the_shipped_folder_is_confined_too(
    template_folder: Folder, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's folder in its package, and the platform's."""
    shipped = template_folder(
        **{
            "demo/fr/post": '{% include "demo/fr/leak.md.j2" %}\n',
            "common/fr/remind": '{% include "common/fr/leak.md.j2" %}\n',
        }
    )
    (shipped / "demo" / "fr" / "leak.md.j2").symlink_to(secret)
    (shipped / "common" / "fr" / "leak.md.j2").symlink_to(secret)
    monkeypatch.setattr(engine, "game_templates_dir", lambda game_id: shipped / game_id)
    monkeypatch.setattr(engine, "templates_dir", lambda: shipped / "common")
    error = refused(Renderer("demo"), "post")
    assert "template 'demo/fr/leak.md.j2' is refused" in str(error)
    assert str(error).endswith(f"from inside their folder {shipped / 'demo'}")
    error = refused(Renderer("demo"), "remind")
    assert str(error).endswith(f"from inside their folder {shipped / 'common'}")


def test_a_refusal_in_the_override_does_not_fall_back_to_the_shipped_template(
    template_folder: Folder, secret: Path
) -> None:
    """The shipped folder has common/fr/remind: a link out in the override is an
    error, not "not found here, try the next folder"."""
    folder = template_folder()
    (folder / "common" / "fr").mkdir(parents=True)
    (folder / "common" / "fr" / "remind.md.j2").symlink_to(secret)
    refused(Renderer("demo", override=folder), "remind")


def test_a_dangling_link_out_is_refused(template_folder: Folder, tmp_path: Path) -> None:
    folder = template_folder(**{"demo/fr/post": '{% include "demo/fr/gone.md.j2" %}\n'})
    (folder / "demo" / "fr" / "gone.md.j2").symlink_to(tmp_path.parent / "nowhere.json")
    refused(Renderer("demo", override=folder), "post")


def test_a_link_loop_inside_is_not_found(template_folder: Folder) -> None:
    folder = template_folder(**{"demo/fr/post": '{% include "demo/fr/loop.md.j2" %}\n'})
    (folder / "demo" / "fr" / "loop.md.j2").symlink_to("loop.md.j2")
    with pytest.raises(TemplateError, match=r"template 'demo/fr/loop\.md\.j2' not found"):
        Renderer("demo", override=folder).render("post", {})


def test_a_fifo_inside_is_not_read(template_folder: Folder) -> None:
    """A named pipe would block the read for ever: it is not a template."""
    folder = template_folder(**{"demo/fr/post": '{% include "demo/fr/pipe.md.j2" %}\n'})
    os.mkfifo(folder / "demo" / "fr" / "pipe.md.j2")
    with pytest.raises(TemplateError, match=r"template 'demo/fr/pipe\.md\.j2' not found"):
        Renderer("demo", override=folder).render("post", {})


def test_a_link_swapped_in_after_the_check_is_not_followed(
    template_folder: Folder, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the real-path check and the read, the file becomes a link out: the read
    (one folder at a time, no link followed) refuses it instead of reading the secret."""
    folder = template_folder(**{"demo/fr/post": "inoffensif\n"})
    target = folder / "demo" / "fr" / "post.md.j2"
    isfile = os.path.isfile

    def swap(path: str) -> bool:
        found = isfile(path)
        if path == os.path.realpath(target) and target.is_file() and not target.is_symlink():
            target.unlink()
            target.symlink_to(secret)
        return found

    monkeypatch.setattr(os.path, "isfile", swap)
    error = refused(Renderer("demo", override=folder), "post")
    assert "it became a link while it was being read" in str(error)


def test_a_folder_swapped_for_a_link_after_the_check_is_not_followed(
    template_folder: Folder, secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = template_folder(**{"demo/fr/export": "inoffensif\n"})
    (folder / "demo" / "fr" / "export.json").write_text("inoffensif\n", encoding="utf-8")
    fr = folder / "demo" / "fr"
    isfile = os.path.isfile

    def swap(path: str) -> bool:
        found = isfile(path)
        if path == os.path.realpath(fr / "export.json") and not fr.is_symlink():
            fr.rename(folder / "demo" / "fr-old")
            fr.symlink_to(secret.parent, target_is_directory=True)
        return found

    loader = ConfinedLoader(folder)
    monkeypatch.setattr(os.path, "isfile", swap)
    with pytest.raises(TemplateOutsideFolder) as caught:
        loader.get_source(jinja2.Environment(), "demo/fr/export.json")
    assert SECRET not in str(caught.value)


def test_the_fingerprint_refuses_too(template_folder: Folder, secret: Path) -> None:
    folder = template_folder(**{"demo/fr/post": '{% import "demo/fr/leak.md.j2" as m %}\n'})
    (folder / "demo" / "fr" / "leak.md.j2").symlink_to(secret)
    with pytest.raises(TemplateError) as caught:
        Renderer("demo", override=folder).fingerprint("post")
    assert caught.value.code == "template/outside-folder"
    assert str(caught.value).startswith("demo/fr/post.md.j2: template 'demo/fr/leak.md.j2'")


def test_a_template_changed_into_a_link_out_is_not_served_from_the_cache(
    template_folder: Folder, secret: Path
) -> None:
    folder = template_folder(**{"demo/fr/post": "première version\n"})
    renderer = Renderer("demo", override=folder)
    assert renderer.render("post", {}) == "première version\n"
    (folder / "demo" / "fr" / "post.md.j2").unlink()
    (folder / "demo" / "fr" / "post.md.j2").symlink_to(secret)
    refused(renderer, "post")


@pytest.mark.parametrize("name", ["demo/fr/./post.md.j2", "demo//fr/post.md.j2"])
def test_harmless_spellings_of_a_name_inside_still_work(template_folder: Folder, name: str) -> None:
    folder = template_folder(**{"demo/fr/post": "ok\n", "demo/fr/a": f'{{% include "{name}" %}}\n'})
    assert Renderer("demo", override=folder).render("a", {}) == "ok\n"
