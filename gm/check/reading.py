"""The strict reader: a post's lines as a reader of the forum sees them.

A player pastes posts as they copied them: Markdown, BBCode, HTML, or plain
text as a browser copies a rendered page. ``read_lines`` gives the lines a
reader sees (markup resolved, emphasis dropped, code spans kept verbatim,
table rows as cells) and the *problems*: markup that can show or hide text
the checker cannot show the reader (HTML comments, colours, ``[size=0]``,
spoilers, links, raw HTML, invisible characters…), each a failure naming
its line. The checker reads gm's own render of a post through the same
reader, so two texts compare as what a reader sees, whatever the format.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser


class Unreadable(Exception):
    """The input cannot be read at all (exit 2)."""


@dataclass
class Line:
    """A line as a reader sees it: its text, the code spans in it (ranges of
    ``text``, when the markup has them), its table cells if it is a row."""

    no: int
    text: str
    codes: tuple[tuple[int, int], ...] = ()
    cells: tuple[str, ...] | None = None

    def code_texts(self) -> list[str]:
        return [self.text[a:b] for a, b in self.codes]


Problem = tuple[int, str]  # (line number, what is wrong there)

_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MD_LINK = re.compile(r"\[[^\]\n]*\][(\[]")
_TAGLIKE = re.compile(r"\[(/?)([A-Za-z*][A-Za-z0-9*]*)(?:=([^\]\n]*))?\]")
_INVISIBLE_OK = {"\t"}


@functools.cache
def _invisible(ch: str) -> bool:
    """A character that shows nothing: a format or control character, private
    use, a line or paragraph separator (a tab is a table's cell break)."""
    return ch not in _INVISIBLE_OK and unicodedata.category(ch) in ("Cf", "Cc", "Co", "Zl", "Zp")


def _hidden(what: str) -> str:
    return f"{what} : ce qu'elle montre ou cache, le vérificateur ne peut pas le montrer au lecteur"


def _md_inline(s: str, no: int, problems: list[Problem]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A line of Markdown as displayed: escapes resolved, emphasis dropped, code
    spans kept verbatim (their ranges returned); markup that can hide or
    change text is a problem."""
    out: list[str] = []
    size = 0
    codes: list[tuple[int, int]] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n and s[i + 1] in _ASCII_PUNCT:
            out.append(s[i + 1])
            size += 1
            i += 2
            continue
        if c == "`":
            j = i
            while j < n and s[j] == "`":
                j += 1
            run, k, close = j - i, j, -1
            while k < n:
                if s[k] == "`":
                    m = k
                    while m < n and s[m] == "`":
                        m += 1
                    if m - k == run:
                        close = k
                        break
                    k = m
                else:
                    k += 1
            if close < 0:
                out.append("`" * run)
                size += run
                i = j
                continue
            content = s[j:close]
            if len(content) >= 2 and content[0] == content[-1] == " " and content.strip(" "):
                content = content[1:-1]
            codes.append((size, size + len(content)))
            out.append(content)
            size += len(content)
            i = close + run
            continue
        if c in "*_":
            i += 1
            continue
        if c in "<>":
            problems.append((no, _hidden("HTML brut ou commentaire (« < » ou « > »)")))
        elif c == "&" and _ENTITY.match(s, i):
            problems.append((no, _hidden("entité HTML")))
        elif c == "~" and s.startswith("~~", i):
            problems.append((no, _hidden("texte barré")))
        elif c == "[" and (_MD_LINK.match(s, i) or s.startswith("[^", i)):
            problems.append((no, _hidden("lien, image ou note")))
        elif c == "[" and _TAGLIKE.match(s, i):
            tag = _TAGLIKE.match(s, i)
            assert tag is not None
            problems.append((no, _hidden(f"balise {tag[0]}")))
        out.append(c)
        size += 1
        i += 1
    return "".join(out), tuple(codes)


def _split_md_row(s: str) -> list[str]:
    """Cells of a Markdown table row: split on unescaped pipes."""
    cells, cur, i = [], [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            cur.append(s[i : i + 2])
            i += 2
            continue
        if s[i] == "|":
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(s[i])
        i += 1
    cells.append("".join(cur))
    if cells and not cells[0].strip():
        cells = cells[1:]
    if cells and not cells[-1].strip():
        cells = cells[:-1]
    return cells


def _markdown_lines(text: str, problems: list[Problem]) -> list[Line]:
    lines: list[Line] = []
    # An indented code block after a blank line, outside a list, is shown
    # verbatim (a diagram): its lines are read as they are. Anywhere else an
    # indented line may be code or a list's continuation: refused.
    blank, in_list, in_code = True, False, False
    for no, raw in enumerate(text.split("\n"), 1):
        stripped = raw.rstrip()
        if not stripped.strip():
            blank = True
            continue
        indented = re.match(r"(?: {4}|\t)", stripped)
        if indented and (in_code or (blank and not in_list)):
            in_code, blank = True, False
            lines.append(Line(no, stripped[indented.end() :], ()))
            continue
        in_code = False
        if indented:
            problems.append((no, _hidden("bloc de code indenté")))
        starts_item = re.match(r"\s*(?:[-*+]|\d{1,9}[.)]) +", stripped) is not None
        in_list = starts_item or (in_list and not blank)
        blank = False
        s = stripped.strip()
        if re.fullmatch(r"([-*_])(?: *\1){2,}", s) or re.fullmatch(r"=+", s):
            continue  # a thematic break or a heading's underline
        if s.startswith(">"):
            problems.append((no, _hidden("citation")))
        if re.match(r"\[[^\]]+\]:", s):
            problems.append((no, _hidden("définition de lien (invisible)")))
        if s.startswith("|"):
            cells = _split_md_row(s)
            if all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in cells):
                continue
            lines.append(
                Line(
                    no, "", (), tuple(_md_inline(c.strip(), no, problems)[0].strip() for c in cells)
                )
            )
            continue
        heading = re.match(r"#{1,6}(?: +|$)", s)
        if heading:
            s = re.sub(r" +#+ *$", "", s[heading.end() :])
        bullet = re.match(r"(?:[-*+]|\d{1,9}[.)]) +", s)
        if bullet:
            s = s[bullet.end() :]
        shown, codes = _md_inline(s, no, problems)
        lines.append(Line(no, shown, codes))
    return lines


_BB_ALLOWED: dict[str, set[str | None]] = {
    "b": {None},
    "i": {None},
    "size": {"150", "120"},
    "list": {None, "1"},
    "*": {None},
    "table": {None},
    "tr": {None},
    "th": {None},
    "td": {None},
    "code": {None},
}


def _bbcode_lines(text: str, problems: list[Problem]) -> list[Line]:
    """BBCode as a forum shows it; tags other than gm's are problems."""
    lines: list[Line] = []
    buf: list[str] = []
    cells: list[str] | None = None
    in_code = False
    no = start = 1

    def flush() -> None:
        nonlocal buf, start
        shown = "".join(buf).strip()
        if in_code and shown:
            if not re.fullmatch(r"[- ]+", shown):
                lines.append(Line(start, "", (), tuple(re.split(r" {2,}", shown))))
        elif shown:
            lines.append(Line(start, shown))
        buf = []
        start = no

    i = 0
    while i < len(text):
        c = text[i]
        if c == "\n":
            if cells is None:
                flush()
            no += 1
            if cells is None:
                start = no
            i += 1
            continue
        if c == "[" and text.startswith("\u200b", i + 1):
            buf.append("[")  # gm breaks a player's [tag] with U+200B: plain text
            i += 2
            continue
        if c == "[":
            if in_code:
                if text[i : i + 7].lower() == "[/code]":
                    flush()
                    in_code = False
                    i += 7
                    continue
                buf.append(c)
                i += 1
                continue
            tag = _TAGLIKE.match(text, i)
            if tag is not None:
                name, value = tag[2].lower(), tag[3]
                if name not in _BB_ALLOWED or (not tag[1] and value not in _BB_ALLOWED[name]):
                    problems.append((no, _hidden(f"balise {tag[0]}")))
                elif name == "tr":
                    if tag[1]:
                        if cells is not None:
                            lines.append(Line(start, "", (), tuple(cells)))
                        cells = None
                        start = no
                    else:
                        flush()
                        cells = []
                elif name in ("td", "th") and cells is not None:
                    if tag[1]:
                        cells.append("".join(buf).strip())
                    buf = []
                elif name in ("*", "list", "table"):
                    flush()
                elif name == "code" and not tag[1]:
                    flush()
                    in_code = True
                i = tag.end()
                continue
        buf.append(c)
        i += 1
    flush()
    return lines


class _HtmlReader(HTMLParser):
    BLOCKS = frozenset(
        [
            "p",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "li",
            "ul",
            "ol",
            "table",
            "thead",
            "tbody",
            "hr",
            "pre",
        ]
    )
    INLINE = frozenset(["strong", "em", "code", "br", "tr", "th", "td"])

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(convert_charrefs=True)
        self.problems = problems
        self.lines: list[Line] = []
        self.buf: list[str] = []
        self.size = 0
        self.codes: list[tuple[int, int]] = []
        self.code_start: int | None = None
        self.cells: list[str] | None = None
        self.pre = 0

    def _problem(self, what: str) -> None:
        self.problems.append((self.getpos()[0], _hidden(what)))

    def flush(self) -> None:
        shown = "".join(self.buf)
        stripped = shown.strip(" ")
        lead = len(shown) - len(shown.lstrip(" "))
        codes = tuple((max(0, a - lead), min(len(stripped), b - lead)) for a, b in self.codes)
        if stripped:
            self.lines.append(Line(self.getpos()[0], stripped, codes))
        self.buf, self.size, self.codes = [], 0, []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.BLOCKS | self.INLINE:
            self._problem(f"balise <{tag}>")
        for key, value in attrs:
            align = tag in ("th", "td") and key in ("align", "style")
            if not (
                align and re.fullmatch(r"(?:text-align: ?)?(?:left|right|center);?", value or "")
            ):
                self._problem(f"attribut {key}=« {value} » de <{tag}>")
        if tag == "br":
            self.flush()
        elif tag == "tr":
            self.flush()
            self.cells = []
        elif tag in ("td", "th"):
            self.buf, self.size, self.codes = [], 0, []
        elif tag == "code":
            self.code_start = self.size
        elif tag in self.BLOCKS:
            self.flush()
            if tag == "pre":
                self.pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            if self.cells is not None:
                self.lines.append(Line(self.getpos()[0], "", (), tuple(self.cells)))
            self.cells = None
            self.buf, self.size, self.codes = [], 0, []
        elif tag in ("td", "th") and self.cells is not None:
            self.cells.append("".join(self.buf).strip(" "))
            self.buf, self.size, self.codes = [], 0, []
        elif tag == "code" and self.code_start is not None:
            self.codes.append((self.code_start, self.size))
            self.code_start = None
        elif tag in self.BLOCKS:
            if tag == "pre":
                self.pre -= 1
            self.flush()

    def handle_data(self, data: str) -> None:
        if not self.pre:
            data = re.sub(r"[ \t\n\r\f]+", " ", data)
            if self.buf and self.buf[-1].endswith(" ") and data.startswith(" "):
                data = data[1:]
            if not self.buf and self.cells is None:
                data = data.lstrip(" ")
        if self.pre and "\n" in data:
            first, *rest = data.split("\n")
            self.buf.append(first)
            for part in rest:
                self.flush()
                self.buf.append(part)
            self.size = sum(map(len, self.buf))
            return
        self.buf.append(data)
        self.size += len(data)

    def handle_comment(self, data: str) -> None:
        self._problem("commentaire HTML <!-- … -->")

    def handle_decl(self, decl: str) -> None:
        self._problem("déclaration HTML")

    def handle_pi(self, data: str) -> None:
        self._problem("instruction HTML")

    def unknown_decl(self, data: str) -> None:
        self._problem("déclaration HTML")


def _html_lines(text: str, problems: list[Problem]) -> list[Line]:
    reader = _HtmlReader(problems)
    try:
        reader.feed(text)
        reader.close()
    except AssertionError as err:  # html.parser's way of giving up on broken markup
        raise Unreadable(f"du HTML illisible : {err}") from None
    reader.flush()
    return reader.lines


_STYLING_TAG = re.compile(
    r"\[/?(?:color|colour|size|font|bgcolor|highlight|spoiler|hide|hidden|blur|s|strike|u|sub|sup|url|img|quote|code)\b[^\]\n]*\]",
    re.IGNORECASE,
)


def _plain_lines(text: str, problems: list[Problem]) -> list[Line]:
    """Plain text as a browser copies it (no markup at all): a styling tag in
    it is a post written for a forum that was not read as one."""
    lines = []
    for no, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        tag = _STYLING_TAG.search(raw)
        if tag:
            problems.append((no, _hidden(f"balise {tag[0]}")))
        if "\t" in raw.strip():
            cells = tuple(c.strip() for c in raw.strip().split("\t"))
            lines.append(Line(no, "", (), cells))
            continue
        s = re.sub(r"^[•◦▪·*-]\s+", "", raw.strip())
        lines.append(Line(no, s))
    return lines


FORMATS = ("auto", "markdown", "bbcode", "html", "text")


def detect_format(text: str) -> str:
    """HTML, BBCode or Markdown by gm's markup (titles, lists, tables, code),
    else plain text as a browser copies it: a player's name such as « Mo[b] »
    or « *Zoé* » does not make a copied text BBCode or Markdown."""
    if re.match(r"\s*<", text):
        return "html"
    if re.search(r"\[size=1[25]0\]\[b\]|^\[\*\]|^\[/?(?:list|table|code)\]", text, re.I | re.M):
        return "bbcode"
    if re.search(r"^#{1,6} \S|`[0-9a-f]{8,}`|^\|.*\|$|^ {4}\S", text, re.MULTILINE):
        return "markdown"
    return "text"


_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " "})


