"""Where a game of Fistful of Gold stands and what it waits for.

The phase key (``manche-2/duel-3``), the card forbidden in the current duel
(R-1), and, for each player, what they owe now (``owes``: a card, a green-8
pick, a discard, a final-duel card) and what they may still send
(``open_choices``). ``rules`` refuses what is not due; ``notation`` reads
unmarked cards as the first thing a player may send; ``views`` tells the
players what is awaited, and ``next_step`` the MJ.
"""

from __future__ import annotations

from gm.core.names import find_name
from gm.errors import NotFoundError, quote_choices

from .cards import Card, forbidden_after
from .model import Phase, Player, State


def find_player(state: State, name: str) -> str:
    """The canonical name of the player called ``name`` (case and accents ignored)."""
    found = find_name(state.names, name)
    if found is not None:
        return found
    raise NotFoundError(
        f"no player named {name!r} (players: {quote_choices(state.names)})",
        code="fistful/unknown-player",
        params={"name": name, "players": list(state.names)},
    )


def forbidden(state: State, name: str) -> Card | None:
    """The card ``name`` may not play in the current duel (R-1), if any.

    Only while a duel is open; the restriction is lifted when every card of
    the hand is forbidden.
    """
    p = state.player(name)
    if state.phase is not Phase.DUEL:
        return None
    card = forbidden_after(p.last)
    if card is not None and set(p.hand) == {card}:
        return None
    return card


def final_due(state: State) -> bool:
    """Whether the manche just ended on equal gold: a final duel is due."""
    if state.phase is not Phase.END:
        return False
    a, b = state.players
    return a.gold == b.gold


def discard_choice(p: Player) -> bool:
    """Whether ``p`` chooses their end-of-manche discards (a red-7 end), or
    the rules take what is left in hand (a normal end)."""
    return len(p.hand) + p.pick_due > p.discard_count


def final_choice(state: State, p: Player) -> bool:
    """Whether ``p`` chooses their final-duel card: they discard two (R-5)."""
    return final_due(state) and p.discard_count > 1


def discards_of(state: State, p: Player) -> tuple[Card, ...] | None:
    """The cards ``p`` discards at the end of this manche, if known yet."""
    choice = state.choice_of(p.name)
    if discard_choice(p):
        return choice.discards if choice is not None else None
    return None if p.pick_due else p.hand


def final_card(state: State, p: Player) -> Card | None:
    """The card ``p`` reveals in the final duel, if known yet."""
    discards = discards_of(state, p)
    if discards is None:
        return None
    if len(discards) == 1:
        return discards[0]
    choice = state.choice_of(p.name)
    return choice.final if choice is not None else None


def owes(state: State, name: str) -> tuple[str, ...]:
    """What ``name`` still has to send now: ``setup`` (discards), ``card``,
    ``pick``, ``discard``, ``final``."""
    p = state.player(name)
    if state.phase is Phase.SETUP:
        return () if state.setup_of(name) is not None else ("setup",)
    if state.phase is Phase.DUEL:
        return (("card",) if state.card_of(name) is None else ()) + (
            ("pick",) if p.pick_due else ()
        )
    if state.phase is Phase.END:
        out: list[str] = []
        if p.pick_due:
            out.append("pick")
        choice = state.choice_of(name)
        if discard_choice(p) and choice is None:
            out.append("discard")
        if final_choice(state, p) and (choice is None or choice.final is None):
            out.append("final")
        return tuple(out)
    return ()


def open_choices(state: State, name: str) -> tuple[str, ...]:
    """What ``name`` may send now, sent already or not (same names as ``owes``)."""
    p = state.player(name)
    if state.phase is Phase.SETUP:
        return ("setup",)
    if state.phase is Phase.DUEL:
        return ("card", "pick") if p.pick_due else ("card",)
    if state.phase is Phase.END:
        kinds = [
            kind
            for kind, due in (
                ("discard", discard_choice(p)),
                ("final", final_choice(state, p)),
                ("pick", p.pick_due),
            )
            if due
        ]
        return tuple(kinds)
    return ()


def awaiting(state: State) -> tuple[str, ...]:
    """The players the game waits on, in seating order."""
    return tuple(n for n in state.names if owes(state, n))


OWED = {
    "setup": "setup discards",
    "card": "card",
    "pick": "green-8 pick",
    "discard": "discard",
    "final": "final-duel card",
}


def owed_text(state: State) -> str:
    """``bob's card, ana's green-8 pick``: what the game waits for, for the MJ."""
    return ", ".join(f"{n}'s {OWED[k]}" for n in state.names for k in owes(state, n))


def phase_key(state: State) -> str:
    """``setup``, ``manche-2/duel-3``, ``manche-2/end`` or ``over``."""
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.SETUP:
        return "setup"
    if state.phase is Phase.END:
        return f"manche-{state.manche}/end"
    return f"manche-{state.manche}/duel-{state.duel}"


def next_step(state: State) -> str:
    """What the MJ does next, in a few English words."""
    waiting = owed_text(state)
    if state.phase is Phase.OVER:
        return "game over: gm post final (then gm post disclosure)"
    if state.phase is Phase.SETUP:
        if waiting:
            return f"gm order (setup: waiting for {waiting})"
        return "gm start (locks the setup discards, opens duel 1)"
    where = f"manche {state.manche}, duel {state.duel} of {state.current.planned}"
    if state.phase is Phase.DUEL:
        if waiting:
            return f"gm order ({where}: waiting for {waiting})"
        return f"gm reveal ({where})"
    if waiting:
        return f"gm order (end of manche {state.manche}: waiting for {waiting})"
    final = " with a final duel" if final_due(state) else ""
    return f"gm resolve (ends manche {state.manche}{final})"


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER
