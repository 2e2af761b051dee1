"""The MJ's own work during a week of play: deadlines that move, players who
come and go, several tables at once, rehearsals, and archives for players.

Every test checks what the MJ sees (stdout, stderr, the exit code), on both
databases, and that the log still verifies and undoes.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import support
from support import private, typeset

from gm.render.filters import datetime_fr

ROOT = Path(__file__).resolve().parents[2]
TITLE = "Le casse du siècle"
SLUG = "le-casse-du-siecle"
BILLS = "20000,10000,5000,5000,5000"


@pytest.fixture
def gm(db: str, frozen_clock: object) -> support.Gm:
    g = support.Gm(db)
    g(
        "new",
        "magot",
        "--title",
        TITLE,
        "--players",
        "fab,marco,lulu,Jean-Paul",
        "--seed",
        "graine secrète du casse",
    )
    return g


def opened(gm: support.Gm) -> None:
    gm("draw", "--bills", BILLS, "--deadline", "2026-12-03 20:00")


def when(recorded_at: str) -> str:
    """A log time as the archive prints it: French, in the campaign's zone."""
    moment = datetime.fromisoformat(recorded_at.replace("Z", "+00:00"))
    return str(datetime_fr(moment.astimezone(ZoneInfo("Europe/Paris")).isoformat()))


def assert_public(gm: support.Gm, notice: str) -> None:
    """A public notice holds no secret: not the seed, no salt of a secret
    whose content is hidden, no private message."""
    for row in gm.history():
        if row["kind"] == "gm.fortune-sealed":
            assert row["payload"]["seed"] not in notice
        if row["seal"]:
            assert row["salt"] not in notice
        if row["kind"] == "gm.submission-received":
            assert row["payload"]["text"] not in notice


def footer(gm: support.Gm, archived: bool = False) -> str:
    """The fingerprint line of the notice the last command printed: the log's
    head, before the event committing to the notice when it was archived."""
    head = gm.history()[-2 if archived else -1]["hash"].removeprefix("sha256:")
    return f"_Empreinte du registre : `{head[:32]}`_\n"


# --- 6. deadlines that move ---------------------------------------------------------


def test_deadline_plus_24h_moves_the_deadline_a_day_and_prints_a_notice(gm: support.Gm) -> None:
    opened(gm)
    result = gm("deadline", "+24h")
    assert result.stdout == typeset(
        f"**{TITLE} — nouvelle échéance**\n"
        "\n"
        "L'échéance est déplacée : **vendredi 4 décembre 2026 à 20 h 00** au lieu de jeudi"
        " 3 décembre 2026 à 20 h 00.\n"
        "On attend encore : fab, marco, lulu et Jean-Paul.\n"
        "\n" + footer(gm)
    )
    assert_public(gm, result.stdout)
    assert result.stderr == (
        "── public notice ──\n"
        f"[{SLUG}] Done (event 8). Deadline 2026-12-04 20:00 (3d 7h left; was 2026-12-03"
        " 20:00).\n"
    )
    last = gm.history()[-1]
    assert (last["kind"], last["payload"]) == (
        "gm.deadline-set",
        {"phase": "round-1/orders", "at": "2026-12-04T20:00:00+01:00"},
    )
    assert gm("deadline").stdout == "2026-12-04T20:00:00+01:00 (3d 7h)\n"
    gm("undo")  # the previous deadline again
    assert gm("deadline").stdout == "2026-12-03T20:00:00+01:00 (2d 7h)\n"
    assert gm("verify").exit_code == 0


@pytest.mark.parametrize(
    ("when", "at"),
    [
        ("03/12/2026 20:00", "2026-12-03T20:00:00+01:00"),
        ("3/12 20h", "2026-12-03T20:00:00+01:00"),
        ("jeudi 20h", "2026-12-03T20:00:00+01:00"),
        ("jeudi", "2026-12-03T20:00:00+01:00"),
        ("demain 18h30", "2026-12-02T18:30:00+01:00"),
        ("mardi 12h", "2026-12-08T12:00:00+01:00"),  # today's noon is past: next week
        ("+2j", "2026-12-03T13:00:00+01:00"),  # from now: no deadline yet
        ("2026-12-03 20:00", "2026-12-03T20:00:00+01:00"),
    ],
)
def test_french_dates_as_players_write_them(gm: support.Gm, when: str, at: str) -> None:
    gm("draw", "--bills", BILLS, "--deadline", when)
    assert gm.status()["deadline"] == at


