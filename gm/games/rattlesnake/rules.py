"""The rules of Rattlesnake City: ``decide`` and ``evolve`` (``docs/rules/rattlesnake.md``).

``decide`` checks a command against the state and returns its events, or
raises a ``gm.errors`` error that names what would be legal; ``evolve``
applies one event and never refuses a stored one. The valley's geometry and
income are ``board``, ``tiles`` and ``income``'s; a combat's blows are
``combat``'s. What is here is the order of a game: the deal, the saloons,
the five steps of a turn (R-12 for step 3, R-15 for the bank attack), the
threshold and the last tile (R-10, R-18), and the defaults for a missing
input.

Chance comes only at the deal (``setup/first``, ``setup/bag``,
``setup/actions``, ``setup/shots``), when a discard pile becomes a deck
(``reshuffle-N/actions``, ``reshuffle-N/shots``) and for a default's place
(``turn-N/default-tile``, ``saloon/<player>``): the bag and the decks are
shuffled once and then drawn from the top, so every later draw is fixed by
what was sealed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from gm.core import rules as core_rules
from gm.core.names import find_name, fold, slugify
from gm.core.protocol import GM, Command, Draws, Event
from gm.errors import (
    GameOverError,
    IllegalOrderError,
    InputError,
    NotFoundError,
    PhaseError,
    quote_choices,
)

from . import combat as fight
from . import poker as pk
from .bank import OWNER_DRAWS, seizure
from .board import BoardError, default_board_text, load_board
from .cards import (
    ACTION_DECK,
    BOUNTY,
    DIVERS,
    HOTEL_INCOME,
    JOES,
    PERMANENTS,
    SHOT_DECK,
    Action,
    Card,
    find_cards,
)
from .commands import (
    ApplyDefault,
    AttackBank,
    Challenge,
    Cheat,
    ChooseCard,
    CloseJoins,
    DeclineFight,
    DeclineTar,
    Draw,
    EndTurn,
    Escape,
    Flee,
    GiveUp,
    Join,
    Lower,
    NoReaction,
    PlaceSaloon,
    PlaceTile,
    PlayDivers,
    SetUp,
    Shoot,
    Stand,
    StartFight,
    Stay,
    TakeBack,
    Tar,
    Trade,
)
from .events import (
    ActionDrawn,
    BagFilled,
    BankAttacked,
    BountyCollected,
    CardSold,
    CardTakenBack,
    CashSeized,
    CheatPlayed,
    CombatEnded,
    DeckReshuffled,
    DeckShuffled,
    DrawChosen,
    FighterPassed,
    GameEnded,
    GameSetUp,
    HandDealt,
    JoinsClosed,
    OrdersGiven,
    PermanentDiscarded,
    PermanentLaid,
    PokerCardChosen,
    PokerChallenged,
    PokerEnded,
    PokerEscaped,
    PokerFightDeclined,
    PokerFightStarted,
    PokerFled,
    PokerJoined,
    PokerMoney,
    PokerRevealed,
    PokerStayed,
    PokerStood,
    ReactionPassed,
    SaloonPlaced,
    ShotFired,
    ShotsDrawn,
    SingleUsePlayed,
    StakeLowered,
    SwapStood,
    TarDeclined,
    TarPlayed,
    TileDestroyed,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TurnEnded,
)
from .income import income_track
from .model import (
    HAND_SIZE,
    SHOTS_DRAWN,
    START_CASH,
    Phase,
    State,
    TurnRecord,
    card_key,
    card_of_key,
    cards_of_keys,
    threshold,
)
from .tiles import Placed, Tile, bag, dynamite_targets, legal_cells, owners

MIN_PLAYERS = 2
MAX_PLAYERS = 6
GAME = "rattlesnake"


# --- options ---------------------------------------------------------------------------


def configure(players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
    """The one option, ``board``: another board file (R-1). The platform
    reads the file (``OptionSpec.file``) and gives its text; the campaign
    keeps it as ``board_text``, so a replay never reads the disk again."""
    unknown = sorted(set(options) - {"board", "board_text"})
    if unknown:
        raise InputError(
            f"rattlesnake has one option, board (a board file), not {', '.join(unknown)}",
            code="rattlesnake/bad-option",
            params={"options": unknown},
        )
    text = options.get("board_text") or options.get("board") or default_board_text()
    if not isinstance(text, str):
        raise InputError("board must be the text of a board file", code="rattlesnake/board")
    try:
        board = load_board(text)
    except BoardError as err:
        raise BoardError(f"the board file is not a valley: {err}") from None
    if len(board.towns) < len(players):
        raise InputError(
            f"{len(players)} players need {len(players)} towns; this board has {len(board.towns)}",
            code="rattlesnake/board",
            params={"players": len(players), "towns": len(board.towns)},
        )
    for name in players:
        key = fold(name)
        if board.find(name) is not None or key in _RESERVED or key.isdigit():
            raise InputError(
                f"a player cannot be called {name!r} at Rattlesnake City: it reads as a word"
                " of the game (a cell, a card, a number)",
                code="rattlesnake/player-name",
                params={"name": name},
            )
    return {"board_text": text}


_RESERVED = {"action", "coups", "passe", "fin", "gm", "banque", "poker"}


def initial_state(players: Sequence[str], options: Mapping[str, Any]) -> State:
    n = len(players)
    return State(
        players=tuple(players),
        board_text=str(options.get("board_text") or default_board_text()),
        cash=(START_CASH,) * n,
        hands=((),) * n,
        shots=((),) * n,
        permanents=((),) * n,
        income=(0,) * n,
    )


# --- reading the state -------------------------------------------------------------------


def find_player(state: State, name: str) -> str:
    found = find_name(state.players, name)
    if found is None:
        raise NotFoundError(
            f"no player named {name!r} (players: {quote_choices(state.players)})",
            code="rattlesnake/unknown-player",
            params={"name": name, "players": list(state.players)},
        )
    return found


def draw_name(state: State, player: str) -> str:
    """A player as a draw's purpose names them: their name as a slug, or their seat."""
    slugs = [slugify(p) for p in state.players]
    slug = slugify(player)
    if slug and slugs.count(slug) == 1:
        return slug
    return f"seat-{state.seat(player) + 1}"


