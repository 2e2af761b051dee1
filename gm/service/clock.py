"""Deadlines: parsing what the MJ types, in the campaign's time zone.

Accepted, by one parser for every deadline the MJ types (``--deadline``,
``gm deadline``, ``turn-deadline``):

* an absolute local time as ISO (``2026-12-03 20:00``, ``2026-12-03T20:00``)
  or as French players write it (``03/12/2026 20:00``, ``3/12 20h``,
  ``3.12.2026 20h30``; a date without a year is the next one to come);
* a weekday, or « demain » / « aujourd'hui », with a time (``jeudi 20h``,
  ``demain 18h30``): the next such day whose time is still ahead;
* a delay (``+48h``, ``+2d``, ``+2j``, ``+90m``, ``+1d12h``), from now, or
  from the current deadline when the MJ moves it (``gm deadline +24h``),
  rounded up to the next quarter of an hour: typed at 5:37, ``+24h`` is
  5:45 the next day (players read « 5 h 45 », not an odd « 5 h 37 »).

A date without a time means 20:00, the usual forum deadline (midnight is
rarely meant). Deadlines are stored as ISO 8601 with the zone's offset.
The small grammar is written here rather than taken from ``dateparser``:
it is a handful of forms, and a wide parser would read a typo as a date.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from gm.errors import InputError, quoted

_DELAY = re.compile(r"^\+(?:(\d+)\s*[dj])?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$", re.I)
_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %Hh%M", "%Y-%m-%d %Hh")
MAX_AHEAD = timedelta(days=366)
"""A deadline is at most a year away: a forum round never waits longer, and a
bound keeps ``+99999999999h`` from overflowing the calendar."""
VALID = (
    "a local time like '2026-12-03 20:00', '03/12/2026 20:00', '3/12 20h' or 'jeudi 20h',"
    " a date like '2026-12-03', or a delay like '+48h', '+2j', '+1d12h'"
)
EVENING = time(20, 0)
"""The time of a deadline given as a date alone."""
_TIME = r"(?:\s*(?:à\s*)?(?P<hour>\d{1,2})\s*(?:[h:]\s*(?P<minute>\d{2})?|h))?"
_DMY = re.compile(
    r"^(?P<day>\d{1,2})[/.](?P<month>\d{1,2})(?:[/.](?P<year>\d{2}|\d{4}))?" + _TIME + "$", re.I
)
_WEEKDAY = re.compile(r"^(?P<day>[a-zéû'-]+)(?:\s+prochain)?" + _TIME + "$", re.I)
WEEKDAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")
_DAYS_AHEAD = {"aujourd'hui": 0, "aujourdhui": 0, "demain": 1, "après-demain": 2}


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


MAX_ZONE = 64
"""Characters of a time zone name gm looks up."""


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``.

    :raises InputError: naming the zone and an example of a valid one.
    """
    try:
        if len(name) > MAX_ZONE:  # the zone database's longest name has 32 characters
            raise ValueError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a file
        raise InputError(
            f"unknown time zone {quoted(name)} (use an IANA name such as 'Europe/Paris')",
            code="input/timezone",
        ) from None


def parse_deadline(
    text: str, now: datetime, tz_name: str, base: datetime | None = None
) -> datetime:
    """Parse a deadline typed by the MJ into an aware datetime in the campaign zone.

    A delay counts from ``base`` when given (the deadline being moved), else
    from ``now``.

    :raises InputError: if the text is none of the forms, or the time is past
        or more than ``MAX_AHEAD`` away.
    """
    tz = zone(tz_name)
    raw = " ".join(text.split())
    delay = _DELAY.match(raw)
    if delay and any(delay.groups()):
        days, hours, minutes = (int(g) if g else 0 for g in delay.groups())
        minutes_ahead = (days * 24 + hours) * 60 + minutes
        if minutes_ahead > MAX_AHEAD.total_seconds() // 60:
            raise _too_far(text)
        later = _quarter_up(((base or now) + timedelta(minutes=minutes_ahead)).astimezone(tz))
        if later <= now:
            raise InputError(f"the deadline {quoted(text)} is already past", code="input/deadline")
        return later
    at = _absolute(raw, tz) or _french(raw, now.astimezone(tz), tz)
    if at is None:
        raise InputError(f"cannot read the deadline {quoted(text)}: use {VALID}", code="input/deadline")
    if at <= now:
        raise InputError(f"the deadline {quoted(text)} is already past", code="input/deadline")
    if at - now > MAX_AHEAD:
        raise _too_far(text)
    return at


QUARTER = 15
"""Minutes a delay's deadline is rounded up to: « jeudi à 5 h 45 », never « 5 h 37 »."""


def _quarter_up(moment: datetime) -> datetime:
    """``moment`` rounded up to the next quarter of an hour (itself if it is one):
    a delay counts from the minute the MJ typed it, a forum's deadline falls on
    the clock's quarters; rounding up never gives less time than asked."""
    if moment.minute % QUARTER == 0 and not moment.second and not moment.microsecond:
        return moment
    ahead = QUARTER - moment.minute % QUARTER
    return (moment + timedelta(minutes=ahead)).replace(second=0, microsecond=0)


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


def _french(raw: str, now: datetime, tz: ZoneInfo) -> datetime | None:
    """``03/12/2026 20:00``, ``3/12 20h``, ``jeudi 20h``, ``demain 18h30``."""
    match = _DMY.match(raw)
    if match is not None:
        at = _clock(match)
        if at is None:
            return None
        day, month, year = int(match["day"]), int(match["month"]), match["year"]
        years = [int(year) + (2000 if len(year) == 2 else 0)] if year else [now.year, now.year + 1]
        for y in years:
            try:
                when = datetime.combine(date(y, month, day), at, tz)
            except ValueError:
                return None
            # « 3/1 » typed in December is next January; « 30/11 » typed on
            # 1/12 is a slip, reported as past rather than moved a year on
            if year or when > now or now - when < timedelta(days=31):
                return when
        return None
    match = _WEEKDAY.match(raw)
    if match is None:
        return None
    at = _clock(match)
    name = match["day"].lower()
    if at is None:
        return None
    if name in _DAYS_AHEAD:
        return datetime.combine(now.date() + timedelta(days=_DAYS_AHEAD[name]), at, tz)
    if name not in WEEKDAYS:
        return None
    ahead = (WEEKDAYS.index(name) - now.weekday()) % 7
    when = datetime.combine(now.date() + timedelta(days=ahead), at, tz)
    return when if when > now else when + timedelta(days=7)


def _clock(match: re.Match[str]) -> time | None:
    if match["hour"] is None:
        return EVENING
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


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
