"""Names: NFC, case- and accent-insensitive keys, slugs."""

from gm.core.names import fold, nfc, slugify


def test_fold_ignores_case_accents_and_decomposition() -> None:
    assert fold("Élodie") == fold("elodie") == fold("E\u0301LODIE")
    assert fold("  Jean   Paul ") == "jean paul"


def test_nfc_collapses_whitespace() -> None:
    assert nfc(" le\tgrand  blond ") == "le grand blond"


def test_slugify() -> None:
    assert slugify("Le casse du siècle") == "le-casse-du-siecle"
    assert slugify("«  !!! »") == ""
