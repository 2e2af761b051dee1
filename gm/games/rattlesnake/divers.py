"""Rattlesnake City's step 3: *cartes divers* and trades (R-7, R-12, R-13).

This module owns what the active player does with their *cartes divers*:
a permanent card laid in front of a player, a single-use card played
(Dynamitero, Coup du destin, Chasseur de primes and its bounty), and the
sale of a card between the active player and another; each is followed by
the R-18 threshold check.
"""

from __future__ import annotations

from gm.core.protocol import GM, Command, Draws, Event
from gm.errors import IllegalOrderError

from .cards import BOUNTY, DIVERS, HOTEL_INCOME, JOES, PERMANENTS, Card, find_cards
from .commands import PlayDivers, Trade
from .engine import (
    GAME,
    Decider,
    Evolver,
    Run,
    acting,
    add_cash,
    cell_named,
    check_threshold,
    find_player,
    in_free,
    not_now,
    refuse,
    track,
    turn_number,
    without,
)
from .events import (
    BountyCollected,
    CardSold,
    PermanentDiscarded,
    PermanentLaid,
    SingleUsePlayed,
    TileDestroyed,
)
from .model import Phase, State
from .tiles import Tile, dynamite_targets, owners

# --- decide ------------------------------------------------------------------------------------


def _holder_of(state: State, card: Card) -> str | None:
    for player in state.players:
        if card in state.permanents_of(player):
            return player
    return None


def play_divers(run: Run, actor: str, command: PlayDivers, draws: Draws) -> None:
    state = run.state
    player = acting(state, actor, command.player)
    in_free(state, player, "playing a carte divers")
    card = command.card
    divers = [c.label for c in state.hand_of(player) if isinstance(c, Card) and c in DIVERS]
    if card not in DIVERS:
        raise refuse(
            f"{card.label} is not a carte divers: only those are played at step 3",
            "not-divers",
            card=card.label,
            what="play",
            divers=divers,
        )
    if card not in state.hand_of(player):
        raise refuse(
            f"{player} holds no {card.label} (cartes divers in hand: {', '.join(divers) or 'none'})",
            "not-in-hand",
            card=card.label,
            hand=divers,
        )
    number = turn_number(state)
    if card in PERMANENTS:
        holder = find_player(state, command.target) if command.target else player
        run.emit(PermanentLaid(number, player, card, holder))
    elif card is Card.DYNAMITERO:
        targets = dynamite_targets(state.board, state.layout)
        where = cell_named(state, command.target) if command.target else None
        if where not in targets:
            raise refuse(
                f"a Dynamitero destroys a building other than a saloon or a rail tile"
                f" (targets: {', '.join(targets) or 'none'})",
                "bad-target",
                card=card.value,
                target=command.target,
                legal=list(targets),
            )
        tile = _tile_at(state, where)
        run.emit(
            SingleUsePlayed(number, player, card, where), TileDestroyed(number, player, where, tile)
        )
        if tile is Tile.HOTEL:
            town = state.board.town_of(where)
            owner = owners(state.board, state.layout).get(town) if town else None
            if owner is not None:
                for lost in [c for c in run.state.permanents_of(owner) if c in HOTEL_INCOME]:
                    run.emit(PermanentDiscarded(number, lost, owner, "hotel"))
    else:
        wanted = JOES if card is Card.CHASSEUR else PERMANENTS
        laid = [c for p in state.players for c in state.permanents_of(p) if c in wanted]
        target = _permanent(command.target) if command.target else None
        if target is None or target not in laid:
            what = (
                "a Joe in front of a player"
                if card is Card.CHASSEUR
                else "a permanent card in front of a player"
            )
            raise refuse(
                f"{card.label} takes {what} (in play: {', '.join(c.label for c in laid) or 'none'})",
                "bad-target",
                card=card.value,
                target=command.target,
                legal=[c.label for c in laid],
            )
        owner = _holder_of(state, target)
        assert owner is not None
        run.emit(
            SingleUsePlayed(number, player, card, target.value),
            PermanentDiscarded(
                number, target, owner, "bounty" if card is Card.CHASSEUR else "destin"
            ),
        )
        if card is Card.CHASSEUR:
            run.emit(BountyCollected(number, player, BOUNTY))
    check_threshold(run)


def _permanent(text: str) -> Card | None:
    """The permanent a target names: its key (``ironfist``) or its name."""
    if text in Card._value2member_map_:
        return Card(text)
    found = [c for c in find_cards(text) if isinstance(c, Card)]
    return found[0] if len(found) == 1 else None


