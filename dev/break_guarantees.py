"""Break each guarantee of the README's "Guarantees" on purpose, run the test
that should catch it, restore the file: every test must fail.

This is how the guarantees' tests were shown to be able to fail (issue #5,
"show it once by breaking it on purpose"); run it again after changing a
guarantee or its test. It edits files of the working tree one at a time and
always restores them, so run it on a clean checkout:

    . .venv/bin/activate
    eval "$(bash .ci/pg-start /tmp/gm-pg)"     # for the PostgreSQL breaks
    python dev/break_guarantees.py [NAME-FRAGMENT ...]
    bash .ci/pg-stop /tmp/gm-pg

Each line says whether the test failed (as it must) or still passed; the exit
code is 1 if any still passes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900  # seconds per test run; a hang counts as a failure, and is reported


@dataclass(frozen=True)
class Break:
    name: str
    path: str
    old: str
    new: str
    test: str  # pytest arguments


BREAKS = [
    Break(
        "escaping (item 2): markup in names reaches posts raw",
        "gm/render/escape.py",
        '    return Raw("".join("\\\\" + ch if i in marked else ch for i, ch in enumerate(text)))',
        "    return Raw(text)",
        "tests/cli/test_hostile_names.py",
    ),
    Break(
        "names (item 3): colliding names accepted",
        "gm/service/campaigns.py",
        "        if key in seen:\n            raise InputError(",
        "        if False:\n            raise InputError(",
        "tests/platform/test_platform.py",
    ),
    Break(
        "concurrent MJs (item 5): writes without the write lock",
        "gm/store/db.py",
        'conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")',
        'conn.exec_driver_sql("BEGIN")',
        "tests/reliability/test_concurrent_mjs.py",
    ),
    Break(
        "limits (item 8): no limit on an order's length",
        "gm/service/actions.py",
        "    if text is not None and len(text) > MAX_ORDER_TEXT:",
        "    if False:",
        "tests/cli/test_limits.py",
    ),
    Break(
        "limits (item 8): no limit on a template's output",
        "gm/render/engine.py",
        "        if size > MAX_OUTPUT:\n            raise OutputTooLong\n        yield part",
        "        yield part",
        "tests/cli/test_limits.py -k template_output",
    ),
    Break(
        "secrets (item 7): every salt in force published",
        "gm/service/posts.py",
        "    for player in unsealed:",
        "    for player in list(in_force):",
        "tests/conformance/test_games.py",
    ),
    Break(
        "secrets (item 7): the seed given to every post",
        "gm/service/posts.py",
        '"seed": meta.seed if over else None,',
        '"seed": meta.seed,',
        "tests/conformance/test_games.py",
    ),
    Break(
        "hostile input (item 1): a user error escapes as a traceback",
        "gm/cli/__init__.py",
        "        except GMError as err:\n            if err.draft:",
        "        except KeyError as err:\n            if err.draft:",
        "tests/cli/test_hostile_input.py -k 'order or status'",
    ),
    Break(
        "PostgreSQL (item 6): the append-only trigger does not fire on UPDATE",
        "gm/store/migrations/versions/0001_initial.py",
        '                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "\n'
        '                "FOR EACH ROW EXECUTE FUNCTION gm_refuse_change()"',
        '                f"CREATE TRIGGER {table}_append_only BEFORE TRUNCATE ON {table} "\n'
        '                "FOR EACH STATEMENT EXECUTE FUNCTION gm_refuse_change()"',
        "tests/store/test_event_log.py -k 'triggers and postgresql'",
    ),
    Break(
        "crash safety (item 4): events and posts committed apart",
        "gm/service/actions.py",
        "    after = extend(campaign, stored)\n",
        "    after = extend(campaign, stored)\n"
        "    w._conn.commit(); w._conn.begin(); __import__('time').sleep(0.5)\n",
        "tests/reliability/test_crash.py -k killed",
    ),
    Break(
        "crash safety (item 4): production stops waiting for the disk",
        "gm/store/db.py",
        "    if not skips_fsync():\n        return SQLITE_PRAGMAS",
        "    if False:\n        return SQLITE_PRAGMAS",
        "tests/store/test_db.py -k production_waits",
    ),
    Break(
        "private files: SQLite creates the database with the umask's mode",
        "gm/store/db.py",
        "    if not path.exists():\n        with suppress(OSError):",
        "    if False:\n        with suppress(OSError):",
        "tests/store/test_private_files.py",
    ),
    Break(
        "private files: a backup created with the umask's mode",
        "gm/store/db.py",
        "        create_private_file(dst)\n",
        "        open(dst, 'x').close()\n",
        "tests/store/test_private_files.py -k backup",
    ),
    Break(
        "no password in any message: an unparseable URL quoted as given",
        "gm/store/db.py",
        'f"not a database path or URL: {hide_password(url)!r} ({_URL_HINT})"',
        'f"not a database path or URL: {url!r} ({_URL_HINT})"',
        "tests/cli/test_no_password.py -k no_message_shows",
    ),
    Break(
        "players re-decide the game: each post's proof opens what it shows",
        "gm/service/proving.py",
        "    return out - done\n",
        "    return set()\n",
        "tests/check/test_examples.py",
    ),
    Break(
        "players re-decide the game: a public command is published whole",
        "gm/service/deciding.py",
        "    decided = CommandDecided(actor, command.kind, encode(command)[1], public)",
        "    decided = CommandDecided(actor, command.kind, encode(command)[1], False)",
        "tests/cli/test_roll.py -k logs_a_public_event",
    ),
    # Proofs that hold against a cheating MJ (seals, draws, verify, posts).
    Break(
        "fair play: seals and chain heads printed on 32 bits",
        "gm/render/filters.py",
        "SHORT_DIGITS = 32\n",
        "SHORT_DIGITS = 8\n",
        "tests/render/test_render_filters.py -k 128",
    ),
    Break(
        "fair play: a draw's stream is a running count, not its purpose",
        "gm/core/fortune.py",
        "        return Fortune(self._seed, label_for(purpose, self.words))",
        '        return Fortune(self._seed, label_for(f"draw/{len(self._drawn) + 1}", self.words))',
        "tests/cli/test_fortune_fairness.py -k not_even_a_roll",
    ),
    Break(
        "fair play: players' words are left out of the draws",
        "gm/core/fortune.py",
        "        return Fortune(self._seed, label_for(purpose, self.words))",
        "        return Fortune(self._seed, label_for(purpose, ()))",
        "tests/cli/test_fortune_fairness.py -k worthless",
    ),
    Break(
        "fair play: verify does not decide the recorded commands again",
        "gm/service/audit.py",
        "            if got is None or got.kind != kind or got.payload_json != canonical_json(payload):",
        "            if got is None or got.kind != kind:",
        "tests/cli/test_tampered_archives.py -k other_bills",
    ),
    Break(
        "fair play: verify does not check the seed against its commitment",
        "gm/service/audit.py",
        "        if commitment(sealed[0].payload[\"seed\"]) != created.payload[\"commitment\"]:",
        "        if False:",
        "tests/cli/test_tampered_archives.py -k against_the_commitment",
    ),
    Break(
        "fair play: a post is not held to the text the log committed",
        "gm/service/audit.py",
        "            if promised[\"digest\"] != post.hash:",
        "            if False:",
        "tests/cli/test_verify.py -k whatever_it_claims",
    ),
    Break(
        "fair play: a purpose may be drawn twice",
        "gm/core/fortune.py",
        "        if purpose in self._drawn or purpose in self.opened:",
        "        if False:",
        "tests/core/test_fortune.py -k drawn_once",
    ),
    Break(
        "templates (secrets leak): template folders read through links out of them",
        "gm/render/engine.py",
        "loader=jinja2.ChoiceLoader([ConfinedLoader(p) for p in self.search_path]),",
        "loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(p) for p in self.search_path]),",
        "tests/cli/test_template_confinement.py",
    ),
    Break(
        "templates (secrets leak): '..', absolute, backslash and NUL names only 'not found'",
        "gm/render/engine.py",
        "loader=jinja2.ChoiceLoader([ConfinedLoader(p) for p in self.search_path]),",
        "loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(p) for p in self.search_path]),",
        "tests/cli/test_template_confinement.py -k names_that_leave",
    ),
    Break(
        "templates (secrets leak): the read follows a link swapped in after the check",
        "gm/render/loader.py",
        "        return os.open(parts[-1], flags | _NOFOLLOW, dir_fd=fd)",
        "        return os.open(parts[-1], flags, dir_fd=fd)",
        "tests/render/test_render_confinement.py -k swapped_in",
    ),
    Break(
        "templates (secrets leak): no time limit on rendering",
        "gm/render/engine.py",
        "            out = within(MAX_SECONDS, run)",
        "            out = run()",
        "tests/cli/test_template_time_limit.py -k slow_template",
    ),
    Break(
        "templates (secrets leak): the render's alarm left running after it",
        "gm/render/timer.py",
        "            signal.setitimer(signal.ITIMER_REAL, 0)\n        finally:",
        "            pass\n        finally:",
        "tests/cli/test_template_time_limit.py -k alarm_is_cleared",
    ),
    Break(
        "templates (secrets leak): no time limit off the main thread",
        "gm/render/timer.py",
        "    return _with_watchdog(seconds, work)",
        "    return work()",
        "tests/render/test_render_time_limit.py -k other_thread",
    ),
    Break(
        "templates (secrets leak): the watchdog fires into a thread after its render",
        "gm/render/timer.py",
        '            state["done"] = True\n            if state["fired"]:\n'
        "                raise_in(target, None)  # fired but not delivered yet: withdraw it\n"
        "        watchdog.cancel()\n",
        "            pass\n",
        "tests/render/test_render_time_limit.py -k no_late_exception",
    ),
    Break(
        "templates (secrets leak): a watchdog going off as the render ends still raises",
        "gm/render/timer.py",
        '            state["done"] = True\n',
        "            pass\n",
        "tests/render/test_render_time_limit.py -k fires_as_the_render_ends",
    ),
    Break(
        "templates (secrets leak): a macro calling itself ends in a traceback",
        "gm/render/engine.py",
        "        except RecursionError as exc:\n            if _template_frame(",
        "        except () as exc:\n            if _template_frame(",
        "tests/cli/test_template_time_limit.py -k calls_itself",
    ),
]


def run(b: Break) -> tuple[bool, str]:
    """Apply ``b``, run its test, restore; (the test failed, its last line)."""
    file = ROOT / b.path
    text = file.read_text(encoding="utf-8")
    if b.old not in text:
        return False, f"cannot apply: {b.path} no longer contains the line to break"
    file.write_text(text.replace(b.old, b.new, 1), encoding="utf-8")
    try:
        done = subprocess.run(
            f"{sys.executable} -m pytest -x -q -p no:cacheprovider {b.test}",
            shell=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return True, f"the test hung for {TIMEOUT} s"
    finally:
        file.write_text(text, encoding="utf-8")
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith("FAILED")]
    return done.returncode != 0, (failed or lines or ["(no output)"])[0][:160]


def main(only: list[str]) -> int:
    if "GM_TEST_PG_URL" not in os.environ:
        print("note: GM_TEST_PG_URL is not set; the PostgreSQL break cannot fail its test")
    still = 0
    for b in BREAKS:
        if only and not any(o in b.name for o in only):
            continue
        failed, last = run(b)
        still += not failed
        verdict = "fails, as it must" if failed else "STILL PASSES"
        print(f"{b.name}: {verdict} — {last}", flush=True)
    return 1 if still else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
