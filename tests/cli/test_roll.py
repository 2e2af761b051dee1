"""``gm roll`` end to end on a Le Magot campaign: the line to post, the public
event, previews, refusals that change nothing, and ``gm verify`` afterwards."""

from __future__ import annotations

import json

import pytest
from support import Gm, typeset

from gm.core import dice
from gm.core.fortune import Fortune

SEED = "graine du casse"


@pytest.fixture
def gm(db: str) -> Gm:
    gm = Gm(db)
    gm("new", "magot", "--title", "Le casse", "--players", "fab,marco,lulu", "--seed", SEED)
    return gm


def dice_of(text: str, number: int) -> tuple[tuple[int, ...], ...]:
    return dice.roll(text, Fortune(SEED, f"roll/{number}")).dice


def rolls_so_far(gm: Gm) -> int:
    """How many rolls the campaign made: the next reads roll/<that + 1>."""
    return sum(1 for e in gm.history() if e["kind"] == "gm.dice-rolled")


UNMIXED = "**tirage sans graine des joueurs** ; vérifiable avec la graine du hasard"


def test_a_roll_prints_the_line_to_post_and_logs_a_public_event(gm: Gm) -> None:
    seq = gm.history()[-1]["seq"] + 1
    n = rolls_so_far(gm) + 1
    result = gm("roll", "2d6+1", "--reason", "l'attaque du *fourgon*")
    (a, b), () = dice_of("2d6+1", n)
    assert result.stdout == (
        typeset(
            f"🎲 **2d6+1** pour « l'attaque du \\*fourgon\\* » : [{a}, {b}] + 1 = **{a + b + 1}**"
            f" — tirage `roll/{n}`, {UNMIXED}\n"
            "\n"
            f"{gm.footer()}\n"
        ) + gm.proof()
    )
    assert (
        result.stderr
        == f"── post 2: roll ──\n[le-casse] Done (event {seq + 3}). 2d6+1 = {a + b + 1}.\n"
    )
    # The command, its roll, the stream it read, the post: one batch, all
    # public (the command too, since all it decided is: players decide it again)
    records = gm.history()[-4:]
    assert [(e["seq"], e["kind"], e["actor"], e["audience"]) for e in records] == [
        (seq, "gm.command-decided", "gm", "*"),
        (seq + 1, "gm.dice-rolled", "gm", "*"),
        (seq + 2, "gm.chance-drawn", "gm", "*"),
        (seq + 3, "gm.post-published", "gm", "*"),
    ]
    assert records[2]["payload"] == {"purposes": [f"roll/{n}"], "words": []}
    event = records[1]
    assert event["payload"] == {
        "expression": "2d6+1",
        "reason": "l'attaque du *fourgon*",
        "dice": [[a, b], []],
        "total": a + b + 1,
    }
    assert gm("post", "roll").stdout == result.stdout
    # Players see the roll too.
    assert event in json.loads(gm("history", "--as", "fab", "--json").stdout)


def test_kept_and_dropped_dice_and_the_canonical_expression(gm: Gm) -> None:
    n = rolls_so_far(gm) + 1
    result = gm("roll", "4D6KH3", "-", "d%")  # words are joined: « 4D6KH3 - d% »
    roll = dice.roll("4d6kh3-d100", Fortune(SEED, f"roll/{n}"))
    shown = ", ".join(
        str(v) if k else f"({v})"
        for v, k in zip(roll.terms[0].dice, roll.terms[0].kept, strict=True)
    )
    (percent,) = roll.dice[1]
    assert result.stdout.splitlines()[0] == typeset(
        f"🎲 **4d6kh3-d100** : [{shown}] - [{percent}] = **{roll.total}**"
        f" — tirage `roll/{n}`, {UNMIXED}"
    )
    assert shown.count("(") == 1
    assert gm.history()[-3]["payload"]["dice"] == [list(roll.dice[0]), [percent]]


