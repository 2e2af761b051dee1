"""Players' grammatical gender: how the MJ writes it, and how it is stored.

French agrees adjectives and participles with the person they describe
(« sonné », « sonnée »). Each player may have a gender, given when the
campaign is created (``Élodie:f``) or later (``gm set gender Élodie f``);
a player without one gets neutral wording in every post (« groggy »,
« hors-jeu »), never a masculine by default. The gender is recorded by a
platform event (``gm.campaign.GenderSet``); the render layer's filters do
the agreeing (``gm.render.grammar``).
"""

from __future__ import annotations

from gm.errors import InputError

MASCULINE = "m"
FEMININE = "f"
NEUTRAL = ""
"""No gender given: posts use wording that needs no agreement."""

GENDERS = (MASCULINE, FEMININE, NEUTRAL)

_SPELLINGS = {
    "m": MASCULINE,
    "masculin": MASCULINE,
    "f": FEMININE,
    "féminin": FEMININE,
    "feminin": FEMININE,
    "n": NEUTRAL,
    "neutre": NEUTRAL,
    "-": NEUTRAL,
}
_SUFFIXES = ("m", "f", "n")


def parse(value: str) -> str:
    """A gender as the MJ types it (``m``, ``f``, ``n``; or ``masculin``,
    ``féminin``, ``neutre``) → its stored form (``"m"``, ``"f"``, ``""``).

    :raises InputError: ``input/gender``, naming the valid spellings.
    """
    found = _SPELLINGS.get(value.strip().casefold())
    if found is None:
        raise InputError(
            f"unknown gender {value!r}: use m (masculine), f (feminine) or n (neutral:"
            " wording that needs no agreement)",
            code="input/gender",
        )
    return found


def split_player(raw: str) -> tuple[str, str | None]:
    """``"Élodie:f"`` → ``("Élodie", "f")``; ``"marco"`` → ``("marco", None)``.

    Only a final ``:m``, ``:f`` or ``:n`` is a gender, so a name with another
    colon in it (« Dr:House ») stays as typed.
    """
    name, sep, suffix = raw.rpartition(":")
    if sep and suffix.strip().casefold() in _SUFFIXES and name.strip():
        return name, parse(suffix)
    return raw, None
