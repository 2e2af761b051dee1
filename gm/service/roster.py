"""``gm replace``, ``gm rename`` and ``gm nick``: the table's roster mid-game.

Each appends one public roster event (``gm.core.roster``) on its own, like
a setting, so ``gm undo`` takes it back and ``gm verify`` folds it; the new
name is checked by the platform's one rule for names
(``gm.core.names.check_name``), as ``gm new`` checks them. Only the roster
changes: the seat keeps its state, its events and its secrets. A
replacement may give the newcomer's gender (``--gender``: a ``GenderSet``
in the same append, before the notice renders). A replacement or a rename
prints a short public notice for the thread; a replacement also prints the
newcomer's private status, which tells them where their seat stands
(money, wounds, options, the order in force).
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.core import gender as genders
from gm.core.campaign import GenderSet
from gm.core.names import check_name, nfc
from gm.core.names import fold as fold_name
from gm.core.protocol import GM, Event, PostRef
from gm.core.roster import NicknameSet, PlayerRenamed, PlayerReplaced
from gm.errors import GameOverError, InputError
from gm.service import pipeline
from gm.service.actions import resolve_player
from gm.service.deciding import by_seat, to_record
from gm.service.env import Env
from gm.service.loading import Campaign, extend
from gm.service.pipeline import Worked
from gm.service.posts import ROSTER, publish, render_private, render_public
from gm.store.draft import Sink
from gm.store.records import CampaignInfo


@dataclass(frozen=True)
class Changed:
    """A roster change: the campaign after it, the notice and the newcomer's status."""

    campaign: Campaign
    notice: str | None = None
    status: str | None = None
    player: str = ""
    """The player's name after the change."""


def _taken(campaign: Campaign, seat: str | None = None) -> list[str]:
    """Every name and nickname at the table, but those of ``seat``."""
    meta = campaign.meta
    names = [meta.name(s) for s in meta.seats if s != seat]
    return [*names, *(n for n, s in meta.nicknames if s != seat)]


def replace_player(
    env: Env,
    slug: str,
    old: str,
    new: str,
    *,
    rename: bool = False,
    gender: str | None = None,
) -> Changed:
    """Seat ``new`` in ``old``'s place (``rename``: the same person, renamed);
    ``gender``: the newcomer's (``m``, ``f``, ``n``), for a replacement.

    :raises NotFoundError: ``old`` is not seated.
    :raises InputError: ``new`` is not a valid name, or already used.
    :raises GameOverError: the game is over.
    """
    wanted = genders.parse(gender) if gender is not None else None
    if rename and wanted is not None:
        raise InputError(
            "a renamed player keeps their gender: change it with 'gm set gender'",
            code="roster/gender",
        )

    def work(
        w: Sink, info: CampaignInfo, campaign: Campaign
    ) -> Worked[tuple[str, str, str, Campaign]]:
        if campaign.over:
            raise GameOverError("the game is over: its roster is final", code="phase/game-over")
        seat = resolve_player(campaign, old)
        before = campaign.meta.name(seat)
        if nfc(new) == before:
            raise InputError(f"{before!r} is already called so", code="roster/same-name")
        # the seat's own name and nicknames are free (a rename may change
        # only the case or the accents of one's name)
        name = check_name(new, _taken(campaign, seat), code="campaign/players")
        event: Event = PlayerRenamed(seat, name) if rename else PlayerReplaced(seat, name)
        records = [to_record(event, GM)]
        if wanted:
            records.append(to_record(GenderSet(seat, wanted), GM))
        stored = w.append(info.slug, by_seat(campaign, records), campaign.seq)
        after = extend(campaign, stored)
        # the notice is archived like any post: its proof carries the change to gm check
        ref = PostRef(ROSTER)
        notice = render_public(after, ref, after.head, env.templates)
        after, rows = publish(w, after, [(ref, notice)], env.templates, batch=stored[0].seq)
        return Worked((seat, rows[0].body, name, after), after)

    seat, notice, name, after = pipeline.run(env.store, slug, work)
    status = None if rename else render_private(after, "pm", seat, env.templates)
    return Changed(after, notice, status, name)


def nickname(env: Env, slug: str, player: str, nick: str) -> Changed:
    """Let ``nick`` designate ``player`` (« jp » for « Jean-Paul »).

    :raises InputError: a nickname that breaks the rule for names, is a
        seated name or another player's nickname, or a word the game's
        messages use.
    """

    def work(w: Sink, info: CampaignInfo, campaign: Campaign) -> Worked[Changed]:
        seat = resolve_player(campaign, player)
        meta = campaign.meta
        for other, owner in meta.nicknames:
            if fold_name(other) == fold_name(nick) and owner != seat:
                raise InputError(
                    f"{nfc(nick)!r} is already {meta.name(owner)}'s nickname",
                    code="roster/nickname-taken",
                )
        # a name of its own: never counted as a seat
        taken = [*meta.players, *(n for n, s in meta.nicknames if s != seat)]
        checked = check_name(nick, taken, code="campaign/players")
        unread = campaign.game.unread
        if unread is not None and not unread(campaign.state, seat, checked, campaign.table):
            # « bang », « le »: every message saying it would name the player
            raise InputError(
                f"{checked!r} is a word {campaign.game.title}'s messages use; choose another nickname",
                code="roster/nickname-word",
            )
        records = by_seat(campaign, [to_record(NicknameSet(seat, checked), GM)])
        stored = w.append(info.slug, records, campaign.seq)
        after = extend(campaign, stored)
        return Worked(Changed(after, player=meta.name(seat)), after)

    return pipeline.run(env.store, slug, work)
