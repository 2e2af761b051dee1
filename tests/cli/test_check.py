"""``gm check``: a player checks a thread with gm installed, no database, no campaign.

The command is thin: it hands its arguments and standard input to
``gm.check.main`` and prints what it returns, with its exit code (0 all
verified, 1 a difference, 2 unreadable input or usage, 3 not all verified).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check.forum import forum
from click.testing import CliRunner
from support import Gm, private

from gm.check import main
from gm.cli import cli
from gm.service.env import Env


def check(*args: str, stdin: str = "", code: int = 0) -> str:
    result = CliRunner().invoke(cli, ["check", *args], input=stdin)
    assert result.exit_code == code, (result.output, result.exception)
    return result.stdout


replies: dict[str, str] = {}
"""Each player's private reply to his order, in the last game ``thread`` played."""


@pytest.fixture
def thread(db: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A finished one-round game of Le Magot, as its forum thread."""
    gm = Gm(db)
    gm("new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu", "--seed", "graine",
       "--option", "rounds=1")  # fmt: skip
    gm("draw")
    for player, target in (("fab", "marco"), ("marco", "lulu"), ("lulu", "fab")):
        replies[player] = private(gm("order", player, f"sur {target}, clic clic clic"))
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")
    on_forum = forum(Env(db=db), "le-casse")
    # a player's machine: no gm database anywhere
    monkeypatch.setenv("GM_DB", str(Path(db).parent / "absent" / "gm.db"))
    return on_forum.thread()


def test_an_honest_thread_is_verified_from_a_file_or_standard_input(
    thread: str, tmp_path: Path
) -> None:
    path = tmp_path / "fil.md"
    path.write_text(thread, encoding="utf-8")
    out = check(str(path))
    assert (
        out
        == main(
            [
                str(path),
            ],
            "",
        )[1]
    )
    assert out.endswith(
        "BILAN : tout ce que ce fil publie a été vérifié et concorde, voir OK ci-dessus (code 0).\n"
    )
    assert "Message 1 (opening) — " + str(path) in out
    assert check("-", stdin=thread).replace("entrée standard", str(path)) == out
    assert not (tmp_path / "absent").exists()


def test_an_edited_thread_exits_1_naming_the_line(thread: str, tmp_path: Path) -> None:
    lines = thread.split("\n")
    i = next(i for i, line in enumerate(lines) if "marco" in line and "clic" in line.lower())
    lines[i] = lines[i].replace("marco", "lulu", 1)
    path = tmp_path / "fil.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    out = check(str(path), code=1)
    assert f"DIFFÉRENT : ligne {path}:{i + 1} : le fil montre « " in out
    assert out.endswith("voir DIFFÉRENT ci-dessus (code 1).\n")


def test_help_and_usage_errors(tmp_path: Path) -> None:
    assert "Codes de sortie :" in check("--help")
    assert "ERREUR : donnez au moins un fichier" in check(code=2)
    assert "ERREUR : format « xml » inconnu ; valides : " in check("-", "--format", "xml", code=2)
    missing = tmp_path / "absent.md"
    assert check(str(missing), code=2).startswith(f"ERREUR : {missing} : ")
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\xff\xfe")
    assert "ce n'est pas du texte UTF-8" in check(str(binary), code=2)


def test_more_than_16_mib_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "fil.md"
    big.write_bytes(b"a" * (16 * 2**20 + 1))
    assert check(str(big), code=2) == f"ERREUR : {big} : plus de 16 Mio\n"
    assert check("-", stdin="é" * (8 * 2**20 + 1), code=2) == (
        "ERREUR : entrée standard : plus de 16 Mio\n"
    )


def test_a_text_without_any_proof_is_not_a_thread_of_gm() -> None:
    out = check("-", stdin="## Tour 1\n\nfab gagne 20 000 $.\n", code=2)
    assert out.startswith("ERREUR : entrée standard : aucun message de gm (aucun bloc « gm-preuve/")


def test_a_players_private_reply_is_checked_beside_the_thread(thread: str, tmp_path: Path) -> None:
    (tmp_path / "fil.md").write_text(thread, encoding="utf-8")
    (tmp_path / "reponse.txt").write_text(replies["fab"], encoding="utf-8")
    out = check(str(tmp_path / "fil.md"), "--reply", str(tmp_path / "reponse.txt"))
    assert f"({tmp_path / 'reponse.txt'}:3) est celui de l'événement " in out
    forged = replies["fab"].replace("**marco**", "**lulu**")
    (tmp_path / "reponse.txt").write_text(forged, encoding="utf-8")
    out = check(str(tmp_path / "fil.md"), "--reply", str(tmp_path / "reponse.txt"), code=1)
    assert f"DIFFÉRENT : ligne {tmp_path / 'reponse.txt'}:1" in out
