"""Reading private messages: free text to orders, folds and stays.

Players write as they please: « Je braque mon flingue sur fab (BANG BANG
BANG) », « fab BBB », « Fab bang », « lulu : clic clic clic ». The text is
folded (``text.fold``: case, accents) and cut into words; punctuation and
extra words are ignored.

Names are matched as whole words (a name of several words, « Jean-Paul » or
« le grand blond », as consecutive words), the longest name first. A player
called « a » must not turn « il a un flingue » into a target, yet « a BANG »
must still aim at them: a one-word name of at most two letters, or one that
is also a common French word (« le », « sur », « mon »…), is a *weak* match,
used only when no other player is named. The sender's own name is ignored
when another player is named (a signature); alone, it is aiming at oneself.

Options: « BANG BANG BANG », « BBB », « bangbangbang », « triple », « BANG
×3 » are the triple; « BANG » alone is a bang; « CLIC CLIC CLIC », « CCC »,
« clic », « click », « bluff » the bluff. Single letters are never options
(« B » may be a player). Two bangs in a row (« BANG BANG ») is neither and is
refused, as are two different options, no option, no target, two targets.

During the standoff the same messages say stay or fold: « je me couche »,
« couché », « je baisse mon arme » fold; « je reste », « j'en ai une paire »
stay; a negation (« je ne me couche pas ») turns one into the other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gm.core import rules as core_rules
from gm.core.names import mentions
from gm.core.protocol import Command, Table, table_for
from gm.errors import (
    AmbiguousOrderError,
    GMError,
    InputError,
    OrderSyntaxError,
    PhaseError,
    quote_choices,
)

from .commands import Fold, SetOrder, Stay, WithdrawOrder
from .model import Option, Order, Phase, State
from .rules import OPTION_NAMES, check_order, find_player, phase_key
from .text import spans, words

TRIPLE_WORDS = frozenset({"bbb", "triple"})
CLICK_WORDS = frozenset(
    {"ccc", "bluff", "bluffs", "bluffe", "bluffes", "bluffer", "bluffons", "bluffez"}
)
"""CLIC CLIC CLIC is « du bluff » in the game's own posts: players write
« je bluffe sur tom » as often as « tom CCC »."""
AMBIGUOUS_OPTIONS = {"bb": ("bang", "triple")}
"""Shorthands that could mean two options: « BB » is BANG (a shot, « B » for
« BANG » twice typed) or the triple cut short; asked back, never guessed."""
_BANGS = re.compile(r"(?:bang)+s?")
_CLICKS = re.compile(r"(?:cli(?:c|ck|k)s?)+")
_TIMES = re.compile(r"x(\d+)")

WITHDRAW_WORDS = frozenset(
    {"annule", "annuler", "annulation", "retire", "retirer", "withdraw", "cancel"}
)
FOLD_WORDS = frozenset(
    {"fold", "folds", "baisse", "baisser", "renonce", "renoncer", "abandonne", "abandonner"}
)
STAY_WORDS = frozenset(
    {"reste", "restes", "rester", "restons", "stay", "paire", "continue", "continuer"}
    | {"maintiens", "maintient", "maintenir"}
)
NEGATIONS = frozenset({"pas", "jamais", "plus", "point"})

_FILLER_TEXT = """
je j me m moi mon ma mes ton ta tes son sa ses le la les l un une des de du d au
aux a et ou en y sur vers contre avec pour par dans ce cet cette ca c est qui que
qu il elle on nous vous tu te t se s ai as ont suis vais va braque braques braquer
braquons vise vises viser cible cibler tire tirer tires flingue flingues arme armes
pistolet revolver colt calibre feu balle balles charge chargee option options choix
ordre ordres tour manche round coup coups mp salut bonjour coucou hello hey merci
mj gm stp svp plait please allez bon ok okay alors donc voila voici hop pote ne pas
plus jamais non oui encore toujours aussi bien tres trop sans sous comme ici
maintenant go fois i aim at my gun the with shoot target order nouvel nouveau
nouvelle x
"""
FILLER = frozenset(_FILLER_TEXT.split())
"""Common words of an order: never taken for an unknown player's name."""

