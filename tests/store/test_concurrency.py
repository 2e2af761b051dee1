"""Concurrent writers, threads and processes: with retries on StaleStateError
nothing is lost or duplicated, and the log stays gap-free and verified."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

from gm.errors import StaleStateError
from gm.store import NewEvent, Store


def _check_log(store: Store, slug: str, expected: set[tuple[str, int]]) -> None:
    events = store.events(slug)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    written = [(e.payload["writer"], e.payload["i"]) for e in events]
    assert len(written) == len(set(written)), "an event was written twice"
    assert set(written) == expected, "an event was lost"
    assert store.verify_chain(slug) == []


def test_threads_appending_optimistically_never_lose_or_duplicate(db_url: str) -> None:
    writers, per_writer = 4, 8
    store = Store(db_url)
    with store.write() as w:
        w.create_campaign("race", "magot", "Race")
    stale = [0] * writers
    errors: list[BaseException] = []
    start = threading.Barrier(writers)

    def writer(n: int) -> None:
        try:
            start.wait()
            for i in range(per_writer):
                while True:
                    # Read outside the lock, like decide() on a snapshot.
                    last = store.last_seq("race")
                    ev = NewEvent("test.raced", f"w{n}", "*", {"writer": f"w{n}", "i": i})
                    try:
                        with store.write("race") as w:
                            w.append("race", [ev], expected_seq=last)
                        break
                    except StaleStateError:
                        stale[n] += 1
        except BaseException as err:  # surfaced below with its traceback
            errors.append(err)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert not errors, errors
        expected = {(f"w{n}", i) for n in range(writers) for i in range(per_writer)}
        _check_log(store, "race", expected)
    finally:
        store.close()


WORKER = textwrap.dedent(
    """
    import sys, time
    from gm.errors import StaleStateError
    from gm.store import NewEvent, Store

    url, name, count, start_at = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    store = Store(url)
    store.open()
    time.sleep(max(0.0, start_at - time.time()))
    for i in range(count):
        ev = NewEvent("test.raced", name, "*", {"writer": name, "i": i})
        if i % 2:
            # Decide under the lock: never stale.
            with store.write("race") as w:
                last = w.last_seq("race")
                w.append("race", [ev], expected_seq=last)
            continue
        while True:
            last = store.last_seq("race")
            try:
                with store.write("race") as w:
                    w.append("race", [ev], expected_seq=last)
                break
            except StaleStateError:
                pass
    store.close()
    """
)


def test_processes_appending_concurrently_never_lose_or_duplicate(db_url: str) -> None:
    processes, per_process = 3, 10
    with Store(db_url) as store, store.write() as w:
        w.create_campaign("race", "magot", "Race")
    start_at = time.time() + 2.0  # after every interpreter has imported gm
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, db_url, f"p{n}", str(per_process), str(start_at)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(processes)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    expected = {(f"p{n}", i) for n in range(processes) for i in range(per_process)}
    with Store(db_url) as store:
        _check_log(store, "race", expected)
