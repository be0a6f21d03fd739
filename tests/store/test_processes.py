"""Other processes and threads: SIGKILL mid-write, a held lock, concurrent appends."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from filelock import Timeout

from companion.store.atomic import is_temp_name
from companion.store.tinydb_store import TinyDBStore

REPO = Path(__file__).resolve().parents[2]
KILLS = 30
SOAK_KILLS = 400  # the slow soak (VILLAGE_SLOW=1)

APPENDER = """
import sys
from pathlib import Path
from companion.store.tinydb_store import TinyDBStore

store = TinyDBStore(Path(sys.argv[1]))
stored = store.load("s")
n, version = len(stored.events), stored.version
print("ready", n, flush=True)
while True:
    # Compare-and-append, as the services do: the version it extends is named.
    version = store.append("s", [{"n": n, "pad": "x" * 200}], expected=version)
    print(n, flush=True)  # acknowledged: append has returned
    n += 1
"""

LOCK_HOLDER = """
import sys, time
from pathlib import Path
from companion.store.tinydb_store import TinyDBStore

store = TinyDBStore(Path(sys.argv[1]))
with store.session_lock("s"):
    print("locked", flush=True)
    time.sleep(0.5)
    store.append("s", [{"who": "child"}])
"""


def _spawn(script: Path, root: Path, stderr: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, str(script), str(root)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=stderr.open("w"), text=True)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kills", [
    KILLS, pytest.param(SOAK_KILLS, marks=pytest.mark.slow, id="soak")])
def test_sigkill_never_loses_an_acknowledged_event(tmp_path: Path, kills: int) -> None:
    root = tmp_path / "data"
    TinyDBStore(root).create("s", "village", "kill test", {})
    script = tmp_path / "appender.py"
    script.write_text(APPENDER)
    rng = random.Random(20240501)
    acknowledged_total = 0

    for kill in range(kills):
        proc = _spawn(script, root, tmp_path / "stderr.txt")
        assert proc.stdout is not None
        ready = proc.stdout.readline().split()
        assert ready[:1] == ["ready"], (tmp_path / "stderr.txt").read_text()
        start = int(ready[1])
        # Mostly mid-loop (after at least one acknowledged append: a condition, not a time,
        # so a loaded machine cannot turn every kill into a kill before the first append),
        # sometimes right at the first append.
        first: list[int] = []
        if kill % 10:
            first = [int(proc.stdout.readline())]
            time.sleep(rng.uniform(0.0, 0.06))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        acked = first + [int(token) for token in proc.stdout.read().split()]
        proc.stdout.close()
        assert proc.returncode == -signal.SIGKILL, (tmp_path / "stderr.txt").read_text()

        store = TinyDBStore(root)  # must open after every kill
        numbers = [event["n"] for event in store.load("s").events]
        assert numbers == list(range(len(numbers))), f"kill {kill}: log is not 0..k-1"
        last_acked = acked[-1] if acked else start - 1
        # Every acknowledged event is there; at most the one in flight beyond it.
        assert last_acked + 1 <= len(numbers) <= last_acked + 2, f"kill {kill}"
        assert store.problems() == []
        acknowledged_total += len(acked)

    # The kills did land among real appends: each mid-loop kill came after one at least.
    assert acknowledged_total >= kills - kills // 10
    store = TinyDBStore(root)
    assert [info.id for info in store.list_sessions()] == ["s"]
    leftovers = [p.name for p in (root / "sessions").iterdir() if is_temp_name(p.name)]
    assert leftovers == []  # temp files of killed writers were swept on open
    print(f"\n{kills} kills, {acknowledged_total} acknowledged appends, "
          f"{len(store.load('s').events)} events stored")


def test_writer_waits_for_a_lock_held_by_another_process(tmp_path: Path) -> None:
    root = tmp_path / "data"
    store = TinyDBStore(root)
    store.create("s", "village", "lock test", {})
    script = tmp_path / "holder.py"
    script.write_text(LOCK_HOLDER)
    proc = _spawn(script, root, tmp_path / "stderr.txt")
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked", (tmp_path / "stderr.txt").read_text()

    impatient = TinyDBStore(root, lock_timeout=0.05)
    with pytest.raises(Timeout):
        impatient.append("s", [{"who": "impatient"}])
    store.append("s", [{"who": "parent"}])  # blocks until the child has written and let go
    assert proc.wait(timeout=10) == 0, (tmp_path / "stderr.txt").read_text()
    proc.stdout.close()
    assert store.load("s").events == [{"who": "child"}, {"who": "parent"}]


def test_threads_and_instances_in_one_process_do_not_lose_events(tmp_path: Path) -> None:
    TinyDBStore(tmp_path).create("s", "village", "threads", {})
    shared = TinyDBStore(tmp_path)
    errors: list[BaseException] = []

    def worker(store: TinyDBStore, who: int) -> None:
        try:
            for i in range(15):
                store.append("s", [{"who": who, "i": i}])
        except BaseException as exc:  # surface failures from the thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(shared if who < 2 else
                                                     TinyDBStore(tmp_path), who))
               for who in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    events = TinyDBStore(tmp_path).load("s").events
    assert len(events) == 60
    for who in range(4):
        assert [e["i"] for e in events if e["who"] == who] == list(range(15))