_TRIGGERS = frozenset({"sur", "braque", "vise", "cible", "contre", "vers", "at"})


@dataclass(frozen=True)
class _Match:
    player: str
    start: int
    end: int
    weak: bool


def parse(state: State, actor: str, text: str, table: Table | None = None) -> Command:
    """The command a player's pasted message stands for, in the current phase;
    ``table`` names the players (by default, each seat by itself)."""
    table = table_for(table, state.names)
    player = find_player(state, actor)
    if state.phase is Phase.OVER:
        raise core_rules.nothing_more_to_send(player, text)
    if state.phase is Phase.STANDOFF:
        if not _reads_as_choice(text) and _reads_as_order(table, text):
            raise PhaseError(
                f"too late: orders are locked since the reveal of round {state.round}"
                f" (got {text!r} from {player}); {player} may only stay or fold now",
                code="magot/orders-locked",
                params={"player": player, "text": text, "round": state.round},
            )
        return parse_choice(state, player, text)
    if state.phase is Phase.ORDERS:
        if _reads_as_choice(text) and not _reads_as_order(table, text):
            raise PhaseError(
                f"too early: staying or folding comes after the reveal of round {state.round}"
                f" (got {text!r} from {player}); {player}'s order is awaited now",
                code="magot/too-early",
                params={"player": player, "text": text, "round": state.round},
            )
        return parse_order(state, player, text, table)
    if state.round > 0 and (_reads_as_choice(text) or _reads_as_order(table, text)):
        raise PhaseError(
            f"round {state.round} is resolved and no round is open ({phase_key(state)}):"
            f" orders are sent after gm draw (got {text!r} from {player})",
            code="magot/between-rounds",
            params={"phase": phase_key(state), "player": player, "text": text},
        )
    raise PhaseError(
        f"no round is open ({phase_key(state)}): orders are sent after gm draw"
        f" (got {text!r} from {player})",
        code="phase/wrong",
        params={"phase": phase_key(state), "player": player, "text": text},
    )


def parse_order(
    state: State, player: str, text: str, table: Table | None = None
) -> SetOrder | WithdrawOrder:
    """Read an order (or a withdrawal) sent by ``player``, checked against the
    rules; players are named by their names at ``table``.

    >>> from gm.games.magot.rules import initial_state
    >>> state = initial_state(["fab", "marco", "lulu", "Élodie", "Jean-Paul"], {})
    >>> parse_order(state, "marco", "Je braque mon flingue sur fab (BANG BANG BANG)")
    SetOrder(player='marco', target='fab', option=<Option.TRIPLE: 'triple'>)
    >>> parse_order(state, "marco", "fab BBB").option
    <Option.TRIPLE: 'triple'>
    >>> parse_order(state, "marco", "Fab bang").option
    <Option.BANG: 'bang'>
    >>> parse_order(state, "marco", "lulu : clic clic clic")
    SetOrder(player='marco', target='lulu', option=<Option.CLICK: 'click'>)
    >>> parse_order(state, "fab", "je braque Elodie. BANG").target
    'Élodie'
    >>> parse_order(state, "fab", "jean paul, bluff").target
    'Jean-Paul'
    >>> try:
    ...     parse_order(state, "fab", "marco BANG BANG")
    ... except OrderSyntaxError as error:
    ...     print(error.code)
    magot/bang-count
    """
    table = table_for(table, state.names)
    shooter = find_player(state, player)
    tokens = spans(text.replace("×", " x"))  # « BANG ×3 » reads as « BANG x3 »
    folded = [w for w, _ in tokens]
    matches = _find_names(table, folded)
    used = {i for m in matches for i in range(m.start, m.end)}
    options = _find_options(folded, used, text)

    _ask_back(folded, used, options, text)
    target = _choose_target(state, shooter, matches, text)
    if target is None:
        if not options and used == set() and WITHDRAW_WORDS & set(folded):
            return WithdrawOrder(player=shooter)
        _raise_no_target(state, shooter, tokens, used, text)
    if not options:
        raise OrderSyntaxError(
            f"no option in {text!r}: add BANG BANG BANG, BANG or CLIC CLIC CLIC",
            code="magot/no-option",
            params={
                "text": text,
                "target": target,
                "remaining": state.player(shooter).options_left(),
            },
        )
    if len(options) > 1:
        names = " and ".join(OPTION_NAMES[o] for o in options)
        raise AmbiguousOrderError(
            f"two different options in {text!r} ({names}): send only one",
            code="magot/two-options",
            params={"text": text, "options": [str(o) for o in options]},
        )
    assert target is not None
    try:
        return check_order(state, shooter, target, options[0])
    except GMError as error:
        # the rules speak of players and options; the MJ also wants the text
        raise type(error)(
            f"{error.message} (order text: {text!r})",
            code=error.code,
            params={**error.params, "text": text},
        ) from None


