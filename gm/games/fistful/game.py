"""Fistful of Gold as the platform sees it: ``GAME``, its typed definition.

This module only wires the rules to the platform: which posts a command
calls for and which secrets each post seals and opens, the inputs accepted
now (``legal_inputs``) and scenario files. The rules live in ``rules`` and
``duel``, the reading of messages in ``notation`` and ``words``, what posts
may show in ``views``.

Posts, with their coordinates: ``opening`` (``gm new``), ``setup`` (``gm
start``: the seals of the setup discards), ``duel`` (manche, duel: ``gm
reveal``), ``manche`` (manche: ``gm resolve``, the end of the manche),
``final`` and, on demand after the end, ``disclosure``.

Scenario files (``docs/scenarios.md``, fistful): ``[setup] discards`` and
one ``[[duels]]`` entry per duel, in play order, with its ``cards`` and,
as the rules ask for them after that duel, the green-8 ``pick``, the
``discard`` of a red-7 end, the ``final`` card of a player who discards two.
Each entry becomes: the cards (as ``gm order``), ``gm reveal``, the pick,
discards and final card (as ``gm order``, written as the player would:
« je reprends le 3 », « je défausse 4 », « je révèle le 5 »), then « end the
manche if it is over »: ``gm resolve`` with the condition ``manche_over``,
since the file does not say where a manche ends: the rules do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

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
from gm.core.scenarios import check_entry_keys, check_top_keys
from gm.errors import InputError

from . import commands, config, events, notation, phases, rules, views, words
from .cards import DECK, SETUP_DISCARDS
from .events import DuelResolved, DuelsStarted, MancheEnded
from .manifest import INFO
from .model import Phase, State
from .words import Part, scan

_TOP_KEYS = ("setup", "duels")
_SETUP_KEYS = ("discards",)
_DUEL_KEYS = ("cards", "pick", "discard", "final")


def awaiting(state: State) -> tuple[Awaited, ...]:
    return tuple(
        Awaited(name, "private", phases.OWED[what])
        for name in state.names
        for what in phases.owes(state, name)
    )


def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    posts: list[PostRef] = []
    for event in events:
        if isinstance(event, DuelsStarted):
            posts.append(PostRef("setup"))
        elif isinstance(event, DuelResolved):
            posts.append(PostRef("duel", (event.manche, event.duel)))
        elif isinstance(event, MancheEnded):
            posts.append(PostRef("manche", (before.manche,)))
            if event.result.game_end is not None:
                posts.append(PostRef("final"))
    return tuple(posts)


def latest_post(state: State) -> PostRef:
    if state.phase is Phase.OVER:
        return PostRef("final")
    if state.phase is Phase.SETUP:
        return PostRef("opening")
    record = state.current
    if record.duels:
        return PostRef("duel", (record.number, record.duels[-1].number))
    if len(state.history) > 1:
        return PostRef("manche", (state.history[-2].number,))
    return PostRef("setup")


def shown(state: State, post: PostRef) -> Shown:
    """The setup post seals both setup discards; a duel shows both cards in
    full; the manche post seals the end-of-manche choices and opens those
    its final duel shows in full; the disclosure opens everything."""
    names = state.names
    if post.kind == "setup":
        return Shown(sealed=tuple(("setup", n) for n in names))
    if post.kind == "duel" and len(post.at) == 2:
        manche, duel = post.at
        keys = [("card", manche, duel, n) for n in names]
        record = state.history[manche - 1] if 0 < manche <= len(state.history) else None
        if record is not None and 0 < duel <= len(record.duels):
            # a card sent before gm 0.2 in a duel resolved after it: its
            # version-1 key (see events.py); skipped when there is none
            turn = record.duels[duel - 1].turn
            keys += [("card", 0, turn, n) for n in names]
        return Shown(opened=tuple(keys))
    if post.kind == "manche" and len(post.at) == 1:
        (manche,) = post.at
        return Shown(
            sealed=tuple(("end", manche, n) for n in names),
            opened=tuple(("end", manche, n) for n in views.shown_in_manche(state, manche)),
        )
    if post.kind == "disclosure":
        return Shown(disclose_all=True)
    return NOTHING_SHOWN


def legal_inputs(state: State, table: Table | None = None) -> tuple[ScenarioStep, ...]:
    """Every message and step the rules accept now (see ``Game.legal_inputs``).

    Messages are written as ``notation`` writes them: « 1 2 » (setup), « 5 »,
    « dynamite », « je reprends le 3 », « je reprends le 3, je joue le 5 »,
    « 4 5 » (a red-7 discard), « je défausse 4 5, je révèle le 5 »,
    « je révèle le 5 ».
    """
    here = phases.phase_key(state)
    inputs: list[ScenarioStep] = []
    name_of = table_for(table, state.names).name

    def say(player: str, text: str) -> None:
        inputs.append(ScenarioStep(where=here, actor=name_of(player), text=text))

    if state.phase is Phase.OVER:
        return ()
    waiting = phases.awaiting(state)
    if state.phase is Phase.SETUP:
        for name in state.names:
            for pair in combinations(DECK, SETUP_DISCARDS):
                say(name, notation.format_cards(pair))
        if not waiting:
            inputs.append(ScenarioStep(where=here, step="start"))
        return tuple(inputs)
    if state.phase is Phase.DUEL:
        for name in state.names:
            p = state.player(name)
            banned = phases.forbidden(state, name)
            if p.pick_due:
                for back in p.removed:
                    say(name, notation.format_pick(back))
                    for card in (*p.hand, back):
                        if card is not banned:
                            say(name, f"{notation.format_pick(back)}, je joue {card}")
            for card in p.hand:
                if card is not banned:
                    say(name, notation.format_card(card))
        if not waiting:
            inputs.append(ScenarioStep(where=here, step="reveal"))
        return tuple(inputs)
    for name in state.names:
        p = state.player(name)
        if p.pick_due:
            for back in p.removed:
                say(name, notation.format_pick(back))
        if phases.discard_choice(p):
            for chosen in combinations(p.hand, p.discard_count):
                say(name, notation.format_cards(chosen))
                if phases.final_choice(state, p):
                    for card in chosen:
                        say(
                            name,
                            f"{notation.format_discard(chosen)}, {notation.format_final(card)}",
                        )
        discards = phases.discards_of(state, p)
        if phases.final_choice(state, p) and discards is not None:
            for card in discards:
                say(name, notation.format_final(card))
    if not waiting:
        inputs.append(ScenarioStep(where=here, step="resolve"))
    return tuple(inputs)


def manche_over(state: State) -> bool:
    """Whether the manche's duels are done (its end is what ``gm resolve`` records)."""
    return state.phase is Phase.END


