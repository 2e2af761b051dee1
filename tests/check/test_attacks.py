"""A cheating MJ's edits of an honest thread: every one fails, naming the post and the line.

The edits a dishonest MJ could make to a thread he published, applied to an
honest random game of every registered game (``conftest.published``): a
number (a bill, a share, gold, a wound, a card, a purse…) or a name changed
in a post, a line added, a post dropped, pasted twice or out of order, a
line hidden in a comment or a transparent colour, a record of a proof
rewritten, a seal's body changed, an opening forged. The checker knows no
game: the edit is found because gm renders the post again from the
replayed log and the text differs, or because the chain does not hold.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from forum import BLOCK_INTRO
from published import GAMES, Published

from gm.check.report import BAD, MISSING
from gm.core import proof as proofs

FINISHED = [g for g in GAMES if g != "rattlesnake"]
"""The games played to their end (the seed and every secret opened)."""


def files(game: Published, preset: str = "markdown") -> list[tuple[str, str]]:
    return [
        (f"message-{p.number}.md", text)
        for p, text in zip(game.on_forum.posts, game.on_forum.texts(preset), strict=True)
    ]


def section(text: str, number: int) -> str:
    """The report's section(s) on message ``number`` (a post pasted twice has two)."""
    parts = [p for p in text.split("\n\n") if p.startswith(f"Message {number} (")]
    assert parts, f"no section for message {number} in:\n{text}"
    return "\n\n".join(parts)


_RENDERED: dict[str, list[int]] = {}


def rendered(game: Published) -> list[int]:
    """The posts the checker renders again (all, once the game is over)."""
    if game.game_id not in _RENDERED:
        fresh = game.check().fresh
        _RENDERED[game.game_id] = [p.number for p in game.on_forum.posts if p.number in fresh]
    return _RENDERED[game.game_id]


def one_of_each_kind(game: Published) -> list[int]:
    seen: dict[str, int] = {}
    known = set(rendered(game))
    for post in game.on_forum.posts:
        if post.number in known:
            seen.setdefault(post.kind, post.number)
    return sorted(seen.values())


def text_lines(text: str) -> list[int]:
    """Indexes of the lines of a post a reader reads (its proof block aside)."""
    lines = text.split("\n")
    end = next((i for i, line in enumerate(lines) if line.startswith(BLOCK_INTRO)), len(lines))
    return [i for i in range(end) if lines[i].strip()]


def edited(
    texts: list[tuple[str, str]], number: int, index: int, line: str
) -> list[tuple[str, str]]:
    out = list(texts)
    name, text = out[number - 1]
    lines = text.split("\n")
    lines[index] = line
    out[number - 1] = (name, "\n".join(lines))
    return out


def assert_caught(game: Published, texts: list[tuple[str, str]], number: int, *needles: str) -> str:
    report = game.check(texts).report
    text = report.text()
    assert report.code == 1, text
    part = section(text, number)
    bad = [line for line in part.split("\n") if line.strip().startswith(f"{BAD} :")]
    assert any(all(n in line for n in needles) for line in bad), (needles, part)
    return part


