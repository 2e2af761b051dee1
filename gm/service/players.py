"""Who a name given on the command line designates among a campaign's players.

Kept apart from ``gm.service.actions`` so that commands that only read a
campaign (``gm pm``, ``gm history``) need not import the writing path.
"""

from __future__ import annotations

import difflib

from gm.core.names import find_name
from gm.core.names import fold as fold_name
from gm.errors import NotFoundError, quote_choices, quoted
from gm.service.loading import Campaign


def resolve_player(campaign: Campaign, name: str) -> str:
    """The seat of the player ``name`` designates: their current name (case
    and accents ignored), or one of their nicknames (``gm nick``). A seat's
    id is no name of its own: after a rename, only the new name counts.

    :raises NotFoundError: naming the campaign's players, and the closest
        one when ``name`` looks like a slip (« fabb »: did you mean fab?).
    """
    meta = campaign.meta
    seat = campaign.table.seat_named(name)
    if seat is not None:
        return seat
    nicknames = dict(meta.nicknames)
    nick = find_name(nicknames, name)
    if nick is not None:
        return nicknames[nick]
    players = meta.players
    keys = {fold_name(n): n for n in (*players, *nicknames)}
    close = difflib.get_close_matches(fold_name(name), list(keys), n=1, cutoff=0.6)
    suggestion = ""
    if close:
        meant = keys[close[0]]
        suggestion = meta.name(nicknames[meant]) if meant in nicknames else meant
    guess = f"; did you mean {suggestion!r}?" if suggestion else ""
    raise NotFoundError(
        f"no player {quoted(name)} in {campaign.slug!r} (players: {quote_choices(players)}){guess}",
        code="player/not-found",
        params={"name": name, "suggestion": suggestion or close},
    )
