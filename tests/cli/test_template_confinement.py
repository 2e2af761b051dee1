"""A template folder cannot read outside itself (the "secrets leak" issue).

The attack: an MJ is given a template folder (``GM_TEMPLATES``) whose
template pulls in, with ``{% include %}`` inside an HTML comment, a symbolic
link to the MJ's own ``gm export`` file, which holds the seed and every salt.
Before, the post printed all of them. Each way in (a link to a file or to a
folder, ``..``, an absolute path, a backslash, a NUL; ``include``, ``import``,
``from``, ``extends``) is tried end to end through the command line: the
command exits with ``[template/outside-folder]`` naming the template and the
folder, prints nothing of the file, and records nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support import without_proof

from gm.cli import cli
from gm.errors import EXIT_USAGE

SEED = "graine-du-mj-4242"
OPENING = "magot/fr/opening.md.j2"


def run(db: str, *args: str, code: int = 0, templates: Path | None = None) -> Result:
    env = {"GM_TEMPLATES": str(templates)} if templates is not None else {}
    result = CliRunner().invoke(cli, ["--db", db, *args], env=env)
    assert result.exit_code == code, (result.stdout, result.stderr, result.exception)
    if code:
        assert isinstance(result.exception, SystemExit)  # an error line, not a traceback
    return result


def error_line(result: Result) -> str:
    (line,) = result.stderr.splitlines()
    return line


@pytest.fixture
def export(db: str, tmp_path: Path) -> tuple[Path, list[str]]:
    """The MJ's export of a campaign in progress, and the secrets in it (seed, salts)."""
    run(db, "new", "magot", "-t", "Le vrai casse", "-p", "fab,marco,lulu", "--seed", SEED)
    run(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    run(db, "order", "fab", "je braque marco, BANG")
    path = tmp_path / "mj" / "export.json"
    path.parent.mkdir()
    run(db, "export", "-o", str(path))
    salts = [e["salt"] for e in json.loads(path.read_text(encoding="utf-8"))["events"]]
    assert SEED in path.read_text(encoding="utf-8") and len(salts) >= 3
    return path, [SEED, *salts]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An empty template folder (the override) beside the MJ's own files."""
    (tmp_path / "gabarits" / "magot" / "fr").mkdir(parents=True)
    return tmp_path / "gabarits"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def new_campaign(db: str, folder: Path, code: int = 0) -> Result:
    return run(db, "new", "magot", "-t", "Piège", "-p", "a,b,c", "--seed", "x", code=code,
               templates=folder)  # fmt: skip


def assert_refused(db: str, folder: Path, secrets: list[str], expected: str) -> None:
    """``gm new`` with ``folder`` fails with ``expected``, prints no secret, records nothing."""
    before = run(db, "list").stdout
    result = new_campaign(db, folder, code=EXIT_USAGE)
    assert error_line(result) == expected
    for secret in secrets:
        assert secret not in result.output
    assert result.stdout == ""
    assert run(db, "list").stdout == before


def refusal(where: str, name: str, reason: str, folder: Path) -> str:
    return (
        f"Error: {where}template {name!r} is refused: {reason}; templates are read only"
        f" from inside their folder {folder} [template/outside-folder]"
    )


@pytest.mark.parametrize(
    "tag",
    [
        '{% include "magot/fr/notes.md.j2" %}',
        '{% import "magot/fr/notes.md.j2" as notes %}',
        '{% from "magot/fr/notes.md.j2" import x %}',
        '{% include ["magot/fr/absent.md.j2", "magot/fr/notes.md.j2"] %}',
        '{% include "magot/fr/notes.md.j2" ignore missing %}',
    ],
)
def test_a_link_to_the_mj_export_is_refused(
    db: str, folder: Path, export: tuple[Path, list[str]], tag: str
) -> None:
    path, secrets = export
    (folder / "magot" / "fr" / "notes.md.j2").symlink_to(path)
    write(folder, OPENING, f"Bienvenue !\n<!-- {tag} -->\n")
    reason = f"it leads through a link to {str(path)!r}, outside the folder"
    opening = f"{folder / OPENING}, line 2: "
    assert_refused(db, folder, secrets, refusal(opening, "magot/fr/notes.md.j2", reason, folder))


def test_extends_a_link_is_refused(db: str, folder: Path, export: tuple[Path, list[str]]) -> None:
    path, secrets = export
    (folder / "magot" / "fr" / "base.md.j2").symlink_to(path)
    write(folder, OPENING, '{% extends "magot/fr/base.md.j2" %}\n')
    reason = f"it leads through a link to {str(path)!r}, outside the folder"
    opening = f"{folder / OPENING}, line 1: "
    assert_refused(db, folder, secrets, refusal(opening, "magot/fr/base.md.j2", reason, folder))


def test_the_template_itself_may_not_be_a_link_out(
    db: str, folder: Path, export: tuple[Path, list[str]]
) -> None:
    """Not even an include: the opening post's template is the export file."""
    path, secrets = export
    (folder / OPENING).symlink_to(path)
    reason = f"it leads through a link to {str(path)!r}, outside the folder"
    assert_refused(db, folder, secrets, refusal("", OPENING, reason, folder))


def test_a_link_to_a_folder_outside_is_refused(
    db: str, folder: Path, export: tuple[Path, list[str]]
) -> None:
    path, secrets = export
    (folder / "magot" / "fr" / "archives").symlink_to(path.parent, target_is_directory=True)
    write(folder, OPENING, '<!-- {% include "magot/fr/archives/export.json" %} -->\n')
    reason = f"it leads through a link to {str(path)!r}, outside the folder"
    opening = f"{folder / OPENING}, line 1: "
    expected = refusal(opening, "magot/fr/archives/export.json", reason, folder)
    assert_refused(db, folder, secrets, expected)


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="no /etc/passwd here")
def test_a_link_to_etc_passwd_is_refused(db: str, folder: Path) -> None:
    first = Path("/etc/passwd").read_text(encoding="utf-8").splitlines()[0]
    (folder / "magot" / "fr" / "passwd.md.j2").symlink_to("/etc/passwd")
    write(folder, OPENING, '<!-- {% include "magot/fr/passwd.md.j2" %} -->\n')
    reason = f"it leads through a link to {os.path.realpath('/etc/passwd')!r}, outside the folder"
    opening = f"{folder / OPENING}, line 1: "
    assert_refused(db, folder, [first], refusal(opening, "magot/fr/passwd.md.j2", reason, folder))


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../mj/export.json", "its name climbs out of the folder with '..'"),
        ("magot/fr/../../../mj/export.json", "its name climbs out of the folder with '..'"),
        ("{absolute}", "it is an absolute path (name it from the template folder, e.g. magot/fr/x.md.j2)"),
        ("..\\\\mj\\\\export.json", "its name holds a backslash (separate folders with /)"),
        ("magot/fr/opening.md.j2\\x00", "its name holds a NUL character"),
    ],
)  # fmt: skip
def test_names_that_leave_the_folder_are_refused(
    db: str, folder: Path, export: tuple[Path, list[str]], name: str, reason: str
) -> None:
    path, secrets = export
    name = name.replace("{absolute}", str(path))
    write(folder, OPENING, f'Bienvenue\n<!-- {{% include "{name}" %}} -->\n')
    shown = name.encode().decode("unicode_escape")  # as Jinja reads the string literal
    opening = f"{folder / OPENING}, line 2: "
    assert_refused(db, folder, secrets, refusal(opening, shown, reason, folder))