def parse_choice(state: State, player: str, text: str) -> Fold | Stay:
    """Read a stay-or-fold message sent by ``player``.

    >>> from gm.games.magot.rules import initial_state
    >>> state = initial_state(["fab", "marco", "lulu"], {})
    >>> parse_choice(state, "fab", "Je me couche.")
    Fold(player='fab')
    >>> parse_choice(state, "fab", "j'en ai une paire !")
    Stay(player='fab')
    >>> parse_choice(state, "fab", "je ne me couche pas")
    Stay(player='fab')
    >>> parse_choice(state, "fab", "je reste couché")
    Fold(player='fab')
    """
    name = find_player(state, player)
    folded = words(text)
    fold = stay = False
    for i, word in enumerate(folded):
        is_fold = word in FOLD_WORDS or word.startswith("couch")
        is_stay = word in STAY_WORDS
        if not (is_fold or is_stay):
            continue
        if is_stay and i + 1 < len(folded) and folded[i + 1].startswith("couch"):
            continue  # « je reste couché »: staying down is folding
        around = set(folded[max(0, i - 4) : i]) | set(folded[i + 1 : i + 3])
        if around & NEGATIONS:
            is_fold, is_stay = is_stay, is_fold
        fold, stay = fold or is_fold, stay or is_stay
    if fold and stay:
        raise AmbiguousOrderError(
            f"{text!r} says both stay and fold: send one of « je reste » or « je me couche »",
            code="magot/two-choices",
            params={"player": name, "text": text},
        )
    if not (fold or stay):
        raise OrderSyntaxError(
            f"no choice in {text!r}: orders are locked since the reveal; expected"
            " « je reste » (stay) or « je me couche » (fold)",
            code="magot/no-choice",
            params={"player": name, "text": text},
        )
    return Fold(player=name) if fold else Stay(player=name)


def parse_option(text: str) -> Option:
    """An option written alone (``--option``): ``triple``, ``BBB``, ``bang``, ``clic``…

    >>> parse_option("BANG BANG BANG"), parse_option("bang"), parse_option("click")
    (<Option.TRIPLE: 'triple'>, <Option.BANG: 'bang'>, <Option.CLICK: 'click'>)
    """
    folded = list(words(text.replace("×", " x")))
    try:
        options = _find_options(folded, set(), text)
    except GMError as error:
        raise InputError(str(error), code="magot/bad-option", params={"text": text}) from None
    if len(options) != 1 or any(
        not (_option_word(w) or _TIMES.fullmatch(w) or w == "x" or w.isdigit()) for w in folded
    ):
        raise InputError(
            f"option {text!r} is not valid: write triple (BANG BANG BANG), bang (BANG)"
            " or click (CLIC CLIC CLIC)",
            code="magot/bad-option",
            params={"text": text, "valid": ["triple", "bang", "click"]},
        )
    return options[0]


def format_order(order: Order) -> str:
    """The canonical text of an order, which ``parse_order`` reads back.

    >>> format_order(Order("fab", Option.TRIPLE))
    'fab BANG BANG BANG'
    """
    return f"{order.target} {OPTION_NAMES[order.option]}"


