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
    """The seated player ``name`` designates (case and accents ignored), or
    whose nickname it is (``gm nick``).

    :raises NotFoundError: naming the campaign's players, and the closest
        one when ``name`` looks like a slip (« fabb »: did you mean fab?).
    """
    found = find_name(campaign.meta.players, name)
    if found is not None:
        return found
    nicknames = dict(campaign.meta.nicknames)
    nick = find_name(nicknames, name)
    if nick is not None:
        return nicknames[nick]
    keys = {fold_name(n): n for n in (*campaign.meta.players, *nicknames)}
    close = difflib.get_close_matches(fold_name(name), list(keys), n=1, cutoff=0.6)
    guess = ""
    if close:
        meant = keys[close[0]]
        guess = f"; did you mean {nicknames.get(meant, meant)!r}?"
    raise NotFoundError(
        f"no player {quoted(name)} in {campaign.slug!r} (players: {quote_choices(campaign.meta.players)}){guess}",
        code="player/not-found",
        params={
            "name": name,
            "suggestion": close and nicknames.get(keys[close[0]], keys[close[0]]),
        },
    )