def test_a_link_out_deep_in_a_chain_names_the_template_that_includes_it(
    db: str, folder: Path, export: tuple[Path, list[str]]
) -> None:
    path, secrets = export
    (folder / "magot" / "fr" / "notes.md.j2").symlink_to(path)
    write(folder, OPENING, '{% import "magot/fr/_parts.md.j2" as parts %}\n{{ parts.intro() }}\n')
    write(
        folder,
        "magot/fr/_parts.md.j2",
        '{% macro intro() %}\nSalut\n{% include "magot/fr/notes.md.j2" %}\n{% endmacro %}\n',
    )
    reason = f"it leads through a link to {str(path)!r}, outside the folder"
    parts = f"{folder / 'magot/fr/_parts.md.j2'}, line 3: "
    assert_refused(db, folder, secrets, refusal(parts, "magot/fr/notes.md.j2", reason, folder))


def test_a_later_command_is_confined_too(
    db: str, folder: Path, export: tuple[Path, list[str]]
) -> None:
    """Not only the opening post: every command that renders, here `gm draw`."""
    path, secrets = export
    run(db, "new", "magot", "-t", "Deux", "-p", "a,b,c", "--seed", "y")
    (folder / "magot" / "fr" / "notes.md.j2").symlink_to(path)
    write(folder, "magot/fr/round.md.j2", '<!-- {% include "magot/fr/notes.md.j2" %} -->\n')
    before = run(db, "status", "--json").stdout
    result = run(db, "draw", code=EXIT_USAGE, templates=folder)
    assert error_line(result).endswith("[template/outside-folder]")
    assert not any(secret in result.output for secret in secrets)
    assert run(db, "status", "--json").stdout == before


def test_links_inside_the_folder_are_followed(db: str, folder: Path, tmp_path: Path) -> None:
    """A link that stays inside the folder is fine (sharing a part between games or
    languages), and so is a template folder that is itself reached through a link."""
    write(folder, "commun/intro.md.j2", "Intro partagée\n")
    (folder / "magot" / "fr" / "intro.md.j2").symlink_to("../../commun/intro.md.j2")
    (folder / "magot" / "en").symlink_to("fr", target_is_directory=True)
    write(
        folder,
        OPENING,
        '{% include "magot/fr/intro.md.j2" %}\n{% include "magot/en/intro.md.j2" %}\n',
    )
    alias = tmp_path / "raccourci"
    alias.symlink_to(folder, target_is_directory=True)
    result = new_campaign(db, alias)
    # a hard line break, then the post's proof
    assert without_proof(result.stdout) == "Intro partagée  \nIntro partagée\n"


def test_a_folder_link_to_the_shipped_templates_counts_as_outside(db: str, folder: Path) -> None:
    """Each folder is confined to itself: the override cannot reach the shipped folder
    by a link either (it does not need to: what it lacks is looked up there anyway)."""
    from gm.render.engine import game_templates_dir

    shipped = game_templates_dir("magot")
    assert shipped is not None
    (folder / "magot" / "fr" / "shipped").symlink_to(shipped, target_is_directory=True)
    write(folder, OPENING, '{% include "magot/fr/shipped/fr/round.md.j2" %}\n')
    result = new_campaign(db, folder, code=EXIT_USAGE)
    assert error_line(result).endswith("[template/outside-folder]")
