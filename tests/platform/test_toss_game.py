"""The platform carries what the next seed games need, shown with « Pile ou face »
(``toss.py``): several secrets per player per round, turn order, choices
while a round resolves, defaults drawn by the fortune, posts addressed by two
coordinates, a game's own filter and a fixed-width diagram in every format,
and deadlines that follow the turn."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from platform_support import Gm
from support import notes, private, typeset, without_proof

from gm.core.canonical import seal
from gm.core.fortune import Fortune, label_for


def status(gm: Gm) -> dict:
    return json.loads(gm("status", "--json").stdout)


def history(gm: Gm, *extra: str) -> list[dict]:
    return json.loads(gm("history", "--json", *extra).stdout)


def coins(seed: str, round_: int, words: tuple[tuple[str, str], ...] = ()) -> list[str]:
    return [
        ("pile", "face")[Fortune(seed, label_for(f"round-{round_}/coin-{c}", words)).below(2)]
        for c in (1, 2)
    ]


def new(gm: Gm, players: str = "ana,bob,cyd", seed: str = "graine") -> None:
    gm("new", "toss", "--title", "Pièce", "--players", players, "--seed", seed)


def test_one_message_records_two_secrets_and_the_reply_gives_both_seals(gm: Gm) -> None:
    new(gm)
    reply = private(gm("order", "ana", "pile, puis face"))
    secrets = [e for e in history(gm) if e["kind"] == "toss.guess-set"]
    assert [(e["payload"]["coin"], e["payload"]["side"]) for e in secrets] == [
        (1, "pile"),
        (2, "face"),
    ]
    # Two commands, one batch: each recorded after its own command.
    assert [e["kind"] for e in history(gm)][-5:] == [
        "gm.submission-received",
        "gm.command-decided",
        "toss.guess-set",
        "gm.command-decided",
        "toss.guess-set",
    ]
    for e in secrets:
        assert f"Sceau de la pièce {e['payload']['coin']}\u00a0: `{e['seal'][7:39]}`" in reply


def test_replacing_one_secret_keeps_the_others(gm: Gm) -> None:
    new(gm)
    gm("order", "ana", "pile pile")
    gm("order", "ana", "pièce 2 : face")
    assert gm("pm", "ana").stdout == typeset("ana : 0 point.\n")
    gm("order", "bob", "face face")
    gm("order", "cyd", "pile face")
    results = gm("flip").stdout
    opened = next(line for line in results.splitlines() if line.startswith("Sceaux ouverts"))
    assert opened.count("ana pièce") == 2  # both of ana's secrets, the replaced one in force
    guesses = {
        (e["payload"]["player"], e["payload"]["coin"]): e
        for e in history(gm)
        if e["kind"] == "toss.guess-set"
    }
    assert guesses["ana", 2]["payload"]["side"] == "face"
    for (player, coin), e in guesses.items():
        digest = seal(e["kind"], e["payload"], e["salt"])
        assert f"{player} pièce {coin} `{digest[7:39]}` (sel `{e['salt']}`)" in opened


def test_robbers_move_in_turn_order_in_public_and_the_first_player_rotates(gm: Gm) -> None:
    new(gm, seed="g2")
    first = coins("g2", 1)
    gm("order", "ana", " ".join(first))  # two points
    gm("order", "bob", " ".join(first))
    gm("order", "cyd", " ".join("pile" if c == "face" else "face" for c in first))
    gm("flip")
    data = status(gm)
    assert data["expected"] == [{"player": "ana", "how": "public", "what": "whom to rob"}]
    refused = gm("order", "bob", "je vole ana", code=1)
    assert refused.stderr.endswith("Error: it is ana's turn, not bob's [toss/not-your-turn]\n")
    assert notes(gm("order", "ana", "je vole cyd", code=1)).splitlines()[1].startswith(
        "Error: cyd has no point to lose"
    )
    gm("order", "ana", "je vole bob")
    assert status(gm)["awaiting"] == ["bob"]
    gm("order", "bob", "je garde")
    assert status(gm)["phase"] == "round-2/guesses"
    # Round 2 starts from bob: if ana and bob both score, bob robs first.
    second = coins("g2", 2)
    for player in ("ana", "bob", "cyd"):
        gm("order", player, " ".join(second))
    gm("flip")
    assert status(gm)["awaiting"] == ["bob"]


def test_a_default_is_drawn_from_its_own_stream_and_recorded_as_such(gm: Gm) -> None:
    new(gm, seed="g2")
    first = coins("g2", 1)
    for player in ("ana", "bob", "cyd"):
        gm("order", player, " ".join(first))
    gm("flip")  # everyone scored 2: ana robs first
    # the default draws the victim: no preview shows it before it is made
    assert "[preview/chance]" in gm("default", "ana", "--preview", code=1).stderr
    result = gm("default", "ana")
    assert without_proof(result.stdout).endswith("· tour 1, vol 1_\n")
    victims = ["bob", "cyd"]
    picked = victims[Fortune("g2", "round-1/steal-1").below(2)]
    # ana's reply (the rules chose for her), private; the post, public
    assert private(result) == "Noté, ana.\n"
    assert result.stdout.startswith(f"## Tour 1, vol 1\u00a0: ana vole {picked}\n")
    assert "── post 3: steal 1.1 ──" in result.stderr
    kinds = [e["kind"] for e in history(gm)]
    at = kinds.index("gm.default-applied")
    assert kinds[at : at + 4] == [
        "gm.default-applied",
        "gm.command-decided",
        "toss.stolen",
        "gm.chance-drawn",
    ]
    assert gm("verify").stdout.endswith("verify.\n")
    # Nothing is due from bob now, and a default cannot be drawn twice.
    gm("order", "bob", "je garde")
    refused = gm("default", "bob", code=1)
    assert refused.stderr.startswith("Error: nothing is due from bob now")


def test_a_default_the_rules_leave_to_a_step_says_which(gm: Gm) -> None:
    gm("new", "magot", "--title", "M", "--players", "a,b,c", "--seed", "x")
    gm("draw")
    result = gm("default", "a", code=1)
    assert result.stderr.startswith(
        "Error: a's missing order is settled at the reveal (R-3): 'gm reveal --force'"
    )
    assert "[magot/default-at-reveal]" in result.stderr


def test_posts_are_addressed_by_round_and_robbery(gm: Gm) -> None:
    new(gm, seed="g2")
    first = coins("g2", 1)
    for player in ("ana", "bob", "cyd"):
        gm("order", player, " ".join(first))
    gm("flip")
    gm("order", "ana", "je garde")
    second = gm("order", "bob", "je vole ana")
    # The move is public: gm order prints the post it called for, the acknowledgment privately.
    assert second.stdout.startswith("## Tour 1, vol 2\u00a0: bob vole ana\n")
    assert private(second) == "Noté, bob.\n"
    assert "── post 4: steal 1.2 ──" in second.stderr
    assert gm("post", "steal", "1.2").stdout == gm("post", "steal", "1").stdout
    assert gm("post", "steal", "1.1").stdout.startswith(
        "## Tour 1, vol 1\u00a0: ana garde son point"
    )
    refused = gm("post", "steal", "1.9", code=3)
    assert "stored: opening, results 1, steal 1.1, steal 1.2" in refused.stderr


def test_the_turn_deadline_follows_each_move(gm: Gm, frozen_clock: object) -> None:
    new(gm, seed="g2")
    gm("set", "turn-deadline", "+24h")
    first = coins("g2", 1)
    for player in ("ana", "bob", "cyd"):
        gm("order", player, " ".join(first))
    assert status(gm)["deadline"] is None  # guesses: the MJ sets their deadline
    gm("flip")
    assert status(gm)["deadline"] == "2026-12-02T13:00:00+01:00"  # ana's turn
    gm("order", "ana", "je garde")
    data = status(gm)
    assert data["phase"] == "round-1/steal-bob"
    assert data["deadline"] == "2026-12-02T13:00:00+01:00"
    gm("set", "turn-deadline", "off")
    gm("order", "bob", "je garde")
    assert status(gm)["deadline"] is None


def test_a_bad_turn_deadline_is_refused(gm: Gm) -> None:
    new(gm)
    result = gm("set", "turn-deadline", "demain", code=2)
    assert "turn-deadline must be a delay like '+24h'" in result.stderr


@pytest.mark.parametrize(
    ("fmt", "start", "end"),
    [
        ("markdown", "\n\n    ana |", "\n\n"),
        ("bbcode", "[code]ana |", "[/code]"),
        ("html", "<pre><code>ana |", "</code></pre>"),
    ],
)
def test_the_games_own_filter_and_diagram_in_every_format(
    gm: Gm, fmt: str, start: str, end: str
) -> None:
    new(gm, players="ana,bob", seed="g3")
    gm("order", "ana", "pile pile")
    gm("order", "bob", "face face")
    out = gm("flip", "--format", fmt).stdout
    assert "🪙 pile" in out or "🪙 face" in out  # the game's « coin » filter
    assert start in out
    block = out[out.index(start) :].lstrip("\n")
    assert "bob |" in block.split(end)[0]


def test_a_game_filter_cannot_replace_a_platform_filter(tmp_path: Path) -> None:
    from gm.render.engine import Renderer

    with pytest.raises(ValueError, match="cannot replace 'raw'"):
        Renderer("toss", "fr", None, {"raw": str})
