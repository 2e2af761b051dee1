"""Deadlines: parsing what the MJ types, in the campaign's time zone.

Accepted: an absolute local time (``2026-12-03 20:00``, ``2026-12-03T20:00``,
``2026-12-03``: midnight is rarely meant, so a bare date means 20:00, the usual
forum deadline) or a delay from now (``+48h``, ``+2d``, ``+90m``, ``+1d12h``).
Deadlines are stored as ISO 8601 with the zone's offset.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.errors import InputError

_DELAY = re.compile(r"^\+(?:(\d+)\s*[dj])?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$", re.I)
_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %Hh%M", "%Y-%m-%d %Hh")
MAX_AHEAD = timedelta(days=366)
"""A deadline is at most a year away: a forum round never waits longer, and a
bound keeps ``+99999999999h`` from overflowing the calendar."""
VALID = "a local time like '2026-12-03 20:00', a date like '2026-12-03', or a delay like '+48h', '+2d', '+1d12h'"


def check_delay(text: str) -> str:
    """A delay such as ``+24h`` (the ``turn-deadline`` setting), normalised.

    :raises InputError: ``input/setting`` when it is not a delay from now.
    """
    raw = text.strip().replace(" ", "")
    delay = _DELAY.match(raw)
    if not (delay and any(delay.groups())):
        raise InputError(
            f"turn-deadline must be a delay like '+24h', '+2d' or '+1d12h', or 'off'; got {text!r}",
            code="input/setting",
        )
    parse_deadline(raw, datetime(2000, 1, 1, tzinfo=ZoneInfo("UTC")), "UTC")  # within a year
    return raw


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``.

    :raises InputError: naming the zone and an example of a valid one.
    """
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InputError(
            f"unknown time zone {name!r} (use an IANA name such as 'Europe/Paris')",
            code="input/timezone",
        ) from None


def parse_deadline(text: str, now: datetime, tz_name: str) -> datetime:
    """Parse a deadline typed by the MJ into an aware datetime in the campaign zone.

    :raises InputError: if the text is neither form, or the time is past or
        more than ``MAX_AHEAD`` away.
    """
    tz = zone(tz_name)
    raw = text.strip()
    delay = _DELAY.match(raw)
    if delay and any(delay.groups()):
        days, hours, minutes = (int(g) if g else 0 for g in delay.groups())
        minutes_ahead = (days * 24 + hours) * 60 + minutes
        if minutes_ahead > MAX_AHEAD.total_seconds() // 60:
            raise _too_far(text)
        later = (now + timedelta(minutes=minutes_ahead)).astimezone(tz)
        return later.replace(second=0, microsecond=0)
    at = _absolute(raw, tz)
    if at is None:
        raise InputError(f"cannot read the deadline {text!r}: use {VALID}", code="input/deadline")
    if at <= now:
        raise InputError(f"the deadline {text!r} is already past", code="input/deadline")
    if at - now > MAX_AHEAD:
        raise _too_far(text)
    return at


def _too_far(text: str) -> InputError:
    return InputError(
        f"the deadline {text!r} is more than {MAX_AHEAD.days} days away; give one within a year",
        code="input/deadline",
    )


def _absolute(raw: str, tz: ZoneInfo) -> datetime | None:
    for fmt in _FORMATS:
        try:
            return datetime.strptime(raw, fmt).replace(tzinfo=tz)
        except ValueError:
            continue
    try:
        return datetime.strptime(raw, "%Y-%m-%d").replace(hour=20, tzinfo=tz)
    except ValueError:
        return None


def time_left(at: datetime, now: datetime) -> str:
    """A short English rendering of the time until ``at`` (``1d 3h``, ``45m``, ``overdue 2h``)."""
    seconds = int((at - now).total_seconds())
    sign = "" if seconds >= 0 else "overdue "
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [
        f"{days}d" if days else "",
        f"{hours}h" if hours else "",
        f"{minutes}m" if minutes and not days else "",
    ]
    return sign + (" ".join(p for p in parts if p) or "0m")