def read_lines(text: str, fmt: str = "auto") -> tuple[str, list[Line], list[Problem]]:
    """The lines of a text as a reader sees them, and what hides something."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    # gm puts U+2060 WORD JOINER into names and players' texts where a forum would
    # make a smiley or a link of them (« :⁠D », « http:⁠//… »): it shows nothing and
    # hides nothing, and the names it is in are sealed without it.
    text = text.replace("\u2060", "")
    if fmt == "auto":
        fmt = detect_format(text)
    problems: list[Problem] = []
    if "<!--" in text and fmt != "html":
        no = text[: text.index("<!--")].count("\n") + 1
        problems.append((no, _hidden("commentaire HTML <!-- … -->")))
    reader = {"markdown": _markdown_lines, "bbcode": _bbcode_lines, "html": _html_lines}.get(
        fmt, _plain_lines
    )
    lines = reader(text, problems)
    out = []
    for line in lines:
        cells = None
        if line.cells is not None:
            cells = tuple(
                unicodedata.normalize("NFC", c.translate(_SPACES)).strip() for c in line.cells
            )
        shown = unicodedata.normalize("NFC", line.text.translate(_SPACES))
        codes = line.codes if len(shown) == len(line.text) else ()
        seen = shown + "".join(cells or ())
        hidden = [ch for ch in set(seen) if _invisible(ch)]
        if hidden:
            ch = min(hidden, key=seen.index)
            name = unicodedata.name(ch, "?")
            problems.append((line.no, f"caractère invisible U+{ord(ch):04X} ({name})"))
        if cells is not None:
            if any(cells):  # a table without rows shows one empty row in HTML
                out.append(Line(line.no, "\t".join(cells), (), cells))
        elif re.fullmatch(r"[—\s]*", shown):
            continue  # an empty row of a table written as a list
        else:
            stripped = shown.strip()
            lead = len(shown) - len(shown.lstrip())
            codes = (
                tuple((a - lead, b - lead) for a, b in codes)
                if stripped == shown[lead : lead + len(stripped)]
                else ()
            )
            out.append(Line(line.no, stripped, codes))
    return fmt, out, problems
