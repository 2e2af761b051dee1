"""Names: NFC, case- and accent-insensitive keys, slugs."""

import re

from gm.core.names import fold, leading, nfc, slugify


def test_fold_ignores_case_accents_and_decomposition() -> None:
    assert fold("Élodie") == fold("elodie") == fold("E\u0301LODIE")
    assert fold("  Jean   Paul ") == "jean paul"


def test_nfc_collapses_whitespace() -> None:
    assert nfc(" le\tgrand  blond ") == "le grand blond"


def test_slugify() -> None:
    assert slugify("Le casse du siècle") == "le-casse-du-siecle"
    assert slugify("«  !!! »") == ""


def _words(text: str) -> list[str]:
    """A game's split: letters and digits, the rest separates words."""
    return re.findall(r"[0-9a-z]+", fold(text))


def test_leading_reads_a_name_as_the_game_splits_words() -> None:
    labels = [("Jean", "j"), ("Jean-Paul", "jp"), ("d'Artagnan", "d"), ("Calamity Jane", "cj")]
    assert leading("Calamity Jane : Tir", labels, _words) == ("cj", ": Tir")
    assert leading("JEAN PAUL : Tir", labels, _words) == ("jp", ": Tir")
    assert leading("Jean-Paul Tir : sur Jean", labels, _words) == ("jp", "Tir : sur Jean")
    assert leading("Jean : Tir", labels, _words) == ("j", ": Tir")
    assert leading("d Artagnan 2 1", labels, _words) == ("d", "2 1")
    assert leading("Élodie : Tir", [("elodie", "e")], _words) == ("e", ": Tir")
    # whole words only: « Jeanne » is not Jean
    assert leading("Jeanne : Tir", labels, _words) is None
