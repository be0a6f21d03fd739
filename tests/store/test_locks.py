"""The store's lock (companion/store/locks.py): reentrant within a thread, exclusive
between threads and processes, and the same `flock` as filelock's FileLock (an app of
either kind on the same folder is kept out)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from companion.store.locks import FlockLock


def test_reentrant_within_a_thread(tmp_path: Path) -> None:
    lock = FlockLock(str(tmp_path / "a.lock"), timeout=1)
    with lock:
        with lock.acquire(timeout=0):
            assert lock.is_locked
        assert lock.is_locked
    assert not lock.is_locked
    with pytest.raises(RuntimeError):
        lock.release()


def test_exclusive_between_threads(tmp_path: Path) -> None:
    lock = FlockLock(str(tmp_path / "a.lock"), timeout=5)
    held = threading.Event()
    done = threading.Event()
    order: list[str] = []

    def other() -> None:
        with lock:
            order.append("other in")
            held.set()
            done.wait(5)
            order.append("other out")

    thread = threading.Thread(target=other)
    thread.start()
    held.wait(5)
    with pytest.raises(Timeout):
        lock.acquire(timeout=0)
    assert lock.is_locked and order == ["other in"]  # held by the other thread
    done.set()
    with lock:
        order.append("me")
    thread.join(5)
    assert order == ["other in", "other out", "me"]


def test_exclusive_with_filelock_and_between_instances(tmp_path: Path) -> None:
    path = str(tmp_path / "a.lock")
    theirs = FileLock(path, timeout=0)
    with theirs, pytest.raises(Timeout):
        FlockLock(path, timeout=0.1).acquire()
    mine = FlockLock(path, timeout=0)
    with mine, pytest.raises(Timeout):
        FlockLock(path).acquire(timeout=0)


def test_exclusive_between_processes(tmp_path: Path) -> None:
    path = tmp_path / "a.lock"
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\nfrom companion.store.locks import FlockLock\n"
         f"lock = FlockLock({str(path)!r}, timeout=5)\n"
         "with lock:\n    print('held', flush=True)\n    time.sleep(0.6)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        lock = FlockLock(str(path), timeout=0.1)
        with pytest.raises(Timeout):
            lock.acquire()
        start = time.monotonic()
        with lock.acquire(timeout=5):  # waits for the child to let go
            assert time.monotonic() - start < 5
    finally:
        child.wait(10)
