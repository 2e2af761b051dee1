"""Rattlesnake City in the players' own words: a message read into commands.

A message may say several things, one per line or separated by « ; » or
« , » (« A1, action »): each part is read on its own, in order. What a part
means:

* a cell or a rail slot (R-11: ``A3``, ``A7``, ``M1``, ``P5a``, ``R4``),
  possibly with the tile named (« gare en A7 »): the saloon, during the
  saloons; the tile drawn, at step 1;
* « action » (one action card) or « coups » (two shot cards): step 2;
* a *carte divers* by its name or distinctive word, with its target:
  « Whisky frelaté devant bob », « Dynamitero sur B2 », « Coup du destin
  sur Ironfist Jim », « Chasseur de primes sur Stinky Joe »;
* a trade (R-12): « achète Dynamitero à cyd pour 2000 », « vend Punaises à
  bob pour 1 000 $ » (a price is required: « pour 0 » for a gift);
* « attaque bob 2 » / « j'attaque la banque de bob avec 1 1 »: a bank
  attack and its opening shot (or « attaque bob Slippery Joe »: a free shot);
* in a combat: the shot cards laid (« 2 1 »), a free shot alone (« Slippery
  Joe »), or « passe »;
* « poker cyd 6000 » / « je défie cyd pour 6 000 $ »: step 4, a poker game;
  then, in the poker game (what a message means depends on what it waits
  for): « Coyote » (the challenged escapes) or « je reste »; « je suis » /
  « je joue » (join), « je baisse à 3000 » (the challenger lowers the
  stake), « cartes » (the challenger closes the joins); « le 17 » (a
  face-down card, by private message; the first one closes the joins) or
  « aucune » / « rien » (the challenged plays none); « Tricheur avec ana »,
  « Joueur professionnel 20 », « pas de réaction »; « Goudron & Plumes » or
  « pas de Goudron » (after a Tricheur); « revolver » (start the combat) or
  « pas de combat »; « je fuis » (a Coyote) or « je reste »; then the blows;
* « fin » / « fin du tour »: step 5, the turn is over.

Words are matched ignoring case, accents and punctuation. Half a name that
fits two cards (« Jim », « Joe ») is ambiguous and refused as such.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from gm.core import rules as core_rules
from gm.core.names import fold, mentions
from gm.core.protocol import Command, Table, table_for
from gm.errors import AmbiguousOrderError, IllegalOrderError, InputError, OrderSyntaxError

from . import poker as pk
from .cards import DIVERS, Card, find_cards
from .commands import (
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
    Shoot,
    Stand,
    StartFight,
    Stay,
    TakeBack,
    Tar,
    Trade,
)
from .model import Phase, State
from .tiles import Tile, find_tile

_PARTS = re.compile(r"\n|;|,(?!\d{3})| puis ", re.IGNORECASE)
_WORD = re.compile(r"[0-9a-z]+")
_AMOUNT = re.compile(
    r"(?<![0-9a-z])(\d{1,3}(?:[ \u00a0\u202f.]\d{3})+|\d+)(?![0-9])\s*(k(?![a-z]))?", re.IGNORECASE
)
"""An amount: digits standing alone (« zorglub6416 » holds none), thousands
grouped by spaces or dots, « k » for thousands."""

END_WORDS = {"fin", "fini", "finis", "termine", "terminer"}
PASS_WORDS = {"passe", "passer", "abandonne", "abandon"}
ACTION_WORDS = {"action"}
SHOT_WORDS = {"coups", "coup", "tirs"}
ATTACK_WORDS = {"attaque", "attaquer", "braque", "braquer"}
BUY_WORDS = {"achete", "acheter", "achat", "j'achete"}
SELL_WORDS = {"vend", "vends", "vendre", "vente"}
FREE_SHOTS = (Card.IRONFIST, Card.SLIPPERY)
POKER_WORDS = {"poker", "defie", "defier", "defi"}
NO_WORDS = {"pas", "non", "rien", "aucune", "aucun", "passe", "personne"}
NONE_WORDS = {"aucune", "aucun", "rien"}
STAY_WORDS = {"reste", "rester", "restes"}
JOIN_WORDS = {"suis", "joue", "jouer", "rejoins", "rejoindre", "participe", "entre", "moi"}
LOWER_WORDS = {"baisse", "baisser", "abaisse", "descend", "descends"}
CLOSE_WORDS = {"cartes"}
FLEE_WORDS = {"fuis", "fuir", "fuite", "file"}
FIGHT_WORDS = {"revolver", "combat", "degaine", "tire", "feu"}
GAME_WORDS = frozenset(
    {
        *END_WORDS, *PASS_WORDS, *ACTION_WORDS, *SHOT_WORDS, *ATTACK_WORDS, *BUY_WORDS,
        *SELL_WORDS, *POKER_WORDS, *NO_WORDS, *STAY_WORDS, *JOIN_WORDS, *LOWER_WORDS,
        *CLOSE_WORDS, *FLEE_WORDS, *FIGHT_WORDS,
        *(w for c in Card for w in _WORD.findall(fold(f"{c.label} {c.word}"))),
        *(w for t in Tile for w in _WORD.findall(fold(f"{t.label} {t.word}"))),
        "goudron", "plumes", "gratuit", "reaction", "fuir",
    }
)  # fmt: skip
"""The words orders are made of (a card's or a tile's words among them)."""


_FILLER_TEXT = """
    je j tu il elle on nous vous me m te t se s moi toi lui le la les l un une des de du d
    au aux a et ou en y sur avec pour par dans devant chez vers contre ma mon mes ta ton tes
    sa son ses ce cette ca c ceci cela est sont suis es ai as ont vais va que qu qui ne n
    plus aussi alors donc puis ensuite encore bon ok oui allez hop voila voici bien
    salut bonjour bonsoir coucou hello merci mj gm stp svp please
    carte cartes tuile tuiles tour banque mise dollars dollar prix case ville
