"""The checker page in a real browser (chromium through Playwright).

The page ``gm checker`` writes, opened from its file as a player opens it:
it runs the recorded checker calls with the same results as gm_check.py;
it checks a Le Magot thread pasted in any order (OK), says which line
differs in a tampered one with the value drawn again next to the one shown
(DIFFÉRENT), says what it could not check and why (NON VÉRIFIÉ); it speaks
English when asked (``#en``), checks a private reply's seals, and shows
gm's version and the live SHA-256 of its script, the builder's. It makes no
request at all (every test watches: see browser_support.py), offline too,
and its CSP refuses an image injected into it.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser_support import Browsing, Built
from gmcheck_support import TOOL, Played, play_random
from vectors_support import attacks, corpus, describe_mismatch, load, same

import gm

pytestmark = pytest.mark.browser

SAMPLE = 240
"""Recorded vectors replayed in the page besides every attack (Node replays them all)."""
BATCH = 60


@pytest.fixture(scope="module")
def magot(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play_random("magot", 0, str(tmp_path_factory.mktemp("page-magot") / "gm.db"))


def python(tmp: Path, texts: list[str], *args: str) -> tuple[int, list[str]]:
    """gm_check.py on the same texts, one file each."""
    names = []
    for i, text in enumerate(texts, start=1):
        path = tmp / f"message-{i}"
        path.write_text(text, encoding="utf-8")
        names.append(path.name)  # named as the page names its boxes
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(TOOL), "thread", *names, *args],
        cwd=tmp,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    return done.returncode, done.stdout.splitlines()


def french(line: str) -> str:
    """The French half of a report line, without its kind."""
    for head, sep in (
        ("DIFFÉRENT : ", " / MISMATCH: "),
        ("NON VÉRIFIÉ : ", " / NOT CHECKED: "),
    ):
        if line.startswith(head):
            return line[len(head) :].split(sep)[0]
    raise AssertionError(line)


def test_recorded_vectors_agree_in_the_page(
    browsing: Browsing, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, origin = corpus(str(tmp_path_factory.getbasetemp()))
    vectors = load(folder)
    assert vectors, f"no vector recorded in {folder}"
    hostile = set(attacks(vectors))
    assert hostile, "no attack vector recorded"
    others = [i for i in range(len(vectors)) if i not in hostile]
    chosen = sorted(hostile | set(random.Random(17).sample(others, min(SAMPLE, len(others)))))
    browsing.open()
    results: list[dict[str, Any]] = []
    for start in range(0, len(chosen), BATCH):
        batch = [
            {"args": vectors[i]["args"], "stdin": vectors[i]["stdin"], "files": vectors[i]["files"]}
            for i in chosen[start : start + BATCH]
        ]
        results += browsing.page.evaluate(
            """async (batch) => {
                const out = [];
                for (const v of batch) {
                  const io = {
                    stdin: v.stdin,
                    read(p) {
                      if (p === "-") return v.stdin ?? "";
                      if (!(p in v.files)) throw Object.assign(new Error(`[Errno 2] No such file or directory: '${p}'`), { pyType: "OSError" });
                      return v.files[p];
                    },
                  };
                  try { out.push(await gmCheck.run(v.args, io)); }
                  catch (err) { out.push({ code: -1, stdout: [], stderr: [String(err && err.stack || err)] }); }
                }
                return out;
            }""",
            batch,
        )
    bad = [
        describe_mismatch(vectors[i], r)
        for i, r in zip(chosen, results, strict=True)
        if not same(vectors[i], r)
    ]
    with capsys.disabled():
        print(
            f"\n{origin}; in chromium: {len(chosen) - len(bad)} of {len(chosen)} agree ({len(hostile)} attacks)"
        )
    assert not bad, f"{len(bad)} of {len(chosen)} vectors differ in the page:\n" + "\n".join(bad)
    escaped = [
        vectors[i]["test"]
        for i, r in zip(chosen, results, strict=True)
        if i in hostile and r["code"] != 1
    ]
    assert not escaped, escaped


def test_a_magot_thread_pasted_in_any_order_is_ok(
    browsing: Browsing, magot: Played, tmp_path: Path
) -> None:
    bodies = magot.bodies()
    shuffled = random.Random(3).sample(bodies, len(bodies))
    # three posts in boxes of their own, the rest one after the other in a fourth
    texts = [*shuffled[:3], "\n".join(shuffled[3:])]
    code, out = python(tmp_path, texts)
    assert code == 0
    browsing.open()
    browsing.paste(texts)
    assert browsing.check() == (
        "OK",
        "Tout ce qui a été vérifié concorde.",
        "BILAN : tout ce qui a été vérifié concorde (code 0)",
    )
    assert browsing.items("#unchecked-lines") == [("none", "Rien : tout a été vérifié.")]
    assert browsing.page.is_hidden("#bad-lines")
    lines = browsing.items("#lines")
    assert len(lines) == len(out) - 1  # every report line but the summary
    assert {k for k, _ in lines} <= {"ok", "note"}
    assert any("la graine correspond au sceau" in t for _, t in lines)
    browsing.shot("ok")


def test_a_tampered_draw_is_different_with_both_values(
    browsing: Browsing, magot: Played, tmp_path: Path
) -> None:
    bodies = magot.bodies()
    i = next(i for i, b in enumerate(bodies) if "`round-2/bills" in b)
    bodies[i] = re.sub(
        r"(nouveaux billets[^\d]+)(\d+)",
        lambda m: m[1] + ("20" if m[2] != "20" else "10"),
        bodies[i],
        count=1,
    )
    code, out = python(tmp_path, ["\n".join(bodies)])
    assert code == 1
    expected = [french(line) for line in out if line.startswith("DIFFÉRENT")]
    browsing.open()
    browsing.paste(["\n".join(bodies)])
    word, help_, summary = browsing.check()
    assert (word, help_) == (
        "DIFFÉRENT",
        "Au moins une différence : voir les lignes DIFFÉRENT ci-dessous.",
    )
    assert summary == "BILAN : au moins une différence, voir DIFFÉRENT ci-dessus (code 1)"
    shown = [t for k, t in browsing.items("#lines") if k == "bad"]
    assert shown == expected
    assert browsing.page.text_content("#bad-title") == "Ce qui diffère"
    assert browsing.items("#bad-lines") == [("bad", t) for t in expected]
    # the draw: the bills drawn again next to the bills the post shows
    draw = next(t for t in shown if "le flux round-2/bills tire" in t)
    assert re.search(r"tire [\d  ·]+ ; le message montre [\d  ·]+$", draw), draw
    browsing.shot("different")


def test_a_thread_without_its_final_post_says_what_was_not_checked(
    browsing: Browsing, magot: Played, tmp_path: Path
) -> None:
    texts = [p.body for p in magot.posts if p.kind not in ("final", "disclosure")]
    code, out = python(tmp_path, texts)
    assert code == 3
    browsing.open()
    browsing.paste(texts)
    assert browsing.check() == (
        "NON VÉRIFIÉ",
        "Rien de contredit, mais tout n'a pas pu être vérifié.",
        "BILAN : rien de contredit, mais tout n'a pas pu être vérifié, voir NON VÉRIFIÉ (code 3)",
    )
    assert browsing.page.is_hidden("#bad-title")
    assert (
        browsing.page.text_content("#result h2:not([hidden])")
        == "Ce qui n'a pas pu être vérifié, et pourquoi"
    )
    unchecked = browsing.items("#unchecked-lines")
    assert unchecked == [
        ("missing", french(line)) for line in out if line.startswith("NON VÉRIFIÉ")
    ]
    assert any(
        "la fin de partie manque (ou la partie n'est pas finie) : graine non révélée, tirages non refaits"
        in t
        for _, t in unchecked
    )
    browsing.shot("not-checked")
    # the same in English, from the toggle, kept in the address only
    browsing.page.click("#lang")
    browsing.page.wait_for_selector("html[lang=en]", state="attached")
    assert browsing.page.evaluate("location.hash") == "#en"
    assert browsing.verdict() == (
        "NOT CHECKED",
        "Nothing contradicted, but not everything could be checked.",
        "SUMMARY: nothing contradicted, but not everything could be checked, see NOT CHECKED (exit 3)",
    )
    assert (
        browsing.page.text_content("#result h2:not([hidden])")
        == "What could not be checked, and why"
    )
    english = [line.split(" / NOT CHECKED: ")[1] for line in out if line.startswith("NON VÉRIFIÉ")]
    assert [t for _, t in browsing.items("#unchecked-lines")] == english
    assert browsing.page.text_content("#check") == "Check"
    assert browsing.page.evaluate("localStorage.length + sessionStorage.length") == 0
    browsing.shot("english")
    browsing.page.click("#lang")
    browsing.page.wait_for_selector("html[lang=fr]", state="attached")
    assert browsing.verdict()[0] == "NON VÉRIFIÉ"


def test_the_page_opens_in_english_from_its_address(browsing: Browsing) -> None:
    browsing.open("#en")
    assert browsing.page.title() == "gm — check the MJ"
    assert browsing.page.text_content("#add") == "+ another post"
    browsing.page.click("#check")
    assert browsing.verdict() == (
        "UNREADABLE",
        "The text pasted could not be read, or something is missing.",
        "Paste at least one post.",
    )
    browsing.shot("unreadable-en")


def test_a_private_reply_matches_or_differs(browsing: Browsing, magot: Played) -> None:
    from gm.service import actions
    from gm.service.secrets import seal_of

    campaign = actions.load(magot.env, magot.slug)
    force = {seal_of(s.record).removeprefix("sha256:")[:32] for s in campaign.secrets.values()}
    seal = re.compile(r"Sceau de ton ordre\u00a0: `([0-9a-f]{32})`")
    reply = next(r for _, r in magot.replies if seal.search(r) and seal.search(r)[1] in force)
    digits = seal.search(reply)[1]
    browsing.open()
    browsing.paste(["\n".join(magot.bodies())], reply=reply)
    assert browsing.check()[0] == "OK"
    mine = [t for k, t in browsing.items("#lines") if t.startswith("ton ordre (reponse-privee:")]
    assert len(mine) == 1 and re.fullmatch(
        rf"ton ordre \(reponse-privee:\d+\) : sceau {digits} publié pour tour \d+, .+ dans .+, identique",
        mine[0],
    ), mine
    forged = digits[:-1] + ("0" if digits[-1] != "0" else "1")
    browsing.paste(["\n".join(magot.bodies())], reply=reply.replace(digits, forged))
    assert browsing.check()[0] == "DIFFÉRENT"
    assert any(
        k == "bad"
        and t.startswith("ton ordre (reponse-privee:")
        and f"sceau {forged} publié dans aucun des messages donnés" in t
        for k, t in browsing.items("#lines")
    )
    browsing.paste(["\n".join(magot.bodies())], reply="Merci pour la partie !")
    word, _, summary = browsing.check()
    assert word == "ILLISIBLE"
    assert "aucun sceau dans cette réponse privée" in summary


def test_the_header_shows_the_version_and_the_live_script_digest(
    browsing: Browsing, built: Built
) -> None:
    browsing.open()
    assert browsing.page.text_content("#version") == gm.__version__
    assert browsing.page.text_content("#digest") == f"sha256:{built.page.script_sha256}"
    assert browsing.page.title() == "gm — vérifier le MJ"


def test_offline_the_page_checks_all_the_same(offline_browsing: Browsing, magot: Played) -> None:
    offline_browsing.open()
    offline_browsing.paste(["\n".join(magot.bodies())])
    assert offline_browsing.check()[0] == "OK"


def test_the_csp_refuses_an_image_injected_into_the_page(browsing: Browsing) -> None:
    browsing.open()
    violations = browsing.page.evaluate(
        """() => new Promise((done) => {
            const seen = [];
            document.addEventListener("securitypolicyviolation", (e) => {
              seen.push(e.violatedDirective);
              done(seen);
            });
            document.body.insertAdjacentHTML("beforeend", '<img src="http://example.invalid/x.png">');
            setTimeout(() => done(seen), 2000);
        })"""
    )
    assert violations == ["img-src"]
    browsing.page.wait_for_timeout(200)
    assert browsing.asked == browsing.refused == ["http://example.invalid/x.png"]
    assert browsing.foreign == []  # refused before any network stage


def test_the_seed_typed_in_redraws_before_the_final_post(
    browsing: Browsing, magot: Played, tmp_path: Path
) -> None:
    texts = [p.body for p in magot.posts if p.kind not in ("final", "disclosure")]
    code, out = python(tmp_path, texts, f"--seed={magot.seed}")
    browsing.open()
    browsing.paste(texts, seed=f"  {magot.seed} ")
    word = browsing.check()[0]
    assert word == {0: "OK", 3: "NON VÉRIFIÉ"}[code]
    lines = browsing.items("#lines")
    assert len(lines) == len(out) - 1
    assert any("la graine correspond au sceau" in t for _, t in lines)
    assert not any("graine pas encore révélée" in t for _, t in lines)