def test_a_minus_word_after_a_double_dash(gm: Gm) -> None:
    n = rolls_so_far(gm) + 1
    result = gm("roll", "--", "d20", "-1")
    ((die,), ()) = dice_of("d20-1", n)
    assert result.stdout.startswith(typeset(f"🎲 **d20-1** : [{die}] - 1 = **{die - 1}** — "))


def test_a_roll_has_no_preview(gm: Gm) -> None:
    """Dice are seen once, when they count: a preview would let an MJ wait
    for a roll that suits him."""
    before = gm.history()
    n = rolls_so_far(gm) + 1
    result = gm("roll", "d20", "--preview", code=2)
    ((die,),) = dice_of("d20", n)
    assert result.stdout == ""
    assert "No such option '--preview'" in result.stderr
    assert gm.history() == before
    assert gm("post").stdout.startswith("# Le Magot")
    # The roll then draws from its stream, roll/n.
    assert gm("roll", "d20").stdout.startswith(typeset(f"🎲 **d20** : [{die}] = **{die}**"))


def test_bbcode_output(gm: Gm) -> None:
    result = gm("roll", "d6", "--reason", "la fuite", "--format", "bbcode")
    assert result.stdout.startswith(typeset("🎲 [b]d6[/b] pour « la fuite » : [", breaks=False))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (
            ["Xd6+2d"],
            "Error: cannot read 'Xd6' in 'Xd6+2d': a die is NdS, like 2d6, d20 or d% [dice/syntax]\n",
        ),
        (
            ["2d6", "3"],
            "Error: expected + or - between '2d6' and '3' in '2d6 3', like 2d6+1 or d20-1"
            " [dice/syntax]\n",
        ),
        (
            ["101d6"],
            "Error: cannot roll '101d6' in '101d6': a term rolls 1 to 100 dice [dice/limit]\n",
        ),
        (
            ["d6", "--reason", "ligne\nsuivante"],
            "Error: the reason must be one line of text, without line breaks, tabs, invisible"
            " characters or « » (the post quotes it with them): got 'ligne\\nsuivante'"
            " [dice/reason]\n",
        ),
        (
            ["d6", "--reason", "x » : [6] = **6** — « y"],
            "Error: the reason must be one line of text, without line breaks, tabs, invisible"
            " characters or « » (the post quotes it with them): got 'x » : [6] = **6** — « y'"
            " [dice/reason]\n",
        ),
        (
            ["d6", "--reason", "x" * 201],
            "Error: the reason is 201 characters long; the limit is 200 [dice/reason]\n",
        ),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(gm: Gm, args: list[str], error: str) -> None:
    before = gm.history()
    result = gm("roll", *args, code=2)
    assert (result.stdout, result.stderr) == ("", error)
    assert gm.history() == before


def test_an_expression_is_required(gm: Gm) -> None:
    result = gm("roll", code=2)
    assert "Error: Missing argument 'EXPR'." in result.stderr


def test_verify_passes_after_rolls(gm: Gm) -> None:
    gm("roll", "2d6+1", "--reason", "l'attaque")
    gm("draw", "--bills", "20000,10000,5000,5000,5000")
    gm("roll", "4d6kh3")
    gm("roll", "d%", "--preview", code=2)
    assert gm("verify").stdout == typeset("le-casse: 14 events and 4 posts verify.\n")


def test_rolling_is_refused_once_the_game_is_over(gm: Gm) -> None:
    gm("new", "magot", "-t", "Courte", "-p", "a,b,c", "-o", "rounds=1", "--seed", "s")
    gm("draw", "--bills", "5000,5000,5000,5000,5000")
    gm("reveal", "--force")
    gm("resolve")
    before = gm.history()
    result = gm("roll", "d6", code=1)
    assert result.stderr == (
        "Error: the game is over and its seed revealed: a roll now would prove nothing"
        " [phase/game-over]\n"
    )
    assert gm.history() == before
