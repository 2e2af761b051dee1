"""The checker's one entry: ``main(argv, stdin) -> (exit code, report text)``.

``gm check`` (the command line) and the checker's web page (Pyodide) both
call it, so a player gets the same lines and exit code from both. It reads
files by their path (``-`` is ``stdin``), never prints, never exits.
"""

from __future__ import annotations

import argparse

from gm.check.reading import FORMATS, Unreadable
from gm.check.report import EXIT_UNREADABLE

USAGE = """\
gm check FICHIER... [--reply FICHIER]... [--format FORMAT]

Vérifie un fil de gm comme un joueur : chaque message porte sa preuve ; le
vérificateur recalcule la chaîne depuis le premier événement, rejoue la
partie avec les règles du jeu, refait les tirages une fois la graine
révélée, réécrit chaque message avec les modèles de gm et le compare, ligne
à ligne, au texte collé.

  FICHIER          un fichier (- pour l'entrée standard) : un message, des
                   messages collés à la suite, ou une chronique entière
  --reply FICHIER  une réponse privée de gm, collée entière : ses sceaux et
                   ce qu'elle dit sont comparés au registre rejoué
  --format FORMAT  auto (défaut), markdown, bbcode, html ou text (le texte
                   qu'un navigateur copie)

Codes de sortie :
  0  tout a été vérifié et concorde
  1  une différence ou un échec (DIFFÉRENT)
  2  entrée illisible ou erreur d'usage
  3  rien n'est contredit, mais tout n'a pas pu être vérifié (NON VÉRIFIÉ)

Exemples :
  gm check fil.md
  gm check ouverture.md tour1.md fin.md
  gm check fil.md --reply ma-reponse.txt
"""


class _Usage(Exception):
    """A usage error, with what to say."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _Usage(message)


def _parser() -> _Parser:
    parser = _Parser(prog="gm check", add_help=False, usage=USAGE)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--reply", action="append", default=[])
    parser.add_argument("--format", default="auto")
    parser.add_argument("-h", "--help", action="store_true")
    return parser


MAX_BYTES = 16 * 1024 * 1024
"""The most a file or standard input may hold (16 MiB; a whole thread of the
longest game gm allows is about 1.4 MB): more is refused, never read."""


def _read(path: str, stdin: str) -> str:
    if path == "-":
        if len(stdin) > MAX_BYTES or len(stdin.encode("utf-8", "replace")) > MAX_BYTES:
            raise Unreadable(f"entrée standard : plus de {MAX_BYTES // 2**20} Mio")
        return stdin
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as err:
        raise Unreadable(f"{path} : {err.strerror or err}") from None
    if len(data) > MAX_BYTES:
        raise Unreadable(f"{path} : plus de {MAX_BYTES // 2**20} Mio")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Unreadable(f"{path} : ce n'est pas du texte UTF-8 ({err.reason})") from None


def main(argv: list[str], stdin: str) -> tuple[int, str]:
    """See ``gm.check.main``."""
    try:
        args = _parser().parse_args(argv)
    except _Usage as err:
        return EXIT_UNREADABLE, f"ERREUR : {err}\n\n{USAGE}"
    if args.help:
        return 0, USAGE
    if not args.files:
        return (
            EXIT_UNREADABLE,
            f"ERREUR : donnez au moins un fichier (- pour l'entrée standard)\n\n{USAGE}",
        )
    if args.format not in FORMATS:
        return (
            EXIT_UNREADABLE,
            f"ERREUR : format « {args.format} » inconnu ; valides : {', '.join(FORMATS)}\n",
        )
    from gm.check.checker import check_thread
    from gm.check.replies import check_replies

    try:
        texts = [(_name(path), _read(path, stdin)) for path in args.files]
        replies = [(_name(path), _read(path, stdin)) for path in args.reply]
        outcome = check_thread(texts, fmt=args.format)
        check_replies(outcome, replies, fmt=args.format)
    except Unreadable as err:
        return EXIT_UNREADABLE, f"ERREUR : {err}\n"
    report = outcome.report
    return report.code, report.text()


def _name(path: str) -> str:
    return "entrée standard" if path == "-" else path