"""
FILLER = frozenset(_FILLER_TEXT.split())
"""Common words of a message that say nothing of the game: a part made only
of them (« Salut MJ ») is passed over, and they are never reported unread."""


def tokens(text: str) -> list[str]:
    """The words of ``text``: case, accents and punctuation ignored."""
    return _WORD.findall(fold(text))


def _syntax(message: str, text: str, code: str = "syntax", **params: Any) -> OrderSyntaxError:
    return OrderSyntaxError(message, code=f"rattlesnake/{code}", params={"text": text, **params})


Labels = tuple[tuple[str, str], ...]
"""``(current name, seat)`` of every player (``Table.labels``): how a message names them."""


def parse(state: State, player: str, text: str, table: Table | None = None) -> tuple[Command, ...]:
    """The commands a player's message carries, in order; players are named
    by their names at ``table`` (any number of words: « Calamity Jane »)."""
    names = table_for(table, state.players).labels
    if state.phase is Phase.OVER:
        # once the game has ended, even in the middle of a turn, nothing is read
        raise core_rules.nothing_more_to_send(player, text, " (R-18)")
    parts = [p.strip() for p in _PARTS.split(text) if p and p.strip()]
    if not parts:
        raise _syntax(f"nothing to read in {text!r}", text, "empty")
    commands: list[Command] = []
    for part in parts:
        try:
            commands.append(_part(state, player, part, names))
        except OrderSyntaxError:
            # A part that says nothing of the game is chatter, not an order:
            # a greeting anywhere, anything after what was read (« Tricheur
            # avec Fab, hihi »). The MJ's note lists its words (``unread``).
            words = words_of(part, names)
            if not _says_nothing(state, words) or not (commands or FILLER.issuperset(words)):
                raise
    if not commands:
        raise _syntax(f"nothing to read in {text!r}", text, "empty")
    return tuple(commands)


def _game_word(state: State, word: str) -> bool:
    """Whether ``word`` (of ``words_of``) is something the notation reads: a
    player, a number, a cell or slot, a tile, a card, a word of an order."""
    return (
        word.startswith(NAMED)
        or any(c.isdigit() for c in word)
        or word in GAME_WORDS
        or state.board.find(word) is not None
        or find_tile(word) is not None
    )


def _says_nothing(state: State, words: Sequence[str]) -> bool:
    return not any(_game_word(state, w) for w in words)


def unread(state: State, player: str, text: str, table: Table | None = None) -> tuple[str, ...]:
    """The words of an accepted message that nothing was read from: no
    player, number, cell, tile, card or word of an order, and no common word.
    The MJ's note lists them (« Tricheur avec Fab, hihi »: « hihi »), so that
    nothing a player wrote is lost unseen."""
    out: list[str] = []
    for word in words_of(text, table_for(table, state.players).labels):
        if not (_game_word(state, word) or word in FILLER or word in out):
            out.append(word)
    return tuple(out)


def amount(text: str) -> int | None:
    """An amount as players write it: ``2000``, ``2 000 $``, ``2.000``, ``2k``."""
    m = _AMOUNT.search(text)
    if m is None:
        return None
    value = int(re.sub(r"[ \u00a0\u202f.]", "", m[1]))
    return value * 1000 if m[2] else value


def _card_at(words: Sequence[str], i: int) -> tuple[int, list[Card]]:
    """The named action card ``words`` name from ``i``: how many words, and
    the cards they may be (several: half a name, « Jim »); ``(0, [])`` if none."""
    for size in (3, 2, 1):
        chunk = words[i : i + size]
        if len(chunk) == size and not any(w.startswith(NAMED) for w in chunk):
            cards = [c for c in find_cards(" ".join(chunk)) if isinstance(c, Card)]
            if cards:
                return size, cards
    return 0, []


def _cards_in(words: list[str], text: str) -> list[Card]:
    """Named action cards in ``words`` (``words_of``), longest names first, each once."""
    found: list[Card] = []
    i = 0
    while i < len(words):
        size, cards = _card_at(words, i)
        if len(cards) > 1 and size == 1:
            raise AmbiguousOrderError(
                f"{words[i]!r} could be {' or '.join(c.label for c in cards)}: write the full name",
                code="rattlesnake/ambiguous-card",
                params={"text": text, "cards": [c.label for c in cards]},
            )
        if len(cards) == 1 and cards[0] not in found:
            found.append(cards[0])
        i += size or 1
    return found


NAMED = "@"
"""A player named in a message stands among its words as one word: ``@``
and their seat (``tokens`` never makes such a word)."""


def words_of(text: str, names: Labels) -> list[str]:
    """The words of ``text`` (``tokens``), each player it names as one word
    ``@seat``: a name is read where it is at least as long as a card's name
    there (« Joe » is the player, « Slippery Joe » the card), and its words
    are that name, never a card or a word of the game (« Poker Alice »,
    « Whisky Jack »)."""
    words = tokens(text)
    out: list[str] = []
    start = 0
    for m in mentions(words, names, tokens, own=lambda ws, i: _card_at(ws, i)[0]):
        out += [*words[start : m.start], NAMED + m.seat]
        start = m.end
    return out + words[start:]


def _mentions(words: list[str]) -> list[tuple[int, str]]:
    """Where players are named in ``words`` (``words_of``), as (index, seat)."""
    return [(i, w.removeprefix(NAMED)) for i, w in enumerate(words) if w.startswith(NAMED)]


def _player_in(words: list[str], after: set[str]) -> str | None:
    """The player named right after one of the words ``after`` (« devant bob », « à cyd »)."""
    marks = [i for i, w in enumerate(words) if w in after]
    for i, player in _mentions(words):
        if any(0 < i - m <= 3 for m in marks):
            return player
    return None


def _any_player(words: list[str], skip: str | None = None) -> str | None:
    return next((p for _, p in _mentions(words) if p != skip), None)


def _cell_in(state: State, words: list[str]) -> str | None:
    cells = [state.board.find(w) for w in words]
    found = [c for c in cells if c is not None]
    return found[-1] if found else None


def _part(state: State, player: str, text: str, names: Labels) -> Command:
    words = words_of(text, names)
    if not words:
        raise _syntax(f"nothing to read in {text!r}", text, "empty")
    wordset = set(words)
    if state.phase is Phase.BANK:
        return _blow(state, player, text, words)
    if state.phase is Phase.POKER and state.poker is not None:
        return _poker(state, state.poker, player, text, words)
    if wordset & BUY_WORDS or wordset & SELL_WORDS:
        return _trade(state, player, text, words, buying=bool(wordset & BUY_WORDS))
    if wordset & POKER_WORDS:
        # a player naming themself gets the rules' refusal, not a syntax error
        target = _any_player(words, skip=player) or _any_player(words)
        stake = amount(" ".join(w for w in words if w != "poker" and not w.startswith(NAMED)))
        if target is None or stake is None:
            raise _syntax(
                f"a poker game names the player challenged and the stake:"
                f" « poker cyd 6000 » (in {text!r})",
                text,
                "bad-challenge",
            )
        return Challenge(player, target, stake)
    if wordset & ATTACK_WORDS:
        target = _any_player(words, skip=player)
        if target is None:
            raise _syntax(f"whose bank? name the player attacked in {text!r}", text, "no-target")
        free = next((c for c in _cards_in(words, text) if c in FREE_SHOTS), None)
        return AttackBank(player, target, _shots(text, words), free)
    cards = [c for c in _cards_in(words, text) if c in DIVERS]
    if cards:
        if len(cards) > 1 and cards[0] not in (Card.DESTIN, Card.CHASSEUR):
            raise _syntax(
                f"one card per part: {', '.join(c.label for c in cards)} in {text!r}",
                text,
                "two-cards",
            )
        return _divers(state, player, words, cards)
    if wordset & END_WORDS:
        return EndTurn(player)
    if wordset & ACTION_WORDS:
        return Draw(player, "action")
    if wordset & SHOT_WORDS:
        return Draw(player, "coups")
    cell = _cell_in(state, words)
    if cell is not None:
        tile = next(
            (t for w in words if (t := find_tile(w)) is not None and t.value != "saloon"), None
        )
        if state.phase is Phase.SALOONS:
            return PlaceSaloon(player, cell)
        return PlaceTile(player, cell, tile)
    raise _syntax(
        f"cannot read {text!r}: a cell (A1, M1, P5a, R4), « action » or « coups », a carte"
        " divers and its target, « achète … à … pour … », « attaque … » or « fin »",
        text,
    )


def _divers(state: State, player: str, words: list[str], cards: list[Card]) -> Command:
    card = cards[0]
    if card in (Card.DESTIN, Card.CHASSEUR):
        target = cards[1] if len(cards) > 1 else None
        return PlayDivers(player, card, target.value if target is not None else None)
    if card is Card.DYNAMITERO:
        cell = _cell_in(state, words)
        return PlayDivers(player, card, cell)
    holder = _player_in(words, {"devant", "a", "pour", "chez", "sur"})
    return PlayDivers(player, card, holder)


def _trade(state: State, player: str, text: str, words: list[str], buying: bool) -> Trade:
    named = _cards_in(words, text)
    cards = [c for c in named if c in DIVERS]
    if not cards:
        _refuse_other_card(state, player, text, named, buying)
    if len(cards) != 1:
        raise _syntax(
            f"a trade names one carte divers: « achète Dynamitero à cyd pour 2000 » (in {text!r})",
            text,
            "bad-trade",
        )
    other = _player_in(words, {"a", "de", "chez"}) or _any_player(words, skip=player)
    if other is None:
        raise _syntax(f"a trade names the other player (in {text!r})", text, "bad-trade")
    _, sep, price_text = fold(text).partition("pour")
    price = amount(price_text) if sep else None
    if price is None:
        raise _syntax(
            f"a trade always names its price, « pour 0 » for a gift (R-12), in {text!r}",
            text,
            "no-price",
        )
    if buying:
        return Trade(seller=other, buyer=player, card=cards[0], price=price)
    return Trade(seller=player, buyer=other, card=cards[0], price=price)


def _refuse_other_card(
    state: State, player: str, text: str, named: list[Card], buying: bool
) -> None:
    """A trade of a card that is no *carte divers* (R-12: only those are sold):
    a poker card by its name, a game card by its number before the price.
    The refusal says which card and why, and a seller's own cartes divers."""
    head = fold(text).partition("pour")[0]
    numbers = [int(m[1]) for m in _AMOUNT.finditer(head) if m[1].isdigit()]
    games = [n for n in numbers if pk.is_game_card(n)]
    card = named[0].label if named else (f"le {games[0]}" if games else None)
    if card is None:
        return
    params: dict[str, Any] = {"text": text, "card": card, "what": "trade"}
    if not buying and player in state.players:  # their own hand only: never another's
        params["divers"] = [c.label for c in state.hand_of(player) if c in DIVERS]
    raise IllegalOrderError(
        f"only cartes divers are sold (R-12), not {card}", code="rattlesnake/not-divers", params=params
    )


