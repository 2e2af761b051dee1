"""Rattlesnake City's poker games played by the engine (R-9, R-16, R-17, R-18).

Whole scenarios go through ``gm play`` (``tests/scenarios/rattlesnake-poker.toml``
and small ones written here), with every player's cash after the game
worked out by hand in the comments; messages go through the service layer
as players send them, to check the posts and private replies: no
face-down card is shown to anyone but its owner before the cards are
turned over, and a lone opponent's card discarded unseen is never opened.
"""

from __future__ import annotations

import json
import re
import textwrap
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gm.cli import cli
from gm.errors import GMError
from gm.games.rattlesnake import notation
from gm.games.rattlesnake.commands import (
    Challenge,
    Cheat,
    ChooseCard,
    DeclineTar,
    Escape,
    Join,
    Lower,
    NoReaction,
    Stay,
    TakeBack,
    Tar,
)
from gm.games.rattlesnake.game import GAME
from gm.games.rattlesnake.model import Phase
from gm.service import actions, campaigns
from gm.service.env import Env

SCENARIOS = Path(__file__).parents[2] / "scenarios"
KEYS = ("game", "finished", "winners", "players", "board", "turns")


def _play_file(db: str, path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["--db", db, "play", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _cash(summary: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["cash"] for p in summary["players"]}


def test_the_poker_scenario_gives_the_summary_worked_out_by_hand(db: str) -> None:
    path = SCENARIOS / "rattlesnake-poker.toml"
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text())
    summary = _play_file(db, path)
    assert {k: summary[k] for k in KEYS} == expected


HEAD = """\
game = "rattlesnake"
players = {players}
[setup]
first = "bob"
saloons = {saloons}
hands = {hands}
bag = "école, église, école, église"
actions = "{actions}"
shots = "3 2 1 1 2 2"
"""


def _scenario(
    tmp_path: Path, players: list[str], hands: dict[str, str], turns: str, actions: str = ""
) -> Path:
    saloons = {"bob": "B1", "cyd": "C1", "dan": "D1", "ana": "A1"}
    head = HEAD.format(
        players=json.dumps(players),
        saloons="{ " + ", ".join(f'{p} = "{saloons[p]}"' for p in players) + " }",
        hands="{ " + ", ".join(f'{p} = "{h}"' for p, h in hands.items()) + " }",
        actions=actions,
    )
    path = tmp_path / "poker.toml"
    path.write_text(head + textwrap.dedent(turns), encoding="utf-8")
    return path


THREE = ["ana", "bob", "cyd"]
HANDS3 = {
    "ana": "17, 5, 6, 8, Coyote",
    "bob": "12, 14, 2, 16, Coyote",
    "cyd": "9, 4, 18, 19, Tricheur",
}


def test_r16_a_poor_joiner_and_a_lowered_stake_for_everyone(db: str, tmp_path: Path) -> None:
    # Turn 1 (ana, the last saloon: she plays first): cyd plays no card and
    # loses her 6 000; ana, the lone opponent, takes 12 000 unseen:
    # ana 16 000, cyd 4 000. Turn 2 (bob): bob challenges ana for 8 000;
    # cyd (4 000) is too poor, bob lowers to 3 000: bob and ana get 5 000
    # back each, cyd joins. bob 12, cyd 9, ana 17: ana takes 9 000.
    # ana 16 - 3 + 9 = 22 000; bob 10 - 3 = 7 000; cyd 4 - 3 = 1 000.
    path = _scenario(
        tmp_path,
        THREE,
        HANDS3,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        poker = { challenged = "cyd", stake = 6000, cards = { ana = "5" } }
        [[turns]]
        tile = "B2"
        draw = "coups"
        [turns.poker]
        challenged = "ana"
        stake = 8000
        lower = 3000
        joiners = ["cyd"]
        cards = { bob = "12", cyd = "9", ana = "17" }
        """,
    )
    summary = _play_file(db, path)
    assert _cash(summary) == {"ana": 22000, "bob": 7000, "cyd": 1000}
    # cards used go to the discard pile (ana's 5 and 17, bob's 12, cyd's 9;
    # cyd played none on turn 1): the hands keep the rest
    assert [p["hand"] for p in summary["players"]] == [3, 4, 4]


def test_r16_escape_and_nobody_joins_gives_the_stake_back(db: str, tmp_path: Path) -> None:
    path = _scenario(
        tmp_path,
        THREE,
        HANDS3,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        poker = { challenged = "bob", stake = 5000, coyote = true }
        """,
    )
    summary = _play_file(db, path)
    assert _cash(summary) == {"ana": 10000, "bob": 10000, "cyd": 10000}
    assert [p["hand"] for p in summary["players"]] == [5, 4, 5]  # bob's Coyote is spent


FOUR = ["ana", "bob", "cyd", "dan"]
HANDS4 = {
    "ana": "10, 5, 6, 8, 11",
    "bob": "15, Coyote, 2, 14, 16",
    "cyd": "4, Tricheur, Coyote, 18, 19",
    "dan": "Goudron, 21, 22, 23, 25",
}


def test_r17_goudron_shares_with_every_other_player_and_the_fleers_share_the_pot(
    db: str, tmp_path: Path
) -> None:
    # ana challenges bob for 7 000, cyd joins: pot 21 000. ana 10, bob 15,
    # cyd 4. ana and bob let their reaction go; cyd's Tricheur swaps with
    # bob; dan, who does not play, answers with Goudron & Plumes: cyd's
    # 7 000 are shared by ana, bob and dan, 2 000 each (rounded down), the
    # 1 000 left stays in the pot: 15 000. bob (15) wins, ana (10, a
    # revolver) starts the combat; bob and cyd flee with a Coyote: 7 000
    # each (15 000 / 2 rounded down); nobody is left to fight, so ana takes
    # the 1 000 left. ana 10-7+2+1 = 6 000; bob 10-7+2+7 = 12 000;
    # cyd 10-7+7 = 10 000; dan 10+2 = 12 000.
    path = _scenario(
        tmp_path,
        FOUR,
        HANDS4,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        [turns.poker]
        challenged = "bob"
        stake = 7000
        joiners = ["cyd"]
        cards = { ana = "10", cyd = "4", bob = "15" }
        reactions = ["cyd Tricheur avec bob", "dan Goudron & Plumes"]
        revolver = "ana"
        flee = ["bob", "cyd"]
        """,
    )
    summary = _play_file(db, path)
    assert _cash(summary) == {"ana": 6000, "bob": 12000, "cyd": 10000, "dan": 12000}
    assert sum(_cash(summary).values()) == 40000


def test_r17_an_unanswered_tricheur_stands_and_a_revolver_combat_takes_the_pot(
    db: str, tmp_path: Path
) -> None:
    # ana challenges bob for 3 000: ana 10, bob 15; neither reacts (the
    # file lists no reaction). bob wins, but ana's 10 shows a revolver: she
    # starts the combat (shots 3 2 drawn at step 2); bob stands; ana 3, bob
    # has no shot and passes: ana takes the 6 000.
    # ana 10-3+6 = 13 000; bob 10-3 = 7 000.
    hands = {"ana": "10, 5, 6, 8, 11", "bob": "15, 2, 14, 16, 18", "cyd": "4, 9, 12, 19, 21"}
    path = _scenario(
        tmp_path,
        THREE,
        hands,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        [turns.poker]
        challenged = "bob"
        stake = 3000
        cards = { ana = "10", bob = "15" }
        revolver = "ana"
        combat = ["ana 3", "bob passe"]
        """,
    )
    summary = _play_file(db, path)
    assert _cash(summary) == {"ana": 13000, "bob": 7000, "cyd": 10000}
    assert summary["players"][0]["shots"] == 1  # the 3 is discarded, the 2 kept


def test_a_poker_game_offered_after_its_turn_is_done_is_refused(db: str, tmp_path: Path) -> None:
    path = _scenario(
        tmp_path,
        THREE,
        HANDS3,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        poker = { challenged = "bob", stake = 5000, coyote = true }
        divers = []
        """,
    )
    table = _Table.start(db, path, keep_end=False)
    with pytest.raises(GMError) as refused:
        table.say("ana", "poker cyd 1000")
    assert refused.value.code == "rattlesnake/poker-done"


# --- through the service layer: posts and private replies ----------------------------------------


class _Table:
    """A scenario played through the service layer, step by step, keeping
    every public post and every private reply (with whom it is for)."""

    def __init__(self, env: Env, slug: str) -> None:
        self.env = env
        self.slug = slug
        self.posts: list[str] = []
        self.replies: list[tuple[str | None, str]] = []

    @classmethod
    def start(cls, db: str, path: Path, keep_end: bool = True) -> _Table:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        env = Env(db=db)
        created = campaigns.create(
            env, "rattlesnake", "Poker", document["players"], seed="graine-poker"
        )
        table = cls(env, created.campaign.slug)
        steps = GAME.scenario({k: v for k, v in document.items() if k in ("setup", "turns")})
        if not keep_end:
            steps = steps[:-1]  # the last turn's « fin »: the turn stays open
        for item in steps:
            state = table.state
            if item.when is not None and not item.when(state):
                continue
            if item.actor_of is not None:
                item = replace(item, actor=item.actor_of(state))
            if item.step is not None:
                table._keep(actions.step(env, table.slug, item.step, dict(item.values)))
            else:
                table.say(item.actor, item.text or "")
        return table

    @property
    def state(self) -> Any:
        return actions.load(self.env, self.slug).state

    def _keep(self, result: actions.Result) -> None:
        self.posts += [_plain(p.body) for p in result.posts]
        if result.reply:
            self.replies.append((result.to, _plain(result.reply)))

    def say(self, player: str, text: str) -> None:
        self._keep(actions.submit(self.env, self.slug, player, text))

    def salt(self, turn: int, player: str) -> str:
        campaign = actions.load(self.env, self.slug)
        for record in campaign.records:
            if record.kind == "rattlesnake.poker-card-chosen" and (
                record.payload["turn"],
                record.payload["player"],
            ) == (turn, player):
                return str(record.salt)
        raise AssertionError((turn, player))


def _plain(text: str) -> str:
    """The text with its French typographic spaces as plain ones."""
    return text.replace("\u202f", " ").replace("\xa0", " ")


def _shows(card: int, text: str) -> bool:
    """Whether ``text`` names the game card ``card`` (a bare number, not an amount)."""
    return re.search(rf"(?<![\w.]){card}(?![\w]| ?000)", text) is not None


def test_face_down_cards_stay_secret_until_the_reveal(db: str) -> None:
    table = _Table.start(db, SCENARIOS / "rattlesnake-poker.toml")
    posts = table.posts
    reveal = next(i for i, body in enumerate(posts) if "Cartes dévoilées" in body)
    before = posts[:reveal]
    chose = [i for i, body in enumerate(before) if "a choisi sa carte face cachée" in body]
    assert chose, "the choices are posted, sealed"
    for body in before[chose[0] :]:
        for card in (17, 20, 12):
            assert not _shows(card, body), body
        assert "Cartes face cachée scellées" in body
    # the salts of the cards are published with the reveal, not before
    for player in ("ana", "bob", "cyd"):
        salt = table.salt(1, player)
        assert not any(salt in body for body in before)
        assert salt in posts[reveal]
    assert re.search(
        r"Cartes dévoilées : ana \*\*17\*\* · bob \*\*12\*\* · cyd \*\*20\*\*", posts[reveal]
    )
    # turn 3: cyd's 1, discarded unseen, is never opened in a post
    unseen = table.salt(3, "cyd")
    assert not any(unseen in body for body in posts)
    assert any("gagne sans montrer sa carte" in body for body in posts)


def test_private_replies_show_a_player_their_own_card_and_its_seal_only(db: str) -> None:
    table = _Table.start(db, SCENARIOS / "rattlesnake-poker.toml")
    # in turn 1, before the reveal, ana chose the 17 and cyd the 20
    ana = [
        r for to, r in table.replies if to == "ana" and "Ta carte face cachée (poker, tour 1)" in r
    ]
    assert ana and "Ta carte face cachée au poker : **17**" in ana[0]
    cyd = [
        r for to, r in table.replies if to == "cyd" and "Ta carte face cachée (poker, tour 1)" in r
    ]
    assert cyd and "**20**" in cyd[0] and not _shows(17, cyd[0])


def test_the_goudron_window_waits_for_every_player_but_the_cheater(db: str, tmp_path: Path) -> None:
    path = _scenario(
        tmp_path,
        FOUR,
        HANDS4,
        """
        [[turns]]
        tile = "A2"
        draw = "coups"
        """,
    )
    table = _Table.start(db, path, keep_end=False)
    for player, text in (
        ("ana", "je défie bob pour 7 000 $"),
        ("bob", "je reste"),
        ("cyd", "je suis"),
        ("ana", "le 10"),
        ("cyd", "le 4"),
        ("bob", "le 15"),
        ("ana", "pas de réaction"),
        ("bob", "rien"),
        ("cyd", "Tricheur avec bob"),
    ):
        table.say(player, text)
    # nobody can tell from the table who holds the Goudron & Plumes: all are asked
    awaited = [a.player for a in GAME.awaiting(table.state)]
    assert awaited == ["dan", "ana", "bob"]
    assert "attendus : **dan, ana et bob**" in table.posts[-1]
    table.say("dan", "pas de Goudron")
    table.say("ana", "non")
    table.say("bob", "pas de goudron")
    assert "Personne ne répond au Tricheur : l'échange tient." in table.posts[-1]
    # cyd now shows bob's 15 and wins: nobody else shows a revolver but ana (10)
    assert table.state.poker.winner == "cyd"


def test_notation_reads_the_poker_messages(db: str, tmp_path: Path) -> None:
    path = _scenario(tmp_path, FOUR, HANDS4, '[[turns]]\ntile = "A2"\ndraw = "coups"\n')
    table = _Table.start(db, path, keep_end=False)
    state = table.state
    assert notation.parse(state, "ana", "poker cyd 6000") == (Challenge("ana", "cyd", 6000),)
    assert notation.parse(state, "ana", "Je défie Cyd pour 6 000 $") == (
        Challenge("ana", "cyd", 6000),
    )
    table.say("ana", "poker bob 3k")
    state = table.state
    assert state.phase is Phase.POKER
    assert notation.parse(state, "bob", "Coyote !") == (Escape("bob"),)
    assert notation.parse(state, "bob", "je reste") == (Stay("bob"),)
    table.say("bob", "je reste")
    state = table.state
    assert notation.parse(state, "cyd", "je suis") == (Join("cyd"),)
    assert notation.parse(state, "dan", "Je joue") == (Join("dan"),)
    assert notation.parse(state, "ana", "je baisse à 2 000 $") == (Lower("ana", 2000),)
    assert notation.parse(state, "ana", "le 17") == (ChooseCard("ana", 17),)
    table.say("cyd", "je suis")
    table.say("ana", "cartes")
    state = table.state
    assert notation.parse(state, "bob", "aucune") == (ChooseCard("bob", None),)
    for player, text in (("ana", "le 10"), ("cyd", "le 4"), ("bob", "le 15")):
        table.say(player, text)
    state = table.state
    assert notation.parse(state, "ana", "Pas de réaction") == (NoReaction("ana"),)
    assert notation.parse(state, "ana", "Joueur professionnel 11") == (TakeBack("ana", 11),)
    assert notation.parse(state, "cyd", "Tricheur avec ana") == (Cheat("cyd", "ana"),)
    table.say("ana", "pas de réaction")
    table.say("bob", "pas de réaction")
    table.say("cyd", "Tricheur avec ana")
    state = table.state
    assert notation.parse(state, "dan", "Goudron & Plumes") == (Tar("dan"),)
    assert notation.parse(state, "ana", "pas de Goudron") == (DeclineTar("ana"),)
    table.say("dan", "goudron et plumes")
    assert "dan répond par Goudron & Plumes : l'échange est annulé." in table.posts[-1]
    with pytest.raises(GMError) as refused:
        table.say("bob", "je fuis")
    assert refused.value.code == "rattlesnake/poker-syntax"


def test_a_refused_card_lists_only_the_players_own_game_cards(db: str, tmp_path: Path) -> None:
    path = _scenario(tmp_path, THREE, HANDS3, '[[turns]]\ntile = "A2"\ndraw = "coups"\n')
    table = _Table.start(db, path, keep_end=False)
    table.say("ana", "poker bob 3000")
    table.say("bob", "je reste")
    with pytest.raises(GMError) as refused:
        table.say("ana", "le 12")  # bob's card, not ana's
    assert refused.value.code == "rattlesnake/card-not-in-hand"
    assert refused.value.params["legal"] == [5, 6, 8, 17]
    assert table.state.poker.stage.value == "join"  # nothing changed: the joins are still open


def test_r16_a_number_that_is_no_game_card_is_refused_never_read_as_none(
    db: str, tmp_path: Path
) -> None:
    # ana challenges bob for 3 000, bob stays, cyd joins; ana (17, 5, 6, 8)
    # and cyd (9, 4, 18, 19) choose; bob, the challenged, chooses last and
    # holds 12, 14, 2, 16. « aucune » would put him out (his stake lost, R-16):
    # a message whose number is no game card, or with two numbers, must not
    # be read as « aucune » (the 0 the event writes for none) nor as any card.
    path = _scenario(tmp_path, THREE, HANDS3, '[[turns]]\ntile = "A2"\ndraw = "coups"\n')
    table = _Table.start(db, path, keep_end=False)
    table.say("ana", "poker bob 3000")
    table.say("bob", "je reste")
    table.say("cyd", "je suis")
    with pytest.raises(GMError) as refused:
        table.say("ana", "le 0")  # while the joins are open: it would close them
    assert refused.value.code == "rattlesnake/not-a-game-card"
    assert table.state.poker.stage.value == "join"
    table.say("ana", "le 17")
    table.say("cyd", "le 9")
    before = table.state
    reply = {
        "le 24 et je mets 10 000": "Refusé : plusieurs nombres dans « le 24 et je mets 10 000 »"
        " (24, 10 000) : écris seulement ta carte jeu (« le 17 »). Tes cartes jeu : 2, 12, 14, 16.\n",
        "le 0": "Refusé : « 0 » n'est pas une carte jeu (de 1 à 25 ; « aucune » pour n'en jouer"
        " aucune, si tu es le défié). Tes cartes jeu : 2, 12, 14, 16.\n",
    }
    for text in ("le 24 et je mets 10 000", "le 0", "00", "5 000", "le 26", "le 12 ou le 14"):
        with pytest.raises(GMError) as refused:
            table.say("bob", text)
        code = "two-numbers" if text in ("le 24 et je mets 10 000", "le 12 ou le 14") else None
        assert refused.value.code == f"rattlesnake/{code or 'not-a-game-card'}", text
        assert refused.value.params["legal"] == [2, 12, 14, 16]
        if text in reply:
            assert _plain(refused.value.draft or "") == _plain(reply[text])
        assert table.state.poker == before.poker  # nothing chosen, bob still awaited
    assert not any("bob ne joue aucune carte" in p for p in table.posts)
    table.say("bob", "le 14")  # one number, one of his cards: read
    assert table.state.poker.stage.value != "cards"


def test_r16_a_scenario_whose_card_is_no_game_card_stops_the_play(
    db: str, tmp_path: Path
) -> None:
    # the same game in a scenario file: bob's card written « le 24 et je mets
    # 10 000 » (two numbers) or « 10 000 » (no game card) stops gm play with the
    # refusal, naming the turn; it was read as « aucune » and bob lost his stake
    for card, code in (("le 24 et je mets 10 000", "two-numbers"), ("10 000", "not-a-game-card")):
        turns = f"""
        [[turns]]
        tile = "A2"
        draw = "coups"
        poker = {{ challenged = "bob", stake = 3000, joiners = ["cyd"], cards = {{ ana = "17", cyd = "9", bob = "{card}" }} }}
        """
        path = _scenario(tmp_path, THREE, HANDS3, turns)
        result = CliRunner().invoke(cli, ["--db", db, "play", str(path), "--json"])
        assert result.exit_code == 1, result.output
        assert f"[rattlesnake/{code}]" in result.output, result.output
        assert "Error: turn 1, poker, card (bob), bob: " in result.output, result.output


class _NoChance:
    """The fortune, which these commands must not consult."""

    def stream(self, purpose: str) -> Any:
        raise AssertionError(f"no draw expected ({purpose})")


def test_r18_a_poker_game_that_brings_the_threshold_ends_the_game_at_once(
    db: str, tmp_path: Path
) -> None:
    from gm.games.rattlesnake import rules

    path = _scenario(tmp_path, THREE, HANDS3, '[[turns]]\ntile = "A2"\ndraw = "coups"\n')
    state = _Table.start(db, path, keep_end=False).state
    # ana holds 195 000 $: a pot of 10 000 won with her 17 brings her to 200 000
    state = state.but(cash=(195_000, 10_000, 10_000))
    for player, command in (
        ("ana", Challenge("ana", "bob", 5000)),
        ("bob", Stay("bob")),
        ("ana", ChooseCard("ana", 17)),
        ("bob", ChooseCard("bob", 12)),
        ("ana", NoReaction("ana")),
        ("bob", NoReaction("bob")),
    ):
        for event in rules.decide(state, player, command, _NoChance()):  # type: ignore[arg-type]
            state = rules.evolve(state, event)
    assert state.phase is Phase.OVER
    assert state.winners == ("ana",) and state.won_by == "threshold"
    assert state.cash == (200_000, 5_000, 10_000)
    assert state.current is not None and state.current.income == 0  # no income after the win


CHALLENGER_SAYS = (
    "je reste", "Coyote", "je suis", "je baisse à 1000", "cartes", "aucune", "rien",
    "le 12", "le 13", "le 15", "le 16", "le 99", "pas de réaction", "Tricheur avec bob",
    "Joueur professionnel 12", "Goudron & Plumes", "pas de Goudron", "revolver", "pas de combat",
    "je fuis", "2", "passe", "fin", "poker cyd 1000", "achète Coyote à bob pour 1000",
)  # fmt: skip
"""What the challenger may write, right or wrong, at any moment of a poker game."""


def _told_the_challenger(db: str, tmp_path: Path, bob: str) -> dict[tuple[int, str], str]:
    """Everything ana, the challenger, is told (accepted previews and refusals)
    at each moment of a poker game against bob, whose hand is ``bob``, up to
    the moment bob alone is awaited for his face-down card."""
    hands = {**HANDS3, "bob": bob}
    tmp_path.mkdir()
    path = _scenario(tmp_path, THREE, hands, '[[turns]]\ntile = "A2"\ndraw = "coups"\n')
    table = _Table.start(db, path, keep_end=False)
    told: dict[tuple[int, str], str] = {}
    moves = [("ana", "poker bob 3000"), ("bob", "je reste"), ("cyd", "je suis"), ("ana", "cartes")]
    moves += [("ana", "le 17"), ("cyd", "le 9")]
    for moment, (player, text) in enumerate(moves):
        table.say(player, text)
        for said in CHALLENGER_SAYS:
            try:
                reply = actions.submit(table.env, table.slug, "ana", said, preview=True).reply
            except GMError as err:
                reply = f"{err.code}: {err.draft}"
            told[moment, said] = _plain(reply or "")
    assert [a.player for a in GAME.awaiting(table.state)] == ["bob"]
    return told


def test_a_poker_refusal_tells_the_challenger_nothing_of_the_challenged(
    new_db: Any, tmp_path: Path
) -> None:
    """Issue 28.5: a refusal must not tell the challenger what the challenged
    holds or chose. Two games alike but for bob's hand — a Coyote and the 12,
    or neither — tell ana, the challenger, the very same things at every
    moment, whatever she writes, right up to bob's face-down card."""
    with_coyote = _told_the_challenger(new_db("a"), tmp_path / "a", "12, 14, 2, 16, Coyote")
    without = _told_the_challenger(new_db("b"), tmp_path / "b", "13, 15, 3, 21, Punaises")
    assert with_coyote == without
    refused = [text for text in with_coyote.values() if text.startswith("rattlesnake/")]
    assert len(refused) > 50 and any("card-not-in-hand" in text for text in refused)