def _ask_back(folded: list[str], used: set[int], options: list[Option], text: str) -> None:
    """Refuse a shorthand that could mean two options, asking which one."""
    if options:
        return
    for i, word in enumerate(folded):
        if i not in used and word in AMBIGUOUS_OPTIONS:
            meant = AMBIGUOUS_OPTIONS[word]
            raise AmbiguousOrderError(
                f"{word.upper()!r} in {text!r} could be {' or '.join(OPTION_NAMES[Option(m)] for m in meant)}:"
                " ask the player which one",
                code="magot/which-option",
                params={"text": text, "word": word.upper(), "options": list(meant)},
            )


def _reads_as_choice(text: str) -> bool:
    """Whether the text speaks of staying or folding (« je me couche »)."""
    return any(w in FOLD_WORDS or w.startswith("couch") or w in STAY_WORDS for w in words(text))


def _reads_as_order(table: Table, text: str) -> bool:
    """Whether the text reads as an order: an option, or a withdrawal, is named."""
    folded = [w for w, _ in spans(text.replace("×", " x"))]
    used = {i for m in _find_names(table, folded) for i in range(m.start, m.end)}
    named = any(
        i not in used and (_option_word(w) or w in AMBIGUOUS_OPTIONS) for i, w in enumerate(folded)
    )
    return named or (not used and bool(WITHDRAW_WORDS & set(folded)))


def unread(state: State, player: str, text: str, table: Table | None = None) -> tuple[str, ...]:
    """The words of an accepted message that nothing was read from: not a
    player's name, an option, a choice or a common word of orders. The MJ's
    note lists them, so that nothing a player wrote is lost unseen (« pas
    tom, plutôt lulu » is worth a look).

    >>> from gm.games.magot.rules import initial_state
    >>> state = initial_state(["fab", "marco", "lulu"], {})
    >>> unread(state, "fab", "salut, je braque marco BANG, bonne chance")
    ('bonne', 'chance')
    """
    tokens = spans(text.replace("×", " x"))
    folded = [w for w, _ in tokens]
    used = {
        i for m in _find_names(table_for(table, state.names), folded) for i in range(m.start, m.end)
    }
    out: list[str] = []
    for i, (word, typed) in enumerate(tokens):
        if (
            i in used
            or word in FILLER
            or _option_word(word)
            or word.isdigit()
            or _TIMES.fullmatch(word)
            or word in WITHDRAW_WORDS
            or word in FOLD_WORDS
            or word in STAY_WORDS
            or word in NEGATIONS
            or word.startswith("couch")
        ):
            continue
        if typed not in out:
            out.append(typed)
    return tuple(out)


# --- names -------------------------------------------------------------------


def _is_weak(name_words: tuple[str, ...]) -> bool:
    return len(name_words) == 1 and (len(name_words[0]) <= 2 or name_words[0] in FILLER)


def _find_names(table: Table, folded: list[str]) -> list[_Match]:
    """The players named in the folded words, by their names at ``table``
    (the platform's matcher, with this game's words), weak or not."""
    return [
        _Match(m.seat, m.start, m.end, _is_weak(m.label))
        for m in mentions(folded, table.labels, words)
    ]


def _choose_target(state: State, shooter: str, matches: list[_Match], text: str) -> str | None:
    for weak in (False, True):
        named = list(dict.fromkeys(m.player for m in matches if m.weak is weak))
        others = [n for n in named if n != shooter]
        if len(others) > 1:
            raise AmbiguousOrderError(
                f"two targets in {text!r}: {' and '.join(others)}; aim at one player only",
                code="magot/two-targets",
                params={"text": text, "names": others},
            )
        if others:
            return others[0]
    if any(m.player == shooter for m in matches):
        return shooter  # check_order refuses it, naming the valid targets
    return None


