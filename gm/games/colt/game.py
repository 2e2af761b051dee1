"""Colt Express as the platform sees it: ``GAME``, its typed definition.

This module only wires the rules to the platform: what the game waits for,
which posts a command calls for and which secrets each post seals and
opens, the inputs accepted now (``legal_inputs``) and scenario files. The
rules live in ``rules`` and ``action``, the reading of messages in
``notation`` and ``words``, what posts may show in ``views``.

Posts, with their coordinates: ``opening`` (``gm new``), ``train`` (``gm
setup``: the train, the seal of the purses' values), ``round`` (round: ``gm
round``, the seals of the shuffled decks), ``plan`` (round, turn: each Plan
turn, the seal of a face-down card), ``action`` (round, step: the cards one
command resolved, from that step on; the face-down cards turned over are
opened), ``event`` (round: the round's event and its end) and ``final``
(every secret disclosed). ``rules`` is posted on demand.

Scenario files (``docs/scenarios.md``, colt): ``[setup]`` becomes ``gm
setup`` with everything given (a game played by hand: no fortune), each
``[[rounds]]`` entry ``gm round`` with its card and decks, then its ``plan``
and ``actions`` entries as the players' messages, then its Pickpocket
``event`` answers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gm.core.names import find_name, leading
from gm.core.protocol import (
    NOTHING_SHOWN,
    Awaited,
    Event,
    GameDef,
    PostRef,
    ScenarioStep,
    Shown,
    Table,
    table_for,
)
from gm.core.scenarios import bad_value as _bad
from gm.core.scenarios import check_entry_keys, check_top_keys

from . import action, commands, events, notation, picture, rules, views
from .cards import CHARACTERS, Card, Turn, find_round_card
from .events import (
    CardPlayed,
    CardResolved,
    CardsDrawn,
    EventResolved,
    RoundOpened,
    TrainSet,
)
from .manifest import INFO
from .model import Phase, State
from .words import phrase, tokens

_TOP_KEYS = ("setup", "rounds")
_SETUP_KEYS = ("characters", "cars", "purses")
_ROUND_KEYS = ("card", "plan", "actions", "event", "decks")


# --- what the game waits for ---------------------------------------------------------------


def awaiting(state: State) -> tuple[Awaited, ...]:
    if state.phase is Phase.PLAN and state.turn is not None:
        turn = state.turn
        if turn.kind is Turn.TUNNEL:
            return (Awaited(turn.player, "private", f"Plan turn {turn.number}"),)
        return (Awaited(turn.player, "public", f"Plan turn {turn.number}"),)
    if state.phase is Phase.ACTION and state.resolving is not None:
        return (Awaited(state.resolving.player, "public", f"a choice for card {state.step + 1}"),)
    if state.phase is Phase.EVENT:
        return tuple(Awaited(p, "public", "Pickpocket") for p in rules.pickpockets_due(state))
    return ()


# --- posts ---------------------------------------------------------------------------------


def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    posts: list[PostRef] = []
    for event in events:
        ref: PostRef | None = None
        if isinstance(event, TrainSet):
            ref = PostRef("train")
        elif isinstance(event, RoundOpened):
            ref = PostRef("round", (event.round,))
        elif isinstance(event, CardPlayed | CardsDrawn):
            ref = PostRef("plan", (event.round, event.turn))
        elif isinstance(event, CardResolved):
            ref = PostRef("action", (event.round, event.first))
        elif isinstance(event, EventResolved):
            ref = PostRef("event", (event.round,))
        if ref is not None and ref not in posts:
            posts.append(ref)
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        posts.append(PostRef("final"))
    return tuple(posts)


def latest_post(state: State) -> PostRef:
    if state.phase is Phase.OVER:
        return PostRef("final")
    if not state.history:
        return PostRef("train") if state.bandits else PostRef("opening")
    record = state.current
    if record.event is not None:
        return PostRef("event", (record.number,))
    if record.steps:
        return PostRef("action", (record.number, record.steps[-1].first))
    if record.moves:
        return PostRef("plan", (record.number, record.moves[-1].turn))
    return PostRef("round", (record.number,))


def shown(state: State, post: PostRef) -> Shown:
    """The train post seals the purses' values; a round post the shuffled
    decks; a Plan post the face-down card of its turn; an Action post the
    purses its steps moved and the instructions they applied. Plan, Action
    and event posts open every face-down card of their round turned over so
    far; the final post discloses everything."""
    players = state.players
    if post.kind == "train":
        return Shown(sealed=(("loot",),))
    if post.kind == "round" and len(post.at) == 1:
        return Shown(sealed=tuple(("deck", post.at[0], p) for p in players))
    if post.kind == "final":
        return Shown(disclose_all=True)
    if post.kind not in ("plan", "action", "event") or not post.at:
        return NOTHING_SHOWN
    r = post.at[0]
    opened = views.face_down_keys(state, r)
    if post.kind == "plan" and len(post.at) == 2:
        return Shown(sealed=tuple(("card", r, post.at[1], p) for p in players), opened=opened)
    if post.kind == "action" and len(post.at) == 2 and 0 < r <= len(state.history):
        steps = [s.step for s in state.history[r - 1].steps if s.first == post.at[1]]
        sealed: list[tuple[str | int, ...]] = [("purse", r, s, p) for s in steps for p in players]
        sealed += [("instruction", r, p, s - 1) for s in steps for p in players]
        return Shown(sealed=tuple(sealed), opened=opened)
    return Shown(sealed=tuple(("purse", r, 0, p) for p in players), opened=opened)


# --- legal inputs ---------------------------------------------------------------------------


def _instructions(state: State, player: str, name: Callable[[str], str]) -> list[str]:
    """Instructions ``player`` may send now for their cards still to resolve
    (the others named by ``name``)."""
    start = state.step if state.phase is Phase.ACTION else 0
    current = state.resolving
    others = [name(p) for p in state.players if p != player]
    texts = []
    for i in range(start, len(state.pile)):
        played = state.pile[i]
        if played.player != player or played.card is None:
            continue
        if current is not None and current.player == player and played.card is current.card:
            continue  # naming the card resolving now is a choice for it, not an instruction
        label = played.card.label
        if played.card is Card.SHOOT:
            texts.append(
                f"{label} : si je peux tirer sur {others[0]}, sur {others[0]}, sinon sur {others[-1]}"
            )
        elif played.card is Card.PUNCH:
            texts.append(f"{label} : sur {others[-1]}, vers l'arrière")
        elif played.card is Card.ROB:
            texts.append(f"{label} : le bijou, sinon la bourse")
        elif played.card in (Card.MOVE, Card.MARSHAL):
            texts.append(f"{label} : vers la locomotive, sinon vers l'arrière")
    return texts[:2]


def legal_inputs(state: State, table: Table | None = None) -> tuple[ScenarioStep, ...]:
    """Every message and step the rules accept now (see ``GameDef.legal_inputs``),
    written as ``words.phrase`` and the posts write them, players by their
    names at ``table``."""
    name = table_for(table, state.players).name
    here = rules.phase_key(state)
    out: list[ScenarioStep] = []

    def say(player: str, text: str) -> None:
        out.append(ScenarioStep(where=here, actor=name(player), text=text))

    def default(player: str) -> ScenarioStep:
        return ScenarioStep(where=here, step="default", values={"player": name(player)})

    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.SETUP:
        return (ScenarioStep(where=here, step="setup"),)
    if state.phase is Phase.READY:
        return (ScenarioStep(where=here, step="round"),)
    if state.phase in (Phase.PLAN, Phase.ACTION):
        playing = state.turn.player if state.turn is not None else None
        for player in state.players:
            if player == playing:
                continue  # their message is their play
            for text in _instructions(state, player, name):
                say(player, text)
    if state.phase is Phase.PLAN and state.turn is not None:
        turn = state.turn
        b = state.bandit(turn.player)
        hidden = rules.ghost_first_turn(state, turn) and turn.kind is not Turn.TUNNEL
        for card in dict.fromkeys(c for c in b.hand if c is not Card.BULLET):
            say(turn.player, f"je joue {card.label}")
            if hidden:
                say(turn.player, f"{card.label} face cachée")
        say(turn.player, "je pioche")
        out.append(default(turn.player))
    elif state.phase is Phase.ACTION and state.resolving is not None:
        played = state.resolving
        for outcome in action.legal(state, played):
            target = None if outcome.target is None else name(outcome.target)
            say(played.player, phrase(outcome, target))
        out.append(default(played.player))
    elif state.phase is Phase.EVENT:
        due = rules.pickpockets_due(state)
        for player in due:
            say(player, "la bourse")
            say(player, "rien")
        if due:
            out.append(default(due[0]))
    return tuple(out)


# --- scenario files -------------------------------------------------------------------------


def scenario_steps(document: Mapping[str, Any], table: Table | None = None) -> list[ScenarioStep]:
    """The steps of a scenario file (``docs/scenarios.md``, colt part), for
    the table of the file's players (« Calamity Jane : Tir » names one)."""
    check_top_keys("colt", document, _TOP_KEYS)
    setup = document.get("setup")
    if not isinstance(setup, Mapping):
        raise _bad(
            "setup",
            "a colt scenario needs a [setup] table with characters, cars and purses",
            "setup",
        )
    check_entry_keys("setup", setup, _SETUP_KEYS)
    for key in _SETUP_KEYS:
        if key not in setup:
            raise _bad("setup", f"{key!r} is required: a colt scenario uses no fortune", key)
    characters = setup["characters"]
    if not isinstance(characters, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in characters.items()
    ):
        raise _bad("setup", 'characters must be a table of player = "Character"', "characters")
    cars = setup["cars"]
    if not isinstance(cars, list) or not all(isinstance(c, int) for c in cars):
        raise _bad("setup", "cars must be a list of car numbers, e.g. [4, 1, 3]", "cars")
    purses = setup["purses"]
    if not isinstance(purses, list) or not all(
        isinstance(p, list) and all(isinstance(v, int) for v in p) for p in purses
    ):
        raise _bad("setup", "purses must be a list of lists of values, one per car", "purses")
    players = [] if table is None else [(table.name(s), s) for s in table.seats]
    steps = [
        ScenarioStep(
            where="setup",
            step="setup",
            values={
                "character": tuple(f"{_seat(p, players)}={c}" for p, c in characters.items()),
                "cars": ",".join(map(str, cars)),
                "purses": "/".join(" ".join(map(str, p)) for p in purses),
            },
        )
    ]
    # every bandit by their player's name or their character's, to their seat
    labels = list(players)
    for player, character in characters.items():
        found = find_name(CHARACTERS, character)
        if found is not None:
            labels.append((found, _seat(player, players)))
    rounds = document.get("rounds", [])
    if not isinstance(rounds, list) or not all(isinstance(r, Mapping) for r in rounds):
        raise _bad("rounds", "'rounds' must be an array of tables ([[rounds]])", "rounds")
    for number, entry in enumerate(rounds, start=1):
        steps.extend(_round_steps(number, entry, labels))
    return steps


