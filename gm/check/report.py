"""The checker's report: for each post, what was verified and what was not, in French.

Players read it, in a terminal or in the checker's page: one section per
post (in the order of their numbers), then one for the whole game, then the
verdict. Every line starts with what it is:

* ``OK`` — verified, and it holds (what, from which records or posts);
* ``DIFFÉRENT`` — a mismatch or a failure: what, where (the input and its
  line), and what gm would print there;
* ``NON VÉRIFIÉ`` — could not be verified, and why (the seed is revealed at
  the end, a record is still sealed, a post is missing);
* ``ATTENTION`` — verified, but it proves less than it seems (a draw made
  with no player's word, a word the MJ typed, chance the MJ chose);
* ``NOTE`` — what a reader should know and changes nothing.

Exit codes: 0 everything verified, 1 a mismatch or a failure, 2 unreadable
input or usage, 3 nothing contradicted but something could not be verified.
"""

from __future__ import annotations

from dataclasses import dataclass, field

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_UNREADABLE = 2
EXIT_UNCHECKED = 3

OK = "OK"
BAD = "DIFFÉRENT"
MISSING = "NON VÉRIFIÉ"
WARN = "ATTENTION"
NOTE = "NOTE"


@dataclass
class Section:
    """The lines about one post (or the whole game)."""

    title: str
    lines: list[tuple[str, str]] = field(default_factory=list)


class Report:
    """What the checker found, section by section."""

    def __init__(self) -> None:
        self.head: list[str] = []
        self.sections: dict[object, Section] = {}
        self.failed = False
        self.unchecked = False

    def section(self, key: object, title: str) -> Section:
        """The section ``key``, opened with ``title`` the first time."""
        if key not in self.sections:
            self.sections[key] = Section(title)
        return self.sections[key]

    def add(self, key: object, level: str, text: str) -> None:
        section = self.sections[key]
        if (level, text) in section.lines:  # a finding reached twice is said once
            return
        section.lines.append((level, text))
        if level == BAD:
            self.failed = True
        elif level == MISSING:
            self.unchecked = True

    @property
    def code(self) -> int:
        if self.failed:
            return EXIT_MISMATCH
        return EXIT_UNCHECKED if self.unchecked else EXIT_OK

    def verdict(self) -> str:
        if self.failed:
            return "BILAN : au moins une différence ou un échec, voir DIFFÉRENT ci-dessus (code 1)."
        if self.unchecked:
            return (
                "BILAN : rien n'est contredit, mais tout n'a pas pu être vérifié, voir NON"
                " VÉRIFIÉ ci-dessus (code 3)."
            )
        return "BILAN : tout ce que ce fil publie a été vérifié et concorde, voir OK ci-dessus (code 0)."

    def text(self) -> str:
        out = [*self.head]
        for section in self.sections.values():
            if not section.lines:
                continue
            if out:
                out.append("")
            out.append(section.title)
            out.extend(f"  {level} : {text}" for level, text in section.lines)
        out += ["", self.verdict()]
        return "\n".join(out) + "\n"
