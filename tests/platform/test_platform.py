"""The platform end to end through the CLI, with the tiny test game « toss »:
campaigns, orders, refusals, steps, previews, deadlines, posts, history,
scenarios, settings — everything every game shares."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from platform_support import Gm
from support import private, typeset

from gm.core.fortune import Fortune


def status(gm: Gm) -> dict:
    return json.loads(gm("status", "--json").stdout)


def new(gm: Gm, *extra: str) -> None:
    gm("new", "toss", "--title", "Pièce !", "--players", "alice,bob", "--seed", "graine", *extra)


def test_new_prints_the_opening_post_with_the_seed_commitment(gm: Gm) -> None:
    result = gm("new", "toss", "--title", "Pièce !", "--players", "alice,bob", "--seed", "graine")
    commitment = hashlib.sha256(b"graine").hexdigest()
    assert result.stdout.startswith(
        f"# Pile ou face — Pièce !\n\nJoueurs\u00a0: alice et bob. Sceau\u00a0: `sha256:{commitment}`\n"
    )
    assert typeset("**Vos graines** — envoyez-moi chacun") in result.stdout
    assert "Campaign 'piece' created and selected. Next: gm flip" in result.stderr
    assert gm("list").stdout == "* piece  toss  round-1/guesses  awaiting alice, bob  -  Pièce !\n"


def test_an_accepted_order_prints_the_reply_and_who_is_awaited(gm: Gm) -> None:
    new(gm)
    result = gm("order", "alice", "je dis pile puis face")
    assert result.stdout == ""  # the reply is private
    assert private(result).startswith("Reçu, alice\u00a0: pile face.  \nSceau de la pièce 1\u00a0: `")
    assert "Awaiting: bob." in result.stderr
    assert status(gm)["awaiting"] == ["bob"]


def test_a_refused_order_is_logged_changes_nothing_and_drafts_a_reply(gm: Gm) -> None:
    new(gm)
    before = status(gm)
    result = gm("order", "alice", "bof", code=1)
    # the reply ends with what the game waits for from alice now
    assert private(result) == typeset(
        "Ordre refusé, alice : je n'ai pas compris « bof ».\n\nJ'attends de toi ton message privé.\n"
    )
    assert result.stderr.endswith(
        "Error: say pile or face for both coins (« pile face »), got 'bof' [order/syntax]\n"
    )
    after = status(gm)
    assert {k: v for k, v in after.items() if k != "events"} == {
        k: v for k, v in before.items() if k != "events"
    }
    history = json.loads(gm("history", "--json").stdout)
    assert history[-1]["kind"] == "gm.submission-rejected"
    assert history[-1]["payload"]["text"] == "bof"


def test_explicit_fields_work_like_text(gm: Gm) -> None:
    new(gm)
    assert private(gm("order", "bob", "--side", "face face")).startswith(
        "Reçu, bob\u00a0: face face.  \n"
    )


def test_unknown_player_and_campaign_are_clear_errors(gm: Gm) -> None:
    new(gm)
    result = gm("order", "zed", "pile", code=3)
    assert (
        result.stderr
        == "Error: no player 'zed' in 'piece' (players: alice, bob) [player/not-found]\n"
    )
    result = gm("-c", "nope", "status", code=3)
    assert "Error: no campaign 'nope'" in result.stderr
    assert "[campaign/not-found]" in result.stderr


def test_no_current_campaign(gm: Gm) -> None:
    result = gm("status", code=3)
    assert result.stderr == (
        "Error: no current campaign: create one with 'gm new', or choose one with"
        " 'gm use SLUG' [campaign/none]\n"
    )


def test_colliding_player_names_are_refused(gm: Gm) -> None:
    result = gm("new", "toss", "--title", "x", "--players", "Élodie,elodie", code=2)
    assert result.stderr == (
        "Error: players 'Élodie' and 'elodie' are the same name once case and accents are"
        " ignored; give them distinct names [campaign/players]\n"
    )
    assert gm("list").stderr.startswith("No campaign yet.")


def test_the_step_draws_each_coin_from_its_own_stream_and_posts_results(gm: Gm) -> None:
    new(gm)
    gm("order", "alice", "pile pile")
    gm("order", "bob", "face face")
    result = gm("flip")
    coins = [("pile", "face")[Fortune("graine", f"round-1/coin-{c}").below(2)] for c in (1, 2)]
    assert result.stdout.startswith(f"## Tour 1\u00a0: 🪙 {coins[0]} et 🪙 {coins[1]}\n")
    assert (
        typeset("- pièce 1 : tirage `round-1/coin-1`, **tirage sans graine des joueurs**")
        in result.stdout
    )
    assert "── post 2: results 1 ──" in result.stderr


def test_preview_records_nothing(gm: Gm) -> None:
    new(gm)
    before = status(gm)
    # the flip draws the coins: its preview is refused, nothing is shown
    result = gm("flip", "--force", "--preview", code=1)
    assert result.stdout == "" and "[preview/chance]" in result.stderr
    assert status(gm) == before
    assert gm("post").stdout.startswith("# Pile ou face")


def test_a_deadline_is_recorded_for_the_phase_it_opens(gm: Gm) -> None:
    new(gm)
    gm("order", "alice", "pile pile")
    gm("order", "bob", "pile face")
    gm("flip", "--deadline", "2026-12-03 20:00")
    data = status(gm)
    assert data["deadline"] == "2026-12-03T20:00:00+01:00"
    assert data["phase"] == "round-1/steal-alice"
    assert "Deadline: 2026-12-03T20:00:00+01:00 (2d 7h)" in gm("status").stdout


def test_a_bad_deadline_is_refused_and_changes_nothing(gm: Gm) -> None:
    new(gm)
    before = status(gm)
    result = gm("flip", "--force", "--deadline", "bientôt", code=2)
    assert result.stderr.startswith(
        "Error: cannot read the deadline 'bientôt': use a local time like"
    )
    assert status(gm) == before


def test_history_as_a_player_hides_other_secrets_and_the_seed(gm: Gm) -> None:
    new(gm)
    gm("order", "alice", "pile pile")
    gm("order", "bob", "face face")
    kinds = [
        (e["kind"], e["actor"]) for e in json.loads(gm("history", "--as", "alice", "--json").stdout)
    ]
    assert ("toss.guess-set", "alice") in kinds
    assert ("toss.guess-set", "bob") not in kinds
    assert ("gm.fortune-sealed", "gm") not in kinds
    full = [(e["kind"], e["actor"]) for e in json.loads(gm("history", "--json").stdout)]
    assert ("toss.guess-set", "bob") in full and ("gm.fortune-sealed", "gm") in full


def test_the_seed_is_revealed_only_when_the_game_is_over(gm: Gm) -> None:
    new(gm, "--option", "rounds=2")
    assert "Graine" not in gm("flip", "--force").stdout
    last = gm("flip", "--force").stdout
    assert "Graine\u00a0: `graine`" in last
    assert status(gm)["finished"] is True
    result = gm("flip", "--force", code=1)
    assert result.stderr == "Error: the game is over [phase/game-over]\n"


def test_post_reprints_what_was_stored(gm: Gm) -> None:
    new(gm)
    first = gm("flip", "--force").stdout
    gm("flip", "--force")
    assert gm("post", "results", "--round", "1").stdout == first
    assert gm("post", "results", "1").stdout == first
    result = gm("post", "results", "--round", "9", code=3)
    assert "[post/not-found]" in result.stderr
    result = gm("post", "results", "1.x", code=2)
    assert "not a post address: '1.x'" in result.stderr


def test_settings_change_the_output_format(gm: Gm) -> None:
    new(gm)
    gm("set", "format", "bbcode")
    assert gm("post").stdout.startswith("[size=150][b]Pile ou face — Pièce ![/b][/size]")
    result = gm("set", "format", "pdf", code=2)
    assert (
        "Error: format cannot be 'pdf' (valid: markdown, bbcode, html, phpbb, forumactif,"
        " discourse, reddit) [input/setting]" in result.stderr
    )


def test_pm_and_remind(gm: Gm) -> None:
    new(gm)
    gm("order", "alice", "pile pile")
    gm("order", "bob", "pièce 1 : face")
    assert gm("pm", "Alice").stdout == typeset("alice : 0 point.\n")
    result = gm("remind")
    assert typeset("Ordres manquants : **bob**.") in result.stdout
    assert typeset("bob, pile ou face ?") in private(result)  # the nudge is private
    assert "pile ou face ?" not in result.stdout


def test_play_a_scenario_and_print_its_summary(gm: Gm, tmp_path: Path) -> None:
    scenario = tmp_path / "pile.toml"
    scenario.write_text(
        'game = "toss"\ntitle = "Pile"\nplayers = ["ana", "bob"]\nseed = "s"\n'
        '[[rounds]]\nguesses = { ana = "pile face", bob = "face face" }\n'
        'steals = { bob = "je garde" }\n'
        '[[rounds]]\nguesses = { ana = "face face" }\n'
        'steals = { ana = "je vole bob" }\n'
        "[[rounds]]\nguesses = {}\n",
        encoding="utf-8",
    )
    data = json.loads(gm("play", str(scenario), "--keep", "--json").stdout)
    assert data["game"] == "toss" and data["campaign"] == "pile" and data["finished"] is True
    assert len(data["rounds"]) == 3
    assert data["players"] == [{"name": "ana", "score": 3}, {"name": "bob", "score": 0}]
    # Played twice: a second campaign, never a clash.
    assert json.loads(gm("play", str(scenario), "--keep", "--json").stdout)["campaign"] == "pile-2"


def test_a_refused_order_in_a_scenario_names_where(gm: Gm, tmp_path: Path) -> None:
    scenario = tmp_path / "bad.toml"
    scenario.write_text(
        'game = "toss"\nplayers = ["ana", "bob"]\n[[rounds]]\nguesses = { ana = "rien" }\n',
        encoding="utf-8",
    )
    result = gm("play", str(scenario), "--keep", code=1)
    assert (
        "Error: round 1, ana: say pile or face for both coins (« pile face »), got 'rien'"
        " [order/syntax]" in result.stderr
    )


def test_a_missing_scenario_file(gm: Gm) -> None:
    result = gm("play", "nope.toml", code=3)
    assert result.stderr == "Error: no scenario file 'nope.toml' [scenario/not-found]\n"


def test_new_preview_renders_the_opening_and_records_nothing(gm: Gm) -> None:
    result = gm(
        "new",
        "toss",
        "--title",
        "Pièce !",
        "--players",
        "alice,bob",
        "--seed",
        "graine",
        "--preview",
    )
    assert result.stdout.startswith("# Pile ou face — Pièce !\n")
    assert "Preview of 'piece': nothing recorded." in result.stderr
    assert gm("list").stderr.startswith("No campaign yet.")


def test_a_name_with_an_invisible_character_is_refused(gm: Gm) -> None:
    for name in ("ali\u200bce", "bob\u202e", "zo\u2066e"):
        result = gm("new", "toss", "--title", "x", "--players", f"{name},carl", code=2)
        assert "contains control or invisible characters" in result.stderr
        assert "[campaign/players]" in result.stderr
