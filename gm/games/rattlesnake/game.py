"""Rattlesnake City as the platform sees it: ``GAME``, its typed definition.

This module only wires the rules to the platform: what the game waits for,
which posts a command calls for and which secrets each post seals and
opens, the inputs accepted now (``legal_inputs``) and scenario files. The
rules live in ``rules``, ``combat``, ``income``, ``tiles`` and ``board``,
the reading of messages in ``notation``, what posts may show in ``views``.

Posts, with their coordinates: ``opening`` (``gm new``), ``setup`` (``gm
setup``: the first player; the seals of the bag's and the decks' orders),
``saloon`` (seat: each saloon placed), ``turn`` (turn: the tile drawn and
where it may go, with the income each place gives), ``move`` (turn, move:
what one command did in that turn, from that move on) and ``final`` (the
fortunes, every secret disclosed). ``rules`` is posted on demand.

Scenario files (``docs/scenarios.md``, rattlesnake): ``[setup]`` becomes
``gm setup`` with what it gives (the fortune draws the rest), the saloons
the players' messages in seating order from the first, and each
``[[turns]]`` entry its player's messages in the order of a turn: the tile,
the draw, the ``divers``, the bank attack and its blows, then « fin ».
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

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

from . import combat as fight
from . import commands, events, notation, picture, rules, views
from . import poker as pk
from .cards import DIVERS, Card
from .events import (
    GameEnded,
    GameSetUp,
    SaloonPlaced,
    TileDrawn,
)
from .manifest import INFO
from .model import Move, Phase, State
from .tiles import Tile, legal_cells

_TOP_KEYS = ("setup", "turns")
_SETUP_KEYS = ("first", "saloons", "hands", "bag", "actions", "shots")
_TURN_KEYS = ("player", "tile", "draw", "divers", "bank", "poker_first", "poker")


# --- what the game waits for ---------------------------------------------------------------


def awaiting(state: State) -> tuple[Awaited, ...]:
    if state.phase is Phase.SALOONS and state.saloon_turn is not None:
        return (Awaited(state.saloon_turn, "public", "their saloon"),)
    if state.phase is Phase.BANK and state.combat is not None and state.combat.turn:
        return (Awaited(state.combat.turn, "public", "a blow of the bank attack"),)
    if state.phase is Phase.POKER and state.poker is not None:
        stage = state.poker.stage
        how: Literal["private", "public"] = "private" if stage is pk.Stage.CARDS else "public"
        return tuple(Awaited(p, how, _POKER_AWAITED[stage]) for p in rules.poker_awaiting(state))
    what = {Phase.TILE: "step 1: the tile", Phase.DRAW: "step 2: the draw", Phase.FREE: "steps 3-5"}
    if state.phase in what and state.active is not None:
        return (Awaited(state.active, "public", what[state.phase]),)
    return ()


_POKER_AWAITED = {
    pk.Stage.ESCAPE: "the poker challenge: Coyote or stay",
    pk.Stage.JOIN: "the joins: « cartes » or their face-down card",
    pk.Stage.CARDS: "a face-down poker card",
    pk.Stage.REACT: "a poker reaction",
    pk.Stage.TAR: "Goudron & Plumes or not",
    pk.Stage.REVOLVER: "the revolver: a combat or not",
    pk.Stage.FLIGHT: "flee or stand",
    pk.Stage.COMBAT: "a blow of the poker combat",
}


# --- posts ---------------------------------------------------------------------------------


def posts_after(before: State, events: Sequence[Event], after: State) -> tuple[PostRef, ...]:
    posts: list[PostRef] = []
    in_turn = before.current is not None and not before.current.ended
    if in_turn and any(not isinstance(e, TileDrawn | GameEnded) for e in events):
        record = before.current
        assert record is not None
        posts.append(PostRef("move", (record.number, len(record.moves) + 1)))
    for event in events:
        if isinstance(event, GameSetUp):
            posts.append(PostRef("setup"))
        elif isinstance(event, SaloonPlaced):
            placed = sum(1 for p in after.layout.tiles.values() if p.kind is Tile.SALOON)
            count = sum(1 for e in events if isinstance(e, SaloonPlaced))
            posts.append(PostRef("saloon", (placed - count + 1,)))
        elif isinstance(event, TileDrawn):
            posts.append(PostRef("turn", (event.turn,)))
    if after.phase is Phase.OVER and before.phase is not Phase.OVER:
        posts.append(PostRef("final"))
    return tuple(dict.fromkeys(posts))


def latest_post(state: State) -> PostRef:
    if state.phase is Phase.OVER:
        return PostRef("final")
    if state.phase is Phase.SETUP:
        return PostRef("opening")
    record = state.current
    if record is None:
        saloons = sum(1 for p in state.layout.tiles.values() if p.kind is Tile.SALOON)
        return PostRef("saloon", (saloons,)) if saloons else PostRef("setup")
    return PostRef("turn", (record.number,))


def shown(state: State, post: PostRef) -> Shown:
    """The setup post seals the bag's and the decks' orders and every hand; a
    turn or move post seals what that turn drew and any deck made again; the
    final post discloses everything."""
    if post.kind == "setup":
        keys: list[tuple[str | int, ...]] = [("bag",), ("deck", "actions", 0), ("deck", "shots", 0)]
        keys += [("hand", p) for p in state.players]
        keys.append(("orders",))
        return Shown(sealed=tuple(keys))
    if post.kind == "final":
        return Shown(disclose_all=True)
    if post.kind in ("turn", "move") and post.at and 0 < post.at[0] <= len(state.history):
        number = post.at[0]
        sealed: list[tuple[str | int, ...]] = []
        for player in state.players:
            for n in range(1, 6):
                sealed += [("action", number, player, n), ("shots", number, player, n)]
        for deck in ("actions", "shots"):
            for n in range(1, state.shuffled(deck) + 1):
                sealed.append(("deck", deck, n))
        # a move post shows its own moves only: the seals of the cards chosen
        # there, and the cards turned over there
        first = post.at[1] if post.kind == "move" and len(post.at) > 1 else 1
        moves = state.history[number - 1].moves[first - 1 :]
        opened = _poker_opened(number, moves)
        chose = [m.get("player") for m in moves if m.what == "chose"]
        sealed += [("poker", number, p) for p in chose if ("poker", number, p) not in opened]
        return Shown(sealed=tuple(sealed), opened=tuple(opened))
    return NOTHING_SHOWN


def _poker_opened(number: int, moves: Sequence[Move]) -> list[tuple[str | int, ...]]:
    """The face-down cards of turn ``number``'s poker game turned over: those
    revealed, and a challenged's « none » (public at once, R-16). A lone
    opponent's card discarded unseen stays sealed (the final post discloses it)."""
    opened: list[tuple[str | int, ...]] = []
    for move in moves:
        if move.what == "revealed":
            opened += [("poker", number, p) for p, _ in move.get("cards")]
        elif move.what == "chose" and move.get("none"):
            opened.append(("poker", number, move.get("player")))
    return opened