def phase_key(state: State) -> str:
    """Where the game stands, stable while the same input is awaited."""
    record = state.current
    if state.phase is Phase.SETUP:
        return "setup"
    if state.phase is Phase.OVER:
        return "over"
    if state.phase is Phase.SALOONS:
        return f"saloon-{sum(1 for p in state.layout.tiles.values() if p.kind is Tile.SALOON) + 1}"
    assert record is not None
    if state.phase is Phase.BANK and state.combat is not None:
        return f"turn-{record.number}/bank-{len(state.combat.moves) + 1}"
    if state.phase is Phase.POKER and state.poker is not None:
        poker = state.poker
        blows = len(poker.combat.moves) if poker.combat is not None else 0
        return (
            f"turn-{record.number}/poker-{poker.stage.value}"
            f"-{len(poker.played)}-{poker.turn + 1}-{blows}"
        )
    return f"turn-{record.number}/{state.phase.value}"


def is_over(state: State) -> bool:
    return state.phase is Phase.OVER


def turn_number(state: State) -> int:
    record = state.current
    return record.number if record is not None else 0


def next_step(state: State) -> str:
    """A short English hint for the MJ: what to do next."""
    if state.phase is Phase.SETUP:
        return "gm setup (deals: the first player, the hands, the bag and the decks)"
    if state.phase is Phase.OVER:
        return "nothing: the game is over"
    if state.phase is Phase.SALOONS:
        return f"gm order {state.saloon_turn} (their saloon), or gm default {state.saloon_turn}"
    if state.phase is Phase.BANK and state.combat is not None:
        who = state.combat.turn
        return f"gm order {who} (their blow), or gm default {who} (passe)"
    if state.phase is Phase.POKER and state.poker is not None:
        who = ", ".join(poker_awaiting(state))
        return f"gm order {who} (poker: {state.poker.stage.value}), or gm default {who}"
    player = state.active
    what = {
        Phase.TILE: "step 1: where the tile goes",
        Phase.DRAW: "step 2: action or coups",
        Phase.FREE: "steps 3-4, then « fin »",
    }[state.phase]
    return f"gm order {player} ({what}), or gm default {player}"


def not_now(state: State, what: str) -> PhaseError:
    return PhaseError(
        f"{what} is not possible now ({phase_key(state)}); next: {next_step(state)}",
        code="rattlesnake/not-now",
        params={"what": what, "phase": state.phase.value, "phase_key": phase_key(state)},
    )


def _refuse(message: str, code: str, **params: Any) -> IllegalOrderError:
    return IllegalOrderError(message, code=f"rattlesnake/{code}", params=params)


# --- decide -------------------------------------------------------------------------------