def scenario_steps(document: Mapping[str, Any], table: Table | None = None) -> list[ScenarioStep]:
    """The steps of a scenario file (``docs/scenarios.md``, fistful part).

    Accepts the whole document (common keys are left to the platform) or
    only its game-specific part.
    """
    check_top_keys("fistful", document, _TOP_KEYS)
    setup = document.get("setup")
    if not isinstance(setup, Mapping):
        raise InputError(
            "a fistful scenario needs a [setup] table with each player's two discards,"
            ' e.g. discards = { ana = "1 2", bob = "dynamite 8" }',
            code="scenario/bad-value",
            params={"key": "setup"},
        )
    check_entry_keys("setup", setup, _SETUP_KEYS)
    steps = [
        ScenarioStep(where="setup", actor=player, text=text)
        for player, text in _texts("setup", "discards", setup.get("discards", {})).items()
    ]
    steps.append(ScenarioStep(where="setup", step="start"))
    duels = document.get("duels", [])
    if not isinstance(duels, list) or not all(isinstance(d, Mapping) for d in duels):
        raise InputError(
            "'duels' must be an array of tables ([[duels]])",
            code="scenario/bad-value",
            params={"key": "duels"},
        )
    # Named by its place in the file: the file does not say which manche and
    # duel an entry is (the rules do), so « duel 7 » would mislead the MJ.
    for number, entry in enumerate(duels, start=1):
        steps.extend(_duel_steps(f"[[duels]] entry {number}", entry))
    return steps


def _texts(where: str, key: str, value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise InputError(
            f'{where}: {key!r} must be a table of player = "message", got {value!r}',
            code="scenario/bad-value",
            params={"where": where, "key": key},
        )
    return dict(value)


def _marked(text: str, part: Part, verb: str) -> str:
    """``text`` with ``verb`` in front unless the player already wrote one for ``part``."""
    return text if part in scan(text).parts else f"{verb} {text}"


def _duel_steps(where: str, entry: Mapping[str, Any]) -> list[ScenarioStep]:
    check_entry_keys(where, entry, _DUEL_KEYS)
    cards = _texts(where, "cards", entry.get("cards", {}))
    steps = [ScenarioStep(where=where, actor=p, text=t) for p, t in cards.items()]
    steps.append(ScenarioStep(where=where, step="reveal"))
    for key, part, verb in (
        ("pick", Part.PICK, "je reprends"),
        ("discard", Part.DISCARD, "je défausse"),
        ("final", Part.FINAL, "je révèle"),
    ):
        for player, text in _texts(where, key, entry.get(key, {})).items():
            steps.append(ScenarioStep(where=where, actor=player, text=_marked(text, part, verb)))
    steps.append(ScenarioStep(where=where, step="resolve", when=manche_over))
    return steps


def unread(state: State, player: str, text: str, table: Table | None = None) -> tuple[str, ...]:
    """The words of a message that are no card, no notation, no common word
    and no player's name at ``table``: what the MJ's note lists."""
    names = table_for(table, state.names).names.values()
    return words.unread(text, frozenset(w for name in names for w in words.words(name)))


GAME: GameDef[State] = GameDef.from_modules(
    INFO,
    globals(),
    rules=rules,
    notation=notation,
    views=views,
    events=events,
    commands=commands,
    # the options and the phases have modules of their own
    configure=config.configure,
    phase=phases.phase_key,
    next_step=phases.next_step,
    is_over=phases.is_over,
)
"""Fistful of Gold, as the platform sees it (``GameDef.from_modules``)."""