def _shots(text: str, words: list[str]) -> tuple[int, ...]:
    """The shot cards a move plays, by their cartridges (« 2 », « 1 1 »); any
    other number (« 4 », the « 000 » of « 2 000 ») is refused, never dropped."""
    written = [m[0].strip() for m in _AMOUNT.finditer(text)]
    others = list(dict.fromkeys(w for w in written if w not in ("1", "2", "3")))
    if others:
        raise _syntax(
            f"a shot card has 1, 2 or 3 cartridges, not {', '.join(others)}",
            text,
            "not-a-shot",
            written=others,
        )
    return tuple(int(w) for w in words if w in ("1", "2", "3"))


def _blow(state: State, player: str, text: str, words: list[str]) -> Command:
    shots = _shots(text, words)
    free = next((c for c in _cards_in(words, text) if c in FREE_SHOTS), None)
    if shots or free is not None:
        return Shoot(player, shots, free)
    return GiveUp(player)


def _game_card(state: State, player: str, text: str) -> int | None:
    """The game card a message names (« le 17 »): its one number, as players
    write numbers (« 10 000 » is one). Two different numbers, or a number
    that is no game card (« 0 », « 00 », « 5 000 »), are refused: never read
    as another choice (no card is « aucune », never 0). The rules refuse a
    game card the player does not hold, listing theirs."""
    written = list(dict.fromkeys(m[0].strip() for m in _AMOUNT.finditer(text)))
    if not written:
        return None
    numbers = list(dict.fromkeys(amount(w) or 0 for w in written))
    legal = pk.game_cards(state.hand_of(player)) if player in state.players else []
    if len(numbers) > 1:
        raise AmbiguousOrderError(
            f"{len(written)} numbers in {text!r} ({', '.join(written)}): which game card?",
            code="rattlesnake/two-numbers",
            params={"text": text, "written": written, "legal": legal},
        )
    (card,) = numbers
    if not pk.is_game_card(card):
        raise _syntax(
            f"{written[0]!r} is no game card (1 to 25; « aucune » for none) in {text!r}",
            text,
            "not-a-game-card",
            written=written[0],
            legal=legal,
        )
    return card