# --- legal inputs ---------------------------------------------------------------------------


def legal_inputs(state: State, table: Table | None = None) -> tuple[ScenarioStep, ...]:
    """Every message and step the rules accept now, as players write them:
    players by their names at ``table``."""
    name = table_for(table, state.players).name
    here = rules.phase_key(state)
    out: list[ScenarioStep] = []

    def say(player: str, text: str) -> None:
        out.append(ScenarioStep(where=here, actor=name(player), text=text))

    def default(player: str) -> None:
        out.append(ScenarioStep(where=here, step="default", values={"player": name(player)}))

    if state.phase is Phase.OVER:
        return ()
    if state.phase is Phase.SETUP:
        return (ScenarioStep(where=here, step="setup"),)
    if state.phase is Phase.SALOONS:
        player = state.saloon_turn
        assert player is not None
        for cell in legal_cells(state.board, state.layout, Tile.SALOON)[:6]:
            say(player, f"saloon en {cell}")
        default(player)
        return tuple(out)
    if state.phase is Phase.BANK and state.combat is not None:
        who = state.combat.turn
        assert who is not None
        for cards in fight.legal_shots(state.combat, who)[:3]:
            say(who, " ".join(map(str, cards)) if cards else _free_word(state, who))
        if fight.can_pass(state.combat, who):
            say(who, "passe")
        default(who)
        return tuple(out)
    if state.phase is Phase.POKER and state.poker is not None:
        for who, said in _poker_inputs(state, state.poker, name):
            say(who, said)
        for who in rules.poker_awaiting(state):
            default(who)
        return tuple(out)
    record = state.current
    assert record is not None
    player = record.player
    if state.phase is Phase.TILE:
        for cell in record.legal[:6]:
            say(player, f"{record.tile.label} en {cell}")
    elif state.phase is Phase.DRAW:
        say(player, "action")
        say(player, "coups")
    elif state.phase is Phase.FREE:
        say(player, "fin")
        hand = state.hand_of(player)
        for card in dict.fromkeys(c for c in hand if isinstance(c, Card) and c in DIVERS):
            text = _divers_text(state, player, card, name)
            if text:
                say(player, text)
        if not record.bank_done:
            for target in rules.banks_of(state):
                if target != player and fight.can_open(
                    state.shots_of(player), [c.label for c in state.permanents_of(player)]
                ):
                    combat = fight.start(
                        fight.Kind.BANK,
                        (rules.fighter_of(state, player), rules.fighter_of(state, target)),
                    )
                    opening = fight.legal_shots(combat, player)[0]
                    say(
                        player,
                        f"attaque {name(target)} "
                        + (" ".join(map(str, opening)) if opening else _free_word(state, player)),
                    )
        others = [p for p in state.players if p != player]
        for card in dict.fromkeys(c for c in hand if isinstance(c, Card) and c in DIVERS):
            say(player, f"vend {card.label} à {name(others[0])} pour 0")
        if not record.poker_done and any(isinstance(c, int) for c in hand):
            stake = min(state.cash_of(player) // 1000 * 1000, 3000)
            if stake:
                for target in others[:2]:
                    say(player, f"poker {name(target)} {stake}")
    default(player)
    return tuple(out)


def _poker_inputs(
    state: State, poker: pk.Poker, name: Callable[[str], str]
) -> list[tuple[str, str]]:
    """Messages for the poker game's legal actions (``poker.legal_actions``),
    as players write them (others by ``name``), with the seat of each."""
    out: list[tuple[str, str]] = []
    chosen: dict[str, int] = {}
    for action in pk.legal_actions(poker):
        who, arg = action.player, action.arg
        match action.verb:
            case pk.Verb.ESCAPE:
                out.append((who or "", "Coyote"))
            case pk.Verb.STAY:
                out.append((who or "", "je reste"))
            case pk.Verb.JOIN:
                out.append((who or "", "je suis"))
            case pk.Verb.LOWER:
                out.append((who or "", f"je baisse à {arg}"))
            case pk.Verb.CLOSE:
                out.append((poker.challenger, "cartes"))
            case pk.Verb.CHOOSE:
                chosen[who or ""] = chosen.get(who or "", 0) + 1
                if chosen[who or ""] <= 3:
                    out.append((who or "", "aucune" if arg is None else f"le {arg}"))
            case pk.Verb.CHEAT:
                out.append((who or "", f"Tricheur avec {name(str(arg))}"))
            case pk.Verb.TAR:
                out.append((who or "", "Goudron & Plumes"))
            case pk.Verb.LET_STAND:
                out += [(p, "pas de Goudron") for p in rules.poker_awaiting(state)]
            case pk.Verb.TAKE_BACK:
                out.append((who or "", f"Joueur professionnel {arg}"))
            case pk.Verb.NO_REACTION:
                out.append((who or "", "pas de réaction"))
            case pk.Verb.FIGHT:
                out.append((who or "", "revolver"))
            case pk.Verb.DECLINE:
                out.append((who or "", "pas de combat"))
            case pk.Verb.FLEE:
                out.append((who or "", "je fuis"))
            case pk.Verb.STAND:
                out.append((who or "", "je reste"))
            case pk.Verb.SHOOT:
                assert isinstance(arg, tuple)
                if len([t for t in out if t[0] == who]) < 3:
                    out.append((who or "", " ".join(map(str, arg)) or _free_word(state, who or "")))
            case pk.Verb.GIVE_UP:
                out.append((who or "", "passe"))
    return out


def _free_word(state: State, player: str) -> str:
    cards = [c for c in state.permanents_of(player) if c in (Card.IRONFIST, Card.SLIPPERY)]
    return cards[0].label if cards else "passe"


def _divers_text(state: State, player: str, card: Card, name: Callable[[str], str]) -> str | None:
    from .cards import JOES, PERMANENTS
    from .tiles import dynamite_targets

    if card in PERMANENTS:
        others = [p for p in state.players if p != player]
        return f"{card.label} devant {name(others[-1])}"
    if card is Card.DYNAMITERO:
        targets = dynamite_targets(state.board, state.layout)
        return f"{card.label} sur {targets[0]}" if targets else None
    wanted = JOES if card is Card.CHASSEUR else PERMANENTS
    laid = [c for p in state.players for c in state.permanents_of(p) if c in wanted]
    return f"{card.label} sur {laid[0].label}" if laid else None


# --- scenario files -------------------------------------------------------------------------


def _text(where: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _bad(where, f"{key!r} must be a string", key)
    return value


def scenario_steps(document: Mapping[str, Any], table: Table | None = None) -> list[ScenarioStep]:
    """The steps of a scenario file (``docs/scenarios.md``, rattlesnake part),
    for the table of the file's players: a blow or a reaction « NOM TEXTE »
    starts with a name of any number of words (« Calamity Jane tire 2 »)."""
    names = () if table is None else tuple((n, n) for n in table.names.values())
    check_top_keys("rattlesnake", document, _TOP_KEYS)
    setup = document.get("setup", {})
    if not isinstance(setup, Mapping):
        raise _bad("setup", "[setup] must be a table", "setup")
    check_entry_keys("setup", setup, _SETUP_KEYS)
    values: dict[str, Any] = {}
    if "first" in setup:
        values["first"] = _text("setup", "first", setup["first"])
    hands = setup.get("hands")
    if hands is not None:
        if not isinstance(hands, Mapping) or not all(isinstance(v, str) for v in hands.values()):
            raise _bad("setup", 'hands must be a table of player = "card, card, …"', "hands")
        values["hand"] = tuple(f"{p}={cards}" for p, cards in hands.items())
    if "bag" in setup:
        values["bag"] = _text("setup", "bag", setup["bag"])
    reshuffles: list[str] = []
    for deck, key in (("actions", "actions"), ("shots", "shots")):
        given = setup.get(key)
        if given is None:
            continue
        orders = [given] if isinstance(given, str) else given
        if not isinstance(orders, list) or not all(isinstance(o, str) for o in orders):
            raise _bad("setup", f"{key!r} must be a string, or a list of strings", key)
        if orders:
            values[key] = orders[0]
            reshuffles += [f"{deck}={o}" for o in orders[1:]]
    if reshuffles:
        values["reshuffle"] = tuple(reshuffles)
    steps = [ScenarioStep(where="setup", step="setup", values=values)]
    saloons = setup.get("saloons", {})
    if not isinstance(saloons, Mapping) or not all(isinstance(v, str) for v in saloons.values()):
        raise _bad("setup", 'saloons must be a table of player = "B1"', "saloons")
    # the saloons go down in seating order from the first player: the rules check who
    steps += _saloon_steps(saloons)
    turns = document.get("turns", [])
    if not isinstance(turns, list) or not all(isinstance(t, Mapping) for t in turns):
        raise _bad("turns", "'turns' must be an array of tables ([[turns]])", "turns")
    for number, entry in enumerate(turns, start=1):
        steps.extend(_turn_steps(number, entry, names))
    return steps


def _saloon_steps(saloons: Mapping[str, str]) -> list[ScenarioStep]:
    """One step per saloon; each is fed when its player's turn comes (any file order)."""

    def due(player: str) -> Any:
        return lambda state: (
            state.phase is Phase.SALOONS
            and find_name((state.saloon_turn or "",), player) is not None
        )

    steps = []
    # Fed several times over, each only when due: the file may list them in any order.
    for _ in range(len(saloons)):
        for player, cell in saloons.items():
            steps.append(
                ScenarioStep(where=f"saloon ({player})", actor=player, text=cell, when=due(player))
            )
    return steps


def _named(text: str, names: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """``"Calamity Jane tire 2"`` → (``Calamity Jane``, ``tire 2``): the
    longest of the players' ``names`` the entry starts with (read as a message
    reads them: ``notation.tokens``), else its first word."""
    found = leading(text, names, notation.tokens)
    if found is not None:
        return found
    name, _, rest = text.strip().partition(" ")
    return name, rest.strip()


def _turn_steps(
    number: int, entry: Mapping[str, Any], names: Sequence[tuple[str, str]]
) -> list[ScenarioStep]:
    where = f"turn {number}"
    check_entry_keys(where, entry, _TURN_KEYS)
    named = _text(where, "player", entry["player"]) if "player" in entry else None
    steps: list[ScenarioStep] = []

    def active(state: State) -> str:
        """The player whose turn it is; the file's ``player``, if given, must be them."""
        if state.phase is Phase.OVER:
            raise _bad(where, "the game is over (R-18): nothing more can be played", "turns")
        player = state.active or ""
        if named is not None and find_name((player,), named) is None:
            raise _bad(where, f"it is {player}'s turn, not {named}'s", "player")
        return player

    def say(label: str, text: str, actor: str | None = None) -> None:
        if actor is not None:
            steps.append(ScenarioStep(where=f"{where}, {label}", actor=actor, text=text))
        else:
            steps.append(ScenarioStep(where=f"{where}, {label}", text=text, actor_of=active))

    if "tile" in entry:
        say("tile", _text(where, "tile", entry["tile"]))
    draw = entry.get("draw")
    if draw is not None:
        say("draw", _text(where, "draw", draw))
    divers = entry.get("divers", [])
    if not isinstance(divers, list) or not all(isinstance(d, str) for d in divers):
        raise _bad(where, "'divers' must be a list of strings", "divers")
    for i, text in enumerate(divers, start=1):
        say(f"divers {i}", text)
    poker_first = entry.get("poker_first", False)
    if not isinstance(poker_first, bool):
        raise _bad(where, "'poker_first' must be true or false", "poker_first")
    if poker_first:
        steps += _poker_steps(where, entry.get("poker"), active, names)
    bank = entry.get("bank")
    if bank is not None:
        if not isinstance(bank, Mapping) or "target" not in bank:
            raise _bad(where, 'bank = { target = "bob", combat = ["ana 2", "bob passe"] }', "bank")
        check_entry_keys(f"{where}, bank", bank, ("target", "combat"))
        blows = bank.get("combat", [])
        if not isinstance(blows, list) or not all(isinstance(b, str) for b in blows) or not blows:
            raise _bad(
                where,
                'bank.combat must be a list of "name shots" strings, the opening first',
                "bank",
            )
        opening = _named(blows[0], names)[1]
        say("bank", f"attaque {_text(where, 'bank.target', bank['target'])} {opening}")
        for i, blow in enumerate(blows[1:], start=2):
            name, rest = _named(blow, names)
            say(f"blow {i}", rest or "passe", actor=name)
    if not poker_first:
        steps += _poker_steps(where, entry.get("poker"), active, names)

    def not_won(state: State) -> bool:
        """A win in this very turn (R-18) leaves no « fin » to say: its income is not
        collected; after a game that ended earlier, ``active`` refuses the turn."""
        record = state.current
        return not (state.phase is Phase.OVER and record is not None and record.number == number)

    steps.append(ScenarioStep(where=f"{where}, end", text="fin", actor_of=active, when=not_won))
    return steps


_POKER_KEYS = (
    "challenged", "stake", "coyote", "joiners", "lower", "cards", "reactions", "revolver",
    "flee", "combat",
)  # fmt: skip


def _strings(where: str, key: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(where, f"poker.{key} must be a list of strings", key)
    return value


def _poker_steps(
    where: str, poker: Any, active: Any, names: Sequence[tuple[str, str]] = ()
) -> list[ScenarioStep]:
    """A ``[turns.poker]`` table as the players' messages, in the order of the game.

    Who the file leaves out answers as the rules read silence: a participant
    not in ``reactions`` lets their turn go by, nobody listed answers a
    Tricheur with Goudron & Plumes, a revolver loser not named in
    ``revolver`` starts no combat, a player not in ``flee`` stays.
    """
    if poker is None:
        return []
    if not isinstance(poker, Mapping):
        raise _bad(where, "[turns.poker] must be a table", "poker")
    here = f"{where}, poker"
    check_entry_keys(here, poker, _POKER_KEYS)
    if "challenged" not in poker or "stake" not in poker:
        raise _bad(here, "a poker game names 'challenged' and 'stake'", "poker")
    challenged = _text(here, "challenged", poker["challenged"])
    stake = poker["stake"]
    if isinstance(stake, bool) or not isinstance(stake, int | str):
        raise _bad(here, "'stake' is an amount (6000 or \"6 000 $\")", "stake")
    steps: list[ScenarioStep] = []

    def say(label: str, actor: str, text: str, when: Any = None) -> None:
        steps.append(ScenarioStep(where=f"{here}, {label}", actor=actor, text=text, when=when))

    steps.append(
        ScenarioStep(
            where=f"{here}, challenge", text=f"poker {challenged} {stake}", actor_of=active
        )
    )
    coyote = poker.get("coyote", False)
    if not isinstance(coyote, bool):
        raise _bad(here, "'coyote' must be true or false", "coyote")
    say("coyote" if coyote else "stay", challenged, "Coyote" if coyote else "je reste")
    if "lower" in poker:
        lowered = poker["lower"]
        if isinstance(lowered, bool) or not isinstance(lowered, int | str):
            raise _bad(here, "'lower' is an amount", "lower")
        steps.append(
            ScenarioStep(where=f"{here}, lower", text=f"je baisse à {lowered}", actor_of=active)
        )
    for joiner in _strings(here, "joiners", poker.get("joiners", [])):
        say(f"join ({joiner})", joiner, "je suis")
    steps.append(
        ScenarioStep(
            where=f"{here}, cartes", text="cartes", actor_of=active, when=_stage(pk.Stage.JOIN)
        )
    )
    cards = poker.get("cards", {})
    if not isinstance(cards, Mapping) or not all(isinstance(v, str) for v in cards.values()):
        raise _bad(here, 'poker.cards must be a table of player = "17"', "cards")
    last = [p for p in cards if find_name((p,), challenged) is not None]
    for player, text in cards.items():
        if not last or player != last[0]:
            say(f"card ({player})", player, text)
    if last:
        say(f"card ({last[0]})", last[0], cards[last[0]])
    elif not coyote:
        say(f"card ({challenged})", challenged, "aucune", when=_stage(pk.Stage.CARDS))
    reactions = _strings(here, "reactions", poker.get("reactions", []))
    for i, reaction in enumerate(reactions, start=1):
        name, text = _named(reaction, names)
        if notation.tokens(text)[:1] != ["goudron"]:
            steps += _silence(f"{here}, reaction {i}", pk.Stage.TAR, "pas de Goudron")
            steps += _silence(f"{here}, reaction {i}", pk.Stage.REACT, "pas de réaction", name)
        say(f"reaction {i}", name, text)
    steps += _silence(f"{here}, after the reactions", pk.Stage.TAR, "pas de Goudron")
    steps += _silence(f"{here}, after the reactions", pk.Stage.REACT, "pas de réaction")
    starter = poker.get("revolver")
    if starter is not None:
        say("revolver", _text(here, "revolver", starter), "revolver")
    steps += _silence(f"{here}, revolver", pk.Stage.REVOLVER, "pas de combat")
    fleers = _strings(here, "flee", poker.get("flee", []))
    for _ in range(6):
        for fleer in fleers:
            say(f"flee ({fleer})", fleer, "je fuis", when=_awaits(pk.Stage.FLIGHT, fleer))
        steps += _silence(f"{here}, flight", pk.Stage.FLIGHT, "je reste", *fleers, times=1)
    for i, blow in enumerate(_strings(here, "combat", poker.get("combat", [])), start=1):
        name, rest = _named(blow, names)
        say(f"blow {i}", name, rest or "passe")
    return steps


def _stage(stage: pk.Stage) -> Any:
    return lambda state: state.poker is not None and state.poker.stage is stage


def _awaits(stage: pk.Stage, player: str) -> Any:
    def due(state: State) -> bool:
        awaited = rules.poker_awaiting(state) if state.poker is not None else ()
        return (
            state.poker is not None
            and state.poker.stage is stage
            and bool(awaited)
            and find_name((awaited[0],), player) is not None
        )

    return due


def _silence(
    where: str, stage: pk.Stage, text: str, *but: str, times: int = 6
) -> list[ScenarioStep]:
    """Up to ``times`` messages ``text`` from whoever ``stage`` awaits first,
    unless it is one of ``but`` (who answer otherwise in the file)."""

    def due(state: State) -> bool:
        if state.poker is None or state.poker.stage is not stage:
            return False
        awaited = rules.poker_awaiting(state)
        return bool(awaited) and not any(find_name((awaited[0],), b) for b in but)

    def first(state: State) -> str:
        return rules.poker_awaiting(state)[0]

    return [ScenarioStep(where=where, text=text, actor_of=first, when=due) for _ in range(times)]


GAME: GameDef[State] = GameDef.from_modules(
    INFO,
    globals(),
    rules=rules,
    notation=notation,
    views=views,
    events=events,
    commands=commands,
    filters={"valley": views.valley},
    picture=picture.draw_valley,
)
"""Rattlesnake City, as the platform sees it (``GameDef.from_modules``)."""
