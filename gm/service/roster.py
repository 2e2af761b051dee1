"""``gm replace``, ``gm rename`` and ``gm nick``: the table's roster mid-game.

Each appends one public roster event (``gm.core.roster``) on its own, like
a setting, so ``gm undo`` takes it back and ``gm verify`` folds it; the new
name is checked as ``gm new`` checks names (the game's own rules included).
A replacement or a rename prints a short public notice for the thread;
a replacement also prints the newcomer's private status, which tells them
where their seat stands (money, wounds, options, the order in force).
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.names import fold as fold_name
from gm.core.names import nfc
from gm.core.protocol import GM, Event, PostRef
from gm.core.roster import NicknameSet, PlayerRenamed, PlayerReplaced
from gm.errors import GameOverError, InputError
from gm.service.actions import resolve_player
from gm.service.campaigns import check_players
from gm.service.deciding import to_record
from gm.service.env import Env
from gm.service.loading import Campaign, extend, fold
from gm.service.posts import ROSTER, publish, render_private, render_public


@dataclass(frozen=True)
class Changed:
    """A roster change: the campaign after it, the notice and the newcomer's status."""

    campaign: Campaign
    notice: str | None = None
    status: str | None = None
    player: str = ""


def replace_player(env: Env, slug: str, old: str, new: str, *, rename: bool = False) -> Changed:
    """Seat ``new`` in ``old``'s place (``rename``: the same person, renamed).

    :raises NotFoundError: ``old`` is not seated.
    :raises InputError: ``new`` is not a valid name, or already seated.
    :raises GameOverError: the game is over.
    """
    with env.store.write(slug) as w:
        info = env.store.campaign(slug)
        campaign = fold(info.slug, info.game, w.events(info.slug))
        if campaign.over:
            raise GameOverError("the game is over: its roster is final", code="phase/game-over")
        seated = resolve_player(campaign, old)
        name = nfc(new)
        if name == seated:
            raise InputError(f"{seated!r} is already called so", code="roster/same-name")
        players = [name if p == seated else p for p in campaign.meta.players]
        check_players(campaign.game.id, players)
        campaign.game.configure(players, campaign.meta.options)  # the game's own name rules
        event: Event = PlayerRenamed(seated, name) if rename else PlayerReplaced(seated, name)
        stored = w.append(info.slug, [to_record(event, GM)], campaign.seq)
        after = extend(campaign, stored)
        # the notice is archived like any post: gm check-post reads the change from it
        ref = PostRef(ROSTER)
        notice = render_public(after, ref, after.head, env.templates)
        after, _ = publish(w, after, [(ref, notice)], env.templates, batch=stored[0].seq)
    status = None if rename else render_private(after, "pm", name, env.templates)
    return Changed(after, notice, status, name)


def nickname(env: Env, slug: str, player: str, nick: str) -> Changed:
    """Let ``nick`` designate ``player`` (« jp » for « Jean-Paul »).

    :raises InputError: a nickname that is a seated name or another player's
        nickname, or not a valid name.
    """
    with env.store.write(slug) as w:
        info = env.store.campaign(slug)
        campaign = fold(info.slug, info.game, w.events(info.slug))
        name = resolve_player(campaign, player)
        nick = nfc(nick)
        check_players(campaign.game.id, [*campaign.meta.players, nick])  # a name of its own
        unread = campaign.game.unread
        if unread is not None and not unread(campaign.state, name, nick):
            # « bang », « le »: every message saying it would name the player
            raise InputError(
                f"{nick!r} is a word {campaign.game.title}'s messages use; choose another nickname",
                code="roster/nickname-word",
            )
        for other, owner in campaign.meta.nicknames:
            if fold_name(other) == fold_name(nick) and owner != name:
                raise InputError(
                    f"{nick!r} is already {owner}'s nickname", code="roster/nickname-taken"
                )
        stored = w.append(info.slug, [to_record(NicknameSet(name, nick), GM)], campaign.seq)
    return Changed(extend(campaign, stored), player=name)