_SAY = {
    pk.Stage.ESCAPE: "« Coyote » (escape) or « je reste »",
    pk.Stage.JOIN: "« je suis » (join), « je baisse à 3000 », « cartes » or a card (« le 17 »)",
    pk.Stage.CARDS: "a face-down game card (« le 17 »), or « aucune » for the challenged",
    pk.Stage.REACT: "« Tricheur avec ana », « Joueur professionnel 20 » or « pas de réaction »",
    pk.Stage.TAR: "« Goudron & Plumes » or « pas de Goudron »",
    pk.Stage.REVOLVER: "« revolver » (start the combat) or « pas de combat »",
    pk.Stage.FLIGHT: "« je fuis » (a Coyote) or « je reste »",
}
"""What a message may say at each stage, for the English error (the reply is the template's)."""


def _poker(state: State, poker: pk.Poker, player: str, text: str, words: list[str]) -> Command:
    """A part of a message during a poker game, read by what the game waits for."""
    wordset = set(words)
    stage = poker.stage
    if stage is pk.Stage.COMBAT:
        return _blow(state, player, text, words)
    cards = set(_cards_in(words, text))
    # a number is read as a game card only where one is meant (not in « je baisse à 3000 »)
    card = (
        _game_card(state, player, text)
        if stage is pk.Stage.CARDS
        or (stage is pk.Stage.JOIN and not wordset & LOWER_WORDS)
        or (stage is pk.Stage.REACT and Card.PROFESSIONNEL in cards)
        else None
    )
    if stage is pk.Stage.ESCAPE:
        if Card.COYOTE in cards:
            return Escape(player)
        if wordset & (STAY_WORDS | JOIN_WORDS):
            return Stay(player)
    elif stage is pk.Stage.JOIN:
        if wordset & LOWER_WORDS:
            stake = amount(text)
            if stake is not None:
                return Lower(player, stake)
        elif card is not None:
            return ChooseCard(player, card)
        elif wordset & NONE_WORDS:
            return ChooseCard(player, None)
        elif wordset & CLOSE_WORDS:
            return CloseJoins(player)
        elif wordset & JOIN_WORDS:
            return Join(player)
    elif stage is pk.Stage.CARDS:
        if card is not None:
            return ChooseCard(player, card)
        if wordset & NONE_WORDS:
            return ChooseCard(player, None)
    elif stage is pk.Stage.REACT:
        if Card.TRICHEUR in cards:
            target = _any_player(words, skip=player) or _any_player(words)
            if target is not None:
                return Cheat(player, target)
        elif Card.PROFESSIONNEL in cards:
            if card is not None:
                return TakeBack(player, card)
        elif Card.GOUDRON in cards:
            return Tar(player)
        elif wordset & NO_WORDS:
            return NoReaction(player)
    elif stage is pk.Stage.TAR:
        if wordset & NO_WORDS:
            return DeclineTar(player)
        if Card.GOUDRON in cards:
            return Tar(player)
    elif stage is pk.Stage.REVOLVER:
        if wordset & NO_WORDS:
            return DeclineFight(player)
        if wordset & FIGHT_WORDS:
            return StartFight(player)
    elif stage is pk.Stage.FLIGHT:
        if Card.COYOTE in cards or wordset & FLEE_WORDS:
            return Flee(player)
        if wordset & STAY_WORDS:
            return Stand(player)
    raise _syntax(
        f"cannot read {text!r} in the poker game ({stage}): {_SAY.get(stage, '')}",
        text,
        "poker-syntax",
        stage=str(stage),
    )


def from_params(
    state: State, player: str, values: Mapping[str, Any], table: Table | None = None
) -> tuple[Command, ...]:
    """Rattlesnake City takes its orders as text only."""
    raise InputError(
        'rattlesnake orders are free text: gm order PLAYER "A1"', code="rattlesnake/no-params"
    )