class Run:
    """The events of one command, applied as they are decided."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)


def decide(state: State, actor: str, command: Command, draws: Draws) -> list[Event]:
    """The events ``command`` causes, or the error that refuses it."""
    if state.phase is Phase.OVER:
        raise GameOverError(
            f"the game is over; {command.kind} is no longer possible",
            code="phase/game-over",
            params={"command": command.kind},
        )
    run = Run(state)
    match command:
        case SetUp():
            _setup(run, actor, command, draws)
        case PlaceSaloon():
            _place_saloon(run, _acting(state, actor, command.player), command.cell, draws)
        case PlaceTile():
            _place_tile(run, _acting(state, actor, command.player), command, draws)
        case Draw():
            _draw(run, _acting(state, actor, command.player), command.what, draws)
        case PlayDivers():
            _play_divers(run, _acting(state, actor, command.player), command)
        case Trade():
            _trade(run, actor, command)
        case AttackBank():
            _attack(run, _acting(state, actor, command.player), command, draws)
        case Shoot() | GiveUp() if state.phase is Phase.POKER:
            _poker_command(run, _acting(state, actor, command.player), command, draws)
        case Shoot():
            _shoot(run, _acting(state, actor, command.player), command, draws)
        case GiveUp():
            _give_up(run, _acting(state, actor, command.player), draws)
        case Challenge():
            _challenge(run, _acting(state, actor, command.player), command, draws)
        case (
            Escape()
            | Stay()
            | Join()
            | Lower()
            | CloseJoins()
            | ChooseCard()
            | Cheat()
            | Tar()
            | DeclineTar()
            | TakeBack()
            | NoReaction()
            | StartFight()
            | DeclineFight()
            | Flee()
            | Stand()
        ):
            _poker_command(run, _acting(state, actor, command.player), command, draws)
        case EndTurn():
            _end_turn(run, _acting(state, actor, command.player), draws)
        case ApplyDefault():
            _default(run, actor, command, draws)
        case _:
            raise core_rules.unknown_command(GAME, command)
    return run.events


def _acting(state: State, actor: str, player: str) -> str:
    return core_rules.acting_player(GAME, lambda n: find_player(state, n), actor, player)


# setup ------------------------------------------------------------------------------------


def _take(pool: Counter[str], wanted: Iterable[str], what: str, where: str) -> None:
    """Take ``wanted`` out of ``pool``, refusing what the components cannot give (R-3)."""
    for key in wanted:
        if pool[key] <= 0:
            raise InputError(
                f"{where}: one {key!r} too many for the {what} (R-3 counts)",
                code="rattlesnake/bad-setup",
                params={"where": where, "card": key},
            )
        pool[key] -= 1


def _rest(pool: Counter[str], order: Sequence[str]) -> list[str]:
    """What is left in ``pool``, in the fixed order of ``order`` (a shuffle's input)."""
    left = Counter(pool)
    out = []
    for key in order:
        if left[key] > 0:
            out.append(key)
            left[key] -= 1
    return out


def _setup(run: Run, actor: str, command: SetUp, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm(GAME, actor, command)
    if state.phase is not Phase.SETUP:
        raise not_now(state, "dealing")
    players = state.players
    first = (
        find_player(state, command.first)
        if command.first is not None
        else players[draws.stream("setup/first").below(len(players))]
    )
    # the bag: its top as given, the rest shuffled by the fortune
    tile_order = [t.value for t in bag(state.board)]
    tiles = Counter(tile_order)
    _take(tiles, [t.value for t in command.bag], "bag", "bag")
    rest = draws.stream("setup/bag").shuffle(_rest(tiles, tile_order))
    bag_order = (*command.bag, *(Tile(t) for t in rest))
    # the action deck: the hands, the top as given, the rest shuffled
    action_order = [card_key(c) for c in ACTION_DECK]
    pool = Counter(action_order)
    hands: dict[str, tuple[str, ...]] = {}
    if command.hands is not None:
        given = {find_player(state, p): cards for p, cards in command.hands}
        missing = [p for p in players if p not in given]
        if missing:
            raise InputError(
                f"hands: give every player's hand, or none (missing: {', '.join(missing)})",
                code="rattlesnake/bad-setup",
                params={"missing": missing},
            )
        for player in players:
            if len(given[player]) != HAND_SIZE:
                raise InputError(
                    f"hands: {player} must hold {HAND_SIZE} cards, not {len(given[player])}",
                    code="rattlesnake/bad-setup",
                    params={"player": player},
                )
            _take(pool, given[player], "action deck", f"hands.{player}")
            hands[player] = tuple(given[player])
    _take(pool, command.actions, "action deck", "actions")
    shuffled = draws.stream("setup/actions").shuffle(_rest(pool, action_order))
    if command.hands is None:
        start = players.index(first)
        for i in range(len(players)):
            player = players[(start + i) % len(players)]
            hands[player] = tuple(shuffled[:HAND_SIZE])
            shuffled = shuffled[HAND_SIZE:]
    actions = (*command.actions, *shuffled)
    # the shot deck
    shot_order = [str(s) for s in SHOT_DECK]
    shots_pool = Counter(shot_order)
    _take(shots_pool, [str(s) for s in command.shots], "shot deck", "shots")
    shot_rest = draws.stream("setup/shots").shuffle(_rest(shots_pool, shot_order))
    shot_deck = (*(str(s) for s in command.shots), *shot_rest)
    for deck, _ in command.reshuffles:
        if deck not in ("actions", "shots"):
            raise InputError(
                f"a reshuffle order is for 'actions' or 'shots', not {deck!r}",
                code="rattlesnake/bad-setup",
            )
    scripted = bool(command.bag or command.actions or command.shots or command.hands)
    run.emit(
        GameSetUp(first, scripted),
        BagFilled(tuple(bag_order)),
        DeckShuffled("actions", 0, tuple(actions)),
        DeckShuffled("shots", 0, tuple(shot_deck)),
        *(HandDealt(p, hands[p]) for p in players),
    )
    if command.reshuffles:
        run.emit(OrdersGiven(tuple(command.reshuffles)))


# the saloons ----------------------------------------------------------------------------------


def _cell(state: State, text: str) -> str:
    found = state.board.find(text)
    if found is None:
        raise _refuse(
            f"{text!r} is not a cell or a rail slot of the valley (A1…, M1, P3, P5a, R1…)",
            "unknown-cell",
            cell=text,
        )
    return found


def _place_saloon(run: Run, player: str, text: str, draws: Draws) -> None:
    state = run.state
    if state.phase is not Phase.SALOONS:
        raise not_now(state, "placing a saloon")
    if player != state.saloon_turn:
        raise _refuse(
            f"it is {state.saloon_turn}'s turn to place a saloon, not {player}'s",
            "not-your-turn",
            player=player,
            turn=state.saloon_turn,
        )
    cell = _cell(state, text)
    legal = legal_cells(state.board, state.layout, Tile.SALOON)
    if cell not in legal:
        raise _refuse(
            f"a saloon cannot go on {cell}: a free building cell of a town nobody owns"
            f" (legal: {', '.join(legal)})",
            "bad-saloon",
            cell=cell,
            legal=list(legal),
        )
    run.emit(SaloonPlaced(player, cell))
    if run.state.order:  # every town has its saloon: the first turn begins
        _begin_turn(run, draws)


def play_order(state: State) -> tuple[str, ...]:
    """The player who placed the last saloon, then clockwise."""
    assert state.first is not None
    n = len(state.players)
    last = (state.seat(state.first) + n - 1) % n
    return tuple(state.players[(last + i) % n] for i in range(n))


def _begin_turn(run: Run, draws: Draws) -> None:
    """Draw the next turn's tile; one with nowhere to go leaves the game (R-6)."""
    state = run.state
    number = turn_number(state) + 1
    order = state.order
    player = order[(number - 1) % len(order)]
    tile = state.bag[0]
    legal = legal_cells(state.board, state.layout, tile)
    run.emit(TileDrawn(number, player, tile, legal))
    if not legal:
        run.emit(TileRemoved(number, tile))


# steps 1 and 2 ------------------------------------------------------------------------------


def _turn_of(state: State, player: str, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise not_now(state, what)
    if player != state.active:
        raise _refuse(
            f"it is {state.active}'s turn, not {player}'s",
            "not-your-turn",
            player=player,
            turn=state.active,
        )


def _place_tile(run: Run, player: str, command: PlaceTile, draws: Draws) -> None:
    state = run.state
    _turn_of(state, player, Phase.TILE, "placing a tile")
    record = state.current
    assert record is not None
    if command.tile is not None and command.tile is not record.tile:
        raise _refuse(
            f"the tile drawn is a {record.tile.label}, not a {command.tile.label}",
            "wrong-tile",
            tile=record.tile.value,
            named=command.tile.value,
        )
    cell = _cell(state, command.cell)
    if cell not in record.legal:
        raise _refuse(
            f"the {record.tile.label} cannot go on {cell} (legal: {', '.join(record.legal)})",
            "bad-place",
            cell=cell,
            tile=record.tile.value,
            legal=list(record.legal),
        )
    run.emit(TilePlaced(record.number, player, record.tile, cell))


def _draw(run: Run, player: str, what: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    _turn_of(state, player, Phase.DRAW, "drawing")
    number = turn_number(state)
    run.emit(DrawChosen(number, player, what, default))
    if what == "action":
        _draw_action(run, player, draws)
    else:
        _draw_shots(run, player, SHOTS_DRAWN, draws)


def _draws_this_turn(state: State, player: str) -> int:
    record = state.current
    return (
        0
        if record is None
        else sum(1 for m in record.moves if m.what == "drawn" and m.get("player") == player)
    )


def _reshuffle(run: Run, deck: str, draws: Draws) -> bool:
    """Make a new ``deck`` from its discard pile (``actions`` or ``shots``); False if it is empty."""
    state = run.state
    discard = state.action_discard if deck == "actions" else state.shot_discard
    if not discard:
        return False
    keys = [card_key(c) for c in discard] if deck == "actions" else [str(s) for s in discard]
    number = state.shuffled(deck) + 1
    given = [order for name, order in state.given_orders if name == deck]
    if given:
        order = list(given[0])
        if Counter(order) != Counter(keys):
            raise InputError(
                f"the given order of {deck} reshuffle {number} does not hold the discard pile"
                f" ({', '.join(sorted(keys))})",
                code="rattlesnake/bad-setup",
                params={"deck": deck, "number": number},
            )
    else:
        order = draws.stream(f"reshuffle-{number}/{deck}").shuffle(keys)
    run.emit(DeckReshuffled(deck, number), DeckShuffled(deck, number, tuple(order)))
    return True


def _draw_action(run: Run, player: str, draws: Draws) -> None:
    if not run.state.actions and not _reshuffle(run, "actions", draws):
        return  # both piles empty: nothing to draw
    n = _draws_this_turn(run.state, player) + 1
    run.emit(ActionDrawn(turn_number(run.state), player, n, card_key(run.state.actions[0])))


def _draw_shots(run: Run, player: str, count: int, draws: Draws) -> None:
    """Draw ``count`` shot cards; an empty deck is made again from its discard
    pile midway (the cards already drawn are a draw of their own)."""
    left = count
    while left:
        if not run.state.shot_deck and not _reshuffle(run, "shots", draws):
            return  # both piles empty: fewer cards
        taken = tuple(run.state.shot_deck[:left])
        number = _draws_this_turn(run.state, player) + 1
        run.emit(ShotsDrawn(turn_number(run.state), player, number, taken))
        left -= len(taken)


def _active(state: State) -> str:
    player = state.active
    assert player is not None
    return player


# step 3 --------------------------------------------------------------------------------------


def _in_free(state: State, player: str, what: str) -> None:
    if state.phase is not Phase.FREE:
        raise not_now(state, what)
    if player != state.active:
        raise _refuse(
            f"only {state.active}, whose turn it is, may do that now (R-12), not {player}",
            "not-your-turn",
            player=player,
            turn=state.active,
        )


def _holder_of(state: State, card: Card) -> str | None:
    for player in state.players:
        if card in state.permanents_of(player):
            return player
    return None


def _play_divers(run: Run, player: str, command: PlayDivers) -> None:
    state = run.state
    _in_free(state, player, "playing a carte divers")
    card = command.card
    if card not in DIVERS:
        raise _refuse(
            f"{card.label} is not a carte divers: only those are played at step 3",
            "not-divers",
            card=card.value,
        )
    if card not in state.hand_of(player):
        divers = [c.label for c in state.hand_of(player) if isinstance(c, Card) and c in DIVERS]
        raise _refuse(
            f"{player} holds no {card.label} (cartes divers in hand: {', '.join(divers) or 'none'})",
            "not-in-hand",
            card=card.value,
            hand=divers,
        )
    number = turn_number(state)
    if card in PERMANENTS:
        holder = find_player(state, command.target) if command.target else player
        run.emit(PermanentLaid(number, player, card, holder))
    elif card is Card.DYNAMITERO:
        targets = dynamite_targets(state.board, state.layout)
        where = _cell(state, command.target) if command.target else None
        if where not in targets:
            raise _refuse(
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
            raise _refuse(
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
    _check_threshold(run)


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


def _trade(run: Run, actor: str, command: Trade) -> None:
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
        raise _refuse(
            f"a trade is between {active}, whose turn it is, and one other player (R-12)",
            "bad-trade",
            seller=seller,
            buyer=buyer,
        )
    card = command.card
    if card not in DIVERS:
        raise _refuse(
            f"only cartes divers are sold, not {card.label} (R-12)", "bad-trade", card=card.value
        )
    if card not in state.hand_of(seller):
        raise _refuse(
            f"{seller} holds no {card.label} to sell", "not-in-hand", card=card.value, player=seller
        )
    price = command.price
    if price < 0 or price % 1000:
        raise _refuse(
            f"a price is a multiple of 1 000 $ (0 for a gift), not {price}",
            "bad-price",
            price=price,
        )
    if state.cash_of(buyer) < price:
        raise _refuse(
            f"{buyer} cannot pay {price} $ (R-12: the buyer must be able to pay)",
            "cannot-pay",
            price=price,
            player=buyer,
        )
    run.emit(CardSold(turn_number(state), seller, buyer, card, price))
    _check_threshold(run)


# step 4: the bank attack ---------------------------------------------------------------------


def banks_of(state: State) -> dict[str, str]:
    """Player → the bank cell in their town, for every player owning a town with a bank."""
    found: dict[str, str] = {}
    town_owner = owners(state.board, state.layout)
    for town, owner in town_owner.items():
        for name in state.board.town(town).cell_names:
            placed = state.layout.tiles.get(name)
            if placed is not None and placed.kind is Tile.BANQUE:
                found.setdefault(owner, name)
    return found


def fighter_of(state: State, player: str) -> fight.Fighter:
    return fight.Fighter(
        player,
        state.shots_of(player),
        tuple(c.label for c in state.permanents_of(player)),
    )


def _attack(run: Run, player: str, command: AttackBank, draws: Draws) -> None:
    state = run.state
    _in_free(state, player, "a bank attack")
    record = state.current
    assert record is not None
    if record.bank_done:
        raise _refuse("one bank attack per turn", "bank-done")
    target = find_player(state, command.target)
    banks = {p: b for p, b in banks_of(state).items() if p != player}
    if target not in banks:
        raise _refuse(
            f"{target} owns no town with a bank (who may be attacked: {', '.join(banks) or 'nobody'})",
            "no-bank",
            target=target,
            legal=list(banks),
        )
    if not fight.can_open(state.shots_of(player), [c.label for c in state.permanents_of(player)]):
        raise _refuse(
            "an attack opens with a shot: a shot card, or a permanent's free shot;"
            f" {player} has neither",
            "no-shot",
        )
    if not command.cards and command.free is None:
        combat = fight.start(
            fight.Kind.BANK, (fighter_of(state, player), fighter_of(state, target))
        )
        legal = fight.legal_shots(combat, player)
        raise _refuse(
            "an attack opens with a shot: « attaque "
            f"{target} 2 » (openings: {', '.join(' '.join(map(str, c)) or 'coup gratuit' for c in legal)})",
            "no-opening",
            target=target,
            legal=[" ".join(map(str, c)) for c in legal],
        )
    run.emit(BankAttacked(turn_number(state), player, target, banks[target]))
    _shoot(run, player, Shoot(player, command.cards, command.free), draws)


def _blow_due(state: State, player: str) -> fight.Combat:
    if state.phase is not Phase.BANK or state.combat is None:
        raise not_now(state, "a blow")
    combat = state.combat
    if combat.turn != player:
        raise _refuse(
            f"it is {combat.turn}'s blow, not {player}'s",
            "not-your-turn",
            player=player,
            turn=combat.turn,
        )
    return combat


def _shoot(run: Run, player: str, command: Shoot, draws: Draws) -> None:
    combat = _blow_due(run.state, player)
    free = command.free.label if command.free is not None else None
    after = fight.shoot(combat, player, command.cards, free=free)  # refuses an illegal blow
    run.emit(
        ShotFired(
            turn_number(run.state),
            player,
            tuple(command.cards),
            after.fighter(player).total,
            command.free,
        )
    )
    _after_blow(run, draws)


def _give_up(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    combat = _blow_due(run.state, player)
    fight.give_up(combat, player)  # refuses a give-up the rules do not allow
    run.emit(FighterPassed(turn_number(run.state), player, default))
    _after_blow(run, draws)


def _after_blow(run: Run, draws: Draws) -> None:
    combat = run.state.combat
    assert combat is not None
    if not combat.over:
        return
    state = run.state
    number = turn_number(state)
    winner = combat.winner
    assert winner is not None
    target = state.bank_target
    assert target is not None
    attacker = combat.opener
    run.emit(CombatEnded(number, winner, combat.gave_in))
    amount = seizure(combat, state.cash_of(target))
    if amount:
        run.emit(CashSeized(number, target, attacker, amount))
    if _check_threshold(run):
        return
    _draw_shots(run, target, OWNER_DRAWS, draws)


# step 4: the poker game (R-9, R-16, R-17) -----------------------------------------------------
#
# ``poker`` is the machine; here each decision becomes an event that ``evolve``
# replays through it (``poker_step``), followed by the money it moved
# (``PokerMoney``, one per transfer) and, once it is over, ``PokerEnded``.
# Forum rules (gm's): the joins close when the challenger says « cartes » or
# when a participant sends the first face-down card; the Goudron & Plumes
# window after a Tricheur waits for every player but the cheater (awaiting
# only a holder would tell the table who holds the card), each answering
# « Goudron & Plumes » or « pas de Goudron »; it closes when one plays it or
# all have declined.

_LABELS = {c.label: c for c in Card}


def poker_card(card: Action) -> int | str:
    """An action card as ``poker`` writes it: a game card's value, or a rules-page name."""
    return card if isinstance(card, int) else card.label


def action_of(card: int | str) -> Action:
    """``poker_card``'s inverse."""
    return card if isinstance(card, int) else _LABELS[card]


def poker_seats(state: State) -> tuple[pk.Seat, ...]:
    """Every player as ``poker`` sees them, in seating order."""
    return tuple(
        pk.Seat(
            p,
            state.cash_of(p),
            tuple(poker_card(c) for c in state.hand_of(p)),
            state.shots_of(p),
            tuple(c.label for c in state.permanents_of(p)),
        )
        for p in state.players
    )


def poker_step(poker: pk.Poker, event: Event) -> pk.Poker:
    """The poker game after ``event`` (a decision of the game in play); refuses an illegal one."""
    match event:
        case PokerEscaped():
            return pk.escape(poker, event.player)
        case PokerStayed():
            return pk.stay(poker, event.player)
        case ActionDrawn():
            return pk.forced_draw(poker, poker_card(card_of_key(event.card)))
        case PokerJoined():
            return pk.join(poker, event.player)
        case StakeLowered():
            return pk.lower(poker, event.player, event.stake)
        case JoinsClosed():
            return pk.close_joins(poker)
        case PokerCardChosen():
            return pk.choose(poker, event.player, event.card or None)
        case CheatPlayed():
            return pk.cheat(poker, event.player, event.target)
        case TarPlayed():
            return pk.tar(poker, event.player)
        case SwapStood():
            return pk.let_stand(poker)
        case CardTakenBack():
            return pk.take_back(poker, event.player, event.card)
        case ReactionPassed():
            return pk.no_reaction(poker, event.player)
        case PokerFightStarted():
            return pk.start_fight(poker, event.player)
        case PokerFightDeclined():
            return pk.decline(poker, event.player)
        case PokerFled():
            return pk.flee(poker, event.player)
        case PokerStood():
            return pk.stand(poker, event.player)
        case ShotFired():
            free = event.free.label if event.free is not None else None
            return pk.shoot(poker, event.player, event.cards, free)
        case FighterPassed():
            return pk.give_up(poker, event.player)
    return poker


def _poker_of(state: State, what: str) -> pk.Poker:
    if state.phase is not Phase.POKER or state.poker is None:
        raise not_now(state, what)
    return state.poker


def _poker_emit(run: Run, event: Event, draws: Draws) -> None:
    """One decision of the poker game: the event, the money it moved, what follows."""
    before = _poker_of(run.state, "a poker decision")
    poker_step(before, event)  # refuses an illegal decision before anything is recorded
    run.emit(event)
    _poker_follow(run, before, draws)


def _poker_follow(run: Run, before: pk.Poker, draws: Draws) -> None:
    state = run.state
    after = state.poker
    assert after is not None
    number = turn_number(state)
    for t in after.transfers[len(before.transfers) :]:
        run.emit(PokerMoney(number, t.source, t.target, t.amount, t.why.value))
    if after.revealed and not before.revealed:
        run.emit(PokerRevealed(number, tuple((n, after.seat(n).card or 0) for n in after.showing)))
    if after.stage is pk.Stage.DRAW:
        # no game card in hand: the challenged draws an action card and must play
        drawn = run.state.poker
        _draw_action(run, after.challenged, draws)
        assert run.state.poker is not None and drawn is not None
        if run.state.poker.stage is not pk.Stage.DRAW:
            _poker_follow(run, drawn, draws)
        return
    if after.stage is pk.Stage.DONE:
        run.emit(PokerEnded(number, after.taker))
        _check_threshold(run)


def _challenge(run: Run, player: str, command: Challenge, draws: Draws) -> None:
    state = run.state
    _in_free(state, player, "a poker game")
    record = state.current
    assert record is not None
    if record.poker_done:
        raise _refuse("one poker game per turn", "poker-done")
    target = find_player(state, command.target)
    poker = pk.challenge(poker_seats(state), player, target, command.stake)  # refuses
    run.emit(PokerChallenged(record.number, player, target, command.stake))
    _poker_follow(run, replace(poker, transfers=()), draws)


def _choose(
    run: Run, player: str, command: ChooseCard, draws: Draws, default: bool = False
) -> None:
    poker = _poker_of(run.state, "choosing a face-down card")
    number = turn_number(run.state)
    if poker.stage is pk.Stage.JOIN:
        # gm's forum rule: the first face-down card closes the joins
        pk.choose(pk.close_joins(poker), player, command.card)  # refuses before closing
        _poker_emit(run, JoinsClosed(number), draws)
    _poker_emit(run, PokerCardChosen(number, player, command.card or 0, default), draws)


def _tar_waits(state: State) -> tuple[str, ...]:
    """Who may still answer the Tricheur just played: every player but the cheater."""
    poker = state.poker
    if poker is None or poker.stage is not pk.Stage.TAR or poker.swap is None:
        return ()
    return tuple(p for p in poker.from_(poker.swap[0])[1:] if p not in state.tar_declined)


def _decline_tar(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    poker = _poker_of(state, "declining Goudron & Plumes")
    if poker.stage is not pk.Stage.TAR:
        raise PhaseError(
            f"no Tricheur to answer now (poker: {poker.stage})",
            code="rattlesnake/not-now",
            params={
                "what": "declining Goudron & Plumes",
                "stage": str(poker.stage),
                "awaiting": list(poker_awaiting(state)),
            },
        )
    waits = _tar_waits(state)
    if player not in waits:
        raise _refuse(
            f"{player} has nothing to answer now (awaited: {', '.join(waits)})",
            "not-your-turn",
            player=player,
            turn=", ".join(waits),
        )
    run.emit(TarDeclined(turn_number(state), player, default))
    if not _tar_waits(run.state):
        _poker_emit(run, SwapStood(turn_number(state)), draws)


def poker_awaiting(state: State) -> tuple[str, ...]:
    """Who the poker game waits for: the machine's answer, the challenger
    while the joins are open, every player but the cheater in the Goudron window."""
    poker = state.poker
    if poker is None:
        return ()
    if poker.stage is pk.Stage.JOIN:
        return (poker.challenger,)
    if poker.stage is pk.Stage.TAR:
        return _tar_waits(state)
    return pk.awaiting(poker)


def _poker_command(run: Run, player: str, command: Command, draws: Draws) -> None:
    """A decision of the poker game in play, as its event."""
    n = turn_number(run.state)
    match command:
        case Escape():
            _poker_emit(run, PokerEscaped(n, player), draws)
        case Stay():
            _poker_emit(run, PokerStayed(n, player), draws)
        case Join():
            _poker_emit(run, PokerJoined(n, player), draws)
        case Lower():
            _poker_emit(run, StakeLowered(n, player, command.stake), draws)
        case CloseJoins():
            poker = _poker_of(run.state, "closing the joins")
            if player != poker.challenger:
                raise _refuse(
                    f"only the challenger, {poker.challenger}, closes the joins",
                    "not-your-turn",
                    player=player,
                    turn=poker.challenger,
                )
            _poker_emit(run, JoinsClosed(n), draws)
        case ChooseCard():
            _choose(run, player, command, draws)
        case Cheat():
            target = find_player(run.state, command.target)
            _poker_emit(run, CheatPlayed(n, player, target), draws)
        case Tar():
            _poker_emit(run, TarPlayed(n, player), draws)
        case DeclineTar():
            _decline_tar(run, player, draws)
        case TakeBack():
            _poker_emit(run, CardTakenBack(n, player, command.card), draws)
        case NoReaction():
            _poker_emit(run, ReactionPassed(n, player), draws)
        case StartFight():
            _poker_emit(run, PokerFightStarted(n, player), draws)
        case DeclineFight():
            _poker_emit(run, PokerFightDeclined(n, player), draws)
        case Flee():
            _poker_emit(run, PokerFled(n, player), draws)
        case Stand():
            _poker_emit(run, PokerStood(n, player), draws)
        case Shoot():
            poker = _poker_of(run.state, "a blow")
            if poker.combat is not None and poker.stage is pk.Stage.COMBAT:
                after = pk.shoot(poker, player, command.cards, _free(command.free))
                total = _shooter_total(after, player)
            else:
                total = 0
            _poker_emit(run, ShotFired(n, player, tuple(command.cards), total, command.free), draws)
        case GiveUp():
            _poker_emit(run, FighterPassed(n, player), draws)


def _free(card: Card | None) -> str | None:
    return card.label if card is not None else None


def _shooter_total(poker: pk.Poker, player: str) -> int:
    """A shooter's total after a blow (the combat may be over, its fighters kept)."""
    if poker.combat is not None:
        return poker.combat.fighter(player).total
    return 0


def _poker_default(run: Run, player: str, draws: Draws) -> None:
    """A missed deadline in the poker game (gm's reading, ``poker.default``), for ``player``."""
    state = run.state
    poker = _poker_of(state, "a default")
    n = turn_number(state)
    match poker.stage:
        case pk.Stage.ESCAPE:
            _poker_emit(run, PokerStayed(n, player, default=True), draws)
        case pk.Stage.JOIN:
            _poker_emit(run, JoinsClosed(n, default=True), draws)
        case pk.Stage.CARDS:
            cards = pk.game_cards(poker.seat(player).hand)
            card = None if player == poker.challenged else cards[0]
            _choose(run, player, ChooseCard(player, card), draws, default=True)
        case pk.Stage.REACT:
            _poker_emit(run, ReactionPassed(n, player, default=True), draws)
        case pk.Stage.TAR:
            _decline_tar(run, player, draws, default=True)
        case pk.Stage.REVOLVER:
            _poker_emit(run, PokerFightDeclined(n, player, default=True), draws)
        case pk.Stage.FLIGHT:
            _poker_emit(run, PokerStood(n, player, default=True), draws)
        case pk.Stage.COMBAT:
            assert poker.combat is not None
            if fight.can_pass(poker.combat, player):
                _poker_emit(run, FighterPassed(n, player, default=True), draws)
            else:
                # the starter must open the combat they started: their smallest opening
                opening = fight.minimal_shots(poker.combat, player)[0]
                free = None
                if not opening:
                    free = next(
                        (
                            c
                            for c in state.permanents_of(player)
                            if c in (Card.IRONFIST, Card.SLIPPERY)
                        ),
                        None,
                    )
                _poker_command(run, player, Shoot(player, tuple(opening), free), draws)


# step 5 and the end -----------------------------------------------------------------------------


def _check_threshold(run: Run) -> bool:
    """R-18: a player whose cash reaches the threshold wins at once (several share)."""
    state = run.state
    limit = threshold(len(state.players))
    rich = tuple(p for p in state.players if state.cash_of(p) >= limit)
    if rich:
        run.emit(GameEnded(rich, "threshold"))
        return True
    return False


def _end_turn(run: Run, player: str, draws: Draws, default: bool = False) -> None:
    state = run.state
    _turn_of(state, player, Phase.FREE, "ending the turn")
    run.emit(TurnEnded(turn_number(state), player, state.income_of(player), default))
    if _check_threshold(run):
        return
    if not run.state.bag:  # the turn that drew the last tile is over
        cash = run.state.cash
        best = max(cash)
        run.emit(
            GameEnded(
                tuple(p for p, c in zip(run.state.players, cash, strict=True) if c == best),
                "last-tile",
            )
        )
        return
    _begin_turn(run, draws)


# defaults -------------------------------------------------------------------------------------


def default_for(state: State, player: str) -> Command:
    """What the rules apply for ``player``'s missing input: a place drawn by
    the fortune for a saloon or a tile, an action card at step 2, the end of
    the turn at steps 3-4, « passe » in a combat."""
    name = find_player(state, player)
    if state.phase is Phase.POKER:
        if name not in poker_awaiting(state):
            raise PhaseError(
                f"nothing is due from {name} now; next: {next_step(state)}",
                code="rattlesnake/nothing-due",
                params={"player": name},
            )
        return ApplyDefault(name)
    due = (
        state.combat.turn
        if state.phase is Phase.BANK and state.combat is not None
        else state.saloon_turn
        if state.phase is Phase.SALOONS
        else state.active
    )
    if state.phase in (Phase.SETUP, Phase.OVER) or name != due:
        raise PhaseError(
            f"nothing is due from {name} now; next: {next_step(state)}",
            code="rattlesnake/nothing-due",
            params={"player": name},
        )
    return ApplyDefault(name)


def _default(run: Run, actor: str, command: ApplyDefault, draws: Draws) -> None:
    state = run.state
    core_rules.require_gm(GAME, actor, command)
    default_for(state, command.player)  # refuses when nothing is due from them
    player = find_player(state, command.player)
    if state.phase is Phase.SALOONS:
        legal = legal_cells(state.board, state.layout, Tile.SALOON)
        cell = legal[draws.stream(f"saloon/{draw_name(state, player)}").below(len(legal))]
        run.emit(SaloonPlaced(player, cell, default=True))
        if run.state.order:
            _begin_turn(run, draws)
    elif state.phase is Phase.TILE:
        record = state.current
        assert record is not None
        cell = record.legal[
            draws.stream(f"turn-{record.number}/default-tile").below(len(record.legal))
        ]
        run.emit(TilePlaced(record.number, player, record.tile, cell, default=True))
    elif state.phase is Phase.DRAW:
        _draw(run, player, "action", draws, default=True)
    elif state.phase is Phase.FREE:
        _end_turn(run, player, draws, default=True)
    elif state.phase is Phase.POKER:
        _poker_default(run, player, draws)
    else:
        _give_up(run, player, draws, default=True)


# --- evolve --------------------------------------------------------------------------------


def _track(state: State) -> State:
    track = income_track(state.board, state.layout, state.players, state.permanents_map())
    return state.but(income=tuple(track[p] for p in state.players))


def _add_cash(state: State, player: str, amount: int) -> State:
    return state.with_seat("cash", player, state.cash_of(player) + amount)


def _without(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _without_all(items: tuple[Any, ...], gone: Iterable[Any]) -> tuple[Any, ...]:
    for item in gone:
        items = _without(items, item)
    return items


def evolve(state: State, event: Event) -> State:
    """Apply one event to the state."""
    match event:
        case GameSetUp():
            return state.but(phase=Phase.SALOONS, first=event.first)
        case BagFilled():
            return state.but(bag=tuple(event.tiles))
        case DeckShuffled():
            if event.deck == "actions":
                return state.but(actions=cards_of_keys(event.cards), action_discard=())
            return state.but(shot_deck=tuple(int(c) for c in event.cards), shot_discard=())
        case DeckReshuffled():
            counts = dict(state.shuffles)
            counts[event.deck] = event.number
            given = list(state.given_orders)
            for i, (deck, _) in enumerate(given):
                if deck == event.deck:
                    del given[i]
                    break
            return state.but(shuffles=tuple(counts.items()), given_orders=tuple(given))
        case OrdersGiven():
            return state.but(given_orders=tuple(event.orders))
        case HandDealt():
            return state.with_seat("hands", event.player, cards_of_keys(event.cards))
        case SaloonPlaced():
            layout = state.layout.place(
                event.cell, Placed(Tile.SALOON, event.player, state.layout.next_seq)
            )
            after = _track(state.but(layout=layout))
            if all(after.town_of_player(p) is not None for p in after.players):
                after = after.but(order=play_order(after))
            return after
        case TileDrawn():
            record = TurnRecord(event.turn, event.player, event.tile, event.legal)
            return state.but(phase=Phase.TILE, bag=state.bag[1:], history=(*state.history, record))
        case TilePlaced():
            layout = state.layout.place(
                event.cell, Placed(event.tile, event.player, state.layout.next_seq)
            )
            after = _track(state.but(layout=layout, phase=Phase.DRAW))
            return after.with_record(cell=event.cell).with_move(
                "tile",
                player=event.player,
                tile=event.tile.value,
                cell=event.cell,
                default=event.default,
            )
        case TileRemoved():
            return state.but(phase=Phase.DRAW, removed=(*state.removed, event.tile)).with_move(
                "removed", tile=event.tile.value
            )
        case DrawChosen():
            return (
                state.but(phase=Phase.FREE)
                .with_record(drew=event.what)
                .with_move("draw", player=event.player, kind=event.what, default=event.default)
            )
        case ActionDrawn():
            card = card_of_key(event.card)
            after = state.but(actions=state.actions[1:])
            after = after.with_seat("hands", event.player, (*state.hand_of(event.player), card))
            if state.poker is not None and state.poker.stage is pk.Stage.DRAW:
                after = after.but(poker=poker_step(state.poker, event))
            return after.with_move("drawn", player=event.player, count=1)
        case ShotsDrawn():
            after = state.but(shot_deck=state.shot_deck[len(event.cards) :])
            after = after.with_seat(
                "shots", event.player, (*state.shots_of(event.player), *event.cards)
            )
            return after.with_move("drawn", player=event.player, count=len(event.cards))
        case PermanentLaid():
            after = state.with_seat(
                "hands", event.player, _without(state.hand_of(event.player), event.card)
            )
            after = after.with_seat(
                "permanents", event.holder, (*after.permanents_of(event.holder), event.card)
            )
            return _track(after).with_move(
                "permanent", player=event.player, card=event.card.value, holder=event.holder
            )
        case SingleUsePlayed():
            after = state.with_seat(
                "hands", event.player, _without(state.hand_of(event.player), event.card)
            )
            return after.but(action_discard=(*after.action_discard, event.card)).with_move(
                "single", player=event.player, card=event.card.value, target=event.target
            )
        case TileDestroyed():
            after = state.but(
                layout=state.layout.remove(event.cell), removed=(*state.removed, event.tile)
            )
            return _track(after).with_move("destroyed", cell=event.cell, tile=event.tile.value)
        case PermanentDiscarded():
            after = state.with_seat(
                "permanents", event.holder, _without(state.permanents_of(event.holder), event.card)
            )
            after = after.but(action_discard=(*after.action_discard, event.card))
            return _track(after).with_move(
                "discarded", card=event.card.value, holder=event.holder, why=event.why
            )
        case BountyCollected():
            return _add_cash(state, event.player, event.amount).with_move(
                "bounty", player=event.player, amount=event.amount
            )
        case CardSold():
            after = state.with_seat(
                "hands", event.seller, _without(state.hand_of(event.seller), event.card)
            )
            after = after.with_seat("hands", event.buyer, (*after.hand_of(event.buyer), event.card))
            after = _add_cash(
                _add_cash(after, event.buyer, -event.price), event.seller, event.price
            )
            return after.with_move(
                "trade",
                seller=event.seller,
                buyer=event.buyer,
                card=event.card.value,
                price=event.price,
            )
        case BankAttacked():
            combat = fight.start(
                fight.Kind.BANK,
                (fighter_of(state, event.attacker), fighter_of(state, event.target)),
            )
            after = state.but(phase=Phase.BANK, combat=combat, bank_target=event.target)
            return after.with_record(bank_done=True).with_move(
                "bank", player=event.attacker, target=event.target, bank=event.bank
            )
        case ShotFired() if state.phase is Phase.POKER:
            assert state.poker is not None
            after = _poker_evolved(state, event)
            after = after.with_seat(
                "shots", event.player, _without_all(state.shots_of(event.player), event.cards)
            )
            after = after.but(shot_discard=(*after.shot_discard, *event.cards))
            return after.with_move(
                "blow",
                player=event.player,
                cards=list(event.cards),
                total=event.total,
                free=event.free.value if event.free else None,
            )
        case FighterPassed() if state.phase is Phase.POKER:
            return _poker_evolved(state, event).with_move(
                "passed", player=event.player, default=event.default
            )
        case ShotFired():
            assert state.combat is not None
            free = event.free.label if event.free is not None else None
            combat = fight.shoot(state.combat, event.player, event.cards, free=free)
            after = state.with_seat(
                "shots", event.player, _without_all(state.shots_of(event.player), event.cards)
            )
            after = after.but(combat=combat, shot_discard=(*after.shot_discard, *event.cards))
            return after.with_move(
                "blow",
                player=event.player,
                cards=list(event.cards),
                total=event.total,
                free=event.free.value if event.free else None,
            )
        case FighterPassed():
            assert state.combat is not None
            combat = fight.give_up(state.combat, event.player)
            return state.but(combat=combat).with_move(
                "passed", player=event.player, default=event.default
            )
        case CombatEnded():
            return state.but(phase=Phase.FREE, combat=None, bank_target=None).with_move(
                "combat-won", winner=event.winner, gave_in=event.gave_in
            )
        case CashSeized():
            after = _add_cash(_add_cash(state, event.source, -event.amount), event.to, event.amount)
            return after.with_move("seized", source=event.source, to=event.to, amount=event.amount)
        case TurnEnded():
            after = _add_cash(state, event.player, event.income)
            after = after.with_record(income=event.income, ended=True)
            return after.with_move(
                "income", player=event.player, amount=event.income, default=event.default
            )
        case GameEnded():
            after = state.but(
                phase=Phase.OVER, winners=event.winners, won_by=event.why, combat=None
            )
            return (
                after.with_move("won", winners=list(event.winners), why=event.why)
                if after.history
                else after
            )
        case PokerChallenged():
            poker = pk.challenge(
                poker_seats(state), event.challenger, event.challenged, event.stake
            )
            after = state.but(phase=Phase.POKER, poker=poker, tar_declined=())
            return after.with_record(poker_done=True).with_move(
                "challenge",
                player=event.challenger,
                target=event.challenged,
                stake=event.stake,
            )
        case PokerMoney():
            after = state
            if event.source is not None:
                after = _add_cash(after, event.source, -event.amount)
            if event.target is not None:
                after = _add_cash(after, event.target, event.amount)
            return after.with_move(
                "money",
                source=event.source,
                target=event.target,
                amount=event.amount,
                why=event.why,
                pot=state.poker.pot if state.poker is not None else 0,
            )
        case PokerRevealed():
            return state.with_move("revealed", cards=[list(c) for c in event.cards])
        case TarDeclined():
            return state.but(tar_declined=(*state.tar_declined, event.player)).with_move(
                "tar-declined", player=event.player, default=event.default
            )
        case PokerEnded():
            ended = state.poker
            assert ended is not None
            discards = tuple(action_of(c) for c in ended.discards)
            after = state.but(
                phase=Phase.FREE,
                poker=None,
                tar_declined=(),
                action_discard=(*state.action_discard, *discards),
            )
            return after.with_move(
                "poker-ended",
                taker=event.taker,
                unseen=ended.unseen is not None,
                escaped=ended.escaped,
            )
        case (
            PokerEscaped()
            | PokerStayed()
            | PokerJoined()
            | StakeLowered()
            | JoinsClosed()
            | PokerCardChosen()
            | CheatPlayed()
            | TarPlayed()
            | SwapStood()
            | CardTakenBack()
            | ReactionPassed()
            | PokerFightStarted()
            | PokerFightDeclined()
            | PokerFled()
            | PokerStood()
        ):
            what, data = _poker_move(event)
            return _poker_evolved(state, event).with_move(what, **data)
    raise TypeError(f"not a rattlesnake event: {event!r}")


_POKER_MOVES: dict[type[Event], str] = {
    PokerEscaped: "escaped",
    PokerStayed: "stayed",
    PokerJoined: "joined",
    StakeLowered: "lowered",
    JoinsClosed: "joins-closed",
    PokerCardChosen: "chose",
    CheatPlayed: "cheat",
    TarPlayed: "tar",
    SwapStood: "swap-stood",
    CardTakenBack: "took-back",
    ReactionPassed: "no-reaction",
    PokerFightStarted: "fight",
    PokerFightDeclined: "no-fight",
    PokerFled: "fled",
    PokerStood: "stood",
}
"""The move each poker decision records, for the posts."""


def _poker_move(event: Event) -> tuple[str, dict[str, Any]]:
    """A poker decision as a public move: its fields but the turn, never a face-down card."""
    data = {
        k: v
        for k, v in vars(event).items()
        if k != "turn" and not (isinstance(event, PokerCardChosen) and k == "card")
    }
    if isinstance(event, PokerCardChosen) and not event.card:
        # only the challenged plays none, last: the reveal follows at once
        data["none"] = True
    return _POKER_MOVES[type(event)], data


def _poker_evolved(state: State, event: Event) -> State:
    """The state after a decision of the poker game: the game, and the hands it changed."""
    assert state.poker is not None
    poker = poker_step(state.poker, event)
    hands = tuple(tuple(action_of(c) for c in poker.seat(p).hand) for p in state.players)
    after = state.but(poker=poker, hands=hands)
    if isinstance(event, TarPlayed | SwapStood):
        after = after.but(tar_declined=())
    return after
