"""What a cheating MJ does through gm itself, then publishes: the checker says it.

Le Magot played on the command line, as an MJ would, and its thread as
gm published it (``forum``): a reveal undone, an order changed and revealed again;
words for the fortune the MJ typed for every player; a fold the MJ entered
for a player; a dice roll whose post is left out of the thread.
"""

from __future__ import annotations

from forum import forum
from support import Gm
from test_attacks import section

from gm.check.checker import check_thread
from gm.check.report import BAD, WARN
from gm.service.env import Env

PLAYERS = "fab,marco,lulu,tom"
ORDERS = {
    "fab": "sur marco, clic clic clic",
    "marco": "sur lulu, clic clic clic",
    "lulu": "sur tom, clic clic clic",
    "tom": "sur fab, clic clic clic",
}


def table(db: str, rounds: int = 1) -> Gm:
    gm = Gm(db)
    gm(
        "new", "magot", "--title", "Le casse", "--players", PLAYERS, "--seed", "graine",
        "--option", f"rounds={rounds}",
    )  # fmt: skip
    return gm


def verdict(db: str) -> tuple[int, str]:
    on_forum = forum(Env(db=db), "le-casse")
    outcome = check_thread([("fil.md", on_forum.thread())], renderer=on_forum.render)
    return outcome.report.code, outcome.report.text()


def test_a_reveal_undone_and_redone_with_another_order_is_a_failure(db: str) -> None:
    gm = table(db)
    gm("draw")
    for player, text in ORDERS.items():
        gm("order", player, text)
    gm("reveal", "--force")  # the reveal post publishes every order's seal
    gm("undo")
    gm("order", "fab", "Je braque mon flingue sur lulu (BANG BANG BANG)")
    gm("reveal", "--force")
    gm("resolve")  # the game's end opens every secret: the undone one too
    gm("post", "disclosure")
    code, text = verdict(db)
    assert code == 1, text
    # fab's first order, whose seal the first reveal published, was replaced by his second
    assert (
        f"{BAD} : le secret de l'événement 10, dont le message n° 3 a publié le sceau, a été"
        " remplacé ensuite (événement 26) : un secret scellé en public ne change plus" in text
    ), text


def test_words_the_mj_typed_for_every_player_are_never_counted_as_fair(db: str) -> None:
    gm = table(db, rounds=2)
    gm("draw")
    for player, text in ORDERS.items():
        gm("order", player, text, "--salt", f"mot-de-{player}")
    gm("reveal", "--force")
    gm("resolve")
    gm("draw")  # round 2: drawn with the four words the MJ typed
    for player, text in ORDERS.items():
        gm("order", player, text)
    gm("reveal", "--force")
    gm("resolve")
    gm("post", "disclosure")
    code, text = verdict(db)
    # nothing contradicted (exit 0), but the report says which draws prove nothing
    assert code == 0, text
    assert f"{WARN} : tirage round-2/bills" in text, text
    assert "chaque graine mêlée a été saisie par le MJ (fab, marco, lulu, tom)" in text, text
    assert f"{WARN} : tirage round-1/bills" in text and "sans aucune graine des joueurs" in text


def test_a_roll_left_out_of_the_thread_is_a_failure(db: str) -> None:
    """A roll the MJ would rather hide: its post is numbered, and the chain
    holds the roll's record, so a thread without it has a hole."""
    gm = table(db)
    gm("draw")
    gm("roll", "2d6", "--reason", "la diligence")
    for player, text in ORDERS.items():
        gm("order", player, text)
    gm("reveal", "--force")  # its proof publishes the roll's record
    on_forum = forum(Env(db=db), "le-casse")
    shown = [p for p in on_forum.posts if p.kind != "roll"]
    thread = "\n\n".join(p.markdown for p in shown)
    outcome = check_thread([("fil.md", thread)], renderer=on_forum.render)
    text = outcome.report.text()
    assert outcome.report.code == 1, text
    assert (
        f"{BAD} : le message n° 3 manque au fil : gm l'a numéroté, le fil passe du n° 2 au n° 4"
        in section(text, 4)
    ), text


def test_a_fold_the_mj_entered_for_a_player_is_said(db: str) -> None:
    """``gm fold marco`` (after a resolve preview showed that it pays) is no
    message of marco's: the disclosure opens the command, and the checker
    says who entered it."""
    gm = table(db)
    gm("draw")
    for player, text in ORDERS.items():
        gm("order", player, text)
    gm("reveal", "--force")
    gm("resolve", "--preview")
    gm("fold", "marco")
    gm("resolve")
    gm("post", "disclosure")
    code, text = verdict(db)
    assert code == 0, text
    assert "a été saisi par le MJ, pas envoyé par marco" in text, text
    # a player's own fold is not
    assert "pas envoyé par fab" not in text