def _tile_at(state: State, where: str) -> Tile:
    if where in state.layout.rails:
        return Tile(state.board.slot(where).shape)
    return state.layout.tiles[where].kind


def trade(run: Run, actor: str, command: Trade, draws: Draws) -> None:
    state = run.state
    seller = find_player(state, command.seller)
    buyer = find_player(state, command.buyer)
    if actor != GM and find_player(state, actor) not in (seller, buyer):
        raise IllegalOrderError(
            f"{actor!r} cannot record a trade between {seller} and {buyer}",
            code=f"{GAME}/not-yours",
            params={"actor": actor},
        )
    active = state.active
    if state.phase is not Phase.FREE:
        raise not_now(state, "a trade")
    if active not in (seller, buyer) or seller == buyer:
        raise refuse(
            f"a trade is between {active}, whose turn it is, and one other player (R-12)",
            "bad-trade",
            seller=seller,
            buyer=buyer,
        )
    card = command.card
    if card not in DIVERS:
        raise refuse(
            f"only cartes divers are sold, not {card.label} (R-12)",
            "not-divers",
            card=card.label,
            what="trade",
        )
    if card not in state.hand_of(seller):
        raise refuse(
            f"{seller} holds no {card.label} to sell", "not-in-hand", card=card.label, player=seller
        )
    price = command.price
    if price < 0 or price % 1000:
        raise refuse(
            f"a price is a multiple of 1 000 $ (0 for a gift), not {price}",
            "bad-price",
            price=price,
        )
    if state.cash_of(buyer) < price:
        raise refuse(
            f"{buyer} cannot pay {price} $ (R-12: the buyer must be able to pay)",
            "cannot-pay",
            price=price,
            player=buyer,
        )
    run.emit(CardSold(turn_number(state), seller, buyer, card, price))
    check_threshold(run)


# --- evolve ------------------------------------------------------------------------------------


def _permanent_laid(state: State, event: PermanentLaid) -> State:
    after = state.with_seat("hands", event.player, without(state.hand_of(event.player), event.card))
    after = after.with_seat(
        "permanents", event.holder, (*after.permanents_of(event.holder), event.card)
    )
    return track(after).with_move(
        "permanent", player=event.player, card=event.card.value, holder=event.holder
    )


def _single_use_played(state: State, event: SingleUsePlayed) -> State:
    after = state.with_seat("hands", event.player, without(state.hand_of(event.player), event.card))
    return after.but(action_discard=(*after.action_discard, event.card)).with_move(
        "single", player=event.player, card=event.card.value, target=event.target
    )


def _tile_destroyed(state: State, event: TileDestroyed) -> State:
    after = state.but(layout=state.layout.remove(event.cell), removed=(*state.removed, event.tile))
    return track(after).with_move("destroyed", cell=event.cell, tile=event.tile.value)


def _permanent_discarded(state: State, event: PermanentDiscarded) -> State:
    after = state.with_seat(
        "permanents", event.holder, without(state.permanents_of(event.holder), event.card)
    )
    after = after.but(action_discard=(*after.action_discard, event.card))
    return track(after).with_move(
        "discarded", card=event.card.value, holder=event.holder, why=event.why
    )


def _bounty_collected(state: State, event: BountyCollected) -> State:
    return add_cash(state, event.player, event.amount).with_move(
        "bounty", player=event.player, amount=event.amount
    )


def _card_sold(state: State, event: CardSold) -> State:
    after = state.with_seat("hands", event.seller, without(state.hand_of(event.seller), event.card))
    after = after.with_seat("hands", event.buyer, (*after.hand_of(event.buyer), event.card))
    after = add_cash(add_cash(after, event.buyer, -event.price), event.seller, event.price)
    return after.with_move(
        "trade",
        seller=event.seller,
        buyer=event.buyer,
        card=event.card.value,
        price=event.price,
    )


DECIDE: dict[type[Command], Decider] = {PlayDivers: play_divers, Trade: trade}
EVOLVE: dict[type[Event], Evolver] = {
    PermanentLaid: _permanent_laid,
    SingleUsePlayed: _single_use_played,
    TileDestroyed: _tile_destroyed,
    PermanentDiscarded: _permanent_discarded,
    BountyCollected: _bounty_collected,
    CardSold: _card_sold,
}