def assert_all_caught(
    game: Published, texts: list[tuple[str, str]], expected: list[tuple[int, tuple[str, ...]]]
) -> None:
    """One check of a thread edited in several posts: each edit is caught in its post."""
    assert expected
    report = game.check(texts).report
    text = report.text()
    assert report.code == 1, text
    for number, needles in expected:
        part = section(text, number)
        bad = [line for line in part.split("\n") if line.strip().startswith(f"{BAD} :")]
        assert any(all(n in line for n in needles) for line in bad), (needles, part)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_number_changed_in_any_post_is_caught_with_what_gm_prints(published, game_id) -> None:
    """One digit changed in one post of each kind (each post is compared on its own)."""
    game = published(game_id)
    texts = files(game)
    rng = random.Random(game_id)
    expected = []
    for number in one_of_each_kind(game):
        lines = texts[number - 1][1].split("\n")
        # a digit a reader sees (not a list item's number, which Markdown renumbers)
        candidates = [
            (i, m.start())
            for i in text_lines(texts[number - 1][1])
            for m in re.finditer(r"\d", lines[i])
            if not re.match(r"\s*\d+[.)] ", lines[i][: m.start() + 3])
        ]
        if not candidates:
            continue
        i, at = rng.choice(candidates)
        digit = str((int(lines[i][at]) + 1) % 10)
        texts = edited(texts, number, i, lines[i][:at] + digit + lines[i][at + 1 :])
        expected.append((number, (f"ligne message-{number}.md:{i + 1}", "gm écrirait")))
    assert_all_caught(game, texts, expected)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_name_changed_in_a_post_is_caught(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    players = game.players()
    expected = []
    for number in one_of_each_kind(game):
        lines = texts[number - 1][1].split("\n")
        for i in text_lines(texts[number - 1][1]):
            who = [p for p in players if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", lines[i])]
            if who:
                other = next(p for p in players if p != who[0])
                line = re.sub(rf"(?<!\w){re.escape(who[0])}(?!\w)", other, lines[i], count=1)
                texts = edited(texts, number, i, line)
                expected.append((number, (f"ligne message-{number}.md:{i + 1}",)))
                break
    assert_all_caught(game, texts, expected)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_line_added_or_removed_is_caught(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    number = one_of_each_kind(game)[-1]
    lines = texts[number - 1][1].split("\n")
    i = text_lines(texts[number - 1][1])[-1]
    # a true line shown twice (a true result above a false one, or a duplicate)
    twice = edited(texts, number, i, lines[i] + "\n\n" + lines[i])
    assert_caught(game, twice, number, "gm n'écrit pas cette ligne")
    dropped = edited(texts, number, i, "")
    assert_caught(game, dropped, number, "une ligne manque", "gm écrirait")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_post_dropped_duplicated_or_moved_is_caught(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    middle = len(texts) // 2
    # a post missing: the chain has a hole, and the next post's records do not follow
    report = game.check(texts[: middle - 1] + texts[middle:]).report
    assert report.code == 1, report.text()
    assert f"le message n° {middle} manque" in report.text(), report.text()
    # a post pasted twice, with another text the second time
    name, text = texts[middle - 1]
    other = text.replace("\n\n", "\n\nUn mot de plus.\n\n", 1)
    report = game.check([*texts, (name + "-bis", other)]).report
    assert report.code == 1 and f"{BAD} :" in section(report.text(), middle), report.text()
    # two posts swapped in one pasted thread
    thread = [t for _, t in texts]
    thread[middle - 1], thread[middle] = thread[middle], thread[middle - 1]
    report = game.check("\n\n".join(thread)).report
    assert report.code == 1
    assert f"le message n° {middle} vient après le n° {middle + 1}" in report.text()


@pytest.mark.parametrize("game_id", FINISHED)
def test_a_thread_without_its_beginning_or_its_end_is_never_verified(published, game_id) -> None:
    """A post alone, or the thread from its middle: nothing is verified from the
    first event, so never exit 0; the thread cut before the seed is revealed: exit 3."""
    game = published(game_id)
    texts = files(game)
    middle = len(texts) // 2
    for first, thread in [
        (2, texts[1:]),
        (middle, texts[middle - 1 :]),
        (middle, [texts[middle - 1]]),
    ]:
        report = game.check(thread).report
        assert report.code in (1, 3), report.text()
        start = "sans le message 1" if first == 2 else f"sans les messages 1 à {first - 1}"
        assert (
            f"{MISSING} : le fil commence au message n° {first} : {start}, la chaîne ne peut pas"
            " être recalculée depuis le premier événement" in section(report.text(), first)
        ), report.text()
    # the thread up to its middle: what it publishes holds, but the seed is still sealed
    report = game.check(texts[:middle]).report
    assert report.code == 3 and f"{BAD} :" not in report.text(), report.text()
    assert f"{MISSING} : la graine n'est pas encore révélée" in report.text(), report.text()


@pytest.mark.parametrize("game_id", ["magot", "toss"])
def test_a_post_of_another_campaign_is_caught(published, game_id) -> None:
    game = published(game_id)
    stranger = files(published("fistful"))[1]
    texts = files(game)
    report = game.check([*texts[:1], stranger, *texts[2:]]).report
    assert report.code == 1, report.text()
    assert "autre partie" in report.text(), report.text()


HIDDEN = [
    ("markdown", "<!-- le vrai tirage : 20 000 $ -->", "commentaire"),
    ("markdown", '<span style="display:none">le vrai tirage</span>', "html brut"),
    ("markdown", "<details>le vrai tirage</details>", "html brut"),
    ("markdown", '\n[//]: # "le vrai tirage"', "définition de lien"),
    ("markdown", "[spoiler]le vrai tirage[/spoiler]", "[spoiler]"),
    ("markdown", "~~le vrai tirage~~", "texte barré"),
    ("markdown", "Le tirage\u200b est juste.", "invisible"),
    ("markdown", "Le tirage\u200d est juste.", "u+200d"),
    ("markdown", "Le \u202etirage est juste.", "u+202e"),
    ("markdown", "Le tir&#97;ge est juste.", "entité html"),
    ("bbcode", "[color=transparent]le vrai tirage[/color]", "[color=transparent]"),
    ("bbcode", "[color=#ffffff]le vrai tirage[/color]", "[color=#ffffff]"),
    ("bbcode", "[size=0]le vrai tirage[/size]", "[size=0]"),
    ("bbcode", "[size=1]le vrai tirage[/size]", "[size=1]"),
    ("bbcode", "[spoiler]le vrai tirage[/spoiler]", "[spoiler]"),
    ("bbcode", "[hide]le vrai tirage[/hide]", "[hide]"),
    ("bbcode", "[url=https://x.invalid]le vrai tirage[/url]", "[url=https://x.invalid]"),
    ("bbcode", "[s]le vrai tirage[/s]", "[s]"),
    ("html", '<span style="display:none">le vrai tirage</span>', "display:none"),
    ("html", "<!-- le vrai tirage -->", "commentaire html"),
    ("html", '<p style="color:transparent">le vrai tirage</p>', "color:transparent"),
    ("html", '<span hidden="">le vrai tirage</span>', "attribut hidden"),
    ("html", "<details><summary>x</summary>le vrai tirage</details>", "<details>"),
    ("html", '<p class="hidden">le vrai tirage</p>', "class=« hidden »"),
]
"""Markup a reader does not see, appended to a line (on a line of its own after
it, when it begins with a line break): the list the hand port's tests had."""


@pytest.mark.parametrize(("preset", "hidden", "what"), HIDDEN)
def test_a_line_hidden_in_markup_is_a_failure(published, preset, hidden, what) -> None:
    game = published("magot")
    texts = files(game, preset)
    number = one_of_each_kind(game)[1]
    lines = texts[number - 1][1].split("\n")
    i = 2
    report = game.check(edited(texts, number, i, lines[i] + hidden)).report
    assert report.code == 1, report.text()
    part = section(report.text(), number)
    at = i + 1 + hidden.count("\n")
    where = f"{BAD} : ligne message-{number}.md:{at} :"
    assert any(where in line and what in line.lower() for line in part.split("\n")), part


def reencoded(texts: list[tuple[str, str]], number: int, change) -> list[tuple[str, str]]:
    name, text = texts[number - 1]
    encoded = proofs.find(text)[-1][1]
    old, new = encoded, proofs.encode(change(proofs.decode(encoded)))
    indent = lambda block: "\n".join("    " + x for x in block.split("\n"))  # noqa: E731
    assert text.count(indent(old)) == 1
    out = list(texts)
    out[number - 1] = (name, text.replace(indent(old), indent(new)))
    return out


def proof_of(text: str) -> proofs.Proof:
    return proofs.decode(proofs.find(text)[-1][1])


def private_post(texts: list[tuple[str, str]]) -> tuple[int, int]:
    """The first post after the opening that publishes the seal of a secret
    a later post opens: (that post's number, the secret's seq)."""
    opened = {o.seq for _, text in texts for o in proof_of(text).opened}
    for number, (_, text) in enumerate(texts, 1):
        sealed = [e.seq for e in proof_of(text).records if e.payload is None and e.seq in opened]
        if number > 1 and sealed:
            return number, sealed[0]
    raise AssertionError("no sealed record in this game")


def sealed_changed(proof: proofs.Proof, seq: int) -> proofs.Proof:
    entries = list(proof.records)
    i = next(k for k, e in enumerate(entries) if e.seq == seq)
    body = entries[i].body
    entries[i] = dataclasses.replace(entries[i], body=body[:-1] + ("1" if body[-1] == "0" else "0"))
    return dataclasses.replace(proof, records=tuple(entries))


@pytest.mark.parametrize("game_id", FINISHED)
def test_a_seal_rewritten_in_a_proof_is_caught(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    number, seq = private_post(texts)
    report = game.check(reencoded(texts, number, lambda p: sealed_changed(p, seq))).report
    assert report.code == 1, report.text()
    # its text no longer shows the chain's head, and the opening at the end is not of that seal
    assert f"{BAD} : ligne message-{number}.md:" in section(report.text(), number), report.text()
    assert "ne correspond pas à son sceau publié par le message" in report.text()


@pytest.mark.parametrize("game_id", FINISHED)
def test_a_secret_opened_other_than_it_was_sealed_is_caught(published, game_id) -> None:
    game = published(game_id)
    texts = files(game)
    number = len(texts) - next(
        i for i, (_, t) in enumerate(reversed(texts)) if proofs.decode(proofs.find(t)[-1][1]).opened
    )

    def forged(proof: proofs.Proof) -> proofs.Proof:
        first, *rest = proof.opened
        payload = {**first.payload, "forged": 1}
        return dataclasses.replace(
            proof, opened=(dataclasses.replace(first, payload=payload), *rest)
        )

    report = game.check(reencoded(texts, number, forged)).report
    assert report.code == 1, report.text()
    assert "le contenu dévoilé n'est pas celui qui avait été scellé" in section(
        report.text(), number
    )