def _raise_no_target(
    state: State, shooter: str, tokens: tuple[tuple[str, str], ...], used: set[int], text: str
) -> None:
    targets = [n for n in state.living if n != shooter]
    unknown = [
        i
        for i, (word, _) in enumerate(tokens)
        if i not in used
        and word not in FILLER
        and not _option_word(word)
        and not word.isdigit()
        and not _TIMES.fullmatch(word)
        and word not in WITHDRAW_WORDS
    ]
    after_trigger = [i for i in unknown if _follows_trigger(tokens, i)]
    if unknown:
        typed = tokens[(after_trigger or unknown)[0]][1]
        raise OrderSyntaxError(
            f"no player named {typed!r} in {text!r} (targets: {quote_choices(targets)})",
            code="magot/unknown-player",
            params={"text": text, "name": typed, "targets": targets},
        )
    raise OrderSyntaxError(
        f"no target in {text!r}: name one of {quote_choices(targets)}",
        code="magot/no-target",
        params={"text": text, "targets": targets},
    )


def _follows_trigger(tokens: tuple[tuple[str, str], ...], index: int) -> bool:
    j = index - 1
    while j >= 0 and tokens[j][0] in FILLER and tokens[j][0] not in _TRIGGERS:
        j -= 1
    return j >= 0 and tokens[j][0] in _TRIGGERS


# --- options -----------------------------------------------------------------


def _option_word(word: str) -> bool:
    return (
        word in TRIPLE_WORDS
        or word in CLICK_WORDS
        or bool(_BANGS.fullmatch(word))
        or bool(_CLICKS.fullmatch(word))
    )


def _find_options(folded: list[str], used: set[int], text: str) -> list[Option]:
    """The distinct options named in the text, in order of appearance."""
    found: list[Option] = []
    i = 0
    while i < len(folded):
        if i in used or not _option_word(folded[i]):
            i += 1
            continue
        bangs = triples = clicks = 0
        while i < len(folded) and i not in used and _option_word(folded[i]):
            word = folded[i]
            if word in TRIPLE_WORDS:
                triples += 1
            elif _BANGS.fullmatch(word):
                bangs += word.count("bang")
            else:
                clicks += 1
            i += 1
        read = _multiplier(folded, i, used)
        if read is not None:
            times, i = read
            if not clicks:
                # the multiplier counts the whole run: « BANG ×3 » is the triple, « BBB ×2 »
                # or « BANG ×3 000 » no option (never the triple, the 3 000 read as 3)
                bangs, triples = (bangs + 3 * triples) * times, 0
        option = _run_option(bangs, triples, clicks, text)
        if option not in found:
            found.append(option)
    return found


def _multiplier(folded: list[str], i: int, used: set[int]) -> tuple[int, int] | None:
    """``×3`` / ``x3`` / ``x 3`` right after an option word, a number grouped by
    thousands read whole (``x 3 000``): the count and the index after it."""
    if i >= len(folded) or i in used:
        return None
    match = _TIMES.fullmatch(folded[i])
    if match:
        digits, end = match.group(1), i + 1
    elif folded[i] == "x" and i + 1 < len(folded) and folded[i + 1].isdigit():
        digits, end = folded[i + 1], i + 2
    else:
        return None
    if len(digits) <= 3:  # the first group of a number grouped by thousands
        while end < len(folded) and end not in used and len(folded[end]) == 3:
            if not folded[end].isdigit():
                break
            digits, end = digits + folded[end], end + 1
    return int(digits), end


def _run_option(bangs: int, triples: int, clicks: int, text: str) -> Option:
    if clicks and (bangs or triples):
        raise AmbiguousOrderError(
            f"two different options in {text!r} (a bluff and a shot): send only one",
            code="magot/two-options",
            params={"text": text, "options": ["click", "triple" if triples else "bang"]},
        )
    if clicks:
        return Option.CLICK
    if triples and bangs in (0, 1, 3):
        return Option.TRIPLE
    if bangs == 1:
        return Option.BANG
    if bangs == 3:
        return Option.TRIPLE
    written = " ".join(["BANG"] * bangs) if bangs <= 6 else f"BANG ×{bangs}"
    raise OrderSyntaxError(
        f"{written!r} is not an option in {text!r}: write BANG (one shot)"
        " or BANG BANG BANG (the triple)",
        code="magot/bang-count",
        params={"text": text, "count": bangs},
    )