def test_a_delay_falls_on_a_quarter_of_an_hour_written_as_french_reads_it(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28.6, « deadlines at 5 h 37 »: a delay counted from the minute the
    MJ typed it gave an odd deadline. It is rounded up to the next quarter of
    an hour (never less time than asked), and printed as French typesetting
    writes a time: the hour without a leading zero, « h », the minutes in two
    digits, with no-break spaces (« 5 h 45 », not « 05 h 45 » nor « 5:45 »)."""
    import gm.service.env

    typed = datetime(2026, 12, 1, 4, 37, 12, tzinfo=ZoneInfo("UTC"))  # 5 h 37 in Paris
    monkeypatch.setattr(gm.service.env, "utcnow", lambda: typed)
    gm = support.Gm(db)
    gm("new", "magot", "--title", TITLE, "--players", "fab,marco,lulu", "--seed", "s")
    post = gm("draw", "--bills", BILLS, "--deadline", "+24h").stdout
    assert typeset("Ordres en MP avant **mercredi 2 décembre 2026 à 5 h 45**.") in post
    assert gm.status()["deadline"] == "2026-12-02T05:45:00+01:00"
    # moved by a delay, it stays on its quarter; a time typed by the MJ is kept as typed
    gm("deadline", "+90m")
    assert gm.status()["deadline"] == "2026-12-02T07:15:00+01:00"
    gm("deadline", "mercredi 18h05")
    assert gm.status()["deadline"] == "2026-12-02T18:05:00+01:00"


@pytest.mark.parametrize(
    ("when", "why"),
    [
        ("31/02 20h", "cannot read the deadline '31/02 20h'"),
        ("jeudi 25h", "cannot read the deadline 'jeudi 25h'"),
        ("30/11 20h", "the deadline '30/11 20h' is already past"),
    ],
)
def test_a_bad_deadline_is_refused_and_changes_nothing(gm: support.Gm, when: str, why: str) -> None:
    opened(gm)
    before = gm.status()
    result = gm("deadline", when, code=2)
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {why}")
    assert result.stderr.endswith("[input/deadline]\n")
    assert gm.status() == before


# --- 7. players who come and go -------------------------------------------------------


def test_replace_seats_the_newcomer_with_the_seat_and_its_secrets(gm: support.Gm) -> None:
    opened(gm)
    gm("order", "fab", "marco BANG")
    gm("order", "marco", "fab BBB")
    result = gm("replace", "fab", "Élodie")
    # the public notice on standard output; the newcomer's status, private
    assert result.stdout == typeset(
        f"**{TITLE} — changement à la table n° 1**\n"
        "\n"
        "**Élodie** prend la place de fab : son siège, son jeu et ses secrets."
        " Bienvenue, Élodie !\n"
        "\n" + footer(gm, archived=True)
    ) + gm.proof()
    assert support.private(result) == typeset(
        f"**{TITLE} — ta situation, Élodie** (tour 1)\n"
        "\n"
        "Tu as 0\u00a0$, 0 blessure et 0 point de honte.\n"
        "Il te reste : BANG BANG BANG ×1, BANG ×2, CLIC CLIC CLIC ×5.\n"
        "Ton ordre pour ce tour : tu braques **marco** avec **BANG**.\n"
    )
    assert support.notes(result) == (
        "── public notice ──\n"
        f"── private message to Élodie · {TITLE} [{SLUG}] ──\n"
        f"[{SLUG}] Done (event 15). Élodie sits in fab's seat.\n"
    )
    assert_public(gm, result.stdout)
    # one public event, then the notice committed like any post
    change, notice = gm.history()[-2:]
    assert (change["kind"], change["audience"], change["payload"]) == (
        "gm.player-replaced",
        "*",
        {"old": "fab", "new": "Élodie"},
    )
    assert (notice["kind"], notice["payload"]["post"]) == ("gm.post-published", "roster")
    # marco's order aims at the seat, now Élodie's; fab is no longer seated
    assert gm("pm", "marco").stdout.endswith("tu braques **Élodie** avec **BANG BANG BANG**.\n")
    assert gm("order", "fab", "marco clic", code=3).stderr == (
        f"Error: no player 'fab' in '{SLUG}' (players: Élodie, marco, lulu, Jean-Paul)"
        " [player/not-found]\n"
    )
    gm("order", "lulu", "Élodie clic")
    gm("order", "Jean-Paul", "Élodie clic")
    reveal = gm("reveal").stdout
    assert "| Élodie | marco |\n| marco | Élodie |" in reveal
    gm("resolve")
    assert gm("verify").exit_code == 0


def test_rename_and_nicknames_and_a_near_miss(gm: support.Gm) -> None:
    opened(gm)
    assert (
        gm("nick", "jean-paul", "jp").stderr
        == f"[{SLUG}] Done (event 8). 'jp' now means Jean-Paul.\n"
    )
    assert gm("nick", "fab", "bang", code=2).stderr == (
        "Error: 'bang' is a word Le Magot's messages use; choose another nickname"
        " [roster/nickname-word]\n"
    )
    result = gm("order", "jp", "je braque fabb, BANG", code=1)
    assert typeset("je ne connais personne qui s'appelle « fabb »") in support.private(result)
    result = gm("order", "fabb", "jp BANG", code=3)
    assert result.stderr == (
        f"Error: no player 'fabb' in '{SLUG}' (players: fab, marco, lulu, Jean-Paul); did you"
        " mean 'fab'? [player/not-found]\n"
    )
    assert private(gm("order", "fab", "je braque JP, BANG")).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **Jean-Paul** avec **BANG**.") + "  \n"
    )
    gm("order", "lulu", "fab clic")
    result = gm("rename", "lulu", "Lucienne")
    assert result.stdout == typeset(
        f"**{TITLE} — changement à la table n° 1**\n\nlulu s'appelle désormais **Lucienne**.\n\n"
        + footer(gm, archived=True)
    ) + gm.proof()
    # the same person: her archive keeps what she sent as lulu
    archive = gm("history", "--as", "lucienne").stdout
    assert typeset("ton message « fab clic », reçu.") in archive
    taken = gm("rename", "marco", "lucienne", code=2).stderr
    assert taken.startswith("Error: players ")
    assert taken.endswith(" [campaign/players]\n")
    gm("undo")
    assert gm.status()["awaiting"] == ["marco", "Jean-Paul"]
    assert gm("pm", "lulu").exit_code == 0
    assert gm("verify").exit_code == 0


# --- 8. several tables at once -----------------------------------------------------------


def test_gm_list_is_a_dashboard_and_notes_name_the_campaign(gm: support.Gm) -> None:
    opened(gm)
    gm("order", "fab", "marco BANG")
    gm("new", "fistful", "--title", "Duel", "--players", "ana,bob", "--seed", "d")
    # by slug; * marks the current campaign
    assert gm("list").stdout == (
        "* duel                fistful  setup           awaiting ana, bob                -           Duel\n"
        f"  {SLUG}  magot    round-1/orders  awaiting marco, lulu, Jean-Paul  2d 7h left  {TITLE}\n"
    )
    result = gm("-c", SLUG, "order", "marco", "fab BANG")
    assert support.notes(result).startswith(f"── private reply to marco · {TITLE} [{SLUG}] ──\n[{SLUG}] ")
    rows = gm.json("list")
    assert [(r["slug"], r["current"], r["awaiting"], r["time_left"]) for r in rows] == [
        ("duel", True, ["ana", "bob"], None),
        (SLUG, False, ["lulu", "Jean-Paul"], "2d 7h"),
    ]


# --- 9. rehearsals ---------------------------------------------------------------------


def test_a_taken_slug_never_blocks_gm_new(gm: support.Gm) -> None:
    result = gm("new", "magot", "--title", TITLE, "--players", "a1,b2,c3")
    assert result.stderr.endswith(
        f"'{SLUG}' is taken: this campaign is '{SLUG}-2' (--slug chooses another; gm list shows"
        " them all).\n"
        f"Campaign '{SLUG}-2' created and selected. Next: gm draw (opens round 1)\n"
    )


def test_gm_play_rehearses_without_touching_the_mjs_database(gm: support.Gm) -> None:
    before = gm("list").stdout
    result = gm("play", str(ROOT / "campaigns" / "exemple-fistful.toml"))
    assert result.stdout.startswith("# Fistful of Gold")
    assert result.stderr.endswith(
        "Rehearsal of 'pour-une-poignee-d-or' played (183 events) in a throw-away database:"
        " nothing was kept (gm play --keep stores it in yours).\n"
    )
    assert gm("list").stdout == before
    gm("play", str(ROOT / "campaigns" / "exemple-fistful.toml"), "--keep")
    assert gm("list").stdout.startswith(f"  {SLUG}")
    assert "* pour-une-poignee-d-or" in gm("list").stdout


# --- 10. archives a player can read -------------------------------------------------------


def test_history_as_a_player_is_their_french_archive(gm: support.Gm) -> None:
    opened(gm)
    gm("order", "fab", "graine : tequila")
    gm("order", "fab", "marco", code=1)  # refused: no option
    gm("order", "fab", "marco BANG")
    seal = gm.seal("fab", 1)
    gm("withdraw", "fab")
    result = gm("history", "--as", "fab")
    # each entry is dated in the campaign's time zone, as the log recorded it
    listed = ("gm.submission-received", "gm.entropy-added", "gm.submission-rejected")
    mine = [
        e
        for e in gm.history()
        if (e["kind"] in listed and e["payload"]["player"] == "fab")
        or (e["audience"] == "fab" and e["kind"].startswith("magot."))
    ]
    at = [when(e["recorded_at"]) for e in mine]
    assert len(at) == 6
    # what fab typed is quoted as typed: its « : » keeps its plain space
    assert result.stdout == typeset(
        f"**{TITLE} — ton archive, fab**\n"
        "\n"
        f"- {at[0]}, tour 1 : ton message « TYPED », reçu.\n"
        f"- {at[1]}, tour 1 : ta graine pour le hasard `tequila`.\n"
        f"- {at[2]}, tour 1 : ton message « marco », refusé.\n"
        f"- {at[3]}, tour 1 : ton message « marco BANG », reçu.\n"
        f"- {at[4]}, tour 1 : sceau de ton choix `{seal}`.\n"
        f"- {at[5]}, tour 1 : le MJ a retiré ton ordre.\n"
        "\n" + footer(gm)
    ).replace("TYPED", "graine : tequila")
    gm("set", "format", "bbcode")
    assert gm("history", "--as", "fab").stdout.startswith(f"[b]{TITLE} — ton archive, fab[/b]\n")
    assert "marco BANG" not in gm("history", "--as", "marco").stdout


def test_export_writes_a_file_named_after_the_campaign(
    gm: support.Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    monkeypatch.chdir(folder)
    result = gm("export")
    assert result.stdout == ""
    assert result.stderr == f"[{SLUG}] Exported to {SLUG}.json.\n"
    document = json.loads((folder / f"{SLUG}.json").read_text(encoding="utf-8"))
    assert document["format"] == "gm-campaign"
    assert gm("export", code=2).stderr == (
        f"Error: '{SLUG}.json' exists; give --force to replace it, or choose another name"
        " [export/exists]\n"
    )
    assert json.loads(gm("export", "-o", "-").stdout) == document
    assert os.listdir(folder) == [f"{SLUG}.json"]


def test_roster_and_deadline_events_export_import_and_verify(
    gm: support.Gm, new_db: support.NewDb, tmp_path: Path
) -> None:
    opened(gm)
    gm("order", "fab", "marco BANG")
    gm("deadline", "+24h")
    gm("nick", "Jean-Paul", "jp")
    gm("replace", "fab", "Élodie")
    gm("rename", "lulu", "Lucienne")
    path = tmp_path / "casse.json"
    gm("export", "-o", str(path))
    other = support.Gm(new_db("other"))
    result = other("import", str(path))
    assert result.exit_code == 0
    assert other("verify").stdout == gm("verify").stdout
    assert other.status()["players"] == gm.status()["players"]
    assert support.private(other("order", "jp", "Élodie clic")).startswith(
        typeset("Ordre reçu pour le tour 1 : tu braques **Élodie** avec **CLIC CLIC CLIC**.")
        + "  \n"
    )


def test_players_check_a_thread_with_a_replacement_between_rounds(
    gm: support.Gm, tmp_path: Path
) -> None:
    """gm check replays the change at the table from the notice's proof:
    the newcomer is a player, in the seat's place when words are mixed."""
    from gm.check import main

    def round_(orders: dict[str, str]) -> None:
        gm("draw")
        for player, text in orders.items():
            gm("order", player, text)
        gm("reveal")
        gm("resolve")

    round_({"fab": "marco BANG", "marco": "fab BBB", "lulu": "fab clic", "Jean-Paul": "lulu clic"})
    gm("replace", "fab", "Élodie")
    gm("order", "Élodie", "graine : pomme")
    round_(
        {
            "Élodie": "marco BANG",
            "marco": "Élodie clic",
            "lulu": "marco clic",
            "jean-paul": "lulu BANG",
        }
    )
    thread = tmp_path / "fil.md"
    gm("chronicle", "-o", str(thread))
    code, report = main([str(thread)], "")
    assert "DIFFÉRENT" not in report, report
    assert "texte rendu de nouveau par gm" in report  # the notice among the posts
    assert code == 3, report  # nothing contradicted; the seed is not revealed yet
