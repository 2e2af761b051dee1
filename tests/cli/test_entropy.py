"""Players' words for the fortune (« graine : … »): recorded, public, mixed into
every later draw, so neither the MJ nor a player alone controls the draws."""

from __future__ import annotations

import hashlib
import json

from click.testing import CliRunner, Result
from support import private

from gm.core.fortune import Fortune


def gm(db: str, *args: str, code: int = 0) -> Result:
    from gm.cli import cli

    result = CliRunner().invoke(cli, ["--db", db, *args])
    assert result.exit_code == code, (result.output, result.exception)
    return result


def opened(db: str) -> str:
    gm(db, "new", "magot", "-t", "Graines", "-p", "fab,marco,lulu", "--seed", "s")
    gm(db, "draw", "--bills", "20000,10000,5000,5000,5000")
    return db


def test_a_word_line_is_recorded_and_the_order_still_read(db: str) -> None:
    opened(db)
    reply = private(gm(db, "order", "fab", "je braque marco, CLIC CLIC CLIC\nGraine : pomme"))
    assert "tu braques **marco** avec **CLIC CLIC CLIC**" in reply
    assert "Ta graine pour le hasard\u00a0: `pomme`" in reply
    history = json.loads(gm(db, "history", "--json").stdout)
    words = [e for e in history if e["kind"] == "gm.entropy-added"]
    assert [(e["payload"], e["audience"]) for e in words] == [
        ({"player": "fab", "word": "pomme", "typed": False}, "*")
    ]


def test_later_draws_mix_every_word_in_a_label_anyone_can_recompute(db: str) -> None:
    opened(db)
    gm(db, "order", "marco", "fab clic", "--salt", "Poire")
    gm(db, "order", "fab", "marco clic\ngraine: pomme")
    gm(db, "order", "lulu", "fab clic")
    gm(db, "reveal")
    gm(db, "resolve")
    # Seating order (fab, marco), canonical JSON, first 32 hex digits of SHA-256.
    mix = hashlib.sha256(
        json.dumps([["fab", "pomme"], ["marco", "Poire"]], separators=(",", ":")).encode()
    ).hexdigest()[:32]
    label = f"round-2/bills+{mix}"  # round 2's bills (round 1 was drawn by hand)
    post = gm(db, "draw").stdout
    assert f"- tirage `{label}`, graines\u00a0: fab `pomme` · marco `Poire`" in post
    deck = sorted([20000] * 9 + [10000] * 14 + [5000] * 12, reverse=True)  # after round 1
    stream = Fortune("s", label)
    bills = sorted((deck.pop(stream.below(len(deck))) for _ in range(5)), reverse=True)
    history = json.loads(gm(db, "history", "--json").stdout)
    drawn = [e for e in history if e["kind"] == "magot.loot-drawn"][-1]["payload"]["bills"]
    assert sorted(drawn, reverse=True) == bills
    unmixed = sorted([20000] * 9 + [10000] * 14 + [5000] * 12, reverse=True)
    plain = Fortune("s", "round-2/bills")
    assert sorted((unmixed.pop(plain.below(len(unmixed))) for _ in range(5)), reverse=True) != bills
    assert gm(db, "verify").exit_code == 0


def test_a_word_with_a_refused_order_is_kept_after_the_refusal(db: str) -> None:
    opened(db)
    gm(db, "order", "fab", "n'importe quoi\ngraine : pomme", code=1)
    kinds = [e["kind"] for e in json.loads(gm(db, "history", "--json").stdout)]
    assert kinds[-2:] == ["gm.submission-rejected", "gm.entropy-added"]


def test_a_bad_word_is_refused_clearly(db: str) -> None:
    opened(db)
    result = gm(db, "order", "fab", "marco clic", "--salt", "x" * 41, code=2)
    assert result.stderr.startswith(
        "Error: the fortune word 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' must be 1 to 40 letters or digits"
    )
    assert "[input/word]" in result.stderr