def _still_event(state: State) -> bool:
    return state.phase is Phase.EVENT


def _seat(name: str, labels: Sequence[tuple[str, str]]) -> str:
    """The seat of the bandit ``name`` designates among ``labels`` (``(name,
    seat)``: the players' names and their characters'), read as a message
    reads names: case, accents and punctuation ignored (« d Artagnan » is
    d'Artagnan). Else ``name`` as given, for the rules to refuse it."""
    key = tokens(name)
    return next((seat for label, seat in labels if key and tokens(label) == key), name)


def _entries(where: str, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(where, f'{key!r} must be a list of "NOM : TEXTE" strings', key)
    return list(value)


def _split(where: str, text: str, names: Sequence[tuple[str, str]]) -> tuple[str, str, str]:
    """``"bob Tir : sur ana"`` → (``bob``, ``Tir``, the text after the name).
    NOM is the longest of ``names`` (the players' and the characters', to
    their seats) the entry starts with, several words included (« Calamity
    Jane : Tir »), read as a message reads them (``_seat``); else its first
    word."""
    head, sep, _ = text.partition(":")
    words = head.split()
    if not sep or not words:
        raise _bad(where, f'write "NOM : TEXTE", got {text!r}', "entry")
    found = leading(text, names, tokens)
    if found is not None:
        name, rest = found
        card = rest.partition(":")[0].strip() if ":" in rest else ""
        return name, card, rest
    rest = text.strip()[len(words[0]) :].strip()
    return words[0], " ".join(words[1:]), rest


def _round_steps(
    number: int, entry: Mapping[str, Any], names: Sequence[tuple[str, str]]
) -> list[ScenarioStep]:
    where = f"round {number}"
    check_entry_keys(where, entry, _ROUND_KEYS)
    card = entry.get("card")
    if not isinstance(card, str) or find_round_card(card) is None:
        raise _bad(where, f"'card' must name a round or station card, got {card!r}", "card")
    decks = entry.get("decks")
    if not isinstance(decks, Mapping):
        raise _bad(where, "[rounds.decks] is required: every player's deck, top first", "decks")
    deck_values = []
    for player, cards in decks.items():
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise _bad(where, f"decks.{player} must be a list of card names", "decks")
        deck_values.append(f"{_seat(player, names)}={', '.join(cards)}")
    steps = [
        ScenarioStep(where=where, step="round", values={"card": card, "deck": tuple(deck_values)})
    ]
    for i, text in enumerate(_entries(where, "plan", entry.get("plan", [])), start=1):
        name, _, rest = _split(f"{where}, plan {i}", text, names)
        rest = rest.lstrip(":").strip()
        steps.append(ScenarioStep(where=f"{where}, plan {i}", actor=_seat(name, names), text=rest))
    for i, text in enumerate(_entries(where, "actions", entry.get("actions", [])), start=1):
        name, card_word, rest = _split(f"{where}, action {i}", text, names)
        player = _seat(name, names)
        label = f"{player}, {card_word}" if card_word else player
        steps.append(
            ScenarioStep(where=f"{where}, action {i} ({label})", actor=player, text=rest or ":")
        )
    event = entry.get("event")
    if event is not None:
        if find_round_card(card) != "Pickpocket":
            raise _bad(where, f"'event' is for Pickpocket only, not {card!r}", "event")
        if not isinstance(event, Mapping) or not all(isinstance(v, str) for v in event.values()):
            raise _bad(where, 'event must be a table of player = "la bourse" or "rien"', "event")
        for player, text in event.items():
            steps.append(
                ScenarioStep(
                    where=f"{where}, event ({player})",
                    actor=_seat(player, names),
                    text=text,
                    # « rien » from a bandit with nothing to take changes nothing:
                    # once the others' answers have applied the event, it is skipped
                    when=_still_event if tokens(text) == ["rien"] else None,
                )
            )
    return steps


GAME: GameDef[State] = GameDef.from_modules(
    INFO,
    globals(),
    rules=rules,
    notation=notation,
    views=views,
    events=events,
    commands=commands,
    filters={"train": views.picture},
    picture=picture.draw_train,
)
"""Colt Express, as the platform sees it (``GameDef.from_modules``)."""
